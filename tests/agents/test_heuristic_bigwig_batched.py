"""The batched BigWig heuristic decides as the scalar one, decision by decision.

Positions are every decision of scalar games (2-6 players) in which each seat is the heuristic or
a random player. At each, the scalar heuristic answers with a generator that records its draws
(the opponents' cards of each sampled trick and the uniform numbers that turn some into wells);
the positions are loaded into the lanes of a batched engine and ``choose``, given those same
draws, must answer every one exactly as the scalar agent did. ``decide`` draws its own from the
lanes' generator: its draws must have the scalar's distribution, and its answers disagree with
the scalar agent's no more often than another seed of the scalar agent does.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from deckzoo.agents.base import RandomAgent
from deckzoo.agents.heuristics.bigwig import HeuristicAgent
from deckzoo.agents.heuristics.bigwig_batched import (
    SAMPLES,
    WELL_CHANCE,
    choose,
    decide,
    draw_samples,
    needs_samples,
    opponents,
    trick_winners,
    unseen_counts,
)
from deckzoo.envs import vector
from deckzoo.envs.bigwig.cards import NUM_KINDS, NUM_STANDARD, WELL
from deckzoo.envs.bigwig.rules import (
    JOIN,
    PHASE_NAMES,
    PLAY_WELL,
    BigWigGame,
)
from deckzoo.envs.bigwig.trick import trick_winner

CONFIGS = [  # (players, age order, games)
    (2, None, 8),
    (3, None, 6),
    (4, None, 4),
    (4, (2, 0, 3, 1), 3),
    (5, None, 3),
    (6, None, 3),
]


class Recording:
    """A generator that keeps what the scalar agent draws: per sampled trick, the opponents'
    cards (``choice``) and the uniform numbers drawn after it (``random``)."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.samples: list[tuple[list[int], list[float]]] = []

    def choice(self, a, size=None, replace=True):
        out = self.rng.choice(a, size=size, replace=replace)
        self.samples.append((np.atleast_1d(out).tolist(), []))
        return out

    def random(self):
        x = self.rng.random()
        self.samples[-1][1].append(x)
        return x


def recorded_draws(samples, width: int):
    """The recorded samples as ``choose``'s ``picks``/``uniforms`` ``(SAMPLES, width)``
    (``WELL``/1.0 where nothing was drawn)."""
    picks = np.full((SAMPLES, width), WELL, dtype=np.int8)
    uniforms = np.ones((SAMPLES, width))
    assert len(samples) in (0, SAMPLES)
    for i, (cards, us) in enumerate(samples):
        assert len(cards) == len(us)
        picks[i, : len(cards)] = cards
        uniforms[i, : len(us)] = us
    return picks, uniforms


def kind_of(view, action: int) -> str:
    """A label for the decision the scalar agent made (to check every kind was reached)."""
    phase = view["phase"]
    if phase == "commit":
        played = "well" if action == PLAY_WELL else "card"
        return f"{'duel' if view['stake'] is not None else 'trick'} {played}"
    if phase == "ticket":
        return "join" if action == JOIN else "pass"
    return phase


def positions(players: int, age_order, games: int, seed: int):
    """Every decision of ``games`` scalar games, with the scalar heuristic's answer to it and
    its recorded draws (seats: the heuristic or random; the heuristic answers every position)."""
    game = BigWigGame(num_players=players, age_order=age_order)
    rng = np.random.default_rng(seed)
    hero = HeuristicAgent(seed)
    mover = RandomAgent(seed)
    states, answers, draws, kinds = [], [], [], Counter()
    for g in range(games):
        s = game.new_state(seed * 1000 + g)
        random_seats = rng.random(players) < 0.5
        while not s.is_terminal():
            p = s.current_player
            info = s.for_player(p)
            hero.rng = Recording(int(rng.integers(2**31)))
            a = hero.act(info)
            if len(s.legal_actions()) > 1:
                kinds[kind_of(info.view(), a)] += 1
            states.append(s.clone())
            answers.append(a)
            draws.append(hero.rng.samples)
            s.apply(mover.act(info) if random_seats[p] else a)
    return states, np.array(answers), draws, kinds


def as_batch(states):
    batch = vector.from_states(states)
    return batch, np.arange(len(states)), batch.legal_mask()


def stacked(draws, width: int):
    pairs = [recorded_draws(d, width) for d in draws]
    return np.stack([p for p, _ in pairs]), np.stack([u for _, u in pairs])


@pytest.mark.parametrize("players,age_order,games", CONFIGS)
def test_batched_heuristic_answers_as_the_scalar_one(players, age_order, games):
    states, answers, draws, kinds = positions(players, age_order, games, seed=players * 7 + games)
    batch, lanes, mask = as_batch(states)
    engine = batch.engine
    picks, uniforms = stacked(draws, players - 1)
    got = choose(engine, lanes, mask, picks, uniforms)
    wrong = np.flatnonzero(got != answers)
    if len(wrong):
        i = int(wrong[0])
        pytest.fail(
            f"{len(wrong)} of {len(states)} positions differ; first: batched {got[i]}, scalar "
            f"{answers[i]}, view {states[i].view(states[i].current_player)}"
        )
    # the scalar agent sampled exactly where the twin would, as many opponents' cards as here
    need = needs_samples(engine, lanes, mask)
    size = np.minimum(opponents(engine, lanes), unseen_counts(engine, lanes).sum(axis=1))
    drew = np.array([len(d) > 0 for d in draws])
    np.testing.assert_array_equal(drew, need & (size > 0))
    drawn = np.array([len(d[0][0]) if d else 0 for d in draws])
    np.testing.assert_array_equal(drawn[drew], size[drew])
    assert len(states) > 350
    for kind in ("trick card", "trick well", "sacrifice"):
        assert kinds[kind] > 10, (kind, kinds)
    if players > 2:
        for kind in ("target", "stake", "duel card"):
            assert kinds[kind] > 3, (kind, kinds)


def test_every_ticket_decision_is_reached():
    """Joining a holmgang (a Til Valhallar spent) is rare; four- and five-player games reach
    both answers to it."""
    kinds = Counter()
    for players in (4, 5):
        *_, k = positions(players, None, 3, seed=31 + players)
        kinds += k
    assert kinds["join"] > 2 and kinds["pass"] > 2, kinds


@pytest.fixture(scope="module")
def four_players():
    return positions(4, None, 3, seed=5)


def test_decide_draws_its_samples_from_the_generator(four_players):
    """``decide`` is ``choose`` on ``draw_samples`` from the same generator state; another
    generator state changes some answers (the close calls), equal ones none."""
    states, *_ = four_players
    batch, lanes, mask = as_batch(states)
    engine = batch.engine
    got = decide(engine, lanes, mask, np.random.default_rng(4))
    rng = np.random.default_rng(4)
    picks, uniforms = draw_samples(engine, lanes, rng, needs_samples(engine, lanes, mask))
    np.testing.assert_array_equal(got, choose(engine, lanes, mask, picks, uniforms))
    np.testing.assert_array_equal(got, decide(engine, lanes, mask, np.random.default_rng(4)))
    assert (decide(engine, lanes, mask, np.random.default_rng(5)) != got).any()


def test_decide_disagrees_no_more_than_another_scalar_seed(four_players):
    """The twin's own draws give answers as close to the scalar agent's as differently seeded
    scalar agents' are (the close calls go either way): the same decisions in distribution. The
    rates are averaged over seeds (one seed's rate varies by about 0.015)."""
    states, answers, _, _ = four_players
    others = [HeuristicAgent(seed) for seed in (77, 78)]
    again = [np.array([o.act(s.for_player(s.current_player)) for s in states]) for o in others]
    batch, lanes, mask = as_batch(states)
    got = [decide(batch.engine, lanes, mask, np.random.default_rng(seed)) for seed in range(4)]
    scalar_rate = np.mean([np.mean(a != answers) for a in again])
    twin_rate = np.mean([np.mean(g != answers) for g in got])
    assert abs(twin_rate - scalar_rate) < 0.035, (twin_rate, scalar_rate)
    assert 0.02 < scalar_rate < 0.3  # close calls exist, most decisions are clear


def test_draws_have_the_scalar_distribution():
    """One trick position in 4000 lanes: each sample holds as many distinct cards as the seat has
    opponents, only unseen ones, each unseen card about equally often; uniforms are uniform."""
    s = BigWigGame(num_players=5).new_state(3)
    assert PHASE_NAMES[s.phase] == "commit"
    batch = vector.from_states([s] * 4000)
    engine, lanes = batch.engine, np.arange(4000)
    picks, uniforms = draw_samples(engine, lanes, np.random.default_rng(0), samples=4)
    unseen = unseen_counts(engine, lanes[:1])[0]
    assert opponents(engine, lanes[:1])[0] == 4 and unseen.sum() > 10
    assert (picks != WELL).all()
    counts = np.apply_along_axis(np.bincount, 2, picks, minlength=NUM_KINDS)  # per sample
    assert (counts <= unseen).all()  # without replacement, only unseen cards
    freq = counts.reshape(-1, NUM_KINDS).mean(axis=0)
    expected = 4 * unseen / unseen.sum()
    np.testing.assert_allclose(freq, expected, atol=0.02)
    assert abs(uniforms.mean() - 0.5) < 0.01 and abs((uniforms < WELL_CHANCE).mean() - 0.2) < 0.01


def test_decides_only_the_lanes_asked_for(four_players):
    """A subset of lanes, in any order, gets the answers of the same positions (with the scalar
    agent's draws); lanes outside ``where`` draw nothing."""
    states, answers, draws, _ = four_players
    batch, lanes, mask = as_batch(states)
    picks, uniforms = stacked(draws, 3)
    some = np.random.default_rng(0).permutation(len(states))[:150]
    got = choose(batch.engine, some, mask[some], picks[some], uniforms[some])
    np.testing.assert_array_equal(got, answers[some])
    where = np.zeros(len(states), dtype=bool)
    p, _ = draw_samples(batch.engine, lanes, np.random.default_rng(0), where)
    assert (p == WELL).all()


def test_reads_only_what_the_player_may_know(four_players):
    """Every position and a copy with the hidden cards redealt (``determinize``): the same view,
    so the same answers with the same draws; and the redeal did change hidden cards."""
    states, answers, draws, _ = four_players
    rng = np.random.default_rng(3)
    redealt = [s.determinize(s.current_player, rng) for s in states]
    for a, b in zip(states, redealt):
        assert a.view(a.current_player) == b.view(b.current_player)
    assert sum(a.to_dict() != b.to_dict() for a, b in zip(states, redealt)) > len(states) / 2
    picks, uniforms = stacked(draws, 3)
    decided = []
    for group in (states, redealt):
        batch, lanes, mask = as_batch(group)
        np.testing.assert_array_equal(choose(batch.engine, lanes, mask, picks, uniforms), answers)
        decided.append(decide(batch.engine, lanes, mask, np.random.default_rng(1)))
    np.testing.assert_array_equal(decided[0], decided[1])


def random_tricks(rng, count: int, width: int) -> np.ndarray:
    """Tricks of ``width`` cards drawn from the whole deck (repeats allowed, so that pairs of
    specials cancel often), some positions wells; specials made common."""
    specials = rng.integers(NUM_STANDARD, NUM_KINDS, size=(count, width))
    standard = rng.integers(0, NUM_STANDARD, size=(count, width))
    kinds = np.where(rng.random((count, width)) < 0.5, specials, standard)
    return np.where(rng.random((count, width)) < 0.15, WELL, kinds)


def test_trick_winners_is_the_engines_resolution():
    """``trick_winners`` against ``trick.trick_winner`` on 20,000 random tricks of 1-6 cards
    under every trump combination, every effect among them."""
    rng = np.random.default_rng(0)
    effects = Counter()
    for width in range(1, 7):
        kinds = random_tricks(rng, 4000 if width > 1 else 200, width)
        trump = rng.random((len(kinds), 4)) < 0.4
        bits = trump.astype(np.int64) @ (1 << np.arange(4))
        got = trick_winners(kinds, bits)
        for row, t, g in zip(kinds.tolist(), trump.tolist(), got.tolist()):
            w = trick_winner(row, tuple(t))
            assert g == (-1 if w is None else w), (row, t)
            effects.update(k for k in row if NUM_STANDARD <= k < NUM_KINDS)
    assert all(effects[k] > 100 for k in range(NUM_STANDARD, NUM_KINDS)), effects
