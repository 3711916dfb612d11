"""Statistics for the arena and the strength benchmark: win shares with Wilson intervals, ranks
from final scores, and openskill (Plackett-Luce) ratings.

Win share. A seat that wins alone scores 1, a seat that shares the win with ``w - 1`` others
scores ``1/w``, a loser 0. An agent's win share is the mean over the seat-games it played. Its 95%
interval is Wilson's score interval for that mean (ties make the count of "successes"
fractional, which the formula accepts). With ``P`` players a seat that is no better than the
others wins ``1/P`` of the time, so an interval wholly above ``1/P`` means "stronger than the
table". When one agent fills several seats of the same game, those seat-games are not
independent; the interval is then a little optimistic (the arena reports it anyway, pooled).

Ratings. openskill updates a rating game by game, an online approximation whose answer depends on
the order of the games: with fixed agents the same 600 recorded Big Number games, rated in 20
random orders, put the search's lead over the heuristic anywhere from -0.4 to 8.9 rating points
(sd 1.8, against an interval half-width of about 3). The games of an arena or a leaderboard have
no meaningful order (their index is a seed, not a time), so ``summarize`` rates them in
``RATING_ORDERS`` random orders, drawn from a fixed seed, and reports the mean mu and sigma over
them, and the orders' spread of mu (``rating_order_sd``) so a reader can see what is left. (The
same problem made LMSYS's Chatbot Arena bootstrap its Elo over shuffled orders.)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; ``(0, 1)`` when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    if successes < 0 or successes > trials:
        raise ValueError(f"successes must be within 0..{trials}, got {successes}")
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends despite rounding
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return lo, hi


def win_credit(winners: Sequence[int], seat: int) -> float:
    """1 for a sole winner, 1/w for one of w tied winners, else 0."""
    return 1.0 / len(winners) if seat in winners else 0.0


def ranks_from_result(
    scores: Sequence[float], winners: Sequence[int], score_sign: int = 1
) -> list[int]:
    """Finishing positions (0 = first; equal positions share a rank) for rating updates.

    The winners (the engine's own verdict, tie-breaks included) share rank 0; everyone else is
    ordered by points (``score_sign`` -1 for penalty games: fewer is better), equal points sharing.
    """
    win = {int(w) for w in winners}
    others = sorted(
        {score_sign * float(scores[s]) for s in range(len(scores)) if s not in win}, reverse=True
    )
    pos = {v: i + (1 if win else 0) for i, v in enumerate(others)}
    return [0 if s in win else pos[score_sign * float(scores[s])] for s in range(len(scores))]


RATING_ORDERS = 32  # random orders averaged over by ``rate_games``: mu's order noise / sqrt(32)


class Ratings:
    """openskill Plackett-Luce ratings, one per agent label, updated game by game in order.

    Every seat is its own team. When one label fills several seats of a game, each seat is rated
    from the label's current rating and the label's new rating is the mean of its seats' updates.

    ``tau`` is openskill's dynamics term: before every game it adds ``tau**2`` to each variance,
    modelling a player whose skill drifts between games, so that sigma never falls below a floor
    (about 1.7-1.9 in our 4-player tables, whatever the number of games). The agents rated here are
    fixed programs whose skill does not drift, so the default is ``tau = 0`` and the interval keeps
    shrinking as games are added (about as ``1/sqrt(games)``). Pass ``tau=None`` for openskill's
    own default (``25/300``), e.g. to rate an agent that keeps learning.
    """

    def __init__(self, tau: float | None = 0.0):
        from openskill.models import PlackettLuce

        self.tau = tau
        self.model = PlackettLuce() if tau is None else PlackettLuce(tau=tau)
        self.ratings: dict[str, object] = {}

    def get(self, label: str):
        if label not in self.ratings:
            self.ratings[label] = self.model.rating(name=label)
        return self.ratings[label]

    def update(self, labels: Sequence[str], ranks: Sequence[int]) -> None:
        teams = [
            [self.model.rating(mu=self.get(lb).mu, sigma=self.get(lb).sigma, name=lb)]
            for lb in labels
        ]
        new = self.model.rate(teams, ranks=list(ranks))
        acc: dict[str, list] = {}
        for lb, team in zip(labels, new):
            acc.setdefault(lb, []).append(team[0])
        for lb, rs in acc.items():
            mu = sum(r.mu for r in rs) / len(rs)
            sigma = sum(r.sigma for r in rs) / len(rs)
            self.ratings[lb] = self.model.rating(mu=mu, sigma=sigma, name=lb)

    def table(self) -> dict[str, dict]:
        """label -> {mu, sigma, ordinal (mu - 3 sigma, a conservative skill estimate)}."""
        return {
            lb: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma}
            for lb, r in self.ratings.items()
        }


def rate_games(
    games: Sequence[tuple[Sequence[str], Sequence[int]]],
    orders: int = RATING_ORDERS,
    seed: int = 0,
    tau: float | None = 0.0,
) -> dict[str, dict]:
    """Ratings of ``(labels, ranks)`` games that have no meaningful order: the mean over ``orders``
    random orders (a generator seeded with ``seed``, so the result is reproducible) of each label's
    mu and sigma after rating the games in that order. ``orders=1`` rates them once, in the order
    given. label -> {mu, sigma, ordinal (mu - 3 sigma), order_sd (the spread of mu over the
    orders)}."""
    if orders < 1:
        raise ValueError(f"orders must be >= 1, got {orders!r}")
    rng = np.random.default_rng(seed)
    tables = []
    for _ in range(orders):
        ratings = Ratings(tau)
        for i in range(len(games)) if orders == 1 else rng.permutation(len(games)):
            ratings.update(*games[i])
        tables.append(ratings.table())
    out = {}
    for label in tables[0]:
        mus = [t[label]["mu"] for t in tables]
        mu, sigma = float(np.mean(mus)), float(np.mean([t[label]["sigma"] for t in tables]))
        out[label] = {
            "mu": mu,
            "sigma": sigma,
            "ordinal": mu - 3 * sigma,
            "order_sd": float(np.std(mus)),
        }
    return out


def summarize(
    records: Iterable[dict], num_players: int, score_sign: int = 1, orders: int = RATING_ORDERS
) -> list[dict]:
    """Per-label summary rows (sorted by win share) from arena game records; the ratings come from
    ``rate_games`` over ``orders`` random orders of the records (sorted by index first, so the
    order they are passed in does not matter).

    A record needs ``seats`` (label per seat), ``scores`` and ``winners``; with ``decisions`` and
    ``think_seconds`` (per seat) the rows also report seconds per move, and with
    ``max_think_seconds`` the slowest single decision; with ``think_cpu_seconds`` and
    ``max_think_cpu_seconds`` the same in CPU time.
    """
    records = sorted(records, key=lambda r: r["index"])
    rows: dict[str, dict] = {}
    games = []
    for rec in records:
        for seat, label in enumerate(rec["seats"]):
            row = rows.setdefault(
                label,
                {
                    "agent": label,
                    "seat_games": 0,
                    "wins": 0.0,
                    "score_sum": 0.0,
                    "decisions": 0,
                    "think": 0.0,
                    "longest": None,
                    "cpu": None,
                    "cpu_longest": None,
                },
            )
            row["seat_games"] += 1
            if "decisions" in rec:
                row["decisions"] += rec["decisions"][seat]
                row["think"] += rec["think_seconds"][seat]
            if "max_think_seconds" in rec:
                row["longest"] = max(row["longest"] or 0.0, rec["max_think_seconds"][seat])
            if "think_cpu_seconds" in rec:
                row["cpu"] = (row["cpu"] or 0.0) + rec["think_cpu_seconds"][seat]
                row["cpu_longest"] = max(
                    row["cpu_longest"] or 0.0, rec["max_think_cpu_seconds"][seat]
                )
            row["wins"] += win_credit(rec["winners"], seat)
            row["score_sum"] += float(rec["scores"][seat])
        games.append((rec["seats"], ranks_from_result(rec["scores"], rec["winners"], score_sign)))
    table = rate_games(games, orders)
    out = []
    for label, row in rows.items():
        n = row["seat_games"]
        lo, hi = wilson_interval(row["wins"], n)
        out.append(
            {
                "agent": label,
                "seat_games": n,
                "wins": row["wins"],
                "win_share": row["wins"] / n,
                "ci_low": lo,
                "ci_high": hi,
                "uniform": 1.0 / num_players,
                "mean_score": row["score_sum"] / n,
                "rating_mu": table[label]["mu"],
                "rating_sigma": table[label]["sigma"],
                "rating_ordinal": table[label]["ordinal"],
                "rating_order_sd": table[label]["order_sd"],
                "decisions": row["decisions"],
                # Wall-clock seconds inside ``act`` per decision (not reproducible: machine load).
                "sec_per_move": row["think"] / row["decisions"] if row["decisions"] else 0.0,
                "max_sec_per_move": row["longest"],  # the slowest decision (None: not recorded)
                # the same in CPU seconds of the playing process (None: not recorded)
                "cpu_sec_per_move": (
                    row["cpu"] / row["decisions"]
                    if row["cpu"] is not None and row["decisions"]
                    else None
                ),
                "max_cpu_sec_per_move": row["cpu_longest"],
            }
        )
    out.sort(key=lambda r: (-r["win_share"], r["agent"]))
    return out
