"""Training benchmark: train every available game at its config's budget, report and plot.

    .venv/bin/python benchmarks/training.py                  # every game with a configs/<game>.yaml
    .venv/bin/python benchmarks/training.py gobig wizard     # some games
    .venv/bin/python benchmarks/training.py --throughput     # vec-env / thread-count sweep (Go Big)
    .venv/bin/python benchmarks/training.py --report         # only rewrite the report from the JSON
    .venv/bin/python benchmarks/training.py --vector wizard  # the vector trainer (see below)
    .venv/bin/python benchmarks/training.py --vector --resume --steps 9000000 bignumber  # longer
    .venv/bin/python benchmarks/training.py --compare        # SB3 vs vector throughput, one network
    .venv/bin/python benchmarks/training.py --arena          # the vector policies in the arena

Each game trains with ``configs/<game>.yaml`` (run folder ``runs/bench/<game>``, started afresh)
and its summary goes into ``benchmarks/results/training.json``; the report
``benchmarks/results/training.md`` (steps, wall time, training steps/s, final win share against
random and heuristic with 95% Wilson intervals, the load average) and one learning-curve PNG per
game, ``benchmarks/results/training.<game>.png``, are rebuilt from that JSON after each game.
Steps/s counts learner env steps during PPO (collection and updates together; evaluation time
excluded). The machine is shared, so the load average is recorded next to every number.

The vector trainer (``trainer: vector``, training/vector_ppo.py) has its own rows: ``--vector``
trains ``configs/<game>-vector.yaml`` (run folder ``runs/bench/<game>-vector``); ``--compare``
measures both trainers' training throughput on one network, one after the other in one process
(SB3 with ``configs/<game>.yaml`` without cloning, its ``net_arch`` set to the vector config's);
``--arena`` plays each vector policy against three heuristics for 400 games with
``deckzoo.agents.evaluation.arena`` (and Go Big's against three copies of the SB3 policy of
``configs/gobig.yaml``, trained first if ``runs/bench/gobig/final.zip`` is missing). Where both
trainers have a run, ``training.<game>.cpu.png`` draws both learning curves against the heuristic
by training CPU seconds.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

from deckzoo.envs import registry

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results_page  # the sibling module: the layout of every results page

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
JSON_PATH = RESULTS / "training.json"
ARENA_GAMES = 400
SB3_GOBIG = ROOT / "runs" / "bench" / "gobig" / "final.zip"  # the SB3 policy of configs/gobig.yaml


def vector_games() -> list[str]:
    """The games with a ``configs/<game>-vector.yaml``: those with a batched engine, and those the
    vector trainer runs on scalar lanes (Midgard)."""
    return [g for g in registry.games() if (ROOT / "configs" / f"{g}-vector.yaml").exists()]


def load_results() -> dict:
    res = (
        json.loads(JSON_PATH.read_text()) if JSON_PATH.exists() else {"games": {}, "throughput": []}
    )
    for key in ("vector", "arena"):
        res.setdefault(key, {})
    res.setdefault("compare", [])
    return res


def save_results(res: dict) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    JSON_PATH.write_text(json.dumps(res, indent=2))
    write_report(res)


def train_game(
    game: str, steps: int | None, config: str | None = None, resume: bool = False
) -> dict:
    """Train ``configs/<config>.yaml`` (default: ``<game>``) afresh in ``runs/bench/<config>``, or
    continue the run there (``resume``: to extend a finished run to ``steps``, exactly as
    ``deckzoo train --resume`` does; its CPU seconds and curve cover the whole run)."""
    from deckzoo.training.config import config_to_dict, load_config
    from deckzoo.training.train import train

    config = config or game
    overrides = {"run_dir": str(ROOT / "runs" / "bench" / config), "progress_bar": False}
    if steps is not None:
        overrides["total_timesteps"] = steps
    cfg = load_config(ROOT / "configs" / f"{config}.yaml", overrides)
    if not resume:
        shutil.rmtree(cfg.resolved_run_dir(), ignore_errors=True)
    load0 = os.getloadavg()
    t0 = time.perf_counter()
    summary = train(cfg, resume=resume)
    summary["wall_seconds"] = time.perf_counter() - t0
    summary["load_average_start"] = list(load0)
    with open(cfg.resolved_run_dir() / "eval.csv") as f:
        text = ("opponent", "kind")
        summary["curve"] = [
            {k: (v if k in text else float(v)) for k, v in row.items()} for row in csv.DictReader(f)
        ]
    summary["config"] = config_to_dict(cfg)
    return summary


def throughput_sweep(steps: int) -> list[dict]:
    """Go Big training throughput for vec-env kinds, env counts and torch thread counts."""
    from deckzoo.training.config import config_from_dict
    from deckzoo.training.train import train

    rows = []
    for vec, n_envs, threads in [
        ("dummy", 2, 1),
        ("subproc", 2, 1),
        ("dummy", 8, 1),
        ("subproc", 8, 1),
        ("dummy", 16, 1),
        ("dummy", 16, 2),
    ]:
        run_dir = ROOT / "runs" / "bench" / f"throughput-{vec}-{n_envs}-{threads}"
        shutil.rmtree(run_dir, ignore_errors=True)
        n_steps = 2048 // n_envs
        cfg = config_from_dict(
            {
                "game": "gobig",
                "num_players": 4,
                "total_timesteps": steps,
                "n_envs": n_envs,
                "vec_env": vec,
                "torch_threads": threads,
                "run_dir": str(run_dir),
                "progress_bar": False,
                "checkpoint_every": 10**9,
                "ppo": {
                    "n_steps": n_steps,
                    "batch_size": 512,
                    "n_epochs": 4,
                    "net_arch": [128, 128],
                },
                "opponents": {"mix": {"random": 0.5, "pool": 0.5}, "snapshot_every": 10**9},
                "eval": {"every": 0, "final_games": 0},
            }
        )
        load0 = os.getloadavg()[0]
        s = train(cfg)
        rows.append(
            {
                "vec_env": vec,
                "n_envs": n_envs,
                "torch_threads": threads,
                "steps": s["steps"],
                "seconds": s["train_seconds"],
                "steps_per_second": s["steps_per_second"],
                "steps_per_cpu_second": s["steps_per_cpu_second"],
                "load_average": [load0, os.getloadavg()[0]],
            }
        )
        print(rows[-1], flush=True)
        shutil.rmtree(run_dir, ignore_errors=True)
    return rows


SELF_PLAY_MIX = {"learner": 0.8, "pool": 0.15, "random": 0.05}  # --compare's third row: no agents


def compare_throughput(
    game: str, sb3_steps: int, vector_steps: int, only: str | None = None
) -> list[dict]:
    """Both trainers on the vector config's network, one after the other in this process:
    learner env steps per second and per CPU second of training (no evaluation, no checkpoints).
    Rows: SB3 with configs/<game>.yaml (no cloning), with one and with two torch threads; the
    vector config as shipped, the vector config with self-play opponents only (``SELF_PLAY_MIX``:
    no scalar lanes), and both of those again with two torch threads (both cores); where the vector
    config's mix differs from the SB3 config's, the vector trainer at the SB3 mix too (one and two
    threads): the same network and mix. The vector
    runs skip the lanes' initial stagger, a one-off cost of a few CPU
    seconds."""
    import yaml

    from deckzoo.training.config import config_from_dict
    from deckzoo.training.train import train

    def read(name):
        return yaml.safe_load((ROOT / "configs" / f"{name}.yaml").read_text())

    vec = read(f"{game}-vector")
    plain = {**vec, "vector": {**vec.get("vector", {}), "stagger": 0}}
    self_play = {**plain, "opponents": {**vec["opponents"], "mix": SELF_PLAY_MIX}}

    sb3 = read(game)
    runs = [
        ("sb3", sb3, sb3_steps),
        ("sb3", {**sb3, "torch_threads": 2}, sb3_steps),
        ("vector", plain, vector_steps),
        ("vector, self-play only", self_play, vector_steps),
        ("vector", {**plain, "torch_threads": 2}, vector_steps),
        ("vector, self-play only", {**self_play, "torch_threads": 2}, vector_steps),
    ]
    if sb3["opponents"]["mix"] != vec["opponents"]["mix"]:
        # the vector trainer at the SB3 config's own mix too: the same network *and* mix
        same = {**plain, "opponents": {**vec["opponents"], "mix": sb3["opponents"]["mix"]}}
        runs += [
            ("vector, SB3's mix", same, vector_steps),
            ("vector, SB3's mix", {**same, "torch_threads": 2}, vector_steps),
        ]
    rows = []
    for trainer, data, steps in runs:
        if only is not None and trainer != only:
            continue
        data = {
            **data,
            "total_timesteps": steps,
            "progress_bar": False,
            "checkpoint_every": 10**12,
            "run_dir": str(ROOT / "runs" / "bench" / f"compare-{game}"),
            "eval": {**data.get("eval", {}), "every": 0, "final_games": 0},
            "ppo": {**data.get("ppo", {}), "net_arch": vec["ppo"]["net_arch"]},
        }
        data.pop("pretrain", None)  # from scratch: throughput of PPO itself
        cfg = config_from_dict(data)
        shutil.rmtree(cfg.resolved_run_dir(), ignore_errors=True)
        load0 = os.getloadavg()[0]
        s = train(cfg)
        rows.append(
            {
                "game": game,
                "trainer": trainer,
                "net_arch": cfg.ppo.net_arch,
                "torch_threads": cfg.torch_threads,
                "n_envs": cfg.n_envs,
                "epochs": cfg.ppo.n_epochs,
                "opponent_mix": s["opponent_mix"],
                "steps": s["steps"],
                "seconds": s["train_seconds"],
                "cpu_seconds": s["train_cpu_seconds"],
                "steps_per_second": s["steps_per_second"],
                "steps_per_cpu_second": s["steps_per_cpu_second"],
                "decisions_per_second": s.get("decisions_per_second"),
                "load_average": [load0, os.getloadavg()[0]],
            }
        )
        print(rows[-1], flush=True)
        shutil.rmtree(cfg.resolved_run_dir(), ignore_errors=True)
    return rows


def _net(config: dict) -> str:
    """The network column: hidden sizes, and the input features if the run used any."""
    net = "x".join(map(str, config["ppo"]["net_arch"]))
    features = config.get("vector", {}).get("features")
    return f"{net} + {features} features" if features else net


def arena_strength(game: str, seed: int = 0, config: str | None = None) -> list[dict]:
    """The vector policy against three heuristics (and, for Go Big, against three copies of the
    SB3 policy of configs/gobig.yaml), ``ARENA_GAMES`` games each, seats rotating."""
    from deckzoo.agents.evaluation.arena import run_arena
    from deckzoo.agents.evaluation.config import ArenaConfig

    policy = ROOT / "runs" / "bench" / (config or f"{game}-vector") / "policy.npz"
    if not policy.exists():
        raise SystemExit(f"no {policy}: run benchmarks/training.py --vector {game} first")
    opponents = ["heuristic"]
    if game == "gobig":
        opponents.append(f"ppo:{SB3_GOBIG}")
    rows = []
    for opp in opponents:
        cfg = ArenaConfig(
            game=game,
            agents=[f"vector=ppo:{policy}", f"opponent={opp}"],
            games=ARENA_GAMES,
            seed=seed,
            workers=1,
        )
        result = run_arena(cfg)
        row = next(r for r in result.summary if r["agent"] == "vector")
        rows.append(
            {
                "opponent": _repo_relative(opp),
                "games": len(result.records),
                "win_share": row["win_share"],
                "ci_low": row["ci_low"],
                "ci_high": row["ci_high"],
                "uniform": 1 / result.num_players,
                "seconds": result.seconds,
            }
        )
        print(game, rows[-1], flush=True)
    return rows


def _repo_relative(name: str) -> str:
    """Saved results name policies by the absolute path of the checkout that made them; the page
    names them from the repository root so it reads the same wherever it is regenerated."""
    return re.sub(r"(?<=:)/\S*?/(?=runs/)", "", name)


def _fmt_share(r: dict | None) -> str:
    if r is None:
        return "n/a"
    mark = " **>1/P**" if r["ci_low"] > r["uniform"] else ""
    return f"{r['win_share']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]{mark}"


def _cpu_rate(s: dict) -> str:
    return f"{s['steps_per_cpu_second']:.0f}" if "steps_per_cpu_second" in s else "n/a"


def write_report(res: dict) -> None:
    """The results page and the learning curves, from the results JSON."""
    (RESULTS / "training.md").write_text(report_markdown(res))
    for game, s in res["games"].items():
        plot_curve(game, s)
    for game, v in res.get("vector", {}).items():
        plot_cpu_curves(game, res["games"].get(game), v)


def report_markdown(res: dict) -> str:
    """The results page (benchmarks/results_page.py's layout): both trainers' tables and learning
    curves, the throughput measurements, then how they were made and the lab notes."""
    results = [*_sb3_tables(res), *_vector_tables(res), *_compare_tables(res)]
    results += _sweep_table(res)
    how = [
        (
            "`python benchmarks/training.py GAME` (MaskablePPO, `configs/<game>.yaml`), "
            "`--vector GAME` (the vector trainer, `configs/<game>-vector.yaml`), `--arena`, "
            "`--compare` and `--throughput`; every table here is rewritten from "
            "`benchmarks/results/training.json` (`--report`)."
        ),
        "",
        "MaskablePPO:",
        "",
        (
            "- Win share = mean over the learner's games of 1 (sole win), 1/w (w-way shared win) "
            "or 0, with the learner rotating through the seats against P-1 copies of the "
            "opponent; [95% Wilson interval]. **>1/P** marks an interval wholly above 1/P "
            "(better than an average seat with 95% confidence)."
        ),
        (
            "- steps/s = learner env steps per second of PPO (collection + updates, evaluation "
            "excluded); steps/CPU-s = the same per second of CPU time of the training process, "
            "which is single-threaded with `vec_env: dummy` and one torch thread: the rate one "
            "otherwise idle core would give. The machine has 2 cores shared with other jobs: the "
            "1-minute load average is given at start and end."
        ),
        (
            "- BC = behaviour cloning of the game's heuristic before PPO (`pretrain` in the "
            "config, training/pretrain.py): BC s = its wall seconds (recording the heuristic's "
            "games + fitting); imitation = held-out accuracy (greedy action == the heuristic's) "
            "over all decisions / over the decisions with 2+ legal actions; BC vs heuristic = the "
            "cloned policy's win share before any PPO. CPU s = CPU seconds of BC + PPO, the run's "
            "budget (30 minutes = 1800 s); evaluation excluded."
        ),
        (
            "- Learning curves: win share at each periodic evaluation, with its 95% interval; "
            "by training CPU seconds, both trainers against the heuristic where both have a run."
        ),
    ]
    if res.get("vector"):
        how += [
            "",
            "Vector trainer:",
            "",
            (
                "- Batched self-play PPO on the batched engines (training/vector_ppo.py), from "
                "scratch (no cloning). steps = learner decisions (as above); decisions/s counts "
                "every seat's. CPU s = the run's training CPU seconds (collection + updates + the "
                "lanes' initial stagger; evaluation excluded), the budget."
            ),
            (
                f"- Arena = {ARENA_GAMES} games with `deckzoo.agents.evaluation.arena` against "
                "three copies of the opponent, seats rotating (win share of the trained policy, "
                "95% Wilson interval)."
            ),
        ]
    if res.get("compare"):
        how += [
            "",
            "Throughput, SB3 vs the vector trainer:",
            "",
            (
                "- `benchmarks/training.py --compare`: each game's two trainers one after the "
                "other in one process, the vector config's network for both; SB3 with its own "
                "config (opponent mix, n_envs, epochs) without cloning. steps = learner env steps "
                "(one learner decision; both trainers count them the same way)."
            ),
            (
                "- ratio = vector / SB3 steps per second (wall clock, which the machine's load "
                "sways) / steps per CPU second (the rate on one otherwise idle core; the steadier "
                "of the two here), each against the faster SB3 row of the game for that measure. "
                "threads = torch threads (2: both cores)."
            ),
        ]
    notes = []
    if res.get("notes"):  # free text kept in the JSON (how a row was obtained, what it shows)
        notes += ["### MaskablePPO", "", *[f"* {n}" for n in res["notes"]], ""]
    if res.get("vector_notes"):  # the same for the vector trainer's rows
        notes += ["### Vector trainer", "", *[f"* {n}" for n in res["vector_notes"]], ""]
    return results_page.page(
        "Training results (MaskablePPO and the vector trainer)", results, how, notes
    )


def _sb3_tables(res: dict) -> list[str]:
    """MaskablePPO's rows: the results, then the cost (cloning, time, rates), then the curves."""
    result = [
        (
            "| game | P | options | reward | steps | CPU s | vs random | vs heuristic "
            "| final games |"
        ),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    cost = [
        (
            "| game | BC s | imitation | BC vs heuristic | PPO time (s) | steps/s | steps/CPU-s "
            "| load start / end |"
        ),
        "|---|---|---|---|---|---|---|---|",
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
        bc = (
            f"{pre['seconds']:.0f} | {pre['accuracy']:.3f} / {pre['choice_accuracy']:.3f} | "
            f"{_fmt_share(bc_eval.get('heuristic'))}"
            if pre
            else "- | - | -"
        )
        cpu = s.get("budget_cpu_seconds", s.get("train_cpu_seconds"))
        result.append(
            f"| {game} | {s['num_players']} | {opts} | {s['config']['reward']} | "
            f"{s['steps']:,} | {'n/a' if cpu is None else f'{cpu:.0f}'} | "
            f"{_fmt_share(final.get('random'))} | {_fmt_share(final.get('heuristic'))} | "
            f"{games} |"
        )
        cost.append(
            f"| {game} | {bc} | {s['train_seconds']:.0f} | {s['steps_per_second']:.0f} | "
            f"{_cpu_rate(s)} | {s['load_average_start'][0]:.1f} / {s['load_average'][0]:.1f} |"
        )
    return [
        *result,
        "",
        (
            "MaskablePPO (SB3) self-play, `configs/<game>.yaml`: the final evaluation against "
            "three copies of each opponent, win share [95% Wilson interval]. Its cost:"
        ),
        "",
        *cost,
        "",
        "Learning curves:",
        "",
        *results_page.charts(
            [f"training.{g}.png" for g in registry.games() if g in res["games"]],
            lambda n: f"learning curve of {n.split('.')[1]}",
        ),
    ]


def _vector_tables(res: dict) -> list[str]:
    """The vector trainer's runs, the arena, head to head, and both trainers' curves by CPU
    seconds."""
    if not res.get("vector"):
        return []
    result = [
        "",
        "## Vector trainer",
        "",
        ("| game | P | reward | steps | CPU s | vs random | vs heuristic | arena vs heuristic |"),
        "|---|---|---|---|---|---|---|---|",
    ]
    cost = [
        (
            "| game | mix | lanes (scalar) | net | steps/s | steps/CPU-s | decisions/s "
            "| load start / end |"
        ),
        "|---|---|---|---|---|---|---|---|",
    ]
    for game in vector_games():
        s = res["vector"].get(game)
        if s is None:
            continue
        final = {r["opponent"]: r for r in s["final_eval"]}
        arena = {r["opponent"]: r for r in res.get("arena", {}).get(game, [])}
        mix = ", ".join(f"{k} {w:g}" for k, w in s["opponent_mix"].items())
        result.append(
            f"| {game} | {s['num_players']} | {s['config']['reward']} | {s['steps']:,} | "
            f"{s['train_cpu_seconds']:.0f} | {_fmt_share(final.get('random'))} | "
            f"{_fmt_share(final.get('heuristic'))} | {_fmt_share(arena.get('heuristic'))} |"
        )
        cost.append(
            f"| {game} | {mix} | {s['n_envs']} ({s['scalar_lanes']}) | {_net(s['config'])} | "
            f"{s['steps_per_second']:.0f} | {s['steps_per_cpu_second']:.0f} | "
            f"{s['decisions_per_second']:.0f} | "
            f"{s['load_average_start'][0]:.1f} / {s['load_average'][0]:.1f} |"
        )
    lines = [
        *result,
        "",
        (
            "The vector trainer (`trainer: vector`, `configs/<game>-vector.yaml`) from scratch: "
            "the final evaluation, and the arena's. Its cost:"
        ),
        "",
        *cost,
    ]
    heads = [
        (g, r)
        for g, rows in res.get("arena", {}).items()
        for r in rows
        if r["opponent"] != "heuristic"
    ]
    if heads:
        lines += [
            "",
            "Head to head (the vector policy in one seat, three copies of the other policy):",
            "",
        ]
        lines += [
            f"* {g}: vs `{_repo_relative(r['opponent'])}`: {_fmt_share(r)} over {r['games']} games"
            for g, r in heads
        ]
    lines += [
        "",
        "Both trainers against the heuristic, by training CPU seconds:",
        "",
        *results_page.charts(
            [f"training.{g}.cpu.png" for g in vector_games() if g in res["vector"]],
            lambda n: f"both trainers' curves of {n.split('.')[1]}",
        ),
    ]
    return lines


def _compare_tables(res: dict) -> list[str]:
    """``--compare``: the rates of each trainer set-up, then what each set-up was."""
    if not res.get("compare"):
        return []
    rates = [
        "",
        "## Throughput: SB3 vs vector trainer, same network",
        "",
        (
            "| game | trainer | threads | steps | CPU s | steps/s | steps/CPU-s | ratio "
            "| load start / end |"
        ),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    setups = [
        "| game | trainer | net | lanes / envs | epochs | mix |",
        "|---|---|---|---|---|---|",
    ]
    seen = set()
    best: dict = {}  # game -> the fastest SB3 rates (wall, CPU)
    for r in res["compare"]:
        if r["trainer"] == "sb3":
            w, c = best.get(r["game"], (0.0, 0.0))
            best[r["game"]] = (max(w, r["steps_per_second"]), max(c, r["steps_per_cpu_second"]))
    for r in res["compare"]:
        base = best.get(r["game"])
        ratio = (
            f"{r['steps_per_second'] / base[0]:.1f}x / "
            f"**{r['steps_per_cpu_second'] / base[1]:.1f}x**"
            if base and r["trainer"] != "sb3"
            else ""
        )
        rates.append(
            f"| {r['game']} | {r['trainer']} | {r.get('torch_threads', 1)} | {r['steps']:,} | "
            f"{r['cpu_seconds']:.0f} | {r['steps_per_second']:.0f} | "
            f"{r['steps_per_cpu_second']:.0f} | {ratio} | "
            f"{r['load_average'][0]:.1f} / {r['load_average'][1]:.1f} |"
        )
        mix = ", ".join(f"{k} {w:g}" for k, w in r["opponent_mix"].items())
        setup = (
            f"| {r['game']} | {r['trainer']} | {'x'.join(map(str, r['net_arch']))} | "
            f"{r['n_envs']} | {r['epochs']} | {mix} |"
        )
        if setup not in seen:
            seen.add(setup)
            setups.append(setup)
    return [*rates, "", "The set-ups:", "", *setups]


def _sweep_table(res: dict) -> list[str]:
    if not res.get("throughput"):
        return []
    lines = [
        "",
        (
            "## Throughput sweep (Go Big, 4 players, 128x128 MLP, n_steps x n_envs = 2048, "
            "batch 512, 4 epochs)"
        ),
        "",
        (
            "| vec env | n_envs | torch threads | steps | seconds | steps/s "
            "| steps/CPU-s (main process) | load start / end |"
        ),
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in res["throughput"]:
        lines.append(
            f"| {r['vec_env']} | {r['n_envs']} | {r['torch_threads']} | {r['steps']:,} | "
            f"{r['seconds']:.1f} | {r['steps_per_second']:.0f} | "
            f"{r['steps_per_cpu_second']:.0f} | "
            f"{r['load_average'][0]:.1f} / {r['load_average'][1]:.1f} |"
        )
    return lines


def _heuristic_curve(s: dict, cpu_of_step) -> tuple[list, list, list, list]:
    by_step = {}
    for r in s["curve"]:
        if r["opponent"] == "heuristic" and (
            r["step"] not in by_step or r["games"] >= by_step[r["step"]]["games"]
        ):
            by_step[r["step"]] = r
    pts = [by_step[k] for k in sorted(by_step)]
    return (
        [cpu_of_step(r) for r in pts],
        [r["win_share"] for r in pts],
        [r["ci_low"] for r in pts],
        [r["ci_high"] for r in pts],
    )


def plot_cpu_curves(game: str, sb3: dict | None, vec: dict) -> None:
    """Win share against the heuristic by training CPU seconds, both trainers on one plot. The
    SB3 runs' evaluation rows have no CPU time: it is estimated from each run's mean rate (plus
    the cloning's CPU seconds, where the run started with it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    curves = [("vector PPO (from scratch)", vec, lambda r: r["cpu_seconds"])]
    if sb3 is not None:
        bc = (sb3.get("pretrain") or {}).get("cpu_seconds", 0.0)
        rate = sb3["steps"] / max(sb3["train_cpu_seconds"], 1e-9)
        label = (
            "SB3 MaskablePPO"
            + (" (after cloning the heuristic)" if bc else "")
            + ", CPU s estimated"
        )
        curves.append((label, sb3, lambda r: r.get("cpu_seconds", bc + r["step"] / rate)))
    for label, s, cpu in curves:
        x, y, lo, hi = _heuristic_curve(s, cpu)
        ax.plot(x, y, marker="o", label=label)
        ax.fill_between(x, lo, hi, alpha=0.2)
    ax.axhline(1 / vec["num_players"], color="grey", linestyle="--", label="1/P")
    ax.set_ylim(0, 1)
    ax.set_xlabel("training CPU seconds")
    ax.set_ylabel("win share vs 3 heuristics")
    ax.set_title(
        f"{game} ({vec['num_players']} players): both trainers against the heuristic", fontsize=10
    )
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(RESULTS / f"training.{game}.cpu.png", dpi=100)
    plt.close(fig)


def plot_curve(game: str, s: dict) -> None:
    from deckzoo.training.curve import plot_learning_curve

    warm = " after cloning the heuristic (step 0)" if s.get("pretrain") else " self-play"
    plot_learning_curve(
        s["curve"],
        s["num_players"],
        RESULTS / f"training.{game}.png",
        f"{game} ({s['num_players']} players): MaskablePPO{warm}",
        final_step=s["steps"],
    )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "games", nargs="*", help="games to train (default: every available one with a config)"
    )
    p.add_argument("--steps", type=int, help="override every config's total_timesteps")
    p.add_argument("--throughput", action="store_true", help="run the throughput sweep instead")
    p.add_argument("--throughput-steps", type=int, default=20480)
    p.add_argument("--report", action="store_true", help="only rebuild the report from the JSON")
    p.add_argument(
        "--vector",
        action="store_true",
        help="train the vector configs (configs/<game>-vector.yaml)",
    )
    p.add_argument(
        "--config",
        help="--vector/--arena: this config (configs/CONFIG.yaml, run folder runs/bench/CONFIG) "
        "for the game's row instead of <game>-vector",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="--vector: continue runs/bench/<game>-vector (with --steps: extend it)",
    )
    p.add_argument(
        "--compare", action="store_true", help="SB3 vs vector training throughput, same network"
    )
    p.add_argument("--sb3-steps", type=int, default=65_536, help="--compare: SB3 steps per game")
    p.add_argument(
        "--vector-steps", type=int, default=1_000_000, help="--compare: vector steps per game"
    )
    p.add_argument(
        "--compare-only",
        metavar="TRAINER",
        help='--compare: only the rows of this trainer label (e.g. "vector, SB3\'s mix"), '
        "replacing the game's earlier rows of that label",
    )
    p.add_argument("--arena", action="store_true", help="play the vector policies in the arena")
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
    if args.vector or args.compare or args.arena:
        for game in args.games or vector_games():
            if game not in vector_games():
                print(f"skip {game}: no configs/{game}-vector.yaml", file=sys.stderr)
                continue
            if args.vector:
                print(f"== training {game} (vector)", flush=True)
                config = args.config or f"{game}-vector"
                summary = train_game(game, args.steps, config, resume=args.resume)
                summary["config_file"] = f"configs/{config}.yaml"
                res = load_results()  # another invocation may have added results meanwhile
                res["vector"][game] = summary
                save_results(res)
            if args.compare:
                rows = compare_throughput(
                    game, args.sb3_steps, args.vector_steps, args.compare_only
                )
                res = load_results()
                only = args.compare_only  # the rows this invocation measured again go
                res["compare"] = [
                    r
                    for r in res["compare"]
                    if not (r["game"] == game and only in (None, r["trainer"]))
                ] + rows
                save_results(res)
            if args.arena and game == "gobig" and not SB3_GOBIG.exists():
                print("== training the SB3 Go Big policy (configs/gobig.yaml)", flush=True)
                summary = train_game("gobig", None)
                res = load_results()
                res["games"]["gobig"] = summary
                save_results(res)
            if args.arena:
                rows = arena_strength(game, config=args.config)
                res = load_results()
                res["arena"][game] = rows
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
        print(
            json.dumps(
                {k: summary[k] for k in ("game", "steps", "train_seconds", "steps_per_second")}
            ),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
