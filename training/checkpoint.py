"""Training checkpoints in a format that cannot run code when loaded.

A checkpoint (``run_dir/checkpoint.ckpt``) is a zip archive of plain data:

* ``meta.json``: the format name and version, the run's config, the trainer's bookkeeping, every
  env's ``get_env_state()``, the SB3 counters and episode buffers, and the python/numpy generator
  states;
* ``arrays.npz``: numpy arrays (the self-play pool's weights, the last observations, numpy's
  Mersenne Twister key, torch's generator state), read with ``allow_pickle=False``;
* ``policy.pt`` and ``optimizer.pt``: the policy's and the optimiser's state dicts, written with
  ``torch.save`` and read with ``torch.load(weights_only=True)``, which accepts tensors and plain
  containers only.

SB3's own ``save``/``load`` is not used for checkpoints because its ``load`` unpickles parts of
the file (cloudpickle). The model is rebuilt from the run's config and these state dicts are
loaded into it, which restores it exactly (tests/training/test_train.py).

``read_checkpoint`` checks the format version and raises ``ConfigError`` naming the file and what
to do for a missing, empty, truncated, foreign or newer-format file, and for one that would unpack
to more than ``MAX_CHECKPOINT_BYTES`` (judged from the zip directories and npy headers before
anything is unpacked, as policy files are: ``deckzoo.agents.policy.check_archive_sizes``).
"""

from __future__ import annotations

import io
import json
import os
import random
import zipfile
import zlib
from collections import deque
from pathlib import Path

import numpy as np

from deckzoo.agents.policy import check_archive_sizes, read_member, read_npz, safe_torch_load
from deckzoo.envs.core.errors import ConfigError

CHECKPOINT = "checkpoint.ckpt"
OLD_CHECKPOINT = (
    "checkpoint.pkl"  # deckzoo before the safe format: refused (unpickling could run code)
)
CHECKPOINT_FORMAT = "deckzoo.checkpoint"
CHECKPOINT_VERSION = 1
TENSOR_FILES = ("policy.pt", "optimizer.pt")
MAX_CHECKPOINT_BYTES = 2 * 2**30
"""The most a checkpoint may unpack to (the archive, and each of its inner npz and torch files).
A run's checkpoint holds its network, the optimiser's two moments and up to ``pool_size``
snapshots of the actor: tens of MB at the sizes trained here, a few hundred MB for 1024-wide
networks. The bound refuses a damaged or crafted file from its zip directory, before anything
is unpacked, rather than after filling the memory."""


def atomic_write(path: Path, data: bytes) -> None:
    """Write to a temporary file, flush it to disk, then rename it over ``path``."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_checkpoint(
    path: Path, meta: dict, arrays: dict[str, np.ndarray], tensors: dict[str, object]
) -> None:
    """One archive: ``meta`` (JSON), ``arrays`` (npz), ``tensors`` (a ``torch.save`` file each)."""
    import torch

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(
            "meta.json",
            json.dumps({"format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION, **meta}),
        )
        npz = io.BytesIO()
        np.savez(npz, **arrays)
        zf.writestr("arrays.npz", npz.getvalue())
        for name in TENSOR_FILES:
            t = io.BytesIO()
            torch.save(tensors[name], t)
            zf.writestr(name, t.getvalue())
    atomic_write(path, buf.getvalue())


def _damaged(path: Path, why: str) -> ConfigError:
    return ConfigError(
        f"--resume: the checkpoint {str(path)!r} is damaged ({why}), so this run cannot be "
        "resumed; restore the file from a backup, or start the run afresh in another run_dir "
        "(or after removing this one)"
    )


def read_checkpoint(path: Path) -> tuple[dict, dict[str, np.ndarray], dict[str, object]]:
    """``(meta, arrays, tensors)`` of a checkpoint; nothing in the file can execute code."""
    if not zipfile.is_zipfile(path):
        raise _damaged(path, "empty, truncated or not a checkpoint archive")
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            missing = sorted({"meta.json", "arrays.npz", *TENSOR_FILES} - names)
            if missing:
                raise _damaged(path, f"it lacks {', '.join(missing)}")
            try:
                check_archive_sizes(zf, MAX_CHECKPOINT_BYTES, "a checkpoint")
            except ValueError as e:
                raise _damaged(path, str(e)) from None
            meta = _read_meta(path, read_member(zf, "meta.json"))
            arrays = _read_arrays(path, read_member(zf, "arrays.npz"))
            tensors = {}
            for name in TENSOR_FILES:
                try:
                    tensors[name] = safe_torch_load(read_member(zf, name), MAX_CHECKPOINT_BYTES)
                except ValueError as e:
                    raise _damaged(path, f"{name}: {e}") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as e:
        raise _damaged(path, f"unreadable archive: {e}") from None
    return meta, arrays, tensors


def _read_meta(path: Path, data: bytes) -> dict:
    """meta.json, checked to be a checkpoint of the version this deckzoo reads."""
    try:
        meta = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise _damaged(path, f"meta.json is not JSON: {e}") from None
    if not isinstance(meta, dict) or meta.get("format") != CHECKPOINT_FORMAT:
        raise _damaged(path, f"meta.json does not describe a {CHECKPOINT_FORMAT}")
    version = meta.get("version")
    if version != CHECKPOINT_VERSION:
        raise ConfigError(
            f"--resume: the checkpoint {str(path)!r} has format version {version!r}; this "
            f"deckzoo reads version {CHECKPOINT_VERSION}: resume it with the deckzoo "
            "version that wrote it, or start the run afresh"
        )
    return meta


def _read_arrays(path: Path, data: bytes) -> dict[str, np.ndarray]:
    """arrays.npz, read like a policy file's arrays: sizes and shapes from the zip directory and
    the npy headers before any data, no Python objects (``deckzoo.agents.policy.read_npz``)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            check_archive_sizes(z, MAX_CHECKPOINT_BYTES, "a checkpoint")
            return read_npz(z)
    except (ValueError, zipfile.BadZipFile, zlib.error, EOFError) as e:
        raise _damaged(path, f"arrays.npz: {e}") from None
    except Exception as e:  # noqa: BLE001 - numpy's header parser raises many kinds
        raise _damaged(path, f"arrays.npz: {type(e).__name__}: {e}") from None


# ---- the SB3 model ------------------------------------------------------------------------------
def model_state(model) -> tuple[dict, dict[str, np.ndarray], dict[str, object]]:
    """What an on-policy SB3 model needs to continue exactly: its counters and episode buffers,
    its last observations and the policy's and optimiser's state dicts."""
    meta = {
        "num_timesteps": int(model.num_timesteps),
        "n_updates": int(model._n_updates),
        "episode_num": int(model._episode_num),
        "progress_remaining": float(model._current_progress_remaining),
        "ep_info_buffer": None if model.ep_info_buffer is None else list(model.ep_info_buffer),
        "ep_success_buffer": None
        if model.ep_success_buffer is None
        else list(model.ep_success_buffer),
    }
    arrays = {}
    if model._last_obs is not None:
        arrays["model_last_obs"] = np.asarray(model._last_obs)
        arrays["model_last_episode_starts"] = np.asarray(model._last_episode_starts)
    tensors = {
        "policy.pt": model.policy.state_dict(),
        "optimizer.pt": model.policy.optimizer.state_dict(),
    }
    return meta, arrays, tensors


def restore_model(model, meta: dict, arrays: dict, tensors: dict) -> None:
    """Load ``model_state``'s output into a model built with the run's config."""
    model.policy.load_state_dict(tensors["policy.pt"])
    model.policy.optimizer.load_state_dict(tensors["optimizer.pt"])
    model.num_timesteps = int(meta["num_timesteps"])
    model._n_updates = int(meta["n_updates"])
    model._episode_num = int(meta["episode_num"])
    model._current_progress_remaining = float(meta["progress_remaining"])
    window = model._stats_window_size
    for key in ("ep_info_buffer", "ep_success_buffer"):
        setattr(model, key, None if meta[key] is None else deque(meta[key], maxlen=window))
    if "model_last_obs" in arrays:
        model._last_obs = arrays["model_last_obs"]
        model._last_episode_starts = arrays["model_last_episode_starts"]


# ---- the global generators -------------------------------------------------------------------
def global_rng_state() -> tuple[dict, dict[str, np.ndarray]]:
    """python's, numpy's and torch's global generator states, as JSON data and arrays."""
    import torch

    version, internal, gauss = random.getstate()
    kind, key, pos, has_gauss, cached = np.random.get_state()
    meta = {
        "python": [version, list(internal), gauss],
        "numpy": {
            "kind": kind,
            "pos": int(pos),
            "has_gauss": int(has_gauss),
            "cached": float(cached),
        },
    }
    return meta, {"rng_numpy_key": key, "rng_torch": torch.get_rng_state().numpy()}


def set_global_rng_state(meta: dict, arrays: dict) -> None:
    import torch

    version, internal, gauss = meta["python"]
    random.setstate((version, tuple(internal), gauss))
    n = meta["numpy"]
    np.random.set_state((n["kind"], arrays["rng_numpy_key"], n["pos"], n["has_gauss"], n["cached"]))
    torch.set_rng_state(torch.from_numpy(np.array(arrays["rng_torch"], dtype=np.uint8)))


__all__ = [
    "CHECKPOINT",
    "CHECKPOINT_VERSION",
    "atomic_write",
    "global_rng_state",
    "model_state",
    "read_checkpoint",
    "restore_model",
    "set_global_rng_state",
    "write_checkpoint",
]
