"""Exact NashConv through the bridge (deckzoo.openspiel.policies): the uniform policy's NashConv
on a configuration small enough to walk in seconds, in win-share units; and a best response
gains, in play, what the exact computation says.

The configuration is Go Big at 2 players with values 3, copies 2, hand size 1 (a whole tree walk
takes about two seconds). At 3 players with hand size 1 every seat's choices are worth nothing to
it (NashConv 0), and the next larger 3-player tables take minutes.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import best_response, exploitability

from deckzoo.openspiel import load
from deckzoo.openspiel.policies import agent_policy, share_game

TINY = {"players": 2, "values": 3, "copies": 2, "hand_size": 1}
GAMES = 1200  # per seat: a share's standard deviation is at most 1/2, so the error is ~0.015


@pytest.fixture(scope="module")
def tiny():
    game = share_game("gobig", **TINY)
    uniform = agent_policy(game, "random")
    return game, uniform, exploitability.nash_conv(game, uniform, return_only_nash_conv=False)


def test_uniform_nash_conv_in_win_share_units(tiny):
    _, _, result = tiny
    assert result.nash_conv == pytest.approx(0.369444444444, abs=1e-9)  # this walk, pinned
    # At two seats a win share minus 1/2 is half the ``win`` return (+1 / -1, a tie 0 and 1/2),
    # so the bridge's own reward mode, walked separately, gives twice the NashConv.
    win = load("gobig", **TINY)
    assert exploitability.nash_conv(win, agent_policy(win, "random")) == pytest.approx(
        2 * result.nash_conv, abs=1e-9
    )
    # the utility is zero-sum: the seats' improvements sum to NashConv
    assert sum(result.player_improvements) == pytest.approx(result.nash_conv, abs=1e-12)


def play(game, policies, rng) -> np.ndarray:
    """One game with chance sampled and each seat sampling its policy; the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
        else:
            probs_of = policies[state.current_player()].action_probabilities(state)
            actions, probs = zip(*probs_of.items(), strict=True)
        p = np.asarray(probs, dtype=float)
        state.apply_action(int(actions[rng.choice(len(actions), p=p / p.sum())]))
    return np.asarray(state.returns())


@pytest.mark.parametrize("seat", [0, 1])
def test_best_response_gains_the_exact_value(tiny, seat):
    game, uniform, result = tiny
    br = best_response.BestResponsePolicy(game, seat, uniform)
    exact = br.value(game.new_initial_state())
    # the exact BR value is the uniform seat's own value plus its improvement
    on_policy = exact - result.player_improvements[seat]
    assert result.player_improvements[seat] > 0.1
    rng = np.random.default_rng(57 + seat)
    seats = [br if p == seat else uniform for p in range(game.num_players())]
    got = np.array([play(game, seats, rng)[seat] for _ in range(GAMES)])
    se = got.std(ddof=1) / np.sqrt(GAMES)
    assert abs(got.mean() - exact) < 4 * se, (got.mean(), exact, se)
    assert got.mean() - on_policy > 0.5 * result.player_improvements[seat]
