"""The batched Big Number heuristic decides exactly as the scalar one, position by position.

Positions come from scalar games in which each seat is the heuristic or a random player (so
hands of every shape meet middles of every size, and opponents get down to one or two cards);
each position is loaded into a lane of a batched engine, all lanes are decided at once, and every
answer must equal ``HeuristicAgent.act`` on the scalar position. One deck (one action a play) and
two decks (a play chosen card by card) are both covered, with 2-6 players.
"""

from collections import Counter

import numpy as np
import pytest

from deckzoo.agents.heuristics.bignumber import TEMPO_BONUS, HeuristicAgent, best_pick, hand_value
from deckzoo.agents.heuristics.bignumber_batched import decide, hand_keys
from deckzoo.envs import vector
from deckzoo.envs.bignumber.cards import NUM_TYPES, legal_plays
from deckzoo.envs.bignumber.rules import FINISH, PASS, BigNumberGame, BigNumberState

# (players, two_decks, games, seed); the seeds are chosen so that every config reaches every
# kind of decision (passing with a play in hand is rare with two decks: about 1 in 1,000)
CONFIGS = [
    (2, False, 30, 20),
    (3, False, 30, 30),
    (4, False, 24, 40),
    (3, True, 16, 31),
    (4, True, 14, 44),
    (5, None, 10, 50),
    (6, None, 12, 62),
]


def scalar_scores(view):
    """The scalar heuristic's numbers at a play decision (to classify positions, not to decide):
    the hand, the plays that extend the selection, each play's score as ``choose`` computes it
    (None where a play goes out), and ``hand_value`` of keeping the hand."""
    hand = [0] * NUM_TYPES
    for c in view["hand"]:
        hand[c] += 1
    middle = tuple(view["middle"])
    plays = legal_plays(hand, middle)
    selection = tuple(view["selection"])
    plays = [t for t in plays if t[: len(selection)] == selection]
    others = [k for q, k in enumerate(view["hand_sizes"]) if q != view["player"]]
    danger = min(others) <= 2
    scores = []
    for t in plays:
        after = hand[:]
        for c in t:
            after[c] -= 1
        if not any(after):
            scores.append(None)
            continue
        if middle:
            after[best_pick(after, middle)] += 1
        v = hand_value(after) + TEMPO_BONUS
        if danger:
            v += 0.5 * (len(t) - 1)
        scores.append(v)
    return hand, plays, scores, hand_value(hand), danger


def kind_of(view, action: int) -> list[str]:
    """What sort of decision the scalar heuristic made (and whether equal scores tied)."""
    phase = view["phase"]
    if phase == "pick":
        hand = [0] * NUM_TYPES
        for c in view["hand"]:
            hand[c] += 1
        kinds = ["pick"]
        keys = []
        for c in set(view["middle"]):
            hand[c] += 1
            keys.append(round(hand_value(hand) * 100))
            hand[c] -= 1
        if len(keys) > 2:
            kinds.append("pick of 3+")
        if keys.count(max(keys)) > 1:
            kinds.append("pick tie")
        return kinds
    hand, plays, scores, _, danger = scalar_scores(view)
    if action == PASS:
        return ["pass" if plays else "pass, nothing beats"]
    kinds = []
    if None not in scores:
        keys = [round(v * 100) for v in scores]
        if keys.count(max(keys)) > 1:
            kinds.append("play tie")
    if danger:
        kinds.append(f"{phase} danger")
    if view["two_decks"]:
        step = "finish" if action == FINISH else "add"
        started = "started" if view["selection"] else "fresh"
        return [*kinds, f"{phase} {step} {started}"]
    return [*kinds, f"{phase} {'out' if None in scores else 'play'}"]


def positions(game, games: int, seed: int):
    """Every decision of ``games`` scalar games, with the scalar heuristic's answer to it."""
    rng = np.random.default_rng(seed)
    hero = HeuristicAgent(0)
    states, answers, kinds = [], [], Counter()
    for g in range(games):
        s = game.new_state(seed * 1000 + g)
        random_seats = rng.random(game.num_players) < 0.4
        while not s.is_terminal():
            p = s.current_player
            info = s.for_player(p)
            a = hero.act(info)
            kinds.update(kind_of(info.view(), a))
            states.append(s.clone())
            answers.append(a)
            s.apply(int(rng.choice(s.legal_actions())) if random_seats[p] else a)
    return states, np.array(answers), kinds


def check(states, answers, **options):
    batch = vector.make("bignumber", num_envs=len(states), **options)
    batch.load_states(states)
    lanes = np.arange(len(states))
    got = decide(batch.engine, lanes, batch.legal_mask(), np.random.default_rng(0))
    wrong = np.flatnonzero(got != answers)
    if len(wrong):
        i = int(wrong[0])
        view = states[i].view(states[i].current_player)
        pytest.fail(
            f"{len(wrong)} of {len(states)} positions differ; first: batched {got[i]}, scalar "
            f"{answers[i]}, phase {view['phase']}, hand {view['hand']}, selection "
            f"{view['selection']}, middle {view['middle']}, sizes {view['hand_sizes']}"
        )


@pytest.mark.parametrize("players,two_decks,games,seed", CONFIGS)
def test_batched_heuristic_answers_as_the_scalar_one(players, two_decks, games, seed):
    options = {"num_players": players, "two_decks": two_decks, "target": 10}
    env = vector.make("bignumber", num_envs=1, **options)
    states, answers, kinds = positions(env.game, games, seed)
    assert len(states) >= 2000
    check(states, answers, **options)
    # the positions reached every kind of decision the heuristic makes, and equal scores
    assert kinds["pick"] and kinds["pick of 3+"] and kinds["pick tie"] and kinds["play tie"]
    assert kinds["pass"] and kinds["pass, nothing beats"]
    for phase in ("lead", "answer"):
        assert kinds[f"{phase} danger"]  # an opponent down to two cards or fewer
        if env.game.two_decks:  # a lead builds "everything at once" card by card
            assert kinds[f"{phase} finish started"] and kinds[f"{phase} add fresh"]
            assert kinds[f"{phase} add started"]
        else:
            assert kinds[f"{phase} play"] and kinds[f"{phase} out"]


@pytest.mark.parametrize("two_decks", [False, True])
def test_decides_only_the_lanes_asked_for(two_decks):
    """A subset of lanes, in any order, gets the same answers as the whole batch; so do a batch
    of answers that nothing in hand beats (no lane has a play at all) and an empty one."""
    options = {"num_players": 4, "two_decks": two_decks, "target": 10}
    env = vector.make("bignumber", num_envs=1, **options)
    states, answers, _ = positions(env.game, 3, seed=5)
    batch = vector.make("bignumber", num_envs=len(states), **options)
    batch.load_states(states)
    mask = batch.legal_mask()
    lanes = np.random.default_rng(0).permutation(len(states))[:300]
    got = decide(batch.engine, lanes, mask[lanes])
    np.testing.assert_array_equal(got, answers[lanes])
    stuck = np.flatnonzero(mask[:, PASS] & (mask.sum(axis=1) == 1))
    assert len(stuck) > 10
    np.testing.assert_array_equal(decide(batch.engine, stuck, mask[stuck]), PASS)
    assert len(decide(batch.engine, stuck[:0], mask[:0])) == 0


@pytest.mark.parametrize("copies", [1, 2])
def test_hand_keys_are_the_scalar_hand_value(copies):
    """Bit for bit on random hands of 0-10 cards, and the integer key is the value in hundredths."""
    rng = np.random.default_rng(copies)
    deck = np.repeat(np.arange(NUM_TYPES), copies)
    hands = np.zeros((3000, NUM_TYPES), dtype=np.int64)
    for h in hands:
        np.add.at(h, rng.choice(deck, size=rng.integers(0, 11), replace=False), 1)
    g = hands.reshape(len(hands), 9, 4)
    key, value = hand_keys(g.sum(axis=1), g.sum(axis=2))
    expected = np.array([hand_value(h.tolist()) for h in hands])
    np.testing.assert_array_equal(value, expected)
    np.testing.assert_array_equal(key, np.rint(expected * 100).astype(np.int64))
    assert (hands.sum(axis=1) > 1).any() and len(set(key.tolist())) > 100


# Answers where keeping the hand and the best play score the same in exact arithmetic, so float
# rounding decides between passing and playing (found by a random search over such positions).
# Three players; (two_decks, leader, hands of seats 0-2, the actions from the lead on).
BORDERLINE = [
    (
        False,
        0,
        ["7h 7d 6c 5s 4d 3s 2h 2c Ah", "9h 8h 8d 5d 5c 4s 3h 3d Ad", "9s 8s 7s 6h 3c 2s As"],
        [43, 602],
    ),
    (
        False,
        0,
        ["9d 8c 7s 4c 3s 3d 2h 2d", "9h 7c 6d 5d 4h 4d 3c Ah Ad", "9s 8s 7h 2s As"],
        [42, 596],
    ),
    (False, 0, ["9d 9c 8c 3d 2d Ah Ad", "7s 6d 5d 4h 3s 3c 2h 2c Ac", "9s 8s 7d"], [70, 108]),
    (
        False,
        0,
        ["9d 8d 6s 6d 5d 4s 4h 3d Ac", "8s 8h 6c 5h 3h 3c 2h 2c Ad", "9s 9h 8c 4d"],
        [58, 1110],
    ),
    (False, 0, ["5h 5c 4h 3h As", "8h 6h 5d 4s 4c 3s 3d 2s 2h", "9s 8s 7d"], [51, 2092]),
    (False, 0, ["9s 6h 5c 4c 3s 3d", "9h 8h 7s 7h 6d 4d 3h 2s 2d", "9c 7c 6c 5d 3c 2c"], [46, 597]),
    (True, 2, ["9d 8d 8d Ah", "8s 8h 7d 6c 3s 3h", "9h 9c 8h 5d 4h 3h 3d 3c As"], [40, 73]),
    (True, 2, ["9s 9h 9d Ac", "8h 8d 8d 8c 6c 4h 4d Ac", "9d 7h 6s 6h 6h 5c 4s 3h 2h"], [47, 73]),
    # an opponent down to two cards: the danger bonus is part of the sum
    (True, 1, ["9d 9d 7d 3c", "6h 6d 6c", "9s 8s 8s 8d 7s 4c 3d 2d 2c"], [59, 73, 36]),
    (True, 1, ["9s 8s 7s 4d", "5c 3h", "8c 7h 7c 6h 5h 5h 4s 2d Ad"], [53, 73, 36]),
]


def test_pass_or_play_when_the_scores_are_equal_but_for_rounding():
    """The one comparison without a tolerance (pass when ``hand_value(hand) >= best``): here the
    two sides are equal in exact arithmetic and differ in the last bits, so the twin must add the
    same floats in the same order to pass or play as the scalar agent does."""
    hero = HeuristicAgent(0)
    for two in (False, True):
        states, answers = [], []
        for two_decks, leader, hands, actions in BORDERLINE:
            if two_decks != two:
                continue
            game = BigNumberGame(3, two_decks=two_decks, target=10)
            s = BigNumberState.from_hands(game, hands, leader=leader)
            for a in actions:
                s.apply(a)
            view = s.view(s.current_player)
            assert view["phase"] == "answer" and not view["selection"]
            _, _, scores, keep, _ = scalar_scores(view)
            best = max(scores)
            assert abs(keep - best) < 1e-9 and keep != best  # equal but for rounding
            states.append(s)
            answers.append(hero.act(s.for_player(s.current_player)))
        answers = np.array(answers)
        if not two:
            assert (answers == PASS).any() and (answers != PASS).any()  # both outcomes
        check(states, answers, num_players=3, two_decks=two, target=10)
