"""Behaviour cloning before PPO (training/pretrain.py): the recorded demonstrations and their
returns, cloning raises the imitation accuracy far above chance, and a run resumed after its
pretraining neither repeats nor skips it and ends exactly where an uninterrupted run does."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import deckzoo.envs as E
from deckzoo.envs.core.errors import ConfigError
from deckzoo.training.pretrain import accuracy, collect_demos, fit, random_accuracy
from deckzoo.training.sb3 import SB3Trainer as Trainer
from deckzoo.training.sb3 import make_vec_env, new_model

from .test_train import model_params, same_tensors, tiny


def _first_game(game, seed):
    """The first game collect_demos plays with this seed, replayed: its final state."""
    from deckzoo.agents.registry import make_agent

    rng = np.random.default_rng(seed)
    agents = [
        make_agent("heuristic", type(game).name, int(rng.integers(2**63)))
        for _ in range(game.num_players)
    ]
    state = game.new_state(int(rng.integers(2**63)))
    while state.current_player is not None:
        p = state.current_player
        state.apply(agents[p].act(state.for_player(p)))
    return state


def test_demos_record_legal_actions_and_discounted_returns():
    game = E.game_class("gobig")(4)
    d = collect_demos(game, "heuristic", 500, seed=0, reward="win", gamma=0.9)
    assert len(d) >= 500 and d.obs.shape == (len(d), *game.observation_shape)
    masks = d.mask(np.arange(len(d)))
    assert masks[np.arange(len(d)), d.actions].all()  # every recorded action was legal
    assert set(np.unique(d.game_index)) == set(range(d.games)) and d.games > 1
    # game 0: each seat's last decision carries its final return, earlier ones the same
    # discounted by 0.9 per later decision of that seat
    final = _first_game(game, 0).returns()
    g0 = d.game_index == 0
    for seat in range(4):
        r = d.returns[g0 & (d.seats == seat)]
        assert r[-1] == pytest.approx(final[seat])
        np.testing.assert_allclose(r[:-1], r[-1] * 0.9 ** np.arange(len(r) - 1, 0, -1), rtol=1e-5)


def test_dense_returns_are_the_seat_score_changes():
    game = E.game_class("wizard")(3)
    d = collect_demos(game, "heuristic", 1, seed=1, reward="dense", gamma=1.0)
    final = _first_game(game, 1).scores()
    assert d.games == 1 and final.any()
    for seat in range(3):
        r = d.returns[d.seats == seat]
        # undiscounted: the first decision's return is the seat's whole score (it starts at 0)
        assert r[0] == pytest.approx(game.score_sign * final[seat] / game.score_scale, abs=1e-5)
        assert len(np.unique(r)) > 1  # rewards arrive during the game, not only at its end


@pytest.fixture(scope="module")
def cloned():
    cfg = tiny("unused", ppo={"net_arch": [64, 64]})
    torch.set_num_threads(
        1
    )  # as the trainer does: two threads on a busy 2-core machine are 10x slower
    torch.manual_seed(0)
    model = new_model(cfg, make_vec_env(cfg, {"random": 1.0}))
    game = E.game_class("gobig")(4)
    demos = collect_demos(game, "heuristic", 6000, seed=1, reward="win", gamma=0.99)
    held = demos.game_index >= demos.games - demos.games // 5
    test_idx, train_idx = np.flatnonzero(held), np.flatnonzero(~held)
    before = accuracy(model.policy, demos, test_idx)
    history = fit(
        model.policy,
        demos,
        train_idx,
        epochs=4,
        batch_size=256,
        learning_rate=1e-3,
        value=True,
        vf_coef=0.5,
        max_grad_norm=0.5,
        seed=0,
    )
    return model, demos, test_idx, before, history


def test_cloning_raises_imitation_accuracy_far_above_chance(cloned):
    model, demos, test_idx, before, history = cloned
    after = accuracy(model.policy, demos, test_idx)
    chance = random_accuracy(demos, test_idx)
    assert after > chance + 0.25 and after > before + 0.25, (before, chance, after)
    assert history[-1]["policy_loss"] < history[0]["policy_loss"]


def test_cloning_fits_the_value_head(cloned):
    model, demos, test_idx, _, history = cloned
    with torch.no_grad():
        v = model.policy.predict_values(torch.as_tensor(demos.obs[test_idx])).numpy().ravel()
    mse = float(np.mean((v - demos.returns[test_idx]) ** 2))
    assert mse < float(np.var(demos.returns[test_idx]))  # better than predicting the mean
    assert history[-1]["value_loss"] < history[0]["value_loss"]


PRE = {"imitate": "heuristic", "decisions": 400, "epochs": 2, "batch_size": 64, "eval_games": 2}


def test_pretraining_runs_once_and_resume_is_exact(tmp_path, monkeypatch):
    import deckzoo.training.pretrain as P

    straight = Trainer(tiny(tmp_path / "a", rollouts=3, pretrain=PRE))
    summary = straight.run()
    rep = summary["pretrain"]
    assert rep["decisions"] >= 400 and 0 <= rep["accuracy"] <= 1 and len(rep["eval"]) == 1
    assert summary["budget_cpu_seconds"] == pytest.approx(
        summary["train_cpu_seconds"] + rep["cpu_seconds"]
    )
    assert straight.rs.eval_history[0]["step"] == 0  # the cloned policy's evaluation
    # stop right after pretraining (its checkpoint), then resume: pretraining must not run again
    stopped = Trainer(tiny(tmp_path / "b", rollouts=3, pretrain=PRE))
    stopped.setup()
    stopped.close()
    assert stopped.model.num_timesteps == 0 and (tmp_path / "b" / "checkpoint.ckpt").exists()

    def again(*a, **k):
        raise AssertionError("pretraining ran again on resume")

    monkeypatch.setattr(P, "pretrain", again)
    resumed = Trainer(tiny(tmp_path / "b", rollouts=3, pretrain=PRE), resume=True)
    resumed.run()
    assert resumed.rs.pretrain["accuracy"] == rep["accuracy"]
    assert same_tensors(model_params(straight.model), model_params(resumed.model))
    assert (tmp_path / "a" / "eval.csv").read_text() == (tmp_path / "b" / "eval.csv").read_text()
    # the pretraining section may not change on resume
    with pytest.raises(ConfigError, match="pretrain.epochs"):
        Trainer(
            tiny(tmp_path / "b", rollouts=4, pretrain={**PRE, "epochs": 3}), resume=True
        ).setup()


def test_collection_progress_bar_stops_at_its_total(capsys):
    """The last game runs past the requested decisions; the bar still ends at exactly its total."""
    import re

    game = E.game_class("gobig")(4)
    d = collect_demos(game, "heuristic", 150, seed=0, progress=True)
    assert len(d) > 150
    counts = re.findall(r"(\d+)/(\d+) \[", capsys.readouterr().err)
    assert counts and counts[-1] == ("150", "150") and all(int(n) <= 150 for n, _ in counts)
