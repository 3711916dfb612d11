"""The policy file (deckzoo.agents.policy): save/load round trips, every damaged or foreign file is
refused with an error naming the file, no file can run code when loaded (crafted pickle payloads
in every place one could hide), and agents load a policy without torch or deckzoo.training."""

from __future__ import annotations

import io
import itertools
import json
import pickle
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import deckzoo.envs as E
from deckzoo.agents.evaluation.match import play_match
from deckzoo.agents.policy import POLICY_VERSION, PolicyWeights, PPOAgent, load_policy, save_policy
from deckzoo.agents.registry import make_agent
from deckzoo.envs.core.errors import ConfigError


def random_weights(
    obs_size: int, num_actions: int, hidden=(16, 8), activation="relu", seed=0
) -> PolicyWeights:
    rng = np.random.default_rng(seed)
    sizes = [obs_size, *hidden]
    layers = [
        (rng.standard_normal((a, b), dtype=np.float32), rng.standard_normal(b, dtype=np.float32))
        for a, b in itertools.pairwise(sizes)
    ]
    head = (
        rng.standard_normal((sizes[-1], num_actions), dtype=np.float32),
        rng.standard_normal(num_actions, dtype=np.float32),
    )
    return PolicyWeights(hidden=layers, head=head, activation=activation)


@pytest.fixture
def gobig_game():
    return E.game_class("gobig")(4)


@pytest.fixture
def policy_file(tmp_path, gobig_game):
    w = random_weights(gobig_game.observation_shape[0], gobig_game.num_actions)
    return save_policy(
        tmp_path / "policy.npz",
        w,
        game="gobig",
        env="gobig_v0",
        game_config=gobig_game.config(),
        trainer="test",
        training={"seed": 3},
    ), w


@pytest.mark.parametrize("hidden,activation", [((16, 8), "relu"), ((), "tanh"), ((5,), "tanh")])
def test_save_load_round_trip(tmp_path, hidden, activation):
    w = random_weights(11, 7, hidden, activation)
    path = save_policy(
        tmp_path / "p.npz",
        w,
        game="gobig",
        game_config={"num_players": 4},
        trainer="t",
        training={"ppo": {"learning_rate": 1e-4}},
        extra={"note": "x"},
    )
    got, meta = load_policy(path)
    assert got.equals(w)
    obs = np.random.default_rng(1).random((3, 11), dtype=np.float32)
    np.testing.assert_array_equal(got.logits(obs), w.logits(obs))
    # version 1: nothing in the file needs a newer reader (input features would make it 2)
    assert meta["format"] == "deckzoo.policy" and meta["version"] == 1 < POLICY_VERSION
    assert (
        meta["obs_size"] == 11 and meta["num_actions"] == 7 and meta["hidden_sizes"] == list(hidden)
    )
    assert meta["activation"] == activation and meta["game"] == "gobig" and meta["trainer"] == "t"
    assert meta["training"] == {"ppo": {"learning_rate": 1e-4}} and meta["extra"] == {"note": "x"}
    assert not (tmp_path / "p.npz.tmp").exists()


def test_policy_file_plays_through_the_ppo_spec(policy_file, gobig_game):
    path, w = policy_file
    agent = make_agent(f"ppo:{path}", "gobig", seed=0)
    assert isinstance(agent, PPOAgent) and agent.weights.equals(w) and agent.meta["game"] == "gobig"
    sample = make_agent(f"ppo:{path}:sample", "gobig", seed=0)
    res = play_match(
        gobig_game, [agent, sample, make_agent("random", "gobig", 1), agent], list("abcd"), seed=0
    )
    assert res.winners


def test_policy_for_another_game_is_refused(policy_file):
    path, _ = policy_file
    with pytest.raises(ConfigError, match="a policy for gobig, not wizard"):
        make_agent(f"ppo:{path}", "wizard")


def rewrite_file(path, **changes):
    """A copy of a policy file's arrays with some replaced (None removes one)."""
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    for k, v in changes.items():
        if v is None:
            arrays.pop(k)
        else:
            arrays[k] = v
    out = path.with_name("changed.npz")
    np.savez(out, **arrays)
    return out


def meta_of(path, **changes):
    with np.load(path) as z:
        meta = json.loads(str(z["meta"]))
    meta.update(changes)
    return np.array(json.dumps(meta))


def _raw(data_of):
    """A damage that writes ``data_of(the good file's bytes)`` as the bad file."""

    def damage(path, bad, w):
        bad.write_bytes(data_of(path.read_bytes()))
        return bad

    return damage


def _other_zip(path, bad, w):
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("hello.txt", "hi")
    return bad


# case -> the damaged copy of the good file ``path`` (weights ``w``), written at ``bad`` or
# returned by rewrite_file
DAMAGES = {
    "empty": _raw(lambda data: b""),
    "truncated": _raw(lambda data: data[: len(data) // 2]),
    "garbage": _raw(lambda data: b"\x00garbage" * 100),
    "other_zip": _other_zip,
    "missing_head": lambda path, bad, w: rewrite_file(path, head_weight=None),
    "bad_shape": lambda path, bad, w: rewrite_file(
        path, hidden_1_weight=np.zeros((3, 8), np.float32)
    ),
    "nan": lambda path, bad, w: rewrite_file(
        path, head_bias=np.full(w.num_actions, np.nan, np.float32)
    ),
    "int_array": lambda path, bad, w: rewrite_file(
        path, head_bias=np.zeros(w.num_actions, np.int64)
    ),
    "meta_not_json": lambda path, bad, w: rewrite_file(path, meta=np.array("{not json")),
    "wrong_format": lambda path, bad, w: rewrite_file(path, meta=meta_of(path, format="something")),
    "bad_version": lambda path, bad, w: rewrite_file(path, meta=meta_of(path, version="1")),
    "meta_mismatch": lambda path, bad, w: rewrite_file(path, meta=meta_of(path, num_actions=3)),
    "unknown_key": lambda path, bad, w: rewrite_file(path, meta=meta_of(path, surprise=1)),
    "extra_array": lambda path, bad, w: rewrite_file(path, surprise=np.zeros(2, np.float32)),
    "bad_activation": lambda path, bad, w: rewrite_file(
        path, meta=meta_of(path, activation="gelu")
    ),
}


@pytest.mark.parametrize(
    "case,message",
    [
        ("empty", "not a zip archive"),
        ("truncated", "not a zip archive"),
        ("garbage", "not a zip archive"),
        ("other_zip", "neither a deckzoo policy"),
        ("missing_head", "'head_weight' is missing"),
        ("bad_shape", "takes 3 inputs"),
        ("nan", "non-finite"),
        ("int_array", "float array"),
        ("meta_not_json", "not valid JSON"),
        ("wrong_format", "meta.format"),
        ("bad_version", "meta.version"),
        ("meta_mismatch", "meta.num_actions"),
        ("unknown_key", "unknown metadata key"),
        ("extra_array", "unexpected array"),
        ("bad_activation", "activation must be one of"),
    ],
)
def test_damaged_files_are_refused_naming_the_file(policy_file, case, message):
    path, w = policy_file
    bad = DAMAGES[case](path, path.with_name("bad.npz"), w)
    with pytest.raises(ConfigError, match=message) as err:
        load_policy(bad)
    assert str(bad) in str(err.value)
    with pytest.raises(ConfigError, match=message):
        make_agent(f"ppo:{bad}", "gobig")


def test_newer_format_version_says_to_upgrade(policy_file):
    path, _ = policy_file
    bad = rewrite_file(path, meta=meta_of(path, version=POLICY_VERSION + 1))
    with pytest.raises(ConfigError, match="upgrade deckzoo"):
        load_policy(bad)


def test_missing_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match="no model file"):
        load_policy(tmp_path / "nope.npz")
    with pytest.raises(ConfigError, match="no model file"):
        load_policy(tmp_path)  # a folder


class _Payload:
    """Unpickling this creates the file ``marker``: what a malicious file would do."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_a_pickle_payload_as_metadata_does_not_run(policy_file, tmp_path):
    path, _ = policy_file
    marker = tmp_path / "pwned"
    meta = np.empty((), dtype=object)
    meta[()] = _Payload(marker)
    bad = rewrite_file(path, meta=meta)
    assert b"pwned" in bad.read_bytes()  # the payload really is in the file
    with pytest.raises(ConfigError, match="not a usable policy file"):
        load_policy(bad)
    assert not marker.exists()


def test_a_pickle_payload_as_weights_does_not_run(policy_file, tmp_path):
    path, _ = policy_file
    marker = tmp_path / "pwned"
    arr = np.empty(2, dtype=object)
    arr[0] = _Payload(marker)
    bad = rewrite_file(path, head_bias=arr)
    with pytest.raises(ConfigError, match="not a usable policy file"):
        load_policy(bad)
    assert not marker.exists()


def _sb3_like_zip(path, data: dict, policy_bytes: bytes):
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("data", json.dumps(data))
        zf.writestr("policy.pth", policy_bytes)
    return path


def test_sb3_zip_payloads_do_not_run(tmp_path):
    """SB3's own load would unpickle the cloudpickled parts of 'data' and a pickled policy.pth."""
    import base64

    import torch

    marker = tmp_path / "pwned"
    payload = base64.b64encode(pickle.dumps(_Payload(marker))).decode()
    state = {
        "mlp_extractor.policy_net.0.weight": torch.zeros(4, 3),
        "mlp_extractor.policy_net.0.bias": torch.zeros(4),
        "action_net.weight": torch.zeros(2, 4),
        "action_net.bias": torch.zeros(2),
    }
    buf = io.BytesIO()
    torch.save(state, buf)
    data = {
        "policy_kwargs": {
            ":type:": "<class 'dict'>",
            ":serialized:": payload,
            "activation_fn": "<class 'torch.nn.modules.activation.ReLU'>",
        },
        "lr_schedule": {":type:": "<class 'function'>", ":serialized:": payload},
    }
    ok = _sb3_like_zip(tmp_path / "ok.zip", data, buf.getvalue())
    weights, meta = load_policy(ok)  # only the JSON and the tensors are read
    assert weights.activation == "relu" and weights.obs_size == 3 and weights.num_actions == 2
    assert meta["format"] == "sb3-zip" and not marker.exists()
    # a policy.pth that is a pickle payload is refused by torch's weights_only loader
    buf = io.BytesIO()
    torch.save({"x": _Payload(marker)}, buf)
    bad = _sb3_like_zip(tmp_path / "bad.zip", data, buf.getvalue())
    with pytest.raises(ConfigError, match="policy.pth is not a plain state dict"):
        load_policy(bad)
    assert not marker.exists()
    # an activation SB3 names but the numpy actor does not have
    data["policy_kwargs"]["activation_fn"] = "<class 'torch.nn.modules.activation.GELU'>"
    with pytest.raises(ConfigError, match="not one of Tanh, ReLU"):
        load_policy(_sb3_like_zip(tmp_path / "gelu.zip", data, b""))


def test_agents_load_a_policy_without_torch_or_training(policy_file):
    """arena/play/zoo agents need numpy only: no torch, no SB3, no deckzoo.training import."""
    path, _ = policy_file
    code = (
        "import sys\n"
        "from deckzoo.agents.registry import make_agent\n"
        "import deckzoo.envs as E\n"
        f"a = make_agent('ppo:{path}', 'gobig', 0)\n"
        "s = E.game_class('gobig')(4).new_state(0)\n"
        "a.act(s.for_player(s.current_player))\n"
        "heavy = ('torch', 'stable_baselines3', 'sb3_contrib', 'deckzoo.training')\n"
        "bad = [m for m in heavy if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_a_policy_for_another_player_count_is_refused_when_made(policy_file):
    """A gobig policy of 4 seats, made for a table of 2: refused at once, naming the spec and
    both player counts; one whose observation fits no player count says so."""
    path, _ = policy_file
    gobig = E.game_class("gobig")
    assert make_agent(f"ppo:{path}", "gobig", 0, game=gobig(4)).act
    with pytest.raises(ConfigError) as err:
        make_agent(f"ppo:{path}:sample", "gobig", 0, game=gobig(2))
    text = str(err.value)
    assert text.startswith(f"ppo:{path}:sample: ") and "\n" not in text
    assert "at 4 players" in text and "this table has 2 players" in text
    odd = save_policy(path.with_name("odd.npz"), random_weights(11, gobig(4).num_actions))
    with pytest.raises(ConfigError, match="at no player count"):
        make_agent(f"ppo:{odd}", "gobig", 0, game=gobig(4))
    assert make_agent(f"ppo:{odd}", "gobig", 0).act  # without the table: checked at its first move
