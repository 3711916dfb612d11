"""RLlib self-play training for any deckzoo game: ``trainer: rllib`` (configs/<game>-rllib.yaml).

RLlib's PPO (new API stack) trains one policy, the module ``main``, that plays every seat it is
given. Games run in ``rllib.env_runners`` Ray actors of ``rllib.envs_per_runner`` envs each: the
AEC env wrapped by RLlib's ``PettingZooEnv``, or for a game with simultaneous decisions (BigWig)
its Parallel env wrapped by ``ParallelPettingZooEnv``; both with ``illegal_action="raise"``, so an
illegal sample would stop the run rather than be penalised. Actions are masked by deckzoo's own
``MaskedPPOModule`` (training/rllib_module.py). The learner runs in this (the driver's) process.

Seats. Each game draws its line-up from its episode id: one seat, uniformly, is ``main``; every
other seat draws from ``opponents.mix``: ``learner`` (``main`` again, so it learns from both
sides), ``pool`` (a uniformly drawn frozen snapshot) or ``random`` (a frozen module with zero
weights: uniform over the legal actions). Snapshots of ``main`` are taken every
``opponents.snapshot_every`` env steps (one at step 0) into at most ``opponents.pool_size``
modules ``pool_0``... added with ``Algorithm.add_module``; once the pool is full the oldest
slot's weights are replaced. ``policies_to_train`` is ``["main"]`` throughout.

Bookkeeping between iterations is the run skeleton's (``run.py``), as for every trainer:
snapshots, evaluation of the learner group's actor on the engine against ``eval.opponents`` (the
learner in every seat in turn, win share with its 95% Wilson interval), TensorBoard scalars and
checkpoints. A run folder holds::

    config.yaml      the resolved configuration
    checkpoint/      RLlib's own checkpoint (Algorithm.save_to_path) plus deckzoo.json (the pool,
                     counters, evaluation history); ``--resume`` rebuilds the algorithm with the
                     same modules and restores it from there (Algorithm.restore_from_path)
    eval.csv         every evaluation (and learning_curve.png, its chart)
    tb/              TensorBoard scalars (rollout/*, train/*, eval/*, time/*)
    policy.npz       the final actor, exported from the learner group, as a numpy policy file
                     (``ppo:<run>/policy.npz`` plays it in the arena, ``play`` and leaderboards)
    summary.json     steps, time, throughput (per CPU second, all processes), memory, final eval

Cluster: ``rllib.address`` (``deckzoo train --address auto|HOST:PORT``) joins a running Ray
cluster; by default a local instance of ``rllib.num_cpus`` CPUs is started. The env runners build
their envs from deckzoo's code shipped with the job (``agents/ray_cluster.py``) and get weights
through Ray; checkpoints are written by the driver. Nothing is read from a shared filesystem.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import resource
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

import deckzoo.envs as E
from deckzoo.agents.policy import save_policy
from deckzoo.agents.ray_cluster import connect, require_ray
from deckzoo.envs import canonical

from .config import TrainConfig, config_to_dict
from .opponents import LEARNER, OpponentMix
from .run import Run, RunState, check_resumable, claim_run_dir, write_config

log = logging.getLogger("deckzoo.training")

MAIN, RANDOM = "main", "random"
ENV_NAME = "deckzoo_multi_agent"
CHECKPOINT = "checkpoint"
STATE_FILE = "deckzoo.json"
POLICY_FILE = "policy.npz"
# Config keys that may change when a run is resumed (the cluster and its size, for example).
RESUMABLE_CHANGES = {
    "total_timesteps",
    "progress_bar",
    "run_dir",
    "eval.final_games",
    "rllib.address",
    "rllib.num_cpus",
    "rllib.env_runners",
    "rllib.ship_code",
}
LEARNER_STATS = (
    "policy_loss",
    "vf_loss",
    "entropy",
    "total_loss",
    "vf_explained_var",
    "mean_kl_loss",
)


# ---- envs and seats -----------------------------------------------------------------------------
def make_env(env_config: dict):
    """The RLlib multi-agent env of one deckzoo game (registered with Ray Tune's registry)."""
    from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv, PettingZooEnv

    options = dict(env_config.get("options", {}))
    kwargs = {
        "num_players": env_config.get("num_players"),
        "reward": env_config.get("reward", "win"),
        "illegal_action": "raise",
        **options,
    }
    if env_config.get("parallel"):
        return ParallelPettingZooEnv(E.make(env_config["game"], parallel=True, **kwargs))
    return PettingZooEnv(E.make(env_config["game"], **kwargs))


def uses_parallel_env(game: str) -> bool:
    return E.game_class(game).simultaneous


class SeatMapping:
    """RLlib's agent-to-module mapping: each episode's line-up, drawn from its id (see the module
    docstring); picklable, so RLlib ships it to the env runners."""

    def __init__(self, num_players: int, mix: OpponentMix | dict, pool: list[str], seed: int):
        self.num_players = num_players
        self.mix = OpponentMix.of(mix)
        self.pool = list(pool)
        self.seed = seed

    def lineup(self, episode_id) -> list[str]:
        digest = hashlib.sha256(f"{self.seed}:{episode_id}".encode()).digest()
        rng = np.random.default_rng(int.from_bytes(digest[:8], "little"))
        learner = int(rng.integers(self.num_players))
        out = []
        for seat in range(self.num_players):
            key = LEARNER if seat == learner else self.mix.draw(rng)
            if key == "pool" and self.pool:
                out.append(self.pool[int(rng.integers(len(self.pool)))])
            else:
                out.append(MAIN if key == LEARNER else RANDOM)
        return out

    def __call__(self, agent_id, episode, **kwargs) -> str:
        return self.lineup(episode.id_)[int(str(agent_id).rpartition("_")[2])]


# ---- the run ------------------------------------------------------------------------------------
@dataclass
class RLlibRunState(RunState):
    """The skeleton's bookkeeping plus the iterations, saved beside RLlib's checkpoint as JSON
    (``pool``: [slot module id, step of its snapshot], oldest first; the times count the driver
    and the env runners inside ``Algorithm.train()``)."""

    iterations: int = 0


def _process_usage() -> tuple[float, float]:
    """(CPU seconds, peak resident MiB) of the calling process."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


class RLlibTrainer(Run):
    """One run: ``RLlibTrainer(cfg, resume=...).run()`` returns the summary dict."""

    label = "rllib"
    state_class = RLlibRunState
    module_class = None  # the RLModule class (None: MaskedPPOModule)

    def __init__(self, cfg: TrainConfig, resume: bool = False):
        super().__init__(cfg, resume)
        self.parallel = uses_parallel_env(cfg.game)
        self.algo = None
        self.writer = None
        self.started_ray = False

    # ---- set-up ----
    def _env_config(self) -> dict:
        c = self.cfg
        return {
            "game": c.game,
            "num_players": self.game.num_players,
            "reward": c.reward,
            "options": dict(c.game_options),
            "parallel": self.parallel,
        }

    def _module_spec(self):
        from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
        from ray.rllib.core.rl_module.rl_module import RLModuleSpec

        from .rllib_module import MaskedPPOModule

        env = make_env(self._env_config())
        agent = env.possible_agents[0]
        spec = RLModuleSpec(
            module_class=self.module_class or MaskedPPOModule,
            observation_space=env.observation_space[agent],
            action_space=env.action_space[agent],
            model_config=DefaultModelConfig(
                fcnet_hiddens=list(self.cfg.ppo.net_arch),
                fcnet_activation=self.cfg.ppo.activation,
                vf_share_layers=False,
            ),
        )
        env.close()
        return spec

    def _mapping(self) -> SeatMapping:
        return SeatMapping(
            self.game.num_players,
            self.mix,
            [s for s, _ in self.rs.pool],
            self.cfg.seed,
        )

    def _algo_config(self, spec):
        from ray.rllib.algorithms.ppo import PPOConfig
        from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
        from ray.tune.registry import register_env

        cfg, p, r = self.cfg, self.cfg.ppo, self.cfg.rllib
        register_env(ENV_NAME, make_env)
        modules = [MAIN, RANDOM] + [s for s, _ in self.rs.pool]
        return (
            PPOConfig()
            .environment(ENV_NAME, env_config=self._env_config(), disable_env_checking=True)
            .env_runners(
                num_env_runners=r.env_runners,
                num_envs_per_env_runner=r.envs_per_runner,
                num_cpus_per_env_runner=1,
            )
            .learners(num_learners=0)
            .training(
                train_batch_size_per_learner=r.train_batch_size,
                minibatch_size=p.batch_size,
                num_epochs=p.n_epochs,
                lr=p.learning_rate,
                gamma=p.gamma,
                lambda_=p.gae_lambda,
                clip_param=p.clip_range,
                entropy_coeff=p.ent_coef,
                vf_loss_coeff=p.vf_coef,
                grad_clip=p.max_grad_norm,
                use_kl_loss=False,
            )
            .multi_agent(
                policies=set(modules), policy_mapping_fn=self._mapping(), policies_to_train=[MAIN]
            )
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={m: spec for m in modules}))
            .debugging(seed=cfg.seed)
        )

    def setup(self) -> None:
        import torch
        from torch.utils.tensorboard import SummaryWriter

        torch.set_num_threads(self.cfg.torch_threads)
        ckpt = self.run_dir / CHECKPOINT
        found = (ckpt / STATE_FILE if self.resume else ckpt).exists()
        claim_run_dir(self.run_dir, self.resume, found)
        if self.resume:
            saved = json.loads((ckpt / STATE_FILE).read_text())
            check_resumable(saved["config"], config_to_dict(self.cfg), RESUMABLE_CHANGES)
            self.rs = RLlibRunState(**saved["run_state"])
        self.run_dir.mkdir(parents=True, exist_ok=True)
        r = self.cfg.rllib
        self.started_ray = connect(
            r.address, num_cpus=r.num_cpus or max(r.env_runners, 1), ship_code=r.ship_code
        )
        self.spec = self._module_spec()
        self.algo = self._algo_config(self.spec).build_algo()
        if self.resume:
            self.algo.restore_from_path(str(ckpt.resolve()))
        else:
            write_config(self.run_dir, self.cfg)
            main = self.main_state()
            self.algo.learner_group.set_weights(
                {RANDOM: {k: np.zeros_like(v) for k, v in main.items()}}
            )
            self._sync()
        self.writer = SummaryWriter(str(self.run_dir / "tb"))
        self.write_eval_csv()
        self.ready = True

    # ---- weights ----
    def main_state(self) -> dict:
        """The learner group's state of ``main`` (actor and critic, numpy arrays)."""
        return self.algo.learner_group.get_weights(module_ids=[MAIN])[MAIN]

    def policy_weights(self):
        """The learner group's actor of ``main`` as numpy ``PolicyWeights`` (engine actions)."""
        from .rllib_module import actor_weights

        return actor_weights(self.main_state(), self.cfg.ppo.activation, self.game.num_actions)

    def _sync(self) -> None:
        self.algo.env_runner_group.sync_weights(
            from_worker_or_learner_group=self.algo.learner_group,
            inference_only=True,
            timeout_seconds=None,
        )

    def steps(self) -> int:
        from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

        return int(
            self.algo.metrics.peek((ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME), default=0)
        )

    def learner_samples(self) -> int:
        """Decisions of ``main`` sampled so far: the steps it is trained on."""
        from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_MODULE_STEPS_SAMPLED_LIFETIME

        return int(
            self.algo.metrics.peek(
                (ENV_RUNNER_RESULTS, NUM_MODULE_STEPS_SAMPLED_LIFETIME, MAIN), default=0
            )
        )

    # ---- one iteration ----
    def iterate(self) -> dict:
        self.rs.iterations += 1
        return self.algo.train()

    def cpu_seconds(self) -> float:
        """CPU seconds used so far by the driver and every remote env runner."""
        return _process_usage()[0] + sum(u[0] for u in self._runner_usage())

    def _runner_usage(self) -> list[tuple[float, float]]:
        group = self.algo.env_runner_group
        if group.num_remote_env_runners() == 0:
            return []
        return group.foreach_env_runner(lambda _r: _process_usage(), local_env_runner=False)

    def snapshot(self, step: int) -> None:
        rs = self.rs
        if len(rs.pool) < self.cfg.opponents.pool_size:
            slot = f"pool_{len(rs.pool)}"
            rs.pool.append([slot, step])
            self.algo.add_module(
                slot,
                self.spec,
                new_agent_to_module_mapping_fn=self._mapping(),
                new_should_module_be_updated=[MAIN],
            )
        else:
            rs.pool.append([rs.pool.pop(0)[0], step])  # the oldest slot takes the new snapshot
            slot = rs.pool[-1][0]
        self.algo.learner_group.set_weights({slot: self.main_state()})
        self._sync()

    def log(self, result: dict, step: int) -> None:
        w = self.writer
        runners = result.get("env_runners", {})
        for key in ("episode_len_mean", "num_episodes"):
            if key in runners:
                w.add_scalar(f"rollout/{key}", float(runners[key]), step)
        for module, value in (runners.get("module_episode_returns_mean") or {}).items():
            w.add_scalar(f"rollout/return_mean_{module}", float(value), step)
        stats = result.get("learners", {}).get(MAIN, {})
        for key in LEARNER_STATS:
            if key in stats:
                w.add_scalar(f"train/{key}", float(stats[key]), step)
        w.add_scalar("time/env_steps_per_second", step / max(self.rs.train_seconds, 1e-9), step)
        w.flush()

    def log_scalar(self, key: str, value: float, step: int) -> None:
        self.writer.add_scalar(key, value, step)

    # ---- checkpoints ----
    def save_checkpoint(self) -> Path:
        """RLlib's checkpoint plus deckzoo.json, written beside the old one and swapped in."""
        final = self.run_dir / CHECKPOINT
        tmp, old = final.with_name(CHECKPOINT + ".tmp"), final.with_name(CHECKPOINT + ".old")
        shutil.rmtree(tmp, ignore_errors=True)
        self.algo.save_to_path(str(tmp.resolve()))
        state = {
            "version": 1,
            "config": config_to_dict(self.cfg),
            "steps": self.steps(),
            "run_state": asdict(self.rs),
        }
        (tmp / STATE_FILE).write_text(json.dumps(state, indent=1))
        if final.exists():
            os.replace(final, old)
        os.replace(tmp, final)
        shutil.rmtree(old, ignore_errors=True)
        return final

    # ---- the end ----
    def export(self) -> dict:
        path = export_policy(self.run_dir / POLICY_FILE, self.policy_weights(), self.cfg, self.n)
        return {
            "iterations": self.rs.iterations,
            "learner_steps": self.learner_samples(),
            "env_runners": self.cfg.rllib.env_runners,
            "envs_per_runner": self.cfg.rllib.envs_per_runner,
            "driver_peak_rss_mib": _process_usage()[1],
            "env_runner_peak_rss_mib": [u[1] for u in self._runner_usage()],
            "policy": str(path),
        }

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        if self.algo is not None:
            self.algo.stop()
            self.algo = None
        if self.started_ray:
            require_ray().shutdown()
            self.started_ray = False


def export_policy(path: Path, weights, cfg: TrainConfig, num_players: int) -> Path:
    """Write the actor as a numpy policy file that ``ppo:PATH`` loads (no Ray, no torch)."""
    meta = {
        "game": cfg.game,
        "env": canonical(cfg.game),
        "game_config": {"num_players": num_players, **cfg.game_options},
        "trainer": "rllib",
        "training": config_to_dict(cfg),
    }
    return save_policy(path, weights, **meta)


def train(cfg: TrainConfig, resume: bool = False) -> dict:
    """Train (or resume) one RLlib run; returns its summary (also run_dir/summary.json)."""
    trainer = RLlibTrainer(cfg, resume=resume)
    try:
        return trainer.run()
    finally:
        trainer.close()


__all__ = ["RLlibTrainer", "SeatMapping", "export_policy", "make_env", "train"]
