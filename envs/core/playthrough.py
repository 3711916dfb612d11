"""Golden playthroughs (after OpenSpiel's integration_tests/playthroughs).

A playthrough is a text file: the game config, a seed, the action ids, and then every decision's
readable state, legal actions and the acting seat's observation (non-zero entries). Replaying the
actions must reproduce the file byte for byte, so any behaviour change shows up as a diff: if the
change is intended, regenerate (``make playthroughs``) and bump the env version.

Files live in ``tests/<game>/playthroughs/<config>.txt``; the configs come from the version module's
``PLAYTHROUGH_CONFIGS``.

    python -m deckzoo.envs.core.playthrough [--root .] [GAME ...]   # regenerate
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

HEADER = "# deckzoo golden playthrough; regenerate with `make playthroughs` (a diff is a behaviour change)"


def config_filename(config: dict) -> str:
    parts = [f"{k}={v}" for k, v in sorted(config.items())]
    name = "_".join(parts) or "default"
    return "".join(c if c.isalnum() or c in "=_-." else "-" for c in name) + ".txt"


def _fmt_obs(obs: np.ndarray) -> str:
    nz = np.flatnonzero(obs)
    return " ".join(f"{i}:{float(obs[i]):.4g}" for i in nz)


def record(env_name: str, config: dict, seed: int, actions: list[int] | None = None) -> str:
    """The playthrough text. Without ``actions``, random legal actions are drawn from ``seed``."""
    from .. import game_class

    game = game_class(env_name)(**config)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    chosen: list[int] = []
    body: list[str] = []
    step = 0
    while not state.is_terminal():
        p = state.current_player
        legal = state.legal_actions()
        if actions is None:
            a = int(rng.choice(legal))
        else:
            if step >= len(actions):
                raise ValueError("the recorded actions end before the game does")
            a = int(actions[step])
        body.append(f"--- step {step}: player {p}")
        body.extend("  " + line for line in state.render().splitlines())
        body.append(f"legal: {' '.join(map(str, legal.tolist()))}")
        body.append(f"observation[{p}]: {_fmt_obs(state.observe(p))}")
        body.append(f"action: {a} ({state.action_name(a)})")
        state.apply(a)
        chosen.append(a)
        step += 1
    body.append("--- terminal")
    body.extend("  " + line for line in state.render().splitlines())
    body.append(f"scores: {json.dumps(np.asarray(state.scores()).tolist())}")
    body.append(f"winners: {json.dumps(sorted(int(w) for w in state.winners()))}")
    body.append(f"returns: {json.dumps([round(float(x), 6) for x in state.returns()])}")
    head = [HEADER, f"env: {env_name}", f"config: {json.dumps(config, sort_keys=True)}", f"seed: {seed}",
            f"actions: {' '.join(map(str, chosen))}"]
    return "\n".join(head + body) + "\n"


def parse(text: str) -> tuple[str, dict, int, list[int]]:
    fields = {}
    for line in text.splitlines()[1:5]:
        k, _, v = line.partition(": ")
        fields[k] = v
    actions = [int(x) for x in fields["actions"].split()] if fields.get("actions") else []
    return fields["env"], json.loads(fields["config"]), int(fields["seed"]), actions


def replay(text: str) -> str:
    env_name, config, seed, actions = parse(text)
    return record(env_name, config, seed, actions)


def playthrough_dir(root: Path, env_name: str) -> Path:
    from .. import ENVS

    return root / "tests" / ENVS[env_name].Game.name / "playthroughs"


def regenerate(root: Path, env_names: list[str], seed: int = 20261129) -> list[Path]:
    from .. import ENVS

    written = []
    for env_name in env_names:
        mod = ENVS[env_name]
        out = playthrough_dir(root, env_name)
        out.mkdir(parents=True, exist_ok=True)
        for config in getattr(mod, "PLAYTHROUGH_CONFIGS", []):
            path = out / config_filename(config)
            path.write_text(record(env_name, config, seed))
            written.append(path)
    return written


def main(argv=None) -> None:
    from .. import ENVS, _canonical

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="env or game names (default: all)")
    ap.add_argument("--root", default=".", help="repository root")
    args = ap.parse_args(argv)
    names = [_canonical(g) for g in args.games] or list(ENVS)
    for path in regenerate(Path(args.root), names):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
