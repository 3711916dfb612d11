"""The arena's games played many at a time: on a batched engine, or on scalar lanes.

``play_batched(tasks, game, ...)`` plays the arena's tasks (``game_tasks``: one dict a game,
with its deal seed, line-up, seating and agent seeds) in ``batch_size`` lanes and yields one
record a game as games finish, in the schema of the scalar ``play_task``. A lane that finishes
a game starts the next task at once. Every decision of a step is taken per agent spec over all
the lanes where that spec is to act: one forward pass of a policy, one call of a heuristic's
batched twin. On scalar lanes (a game without a batched engine), agents without a batched form
act as their scalar selves in their own lanes, created from the task's seeds as ``play_task``
creates them, so they make the same moves.

Timings: a batched call's seconds are shared equally by the rows it decided, so a record's
``think_seconds`` says what its agents cost per game in this run (not what one scalar decision
costs); ``think_cpu_seconds`` repeats them (``_Book.charge``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

import numpy as np

from deckzoo.envs.core.batched import win_returns
from deckzoo.envs.core.errors import ConfigError

from ..registry import make_agent
from .forms import batched_form, decision_keys
from .lanes import ScalarLanes, SeededChance

DEFAULT_BATCH = 1024


def has_batched_engine(game) -> bool:
    """Whether ``game`` (with its options) plays on its batched engine: a game without one, or a
    configuration its engine refuses (a small variant's deck), plays on scalar lanes."""
    from deckzoo.envs import vector

    return vector.refusal(game) is None


ENGINES = ("auto", "scalar", "batched")


def choose_engine(game, specs: list[str], requested: str = "auto", forms: dict | None = None):
    """``(engine, why)``: where a line-up of ``specs`` plays, ``"batched"`` or ``"scalar"``.

    ``auto`` takes the batched engine when every agent has a batched form; a game without a
    batched engine plays on scalar lanes when at least one agent has one (its rows are decided
    across lanes; the others act in their lanes). ``batched`` insists, refusing in one line an
    agent that has no batched form where a batched engine needs one; ``scalar`` plays one game at
    a time (``play_task``)."""
    if requested not in ENGINES:
        raise ConfigError(f"arena: 'engine' must be one of {', '.join(ENGINES)}, got {requested!r}")
    if requested == "scalar":
        return "scalar", "asked for"
    given = forms or {}
    name = type(game).name
    engine = has_batched_engine(game)
    missing = [
        s
        for s in dict.fromkeys(specs)
        if s not in given and batched_form(s, name, engine=engine) is None
    ]
    if engine:
        if not missing:
            return "batched", f"every agent has a batched form on {game.name}'s batched engine"
        if requested == "batched":
            raise ConfigError(
                f"arena: agent {missing[0]!r} has no batched form, so it cannot play on "
                f"{game.name}'s batched engine (engine 'auto' or 'scalar' plays it)"
            )
        return "scalar", f"agent {missing[0]!r} has no batched form"
    from deckzoo.envs import vector

    why = vector.refusal(game)  # "<game> has no batched engine", or the option it refuses
    if len(missing) < len(set(specs)):
        return "batched", (
            f"{why}: scalar lanes, with the batched agents' moves decided across lanes"
        )
    if requested == "batched":
        raise ConfigError(
            f"arena: no agent of this line-up has a batched form and {why}: nothing to batch "
            "(engine 'auto' or 'scalar')"
        )
    return "scalar", f"{why} and no agent has a batched form"


def _make_engine(game, lanes: int, assign, seed: int):
    """The batched engine of ``game`` with its seeded chance hook, or scalar lanes."""
    if not has_batched_engine(game):
        return ScalarLanes(game, lanes, assign), None
    from deckzoo.envs import vector

    cls = vector.engine_class(type(game).env_name())
    for key, why in cls.UNSUPPORTED.items():
        default = type(game)(game.num_players).options.get(key)
        if game.options.get(key) != default:
            raise ConfigError(f"{game.name} (batched): option {key!r} is not supported: {why}")
    engine = cls(game, lanes, np.random.default_rng(seed))
    chance = SeededChance(engine, game, assign)
    engine.chance = chance
    return engine, chance


class _Book:
    """Per-lane bookkeeping of the games in progress."""

    def __init__(self, lanes: int, n: int):
        self.task: list[dict | None] = [None] * lanes
        self.form = np.full((lanes, n), -1, dtype=np.int64)  # form index per seat; -1: scalar
        self.steps = np.zeros(lanes, dtype=np.int64)
        self.decisions = np.zeros((lanes, n), dtype=np.int64)
        self.think = np.zeros((lanes, n))
        self.longest = np.zeros((lanes, n))
        self.cpu = np.zeros((lanes, n))
        self.cpu_longest = np.zeros((lanes, n))
        self.t0 = np.zeros(lanes)
        self.actions: list[list[int] | None] = [None] * lanes
        self.agents: list[list | None] = [None] * lanes
        # per lane: seat -> the generator its scalar agent breaks ties with
        self.tie_rngs: list[dict[int, np.random.Generator]] = [{} for _ in range(lanes)]
        self.seeds = np.zeros((lanes, n), dtype=np.uint64)  # each seat's agent seed

    def tie_breaker(self, lanes: np.ndarray, seats: np.ndarray):
        """``ties(rows, top)`` for a batched form: each row's tie broken as its scalar agent
        would, ``rng.choice`` over the tied actions in increasing order, with the generator the
        scalar agent gets from the task's seed for that seat (made at its first tie, since the
        scalar agent draws nothing else)."""

        def ties(rows: np.ndarray, top: np.ndarray) -> np.ndarray:
            out = np.empty(len(rows), dtype=np.int64)
            for i, r in enumerate(rows.tolist()):
                lane, seat = int(lanes[r]), int(seats[r])
                gen = self.tie_rngs[lane].get(seat)
                if gen is None:
                    seed = self.task[lane]["agent_seeds"][seat]
                    gen = self.tie_rngs[lane][seat] = np.random.default_rng(seed)
                out[i] = int(gen.choice(np.flatnonzero(top[i])))
            return out

        return ties

    def reset(self, lane: int) -> None:
        self.tie_rngs[lane].clear()
        for a in (self.decisions, self.think, self.longest, self.cpu, self.cpu_longest):
            a[lane] = 0
        self.steps[lane] = 0
        self.t0[lane] = time.perf_counter()

    def charge(self, lanes, seats, wall: float) -> None:
        """Share one call's seconds among the rows it decided. Its CPU seconds are taken to be
        its wall seconds: one process, no waiting, and a read of the CPU clock cost about half a
        millisecond here, as much as the decisions of a step."""
        k = len(lanes)
        w = c = wall / k
        self.think[lanes, seats] += w
        self.cpu[lanes, seats] += c
        np.maximum.at(self.longest, (lanes, seats), w)
        np.maximum.at(self.cpu_longest, (lanes, seats), c)


def play_batched(
    tasks: Iterable[dict],
    game,
    batch_size: int = DEFAULT_BATCH,
    seed: int = 0,
    forms: dict | None = None,
) -> Iterator[dict]:
    """Play ``tasks`` (all of one game configuration, ``game``) and yield their records as the
    games end. ``seed`` seeds the batched forms' generators (their random draws). ``forms`` gives
    the ``BatchedForm`` of specs that are not registry specs (a trainer's learner in memory)."""
    tasks = list(tasks)
    if not tasks:
        return
    name = type(game).name
    given = forms or {}
    specs = sorted({s for t in tasks for s in t["specs"]})
    batched_engine = has_batched_engine(game)
    forms = {
        s: given[s] if s in given else batched_form(s, name, engine=batched_engine) for s in specs
    }
    missing = [s for s, f in forms.items() if f is None]
    if batched_engine and missing:
        raise ConfigError(
            f"arena: agent {missing[0]!r} has no batched form, so it cannot play on "
            f"{game.name}'s batched engine (use engine 'scalar' or 'auto')"
        )
    order = [s for s in specs if forms[s] is not None]
    index = {s: i for i, s in enumerate(order)}
    deciders = [forms[s].decide for s in order]
    scalar_ties = [forms[s].scalar_ties for s in order]
    keyed = [forms[s].keyed for s in order]
    rngs = [np.random.default_rng([seed, i]) for i in range(len(order))]
    _check_sizes(forms, game)

    n = game.num_players
    lanes_n = max(1, min(int(batch_size), len(tasks)))
    book = _Book(lanes_n, n)
    queue = iter(tasks)

    def assign(lane: int) -> dict | None:
        task = next(queue, None)
        book.task[lane] = task
        if task is not None:
            book.reset(lane)
            book.form[lane] = [index.get(s, -1) for s in task["specs"]]
            book.seeds[lane] = np.array(task["agent_seeds"], dtype=np.uint64)
            book.actions[lane] = [] if task.get("save") else None
            if not batched_engine:
                book.agents[lane] = [
                    None if index.get(s, -1) >= 0 else make_agent(s, name, sd)
                    for s, sd in zip(task["specs"], task["agent_seeds"])
                ]
        return task

    engine, chance = _make_engine(game, lanes_n, assign, seed)
    yield from _start(engine, book, np.arange(lanes_n))
    limit = game.max_game_length
    while True:
        live = np.array([t is not None for t in book.task])
        lanes = np.flatnonzero(live)
        if not len(lanes):
            return
        mask = engine.legal_mask()[lanes]
        seats = engine.cur[lanes]
        actions = _decide(engine, lanes, seats, mask, book, (deciders, scalar_ties, keyed, rngs))
        if chance is not None:
            chance.before_apply(lanes, actions)
        engine.apply(lanes, actions)
        book.steps[lanes] += 1
        book.decisions[lanes, seats] += 1
        for lane, a in zip(lanes.tolist(), actions.tolist()):
            if book.actions[lane] is not None:
                book.actions[lane].append(int(a))
        if (book.steps[lanes] > limit).any():
            lane = int(lanes[book.steps[lanes] > limit][0])
            raise RuntimeError(
                f"game with seed {book.task[lane]['seed']} exceeded max_game_length {limit}"
            )
        ended = lanes[engine.cur[lanes] < 0]
        if len(ended):
            yield from _records(engine, book, ended)
            yield from _start(engine, book, ended)


def _start(engine, book: _Book, lanes: np.ndarray) -> Iterator[dict]:
    """Start the next games in ``lanes``; a game over at its deal (BigWig can deal all four
    holmgang cards first) is recorded at once, with no step, as the scalar arena records it, and
    its lane starts the next."""
    while len(lanes):
        engine.start(lanes)
        over = [
            lane for lane in lanes.tolist() if book.task[lane] is not None and engine.cur[lane] < 0
        ]
        lanes = np.array(over, dtype=np.int64)
        if len(lanes):
            yield from _records(engine, book, lanes)


def _check_sizes(forms: dict, game) -> None:
    """A policy for another game or table size is refused before any game starts."""
    obs = int(np.prod(game.observation_shape))
    for spec, form in forms.items():
        rows = getattr(form, "decide", None)
        weights = getattr(rows, "weights", None)
        if weights is not None and weights.obs_size != obs:
            raise ConfigError(
                f"arena: {spec!r} takes observations of size {weights.obs_size}, {game.name} at "
                f"{game.num_players} players gives {obs} (trained for another table or options?)"
            )


def _decide(engine, lanes, seats, mask, book: _Book, forms) -> np.ndarray:
    """Every lane's action: per batched form over its rows, per scalar agent in its lane. A row
    with one legal action takes it without asking a batched form (what any agent would do)."""
    deciders, scalar_ties, keyed, rngs = forms
    actions = mask.argmax(axis=1)
    kinds = book.form[lanes, seats]
    forced = mask.sum(axis=1) == 1
    clock = time.perf_counter
    for k in np.unique(kinds).tolist():
        rows = np.flatnonzero(kinds == k)
        if k < 0:  # scalar agents, timed as one group (a clock read costs more than a move)
            t0 = clock()
            for r in rows.tolist():
                lane, p = int(lanes[r]), int(seats[r])
                actions[r] = book.agents[lane][p].act(engine.states[lane].for_player(p))
            book.charge(lanes[rows], seats[rows], clock() - t0)
            continue
        ask = rows[~forced[rows]]
        if len(ask):
            t0 = clock()
            extra = {}
            if scalar_ties[k]:
                extra["ties"] = book.tie_breaker(lanes[ask], seats[ask])
            if keyed[k]:
                extra["keys"] = decision_keys(
                    book.seeds[lanes[ask], seats[ask]], book.decisions[lanes[ask], seats[ask]]
                )
            actions[ask] = deciders[k](engine, lanes[ask], mask[ask], rngs[k], **extra)
            book.charge(lanes[ask], seats[ask], clock() - t0)
    return actions


def _records(engine, book: _Book, ended: np.ndarray) -> Iterator[dict]:
    scores = np.asarray(engine.scores(ended))
    cut = engine.truncated(ended) if hasattr(engine, "truncated") else np.zeros(len(ended), bool)
    winners = np.asarray(engine.winners(ended), dtype=bool)
    returns = win_returns(winners)  # State.returns, row by row
    now = time.perf_counter()
    for i, lane in enumerate(ended.tolist()):
        task = book.task[lane]
        win = np.flatnonzero(winners[i]).tolist()
        rec = {"index": task["index"]}
        if "board" in task:
            rec.update(board=task["board"], keyed_chance=bool(task.get("keyed_chance")))
        rec.update(
            seed=task["seed"],
            seats=task["seats"],
            specs=task["specs"],
            scores=scores[i].tolist(),
            winners=win,
            returns=returns[i].tolist(),
            steps=int(book.steps[lane]),
            decisions=book.decisions[lane].tolist(),
            think_seconds=book.think[lane].tolist(),
            max_think_seconds=book.longest[lane].tolist(),
            think_cpu_seconds=book.cpu[lane].tolist(),
            max_think_cpu_seconds=book.cpu_longest[lane].tolist(),
            seconds=now - book.t0[lane],
            truncated=bool(cut[i]),
        )
        if book.actions[lane] is not None:
            rec.update(actions=book.actions[lane], agent_seeds=task["agent_seeds"])
        yield rec


__all__ = [
    "DEFAULT_BATCH",
    "ENGINES",
    "choose_engine",
    "has_batched_engine",
    "play_batched",
]
