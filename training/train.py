"""MaskablePPO self-play training for any deckzoo game: ``train(cfg)`` / ``deckzoo train``.

The learner is sb3-contrib's ``MaskablePPO`` (``MlpPolicy``, separate actor and critic of
``ppo.net_arch``) on ``n_envs`` copies of ``SingleAgentEnv``. Its opponents are drawn per seat
and per episode from ``opponents.mix``: baselines (random, heuristic, any agent spec) and the
self-play pool, i.e. snapshots of the learner's own actor taken every
``opponents.snapshot_every`` steps (the newest ``pool_size`` kept). Snapshots are numpy copies
of the actor (``policy.PolicyWeights``), so opponents act without torch inside the envs.

The run loop alternates one PPO iteration (a rollout of ``n_steps * n_envs`` steps, then the
update) with bookkeeping at the rollout boundary: pool snapshots, evaluation on the engine
against each ``eval.opponents`` baseline (the learner in every seat in turn; win share with a
95% Wilson interval), and checkpoints. A run folder holds::

    config.yaml       the resolved configuration
    checkpoint.pkl    the latest checkpoint (written to a temporary file, then renamed)
    eval.csv          every evaluation (the learning curve)
    tb/               TensorBoard logs (rollout/*, train/*, eval/*)
    final.zip         the final MaskablePPO model (loads as an Agent: ``ppo:<run>/final.zip``)
    summary.json      steps, time, throughput and the final evaluation

Resuming is exact: a checkpoint holds the model with its optimiser state and step counter,
the pool, every env's complete state (game in progress, opponents, generators) and the
global python/numpy/torch generator states, so a run stopped and resumed from a checkpoint
produces the same parameters as an uninterrupted run (tests/training checks this).
"""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import pickle
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import deckzoo.envs as E
from deckzoo.agents.registry import has_heuristic, make_agent
from deckzoo.agents.stats import wilson_interval, win_credit
from deckzoo.envs.core.errors import ConfigError

from .config import TrainConfig, config_to_dict
from .policy import PolicyAgent, PolicyWeights
from .single_agent import SingleAgentEnv

log = logging.getLogger("deckzoo.training")

CHECKPOINT = "checkpoint.pkl"
# Config keys that may change when a run is resumed (everything else must match the run's own).
RESUMABLE_CHANGES = {"total_timesteps", "progress_bar", "run_dir", "vec_env", "eval.final_games"}


# ---- evaluation ---------------------------------------------------------------------------------
def evaluate(agent, game, opponent: str, games: int, seed: int, max_steps: int = 20_000) -> dict:
    """Play ``games`` games on the engine: ``agent`` in seat g mod P of game g, fresh ``opponent``
    agents elsewhere. Returns the agent's win share (ties split) with its 95% Wilson interval
    (``deckzoo.agents.stats``, the arena's statistics). A game still running after ``max_steps``
    decisions is abandoned and counts as a loss (``abandoned`` says how many)."""
    n = game.num_players
    name = type(game).name
    rng = np.random.default_rng(seed)
    agent.seed(int(rng.integers(2**63)))
    total, steps, abandoned = 0.0, 0, 0
    for g in range(games):
        seat = g % n
        agents = [make_agent(opponent, name, int(rng.integers(2**63))) for _ in range(n)]
        agents[seat] = agent
        state = game.new_state(int(rng.integers(2**63)))
        for _ in range(max_steps):
            p = state.current_player
            if p is None:
                break
            state.apply(agents[p].act(state.for_player(p)))
            steps += 1
        if state.is_terminal():
            total += win_credit(state.winners(), seat)
        else:
            abandoned += 1
    share = total / games if games else 0.0
    lo, hi = wilson_interval(total, games)
    return {"opponent": opponent, "games": games, "win_share": share, "ci_low": lo, "ci_high": hi,
            "uniform": 1.0 / n, "steps_per_game": steps / max(games, 1), "abandoned": abandoned}


# ---- the run ------------------------------------------------------------------------------------
def _opponent_mix(cfg: TrainConfig) -> dict:
    mix = dict(cfg.opponents.mix)
    if "heuristic" in mix and not has_heuristic(cfg.game):
        log.warning("%s has no heuristic agent yet: its opponent weight goes to random", cfg.game)
        mix["random"] = mix.get("random", 0.0) + mix.pop("heuristic")
    return mix


def _eval_opponents(cfg: TrainConfig) -> list[str]:
    out = []
    for spec in cfg.eval.opponents:
        if spec == "heuristic" and not has_heuristic(cfg.game):
            log.warning("%s has no heuristic agent yet: evaluation against it is skipped", cfg.game)
            continue
        out.append(spec)
    return out


def make_vec_env(cfg: TrainConfig, mix: dict):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    def make(i):
        def _init():
            return SingleAgentEnv(cfg.game, cfg.num_players, opponents=mix, reward=cfg.reward,
                                  episode_stats=True, max_steps=cfg.max_episode_steps, **cfg.game_options)
        return _init

    fns = [make(i) for i in range(cfg.n_envs)]
    return SubprocVecEnv(fns) if cfg.vec_env == "subproc" else DummyVecEnv(fns)


def _new_model(cfg: TrainConfig, venv):
    from sb3_contrib import MaskablePPO
    from torch import nn

    p = cfg.ppo
    return MaskablePPO(
        "MlpPolicy", venv, learning_rate=p.learning_rate, n_steps=p.n_steps, batch_size=p.batch_size,
        n_epochs=p.n_epochs, gamma=p.gamma, gae_lambda=p.gae_lambda, clip_range=p.clip_range,
        ent_coef=p.ent_coef, vf_coef=p.vf_coef, max_grad_norm=p.max_grad_norm, seed=cfg.seed,
        device=cfg.device, verbose=0,
        policy_kwargs={"net_arch": {"pi": list(p.net_arch), "vf": list(p.net_arch)},
                       "activation_fn": {"tanh": nn.Tanh, "relu": nn.ReLU}[p.activation]},
    )


def _seed(*keys: int) -> int:
    """A seed derived from integers, stable across processes and Python versions."""
    return int(np.random.SeedSequence(list(keys)).generate_state(1, np.uint64)[0] >> 1)


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


@dataclass
class RunState:
    """The trainer's own bookkeeping (saved in every checkpoint)."""

    pool: list = field(default_factory=list)  # PolicyWeights, oldest first
    pool_steps: list = field(default_factory=list)  # the step each snapshot was taken at
    next_snapshot: int = 0
    next_eval: int = 0
    next_checkpoint: int = 0
    train_seconds: float = 0.0  # wall time inside PPO (collection + updates), evaluation excluded
    train_cpu_seconds: float = 0.0  # CPU time of this process over the same spans
    eval_history: list = field(default_factory=list)
    pretrain: dict | None = None  # behaviour cloning's report (pretrain.py), once it has run


class Trainer:
    """One run: ``Trainer(cfg, resume=...).run()`` returns the summary dict."""

    def __init__(self, cfg: TrainConfig, resume: bool = False):
        self.cfg = cfg
        self.resume = resume
        self.run_dir = cfg.resolved_run_dir()
        self.game = E.game_class(cfg.game)(cfg.num_players, **cfg.game_options)
        self.mix = _opponent_mix(cfg)
        self.eval_opponents = _eval_opponents(cfg)
        self.model = None
        self.venv = None
        self.rs = RunState()
        self._retired: dict[int, PolicyWeights] = {}  # dropped snapshots, by pool id (= step)

    # ---- set-up ----
    def setup(self) -> None:
        import torch
        import yaml
        from stable_baselines3.common.logger import configure

        torch.set_num_threads(self.cfg.torch_threads)
        # sb3-contrib builds a masked Categorical for every forward pass; torch's argument checks
        # (a simplex check over num_actions per row) cost more than the sampling (Big Number: 2180)
        torch.distributions.Distribution.set_default_validate_args(False)
        ckpt = self.run_dir / CHECKPOINT
        if self.resume and not ckpt.exists():
            raise ConfigError(f"--resume: no checkpoint in {self.run_dir}")
        if not self.resume and ckpt.exists():
            raise ConfigError(f"{self.run_dir} already holds a run; pass --resume or choose another run_dir")
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.venv = make_vec_env(self.cfg, self.mix)
        if self.resume:
            self._load_checkpoint(ckpt)
        else:
            (self.run_dir / "config.yaml").write_text(yaml.safe_dump(config_to_dict(self.cfg), sort_keys=False))
            self.model = _new_model(self.cfg, self.venv)
        self.model.set_logger(configure(str(self.run_dir / "tb"), ["tensorboard"]))
        if self.cfg.pretrain.imitate is not None and self.rs.pretrain is None:
            self._pretrain()

    def _pretrain(self) -> None:
        """Behaviour cloning (pretrain.py) before the first rollout, its evaluation, then a
        checkpoint: a run resumed from here or later never repeats or skips it."""
        from .pretrain import pretrain

        cfg, pre = self.cfg, self.cfg.pretrain
        log.info("pretraining: imitating %s over %d decisions", pre.imitate, pre.decisions)
        report = pretrain(self.model, self.game, pre, reward=cfg.reward, gamma=cfg.ppo.gamma, vf_coef=cfg.ppo.vf_coef,
                          max_grad_norm=cfg.ppo.max_grad_norm, seed=_seed(cfg.seed, 1), progress=cfg.progress_bar)
        log.info("pretraining: %.0f s, held-out imitation accuracy %.3f (untrained %.3f, random legal %.3f)",
                 report["seconds"], report["accuracy"], report["accuracy_before"], report["random_accuracy"])
        for k in ("accuracy", "accuracy_before", "random_accuracy"):
            self.model.logger.record(f"pretrain/{k}", report[k])
        if pre.eval_games:
            report["eval"] = self._evaluate(pre.eval_games, 0)
            self.rs.next_eval = self.cfg.eval.every  # step 0 is evaluated: the next one is due at `every`
        self.rs.pretrain = report
        self.model.logger.dump(0)
        self.save_checkpoint()

    # ---- the loop ----
    def run(self) -> dict:
        from stable_baselines3.common.callbacks import BaseCallback
        from tqdm import tqdm

        if self.model is None:
            self.setup()
        cfg, model, rs = self.cfg, self.model, self.rs
        total = -(-cfg.total_timesteps // cfg.rollout_steps) * cfg.rollout_steps
        wall0 = time.perf_counter()
        bar = tqdm(total=total, initial=model.num_timesteps, unit="step", dynamic_ncols=True,
                   disable=not cfg.progress_bar, desc=f"train {cfg.game}")

        class Progress(BaseCallback):
            def _on_step(self) -> bool:
                bar.update(self.training_env.num_envs)
                return True

        progress = Progress()
        if model.num_timesteps == 0 and not rs.pool:
            self._snapshot()
        while model.num_timesteps < total:
            t0, c0 = time.perf_counter(), time.process_time()
            model.learn(cfg.rollout_steps, callback=progress, reset_num_timesteps=False, progress_bar=False)
            rs.train_seconds += time.perf_counter() - t0
            rs.train_cpu_seconds += time.process_time() - c0
            step = model.num_timesteps
            model.logger.record("time/train_steps_per_second", step / max(rs.train_seconds, 1e-9))
            if step >= rs.next_snapshot:
                self._snapshot()
            if cfg.eval.every and step >= rs.next_eval:
                rs.next_eval = (step // cfg.eval.every + 1) * cfg.eval.every
                rows = self._evaluate(cfg.eval.games, step)
                bar.set_postfix({r["opponent"]: f"{r['win_share']:.2f}" for r in rows})
            model.logger.dump(step)
            if step >= rs.next_checkpoint or step >= total:
                rs.next_checkpoint = (step // cfg.checkpoint_every + 1) * cfg.checkpoint_every
                self.save_checkpoint()
        bar.close()
        return self._finish(time.perf_counter() - wall0)

    def _snapshot(self) -> None:
        cfg, rs, step = self.cfg, self.rs, self.model.num_timesteps
        rs.pool.append(PolicyWeights.from_sb3(self.model.policy))
        rs.pool_steps.append(step)
        for i, w in zip(rs.pool_steps[:-cfg.opponents.pool_size], rs.pool[:-cfg.opponents.pool_size]):
            self._retired[i] = w  # may still be seated in games in progress
        del rs.pool[:-cfg.opponents.pool_size], rs.pool_steps[:-cfg.opponents.pool_size]
        rs.next_snapshot = (step // cfg.opponents.snapshot_every + 1) * cfg.opponents.snapshot_every
        self._push_pool()

    def _push_pool(self, retired: dict | None = None) -> None:
        retired = {i: PolicyAgent(w) for i, w in (retired or {}).items()}
        self.venv.env_method("set_pool", [PolicyAgent(w) for w in self.rs.pool], self.rs.pool_steps, retired)

    def _evaluate(self, games: int, step: int) -> list[dict]:
        agent = PolicyAgent(PolicyWeights.from_sb3(self.model.policy), deterministic=self.cfg.eval.deterministic)
        rows = []
        for k, opp in enumerate(self.eval_opponents):
            r = evaluate(agent, self.game, opp, games, seed=_seed(self.cfg.seed, step, k),
                         max_steps=self.cfg.eval.max_steps)
            r["step"] = step
            rows.append(r)
            self.model.logger.record(f"eval/win_share_vs_{opp}", r["win_share"])
            log.info("step %d: win share vs %s %.3f [%.3f, %.3f] over %d games (1/P = %.3f)%s", step, opp,
                     r["win_share"], r["ci_low"], r["ci_high"], games, r["uniform"],
                     f", {r['abandoned']} abandoned" if r["abandoned"] else "")
        self.rs.eval_history.extend(rows)
        self._write_eval_csv()
        return rows

    def _write_eval_csv(self) -> None:
        cols = ["step", "opponent", "games", "win_share", "ci_low", "ci_high", "uniform", "abandoned"]
        buf = io.StringIO()
        w = csv.DictWriter(buf, cols, extrasaction="ignore")
        w.writeheader()
        w.writerows(self.rs.eval_history)
        _atomic_write(self.run_dir / "eval.csv", buf.getvalue().encode())

    def _finish(self, wall: float) -> dict:
        cfg, model, rs = self.cfg, self.model, self.rs
        buf = io.BytesIO()
        model.save(buf)
        _atomic_write(self.run_dir / "final.zip", buf.getvalue())
        t0 = time.perf_counter()
        final = self._evaluate(cfg.eval.final_games, model.num_timesteps) if cfg.eval.final_games else []
        summary = {
            "game": cfg.game, "num_players": self.game.num_players, "steps": model.num_timesteps,
            "train_seconds": rs.train_seconds, "steps_per_second": model.num_timesteps / max(rs.train_seconds, 1e-9),
            # with vec_env dummy and one torch thread the run is one thread: steps per CPU second is
            # what an otherwise idle core would give (subproc envs' CPU time is not counted)
            "train_cpu_seconds": rs.train_cpu_seconds,
            "steps_per_cpu_second": model.num_timesteps / max(rs.train_cpu_seconds, 1e-9),
            "wall_seconds_this_session": wall, "final_eval_seconds": time.perf_counter() - t0,
            "n_envs": cfg.n_envs, "vec_env": cfg.vec_env, "torch_threads": cfg.torch_threads,
            "pretrain": rs.pretrain,
            # the run's CPU budget: behaviour cloning (collection + fitting) plus PPO
            "budget_cpu_seconds": rs.train_cpu_seconds + (rs.pretrain or {}).get("cpu_seconds", 0.0),
            "opponent_mix": self.mix, "pool_size": len(rs.pool), "load_average": list(os.getloadavg()),
            "final_eval": final,
        }
        _atomic_write(self.run_dir / "summary.json", json.dumps(summary, indent=2).encode())
        self.close()
        return summary

    def close(self) -> None:
        if self.venv is not None:
            self.venv.close()
            self.venv = None

    # ---- checkpoints ----
    def save_checkpoint(self) -> Path:
        import torch

        buf = io.BytesIO()
        self.model.save(buf)
        in_use = sorted({i for ids in self.venv.env_method("pool_ids_in_use") for i in ids})
        retired_ids = [(i, self._retired[i]) for i in in_use if i not in self.rs.pool_steps]
        self._retired = dict(retired_ids)  # envs only draw from the pool: others never return
        blob = {
            "version": 1,
            "config": config_to_dict(self.cfg),
            "model": buf.getvalue(),
            "num_timesteps": self.model.num_timesteps,
            "run_state": self.rs,
            "env_states": self.venv.env_method("get_env_state"),
            # snapshots dropped from the pool but still seated in a game in progress
            "retired": {i: w for i, w in retired_ids if i not in self.rs.pool_steps},
            "rng": {"python": random.getstate(), "numpy": np.random.get_state(),
                    "torch": torch.get_rng_state()},
        }
        path = self.run_dir / CHECKPOINT
        _atomic_write(path, pickle.dumps(blob))
        return path

    def _load_checkpoint(self, path: Path) -> None:
        import torch
        from sb3_contrib import MaskablePPO

        blob = pickle.loads(path.read_bytes())
        _check_resumable(blob["config"], config_to_dict(self.cfg))
        self.model = MaskablePPO.load(io.BytesIO(blob["model"]), env=self.venv, device=self.cfg.device,
                                      force_reset=False)
        if self.model.num_timesteps != blob["num_timesteps"]:
            raise ConfigError("checkpoint is inconsistent: step counters differ")
        self.rs = blob["run_state"]
        self._retired = dict(blob["retired"])
        self._push_pool(retired=blob["retired"])
        for i, s in enumerate(blob["env_states"]):
            self.venv.env_method("set_env_state", s, indices=[i])
        random.setstate(blob["rng"]["python"])
        np.random.set_state(blob["rng"]["numpy"])
        torch.set_rng_state(blob["rng"]["torch"])
        self._write_eval_csv()


def _flatten(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and k in ("ppo", "opponents", "eval", "pretrain", "vector"):
            out.update(_flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def _check_resumable(saved: dict, given: dict) -> None:
    a, b = _flatten(saved), _flatten(given)
    diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k) and k not in RESUMABLE_CHANGES)
    if diff:
        raise ConfigError(f"--resume: the config differs from the run's own in {', '.join(diff)} "
                          f"(only {', '.join(sorted(RESUMABLE_CHANGES))} may change)")


def train(cfg: TrainConfig, resume: bool = False) -> dict:
    """Train (or resume) one run; returns its summary (also written to run_dir/summary.json).
    ``trainer: vector`` runs the batched self-play trainer (training/vector_ppo.py) instead."""
    if cfg.trainer == "vector":
        from .vector_ppo import train as train_vector

        return train_vector(cfg, resume=resume)
    trainer = Trainer(cfg, resume=resume)
    try:
        return trainer.run()
    finally:
        trainer.close()
