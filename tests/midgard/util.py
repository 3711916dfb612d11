"""Helpers for Midgard tests: build explicit positions instead of relying on what a seed deals."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from deckzoo.envs.midgard import actions as A
from deckzoo.envs.midgard.cards import DATA, SNEDIG, THOR, TYR
from deckzoo.envs.midgard.frames import frame_from_dict
from deckzoo.envs.midgard.rules import BONUS, REACT, MidgardGame, MidgardState
from deckzoo.envs.midgard.troops import EMPTY, THOR_TAIL, Troop

RULES_PAGE = Path(__file__).resolve().parents[2] / "docs" / "rules" / "midgard.md"
NAMES = {name: i for i, name in enumerate(DATA.kind_names)}
NAMES.update({"Skald": 1, "Ranger": 6, "Runicastr": 9})


def k(name: str) -> int:
    """Card kind by name ("Kriger", "Tyr", "Snedig", "Loki's Trick", ...)."""
    return NAMES[name]


def ks(text: str) -> list[int]:
    """Card kinds from a line as the rulebook prints it: "Skålde - Tyr - Berserker"."""
    return [k(x.strip()) for x in text.split(" - ")]


def troop(text: str, flank_tyr=None, engaged=False) -> Troop:
    return Troop.from_cards(ks(text), flank_tyr=flank_tyr, engaged=engaged)


def ch(name: str) -> int:
    return DATA.challenge_by_name(name).id


def world(name: str) -> int:
    return [w.name for w in DATA.worlds].index(name)


def blank(n: int = 4, **options) -> MidgardState:
    """An empty table: no cards anywhere, 6 coins each, everyone in Midgard."""
    s = MidgardState.blank(MidgardGame(n, **options), np.random.default_rng(0))
    s.coins[:] = 6
    s.skat = 50 - 6 * n
    return s


def give(s: MidgardState, p: int, *kinds: int) -> None:
    for kind in kinds:
        s.hands[p, kind] += 1


def complete(s: MidgardState, thing_top=(), open_first=()) -> MidgardState:
    """Put every card, challenge and reward not placed yet into the Thing / the challenge deck /
    the reward pile (fixed order), so that the conservation invariants hold. ``thing_top`` are
    the next cards drawn (first drawn first)."""
    used = s.hands.sum(axis=0) + s.valhalla
    used += np.bincount(np.asarray(s.krog + s.thing, dtype=np.int64), minlength=DATA.num_kinds)
    for ts in s.troops:
        for t in ts:
            for kind in t.cards():
                used[kind] += 1
    rest = np.asarray(DATA.kind_counts) - used
    for kind in thing_top:
        rest[kind] -= 1
    assert (rest >= 0).all(), rest
    s.thing = (
        np.repeat(np.arange(DATA.num_kinds), rest).tolist() + list(reversed(thing_top)) + s.thing
    )
    placed = (
        set(s.open)
        | set(s.ch_out)
        | {c for c in s.reserved if c >= 0}
        | {c for w in s.won for c in w}
    )
    placed |= set(s.ch_deck)
    s.ch_deck = [c for c in range(len(DATA.challenges)) if c not in placed] + s.ch_deck
    rused = s.rewards.sum(axis=0) + s.revealed.sum(axis=0)
    rused += np.bincount(np.asarray(s.reward_deck, dtype=np.int64), minlength=len(DATA.rewards))
    rrest = np.asarray(DATA.reward_counts) - rused
    s.reward_deck = np.repeat(np.arange(len(DATA.rewards)), rrest).tolist() + s.reward_deck
    s.check_invariants()
    return s


def at(s: MidgardState, p: int, mode: int, **frame) -> MidgardState:
    s.active = p
    s.stack = [frame_from_dict({"m": mode, "p": p, **frame})]
    s.invalidate()
    return s


def act(s: MidgardState, name: str, *coords: int) -> None:
    s.apply(A.encode(name, *coords))


def legal(s: MidgardState, name: str, *coords: int) -> bool:
    a = A.encode(name, *coords)
    m = bool(s.legal_mask()[a])
    assert m == s.is_legal(a), f"mask and is_legal disagree on {A.action_name(a)}"
    return m


def legal_names(s: MidgardState) -> list[str]:
    return [A.action_name(int(a)) for a in s.legal_actions()]


def pass_forced(s: MidgardState) -> list[int]:
    """Answer the forced passes of reaction windows and bonus rounds (MD15: a seat holding no
    card that fits is asked all the same); returns the seats that passed, in order."""
    seats = []
    while s.mode in (REACT, BONUS) and s.legal_actions().tolist() == [A.PASS]:
        seats.append(s.current_player)
        s.apply(A.PASS)
    return seats


# ---- every troop, by brute force (independent of the engine's own enumeration) -----------------
def _runs(c: int, hi: int):
    """Contents of the class slots c..hi: a natural card, a Tyr, or a Thor over two slots."""
    if c > hi:
        yield []
        return
    for rest in _runs(c + 1, hi):
        yield [c, *rest]
        yield [TYR, *rest]
    if c < hi:
        for rest in _runs(c + 2, hi):
            yield [THOR, THOR_TAIL, *rest]


def all_troops(max_cards: int) -> list[Troop]:
    """Every legal troop of at most ``max_cards`` cards: each run of classes with each filling and
    each pair of flanks, and each series, kept when ``Troop.is_valid`` says so."""
    out = []
    for lo in range(10):
        for hi in range(lo + 1, 10):
            for run in _runs(lo, hi):
                for flanks in itertools.product((EMPTY, SNEDIG, TYR), repeat=2):
                    line = [EMPTY] * 12
                    line[0], line[11] = flanks
                    line[lo + 1 : hi + 2] = run
                    t = Troop.sequence(line)
                    if t.ncards() <= max_cards and t.is_valid():
                        out.append(t)
    counts = itertools.product(range(10), range(1, max_cards + 1), range(7), range(4))
    for cls, nat, tyr, thor in counts:
        if nat + tyr + thor <= max_cards and Troop.make_series(cls, nat, tyr, thor).is_valid():
            out.append(Troop.make_series(cls, nat, tyr, thor))
    return out


def build_steps(t: Troop) -> list[tuple[str, int]]:
    """(range, position) of the placements that lay ``t`` down card by card, each next to what is
    there already: a series from one natural card; a sequence from its first natural class card
    (from a Snedig if it has none) to the right, then to the left, then the flanks."""
    if t.series:
        return (
            [("place_class", t.cls)] * t.nat
            + [("place_tyr", t.cls + 1)] * t.tyr
            + [("place_thor", t.cls)] * t.thor
        )
    line = t.line
    units = []  # (slot, step) of the class slots, a Thor once
    for slot in range(1, 11):
        kind = line[slot]
        if kind == TYR:
            units.append((slot, ("place_tyr", slot)))
        elif kind == THOR:
            units.append((slot, ("place_thor", slot - 1)))
        elif 0 <= kind < 10:
            units.append((slot, ("place_class", kind)))
    flanks = [
        ("place_snedig", side) if line[slot] == SNEDIG else ("place_tyr", slot)
        for side, slot in ((0, 0), (1, 11))
        if line[slot] != EMPTY
    ]
    first = next((i for i, (slot, _) in enumerate(units) if 0 <= line[slot] < 10), None)
    if first is None:  # only Snedigs are natural: they come first
        return flanks + [step for _, step in units]
    order = units[first:] + units[:first][::-1]
    return [step for _, step in order] + flanks


__all__ = [
    "DATA",
    "RULES_PAGE",
    "SNEDIG",
    "THOR",
    "TYR",
    "A",
    "Troop",
    "act",
    "all_troops",
    "at",
    "blank",
    "build_steps",
    "ch",
    "complete",
    "give",
    "k",
    "ks",
    "legal",
    "legal_names",
    "pass_forced",
    "troop",
    "world",
]
