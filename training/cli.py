"""``deckzoo train --config FILE [--resume] [--address ...]``: run (or continue) a training run
(MaskablePPO, or RLlib's PPO with ``trainer: rllib``)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import shlex
import sys

from deckzoo.agents.cli_args import config_path, count_arg, parse_key_value, shipped_configs
from deckzoo.envs.core.errors import ConfigError

# What every trainer needs (the train extra): the config's validation and torch.
TRAIN_EXTRA = ("pydantic", "torch")


def require_train_extra() -> None:
    """One line naming the extra, rather than a traceback, on an install without it."""
    missing = [m for m in TRAIN_EXTRA if importlib.util.find_spec(m) is None]
    if missing:
        raise ConfigError(
            f"training needs the train extra ({', '.join(missing)} not installed): "
            "pip install 'deckzoo[train]', after torch's CPU build where there is no NVIDIA GPU "
            "(https://pytorch.org/get-started/locally/)"
        )


def overrides_of(args: argparse.Namespace) -> tuple[dict, dict]:
    """``(overrides, sources)`` for ``load_config``: each dotted key with what the user typed."""
    overrides, sources = {}, {}
    for item in args.set or []:
        key, value = parse_key_value(item, "--set")
        overrides[key], sources[key] = value, f"--set {item}"
    if args.run_dir:
        overrides["run_dir"], sources["run_dir"] = args.run_dir, f"--run-dir {args.run_dir}"
    if args.steps is not None:
        overrides["total_timesteps"], sources["total_timesteps"] = (
            args.steps,
            f"--steps {args.steps}",
        )
    if args.no_progress:
        overrides["progress_bar"] = False
    if args.address:
        overrides["rllib.address"], sources["rllib.address"] = (
            args.address,
            f"--address {args.address}",
        )
    return overrides, sources


def _resume_command(args: argparse.Namespace) -> str:
    parts = ["deckzoo", "train", "--config", args.config]
    if args.run_dir:
        parts += ["--run-dir", args.run_dir]
    for item in args.set or []:
        parts += ["--set", item]
    return shlex.join([*parts, "--resume"])


def cmd_train(args: argparse.Namespace) -> int:
    # The config first: a mistyped name is worth knowing before installing the extra.
    config = config_path(args.config)
    require_train_extra()
    from .config import load_config
    from .run import RunFinished, TrainingInterrupted
    from .train import train

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    cfg = load_config(config, *overrides_of(args))
    try:
        summary = train(cfg, resume=args.resume)
    except RunFinished as e:
        print(f"deckzoo train: {e}", file=sys.stderr)
        return 0
    except TrainingInterrupted as e:
        if e.checkpoint_step is None:
            where = "before its first checkpoint, so there is nothing to resume; start it again"
        else:
            where = (
                f"the last checkpoint (step {e.checkpoint_step}) is {e.path}; "
                f"resume with: {_resume_command(args)}"
            )
        print(f"deckzoo train: interrupted at step {e.step}; {where}", file=sys.stderr)
        return 130
    final = {
        r["opponent"]: f"{r['win_share']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]"
        for r in summary["final_eval"]
    }
    print(
        json.dumps(
            {
                "steps": summary["steps"],
                "steps_per_second": round(summary["steps_per_second"], 1),
                "run_dir": str(cfg.resolved_run_dir()),
                "win_share": final,
            },
            indent=2,
        )
    )
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser(
        "train",
        help="train a MaskablePPO policy by self-play (--config gobig: a shipped config)",
        description="Train MaskablePPO on one game by self-play. The run folder gets the "
        "config, checkpoints, TensorBoard logs, eval.csv, a learning curve, "
        "policy.npz (an agent: ppo:RUN/policy.npz) and summary.json. Ctrl-C "
        "stops and says how to resume.",
    )
    p.add_argument(
        "--config",
        required=True,
        help="a YAML config file, or a shipped config by name (with or without .yaml): "
        f"{', '.join(shipped_configs())}",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in run_dir from its checkpoint (with --steps: extend it). With "
        "trainer rllib the checkpoint is RLlib's own, which Ray unpickles, so resuming runs "
        "whatever code the run folder holds: resume only run folders you trust (the other "
        "trainers' checkpoints cannot run code)",
    )
    p.add_argument("--run-dir", help="output folder (overrides run_dir)")
    p.add_argument(
        "--steps", type=count_arg(1), help="budget in learner steps (overrides total_timesteps)"
    )
    p.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="override any config key, dotted (--set ppo.learning_rate=1e-4); repeatable",
    )
    p.add_argument(
        "--address",
        help="trainer rllib: the Ray cluster to join (auto or HOST:PORT); default: a local Ray "
        "instance",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_train)
