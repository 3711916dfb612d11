"""MaskablePPO self-play training for any deckzoo game (``trainer: sb3``, the default).

The learner is sb3-contrib's ``MaskablePPO`` (``MlpPolicy``, separate actor and critic of
``ppo.net_arch``) on ``n_envs`` copies of ``SingleAgentEnv``. Its opponents are drawn per seat
and per episode from ``opponents.mix``: baselines (random, heuristic, any agent spec) and the
self-play pool, i.e. snapshots of the learner's own actor taken every
``opponents.snapshot_every`` steps (the newest ``pool_size`` kept). Snapshots are numpy copies
of the actor (``policy.PolicyWeights``), so opponents act without torch inside the envs.

One iteration is one PPO iteration (a rollout of ``n_steps * n_envs`` steps, then the update);
the bookkeeping between iterations (snapshots, evaluation, checkpoints) is the run skeleton's
(``run.py``). A run folder holds::

    config.yaml         the resolved configuration (rewritten when a run is extended)
    checkpoint.ckpt     the latest checkpoint (checkpoint.py; a temporary file, then renamed)
    eval.csv            every evaluation (the learning curve); ``kind``: periodic, pretrain, final
    tb/                 TensorBoard logs (rollout/*, train/*, eval/*)
    learning_curve.png  win share against each evaluation opponent over the run
    policy.npz          the final policy as a policy file (an Agent: ``ppo:<run>/policy.npz``)
    final.zip           the final MaskablePPO model, for SB3 (``ppo:<run>/final.zip`` loads it too)
    summary.json        steps, time, throughput and the final evaluation

Resuming is exact: a checkpoint holds the model with its optimiser state and step counter,
the pool, every env's complete state (game in progress, opponents, generators) and the
global python/numpy/torch generator states, so a run stopped and resumed from a checkpoint
produces the same parameters as an uninterrupted run (tests/training checks this). No part of
a checkpoint is pickled: loading one cannot run code (checkpoint.py).
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass, field
from pathlib import Path

import deckzoo.envs as E
from deckzoo.envs.core.errors import ConfigError

from .checkpoint import (
    CHECKPOINT,
    OLD_CHECKPOINT,
    atomic_write,
    global_rng_state,
    model_state,
    read_checkpoint,
    restore_model,
    set_global_rng_state,
    write_checkpoint,
)
from .config import TrainConfig, config_to_dict
from .opponents import derive_seed
from .policy import PolicyAgent, PolicyWeights, save_policy, weights_from_sb3
from .run import Run, RunState, check_budget, check_resumable, claim_run_dir, write_config
from .single_agent import SingleAgentEnv

log = logging.getLogger("deckzoo.training")


def make_vec_env(cfg: TrainConfig, mix: dict):
    """``n_envs`` single-agent envs, in this process (``vec_env: dummy``) or one process each."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    subproc = cfg.vec_env == "subproc"

    def make():
        if subproc:  # in the worker: Ctrl-C is the parent's (one message, no tracebacks)
            import signal

            signal.signal(signal.SIGINT, signal.SIG_IGN)
        return SingleAgentEnv(
            cfg.game,
            cfg.num_players,
            opponents=mix,
            reward=cfg.reward,
            episode_stats=True,
            max_steps=cfg.max_episode_steps,
            **cfg.game_options,
        )

    fns = [make] * cfg.n_envs
    return SubprocVecEnv(fns) if subproc else DummyVecEnv(fns)


def new_model(cfg: TrainConfig, venv):
    """A fresh MaskablePPO of the config's hyper-parameters."""
    from sb3_contrib import MaskablePPO
    from torch import nn

    p = cfg.ppo
    return MaskablePPO(
        "MlpPolicy",
        venv,
        learning_rate=p.learning_rate,
        n_steps=p.n_steps,
        batch_size=p.batch_size,
        n_epochs=p.n_epochs,
        gamma=p.gamma,
        gae_lambda=p.gae_lambda,
        clip_range=p.clip_range,
        ent_coef=p.ent_coef,
        vf_coef=p.vf_coef,
        max_grad_norm=p.max_grad_norm,
        seed=cfg.seed,
        device=cfg.device,
        verbose=0,
        policy_kwargs={
            "net_arch": {"pi": list(p.net_arch), "vf": list(p.net_arch)},
            "activation_fn": {"tanh": nn.Tanh, "relu": nn.ReLU}[p.activation],
        },
    )


@dataclass
class SB3RunState(RunState):
    """The skeleton's bookkeeping plus the pool's steps, behaviour cloning's report and whether the
    final evaluation is done (saved in every checkpoint; ``pool`` holds ``PolicyWeights``)."""

    pool_steps: list = field(default_factory=list)  # the step each snapshot was taken at
    pretrain: dict | None = None  # behaviour cloning's report (pretrain.py), once it has run
    finished: bool = False  # the final evaluation and outputs are done for num_timesteps

    def to_json(self) -> dict:
        """Everything but the pool's weights (those go to the checkpoint's arrays)."""
        return {k: v for k, v in vars(self).items() if k != "pool"}


class SB3Trainer(Run):
    """One MaskablePPO run: ``SB3Trainer(cfg, resume=...).run()`` returns the summary dict."""

    label = "sb3"
    state_class = SB3RunState

    def __init__(self, cfg: TrainConfig, resume: bool = False):
        super().__init__(cfg, resume)
        self.model = None
        self.venv = None
        self._retired: dict[int, PolicyWeights] = {}  # dropped snapshots, by pool id (= step)
        self.checkpoint_step: int | None = None  # the step of the newest checkpoint on disk

    @property
    def total(self) -> int:
        return -(-self.cfg.total_timesteps // self.cfg.rollout_steps) * self.cfg.rollout_steps

    def steps(self) -> int:
        return 0 if self.model is None else int(self.model.num_timesteps)

    # ---- set-up ----
    def setup(self) -> None:
        import torch
        from stable_baselines3.common.logger import configure

        torch.set_num_threads(self.cfg.torch_threads)
        # sb3-contrib builds a masked Categorical for every forward pass; torch's argument checks
        # (a simplex check over num_actions per row) cost more than the sampling (Big Number: 2180)
        torch.distributions.Distribution.set_default_validate_args(False)
        ckpt, old = self.run_dir / CHECKPOINT, self.run_dir / OLD_CHECKPOINT
        if self.resume and not ckpt.exists() and old.exists():
            raise ConfigError(
                f"--resume: {old} is a checkpoint of an older deckzoo, in a format (pickle) that "
                "is no longer loaded because loading it could run code; start the run afresh"
            )
        found = ckpt.exists() or (not self.resume and old.exists())
        claim_run_dir(self.run_dir, self.resume, found)
        blob = read_checkpoint(ckpt) if self.resume else None  # damaged: fails before any work
        if blob is not None:
            self._check_extension(blob[0])
            self.checkpoint_step = int(blob[0]["sb3"]["num_timesteps"])  # on disk, whatever happens
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.venv = make_vec_env(self.cfg, self.mix.weights)
        self.model = new_model(self.cfg, self.venv)
        if blob is not None:
            self._load_checkpoint(*blob)
        write_config(self.run_dir, self.cfg)
        self.model.set_logger(configure(str(self.run_dir / "tb"), ["tensorboard"]))
        self.ready = True
        if self.cfg.pretrain.imitate is not None and self.rs.pretrain is None:
            self._pretrain()

    def _pretrain(self) -> None:
        """Behaviour cloning (pretrain.py) before the first rollout, its evaluation, then a
        checkpoint: a run resumed from here or later never repeats or skips it."""
        from . import pretrain

        cfg, pre = self.cfg, self.cfg.pretrain
        log.info("pretraining: imitating %s over %d decisions", pre.imitate, pre.decisions)
        report = pretrain.pretrain(
            self.model,
            self.game,
            pre,
            reward=cfg.reward,
            gamma=cfg.ppo.gamma,
            vf_coef=cfg.ppo.vf_coef,
            max_grad_norm=cfg.ppo.max_grad_norm,
            seed=derive_seed(cfg.seed, 1),
            progress=cfg.progress_bar,
        )
        log.info(
            "pretraining: %.0f s, held-out imitation accuracy %.3f "
            "(untrained %.3f, random legal %.3f)",
            report["seconds"],
            report["accuracy"],
            report["accuracy_before"],
            report["random_accuracy"],
        )
        for k in ("accuracy", "accuracy_before", "random_accuracy"):
            self.model.logger.record(f"pretrain/{k}", report[k])
        if pre.eval_games:
            report["eval"] = self.evaluate(pre.eval_games, 0, kind="pretrain")
            self.rs.next_eval = cfg.eval.every  # step 0 is evaluated: the next one is at `every`
        self.rs.pretrain = report
        self.model.logger.dump(0)
        self.save_checkpoint()

    # ---- one iteration ----
    def iterate(self) -> dict:
        self.model.learn(self.cfg.rollout_steps, reset_num_timesteps=False, progress_bar=False)
        return {}

    def log(self, stats: dict, step: int) -> None:
        speed = step / max(self.rs.train_seconds, 1e-9)
        self.model.logger.record("time/train_steps_per_second", speed)
        self.model.logger.dump(step)

    def log_scalar(self, key: str, value: float, step: int) -> None:
        self.model.logger.record(key, value)

    def snapshot(self, step: int) -> None:
        rs, keep = self.rs, self.cfg.opponents.pool_size
        rs.pool.append(self.policy_weights())
        rs.pool_steps.append(step)
        for i, w in zip(rs.pool_steps[:-keep], rs.pool[:-keep]):
            self._retired[i] = w  # may still be seated in games in progress
        del rs.pool[:-keep], rs.pool_steps[:-keep]
        self._push_pool()

    def _push_pool(self, retired: dict | None = None) -> None:
        retired = {i: PolicyAgent(w) for i, w in (retired or {}).items()}
        self.venv.env_method(
            "set_pool", [PolicyAgent(w) for w in self.rs.pool], self.rs.pool_steps, retired
        )

    def policy_weights(self) -> PolicyWeights:
        return weights_from_sb3(self.model.policy)

    # ---- the end ----
    def export(self) -> dict:
        cfg, model, rs = self.cfg, self.model, self.rs
        buf = io.BytesIO()
        model.save(buf)
        atomic_write(self.run_dir / "final.zip", buf.getvalue())
        save_policy(
            self.run_dir / "policy.npz",
            self.policy_weights(),
            game=cfg.game,
            env=E.canonical(cfg.game),
            game_config=self.game.config(),
            trainer="deckzoo.training (MaskablePPO)",
            training=config_to_dict(cfg),
            extra={"steps": self.steps()},
        )
        return {
            "n_envs": cfg.n_envs,
            "vec_env": cfg.vec_env,
            "pretrain": rs.pretrain,
            # the run's CPU budget: behaviour cloning (collection + fitting) plus PPO
            "budget_cpu_seconds": rs.train_cpu_seconds + (rs.pretrain or {}).get("cpu_seconds", 0),
        }

    def finish(self, wall: float) -> dict:
        summary = super().finish(wall)
        self.rs.finished = True  # a resume with the same budget now has nothing to do
        self.save_checkpoint()
        self.close()
        return summary

    def close(self) -> None:
        if self.venv is not None:
            self.venv.close()
            self.venv = None

    # ---- checkpoints ----
    def save_checkpoint(self) -> Path:
        """Write checkpoint.ckpt (checkpoint.py): plain JSON, arrays and torch state dicts."""
        in_use = sorted({i for ids in self.venv.env_method("pool_ids_in_use") for i in ids})
        # snapshots dropped from the pool but still seated in a game in progress
        self._retired = {i: self._retired[i] for i in in_use if i not in self.rs.pool_steps}
        sb3, arrays, tensors = model_state(self.model)
        rng, rng_arrays = global_rng_state()
        pool = [*self.rs.pool, *self._retired.values()]
        for k, w in enumerate(self.rs.pool):
            arrays.update(w.to_arrays(f"pool_{k}_"))
        for i, w in self._retired.items():
            arrays.update(w.to_arrays(f"retired_{i}_"))
        meta = {
            "config": config_to_dict(self.cfg),
            "sb3": sb3,
            "run_state": self.rs.to_json(),
            "pool_activations": [w.activation for w in pool],
            "retired": list(self._retired),
            "env_states": self.venv.env_method("get_env_state"),
            "rng": rng,
        }
        path = self.run_dir / CHECKPOINT
        write_checkpoint(path, meta, {**arrays, **rng_arrays}, tensors)
        self.checkpoint_step = self.steps()
        return path

    def _check_extension(self, meta: dict) -> None:
        """Before anything starts: the config may change only where a resume allows it, and the
        new budget must not be below the steps done."""
        try:
            done, finished = int(meta["sb3"]["num_timesteps"]), bool(meta["run_state"]["finished"])
            saved = dict(meta["config"])
        except (KeyError, TypeError, ValueError) as e:
            raise ConfigError(
                f"--resume: the checkpoint in {self.run_dir} is damaged (missing or "
                f"bad {e}); start the run afresh in another run_dir"
            ) from None
        check_resumable(saved, config_to_dict(self.cfg))
        check_budget(self.run_dir, self.total, done, finished, self.cfg.total_timesteps)

    def _load_checkpoint(self, meta: dict, arrays: dict, tensors: dict) -> None:
        where = self.run_dir / CHECKPOINT
        try:
            restore_model(self.model, meta["sb3"], arrays, tensors)
            rs = dict(meta["run_state"])
            acts = list(meta["pool_activations"])
            pool = [
                PolicyWeights.from_arrays(arrays, acts[k], f"pool_{k}_", str(where))
                for k in range(len(rs["pool_steps"]))
            ]
            retired = {}
            for n, i in enumerate(meta["retired"]):
                act, prefix = acts[len(pool) + n], f"retired_{i}_"
                retired[int(i)] = PolicyWeights.from_arrays(arrays, act, prefix, str(where))
            self.rs = SB3RunState(pool=pool, **rs)
            self.rs.finished = False  # the run goes on (a finished one was refused in setup)
            self._retired = retired
            self._push_pool(retired=retired)
            states = meta["env_states"]
            if len(states) != self.cfg.n_envs:
                raise ValueError(f"it holds {len(states)} env states for n_envs {self.cfg.n_envs}")
            for i, s in enumerate(states):
                self.venv.env_method("set_env_state", s, indices=[i])
            set_global_rng_state(meta["rng"], arrays)
        except ConfigError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, RuntimeError) as e:
            raise ConfigError(
                f"--resume: the checkpoint {str(where)!r} is damaged or inconsistent "
                f"({type(e).__name__}: {e}); start the run afresh in another run_dir"
            ) from None
        self.checkpoint_step = self.steps()
        self.write_eval_csv()


def train(cfg: TrainConfig, resume: bool = False) -> dict:
    """Train (or resume) one MaskablePPO run; returns its summary (also run_dir/summary.json)."""
    from .run import TrainingInterrupted

    trainer = SB3Trainer(cfg, resume=resume)
    try:
        return trainer.run()
    except KeyboardInterrupt:
        path = trainer.run_dir / CHECKPOINT
        raise TrainingInterrupted(trainer.steps(), trainer.checkpoint_step, path) from None
    finally:
        trainer.close()
