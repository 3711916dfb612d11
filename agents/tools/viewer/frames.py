"""From positions to what the browser shows: observer scenes, frames and their packing.

Each game draws its table with ``deckzoo.envs.<game>.scene`` (see ``envs/core/scene.py``); this
module adds what is the same for every game: whose turn it is, the action just taken (its
public text for the seats that may not read it), the legal actions and the scores.

An *observer* is the spectator (index 0: every seat's view) or one seat (index ``1 + s``: that
seat's view only). A replay page shows every observer's scene at every step. Stored whole, those
frames grow with the game's length times its table (7 MB for a long Midgard game), yet one move
changes only a few zones, so the page holds a *compact record* instead (``replay_data``), and its
script rebuilds the frames from it (``readFrames`` in static/replay.js; ``read_frames`` here is
the same reading in Python):

- ``tables``: each distinct value once, named by its index in its table: ``card``, ``zone``
  (``cards``: card indices), ``seat`` (``stats``: a ``chips`` index, ``zones``: zone indices),
  ``chip`` (a ``[label, value]`` pair), ``chips`` (chip indices), ``zones`` (a list of zone
  indices: a scene's ``table``), ``action`` (``[id, name]``), ``legal`` (action indices),
  ``last`` (the move just made, or null), ``value`` (any other JSON value) and ``each`` (one
  index per observer, or a single one that every observer shares). The tables of dicts (card,
  zone, seat) are stored as ``{"keys": [...], "rows": [[value, ...], ...]}``: each dict's values
  in the order of ``keys``, null where it has no such key (``as_rows``).
- ``slots``: what a frame is made of, each ``[kind, key, table]``: ``frame`` slots (``legal``,
  ``last``, ``actor``, ``scores``, ``over``, ``winners``, ``round``) hold an index into
  ``table``; ``scene`` slots (one per scene key other than ``seats``: ``title``, ``info``,
  ``table``, ...) and ``seat`` slots (key: the seat number) hold an ``each`` index, whose
  entries index ``table`` (null: that observer's scene lacks the key).
- ``frames``: one flat list per position, ``[slot, index, slot, index, ...]``: the slots whose
  value differs from the frame before (the first frame names them all; index -1 drops a slot).
"""

from __future__ import annotations

import json
from types import ModuleType

import numpy as np

from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.core.game import State

from ...registry import optional_module


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


# Every table of the record (each present, if empty), and those whose entries are dicts without
# null values, stored as rows under one list of keys.
TABLES = (
    "card",
    "zone",
    "seat",
    "chip",
    "chips",
    "zones",
    "action",
    "legal",
    "last",
    "value",
    "each",
)
ROW_TABLES = ("card", "zone", "seat")


def as_rows(dicts: list[dict]) -> dict:
    """``{"keys": [k, ...], "rows": [[value, ...], ...]}``: each dict's values in the order of
    ``keys``, null for a key it lacks, trailing nulls left out."""
    keys = list(dict.fromkeys(k for d in dicts for k in d))
    rows = []
    for d in dicts:
        row = [d.get(k) for k in keys]
        while row and row[-1] is None:
            row.pop()
        rows.append(row)
    return {"keys": keys, "rows": rows}


def from_rows(table: dict) -> list[dict]:
    """The dicts ``as_rows`` stored."""
    keys = table["keys"]
    return [{k: v for k, v in zip(keys, row) if v is not None} for row in table["rows"]]


class Tables:
    """Named tables that store each distinct value once; a value is named by its index there."""

    def __init__(self, names: tuple[str, ...]):
        self.tables: dict[str, list] = {name: [] for name in names}
        self._index: dict[str, dict[str, int]] = {name: {} for name in names}

    def ref(self, table: str, value, pack=None) -> int:
        """The index of ``value`` in ``table``, where it is stored (as ``pack(value)`` if given:
        the parts of a new value are stored in their own tables only once it is found new)."""
        index = self._index[table]
        key = json.dumps(value, sort_keys=True, ensure_ascii=False)
        i = index.get(key)
        if i is None:
            rows = self.tables[table]
            i = index[key] = len(rows)
            rows.append(value if pack is None else pack(value))
        return i


class Packer:
    """Turns frames into the page's compact record (see the module doc): every card, zone, list
    of zones, chip list, seat, legal list and move is stored once in its table, and each frame
    lists only the slots whose value changed since the frame before."""

    def __init__(self, num_observers: int):
        self.t = Tables(TABLES)
        self.observers = num_observers
        self.slots: list[list] = []  # [kind, key, table]
        self._slot: dict[tuple, int] = {}
        self._now: dict[int, int] = {}
        self.frames: list[list[int]] = []

    def zone(self, z: dict) -> int:
        return self.t.ref(
            "zone", z, lambda z: {**z, "cards": [self.t.ref("card", c) for c in z["cards"]]}
        )

    def seat(self, s: dict) -> int:
        return self.t.ref(
            "seat",
            s,
            lambda s: {
                **s,
                "stats": self.chips(s.get("stats", [])),
                "zones": [self.zone(z) for z in s.get("zones", [])],
            },
        )

    def chips(self, pairs: list) -> int:
        return self.t.ref("chips", pairs, lambda pairs: [self.t.ref("chip", p) for p in pairs])

    def legal(self, pairs: list) -> int:
        return self.t.ref("legal", pairs, lambda pairs: [self.t.ref("action", a) for a in pairs])

    def scene_value(self, key: str, value) -> tuple[str, int]:
        """``(table, ref)`` of one scene key's value."""
        if key == "info":
            return "chips", self.chips(value)
        if key == "table":
            return "zones", self.t.ref("zones", value, lambda zs: [self.zone(z) for z in zs])
        return "value", self.t.ref("value", value)

    def each(self, refs: list[int | None]) -> int:
        """One ref per observer, or a single one when every observer has the same value."""
        return self.t.ref("each", refs[:1] if len(set(refs)) == 1 else refs)

    def add(self, frame: dict, scenes: list[dict]) -> None:
        """Record one frame: ``frame``'s status keys and move, and every observer's scene."""
        values: dict[tuple, tuple[str, int]] = {}
        values["frame", "legal"] = "legal", self.legal(frame["legal"])
        values["frame", "last"] = "last", self.t.ref("last", frame["last"])
        for key in ("actor", "scores", "over", "winners", "round"):
            values["frame", key] = "value", self.t.ref("value", frame[key])
        keys = sorted({k for sc in scenes for k in sc} - {"seats"})
        for key in keys:
            cells = [self.scene_value(key, sc[key]) if key in sc else (None, None) for sc in scenes]
            table = next(t for t, _ in cells if t is not None)
            values["scene", key] = table, self.each([r for _, r in cells])
        for p in range(len(scenes[0]["seats"])):
            values["seat", p] = "seat", self.each([self.seat(sc["seats"][p]) for sc in scenes])
        self._record(values)

    def tables(self) -> dict[str, list]:
        """The tables, those of dicts (cards, zones, seats) as rows (see the module doc)."""
        return {
            name: as_rows(rows) if name in ROW_TABLES else rows
            for name, rows in self.t.tables.items()
        }

    def _record(self, values: dict[tuple, tuple[str, int]]) -> None:
        change: list[int] = []
        known = set()
        for name, (table, ref) in values.items():
            slot = self._slot.get(name)
            if slot is None:
                slot = self._slot[name] = len(self.slots)
                self.slots.append([*name, table])
            known.add(slot)
            if self._now.get(slot) != ref:
                self._now[slot] = ref
                change += [slot, ref]
        for slot in [s for s in self._now if s not in known]:  # a scene key that went away
            del self._now[slot]
            change += [slot, -1]
        self.frames.append(change)


def replay_data(record: dict) -> dict:
    """Everything a replay page shows, as its compact record (see the module doc)."""
    from ..replay import replay_states

    packer = last = mod = game = None
    for state, action in replay_states(record):
        if mod is None:
            game = state.game
            mod = scene_module(game.name)
            packer = Packer(1 + game.num_players)
        scenes = all_scenes(mod, state)
        frame = {"last": last, "legal": legal_list(state), "round": scenes[0].get("round", "")}
        packer.add({**frame, **status(state)}, scenes)
        if action is not None:
            last = last_action(mod, state, action)
    n = game.num_players
    return {
        "game": game.name,
        "config": game.config(),
        "seed": record["seed"],
        "num_players": n,
        "seats": seat_labels(record, n),
        "finished": state.is_terminal(),
        "observers": packer.observers,
        "tables": packer.tables(),
        "slots": packer.slots,
        "frames": packer.frames,
    }


def decoders(t: dict[str, list]) -> dict:
    """For each table a slot may name, index -> the value it stands for, whole."""
    zone = [{**z, "cards": [t["card"][c] for c in z["cards"]]} for z in t["zone"]]
    chips = [[t["chip"][c] for c in refs] for refs in t["chips"]]
    seat = [
        {**s, "stats": chips[s["stats"]], "zones": [zone[z] for z in s["zones"]]} for s in t["seat"]
    ]
    return {
        "value": lambda r: t["value"][r],
        "last": lambda r: t["last"][r],
        "legal": lambda r: [t["action"][a] for a in t["legal"][r]],
        "chips": lambda r: chips[r],
        "zones": lambda r: [zone[z] for z in t["zones"][r]],
        "seat": lambda r: seat[r],
    }


def read_frames(data: dict) -> list[dict]:
    """The frames a compact record holds, each whole: what replay.js rebuilds in the page, for
    the tests and for tools. A frame has ``step``, ``last``, ``legal`` (``[id, name]`` pairs),
    ``round``, ``actor``, ``scores``, ``over``, ``winners`` and ``scenes`` (one per observer)."""
    t = {**data["tables"], **{k: from_rows(data["tables"][k]) for k in ROW_TABLES}}
    decode = decoders(t)
    now: dict[int, int] = {}
    frames = []
    for step, change in enumerate(data["frames"]):
        for slot, ref in zip(change[::2], change[1::2]):
            if ref < 0:
                del now[slot]
            else:
                now[slot] = ref
        frame: dict = {"step": step}
        scenes = [{"seats": [None] * data["num_players"]} for _ in range(data["observers"])]
        for slot, ref in now.items():
            kind, key, table = data["slots"][slot]
            if kind == "frame":
                frame[key] = decode[table](ref)
                continue
            refs = t["each"][ref]
            for o, sc in enumerate(scenes):
                r = refs[0] if len(refs) == 1 else refs[o]
                if r is None:
                    continue
                if kind == "seat":
                    sc["seats"][key] = decode[table](r)
                else:
                    sc[key] = decode[table](r)
        frames.append({**frame, "scenes": scenes})
    return frames
