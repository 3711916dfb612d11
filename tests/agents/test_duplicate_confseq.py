"""The --until-separated stopping rule (agents/evaluation/confseq.py) in simulation: with two
identical agents it declares them separated at most 5% of the time although it looks after every
board; a fixed-sample t interval looked at as often does much worse; a real difference separates;
the sequence covers a true mean other than 1/2."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.agents.evaluation.boards import t_quantile
from deckzoo.agents.evaluation.confseq import ALPHA, BettingCS

RUNS, BOARDS = 400, 150


def identical_boards(rng, runs=RUNS, boards=BOARDS, games=3):
    """Per-board ahead-of shares of two identical agents: in each of a board's games A is ahead,
    level or behind with probabilities 0.45, 0.1, 0.45 (symmetric: the true mean is 1/2)."""
    g = rng.choice([0.0, 0.5, 1.0], p=[0.45, 0.1, 0.45], size=(runs, boards, games))
    return g.mean(axis=2)


def first_separation(xs, alpha=ALPHA) -> int | None:
    cs = BettingCS(alpha, grid=[0.5])
    for i, x in enumerate(xs):
        cs.update(float(x))
        if cs.excludes(0.5):
            return i
    return None


def test_identical_agents_are_falsely_separated_at_most_alpha_of_the_time():
    x = identical_boards(np.random.default_rng(2026))
    false = sum(first_separation(run) is not None for run in x) / RUNS
    assert false <= ALPHA
    # the same data judged after every board by a 95% t interval: far more false separations
    n = np.arange(5, BOARDS + 1)  # from the fifth board on
    tq = np.array([t_quantile(0.975, k - 1) for k in n])
    mean = np.cumsum(x, axis=1)[:, 4:] / n
    var = (np.cumsum(x**2, axis=1)[:, 4:] - n * mean**2) / (n - 1)
    half = tq * np.sqrt(np.maximum(var, 0.0) / n)
    naive = np.any(np.abs(mean - 0.5) > half, axis=1).mean()
    assert naive > 3 * ALPHA


def test_a_real_difference_separates_and_the_leader_is_right():
    rng = np.random.default_rng(1)
    x = np.clip(identical_boards(rng, runs=40) + 0.15, 0.0, 1.0)  # A ahead 65% of the time
    stops = [first_separation(run) for run in x]
    assert sum(s is not None for s in stops) >= 36
    cs = BettingCS()
    for v in x[0]:
        cs.update(float(v))
    lo, hi = cs.interval()
    assert 0.5 < lo < float(x[0].mean()) < hi


def test_the_sequence_covers_a_true_mean_other_than_one_half():
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(60):
        x = rng.beta(3, 2, size=BOARDS)  # mean 0.6
        cs = BettingCS(grid=[0.6])
        for v in x:
            cs.update(float(v))
        covered += not cs.excludes(0.6)
    assert covered >= 57


def test_observations_outside_the_unit_interval_are_refused():
    cs = BettingCS()
    with pytest.raises(ValueError, match="within"):
        cs.update(1.5)
    with pytest.raises(ValueError, match="alpha"):
        BettingCS(alpha=0.0)
    assert cs.interval() == (0.0, 1.0) and cs.n == 0
