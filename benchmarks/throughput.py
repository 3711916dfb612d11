"""Random-play throughput of every registered env, through the AEC API and on the engine.

Three loops per env (default options, default player count, or --players):

* ``aec``: ``env.last()`` every step (observation + mask, what an RL loop pays), random legal action;
* ``engine``: ``legal_mask()`` + ``apply`` only;
* ``engine+obs``: the same plus ``observe(current_player)`` every step;
* ``parallel`` (envs with a native Parallel API): one ``step`` per joint action, random legal
  action per agent from its mask; steps/s counts ``step`` calls.

Each loop runs whole games for about ``--seconds`` and reports steps/s and games/s. Results go
to benchmarks/results/throughput.json and are printed as a table.

    python benchmarks/throughput.py [--seconds 3] [--envs gobig_v0,wizard_v0] [--players 4]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

import deckzoo.envs as E

RESULTS = Path(__file__).resolve().parent / "results" / "throughput.json"


def _options(name: str, players: int | None) -> dict:
    opts = E.registry.demo_options(name)
    if players is not None:
        opts["num_players"] = players
    return opts


def bench_aec(name: str, opts: dict, seconds: float, seed: int) -> tuple[int, int, float]:
    env = E.make(name, **opts)
    rng = np.random.default_rng(seed)
    steps = games = 0
    t0 = time.perf_counter()
    env.reset(seed=seed)
    while True:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        games += 1
        if time.perf_counter() - t0 >= seconds:
            break
        env.reset()
    return steps, games, time.perf_counter() - t0


def bench_parallel(name: str, opts: dict, seconds: float, seed: int) -> tuple[int, int, float]:
    env = E.make(name, parallel=True, **opts)
    rng = np.random.default_rng(seed)
    steps = games = 0
    t0 = time.perf_counter()
    obs, _ = env.reset(seed=seed)
    while True:
        while env.agents:
            actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
            obs, *_ = env.step(actions)
            steps += 1
        games += 1
        if time.perf_counter() - t0 >= seconds:
            break
        obs, _ = env.reset()
    return steps, games, time.perf_counter() - t0


def bench_engine(name: str, opts: dict, seconds: float, seed: int, observe: bool) -> tuple[int, int, float]:
    game = E.game_class(name)(**opts)
    rng = np.random.default_rng(seed)
    steps = games = 0
    t0 = time.perf_counter()
    while True:
        state = game.new_state(int(rng.integers(2**63)))
        while state.current_player is not None:
            if observe:
                state.observe(state.current_player)
            state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))
            steps += 1
        games += 1
        if time.perf_counter() - t0 >= seconds:
            break
    return steps, games, time.perf_counter() - t0


def main(argv=None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--envs", default=",".join(E.registry.env_names()),
                    help="comma-separated env names")
    ap.add_argument("--players", type=int, default=None, help="player count (default: each env's demo default)")
    ap.add_argument("--out", default=str(RESULTS))
    args = ap.parse_args(argv)
    names = [E.canonical(n) for n in args.envs.split(",") if n]
    loops = [("aec", lambda n, o: bench_aec(n, o, args.seconds, 0)),
             ("engine", lambda n, o: bench_engine(n, o, args.seconds, 0, False)),
             ("engine+obs", lambda n, o: bench_engine(n, o, args.seconds, 0, True))]
    parallel = ("parallel", lambda n, o: bench_parallel(n, o, args.seconds, 0))
    plan = [(name, loops + ([parallel] if E.game_class(name).simultaneous else []))
            for name in names]
    rows = []
    with tqdm(total=sum(len(ls) for _, ls in plan), desc="throughput", unit="run") as bar:
        for name, env_loops in plan:
            opts = _options(name, args.players)
            players = E.game_class(name)(**opts).num_players
            for loop, fn in env_loops:
                steps, games, dt = fn(name, opts)
                rows.append({"env": name, "players": players, "loop": loop, "steps": steps, "games": games,
                             "seconds": round(dt, 3), "steps_per_s": round(steps / dt, 1),
                             "games_per_s": round(games / dt, 2)})
                bar.update()
    meta = {"python": platform.python_version(), "numpy": np.__version__, "machine": platform.machine(),
            "cpus": os.cpu_count(), "loadavg_1m": os.getloadavg()[0], "date": time.strftime("%Y-%m-%d %H:%M:%S")}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"meta": meta, "results": rows}, indent=2) + "\n")
    print(f"{'env':<14}{'players':>8}  {'loop':<12}{'steps/s':>11}{'games/s':>10}")
    for r in rows:
        print(f"{r['env']:<14}{r['players']:>8}  {r['loop']:<12}{r['steps_per_s']:>11,.0f}{r['games_per_s']:>10.1f}")
    print(f"(load average {meta['loadavg_1m']:.1f} on {meta['cpus']} CPUs; written to {args.out})")
    return rows


if __name__ == "__main__":
    main()
