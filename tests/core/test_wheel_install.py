"""deckzoo installed the ordinary way: the wheel built from this tree, installed (not editable)
into a fresh virtual environment with its base requirements only, then used as a new user would:
every env, the arena with a shipped zoo policy, a replay page from it, and the commands that need
an extra saying which one in a single line.

The venv does not see this project's .venv (no ``--system-site-packages``), so a dependency
missing from pyproject.toml fails here; the install fetches numpy, Gymnasium, PettingZoo and the
command's small dependencies from the package index (pip's cache keeps a second run quick). The
tests share that one install and one xdist group, so under ``make test`` (``-n 2 --dist
loadgroup``) one worker runs them while the other goes on with the rest of the suite.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from email.parser import HeaderParser
from pathlib import Path

import pytest

pytestmark = pytest.mark.xdist_group("wheel")

ROOT = Path(__file__).resolve().parents[2]
# What the wheel is built from: the three package folders and the files pyproject.toml reads.
SOURCES = ("envs", "agents", "training", "pyproject.toml", "setup.py", "README.md")
# Data files the installed package reads: the zoo policies, the card data, the viewer's files.
DATA_GLOBS = ("agents/zoo/*.npz", "envs/*/data/*", "agents/viewer/static/*")
TIMEOUT = 300


def pip(*args: str) -> None:
    """This interpreter's pip (``--python`` points it at another environment)."""
    subprocess.run([sys.executable, "-m", "pip", "-q", *args], check=True, timeout=TIMEOUT)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of a copy of the tree (the build's own folders stay out of the work tree)."""
    tmp = tmp_path_factory.mktemp("wheel")
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, tmp / "src" / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, tmp / "src" / name)
    pip("wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp / "dist"), str(tmp / "src"))
    (built,) = (tmp / "dist").glob("deckzoo-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv (without pip of its own) holding the wheel and its base requirements."""
    path = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    pip("--python", str(path / "bin" / "python"), "install", str(wheel))
    return path


def run(venv: Path, program: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``program`` of the venv, run outside the tree with no path leading back to it."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(venv / "bin" / program), *args], cwd=cwd, env=env, check=False,
                          capture_output=True, text=True, timeout=TIMEOUT)


def test_the_wheel_holds_the_data_and_the_base_requirements(wheel):
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = HeaderParser().parsestr(zf.read(meta).decode())
    data = [p.relative_to(ROOT).as_posix() for g in DATA_GLOBS for p in ROOT.glob(g)]
    assert any(d.startswith("agents/zoo/") for d in data) and any("/data/" in d for d in data)
    assert [d for d in data if f"deckzoo/{d}" not in names] == []
    assert metadata["License-Expression"] == "MIT"
    base = [r for r in metadata.get_all("Requires-Dist") if "extra ==" not in r]
    assert {r.split(">")[0].split("<")[0].split("=")[0].strip() for r in base} >= {
        "numpy", "gymnasium", "pettingzoo", "openskill", "rich", "tqdm", "pyyaml"
    }
    assert not [r for r in base if r.startswith("torch")]  # torch only in the extras that train


ENV_SCRIPT = """
import numpy as np
import pettingzoo
import deckzoo.envs as E
from deckzoo.envs import registry

rng = np.random.default_rng(0)
for name in registry.env_names():
    env = pettingzoo.make("aec", registry.pettingzoo_id(name), **registry.short_options(name))
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        mask = obs["action_mask"]
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    print(name, steps, E.__file__)
"""


def test_every_env_plays_from_the_install(venv, tmp_path):
    out = run(venv, "python", "-c", ENV_SCRIPT, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")[:-1]
    assert len(lines) >= 5
    for line in lines:
        _, steps, where = line.split()
        assert int(steps) > 0 and where.startswith(str(venv)), line  # the installed copy


def test_the_arena_with_a_zoo_agent_and_its_replay_page(venv, tmp_path):
    arena = run(venv, "deckzoo", "arena", "gobig", "--agents", "zoo:gobig,random", "--games",
                "4", "--out", "out", "--save-games", "1", "--no-progress", cwd=tmp_path)
    assert arena.returncode == 0, arena.stderr
    assert "zoo:gobig" in arena.stdout
    # Without matplotlib (the agents extra) the chart alone is left out, saying so in one line.
    assert arena.stderr.count("pip install 'deckzoo[agents]'") == 1
    assert "win_share.png" not in arena.stdout.splitlines()[-1]
    (replay,) = (tmp_path / "out" / "replays").glob("gobig-*.json")
    page = run(venv, "deckzoo", "replay", str(replay), "--html", "page.html", cwd=tmp_path)
    assert page.returncode == 0, page.stderr
    html = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert 'id="replay-data">{' in html and "readFrames" in html


@pytest.mark.parametrize(
    "args,extra",
    [
        (["train", "--config", "missing.yaml"], "deckzoo[train]"),
        (["arena", "gobig", "--agents", "heuristic,random", "--backend", "ray"], "deckzoo[ray]"),
    ],
)
def test_a_command_that_needs_an_extra_names_it_in_one_line(venv, tmp_path, args, extra):
    out = run(venv, "deckzoo", *args, cwd=tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and f"pip install '{extra}'" in out.stderr


def test_every_command_answers_help(venv, tmp_path):
    top = run(venv, "deckzoo", "--help", cwd=tmp_path)
    assert top.returncode == 0
    commands = re.findall(r"^    (\w+) ", top.stdout, flags=re.MULTILINE)  # the list under COMMAND
    assert {"arena", "play", "replay", "serve", "train"} <= set(commands)
    for command in commands:
        out = run(venv, "deckzoo", command, "--help", cwd=tmp_path)
        assert out.returncode == 0 and out.stdout.startswith("usage: deckzoo"), command
