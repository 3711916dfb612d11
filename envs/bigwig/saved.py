"""A saved BigWig state: its fields (``to_dict``, ``from_dict``) and their check before a state is
built (``check_state``): every field's type, size and range, conservation of the large cards, the
wells and the altar pile's small cards, face-down commits only by the trick's players (hidden
information), the hand limit and the round's bookkeeping (see envs/core/saved.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.saved import Fields, check_conservation
from .actions import (
    NONE,
    PHASE_COMMIT,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_STAKE,
    PHASE_TARGET,
    PHASE_TICKET,
)
from .cards import (
    HAND_LIMIT,
    HOLMGANG,
    KIND_COPIES,
    NUM_HOLMGANGS,
    NUM_KINDS,
    NUM_POINT_KINDS,
    NUM_SMALL_KINDS,
    SMALL_COPIES,
    SMALL_TOTAL,
    TIL_VALHALLAR,
    WELL,
    card_name,
    small_name,
)
from .origins import Origins

if TYPE_CHECKING:
    from .rules import BigWigGame, BigWigState

FIELDS = (
    "current_player",
    "phase",
    "hands",
    "well",
    "draw",
    "discard",
    "small",
    "collected",
    "altar",
    "holmgangs",
    "round",
    "round_card",
    "point_on_table",
    "trump",
    "participants",
    "commits",
    "challenger",
    "target",
    "stake",
    "joiners",
    "tickets",
    "queue",
    "last_trick",
    "last_winner",
    "origins",
)


def to_dict(st: BigWigState) -> dict:
    """The state's fields as JSON values (``BigWigState.to_dict``'s ``state``)."""
    return {
        "current_player": st.current_player,
        "phase": st.phase,
        "hands": st.hands.tolist(),
        "well": list(st.well),
        "draw": list(st.draw),
        "discard": st.discard.tolist(),
        "small": list(st.small),
        "collected": st.collected.tolist(),
        "altar": st.altar.tolist(),
        "holmgangs": st.holmgangs,
        "round": st.round,
        "round_card": st.round_card,
        "point_on_table": st.point_on_table,
        "trump": list(st.trump),
        "participants": list(st.participants),
        "commits": list(st.commits),
        "challenger": st.challenger,
        "target": st.target,
        "stake": st.stake,
        "joiners": list(st.joiners),
        "tickets": list(st.tickets),
        "queue": list(st.queue),
        "last_trick": list(st.last_trick),
        "last_winner": st.last_winner,
        "origins": st.origins.to_dict(),
    }


def from_dict(cls: type[BigWigState], game: BigWigGame, d: dict) -> BigWigState:
    """Build a ``cls`` state from ``to_dict``'s fields as given (after ``check_state``)."""
    s = cls.__new__(cls)
    s.game = game
    s.current_player, s.phase = d["current_player"], d["phase"]
    s.hands = np.asarray(d["hands"], dtype=np.int64).reshape(game.num_players, NUM_KINDS)
    s.well, s.draw = [bool(x) for x in d["well"]], list(d["draw"])
    s.discard = np.asarray(d["discard"], dtype=np.int64)
    s.small = list(d["small"])
    s.collected = np.asarray(d["collected"], dtype=np.int64).reshape(
        game.num_players, NUM_POINT_KINDS
    )
    s.altar = np.asarray(d["altar"], dtype=np.int64)
    s.holmgangs, s.round, s.round_card = d["holmgangs"], d["round"], d["round_card"]
    s.point_on_table, s.trump = bool(d["point_on_table"]), [bool(x) for x in d["trump"]]
    s.participants, s.commits = list(d["participants"]), list(d["commits"])
    s.challenger, s.target, s.stake = d["challenger"], d["target"], d["stake"]
    s.joiners, s.queue = list(d["joiners"]), list(d["queue"])
    s.tickets = list(d["tickets"])
    s.last_trick, s.last_winner = list(d["last_trick"]), d["last_winner"]
    s.origins = Origins.from_dict(d["origins"])
    return s


def check_state(game, d: dict) -> None:
    """``ValueError`` naming the field for anything a BigWig game cannot have reached."""
    n = game.num_players
    f = Fields(d, "saved bigwig state", FIELDS)
    phase = f.int("phase", 0, len(PHASE_NAMES) - 1)
    cp = f.seat("current_player", n, none=True)
    hands = f.matrix("hands", n, NUM_KINDS, hi=2)
    well = f.bools("well", n)
    draw = f.ints("draw", 0, NUM_KINDS - 1)
    discard = f.counts("discard", NUM_KINDS, 2)
    small = f.ints("small", 0, NUM_SMALL_KINDS - 1)
    collected = f.matrix("collected", n, NUM_POINT_KINDS, hi=2)
    altar = f.counts("altar", NUM_POINT_KINDS, 2)
    holmgangs = f.int("holmgangs", 0, NUM_HOLMGANGS)
    rnd = f.int("round", 0, SMALL_TOTAL)
    round_card = f.int("round_card", NONE, NUM_SMALL_KINDS - 1)
    on_table = f.bool("point_on_table")
    f.bools("trump", 4)
    participants = f.ints("participants", 0, n - 1)
    commits = f.ints("commits", NONE, WELL, n)
    challenger = f.int("challenger", NONE, n - 1)
    f.int("target", NONE, n - 1)
    f.int("stake", NONE, NUM_POINT_KINDS - 1)
    joiners = f.ints("joiners", 0, n - 1)
    tickets = f.ints("tickets", 0, n - 1)
    queue = f.ints("queue", 0, n - 1)
    f.ints("last_trick", NONE, WELL, n)
    f.int("last_winner", NONE, n - 1)
    _check_origins(f, f.get("origins"), n, hands, commits)
    if (phase == PHASE_OVER) != (cp is None):
        f.fail("current_player", f"is {cp!r} but the phase is {PHASE_NAMES[phase]}")
    for name, seats in (("participants", participants), ("joiners", joiners), ("tickets", tickets)):
        if len(set(seats)) != len(seats):
            f.fail(name, f"lists a seat twice: {seats}")
    large = hands.sum(axis=0) + discard
    for k in draw + [c for c in commits if c not in (NONE, WELL)]:
        large[k] += 1
    check_conservation(f.where, large, KIND_COPIES, "hands/draw/discard/commits", card_name)
    for q in range(n):
        if well[q] == (commits[q] == WELL):
            f.fail(
                "well",
                f"player {q}'s well must be either in hand or played face down, not "
                f"{'both' if well[q] else 'neither'}",
            )
        if commits[q] != NONE and q not in participants:
            f.fail(
                "commits",
                f"player {q} has a face-down card but does not play in this trick "
                "(hidden information)",
            )
    _check_altar_pile(f, collected, altar, small, holmgangs, on_table, round_card, rnd)
    sizes = hands.sum(axis=1) + [w + (c not in (NONE, WELL)) for w, c in zip(well, commits)]
    if (sizes > HAND_LIMIT).any():
        f.fail("hands", f"a player holds more than {HAND_LIMIT} cards: {sizes.tolist()}")
    if phase == PHASE_COMMIT and cp not in participants:
        f.fail("current_player", f"is {cp!r}, who does not play in this trick ({participants})")
    _check_tickets(f, phase, cp, queue, tickets, hands)
    if phase in (PHASE_TARGET, PHASE_STAKE) and (cp != challenger or round_card != HOLMGANG):
        f.fail(
            "phase",
            f"is {PHASE_NAMES[phase]}, which needs a holmgang round and the challenger to act",
        )


def _check_altar_pile(
    f: Fields, collected, altar, small, holmgangs, on_table, round_card, rnd
) -> None:
    """The small cards: collected, under the altar, in the altar pile, the point card on the table
    and the holmgangs revealed make up the 24; the round count fits the cards revealed."""
    pile = collected.sum(axis=0).tolist() + [holmgangs]
    pile[:NUM_POINT_KINDS] = [a + b for a, b in zip(pile, altar.tolist())]
    for k in small:
        pile[k] += 1
    if on_table:
        if not 0 <= round_card < NUM_POINT_KINDS:
            f.fail(
                "point_on_table",
                f"is true, but the round's card is {round_card} (not a point card)",
            )
        pile[round_card] += 1
    check_conservation(
        f.where, pile, SMALL_COPIES, "collected/altar/small/round_card/holmgangs", small_name
    )
    if rnd > SMALL_TOTAL - len(
        small
    ):  # each round reveals one card (a scenario may lack some rounds)
        f.fail(
            "round", f"is {rnd}, but only {SMALL_TOTAL - len(small)} cards have left the altar pile"
        )
    if round_card == NONE and rnd:
        f.fail("round_card", "is missing (-1) after the first round started")


def _check_tickets(f: Fields, phase: int, cp, queue, tickets, hands) -> None:
    """The ticket window (B27): the seat asked heads the queue of onlookers still to decide, and
    a secret join exists only in the window, by a seat that has decided and holds a ticket."""
    if phase == PHASE_TICKET and (not queue or cp != queue[0]):
        f.fail("queue", f"is {queue}, but player {cp!r} is asked about a ticket")
    if tickets and phase != PHASE_TICKET:
        f.fail("tickets", f"lists secret joins {tickets} outside the ticket window")
    for s in tickets:
        if s in queue or not hands[s, TIL_VALHALLAR]:
            f.fail("tickets", f"player {s} joins in secret but has not decided or holds no ticket")


def _check_origins(f: Fields, value, n: int, hands, commits) -> None:
    """The public record of the draw piles (``origins.py``): its shape, and as many cards on record
    for each seat as it holds unseen (hand and face-down card)."""
    o = Fields(value, f"{f.where}: field 'origins'", ("piles", "unattributed"))
    piles = o.list("piles")
    if not piles:
        o.fail("piles", "must list at least the dealt deck")
    held = [0] * n
    for b, pile in enumerate(piles):
        where = f"{f.where}: field 'origins.piles[{b}]'"
        p = Fields(pile, where, ("cards", "left", "held", "drawn"))
        p.ints("cards", 0, 2, NUM_KINDS)
        p.ints("left", -1, 2, NUM_KINDS)
        held = [a + x for a, x in zip(held, p.ints("held", -NUM_KINDS, NUM_KINDS, n))]
        p.ints("drawn", 0, 10**6, n)
    plays = o.list("unattributed", n)
    for q, row in enumerate(plays):
        for play in o.list(f"unattributed[{q}]", value=row):
            entry = o.list(f"unattributed[{q}] entry", 2, value=play)
            o.int(f"unattributed[{q}] kind", 0, NUM_KINDS - 1, value=entry[0])
            o.ints(f"unattributed[{q}] piles", 0, len(piles) - 1, value=entry[1])
    for q in range(n):
        unseen = int(hands[q].sum()) + (commits[q] not in (NONE, WELL))
        if held[q] - len(plays[q]) != unseen:
            f.fail(
                "origins",
                f"has {held[q] - len(plays[q])} cards of player {q} on record, "
                f"but it holds {unseen} unseen (hidden information)",
            )
