"""``deckzoo train --config FILE [--resume] [--address ...]``: run (or continue) a training run
(MaskablePPO, or RLlib's PPO with ``trainer: rllib``)."""

from __future__ import annotations

import argparse
import json
import logging


def _parse_set(items: list[str]) -> dict:
    import yaml

    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--set expects KEY=VALUE, got {item!r}")
        out[key] = yaml.safe_load(value)
    return out


def cmd_train(args: argparse.Namespace) -> int:
    from deckzoo.envs.core.errors import ConfigError

    from .config import load_config
    from .train import train

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    overrides = _parse_set(args.set or [])
    if args.run_dir:
        overrides["run_dir"] = args.run_dir
    if args.steps is not None:
        overrides["total_timesteps"] = args.steps
    if args.no_progress:
        overrides["progress_bar"] = False
    if args.address:
        overrides["rllib.address"] = args.address
    try:
        cfg = load_config(args.config, overrides)
        summary = train(cfg, resume=args.resume)
    except ConfigError as e:
        print(f"deckzoo train: {e}")
        return 2
    final = {r["opponent"]: f"{r['win_share']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]"
             for r in summary["final_eval"]}
    print(json.dumps({"steps": summary["steps"], "steps_per_second": round(summary["steps_per_second"], 1),
                      "run_dir": str(cfg.resolved_run_dir()), "win_share": final}, indent=2))
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("train", help="train a MaskablePPO policy by self-play (configs/<game>.yaml)",
                       description="Train MaskablePPO on one game; see docs/training.md.")
    p.add_argument("--config", required=True, help="YAML config, e.g. configs/gobig.yaml")
    p.add_argument("--resume", action="store_true", help="continue the run in run_dir from its checkpoint")
    p.add_argument("--run-dir", help="override run_dir")
    p.add_argument("--steps", type=int, help="override total_timesteps")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="override any config key, dotted (--set ppo.learning_rate=1e-4); repeatable")
    p.add_argument("--address", help="trainer rllib: the Ray cluster to join (auto or HOST:PORT); "
                                      "default: a local Ray instance (docs/distributed.md)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_train)
