"""Random-play fingerprints of every game: one sha256 per game and player count over everything a
state shows along random games (every mask, every seat's observation and view, the global state,
the saved dict, a determinization of the seat to act, the round trip of the saved dict, the
rewards at the end).

Why. A refactor of the engines (moving rules between modules, changing how a state is built or
saved) must leave the games exactly as they were; the golden playthroughs pin one game per
configuration, these pin the many positions that random play reaches. ``test_fingerprints.py``
compares them with ``fingerprints.json``; a change to a game that is meant to change what it
shows rewrites that file (``python tests/core/fingerprints.py --write``) in the same commit, with
the game's version bumped.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

FILE = Path(__file__).with_name("fingerprints.json")
GAMES = 3  # random games per configuration
SEED = 20261207
# a game whose positions are costly to save and determinize: (games, the deep checks every k-th
# decision: every seat's observation and view, the global state, saving, determinizing); the mask
# and the observation of the seat to act are hashed at every decision
COSTLY = {"midgard": (1, 8)}


def configs() -> list[tuple[str, int]]:
    """Each game at its fewest and most players (its default when it supports one count)."""
    import deckzoo.envs as E

    out = []
    for env_name in E.registry.env_names():
        game = E.ENVS[env_name].Game
        counts = game.supported_players()
        for n in sorted({min(counts), max(counts)}):
            out.append((env_name, n))
    return out


def _json(value) -> bytes:
    return json.dumps(value, sort_keys=True, default=_plain).encode()


def _plain(x):
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.generic):
        return x.item()
    return str(x)


def fingerprint(env_name: str, num_players: int, seed: int = SEED) -> str:
    import deckzoo.envs as E

    Game = E.ENVS[env_name].Game
    games, deep_every = COSTLY.get(Game.name, (GAMES, 1))
    game = Game(num_players)
    h = hashlib.sha256()
    rng = np.random.default_rng(seed)
    for g in range(games):
        state = game.new_state(seed + g)
        step = 0
        while not state.is_terminal():
            step += 1
            p = state.current_player
            mask = state.legal_mask()
            h.update(mask.tobytes())
            h.update(np.ascontiguousarray(state.observe(p)).tobytes())
            if step % deep_every:
                legal = np.flatnonzero(mask)
                state.apply(int(legal[rng.integers(len(legal))]))
                continue
            for seat in range(num_players):
                h.update(np.ascontiguousarray(state.observe(seat)).tobytes())
                h.update(_json(state.view(seat)))
            h.update(np.ascontiguousarray(state.global_state()).tobytes())
            saved = state.to_dict()
            h.update(_json(saved))
            again = type(state).from_dict(json.loads(json.dumps(saved, default=_plain)), game)
            h.update(_json(again.to_dict()))
            det = state.determinize(p, np.random.default_rng(int(rng.integers(2**31))))
            h.update(_json(det.to_dict()))
            legal = np.flatnonzero(mask)
            state.apply(int(legal[rng.integers(len(legal))]))
        h.update(np.asarray(state.scores(), dtype=np.float64).tobytes())
        h.update(np.asarray(state.returns(), dtype=np.float64).tobytes())
    return h.hexdigest()


def all_fingerprints() -> dict[str, str]:
    return {f"{e}-{n}p": fingerprint(e, n) for e, n in configs()}


if __name__ == "__main__":
    prints = all_fingerprints()
    if "--write" in sys.argv:
        FILE.write_text(json.dumps(prints, indent=1, sort_keys=True) + "\n")
    print(json.dumps(prints, indent=1, sort_keys=True))
