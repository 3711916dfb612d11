"""The registry is the one list of games: found in the folders, loud when a folder is broken, and
everything (the envs, the ids, the tools) follows it. Checks that need a fresh interpreter (what
an import loads, registration order) run in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import deckzoo.envs as E
from deckzoo.envs import registry

from .sixth_game import CHECK, MUST_PASS, SUITE_PATHS, SUITES, write_game

ROOT = Path(__file__).resolve().parents[2]


def run_python(code: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_engines_import_with_numpy_only():
    """Every engine module (each game's package but its env.py, the registry, the protocol) loads
    no PettingZoo, Gymnasium or torch."""
    out = run_python("""
        import importlib, pkgutil, sys
        import deckzoo.envs.core.game
        from deckzoo.envs import playthrough, registry
        import deckzoo.envs.core.conformance
        for name in registry.games():
            package = importlib.import_module(f"deckzoo.envs.{name}")
            for m in pkgutil.iter_modules(package.__path__):
                if m.name != "env":
                    importlib.import_module(f"deckzoo.envs.{name}.{m.name}")
        print(sorted({m.split(".")[0] for m in sys.modules} & {"pettingzoo", "gymnasium", "torch"}))
    """)
    assert out.strip() == "[]"


def test_one_rules_module_imports_alone_with_numpy_only():
    out = run_python("""
        import sys
        import deckzoo.envs.gobig.rules
        print(sorted(m for m in sys.modules if m.startswith("deckzoo.envs.")))
        print(sorted({m.split(".")[0] for m in sys.modules} & {"pettingzoo", "gymnasium"}))
    """)
    loaded, heavy = out.strip().splitlines()
    assert heavy == "[]"
    assert "deckzoo.envs.bigwig" not in loaded  # no other game is loaded either


@pytest.mark.parametrize("first", ["deckzoo", "pettingzoo", "env_module"])
def test_pettingzoo_make_works_whichever_is_imported_first(first):
    imports = {
        "deckzoo": "import deckzoo.envs\nimport pettingzoo",
        "pettingzoo": "import pettingzoo\nimport deckzoo.envs",
        "env_module": "from deckzoo.envs import bigwig_v1\nimport pettingzoo",
    }[first]
    out = run_python(
        imports
        + """
import pettingzoo
aec = pettingzoo.make("aec", "deckzoo/gobig-v0", num_players=3)
par = pettingzoo.make("parallel", "deckzoo/bigwig-v1", num_players=3)
only_bigwig = "deckzoo/gobig-v0" not in pettingzoo.parallel_registry
print(aec.metadata["name"], par.metadata["name"], only_bigwig)
"""
    )
    assert out.split() == ["gobig_v0", "bigwig_v1", "True"]


def test_a_sixth_game_needs_only_its_folder(tmp_path):
    """A tiny game with a batched engine, copied into a temporary folder beside the others, is
    picked up by the AEC env, the Gymnasium env, the arena, the random-play harness and the
    playthrough machinery, and goes through every registry-parametrised test suite: nothing
    outside its folder names it (its facts for the suites are in its testing.py)."""
    write_game(tmp_path / "games")
    out = run_python(CHECK, str(tmp_path / "games"), str(tmp_path / "repo"))
    assert "sixth game ok" in out
    done = subprocess.run(
        [sys.executable, "-c", SUITES, str(tmp_path / "games"), *SUITE_PATHS],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    seen = json.loads(done.stdout.rpartition("OUTCOMES")[2])  # test id -> [outcome, reason]
    for path in MUST_PASS:
        ran = [result for test, result in seen.items() if test.startswith(path)]
        assert ["passed", ""] in ran, f"{path}: no test of tiny passed ({ran})"
    zoo = [result for test, result in seen.items() if test.startswith("tests/agents/test_zoo.py")]
    assert zoo and all(o == "skipped" and "tiny has no zoo policy" in why for o, why in zoo), zoo


@pytest.fixture
def extra_folder(tmp_path, monkeypatch):
    """A temporary folder that joins deckzoo/envs; the registry forgets it afterwards."""
    monkeypatch.setattr(E, "__path__", [*E.__path__, str(tmp_path)])
    registry.refresh()
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("deckzoo.envs.broken")]:
        del sys.modules[name]
    monkeypatch.undo()
    registry.refresh()


def test_a_broken_game_fails_loudly(extra_folder):
    (extra_folder / "broken").mkdir()
    (extra_folder / "broken" / "__init__.py").write_text("raise RuntimeError('a bug in the game')")
    with pytest.raises(RuntimeError, match="a bug in the game"):
        registry.games()


def test_a_folder_without_a_game_fails_loudly(extra_folder):
    (extra_folder / "broken").mkdir()
    (extra_folder / "broken" / "__init__.py").write_text('"""Not a game."""\n')
    with pytest.raises(registry.RegistryError, match="must export"):
        registry.env_names()


@pytest.mark.parametrize("name", registry.env_names())
def test_the_version_names_the_env_everywhere(name):
    game = E.game_class(name)
    assert name == f"{game.name}_v{game.version}" == game.env_name()
    assert registry.pettingzoo_id(name) == f"deckzoo/{game.name}-v{game.version}"
    assert registry.gym_id(name).endswith(f"-v{game.version}")
    assert E.make(name).metadata["name"] == name
    ids = (registry.pettingzoo_id(name), registry.gym_id(name))
    for alias in (game.name, f"{game.name}-v{game.version}", *ids):
        assert E.canonical(alias) == name
    with pytest.raises(E.ConfigError, match=f"version {game.version}"):
        E.canonical(f"{game.name}_v{game.version + 1}")


@pytest.mark.parametrize("name", registry.env_names())
def test_parallel_env_exactly_for_simultaneous_games(name):
    assert hasattr(registry.env_module(name), "parallel_env") == E.game_class(name).simultaneous


@pytest.mark.parametrize("name", registry.env_names())
def test_declared_bounds(name):
    game = E.game_class(name)(**registry.short_options(name))
    assert isinstance(game.max_game_length, int) and game.max_game_length > 0
    lo, hi = game.score_bounds
    assert lo < hi
    assert game.return_bounds("win") == (-1.0, 1.0)
    for mode in ("score", "dense"):
        low, high = game.return_bounds(mode)
        assert low == -high and high > 0
    with pytest.raises(E.ConfigError, match="reward"):
        game.return_bounds("points")
