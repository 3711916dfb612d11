"""Setuptools' package list, found rather than written down (the rest is in pyproject.toml).

The folders envs/, agents/ and training/ install as deckzoo.envs, deckzoo.agents and
deckzoo.training, and configs/ (the training configs, data only) as deckzoo.configs
(``package-dir`` in pyproject.toml). pyproject.toml's ``packages.find`` cannot add that
``deckzoo.`` prefix, so this finds every package below the four folders, a new game's folder and
its data folder included, and names them.
"""

from setuptools import find_namespace_packages, setup

ROOTS = ("envs", "agents", "training", "configs")
# Folders that install under another name (pyproject.toml's package-dir): envs/openspiel is
# deckzoo.openspiel, so it is not also deckzoo.envs.openspiel.
RENAMED = {"envs.openspiel": "openspiel"}


def packages() -> list[str]:
    found = find_namespace_packages(
        include=[f"{r}{tail}" for r in ROOTS for tail in ("", ".*")],
        exclude=["*.__pycache__", "*.__pycache__.*"],
    )
    names = []
    for p in found:
        for folder, name in RENAMED.items():
            if p == folder or p.startswith(folder + "."):
                p = name + p[len(folder) :]
        names.append(f"deckzoo.{p}")
    return names


if __name__ == "__main__":
    setup(packages=packages())
