"""Behaviour cloning: warm-start a MaskablePPO policy by imitating an agent (the game's heuristic).

A standard technique (as in AlphaStar's supervised start, or "BC + PPO fine-tuning"): before PPO,
the policy is trained by supervised learning to choose what a strong baseline chooses, and its
value head to predict the returns that baseline obtains, so PPO starts from a competent policy
with sane advantages instead of from uniform play. The config section ``pretrain`` turns it on
(``training/config.py``, ``PretrainConfig``); ``Trainer.setup`` calls ``pretrain`` once, before
the first rollout, and checkpoints right after it, so a resumed run never redoes or skips it.

Steps:

1. ``collect_demos``: the agent ``imitate`` plays every seat of whole games on the engine (seeded
   from the run's seed). Each decision of each seat is one sample: the seat's observation, its
   legal mask, the agent's action and the seat's discounted Monte-Carlo return from that decision
   on, with the reward the learner trains on (``win``: ``state.returns()`` at the end; ``score``:
   ``score_returns()`` at the end; ``dense``: the seat's own score changes between its decisions,
   ``score_sign * delta / score_scale``), discounted by ``ppo.gamma`` per decision of that seat,
   as PPO's value targets are. Games are collected until ``decisions`` samples; the last
   ``holdout`` share of the games is held out.
2. ``fit``: ``epochs`` passes of Adam (``learning_rate``, minibatches of ``batch_size``) on the
   masked cross-entropy of the policy's actions (``-log pi(a_heuristic | s)`` with the illegal
   actions masked out, exactly the distribution PPO samples) plus, with ``value: true``,
   ``ppo.vf_coef`` times the squared error of the value head against the returns. Gradients are
   clipped at ``ppo.max_grad_norm``. The optimiser is a separate Adam: PPO's starts fresh.
3. The held-out imitation accuracy (greedy policy action == the agent's action) is measured
   before and after, with the accuracy a uniformly random legal choice would have (the mean of
   1 / number of legal actions) for reference.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from deckzoo.agents.registry import make_agent


@dataclass
class Demos:
    """Samples from whole games: ``obs`` (N, D) float32, ``masks`` (N, ceil(A/8)) packed bits,
    ``actions`` (N,), ``returns`` (N,) float32, ``game_index`` (N,) the game each came from,
    ``seats`` (N,) the seat that decided."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    game_index: np.ndarray
    seats: np.ndarray
    num_actions: int
    games: int

    def __len__(self) -> int:
        return len(self.actions)

    def mask(self, idx) -> np.ndarray:
        return np.unpackbits(self.masks[idx], axis=-1, count=self.num_actions).astype(bool)


def _seat_returns(rewards: list[float], gamma: float) -> list[float]:
    out, g = [0.0] * len(rewards), 0.0
    for k in range(len(rewards) - 1, -1, -1):
        g = rewards[k] + gamma * g
        out[k] = g
    return out


def collect_demos(
    game,
    spec: str,
    decisions: int,
    seed: int,
    reward: str = "win",
    gamma: float = 0.99,
    progress: bool = False,
) -> Demos:
    """Let agent ``spec`` play every seat until at least ``decisions`` decisions are recorded."""
    from tqdm import tqdm

    name = type(game).name
    n = game.num_players
    rng = np.random.default_rng(seed)
    obs, masks, actions, returns, gidx, seats = [], [], [], [], [], []
    sign, scale = game.score_sign, game.score_scale
    bar = tqdm(
        total=decisions,
        unit="decision",
        desc=f"imitate {spec}",
        disable=not progress,
        dynamic_ncols=True,
    )
    g = 0
    while len(actions) < decisions:
        agents = [make_agent(spec, name, int(rng.integers(2**63))) for _ in range(n)]
        state = game.new_state(int(rng.integers(2**63)))
        seat_rows: list[list[int]] = [[] for _ in range(n)]
        seat_scores: list[list[float]] = [[] for _ in range(n)]
        for _ in range(game.max_game_length):  # every game ends within it
            p = state.current_player
            if p is None:
                break
            seat_rows[p].append(len(actions))
            if reward == "dense":
                seat_scores[p].append(float(state.scores()[p]))
            obs.append(state.observe(p))
            masks.append(np.packbits(state.legal_mask().astype(bool)))
            a = int(agents[p].act(state.for_player(p)))
            actions.append(a)
            gidx.append(g)
            seats.append(p)
            state.apply(a)
            if len(actions) <= decisions:  # the last game runs past the target: the bar stops at it
                bar.update(1)
        returns.extend([0.0] * (len(actions) - len(returns)))
        if state.is_terminal():
            final = {"win": state.returns, "score": state.score_returns}.get(reward)
            end = np.asarray(final() if final else state.scores(), dtype=float)
            for p in range(n):
                rows = seat_rows[p]
                if not rows:
                    continue
                if reward == "dense":
                    marks = [*seat_scores[p], float(end[p])]
                    rewards = [sign * (marks[k + 1] - marks[k]) / scale for k in range(len(rows))]
                else:
                    rewards = [0.0] * (len(rows) - 1) + [float(end[p])]
                for i, r in zip(rows, _seat_returns(rewards, gamma)):
                    returns[i] = r
        g += 1
    bar.close()
    return Demos(
        obs=np.asarray(obs, dtype=np.float32),
        masks=np.asarray(masks),
        actions=np.asarray(actions),
        returns=np.asarray(returns, dtype=np.float32),
        game_index=np.asarray(gidx),
        seats=np.asarray(seats),
        num_actions=game.num_actions,
        games=g,
    )


def _logits(policy, obs_t):
    features = policy.extract_features(obs_t, policy.pi_features_extractor)
    return policy.action_net(policy.mlp_extractor.forward_actor(features))


def accuracy(policy, demos: Demos, idx: np.ndarray, batch: int = 2048) -> float:
    """Share of samples ``idx`` where the policy's most likely legal action is the demo's."""
    import torch

    if len(idx) == 0:
        return float("nan")
    hits = 0
    with torch.no_grad():
        for s in range(0, len(idx), batch):
            b = idx[s : s + batch]
            logits = _logits(policy, torch.as_tensor(demos.obs[b]))
            logits = torch.where(torch.as_tensor(demos.mask(b)), logits, torch.tensor(-torch.inf))
            hits += int((logits.argmax(1).numpy() == demos.actions[b]).sum())
    return hits / len(idx)


def choice_rows(demos: Demos, idx: np.ndarray) -> np.ndarray:
    """The samples of ``idx`` with two or more legal actions (the decisions that are choices)."""
    counts = np.unpackbits(demos.masks[idx], axis=-1, count=demos.num_actions).sum(1)
    return idx[counts >= 2]


def random_accuracy(demos: Demos, idx: np.ndarray) -> float:
    """Accuracy of a uniformly random legal choice: the mean of 1 / (number of legal actions)."""
    if len(idx) == 0:
        return float("nan")
    counts = np.unpackbits(demos.masks[idx], axis=-1, count=demos.num_actions).sum(1)
    return float(np.mean(1.0 / counts))


def fit(
    policy,
    demos: Demos,
    train_idx: np.ndarray,
    *,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    value: bool,
    vf_coef: float,
    max_grad_norm: float,
    seed: int,
    progress: bool = False,
) -> list[dict]:
    """Behaviour cloning of ``policy`` on ``demos[train_idx]``; returns one row per epoch."""
    import torch
    from tqdm import tqdm

    rng = np.random.default_rng(seed)
    opt = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    policy.set_training_mode(True)
    history = []
    bar = tqdm(
        total=epochs * -(-len(train_idx) // batch_size),
        unit="batch",
        desc="behaviour cloning",
        disable=not progress,
        dynamic_ncols=True,
    )
    for epoch in range(epochs):
        perm = train_idx[rng.permutation(len(train_idx))]
        sums = np.zeros(3)
        for s in range(0, len(perm), batch_size):
            b = np.sort(perm[s : s + batch_size])
            obs = torch.as_tensor(demos.obs[b])
            acts = torch.as_tensor(demos.actions[b])
            values, log_prob, _ = policy.evaluate_actions(obs, acts, action_masks=demos.mask(b))
            pi_loss = -log_prob.mean()
            v_loss = torch.nn.functional.mse_loss(
                values.flatten(), torch.as_tensor(demos.returns[b])
            )
            loss = pi_loss + vf_coef * v_loss if value else pi_loss
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), max_grad_norm)
            opt.step()
            sums += (len(b), pi_loss.item() * len(b), v_loss.item() * len(b))
            bar.update(1)
        history.append(
            {"epoch": epoch + 1, "policy_loss": sums[1] / sums[0], "value_loss": sums[2] / sums[0]}
        )
        bar.set_postfix(loss=f"{history[-1]['policy_loss']:.3f}")
    bar.close()
    policy.set_training_mode(False)
    return history


def pretrain(
    model,
    game,
    pcfg,
    *,
    reward: str,
    gamma: float,
    vf_coef: float,
    max_grad_norm: float,
    seed: int,
    progress: bool = False,
) -> dict:
    """Behaviour-clone ``model.policy`` on ``pcfg.imitate``'s play; returns the report dict."""
    t0, c0 = time.perf_counter(), time.process_time()
    demos = collect_demos(
        game, pcfg.imitate, pcfg.decisions, seed, reward=reward, gamma=gamma, progress=progress
    )
    collect_seconds = time.perf_counter() - t0
    held_games = round(demos.games * pcfg.holdout)
    held = demos.game_index >= demos.games - held_games
    train_idx, test_idx = np.flatnonzero(~held), np.flatnonzero(held)
    before = accuracy(model.policy, demos, test_idx)
    choices = choice_rows(demos, test_idx)
    history = fit(
        model.policy,
        demos,
        train_idx,
        epochs=pcfg.epochs,
        batch_size=pcfg.batch_size,
        learning_rate=pcfg.learning_rate,
        value=pcfg.value,
        vf_coef=vf_coef,
        max_grad_norm=max_grad_norm,
        seed=seed + 1,
        progress=progress,
    )
    return {
        "imitate": pcfg.imitate,
        "decisions": len(demos),
        "games": demos.games,
        "holdout_games": held_games,
        "holdout_decisions": int(held.sum()),
        "collect_seconds": collect_seconds,
        "seconds": time.perf_counter() - t0,
        "cpu_seconds": time.process_time() - c0,
        "accuracy_before": before,
        "accuracy": accuracy(model.policy, demos, test_idx),
        "train_accuracy": accuracy(model.policy, demos, train_idx[:20_000]),
        "random_accuracy": random_accuracy(demos, test_idx),
        # the same on the held-out decisions with two or more legal actions (forced moves excluded)
        "choice_share": len(choices) / max(len(test_idx), 1),
        "choice_accuracy": accuracy(model.policy, demos, choices),
        "choice_random_accuracy": random_accuracy(demos, choices),
        "epochs": history,
    }


__all__ = ["Demos", "accuracy", "collect_demos", "fit", "pretrain", "random_accuracy"]
