"""Training benchmark: train every available game at its config's budget, report and plot.

    .venv/bin/python benchmarks/training.py                  # every game with a configs/<game>.yaml
    .venv/bin/python benchmarks/training.py gobig wizard     # some games
    .venv/bin/python benchmarks/training.py --throughput     # the vec-env / thread-count sweep (Go Big)
    .venv/bin/python benchmarks/training.py --report         # only rewrite the report from the JSON

Each game trains with ``configs/<game>.yaml`` (run folder ``runs/bench/<game>``, started afresh)
and its summary goes into ``benchmarks/results/training.json``; the report
``benchmarks/results/training.md`` (steps, wall time, training steps/s, final win share against
random and heuristic with 95% Wilson intervals, the load average) and one learning-curve PNG per
game, ``benchmarks/results/training.<game>.png``, are rebuilt from that JSON after each game.
Steps/s counts learner env steps during PPO (collection and updates together; evaluation time
excluded). The machine is shared, so the load average is recorded next to every number.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import sys
import time
from pathlib import Path

from deckzoo.envs import registry

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
JSON_PATH = RESULTS / "training.json"


def load_results() -> dict:
    return json.loads(JSON_PATH.read_text()) if JSON_PATH.exists() else {"games": {}, "throughput": []}


def save_results(res: dict) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    JSON_PATH.write_text(json.dumps(res, indent=2))
    write_report(res)


def train_game(game: str, steps: int | None) -> dict:
    from deckzoo.training.config import config_to_dict, load_config
    from deckzoo.training.train import train

    overrides = {"run_dir": str(ROOT / "runs" / "bench" / game), "progress_bar": False}
    if steps is not None:
        overrides["total_timesteps"] = steps
    cfg = load_config(ROOT / "configs" / f"{game}.yaml", overrides)
    shutil.rmtree(cfg.resolved_run_dir(), ignore_errors=True)
    load0 = os.getloadavg()
    t0 = time.perf_counter()
    summary = train(cfg)
    summary["wall_seconds"] = time.perf_counter() - t0
    summary["load_average_start"] = list(load0)
    with open(cfg.resolved_run_dir() / "eval.csv") as f:
        text = ("opponent", "kind")
        summary["curve"] = [{k: (v if k in text else float(v)) for k, v in row.items()}
                            for row in csv.DictReader(f)]
    summary["config"] = config_to_dict(cfg)
    return summary


def throughput_sweep(steps: int) -> list[dict]:
    """Go Big training throughput for vec-env kinds, env counts and torch thread counts."""
    from deckzoo.training.config import config_from_dict
    from deckzoo.training.train import train

    rows = []
    for vec, n_envs, threads in [("dummy", 2, 1), ("subproc", 2, 1), ("dummy", 8, 1), ("subproc", 8, 1),
                                 ("dummy", 16, 1), ("dummy", 16, 2)]:
        run_dir = ROOT / "runs" / "bench" / f"throughput-{vec}-{n_envs}-{threads}"
        shutil.rmtree(run_dir, ignore_errors=True)
        n_steps = 2048 // n_envs
        cfg = config_from_dict({
            "game": "gobig", "num_players": 4, "total_timesteps": steps, "n_envs": n_envs, "vec_env": vec,
            "torch_threads": threads, "run_dir": str(run_dir), "progress_bar": False, "checkpoint_every": 10**9,
            "ppo": {"n_steps": n_steps, "batch_size": 512, "n_epochs": 4, "net_arch": [128, 128]},
            "opponents": {"mix": {"random": 0.5, "pool": 0.5}, "snapshot_every": 10**9},
            "eval": {"every": 0, "final_games": 0},
        })
        load0 = os.getloadavg()[0]
        s = train(cfg)
        rows.append({"vec_env": vec, "n_envs": n_envs, "torch_threads": threads, "steps": s["steps"],
                     "seconds": s["train_seconds"], "steps_per_second": s["steps_per_second"],
                     "steps_per_cpu_second": s["steps_per_cpu_second"],
                     "load_average": [load0, os.getloadavg()[0]]})
        print(rows[-1], flush=True)
        shutil.rmtree(run_dir, ignore_errors=True)
    return rows


def _fmt_share(r: dict | None) -> str:
    if r is None:
        return "n/a"
    mark = " **>1/P**" if r["ci_low"] > r["uniform"] else ""
    return f"{r['win_share']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]{mark}"


def _cpu_rate(s: dict) -> str:
    return f"{s['steps_per_cpu_second']:.0f}" if "steps_per_cpu_second" in s else "n/a"


def write_report(res: dict) -> None:
    lines = [
        "# Training results (MaskablePPO self-play)",
        "",
        "Written by `benchmarks/training.py` from `benchmarks/results/training.json`; configs in `configs/`.",
        "Win share = mean over the learner's games of 1 (sole win), 1/w (w-way shared win) or 0, with the",
        "learner rotating through the seats against P-1 copies of the opponent; [95% Wilson interval].",
        "**>1/P** marks an interval wholly above 1/P (better than an average seat with 95% confidence).",
        "steps/s = learner env steps per second of PPO (collection + updates, evaluation excluded);",
        "steps/CPU-s = the same per second of CPU time of the training process, which is single-threaded",
        "with `vec_env: dummy` and one torch thread: the rate one otherwise idle core would give.",
        "The machine has 2 cores shared with other jobs: the 1-minute load average is given at start and end.",
        "BC = behaviour cloning of the game's heuristic before PPO (`pretrain` in the config, training/pretrain.py):",
        "BC s = its wall seconds (recording the heuristic's games + fitting); imitation = held-out accuracy",
        "(greedy action == the heuristic's) over all decisions / over the decisions with 2+ legal actions;",
        "BC vs heuristic = the cloned policy's win share before any PPO. CPU s = CPU seconds of BC + PPO,",
        "the run's budget (30 minutes = 1800 s); evaluation excluded.",
        "",
        ("| game | P | options | reward | BC s | imitation | BC vs heuristic | steps | PPO time (s) | steps/s "
         "| steps/CPU-s | CPU s | vs random | vs heuristic | 1/P | final games | load start / end |"),
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for game in registry.games():
        s = res["games"].get(game)
        if s is None:
            continue
        final = {r["opponent"]: r for r in s["final_eval"]}
        games = max((r["games"] for r in s["final_eval"]), default=0)
        opts = json.dumps(s["config"]["game_options"]) if s["config"]["game_options"] else "-"
        pre = s.get("pretrain") or {}
        bc_eval = {r["opponent"]: r for r in pre.get("eval", [])}
        bc = (f"{pre['seconds']:.0f} | {pre['accuracy']:.3f} / {pre['choice_accuracy']:.3f} | "
              f"{_fmt_share(bc_eval.get('heuristic'))}" if pre else "- | - | -")
        cpu = s.get("budget_cpu_seconds", s.get("train_cpu_seconds"))
        lines.append(
            f"| {game} | {s['num_players']} | {opts} | {s['config']['reward']} | {bc} | {s['steps']:,} | "
            f"{s['train_seconds']:.0f} | {s['steps_per_second']:.0f} | {_cpu_rate(s)} | "
            f"{'n/a' if cpu is None else f'{cpu:.0f}'} | "
            f"{_fmt_share(final.get('random'))} | "
            f"{_fmt_share(final.get('heuristic'))} | {1 / s['num_players']:.3f} | {games} | "
            f"{s['load_average_start'][0]:.1f} / {s['load_average'][0]:.1f} |")
    lines += ["", ("Learning curves: `benchmarks/results/training.<game>.png` (win share at each periodic "
                   "evaluation, with its 95% interval)."), ""]
    if res.get("notes"):  # free text kept in the JSON (how a row was obtained, what it shows)
        lines += ["## Notes", "", *[f"* {n}" for n in res["notes"]], ""]
    if res.get("throughput"):
        lines += [
            "## Throughput sweep (Go Big, 4 players, 128x128 MLP, n_steps x n_envs = 2048, batch 512, 4 epochs)",
            "",
            ("| vec env | n_envs | torch threads | steps | seconds | steps/s | steps/CPU-s (main process) "
             "| load start / end |"),
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in res["throughput"]:
            lines.append(f"| {r['vec_env']} | {r['n_envs']} | {r['torch_threads']} | {r['steps']:,} | "
                         f"{r['seconds']:.1f} | {r['steps_per_second']:.0f} | {r['steps_per_cpu_second']:.0f} | "
                         f"{r['load_average'][0]:.1f} / {r['load_average'][1]:.1f} |")
        lines.append("")
    (RESULTS / "training.md").write_text("\n".join(lines))
    for game, s in res["games"].items():
        plot_curve(game, s)


def plot_curve(game: str, s: dict) -> None:
    from deckzoo.training.curve import plot_learning_curve

    warm = " after cloning the heuristic (step 0)" if s.get("pretrain") else " self-play"
    plot_learning_curve(s["curve"], s["num_players"], RESULTS / f"training.{game}.png",
                        f"{game} ({s['num_players']} players): MaskablePPO{warm}",
                        final_step=s["steps"])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("games", nargs="*", help="games to train (default: every available one with a config)")
    p.add_argument("--steps", type=int, help="override every config's total_timesteps")
    p.add_argument("--throughput", action="store_true", help="run the throughput sweep instead")
    p.add_argument("--throughput-steps", type=int, default=20480)
    p.add_argument("--report", action="store_true", help="only rebuild the report from the JSON")
    args = p.parse_args(argv)

    import logging

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    res = load_results()
    if args.report:
        save_results(res)
        return 0
    if args.throughput:
        res["throughput"] = throughput_sweep(args.throughput_steps)
        save_results(res)
        return 0
    available = registry.games()
    games = args.games or [g for g in available if (ROOT / "configs" / f"{g}.yaml").exists()]
    for game in games:
        if game not in available:
            print(f"skip {game}: not available", file=sys.stderr)
            continue
        print(f"== training {game}", flush=True)
        summary = train_game(game, args.steps)
        res = load_results()  # another invocation may have added games meanwhile
        res["games"][game] = summary
        save_results(res)
        print(json.dumps({k: summary[k] for k in ("game", "steps", "train_seconds", "steps_per_second")}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
