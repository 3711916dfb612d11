"""Sequential leaderboard runs: a game count fixed in advance, sittings, stops and futility checks.

``benchmarks/leaderboard.py`` plays its games; this module keeps the bookkeeping that lets a run
be planned before its first game and judged only where the plan said, so that looking at interim
results cannot bias the verdict. One env's run (its entry in ``leaderboard.json``) keeps:

* ``planned``: the largest ``--games`` ever asked of it, its fixed count (a count fixed in advance
  can be raised by a new decision, never lowered by a later, smaller run). ``--minutes`` starts no
  batch after that long, so a long run is cut into sittings; until the count is reached the
  summary shows "N of M" games and calls the separation interim, since it is judged at M only.
* ``stopped``: set by ``--stop REASON``, which closes a run where it is, short of its count (a stop
  for futility, or at a look fixed in advance): the summary then judges it at the games played and
  says why it stopped, and it is never continued.
* ``futility``: one entry per ``--futility N`` check, which plays nothing and asks whether the
  recorded games could still separate at N games: each of ``--resamples`` samples draws N of the
  recorded games with replacement (a generator seeded with ``--resample-seed``) and rates them as
  the leaderboard does, over ``--resample-orders`` orders of the games (fewer than the
  leaderboard's, to keep it quick); the share of samples that separate is printed, kept and shown
  under the game's tables. A plan fixed in advance can stop the run when that share is below its
  bar. Stopping early can only lose a separation, never make one, so a plan may stop for futility
  without correcting its intervals.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from tqdm import tqdm


def now() -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


def add_arguments(p) -> None:
    """The options of sittings, stops and futility checks, on the leaderboard's parser."""
    p.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="start no batch after this many minutes; run again to continue (the games asked "
        "for stay the env's fixed count, shown as 'N of M' until reached)",
    )
    p.add_argument(
        "--stop",
        metavar="REASON",
        default=None,
        help="close the runs of --envs at the games recorded, short of their fixed count, for "
        "REASON (e.g. 'for futility'); plays nothing, and a closed run is not continued",
    )
    p.add_argument(
        "--futility",
        type=int,
        metavar="N",
        default=None,
        help="play nothing; resample the recorded games of --envs to N games and report the "
        "share of resamples that separate (kept in the JSON)",
    )
    p.add_argument("--resamples", type=int, default=40, help="samples for --futility")
    p.add_argument(
        "--resample-orders", type=int, default=8, help="rating orders per --futility sample"
    )
    p.add_argument("--resample-seed", type=int, default=0, help="generator seed for --futility")


def planned(res: dict) -> int:
    """The game count fixed for a run: the largest ``--games`` ever asked of it; results written
    before counts were kept are complete at their length."""
    return max(res.get("planned", 0), len(res["records"]))


def complete(res: dict) -> bool:
    """Whether a run may be judged: its fixed count reached, or closed by ``--stop``."""
    return len(res["records"]) >= planned(res) or "stopped" in res


def deadline(minutes: float | None) -> float | None:
    """The ``time.monotonic()`` after which a sitting of ``minutes`` starts no batch."""
    return None if minutes is None else time.monotonic() + 60 * minutes


def start_sitting(res: dict, env: str, games: int) -> None:
    """Ready a run to play towards ``games`` (raising its fixed count if asked for more); a run
    closed by ``--stop`` is never continued."""
    if "stopped" in res:
        stop = res["stopped"]
        raise SystemExit(
            f"{env}: the run was stopped at {stop['games']} games ({stop['reason']}); "
            "pass --fresh to start a new one"
        )
    res["planned"] = max(games, planned(res))


def stop(res: dict, env: str, reason: str) -> None:
    """Close a run at the games recorded, for ``reason``."""
    if not res["records"]:
        raise SystemExit(f"{env}: no games recorded, nothing to stop")
    res["stopped"] = {
        "games": len(res["records"]),
        "planned": planned(res),
        "reason": reason,
        "date": now(),
    }
    print(f"{env}: stopped at {len(res['records'])} of {planned(res)} games", flush=True)


def futility(
    records: list[dict],
    games: int,
    separates: Callable[[list[dict], int], bool],
    resamples: int = 40,
    seed: int = 0,
    orders: int = 8,
    progress: bool = False,
) -> dict:
    """How often ``games`` games drawn with replacement from ``records`` separate, as judged by
    ``separates(sample, orders)``. Resampled games are renumbered, since the ratings order games
    by index."""
    if not records:
        raise ValueError("no games recorded to resample")
    if games < 1 or resamples < 1 or orders < 1:
        raise ValueError(
            f"futility needs games, resamples and orders >= 1, got {games}, {resamples}, {orders}"
        )
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in tqdm(range(resamples), desc=f"resampling to {games}", disable=not progress):
        pick = rng.integers(0, len(records), games)
        hits += bool(separates([dict(records[j], index=i) for i, j in enumerate(pick)], orders))
    return {
        "games_recorded": len(records),
        "resampled_to": games,
        "resamples": resamples,
        "orders": orders,
        "seed": seed,
        "separated": hits,
        "share": hits / resamples,
        "date": now(),
    }


def summary_cells(res: dict, verdict: str) -> tuple[str, str]:
    """The summary row's games and verdict cells: a stopped run says why, an unfinished one is
    interim, judged at its fixed count and not at whichever look."""
    games = str(len(res["records"]))
    if "stopped" in res:
        stop = res["stopped"]
        return (
            f"{games} (stopped; {stop['planned']} planned)",
            f"{verdict}; stopped: {stop['reason']}",
        )
    if not res["separation"].get("complete", True):
        return (
            f"{games} of {planned(res)}",
            f"interim, judged at {planned(res)} games; now {verdict}",
        )
    return games, verdict


def futility_lines(res: dict) -> list[str]:
    """The run's futility checks, as Markdown lines under its tables (none: no lines)."""
    if not res.get("futility"):
        return []
    return ["", "Futility checks (recorded games resampled with replacement):", ""] + [
        f"- {f['date']}: from {f['games_recorded']} games to {f['resampled_to']}, "
        f"{f['resamples']} resamples ({f['orders']} rating orders each, generator seed "
        f"{f['seed']}): separated in {f['separated']} of {f['resamples']}"
        for f in res["futility"]
    ]
