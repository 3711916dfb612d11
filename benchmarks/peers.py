"""deckzoo against its peers: random legal play, measured side by side in one interleaved run.

Every measurement ("case") plays random legal moves and counts decisions (chance events are
not steps; their cost is included in the time). Cases run round-robin in short slices
(``--slice`` seconds each, ``--seconds`` in total per case), so a change of machine load
during the run hits every case alike and the ratios stay meaningful on a busy machine.

deckzoo, every registered env (demo options, 4 players):

* ``aec``: the PettingZoo AEC loop, ``env.last()`` every step (observation + mask), a random
  legal action from the mask: what an RL loop pays;
* ``parallel`` (games with a Parallel API): ``env.step({agent: random legal})`` for every live
  agent, each acting seat's action counted as a step;
* ``engine``: ``legal_mask()`` + ``apply`` only (what a search agent pays);
* ``engine+obs``: the same plus ``observe(current_player)`` every step;
* ``clone+det``: ``clone()`` + ``determinize(current_player, rng)`` on states sampled from random
  play, in microseconds and in engine steps of the same game (the ISMCTS cost per iteration).

Peers (each optional; a missing package skips its cases with a note):

* PettingZoo ``texas_holdem_v4``, ``leduc_holdem_v4`` (rlcard) and ``connect_four_v3``: the same
  AEC loop;
* OpenSpiel ``oh_hell`` (4 players; the nearest peer of wizard_v0) and ``hearts`` (4 players):
  ``apply_action`` + ``legal_actions`` only, with ``information_state_tensor()`` every step (the
  Python list users get), and with the tensor written into a numpy buffer by
  ``open_spiel.python.observation.make_observation(game, IIGObservationType(perfect_recall=True))
  .set_from(state, player)``.

Random choices come from one pre-drawn stream of uniform floats shared by every case, so
choosing costs the same everywhere; a mask becomes legal ids with ``mask.nonzero()[0]`` (what
``State.legal_actions`` does; ``np.flatnonzero`` costs ~5x more for these small masks).
OpenSpiel's chance nodes (dealing, trump, trick count) are uniform in both games (checked at
setup) and are sampled uniformly.

Writes ``benchmarks/results/peers.json``, ``peers.md`` (steps/s, ratios deckzoo/peer, the
issue's targets) and ``peers.png``; prints the table and the peak memory (max RSS).

    python benchmarks/peers.py [--seconds 5] [--slice 0.25] [--envs gobig_v0,wizard_v0] [--no-peers]
                               [--update-docs]
    python benchmarks/peers.py --profile --envs wizard_v0 --seconds 3    # hot spots, not timings

Peers install with ``pip install -e .[bench]`` (rlcard, open_spiel, pygame-ce for PettingZoo's
classic envs).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time
from dataclasses import dataclass, field
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import ClassVar

import numpy as np

import deckzoo.envs as E

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results_page  # the sibling module: the layout of every results page

RESULTS_DIR = Path(__file__).resolve().parent / "results"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "performance.md"
DOCS_BEGIN, DOCS_END = "<!-- peers.py results: begin -->", "<!-- peers.py results: end -->"
PLAYERS = 4
TEXAS = "pettingzoo/texas_holdem_v4"
OH_HELL = "open_spiel/oh_hell"


# ---- random choices ---------------------------------------------------------------------------
class Picker:
    """Uniform random indices from a pre-drawn stream of floats: the same cheap cost for every
    case."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self._refill()

    def _refill(self) -> None:
        self.buf = self.rng.random(1 << 16).tolist()
        self.i = 0

    def index(self, n: int) -> int:
        if self.i == len(self.buf):
            self._refill()
        u = self.buf[self.i]
        self.i += 1
        return int(u * n)


# ---- cases ---------------------------------------------------------------------------------------
@dataclass
class Case:
    """One measurement, run a slice at a time; keeps its game going between slices."""

    library: str  # "deckzoo", "pettingzoo", "open_spiel"
    env: str
    loop: str
    players: int
    obs_size: int | None = None
    steps: int = 0
    games: int = 0
    seconds: float = 0.0
    slices: list = field(default_factory=list)  # (steps, seconds) of each round's slice

    def run(self, seconds: float, pick: Picker) -> None:
        t0 = time.perf_counter()
        steps, games = self._run(t0 + seconds, pick)
        dt = time.perf_counter() - t0
        self.seconds += dt
        self.slices.append((steps, dt))
        self.steps += steps
        self.games += games

    def _run(self, end: float, pick: Picker) -> tuple[int, int]:
        raise NotImplementedError

    def row(self) -> dict:
        rate = self.steps / self.seconds if self.seconds else 0.0
        return {
            "library": self.library,
            "env": self.env,
            "loop": self.loop,
            "players": self.players,
            "obs_size": self.obs_size,
            "steps": self.steps,
            "games": self.games,
            "seconds": round(self.seconds, 3),
            "steps_per_s": round(rate, 1),
            "slices": [[s, round(t, 5)] for s, t in self.slices],
        }


class AecCase(Case):
    """``for agent in env.agent_iter(): obs, ... = env.last(); env.step(random legal)``."""

    def __init__(self, library: str, name: str, make_env, seed: int):
        env = make_env()
        env.reset(seed=seed)
        agent = env.agents[0]
        super().__init__(
            library,
            name,
            "aec",
            len(env.possible_agents),
            obs_size=int(np.prod(env.observation_space(agent)["observation"].shape)),
        )
        self.env_obj = env
        self.it = iter(env.agent_iter())

    def _run(self, end, pick):
        env, it = self.env_obj, self.it
        steps = games = 0
        while time.perf_counter() < end:
            agent = next(it, None)
            if agent is None:  # game over: every agent has been stepped out
                env.reset()
                self.it = it = iter(env.agent_iter())
                games += 1
                continue
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[pick.index(len(legal))]))
            steps += 1
        return steps, games


class ParallelCase(Case):
    """deckzoo's Parallel API (games with simultaneous commits): every live agent acts each
    ``step``.

    A step is one decision, as everywhere: each acting seat's action counts, a waiting seat's
    NOOP does not.
    """

    def __init__(self, name: str, make_env, seed: int):
        env = make_env()
        self.obs, _ = env.reset(seed=seed)
        agent = env.possible_agents[0]
        super().__init__(
            "deckzoo",
            name,
            "parallel",
            len(env.possible_agents),
            obs_size=int(np.prod(env.observation_space(agent)["observation"].shape)),
        )
        self.env_obj = env
        self.noop = int(env.action_space(agent).n) - 1

    def _run(self, end, pick):
        env, obs, noop = self.env_obj, self.obs, self.noop
        steps = games = 0
        while time.perf_counter() < end:
            if not env.agents:
                obs, _ = env.reset()
                games += 1
                continue
            actions = {}
            for agent, o in obs.items():
                legal = o["action_mask"].nonzero()[0]
                actions[agent] = a = int(legal[pick.index(len(legal))])
                steps += a != noop
            obs, *_ = env.step(actions)
        self.obs = obs
        return steps, games


class EngineCase(Case):
    """deckzoo engine: ``legal_mask`` + ``apply`` (and ``observe(current_player)`` if asked, and
    ``global_state()``, what a centralised critic's rollout adds, if asked too)."""

    def __init__(self, name: str, game, observe: bool, seed: int, global_state: bool = False):
        loop = ("engine+obs" if observe else "engine") + ("+state" if global_state else "")
        super().__init__(
            "deckzoo", name, loop, game.num_players, obs_size=int(np.prod(game.observation_shape))
        )
        self.game, self.observe, self.global_state = game, observe, global_state
        self.seeds = np.random.default_rng(seed)
        self.state = game.new_state(int(self.seeds.integers(2**63)))

    def _run(self, end, pick):
        state, observe = self.state, self.observe
        steps = games = 0
        while time.perf_counter() < end:
            p = state.current_player
            if p is None:
                state = self.state = self.game.new_state(int(self.seeds.integers(2**63)))
                games += 1
                continue
            if observe:
                state.observe(p)
            if self.global_state:
                state.global_state()
            legal = state.legal_mask().nonzero()[0]
            state.apply(int(legal[pick.index(len(legal))]))
            steps += 1
        return steps, games


class CloneDeterminizeCase(Case):
    """``clone()`` + ``determinize(current_player, rng)`` on states sampled from random play.

    ``steps`` counts clone+determinize pairs, so ``steps_per_s`` is pairs per second.
    """

    def __init__(
        self,
        name: str,
        game,
        seed: int,
        pool_size: int = 32,
        per_game: int = 4,
        setup_s: float = 3.0,
    ):
        super().__init__("deckzoo", name, "clone+det", game.num_players)
        rng = np.random.default_rng(seed)
        self.rng = rng
        self.pool = []
        deadline = time.perf_counter() + setup_s  # slow games get a smaller pool, not a long setup
        while len(self.pool) < pool_size and (
            len(self.pool) < per_game or time.perf_counter() < deadline
        ):
            # reservoir-sample ``per_game`` decision points of one random game, uniformly
            state = game.new_state(int(rng.integers(2**63)))
            chosen: list = []
            seen = 0
            while state.current_player is not None:
                seen += 1
                if len(chosen) < per_game:
                    chosen.append(state.clone())
                else:
                    j = int(rng.integers(seen))
                    if j < per_game:
                        chosen[j] = state.clone()
                state.apply(int(rng.choice(state.legal_actions())))
            self.pool.extend(chosen)
        self.k = 0

    def _run(self, end, pick):
        pool, rng = self.pool, self.rng
        pairs = 0
        while time.perf_counter() < end:
            state = pool[self.k]
            self.k = (self.k + 1) % len(pool)
            state.clone()
            state.determinize(state.current_player, rng)
            pairs += 1
        return pairs, 0


class SpielCase(Case):
    """OpenSpiel: ``legal_actions`` + ``apply_action``; obs = None | "tensor" | "set_from"."""

    LOOPS: ClassVar[dict] = {
        None: "engine",
        "tensor": "engine+info_state_tensor",
        "set_from": "engine+set_from(numpy)",
    }

    def __init__(self, pyspiel, name: str, params: dict, obs: str | None, seed: int):
        game = pyspiel.load_game(name, params)
        super().__init__(
            "open_spiel",
            name,
            self.LOOPS[obs],
            game.num_players(),
            obs_size=int(np.prod(game.information_state_tensor_shape())),
        )
        self.game, self.obs = game, obs
        self.observation = None
        if obs == "set_from":
            from open_spiel.python.observation import make_observation

            self.observation = make_observation(
                game, pyspiel.IIGObservationType(perfect_recall=True)
            )
            if self.observation is None or self.observation.tensor is None:
                raise RuntimeError(f"{name} has no information-state observer")
        self.state = game.new_initial_state()
        _check_uniform_chance(game, np.random.default_rng(seed))

    def _run(self, end, pick):
        state, obs, observation = self.state, self.obs, self.observation
        steps = games = 0
        while time.perf_counter() < end:
            if state.is_terminal():
                state = self.state = self.game.new_initial_state()
                games += 1
                continue
            if state.is_chance_node():
                outcomes = state.chance_outcomes()  # uniform in these games (checked at setup)
                state.apply_action(outcomes[pick.index(len(outcomes))][0])
                continue
            if obs == "tensor":
                state.information_state_tensor(state.current_player())
            elif obs == "set_from":
                observation.set_from(state, state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[pick.index(len(legal))])
            steps += 1
        return steps, games


def _check_uniform_chance(game, rng, games: int = 3) -> None:
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                probs = [p for _, p in state.chance_outcomes()]
                if max(probs) - min(probs) > 1e-12:
                    raise RuntimeError(
                        f"{game} has non-uniform chance nodes; uniform sampling would be wrong"
                    )
                state.apply_action(state.chance_outcomes()[int(rng.integers(len(probs)))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])


# ---- building the case list ----------------------------------------------------------------------
def deckzoo_cases(names: list[str], seed: int = 0, clone_det: bool = True) -> list[Case]:
    cases: list[Case] = []
    for name in names:
        mod = E.registry.env_module(name)
        opts = {**E.registry.demo_options(name), "num_players": PLAYERS}
        cases.append(AecCase("deckzoo", name, lambda mod=mod, opts=opts: mod.env(**opts), seed))
        if hasattr(mod, "parallel_env"):
            cases.append(
                ParallelCase(name, lambda mod=mod, opts=opts: mod.parallel_env(**opts), seed)
            )
        game = mod.Game(**opts)
        cases.append(EngineCase(name, game, observe=False, seed=seed))
        cases.append(EngineCase(name, game, observe=True, seed=seed))
        if clone_det:
            cases.append(CloneDeterminizeCase(name, game, seed=seed))
    return cases


def peer_cases(seed: int = 0) -> tuple[list[Case], list[str]]:
    """Every peer that imports; notes say which were skipped and why."""
    cases: list[Case] = []
    notes: list[str] = []
    for name in ("texas_holdem_v4", "leduc_holdem_v4", "connect_four_v3"):
        try:
            mod = import_module(f"pettingzoo.classic.{name}")
            cases.append(AecCase("pettingzoo", name, mod.env, seed))
        # a peer is optional: whatever stops it (missing rlcard/pygame, an API change) skips it
        # with a note
        except Exception as e:  # noqa: BLE001
            notes.append(f"skipped pettingzoo/{name}: {type(e).__name__}: {e}")
    try:
        import pyspiel
    except ImportError as e:
        notes.append(f"skipped open_spiel (oh_hell, hearts): {e}; pip install open_spiel")
        return cases, notes
    for name, params, loops in (
        ("oh_hell", {"players": PLAYERS}, (None, "tensor", "set_from")),
        ("hearts", {}, (None, "tensor", "set_from")),
    ):
        for obs in loops:
            try:
                cases.append(SpielCase(pyspiel, name, params, obs, seed))
            except Exception as e:  # noqa: BLE001 (optional peer: skip with a note)
                notes.append(
                    f"skipped open_spiel/{name} {SpielCase.LOOPS[obs]}: {type(e).__name__}: {e}"
                )
    return cases, notes


# ---- running and reporting -----------------------------------------------------------------------
def run_interleaved(
    cases: list[Case], seconds: float, slice_s: float, seed: int = 0, progress: bool = True
) -> None:
    """Round-robin slices until every case has had about ``seconds``; the order rotates each
    round."""
    pick = Picker(seed)
    rounds = max(1, round(seconds / slice_s))
    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=rounds, desc=f"{len(cases)} cases", unit="round")
        except ImportError:
            pass
    for r in range(rounds):
        shift = r % len(cases)
        for case in cases[shift:] + cases[:shift]:
            case.run(slice_s, pick)
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()


def _row(rows: list[dict], library: str, env: str, loop: str) -> dict | None:
    for r in rows:
        if r["library"] == library and r["env"] == env and r["loop"] == loop and r["steps"]:
            return r
    return None


def _rate(rows: list[dict], library: str, env: str, loop: str) -> float | None:
    r = _row(rows, library, env, loop)
    return None if r is None else r["steps"] / r["seconds"]


def _round_ratios(a: dict, b: dict) -> list[float]:
    """Rate of ``a`` over rate of ``b`` in each round (both ran within the same round's few
    seconds)."""
    out = []
    for (sa, ta), (sb, tb) in zip(a.get("slices", []), b.get("slices", [])):
        if sa and sb and ta and tb:
            out.append((sa / ta) / (sb / tb))
    return out


def _spread(values: list[float]) -> list[float] | None:
    """10th and 90th percentiles: how much the paired ratio moved from round to round."""
    if len(values) < 3:
        return None
    lo, hi = np.percentile(values, [10, 90])
    return [round(float(lo), 3), round(float(hi), 3)]


def summarise(rows: list[dict]) -> tuple[list[dict], list[dict]]:
    """Per-game clone+determinize cost in engine steps, and the issue's targets with their ratios.

    A ratio is total steps/s over total steps/s; ``spread`` is the 10th-90th percentile range of
    the same ratio taken round by round, which shows how far machine load moved it.
    """
    clone_det = []
    for r in rows:
        if r["loop"] != "clone+det":
            continue
        engine = _row(rows, "deckzoo", r["env"], "engine")
        step = None if engine is None else engine["steps"] / engine["seconds"]
        us = 1e6 * r["seconds"] / r["steps"] if r["steps"] else None
        in_steps = us * step / 1e6 if (us is not None and step) else None
        clone_det.append(
            {
                "env": r["env"],
                "clone_det_us": None if us is None else round(us, 1),
                "engine_step_us": None if not step else round(1e6 / step, 2),
                "in_engine_steps": None if in_steps is None else round(in_steps, 2),
                # engine steps per clone+determinize, round by round (engine rate / pair rate)
                "spread": None if engine is None else _spread(_round_ratios(engine, r)),
            }
        )
    targets = []

    def target(
        what: str, ours: dict | None, peer: dict | None, goal: float, peer_label: str
    ) -> None:
        if ours is None or peer is None:
            return
        ratio = (ours["steps"] / ours["seconds"]) / (peer["steps"] / peer["seconds"])
        targets.append(
            {
                "target": what,
                "peer": peer_label,
                "ratio": round(ratio, 3),
                "goal": goal,
                "met": bool(ratio >= goal),
                "spread": _spread(_round_ratios(ours, peer)),
            }
        )

    texas = _row(rows, "pettingzoo", "texas_holdem_v4", "aec")
    for r in rows:
        if r["library"] == "deckzoo" and r["loop"] == "aec" and r["steps"]:
            goal = 1.0 if r["env"].startswith("midgard") else 3.0
            target(f"{r['env']} AEC vs texas_holdem_v4 AEC", r, texas, goal, TEXAS)
    wiz, wiz_obs = (
        _row(rows, "deckzoo", "wizard_v0", "engine"),
        _row(rows, "deckzoo", "wizard_v0", "engine+obs"),
    )
    target(
        "wizard_v0 engine vs oh_hell engine",
        wiz,
        _row(rows, "open_spiel", "oh_hell", "engine"),
        0.5,
        OH_HELL,
    )
    target(
        "wizard_v0 engine+observe vs oh_hell + information_state_tensor (list)",
        wiz_obs,
        _row(rows, "open_spiel", "oh_hell", "engine+info_state_tensor"),
        1.0,
        OH_HELL,
    )
    target(
        "wizard_v0 engine+observe vs oh_hell + set_from (numpy)",
        wiz_obs,
        _row(rows, "open_spiel", "oh_hell", "engine+set_from(numpy)"),
        0.5,
        OH_HELL,
    )
    for c in clone_det:
        if c["in_engine_steps"] is not None:
            targets.append(
                {
                    "target": f"{c['env']} clone+determinize in engine steps",
                    "peer": None,
                    "ratio": c["in_engine_steps"],
                    "goal": "< 20",
                    "met": c["in_engine_steps"] < 20,
                    "spread": c["spread"],
                }
            )
    return clone_det, targets


def markdown(result: dict) -> str:
    """The results page (benchmarks/results_page.py's layout): the tables and the chart, then how
    they were made."""
    rows, meta = result["results"], result["meta"]
    envs = results_page.EnvLabels()
    texas = _rate(rows, "pettingzoo", "texas_holdem_v4", "aec")
    oh = {
        loop: _rate(rows, "open_spiel", "oh_hell", loop)
        for loop in ("engine", "engine+info_state_tensor", "engine+set_from(numpy)")
    }
    out = [
        (
            "| library | env | loop | players | obs size | steps/s | games/s | vs texas AEC "
            "| vs oh_hell same loop |"
        ),
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    same = {"engine": oh["engine"], "engine+obs": oh["engine+set_from(numpy)"]}
    for r in rows:
        if r["loop"] == "clone+det":
            continue
        rate = r["steps"] / r["seconds"] if r["seconds"] else 0.0
        gps = r["games"] / r["seconds"] if r["seconds"] else 0.0
        vs_t = f"{rate / texas:.2f}x" if texas and r["library"] != "open_spiel" else ""
        peer = same.get(r["loop"]) if r["library"] == "deckzoo" else None
        vs_o = f"{rate / peer:.2f}x" if peer else ""
        out.append(
            f"| {r['library']} | {envs.label(r['env'])} | {r['loop']} | {r['players']} "
            f"| {r['obs_size'] or ''} | "
            f"{rate:,.0f} | {gps:,.1f} | {vs_t} | {vs_o} |"
        )
    out += [
        *envs.note(),
        "",
        (
            "Steps are decisions (chance events excluded, their cost included). Ratios are "
            'deckzoo/peer; "vs oh_hell same loop": engine vs oh_hell engine, engine+obs vs '
            "oh_hell + set_from (numpy)."
        ),
        "",
        *results_page.charts(["peers.png"], lambda _: "steps per second of every case"),
        "",
    ]
    if result["clone_det"]:
        out += [
            "## clone + determinize (ISMCTS cost per iteration)",
            "",
            (
                "| env | clone+determinize (us) | engine step (us) | in engine steps (goal < 20) "
                "| per-round p10-p90 |"
            ),
            "|---|---:|---:|---:|---:|",
        ]
        for c in result["clone_det"]:
            out.append(
                f"| {envs.label(c['env'])} | {c['clone_det_us']} | {c['engine_step_us']} "
                f"| {c['in_engine_steps']} | "
                f"{_fmt_spread(c.get('spread'))} |"
            )
        out.append("")
    adapter = []
    for r in rows:
        if r["library"] == "deckzoo" and r["loop"] == "aec" and r["steps"]:
            obs = _rate(rows, "deckzoo", r["env"], "engine+obs")
            if obs:
                aec_us, obs_us = 1e6 * r["seconds"] / r["steps"], 1e6 / obs
                adapter.append(
                    f"| {envs.label(r['env'])} | {aec_us:.1f} | {obs_us:.1f} "
                    f"| {aec_us - obs_us:.1f} |"
                )
    if adapter:
        out += [
            "## Cost of the AEC adapter",
            "",
            "| env | AEC step (us) | engine+obs step (us) | adapter (us) |",
            "|---|---:|---:|---:|",
            *adapter,
            "",
            (
                "Microseconds per step through `env.last()` + `env.step()` against the engine's "
                "own `observe` + `legal_mask` + `apply`; the difference is what the adapter "
                "(and PettingZoo's iteration protocol) adds. It is the difference of two measured "
                "rates, so it is noisy on a loaded machine (a negative value is noise)."
            ),
            "",
        ]
    if result["targets"]:
        out += [
            "## Targets",
            "",
            "| target | ratio | per-round p10-p90 | goal | met |",
            "|---|---:|---:|---:|---|",
        ]
        for t in result["targets"]:
            goal = t["goal"] if isinstance(t["goal"], str) else f">= {t['goal']}"
            out.append(
                f"| {envs.sub(t['target'])} | {t['ratio']:.2f} | {_fmt_spread(t.get('spread'))} "
                f"| {goal} | "
                f"{'yes' if t['met'] else '**no**'} |"
            )
        out += [
            "",
            (
                "The ratio is over the whole run; p10-p90 is the range of the same ratio taken "
                "round by round (both sides ran within the same few seconds), a measure of how "
                "much load moved it."
            ),
        ]
    command = meta.get("command") or (
        f"python benchmarks/peers.py --seconds {meta['seconds_per_case']:g} "
        f"--slice {meta['slice_s']:g}` (rebuilt from the recorded settings: the run did not "
        "record its command line"
    )
    how = [
        f"`{command}` on {meta['date']}.",
        "",
        (
            f"One interleaved run, {meta['seconds_per_case']} s per case "
            f"in {meta['slice_s']} s slices; "
            f"{meta['cpus']} CPUs ({meta.get('cpu_model', 'CPU not recorded')}), "
            f"load average {meta['loadavg_start'][0]:.2f} at the start and "
            f"{meta['loadavg_end'][0]:.2f} at the end; "
            f"python {meta['python']}, numpy {meta['numpy']}; "
            f"peak RSS {meta['peak_rss_mb']:.0f} MB."
        ),
    ]
    notes = [f"- {n}" for n in result["notes"]]
    return results_page.page("deckzoo vs peers", out, how, notes)


def _fmt_spread(spread) -> str:
    return "" if not spread else f"{spread[0]:.2f}-{spread[1]:.2f}"


def chart(result: dict, path: Path) -> bool:
    """Horizontal bars of steps/s (log scale), one colour per library. False if matplotlib is
    missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in result["results"] if r["loop"] != "clone+det" and r["steps"]]
    colours = {"deckzoo": "tab:blue", "pettingzoo": "tab:orange", "open_spiel": "tab:green"}
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(rows) + 1.2))
    labels = [f"{r['library']}/{r['env']} {r['loop']}" for r in rows]
    rates = [r["steps"] / r["seconds"] for r in rows]
    ax.barh(range(len(rows)), rates, color=[colours.get(r["library"], "grey") for r in rows])
    ax.set_yticks(range(len(rows)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("steps/s (random legal play, log scale)")
    ax.set_title(f"deckzoo vs peers, one interleaved run ({result['meta']['date']})", fontsize=10)
    for i, v in enumerate(rates):
        ax.text(v, i, f" {v:,.0f}", va="center", fontsize=7)
    texas = _rate(result["results"], "pettingzoo", "texas_holdem_v4", "aec")
    if texas:
        ax.axvline(3 * texas, color="grey", linestyle="--", linewidth=0.8)
        ax.text(
            3 * texas, len(rows) - 0.4, " AEC target: 3x texas_holdem_v4", fontsize=7, color="grey"
        )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def peak_rss_mb() -> float:
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024 if sys.platform != "darwin" else kb / 2**20  # macOS reports bytes


def cpu_model() -> str:
    """The processor's name: ratios between a numpy engine and a C++ one move with the CPU
    (its vector units, caches), so a result must say which machine gave it."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _versions() -> dict:
    out = {"python": platform.python_version(), "numpy": np.__version__}
    for dist in ("pettingzoo", "rlcard", "open_spiel"):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            out[dist] = None
    return out


def run(
    names: list[str],
    seconds: float,
    slice_s: float,
    peers: bool = True,
    seed: int = 0,
    clone_det: bool = True,
    progress: bool = True,
) -> dict:
    """Build every case, run them interleaved, and return the result dict (not written)."""
    load_start = os.getloadavg()
    cases = deckzoo_cases(names, seed, clone_det)
    notes: list[str] = []
    if peers:
        more, notes = peer_cases(seed)
        cases += more
    else:
        notes.append("peers not run (--no-peers)")
    t0 = time.perf_counter()
    run_interleaved(cases, seconds, slice_s, seed, progress)
    rows = [c.row() for c in cases]
    clone_det_rows, targets = summarise(rows)
    meta = {
        **_versions(),
        "machine": platform.machine(),
        "cpu_model": cpu_model(),
        "cpus": os.cpu_count(),
        "loadavg_start": list(load_start),
        "loadavg_end": list(os.getloadavg()),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "seconds_per_case": seconds,
        "slice_s": slice_s,
        "wall_s": round(time.perf_counter() - t0, 1),
        "players": PLAYERS,
        "peak_rss_mb": peak_rss_mb(),
    }
    return {
        "meta": meta,
        "results": rows,
        "clone_det": clone_det_rows,
        "targets": targets,
        "notes": notes,
    }


def write(result: dict, out_dir: Path) -> dict[str, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": out_dir / "peers.json",
        "md": out_dir / "peers.md",
        "png": out_dir / "peers.png",
    }
    if not chart(result, paths["png"]):
        result["notes"].append("no chart: matplotlib is not installed")
        del paths["png"]
    paths["json"].write_text(json.dumps(result, indent=2) + "\n")
    paths["md"].write_text(markdown(result))
    return paths


def update_docs(result: dict, path: Path = DOCS) -> None:
    """Replace the results section of docs/performance.md (between its markers) with this run's
    tables."""
    text = path.read_text()
    a, b = text.index(DOCS_BEGIN) + len(DOCS_BEGIN), text.index(DOCS_END)
    body = results_page.for_docs(markdown(result), path)
    path.write_text(text[:a] + "\n" + body.strip() + "\n" + text[b:])


def profile(names: list[str], seconds: float, top: int = 15, seed: int = 0) -> str:
    """cProfile of each deckzoo case (aec, engine+obs, clone+det) run alone: where the time goes.

    Not part of the measurement (the profiler inflates every Python call); for finding hot spots.
    """
    import cProfile
    import io
    import pstats

    out = io.StringIO()
    for case in deckzoo_cases(names, seed):
        if case.loop == "engine":
            continue  # engine+obs covers it
        prof = cProfile.Profile()
        prof.enable()
        case.run(seconds, Picker(seed))
        prof.disable()
        out.write(
            f"\n=== {case.env} {case.loop}: {case.steps} steps in {case.seconds:.1f} s "
            "under the profiler\n"
        )
        pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seconds", type=float, default=5.0, help="total time per case")
    ap.add_argument("--slice", type=float, default=0.25, help="seconds per case per round")
    ap.add_argument(
        "--envs", default=",".join(E.registry.env_names()), help="comma-separated deckzoo env names"
    )
    ap.add_argument("--no-peers", action="store_true", help="deckzoo only")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out-dir", default=str(RESULTS_DIR))
    ap.add_argument(
        "--update-docs",
        action="store_true",
        help="also rewrite the results section of docs/performance.md",
    )
    ap.add_argument(
        "--profile",
        action="store_true",
        help="instead of measuring, cProfile each deckzoo case of --envs for --seconds "
        "and print hot spots",
    )
    args = ap.parse_args(argv)
    names = [E.canonical(n) for n in args.envs.split(",") if n]
    if args.profile:
        print(profile(names, args.seconds))
        return {}
    result = run(names, args.seconds, args.slice, peers=not args.no_peers, seed=args.seed)
    result["meta"]["command"] = "python benchmarks/peers.py " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    paths = write(result, Path(args.out_dir))
    if args.update_docs:
        update_docs(result)
    print(markdown(result))
    print(
        f"peak memory (max RSS): {result['meta']['peak_rss_mb']:.0f} MB; written: "
        + ", ".join(str(p) for p in paths.values())
    )
    return result


if __name__ == "__main__":
    main()
