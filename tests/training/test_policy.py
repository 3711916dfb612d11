"""Trained policies as Agents: the numpy copy of the actor matches torch, masks are obeyed, and
``ppo:PATH`` loads a MaskablePPO .zip (safely) through the agent registry and plays in matches and
the arena. The policy file format itself is tested in tests/agents/test_policy_file.py."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

import deckzoo.envs as E
from deckzoo.agents.evaluation.match import play_match
from deckzoo.agents.policy import ACTIVATIONS, PolicyAgent, PPOAgent, masked_choice
from deckzoo.agents.registry import make_agent
from deckzoo.envs.core.errors import ConfigError
from deckzoo.training.policy import weights_from_sb3
from deckzoo.training.single_agent import SingleAgentEnv


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    env = SingleAgentEnv("gobig_v0")
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=64,
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [32, 16], "activation_fn": torch.nn.ReLU},
    )
    path = tmp_path_factory.mktemp("ppo") / "model.zip"
    model.save(path)
    return str(path)


@pytest.mark.parametrize("activation", [torch.nn.Tanh, torch.nn.ReLU])
def test_numpy_actor_matches_torch(activation):
    env = SingleAgentEnv("gobig_v0")
    model = MaskablePPO(
        "MlpPolicy",
        env,
        seed=1,
        device="cpu",
        policy_kwargs={"net_arch": [24, 24], "activation_fn": activation},
    )
    w = weights_from_sb3(model.policy)
    obs = np.random.default_rng(0).random((16, *env.observation_space.shape), dtype=np.float32)
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(obs))
        expected = dist.distribution.logits.numpy()
    got = w.logits(obs)
    got = (
        got
        - np.log(np.exp(got - got.max(1, keepdims=True)).sum(1, keepdims=True))
        - got.max(1, keepdims=True)
    )
    np.testing.assert_allclose(got, expected, atol=1e-5)
    assert w.obs_size == env.observation_space.shape[0] and w.num_actions == env.action_space.n
    assert w.equals(weights_from_sb3(model.policy)) and not w.equals(
        weights_from_sb3(
            MaskablePPO("MlpPolicy", env, seed=2, policy_kwargs=model.policy_kwargs).policy
        )
    )


def test_masked_choice_obeys_the_mask():
    logits = np.array([5.0, 1.0, 3.0, 4.0])
    mask = np.array([False, True, True, False])
    assert masked_choice(logits, mask, None) == 2
    rng = np.random.default_rng(0)
    picks = [masked_choice(logits, mask, rng) for _ in range(2000)]
    assert set(picks) == {1, 2}
    assert np.mean(np.array(picks) == 2) == pytest.approx(
        np.exp(3) / (np.exp(3) + np.exp(1)), abs=0.03
    )
    assert masked_choice(logits, np.array([False, False, False, True]), rng) == 3


def test_ppo_spec_plays_legal_games(model_path):
    game = E.game_class("gobig")(4)
    greedy = make_agent(f"ppo:{model_path}", "gobig", seed=0)
    sample = make_agent(f"ppo:{model_path}:sample", "gobig", seed=0)
    assert isinstance(greedy, PPOAgent) and greedy.deterministic and not sample.deterministic
    agents = [greedy, sample, make_agent("random", "gobig", 1), make_agent("random", "gobig", 2)]
    for seed in range(3):
        res = play_match(game, agents, ["g", "s", "r", "r"], seed=seed)  # illegal moves would raise
        assert res.winners


def test_ppo_spec_errors(model_path):
    with pytest.raises(ConfigError, match="needs a model path"):
        make_agent("ppo", "gobig")
    with pytest.raises(ConfigError, match="no model file"):
        make_agent("ppo:/no/such/model.zip", "gobig")
    if "wizard_v0" in E.ENVS:
        agent = make_agent(f"ppo:{model_path}", "wizard")
        state = E.game_class("wizard")(4).new_state(0)
        with pytest.raises(ConfigError, match="observations of size"):
            agent.act(state.for_player(state.current_player))


def test_policy_agent_is_picklable_and_seedable(model_path):
    import pickle

    agent = PolicyAgent(PPOAgent(model_path).weights, seed=3)
    clone = pickle.loads(pickle.dumps(agent))
    state = E.game_class("gobig")(4).new_state(0)
    info = state.for_player(state.current_player)
    assert [agent.act(info) for _ in range(20)] == [clone.act(info) for _ in range(20)]


def test_arena_cli_accepts_ppo(model_path, tmp_path, capsys):
    from deckzoo.agents.cli import main

    rc = main(
        [
            "arena",
            "gobig",
            "--agents",
            f"ppo:{model_path},random",
            "--games",
            "4",
            "--workers",
            "1",
            "--no-progress",
            "--out",
            str(tmp_path / "arena"),
        ]
    )
    assert rc == 0
    assert "ppo" in capsys.readouterr().out


def test_legal_logits_are_the_legal_entries_of_the_logits():
    import pickle

    env = SingleAgentEnv("bignumber_v0")
    model = MaskablePPO(
        "MlpPolicy", env, seed=4, device="cpu", policy_kwargs={"net_arch": [32, 32]}
    )
    w = weights_from_sb3(model.policy)
    obs, _ = env.reset(seed=0)
    legal = np.flatnonzero(env.action_masks())
    assert 0 < len(legal) < w.num_actions
    np.testing.assert_allclose(
        w.legal_logits(obs, legal), w.logits(obs)[legal], rtol=1e-5, atol=1e-5
    )
    # the transposed head is a cache: not pickled, rebuilt on use, equal weights either way
    w2 = pickle.loads(pickle.dumps(w))
    assert "_head_t" in w.__dict__ and "_head_t" not in w2.__dict__ and w2.equals(w)
    np.testing.assert_array_equal(w2.legal_logits(obs, legal), w.legal_logits(obs, legal))
    # the agent plays the argmax of the legal logits
    agent = PolicyAgent(w, deterministic=True)
    state = env.unwrapped.game_state if hasattr(env, "unwrapped") else env.game_state
    assert agent.act(state.for_player(env.seat)) == legal[int(np.argmax(w.logits(obs)[legal]))]


@pytest.mark.parametrize("game_name", sorted(E.GAMES))
def test_sparse_first_layer_gives_the_same_bits_as_the_dense_product(game_name):
    """``legal_logits`` multiplies only the non-zero inputs into the first layer. Searches and
    arenas must replay exactly as before, so the result must be bit for bit the dense product's
    (``logits``), not merely close, on real observations of every game (the zoo policy's
    weights: the network the searches roll out with)."""
    from deckzoo.agents import zoo

    if game_name not in zoo.available():
        pytest.skip(f"{game_name} has no zoo policy (agents/zoo/{game_name}.npz)")
    w = zoo.ZooAgent(game_name).weights
    game = E.GAMES[game_name]()
    rng = np.random.default_rng(3)
    checked = sparse = 0
    for seed in range(2):
        state = game.new_state(seed=seed)
        while not state.is_terminal() and checked < 300:
            p = state.current_player
            obs = state.for_player(p).observe()
            legal = np.flatnonzero(state.legal_mask())
            x = w._inputs(obs)
            sparse += 3 * np.count_nonzero(x) <= x.size
            h = x
            for w_k, b_k in w.hidden:  # the dense product, as before the sparse first layer
                h = ACTIVATIONS[w.activation](np.einsum("i,ij->j", h, w_k) + b_k)
            dense = np.einsum("ij,j->i", w.head[0].T[legal], h) + w.head[1][legal]
            assert w.legal_logits(obs, legal).tobytes() == dense.tobytes()
            checked += 1
            state.apply(int(rng.choice(legal)))
    assert checked > 50 and sparse > 0
