"""Midgard card data: the loader and validator of ``data/midgard.json``, and the card kinds.

The rulebook prints almost no card-level data, so every card lives in one JSON file: facts the
rulebook states are kept as printed, invented records carry ``"source": "synthetic"``, and a
record the rulebook names (``"source": "rulebook"``) labels every field in ``"sources"`` (one of
``SOURCE_LABELS``; an absent season bonus or effect is labelled too, since "none" may be
supplied) with ``"notes"`` saying what is printed where that is not the whole value. So nobody
mistakes a supplied value for a printed one. ``load_data`` checks everything at import and raises
``DataError`` naming the record and the field, so a broken edit fails at start-up, not mid-game.

Card kinds (ints, used everywhere a card is stored; cards of one kind are interchangeable):

    0-9     troop classes by their sequence number (Hyggelig ... Runecästr)
    10      Snedig (special troop, no number, always on a flank)
    11, 12  the wildcards Tyr (replaces 1 card) and Thor (replaces 2 cards, counts as 1)
    13...   the events, then the reactions, in file order (17 + 8 with the shipped file)

Effects are data: each event/reaction/challenge/world names effect ``kind``s from the small,
documented sets below, which the engine interprets (events and reactions: cardplay.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DATA_FILE = Path(__file__).with_name("data") / "midgard.json"

NUM_CLASSES = 10
SNEDIG = 10
TYR = 11
THOR = 12
FIRST_ACTION_CARD = 13  # events start here
WORLD_NAMES = (
    "Midgard",
    "Nidavellir",
    "Vanaheim",
    "Jotunheim",
    "Alfheim",
    "Niflheim",
    "Muspellsheim",
    "Svartalfheim",
    "Asgard",
)
SEASONS = ("summer", "winter")

# The component list of the rulebook ("122 Game Cards (88 Troops, 9 Wildcards, 17 Event Cards,
# 8 Reaction Cards); 40 Challenge Cards; 30 Reward Cards").
COMPONENTS = {
    "troops": 88,
    "wildcards": 9,
    "events": 17,
    "reactions": 8,
    "challenges": 40,
    "rewards": 30,
}

# Effect kinds and the integer parameters each takes.
EVENT_EFFECTS = {
    "all_discard_keep_one": (),
    "renew_challenges": (),
    "draw_cards": ("n",),
    "regroup_own": (),
    "take_from_valhalla": (),
    "take_from_krog": (),
    "gain_coins": ("n",),
    "turn_calendar": ("n",),
    "all_lose_coins": ("n",),
    "all_discard": ("n",),
    "move_self": (),
    "all_to_midgard": (),
    "open_challenges": ("n",),
    "extra_event": (),
    "draw_rewards": ("n",),
    "opponents_engage_one": (),
}
REACTION_TRIGGERS = (
    "card_played",
    "troop_engaged_for_challenge",
    "attacked",
    "attack_event",
    "challenge_faced_by_opponent",
    "challenge_won_by_opponent",
    "moved_by_effect",
)
REACTION_EFFECTS = {
    "cancel_card": (),
    "ignore_requirement": ("n",),
    "regroup_own": (),
    "immune": (),
    "difficulty_change": ("n",),
    "gain_coins": ("n",),
    "move_self": (),
}
WORLD_BENEFITS = {
    "draw_cards": ("n",),
    "gain_coins": ("n",),
    "take_from_valhalla": (),
    "take_from_krog": (),
    "reserve_challenge": (),
    "draw_rewards": ("n",),
    "draw_rewards_keep_one": ("n",),
}
CHALLENGE_INSTANT = {"all_to_midgard": (), "open_another": ()}
CHALLENGE_LASTING = {"difficulty_others": ("n",), "might_per_troop": ("n",)}
SOURCES = ("rulebook", "synthetic")
# Field labels of a rulebook record: printed as the data has it; following from printed text;
# printed in part (the rest supplied or unknown); from the publisher's production report, not
# the rulebook; supplied here. The three in the middle need a note.
SOURCE_LABELS = ("rulebook", "inferred", "partial", "production report", "synthetic")
NOTED_LABELS = ("inferred", "partial", "production report")
LABELLED_FIELDS = {
    "classes": ("seq", "meaning", "might", "count"),
    "snedig": ("meaning", "might", "count"),
    "wildcards": ("replaces", "might", "count"),
    "events": ("type", "bonus", "effects"),
    "reactions": ("type", "bonus", "trigger", "effects"),
    "worlds": ("troops", "benefit"),
    "rewards": ("kind", "value", "count"),
    "challenges": (
        "worlds",
        "requires",
        "difficulty",
        "season",
        "renown",
        "calendar",
        "instant",
        "lasting",
    ),
}
BONUS_VALUES = (3, 5, 7)


class DataError(ValueError):
    """The card data file is malformed; the message names the record and the field."""


@dataclass(frozen=True)
class Effect:
    kind: str
    n: int = 0


@dataclass(frozen=True)
class ActionCard:
    """An event or a reaction card."""

    kind: int  # card kind id
    name: str
    is_event: bool
    type: str  # attack/personal (events), defense/personal (reactions)
    bonus: int
    effects: tuple[Effect, ...]
    trigger: str | None
    source: str


@dataclass(frozen=True)
class World:
    index: int
    name: str
    troops: tuple[int, ...]  # minimum cards of each troop to engage (one entry per troop)
    benefit: Effect
    source: str


@dataclass(frozen=True)
class Challenge:
    id: int
    name: str
    worlds: frozenset  # world indices; empty = any world (the ripped parchment)
    classes: tuple[int, ...]  # required natural cards per kind 0-10 (classes and Snedig)
    tyr: int  # required Tyr icons
    thor: int  # required Thor icons
    coins: int  # coins paid at declaration
    discard: int  # cards discarded at declaration
    difficulty: int
    season_bonus: tuple[int, int]  # (summer, winter)
    renown: int
    calendar: bool
    instant: tuple[Effect, ...]
    lasting: tuple[Effect, ...]
    source: str

    @property
    def any_world(self) -> bool:
        return not self.worlds

    def requirement_icons(self) -> list[tuple[str, int]]:
        """The printed requirement icons as (label, count), in kind order."""
        out = [(str(k), c) for k, c in enumerate(self.classes) if c]
        out += [
            (lab, c)
            for lab, c in (
                ("Tyr", self.tyr),
                ("Thor", self.thor),
                ("coins", self.coins),
                ("discard", self.discard),
            )
            if c
        ]
        return out


@dataclass(frozen=True)
class CardData:
    class_names: tuple[str, ...]  # 0-9
    kind_names: tuple[str, ...]  # every card kind
    kind_counts: tuple[int, ...]  # copies of each kind in the Thing deck
    might: tuple[int, ...]  # might of troop/wild kinds (0 for events/reactions)
    bonus: tuple[int, ...]  # bonus of event/reaction kinds (0 for troops)
    action_cards: tuple[ActionCard, ...]  # events then reactions, kinds 13...
    num_events: int
    num_reactions: int
    worlds: tuple[World, ...]
    rewards: tuple[tuple[str, int], ...]  # reward kinds: (kind "renown"/"coins", value)
    reward_counts: tuple[int, ...]
    challenges: tuple[Challenge, ...]
    raw: dict

    @property
    def num_kinds(self) -> int:
        return len(self.kind_names)

    @property
    def deck_size(self) -> int:
        return sum(self.kind_counts)

    def is_troop_card(self, kind: int) -> bool:
        """Troop cards and wildcards (green and blue balls) go to Krog when discarded."""
        return kind <= THOR

    def challenge_by_name(self, name: str) -> Challenge:
        for c in self.challenges:
            if c.name == name:
                return c
        raise KeyError(name)

    def source_gaps(self) -> list[str]:
        """Every record and field the rulebook does not print as the data has it, by label, with
        its notes (markdown list items for docs/rules/midgard.md); "(none)" marks an absent field
        whose "none" is itself supplied."""
        out = []
        for section in LABELLED_FIELDS:
            records = [self.raw["snedig"]] if section == "snedig" else self.raw[section]
            for rec in records:
                name = rec.get("name") or f"{rec.get('kind')} {rec.get('value')}"
                if rec["source"] == "synthetic":
                    out.append(f"- {section}: {name}: synthetic (the whole record)")
                    continue
                parts = []
                for label in SOURCE_LABELS[1:]:
                    fields = [
                        f if f in rec else f"{f} (none)"
                        for f, x in rec["sources"].items()
                        if x == label
                    ]
                    if fields:
                        parts.append(f"{label}: {', '.join(fields)}")
                if parts:
                    out.append(f"- {section}: {name}: {'; '.join(parts)}")
                out += [f"  - {f}: {note}" for f, note in rec.get("notes", {}).items()]
        return out


# ---- validation ---------------------------------------------------------------------------


def _fail(where: str, msg: str):
    raise DataError(f"midgard card data: {where}: {msg}")


def _int(rec: dict, key: str, where: str, lo: int = 0, hi: int = 10**6) -> int:
    if key not in rec:
        _fail(where, f"missing field {key!r}")
    v = rec[key]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        _fail(where, f"field {key!r} must be an int in {lo}..{hi}, got {v!r}")
    return v


def _str(rec: dict, key: str, where: str, choices=None) -> str:
    if key not in rec:
        _fail(where, f"missing field {key!r}")
    v = rec[key]
    if not isinstance(v, str) or not v:
        _fail(where, f"field {key!r} must be a non-empty string, got {v!r}")
    if choices is not None and v not in choices:
        _fail(where, f"field {key!r} must be one of {list(choices)}, got {v!r}")
    return v


def _source(rec: dict, where: str, section: str) -> str:
    """The record's source; a rulebook record must label each of its section's fields."""
    src = _str(rec, "source", where, SOURCES)
    if src == "synthetic":
        if "sources" in rec or "notes" in rec:
            _fail(where, "a synthetic record has no 'sources' or 'notes' (all of it is synthetic)")
        return src
    sources, want = rec.get("sources"), LABELLED_FIELDS[section]
    if not isinstance(sources, dict):
        _fail(where, "a rulebook record must label each field in 'sources'")
    missing = [f for f in want if f not in sources]
    if missing:
        _fail(where, f"'sources' must label {missing} (absent fields too: 'none' may be supplied)")
    extra = [f for f in sources if f not in want]
    if extra:
        _fail(where, f"'sources' labels {extra}; the labelled fields are {list(want)}")
    notes = rec.get("notes", {})
    if not isinstance(notes, dict) or not all(isinstance(v, str) and v for v in notes.values()):
        _fail(where, "field 'notes' must map field names to non-empty texts")
    for f in notes:
        if f not in sources:
            _fail(where, f"'notes' names {f!r}, which 'sources' does not label")
    for f, label in sources.items():
        if label not in SOURCE_LABELS:
            _fail(where, f"'sources.{f}' must be one of {list(SOURCE_LABELS)}, got {label!r}")
        if label in NOTED_LABELS and f not in notes:
            _fail(where, f"'sources.{f}' is {label!r}: 'notes.{f}' must say what is printed")
    return src


def _effects(rec: dict, key: str, where: str, allowed: dict, required: bool) -> tuple[Effect, ...]:
    if key not in rec:
        if required:
            _fail(where, f"missing field {key!r}")
        return ()
    lst = rec[key]
    if not isinstance(lst, list) or (required and not lst):
        _fail(where, f"field {key!r} must be a {'non-empty ' if required else ''}list of effects")
    return tuple(_effect(e, f"{where}.{key}[{i}]", allowed) for i, e in enumerate(lst))


def _effect(e, where: str, allowed: dict) -> Effect:
    if not isinstance(e, dict):
        _fail(where, f"an effect must be an object, got {e!r}")
    kind = _str(e, "kind", where)
    if kind not in allowed:
        _fail(where, f"unknown effect kind {kind!r}; known: {', '.join(sorted(allowed))}")
    params = allowed[kind]
    extra = set(e) - {"kind", *params}
    if extra:
        _fail(where, f"effect {kind!r} takes no field(s) {sorted(extra)}")
    n = _int(e, "n", where, -20, 20) if "n" in params else 0
    return Effect(kind, n)


def _section(raw: dict, key: str, count: int | None = None) -> list:
    if key not in raw:
        _fail("file", f"missing section {key!r}")
    lst = raw[key]
    if not isinstance(lst, list):
        _fail(key, "must be a list")
    if count is not None and len(lst) != count:
        _fail(key, f"must have {count} records, got {len(lst)}")
    for i, rec in enumerate(lst):
        if not isinstance(rec, dict):
            _fail(f"{key}[{i}]", "must be an object")
    return lst


def _unique_names(lst: list, key: str) -> None:
    seen = set()
    for i, rec in enumerate(lst):
        name = _str(rec, "name", f"{key}[{i}]")
        if name in seen:
            _fail(f"{key}[{i}]", f"duplicate name {name!r}")
        seen.add(name)


def validate(raw: dict) -> CardData:
    """Check a parsed data file and build ``CardData``; raise ``DataError`` on the first problem.
    One helper per section of the file, in file order."""
    if not isinstance(raw, dict):
        _fail("file", "the top level must be an object")
    if raw.get("format") != 2:
        _fail("file", f"unsupported 'format' {raw.get('format')!r} (expected 2)")
    classes, sn, wild = _troop_cards(raw)
    events, reactions, action_cards = _action_cards(raw)
    worlds = _worlds(raw)
    rewards, reward_counts = _rewards(raw)
    challenges = _challenges(raw, classes)
    counts = {
        "troops": sum(r["count"] for r in classes) + sn["count"],
        "wildcards": sum(r["count"] for r in wild),
        "events": len(events),
        "reactions": len(reactions),
        "rewards": sum(reward_counts),
    }
    for key, n in counts.items():
        if n != COMPONENTS[key]:
            _fail(
                key, f"the rulebook's component list has {COMPONENTS[key]} {key}, the file has {n}"
            )

    kind_names = (
        tuple(r["name"] for r in classes)
        + ("Snedig", "Tyr", "Thor")
        + tuple(a.name for a in action_cards)
    )
    kind_counts = (
        tuple(r["count"] for r in classes)
        + (sn["count"], wild[0]["count"], wild[1]["count"])
        + (1,) * len(action_cards)
    )
    might = (
        tuple(r["might"] for r in classes)
        + (sn["might"], wild[0]["might"], wild[1]["might"])
        + (0,) * len(action_cards)
    )
    bonus = (0,) * FIRST_ACTION_CARD + tuple(a.bonus for a in action_cards)
    return CardData(
        tuple(r["name"] for r in classes),
        kind_names,
        kind_counts,
        might,
        bonus,
        tuple(action_cards),
        len(events),
        len(reactions),
        tuple(worlds),
        tuple(rewards),
        tuple(reward_counts),
        tuple(challenges),
        raw,
    )


def _troop_cards(raw: dict) -> tuple[list, dict, list]:
    """The classes (in sequence order), Snedig, and the wildcards Tyr and Thor."""
    classes = _section(raw, "classes", NUM_CLASSES)
    _unique_names(classes, "classes")
    for i, rec in enumerate(classes):
        where = f"classes[{i}] ({rec['name']!r})"
        if _int(rec, "seq", where, 0, 9) != i:
            _fail(
                where,
                f"classes must be listed in sequence order; expected seq {i}, got {rec['seq']}",
            )
        _int(rec, "might", where, 0, 20)
        _int(rec, "count", where, 1, 40)
        _source(rec, where, "classes")
    sn = raw.get("snedig")
    if not isinstance(sn, dict):
        _fail("snedig", "missing or not an object")
    if _str(sn, "name", "snedig") != "Snedig":
        _fail("snedig", f"name must be 'Snedig', got {sn['name']!r}")
    _int(sn, "might", "snedig", 0, 20)
    _int(sn, "count", "snedig", 1, 40)
    _source(sn, "snedig", "snedig")

    wild = _section(raw, "wildcards", 2)
    for i, (rec, name, rep) in enumerate(zip(wild, ("Tyr", "Thor"), (1, 2))):
        where = f"wildcards[{i}]"
        if _str(rec, "name", where) != name:
            _fail(where, f"expected the wildcard {name!r}, got {rec['name']!r}")
        if _int(rec, "replaces", where, 1, 2) != rep:
            _fail(where, f"{name} replaces {rep} card(s) (rulebook), got {rec['replaces']}")
        _int(rec, "might", where, 0, 20)
        _int(rec, "count", where, 1, 20)
        _source(rec, where, "wildcards")

    return classes, sn, wild


def _action_cards(raw: dict) -> tuple[list, list, list]:
    """Events and reactions, as ``ActionCard`` (kinds after the troop cards)."""
    events = _section(raw, "events")
    reactions = _section(raw, "reactions")
    _unique_names(events + reactions, "events+reactions")
    action_cards = []
    for is_event, lst, key in ((True, events, "events"), (False, reactions, "reactions")):
        for i, rec in enumerate(lst):
            where = f"{key}[{i}] ({rec['name']!r})"
            typ = _str(
                rec, "type", where, ("attack", "personal") if is_event else ("defense", "personal")
            )
            bonus = _int(rec, "bonus", where, 0, 99)
            if bonus not in BONUS_VALUES:
                _fail(where, f"field 'bonus' must be one of {list(BONUS_VALUES)}, got {bonus}")
            trigger = None
            if is_event:
                if "trigger" in rec:
                    _fail(where, "events have no 'trigger' (only reactions do)")
                effects = _effects(rec, "effects", where, EVENT_EFFECTS, True)
            else:
                trigger = _str(rec, "trigger", where, REACTION_TRIGGERS)
                effects = _effects(rec, "effects", where, REACTION_EFFECTS, True)
            src = _source(rec, where, key)
            action_cards.append(
                ActionCard(
                    FIRST_ACTION_CARD + len(action_cards),
                    rec["name"],
                    is_event,
                    typ,
                    bonus,
                    effects,
                    trigger,
                    src,
                )
            )

    return events, reactions, action_cards


def _worlds(raw: dict) -> list:
    worlds_raw = _section(raw, "worlds", len(WORLD_NAMES))
    worlds = []
    for i, rec in enumerate(worlds_raw):
        where = f"worlds[{i}]"
        name = _str(rec, "name", where)
        if name != WORLD_NAMES[i]:
            _fail(
                where,
                f"worlds must be listed as {list(WORLD_NAMES)}; "
                f"expected {WORLD_NAMES[i]!r}, got {name!r}",
            )
        troops = rec.get("troops")
        if (
            not isinstance(troops, list)
            or not troops
            or len(troops) > 5
            or not all(
                isinstance(t, int) and not isinstance(t, bool) and 1 <= t <= 12 for t in troops
            )
        ):
            _fail(
                f"{where} ({name!r})",
                f"field 'troops' must list 1-5 minimum troop sizes in 1..12, got {troops!r}",
            )
        benefit = _effect(rec.get("benefit"), f"{where} ({name!r}).benefit", WORLD_BENEFITS)
        src = _source(rec, f"{where} ({name!r})", "worlds")
        worlds.append(World(i, name, tuple(troops), benefit, src))

    return worlds


def _rewards(raw: dict) -> tuple[list, list]:
    rewards_raw = _section(raw, "rewards")
    rewards, reward_counts, seen = [], [], set()
    for i, rec in enumerate(rewards_raw):
        where = f"rewards[{i}]"
        key = (_str(rec, "kind", where, ("renown", "coins")), _int(rec, "value", where, 1, 20))
        if key in seen:
            _fail(where, f"duplicate reward {key}")
        seen.add(key)
        rewards.append(key)
        reward_counts.append(_int(rec, "count", where, 1, 30))
        _source(rec, where, "rewards")

    return rewards, reward_counts


def _challenges(raw: dict, classes: list) -> list:
    chal_raw = _section(raw, "challenges", COMPONENTS["challenges"])
    _unique_names(chal_raw, "challenges")
    class_index = {rec["name"]: i for i, rec in enumerate(classes)}
    class_index["Snedig"] = SNEDIG
    challenges = []
    for i, rec in enumerate(chal_raw):
        challenges.append(_challenge(i, rec, class_index))
    return challenges


def _challenge(i: int, rec: dict, class_index: dict) -> Challenge:
    """One challenge record: worlds, requirements (class names, Snedig, Tyr, Thor, coins,
    discard), season bonus, calendar flag, effects."""
    where = f"challenges[{i}] ({rec['name']!r})"
    ws = rec.get("worlds")
    if not isinstance(ws, list) or len(set(ws)) != len(ws if isinstance(ws, list) else ()):
        _fail(where, "field 'worlds' must be a list of distinct world names ([] = any world)")
    for w in ws:
        if w not in WORLD_NAMES:
            _fail(where, f"unknown world {w!r}; worlds are {list(WORLD_NAMES)}")
    req = rec.get("requires")
    if not isinstance(req, dict) or not req:
        _fail(where, "field 'requires' must be a non-empty object of requirement: count")
    cls = [0] * (NUM_CLASSES + 1)
    special = {"Tyr": 0, "Thor": 0, "coins": 0, "discard": 0}
    for label in req:
        n = _int(req, label, f"{where}.requires", 1, 8)
        if label in class_index:
            cls[class_index[label]] = n
        elif label in special:
            special[label] = n
        else:
            _fail(
                f"{where}.requires",
                f"unknown requirement {label!r}; known: class names, Snedig, "
                f"Tyr, Thor, coins, discard",
            )
    season = rec.get("season", {})
    if not isinstance(season, dict) or len(season) > 1 or any(k not in SEASONS for k in season):
        _fail(where, f"field 'season' must be {{'summer': n}} or {{'winter': n}}, got {season!r}")
    sb = tuple(_int(season, s, f"{where}.season", 1, 10) if s in season else 0 for s in SEASONS)
    cal = rec.get("calendar")
    if not isinstance(cal, bool):
        _fail(where, f"field 'calendar' must be true or false, got {cal!r}")
    return Challenge(
        id=i,
        name=rec["name"],
        worlds=frozenset(WORLD_NAMES.index(w) for w in ws),
        classes=tuple(cls),
        tyr=special["Tyr"],
        thor=special["Thor"],
        coins=special["coins"],
        discard=special["discard"],
        difficulty=_int(rec, "difficulty", where, 1, 40),
        season_bonus=sb,
        renown=_int(rec, "renown", where, 0, 40),
        calendar=cal,
        instant=_effects(rec, "instant", where, CHALLENGE_INSTANT, False),
        lasting=_effects(rec, "lasting", where, CHALLENGE_LASTING, False),
        source=_source(rec, where, "challenges"),
    )


def load_data(path: str | Path | None = None) -> CardData:
    """Read and validate a data file (default: the shipped ``data/midgard.json``)."""
    path = Path(path) if path is not None else DATA_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise DataError(f"midgard card data: {path.name} is not valid JSON: {e}") from None
    return validate(raw)


DATA = load_data()

# ---- the action cards by what they do (events, reactions, bonuses; cardplay.py) ----------
FIRST_REACTION = FIRST_ACTION_CARD + DATA.num_events  # kind of the first reaction
CARDS = {c.kind: c for c in DATA.action_cards}
EVENT_KINDS = [c.kind for c in DATA.action_cards if c.is_event]
REACTION_KINDS = [c.kind for c in DATA.action_cards if not c.is_event]
BONUS_KINDS = list(range(FIRST_ACTION_CARD, len(DATA.kind_names)))  # any event or reaction
BY_TRIGGER = {t: [c.kind for c in DATA.action_cards if c.trigger == t] for t in REACTION_TRIGGERS}
IGNORE_KINDS = [
    (c.kind, e.n)
    for c in DATA.action_cards
    if not c.is_event
    for e in c.effects
    if e.kind == "ignore_requirement"
]
REWARD_COIN_KINDS = [i for i, (k, _) in enumerate(DATA.rewards) if k == "coins"]
# card kinds and reward kinds, made once: ``determinize`` and ``view`` expand counts with them
KINDS = np.arange(DATA.num_kinds)
REWARD_KINDS = np.arange(len(DATA.rewards))


def as_list(counts) -> list:
    """Counts per kind as the sorted list of kinds (short JSON)."""
    size = len(counts)
    kinds = KINDS if size == DATA.num_kinds else np.arange(size)
    return kinds.repeat(counts).tolist()


def as_counts(kinds, size: int) -> np.ndarray:
    """The counts per kind of a list of kinds (``as_list``'s inverse)."""
    return np.bincount(np.asarray(kinds, dtype=np.int64), minlength=size).astype(np.int64)
