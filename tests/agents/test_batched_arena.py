"""The batched arena plays the scalar arena's games: the same records for deterministic line-ups,
the same distribution for stochastic ones, and a clear line where a line-up cannot be batched."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from deckzoo.agents.evaluation.arena import play_task, run_arena
from deckzoo.agents.evaluation.batched import choose_engine, play_batched
from deckzoo.agents.evaluation.config import ArenaConfig
from deckzoo.agents.evaluation.stats import win_credit
from deckzoo.agents.evaluation.tasks import comparable, game_tasks, resolve_game
from deckzoo.envs.core.errors import ConfigError


def _run(game: str, agents: list[str], games: int, batch: int = 16, seed: int = 5, **kw):
    cfg = ArenaConfig(game=game, agents=agents, games=games, players=4, seed=seed, **kw)
    g = resolve_game(cfg)
    tasks = game_tasks(cfg, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a zoo policy of another version says so once; not here
        scalar = [play_task(t) for t in tasks]
        batched = sorted(play_batched(tasks, g, batch_size=batch), key=lambda r: r["index"])
    return scalar, batched


def _same(scalar: list[dict], batched: list[dict]) -> None:
    assert [r["index"] for r in batched] == [r["index"] for r in scalar]
    for a, b in zip(scalar, batched):
        assert set(a) == set(b), f"game {a['index']}: the records' fields differ"
        assert comparable(a) == comparable(b), f"game {a['index']} differs"


@pytest.mark.parametrize(
    "game,agents,games",
    [
        ("gobig", ["zoo:gobig", "heuristic"], 64),
        ("bignumber", ["zoo:bignumber", "heuristic"], 64),
        ("wizard", ["zoo:wizard", "heuristic"], 32),
        ("bigwig", ["zoo:bigwig"], 16),  # four greedy policies
        # scalar lanes; a greedy policy can cycle through cancellable decisions until the cap,
        # so a low cap keeps the games short (cut-off games are records too)
        ("midgard", ["zoo:midgard:greedy", "heuristic"], 6),
    ],
)
def test_deterministic_line_ups_give_the_scalar_records_game_by_game(game, agents, games):
    options = {"max_decisions": 300} if game == "midgard" else {}
    scalar, batched = _run(game, agents, games, options=options)
    _same(scalar, batched)


def test_ties_of_the_go_big_heuristic_are_broken_as_the_scalar_agent_breaks_them():
    """The Go Big heuristic breaks ties with its seat's generator: the batched run must use the
    same generator the same way, or some games differ (one in 64 did before)."""
    scalar, batched = _run("gobig", ["heuristic"], 128, batch=32, seed=11)
    _same(scalar, batched)


def test_saved_games_keep_their_actions_and_replay():
    cfg = ArenaConfig(game="wizard", agents=["zoo:wizard", "heuristic"], games=8, save_games=2)
    scalar, batched = _run("wizard", ["zoo:wizard", "heuristic"], 8, save_games=2)
    kept = [r for r in batched if "actions" in r]
    assert len(kept) == 2 and kept == [r for r in batched if r["index"] in (0, 1)]
    _same(scalar, batched)
    assert cfg.save_games == 2


def test_duplicate_boards_deal_each_board_once_with_keyed_chance():
    scalar, batched = _run("bigwig", ["zoo:bigwig", "heuristic"], 8, duplicate=True)
    assert all(r["keyed_chance"] for r in batched)
    assert [(r["board"], r["seed"]) for r in batched] == [(r["board"], r["seed"]) for r in scalar]


def _share(records: list[dict], label: str) -> float:
    return np.mean(
        [
            sum(win_credit(r["winners"], s) for s in range(4) if r["seats"][s] == label)
            for r in records
        ]
    )


@pytest.mark.parametrize(
    "game,games", [("gobig", 240), ("bignumber", 120), ("wizard", 80), ("bigwig", 60)]
)
def test_stochastic_line_ups_agree_in_distribution(game, games):
    """random against three heuristics: the same win share within sampling error (a two-sample
    z-test at 99.9%: the batched forms draw other numbers, from the same distributions)."""
    scalar, batched = _run(game, ["random", "heuristic"], games, batch=64)
    a, b = _share(scalar, "random"), _share(batched, "random")
    p = (a + b) / 2
    se = np.sqrt(max(p * (1 - p), 1e-3) * 2 / games)
    assert abs(a - b) <= 3.3 * se, (a, b)


def test_midgard_random_against_heuristics_plays_on_scalar_lanes():
    _, batched = _run("midgard", ["random", "heuristic"], 8, batch=4)
    assert len(batched) == 8
    assert all(len(r["decisions"]) == 4 and r["steps"] == sum(r["decisions"]) for r in batched)


def test_the_engine_choice_says_why():
    gobig = resolve_game(ArenaConfig(game="gobig", agents=["random"], players=4))
    mode, why = choose_engine(gobig, ["random", "heuristic", "zoo:gobig"])
    assert mode == "batched" and "batched" in why
    mode, why = choose_engine(gobig, ["random", "ismcts:10"])
    assert mode == "scalar" and "ismcts:10" in why
    with pytest.raises(ConfigError, match="'ismcts:10' has no batched form"):
        choose_engine(gobig, ["random", "ismcts:10"], "batched")
    midgard = resolve_game(ArenaConfig(game="midgard", agents=["random"], players=4))
    assert choose_engine(midgard, ["zoo:midgard", "heuristic"])[0] == "batched"
    assert choose_engine(midgard, ["heuristic"])[0] == "scalar"
    with pytest.raises(ConfigError, match="'engine' must be one of"):
        choose_engine(gobig, ["random"], "fast")


def test_a_policy_for_another_table_size_is_refused_before_any_game():
    cfg = ArenaConfig(game="wizard", agents=["zoo:wizard", "heuristic"], games=4, players=5)
    g = resolve_game(cfg)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ConfigError, match="observations of size"):
            list(play_batched(game_tasks(cfg, 5), g))


def test_boards_and_the_stopping_rule_reach_the_scalar_verdicts():
    base = {
        "game": "gobig",
        "agents": ["a=zoo:gobig", "b=heuristic"],
        "players": 4,
        "games": 160,
        "seed": 3,
        "duplicate": True,
        "until_separated": ("a", "b"),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scalar = run_arena(ArenaConfig(**base, engine="scalar"))
        batched = run_arena(ArenaConfig(**base, engine="batched", batch_size=32))
    assert batched.engine == "batched" and scalar.engine == "scalar"
    assert batched.stopping == scalar.stopping and batched.stopping["separated"]
    assert batched.paired == scalar.paired
    assert [comparable(r) for r in batched.records] == [comparable(r) for r in scalar.records]


def test_a_batched_run_is_the_same_whatever_the_workers():
    """Chunks, not processes, seed the batched agents' draws: random players give the same
    records on one worker or two."""
    base = {
        "game": "bignumber",
        "agents": ["random", "heuristic"],
        "games": 48,
        "seed": 4,
        "batch_size": 8,
    }
    one = run_arena(ArenaConfig(**base))
    two = run_arena(ArenaConfig(**base, workers=2))
    assert one.engine == two.engine == "batched"
    assert [comparable(r) for r in one.records] == [comparable(r) for r in two.records]


def test_batched_engine_refuses_an_agent_without_a_batched_form_in_one_line():
    with pytest.raises(ConfigError, match="'ismcts:5' has no batched form"):
        run_arena(ArenaConfig(game="gobig", agents=["ismcts:5", "random"], engine="batched"))


def test_a_game_over_at_its_deal_is_recorded_with_no_step():
    """BigWig can deal the four holmgang cards first (state seed 1241): the game is over before
    any decision. The batched arena records it as the scalar one does and its lane goes on."""
    cfg = ArenaConfig(game="bigwig", agents=["zoo:bigwig"], games=6, players=4, seed=0)
    g = resolve_game(cfg)
    tasks = game_tasks(cfg, 4)
    for t in tasks[::2]:
        t["seed"] = 1241
    assert g.new_state(1241).is_terminal()
    scalar = [play_task(t) for t in tasks]
    batched = sorted(play_batched(tasks, g, batch_size=2), key=lambda r: r["index"])
    assert [r["steps"] for r in batched][::2] == [0, 0, 0]
    _same(scalar, batched)
