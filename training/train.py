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

import csv
import io
import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import deckzoo.envs as E
from deckzoo.agents.match import play_match
from deckzoo.agents.registry import has_heuristic, make_agent
from deckzoo.agents.stats import wilson_interval, win_credit
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
from .curve import plot_learning_curve
from .policy import PolicyAgent, PolicyWeights, save_policy, weights_from_sb3
from .single_agent import SingleAgentEnv

log = logging.getLogger("deckzoo.training")

# Config keys that may change when a run is resumed (everything else must match the run's own).
RESUMABLE_CHANGES = {"total_timesteps", "progress_bar", "run_dir", "vec_env", "eval.final_games"}


# ---- evaluation ---------------------------------------------------------------------------------
def evaluate(agent, game, opponent: str, games: int, seed: int) -> dict:
    """Play ``games`` games on the engine: ``agent`` in seat g mod P of game g, fresh ``opponent``
    agents elsewhere. Returns the agent's win share (ties split) with its 95% Wilson interval
    (``deckzoo.agents.stats``, the arena's statistics). A game the engine cuts off at its declared
    cap (``max_game_length``: Midgard's ``max_decisions``, where a greedy policy can cycle through
    cancellable decisions) counts as a loss; ``abandoned`` says how many."""
    n = game.num_players
    rng = np.random.default_rng(seed)
    agent.seed(int(rng.integers(2**63)))
    total, steps, abandoned = 0.0, 0, 0
    labels = [opponent] * n
    for g in range(games):
        seat = g % n
        agents = [make_agent(opponent, type(game).name, int(rng.integers(2**63))) for _ in range(n)]
        agents[seat] = agent
        result = play_match(game, agents, labels, int(rng.integers(2**63)))
        steps += result.steps
        if result.truncated:
            abandoned += 1
        else:
            total += win_credit(result.winners, seat)
    share = total / games if games else 0.0
    lo, hi = wilson_interval(total, games)
    return {
        "opponent": opponent,
        "games": games,
        "win_share": share,
        "ci_low": lo,
        "ci_high": hi,
        "uniform": 1.0 / n,
        "steps_per_game": steps / max(games, 1),
        "abandoned": abandoned,
    }


def evaluate_opponents(
    agent, game, opponents: list[str], games: int, seed: int, step: int, kind: str = "periodic"
) -> list[dict]:
    """``evaluate`` against each opponent spec, seeded by (run seed, step, opponent index) so every
    trainer's evaluation at a step plays the same games; ``kind`` (periodic, pretrain, final)
    marks the rows in eval.csv."""
    rows = []
    for k, opp in enumerate(opponents):
        r = evaluate(agent, game, opp, games, seed=_seed(seed, step, k))
        r["step"], r["kind"] = step, kind
        rows.append(r)
        log.info(
            "step %d: win share vs %s %.3f [%.3f, %.3f] over %d games (1/P = %.3f)%s",
            step,
            opp,
            r["win_share"],
            r["ci_low"],
            r["ci_high"],
            games,
            r["uniform"],
            f", {r['abandoned']} abandoned" if r["abandoned"] else "",
        )
    return rows


EVAL_COLUMNS = [
    "step",
    "kind",
    "opponent",
    "games",
    "win_share",
    "ci_low",
    "ci_high",
    "uniform",
    "abandoned",
]


def write_eval_csv(path: Path, rows: list[dict], columns: list[str] = EVAL_COLUMNS) -> None:
    """Every evaluation of the run so far (the learning curve), rewritten atomically."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, columns, extrasaction="ignore")
    w.writeheader()
    w.writerows(rows)
    atomic_write(path, buf.getvalue().encode())


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

    subproc = cfg.vec_env == "subproc"

    def make(i):
        def _init():
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

        return _init

    fns = [make(i) for i in range(cfg.n_envs)]
    return SubprocVecEnv(fns) if subproc else DummyVecEnv(fns)


def _new_model(cfg: TrainConfig, venv):
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


def _seed(*keys: int) -> int:
    """A seed derived from integers, stable across processes and Python versions."""
    return int(np.random.SeedSequence(list(keys)).generate_state(1, np.uint64)[0] >> 1)


class RunFinished(Exception):
    """``--resume`` of a run that already finished at its ``total_timesteps``: nothing to do."""


class TrainingInterrupted(Exception):
    """Ctrl-C (or SIGTERM) during a run; says where the last checkpoint is."""

    def __init__(self, step: int, checkpoint_step: int | None, path: Path):
        self.step, self.checkpoint_step, self.path = step, checkpoint_step, path
        super().__init__(f"interrupted at step {step}")


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
    finished: bool = False  # the final evaluation and outputs are done for num_timesteps

    def to_json(self) -> dict:
        """Everything but the pool's weights (those go to the checkpoint's arrays)."""
        return {k: v for k, v in vars(self).items() if k != "pool"}


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
        self.checkpoint_step: int | None = None  # the step of the newest checkpoint on disk

    # ---- set-up ----
    def setup(self) -> None:
        import torch
        import yaml
        from stable_baselines3.common.logger import configure

        torch.set_num_threads(self.cfg.torch_threads)
        # sb3-contrib builds a masked Categorical for every forward pass; torch's argument checks
        # (a simplex check over num_actions per row) cost more than the sampling (Big Number: 2180)
        torch.distributions.Distribution.set_default_validate_args(False)
        ckpt, old = self.run_dir / CHECKPOINT, self.run_dir / OLD_CHECKPOINT
        if self.resume and not ckpt.exists():
            if old.exists():
                raise ConfigError(
                    f"--resume: {old} is a checkpoint of an older deckzoo, in a "
                    "format (pickle) that is no longer loaded because loading it "
                    "could run code; start the run afresh"
                )
            raise ConfigError(f"--resume: no checkpoint in {self.run_dir}")
        if not self.resume and (ckpt.exists() or old.exists()):
            raise ConfigError(
                f"{self.run_dir} already holds a run; pass --resume or choose another run_dir"
            )
        blob = read_checkpoint(ckpt) if self.resume else None  # damaged: fails before any work
        if blob is not None:
            self._check_extension(blob[0])
            self.checkpoint_step = int(blob[0]["sb3"]["num_timesteps"])  # on disk, whatever happens
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.venv = make_vec_env(self.cfg, self.mix)
        self.model = _new_model(self.cfg, self.venv)
        if blob is not None:
            self._load_checkpoint(*blob)
        # the run's own config: written at the start, rewritten when a resume extends the run
        config = yaml.safe_dump(config_to_dict(self.cfg), sort_keys=False)
        (self.run_dir / "config.yaml").write_text(config)
        self.model.set_logger(configure(str(self.run_dir / "tb"), ["tensorboard"]))
        if self.cfg.pretrain.imitate is not None and self.rs.pretrain is None:
            self._pretrain()

    def _pretrain(self) -> None:
        """Behaviour cloning (pretrain.py) before the first rollout, its evaluation, then a
        checkpoint: a run resumed from here or later never repeats or skips it."""
        from .pretrain import pretrain

        cfg, pre = self.cfg, self.cfg.pretrain
        log.info("pretraining: imitating %s over %d decisions", pre.imitate, pre.decisions)
        report = pretrain(
            self.model,
            self.game,
            pre,
            reward=cfg.reward,
            gamma=cfg.ppo.gamma,
            vf_coef=cfg.ppo.vf_coef,
            max_grad_norm=cfg.ppo.max_grad_norm,
            seed=_seed(cfg.seed, 1),
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
            report["eval"] = self._evaluate(pre.eval_games, 0, kind="pretrain")
            self.rs.next_eval = (
                self.cfg.eval.every
            )  # step 0 is evaluated: the next one is due at `every`
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
        bar = tqdm(
            total=total,
            initial=model.num_timesteps,
            unit="step",
            dynamic_ncols=True,
            disable=not cfg.progress_bar,
            desc=f"train {cfg.game}",
        )

        class Progress(BaseCallback):
            def _on_step(self) -> bool:
                bar.update(self.training_env.num_envs)
                return True

        progress = Progress()
        if model.num_timesteps == 0 and not rs.pool:
            self._snapshot()
        try:
            self._loop(total, progress, bar)
        except KeyboardInterrupt:
            raise TrainingInterrupted(
                model.num_timesteps, self.checkpoint_step, self.run_dir / CHECKPOINT
            ) from None
        finally:
            bar.close()
        return self._finish(time.perf_counter() - wall0)

    def _loop(self, total: int, progress, bar) -> None:
        cfg, model, rs = self.cfg, self.model, self.rs
        while model.num_timesteps < total:
            t0, c0 = time.perf_counter(), time.process_time()
            model.learn(
                cfg.rollout_steps, callback=progress, reset_num_timesteps=False, progress_bar=False
            )
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

    def _snapshot(self) -> None:
        cfg, rs, step = self.cfg, self.rs, self.model.num_timesteps
        rs.pool.append(weights_from_sb3(self.model.policy))
        rs.pool_steps.append(step)
        for i, w in zip(
            rs.pool_steps[: -cfg.opponents.pool_size], rs.pool[: -cfg.opponents.pool_size]
        ):
            self._retired[i] = w  # may still be seated in games in progress
        del rs.pool[: -cfg.opponents.pool_size], rs.pool_steps[: -cfg.opponents.pool_size]
        rs.next_snapshot = (step // cfg.opponents.snapshot_every + 1) * cfg.opponents.snapshot_every
        self._push_pool()

    def _push_pool(self, retired: dict | None = None) -> None:
        retired = {i: PolicyAgent(w) for i, w in (retired or {}).items()}
        self.venv.env_method(
            "set_pool", [PolicyAgent(w) for w in self.rs.pool], self.rs.pool_steps, retired
        )

    def _evaluate(
        self, games: int, step: int, kind: str = "periodic", seed: int | None = None
    ) -> list[dict]:
        """``seed`` (the pre-registered ``eval.final_seed``) replaces the run's seed."""
        agent = PolicyAgent(
            weights_from_sb3(self.model.policy), deterministic=self.cfg.eval.deterministic
        )
        rows = evaluate_opponents(
            agent,
            self.game,
            self.eval_opponents,
            games,
            self.cfg.seed if seed is None else seed,
            step,
            kind,
        )
        for r in rows:
            self.model.logger.record(f"eval/win_share_vs_{r['opponent']}", r["win_share"])
        self.rs.eval_history.extend(rows)
        write_eval_csv(self.run_dir / "eval.csv", self.rs.eval_history)
        return rows

    def _finish(self, wall: float) -> dict:
        cfg, model, rs = self.cfg, self.model, self.rs
        buf = io.BytesIO()
        model.save(buf)
        atomic_write(self.run_dir / "final.zip", buf.getvalue())
        save_policy(
            self.run_dir / "policy.npz",
            weights_from_sb3(model.policy),
            game=cfg.game,
            env=E.canonical(cfg.game),
            game_config=self.game.config(),
            trainer="deckzoo.training (MaskablePPO)",
            training=config_to_dict(cfg),
            extra={"steps": int(model.num_timesteps)},
        )
        t0 = time.perf_counter()
        final = (
            self._evaluate(
                cfg.eval.final_games, model.num_timesteps, kind="final", seed=cfg.eval.final_seed
            )
            if cfg.eval.final_games
            else []
        )
        summary = {
            "game": cfg.game,
            "num_players": self.game.num_players,
            "steps": model.num_timesteps,
            "train_seconds": rs.train_seconds,
            "steps_per_second": model.num_timesteps / max(rs.train_seconds, 1e-9),
            # with vec_env dummy and one torch thread the run is one thread: steps per CPU second is
            # what an otherwise idle core would give (subproc envs' CPU time is not counted)
            "train_cpu_seconds": rs.train_cpu_seconds,
            "steps_per_cpu_second": model.num_timesteps / max(rs.train_cpu_seconds, 1e-9),
            "wall_seconds_this_session": wall,
            "final_eval_seconds": time.perf_counter() - t0,
            "n_envs": cfg.n_envs,
            "vec_env": cfg.vec_env,
            "torch_threads": cfg.torch_threads,
            "pretrain": rs.pretrain,
            # the run's CPU budget: behaviour cloning (collection + fitting) plus PPO
            "budget_cpu_seconds": rs.train_cpu_seconds
            + (rs.pretrain or {}).get("cpu_seconds", 0.0),
            "opponent_mix": self.mix,
            "pool_size": len(rs.pool),
            "load_average": list(os.getloadavg()),
            "final_eval": final,
        }
        atomic_write(self.run_dir / "summary.json", json.dumps(summary, indent=2).encode())
        if rs.eval_history:
            title = f"{cfg.game} ({self.game.num_players} players): MaskablePPO, {cfg.run_dir}"
            plot_learning_curve(
                rs.eval_history, self.game.num_players, self.run_dir / "learning_curve.png", title
            )
        rs.finished = True  # a resume with the same budget now has nothing to do
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
        self.checkpoint_step = int(self.model.num_timesteps)
        return path

    def _check_extension(self, meta: dict) -> None:
        """Before anything starts: the config may change only where a resume allows it, and the
        new budget must not be below the steps done; a finished run with no more steps to do
        raises ``RunFinished``."""
        try:
            done, finished = int(meta["sb3"]["num_timesteps"]), bool(meta["run_state"]["finished"])
            saved = dict(meta["config"])
        except (KeyError, TypeError, ValueError) as e:
            raise ConfigError(
                f"--resume: the checkpoint in {self.run_dir} is damaged (missing or "
                f"bad {e}); start the run afresh in another run_dir"
            ) from None
        _check_resumable(saved, config_to_dict(self.cfg))
        total = -(-self.cfg.total_timesteps // self.cfg.rollout_steps) * self.cfg.rollout_steps
        if total < done:
            raise ConfigError(
                f"--resume: total_timesteps {self.cfg.total_timesteps} is below the "
                f"{done} steps this run has done; give more than {done} (--steps) "
                "to extend it"
            )
        if total == done and finished:
            raise RunFinished(
                f"{self.run_dir} already finished at {done} steps (final evaluation "
                f"in summary.json); nothing to do: give more than {done} steps "
                "(--steps) to extend it"
            )

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
            self.rs = RunState(pool=pool, **rs)
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
                f"({type(e).__name__}: {e}); start the run afresh in another "
                "run_dir"
            ) from None
        self.checkpoint_step = int(self.model.num_timesteps)
        write_eval_csv(self.run_dir / "eval.csv", self.rs.eval_history)


def _flatten(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and k in ("ppo", "opponents", "eval", "pretrain", "vector", "rllib"):
            out.update(_flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def _check_resumable(saved: dict, given: dict, allowed=RESUMABLE_CHANGES) -> None:
    a, b = _flatten(saved), _flatten(given)
    diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k) and k not in allowed)
    if diff:
        raise ConfigError(
            f"--resume: the config differs from the run's own in {', '.join(diff)} "
            f"(only {', '.join(sorted(allowed))} may change)"
        )


def train(cfg: TrainConfig, resume: bool = False) -> dict:
    """Train (or resume) one run; returns its summary (also written to run_dir/summary.json).
    ``trainer: vector`` runs the batched self-play trainer (training/vector_ppo.py) instead, and
    ``trainer: rllib`` RLlib's PPO on Ray (training/rllib.py)."""
    if cfg.trainer == "vector":
        from .vector_ppo import train as train_vector

        return train_vector(cfg, resume=resume)
    if cfg.trainer == "rllib":
        from .rllib import train as train_rllib

        return train_rllib(cfg, resume=resume)
    trainer = Trainer(cfg, resume=resume)
    try:
        return trainer.run()
    except KeyboardInterrupt:  # during set-up or behaviour cloning (the loop raises its own)
        step = trainer.model.num_timesteps if trainer.model is not None else 0
        path = trainer.run_dir / CHECKPOINT
        raise TrainingInterrupted(step, trainer.checkpoint_step, path) from None
    finally:
        trainer.close()
