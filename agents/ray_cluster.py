"""Joining Ray for the distributed paths (the arena's ``ray`` backend, ``trainer: rllib``).

``connect(address, num_cpus)`` keeps a Ray connection the caller already made (a notebook,
tests), joins a cluster for ``address`` (``auto`` or ``HOST:PORT``), or starts a local instance of
``num_cpus`` CPUs. Nothing assumes that the nodes share a filesystem with the driver: when it
joins a cluster, this deckzoo's own code travels with the job as a Ray ``runtime_env``
(``py_modules``), so the nodes need Ray and deckzoo's dependencies but not this checkout, and
data (agent files, policies, weights) travels as Ray objects (see ``ship_files``).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import tempfile
from pathlib import Path

from deckzoo.envs.core.errors import ConfigError

PACKAGES = ("envs", "agents", "training")


def require_ray():
    try:
        import ray
    except ImportError:
        raise ConfigError("Ray is not installed: pip install 'deckzoo[ray]'") from None
    return ray


def stage_code(dest: Path) -> Path:
    """Copy deckzoo's packages into ``dest/deckzoo`` (what ``py_modules`` zips and ships)."""
    import importlib

    root = Path(dest) / "deckzoo"
    for name in PACKAGES:
        src = Path(importlib.import_module(f"deckzoo.{name}").__file__).parent
        shutil.copytree(src, root / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return root


def connect(
    address: str | None = None, num_cpus: int | None = None, ship_code: bool = True
) -> bool:
    """Make sure this process is connected to Ray; returns True if this call connected it.

    An existing connection is kept as it is (its address and size win). ``address`` None starts a
    local instance of ``num_cpus`` CPUs (Ray turns on token authentication for it by itself);
    otherwise the cluster at ``address`` is joined with its own size, and ``ship_code`` sends
    deckzoo's code along."""
    ray = require_ray()
    if ray.is_initialized():
        return False
    kwargs = {"include_dashboard": False, "logging_level": logging.WARNING}
    if address is None:
        # "local" starts a new instance even when another one runs on this machine (plain
        # ray.init() would join that one, or the one RAY_ADDRESS names)
        ray.init(address="local", num_cpus=num_cpus, **kwargs)
        return True
    if not ship_code:
        ray.init(address=address, **kwargs)
        return True
    with tempfile.TemporaryDirectory(prefix="deckzoo-code-") as tmp:
        ray.init(
            address=address, runtime_env={"py_modules": [str(stage_code(Path(tmp)))]}, **kwargs
        )
    return True


# ---- data that specs name --------------------------------------------------------------------
_SEPARATORS = re.compile(r"([:,=])")


def spec_files(specs: list[str]) -> list[str]:
    """The files that agent specs name in their arguments (``ppo:runs/gobig/policy.npz``): the
    parts of a spec after its agent name that are existing files here."""
    out = []
    for spec in specs:
        _, _, arg = spec.partition(":")
        for part in _SEPARATORS.split(arg):
            if part not in ":,=" and os.path.isfile(part) and part not in out:
                out.append(part)
    return out


def read_files(paths: list[str]) -> dict[str, bytes]:
    """``{path as written in the spec: contents}``, to be put into Ray's object store."""
    return {p: Path(p).read_bytes() for p in paths}


def localize(files: dict[str, bytes], where: Path | None = None) -> dict[str, str]:
    """Write shipped files on this node (once per content) and map each spec path to its copy."""
    where = Path(where or Path(tempfile.gettempdir()) / "deckzoo-shipped")
    out = {}
    for path, data in files.items():
        digest = hashlib.sha256(data).hexdigest()[:24]
        target = where / digest / Path(path).name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, target)
        out[path] = str(target)
    return out


def rewrite_spec(spec: str, local: dict[str, str]) -> str:
    """``spec`` with every file it names replaced by this node's copy."""
    name, colon, arg = spec.partition(":")
    if not colon:
        return spec
    return name + colon + "".join(local.get(p, p) for p in _SEPARATORS.split(arg))


__all__ = [
    "connect",
    "localize",
    "read_files",
    "require_ray",
    "rewrite_spec",
    "spec_files",
    "stage_code",
]
