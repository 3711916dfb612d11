"""Midgard decision frames: one small class per decision mode (modes.py), the entries of
``state.stack``.

The top frame says which seat decides (``p``) and what it decides (its class, ``m`` its mode);
the frames below wait for the frames above them to be answered. Handlers are looked up by ``m``
in tables (rules.py ``_step``, masks.py, cardplay.py), so every frame of a mode has the same
fields and a handler reads them as attributes.

Frames are saved as dicts (``{"m": mode, "p": seat, field: value, ...}``, the fields in the
order below): ``to_dict`` and ``frame_from_dict`` convert at the boundary, so the saved-state
format is that of the dict frames the engine used before (``then`` a ``{"do": ...}`` dict, a
reaction window's ``kinds`` absent until it first asks a seat).

Clones are the hot path of search (ISMCTS clones per iteration), so a frame that is never
changed after it is pushed is frozen and shared by clones (``copy`` returns it); the others
copy the lists they change in place (queues, chosen troops). Dataclasses with slots: attribute
reads as fast as a dict's, creation and copies faster.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .modes import (
    BONUS,
    BUILD,
    CHALLENGE,
    CLAIM,
    DEFEND,
    DISCARD_REQ,
    ENGAGE,
    EV_DISCARD,
    KEEP,
    KROG,
    MOVE,
    NUM_MODES,
    ONSLAUGHT,
    PREP,
    REACT,
    RELOCATE,
    RESERVE,
    SPOILS,
    TAKE,
    TRAVEL,
)

FRAMES: dict[int, type] = {}  # mode -> its frame class


def _frame(mode: int, frozen: bool = True):
    """Make a frame class of ``mode``: a slotted dataclass, frozen unless it changes in place,
    registered in ``FRAMES`` with its saved field names."""

    def wrap(cls):
        cls = dataclass(slots=True, frozen=frozen)(cls)
        cls.m = mode
        cls.field_names = tuple(f.name for f in fields(cls) if f.name != "p")
        FRAMES[mode] = cls
        return cls

    return wrap


class _Saved:
    """The dict form shared by all frames (``copy``: a frozen frame is its own copy)."""

    __slots__ = ()

    def copy(self):
        return self

    def to_dict(self) -> dict:
        out = {"m": self.m, "p": self.p}
        for k in self.field_names:
            v = getattr(self, k)
            out[k] = list(v) if isinstance(v, list) else v
        return out


@_frame(KROG)
class KrogFrame(_Saved):
    """Seat ``p`` is offered the Krog top; the offer goes round until the seat after ``ender``."""

    p: int
    ender: int


@_frame(PREP)
class PrepFrame(_Saved):
    p: int


@_frame(BUILD)
class BuildFrame(_Saved):
    """Laying down a new troop (``state.pending``)."""

    p: int


@_frame(RELOCATE)
class RelocateFrame(_Saved):
    """A wildcard ``wild`` displaced from troop ``troop`` (``actions.PENDING``: the one being laid
    down) goes to one of ``options``."""

    p: int
    troop: int
    wild: int
    options: list


@_frame(CLAIM)
class ClaimFrame(_Saved):
    """A Claim for Gods on troop ``troop`` of seat ``target``."""

    p: int
    target: int
    troop: int


@_frame(ONSLAUGHT)
class OnslaughtFrame(_Saved):
    p: int


@_frame(TRAVEL, frozen=False)
class TravelFrame(_Saved):
    """Choosing the troops for a trip to ``world``; ``chosen`` grows troop by troop."""

    p: int
    world: int
    chosen: list

    def copy(self):
        return TravelFrame(self.p, self.world, list(self.chosen))


@_frame(CHALLENGE, frozen=False)
class ChallengeFrame(_Saved):
    """Choosing the troops to face challenge ``ch``; ``chosen`` grows troop by troop."""

    p: int
    ch: int
    chosen: list

    def copy(self):
        return ChallengeFrame(self.p, self.ch, list(self.chosen))


@_frame(DISCARD_REQ, frozen=False)
class DiscardReqFrame(_Saved):
    """Discarding ``left`` more cards for challenge ``ch``'s discard icons."""

    p: int
    ch: int
    troops: list
    left: int

    def copy(self):
        return DiscardReqFrame(self.p, self.ch, self.troops, self.left)


@_frame(TAKE)
class TakeFrame(_Saved):
    """Taking a card from ``src``: "valhalla", "krog" or "pool" (Loki's Trick)."""

    p: int
    src: str


@_frame(RESERVE)
class ReserveFrame(_Saved):
    p: int


@_frame(KEEP, frozen=False)
class KeepFrame(_Saved):
    """Keeping one of the rewards ``drawn`` (determinization redraws them for the others)."""

    p: int
    drawn: list

    def copy(self):
        return KeepFrame(self.p, list(self.drawn))


@_frame(DEFEND)
class DefendFrame(_Saved):
    """Seat ``p`` is attacked by seat ``att``'s troop ``troop``."""

    p: int
    att: int
    troop: int


@_frame(SPOILS)
class SpoilsFrame(_Saved):
    p: int


@_frame(REACT, frozen=False)
class ReactFrame(_Saved):
    """A reaction window (cardplay.py): ``queue`` of ``[seat, kinds]`` still to ask, ``card``
    when it answers the top played card, ``then`` the continuation once it closes ("played",
    "engaged", "attacked" or None), ``kinds`` what the asked seat may play."""

    p: int
    queue: list
    card: bool
    then: str | None
    kinds: list | None = None

    def copy(self):
        return ReactFrame(self.p, list(self.queue), self.card, self.then, self.kinds)

    def to_dict(self) -> dict:
        out = {
            "m": REACT,
            "p": self.p,
            "queue": list(self.queue),
            "card": self.card,
            "then": None if self.then is None else {"do": self.then},
        }
        if self.kinds is not None:
            out["kinds"] = list(self.kinds)
        return out


@_frame(BONUS, frozen=False)
class BonusFrame(_Saved):
    """A bonus round: ``queue`` of ``[seat, side]`` still to ask, ``side`` the asked seat's."""

    p: int
    queue: list
    side: int

    def copy(self):
        return BonusFrame(self.p, list(self.queue), self.side)


@_frame(EV_DISCARD, frozen=False)
class EvDiscardFrame(_Saved):
    """An attack event's discards: ``queue`` of seats, one entry per card; ``keep`` when the
    cards go to Loki's pool for seat ``by`` to keep one."""

    p: int
    queue: list
    keep: bool
    by: int

    def copy(self):
        return EvDiscardFrame(self.p, list(self.queue), self.keep, self.by)


@_frame(ENGAGE, frozen=False)
class EngageFrame(_Saved):
    """An attack event's engagements: ``queue`` of seats that each engage a regrouped troop."""

    p: int
    queue: list

    def copy(self):
        return EngageFrame(self.p, list(self.queue))


@_frame(MOVE)
class MoveFrame(_Saved):
    """A move by a card effect (no trip)."""

    p: int


assert sorted(FRAMES) == list(range(NUM_MODES)), "every mode has its frame class"


def frame_from_dict(d: dict):
    """The frame of a saved dict (``to_dict``'s form; lists copied)."""
    fields_ = {k: (list(v) if isinstance(v, list) else v) for k, v in d.items() if k != "m"}
    if d["m"] == REACT and fields_["then"] is not None:
        fields_["then"] = fields_["then"]["do"]
    return FRAMES[d["m"]](**fields_)


def frame_keys(mode: int) -> tuple[str, ...]:
    """The saved keys of a frame of ``mode`` after ``m`` and ``p`` (a window's ``kinds`` is
    optional)."""
    return FRAMES[mode].field_names


def copy_record(f: dict) -> dict:
    """A copy of a contest or a played card's record (``state.contest``, ``state.played``): they
    hold ints, strings, flat lists and lists of lists that are never changed in place."""
    return {k: (list(v) if isinstance(v, list) else v) for k, v in f.items()}
