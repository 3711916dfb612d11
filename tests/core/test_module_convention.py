"""PettingZoo's module convention: every current env name is a module of ``deckzoo.envs``, in
each form tools and tutorials use (``import deckzoo.envs.gobig_v0``,
``importlib.import_module("deckzoo.envs.gobig_v0")``, ``from deckzoo.envs import gobig_v0``), and
another version of a game fails to import with a message naming the current one. The names come
from the registry, so a version bump or a sixth game folder follows with no edit."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import deckzoo.envs as E
from deckzoo.envs import registry

from .sixth_game import FILES

ENV_NAMES = registry.env_names()
README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.parametrize("name", ENV_NAMES)
def test_each_env_name_imports_in_every_form_as_the_games_env_module(name):
    module = registry.env_module(name)
    assert importlib.import_module(f"deckzoo.envs.{name}") is module
    namespace: dict = {}
    statements = f"import deckzoo.envs.{name}\nfrom deckzoo.envs import {name} as imported"
    exec(statements, namespace)  # noqa: S102 (the statements are under test; registry names)
    assert getattr(namespace["deckzoo"].envs, name) is module is namespace["imported"]
    assert module.__spec__.name == module.__name__ == f"deckzoo.envs.{E.game_class(name).name}.env"
    env = module.env()
    assert env.metadata["name"] == name


def test_the_import_statement_works_first_thing_in_a_fresh_interpreter():
    lines = [f"import deckzoo.envs.{n}" for n in ENV_NAMES]
    made = ", ".join(f"deckzoo.envs.{n}.env().metadata['name']" for n in ENV_NAMES)
    lines.append(f"print([{made}])")
    done = subprocess.run(
        [sys.executable, "-c", "\n".join(lines)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr(ENV_NAMES)


def _other_versions(name: str) -> list[str]:
    game = E.game_class(name)
    return [f"{game.name}_v{v}" for v in (game.version - 1, game.version + 1) if v >= 0]


@pytest.mark.parametrize("name", ENV_NAMES)
def test_another_version_fails_to_import_naming_the_current_env(name):
    for other in _other_versions(name):
        message = f"{E.game_class(name).name} is at {name} now"
        with pytest.raises(ModuleNotFoundError, match=message):
            importlib.import_module(f"deckzoo.envs.{other}")
        with pytest.raises(ModuleNotFoundError, match=message):
            exec(f"from deckzoo.envs import {other}", {})  # noqa: S102 (as above)
        assert not hasattr(E, other)


def test_a_near_miss_suggests_the_env_and_other_names_fail_as_usual():
    gobig = E.game_class("gobig").env_name()
    with pytest.raises(ModuleNotFoundError, match=f"did you mean {gobig}"):
        importlib.import_module("deckzoo.envs.gobgi_v0")
    with pytest.raises(ModuleNotFoundError) as err:
        importlib.import_module("deckzoo.envs.no_such_module")
    assert err.value.name == "deckzoo.envs.no_such_module"


def test_dir_lists_the_env_names():
    assert set(ENV_NAMES) <= set(dir(E))


@pytest.fixture
def tiny_game(tmp_path, monkeypatch):
    """The throw-away sixth game of tests/core/sixth_game.py, in a folder that joins
    deckzoo/envs; the registry, sys.modules and the package forget it afterwards."""
    (tmp_path / "tiny").mkdir()
    for file, text in FILES.items():
        (tmp_path / "tiny" / file).write_text(text)
    monkeypatch.setattr(E, "__path__", [*E.__path__, str(tmp_path)])
    registry.refresh()
    yield registry.games()["tiny"]
    for name in [m for m in sys.modules if m.startswith("deckzoo.envs.tiny")]:
        del sys.modules[name]
    for name in [a for a in vars(E) if a.startswith("tiny")]:
        delattr(E, name)
    monkeypatch.undo()
    registry.refresh()


def test_a_sixth_game_and_a_version_bump_need_no_edit(tiny_game, monkeypatch):
    assert importlib.import_module("deckzoo.envs.tiny_v0").env().metadata["name"] == "tiny_v0"
    monkeypatch.setattr(tiny_game, "version", 1)
    assert importlib.import_module("deckzoo.envs.tiny_v1") is registry.env_module("tiny_v1")
    with pytest.raises(ModuleNotFoundError, match="tiny is at tiny_v1 now"):
        importlib.import_module("deckzoo.envs.tiny_v2")


def test_the_readmes_use_an_env_snippet_runs_without_deprecation_warnings():
    """The README leads with ``pettingzoo.make``, as PettingZoo 1.27 recommends; its first snippet
    plays a game to the end in a fresh interpreter, warnings about deprecated APIs as errors."""
    section = README.read_text().split("## Use an env", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    assert "pettingzoo.make(" in code
    done = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "game over" in done.stdout
