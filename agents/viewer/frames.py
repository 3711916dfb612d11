"""From positions to what the browser shows: observer scenes, frames and their packing.

Each game draws its table with ``deckzoo.envs.<game>.scene`` (see ``envs/core/scene.py``); this
module adds what is the same for every game: whose turn it is, the action just taken (its
public text for the seats that may not read it), the legal actions and the scores.

An *observer* is the spectator (index 0: every seat's view) or one seat (index ``1 + s``: that
seat's view only). A replay page holds every observer's scene at every step; consecutive scenes
share most of their parts, so each distinct zone, seat or list is stored once and scenes refer to
it by index (``Packer``).
"""

from __future__ import annotations

import json
from types import ModuleType

import numpy as np

from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.core.game import State

from ..registry import optional_module


def scene_module(game_name: str) -> ModuleType:
    mod = optional_module(f"deckzoo.envs.{game_name}.scene")
    if mod is None:
        raise ConfigError(f"{game_name} has no scene module (envs/{game_name}/scene.py) to draw it")
    return mod


def observer_scene(mod: ModuleType, state: State, seat: int | None) -> dict:
    """The scene as ``seat`` sees it (``None``: the spectator, who sees every hand)."""
    n = state.game.num_players
    if seat is None:
        return mod.scene([state.view(p) for p in range(n)])
    return mod.scene([state.view(p) if p == seat else None for p in range(n)])


def all_scenes(mod: ModuleType, state: State) -> list[dict]:
    """Every observer's scene: the spectator's, then seat 0's, seat 1's, ... (each view once)."""
    views = [state.view(p) for p in range(state.game.num_players)]
    alone = [[v if q == p else None for q, v in enumerate(views)] for p in range(len(views))]
    return [mod.scene(views)] + [mod.scene(vs) for vs in alone]


def public_text(mod: ModuleType, state: State, action: int) -> str | None:
    """What seats other than the actor may read of ``action`` (None: its name is public)."""
    secret = getattr(mod, "secret_action", None)
    return None if secret is None else secret(state, action)


def last_action(mod: ModuleType, state: State, action: int) -> dict:
    """The move ``action`` about to be applied in ``state``, for the frame after it."""
    return {
        "seat": state.current_player,
        "id": int(action),
        "name": state.action_name(action),
        "public": public_text(mod, state, action),
    }


def legal_list(state: State) -> list[list]:
    if state.is_terminal():
        return []
    return [[int(a), state.action_name(int(a))] for a in state.legal_actions()]


def status(state: State) -> dict:
    """Scores, whose turn and the result: public, the same for every observer."""
    over = state.is_terminal()
    return {
        "actor": state.current_player,
        "scores": np.asarray(state.scores()).tolist(),
        "over": over,
        "winners": sorted(int(w) for w in state.winners()) if over else [],
    }


def seat_labels(record: dict, num_players: int) -> list[str]:
    names = record.get("labels") or record.get("seats") or ["?"] * num_players
    return [f"player_{p} ({names[p]})" for p in range(num_players)]


class Packer:
    """Stores each distinct part (zone, seat, info list, legal list) once, in ``parts``; packed
    scenes and frames name their parts by index."""

    def __init__(self):
        self.parts: list = []
        self._index: dict[str, int] = {}

    def part(self, value) -> int:
        key = json.dumps(value, sort_keys=True, ensure_ascii=False)
        i = self._index.get(key)
        if i is None:
            i = self._index[key] = len(self.parts)
            self.parts.append(value)
        return i

    def pack(self, scene: dict) -> dict:
        """``table`` and each seat's ``zones`` become part indices, then ``seats`` and ``info``."""
        seats = [{**s, "zones": [self.part(z) for z in s.get("zones", [])]} for s in scene["seats"]]
        return {
            **scene,
            "info": self.part(scene.get("info", [])),
            "table": [self.part(z) for z in scene.get("table", [])],
            "seats": [self.part(s) for s in seats],
        }


def replay_data(record: dict) -> dict:
    """Everything a replay page shows, one frame per position (packed; see the module doc)."""
    from ..replay import replay_states

    packer = Packer()
    frames: list[dict] = []
    last = None
    mod = game = None
    for state, action in replay_states(record):
        if mod is None:
            game = state.game
            mod = scene_module(game.name)
        scenes = all_scenes(mod, state)
        frames.append(
            {
                "step": len(frames),
                "last": last,
                "legal": packer.part(legal_list(state)),
                "round": scenes[0].get("round", ""),
                **status(state),
                "scenes": [packer.pack(sc) for sc in scenes],
            }
        )
        if action is not None:
            last = last_action(mod, state, action)
    n = game.num_players
    return {
        "game": game.name,
        "config": game.config(),
        "seed": record["seed"],
        "num_players": n,
        "seats": seat_labels(record, n),
        "finished": frames[-1]["over"],
        "parts": packer.parts,
        "frames": frames,
    }
