"""deckzoo installed the ordinary way: the wheel built from this tree, installed (not editable)
into a fresh virtual environment with its base requirements only, then used as a new user would:
every env, the arena with a shipped zoo policy, a replay page from it, the shipped training configs
found by name, and the commands that need an extra saying which one in a single line.

The venv does not see this project's .venv (no ``--system-site-packages``), so a dependency
missing from pyproject.toml fails here; the install fetches numpy, Gymnasium, PettingZoo and the
command's small dependencies from the package index (pip's cache keeps a second run quick). It is
one test, so one worker of ``make test`` (``-n 2 --dist loadgroup``) builds and installs once
while the other goes on with the rest of the suite. Split into tests sharing a module fixture, it
could be built on both workers: pytest-xdist 3.8 under pytest 9.2 ignores ``xdist_group`` (see
tests/viewer/conftest.py).
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

import deckzoo.envs as E

ROOT = Path(__file__).resolve().parents[2]
# What the wheel is built from: the package folders and the files pyproject.toml reads.
SOURCES = ("envs", "agents", "training", "configs", "pyproject.toml", "setup.py", "README.md")
# Data files the installed package reads: the zoo policies, the card data, the viewer's files,
# the training configs.
DATA_GLOBS = ("agents/zoo/*.npz", "envs/*/data/*", "agents/tools/viewer/static/*", "configs/*.yaml")
TIMEOUT = 300


def pip(*args: str) -> None:
    """This interpreter's pip (``--python`` points it at another environment)."""
    subprocess.run([sys.executable, "-m", "pip", "-q", *args], check=True, timeout=TIMEOUT)


def build_wheel(tmp: Path) -> Path:
    """The wheel of a copy of the tree (the build's own folders stay out of the work tree)."""
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(
                src, tmp / "src" / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
        else:
            shutil.copy2(src, tmp / "src" / name)
    pip("wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp / "dist"), str(tmp / "src"))
    (built,) = (tmp / "dist").glob("deckzoo-*.whl")
    return built


def install(wheel: Path, path: Path) -> Path:
    """A fresh venv (without pip of its own) holding ``wheel`` and its base requirements (not
    byte-compiled at install: that alone would double the time)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    pip("--python", str(path / "bin" / "python"), "install", "--no-compile", str(wheel))
    return path


def run(venv: Path, program: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``program`` of the venv, run outside the tree with no path leading back to it."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(venv / "bin" / program), *args],
        cwd=cwd,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def check_the_wheel(wheel: Path) -> str:
    """The zoo policies, card data, viewer files and configs are inside; torch only in extras.
    Returns the wheel's version."""
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = HeaderParser().parsestr(zf.read(meta).decode())
    data = [p.relative_to(ROOT).as_posix() for g in DATA_GLOBS for p in ROOT.glob(g)]
    assert any(d.startswith("agents/zoo/") for d in data) and any("/data/" in d for d in data)
    assert "configs/gobig.yaml" in data
    assert [d for d in data if f"deckzoo/{d}" not in names] == []
    assert metadata["License-Expression"] == "MIT"
    base = [r for r in metadata.get_all("Requires-Dist") if "extra ==" not in r]
    assert {r.split(">")[0].split("<")[0].split("=")[0].strip() for r in base} >= {
        "numpy",
        "gymnasium",
        "pettingzoo",
        "openskill",
        "rich",
        "tqdm",
        "pyyaml",
    }
    assert not [r for r in base if r.startswith("torch")]  # torch only in the extras that train
    return metadata["Version"]


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


def check_every_env(venv: Path, tmp_path: Path) -> None:
    """Every registered env plays a game through PettingZoo, from the installed copy."""
    out = run(venv, "python", "-c", ENV_SCRIPT, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = [line.split() for line in out.stdout.splitlines()]
    assert [name for name, _, _ in lines] == E.registry.env_names()
    for name, steps, where in lines:
        assert int(steps) > 0 and where.startswith(str(venv)), name  # the installed copy


def check_arena_and_replay_page(venv: Path, tmp_path: Path) -> None:
    arena = run(
        venv,
        "deckzoo",
        "arena",
        "gobig",
        "--agents",
        "zoo:gobig,random",
        "--games",
        "4",
        "--out",
        "out",
        "--save-games",
        "1",
        "--no-progress",
        cwd=tmp_path,
    )
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


# A command that needs an extra, and the extra its one line names (train: a shipped config by
# name, found from a folder without configs/, before the extra is asked for).
NEEDS_EXTRA = [
    (["train", "--config", "gobig"], "deckzoo[train]"),
    (["train", "--config", "configs/wizard-vector.yaml"], "deckzoo[train]"),
    (["arena", "gobig", "--agents", "heuristic,random", "--backend", "ray"], "deckzoo[ray]"),
]


def check_extras_named(venv: Path, tmp_path: Path) -> None:
    for args, extra in NEEDS_EXTRA:
        out = run(venv, "deckzoo", *args, cwd=tmp_path)
        assert out.returncode == 2 and out.stdout == "", (args, out.stderr)
        assert out.stderr.count("\n") == 1 and f"pip install '{extra}'" in out.stderr, args


# The shipped training configs as the installed package finds them, by name.
CONFIGS_SCRIPT = """
from deckzoo.agents.cli_args import config_path, shipped_configs

print(" ".join(shipped_configs()))
print(config_path("gobig"))
print(config_path("gobig.yaml").read_text(encoding="utf-8").count("game: gobig"))
"""


def check_shipped_configs(venv: Path, tmp_path: Path) -> None:
    """The installed configs are the checkout's training configs, found by name from a folder
    without configs/ (training itself needs the train extra, which this venv lacks); an unknown
    name is one line listing them."""
    shipped = sorted(p.stem for p in (ROOT / "configs").glob("*.yaml") if p.stem != "zoo")
    out = run(venv, "python", "-c", CONFIGS_SCRIPT, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    names, gobig, count = out.stdout.splitlines()
    assert names.split() == shipped
    assert gobig.startswith(str(venv)) and gobig.endswith("deckzoo/configs/gobig.yaml")
    assert count == "1"
    bad = run(venv, "deckzoo", "train", "--config", "gobg", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1, bad.stderr
    assert bad.stderr.rstrip().endswith("shipped configs: " + ", ".join(shipped))


# Each command's --help through deckzoo.agents.cli.main, in one process; prints the exit codes.
HELP_SCRIPT = """
import contextlib, io, sys
from deckzoo.agents.cli import main

for command in sys.argv[1:]:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = main([command, "--help"])
    print(command, code, out.getvalue().startswith("usage: deckzoo " + command))
"""


def check_every_command_answers_help(venv: Path, tmp_path: Path, version: str) -> None:
    """Every command's --help, and --version: the wheel's own version."""
    assert run(venv, "deckzoo", "--version", cwd=tmp_path).stdout == f"deckzoo {version}\n"
    top = run(venv, "deckzoo", "--help", cwd=tmp_path)
    assert top.returncode == 0
    commands = re.findall(r"^    (\w+) ", top.stdout, flags=re.MULTILINE)  # the list under COMMAND
    assert {"arena", "play", "replay", "serve", "train"} <= set(commands)
    out = run(venv, "python", "-c", HELP_SCRIPT, *commands, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [f"{c} 0 True" for c in commands]


def test_installed_the_ordinary_way(tmp_path):
    wheel = build_wheel(tmp_path / "build")
    version = check_the_wheel(wheel)
    venv = install(wheel, tmp_path / "venv")
    work = tmp_path / "work"
    work.mkdir()
    check_every_env(venv, work)
    check_arena_and_replay_page(venv, work)
    check_shipped_configs(venv, work)
    check_extras_named(venv, work)
    check_every_command_answers_help(venv, work, version)
