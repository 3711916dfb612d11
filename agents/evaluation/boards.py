"""Paired statistics of duplicate boards, and the ``--until-separated`` monitor.

A *board* (``ArenaConfig(duplicate=True)``; docs/agents.md, "Duplicate boards") is one deal seed
played in every seating of one table: the same cards, the same chance events, every agent in
every seat. The luck of the deal is shared by the agents of a board, so differences between them
are measured against the same cards; boards, not games, are the independent units. Everything
here therefore averages within a board first and computes intervals over boards:

- per agent: the mean win credit and score over the seat-games it played in each board; win share
  and mean score are the means of those board means, with a t interval over boards;
- per pair (A, B): per game, A's "ahead of B" share (1 ahead, 1/2 level, 0 behind, averaged over
  their seats) and score difference (A's seats' mean minus B's), averaged per board, with
  t intervals over boards;
- no interval (nor variance reduction) from fewer than ``MIN_BOARDS`` boards, and no zero-width
  t interval from boards that all agree (``mean_interval``);
- the variance reduction of the pairing: a game's score difference has variance ``v_game`` (what
  an arena of independent deals averages, ``v_game / G`` for ``G`` games); a board's mean of ``k``
  games has variance ``v_board``, ``v_board / B`` for ``B`` boards, ``k v_board`` per game. Their
  ratio ``v_game / (k v_board)`` is how many times fewer games the pairing needs for the same
  precision (the half-width shrinks by its square root), estimated from the run itself;
- ratings where a board counts once: each board is one openskill "game" between the agents seated
  in it, ranked by their board win share (then board mean score).

Records without a ``board`` (an ordinary arena) are each their own board, so the same functions
give the unpaired numbers (t intervals over games) for comparison.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

import numpy as np

from .confseq import ALPHA, BettingCS
from .stats import Z95, ranks_from_result, rate_games, wilson_interval, win_credit


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile (``p`` above 1/2) without scipy: bisection on the exact CDF for
    integer degrees of freedom up to 200 (Abramowitz and Stegun 26.7.3-4), above that the
    Cornish-Fisher expansion around the normal quantile (error below 1e-6 there)."""
    if df < 1:
        return math.nan
    if df > 200:
        z = _normal_quantile(p)
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        return z + g1 / df + g2 / df**2 + g3 / df**3
    target, lo, hi = 2 * p - 1, 0.0, 1.0
    while _t_central(hi, df) < target:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _t_central(mid, df) < target else (lo, mid)
    return (lo + hi) / 2


def _t_central(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with integer ``df`` (Abramowitz and Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:  # odd
        term, total = 1.0, 1.0 if df > 1 else 0.0
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)
    term, total = 1.0, 1.0
    for k in range(1, df // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


def _normal_quantile(p: float) -> float:
    if abs(p - 0.975) < 1e-12:
        return Z95
    from statistics import NormalDist

    return NormalDist().inv_cdf(p)


MIN_BOARDS = 5
"""The fewest units (boards; games for the unpaired numbers) an interval is given for. Below it
the mean is reported with no interval: a t interval from 2-4 units rests on a spread estimated
from 1-3 degrees of freedom, and when those few units agree (two boards of the same result, which
duplicate play makes common) it has zero width."""


def mean_interval(
    values: Sequence[float],
    bounds: tuple[float, float] | None = None,
    min_n: int = MIN_BOARDS,
    unit: str = "boards",
) -> dict:
    """Mean of ``values`` with its 95% interval, ends clipped to ``bounds`` when the values have
    them (a share lies in [0, 1]).

    The interval is Student's t over the values (``method: "t"``), except where that says
    nothing: with fewer than ``min_n`` values, or values with no spread at all, where the t
    interval has zero width whatever their number. Then, for bounded values with no spread, the
    Wilson score interval of the mean as a share of ``bounds`` over ``n`` trials (``"wilson"``:
    Bernoulli values have the largest variance a mean in the bounds can have, so it errs wide);
    otherwise no interval: ``low``/``high``/``half_width`` are ``nan`` and ``unavailable`` says
    why (``"2 boards; need >= 5"``, ``"no spread over 8 boards"``), for reports to print instead
    of an interval."""
    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    mean = float(x.mean()) if n else math.nan
    if n < min_n:
        return _no_interval(mean, n, f"{n} {unit}; need >= {min_n}")
    sd = float(x.std(ddof=1))
    if sd == 0.0:
        if bounds is None or bounds[1] <= bounds[0]:
            return _no_interval(mean, n, f"no spread over {n} {unit}")
        lo_b, width = bounds[0], bounds[1] - bounds[0]
        lo, hi = wilson_interval(min(max((mean - lo_b) / width, 0.0), 1.0) * n, n)
        low, high = lo_b + lo * width, lo_b + hi * width
        return _interval(mean, low, high, max(mean - low, high - mean), n, "wilson")
    half = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return _interval(mean, low, high, half, n, "t")


def _interval(mean, low, high, half, n, method, unavailable=None) -> dict:
    return {
        "mean": mean,
        "low": low,
        "high": high,
        "half_width": half,
        "n": n,
        "method": method,
        "unavailable": unavailable,
    }


def _no_interval(mean: float, n: int, why: str) -> dict:
    return _interval(mean, math.nan, math.nan, math.nan, n, None, why)


def format_interval(d: dict, digits: int = 3) -> str:
    """``mean [low, high]``, or ``mean, n/a (why)`` where ``mean_interval`` gave none."""
    if d.get("unavailable"):
        return f"{d['mean']:.{digits}f}, n/a ({d['unavailable']})"
    return f"{d['mean']:.{digits}f} [{d['low']:.{digits}f}, {d['high']:.{digits}f}]"


def board_key(rec: dict):
    """The board a record belongs to (its own index outside a duplicate run)."""
    return rec.get("board", ("game", rec["index"]))


def group_boards(records: Iterable[dict]) -> list[list[dict]]:
    """Records grouped by board, boards and games in index order."""
    boards: dict = defaultdict(list)
    for rec in sorted(records, key=lambda r: r["index"]):
        boards[board_key(rec)].append(rec)
    return list(boards.values())


def seats_of(rec: dict, label: str) -> list[int]:
    return [s for s, lb in enumerate(rec["seats"]) if lb == label]


def ahead_share(ranks: Sequence[int], seats_a: Sequence[int], seats_b: Sequence[int]) -> float:
    """A's "ahead of B" share in one game: over every pair of their seats, 1 when A's seat
    finished ahead (a lower rank), 1/2 level, 0 behind."""
    total = 0.0
    for sa in seats_a:
        for sb in seats_b:
            total += 1.0 if ranks[sa] < ranks[sb] else 0.5 if ranks[sa] == ranks[sb] else 0.0
    return total / (len(seats_a) * len(seats_b))


def pair_games(board: list[dict], a: str, b: str, score_sign: int = 1) -> list[tuple[float, float]]:
    """``(ahead share, score difference)`` of A over B in each game of ``board`` seating both."""
    out = []
    for rec in board:
        sa, sb = seats_of(rec, a), seats_of(rec, b)
        if not sa or not sb:
            continue
        ranks = ranks_from_result(rec["scores"], rec["winners"], score_sign)
        scores = rec["scores"]
        diff = np.mean([scores[s] for s in sa]) - np.mean([scores[s] for s in sb])
        out.append((ahead_share(ranks, sa, sb), float(score_sign * diff)))
    return out


def board_means(board: list[dict]) -> dict[str, dict]:
    """label -> {win, score}: the agent's means over its seat-games in this board."""
    acc: dict[str, list] = defaultdict(lambda: [0.0, 0.0, 0])
    for rec in board:
        for seat, label in enumerate(rec["seats"]):
            row = acc[label]
            row[0] += win_credit(rec["winners"], seat)
            row[1] += float(rec["scores"][seat])
            row[2] += 1
    return {lb: {"win": w / n, "score": s / n} for lb, (w, s, n) in acc.items()}


def board_ratings(boards: list[list[dict]], score_sign: int = 1) -> dict[str, dict]:
    """openskill ratings with each board one game between its agents (``stats.rate_games``)."""
    games = []
    for board in boards:
        means = board_means(board)
        labels = sorted(means)
        keys = [(means[lb]["win"], score_sign * means[lb]["score"]) for lb in labels]
        order = sorted(set(keys), reverse=True)
        games.append((labels, [order.index(k) for k in keys]))
    return rate_games(games) if games else {}


def pair_summary(boards: list[list[dict]], a: str, b: str, score_sign: int = 1) -> dict | None:
    """A against B over the boards seating both (None if none does); see the module docstring."""
    per_board = [g for g in (pair_games(board, a, b, score_sign) for board in boards) if g]
    if not per_board:
        return None
    games = [x for g in per_board for x in g]
    ahead = mean_interval([np.mean([x[0] for x in g]) for g in per_board], (0.0, 1.0))
    diff = mean_interval([np.mean([x[1] for x in g]) for g in per_board])
    unpaired = mean_interval([x[1] for x in games], unit="games")
    k = len(games) / len(per_board)
    v_game = float(np.var([x[1] for x in games], ddof=1)) if len(games) > 1 else math.nan
    v_board = (
        float(np.var([np.mean([x[1] for x in g]) for g in per_board], ddof=1))
        if len(per_board) > 1
        else math.nan
    )
    enough = len(per_board) >= MIN_BOARDS  # a variance from fewer boards is no estimate
    reduction = v_game / (k * v_board) if v_board > 0 and enough else math.nan
    return {
        "a": a,
        "b": b,
        "boards": len(per_board),
        "games": len(games),
        "ahead_share": ahead,
        "score_diff": diff,
        "score_diff_unpaired": unpaired,
        "game_variance": v_game,
        "board_variance_per_game": k * v_board if not math.isnan(v_board) else math.nan,
        "variance_reduction": reduction,
    }


def paired_summary(records: Iterable[dict], score_sign: int = 1) -> dict:
    """Per-agent and per-pair statistics over boards; see the module docstring."""
    boards = group_boards(records)
    labels = sorted({lb for board in boards for rec in board for lb in rec["seats"]})
    per_agent: dict[str, dict[str, list]] = {lb: {"win": [], "score": []} for lb in labels}
    for board in boards:
        for lb, m in board_means(board).items():
            per_agent[lb]["win"].append(m["win"])
            per_agent[lb]["score"].append(m["score"])
    ratings = board_ratings(boards, score_sign)
    agents = []
    for lb in labels:
        agents.append(
            {
                "agent": lb,
                "boards": len(per_agent[lb]["win"]),
                "win_share": mean_interval(per_agent[lb]["win"], (0.0, 1.0)),
                "mean_score": mean_interval(per_agent[lb]["score"]),
                "rating_mu": ratings[lb]["mu"],
                "rating_sigma": ratings[lb]["sigma"],
            }
        )
    agents.sort(key=lambda r: (-r["win_share"]["mean"], r["agent"]))
    pairs = [
        p
        for a, b in itertools.combinations([r["agent"] for r in agents], 2)
        if (p := pair_summary(boards, a, b, score_sign)) is not None
    ]
    return {
        "boards": len(boards),
        "games": sum(len(b) for b in boards),
        "agents": agents,
        "pairs": pairs,
    }


class SeparationMonitor:
    """The ``--until-separated A,B`` stopping rule: boards are fed in index order to a betting
    confidence sequence (``confseq.BettingCS``) on A's per-board "ahead of B" share; the run stops
    at the first board after which the sequence excludes 1/2 (A and B separated), or when the
    games run out. Records may arrive in any order (worker pools); a board counts once all its
    ``board_size`` games are in, and only in board order, so the stopping board does not depend
    on scheduling. Boards that do not seat both agents are skipped."""

    def __init__(
        self,
        a: str,
        b: str,
        board_size: int,
        score_sign: int = 1,
        alpha: float = ALPHA,
        first_board: int = 0,
    ):
        self.a, self.b, self.size, self.sign = a, b, board_size, score_sign
        self.cs = BettingCS(alpha)
        self.pending: dict[int, list[dict]] = defaultdict(list)
        self.next_board = first_board
        self.stopped_at: int | None = None  # the board after which it separated
        self.boards_used = 0

    def add(self, rec: dict) -> bool:
        """Take one record; True once A and B are separated (stop playing)."""
        if self.stopped_at is not None:
            return True
        self.pending[rec["board"]].append(rec)
        while len(self.pending.get(self.next_board, ())) == self.size:
            board = self.pending.pop(self.next_board)
            games = pair_games(board, self.a, self.b, self.sign)
            if games:
                self.cs.update(float(np.mean([g[0] for g in games])))
                self.boards_used += 1
                if self.cs.excludes(0.5):
                    self.stopped_at = self.next_board
                    return True
            self.next_board += 1
        return False

    def report(self) -> dict:
        lo, hi = self.cs.interval()
        return {
            "a": self.a,
            "b": self.b,
            "method": (
                "hedged-capital betting confidence sequence (Waudby-Smith & Ramdas 2024) on the "
                "per-board ahead-of share, stop when it excludes 1/2"
            ),
            "alpha": self.cs.alpha,
            "separated": self.stopped_at is not None,
            "stopped_at_board": self.stopped_at,
            "boards_used": self.boards_used,
            "ahead_share_sequence": [lo, hi],
            "leader": None if self.stopped_at is None else self.a if lo > 0.5 else self.b,
        }


__all__ = [
    "MIN_BOARDS",
    "SeparationMonitor",
    "ahead_share",
    "board_ratings",
    "format_interval",
    "group_boards",
    "mean_interval",
    "pair_games",
    "pair_summary",
    "paired_summary",
    "t_quantile",
]
