"""Batched self-play PPO on the batched engines (``trainer: vector``), one file, CleanRL-style.

    deckzoo train --config configs/wizard-vector.yaml      # every game

Why. The SB3 trainer steps one game at a time and asks a network about one observation at a
time for every opponent. Here ``n_envs`` games (*lanes*) advance together: every step makes one
decision in every lane, and every seat the learner plays, in every lane, is decided by one
forward pass over a ``(rows, obs_dim)`` batch. Most seats can be the learner itself (the mix key
``learner``), so most decisions are training data. Lanes, seats and the opponent mix are
described in ``training/vector_lanes.py``. A game with a batched engine plays on it; a game
without one (Midgard) on scalar lanes behind the same interface (``envs/core/scalar_lanes.py``).

One iteration:

1. **Collect** ``ppo.n_steps`` steps in every lane. A learner seat's decision is a transition:
   observation, legal mask, action, log-probability, value. The action is sampled from the
   masked softmax: the logits of illegal actions are set to -inf, so they have probability 0.
   A *forced* decision (one legal action) of a learner or pool seat takes that action without
   a network pass and, for the learner, without a transition: no choice was made, so there is
   nothing to learn from it (Midgard asks every seat in its reaction windows: about a quarter
   of its decisions are forced). What its seat receives meanwhile goes to the seat's previous
   transition, as while other seats act.
2. **Credit.** Each (lane, seat) has its own trajectory: its transitions in order, linked by
   ``Rollout.next``. The reward of a transition is everything its seat receives from its
   decision up to its next one, including what arrives while other seats act (a trick another
   seat completes, the final result when another seat ends the game); a transition is ``done``
   when its seat's game ends before that seat decides again.
3. **GAE** along each trajectory: ``delta = r + gamma * V(next) - V``, ``A = delta + gamma *
   lambda * A(next)``. A transition whose seat has not decided again by the end of the rollout
   has no next value yet: it is carried into the next rollout (and trained on there), so no
   value is ever bootstrapped from a position the seat did not decide in.
4. **Update**: ``ppo.n_epochs`` passes of minibatches (``ppo.batch_size``) of the clipped PPO
   objective, the (clipped) value loss and the entropy bonus, advantages normalised per
   minibatch, gradients clipped to ``ppo.max_grad_norm``, the learning rate annealed linearly.
5. **Bookkeeping** at the rollout boundary, the run skeleton's (``run.py``) as for every trainer:
   pool snapshots, evaluation on the scalar engine against ``eval.opponents`` (the learner
   greedy, in every seat in turn, win share with a 95% Wilson interval), TensorBoard,
   checkpoints; with ``opponents.exploiters``, before them, an exploiter round where one is due
   (training/league.py: a best response to the learner trained and added to the pool).

An *env step* is one learner decision, as in the SB3 trainer (forced ones included, though they
are no transitions): ``total_timesteps``, the intervals and steps/s count those. ``decisions/s``
in the logs counts every seat's.

The run folder (``run_dir``)::

    config.yaml            the resolved configuration
    checkpoint.ckpt        the latest checkpoint (training.checkpoint's archive, trainer: vector):
                           meta.json, arrays.npz, policy.pt and optimizer.pt
                           (torch.save of tensors only, read back with weights_only=True):
                           nothing in it can run code when loaded; written atomically
    eval.csv               every evaluation (step, CPU seconds, opponent, win share, interval)
    tb/                    TensorBoard: charts/*, losses/*, eval/*
    policy.npz             the final actor, a policy file (``agents.policy.save_policy``;
                           loads as ``ppo:<run>/policy.npz``)
    learning_curve.png     win share against each evaluation opponent by step
    summary.json           steps, time, throughput and the final evaluation
    league/round-<k>/      with opponents.exploiters: round k's frozen learner (learner.npz) and
                           its exploiter's run folder (run/), as training/league.py says

Resuming is exact: a checkpoint holds the network, the optimiser, every generator (the trainer's,
the lanes', the batched engine's, the sampler's), every game in progress with its seats and
agents, the pool, and the transitions carried into the next rollout, so a run stopped and
resumed ends bit-for-bit where an uninterrupted run does (tests/training/test_vector_ppo.py).
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np
import torch
from torch import nn

from deckzoo.agents import features as input_features
from deckzoo.envs import canonical, vector
from deckzoo.envs.core.errors import ConfigError

from . import checkpoint as shared
from .config import TrainConfig, config_to_dict
from .policy import PolicyWeights, save_policy
from .run import (
    EVAL_COLUMNS,
    Run,
    RunState,
    check_resumable,
    claim_run_dir,
    write_config,
    write_eval_csv,
)
from .vector_lanes import (
    LEARNER,
    POOL,
    RANDOM,
    Lanes,
    default_scalar_lanes,
    frozen_id,
    twin_specs,
)

CHECKPOINT = "checkpoint.ckpt"
LOSS_STATS = ("policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac")
ACTIVATIONS = {"tanh": nn.Tanh, "relu": nn.ReLU}


# ---- the network --------------------------------------------------------------------------------
def layer_init(layer: nn.Linear, std: float) -> nn.Linear:
    """Orthogonal weights, zero biases (the PPO implementation details; SB3 does the same)."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, 0.0)
    return layer


def mlp(
    inputs: int, hidden: list[int], outputs: int, activation: str, out_std: float
) -> nn.Sequential:
    layers, width = [], inputs
    for h in hidden:
        layers += [layer_init(nn.Linear(width, h), np.sqrt(2)), ACTIVATIONS[activation]()]
        width = h
    return nn.Sequential(*layers, layer_init(nn.Linear(width, outputs), out_std))


class ActorCritic(nn.Module):
    """Separate actor and critic MLPs of ``ppo.net_arch``: the network of SB3's ``MlpPolicy``
    with ``net_arch={"pi": arch, "vf": arch}``, so both trainers train the same network."""

    def __init__(self, obs_dim: int, num_actions: int, net_arch: list[int], activation: str):
        super().__init__()
        self.actor = mlp(obs_dim, net_arch, num_actions, activation, 0.01)
        self.critic = mlp(obs_dim, net_arch, 1, activation, 1.0)
        self.activation = activation

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)


class Legal(NamedTuple):
    """The legal actions of a batch of masks as (row, action) pairs, in row-major order. The
    masked softmax runs over these pairs only: an illegal action's logit is -inf, so it has
    probability 0 and is left out (with 2,180 actions and a handful legal, as in Big Number,
    that is most of the work saved). tests/training/test_vector_ppo.py checks every quantity
    below against the dense softmax with the illegal logits set to -inf."""

    rows: torch.Tensor
    actions: torch.Tensor
    n: int

    @classmethod
    def of(cls, mask: torch.Tensor) -> Legal:
        rows, actions = mask.nonzero(as_tuple=True)
        return cls(rows, actions, mask.shape[0])


#: Action spaces up to this size compute every logit and set the illegal ones to -inf before a
#: dense log-softmax: one matrix product, 2-4x cheaper forward and backward than gathering the legal
#: pairs for Go Big's 23 and Wizard's 74 actions (B = 1024, 128 hidden units, one thread). Larger
#: spaces compute the legal pairs' logits only: for Big Number's 2,180 actions with a handful
#: legal, 4x cheaper than the dense way. Both give the same masked softmax (tested).
DENSE_HEAD_MAX_ACTIONS = 256


def pair_log_probs(
    actor: nn.Sequential,
    obs: torch.Tensor,
    legal: Legal,
    mask: torch.Tensor,
    dense: bool | None = None,
) -> torch.Tensor:
    """Log-probabilities of the legal (row, action) pairs under the masked softmax, computed the
    cheaper way for the action space (``dense`` None: by ``DENSE_HEAD_MAX_ACTIONS``)."""
    if dense is None:
        dense = mask.shape[1] <= DENSE_HEAD_MAX_ACTIONS
    if dense:
        z = actor(obs).masked_fill(~mask, -torch.inf)
        return torch.log_softmax(z, dim=-1)[legal.rows, legal.actions]
    return log_softmax(legal_logits(actor, obs, legal), legal)


def legal_logits(actor: nn.Sequential, obs: torch.Tensor, legal: Legal) -> torch.Tensor:
    """The actor's logits of the legal pairs: the hidden layers on every row, then the head's
    rows for the legal actions only."""
    h, head = actor[:-1](obs), actor[-1]
    return (h[legal.rows] * head.weight[legal.actions]).sum(-1) + head.bias[legal.actions]


def log_softmax(z: torch.Tensor, legal: Legal) -> torch.Tensor:
    """Log-probabilities of the pairs: a softmax within each row."""
    top = z.new_full((legal.n,), -torch.inf).scatter_reduce(0, legal.rows, z.detach(), "amax")
    z = z - top[legal.rows]
    total = z.new_zeros(legal.n).index_add(0, legal.rows, z.exp())
    return z - total.log()[legal.rows]


def entropy(logp: torch.Tensor, legal: Legal) -> torch.Tensor:
    """Entropy of each row's distribution."""
    return -logp.new_zeros(legal.n).index_add(0, legal.rows, logp.exp() * logp)


def chosen(logp: torch.Tensor, legal: Legal, actions: torch.Tensor) -> torch.Tensor:
    """Each row's log-probability of its action (which must be legal: exactly one pair a row)."""
    return logp[legal.actions == actions[legal.rows]]


def sample(logp: torch.Tensor, legal: Legal, generator) -> tuple[torch.Tensor, torch.Tensor]:
    """One action a row from its distribution (Gumbel-max), and its log-probability."""
    u = torch.rand(logp.shape, generator=generator, device=logp.device).clamp_(1e-12, 1.0 - 1e-7)
    key = logp - torch.log(-torch.log(u))
    best = key.new_full((legal.n,), -torch.inf).scatter_reduce(0, legal.rows, key, "amax")
    pair = torch.arange(len(key), device=logp.device)
    first = torch.full((legal.n,), len(key), device=logp.device).scatter_reduce(
        0, legal.rows, torch.where(key == best[legal.rows], pair, len(key)), "amin"
    )
    return legal.actions[first], logp[first]


def act(actor: nn.Sequential, obs: np.ndarray, mask: np.ndarray, generator, device) -> tuple:
    """Sample ``actor``'s policy on rows of observations and masks (numpy in, torch out)."""
    mask_t = torch.from_numpy(mask).to(device)
    legal = Legal.of(mask_t)
    obs_t = torch.from_numpy(obs).to(device)
    return sample(pair_log_probs(actor, obs_t, legal, mask_t), legal, generator) + (obs_t,)


class FrozenPolicy:
    """A policy file seated as an opponent (``ppo:PATH``, ``zoo:GAME`` in ``opponents.mix``): it
    never learns, decides all its rows in one torch pass on their raw observations (its own input
    features, if any, computed first), greedy or sampled as its spec says (``:sample``; the zoo's
    own mode). Its weights are the file's; the products run in torch, as the pool's do, because
    numpy's single-threaded ``einsum`` (right for the arena's one observation at a time) is many
    times slower on a batch of rows."""

    def __init__(self, weights: PolicyWeights, deterministic: bool):
        self.weights, self.deterministic = weights, deterministic
        layers: list[nn.Module] = []
        for w, b in [*weights.hidden, weights.head]:
            lin = nn.Linear(w.shape[0], w.shape[1])
            lin.weight.data = torch.from_numpy(np.ascontiguousarray(w.T, dtype=np.float32))
            lin.bias.data = torch.from_numpy(np.asarray(b, dtype=np.float32).copy())
            layers += [lin, ACTIVATIONS[weights.activation]()]
        self.actor = nn.Sequential(*layers[:-1]).requires_grad_(False)

    @classmethod
    def of(cls, spec: str, game: str, obs_dim: int) -> FrozenPolicy:
        from deckzoo.agents.registry import make_agent

        agent = make_agent(spec, game, 0)
        if agent.weights.obs_size != obs_dim:
            raise ConfigError(
                f"opponents.mix: {spec!r} takes observations of size {agent.weights.obs_size}, "
                f"{game} gives {obs_dim} (trained for another game or options?)"
            )
        return cls(agent.weights, bool(agent.deterministic))

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = np.asarray(obs, dtype=np.float32)
        if self.weights.features is not None:
            x = self.weights.features(x)
        with torch.no_grad():
            return self.actor(torch.from_numpy(np.ascontiguousarray(x))).numpy()

    def decide(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Actions for rows of observations: the most likely legal one, or a sample (Gumbel-max
        over the legal actions, drawn from ``rng``)."""
        z = np.where(mask, self.logits(obs), -np.inf)
        if not self.deterministic:
            z = z + rng.gumbel(size=z.shape)
        return z.argmax(axis=1)


def policy_weights(actor: nn.Sequential, activation: str, features=None) -> PolicyWeights:
    """The actor as a numpy ``PolicyWeights`` (what the arena's ``ppo:PATH`` agent plays), with
    the input features it was trained on."""
    linear = [m for m in actor if isinstance(m, nn.Linear)]
    arrays = [
        (
            np.ascontiguousarray(m.weight.detach().cpu().numpy().T),
            m.bias.detach().cpu().numpy().copy(),
        )
        for m in linear
    ]
    return PolicyWeights(
        hidden=arrays[:-1], head=arrays[-1], activation=activation, features=features
    )


# ---- the rollout buffer -------------------------------------------------------------------------
class Rollout:
    """Learner transitions in the order they were made. ``next[i]`` is the index of the same
    (lane, seat)'s next transition (-1: none yet, or ``done``). Rows are added one block per
    step (a lane makes at most one decision a step, so no row of a block follows another of the
    same block); block 0 holds the transitions carried over from the previous rollout."""

    def __init__(self, capacity: int, obs_dim: int, num_actions: int):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.mask = np.zeros((capacity, num_actions), dtype=bool)
        self.action = np.zeros(capacity, dtype=np.int64)
        self.logp = np.zeros(capacity, dtype=np.float32)
        self.value = np.zeros(capacity, dtype=np.float32)
        self.reward = np.zeros(capacity, dtype=np.float32)
        self.done = np.zeros(capacity, dtype=bool)
        self.next = np.full(capacity, -1, dtype=np.int64)
        self.size = 0
        self.blocks = [0]

    FIELDS = ("obs", "mask", "action", "logp", "value", "reward", "done", "next")

    def add(self, obs, mask, action, logp, value) -> np.ndarray:
        """Append one step's transitions (a new block); returns their indices."""
        idx = np.arange(self.size, self.size + len(action))
        self.obs[idx], self.mask[idx], self.action[idx] = obs, mask, action
        self.logp[idx], self.value[idx] = logp, value
        self.reward[idx], self.done[idx], self.next[idx] = 0.0, False, -1
        self.blocks.append(self.size)
        self.size += len(action)
        return idx

    def complete(self) -> np.ndarray:
        """Transitions whose outcome is known: the seat decided again, or its game ended."""
        return self.done[: self.size] | (self.next[: self.size] >= 0)

    def advantages(self, gamma: float, lam: float) -> np.ndarray:
        """GAE along every trajectory (0 for the transitions that are not complete)."""
        n = self.size
        nxt, has = self.next[:n], self.next[:n] >= 0
        ok = self.complete()
        nxt0 = np.where(has, nxt, 0)
        delta = self.reward[:n] + gamma * np.where(has, self.value[nxt0], 0.0) - self.value[:n]
        adv = np.zeros(n, dtype=np.float32)
        ends = self.blocks[1:] + [n]
        for a, b in reversed(list(zip(self.blocks, ends))):  # a row's next is in a later block
            s = slice(a, b)
            later = np.where(has[s], adv[nxt0[s]], 0.0)
            adv[s] = np.where(ok[s], delta[s] + gamma * lam * later, 0.0)
        return adv

    def carry(self, pending: np.ndarray) -> np.ndarray:
        """Start the next rollout with the open transitions (``pending``, the (lane, seat) index
        of each seat's latest transition, -1 if none); returns ``pending`` renumbered."""
        keep = np.flatnonzero(~self.complete())
        new_index = np.full(self.size + 1, -1, dtype=np.int64)  # [-1] maps -1 to -1
        new_index[keep] = np.arange(len(keep))
        for f in self.FIELDS:
            arr = getattr(self, f)
            arr[: len(keep)] = arr[keep]
        self.next[: len(keep)] = -1
        self.size, self.blocks = len(keep), [0]
        return new_index[pending]


# ---- the run ------------------------------------------------------------------------------------
@dataclass
class VectorRunState(RunState):
    """The skeleton's bookkeeping plus the trainer's counters (saved in every checkpoint as JSON;
    ``pool`` holds the drawable snapshot ids, their steps)."""

    step: int = 0  # learner decisions (env steps)
    decisions: int = 0  # decisions of every seat
    forced: int = 0  # learner decisions with one legal action (no transition)
    updates: int = 0


class VectorTrainer(Run):
    """One run: ``VectorTrainer(cfg, resume=...).run()`` returns the summary dict."""

    label = "vector"
    state_class = VectorRunState
    # eval.csv: the shared columns plus the training CPU seconds at each evaluation
    eval_columns = (*EVAL_COLUMNS[:2], "cpu_seconds", *EVAL_COLUMNS[2:])

    def __init__(self, cfg: TrainConfig, resume: bool = False):
        super().__init__(cfg, resume)
        self.device = torch.device(
            "cuda" if cfg.device in ("cuda", "auto") and torch.cuda.is_available() else "cpu"
        )
        if cfg.device == "cuda" and self.device.type != "cuda":
            raise ConfigError("config key 'device' is cuda, but torch sees no CUDA device")
        self.league = None  # opponents.exploiters: the exploiter rounds (training/league.py)

    def steps(self) -> int:
        return self.rs.step

    def bookkeeping(self, step: int, stats: dict, bar) -> None:
        """An exploiter round first where one is due (its exploiter is in the checkpoint that
        follows), then the skeleton's snapshot, evaluation and checkpoint."""
        if self.league is not None:
            self.league.maybe_round(step)
        super().bookkeeping(step, stats, bar)

    # ---- set-up ----
    def setup(self) -> None:
        from torch.utils.tensorboard import SummaryWriter

        cfg = self.cfg
        torch.set_num_threads(cfg.torch_threads)
        ckpt = self.run_dir / CHECKPOINT
        claim_run_dir(self.run_dir, self.resume, ckpt.exists())
        self.run_dir.mkdir(parents=True, exist_ok=True)
        # one seed feeds everything: the network's initial weights, the sampler, the trainer's own
        # generator (random seats' moves, minibatch order), the lanes' (seats, deals)
        seeds = np.random.SeedSequence(cfg.seed).spawn(5)
        self.lanes = self.make_lanes(np.random.default_rng(seeds[3]))
        self.frozen = {  # policy files in the mix: seats of kind POOL with these snapshot ids
            frozen_id(i): FrozenPolicy.of(spec, cfg.game, self.lanes.obs_dim)
            for i, spec in enumerate(self.lanes.frozen_specs)
        }
        L, n = self.lanes.L, self.lanes.n
        # vector.features: the network's inputs are [observation, features], computed once per
        # decision when it is collected (the buffer holds them; no epoch recomputes them)
        self.features = (
            input_features.make(cfg.vector.features, self.game) if cfg.vector.features else None
        )
        in_dim = self.features.out_size if self.features else self.lanes.obs_dim
        torch.manual_seed(int(seeds[0].generate_state(1)[0]))
        self.net = ActorCritic(
            in_dim, self.lanes.num_actions, cfg.ppo.net_arch, cfg.ppo.activation
        ).to(self.device)
        # fused: one kernel for every parameter's step (4x cheaper than the per-tensor loop here)
        self.optimizer = torch.optim.Adam(
            self.net.parameters(), lr=cfg.ppo.learning_rate, eps=1e-5, fused=True
        )
        self.sampler = torch.Generator(self.device)
        self.sampler.manual_seed(int(seeds[1].generate_state(1)[0]))
        self.rng = np.random.default_rng(seeds[2])
        self.pending = np.full((L, n), -1, dtype=np.int64)  # each seat's latest transition
        self.buffer = Rollout(L * n + cfg.ppo.n_steps * L, in_dim, self.lanes.num_actions)
        self.snapshots: dict[int, nn.Module] = {}  # id -> actor: the pool and dropped ones seated
        self.episode_return = np.zeros((L, n), dtype=np.float64)
        if cfg.opponents.exploiters is not None:
            from .league import League  # (it imports the harness, which imports this module)

            self.league = League(self)
        if self.resume:
            self._load_checkpoint(ckpt)
        write_config(self.run_dir, cfg)
        if not self.resume:
            c0 = time.process_time()
            self.lanes.reset(seed=int(seeds[4].generate_state(1)[0]))
            self.lanes.stagger(cfg.vector.stagger)
            self.rs.train_cpu_seconds += time.process_time() - c0
        self.writer = SummaryWriter(str(self.run_dir / "tb"))
        self.ready = True

    def make_lanes(self, rng: np.random.Generator) -> Lanes:
        """The batched engine's lanes plus the scalar lanes the opponent mix needs. A game without
        a batched engine plays on scalar lanes behind the batched interface, where every agent
        of the mix can sit (``vector.make_scalar_lanes``)."""
        cfg = self.cfg
        engine = vector.refusal(self.game) is None  # a variant's options may need scalar lanes
        twins = []
        if cfg.vector.batched_agents:
            twins = twin_specs(self.mix, self.game.name, scalar=not engine)
        scalar = cfg.vector.scalar_lanes
        if scalar is None:
            scalar = default_scalar_lanes(self.mix, self.n, cfg.n_envs, twins)
        batched = None
        if cfg.n_envs > scalar:
            batched = (vector.make if engine else vector.make_scalar_lanes)(
                cfg.game,
                num_envs=cfg.n_envs - scalar,
                num_players=self.n,
                reward=cfg.reward,
                **cfg.game_options,
            )
        return Lanes(batched, self.game, scalar, self.mix, rng, cfg.reward, twins)

    # ---- one iteration: collect a rollout, then update on it ----
    def iterate(self) -> dict:
        stats = self.collect()
        stats.update(self.update())
        return stats

    def collect(self) -> dict:
        """``ppo.n_steps`` steps in every lane; learner decisions go into ``self.buffer``."""
        lanes = self.lanes
        lane_ids = np.arange(lanes.L)
        finished, finished_return = 0, 0.0
        for _ in range(self.cfg.ppo.n_steps):
            player = lanes.player.copy()
            kind = lanes.seat_kind[lane_ids, player]
            forced = self._forced(kind)
            actions = np.zeros(lanes.L, dtype=np.int64)
            learner = kind == LEARNER
            rows = np.flatnonzero(learner & ~forced)
            if len(rows):
                actions[rows] = self._learner_actions(rows, player[rows])
            self._opponent_actions(kind, actions, forced)
            actions[forced] = lanes.mask[forced].argmax(axis=1)
            rewards, ended = lanes.step(actions)
            episodes, returns = self._credit(rewards, ended)
            finished, finished_return = finished + episodes, finished_return + returns
            self.rs.step += int(np.count_nonzero(learner))
            self.rs.forced += int(np.count_nonzero(learner & forced))
            self.rs.decisions += lanes.L
        return {
            "charts/episode_return": finished_return / max(finished, 1),
            "charts/episodes": finished,
        }

    def _forced(self, kind: np.ndarray) -> np.ndarray:
        """``(L,)`` bool: the lanes where a learner or pool seat has one legal action."""
        lanes, forced = self.lanes, np.zeros(len(kind), dtype=bool)
        rows = np.flatnonzero((kind == LEARNER) | (kind == POOL))
        forced[rows] = np.count_nonzero(lanes.mask[rows], axis=1) == 1
        return forced

    def _learner_actions(self, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """Sample the learner's actions in ``rows`` and record them as transitions, each linked
        from its seat's previous one."""
        buf, pending = self.buffer, self.pending
        obs, mask = self.inputs(self.lanes.obs[rows]), self.lanes.mask[rows]
        with torch.no_grad():
            a, logp, obs_t = act(self.net.actor, obs, mask, self.sampler, self.device)
            value = self.net.value(obs_t)
        a = a.cpu().numpy()
        idx = buf.add(obs, mask, a, logp.cpu().numpy(), value.cpu().numpy())
        prev = pending[rows, seats]
        buf.next[prev[prev >= 0]] = idx[prev >= 0]  # a seat's previous decision -> this one
        pending[rows, seats] = idx
        return a

    def _credit(self, rewards: np.ndarray, ended: np.ndarray) -> tuple[int, float]:
        """Every reward goes to its seat's latest decision, whoever's move produced it; a game's
        end closes its seats' trajectories. Returns the learner's finished episodes and their
        summed return."""
        buf, pending, rets = self.buffer, self.pending, self.episode_return
        open_ = pending >= 0
        buf.reward[pending[open_]] += rewards[open_]
        rets += rewards
        done_lanes = np.flatnonzero(ended)
        if not len(done_lanes):
            return 0, 0.0
        p = pending[done_lanes]
        buf.done[p[p >= 0]] = True
        learner_seats = p >= 0  # the seats the learner decided in
        episodes, total = int(learner_seats.sum()), float(rets[done_lanes][learner_seats].sum())
        pending[done_lanes] = -1
        rets[done_lanes] = 0.0
        return episodes, total

    def inputs(self, obs: np.ndarray) -> np.ndarray:
        """What the networks (learner and pool) take for rows of observations."""
        return obs if self.features is None else self.features(obs)

    def _opponent_actions(self, kind: np.ndarray, actions: np.ndarray, forced: np.ndarray) -> None:
        """Fill in the RANDOM and POOL seats' actions (agents decide inside ``Lanes.step``; forced
        pool seats are left to the caller)."""
        lanes = self.lanes
        rows = np.flatnonzero(kind == RANDOM)
        if len(rows):
            actions[rows] = np.where(
                lanes.mask[rows], self.rng.random((len(rows), lanes.num_actions)), -1.0
            ).argmax(axis=1)
        rows = np.flatnonzero((kind == POOL) & ~forced)
        if len(rows):
            snap = lanes.seat_snapshot[rows, lanes.player[rows]]
            with torch.no_grad():
                for sid in np.unique(snap):
                    r = rows[snap == sid]
                    if sid < -1:  # a frozen policy file
                        actions[r] = self.frozen[int(sid)].decide(
                            lanes.obs[r], lanes.mask[r], self.rng
                        )
                        continue
                    obs, mask = self.inputs(lanes.obs[r]), lanes.mask[r]
                    a, _, _ = act(self.snapshots[int(sid)], obs, mask, self.sampler, self.device)
                    actions[r] = a.cpu().numpy()

    def update(self) -> dict:
        """PPO on the rollout's complete transitions; open ones are carried to the next rollout."""
        cfg, p, buf, dev = self.cfg, self.cfg.ppo, self.buffer, self.device
        adv_all = buf.advantages(p.gamma, p.gae_lambda)
        idx = np.flatnonzero(buf.complete())
        # the observations and masks, the largest arrays, are not gathered for the whole rollout
        # (on the CPU these are views of the buffer): each minibatch gathers its own rows
        b_obs = torch.from_numpy(buf.obs[: buf.size]).to(dev)
        b_mask = torch.from_numpy(buf.mask[: buf.size]).to(dev)
        b_rows, b_act, b_logp, b_val, b_adv = (
            torch.from_numpy(a).to(dev)
            for a in (idx, buf.action[idx], buf.logp[idx], buf.value[idx], adv_all[idx])
        )
        b_ret = b_adv + b_val
        lr = p.learning_rate
        if cfg.vector.anneal_lr:
            lr *= 1.0 - self.progress()
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        n = len(idx)
        stats: dict[str, list] = {k: [] for k in LOSS_STATS}
        for _ in range(p.n_epochs):
            for mb in np.array_split(self.rng.permutation(n), max(1, round(n / p.batch_size))):
                mb = torch.from_numpy(mb).to(dev)
                rows = b_rows[mb]
                mb_mask = b_mask[rows]
                legal = Legal.of(mb_mask)
                obs_mb = b_obs[rows]
                logp_all = pair_log_probs(self.net.actor, obs_mb, legal, mb_mask)
                new_v = self.net.value(obs_mb)
                new_logp = chosen(logp_all, legal, b_act[mb])
                ent = entropy(logp_all, legal).mean()
                log_ratio = new_logp - b_logp[mb]
                ratio = log_ratio.exp()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - log_ratio).mean()
                    clipfrac = ((ratio - 1.0).abs() > p.clip_range).float().mean()
                adv = b_adv[mb]
                if cfg.vector.norm_adv and len(mb) > 1:
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(
                    -adv * ratio, -adv * ratio.clamp(1 - p.clip_range, 1 + p.clip_range)
                ).mean()
                v_loss = value_loss(
                    new_v, b_val[mb], b_ret[mb], p.clip_range, cfg.vector.clip_vloss
                )
                loss = pg_loss - p.ent_coef * ent + p.vf_coef * v_loss
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.net.parameters(), p.max_grad_norm)
                self.optimizer.step()
                for k, v in zip(LOSS_STATS, (pg_loss, v_loss, ent, approx_kl, clipfrac)):
                    stats[k].append(float(v.detach()))
        self.pending = buf.carry(self.pending)
        self.rs.updates += 1
        var = float(b_ret.var()) if n > 1 else 0.0
        explained = float("nan") if var == 0 else 1.0 - float((b_ret - b_val).var()) / var
        out = {f"losses/{k}": float(np.mean(v)) for k, v in stats.items()}
        out["losses/explained_variance"] = explained
        out["charts/learning_rate"], out["charts/transitions"] = lr, n
        return out

    # ---- bookkeeping ----
    def log(self, stats: dict, step: int) -> None:
        rs = self.rs
        stats["charts/steps_per_second"] = rs.step / max(rs.train_seconds, 1e-9)
        stats["charts/steps_per_cpu_second"] = rs.step / max(rs.train_cpu_seconds, 1e-9)
        stats["charts/decisions_per_second"] = rs.decisions / max(rs.train_seconds, 1e-9)
        for k, v in stats.items():
            self.writer.add_scalar(k, v, step)

    def log_scalar(self, key: str, value: float, step: int) -> None:
        self.writer.add_scalar(key, value, step)

    def snapshot(self, step: int) -> None:
        rs = self.rs
        self.snapshots[step] = copy.deepcopy(self.net.actor).requires_grad_(False)
        rs.pool.append(step)
        del rs.pool[: -self.cfg.opponents.pool_size]
        self.lanes.pool_ids = list(rs.pool)
        seated = self.lanes.seat_snapshot
        keep = set(rs.pool) | set(np.unique(seated[seated >= 0]).tolist())
        self.snapshots = {sid: a for sid, a in self.snapshots.items() if sid in keep}

    def policy_weights(self) -> PolicyWeights:
        return policy_weights(self.net.actor, self.net.activation, self.features)

    def write_eval_csv(self) -> None:
        """The evaluations, and with exploiters each one's win share against the learner (rows of
        kind ``exploiter``), in step order."""
        rows = self.rs.eval_history
        if self.league is not None:
            rows = sorted([*rows, *self.league.eval_rows()], key=lambda r: r["step"])
        write_eval_csv(self.run_dir / "eval.csv", rows, self.eval_columns)

    def eval_row(self, row: dict) -> dict:
        """Each row with the training CPU seconds so far (the x axis of benchmarks/training.py's
        CPU-seconds plots)."""
        return {**row, "cpu_seconds": self.rs.train_cpu_seconds}

    def export(self) -> dict:
        cfg, rs = self.cfg, self.rs
        league = {} if self.league is None else {"exploiters": self.league.summary()}
        save_policy(
            self.run_dir / "policy.npz",
            self.policy_weights(),
            game=cfg.game,
            env=canonical(cfg.game),
            game_config={"num_players": self.n, **cfg.game_options},
            trainer="vector",
            training=config_to_dict(cfg),
        )
        return {
            "decisions": rs.decisions,
            "forced_decisions": rs.forced,
            "updates": rs.updates,
            "budget_cpu_seconds": rs.train_cpu_seconds,
            "decisions_per_second": rs.decisions / max(rs.train_seconds, 1e-9),
            "n_envs": cfg.n_envs,
            "scalar_lanes": self.lanes.Ls,
            "device": str(self.device),
            **league,
        }

    def finish(self, wall: float) -> dict:
        summary = super().finish(wall)
        self.writer.close()
        return summary

    # ---- checkpoints ----
    def save_checkpoint(self) -> Path:
        lane_arrays, lane_meta = self.lanes.get_state()
        n = self.buffer.size  # at a rollout boundary: only the carried transitions
        arrays = {f"lanes.{k}": v for k, v in lane_arrays.items()}
        arrays.update({f"carried.{f}": getattr(self.buffer, f)[:n] for f in Rollout.FIELDS})
        arrays["pending"] = self.pending
        arrays["episode_return"] = self.episode_return
        arrays["sampler"] = self.sampler.get_state().cpu().numpy()
        meta = {
            "config": config_to_dict(self.cfg),
            "run_state": self.rs.__dict__,
            "lanes": lane_meta,
            "rng": self.rng.bit_generator.state,
            "snapshots": sorted(self.snapshots),
        }
        if self.league is not None:
            meta["league"], league_arrays = self.league.get_state()
            arrays.update(league_arrays)
        tensors = {
            "net": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "snapshots": {str(k): m.state_dict() for k, m in self.snapshots.items()},
        }
        path = self.run_dir / CHECKPOINT
        write_checkpoint(path, meta, arrays, tensors)
        return path

    def _load_checkpoint(self, path: Path) -> None:
        meta, arrays, tensors = read_checkpoint(path)
        saved = meta["config"]
        # runs saved before vector.batched_agents existed seated every agent on the scalar engine
        saved.setdefault("vector", {}).setdefault("batched_agents", False)
        saved["vector"].setdefault("features", None)  # runs saved before the key had none
        check_resumable(saved, config_to_dict(self.cfg))
        self.rs = VectorRunState(**meta["run_state"])
        self.net.load_state_dict(tensors["net"])
        self.optimizer.load_state_dict(tensors["optimizer"])
        for sid in meta["snapshots"]:
            actor = copy.deepcopy(self.net.actor).requires_grad_(False)
            actor.load_state_dict(tensors["snapshots"][str(sid)])
            self.snapshots[int(sid)] = actor
        self.lanes.set_state(
            {k[len("lanes.") :]: v for k, v in arrays.items() if k.startswith("lanes.")},
            meta["lanes"],
        )
        n = len(arrays["carried.action"])
        for f in Rollout.FIELDS:
            getattr(self.buffer, f)[:n] = arrays[f"carried.{f}"]
        self.buffer.size, self.buffer.blocks = n, [0]
        self.pending[...] = arrays["pending"]
        self.episode_return[...] = arrays["episode_return"]
        self.sampler.set_state(torch.from_numpy(arrays["sampler"]))
        self.rng.bit_generator.state = meta["rng"]
        if self.league is not None:
            self.league.set_state(meta["league"], arrays)
        self.write_eval_csv()


def value_loss(new_v, old_v, returns, clip_range: float, clip: bool) -> torch.Tensor:
    """Half the squared error of the values; with ``clip``, the larger of it and the error of the
    value moved at most ``clip_range`` from the rollout's (as PPO2 and CleanRL do)."""
    if not clip:
        return 0.5 * ((new_v - returns) ** 2).mean()
    clipped = old_v + (new_v - old_v).clamp(-clip_range, clip_range)
    return 0.5 * torch.max((new_v - returns) ** 2, (clipped - returns) ** 2).mean()


# ---- files --------------------------------------------------------------------------------------
def write_checkpoint(path: Path, meta: dict, arrays: dict[str, np.ndarray], tensors: dict) -> None:
    """The trainers' checkpoint archive (``training.checkpoint``: JSON, npz, and torch files read
    with ``weights_only=True``, so it cannot run code when loaded), marked ``trainer: vector``."""
    shared.write_checkpoint(
        path,
        {**meta, "trainer": "vector"},
        arrays,
        {
            "policy.pt": {"net": tensors["net"], "snapshots": tensors["snapshots"]},
            "optimizer.pt": tensors["optimizer"],
        },
    )


def read_checkpoint(path: Path) -> tuple[dict, dict, dict]:
    """``(meta, arrays, tensors)`` of a vector-trainer checkpoint; ``ConfigError`` for a damaged
    file or another trainer's."""
    meta, arrays, files = shared.read_checkpoint(path)
    if meta.get("trainer") != "vector":
        raise ConfigError(
            f"--resume: {path} is a checkpoint of trainer "
            f"{meta.get('trainer', 'sb3')!r}, not of the vector trainer"
        )
    policy = files["policy.pt"]
    if not (isinstance(policy, dict) and {"net", "snapshots"} <= set(policy)):
        raise ConfigError(f"--resume: {path}: policy.pt lacks the network or the pool")
    return meta, arrays, {**policy, "optimizer": files["optimizer.pt"]}


def train(cfg: TrainConfig, resume: bool = False) -> dict:
    """Train (or resume) one vector run; returns its summary (also run_dir/summary.json)."""
    if cfg.vector.init is None:
        return VectorTrainer(cfg, resume=resume).run()
    from .exploit_init import WarmStartTrainer, resolve_start

    start = resolve_start(cfg.vector.init, cfg.game).for_reward(cfg.reward)
    return WarmStartTrainer(cfg, start, cfg.vector.value_warmup, resume=resume).run()
