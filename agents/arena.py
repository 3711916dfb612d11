"""The arena: many seeded games between agents on the engine, with statistics and ratings.

``run_arena(ArenaConfig(...))`` plays ``games`` games of one game configuration. Agents are
given as registry specs (``random``, ``heuristic``, ``ismcts:300``...), optionally labelled
``label=spec`` so that two settings of one agent can meet (``fast=ismcts:50,slow=ismcts:500``).

Seating. With as many specs as players, game ``g`` rotates the line-up by ``g`` seats, so every
agent sits in every seat equally often over ``P`` consecutive games. With fewer specs the last
one fills the remaining seats (``heuristic,random`` at 4 players = one heuristic, three random).
With more specs than players, every combination of ``P`` specs is played in every rotation, in
turn. ``schedule_length`` says how many games make one full cycle; use a multiple for balance.

Rotation alone keeps the *order* round the table fixed: at 4 players A is always followed by B,
and B by C. In games where a seat acts on what the seat before it just did (Go Big: the next
player has the first shot at a display), that order favours some agents over others, and
``rotate`` cannot tell such an advantage from skill: at Go Big's leaderboard table the search was
level with the heuristic seated right after it, and far ahead of it seated right before it.
``seating="orders"`` goes through every order of each table ((P-1)! orders round the table, each
in its P rotations: 24 line-ups at 4 players), so every agent also follows every other equally
often; each block of P games still seats every agent in every seat once.

Seeding. One ``numpy.random.SeedSequence(seed)`` is spawned into one child per game; a game's
deal seed and its agents' seeds come from its child only, so every game is reproducible on its
own and results do not depend on the number of worker processes or on their scheduling
(agents with a wall-clock budget, ``ismcts:0.5s``, are the exception: they search as far as time
allows).

Duplicate boards. ``duplicate=True`` plays the games in *boards*: board ``b`` takes one table of
the cycle (in turn) and plays one deal seed in every line-up of it (``rotate``: its P rotations;
``orders``: every order, each rotated), with the same seed for each seat's agent, and with the
game's keyed chance (``Game.new_state(seed, keyed_chance=True)``): every chance event is the same
in the board's games as long as the same events occur, so the luck of the cards is shared and
each board is one paired comparison (``agents/duplicate.py``; docs/agents.md, "Duplicate
boards"). Records gain ``board``; ``games`` and ``first_game`` must be whole boards
(``board_size``).
``until_separated=(A, B)`` (needs ``duplicate``) stops at the first board after which an
anytime-valid confidence sequence on A's "ahead of B" share excludes 1/2 (``agents/confseq.py``),
or after ``games`` games; boards are judged in index order, so where it stops does not depend on
workers or backend, and games of later boards that were already running are dropped.

Processes. ``workers > 1`` plays games in a ``spawn`` process pool (agents are built inside the
workers from their specs); workers ignore SIGINT, and Ctrl-C (or SIGTERM) in the parent stops the
pool and keeps every finished game: the results are summarised and written as usual, marked
``interrupted``. Only the first signal interrupts (``StopSignals``): later ones, and any once play
has ended, are ignored, so a second Ctrl-C cannot cut the summary, the table or the files short.

Backends. ``game_tasks(cfg)`` is the whole run as a list of self-contained tasks (plain dicts) and
``play_task(task)`` plays one of them, so any backend that can run a function on a dict plays the
same games: ``backend="ray"`` ships them to a Ray instance or cluster in batches
(``agents/arena_ray.py``, docs/distributed.md) and gives the same records, record for record,
as the local backends (``comparable(record)`` drops the timings, the only fields that differ).

Output (``out`` directory): ``games.csv`` and ``games.json`` (one record per game: seed, label
and spec per seat, scores, winners, returns, steps, seconds), ``summary.json``,
``summary.md`` (the table and the configuration) and ``win_share.png`` (win share per agent
with its 95% Wilson interval and the uniform share ``1/P``). ``deckzoo arena`` creates the folder
before the first game (``ResultsWriter``) and appends each game to games.csv as it finishes, so
even a run killed outright keeps its finished games.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
import math
import multiprocessing as mp
import os
import signal
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from deckzoo.envs.core.errors import ConfigError

from .duplicate import MIN_BOARDS, SeparationMonitor, format_interval, paired_summary
from .evaluation.batched import ENGINES, choose_engine, play_batched
from .evaluation.forms import batched_form
from .match import play_match
from .registry import make_agent
from .stats import RATING_ORDERS, summarize


@dataclass
class ArenaConfig:
    """One arena run.

    Attributes:
        game: env or game name (``gobig``, ``gobig_v0``).
        agents: agent specs, optionally ``label=spec``.
        games: number of games.
        players: seats per game (None: the game's default).
        options: game options (besides ``num_players``).
        seed: the one seed every game's deal and agents derive from.
        workers: processes (1 plays in this process).
        progress: show a progress bar.
        first_game: index of the first game; runs of games ``0..k-1`` then ``k..m-1`` play exactly
            the games of one run of ``0..m-1`` (for sequential benchmarks that add batches).
        backend: ``local`` (this process or a process pool) or ``ray`` (Ray tasks).
        address: with ``ray``, the cluster to join (``auto``, ``HOST:PORT``); None starts a local
            Ray instance of ``workers`` CPUs.
        save_games: keep the actions of the first ``save_games`` games of each pairing (a set of
            agents at one table, whatever its seating; ``schedule``) for replay files: their
            records gain ``actions`` and ``agent_seeds`` (``agents/replay.py``).
        seating: ``rotate`` (each table in its P rotations) or ``orders`` (each table in every
            order round it, each in its P rotations); see the module docstring.
        duplicate: play boards (one deal in every line-up of a table, with the same chance
            outcomes); see the module docstring.
        until_separated: two agent labels ``(A, B)``: with ``duplicate``, stop once they are
            separated (``games`` is then the most games played).
    """

    game: str
    agents: list[str]
    games: int = 100
    players: int | None = None
    options: dict = field(default_factory=dict)
    seed: int = 0
    workers: int = 1
    progress: bool = False
    first_game: int = 0
    backend: str = "local"
    address: str | None = None
    save_games: int = 0
    seating: str = "rotate"
    duplicate: bool = False
    until_separated: tuple[str, str] | list[str] | None = None
    engine: str = "auto"
    batch_size: int = 1024


SEATINGS = ("rotate", "orders")


@dataclass
class ArenaResult:
    config: ArenaConfig
    game_name: str
    num_players: int
    records: list[dict]
    summary: list[dict]
    interrupted: bool
    seconds: float
    paired: dict | None = None  # duplicate runs: agents.duplicate.paired_summary
    stopping: dict | None = None  # until_separated: agents.duplicate.SeparationMonitor.report
    engine: str = "scalar"  # where the games were played: "scalar" or "batched"
    engine_reason: str = ""

    def to_dict(self) -> dict:
        out = {
            "config": asdict(self.config),
            "game": self.game_name,
            "num_players": self.num_players,
            "interrupted": self.interrupted,
            "seconds": self.seconds,
            "games_played": len(self.records),
            "engine": self.engine,
            "engine_reason": self.engine_reason,
            "summary": self.summary,
        }
        if self.paired is not None:
            out["paired"] = self.paired
        if self.stopping is not None:
            out["stopping"] = self.stopping
        return out


def parse_agents(specs: list[str]) -> list[tuple[str, str]]:
    """``["heuristic", "fast=ismcts:50"]`` ->
    ``[("heuristic", "heuristic"), ("fast", "ismcts:50")]``.

    Labels name the rows of the results, so each must be non-empty and used once (an unlabelled
    spec is its own label: ``random,random`` needs labels, ``a=random,b=random``)."""
    out = []
    for spec in specs:
        spec = spec.strip()
        if not spec:
            raise ConfigError("an agent spec is empty (two commas in a row, or a comma at an end?)")
        head, eq, rest = spec.partition("=")
        if eq and ":" not in head:
            label, rest = head.strip(), rest.strip()
            if not label:
                raise ConfigError(
                    f"agent {spec!r} has an empty label; write LABEL=SPEC, "
                    f"e.g. a={rest or 'random'}"
                )
            if not rest:
                raise ConfigError(f"agent label {label!r} has no spec after '='")
            out.append((label, rest))
        else:
            out.append((spec, spec))
    labels = [label for label, _ in out]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise ConfigError(
            f"agent label(s) {', '.join(map(repr, twice))} used more than once; "
            "give each agent its own label, e.g. a=random,b=random"
        )
    return out


def schedule(num_agents: int, players: int, seating: str = "rotate") -> list[list[int]]:
    """Line-ups (agent index per seat) that one cycle of games goes through; see the module doc."""
    return [lineup for table in _tables(num_agents, players, seating) for lineup in table]


def _tables(num_agents: int, players: int, seating: str) -> list[list[list[int]]]:
    """The cycle's line-ups grouped by table (the agents seated, whatever their seats)."""
    if num_agents < 1:
        raise ConfigError("the arena needs at least one agent")
    check_seating(seating)
    if num_agents <= players:
        base = list(range(num_agents)) + [num_agents - 1] * (players - num_agents)
        tables = [base]
    else:
        tables = [list(c) for c in itertools.combinations(range(num_agents), players)]
    out = []
    for t in tables:
        orders = [t]
        if seating == "orders":  # the first seat fixed, the rest in every distinct order
            orders = [[t[0], *rest] for rest in dict.fromkeys(itertools.permutations(t[1:]))]
        out.append([o[r:] + o[:r] for o in orders for r in range(players)])
    return out


def check_seating(seating: str) -> None:
    if seating not in SEATINGS:
        raise ConfigError(f"arena: 'seating' must be one of {', '.join(SEATINGS)}, got {seating!r}")


def schedule_length(num_agents: int, players: int, seating: str = "rotate") -> int:
    return len(schedule(num_agents, players, seating))


def board_size(num_agents: int, players: int, seating: str = "rotate") -> int:
    """Games in one duplicate board: the line-ups of one table."""
    return len(_tables(num_agents, players, seating)[0])


def _resolve(cfg: ArenaConfig):
    import deckzoo.envs as E

    game_cls = E.game_class(cfg.game)
    game = game_cls(cfg.players, **cfg.options)
    return game


@lru_cache(maxsize=8)
def _cached_game(game: str, players: int, options_json: str):
    import deckzoo.envs as E

    return E.game_class(game)(players, **json.loads(options_json))


TIMINGS = (
    "seconds",
    "think_seconds",
    "max_think_seconds",
    "think_cpu_seconds",
    "max_think_cpu_seconds",
)


def comparable(record: dict) -> dict:
    """A game record without its timings: equal for the same game whatever ran it."""
    return {k: v for k, v in record.items() if k not in TIMINGS}


def game_tasks(cfg: ArenaConfig, num_players: int | None = None) -> list[dict]:
    """Every game of ``cfg`` as a self-contained task for ``play_task`` (seeds derived from
    ``cfg.seed`` per game, line-ups rotated): what any backend plays."""
    if num_players is None:
        num_players = _resolve(cfg).num_players
    agents = parse_agents(cfg.agents)
    tables = _tables(len(agents), num_players, cfg.seating)
    if cfg.duplicate:
        return _board_tasks(cfg, agents, tables, num_players)
    lineups = [lineup for table in tables for lineup in table]
    per_table = len(tables[0])
    children = np.random.SeedSequence(cfg.seed).spawn(cfg.first_game + cfg.games)[cfg.first_game :]
    options_json = json.dumps(cfg.options, sort_keys=True)
    tasks = []
    saved: dict[int, int] = {}  # pairing (the table before rotation) -> games kept so far
    for g, child in enumerate(children, start=cfg.first_game):
        rng = np.random.default_rng(child)
        game_seed = int(rng.integers(2**63))
        agent_seeds = [int(x) for x in rng.integers(2**63, size=num_players)]
        lineup = lineups[g % len(lineups)]
        pairing = g % len(lineups) // per_table
        save = saved.get(pairing, 0) < cfg.save_games
        saved[pairing] = saved.get(pairing, 0) + save
        tasks.append(
            _task(cfg, agents, lineup, num_players, options_json, g, game_seed, agent_seeds, save)
        )
    return tasks


def _task(cfg, agents, lineup, num_players, options_json, index, seed, agent_seeds, save) -> dict:
    """One game for ``play_task``: who sits where, with which seeds, and whether it is kept."""
    return {
        "index": index,
        "seed": seed,
        "game": cfg.game,
        "players": num_players,
        "options_json": options_json,
        "seats": [agents[i][0] for i in lineup],
        "specs": [agents[i][1] for i in lineup],
        "agent_seeds": agent_seeds,
        "save": save,
    }


def _board_tasks(cfg: ArenaConfig, agents, tables, num_players: int) -> list[dict]:
    """``game_tasks`` of a duplicate run: board ``b`` (one child of ``SeedSequence(seed)``) plays
    table ``b mod len(tables)`` in each of its line-ups, with one deal seed and one agent seed per
    seat for all of them."""
    size = len(tables[0])
    first, boards = cfg.first_game // size, cfg.games // size
    children = np.random.SeedSequence(cfg.seed).spawn(first + boards)[first:]
    options_json = json.dumps(cfg.options, sort_keys=True)
    tasks = []
    saved: dict[int, int] = {}
    for b, child in enumerate(children, start=first):
        rng = np.random.default_rng(child)
        game_seed = int(rng.integers(2**63))
        agent_seeds = [int(x) for x in rng.integers(2**63, size=num_players)]
        pairing = b % len(tables)
        for i, lineup in enumerate(tables[pairing]):
            save = saved.get(pairing, 0) < cfg.save_games
            saved[pairing] = saved.get(pairing, 0) + save
            task = _task(
                cfg,
                agents,
                lineup,
                num_players,
                options_json,
                b * size + i,
                game_seed,
                agent_seeds,
                save,
            )
            tasks.append({**task, "board": b, "keyed_chance": True})
    return tasks


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
    game = _resolve(cfg)
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
    if cfg.progress:
        print(f"engine: {engine} ({why})", file=sys.stderr)
    tasks = game_tasks(cfg, n)
    monitor = _monitor(cfg, n, type(game).score_sign)
    records: list[dict] = []
    bar = None
    if cfg.backend == "ray":
        from .ray_cluster import require_ray

        require_ray()  # a missing extra is one line, before any progress bar
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
    try:
        if cfg.backend == "ray":
            from .arena_ray import ray_records

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


# ---- output ---------------------------------------------------------------------------------
def summary_markdown(result: ArenaResult) -> str:
    cfg = result.config
    lines = [
        f"# Arena: {result.game_name}, {result.num_players} players",
        "",
        f"- agents: {', '.join(cfg.agents)}",
        (
            f"- games: {len(result.records)} of {cfg.games}"
            f"{' (interrupted)' if result.interrupted else ''}; "
            f"seed {cfg.seed}; options {json.dumps(cfg.options, sort_keys=True)}"
        ),
        (
            f"- uniform win share 1/P = {1 / result.num_players:.3f}; "
            "intervals are 95% Wilson over seat-games"
        ),
        (
            f"- ratings: openskill Plackett-Luce, the mean over {RATING_ORDERS} random orders of "
            "the games; ordinal = mu - 3 sigma"
        ),
        f"- wall time {result.seconds:.1f} s",
        "",
        (
            "| agent | seat-games | win share | 95% CI | vs 1/P | mean score | rating mu | sigma | "
            "ordinal | s/move |"
        ),
        "|---|---:|---:|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in result.summary:
        verdict = (
            "above"
            if r["ci_low"] > r["uniform"]
            else "below"
            if r["ci_high"] < r["uniform"]
            else "-"
        )
        lines.append(
            f"| {r['agent']} | {r['seat_games']} | {r['win_share']:.3f} | [{r['ci_low']:.3f}, "
            f"{r['ci_high']:.3f}] | {verdict} | {r['mean_score']:.2f} | {r['rating_mu']:.2f} | "
            f"{r['rating_sigma']:.2f} | {r['rating_ordinal']:.2f} | {r['sec_per_move']:.4f} |"
        )
    if result.paired is not None:
        lines += paired_markdown(result)
    return "\n".join(lines) + "\n"


def _ci(d: dict, digits: int = 3) -> str:
    return format_interval(d, digits)


def _number(x: float, spec: str, suffix: str = "") -> str:
    """``x`` formatted, or ``n/a`` where it could not be estimated (too few boards, no spread)."""
    return "n/a" if x is None or math.isnan(x) else f"{x:{spec}}{suffix}"


def paired_markdown(result: ArenaResult) -> list[str]:
    """The duplicate run's paired statistics (``agents/duplicate.py``) as markdown lines."""
    p = result.paired
    lines = [
        "",
        "## Paired over boards (duplicate)",
        "",
        (
            f"- {p['boards']} boards, {p['games']} games; each board is one deal in every seating "
            "with the same chance events; intervals are 95% t intervals over board means, none "
            f"from fewer than {MIN_BOARDS} boards, Wilson score intervals where the boards show "
            "no spread"
        ),
        "- ratings: openskill with each board one game (board win share, then board score)",
        "",
        "| agent | boards | win share [95% CI] | mean score [95% CI] | rating mu | sigma |",
        "|---|---:|---|---|---:|---:|",
    ]
    for r in p["agents"]:
        lines.append(
            f"| {r['agent']} | {r['boards']} | {_ci(r['win_share'])} | "
            f"{_ci(r['mean_score'], 2)} | {r['rating_mu']:.2f} | {r['rating_sigma']:.2f} |"
        )
    if p["pairs"]:
        lines += [
            "",
            (
                "| A vs B | boards | games | A ahead of B [95% CI] | score A-B paired [95% CI] | "
                "unpaired half-width | variance reduction |"
            ),
            "|---|---:|---:|---|---|---:|---:|",
        ]
        for q in p["pairs"]:
            lines.append(
                f"| {q['a']} vs {q['b']} | {q['boards']} | {q['games']} | "
                f"{_ci(q['ahead_share'])} | {_ci(q['score_diff'], 2)} | "
                f"{_number(q['score_diff_unpaired']['half_width'], '.2f')} | "
                f"{_number(q['variance_reduction'], '.2f', 'x')} |"
            )
    st = result.stopping
    if st is not None:
        lo, hi = st["ahead_share_sequence"]
        verdict = (
            f"separated after board {st['stopped_at_board']}: {st['leader']} ahead"
            if st["separated"]
            else "not separated within the games allowed"
        )
        lines += [
            "",
            (
                f"- until separated ({st['a']}, {st['b']}): {verdict}; {st['boards_used']} boards "
                f"judged; {st['a']}'s ahead-of share confidence sequence [{lo:.3f}, {hi:.3f}] "
                f"(level {1 - st['alpha']:.0%}: {st['method']})"
            ),
        ]
    return lines


def print_paired(result: ArenaResult) -> None:
    """The paired statistics of a duplicate run, as plain lines."""
    for line in paired_markdown(result)[1:]:
        print(line)


def print_summary(result: ArenaResult, console=None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    title = f"{result.game_name}, {result.num_players} players, {len(result.records)} games"
    if result.interrupted:
        title += " (interrupted)"
    table = Table(title=title)
    for col, just in [
        ("agent", "left"),
        ("seats", "right"),
        ("win share", "right"),
        ("95% CI", "center"),
        ("1/P", "right"),
        ("score", "right"),
        ("rating", "right"),
    ]:
        table.add_column(col, justify=just)
    for r in result.summary:
        table.add_row(
            r["agent"],
            str(r["seat_games"]),
            f"{r['win_share']:.3f}",
            f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]",
            f"{r['uniform']:.3f}",
            f"{r['mean_score']:.2f}",
            f"{r['rating_mu']:.1f}±{r['rating_sigma']:.1f}",
        )
    console.print(table)


def plot_win_share(summary: list[dict], title: str, path: Path) -> None:
    """The win-share chart. matplotlib is the agents extra's, not the base install's: without it
    the results are written all the same and one line says how to get the chart."""
    try:
        import matplotlib
    except ImportError:
        print(
            f"{path} not drawn: it needs matplotlib (pip install 'deckzoo[agents]')",
            file=sys.stderr,
        )
        return

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [r["agent"] for r in summary]
    share = np.array([r["win_share"] for r in summary])
    lo = np.maximum(share - np.array([r["ci_low"] for r in summary]), 0.0)
    hi = np.maximum(np.array([r["ci_high"] for r in summary]) - share, 0.0)
    fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(labels) + 2), 3.5))
    ax.bar(range(len(labels)), share, yerr=[lo, hi], capsize=6, color="#4c72b0")
    if summary:
        ax.axhline(summary[0]["uniform"], color="#c44e52", linestyle="--", label="uniform 1/P")
        ax.legend(loc="upper right")
    ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win share (95% CI)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


RESULT_FILES = ("games.csv", "games.json", "summary.json", "summary.md", "win_share.png")


def check_out_dir(out: str | Path, force: bool = False) -> Path:
    """The results folder, if usable: not a file, not holding earlier results unless ``force``."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"arena: --out {str(out)!r} is a file; give a folder for the results")
    earlier = [f for f in RESULT_FILES if (out / f).exists()]
    if earlier and not force:
        raise ConfigError(
            f"arena: --out {str(out)!r} already holds results "
            f"({', '.join(earlier)}); choose another folder or pass --force to "
            "overwrite them"
        )
    return out


def _csv_header(num_players: int) -> list[str]:
    return (
        ["index", "seed"]
        + [f"seat_{s}" for s in range(num_players)]
        + [f"score_{s}" for s in range(num_players)]
        + ["winners", "steps", "seconds"]
    )


def _csv_row(r: dict) -> list:
    return [
        r["index"],
        r["seed"],
        *r["seats"],
        *r["scores"],
        ";".join(map(str, r["winners"])),
        r["steps"],
        f"{r['seconds']:.4f}",
    ]


class ResultsWriter:
    """The ``--out`` folder of a run in progress. Created and written to before the first game
    (``ConfigError`` in one line if it cannot be, instead of a traceback after the last game), and
    ``add`` appends each finished game to games.csv at once (in the order games finish), so a run
    stopped by any means, ``kill -9`` included, leaves its finished games. ``write_results``
    rewrites every file from the run's result at the end, games.csv in game order.

    Earlier results in the folder (allowed by ``force``) are removed first, so that a run that
    dies never leaves its games beside an older run's summary."""

    def __init__(self, out: str | Path, num_players: int, force: bool = False):
        self.out = check_out_dir(out, force)
        self.failed: str | None = None
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            for name in RESULT_FILES:
                (self.out / name).unlink(missing_ok=True)
            self._file = open(self.out / "games.csv", "w", newline="")  # noqa: SIM115 - see close
            self._csv = csv.writer(self._file)
            self._csv.writerow(_csv_header(num_players))
            self._file.flush()
        except OSError as e:
            raise ConfigError(
                f"arena: --out {str(out)!r} cannot be created or written ({_why(e)}); "
                "give a folder you can write to"
            ) from None

    def add(self, record: dict) -> None:
        """Append one finished game. A failure (a full disk) is said once and does not stop the
        run: its games are still in memory, and written at the end if the disk allows."""
        if self.failed is not None:
            return
        try:
            self._csv.writerow(_csv_row(record))
            self._file.flush()
        except OSError as e:
            self.failed = _why(e)
            print(
                f"arena: cannot append to {self.out / 'games.csv'}: {self.failed}", file=sys.stderr
            )

    def close(self) -> None:
        try:
            self._file.close()
        except OSError:
            pass  # the final write_results reports what is wrong with the folder


def _why(e: OSError) -> str:
    return e.strerror or str(e)


def _atomic_text(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all: a run killed while writing its results keeps the
    games.csv appended so far rather than a truncated one."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, newline="" if path.suffix == ".csv" else None)
    os.replace(tmp, path)


def write_results(result: ArenaResult, out: str | Path) -> Path:
    """Every result file of ``result`` in ``out`` (created if needed), each replaced whole."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    n = result.num_players
    table = io.StringIO(newline="")
    w = csv.writer(table)
    w.writerow(_csv_header(n))
    for r in result.records:
        w.writerow(_csv_row(r))
    _atomic_text(out / "games.csv", table.getvalue())
    _atomic_text(
        out / "games.json",
        json.dumps({"config": asdict(result.config), "records": result.records}, indent=1),
    )
    _atomic_text(out / "summary.json", json.dumps(result.to_dict(), indent=1))
    _atomic_text(out / "summary.md", summary_markdown(result))
    if result.summary:
        plot_win_share(
            result.summary,
            f"{result.game_name}, {n} players, {len(result.records)} games",
            out / "win_share.png",
        )
    return out


__all__ = [
    "ArenaConfig",
    "ArenaResult",
    "ResultsWriter",
    "board_size",
    "check_arena",
    "check_out_dir",
    "comparable",
    "game_tasks",
    "paired_markdown",
    "parse_agents",
    "play_task",
    "print_paired",
    "print_summary",
    "run_arena",
    "schedule",
    "schedule_length",
    "stop_signals",
    "summary_markdown",
    "write_results",
]
