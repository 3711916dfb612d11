"""Agents never see hidden cards.

The test swaps the hidden cards of a real position (``state.determinize(seat, rng)`` keeps
everything the seat may know and resamples the rest) and checks that the agent's action
distribution cannot change:

* agents that never sample (random, the heuristics) must answer *identically* on both states
  for every seed;
* agents that sample determinizations (ISMCTS) get different samples from differently arranged
  hidden cards even with one seed, so their action frequencies over many seeds are compared
  (total variation distance), against a cheating agent that the same check must catch.

Agents are also run through a stricter proxy than ``InfoState``: an object holding no state at
all, only the permitted methods, so reading anything else fails loudly.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from deckzoo.agents.base import Agent
from deckzoo.agents.registry import make_agent

from .helpers import ENV_NAMES, agent_specs, make_game, positions


class ViewOnly:
    """Only what the agent protocol permits; the state sits in closures, not in attributes."""

    def __init__(self, state, player):
        self.player = player
        self.game = state.game
        self.current_player = state.current_player
        self.view = lambda: state.view(player)
        self.observe = lambda: state.observe(player)
        self.legal_mask = lambda: state.for_player(player).legal_mask()
        self.legal_actions = lambda: state.for_player(player).legal_actions()
        self.determinize = lambda rng: state.determinize(player, rng)
        self.action_name = state.action_name
        self.is_terminal = state.is_terminal


def swapped_positions(env_name, count=6, seed=0):
    """(real, swapped, seat) triples whose hidden cards really differ."""
    game = make_game(env_name)
    rng = np.random.default_rng(seed + 99)
    out = []
    for state in positions(game, seed, count, skip=5):
        p = state.current_player
        for _ in range(5):
            other = state.determinize(p, rng)
            if other.to_dict()["state"] != state.to_dict()["state"]:
                break
        assert other.view(p) == state.view(p)
        assert np.array_equal(other.legal_mask(), state.legal_mask())
        out.append((state, other, p))
    differ = sum(a.to_dict()["state"] != b.to_dict()["state"] for a, b, _ in out)
    assert differ >= count // 2, (
        "the swap changed too few hidden cards for the test to mean anything"
    )
    return out


def samples_determinizations(agent, state, seat) -> bool:
    calls = []

    class Spy(ViewOnly):
        def __init__(self, s, p):
            super().__init__(s, p)
            inner = self.determinize
            self.determinize = lambda rng: (calls.append(1), inner(rng))[1]

    agent.act(Spy(state, seat))
    return bool(calls)


def total_variation(a: Counter, b: Counter) -> float:
    n_a, n_b = sum(a.values()), sum(b.values())
    return 0.5 * sum(abs(a[k] / n_a - b[k] / n_b) for k in set(a) | set(b))


def action_counts(spec, game_name, state, seat, seeds):
    return Counter(make_agent(spec, game_name, s).act(ViewOnly(state, seat)) for s in seeds)


CASES = [(env, spec) for env in ENV_NAMES for spec in agent_specs(make_game(env).name)]


@pytest.mark.parametrize("env_name,spec", CASES, ids=[f"{e}-{s.split(':')[0]}" for e, s in CASES])
def test_action_distribution_ignores_hidden_cards(env_name, spec):
    game_name = make_game(env_name).name
    triples = swapped_positions(env_name)
    for real, swapped, seat in triples:
        legal = set(real.legal_actions().tolist())
        probe = make_agent(spec, game_name, 0)
        if not samples_determinizations(probe, real, seat):
            for s in range(8):
                a = make_agent(spec, game_name, s).act(ViewOnly(real, seat))
                b = make_agent(spec, game_name, s).act(ViewOnly(swapped, seat))
                assert a == b, f"{spec} answered {a} and {b} in positions equal for seat {seat}"
                assert a in legal
        else:
            seeds = range(24)
            ca = action_counts(spec, game_name, real, seat, seeds)
            cb = action_counts(spec, game_name, swapped, seat, seeds)
            assert set(ca) <= legal and set(cb) <= legal
            assert total_variation(ca, cb) <= 0.5, f"{spec}: {dict(ca)} vs {dict(cb)}"


class Peeker(Agent):
    """Cheats: reads the real state behind ``InfoState`` and chooses by the hidden cards."""

    def act(self, info_state):
        state = info_state._state
        hidden = str(state.to_dict()["state"]).encode()
        legal = info_state.legal_actions()
        return int(legal[sum(hidden) % len(legal)])


class SearchingPeeker(Agent):
    """Cheats inside a search: 'determinizes' by copying the real state (perfect information)."""

    def __init__(self, seed=None):
        super().__init__(seed)
        from deckzoo.agents.ismcts import ISMCTSAgent

        self.inner = ISMCTSAgent(seed, iterations=20, max_rollout_steps=40)

    def act(self, info_state):
        real = info_state._state

        class Leaky:
            player = info_state.player
            legal_actions = info_state.legal_actions
            observe = info_state.observe  # the search's loop guard reads it

            @staticmethod
            def determinize(rng):
                s = real.clone()
                s.rng = np.random.default_rng(rng.integers(2**63))
                return s

        return self.inner.act(Leaky)


def test_the_check_catches_a_peeking_agent():
    triples = swapped_positions("gobig_v0")
    caught = 0
    for real, swapped, seat in triples:
        a = Peeker(0).act(real.for_player(seat))
        b = Peeker(0).act(swapped.for_player(seat))
        caught += a != b
    assert caught >= 1
    with pytest.raises(AttributeError):
        Peeker(0).act(ViewOnly(triples[0][0], triples[0][2]))


def swapped_hands_position():
    """Three players, nothing left to draw; seats 1 and 2 hold one card each, a 6 and a 7, and
    seat 0 cannot know who holds which. Seat 0 (hand 7, 1, 1; 25 points in 5 cards) chooses:

    * 1x7: if seat 1 holds the 6 it beats our 7 and ends the game 25 to 26 (we lose); if it holds
      the 7, it ends 32 to 27 (we win);
    * 2x1: with the 6 at seat 1 we win 27 to 26; with the 7 it is 27 all and seat 1's eleven
      banked cards beat our seven (we lose).

    The right answer depends on exactly the hidden card, so an honest searcher is indifferent
    (50/50 either way) while a searcher that sees the cards always picks the winning move."""
    from tests.gobig.helpers import position

    kw = {"banks": [[5] * 5, [2] * 10, [5] * 4], "current": 0}
    return position(hands=[[7, 1, 1], [6], [7]], **kw), position(hands=[[7, 1, 1], [7], [6]], **kw)


def test_the_distribution_check_catches_a_perfect_information_search():
    from deckzoo.agents.ismcts import ISMCTSAgent
    from deckzoo.envs.gobig.rules import encode_play

    real, swapped = swapped_hands_position()
    assert real.view(0) == swapped.view(0)
    seeds = range(60)
    ca = Counter(SearchingPeeker(s).act(real.for_player(0)) for s in seeds)
    cb = Counter(SearchingPeeker(s).act(swapped.for_player(0)) for s in seeds)
    assert ca[encode_play(1, 2)] == 60 and cb[encode_play(7, 1)] == 60  # the cheat always "knows"
    assert total_variation(ca, cb) > 0.9
    honest_a = Counter(ISMCTSAgent(s, iterations=20).act(ViewOnly(real, 0)) for s in seeds)
    honest_b = Counter(ISMCTSAgent(s, iterations=20).act(ViewOnly(swapped, 0)) for s in seeds)
    assert total_variation(honest_a, honest_b) < 0.3
