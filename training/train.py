"""``train(cfg)`` / ``deckzoo train``: run (or resume) the trainer that ``trainer:`` names.

``sb3`` (the default): sb3-contrib's MaskablePPO on single-agent envs (``sb3.py``); ``vector``:
batched self-play PPO on the batched engines (``vector_ppo.py``); ``rllib``: RLlib's PPO on a local
Ray instance or a cluster (``rllib.py``). All three share the run skeleton of ``run.py``.
"""

from __future__ import annotations

from .config import TrainConfig
from .opponents import evaluate
from .run import RunFinished, TrainingInterrupted


def train(cfg: TrainConfig, resume: bool = False) -> dict:
    """Train (or resume) one run; returns its summary (also written to run_dir/summary.json)."""
    if cfg.trainer == "vector":
        from .vector_ppo import train as run
    elif cfg.trainer == "rllib":
        from .rllib import train as run
    else:
        from .sb3 import train as run
    return run(cfg, resume=resume)


# (``evaluate`` stays importable from here for benchmarks/zoo.py)
__all__ = ["RunFinished", "TrainingInterrupted", "evaluate", "train"]
