"""A Midgard state as JSON values (``to_dict``) and back (``from_dict``); and the check of a
saved state (``check_state``, ``MidgardState.from_dict``) before it is built: every field's
type, size and range, troops as troops (complete on the table), conservation of the cards, coins,
rewards and challenges, publicly known cards within the hands (hidden information), the contest
and the played cards, and the decision stack, every frame of it (saved_stack.py; see
envs/core/saved.py)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from ..core.saved import Fields, check_conservation
from .actions import FIRST_ACTION_CARD, MAX_TROOPS
from .cards import DATA, NUM_CLASSES, THOR, WORLD_NAMES, as_counts, as_list
from .frames import copy_record, frame_from_dict, frame_keys
from .invariants import card_totals, face_down_counts
from .modes import EV_DISCARD, KEEP, MODE_NAMES, REACT, RELOCATE, TOTAL_COINS
from .saved_stack import check_frame_fields, check_stack, troop_ok
from .troops import NUM_SLOTS, THOR_TAIL, Troop

FIELDS = (
    "hands",
    "known",
    "thing",
    "thing_base",
    "thing_drawn",
    "krog",
    "valhalla",
    "troops",
    "pending",
    "coins",
    "skat",
    "world",
    "reward_deck",
    "rewards",
    "revealed",
    "reward_top_known",
    "ch_deck",
    "open",
    "reserved",
    "won",
    "ch_out",
    "calendar",
    "turn",
    "decisions",
    "start_player",
    "active",
    "made_trip",
    "won_challenge",
    "had_troops",
    "stack",
    "over",
    "truncated",
    "end_reason",
    "played",
    "pool",
    "contest",
    "events_left",
)


def _troop(f: Fields, name: str, value) -> Troop:
    """A troop from its JSON (``["ser", class, naturals, tyrs, thors, engaged]`` or
    ``["seq", 12 slots, engaged]``), checked."""
    v = f.list(name, value=value)
    if v and v[0] == "ser" and len(v) == 6:
        f.int(name + " class", 0, NUM_CLASSES - 1, value=v[1])
        for i in (2, 3, 4):
            f.int(f"{name}[{i}]", 0, DATA.deck_size, value=v[i])
    elif v and v[0] == "seq" and len(v) == 3:
        f.ints(name + " slots", THOR_TAIL, THOR, NUM_SLOTS, value=v[1])
    else:
        f.fail(
            name,
            f'is not a troop (["ser", class, naturals, tyrs, thors, engaged] or '
            f'["seq", slots, engaged]), got {value!r}',
        )
    if not isinstance(v[-1], bool):
        f.fail(name, f"must end with engaged (true/false), got {v[-1]!r}")
    return Troop.from_json(v)


def _check_thing_base(f: Fields, n: int, kinds: int) -> None:
    """The Thing's cards at the last reshuffle (null before the first) and each seat's draws
    since (M-E2): the Thing plus the draws must be the reshuffled cards."""
    rows = f.list("thing_drawn", n)
    drawn = [f.ints(f"thing_drawn[{p}]", 0, kinds - 1, value=row) for p, row in enumerate(rows)]
    if f.get("thing_base") is None:
        return
    base = f.ints("thing_base", 0, kinds - 1)
    counts = np.bincount(np.asarray(base, dtype=np.int64), minlength=kinds)
    cards = list(f.get("thing")) + [x for row in drawn for x in row]
    now = np.bincount(np.asarray(cards, dtype=np.int64), minlength=kinds)
    if now.tolist() != counts.tolist():
        f.fail(
            "thing_base",
            "must be the Thing plus every seat's draws since the reshuffle (thing_drawn)",
        )


def _check_frame(f: Fields, i: int, frame, n: int) -> None:
    """A decision frame: its mode, its seat, and exactly its mode's fields (frames.py; a reaction
    window's ``kinds`` only once it has asked a seat), so that the typed frame can be built."""
    fr = Fields(frame, f"{f.where}: field 'stack[{i}]'")
    m = fr.int("m", 0, len(MODE_NAMES) - 1)
    fr.int("p", -1, n - 1)
    keys = frame_keys(m)
    optional = {"kinds"} if m == REACT else set()
    Fields(frame, fr.where, known=("m", "p", *keys))
    for key in keys:
        if key not in optional:
            fr.get(key)
    check_frame_fields(fr, m, n)


def to_dict(s) -> dict:
    """The game's fields as JSON values (``State.to_dict``'s ``state``)."""
    return {
        "hands": [as_list(h) for h in s.hands],
        "known": [as_list(h) for h in s.known],
        "thing": list(s.thing),
        "thing_base": None if s.thing_base is None else as_list(s.thing_base),
        "thing_drawn": [as_list(h) for h in s.thing_drawn],
        "krog": list(s.krog),
        "valhalla": as_list(s.valhalla),
        "troops": [[t.to_json() for t in ts] for ts in s.troops],
        "pending": None if s.pending is None else s.pending.to_json(),
        "coins": s.coins.tolist(),
        "skat": s.skat,
        "world": s.world.tolist(),
        "reward_deck": list(s.reward_deck),
        "rewards": [as_list(r) for r in s.rewards],
        "revealed": [as_list(r) for r in s.revealed],
        "reward_top_known": s.reward_top_known,
        "ch_deck": list(s.ch_deck),
        "open": list(s.open),
        "reserved": list(s.reserved),
        "won": [list(w) for w in s.won],
        "ch_out": list(s.ch_out),
        "calendar": s.calendar,
        "turn": s.turn,
        "decisions": s.decisions,
        "start_player": s.start_player,
        "active": s.active,
        "made_trip": s.made_trip,
        "won_challenge": s.won_challenge,
        "had_troops": s.had_troops,
        "stack": [f.to_dict() for f in s.stack],
        "over": s.over,
        "truncated": s.truncated,
        "end_reason": s.end_reason,
        "played": [copy_record(c) for c in s.played],
        "pool": list(s.pool),
        "contest": None if s.contest is None else copy_record(s.contest),
        "events_left": s.events_left,
    }


def from_dict(cls, game, d: dict):
    """The state of ``to_dict``'s fields, as given (``check_state`` checked them)."""
    s = cls.blank(game, None)
    s.hands = np.array([as_counts(h, DATA.num_kinds) for h in d["hands"]], dtype=np.int64)
    s.known = np.array([as_counts(h, DATA.num_kinds) for h in d["known"]], dtype=np.int64)
    s.thing, s.krog = list(d["thing"]), list(d["krog"])
    base = d["thing_base"]
    s.thing_base = None if base is None else as_counts(base, DATA.num_kinds)
    s.thing_drawn = np.array(
        [as_counts(h, DATA.num_kinds) for h in d["thing_drawn"]], dtype=np.int64
    )
    s.valhalla = as_counts(d["valhalla"], DATA.num_kinds)
    s.troops = [[Troop.from_json(t) for t in ts] for ts in d["troops"]]
    s.pending = None if d["pending"] is None else Troop.from_json(d["pending"])
    s.coins, s.skat = np.asarray(d["coins"], dtype=np.int64), d["skat"]
    s.world = np.asarray(d["world"], dtype=np.int64)
    s.reward_deck = list(d["reward_deck"])
    s.rewards = np.array([as_counts(r, len(DATA.rewards)) for r in d["rewards"]], dtype=np.int64)
    s.revealed = np.array([as_counts(r, len(DATA.rewards)) for r in d["revealed"]], dtype=np.int64)
    s.reward_top_known = d["reward_top_known"]
    s.ch_deck, s.open, s.reserved = list(d["ch_deck"]), list(d["open"]), list(d["reserved"])
    s.won, s.ch_out = [list(w) for w in d["won"]], list(d["ch_out"])
    s.calendar, s.turn, s.start_player, s.active = (
        d["calendar"],
        d["turn"],
        d["start_player"],
        d["active"],
    )
    s.decisions = d["decisions"]
    s.made_trip, s.won_challenge, s.had_troops = (
        d["made_trip"],
        d["won_challenge"],
        d["had_troops"],
    )
    s.stack = [frame_from_dict(f) for f in d["stack"]]
    s.over, s.truncated, s.end_reason = d["over"], d["truncated"], d["end_reason"]
    s.played = [copy_record(c) for c in d["played"]]
    s.pool = list(d["pool"])
    s.contest = None if d["contest"] is None else copy_record(d["contest"])
    s.events_left = d["events_left"]
    return s


def check_state(game, d: dict) -> None:
    """``ValueError`` naming the field for anything a Midgard game cannot have reached."""
    n = game.num_players
    f = Fields(d, "saved midgard state", FIELDS)
    ctx = _read_cards(f, n)
    _read_rest(f, n, ctx)
    _check_troops(f, ctx)
    _check_conservation(f, ctx)
    check_stack(f, ctx)


def _per_seat(f: Fields, n: int, name: str, hi: int) -> list[list[int]]:
    rows = f.list(name, n)
    return [f.ints(f"{name}[{p}]", 0, hi, value=row) for p, row in enumerate(rows)]


def _counts(lists, size: int) -> np.ndarray:
    return np.array([np.bincount(np.asarray(x, dtype=np.int64), minlength=size) for x in lists])


def _read_cards(f: Fields, n: int) -> SimpleNamespace:
    """The cards' places: hands, piles, troops, coins, rewards and challenges."""
    kinds, num_challenges = DATA.num_kinds, len(DATA.challenges)
    ctx = SimpleNamespace(n=n)
    ctx.hands = _counts(_per_seat(f, n, "hands", kinds - 1), kinds)
    ctx.known = _counts(_per_seat(f, n, "known", kinds - 1), kinds)
    ctx.thing, ctx.krog = f.ints("thing", 0, kinds - 1), f.ints("krog", 0, kinds - 1)
    _check_thing_base(f, n, kinds)
    ctx.valhalla = _counts([f.ints("valhalla", 0, kinds - 1)], kinds)[0]
    ctx.troops = []
    for p, ts in enumerate(f.list("troops", n)):
        ts = f.list(f"troops[{p}]", value=ts)
        if len(ts) > MAX_TROOPS:
            f.fail(f"troops[{p}]", f"holds {len(ts)} troops; a player has at most {MAX_TROOPS}")
        ctx.troops.append([_troop(f, f"troops[{p}][{i}]", t) for i, t in enumerate(ts)])
    ctx.pending = None if f.get("pending") is None else _troop(f, "pending", f.get("pending"))
    coins = f.ints("coins", 0, TOTAL_COINS, n)
    skat = f.int("skat", 0, TOTAL_COINS)
    if sum(coins) + skat != TOTAL_COINS:
        f.fail(
            "skat",
            f"{skat} plus the players' 'coins' {coins} must make the game's {TOTAL_COINS} coins",
        )
    f.ints("world", 0, len(WORLD_NAMES) - 1, n)
    ctx.open = f.ints("open", 0, num_challenges - 1)
    ctx.reserved = f.ints("reserved", -1, num_challenges - 1, n)
    challenges = f.ints("ch_deck", 0, num_challenges - 1) + ctx.open
    challenges += [c for c in ctx.reserved if c >= 0] + f.ints("ch_out", 0, num_challenges - 1)
    challenges += [c for row in _per_seat(f, n, "won", num_challenges - 1) for c in row]
    if sorted(challenges) != list(range(num_challenges)):
        f.fail(
            "ch_deck/open/reserved/ch_out/won",
            "must hold every challenge exactly once (challenge conservation)",
        )
    return ctx


def _read_rest(f: Fields, n: int, ctx: SimpleNamespace) -> None:
    """The turn's bookkeeping, the decision stack, the played cards, Loki's pool, the contest."""
    num_rewards = len(DATA.rewards)
    ctx.rewards = _counts(_per_seat(f, n, "rewards", num_rewards - 1), num_rewards)
    ctx.revealed = _counts(_per_seat(f, n, "revealed", num_rewards - 1), num_rewards)
    ctx.reward_deck = f.ints("reward_deck", 0, num_rewards - 1)
    f.int("reward_top_known", -1, num_rewards - 1)
    f.int("calendar", 0, 7)
    f.int("turn", 0, 10**9)
    f.int("decisions", 0, 10**12)
    f.seat("start_player", n)
    ctx.active = f.seat("active", n)
    for name in ("made_trip", "won_challenge", "had_troops"):
        f.bool(name)
    ctx.over, truncated = f.bool("over"), f.bool("truncated")
    reason = f.str("end_reason")
    if truncated and not ctx.over or bool(reason) != ctx.over:
        f.fail("end_reason", f"is {reason!r} ('truncated' {truncated}), but 'over' is {ctx.over}")
    f.int("events_left", 0, 100)
    ctx.stack = f.list("stack")
    for i, frame in enumerate(ctx.stack):
        _check_frame(f, i, frame, n)
    if ctx.over != (not ctx.stack):
        f.fail(
            "stack",
            f"is {'empty' if not ctx.stack else 'not empty'} but 'over' is {ctx.over} (a running "
            "game always has a decision to make)",
        )
    ctx.played = f.list("played")
    for i, c in enumerate(ctx.played):
        pc = Fields(c, f"{f.where}: field 'played[{i}]'", ("k", "s", "x", "imm", "r"))
        pc.int("k", FIRST_ACTION_CARD, DATA.num_kinds - 1)
        pc.int("s", 0, n - 1)
        pc.bool("x")
        imm = pc.ints("imm", 0, n - 1)
        if len(set(imm)) != len(imm):
            pc.fail("imm", f"lists a seat twice: {imm}")
        pc.int("r", -1, len(ctx.stack) - 1, note=" (a depth of the 'stack')")
    ctx.pool = f.ints("pool", 0, DATA.num_kinds - 1)
    ctx.contest = f.get("contest")
    if ctx.contest is not None:
        _check_contest(f, n, ctx)
    in_pool = any(
        fr["m"] == EV_DISCARD and fr["keep"] or fr.get("src") == "pool" for fr in ctx.stack
    )
    if ctx.pool and not in_pool:
        f.fail("pool", f"holds {ctx.pool}, but no Loki's Trick is under way ('stack')")


def _check_contest(f: Fields, n: int, ctx: SimpleNamespace) -> None:
    """A challenge attempt (``ch``) or a battle (``bt``) in progress: its seats, troops and the
    bonus cards placed (face down on the table for a challenge, still in hand for a battle)."""
    where = f"{f.where}: field 'contest'"
    t = Fields(ctx.contest, where).str("t", ("ch", "bt"))
    keys = ("p", "ch", "tr", "ign", "dd") if t == "ch" else ("p", "ti", "q", "di")
    c = Fields(ctx.contest, where, ("t", *keys, "b", "bs", "held"))
    p = c.int("p", 0, n - 1)
    if t == "ch":
        c.int("ch", 0, len(DATA.challenges) - 1)
        mine = c.ints("tr", 0, MAX_TROOPS - 1)
        c.int("ign", 0, 100)
        c.int("dd", -100, 100)
        sides = (None, p)
    else:
        q = c.int("q", 0, n - 1)
        mine = [c.int("ti", 0, MAX_TROOPS - 1)]
        di = c.int("di", -1, MAX_TROOPS - 1)
        if q == p or di >= len(ctx.troops[q]):
            c.fail("q", f"is {q} with troop {di}: the defender is another seat, with that troop")
        sides = (p, q)
    if len(set(mine)) != len(mine) or any(
        ti >= len(ctx.troops[p]) or not ctx.troops[p][ti].engaged for ti in mine
    ):
        c.fail("tr" if t == "ch" else "ti", f"is {mine}, not engaged troops of seat {p} ('troops')")
    b = c.ints("b", -1, DATA.num_kinds - 1, 2)
    bs = c.ints("bs", -1, n - 1, 2)
    held = c.ints("held", FIRST_ACTION_CARD, DATA.num_kinds - 1)
    for side in (0, 1):
        placed = b[side] >= 0
        if placed != (bs[side] >= 0) or (placed and b[side] < FIRST_ACTION_CARD):
            c.fail("b", f"{b} and 'bs' {bs}: a bonus is an event or reaction, with its seat")
        by = sides[side]
        if placed and (bs[side] != by if by is not None else bs[side] == p):
            c.fail("bs", f"is {bs}: the bonus of side {side} is placed by another seat")
    face_down = sorted(k for k in b if k >= 0) if t == "ch" else []
    if sorted(held) != face_down:
        c.fail("held", f"is {held}, but the face-down bonuses ('b') are {face_down}")


def _check_troops(f: Fields, ctx: SimpleNamespace) -> None:
    """Troops on the table are complete, but one whose displaced wildcard waits for its new place;
    the troop being laid down is a partial one."""
    relocating = {(fr["p"], fr["troop"]) for fr in ctx.stack if fr["m"] == RELOCATE}
    for p, ts in enumerate(ctx.troops):
        for i, t in enumerate(ts):
            if not troop_ok(t, (p, i) not in relocating):
                f.fail(f"troops[{p}][{i}]", f"is not a troop that can stand on the table: {t}")
    if ctx.pending is not None and not troop_ok(ctx.pending, False):
        f.fail("pending", f"is not a troop being laid down: {ctx.pending}")


def _check_conservation(f: Fields, ctx: SimpleNamespace) -> None:
    """Every card, every reward in exactly one place; known cards within the hands."""
    stack = ctx.stack
    wild = [fr["wild"] for fr in stack if fr["m"] == RELOCATE]
    total = card_totals(
        ctx.hands,
        ctx.valhalla,
        ctx.thing + ctx.krog,
        ctx.troops,
        ctx.pending,
        wild,
        ctx.played,
        ctx.pool,
        ctx.contest,
    )
    check_conservation(
        f.where,
        total,
        DATA.kind_counts,
        "hands/thing/krog/valhalla/troops/pending/stack/played/pool/contest",
        lambda k: DATA.kind_names[k],
    )
    over_known = ctx.known > ctx.hands + face_down_counts(ctx.contest, ctx.hands.shape)  # MD22
    if over_known.any():
        p = int(np.flatnonzero(over_known.any(axis=1))[0])
        f.fail(
            "known",
            f"says player {p} is known to hold cards it does not hold in 'hands' (hidden "
            "information)",
        )
    num_rewards = len(DATA.rewards)
    held = (
        ctx.rewards.sum(axis=0)
        + ctx.revealed.sum(axis=0)
        + np.bincount(np.asarray(ctx.reward_deck, dtype=np.int64), minlength=num_rewards)
    )
    kept = [k for fr in stack if fr["m"] == KEEP for k in fr["drawn"]]
    held += np.bincount(np.asarray(kept, dtype=np.int64), minlength=num_rewards)
    check_conservation(
        f.where,
        held,
        DATA.reward_counts,
        "rewards/revealed/reward_deck/stack",
        lambda k: f"reward {k}",
    )
