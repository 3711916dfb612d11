"""The arena's ``ray`` backend: its game tasks as Ray tasks, on one machine or a cluster.

``run_arena(ArenaConfig(..., backend="ray", address=...))`` (``deckzoo arena ... --backend ray``)
cuts the arena's task list (``tasks.game_tasks``) into batches of ``BATCH`` games and runs each
batch as one Ray task that calls ``arena.play_task`` on its games. A batch amortises Ray's cost
per task (about a millisecond) over games that take a few milliseconds each. The records are the
local arena's, record for record: every game carries its own seeds, so which node plays it, in
which order, or how often (a task lost with its node is run again by Ray) does not matter.
Duplicate boards are the unit of work: a batch holds whole boards (``board_batch``). Where the
arena plays on the batched engine, a Ray task plays one of its chunks (``arena.task_chunks``), so
the records are the local batched arena's too.

Files named by agent specs (``ppo:runs/gobig/policy.npz``) are read here, put into Ray's object
store once, and written on each node that plays a game (``ray_cluster.localize``); the specs in
the records stay as given. Batches are submitted a few per CPU ahead, and results are taken as
they finish, so the progress bar moves and Ctrl-C (which cancels the tasks still running)
keeps every finished game, as in the local arena.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from ..ray_cluster import connect, localize, read_files, require_ray, rewrite_spec, spec_files
from ..registry import make_agent
from .arena import play_task
from .config import ArenaConfig

BATCH = 25  # games per Ray task
AHEAD = 2  # batches in flight per CPU of the cluster
POLL_SECONDS = 0.5  # how often the driver wakes up while waiting (so that Ctrl-C is prompt)

_REMOTE = None


def play_batch(
    tasks: list[dict],
    files: dict[str, bytes],
    batched: bool = False,
    seed: int = 0,
    batch_size: int = 1024,
) -> tuple[list[dict], str]:
    """Play ``tasks`` on this node (on the batched engine with ``batched``); returns their
    records and the node's id."""
    import ray

    local = localize(files) if files else {}
    if batched:
        from .arena import play_batched_tasks

        def where(spec):
            return rewrite_spec(spec, local)

        records = list(play_batched_tasks(tasks, batch_size, seed, local_spec=where))
        return records, ray.get_runtime_context().get_node_id()

    def make(spec, game_name, seed):
        return make_agent(rewrite_spec(spec, local), game_name, seed)

    return [play_task(t, make) for t in tasks], ray.get_runtime_context().get_node_id()


def _remote():
    global _REMOTE
    if _REMOTE is None:
        ray = require_ray()
        # max_retries: a task whose node or worker dies is run again elsewhere (system failures
        # only: an exception in a game is an error, not retried)
        _REMOTE = ray.remote(num_cpus=1, max_retries=5)(play_batch)
    return _REMOTE


def batches(tasks: list[dict], size: int = BATCH) -> list[list[dict]]:
    return [tasks[i : i + size] for i in range(0, len(tasks), size)]


def ray_batches(
    tasks: list[dict], cfg: ArenaConfig, size: int = BATCH, batched: bool = False
) -> Iterator[tuple[list[dict], str]]:
    """``(records, node id)`` of each batch as it finishes; closing the generator (or Ctrl-C
    while it waits) cancels the batches still queued or running."""
    ray = require_ray()
    connect(cfg.address, num_cpus=cfg.workers)
    specs = sorted({s for t in tasks for s in t["specs"]})
    files = ray.put(read_files(spec_files(specs)))
    fn = _remote()
    ahead = AHEAD * max(1, int(ray.cluster_resources().get("CPU", 1)))
    todo = iter(batches(tasks, size))
    args = (files, batched, cfg.seed, cfg.batch_size)
    pending = [fn.remote(b, *args) for b in itertools.islice(todo, ahead)]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=POLL_SECONDS)
            for ref in done:
                nxt = next(todo, None)
                if nxt is not None:
                    pending.append(fn.remote(nxt, *args))
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def board_batch(board_size: int, size: int = BATCH) -> int:
    """A batch of whole duplicate boards (the unit of work): the most that fit ``size`` games,
    at least one."""
    return board_size * max(1, size // board_size)


def ray_records(
    tasks: list[dict], cfg: ArenaConfig, size: int | None = None, batched: bool = False
) -> Iterator[dict]:
    """The records of ``tasks`` played on Ray (in the order batches finish), on the batched
    engine with ``batched``. Duplicate boards are never split between batches
    (``board_batch``)."""
    if batched:  # the local batched arena's chunks, so the records are the same
        from .arena import task_chunks

        chunks = task_chunks(tasks, cfg)
        size = len(chunks[0]) if chunks else 1
    elif size is None:
        size = BATCH
    boards = {}
    for t in tasks:
        if "board" in t:
            boards[t["board"]] = boards.get(t["board"], 0) + 1
    if boards:
        size = board_batch(max(boards.values()), size)
    gen = ray_batches(tasks, cfg, size, batched)
    try:
        for records, _ in gen:
            yield from records
    finally:
        gen.close()


__all__ = ["BATCH", "batches", "board_batch", "play_batch", "ray_batches", "ray_records"]
