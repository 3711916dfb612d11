"""Midgard's scalar engine speed (issue #47): ``engine+obs``, ``engine`` and the heuristic's act.

``engine+obs`` is what ``benchmarks/throughput.py`` times for a scalar engine (``EngineCase``):
random legal play, ``observe(current_player)`` + ``legal_mask()`` + ``apply`` every step, new
games from a fixed seed; ``engine`` leaves the observation out. Times are CPU time
(``time.process_time``), the best of ``--reps`` runs, so a busy shared machine inflates them
less than wall time would.

``--against REF`` times the engine of git revision ``REF`` (its ``envs/midgard``, loaded beside
the working tree's as ``deckzoo.envs.midgard_ref``) in the same process, the two interleaved run
by run, and prints the speed-up; both play the same games (the masks and observations must agree:
``--fingerprint`` prints a hash of every observation, mask, view and result of random play, to
compare across revisions).

``--heuristic`` adds the Midgard heuristic's ``act`` time per decision in self-play (every
decision, forced ones included, as the vector trainer calls it).

    .venv/bin/python benchmarks/midgard_speed.py --against HEAD~3 --reps 5
    .venv/bin/python benchmarks/midgard_speed.py --fingerprint
"""

from __future__ import annotations

import argparse
import atexit
import hashlib
import importlib
import importlib.util
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

import numpy as np

import deckzoo.envs  # noqa: F401  (the package a reference engine is loaded into)
from deckzoo.envs.core import game as core_game
from deckzoo.envs.midgard.rules import MidgardGame

ROOT = Path(__file__).resolve().parent.parent


def load_ref(ref: str):
    """The ``MidgardGame`` of git revision ``ref``, as the package ``deckzoo.envs.midgard_ref``.

    Defining a game class registers it by name (``Game.__init_subclass__``), which would make
    ``State.from_dict`` build the reference's states; the registry is put back as it was."""
    tmp = Path(tempfile.mkdtemp(prefix="midgard_ref_"))
    atexit.register(shutil.rmtree, tmp, True)  # the package may import lazily until the end
    tar = subprocess.run(
        ["git", "archive", ref, "envs/midgard"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(tar)) as t:
        t.extractall(tmp, filter="data")
    pkg = tmp / "envs" / "midgard"
    name = "deckzoo.envs.midgard_ref"
    spec = importlib.util.spec_from_file_location(
        name, pkg / "__init__.py", submodule_search_locations=[str(pkg)]
    )
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    registered = dict(core_game._GAME_CLASSES)
    try:
        spec.loader.exec_module(mod)
        return importlib.import_module(name + ".rules").MidgardGame
    finally:
        core_game._GAME_CLASSES.clear()
        core_game._GAME_CLASSES.update(registered)


def engine_us(game_cls, steps: int, players: int, seed: int, observe: bool) -> float:
    """CPU microseconds per step of random legal play (EngineCase's loop)."""
    game = game_cls(players)
    seeds, pick = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    state = game.new_state(int(seeds.integers(2**63)))
    done = 0
    start = time.process_time()
    while done < steps:
        p = state.current_player
        if p is None:
            state = game.new_state(int(seeds.integers(2**63)))
            continue
        if observe:
            state.observe(p)
        legal = state.legal_mask().nonzero()[0]
        state.apply(int(legal[int(pick.integers(len(legal)))]))
        done += 1
    return (time.process_time() - start) / steps * 1e6


def heuristic_us(games: int, seed: int) -> tuple[float, int, str]:
    """(CPU microseconds per ``act``, decisions, hash of the actions) in heuristic self-play at
    3-6 players, both reaction-window modes."""
    from deckzoo.agents.heuristics.midgard import HeuristicAgent

    digest = hashlib.sha256()
    spent, decisions = 0.0, 0
    for g in range(games):
        n = 3 + g % 4
        game = MidgardGame(n, reaction_windows=("all", "holders_leaky")[g % 2])
        state = game.new_state(seed + g)
        agents = [HeuristicAgent(seed=100 * g + i) for i in range(n)]
        while state.current_player is not None:
            p = state.current_player
            start = time.process_time()
            a = agents[p].act(state.for_player(p))
            spent += time.process_time() - start
            decisions += 1
            digest.update(int(a).to_bytes(2, "little"))
            state.apply(a)
    return spent / decisions * 1e6, decisions, digest.hexdigest()


def fingerprint(game_cls, games: int = 10) -> tuple[str, int]:
    """Hash of random play: every seat's observation, the mask and the public scores at every
    step, the acting seat's view and the global state at every 7th, the results; 3-6 players,
    both reaction-window modes."""
    digest = hashlib.sha256()
    rng = np.random.default_rng(12345)
    steps = 0
    for g in range(games):
        n = 3 + g % 4
        mode = ("all", "holders_leaky")[(g // 4) % 2] if g < 8 else ("all", "holders_leaky")[g % 2]
        game = game_cls(n, reaction_windows=mode, max_decisions=4000)
        state = game.new_state(1000 + g)
        while state.current_player is not None:
            p = state.current_player
            for q in range(n):
                digest.update(state.observe(q).tobytes())
            mask = state.legal_mask()
            digest.update(mask.tobytes())
            if steps % 7 == 0:
                digest.update(json.dumps(state.view(p), sort_keys=True, default=str).encode())
                digest.update(state.global_state().tobytes())
            digest.update(np.asarray(state.scores()).tobytes())
            legal = mask.nonzero()[0]
            state.apply(int(legal[rng.integers(len(legal))]))
            steps += 1
        digest.update(state.returns().tobytes())
        digest.update(f"{state.winners()} {state.end_reason}".encode())
    return digest.hexdigest(), steps


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", help="git revision whose engine to time beside this one")
    ap.add_argument("--reps", type=int, default=5, help="runs of each engine (best kept)")
    ap.add_argument("--steps", type=int, default=6000, help="steps per run")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--heuristic", type=int, default=0, help="heuristic self-play games to time")
    ap.add_argument("--fingerprint", action="store_true", help="print the random-play hash")
    args = ap.parse_args(argv)
    engines = {"this": MidgardGame}
    if args.against:
        engines[args.against] = load_ref(args.against)
    out: dict = {"players": args.players, "steps": args.steps, "reps": args.reps}
    if args.fingerprint:
        for name, cls in engines.items():
            out[f"fingerprint {name}"] = fingerprint(cls)
    for loop, observe in (("engine+obs", True), ("engine", False)):
        times: dict[str, list[float]] = {name: [] for name in engines}
        for _ in range(args.reps):  # interleaved: a load spike hits both engines alike
            for name, cls in engines.items():
                times[name].append(engine_us(cls, args.steps, args.players, args.seed, observe))
        for name in engines:
            out[f"{loop} us/step {name}"] = round(min(times[name]), 1)
        if args.against:
            out[f"{loop} speed-up"] = round(min(times[args.against]) / min(times["this"]), 2)
    if args.heuristic:
        us, decisions, digest = heuristic_us(args.heuristic, args.seed)
        out |= {"heuristic us/act": round(us, 1), "decisions": decisions, "actions": digest}
    for key, value in out.items():
        print(f"{key}: {value}")
    return out


if __name__ == "__main__":
    main()
