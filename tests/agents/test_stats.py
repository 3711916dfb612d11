"""Win shares, Wilson intervals, ranks and ratings (agents/evaluation/stats.py)."""

import numpy as np
import pytest

from deckzoo.agents.evaluation.stats import (
    Ratings,
    ranks_from_result,
    rate_games,
    summarize,
    wilson_interval,
    win_credit,
)


@pytest.mark.parametrize(
    "successes,trials,low,high",
    [
        # Reference values: scipy.stats.binomtest(k, n).proportion_ci(method="wilson"), rounded;
        # the same as R prop.test(correct=FALSE).
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_interval_reference_values(successes, trials, low, high):
    lo, hi = wilson_interval(successes, trials)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


def test_wilson_interval_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 6)[0] == 0.0 and wilson_interval(6, 6)[1] == 1.0
    lo, hi = wilson_interval(2.5, 10)  # fractional successes from shared wins
    assert 0 < lo < 0.25 < hi < 1
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


@pytest.mark.parametrize(
    "winners,seat,credit", [([0], 0, 1.0), ([0], 1, 0.0), ([1, 2], 2, 0.5), ([0, 1, 2], 0, 1 / 3)]
)
def test_win_credit(winners, seat, credit):
    assert win_credit(winners, seat) == pytest.approx(credit)


@pytest.mark.parametrize(
    "scores,winners,sign,ranks",
    [
        ([10, 30, 20], [1], 1, [2, 0, 1]),
        (
            [10, 30, 30],
            [2],
            1,
            [2, 1, 0],
        ),  # the engine's tie-break decided: winner first, not by points
        ([10, 30, 30], [1, 2], 1, [1, 0, 0]),
        ([5, 20, 20, 1], [3], -1, [1, 2, 2, 0]),  # penalty game: fewer points rank higher
        ([0, 0], [], 1, [0, 0]),
    ],
)
def test_ranks_from_result(scores, winners, sign, ranks):
    assert ranks_from_result(scores, winners, sign) == ranks


def test_ratings_move_towards_the_winner():
    r = Ratings()
    for _ in range(20):
        r.update(["strong", "weak", "weak"], [0, 1, 2])
    t = r.table()
    assert t["strong"]["mu"] > 25 > t["weak"]["mu"]
    assert t["strong"]["sigma"] < 25 / 3


def test_summarize_counts_seat_games_and_ties():
    records = [
        {"index": 0, "seats": ["a", "b"], "scores": [10, 5], "winners": [0]},
        {"index": 1, "seats": ["b", "a"], "scores": [7, 7], "winners": [0, 1]},
        {"index": 2, "seats": ["a", "b"], "scores": [1, 9], "winners": [1]},
    ]
    rows = {r["agent"]: r for r in summarize(records, 2)}
    assert rows["a"]["seat_games"] == 3 and rows["a"]["wins"] == pytest.approx(1.5)
    assert rows["a"]["win_share"] == pytest.approx(0.5) and rows["b"]["win_share"] == pytest.approx(
        0.5
    )
    assert rows["a"]["mean_score"] == pytest.approx(6.0)
    assert rows["a"]["uniform"] == 0.5
    assert rows["a"]["ci_low"] < 0.5 < rows["a"]["ci_high"]


def _league(tau, games: int, seed: int) -> dict[str, dict]:
    """Four equally strong agents: every game's finishing order is a fresh random permutation."""
    rng = np.random.default_rng(seed)
    labels = ["a", "b", "c", "d"]
    r = Ratings(tau)
    for _ in range(games):
        r.update([labels[i] for i in rng.permutation(4)], [0, 1, 2, 3])
    return r.table()


def test_fixed_agents_ratings_keep_shrinking_without_the_dynamics_term():
    """tau = 0 (the default: our agents do not learn) lets sigma fall below the tau floor."""
    fixed = _league(0.0, 1600, 0)
    drifting = _league(None, 1600, 0)
    assert all(v["sigma"] < 1.0 for v in fixed.values())
    assert all(v["sigma"] > 1.4 for v in drifting.values())
    assert Ratings().tau == 0.0


def test_equal_agents_are_not_separated_by_the_rating_intervals():
    """The leaderboard's test (disjoint mu +- 1.96 sigma) must not separate equals: over 30 leagues
    of 300 games among four equal agents no pair's intervals are disjoint."""
    for seed in range(30):
        t = _league(0.0, 300, seed)
        lows = [v["mu"] - 1.96 * v["sigma"] for v in t.values()]
        highs = [v["mu"] + 1.96 * v["sigma"] for v in t.values()]
        assert max(lows) <= min(highs), (seed, t)  # in one dimension: every pair overlaps


def _fixed_games(n: int, seed: int) -> list[tuple[list[str], list[int]]]:
    """Games among three fixed agents of different strength: "strong" finishes first half of the
    time, the rest of the order is random."""
    rng = np.random.default_rng(seed)
    games = []
    for _ in range(n):
        order = list(rng.permutation(["strong", "mid", "weak"]))
        if rng.random() < 0.5 and order[0] != "strong":
            order.remove("strong")
            order.insert(0, "strong")
        games.append((order, [0, 1, 2]))
    return games


def test_rate_games_with_one_order_is_the_sequential_rating():
    games = _fixed_games(50, 0)
    r = Ratings()
    for labels, ranks in games:
        r.update(labels, ranks)
    one = rate_games(games, orders=1)
    for label, v in r.table().items():
        assert one[label]["mu"] == pytest.approx(v["mu"]) and one[label]["order_sd"] == 0.0


def test_averaging_over_orders_removes_most_of_the_order_noise():
    """The same games rated in different orders give different mu (the online update depends on
    the order); the mean over orders, with different seeds, varies far less, and is reproducible
    with the same seed."""
    games = _fixed_games(200, 1)
    rng = np.random.default_rng(5)
    one_order = []
    for _ in range(12):
        shuffled = [games[i] for i in rng.permutation(len(games))]
        one_order.append(rate_games(shuffled, orders=1)["strong"]["mu"])
    averaged = [rate_games(games, orders=16, seed=s)["strong"]["mu"] for s in range(6)]
    assert np.std(averaged) < np.std(one_order) / 2.5, (averaged, one_order)
    assert rate_games(games, orders=4, seed=3) == rate_games(games, orders=4, seed=3)
    t = rate_games(games, orders=16)
    assert t["strong"]["mu"] > t["mid"]["mu"] and t["strong"]["mu"] > t["weak"]["mu"]
    # the reported spread is that of single orders, which averaging shrinks
    assert t["strong"]["order_sd"] == pytest.approx(np.std(one_order), rel=0.6)


def test_summarize_does_not_depend_on_the_order_the_records_come_in():
    games = _fixed_games(40, 2)
    records = [
        {"index": i, "seats": labels, "scores": [3 - k for k in range(3)], "winners": [0]}
        for i, (labels, _) in enumerate(games)
    ]
    forward = summarize(records, 3)
    backward = summarize(list(reversed(records)), 3)
    assert forward == backward
    assert all(r["rating_order_sd"] > 0 for r in forward)


def test_rate_games_rejects_no_orders():
    with pytest.raises(ValueError, match="orders"):
        rate_games([], orders=0)


def test_equal_agents_are_not_separated_by_the_order_averaged_ratings():
    """The same check for the leaderboard's ratings, averaged over orders (fewer leagues: each is
    rated 8 times)."""
    for seed in range(8):
        rng = np.random.default_rng(100 + seed)
        labels = ["a", "b", "c", "d"]
        games = [([labels[i] for i in rng.permutation(4)], [0, 1, 2, 3]) for _ in range(300)]
        t = rate_games(games, orders=8)
        lows = [v["mu"] - 1.96 * v["sigma"] for v in t.values()]
        highs = [v["mu"] + 1.96 * v["sigma"] for v in t.values()]
        assert max(lows) <= min(highs), (seed, t)
