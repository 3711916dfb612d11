"""The batched Wizard heuristic decides exactly as the scalar one, position by position.

Positions come from scalar games in which each seat is the heuristic or a random player (so
bids are met, missed and overshot, and every branch of the card-play rules is reached); each
position is loaded into a lane of a batched engine, all lanes are decided at once, and every
answer must equal ``HeuristicAgent.act`` on the scalar position.
"""

from collections import Counter

import numpy as np
import pytest

from deckzoo.agents.heuristics.wizard import HeuristicAgent
from deckzoo.agents.heuristics.wizard_batched import decide
from deckzoo.envs import vector
from deckzoo.envs.wizard.rules import PHASE_NAMES, encode_bid

from ..wizard.helpers import stacked

CONFIGS = [  # (players, foresight, games)
    (3, True, 6),
    (4, True, 12),
    (4, False, 6),
    (5, True, 4),
    (6, False, 3),
]


def positions(env, games: int, seed: int):
    """Every decision of ``games`` scalar games, with the scalar heuristic's answer to it."""
    rng = np.random.default_rng(seed)
    hero = HeuristicAgent(0)
    states, answers, kinds = [], [], Counter()
    for g in range(games):
        s = env.game.new_state(seed * 1000 + g)
        random_seats = rng.random(env.num_players) < 0.5
        while not s.is_terminal():
            p = s.current_player
            info = s.for_player(p)
            a = hero.act(info)
            view = info.view()
            kinds[(view["phase"], view["hand"] is None, bool(view["trick"]))] += 1
            states.append(s.clone())
            answers.append(a)
            legal = s.legal_actions()
            s.apply(int(rng.choice(legal)) if random_seats[p] else a)
    return states, np.array(answers), kinds


@pytest.mark.parametrize("players,foresight,games", CONFIGS)
def test_batched_heuristic_answers_as_the_scalar_one(players, foresight, games):
    env = vector.make("wizard", num_envs=1, num_players=players, foresight=foresight)
    states, answers, kinds = positions(env, games, seed=players * 10 + foresight)
    batch = vector.make("wizard", num_envs=len(states), num_players=players, foresight=foresight)
    batch.load_states(states)
    got = decide(batch.engine, np.arange(len(states)), batch.legal_mask())
    wrong = np.flatnonzero(got != answers)
    if len(wrong):
        i = int(wrong[0])
        view = states[i].view(states[i].current_player)
        pytest.fail(
            f"{len(wrong)} of {len(states)} positions differ; first: batched {got[i]}, scalar "
            f"{answers[i]}, phase {view['phase']}, hand {view['hand']}, trick {view['trick']}, "
            f"trump {view['trump']}, led {view['led_suit']}, bids {view['bids']}, "
            f"won {view['tricks_won']}"
        )
    # the positions reached every kind of decision (phase, own hand hidden, trick started)
    assert kinds[("bid", False, False)] and kinds[("play", False, False)]
    assert kinds[("play", False, True)]
    if foresight:
        assert kinds[("bid", True, False)]
    assert sum(v for (phase, _, _), v in kinds.items() if phase == "trump")
    assert set(PHASE_NAMES) >= {phase for phase, _, _ in kinds}


@pytest.mark.parametrize("players", [4, 6])
def test_foresight_trump_choice_and_bid_with_the_own_card_hidden(players):
    """Round 1 of the Foresight variant with a flipped Wizard: the dealer picks trump without
    seeing its card, and everyone bids from the others' cards only. Deals are searched until a
    Wizard is flipped, so the branch is certainly reached (with 6 players the others' cards can
    cover every suit, where the weights of their ranks decide)."""
    env = vector.make("wizard", num_envs=1, num_players=players)
    hero = HeuristicAgent(0)
    states, answers = [], []
    seed, trumps = 0, 0
    while trumps < 60:
        s = env.game.new_state(seed)
        seed += 1
        if PHASE_NAMES[s.phase] != "trump":
            continue
        trumps += 1
        while PHASE_NAMES[s.phase] in ("trump", "bid"):
            a = hero.act(s.for_player(s.current_player))
            states.append(s.clone())
            answers.append(a)
            s.apply(a)
    batch = vector.make("wizard", num_envs=len(states), num_players=players)
    batch.load_states(states)
    got = decide(batch.engine, np.arange(len(states)), batch.legal_mask())
    np.testing.assert_array_equal(got, answers)
    assert any(PHASE_NAMES[s.phase] == "trump" for s in states)


def test_decides_only_the_lanes_asked_for():
    """A subset of lanes, in any order, gets the same answers as the whole batch."""
    env = vector.make("wizard", num_envs=1, num_players=4)
    states, answers, _ = positions(env, 2, seed=5)
    batch = vector.make("wizard", num_envs=len(states), num_players=4)
    batch.load_states(states)
    lanes = np.random.default_rng(0).permutation(len(states))[:300]
    got = decide(batch.engine, lanes, batch.legal_mask()[lanes])
    np.testing.assert_array_equal(got, answers[lanes])


def test_dealer_between_two_equally_near_bids_takes_the_lower():
    """The dealer expects exactly one trick (a Wizard and a Null), and one is forbidden: 0 and 2
    are equally near, and the scalar rule takes the lower."""
    s = stacked(["W N", "D2 H3", "E4 G5", "D6 H7"], flipped="G2", dealer=0, num_rounds=2)
    for bid in (1, 0, 0):  # seats 1, 2, 3 bid first: the dealer may not bid 1
        s.apply(encode_bid(bid))
    assert s.current_player == 0
    a = HeuristicAgent(0).act(s.for_player(0))
    assert a == encode_bid(0)
    batch = vector.make("wizard", num_envs=1, num_players=4, first_dealer=0, num_rounds=2)
    batch.load_states([s])
    assert decide(batch.engine, np.arange(1), batch.legal_mask())[0] == a
