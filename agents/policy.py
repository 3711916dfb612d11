"""Trained policies as Agents, in numpy, and the policy file format that cannot run code.

A policy here is the actor of an MLP: observation -> hidden layers (each followed by one
activation) -> action logits, masked to the legal actions. ``PolicyWeights`` holds it as numpy
arrays, so a policy acts without torch, in any process, at a few microseconds a decision.
``PolicyAgent`` plays from a ``PolicyWeights``; ``PPOAgent`` loads one from a file.

Files (``load_policy``):

* **a deckzoo policy file** (``.npz``, written by ``save_policy``): numpy arrays read with
  ``allow_pickle=False`` plus one JSON metadata string (format version, game and its config,
  sizes, activation, the training config that produced it). Trainers export to it and shipped
  reference agents use it; docs/training.md describes every field.
* **a MaskablePPO ``.zip``** saved by sb3-contrib: only the actor's tensors are read, with
  ``torch.load(weights_only=True)``, and the activation from the JSON part of the archive. SB3's
  own ``load`` would unpickle parts of the file (cloudpickle), which can run code; this never does.

Either kind is judged from its zip directory and its npy headers before any data is unpacked: a
file that would unpack to more than ``MAX_POLICY_BYTES``, or holds an array of an implausible
shape, is refused with one line naming the member (a 1 MB zip can unpack to gigabytes).

Importing this module registers the agent specs ``ppo:PATH`` (greedy: the most likely legal
action) and ``ppo:PATH:sample`` (samples the policy's distribution) with
``deckzoo.agents.registry``, so ``deckzoo arena gobig --agents ppo:runs/gobig/policy.npz,heuristic``
works. torch is imported only when a ``.zip`` is loaded.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import warnings
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.core.game import InfoState

from . import features as input_features
from .base import Agent
from .registry import register_agent

ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}

POLICY_FORMAT = "deckzoo.policy"
POLICY_VERSION = 2  # 2: the optional "features" key (files without it are written as 1)
META_KEYS = {
    "format",
    "version",
    "kind",
    "activation",
    "obs_size",
    "num_actions",
    "hidden_sizes",
    "game",
    "env",
    "game_config",
    "trainer",
    "training",
    "extra",
    "features",
}


def _first_layer(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``x @ w`` for one input, over the rows of ``w`` where ``x`` is non-zero only.

    Observations are mostly zeros (Midgard's 1961 entries have about 180 non-zero), and the first
    layer was most of a zoo policy's forward pass, which is most of a search's time when the policy
    plays its rollouts. einsum sums ``x[i] * w[i, j]`` over ``i`` in order into a zeroed output,
    and a zero term (+0 or -0) leaves such a sum as it is, so dropping the zero rows gives the same
    bits, not merely close ones: searches and arenas replay exactly as before
    (tests/training/test_policy.py checks it on every game's observations)."""
    nz = np.flatnonzero(x)
    if 3 * len(nz) > len(x):  # dense: the gather would cost more than it saves
        return np.einsum("i,ij->j", x, w)
    return np.einsum("i,ij->j", x[nz], w[nz])


@dataclass
class PolicyWeights:
    """The actor of an MLP policy: ``hidden`` is a list of ``(W, b)``, each followed by
    ``activation``; ``head`` maps the last layer to action logits.

    ``W`` is stored shaped (in, out), C-contiguous (torch's weight transposed). Products use
    ``np.einsum`` (numpy's own single-threaded loop) rather than ``@``: OpenBLAS starts its
    threads for larger products, and on a busy 2-core machine one Big Number decision
    (325 -> 256 -> 256 -> 2180) then took 6-12 ms instead of about 0.2 ms."""

    hidden: list[tuple[np.ndarray, np.ndarray]]
    head: tuple[np.ndarray, np.ndarray]
    activation: str = "tanh"
    features: input_features.InputFeatures | None = None
    """Input features (``deckzoo.agents.features``) appended to the observation before the first
    layer; None: the network takes the observation as it is."""

    @property
    def input_size(self) -> int:
        """What the first layer takes: the observation, plus the features if any."""
        return (self.hidden[0][0] if self.hidden else self.head[0]).shape[0]

    @property
    def obs_size(self) -> int:
        """The observation size the policy plays on."""
        return self.features.obs_size if self.features is not None else self.input_size

    def _inputs(self, obs: np.ndarray) -> np.ndarray:
        x = np.asarray(obs, dtype=np.float32)
        x = x.reshape(-1) if x.ndim != 2 else x
        return x if self.features is None else self.features(x)

    @property
    def num_actions(self) -> int:
        return self.head[0].shape[1]

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Action logits for one observation (any shape; flattened) or a batch (rows)."""
        x = self._inputs(obs)
        spec = "i,ij->j" if x.ndim == 1 else "bi,ij->bj"
        act = ACTIVATIONS[self.activation]
        for w, b in self.hidden:
            x = act(np.einsum(spec, x, w) + b)
        w, b = self.head
        return np.einsum(spec, x, w) + b

    def legal_logits(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Logits of the actions ``legal`` (indices) for one observation: the head's rows for the
        legal actions only. With a large action space (Big Number: 2180) and few legal actions,
        the head is most of a forward pass, so pool opponents and evaluation use this."""
        x = self._inputs(np.asarray(obs).reshape(-1))
        act = ACTIVATIONS[self.activation]
        for k, (w, b) in enumerate(self.hidden):
            x = act((_first_layer(x, w) if k == 0 else np.einsum("i,ij->j", x, w)) + b)
        wt = self.__dict__.get("_head_t")
        if wt is None:  # the head transposed, (actions, in): a legal action's weights are one row
            wt = self.__dict__["_head_t"] = np.ascontiguousarray(self.head[0].T)
        return np.einsum("ij,j->i", wt[legal], x) + self.head[1][legal]

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k != "_head_t"}  # the cache is rebuilt

    def equals(self, other: PolicyWeights) -> bool:
        pairs = list(zip(self.hidden, other.hidden)) + [(self.head, other.head)]
        return (
            self.activation == other.activation
            and _features_name(self) == _features_name(other)
            and len(self.hidden) == len(other.hidden)
            and all(np.array_equal(a, c) and np.array_equal(b, d) for (a, b), (c, d) in pairs)
        )

    # ---- plain arrays, for files and checkpoints -----------------------------------------
    def to_arrays(self, prefix: str = "") -> dict[str, np.ndarray]:
        """The weights as named float32 arrays (``hidden_0_weight``... ``head_bias``)."""
        out = {}
        for i, (w, b) in enumerate(self.hidden):
            out[f"{prefix}hidden_{i}_weight"], out[f"{prefix}hidden_{i}_bias"] = w, b
        out[f"{prefix}head_weight"], out[f"{prefix}head_bias"] = self.head
        return out

    @classmethod
    def from_arrays(
        cls, arrays, activation: str, prefix: str = "", where: str = "policy"
    ) -> PolicyWeights:
        """Inverse of ``to_arrays``; ``ValueError`` naming the array if one is wrong."""
        if activation not in ACTIVATIONS:
            raise ValueError(
                f"{where}: activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}"
            )
        pattern = re.compile(re.escape(prefix) + r"hidden_(\d+)_(weight|bias)$")
        layers = sorted({int(m.group(1)) for k in arrays if (m := pattern.match(k))})
        if layers != list(range(len(layers))):
            raise ValueError(f"{where}: hidden layers must be numbered 0..n-1, got {layers}")

        def array(name: str, ndim: int) -> np.ndarray:
            if name not in arrays:
                raise ValueError(f"{where}: array {name!r} is missing")
            a = np.asarray(arrays[name])
            if a.ndim != ndim or a.dtype.kind != "f":
                raise ValueError(
                    f"{where}: array {name!r} must be a {ndim}-d float array, "
                    f"got {a.dtype} of shape {a.shape}"
                )
            if not np.all(np.isfinite(a)):
                raise ValueError(f"{where}: array {name!r} holds a non-finite value")
            return np.ascontiguousarray(a, dtype=np.float32)

        def linear(name: str, width: int | None):
            w, b = array(f"{prefix}{name}_weight", 2), array(f"{prefix}{name}_bias", 1)
            if width is not None and w.shape[0] != width:
                raise ValueError(
                    f"{where}: {prefix}{name}_weight takes {w.shape[0]} inputs, "
                    f"the layer before gives {width}"
                )
            if b.shape[0] != w.shape[1] or 0 in w.shape:
                raise ValueError(f"{where}: {prefix}{name} has weight {w.shape} and bias {b.shape}")
            return w, b

        hidden, width = [], None
        for i in layers:
            hidden.append(linear(f"hidden_{i}", width))
            width = hidden[-1][0].shape[1]
        return cls(hidden=hidden, head=linear("head", width), activation=activation)


# ---- the policy file --------------------------------------------------------------------------
def save_policy(
    path: str | Path,
    weights: PolicyWeights,
    *,
    game: str | None = None,
    env: str | None = None,
    game_config: dict | None = None,
    trainer: str | None = None,
    training: dict | None = None,
    extra: dict | None = None,
) -> Path:
    """Write ``weights`` and their metadata as a deckzoo policy file (``.npz``), atomically.

    ``game``/``env``/``game_config`` say what the policy plays (the loader refuses another game);
    ``trainer`` names what produced it and ``training`` its configuration; ``extra`` is any
    further JSON. Everything is stored as arrays and one JSON string: nothing is pickled."""
    meta = {
        "format": POLICY_FORMAT,
        "version": 1 if weights.features is None else POLICY_VERSION,
        "kind": "mlp_actor",
        "activation": weights.activation,
        "obs_size": int(weights.obs_size),
        "num_actions": int(weights.num_actions),
        "hidden_sizes": [int(w.shape[1]) for w, _ in weights.hidden],
        "game": game,
        "env": env,
        "game_config": game_config,
        "trainer": trainer,
        "training": training,
        "extra": extra or {},
    }
    if weights.features is not None:
        if game is None or game_config is None:
            raise ValueError("save_policy: a policy with input features needs game and game_config")
        meta["features"] = weights.features.name
    buf = io.BytesIO()
    np.savez(buf, meta=np.array(json.dumps(meta, sort_keys=True)), **weights.to_arrays())
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(buf.getvalue())
    os.replace(tmp, path)
    return path


def _damaged(path, why: str) -> ConfigError:
    return ConfigError(
        f"ppo: {str(path)!r} is not a usable policy file ({why}); give a deckzoo policy "
        f"(.npz, e.g. a run's policy.npz) or a MaskablePPO .zip, or export the policy again"
    )


# ---- reading archives without unpacking bombs ------------------------------------------------
MAX_POLICY_BYTES = 256 * 2**20
"""The most a policy archive may unpack to, all its members together. The largest policy trained
here (Big Number, 325 -> 256 -> 256 -> 2180) is under 3 MB and a 1024-wide one about 15 MB; a
file that claims more is refused before anything is unpacked (a 1 MB zip of zeros unpacks to
gigabytes)."""
ARCHIVE_CHUNK = 2**20  # bytes unpacked per read: what one read of a bomb can allocate at most
POLICY_MAX_NDIM = 2  # a policy's arrays are matrices and vectors (and its 0-d metadata string)


def _mib(n: int) -> str:
    return f"{n / 2**20:,.1f} MiB"


def check_archive_sizes(zf: zipfile.ZipFile, limit: int, what: str = "a policy") -> None:
    """Refuse ``zf`` (``ValueError`` naming the member) from its directory alone, before anything
    is unpacked: members compressed other than stored or deflate (zipfile unpacks bzip2 and lzma
    without an output bound), and a total unpacked size over ``limit``. ``read_member`` then
    holds each member to the size declared here, so a directory that understates it fails its
    CRC check instead of unpacking further."""
    infos = zf.infolist()
    for info in infos:
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise ValueError(
                f"member {info.filename!r} is compressed with zip method {info.compress_type}; "
                "only stored and deflate are read"
            )
    total = sum(info.file_size for info in infos)
    if total > limit:
        big = max(infos, key=lambda i: i.file_size)
        raise ValueError(
            f"it unpacks to {_mib(total)}, member {big.filename!r} alone to {_mib(big.file_size)}"
            f", more than the {_mib(limit)} {what} may hold; refused before unpacking"
        )


def read_member(zf: zipfile.ZipFile, name: str) -> bytes:
    """A member's bytes, unpacked a chunk at a time. ``zf.read`` unpacks a deflate member in one
    call of up to 2 GiB whatever the directory says; here each read unpacks at most
    ``ARCHIVE_CHUNK`` and zipfile stops at the declared size (``check_archive_sizes``)."""
    out = bytearray()
    with zf.open(name) as f:
        while chunk := f.read(ARCHIVE_CHUNK):
            out += chunk
    return bytes(out)


def read_npz(zf: zipfile.ZipFile, max_ndim: int | None = None) -> dict[str, np.ndarray]:
    """The arrays of an ``np.savez`` archive (``check_archive_sizes`` first), each checked from
    its npy header before its data is read: no Python objects (a pickle), at most ``max_ndim``
    dimensions, and a shape whose bytes are what the member holds. numpy's own reader allocates
    the array the header declares before reading a byte of it; here a header that claims more
    than its member is refused. ``ValueError`` naming the member for anything else."""
    arrays = {}
    for info in zf.infolist():
        if not info.filename.endswith(".npy"):
            raise ValueError(f"member {info.filename!r} is not an array (.npy)")
        with zf.open(info) as f:
            arrays[info.filename[: -len(".npy")]] = _read_npy(f, info, max_ndim)
    return arrays


def _read_npy(f, info: zipfile.ZipInfo, max_ndim: int | None) -> np.ndarray:
    from numpy.lib import format as npy

    where = f"member {info.filename!r}"
    version = npy.read_magic(f)
    if version == (1, 0):
        shape, fortran, dtype = npy.read_array_header_1_0(f)
    elif version == (2, 0):
        shape, fortran, dtype = npy.read_array_header_2_0(f)
    else:
        raise ValueError(f"{where} is npy format {version}; 1.0 and 2.0 are read")
    if dtype.hasobject:
        raise ValueError(f"{where} holds Python objects (a pickle), which are never loaded")
    if max_ndim is not None and len(shape) > max_ndim:
        raise ValueError(f"{where} has shape {shape}; a policy's arrays have at most 2 dimensions")
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes != info.file_size - f.tell():
        raise ValueError(
            f"{where} declares shape {shape} of {dtype} ({_mib(nbytes)}) but holds "
            f"{_mib(info.file_size - f.tell())} of data"
        )
    data = bytearray()
    while len(data) < nbytes:
        chunk = f.read(min(ARCHIVE_CHUNK, nbytes - len(data)))
        if not chunk:
            raise ValueError(f"{where} ends before its data does")
        data += chunk
    f.read(1)  # at the end: zipfile checks the member's CRC
    if dtype.itemsize == 0:
        return np.empty(shape, dtype)
    return np.frombuffer(data, dtype).reshape(shape, order="F" if fortran else "C")


def load_policy(path: str | Path) -> tuple[PolicyWeights, dict]:
    """``(weights, metadata)`` from a deckzoo ``.npz`` or a MaskablePPO ``.zip``.

    Neither reader can execute code from the file, and neither unpacks more than
    ``MAX_POLICY_BYTES`` (``check_archive_sizes``). Any problem raises ``ConfigError`` naming the
    file and what is wrong with it."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"ppo: no model file {str(path)!r}")
    if not zipfile.is_zipfile(path):
        raise _damaged(path, "not a zip archive: empty, truncated or another kind of file")
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            try:
                check_archive_sizes(zf, MAX_POLICY_BYTES)
            except ValueError as e:
                raise _damaged(path, str(e)) from None
            if "meta.npy" in names:
                return _load_npz(path, zf)
            if "data" in names and "policy.pth" in names:
                return _load_sb3_zip(zf), {"format": "sb3-zip", "game": None}
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as e:
        raise _damaged(path, f"unreadable archive: {e}") from None
    raise _damaged(
        path,
        "neither a deckzoo policy (no 'meta') nor a MaskablePPO model (no 'data'/'policy.pth')",
    )


def _load_npz(path: Path, zf: zipfile.ZipFile) -> tuple[PolicyWeights, dict]:
    try:
        arrays = read_npz(zf, max_ndim=POLICY_MAX_NDIM)
    except ValueError as e:
        raise _damaged(path, str(e)) from None
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError):
        raise
    except Exception as e:  # noqa: BLE001 - numpy's header parser raises many kinds
        raise _damaged(path, f"{type(e).__name__}: {e}") from None
    meta = _read_meta(path, arrays.pop("meta"))
    try:
        weights = PolicyWeights.from_arrays(arrays, meta.get("activation"), where=str(path))
    except ValueError as e:
        raise _damaged(path, str(e)) from None
    extra_arrays = set(arrays) - set(weights.to_arrays())
    if extra_arrays:
        raise _damaged(path, f"unexpected array(s) {sorted(extra_arrays)}")
    if meta.get("features") is not None:
        weights.features = _load_features(path, meta)
        if weights.input_size != weights.features.out_size:
            raise _damaged(
                path,
                f"its first layer takes {weights.input_size} inputs, but the observation and "
                f"features {meta['features']!r} give {weights.features.out_size}",
            )
    for key, value in (
        ("obs_size", weights.obs_size),
        ("num_actions", weights.num_actions),
        ("hidden_sizes", [w.shape[1] for w, _ in weights.hidden]),
    ):
        if meta.get(key) != value:
            raise _damaged(
                path, f"'meta.{key}' is {meta.get(key)!r} but the weights give {value!r}"
            )
    return weights, meta


def _read_meta(path: Path, meta_arr: np.ndarray) -> dict:
    """The file's metadata (a JSON string array), checked: its format, a version this deckzoo
    reads, known keys only, and the type of each optional entry."""
    if meta_arr.shape != () or meta_arr.dtype.kind != "U":
        raise _damaged(path, "'meta' is not a JSON string")
    try:
        meta = json.loads(str(meta_arr))
    except json.JSONDecodeError as e:
        raise _damaged(path, f"'meta' is not valid JSON: {e}") from None
    if not isinstance(meta, dict) or meta.get("format") != POLICY_FORMAT:
        raise _damaged(path, f"'meta.format' is not {POLICY_FORMAT!r}")
    version = meta.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _damaged(path, f"'meta.version' must be a positive int, got {version!r}")
    if version > POLICY_VERSION:
        raise ConfigError(
            f"ppo: {str(path)!r} is a policy file of format version {version}; this deckzoo "
            f"reads versions up to {POLICY_VERSION}: upgrade deckzoo to load it"
        )
    unknown = set(meta) - META_KEYS
    if unknown:
        raise _damaged(path, f"unknown metadata key(s) {sorted(unknown)}")
    if meta.get("kind") != "mlp_actor":
        raise _damaged(path, f"'meta.kind' must be 'mlp_actor', got {meta.get('kind')!r}")
    for key in ("game", "env", "trainer"):
        if meta.get(key) is not None and not isinstance(meta[key], str):
            raise _damaged(path, f"'meta.{key}' must be a string or null")
    for key in ("game_config", "training", "extra"):
        if meta.get(key) is not None and not isinstance(meta[key], dict):
            raise _damaged(path, f"'meta.{key}' must be a mapping or null")
    return meta


def _load_features(path: Path, meta: dict) -> input_features.InputFeatures:
    """The file's input feature set, rebuilt from its name and the game configuration (code of
    ``deckzoo.agents.features``, never anything from the file)."""
    from deckzoo import envs

    name, game, config = meta["features"], meta.get("game"), meta.get("game_config")
    if not isinstance(name, str) or not isinstance(game, str) or not isinstance(config, dict):
        raise _damaged(path, "'meta.features' needs a string name, 'game' and 'game_config'")
    try:
        return input_features.make(name, envs.game_class(game)(**config))
    except (ConfigError, TypeError, KeyError) as e:
        raise _damaged(path, f"input features {name!r}: {e}") from None


def _features_name(weights: PolicyWeights) -> str | None:
    return None if weights.features is None else weights.features.name


SB3_ACTIVATIONS = {"Tanh": "tanh", "ReLU": "relu"}


def _load_sb3_zip(zf: zipfile.ZipFile) -> PolicyWeights:
    """The actor of a MaskablePPO ``MlpPolicy`` archive, without unpickling anything.

    ``policy.pth`` is a plain state dict, read with ``torch.load(weights_only=True)``; the
    activation is read from the JSON part (SB3 writes the class's name next to its pickled form)."""
    try:
        import torch
    except ImportError:
        raise ConfigError(
            f"ppo: {zf.filename} is a Stable-Baselines3 archive, read with torch: "
            "pip install 'deckzoo[train]' (a .npz policy needs no torch)"
        ) from None

    where = f"{zf.filename}"
    try:
        data = json.loads(read_member(zf, "data"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise _damaged(where, f"its 'data' is not JSON: {e}") from None
    kwargs = data.get("policy_kwargs") if isinstance(data, dict) else None
    activation = "tanh"  # SB3's default for MlpPolicy
    if isinstance(kwargs, dict) and "activation_fn" in kwargs:
        m = re.fullmatch(
            r"<class 'torch\.nn\.modules\.activation\.(\w+)'>", str(kwargs["activation_fn"])
        )
        if m is None or m.group(1) not in SB3_ACTIVATIONS:
            raise _damaged(
                where, f"activation {kwargs['activation_fn']!r} is not one of Tanh, ReLU"
            )
        activation = SB3_ACTIVATIONS[m.group(1)]
    try:
        state = safe_torch_load(read_member(zf, "policy.pth"))
    except ValueError as e:
        raise _damaged(where, f"its policy.pth is not a plain state dict: {e}") from None
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise _damaged(where, "its policy.pth is not a state dict of tensors")
    arrays = {}
    layers = sorted(
        (k for k in state if re.fullmatch(r"mlp_extractor\.policy_net\.\d+\.weight", k)),
        key=lambda k: int(k.split(".")[2]),
    )
    for i, key in enumerate(layers):
        base = key[: -len("weight")]
        arrays[f"hidden_{i}_weight"] = state[key].float().numpy().T
        arrays[f"hidden_{i}_bias"] = state.get(base + "bias", torch.empty(0)).float().numpy()
    if "action_net.weight" in state:
        arrays["head_weight"] = state["action_net.weight"].float().numpy().T
        arrays["head_bias"] = state.get("action_net.bias", torch.empty(0)).float().numpy()
    try:
        return PolicyWeights.from_arrays(arrays, activation, where=where)
    except ValueError as e:
        raise _damaged(where, f"not an MLP actor: {e}") from None


def safe_torch_load(data: bytes, limit: int = MAX_POLICY_BYTES):
    """``torch.load(weights_only=True)`` of ``data``: tensors and plain containers only, never
    code, and at most ``limit`` bytes unpacked. ``data`` must be torch's zip format (what
    ``torch.save`` has written since torch 1.6), whose directory is checked like a policy file's
    (``check_archive_sizes``): torch's older format allocates the storage sizes its pickle claims.
    Anything else raises ``ValueError`` with a one-line reason."""
    import torch

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as inner:
            check_archive_sizes(inner, limit, "a torch file")
    except zipfile.BadZipFile:
        raise ValueError("not a torch.save file of torch's zip format") from None
    try:
        return torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as e:  # noqa: BLE001 - torch raises many kinds; all mean "not plain tensors"
        text = str(e)
        if "WeightsUnpickler error:" in text:  # torch's own reason, without its advice to unpickle
            text = (
                "it holds more than tensors: " + text.split("WeightsUnpickler error:", 1)[1].strip()
            )
        raise ValueError(f"{type(e).__name__}: {text.splitlines()[0] if text else ''}") from None


# ---- acting -----------------------------------------------------------------------------------
def masked_choice(logits: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None) -> int:
    """Argmax over the legal actions (``rng`` None) or a sample of the masked softmax."""
    legal = np.flatnonzero(mask)
    return int(legal[_choose(logits[legal], rng)])


def _choose(z: np.ndarray, rng: np.random.Generator | None) -> int:
    """Index of the largest of ``z`` (``rng`` None) or a sample of ``softmax(z)``."""
    if rng is None:
        return int(np.argmax(z))
    p = np.exp(z - z.max())
    c = np.cumsum(p)
    i = int(np.searchsorted(c, rng.random() * c[-1], side="right"))
    return min(i, len(z) - 1)


class OtherVersionWarning(UserWarning):
    """A policy plays a version of its game other than the one it was trained on."""


def check_env_version(meta: dict, game: str, source: str) -> str | None:
    """Warn when ``meta["env"]`` (the versioned env a policy was trained on, ``"bigwig_v0"``) is
    not the game's current env: a version bump means the rules, the observation or the
    decisions changed, so the policy plays a game it was not trained on. Nothing may do that
    silently; it is not refused, because the old policy can still be a useful (labelled)
    opponent. Returns the warning's text, or ``None`` when the versions match or the file does
    not say (files of MaskablePPO ``.zip`` carry no env)."""
    trained_on = meta.get("env")
    if not trained_on:
        return None
    from deckzoo.envs import GAMES

    current = GAMES[game].env_name() if game in GAMES else None
    if current is None or trained_on == current:
        return None
    text = (
        f"{source} was trained on {trained_on} and now plays {current}, another version of the "
        f"game (the rules, observation or decisions changed since): retrain it on {current} "
        "before relying on it as a reference"
    )
    warnings.warn(text, OtherVersionWarning, stacklevel=3)
    return text


class PolicyAgent(Agent):
    """An Agent playing a ``PolicyWeights`` on ``info_state.observe()`` and its legal mask."""

    name = "policy"

    def __init__(
        self, weights: PolicyWeights, seed: int | None = None, deterministic: bool = False
    ):
        super().__init__(seed)
        self.weights = weights
        self.deterministic = deterministic

    def act(self, info_state: InfoState) -> int:
        obs = info_state.observe()
        if obs.size != self.weights.obs_size:
            raise ConfigError(
                f"{self.name}: the policy takes observations of size {self.weights.obs_size}, "
                f"this game gives {obs.size} (trained for another game or options?)"
            )
        legal = np.flatnonzero(info_state.legal_mask())
        return int(
            legal[
                _choose(
                    self.weights.legal_logits(obs, legal), None if self.deterministic else self.rng
                )
            ]
        )

    def check_table(self, game, spec: str) -> None:
        """``ConfigError`` naming ``spec``, the player counts the policy plays and the table's,
        unless the policy takes ``game``'s observations (``make_agent(..., game=game)`` asks when
        the agent is made). A policy is trained at one player count, and the observation's size
        grows with the seats: without this, ``zoo:wizard`` at 5 players failed only at its first
        move, once the games had started."""
        size = int(np.prod(game.observation_shape))
        want = self.weights.obs_size
        if size == want:
            return
        fits = [n for n in type(game).supported_players() if _obs_size(game, n) == want]
        plays = (
            f"plays {game.name} at {' or '.join(map(str, fits))} players (observations of {want})"
            if fits
            else f"takes observations of size {want}, which {game.name} gives at no player count "
            "with these options (trained for another game or options?)"
        )
        raise ConfigError(
            f"{spec}: the policy {plays}; this table has {game.num_players} players "
            f"(observations of {size})"
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(deterministic={self.deterministic})"


def _obs_size(game, num_players: int) -> int | None:
    """The observation size of ``game``'s configuration at ``num_players`` seats (None if its
    options do not allow that many)."""
    try:
        other = type(game)(num_players, **game.options)
    except ConfigError:
        return None
    return int(np.prod(other.observation_shape))


class PPOAgent(PolicyAgent):
    """A policy loaded from a file (deckzoo ``.npz`` or MaskablePPO ``.zip``), acting greedily
    (default) or by sampling. ``game``, when given, must be the game the file was trained for."""

    name = "ppo"

    def __init__(
        self,
        path: str,
        seed: int | None = None,
        deterministic: bool = True,
        game: str | None = None,
    ):
        self.path = str(path)
        weights, self.meta = load_policy(self.path)
        trained_for = self.meta.get("game")
        if game is not None and trained_for is not None and trained_for != game:
            raise ConfigError(f"ppo: {self.path!r} is a policy for {trained_for}, not {game}")
        if game is not None:
            self.version_warning = check_env_version(self.meta, game, f"ppo:{self.path}")
        super().__init__(weights, seed, deterministic)

    def __repr__(self) -> str:
        return f"PPOAgent({self.path!r}, deterministic={self.deterministic})"


def load_weights(path: str) -> PolicyWeights:
    """The actor weights of a policy file (see ``load_policy``)."""
    return load_policy(path)[0]


def _factory(game_name: str, seed: int | None, arg: str | None) -> Agent:
    if not arg:
        raise ConfigError("agent spec 'ppo' needs a model path: ppo:PATH or ppo:PATH:sample")
    path, mode = arg, "greedy"
    head, _, tail = arg.rpartition(":")
    if head and tail in ("greedy", "sample"):
        path, mode = head, tail
    return PPOAgent(path, seed, deterministic=(mode == "greedy"), game=game_name)


register_agent(
    "ppo",
    _factory,
    "ppo:PATH[:sample]: a trained policy file (.npz, or a MaskablePPO .zip), greedy unless :sample",
)
