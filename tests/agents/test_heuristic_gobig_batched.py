"""The batched Go Big heuristic decides as the scalar one, position by position.

Positions come from scalar games in which each seat is the heuristic or a random player, and from
random late-game positions (most cards banked or boxed, short hands, a short deck: where games
end, where survival is certain and plays tie); each is loaded into a lane of a batched engine and
all lanes are decided at once. Where the scalar heuristic has one best play (and at every draw)
the twin's answer must equal it; where plays tie, the twin's set of best plays must be the scalar
``HeuristicAgent.best_plays`` and its answer one of them, drawn uniformly with the ``rng`` given.
"""

from collections import Counter

import numpy as np
import pytest

from deckzoo.agents.heuristics.gobig import HeuristicAgent, ends_game, unseen_list
from deckzoo.agents.heuristics.gobig_batched import best_plays, decide
from deckzoo.envs import vector
from deckzoo.envs.gobig.rules import (
    COPIES,
    DRAW_DECK,
    NUM_PLAYS,
    PHASE_DRAW,
    PHASE_PLAY,
    TAKE_MARKET,
    VALUES,
    beaten_seats,
    decode_play,
    encode_play,
)
from deckzoo.envs.gobig.saved import check_state
from tests.gobig.helpers import position

CONFIGS = [  # (players, end_rule, games, late positions, tie positions)
    (2, "after_draw", 5, 300, 150),
    (3, "literal", 5, 300, 150),
    (4, "after_draw", 6, 400, 200),
    (4, "literal", 4, 400, 200),
    (5, "after_draw", 5, 300, 200),
    (6, "literal", 5, 300, 250),
]


def late_position(rng, n: int, end_rule: str):
    """A random position late in a game: the seat to act holds 1-6 cards, the others 1-5, the
    deck 0-8, some displays stand, the rest of the 91 cards are banked or boxed. One in three is
    the very end: the deck is empty (the market often too), the others hold 1-2 cards, and the
    seat to act often holds one group only, which it may play to end the game, or split."""
    cards = rng.permutation(np.repeat(np.arange(1, VALUES + 1), COPIES)).tolist()

    def take(k):
        out = cards[:k]
        del cards[:k]
        return out

    def group():  # 1-3 cards of one value
        v = cards[0]
        k = min(int(rng.integers(1, 4)), cards.count(v))
        for _ in range(k):
            cards.remove(v)
        return [v] * k

    me = int(rng.integers(n))
    end = rng.random() < 1 / 3
    if end:
        hands = [
            (group() if rng.random() < 0.5 else take(int(rng.integers(3, 9))))
            if s == me
            else take(int(rng.integers(1, 3)))
            for s in range(n)
        ]
        deck = []
    else:
        hands = [take(int(rng.integers(1, 7 if s == me else 6))) for s in range(n)]
        deck = take(int(rng.choice([0, 0, 0, 1, 2, 3, 5, 8])))
    market = take(2 if deck else int(rng.choice([0, 0, 1, 2])))
    displays = [None] * n
    for s in range(n):
        if s != me and rng.random() < 0.6:
            shown = group()
            displays[s] = (shown[0], len(shown))
    box_share = rng.random()
    box, banks = [], [[] for _ in range(n)]
    for c in cards:
        (box if rng.random() < box_share else banks[int(rng.integers(n))]).append(c)
    s = position(hands, displays, deck, market, banks, box, me, end_rule, conserve=False)
    check_state(s.game, s._to_dict())
    return s


# plays worth the same points: (value, size) groups that tie when all of them are safe
EQUAL_POINTS = [
    [(2, 1), (1, 2)],
    [(3, 1), (1, 3)],
    [(4, 1), (2, 2)],
    [(6, 1), (3, 2), (2, 3)],
    [(3, 2), (2, 3)],
    [(6, 2), (4, 3)],
    [(6, 1), (2, 3)],
]


def tie_position(rng, n: int, end_rule: str):
    """The last turns of a game where plays tie: the deck is empty, the others hold only 7s (so
    nothing of ours below 7 can be beaten) and our hand holds exactly the groups of one row of
    ``EQUAL_POINTS`` (nothing stranded), and maybe a smaller group; some 7s stand as displays."""
    left = np.full(VALUES, COPIES)
    me = int(rng.integers(n))
    groups = EQUAL_POINTS[int(rng.integers(len(EQUAL_POINTS)))]
    mine = [v for v, k in groups for _ in range(k)]
    if rng.random() < 0.5 and not any(v == 1 for v, _ in groups):
        mine += [1] * int(rng.integers(1, 3))
    hands = [mine if s == me else [7] * int(rng.integers(1, 3)) for s in range(n)]
    for h in hands:
        for v in h:
            left[v - 1] -= 1
    displays = [None] * n
    for s in range(n):
        k = int(rng.integers(1, 4))
        if s != me and rng.random() < 0.3 and left[6] >= k:
            displays[s] = (7, k)
            left[6] -= k
    rest = rng.permutation(np.repeat(np.arange(1, VALUES + 1), left)).tolist()
    market = rest[: int(rng.integers(0, 3))]
    rest = rest[len(market) :]
    banks = [[] for _ in range(n)]
    box = []
    for c in rest:
        (box if rng.random() < 0.5 else banks[int(rng.integers(n))]).append(c)
    s = position(hands, displays, [], market, banks, box, me, end_rule, conserve=False)
    check_state(s.game, s._to_dict())
    return s


def positions(players: int, end_rule: str, games: int, late: int, seed: int, ties: int = 0):
    """Every decision of ``games`` scalar games (seats: the heuristic or random), ``late``
    random late-game positions (and, where one can follow, the draw after the heuristic's play)
    and ``ties`` positions where plays tie (``tie_position``)."""
    env = vector.make("gobig", num_envs=1, num_players=players, end_rule=end_rule)
    rng = np.random.default_rng(seed)
    hero = HeuristicAgent(seed)
    states = []
    for g in range(games):
        s = env.game.new_state(seed * 1000 + g)
        random_seats = rng.random(players) < 0.5
        while not s.is_terminal():
            states.append(s.clone())
            p = s.current_player
            legal = s.legal_actions()
            s.apply(int(rng.choice(legal)) if random_seats[p] else hero.act(s.for_player(p)))
    for _ in range(late):
        s = late_position(rng, players, end_rule)
        states.append(s.clone())
        s.apply(hero.act(s.for_player(s.current_player)))
        if s.phase == PHASE_DRAW:
            states.append(s)
    states += [tie_position(rng, players, end_rule) for _ in range(ties)]
    return states


def scalar_answers(states):
    """Per position: the scalar heuristic's best plays (play step) or its one draw choice, and the
    kinds of decision it was."""
    hero = HeuristicAgent(0)
    tops, kinds = [], Counter()
    for s in states:
        p = s.current_player
        info = s.for_player(p)
        if s.phase == PHASE_PLAY:
            top = hero.best_plays(info)
            kinds.update(_play_kinds(hero, s, top))
        else:
            top = [hero.act(info)]
            kinds["deck" if top[0] == DRAW_DECK else "market"] += 1
        tops.append(top)
    return tops, kinds


def _play_kinds(hero, s, top):
    view = s.view(s.current_player)
    me = view["player"]
    options = s.game.options
    unseen = unseen_list(view)
    scores = {int(a): hero._score_play(view, options, int(a), unseen) for a in s.legal_actions()}
    value, size = decode_play(top[0])
    out = [f"size {size}"]
    if len(top) > 1:
        out.append("tie")
    if ends_game(view, options, value, size):
        out.append("ends, winning" if scores[top[0]] > 0 else "ends, losing")
        if view["deck_size"] or view["market"]:
            out.append("ends with cards left to draw")
    elif min(scores.values()) < -500:
        out.append("avoids ending")
    displays = [None if d is None else tuple(d) for d in view["displays"]]
    displays[me] = (value, size)
    if beaten_seats(displays, me, value, size):
        out.append("beats")
    if 0 < view["hand"][value - 1] - size < 3:
        out.append("breaks a group")
    return out


def batch_of(states, players, end_rule):
    batch = vector.make("gobig", num_envs=len(states), num_players=players, end_rule=end_rule)
    batch.load_states(states)
    return batch


def as_mask(tops, phases):
    out = np.zeros((len(tops), NUM_PLAYS), dtype=bool)
    for i, top in enumerate(tops):
        if phases[i] == PHASE_PLAY:
            out[i, top] = True
    return out


@pytest.mark.parametrize("players,end_rule,games,late,ties", CONFIGS)
def test_batched_heuristic_answers_as_the_scalar_one(players, end_rule, games, late, ties):
    seed = players * 10 + len(end_rule)
    states = positions(players, end_rule, games, late, seed, ties)
    tops, kinds = scalar_answers(states)
    batch = batch_of(states, players, end_rule)
    lanes = np.arange(len(states))
    mask = batch.legal_mask()
    phase = batch.engine.phase[lanes]
    got = decide(batch.engine, lanes, mask, np.random.default_rng(0))
    single = np.array([len(t) == 1 for t in tops])
    expected = np.array([t[0] for t in tops])
    wrong = np.flatnonzero(single & (got != expected))
    wrong_tie = [i for i in np.flatnonzero(~single) if got[i] not in tops[i]]
    if len(wrong) or wrong_tie:
        i = int(wrong[0]) if len(wrong) else wrong_tie[0]
        view = states[i].view(states[i].current_player)
        pytest.fail(
            f"{len(wrong)} single-best and {len(wrong_tie)} tied positions of {len(states)} "
            f"differ; first: batched {got[i]}, scalar {tops[i]}, view {view}"
        )
    # the twin's set of best plays is the scalar's, at every play position
    play = np.flatnonzero(phase == PHASE_PLAY)
    sets = best_plays(batch.engine, lanes[play], mask[play])
    np.testing.assert_array_equal(sets, as_mask(tops, phase)[play])
    assert len(states) > 900
    # every kind of decision was reached
    for kind in ("size 1", "size 2", "size 3", "deck", "market", "tie", "beats"):
        assert kinds[kind] > 3, (kind, kinds)
    for kind in ("breaks a group", "ends, winning", "ends, losing", "avoids ending"):
        assert kinds[kind] > 3, (kind, kinds)
    if end_rule == "literal":
        assert kinds["ends with cards left to draw"] > 3, kinds
    # ties are broken among their members, not always the first
    tied = np.flatnonzero(~single)
    assert len(tied) >= 50
    assert np.mean([got[i] != tops[i][0] for i in tied]) > 0.3


def tied_positions(count: int, seed: int):
    """``count`` tie positions at 4 players, those with three best plays first."""
    rng = np.random.default_rng(seed)
    hero = HeuristicAgent(0)
    found = []
    while len(found) < 4 * count:
        s = tie_position(rng, 4, "after_draw")
        top = hero.best_plays(s.for_player(s.current_player))
        if len(top) > 1:
            found.append((-len(top), len(found), s))
    return [s for _, _, s in sorted(found)[:count]]


def test_ties_are_drawn_uniformly_from_the_lanes_generator():
    """One tied position in 3000 lanes: each of its best plays is drawn about equally often, no
    other play ever; the same generator state draws the same plays, another draws others."""
    hero = HeuristicAgent(0)
    for s in tied_positions(3, seed=7):
        top = hero.best_plays(s.for_player(s.current_player))
        batch = batch_of([s] * 3000, 4, "after_draw")
        lanes = np.arange(3000)
        mask = batch.legal_mask()
        got = decide(batch.engine, lanes, mask, np.random.default_rng(1))
        counts = Counter(got.tolist())
        assert set(counts) == set(top)
        expected = 3000 / len(top)
        assert all(abs(c - expected) < 0.15 * expected for c in counts.values()), (counts, top)
        again = decide(batch.engine, lanes, mask, np.random.default_rng(1))
        np.testing.assert_array_equal(got, again)
        other = decide(batch.engine, lanes, mask, np.random.default_rng(2))
        assert (other != got).any()


def test_decides_only_the_lanes_asked_for():
    """A subset of lanes, in any order, gets the same answers as the whole batch (no ties here:
    those draw from the generator)."""
    states = positions(4, "after_draw", 2, 100, seed=5)
    tops, _ = scalar_answers(states)
    keep = [i for i, t in enumerate(tops) if len(t) == 1]
    states = [states[i] for i in keep]
    expected = np.array([tops[i][0] for i in keep])
    batch = batch_of(states, 4, "after_draw")
    lanes = np.random.default_rng(0).permutation(len(states))[:200]
    got = decide(batch.engine, lanes, batch.legal_mask()[lanes], np.random.default_rng(0))
    np.testing.assert_array_equal(got, expected[lanes])
    assert {TAKE_MARKET, DRAW_DECK} <= set(got.tolist())


def test_plays_a_rounding_error_apart_tie_as_in_the_scalar():
    """Six players, the others holding one 7 each (pairs are safe). A pair of 2s beats two pairs
    of 3s (one of the leader's: 4 + 0.4 * 6 + 0.2 * 6) and a pair of 3s beats a pair of 4s
    (6 + 0.2 * 8): 7.6 both, but 7.6000000000000005 and 7.6 in floating point, which the scalar's
    1e-9 counts as a tie."""
    s = position(
        hands=[[3, 3, 2, 2, 4]] + [[7]] * 5,
        displays=[None, (3, 2), (3, 1), (6, 2), (3, 2), (4, 2)],
        banks=[[], [], [5], [], [5], []],
    )
    hero = HeuristicAgent(0)
    view, options = s.view(0), s.game.options
    pair_of_2s, pair_of_3s = encode_play(2, 2), encode_play(3, 2)
    a = hero._score_play(view, options, pair_of_2s, unseen_list(view))
    b = hero._score_play(view, options, pair_of_3s, unseen_list(view))
    assert a != b and abs(a - b) < 1e-9
    assert hero.best_plays(s.for_player(0)) == [pair_of_2s, pair_of_3s]
    batch = batch_of([s] * 200, 6, "after_draw")
    lanes = np.arange(200)
    sets = best_plays(batch.engine, lanes, batch.legal_mask())
    assert (np.flatnonzero(sets[0]) == [pair_of_2s, pair_of_3s]).all() and (sets == sets[0]).all()
    got = decide(batch.engine, lanes, batch.legal_mask(), np.random.default_rng(0))
    assert set(got.tolist()) == {pair_of_2s, pair_of_3s}


def test_reads_only_what_the_player_may_know():
    """Every position and a copy with the hidden cards redealt (the other hands and the deck
    order, ``determinize``): the same view, so the same answers, ties drawn alike from equal
    generators; and the redeal did change hidden cards."""
    states = positions(4, "after_draw", 2, 200, seed=9, ties=50)
    rng = np.random.default_rng(3)
    redealt = [s.determinize(s.current_player, rng) for s in states]
    for a, b in zip(states, redealt):
        assert a.view(a.current_player) == b.view(b.current_player)
    assert sum(a.to_dict() != b.to_dict() for a, b in zip(states, redealt)) > len(states) / 2
    lanes = np.arange(len(states))
    answers = []
    for group in (states, redealt):
        batch = batch_of(group, 4, "after_draw")
        answers.append(decide(batch.engine, lanes, batch.legal_mask(), np.random.default_rng(0)))
    np.testing.assert_array_equal(answers[0], answers[1])
