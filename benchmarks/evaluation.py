"""How fast deckzoo judges agents: the arena's games on the batched engines against one at a time.

Two measurements, written to ``benchmarks/results/evaluation.json`` / ``.md`` / ``.png``:

* ``arena``: per game, ``zoo:<game>`` against three heuristics at 4 players, the arena's own tasks
  (``game_tasks``: the same deals, seats and seeds either way). The scalar engine plays a sample of
  the games one at a time (``play_task``); the batched engine plays all of them
  (``play_batched_tasks`` over the arena's chunks) at each batch size. Only play is timed (CPU
  seconds of this process), not the summary or the ratings. Both win shares are reported, with
  their intervals, so the speed is seen to buy the same evaluation.
* ``training``: the share of a shipped vector config's CPU time spent in evaluation, with the
  evaluation games played one at a time (``eval.engine=scalar``, as before) and batched
  (``auto``): the same run twice, each in its own run folder.

    .venv/bin/python benchmarks/evaluation.py arena                 # 10,000 games a game
    .venv/bin/python benchmarks/evaluation.py arena --games 2000 --scalar-games 200 gobig
    .venv/bin/python benchmarks/evaluation.py training gobig midgard
    .venv/bin/python benchmarks/evaluation.py report                # rewrite the page

Run one part per core at most: the timings are CPU seconds, but two processes on two cores
still share memory bandwidth and caches.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
sys.path.insert(0, str(ROOT / "benchmarks"))
import results_page  # the sibling module: the layout of every results page

GAMES = ["gobig", "bignumber", "wizard", "bigwig", "midgard"]
BATCHES = [256, 1024, 4096]
DEFAULT_GAMES = {"midgard": 1000}  # the rest: --games
DEFAULT_SCALAR = {"midgard": 60}  # the rest: --scalar-games
SEED = 55
TARGET = {"midgard": 3.0}  # batched over scalar games per CPU second; the rest: 30


def _load() -> dict:
    path = RESULTS / "evaluation.json"
    return json.loads(path.read_text()) if path.exists() else {"arena": {}, "training": {}}


def _save(part: str, game: str, row: dict) -> dict:
    """Merge one row into the saved results (read again first: the two parts may run at once, one
    a core) and rewrite the page."""
    data = _load()
    data.setdefault(part, {})[game] = row
    data["machine"] = _machine()
    (RESULTS / "evaluation.json").write_text(json.dumps(data, indent=1) + "\n")
    (RESULTS / "evaluation.md").write_text(markdown(data))
    return data


def _machine() -> dict:
    from peers import cpu_model

    return {"cpu": cpu_model(), "python": platform.python_version()}


def _share(records: list[dict], label: str) -> tuple[float, float, float]:
    from deckzoo.agents.evaluation.stats import wilson_interval, win_credit

    total = seats = 0.0
    for r in records:
        for s, who in enumerate(r["seats"]):
            if who == label:
                total += win_credit(r["winners"], s)
                seats += 1
    lo, hi = wilson_interval(total, seats)
    return total / seats, lo, hi


def arena_row(game: str, games: int, scalar_games: int, batches: list[int]) -> dict:
    from tqdm import tqdm

    from deckzoo.agents.evaluation.arena import play_batched_tasks, play_task, task_chunks
    from deckzoo.agents.evaluation.config import ArenaConfig
    from deckzoo.agents.evaluation.tasks import game_tasks, resolve_game

    label = f"zoo:{game}"
    base = {"game": game, "agents": [label, "heuristic"], "players": 4, "seed": SEED}
    cfg = ArenaConfig(**base, games=games)
    tasks = game_tasks(cfg, resolve_game(cfg).num_players)
    row = {"game": game, "games": games, "scalar_games": scalar_games, "batched": []}
    c0 = time.process_time()
    scalar = [play_task(t) for t in tqdm(tasks[:scalar_games], desc=f"{game} scalar")]
    cpu = time.process_time() - c0
    row["scalar"] = {"cpu_seconds": cpu, "games_per_cpu_second": scalar_games / cpu}
    row["scalar"]["win_share"] = _share(scalar, label)
    for b in batches:
        chunked = ArenaConfig(**base, games=games, batch_size=b)
        c0, w0 = time.process_time(), time.perf_counter()
        records = []
        for chunk in tqdm(task_chunks(tasks, chunked), desc=f"{game} B={b}"):
            records += play_batched_tasks(chunk, b, SEED)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        row["batched"].append(
            {
                "batch_size": b,
                "lanes": min(b, games),
                "cpu_seconds": cpu,
                "wall_seconds": wall,
                "games_per_cpu_second": games / cpu,
                "win_share": _share(records, label),
            }
        )
    return row


def training_row(game: str, budget: int | None) -> dict:
    """The shipped vector config, run twice (evaluation scalar, then batched)."""
    from deckzoo.training.config import load_config
    from deckzoo.training.train import train

    out = {"game": game, "config": f"{game}-vector", "runs": {}}
    for engine in ("scalar", "auto"):
        settings = {"eval.engine": engine, "run_dir": f"runs/eval-share/{game}-{engine}"}
        if budget is not None:
            settings["total_timesteps"] = budget
        cfg = load_config(f"{game}-vector", settings)
        summary = train(cfg)
        train_cpu, eval_cpu = summary["train_cpu_seconds"], summary["eval_cpu_seconds"]
        out["total_timesteps"] = cfg.total_timesteps
        out["eval"] = {
            "every": cfg.eval.every,
            "games": cfg.eval.games,
            "final_games": cfg.eval.final_games,
            "opponents": list(cfg.eval.opponents),
        }
        out["runs"][engine] = {
            "train_cpu_seconds": train_cpu,
            "eval_cpu_seconds": eval_cpu,
            "eval_share": eval_cpu / (train_cpu + eval_cpu),
            "final": [
                {k: r[k] for k in ("opponent", "win_share", "ci_low", "ci_high")}
                for r in summary.get("final_eval", [])
            ],
        }
    return out


# ---- the page -------------------------------------------------------------------------------
TRAINING_COLUMNS = ["game", "steps", "eval games", "train CPU s", "scalar eval CPU s", "share"]
TRAINING_HEADER = "| " + " | ".join([*TRAINING_COLUMNS, "batched eval CPU s", "share"]) + " |"


def _ws(t) -> str:
    return f"{t[0]:.3f} [{t[1]:.3f}, {t[2]:.3f}]"


def markdown(data: dict) -> str:
    arena, training = data.get("arena", {}), data.get("training", {})
    res = [
        "| game | scalar | B = 256 | B = 1,024 | B = 4,096 | best / scalar | target |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for game in GAMES:
        r = arena.get(game)
        if r is None:
            continue
        s = r["scalar"]["games_per_cpu_second"]
        by = {b["batch_size"]: b for b in r["batched"]}
        cells = [f"{by[b]['games_per_cpu_second']:,.0f}" if b in by else "" for b in BATCHES]
        best = max(b["games_per_cpu_second"] for b in r["batched"])
        target = TARGET.get(game, 30.0)
        met = "met" if best / s >= target else "not met"
        res.append(
            f"| {game} | {s:,.1f} | {' | '.join(cells)} | {best / s:.1f}x | {target:.0f}x {met} |"
        )
    res += [
        "",
        "Games per CPU second of `zoo:<game>` against three heuristics at 4 players: one game at",
        "a time (scalar) and on the batched engine (Midgard: scalar lanes, the policy's rows",
        "batched) at three batch sizes; the same games, the same seeds.",
        "",
        "![Games per CPU second](evaluation.png)",
        "",
        "Win share of `zoo:<game>` (95% Wilson interval) and CPU seconds of each run:",
        "",
        "| game | scalar games | win share | CPU s | batched games | win share (B 1,024) | CPU s |",
        "|---|---:|---|---:|---:|---|---|",
    ]
    for game in GAMES:
        r = arena.get(game)
        if r is None:
            continue
        by = {b["batch_size"]: b for b in r["batched"]}
        mid = by.get(1024, r["batched"][0])
        cpus = " / ".join(f"{by[b]['cpu_seconds']:.1f}" for b in BATCHES if b in by)
        scalar = r["scalar"]
        res.append(
            f"| {game} | {r['scalar_games']:,} | {_ws(scalar['win_share'])} | "
            f"{scalar['cpu_seconds']:.1f} | {r['games']:,} | {_ws(mid['win_share'])} | {cpus} |"
        )
    if training:
        res += [
            "",
            "Batched CPU seconds at B = 256 / 1,024 / 4,096. The share of a training run's CPU",
            "time spent in evaluation (the shipped vector config, its periodic and final",
            "evaluations), evaluation games one at a time and batched:",
            "",
            TRAINING_HEADER,
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for game in GAMES:
            t = training.get(game)
            if t is None or not {"scalar", "auto"} <= set(t["runs"]):
                continue
            sc, ba = t["runs"]["scalar"], t["runs"]["auto"]
            ev = t["eval"]
            periodic = t["total_timesteps"] // ev["every"] if ev["every"] else 0
            n_games = (periodic * ev["games"] + ev["final_games"]) * len(ev["opponents"])
            res.append(
                f"| {game} | {t['total_timesteps']:,} | {n_games:,} | "
                f"{sc['train_cpu_seconds']:.0f} | {sc['eval_cpu_seconds']:.0f} | "
                f"{sc['eval_share']:.1%} | {ba['eval_cpu_seconds']:.0f} | {ba['eval_share']:.1%} |"
            )
    machine = data.get("machine", {})
    commands = data.get("commands") or [
        "python benchmarks/evaluation.py arena",
        "python benchmarks/evaluation.py training gobig midgard",
    ]
    how = [
        "```",
        *commands,
        "```",
        "",
        f"- The arena's own tasks (`game_tasks`, seed {SEED}): the scalar engine plays the first",
        "  games of the run one at a time (`play_task`), the batched engine all of them in the",
        "  arena's chunks (`play_batched_tasks`); only play is timed, in CPU seconds of the one",
        "  process. Greedy policies and the deterministic",
        "  heuristics make the same moves on both engines; where an agent draws random numbers",
        "  (Midgard's sampled zoo policy, BigWig's heuristic) the batched forms draw their own.",
        "- The scalar rate is measured on fewer games than the batched one (it is a rate; the",
        "  games are the first of the same run).",
        "- Training: the shipped `configs/<game>-vector.yaml`, run once with `eval.engine=scalar`",
        "  and once with `auto`; `eval_cpu_seconds` and `train_cpu_seconds` from each run's",
        "  summary.json. Where the steps column is below the config's, the run was cut to that",
        "  many steps (`total_timesteps`), the evaluation schedule kept.",
        f"- Machine: {machine.get('cpu', 'unknown')}, Python {machine.get('python', '?')}.",
        *(f"- {note}" for note in data.get("notes", [])),
    ]
    return results_page.page("Evaluation speed", res, how)


def plot(data: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    arena = data.get("arena", {})
    games = [g for g in GAMES if g in arena]
    if not games:
        return
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.2
    for k, label in enumerate(["scalar", *[f"B = {b:,}" for b in BATCHES]]):
        vals = []
        for g in games:
            r = arena[g]
            if k == 0:
                vals.append(r["scalar"]["games_per_cpu_second"])
            else:
                by = {b["batch_size"]: b for b in r["batched"]}
                b = BATCHES[k - 1]
                vals.append(by[b]["games_per_cpu_second"] if b in by else 0)
        ax.bar([i + (k - 1.5) * width for i in range(len(games))], vals, width, label=label)
    ax.set_xticks(range(len(games)), games)
    ax.set_yscale("log")
    ax.set_ylabel("games per CPU second (log)")
    ax.set_title("zoo:<game> against three heuristics, 4 players")
    ax.legend()
    fig.tight_layout()
    fig.savefig(RESULTS / "evaluation.png", dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("part", choices=("arena", "training", "report"))
    p.add_argument("games", nargs="*", help=f"games (default: all of {', '.join(GAMES)})")
    p.add_argument("--games", dest="n", type=int, default=10_000, help="batched games a game")
    p.add_argument("--scalar-games", type=int, default=400, help="scalar games a game")
    p.add_argument("--batches", default=",".join(map(str, BATCHES)))
    p.add_argument("--steps", type=int, default=None, help="training: cut total_timesteps")
    args = p.parse_args(argv)
    warnings.simplefilter("ignore")  # a zoo policy of another version says so on every load
    import torch

    torch.set_num_threads(1)
    games = args.games or GAMES
    for game in games:
        if args.part == "arena":
            n = DEFAULT_GAMES.get(game, args.n) if not args.games else args.n
            s = DEFAULT_SCALAR.get(game, args.scalar_games)
            batches = [int(b) for b in args.batches.split(",")]
            _save("arena", game, arena_row(game, n, s, batches))
            plot(_load())
        elif args.part == "training":
            _save("training", game, training_row(game, args.steps))
    data = _load()
    plot(data)
    (RESULTS / "evaluation.md").write_text(markdown(data))
    print(f"wrote {RESULTS / 'evaluation.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
