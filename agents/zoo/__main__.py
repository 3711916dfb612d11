"""``python -m deckzoo.agents.zoo RUN_DIR GAME [--command TEXT ...]``.

Installs the policy of a training run as the game's zoo policy ``deckzoo/agents/zoo/<game>.npz``:
the run's ``policy.npz`` (or its MaskablePPO ``final.zip``, read without unpickling), with the
run's resolved ``config.yaml`` as the training configuration, its ``summary.json`` (training
budget, final evaluation) and the commands that reproduce it in the metadata.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import install


def run_metadata(run: Path) -> dict:
    """The training configuration and result of a run folder, for the policy's metadata."""
    import yaml

    import deckzoo.envs as E

    cfg = yaml.safe_load((run / "config.yaml").read_text())
    cfg.pop("run_dir", None)  # a path on the machine that trained it
    game = E.game_class(cfg["game"])(cfg.get("num_players"), **(cfg.get("game_options") or {}))
    out = {"training": cfg, "game_config": game.config()}
    if (run / "summary.json").exists():
        s = json.loads((run / "summary.json").read_text())
        out["training_result"] = {
            "steps": s.get("steps"),
            "budget_cpu_seconds": s.get("budget_cpu_seconds"),
            "final_eval": [
                {k: r[k] for k in ("opponent", "games", "win_share", "ci_low", "ci_high")}
                for r in s.get("final_eval", [])
            ],
        }
    return out


def install_run(run: Path, game: str, **extra) -> Path:
    """Install the policy of ``run`` as ``game``'s zoo policy, with ``extra`` in its metadata."""
    policy = run / "policy.npz" if (run / "policy.npz").exists() else run / "final.zip"
    meta = run_metadata(run)
    return install(
        policy,
        game,
        training=meta.pop("training"),
        game_config=meta.pop("game_config"),
        **meta,
        **extra,
    )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "run", help="a training run's folder (policy.npz or final.zip, config.yaml, summary.json)"
    )
    p.add_argument("game", help="game name, e.g. wizard")
    p.add_argument(
        "--command", action="append", default=[], help="a command that reproduces it (repeatable)"
    )
    args = p.parse_args(argv)
    out = install_run(Path(args.run), args.game, commands=args.command)
    print(f"installed {out} ({out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
