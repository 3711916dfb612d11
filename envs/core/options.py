"""Declarative option validation, shared by every game and adapter.

A game lists its options once as ``Option`` records; ``validate_options`` turns user keyword
arguments into a complete, checked dict and names the offending key in every error. Keeping
this declarative is what lets docs and the CLI print the options without repeating them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import ConfigError, closest


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    doc: str
    choices: tuple | None = None  # allowed values, if a finite set
    kind: type | tuple | None = None  # required type(s), if not a finite set
    check: Callable[[Any], bool] | None = None  # extra predicate on the value
    check_doc: str = ""  # what the predicate demands, for the error message
    seat: bool = False  # None or a seat: an int >= 0, and below num_players (``Game`` checks that)


def int_option(name: str, default: int, low: int, high: int, doc: str) -> Option:
    """An integer option bounded on both sides, the shape every size option of a variant takes
    (a deck's values, copies, suits, a hand's size): one place writes its check and its message."""
    return Option(
        name,
        default,
        doc,
        kind=int,
        check=lambda v: low <= v <= high,
        check_doc=f"must be in {low}..{high}",
    )


def check_seat(value, num_players: int | None, where: str, name: str) -> None:
    """``value`` must be None or a seat: an int >= 0, and below ``num_players`` when given."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{where}: option {name!r} must be None or a seat, got {value!r}")
    if num_players is not None and value >= num_players:
        raise ConfigError(
            f"{where}: option {name!r} must be a seat below {num_players}, got {value}"
        )


def validate_options(spec: list[Option] | tuple[Option, ...], given: dict, where: str) -> dict:
    """Return defaults updated by ``given``; raise ``ConfigError`` naming any bad key."""
    known = {o.name: o for o in spec}
    unknown = sorted(set(given) - set(known), key=str)
    if unknown:
        listed = ", ".join(
            repr(k) + (f" (did you mean {c!r}?)" if (c := closest(k, list(known))) else "")
            for k in unknown
        )
        raise ConfigError(
            f"{where}: unknown option(s) {listed}; "
            f"known options are {', '.join(sorted(known)) or '(none)'}"
        )
    out = {}
    for o in spec:
        value = given.get(o.name, o.default)
        if o.choices is not None:
            if not any(value == c and type(value) is type(c) or value is c for c in o.choices):
                raise ConfigError(
                    f"{where}: option {o.name!r} must be one of {list(o.choices)}, got {value!r}"
                )
        elif o.kind is not None:
            kinds = o.kind if isinstance(o.kind, tuple) else (o.kind,)
            if isinstance(value, bool) and bool not in kinds:
                raise ConfigError(f"{where}: option {o.name!r} must not be a bool, got {value!r}")
            if not isinstance(value, kinds):
                names = "/".join(k.__name__ for k in kinds)
                raise ConfigError(f"{where}: option {o.name!r} must be {names}, got {value!r}")
        if o.seat:
            check_seat(value, None, where, o.name)
        if o.check is not None and not o.check(value):
            raise ConfigError(
                f"{where}: option {o.name!r} {o.check_doc or 'is invalid'}, got {value!r}"
            )
        out[o.name] = value
    return out
