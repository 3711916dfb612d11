"""Golden playthroughs (after OpenSpiel's integration_tests/playthroughs).

A playthrough is a text file a person can read. Its header holds the game config, a seed, the
action ids, then the game's facts: title, version, num_actions, the observation shape, the
declared bounds and the observation layout table. Then, for every decision: the state's
``render()``, the legal actions, every seat's observation by named piece (``Layout.split``) and
the action. An observation line lists a piece's non-zero entries as ``index:value`` (``row,col``
for pieces of more dimensions); to keep files short a seat's line shows only the pieces that
changed since that seat's previous line (every non-zero piece at step 0; ``-`` when a piece
became all zero). So a diff shows what changed, and a leak into another seat's observation shows
as a line of that seat.

Replaying the actions must reproduce the file byte for byte, so any behaviour change shows up as
a diff: if the change is intended, regenerate (``make playthroughs``) and bump the game's
``version``. Files live in ``tests/<game>/playthroughs/<config>.txt``; the configs are the
``PLAYTHROUGH_CONFIGS`` of the game's env.py.

    python -m deckzoo.envs.playthrough [--root .] [GAME ...]   # regenerate (default: every game)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from . import registry

HEADER = (
    "# deckzoo golden playthrough; regenerate with `make playthroughs` "
    "(a diff is a behaviour change)"
)
SEED = 20261129


def config_filename(config: dict) -> str:
    parts = [f"{k}={v}" for k, v in sorted(config.items())]
    name = "_".join(parts) or "default"
    return "".join(c if c.isalnum() or c in "=_-." else "-" for c in name) + ".txt"


def _num(x: float) -> str:
    return f"{float(x):.4g}"


def _piece(values: np.ndarray) -> str:
    """A piece's non-zero entries, ``index:value`` (``i,j:value`` for a 2-D piece...)."""
    if values.ndim == 1:
        return " ".join(f"{i}:{_num(values[i])}" for i in np.flatnonzero(values)) or "-"
    entries = zip(*np.nonzero(values))
    return " ".join(f"{','.join(map(str, ix))}:{_num(values[ix])}" for ix in entries) or "-"


def facts(game) -> list[str]:
    """The game's facts for the header: what a diff of the header means a change of."""
    bounds = ", ".join(
        f"{r} [{_num(lo)}, {_num(hi)}]"
        for r in ("win", "score", "dense")
        for lo, hi in [game.return_bounds(r)]
    )
    lines = [
        f"title: {game.title}",
        f"version: {game.version}",
        f"num_players: {game.num_players}",
        f"num_actions: {game.num_actions}",
        f"observation_shape: {list(game.observation_shape)}",
        f"max_game_length: {game.max_game_length}",
        f"score_bounds: [{_num(game.score_bounds[0])}, {_num(game.score_bounds[1])}]",
        f"return_bounds: {bounds}",
        "layout:",
    ]
    return lines + ["  " + row for row in game.layout.table().splitlines()]


class _Observations:
    """Each seat's observation lines: the pieces changed since that seat's previous lines."""

    def __init__(self, game):
        self.layout = game.layout
        self.last: list[dict[str, str] | None] = [None] * game.num_players

    def lines(self, state) -> list[str]:
        out = []
        for p in range(len(self.last)):
            pieces = {name: _piece(v) for name, v in self.layout.split(state.observe(p)).items()}
            before = self.last[p]
            for name, text in pieces.items():
                if text != ("-" if before is None else before[name]):
                    out.append(f"obs[{p}] {name}: {text}")
            self.last[p] = pieces
        return out


def record(env_name: str, config: dict, seed: int, actions: list[int] | None = None) -> str:
    """The playthrough text. Without ``actions``, random legal actions are drawn from ``seed``."""
    game = registry.game_class(env_name)(**config)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    observations = _Observations(game)
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
        body.extend(observations.lines(state))
        body.append(f"action: {a} ({state.action_name(a)})")
        state.apply(a)
        chosen.append(a)
        step += 1
    body.append("--- terminal")
    body.extend("  " + line for line in state.render().splitlines())
    body.extend(observations.lines(state))
    body.append(f"scores: {json.dumps(np.asarray(state.scores()).tolist())}")
    body.append(f"winners: {json.dumps(sorted(int(w) for w in state.winners()))}")
    body.append(f"returns: {json.dumps([round(float(x), 6) for x in state.returns()])}")
    head = [
        HEADER,
        f"env: {game.env_name()}",
        f"config: {json.dumps(config, sort_keys=True)}",
        f"seed: {seed}",
        f"actions: {' '.join(map(str, chosen))}",
        *facts(game),
    ]
    return "\n".join(head + body) + "\n"


def parse(text: str) -> tuple[str, dict, int, list[int]]:
    """``(env, config, seed, actions)`` from a playthrough's header."""
    fields = {}
    for line in text.splitlines()[1:]:
        if line.startswith("---"):
            break
        key, _, value = line.partition(": ")
        fields.setdefault(key, value)
    actions = [int(x) for x in fields["actions"].split()] if fields.get("actions") else []
    return fields["env"], json.loads(fields["config"]), int(fields["seed"]), actions


def replay(text: str) -> str:
    """The playthrough recorded again from its header, by the game's current version."""
    env_name, config, seed, actions = parse(text)
    return record(env_name.rpartition("_v")[0], config, seed, actions)


def playthrough_dir(root: Path, env_name: str) -> Path:
    return root / "tests" / registry.game_class(env_name).name / "playthroughs"


def regenerate(root: Path, env_names: list[str], seed: int = SEED) -> list[Path]:
    written = []
    for env_name in env_names:
        out = playthrough_dir(root, env_name)
        out.mkdir(parents=True, exist_ok=True)
        for config in registry.playthrough_configs(env_name):
            path = out / config_filename(config)
            path.write_text(record(env_name, config, seed))
            written.append(path)
    return written


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("games", nargs="*", help="env or game names (default: all)")
    ap.add_argument("--root", default=".", help="repository root")
    args = ap.parse_args(argv)
    names = [registry.canonical(g) for g in args.games] or registry.env_names()
    for path in regenerate(Path(args.root), names):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
