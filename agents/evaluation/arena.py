"""The arena: many seeded games between agents on the engine, with statistics and ratings.

``run_arena(ArenaConfig(...))`` plays ``games`` games of one game configuration. Agents are
given as registry specs (``random``, ``heuristic``, ``ismcts:300``...), optionally labelled
``label=spec`` so that two settings of one agent can meet (``fast=ismcts:50,slow=ismcts:500``).

The games are built by ``evaluation.tasks`` (who sits where, with which seeds, duplicate boards:
its docstring says how); the configuration and the result are ``evaluation.config``'s, and
``evaluation.report`` prints the table and writes the chart and the result files.

Stopping. ``until_separated=(A, B)`` (needs ``duplicate``) stops at the first board after which
an anytime-valid confidence sequence on A's "ahead of B" share excludes 1/2
(``agents/evaluation/confseq.py``), or after ``games`` games; boards are judged in index order, so
where it stops does not depend on workers or backend, and games of later boards that were already
running are dropped.

Processes. ``workers > 1`` plays games in a ``spawn`` process pool (agents are built inside the
workers from their specs); workers ignore SIGINT, and Ctrl-C (or SIGTERM) in the parent stops the
pool and keeps every finished game: the results are summarised and written as usual, marked
``interrupted``. Only the first signal interrupts (``StopSignals``): later ones, and any once play
has ended, are ignored, so a second Ctrl-C cannot cut the summary, the table or the files short.

Backends. ``game_tasks(cfg)`` (``evaluation.tasks``) is the whole run as a list of self-contained
tasks (plain dicts) and ``play_task(task)`` plays one of them, so any backend that can run a
function on a dict plays the same games: ``backend="ray"`` ships them to a Ray instance or cluster
in batches (``agents/evaluation/ray_backend.py``, docs/distributed.md) and gives the same records,
record for record, as the local backends (``comparable(record)`` drops the timings, the only
fields that differ).
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing as mp
import signal
import sys
import time
from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from deckzoo.envs.core.errors import ConfigError

from ..registry import make_agent
from .batched import ENGINES, choose_engine, play_batched
from .boards import SeparationMonitor, paired_summary
from .config import ArenaConfig, ArenaResult, parse_agents
from .forms import batched_form
from .match import play_match
from .stats import summarize
from .tasks import board_size, check_seating, game_tasks, resolve_game


@lru_cache(maxsize=8)
def _cached_game(game: str, players: int, options_json: str):
    import deckzoo.envs as E

    return E.game_class(game)(players, **json.loads(options_json))


def play_task(task: dict, make=make_agent) -> dict:
    """Play one scheduled game (module-level so that worker processes can run it). ``make``
    builds an agent from ``(spec, game_name, seed)``; a remote backend passes one that finds the
    files a spec names in its own copies, while the record keeps the specs as given."""
    game = _cached_game(task["game"], task["players"], task["options_json"])
    agents = [make(spec, game.name, seed) for spec, seed in zip(task["specs"], task["agent_seeds"])]
    t0 = time.perf_counter()
    actions = [] if task.get("save") else None
    keyed = task.get("keyed_chance", False)
    res = play_match(
        game, agents, task["seats"], seed=task["seed"], actions=actions, keyed_chance=keyed
    )
    rec = {"index": task["index"]}
    if "board" in task:
        rec.update(board=task["board"], keyed_chance=keyed)
    rec.update(
        {
            "seed": task["seed"],
            "seats": task["seats"],
            "specs": task["specs"],
            "scores": res.scores,
            "winners": res.winners,
            "returns": res.returns,
            "steps": res.steps,
            "decisions": res.decisions,
            "think_seconds": res.think_seconds,
            "max_think_seconds": res.max_think_seconds,
            "think_cpu_seconds": res.think_cpu_seconds,
            "max_think_cpu_seconds": res.max_think_cpu_seconds,
            "seconds": time.perf_counter() - t0,
            "truncated": res.truncated,
        }
    )
    if actions is not None:
        rec.update(actions=actions, agent_seeds=task["agent_seeds"])
    return rec


def play_batched_tasks(tasks: list[dict], batch_size: int, seed: int, local_spec=None):
    """The records of ``tasks`` (of one game configuration) played on the batched engine or on
    scalar lanes, as they finish (``evaluation.batched.play_batched``); ``seed`` with the first
    task's index seeds the batched agents' draws, so a chunk of a run draws its own numbers.
    ``local_spec(spec)``: the spec that finds a spec's files here (a Ray node's copies); the
    records keep the specs as given."""
    if not tasks:
        return iter(())
    t = tasks[0]
    game = _cached_game(t["game"], t["players"], t["options_json"])
    forms = None
    if local_spec is not None:
        specs = {s for task in tasks for s in task["specs"]}
        found = {s: batched_form(local_spec(s), type(game).name) for s in specs}
        forms = {s: f for s, f in found.items() if f is not None}
    seed = int(seed) * 1_000_003 + int(t["index"])
    return play_batched(tasks, game, batch_size, seed=seed, forms=forms)


def _kept_first(kept: list[dict], results):
    """The games kept as replay files (``save_games``) on the scalar engine, then the rest.

    A replay file names its agents' seeds, from which ``deckzoo replay`` and the viewer rebuild
    the agents and see their moves come out again; an agent's batched form draws its own random
    numbers, so a stochastic agent's kept game is played as its scalar self. The same games:
    only the draws differ, and only where an agent draws."""
    try:
        yield from map(play_task, kept)
        yield from results
    finally:
        if hasattr(results, "close"):
            results.close()


def _play_chunk(args) -> list[dict]:
    tasks, batch_size, seed = args
    return list(play_batched_tasks(tasks, batch_size, seed))


def _flat(chunks):
    for records in chunks:
        yield from records


#: batched games are played in chunks of this many batches of lanes, the unit a process or a Ray
#: task plays; each chunk's agents draw from a generator seeded by the run's seed and the chunk's
#: first game, so a run's records do not depend on the number of workers or on the backend
CHUNK_BATCHES = 4


def chunk_games(cfg: ArenaConfig, num_players: int) -> int:
    """Games in one chunk of a batched run: ``CHUNK_BATCHES`` batches, in whole boards."""
    unit = board_size(len(cfg.agents), num_players, cfg.seating) if cfg.duplicate else 1
    return -(-CHUNK_BATCHES * cfg.batch_size // unit) * unit


def task_chunks(tasks: list[dict], cfg: ArenaConfig) -> list[list[dict]]:
    """``tasks`` in the chunks of a batched run (``chunk_games``), in game order."""
    if not tasks:
        return []
    per = chunk_games(cfg, tasks[0]["players"])
    return [tasks[i : i + per] for i in range(0, len(tasks), per)]


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopSignals:
    """Ctrl-C and SIGTERM while an arena runs (``stop_signals``): the first stops play
    (``KeyboardInterrupt``); every later one, and any after ``shield()``, is only counted.

    Stopping is followed by work that must not be cut short: terminating the pool, summarising
    the finished games, printing the table and writing the results. A second Ctrl-C raised inside
    that work lost everything, and ``timeout -s INT`` signals twice (the process, then its
    group), as does an impatient user. So once play has stopped, or the wrap-up has begun, nothing
    interrupts it; ``kill -9`` still does, and the games appended to games.csv survive even that
    (``ResultsWriter``)."""

    def __init__(self):
        self.count = 0
        self.shielded = False

    def handle(self, signum, frame):
        self.count += 1
        if self.count == 1 and not self.shielded:
            raise KeyboardInterrupt

    def shield(self) -> None:
        """From now on signals are counted, never raised."""
        self.shielded = True


_ACTIVE_STOP: list[StopSignals] = []  # the installed one, if any


@contextlib.contextmanager
def stop_signals() -> Iterator[StopSignals]:
    """A ``StopSignals`` handling SIGINT and SIGTERM for the block (main thread only: elsewhere
    signals stay as they were), the previous handlers restored after it. Inside another block it
    is that block's, so ``run_arena`` inside ``deckzoo arena`` shares the command's, and the
    command's wrap-up after ``run_arena`` returns stays shielded."""
    import threading

    if _ACTIVE_STOP:
        yield _ACTIVE_STOP[-1]
        return
    stop = StopSignals()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = {sig: signal.signal(sig, stop.handle) for sig in STOP_SIGNALS}
    _ACTIVE_STOP.append(stop)
    try:
        yield stop
    finally:
        _ACTIVE_STOP.remove(stop)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def check_arena(cfg: ArenaConfig):
    """Validate ``cfg`` (counts, seed, game, options, agent labels and specs) before anything is
    played; returns the game. Every problem raises ``ConfigError`` naming it."""
    lows = (
        ("games", 1),
        ("first_game", 0),
        ("workers", 1),
        ("seed", 0),
        ("save_games", 0),
        ("batch_size", 1),
    )
    for key, low in lows:
        value = getattr(cfg, key)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ConfigError(f"arena: {key!r} must be a whole number >= {low}, got {value!r}")
    if cfg.seed >= 2**63:
        raise ConfigError(f"arena: 'seed' must be below 2**63, got {cfg.seed}")
    if cfg.backend not in ("local", "ray"):
        raise ConfigError(f"arena: 'backend' must be local or ray, got {cfg.backend!r}")
    if cfg.engine not in ENGINES:
        raise ConfigError(
            f"arena: 'engine' must be one of {', '.join(ENGINES)}, got {cfg.engine!r}"
        )
    check_seating(cfg.seating)
    if cfg.address is not None and cfg.backend != "ray":
        raise ConfigError("arena: 'address' needs backend ray")
    game = resolve_game(cfg)
    agents = parse_agents(cfg.agents)
    for _, spec in agents:  # fail fast on bad specs and policies of other tables, before any game
        make_agent(spec, game.name, 0, game=game)
    _check_duplicate(cfg, [label for label, _ in agents], game.num_players)
    return game


def _check_duplicate(cfg: ArenaConfig, labels: list[str], players: int) -> None:
    """Whole boards, and ``until_separated`` naming two of the agents (with ``duplicate``)."""
    if cfg.until_separated is not None:
        pair = list(cfg.until_separated)
        if not cfg.duplicate:
            raise ConfigError("arena: 'until_separated' needs duplicate boards (duplicate=True)")
        if len(pair) != 2 or pair[0] == pair[1] or any(p not in labels for p in pair):
            raise ConfigError(
                f"arena: 'until_separated' must name two different agents of {', '.join(labels)}"
                f", got {pair!r}"
            )
        if min(len(labels), players) < 2:
            raise ConfigError("arena: 'until_separated' needs both agents at one table")
    if not cfg.duplicate:
        return
    size = board_size(len(labels), players, cfg.seating)
    for key in ("games", "first_game"):
        value = getattr(cfg, key)
        if value % size:
            raise ConfigError(
                f"arena: with duplicate boards {key!r} must be a multiple of the board size {size}"
                f" (every line-up of a table once), got {value}; e.g. {value - value % size} or "
                f"{value - value % size + size}"
            )


def arena_engine(cfg: ArenaConfig, game) -> tuple[str, str]:
    """``(engine, why)``: where ``cfg``'s games are played (``evaluation.batched.choose_engine``);
    ``engine="batched"`` with an agent that has no batched form raises in one line."""
    return choose_engine(game, [spec for _, spec in parse_agents(cfg.agents)], cfg.engine)


def run_arena(cfg: ArenaConfig, on_record=None) -> ArenaResult:
    """Play the games of ``cfg``; Ctrl-C keeps the finished ones (see the module docstring)."""
    game = check_arena(cfg)
    n = game.num_players
    engine, why = arena_engine(cfg, game)
    if cfg.backend == "ray":
        from ..ray_cluster import require_ray

        require_ray()  # a missing extra is one line, before any other
    if cfg.progress:
        print(f"engine: {engine} ({why})", file=sys.stderr)
    tasks = game_tasks(cfg, n)
    monitor = _monitor(cfg, n, type(game).score_sign)
    records: list[dict] = []
    bar = None
    if cfg.progress:
        from tqdm import tqdm

        bar = tqdm(total=len(tasks), desc=f"{game.name} {n}p", unit="game", dynamic_ncols=True)
    t0 = time.perf_counter()
    with stop_signals() as stop:  # shielded once play ends: a caller's wrap-up inside it too
        interrupted = _play(cfg, tasks, records, on_record, bar, monitor, stop, engine)
    records, stopping = _counted(records, monitor)
    sign = type(game).score_sign
    summary = summarize(records, n, sign) if records else []
    paired = paired_summary(records, sign) if cfg.duplicate and records else None
    seconds = time.perf_counter() - t0
    return ArenaResult(
        cfg, game.name, n, records, summary, interrupted, seconds, paired, stopping, engine, why
    )


def _play(
    cfg: ArenaConfig, tasks, records: list[dict], on_record, bar, monitor, stop, engine="scalar"
) -> bool:
    """Play ``tasks`` on the configured backend into ``records``; True if stopped by Ctrl-C or
    SIGTERM. ``stop`` (``StopSignals``) is shielded the moment play ends, however it ends, so
    the pool is always terminated rather than orphaned and the finished games always kept."""
    pool = results = None
    interrupted = False
    kept = []
    if engine == "batched":  # games kept as replays play one at a time: see _kept_first
        kept = [t for t in tasks if t.get("save")]
        tasks = [t for t in tasks if not t.get("save")]
    try:
        if cfg.backend == "ray":
            from .ray_backend import ray_records

            results = ray_records(tasks, cfg, batched=engine == "batched")
        elif engine == "batched" and cfg.workers == 1:
            chunks = task_chunks(tasks, cfg)
            results = (r for c in chunks for r in play_batched_tasks(c, cfg.batch_size, cfg.seed))
        elif engine == "batched":
            pool = mp.get_context("spawn").Pool(cfg.workers, initializer=_ignore_sigint)
            chunks = [(c, cfg.batch_size, cfg.seed) for c in task_chunks(tasks, cfg)]
            results = _flat(pool.imap_unordered(_play_chunk, chunks, chunksize=1))
        elif cfg.workers == 1:
            results = map(play_task, tasks)
        else:
            pool = mp.get_context("spawn").Pool(cfg.workers, initializer=_ignore_sigint)
            results = pool.imap_unordered(play_task, tasks, chunksize=1)
        if kept:
            results = _kept_first(kept, results)
        _collect(results, records, on_record, bar, monitor)
        if monitor is not None and monitor.stopped_at is not None:
            if hasattr(results, "close"):
                results.close()
            if pool is not None:
                pool.terminate()  # games of later boards still running are not needed
                pool.join()
                pool = None
        if pool is not None:
            pool.close()
            pool.join()
            pool = None
    except KeyboardInterrupt:
        stop.shield()
        interrupted = True
        if hasattr(results, "close"):  # the Ray generator cancels its tasks when closed
            results.close()
    finally:
        stop.shield()
        if pool is not None:  # interrupted, or an error: no worker outlives the run
            pool.terminate()
            pool.join()
        if bar is not None:
            bar.close()
    return interrupted


def _collect(results, records: list[dict], on_record, bar, monitor) -> None:
    """Append the finished games to ``records`` as they come (so an interruption keeps them),
    until the last one or until ``monitor`` stops the run."""
    for rec in results:
        records.append(rec)
        if on_record is not None:
            on_record(rec)
        if bar is not None:
            bar.update(1)
        if monitor is not None and monitor.add(rec):
            break


def _counted(records: list[dict], monitor) -> tuple[list[dict], dict | None]:
    """The games that count, in game order, and the stopping rule's report (None without one):
    boards after the one where the rule stopped are not counted."""
    records = sorted(records, key=lambda r: r["index"])
    if monitor is None:
        return records, None
    if monitor.stopped_at is not None:
        records = [r for r in records if r["board"] <= monitor.stopped_at]
    return records, monitor.report()


def _monitor(cfg: ArenaConfig, num_players: int, score_sign: int):
    if cfg.until_separated is None:
        return None
    size = board_size(len(cfg.agents), num_players, cfg.seating)
    a, b = cfg.until_separated
    return SeparationMonitor(a, b, size, score_sign, first_board=cfg.first_game // size)


__all__ = [
    "CHUNK_BATCHES",
    "StopSignals",
    "arena_engine",
    "check_arena",
    "chunk_games",
    "play_batched_tasks",
    "play_task",
    "run_arena",
    "stop_signals",
    "task_chunks",
]
