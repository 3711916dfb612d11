"""Setuptools' package list, found rather than written down (the rest is in pyproject.toml).

The folders envs/, agents/ and training/ install as deckzoo.envs, deckzoo.agents and
deckzoo.training, and configs/ (the training configs, data only) as deckzoo.configs
(``package-dir`` in pyproject.toml). pyproject.toml's ``packages.find`` cannot add that
``deckzoo.`` prefix, so this finds every package below the four folders, a new game's folder and
its data folder included, and names them.
"""

from setuptools import find_namespace_packages, setup

ROOTS = ("envs", "agents", "training", "configs")


def packages() -> list[str]:
    found = find_namespace_packages(
        include=[f"{r}{tail}" for r in ROOTS for tail in ("", ".*")],
        exclude=["*.__pycache__", "*.__pycache__.*"],
    )
    return [f"deckzoo.{p}" for p in found]


if __name__ == "__main__":
    setup(packages=packages())
