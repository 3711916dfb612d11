"""Distributed benchmark: RLlib training beside MaskablePPO, and the arena on Ray.

Two parts (``--parts training,arena``), both on this machine:

* **training**: Go Big (``configs/gobig-rllib.yaml``) trained with ``trainer: rllib`` for
  ``--rllib-steps`` env steps (every seat's decisions), then evaluated greedily against random
  and the heuristic (``--eval-games`` each; the target: a win share whose 95% interval lies
  above 1/P within 30 CPU-minutes). In the same run the MaskablePPO trainer
  (``configs/gobig.yaml``) trains for ``--sb3-steps`` learner steps, for its throughput beside
  RLlib's: env steps per second, per CPU second (all processes: the driver and the env runners),
  and peak memory per process.
* **arena**: the same games (``--arena-games`` per game of heuristic against random) played by the
  local arena (1 and 2 processes) and by the Ray backend on a fresh local Ray instance of 1 and 2
  CPUs, ``--repeats`` times interleaved (medians reported); games per second, the Ray start-up cost
  (``ray.init`` and the first task's round trip), and a check that every backend's records are the
  local arena's.

Writes ``benchmarks/results/distributed.md`` and ``distributed.json`` (``--out`` to change).

    .venv/bin/python benchmarks/distributed.py
    .venv/bin/python benchmarks/distributed.py --parts arena --arena-games 200
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results_page  # the sibling module: the layout of every results page

RESULTS = Path(__file__).resolve().parent / "results"
ROOT = Path(__file__).resolve().parents[1]


# ---- training -----------------------------------------------------------------------------------
def _train_here(cfg) -> dict:
    import torch

    from deckzoo.training.train import train

    torch.set_num_threads(1)
    summary = train(cfg)
    summary["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return summary


def run_training(args) -> dict:
    from deckzoo.training.config import load_config

    runs = Path(args.runs)
    rllib_cfg = load_config(
        ROOT / "configs" / "gobig-rllib.yaml",
        {
            "total_timesteps": args.rllib_steps,
            "run_dir": str(runs / "gobig-rllib"),
            "progress_bar": False,
            "eval.final_games": args.eval_games,
            "eval.every": 0,
            "rllib.env_runners": args.env_runners,
        },
    )
    sb3_cfg = load_config(
        ROOT / "configs" / "gobig.yaml",
        {
            "total_timesteps": args.sb3_steps,
            "run_dir": str(runs / "gobig-sb3"),
            "progress_bar": False,
            "eval.final_games": 0,
            "eval.every": 0,
            "checkpoint_every": 10**9,
        },
    )
    for d in (rllib_cfg.resolved_run_dir(), sb3_cfg.resolved_run_dir()):
        if d.exists():
            import shutil

            shutil.rmtree(d)
    # each trainer in a fresh process of its own, so that its peak memory is its own
    ctx = multiprocessing.get_context("spawn")
    out = {}
    for name, cfg, what in (("rllib", rllib_cfg, "env steps"), ("sb3", sb3_cfg, "learner steps")):
        print(f"training: {name} Go Big, {cfg.total_timesteps} {what}")
        with ProcessPoolExecutor(1, mp_context=ctx) as pool:
            out[name] = pool.submit(_train_here, cfg).result()
    return out


# ---- arena --------------------------------------------------------------------------------------
def _fresh_ray(cpus: int) -> float:
    """Start a local Ray instance of ``cpus`` CPUs; seconds to ``ray.init`` plus one task's
    round trip (what a first arena batch waits for)."""
    import ray

    from deckzoo.agents.ray_cluster import connect

    if ray.is_initialized():
        ray.shutdown()
    t0 = time.perf_counter()
    connect(None, num_cpus=cpus)
    ray.get(ray.remote(num_cpus=1)(lambda: 1).remote())
    return time.perf_counter() - t0


BACKENDS = (("local", 1), ("local", 2), ("ray", 1), ("ray", 2))


def run_arena_part(args) -> list[dict]:
    """Every backend ``--repeats`` times, interleaved (a change of load hits them alike); the
    median of each is reported, and every run's records are checked against the first."""
    import ray

    from deckzoo.agents.evaluation.arena import run_arena
    from deckzoo.agents.evaluation.config import ArenaConfig
    from deckzoo.agents.evaluation.tasks import comparable

    rows = []
    for game in args.arena_envs.split(","):
        base = {"game": game, "agents": ["heuristic", "random"], "games": args.arena_games}
        reference = None
        runs = {b: [] for b in BACKENDS}
        for _ in range(args.repeats):
            for backend, workers in BACKENDS:
                startup = _fresh_ray(workers) if backend == "ray" else 0.0
                cfg = ArenaConfig(**base, seed=args.seed, workers=workers, backend=backend)
                res = run_arena(cfg)
                records = [comparable(r) for r in res.records]
                reference = reference or records
                runs[backend, workers].append((res.seconds, startup, records == reference))
                if ray.is_initialized():
                    ray.shutdown()
        for (backend, workers), got in runs.items():
            seconds = statistics.median(g[0] for g in got)
            row = {
                "game": game,
                "backend": backend,
                "workers": workers,
                "games": args.arena_games,
                "repeats": len(got),
                "seconds": seconds,
                "games_per_second": args.arena_games / seconds,
                "startup_seconds": statistics.median(g[1] for g in got),
                "identical_to_local": None
                if (backend, workers) == BACKENDS[0]
                else all(g[2] for g in got),
                "load_average": list(os.getloadavg()),
            }
            rows.append(row)
            print(
                f"arena {game} {backend} x{workers}: {row['games_per_second']:.1f} games/s, "
                f"start-up {row['startup_seconds']:.1f} s, identical {row['identical_to_local']}"
            )
    return rows


# ---- report -------------------------------------------------------------------------------------
def _row(*cells) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _training_md(t: dict) -> list[str]:
    r, s = t["rllib"], t["sb3"]
    runners = ", ".join(f"{x:.0f}" for x in r["env_runner_peak_rss_mib"])
    lines = [
        "## Training (Go Big, 4 players)",
        "",
        _row(
            "trainer",
            "steps",
            "a step is",
            "wall s",
            "steps/s",
            "CPU s",
            "steps/CPU s",
            "peak RSS per process (MiB)",
        ),
        "|---|---:|---|---:|---:|---:|---:|---|",
        _row(
            f"RLlib PPO ({r['env_runners']} env runners x {r['envs_per_runner']} envs)",
            r["steps"],
            f"a decision of any seat ({r['learner_steps']} by the trained policy)",
            f"{r['train_seconds']:.0f}",
            f"{r['steps_per_second']:.0f}",
            f"{r['train_cpu_seconds']:.0f}",
            f"{r['steps_per_cpu_second']:.0f}",
            f"driver {r['driver_peak_rss_mib']:.0f}, env runners {runners}",
        ),
        _row(
            f"MaskablePPO (SB3, {s['n_envs']} envs, one process)",
            s["steps"],
            "a decision of the learner (opponents move inside the env)",
            f"{s['train_seconds']:.0f}",
            f"{s['steps_per_second']:.0f}",
            f"{s['train_cpu_seconds']:.0f}",
            f"{s['steps_per_cpu_second']:.0f}",
            f"one process, {s['peak_rss_mib']:.0f}",
        ),
        "",
        (
            "Go Big at 4 players. RLlib's policy after training, greedy, in every seat in turn "
            "against 3 copies of each opponent (win share, 95% Wilson interval, 1/P = 0.25):"
        ),
        "",
        _row("opponent", "games", "win share", "95% CI", "above 1/P"),
        "|---|---:|---:|---|---|",
    ]
    for e in r["final_eval"]:
        above = "yes" if e["ci_low"] > e["uniform"] else "no"
        ci = f"[{e['ci_low']:.3f}, {e['ci_high']:.3f}]"
        lines.append(_row(e["opponent"], e["games"], f"{e['win_share']:.3f}", ci, above))
    minutes = r["train_cpu_seconds"] / 60
    lines += ["", f"Training took {minutes:.1f} CPU-minutes (target: at most 30).", ""]
    return lines


def _arena_md(rows: list[dict]) -> list[str]:
    lines = [
        "## Arena throughput (heuristic against random)",
        "",
        _row(
            "game",
            "backend",
            "workers",
            "games",
            "seconds",
            "games/s",
            "start-up s",
            "records identical to local x1",
        ),
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        same = row["identical_to_local"]
        same = "reference" if same is None else ("yes" if same else "NO")
        start = f"{row['startup_seconds']:.1f}" if row["backend"] == "ray" else "-"
        lines.append(
            _row(
                row["game"],
                row["backend"],
                row["workers"],
                row["games"],
                f"{row['seconds']:.1f}",
                f"{row['games_per_second']:.1f}",
                start,
                same,
            )
        )
    return lines


def markdown(data: dict) -> str:
    """The results page (benchmarks/results_page.py's layout): the training and arena tables,
    then how they were made."""
    meta = data["meta"]
    results = []
    if data.get("training"):
        results += _training_md(data["training"])
    if data.get("arena"):
        results += _arena_md(data["arena"])
    if results and results[0].startswith("## "):  # the page opens with the first table
        results = results[2:]
    how = [
        f"`{meta['command']}` on {meta['date']}, {meta['machine']}.",
        "",
        (
            "Measured on a shared 2-core machine under load (1-minute load average "
            f"{meta['load_before']} before the run, other jobs running throughout): wall-clock "
            "numbers move with the load; CPU seconds are the fairer measure."
        ),
    ]
    if data.get("training"):
        how += [
            "",
            (
                "Training, CPU seconds: the driver (the learner, evaluation excluded) and the env "
                "runner processes; Ray's own daemons (raylet, GCS) are not counted."
            ),
        ]
    if data.get("arena"):
        how += [
            "",
            (
                "Arena: heuristic against random. Start-up: a fresh local `ray.init` plus one "
                "task's round trip, paid once per process (a running cluster costs only the "
                "connection). Medians of the repeats, interleaved. Ray plays batches of 25 games a "
                "task; local x2 is a spawn process pool (its start-up is inside its time)."
            ),
        ]
    return results_page.page("Distributed: RLlib training and the arena on Ray", results, how)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--parts", default="training,arena")
    p.add_argument("--rllib-steps", type=int, default=400_000)
    p.add_argument("--sb3-steps", type=int, default=50_000)
    p.add_argument("--env-runners", type=int, default=2)
    p.add_argument("--eval-games", type=int, default=1000)
    p.add_argument("--arena-envs", default="gobig,wizard")
    p.add_argument("--arena-games", type=int, default=1000)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(RESULTS))
    p.add_argument(
        "--runs", default=str(ROOT / "runs" / "distributed"), help="the training runs' folders"
    )
    args = p.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    parts = set(args.parts.split(","))
    data = {
        "meta": {
            "command": "python benchmarks/distributed.py "
            + " ".join(argv if argv is not None else __import__("sys").argv[1:]),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}",
            "load_before": round(os.getloadavg()[0], 1),
        }
    }
    if "arena" in parts:
        data["arena"] = run_arena_part(args)
    if "training" in parts:
        data["training"] = run_training(args)
    (out / "distributed.json").write_text(json.dumps(data, indent=1, default=float))
    (out / "distributed.md").write_text(markdown(data))
    print(f"results written to {out}/distributed.md and distributed.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
