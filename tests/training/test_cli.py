"""``deckzoo train`` as a user drives it (main(argv) in-process): every user error is one line on
stderr with exit status 2 naming the bad value and where it came from (the file with its line
and column, or the --set that gave it); damaged or crafted checkpoints are refused without
running anything from them; finished runs, extensions, eval.csv's final rows and Ctrl-C."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import numpy as np
import pytest
import yaml

from deckzoo.agents.cli import main
from deckzoo.training.config import config_to_dict, load_config

from ..agents.helpers import one_line as _one_line_error
from ..agents.helpers import run_cli as _run
from .test_train import ROLLOUT, tiny


def _config(tmp_path, name="c.yaml", **over):
    """A tiny run's config as a YAML file (run_dir inside tmp_path)."""
    data = config_to_dict(tiny(tmp_path / "run", rollouts=2, **over))
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data))
    return path


# ---- config parsing ------------------------------------------------------------------------------
def test_exponent_floats_without_a_dot_are_floats(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("game: gobig\nppo:\n  learning_rate: 1e-4\n  ent_coef: 5E-3\n")
    cfg = load_config(path, {"pretrain.learning_rate": 2e-3})
    assert cfg.ppo.learning_rate == 1e-4 and cfg.ppo.ent_coef == 5e-3
    import argparse

    from deckzoo.training.cli import overrides_of

    args = argparse.Namespace(
        set=["ppo.learning_rate=3e-5", "eval.games=12", "reward=score"],
        run_dir=None,
        steps=None,
        no_progress=False,
        address=None,
    )
    overrides, sources = overrides_of(args)
    assert overrides == {"ppo.learning_rate": 3e-5, "eval.games": 12, "reward": "score"}
    assert load_config(path, overrides, sources).ppo.learning_rate == 3e-5


@pytest.mark.parametrize(
    "sets,needles",
    [
        (["ppo.learning_rate=abc"], ["--set ppo.learning_rate=abc", "'ppo.learning_rate'"]),
        (["ppo.learning_rate=.inf"], ["--set ppo.learning_rate=.inf", "finite"]),
        (["ppo.learning_rate=.nan"], ["--set ppo.learning_rate=.nan", "finite"]),
        (["ppo.ent_coef=-0.1"], ["--set ppo.ent_coef=-0.1", "'ppo.ent_coef'", ">= 0"]),
        (["ppo.vf_coef=-1"], ["'ppo.vf_coef'"]),
        (["ppo.lerning_rate=1e-4"], ["--set ppo.lerning_rate=1e-4", "'ppo.lerning_rate'"]),
        (
            ["eval.opponents=[random, hueristic]"],
            ["--set eval.opponents=", "'eval.opponents[1]'", "hueristic"],
        ),
        (
            ["opponents.mix={rnd: 1}"],
            ["--set opponents.mix=", "'opponents.mix.rnd'", "unknown agent"],
        ),
        (["opponents.mix.random=.inf"], ["'opponents.mix.random'", "finite"]),
        (["learning_rate"], ["--set must be KEY=VALUE", "'learning_rate'"]),
        (["ppo.n_steps.x=3"], ["--set ppo.n_steps.x=3", "'ppo.n_steps' is not a section"]),
        (["ppo.gamma=[1"], ["--set", "invalid YAML"]),
    ],
)
def test_bad_set_values_are_blamed_on_the_set(tmp_path, capsys, sets, needles):
    cfg = _config(tmp_path)
    argv = ["train", "--config", str(cfg)]
    for s in sets:
        argv += ["--set", s]
    line = _one_line_error(*_run(argv, capsys)[::2], *needles)
    assert "c.yaml" not in line  # the file is fine; the --set is not


def test_bad_file_values_are_blamed_on_the_file(tmp_path, capsys):
    cfg = _config(tmp_path)
    data = yaml.safe_load(cfg.read_text())
    data["eval"]["opponents"] = ["random", "heurstic"]
    cfg.write_text(yaml.safe_dump(data))
    _one_line_error(
        *_run(["train", "--config", str(cfg), "--set", "eval.games=3"], capsys)[::2],
        "c.yaml",
        "'eval.opponents[1]'",
        "heurstic",
    )
    _one_line_error(
        *_run(["train", "--config", str(cfg), "--steps", "0"], capsys)[::2], "--steps", "at least 1"
    )


def test_agent_names_are_checked_before_training_starts(tmp_path):
    from deckzoo.envs.core.errors import ConfigError
    from deckzoo.training.config import config_from_dict

    for data, key in [
        ({"eval": {"opponents": ["randm"]}}, "'eval.opponents[0]'"),
        ({"opponents": {"mix": {"pool": 1, "ismcts:abc": 1}}}, "'opponents.mix.ismcts:abc'"),
        ({"opponents": {"mix": {"ppo:/no/such.npz": 1}}}, "no model file"),
    ]:
        with pytest.raises(ConfigError, match=key.replace("[", r"\[").replace("]", r"\]")):
            config_from_dict({"game": "gobig", **data})
    assert not (tmp_path / "run").exists()


def test_malformed_yaml_names_file_line_and_column(tmp_path, capsys):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text("game: gobig\nppo:\n  learning_rate: [1e-4\n  n_steps: 3\n")
    line = _one_line_error(
        *_run(["train", "--config", str(cfg)], capsys)[::2], "bad.yaml:", "invalid YAML"
    )
    assert "bad.yaml:4:" in line  # the list left open on line 3 fails on line 4
    cfg.write_text("- just\n- a list\n")
    _one_line_error(*_run(["train", "--config", str(cfg)], capsys)[::2], "bad.yaml", "mapping")
    _one_line_error(
        *_run(["train", "--config", str(tmp_path / "none.yaml")], capsys)[::2], "no config file"
    )


def test_a_binary_config_file_is_one_line(tmp_path, capsys):
    cfg = tmp_path / "policy.yaml"
    cfg.write_bytes(np.arange(256, dtype=np.uint8).tobytes()[::-1])
    _one_line_error(
        *_run(["train", "--config", str(cfg)], capsys)[::2], "policy.yaml", "not UTF-8 text"
    )


def test_a_shipped_config_trains_by_name_from_an_empty_folder(tmp_path, capsys, monkeypatch):
    """What a new user types after pip install: the shipped gobig config, by name, in a folder
    with no configs/ (shrunk by --set to a few seconds); an unknown name lists the shipped ones."""
    monkeypatch.chdir(tmp_path)
    small = ["n_envs=2", "ppo.n_steps=32", "ppo.batch_size=32", "ppo.n_epochs=1"]
    small += ["ppo.net_arch=[16]", "eval.every=0", "eval.final_games=0"]
    argv = ["train", "--config", "gobig", "--steps", str(ROLLOUT), "--no-progress"]
    rc, out, err = _run([*argv, *(a for s in small for a in ("--set", s))], capsys)
    assert rc == 0, err
    assert json.loads(out)["run_dir"] == "runs/gobig" and json.loads(out)["steps"] == ROLLOUT
    saved = yaml.safe_load((tmp_path / "runs" / "gobig" / "config.yaml").read_text())
    assert saved["game"] == "gobig" and saved["num_players"] == 4  # the shipped file's values
    line = _one_line_error(*_run(["train", "--config", "gobg"], capsys)[::2], "'gobg'")
    assert "shipped configs: " in line and "gobig-vector" in line


def test_cuda_without_a_gpu_is_an_error(tmp_path, capsys, monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    cfg = _config(tmp_path)
    _one_line_error(
        *_run(["train", "--config", str(cfg), "--set", "device=cuda"], capsys)[::2],
        "--set device=cuda",
        "no GPU",
    )


# ---- checkpoints ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A finished 2-rollout run with a final evaluation; its folder and config path."""
    tmp = tmp_path_factory.mktemp("finished")
    cfg = _config(tmp, eval={"final_games": 2})
    assert main(["train", "--config", str(cfg), "--no-progress"]) == 0
    return tmp / "run", cfg


def _copy_run(run, tmp_path):
    import shutil

    dest = tmp_path / "run"
    shutil.copytree(run, dest)
    return dest


@pytest.mark.parametrize(
    "damage", ["empty", "truncated", "garbage", "not_json", "no_policy", "bad_arrays"]
)
def test_damaged_checkpoints_are_refused_naming_the_file(finished_run, tmp_path, capsys, damage):
    run = _copy_run(finished_run[0], tmp_path)
    cfg = _config(tmp_path, name="ext.yaml")
    ckpt = run / "checkpoint.ckpt"
    data = ckpt.read_bytes()
    if damage == "empty":
        ckpt.write_bytes(b"")
    elif damage == "truncated":
        ckpt.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        ckpt.write_bytes(b"not a checkpoint at all" * 40)
    else:
        _rewrite_member(
            ckpt,
            {"not_json": "meta.json", "no_policy": "policy.pt", "bad_arrays": "arrays.npz"}[damage],
            b"{broken" if damage != "no_policy" else None,
        )
    line = _one_line_error(
        *_run(["train", "--config", str(cfg), "--resume", "--steps", str(4 * ROLLOUT)], capsys)[
            ::2
        ],
        str(ckpt),
        "damaged",
    )
    assert "start the run afresh" in line


def _rewrite_member(path, name, data):
    """Replace (or, with None, drop) one member of a checkpoint archive."""
    with zipfile.ZipFile(path) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    if data is None:
        members.pop(name)
    else:
        members[name] = data
    with zipfile.ZipFile(path, "w") as zf:
        for n, d in members.items():
            zf.writestr(n, d)


class _Payload:
    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


@pytest.mark.parametrize("member", ["policy.pt", "optimizer.pt", "arrays.npz"])
def test_a_crafted_checkpoint_does_not_run_code(finished_run, tmp_path, capsys, member):
    import torch

    run = _copy_run(finished_run[0], tmp_path)
    marker = tmp_path / "pwned"
    buf = io.BytesIO()
    if member == "arrays.npz":
        arr = np.empty(1, dtype=object)
        arr[0] = _Payload(marker)
        np.savez(buf, rng_torch=arr)
    else:
        torch.save({"state": _Payload(marker)}, buf)
    _rewrite_member(run / "checkpoint.ckpt", member, buf.getvalue())
    cfg = _config(tmp_path, name="ext.yaml")
    _one_line_error(
        *_run(["train", "--config", str(cfg), "--resume", "--steps", str(4 * ROLLOUT)], capsys)[
            ::2
        ],
        "damaged",
        member,
    )
    assert not marker.exists()


def test_checkpoint_format_version_is_checked(finished_run, tmp_path, capsys):
    run = _copy_run(finished_run[0], tmp_path)
    ckpt = run / "checkpoint.ckpt"
    with zipfile.ZipFile(ckpt) as zf:
        meta = json.loads(zf.read("meta.json"))
    meta["version"] = 99
    _rewrite_member(ckpt, "meta.json", json.dumps(meta).encode())
    cfg = _config(tmp_path, name="ext.yaml")
    _one_line_error(
        *_run(["train", "--config", str(cfg), "--resume", "--steps", str(4 * ROLLOUT)], capsys)[
            ::2
        ],
        "format version 99",
        "reads version 1",
    )
    (run / "checkpoint.ckpt").unlink()
    (run / "checkpoint.pkl").write_bytes(b"old")
    _one_line_error(
        *_run(["train", "--config", str(cfg), "--resume"], capsys)[::2], "checkpoint.pkl", "pickle"
    )


# ---- finished runs and extensions ----------------------------------------------------------------
def _eval_rows(run):
    with open(run / "eval.csv") as f:
        return list(csv.DictReader(f))


def test_resuming_a_finished_run_says_so(finished_run, tmp_path, capsys):
    run = _copy_run(finished_run[0], tmp_path)
    cfg = _config(tmp_path, name="same.yaml", eval={"final_games": 2})
    before = (run / "eval.csv").read_text()
    rc, _out, err = _run(["train", "--config", str(cfg), "--resume"], capsys)
    assert rc == 0 and "already finished at 128 steps" in err and "nothing to do" in err
    assert (run / "eval.csv").read_text() == before  # no second final evaluation


def test_steps_below_the_steps_done_is_an_error(finished_run, tmp_path, capsys):
    _copy_run(finished_run[0], tmp_path)
    cfg = _config(tmp_path, name="same.yaml", eval={"final_games": 2})
    _one_line_error(
        *_run(["train", "--config", str(cfg), "--resume", "--steps", "64"], capsys)[::2],
        "below the 128 steps",
        "more than 128",
    )


def test_extending_a_run_marks_final_rows_and_updates_config(finished_run, tmp_path, capsys):
    run = _copy_run(finished_run[0], tmp_path)
    rows = _eval_rows(run)
    assert {r["kind"] for r in rows} == {"periodic", "final"}
    assert [r["step"] for r in rows if r["kind"] == "final"] == ["128"]
    assert yaml.safe_load((run / "config.yaml").read_text())["total_timesteps"] == 2 * ROLLOUT
    cfg = _config(tmp_path, name="same.yaml", eval={"final_games": 2})
    rc, _out, err = _run(
        ["train", "--config", str(cfg), "--resume", "--steps", str(3 * ROLLOUT), "--no-progress"],
        capsys,
    )
    assert rc == 0, err
    assert yaml.safe_load((run / "config.yaml").read_text())["total_timesteps"] == 3 * ROLLOUT
    rows = _eval_rows(run)
    assert [(r["step"], r["kind"]) for r in rows if r["kind"] == "final"] == [
        ("128", "final"),
        ("192", "final"),
    ]
    assert (run / "learning_curve.png").stat().st_size > 1000


def test_ctrl_c_says_where_the_checkpoint_is_and_how_to_resume(tmp_path, capsys, monkeypatch):
    import deckzoo.training.opponents as T

    calls = []
    real = T.evaluate

    def interrupt_second(
        *a, **k
    ):  # evaluations at steps 64 and 128; the checkpoint at 64 precedes the second
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(T, "evaluate", interrupt_second)
    cfg = _config(tmp_path, checkpoint_every=ROLLOUT, eval={"every": ROLLOUT})
    rc, out, err = _run(["train", "--config", str(cfg), "--no-progress", "--set", "seed=3"], capsys)
    lines = [ln for ln in err.splitlines() if ln.startswith("deckzoo train:")]
    assert rc == 130 and len(lines) == 1 and "Traceback" not in err
    assert "interrupted at step 128" in lines[0] and "last checkpoint (step 64)" in lines[0]
    resume = lines[0].split("resume with: ")[1]
    assert str(tmp_path / "run" / "checkpoint.ckpt") in lines[0]
    assert resume == f"deckzoo train --config {cfg} --set seed=3 --resume"
    monkeypatch.setattr(T, "evaluate", real)
    rc, out, err = _run([*resume.split()[1:], "--no-progress"], capsys)
    assert rc == 0, err
    assert json.loads(out)["steps"] == 2 * ROLLOUT


def test_ctrl_c_before_the_first_checkpoint_says_there_is_nothing_to_resume(
    tmp_path, capsys, monkeypatch
):
    import deckzoo.training.pretrain as P

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(P, "pretrain", interrupted)  # Ctrl-C during behaviour cloning
    cfg = _config(tmp_path, pretrain={"imitate": "heuristic", "decisions": 10})
    rc, _, err = _run(["train", "--config", str(cfg), "--no-progress"], capsys)
    lines = [ln for ln in err.splitlines() if ln.startswith("deckzoo train:")]
    assert rc == 130 and len(lines) == 1 and "Traceback" not in err
    assert "before its first checkpoint" in lines[0] and "nothing to resume" in lines[0]
