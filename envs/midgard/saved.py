"""Checking a saved Midgard state (``MidgardState.from_dict``) before it is built: every field's
type, size and range, troops as troops, conservation of the cards, coins, rewards and
challenges, publicly known cards within the hands (hidden information), and the decision stack
against the end of the game (see envs/core/saved.py)."""

from __future__ import annotations

import numpy as np

from ..core.saved import Fields, check_conservation
from .actions import MAX_TROOPS
from .cards import DATA, NUM_CLASSES, THOR, WORLD_NAMES
from .frames import frame_keys
from .info import card_totals, face_down_counts
from .modes import MODE_NAMES, REACT, RELOCATE, TOTAL_COINS
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


def check_state(game, d: dict) -> None:
    """``ValueError`` naming the field for anything a Midgard game cannot have reached."""
    n, kinds = game.num_players, DATA.num_kinds
    num_rewards, num_challenges = len(DATA.rewards), len(DATA.challenges)
    f = Fields(d, "saved midgard state", FIELDS)

    def per_seat(name, hi):
        rows = f.list(name, n)
        return [f.ints(f"{name}[{p}]", 0, hi, value=row) for p, row in enumerate(rows)]

    def counts(lists, size):
        return np.array([np.bincount(np.asarray(x, dtype=np.int64), minlength=size) for x in lists])

    hands, known = (
        counts(per_seat("hands", kinds - 1), kinds),
        counts(per_seat("known", kinds - 1), kinds),
    )
    piles = f.ints("thing", 0, kinds - 1) + f.ints("krog", 0, kinds - 1)
    _check_thing_base(f, n, kinds)
    valhalla = counts([f.ints("valhalla", 0, kinds - 1)], kinds)[0]
    troops = []
    for p, ts in enumerate(f.list("troops", n)):
        ts = f.list(f"troops[{p}]", value=ts)
        if len(ts) > MAX_TROOPS:
            f.fail(f"troops[{p}]", f"holds {len(ts)} troops; a player has at most {MAX_TROOPS}")
        troops.append([_troop(f, f"troops[{p}][{i}]", t) for i, t in enumerate(ts)])
    pending = None if f.get("pending") is None else _troop(f, "pending", f.get("pending"))
    coins = f.ints("coins", 0, TOTAL_COINS, n)
    skat = f.int("skat", 0, TOTAL_COINS)
    if sum(coins) + skat != TOTAL_COINS:
        f.fail(
            "skat",
            f"{skat} plus the players' coins {coins} must make the game's {TOTAL_COINS} coins",
        )
    f.ints("world", 0, len(WORLD_NAMES) - 1, n)
    rewards = counts(per_seat("rewards", num_rewards - 1), num_rewards)
    revealed = counts(per_seat("revealed", num_rewards - 1), num_rewards)
    deck = f.ints("reward_deck", 0, num_rewards - 1)
    f.int("reward_top_known", -1, num_rewards - 1)
    challenges = f.ints("ch_deck", 0, num_challenges - 1) + f.ints("open", 0, num_challenges - 1)
    challenges += [c for c in f.ints("reserved", -1, num_challenges - 1, n) if c >= 0]
    challenges += f.ints("ch_out", 0, num_challenges - 1)
    challenges += [c for row in per_seat("won", num_challenges - 1) for c in row]
    if sorted(challenges) != list(range(num_challenges)):
        f.fail(
            "ch_deck/open/reserved/ch_out/won",
            "must hold every challenge exactly once (challenge conservation)",
        )
    f.int("calendar", 0, 7)
    f.int("turn", 0, 10**9)
    f.int("decisions", 0, 10**12)
    f.seat("start_player", n)
    f.seat("active", n)
    for name in ("made_trip", "won_challenge", "had_troops", "truncated"):
        f.bool(name)
    over = f.bool("over")
    f.str("end_reason")
    f.int("events_left", 0, 100)
    stack = f.list("stack")
    for i, frame in enumerate(stack):
        _check_frame(f, i, frame, n)
    if over != (not stack):
        f.fail(
            "stack",
            f"is {'empty' if not stack else 'not empty'} but 'over' is {over} (a running game "
            "always has a decision to make)",
        )
    played = f.list("played")
    for i, c in enumerate(played):
        pc = Fields(c, f"{f.where}: field 'played[{i}]'")
        pc.int("k", 0, kinds - 1)
        pc.int("s", 0, n - 1)
    pool = f.ints("pool", 0, kinds - 1)
    contest = f.get("contest")
    if contest is not None:
        c = Fields(contest, f"{f.where}: field 'contest'")
        c.ints("held", 0, kinds - 1)
        c.str("t", ("ch", "bt"))
        if contest["t"] == "ch":
            c.ints("b", -1, kinds - 1, 2)
            c.ints("bs", -1, n - 1, 2)
    wild = [fr["wild"] for fr in stack if fr["m"] == RELOCATE]
    total = card_totals(hands, valhalla, piles, troops, pending, wild, played, pool, contest)
    check_conservation(
        f.where,
        total,
        DATA.kind_counts,
        "hands/thing/krog/valhalla/troops/pending/stack/played/pool/contest",
        lambda k: DATA.kind_names[k],
    )
    over_known = known > hands + face_down_counts(contest, hands.shape)  # MD22: bonuses count
    if over_known.any():
        p = int(np.flatnonzero(over_known.any(axis=1))[0])
        f.fail(
            "known", f"says player {p} is known to hold cards it does not hold (hidden information)"
        )
    held = (
        rewards.sum(axis=0)
        + revealed.sum(axis=0)
        + np.bincount(np.asarray(deck, dtype=np.int64), minlength=num_rewards)
    )
    kept = [k for fr in stack if "drawn" in fr for k in fr["drawn"]]
    held += np.bincount(np.asarray(kept, dtype=np.int64), minlength=num_rewards)
    check_conservation(
        f.where,
        held,
        DATA.reward_counts,
        "rewards/revealed/reward_deck/stack",
        lambda k: f"reward {k}",
    )
