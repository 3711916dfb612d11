"""The run skeleton the three trainers share (``sb3.py``, ``vector_ppo.py``, ``rllib.py``).

A trainer subclasses ``Run`` and supplies one iteration (``iterate``: a rollout and its update),
its step counter, snapshots, its policy as numpy weights, checkpoints and its final files; the
skeleton does the rest the same way for all three:

* the run folder: a fresh run refuses a folder that holds one, ``--resume`` needs a checkpoint
  (``claim_run_dir``); the resolved config is written to ``config.yaml`` (``write_config``);
* the cadence: after every iteration, in this order, a pool snapshot, an evaluation and a
  checkpoint, each at the first iteration boundary at or after each multiple of its interval
  (``next_due``), plus a checkpoint at the end;
* the progress bar (of steps, or of training CPU seconds where ``cpu_budget`` is set), the time
  and CPU time spent training (evaluation excluded);
* evaluation on the engine against ``eval.opponents`` (``opponents.evaluate_opponents``), its
  rows in ``eval.csv``; the final one (``eval.final_games``, seeded by ``eval.final_seed``);
* ``summary.json`` (steps, time, throughput, the final evaluation) and ``learning_curve.png``;
* the checks before a resume: only some keys may change (``check_resumable``), and the new budget
  must not be below the steps done (``check_budget``).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path

import deckzoo.envs as E
from deckzoo.agents.policy import PolicyAgent
from deckzoo.envs.core.errors import ConfigError

from .checkpoint import atomic_write
from .config import SECTIONS, TrainConfig, config_to_dict
from .curve import plot_learning_curve
from .opponents import OpponentMix, eval_opponents, evaluate_opponents

# Config keys that may change when a run is resumed (everything else must match the run's own).
RESUMABLE_CHANGES = {
    "total_timesteps",
    "cpu_budget",
    "progress_bar",
    "run_dir",
    "vec_env",
    "eval.final_games",
}
# Options removed since (no shipped config used them), with their defaults: every trainer's saved
# config holds them, and a run that left them at their defaults resumes as if they never existed.
REMOVED_KEYS = {"vector.precision": "float32", "vector.norm_obs": False, "vector.target_kl": None}
EVAL_COLUMNS = (
    "step",
    "kind",
    "opponent",
    "games",
    "win_share",
    "ci_low",
    "ci_high",
    "uniform",
    "abandoned",
)


class RunFinished(Exception):
    """``--resume`` of a run that already finished at its ``total_timesteps``: nothing to do."""


class TrainingInterrupted(Exception):
    """Ctrl-C (or SIGTERM) during a run; says where the last checkpoint is."""

    def __init__(self, step: int, checkpoint_step: int | None, path: Path):
        self.step, self.checkpoint_step, self.path = step, checkpoint_step, path
        super().__init__(f"interrupted at step {step}")


def next_due(step: int, every: int) -> int:
    """The next multiple of ``every`` after ``step``: when a periodic event is due again."""
    return (step // every + 1) * every


def claim_run_dir(run_dir: Path, resume: bool, has_checkpoint: bool) -> None:
    """A fresh run needs a folder without a run in it, ``--resume`` one with a checkpoint."""
    if resume and not has_checkpoint:
        raise ConfigError(f"--resume: no checkpoint in {run_dir}")
    if not resume and has_checkpoint:
        raise ConfigError(f"{run_dir} already holds a run; pass --resume or choose another run_dir")


def write_config(run_dir: Path, cfg: TrainConfig) -> None:
    """The run's own config: written at the start, rewritten when a resume extends the run."""
    import yaml

    (run_dir / "config.yaml").write_text(yaml.safe_dump(config_to_dict(cfg), sort_keys=False))


def write_eval_csv(path: Path, rows: list[dict], columns=EVAL_COLUMNS) -> None:
    """Every evaluation of the run so far (the learning curve), rewritten atomically."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, columns, extrasaction="ignore")
    w.writeheader()
    w.writerows(rows)
    atomic_write(path, buf.getvalue().encode())


def flatten(d: dict, prefix: str = "") -> dict:
    """A config dict with dotted keys (``ppo.learning_rate``)."""
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and k in SECTIONS:
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def check_resumable(saved: dict, given: dict, allowed=RESUMABLE_CHANGES) -> None:
    """The config of a resume may differ from the run's own only in the ``allowed`` keys."""
    a, b = flatten(saved), flatten(given)
    for key, default in REMOVED_KEYS.items():
        if key in a and a[key] == default:
            del a[key]
    diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k) and k not in allowed)
    if diff:
        raise ConfigError(
            f"--resume: the config differs from the run's own in {', '.join(diff)} "
            f"(only {', '.join(sorted(allowed))} may change)"
        )


def check_budget(run_dir: Path, total: int, done: int, finished: bool, given: int) -> None:
    """A resume must not ask for fewer steps than were done; a finished run with no more steps to
    do raises ``RunFinished``."""
    if total < done:
        raise ConfigError(
            f"--resume: total_timesteps {given} is below the {done} steps this run has done; "
            f"give more than {done} (--steps) to extend it"
        )
    if total == done and finished:
        raise RunFinished(
            f"{run_dir} already finished at {done} steps (final evaluation in summary.json); "
            f"nothing to do: give more than {done} steps (--steps) to extend it"
        )


@dataclass
class RunState:
    """The skeleton's bookkeeping (saved in every checkpoint; trainers add their own fields)."""

    next_snapshot: int = 0
    next_eval: int = 0
    next_checkpoint: int = 0
    next_eval_cpu: float = 0.0  # eval.every_cpu_seconds: the CPU seconds of the next evaluation
    train_seconds: float = 0.0  # wall time of collection + updates (evaluation excluded)
    train_cpu_seconds: float = 0.0  # CPU time over the same spans
    eval_cpu_seconds: float = 0.0  # CPU time of the evaluations (periodic and final)
    pool: list = field(default_factory=list)  # the self-play pool, oldest first
    eval_history: list = field(default_factory=list)


class Run(ABC):
    """One run of a trainer: ``run()`` trains to ``total_timesteps`` and returns the summary."""

    label = ""  # the trainer's name in summary.json, the progress bar and the learning curve
    eval_columns = EVAL_COLUMNS
    state_class = RunState

    def __init__(self, cfg: TrainConfig, resume: bool = False):
        self.cfg = cfg
        self.resume = resume
        self.run_dir = cfg.resolved_run_dir()
        self.game = E.game_class(cfg.game)(cfg.num_players, **cfg.game_options)
        self.n = self.game.num_players
        self.mix = OpponentMix.of_config(cfg)
        self.eval_opponents = eval_opponents(cfg)
        self.rs = self.state_class()
        self.ready = False  # set up (``setup``)

    # ---- what a trainer supplies ----
    @abstractmethod
    def setup(self) -> None:
        """Claim the run folder, build (or restore) everything; sets ``ready``."""

    @abstractmethod
    def steps(self) -> int:
        """Env steps done: what ``total_timesteps`` and every interval count."""

    @abstractmethod
    def iterate(self) -> dict:
        """One rollout and its update; returns the statistics to log."""

    @abstractmethod
    def log(self, stats: dict, step: int) -> None:
        """Record an iteration's statistics (and the evaluation's) at ``step``."""

    @abstractmethod
    def log_scalar(self, key: str, value: float, step: int) -> None:
        """Record one value (an evaluation's win share) at ``step``."""

    @abstractmethod
    def snapshot(self, step: int) -> None:
        """Add the learner as it is now to the self-play pool."""

    @abstractmethod
    def policy_weights(self):
        """The learner's actor as numpy ``PolicyWeights`` (what is evaluated and exported)."""

    @abstractmethod
    def save_checkpoint(self) -> Path:
        """Write the checkpoint a resume continues exactly from."""

    @abstractmethod
    def export(self) -> dict:
        """Write the final policy file(s); returns what summary.json adds about the run."""

    def cpu_seconds(self) -> float:
        return time.process_time()

    @property
    def total(self) -> int:
        """The budget in steps (the SB3 trainer rounds it up to whole rollouts)."""
        return self.cfg.total_timesteps

    def cpu_spent(self) -> bool:
        """The run's CPU budget (``cpu_budget``) is used up."""
        budget = self.cfg.cpu_budget
        return budget is not None and self.rs.train_cpu_seconds >= budget

    def progress(self) -> float:
        """The used share of the run's budget: of its steps, or of its CPU seconds where that is
        further used (a learning-rate schedule's clock)."""
        done = self.steps() / self.total
        if self.cfg.cpu_budget is not None:
            done = max(done, self.rs.train_cpu_seconds / self.cfg.cpu_budget)
        return min(done, 1.0)

    def bar_position(self) -> tuple[int, int]:
        """``(done, total)`` of the progress bar, in the budget that ends the run: whole training
        CPU seconds where ``cpu_budget`` is set (the exploitability harness sets
        ``total_timesteps`` out of reach, 10**12, so a bar of steps would promise a million
        hours), steps otherwise. Where the steps run out first the CPU bar stops short."""
        budget = self.cfg.cpu_budget
        if budget is None:
            return min(self.steps(), self.total), self.total
        total = math.ceil(budget)
        return (total if self.cpu_spent() else min(int(self.rs.train_cpu_seconds), total)), total

    # ---- the skeleton ----
    def run(self) -> dict:
        from tqdm import tqdm

        if not self.ready:
            self.setup()
        cfg, rs, total = self.cfg, self.rs, self.total
        wall0 = time.perf_counter()
        done, bar_total = self.bar_position()
        bar = tqdm(
            total=bar_total,
            initial=done,
            unit="step" if cfg.cpu_budget is None else "CPU s",
            dynamic_ncols=True,
            disable=not cfg.progress_bar,
            desc=f"{self.label} {cfg.game}",
        )
        if self.steps() == 0 and not rs.pool:
            self.take_snapshot(0)
        try:
            while self.steps() < total and not self.cpu_spent():
                t0, c0 = time.perf_counter(), self.cpu_seconds()
                stats = self.iterate()
                rs.train_seconds += time.perf_counter() - t0
                rs.train_cpu_seconds += self.cpu_seconds() - c0
                step = self.steps()
                bar.update(self.bar_position()[0] - bar.n)
                self.bookkeeping(step, stats, bar)
        finally:
            bar.close()
        return self.finish(time.perf_counter() - wall0)

    def bookkeeping(self, step: int, stats: dict, bar) -> None:
        """At an iteration boundary: a snapshot, an evaluation and a checkpoint where due."""
        cfg, rs = self.cfg, self.rs
        if step >= rs.next_snapshot:
            self.take_snapshot(step)
        by_cpu = cfg.eval.every_cpu_seconds
        due_cpu = by_cpu is not None and rs.train_cpu_seconds >= rs.next_eval_cpu
        if (cfg.eval.every and step >= rs.next_eval) or due_cpu:
            if cfg.eval.every:
                rs.next_eval = next_due(step, cfg.eval.every)
            if by_cpu is not None:
                rs.next_eval_cpu = (rs.train_cpu_seconds // by_cpu + 1) * by_cpu
            rows = self.evaluate(cfg.eval.games, step)
            bar.set_postfix({r["opponent"]: f"{r['win_share']:.2f}" for r in rows})
        self.log(stats, step)
        if step >= rs.next_checkpoint or step >= self.total or self.cpu_spent():
            rs.next_checkpoint = next_due(step, cfg.checkpoint_every)
            self.save_checkpoint()

    def take_snapshot(self, step: int) -> None:
        self.snapshot(step)
        self.rs.next_snapshot = next_due(step, self.cfg.opponents.snapshot_every)

    def eval_row(self, row: dict) -> dict:
        """An evaluation row as eval.csv and the checkpoints keep it (trainers may add to it)."""
        return row

    def evaluate(
        self, games: int, step: int, kind: str = "periodic", seed: int | None = None
    ) -> list[dict]:
        """Evaluate the learner (``eval.deterministic``: greedy) against ``eval.opponents``; its
        games are seeded from ``seed`` (default: the run's), the step and the opponent."""
        c0 = time.process_time()
        agent = PolicyAgent(self.policy_weights(), deterministic=self.cfg.eval.deterministic)
        seed = self.cfg.seed if seed is None else seed
        rows = evaluate_opponents(
            agent, self.game, self.eval_opponents, games, seed, step, kind, self.cfg.eval.engine
        )
        self.rs.eval_cpu_seconds += time.process_time() - c0
        rows = [self.eval_row(r) for r in rows]
        for r in rows:
            self.log_scalar(f"eval/win_share_vs_{r['opponent']}", r["win_share"], step)
        self.rs.eval_history.extend(rows)
        self.write_eval_csv()
        return rows

    def write_eval_csv(self) -> None:
        write_eval_csv(self.run_dir / "eval.csv", self.rs.eval_history, self.eval_columns)

    def finish(self, wall: float) -> dict:
        """The final policy files, the final evaluation, summary.json and the learning curve."""
        cfg, rs = self.cfg, self.rs
        extra = self.export()
        step = self.steps()
        t0 = time.perf_counter()
        final = []
        if cfg.eval.final_games:
            final = self.evaluate(cfg.eval.final_games, step, "final", cfg.eval.final_seed)
        summary = {
            "trainer": self.label,
            "game": cfg.game,
            "num_players": self.n,
            "steps": step,
            "train_seconds": rs.train_seconds,
            "steps_per_second": step / max(rs.train_seconds, 1e-9),
            # with one torch thread and the envs in this process the run is one thread: steps per
            # CPU second is what an otherwise idle core would give
            "train_cpu_seconds": rs.train_cpu_seconds,
            "eval_cpu_seconds": rs.eval_cpu_seconds,
            "steps_per_cpu_second": step / max(rs.train_cpu_seconds, 1e-9),
            "wall_seconds_this_session": wall,
            "final_eval_seconds": time.perf_counter() - t0,
            "torch_threads": cfg.torch_threads,
            "opponent_mix": self.mix.weights,
            "pool_size": len(rs.pool),
            "load_average": list(os.getloadavg()),
            **extra,
            "final_eval": final,
        }
        atomic_write(self.run_dir / "summary.json", json.dumps(summary, indent=2).encode())
        if rs.eval_history:
            title = f"{cfg.game} ({self.n} players): {self.label}, {cfg.run_dir}"
            plot_learning_curve(rs.eval_history, self.n, self.run_dir / "learning_curve.png", title)
        return summary
