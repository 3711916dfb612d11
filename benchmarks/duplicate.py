"""Duplicate evaluation measured (issue #48): how much precision duplicate boards buy.

The plan is fixed here (``PLAN``), so one run of this script is the measurement:

* for each of the five games, the zoo policy (``zoo:<game>``) in one seat against the heuristic
  in the others, at ``PLAN["players"]`` players, played twice with the same number of games and
  seed: once with a fresh deal every game (seats rotated) and once in duplicate boards (one deal
  in every rotation, with the same chance events; ``agents/evaluation/tasks.py``). Reported per
  game: the 95% half-width of the zoo's mean score lead over the heuristic's seats, unpaired (t
  interval over the games of the first run) and paired (t interval over the boards of the
  second), their ratio, and the variance reduction estimated from the duplicate run
  (``agents/evaluation/boards.py``); the target is a ratio of at most 0.6 in at least three of the
  five games;
* BigWig's zoo policy against the heuristic with ``until_separated``
  (``agents/evaluation/confseq.py``) and at most ``PLAN["separation"]["max_games"]`` games: the
  games used and the final intervals;
* the stopping rule's false separation rate in simulation: two identical agents (per game, ahead
  0.45, level 0.1, behind 0.45 of the time; boards of four games), judged after every board.

Writes ``duplicate.md`` and ``duplicate.json`` into ``--out`` (default benchmarks/results), after
every part, so an interrupted run keeps what it finished. ``--games`` plays fewer games a game for
a trial (the files then say so); the measurement is the plan's.

    .venv/bin/python benchmarks/duplicate.py --workers 16                # the measurement
    .venv/bin/python benchmarks/duplicate.py --games 16 --out /tmp/dup   # a quick trial
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from pathlib import Path

import numpy as np

import deckzoo.envs as E
from deckzoo.agents.cli_args import add_backend_arguments
from deckzoo.agents.evaluation.arena import run_arena
from deckzoo.agents.evaluation.boards import group_boards, pair_summary
from deckzoo.agents.evaluation.config import ArenaConfig
from deckzoo.agents.evaluation.confseq import ALPHA, BettingCS

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results_page  # the sibling module: the layout of every results page

RESULTS = Path(__file__).resolve().parent / "results"

PLAN = {
    "envs": ["gobig_v0", "bignumber_v0", "wizard_v0", "bigwig_v1", "midgard_v1"],
    "players": 4,
    "games": 1200,  # per game and per design: 300 boards of 4
    "seed": 48,
    "target_ratio": 0.6,  # paired half-width at most 0.6x the unpaired one...
    "target_games": 3,  # ...in at least three of the five games
    "separation": {"env": "bigwig_v1", "max_games": 2880, "seed": 4848},
    "simulation": {"runs": 2000, "boards": 720, "games_per_board": 4, "seed": 2026},
}
ZOO, HEURISTIC = "zoo", "heuristic"


def agents_for(env: str) -> list[str]:
    return [f"{ZOO}=zoo:{E.game_class(env).name}", f"{HEURISTIC}=heuristic"]


def compare(env: str, games: int, workers: int, arena: dict, log=print) -> dict:
    """The zoo against the heuristic in ``env``, unpaired and in boards, same games and seed."""
    sign = E.game_class(env).score_sign
    row = {"env": env, "games": games}
    for design, duplicate in (("unpaired", False), ("duplicate", True)):
        cfg = ArenaConfig(
            env,
            agents_for(env),
            games=games,
            players=PLAN["players"],
            seed=PLAN["seed"],
            workers=workers,
            duplicate=duplicate,
            **arena,
        )
        res = run_arena(cfg)
        if res.interrupted:
            raise KeyboardInterrupt
        pair = pair_summary(group_boards(res.records), ZOO, HEURISTIC, sign)
        row[design] = {"seconds": res.seconds, "pair": pair}
        log(
            f"  {env} {design}: {len(res.records)} games, zoo lead "
            f"{pair['score_diff']['mean']:.2f} +- {pair['score_diff']['half_width']:.2f}"
        )
    unpaired = row["unpaired"]["pair"]["score_diff"]["half_width"]
    paired = row["duplicate"]["pair"]["score_diff"]["half_width"]
    row["half_width_ratio"] = paired / unpaired if unpaired > 0 else math.nan
    row["variance_reduction"] = row["duplicate"]["pair"]["variance_reduction"]
    row["meets_target"] = bool(row["half_width_ratio"] <= PLAN["target_ratio"])
    return row


def separation(max_games: int, workers: int, arena: dict) -> dict:
    """BigWig's zoo against the heuristic until separated or ``max_games``."""
    plan = PLAN["separation"]
    env = plan["env"]
    cfg = ArenaConfig(
        env,
        agents_for(env),
        games=max_games,
        players=PLAN["players"],
        seed=plan["seed"],
        workers=workers,
        duplicate=True,
        until_separated=(ZOO, HEURISTIC),
        **arena,
    )
    res = run_arena(cfg)
    if res.interrupted:
        raise KeyboardInterrupt
    pair = pair_summary(group_boards(res.records), ZOO, HEURISTIC, E.game_class(env).score_sign)
    return {
        "env": env,
        "max_games": max_games,
        "games": len(res.records),
        "seconds": res.seconds,
        "stopping": res.stopping,
        "pair": pair,
    }


def simulate(runs: int, boards: int, games_per_board: int, seed: int) -> dict:
    """False separations of two identical agents under the stopping rule (module docstring)."""
    rng = np.random.default_rng(seed)
    false = 0
    for _ in range(runs):
        shares = rng.choice([0.0, 0.5, 1.0], p=[0.45, 0.1, 0.45], size=(boards, games_per_board))
        cs = BettingCS(ALPHA, grid=[0.5])
        for x in shares.mean(axis=1):
            cs.update(float(x))
            if cs.excludes(0.5):
                false += 1
                break
    return {
        "runs": runs,
        "boards": boards,
        "games_per_board": games_per_board,
        "seed": seed,
        "alpha": ALPHA,
        "false_separations": false,
        "rate": false / runs,
    }


def _ci(d: dict, digits: int = 2) -> str:
    return f"{d['mean']:.{digits}f} [{d['low']:.{digits}f}, {d['high']:.{digits}f}]"


def markdown(data: dict) -> str:
    """The results page (benchmarks/results_page.py's layout): the table and the targets, then
    how they were made."""
    meta = data["meta"]
    envs = results_page.EnvLabels()
    results = [
        (
            "| game | games | lead unpaired | half-width | lead duplicate | half-width | ratio | "
            "variance reduction | zoo ahead of heuristic (duplicate) |"
        ),
        "|---|---:|---|---:|---|---:|---:|---:|---|",
    ]
    for row in data["rows"]:
        u, d = row["unpaired"]["pair"], row["duplicate"]["pair"]
        results.append(
            f"| {envs.label(row['env'])} | {row['games']} | {_ci(u['score_diff'])} | "
            f"{u['score_diff']['half_width']:.2f} | {_ci(d['score_diff'])} | "
            f"{d['score_diff']['half_width']:.2f} | {row['half_width_ratio']:.2f} | "
            f"{row['variance_reduction']:.2f}x | {_ci(d['ahead_share'], 3)} |"
        )
    results += envs.note()
    if meta["trial"]:
        trial = f"{meta['games']} games a game, not the plan's {PLAN['games']}"
        results += ["", f"**Trial run: {trial}.**"]
    met = sum(r["meets_target"] for r in data["rows"])
    results += [
        "",
        "## Targets",
        "",
        (
            f"- duplicate half-width <= {PLAN['target_ratio']}x the unpaired one in at least "
            f"{PLAN['target_games']} of 5 games: {met} of {len(data['rows'])} measured"
        ),
    ]
    sep = data.get("separation")
    if sep:
        st, pair = sep["stopping"], sep["pair"]
        lo, hi = st["ahead_share_sequence"]
        verdict = (
            f"separated after {sep['games']} games ({st['leader']} ahead)"
            if st["separated"]
            else f"not separated; stopped at {sep['games']} games"
        )
        results.append(
            f"- {envs.label(sep['env'])} zoo vs heuristic, until separated (at most "
            f"{sep['max_games']} games): {verdict}; zoo ahead of the heuristic "
            f"{_ci(pair['ahead_share'], 3)} "
            f"(t interval over {pair['boards']} boards), confidence sequence [{lo:.3f}, {hi:.3f}];"
            f" lead {_ci(pair['score_diff'])}"
        )
    sim = data.get("simulation")
    if sim:
        results.append(
            f"- stopping rule, two identical agents in simulation ({sim['runs']} runs of up to "
            f"{sim['boards']} boards of {sim['games_per_board']} games, looked at after every "
            f"board): falsely separated in {sim['false_separations']} ({sim['rate']:.3f}; "
            f"level {sim['alpha']})"
        )
    how = [
        (
            f"`{meta['command']}` on {meta['date']}, {meta['machine']}, {meta['workers']} "
            "workers (the plan is fixed in `benchmarks/duplicate.py`)."
        ),
        "",
        (
            f"Zoo policy in one seat, heuristic in the other {PLAN['players'] - 1}, "
            f"{meta['games']} games each way, arena seed {PLAN['seed']}. 'Lead' is the zoo's "
            "score minus the mean of the heuristic seats (penalty games: the heuristic's minus "
            "the zoo's), with its 95% t interval: over games unpaired, over boards (4 games, one "
            "deal in every rotation, the same chance events) in duplicate. Variance reduction: "
            "the per-game variance of the lead over the duplicate run's per-game variance of its "
            "board means (how many times fewer games the pairing needs)."
        ),
        "",
        (
            "Stopping rule: hedged-capital betting confidence sequence (Waudby-Smith & Ramdas "
            "2024) on the zoo's per-board ahead-of share, stopping when it excludes 1/2 "
            "(agents/evaluation/confseq.py); docs/agents.md, 'Duplicate boards'."
        ),
    ]
    return results_page.page("Duplicate evaluation", results, how)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--games", type=int, default=None, help="games a game for a trial (default: the plan's)"
    )
    p.add_argument("--envs", default=",".join(PLAN["envs"]), help="comma-separated envs")
    p.add_argument(
        "--skip", default="", help="parts to skip: separation, simulation (comma-separated)"
    )
    p.add_argument("--workers", type=int, default=2)
    add_backend_arguments(p)
    p.add_argument("--out", default=str(RESULTS))
    args = p.parse_args(argv)
    games = args.games or PLAN["games"]
    board = PLAN["players"]
    if games % board:
        p.error(f"--games must be a multiple of the board size {board}")
    trial = games != PLAN["games"]
    skip = set(filter(None, args.skip.split(",")))
    arena = {"backend": args.backend, "address": args.address}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data = {
        "meta": {
            "command": "python benchmarks/duplicate.py "
            + " ".join(argv if argv is not None else sys.argv[1:]),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": (
                f"{platform.processor() or platform.machine()}, Python {platform.python_version()}"
            ),
            "workers": args.workers,
            "games": games,
            "trial": trial,
            "plan": PLAN,
        },
        "rows": [],
    }

    def save():
        (out / "duplicate.json").write_text(json.dumps(data, indent=1))
        (out / "duplicate.md").write_text(markdown(data))

    try:
        for env in [e.strip() for e in args.envs.split(",") if e.strip()]:
            data["rows"].append(compare(env, games, args.workers, arena))
            save()
        if "separation" not in skip:
            max_games = PLAN["separation"]["max_games"]
            if trial:  # a trial scales the cap with its games
                max_games = max(board, games * max_games // PLAN["games"] // board * board)
            data["separation"] = separation(max_games, args.workers, arena)
            save()
        if "simulation" not in skip:
            sim = dict(PLAN["simulation"])
            if trial:
                sim.update(runs=100, boards=100)
            data["simulation"] = simulate(**sim)
            save()
    except KeyboardInterrupt:
        print("interrupted: writing the parts that finished", file=sys.stderr)
        save()
        return 130
    print((out / "duplicate.md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
