"""Throughput of the batched engines beside the scalar engines and OpenSpiel, in one \
interleaved run.

Cases (every one plays random legal moves; a step is one decision of one game):

* ``batched B=k``: ``deckzoo.envs.vector`` at each ``--batch`` size (default 1, 64, 1024, 4096):
  ``env.step(actions)`` returns observation + mask + rewards for every lane, finished games restart
  inside the step; steps/s counts lanes x steps. A random legal action per lane comes from a
  pre-drawn table of random byte keys (the legal action with the largest key), so choosing
  costs about the same small amount per lane everywhere;
* scalar ``engine+obs`` (``legal_mask`` + ``apply`` + ``observe(current_player)``), ``engine``
  and ``aec`` (``env.last()`` + ``env.step``) of the same game and options (``--scalar-loops``;
  ``engine+obs+state`` adds ``global_state()``, the ``env.state()`` a centralised critic reads);
* OpenSpiel's C++ ``oh_hell`` (4 players, the nearest peer of Wizard): ``apply_action`` +
  ``legal_actions`` with the information-state tensor written into a numpy buffer every step
  (``make_observation(...).set_from``), and without any observation (skipped with a note if
  ``open_spiel`` is not installed: ``pip install -e .[bench]``).

All cases run round-robin in short slices (``--slice``), as in ``benchmarks/peers.py`` (whose case
classes this reuses), so machine load hits every case alike and the ratios hold on a busy
machine. Also measured: bytes of batched state per game at the largest batch.

Writes ``benchmarks/results/throughput.json``, ``throughput.md`` (tables and the issue's targets)
and ``throughput.png`` (microseconds per batched step against B, log-log, one line per game).

    python benchmarks/throughput.py [--seconds 6] [--slice 0.3] [--envs wizard_v0,gobig_v0]
                                    [--batch 1,64,1024,4096] [--scalar-loops engine+obs,engine,aec]
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

import deckzoo.envs as E
from deckzoo.envs import vector

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import results_page  # the sibling module: the layout of every results page

RESULTS_DIR = HERE / "results"
DOCS = HERE.parent / "docs" / "vector.md"
DOCS_BEGIN, DOCS_END = (
    "<!-- throughput.py results: begin -->",
    "<!-- throughput.py results: end -->",
)
PLAYERS = 4
KEY_TABLES = 2  # pre-drawn key tables a batched case cycles through


def _load_peers():
    """benchmarks/peers.py as a module (benchmarks/ is not a package)."""
    name = "deckzoo_bench_peers"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / "peers.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod  # dataclasses look their module up while the class is built
        spec.loader.exec_module(mod)
    return sys.modules[name]


peers = _load_peers()


class BatchedCase(peers.Case):
    """``env.step(random legal action per lane)`` on a batched env of ``batch`` lanes."""

    def __init__(self, name: str, options: dict, batch: int, seed: int):
        self.env_obj = vector.make(name, num_envs=batch, seed=seed, **options)
        super().__init__(
            "deckzoo",
            name,
            f"batched B={batch}",
            self.env_obj.num_players,
            obs_size=self.env_obj.obs_dim,
        )
        self.batch = batch
        rng = np.random.default_rng(seed)
        shape = (KEY_TABLES, batch, self.env_obj.num_actions)
        self.keys = rng.integers(1, 256, size=shape, dtype=np.uint8)
        _, self.mask, _ = self.env_obj.reset()
        self.t = 0

    def _run(self, end, pick):
        env, keys = self.env_obj, self.keys
        mask, t = self.mask, self.t
        steps = games = 0
        while time.perf_counter() < end:
            actions = (mask.view(np.uint8) * keys[t % KEY_TABLES]).argmax(axis=1)
            res = env.step(actions)
            mask = res.mask
            t += 1
            steps += self.batch
            games += int(res.terminated.sum())
        self.mask, self.t = mask, t
        return steps, games

    def row(self) -> dict:
        out = super().row()
        out["batch"] = self.batch
        return out


def build_cases(
    names: list[str], batches: list[int], scalar_loops: list[str], seed: int = 0, spiel: bool = True
) -> tuple[list, list[str]]:
    cases: list = []
    notes: list[str] = []
    for name in names:
        opts = {"num_players": PLAYERS}
        game = E.game_class(name)(**opts)
        if name in vector.available():
            cases += [BatchedCase(name, opts, b, seed) for b in batches]
        else:
            notes.append(f"{name} has no batched engine: scalar loops only")
        for loop in scalar_loops:
            if loop == "aec":
                mod = E.registry.env_module(name)
                cases.append(
                    peers.AecCase("deckzoo", name, lambda mod=mod, opts=opts: mod.env(**opts), seed)
                )
            else:
                obs, state = loop.startswith("engine+obs"), loop == "engine+obs+state"
                cases.append(
                    peers.EngineCase(name, game, observe=obs, seed=seed, global_state=state)
                )
    if spiel:
        try:
            import pyspiel
        except ImportError as e:
            notes.append(f"skipped open_spiel/oh_hell: {e}; pip install -e .[bench]")
        else:
            for obs in ("set_from", None):
                cases.append(peers.SpielCase(pyspiel, "oh_hell", {"players": PLAYERS}, obs, seed))
    return cases, notes


def memory(names: list[str], batch: int) -> list[dict]:
    """Bytes per game of the batched state at ``batch`` lanes, and of one step's outputs."""
    out = []
    for name in names:
        if name not in vector.available():
            continue
        env = vector.make(name, num_envs=batch, seed=0, num_players=PLAYERS)
        env.reset()
        out.append(
            {
                "env": name,
                "batch": batch,
                "state_bytes_per_game": env.engine.state_nbytes() / batch,
                "obs_mask_bytes_per_game": 4 * env.obs_dim + env.num_actions,
            }
        )
    return out


def _rate(rows, env, loop, library="deckzoo"):
    for r in rows:
        if r["library"] == library and r["env"] == env and r["loop"] == loop and r["steps"]:
            return r["steps"] / r["seconds"]
    return None


def targets(rows: list[dict], mem: list[dict], batches: list[int]) -> list[dict]:
    out = []

    def add(what, value, goal, met):
        out.append({"target": what, "value": value, "goal": goal, "met": bool(met)})

    wiz = _rate(rows, "wizard_v0", "batched B=1024")
    if wiz:
        add(
            "wizard_v0 batched B=1024, steps/s (obs + mask every step)",
            round(wiz),
            ">= 500,000",
            wiz >= 5e5,
        )
        oh = _rate(rows, "oh_hell", "engine+set_from(numpy)", "open_spiel")
        if oh:
            add(
                "wizard_v0 batched B=1024 / OpenSpiel oh_hell + set_from (numpy)",
                round(wiz / oh, 2),
                ">= 5",
                wiz / oh >= 5,
            )
    for name in ("gobig_v0", "bignumber_v0", "bigwig_v1"):
        b, s = _rate(rows, name, "batched B=1024"), _rate(rows, name, "engine+obs")
        if b and s:
            add(f"{name} batched B=1024 / scalar engine+obs", round(b / s, 2), ">= 10", b / s >= 10)
    for m in mem:
        add(
            f"{m['env']} state bytes per game at B={m['batch']}",
            round(m["state_bytes_per_game"]),
            "<= 4096",
            m["state_bytes_per_game"] <= 4096,
        )
    for name in sorted({r["env"] for r in rows if "batch" in r}):
        cost = {
            r["batch"]: r["seconds"] / (r["steps"] / r["batch"])
            for r in rows
            if r.get("batch") and r["env"] == name and r["steps"]
        }
        if len(cost) >= 2:
            lo, hi = min(cost), max(cost)
            growth = cost[hi] / cost[lo]
            add(
                f"{name} cost per step, B={lo} -> B={hi}",
                round(growth, 1),
                f"< {hi // lo} (linear)",
                growth < hi / lo,
            )
            sizes = sorted(cost)
            for a, b in itertools.pairwise(sizes):
                add(
                    f"{name} cost per step, B={a} -> B={b}",
                    round(cost[b] / cost[a], 2),
                    f"< {b / a:g}",
                    cost[b] / cost[a] < b / a,
                )
    return out


def markdown(result: dict) -> str:
    """The results page (benchmarks/results_page.py's layout): the tables and the chart, then how
    they were made."""
    meta, rows = result["meta"], result["results"]
    envs = results_page.EnvLabels()
    out = [
        "| library | env | loop | steps/s | games/s | us per call | vs scalar engine+obs |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        rate = r["steps"] / r["seconds"] if r["seconds"] else 0.0
        gps = r["games"] / r["seconds"] if r["seconds"] else 0.0
        calls = r["steps"] / r.get("batch", 1)
        us = 1e6 * r["seconds"] / calls if calls else 0.0
        base = _rate(rows, r["env"], "engine+obs") if r["library"] == "deckzoo" else None
        vs = f"{rate / base:.1f}x" if base and r["loop"] != "engine+obs" else ""
        out.append(
            f"| {r['library']} | {envs.label(r['env'])} | {r['loop']} "
            f"| {rate:,.0f} | {gps:,.1f} | {us:,.1f} | {vs} |"
        )
    out += [
        *envs.note(),
        "",
        *results_page.charts(["throughput.png"], lambda _: "cost of one batched step against B"),
        "",
        "## Memory",
        "",
        "| env | B | state bytes per game | obs + mask bytes per game (one step's output) |",
        "|---|---:|---:|---:|",
    ]
    for m in result["memory"]:
        out.append(
            f"| {envs.label(m['env'])} | {m['batch']} | {m['state_bytes_per_game']:,.0f} "
            f"| {m['obs_mask_bytes_per_game']:,} |"
        )
    out += [
        "",
        "## Targets",
        "",
        "| target | value | goal | met |",
        "|---|---:|---:|---|",
    ]
    for t in result["targets"]:
        out.append(
            f"| {envs.sub(t['target'])} | {t['value']:,} | {t['goal']} "
            f"| {'yes' if t['met'] else '**no**'} |"
        )
    how = [
        f"`{meta['command']}` on {meta['date']}.",
        "",
        (
            f"One interleaved run, {meta['seconds_per_case']} s per case "
            f"in {meta['slice_s']} s slices; "
            f"{meta['cpus']} CPUs ({meta.get('cpu_model', 'CPU not recorded')}), "
            f"load average {meta['loadavg_start'][0]:.2f} at the start and "
            f"{meta['loadavg_end'][0]:.2f} at the end; "
            f"python {meta['python']}, numpy {meta['numpy']}. "
            f"{PLAYERS} players, default options (Wizard: the full 15-round game). The chart: "
            "microseconds per batched step call against B (dotted: linear in B)."
        ),
    ]
    notes = [f"- {n}" for n in result["notes"]]
    return results_page.page("Batched engines: throughput", out, how, notes)


def update_docs(result: dict, path: Path = DOCS) -> None:
    """Replace the results section of docs/vector.md (between its markers) with this run's
    tables."""
    text = path.read_text()
    a, b = text.index(DOCS_BEGIN) + len(DOCS_BEGIN), text.index(DOCS_END)
    body = results_page.for_docs(markdown(result), path)
    path.write_text(text[:a] + "\n" + body.strip() + "\n" + text[b:])


def chart(result: dict, path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    rows = [r for r in result["results"] if r.get("batch") and r["steps"]]
    for name in sorted({r["env"] for r in rows}):
        pts = sorted(
            (r["batch"], 1e6 * r["seconds"] / (r["steps"] / r["batch"]))
            for r in rows
            if r["env"] == name
        )
        xs, ys = zip(*pts)
        ax.plot(xs, ys, marker="o", label=name)
        ax.plot(
            xs,
            [ys[0] * x / xs[0] for x in xs],
            linestyle=":",
            color=ax.lines[-1].get_color(),
            linewidth=0.8,
        )
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("games per batch (B)")
    ax.set_ylabel("microseconds per step call (all B games)")
    ax.set_title("Cost of one batched step vs B (dotted: linear in B)", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(True, which="both", linewidth=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seconds", type=float, default=6.0, help="total time per case")
    ap.add_argument("--slice", type=float, default=0.3, help="seconds per case per round")
    ap.add_argument(
        "--envs", default=",".join(vector.available()), help="comma-separated env names"
    )
    ap.add_argument("--batch", default="1,64,1024,4096", help="batch sizes of the batched cases")
    ap.add_argument(
        "--scalar-loops",
        default="engine+obs",
        help="scalar loops: engine+obs, engine, aec, engine+obs+state (+ global_state())",
    )
    ap.add_argument("--no-peers", action="store_true", help="skip OpenSpiel")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out-dir", default=str(RESULTS_DIR))
    ap.add_argument(
        "--update-docs",
        action="store_true",
        help="also rewrite the results section of docs/vector.md",
    )
    args = ap.parse_args(argv)
    names = [E.canonical(n) for n in args.envs.split(",") if n]
    batches = [int(b) for b in args.batch.split(",") if b]
    loops = [x for x in args.scalar_loops.split(",") if x]
    load_start = os.getloadavg()
    cases, notes = build_cases(names, batches, loops, args.seed, spiel=not args.no_peers)
    t0 = time.perf_counter()
    peers.run_interleaved(cases, args.seconds, args.slice, args.seed)
    rows = [c.row() for c in cases]
    mem = memory(names, max(batches))
    meta = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "cpus": os.cpu_count(),
        "cpu_model": peers.cpu_model(),
        "loadavg_start": list(load_start),
        "loadavg_end": list(os.getloadavg()),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "seconds_per_case": args.seconds,
        "slice_s": args.slice,
        "wall_s": round(time.perf_counter() - t0, 1),
        "peak_rss_mb": peers.peak_rss_mb(),
        "command": "python benchmarks/throughput.py "
        + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    result = {
        "meta": meta,
        "results": rows,
        "memory": mem,
        "targets": targets(rows, mem, batches),
        "notes": notes,
    }
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "throughput.json").write_text(json.dumps(result, indent=2) + "\n")
    (out / "throughput.md").write_text(markdown(result))
    if not chart(result, out / "throughput.png"):
        notes.append("no chart: matplotlib is not installed")
    if args.update_docs:
        update_docs(result)
    print(markdown(result))
    return result


if __name__ == "__main__":
    main()
