"""Archive bombs: a small policy file or checkpoint whose members unpack to hundreds of MiB is
refused from its zip directory and npy headers, before the data is unpacked, with one line
naming the file and the member. Memory is measured with tracemalloc (numpy and zlib's output
are Python allocations), never time."""

from __future__ import annotations

import io
import json
import struct
import tracemalloc
import zipfile

import numpy as np
import pytest

from deckzoo.agents import policy as P
from deckzoo.agents.policy import load_policy
from deckzoo.envs.core.errors import ConfigError

BOMB = 300 * 2**20  # zeros unpacked; over MAX_POLICY_BYTES, about 1.3 MB deflated
PEAK = 32 * 2**20  # what a refusal may allocate at most (a tenth of the bomb)


def _npy_header(shape, dtype="<f4") -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buf, {"descr": dtype, "fortran_order": False, "shape": shape}
    )
    return buf.getvalue()


def _npy(arr: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=False)
    return buf.getvalue()


def _write_zip(path, small: dict[str, bytes], big_name: str, head: bytes, zeros: int, declare=None):
    """A zip of the ``small`` members and ``big_name``: ``head`` then ``zeros`` zero bytes,
    deflated a MiB at a time (never held whole). ``declare``: the unpacked size the central
    directory states for the big member, when it should lie."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for name, data in small.items():
            zf.writestr(name, data)
        with zf.open(big_name, "w") as f:
            f.write(head)
            chunk = bytes(2**20)
            for _ in range(zeros // len(chunk)):
                f.write(chunk)
            f.write(bytes(zeros % len(chunk)))
    if declare is not None:
        _declare_size(path, big_name, declare)
    return path


def _declare_size(path, name: str, size: int) -> None:
    """Overwrite the unpacked size the central directory gives ``name`` (zipfile trusts it)."""
    data = bytearray(path.read_bytes())
    pos = 0
    while (pos := data.find(b"PK\x01\x02", pos)) >= 0:
        (name_len,) = struct.unpack_from("<H", data, pos + 28)
        if data[pos + 46 : pos + 46 + name_len] == name.encode():
            struct.pack_into("<I", data, pos + 24, size)
            path.write_bytes(bytes(data))
            return
        pos += 4
    raise AssertionError(f"no central directory entry for {name}")


def _meta(**over) -> np.ndarray:
    meta = {
        "format": P.POLICY_FORMAT,
        "version": 1,
        "kind": "mlp_actor",
        "activation": "tanh",
        "obs_size": 3,
        "num_actions": 2,
        "hidden_sizes": [],
        **over,
    }
    return np.array(json.dumps(meta))


def _refused_within_memory(path, *match: str) -> str:
    """load_policy's refusal of ``path``: one line naming the file and ``match``, allocating
    less than PEAK."""
    tracemalloc.start()
    try:
        with pytest.raises(ConfigError) as err:
            load_policy(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    text = str(err.value)
    assert peak < PEAK, f"refusing allocated {peak / 2**20:.0f} MiB"
    assert "\n" not in text and str(path) in text
    for m in match:
        assert m in text
    return text


def test_an_npz_whose_array_unpacks_to_hundreds_of_mib_is_refused_unread(tmp_path):
    rows = BOMB // (4 * 1024)
    path = _write_zip(
        tmp_path / "bomb.npz",
        {"meta.npy": _npy(_meta()), "head_bias.npy": _npy(np.zeros(2, np.float32))},
        "head_weight.npy",
        _npy_header((rows, 1024)),
        rows * 1024 * 4,
    )
    assert path.stat().st_size < 4 * 2**20  # a small file
    text = _refused_within_memory(path, "'head_weight.npy'", "refused before unpacking")
    assert "MiB" in text


def test_an_npz_whose_directory_understates_a_member_stops_at_the_stated_size(tmp_path):
    """A directory saying 4 MiB for a member of 300 MiB: reading stops at 4 MiB (CRC error)."""
    head = _npy_header((1024, 1024))
    path = _write_zip(
        tmp_path / "liar.npz",
        {"meta.npy": _npy(_meta()), "head_bias.npy": _npy(np.zeros(2, np.float32))},
        "head_weight.npy",
        head,
        BOMB,
        declare=len(head) + 4 * 2**20,
    )
    _refused_within_memory(path, "unreadable archive")


def test_an_npy_header_claiming_more_than_its_member_is_refused_unallocated(tmp_path):
    """numpy's reader would allocate the header's 40 GB before finding the data missing."""
    path = tmp_path / "claims.npz"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("meta.npy", _npy(_meta()))
        zf.writestr("head_weight.npy", _npy_header((100_000, 100_000)) + bytes(8))
    _refused_within_memory(path, "'head_weight.npy'", "(100000, 100000)")


def test_an_array_of_an_implausible_shape_for_a_policy_is_refused(tmp_path):
    path = tmp_path / "cube.npz"
    np.savez(path, meta=_meta(), head_weight=np.zeros((3, 2, 2), np.float32))
    _refused_within_memory(path, "'head_weight.npy'", "at most 2 dimensions")


def _sb3_data() -> bytes:
    return json.dumps({"policy_kwargs": {}}).encode()


@pytest.mark.parametrize("member", ["policy.pth", "data"])
def test_an_sb3_zip_with_a_member_of_hundreds_of_mib_is_refused_unread(tmp_path, member):
    import torch  # noqa: F401 - imported before measuring: the refusal's memory, not torch's

    small = {"data": _sb3_data(), "policy.pth": b""}
    del small[member]
    path = _write_zip(tmp_path / "bomb.zip", small, member, b"", BOMB)
    _refused_within_memory(path, f"{member!r}", "refused before unpacking")


def test_an_sb3_zip_whose_directory_understates_data_stops_at_the_stated_size(tmp_path):
    import torch  # noqa: F401

    path = _write_zip(tmp_path / "liar.zip", {"policy.pth": b""}, "data", b"", BOMB, declare=1024)
    _refused_within_memory(path, "unreadable archive")


def test_a_policy_pth_that_is_itself_a_bomb_is_refused_unread(tmp_path):
    """policy.pth is a zip of its own (torch's format): its directory is checked too."""
    import torch  # noqa: F401

    inner = _write_zip(tmp_path / "inner.zip", {}, "archive/data/0", b"", BOMB)
    path = tmp_path / "nested.zip"
    with zipfile.ZipFile(path, "w") as zf:  # stored: the outer archive is small unpacked
        zf.writestr("data", _sb3_data())
        zf.writestr("policy.pth", inner.read_bytes())
    _refused_within_memory(path, "'archive/data/0'", "a torch file")


def test_torch_files_in_the_old_format_are_refused():
    """torch's pre-zip format allocates the storage sizes its pickle claims, unchecked."""
    import pickle

    with pytest.raises(ValueError, match="zip format"):
        P.safe_torch_load(pickle.dumps({"x": 1}))


def test_other_compression_methods_are_refused(tmp_path):
    """zipfile unpacks bzip2 and lzma members without bounding each read's output."""
    path = tmp_path / "bz.npz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_BZIP2) as zf:
        zf.writestr("meta.npy", _npy(_meta()))
    _refused_within_memory(path, "'meta.npy'", "only stored and deflate")


def test_a_checkpoint_bomb_is_refused_unread(tmp_path, monkeypatch):
    """Checkpoints are read the same way, under their own (larger) bound, lowered here so that
    a small bomb exceeds it."""
    from deckzoo.training import checkpoint as C

    monkeypatch.setattr(C, "MAX_CHECKPOINT_BYTES", 64 * 2**20)
    meta = json.dumps({"format": C.CHECKPOINT_FORMAT, "version": C.CHECKPOINT_VERSION})
    inner = tmp_path / "arrays.npz"
    _write_zip(inner, {}, "pending.npy", _npy_header((BOMB // 4,)), BOMB)
    path = tmp_path / C.CHECKPOINT
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("meta.json", meta)
        zf.writestr("arrays.npz", inner.read_bytes())
        for name in C.TENSOR_FILES:
            zf.writestr(name, b"")
    tracemalloc.start()
    try:
        with pytest.raises(ConfigError, match="'pending.npy'") as err:
            C.read_checkpoint(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < PEAK and "\n" not in str(err.value) and str(path) in str(err.value)
