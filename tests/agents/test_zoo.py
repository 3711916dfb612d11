"""The zoo: reference policy files, one per game that has one, loaded as an agent without running
code from it. Every game of the registry is checked; one without a policy is skipped, named."""

import json
import zipfile

import numpy as np
import pytest

import deckzoo.agents
import deckzoo.envs as E
from deckzoo.agents import zoo
from deckzoo.agents.registry import make_agent
from deckzoo.envs.core.errors import ConfigError

GAMES = sorted(E.GAMES)
SHIPPED = zoo.available()  # the games with a zoo policy


def needs_policy(game: str) -> None:
    if game not in SHIPPED:
        pytest.skip(f"{game} has no zoo policy yet (agents/zoo/{game}.npz; docs/agents.md)")


def test_every_policy_is_for_a_game():
    assert set(SHIPPED) <= set(GAMES) and len(SHIPPED) >= 2


@pytest.mark.parametrize("game", GAMES)
def test_a_zoo_policy_plays_its_game(game):
    needs_policy(game)
    agent = deckzoo.agents.load(f"zoo:{game}", seed=1)
    assert isinstance(agent, zoo.ZooAgent)
    state = E.game_class(game)().new_state(3)
    for _ in range(30):  # legal moves from the policy's own play
        if state.is_terminal():
            break
        p = state.current_player
        a = agent.act(state.for_player(p))
        assert state.legal_mask()[a]
        state.apply(a)


@pytest.mark.parametrize("game", GAMES)
def test_the_file_holds_plain_arrays_and_its_provenance(game):
    needs_policy(game)
    path = zoo.path(game)
    assert path.stat().st_size < 4_000_000  # small: it ships inside the package
    with np.load(path, allow_pickle=False) as z:  # no object arrays: nothing to unpickle
        assert all(z[k].dtype != object for k in z.files)
    meta = zoo.metadata(game)
    assert meta["game"] == game
    assert meta["game_config"]["num_players"] == E.game_class(game)().num_players
    assert meta["training"]["game"] == game and meta["extra"]["commands"]
    assert "run_dir" not in meta["training"]  # no path of the machine that trained it
    evaluation = {r["opponent"]: r for r in meta["extra"]["evaluation"]}
    assert set(evaluation) >= {"random", "heuristic"}
    assert all(r["mode"] == zoo.default_mode(game) and r["seed"] for r in evaluation.values())


def test_specs_and_errors():
    game = SHIPPED[0]
    assert make_agent("zoo", game).deterministic is (zoo.default_mode(game) == "greedy")
    assert make_agent("zoo:sample", game).deterministic is False
    assert make_agent(f"zoo:{game}:sample", game).deterministic is False
    assert make_agent(f"zoo:{game}:greedy", game).deterministic is True
    other = SHIPPED[1]
    with pytest.raises(ConfigError, match=other):
        make_agent(f"zoo:{other}", game)
    with pytest.raises(ConfigError, match="mode"):
        make_agent(f"zoo:{game}:loud", game)
    with pytest.raises(ConfigError, match="needs the game"):
        deckzoo.agents.load("heuristic")
    assert deckzoo.agents.load("heuristic", game).act  # any spec with its game


def test_a_pickle_in_a_policy_file_is_refused(tmp_path):
    """A file with a pickled object where the arrays should be is not loaded (nothing runs)."""
    bad = tmp_path / "bad.npz"
    with zipfile.ZipFile(zoo.path(SHIPPED[0])) as src, zipfile.ZipFile(bad, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, src.read(name))
        buf = __import__("io").BytesIO()
        np.save(buf, np.array([{"evil": 1}], dtype=object), allow_pickle=True)
        dst.writestr("extra.npy", buf.getvalue())
    from deckzoo.agents.policy import load_policy

    with pytest.raises(ConfigError):
        load_policy(bad)


def test_install_records_the_metadata(tmp_path, monkeypatch):
    monkeypatch.setattr(zoo, "FOLDER", tmp_path)
    zoo._load.cache_clear()
    try:
        from deckzoo.agents.policy import save_policy

        save_policy(tmp_path / "run.npz", _tiny_weights(E.game_class(GAMES[0])()), game=GAMES[0])
        assert (
            zoo.install(tmp_path / "run.npz", GAMES[0], training={"game": GAMES[0]}, commands=["x"])
            == tmp_path / f"{GAMES[0]}.npz"
        )
        meta = zoo.metadata(GAMES[0])
        assert meta["extra"]["commands"] == ["x"] and meta["training"] == {"game": GAMES[0]}
        assert json.loads(json.dumps(meta)) == meta
        with pytest.raises(ConfigError, match="not"):
            zoo.install(tmp_path / "run.npz", GAMES[1])
    finally:
        zoo._load.cache_clear()


def _tiny_weights(game):
    from deckzoo.agents.policy import PolicyWeights

    rng = np.random.default_rng(0)
    d, a = game.observation_shape[0], game.num_actions
    return PolicyWeights(
        hidden=[(rng.normal(size=(d, 4)).astype(np.float32), np.zeros(4, np.float32))],
        head=(rng.normal(size=(4, a)).astype(np.float32), np.zeros(a, np.float32)),
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_zoo_policy_at_another_player_count_is_refused_when_made(game):
    """The policy plays the table it was trained for; at another player count the observation
    differs, and making the agent for that table fails at once, naming both counts."""
    needs_policy(game)
    cls = E.game_class(game)
    trained = zoo.metadata(game)["game_config"]["num_players"]
    assert make_agent(f"zoo:{game}", game, 0, game=cls(trained)).act  # its own table
    other = next(n for n in cls.supported_players() if n != trained)
    with pytest.raises(ConfigError) as err:
        make_agent(f"zoo:{game}", game, 0, game=cls(other))
    text = str(err.value)
    assert "\n" not in text and text.startswith(f"zoo:{game}: ")
    assert f"at {trained} players" in text and f"this table has {other} players" in text


def test_the_arena_refuses_a_zoo_policy_at_another_player_count_before_any_game(monkeypatch):
    from deckzoo.agents.evaluation import arena
    from deckzoo.agents.evaluation.config import ArenaConfig

    game = "wizard" if "wizard" in SHIPPED else SHIPPED[0]
    other = 5 if game == "wizard" else 3

    def no_game(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(arena, "play_task", no_game)
    cfg = ArenaConfig(game, [f"zoo:{game}", "random"], games=2, players=other)
    with pytest.raises(ConfigError, match=f"this table has {other} players"):
        arena.run_arena(cfg)
