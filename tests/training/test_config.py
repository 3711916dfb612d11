"""Training configs: every shipped YAML loads, by path and by name from any folder; unknown keys,
wrong types and bad values are rejected with the key's name; an unknown name, a folder or a binary
file is one error line."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckzoo.agents.cli_args import config_path, load_yaml, shipped_configs
from deckzoo.envs import registry
from deckzoo.envs.core.errors import ConfigError
from deckzoo.training.config import TrainConfig, config_from_dict, config_to_dict, load_config
from deckzoo.training.run import check_resumable

CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs"
TRAINING_CONFIGS = [CONFIG_DIR / f"{game}.yaml" for game in registry.games()]
# Every YAML of configs/ but the zoo's evaluation plan is a training config, shipped by name.
SHIPPED = sorted(p.stem for p in CONFIG_DIR.glob("*.yaml") if p.stem != "zoo")


@pytest.mark.parametrize("path", TRAINING_CONFIGS, ids=lambda p: p.stem)
def test_shipped_configs_load(path):
    assert path.exists(), f"every game ships a training config: {path.name} is missing"
    cfg = load_config(path)
    assert cfg.game == path.stem and cfg.torch_threads == 1
    assert config_from_dict(config_to_dict(cfg)) == cfg


@pytest.mark.parametrize(
    "data,key",
    [
        ({"lerning_rate": 1e-3}, "'lerning_rate'"),
        ({"ppo": {"lerning_rate": 1e-3}}, "'ppo.lerning_rate'"),
        ({"eval": {"gams": 10}}, "'eval.gams'"),
        ({"opponents": {"pool": 3}}, "'opponents.pool'"),
        ({"ppo": {"n_steps": "many"}}, "'ppo.n_steps'"),
        ({"ppo": {"n_steps": True}}, "'ppo.n_steps'"),
        ({"seed": 1.5}, "'seed'"),
        ({"ppo": 3}, "ppo"),
        ({"game": "chess"}, "'game'"),
        ({"vec_env": "threads"}, "'vec_env'"),
        ({"reward": "points"}, "'reward'"),
        ({"n_envs": 0}, "'n_envs'"),
        ({"torch_threads": 0}, "'torch_threads'"),
        ({"ppo": {"batch_size": 300}}, "'ppo.batch_size'"),
        ({"ppo": {"gamma": 1.5}}, "'ppo.gamma'"),
        ({"ppo": {"net_arch": []}}, "'ppo.net_arch'"),
        ({"ppo": {"activation": "gelu"}}, "'ppo.activation'"),
        ({"opponents": {"mix": {"random": -1}}}, "'opponents.mix.random'"),
        ({"opponents": {"mix": {"random": 0}}}, "'opponents.mix'"),
        ({"num_players": 9}, "num_players"),
        ({"game_options": {"no_such_option": 1}}, "no_such_option"),
        ({"pretrain": {"imitate": "heuristic", "lerning_rate": 1e-3}}, "'pretrain.lerning_rate'"),
        ({"pretrain": {"imitate": "nobody"}}, "'pretrain.imitate'"),
        ({"pretrain": {"imitate": 3}}, "'pretrain.imitate'"),
        ({"pretrain": {"imitate": "heuristic", "decisions": 0}}, "'pretrain.decisions'"),
        ({"pretrain": {"imitate": "heuristic", "epochs": 0}}, "'pretrain.epochs'"),
        ({"pretrain": {"imitate": "heuristic", "holdout": 1.0}}, "'pretrain.holdout'"),
        ({"pretrain": {"imitate": "heuristic", "learning_rate": 0}}, "'pretrain.learning_rate'"),
        ({"pretrain": {"imitate": "heuristic", "value": "yes"}}, "'pretrain.value'"),
        ({"pretrain": {"imitate": "heuristic", "eval_games": -1}}, "'pretrain.eval_games'"),
        ({"eval": {"final_seed": -1}}, "'eval.final_seed'"),
        ({"eval": {"final_seed": "x"}}, "'eval.final_seed'"),
    ],
)
def test_bad_config_is_rejected_naming_the_key(data, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        config_from_dict({"game": "gobig", **data})


def test_yaml_file_errors_name_file_and_key(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("game: gobig\nppo:\n  n_step: 64\n")
    with pytest.raises(ConfigError, match=r"bad\.yaml.*'ppo\.n_step'"):
        load_config(path)
    with pytest.raises(ConfigError, match="no config file"):
        load_config(tmp_path / "missing.yaml")


def test_defaults_and_overrides(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("game: gobig_v0\n")
    cfg = load_config(path, {"total_timesteps": 128, "ppo.n_steps": 64, "ppo.batch_size": 64})
    assert cfg.game == "gobig" and cfg.total_timesteps == 128 and cfg.ppo.n_steps == 64
    assert cfg.ppo.learning_rate == TrainConfig().ppo.learning_rate
    assert isinstance(config_from_dict({"ppo": {"learning_rate": 1}}).ppo.learning_rate, float)
    assert cfg.resolved_run_dir() == Path("runs/gobig")


def test_a_run_saved_with_removed_options_at_their_defaults_resumes():
    """vector.precision, norm_obs and target_kl are gone; every trainer's saved config has them."""
    given = config_to_dict(config_from_dict({"game": "gobig"}))
    saved = config_to_dict(config_from_dict({"game": "gobig"}))
    saved["vector"].update(precision="float32", norm_obs=False, target_kl=None)
    check_resumable(saved, given)
    saved["vector"]["precision"] = "bfloat16"
    with pytest.raises(ConfigError, match=r"differs .* in vector\.precision"):
        check_resumable(saved, given)


def test_shipped_configs_load_by_name_from_any_folder(tmp_path, monkeypatch):
    """``gobig``, ``gobig.yaml`` and the docs' ``configs/gobig.yaml`` are the shipped file where
    the current folder has no such file; a file that is there wins."""
    monkeypatch.chdir(tmp_path)
    assert shipped_configs() == SHIPPED and "gobig" in SHIPPED and len(SHIPPED) > 10
    for name in SHIPPED:
        path = CONFIG_DIR / f"{name}.yaml"
        for given in (name, f"{name}.yaml", f"configs/{name}.yaml"):
            assert config_path(given) == path, given
        assert load_config(name) == load_config(path)
    (tmp_path / "gobig.yaml").write_text("game: bignumber\n")
    assert load_config("gobig.yaml").game == "bignumber" and load_config("gobig").game == "gobig"


@pytest.mark.parametrize("given", ["gobg", "gobg.yaml", "zoo", "configs/nosuch.yaml", "x/gobig"])
def test_an_unknown_config_name_lists_the_shipped_ones(tmp_path, monkeypatch, given):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as e:
        load_config(given)
    message = str(e.value)
    assert "\n" not in message and f"no config file {given!r}" in message
    listed = message.partition("shipped configs: ")[2].split(", ")
    assert listed == SHIPPED  # the zoo's evaluation plan is not offered as a training config


def test_a_folder_a_binary_file_or_deep_nesting_is_one_error(tmp_path):
    with pytest.raises(ConfigError, match="is not a file"):
        load_config(tmp_path)
    binary = tmp_path / "model.yaml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00\x00")
    with pytest.raises(ConfigError, match=r"model\.yaml: not a YAML config \(not UTF-8 text: byte"):
        load_config(binary)
    deep = tmp_path / "deep.yaml"
    deep.write_text("game: gobig\nppo: " + "[" * 50_000 + "\n")
    with pytest.raises(ConfigError, match=r"deep\.yaml.*nested too deeply"):
        load_config(deep)
    with pytest.raises(ConfigError, match="nested too deeply"):
        load_yaml("{a: " * 50_000)
