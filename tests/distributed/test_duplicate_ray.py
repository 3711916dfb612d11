"""Duplicate boards on the Ray backend (issue #48): boards are the unit of work (a batch holds
whole boards) and the records, the paired statistics and an --until-separated stop are the local
arena's."""

from __future__ import annotations

import pytest

from deckzoo.agents.evaluation.arena import run_arena
from deckzoo.agents.evaluation.config import ArenaConfig
from deckzoo.agents.evaluation.ray_backend import batches, board_batch
from deckzoo.agents.evaluation.tasks import comparable, game_tasks

pytestmark = pytest.mark.xdist_group("ray")


def test_batches_hold_whole_boards():
    cfg = ArenaConfig(game="gobig", agents=["a=heuristic", "b=random", "c=random"], players=3,
                      games=30, duplicate=True)  # fmt: skip
    size = board_batch(3)
    assert size == 24
    for batch in batches(game_tasks(cfg), size):
        boards = [t["board"] for t in batch]
        assert all(boards.count(b) == 3 for b in set(boards))
    assert board_batch(6, size=4) == 6  # a board bigger than a batch is still one batch


@pytest.mark.parametrize("game", ["bigwig", "midgard"])
def test_ray_board_records_equal_local_records(cluster, game):
    options = {"max_turns": 8} if game == "midgard" else {}
    cfg = ArenaConfig(game=game, agents=["heuristic", "random"], players=3, games=12, seed=4,
                      duplicate=True, options=options)  # fmt: skip
    local = run_arena(cfg)
    remote = run_arena(ArenaConfig(**{**cfg.__dict__, "backend": "ray"}))
    assert [comparable(r) for r in remote.records] == [comparable(r) for r in local.records]
    assert remote.paired == local.paired


def test_ray_until_separated_stops_where_the_local_arena_does(cluster):
    cfg = ArenaConfig(game="gobig", agents=["a=heuristic", "b=random"], players=2, games=200,
                      duplicate=True, until_separated=("a", "b"), seed=1)  # fmt: skip
    local = run_arena(cfg)
    remote = run_arena(ArenaConfig(**{**cfg.__dict__, "backend": "ray"}))
    assert remote.stopping == local.stopping and remote.stopping["separated"]
    assert [comparable(r) for r in remote.records] == [comparable(r) for r in local.records]
