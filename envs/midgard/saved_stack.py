"""Checking a saved Midgard decision stack, frame by frame and against the rest of the state.

``saved.py`` checks that each frame has its mode's keys; a frame below the top is only run later,
when the frames above it are answered, so a lower frame of a wrong shape (a ``chosen`` that is not
a list, a relocation of a troop that does not exist, a reaction window continuing a contest that
is not there) used to load and fail moves later. Here every frame's fields get their type and
range (``check_frame_fields``, before anything counts the cards they hold), and then the stack as a
whole (``check_stack``) is one the engine builds: which modes stand on which (the grammar below,
read off the handlers that push frames in turn.py, onslaught.py, contest.py and cardplay.py), the
seats that decide, and what each frame needs from the rest of the state (the troop being laid
down, the contest, the played cards waiting for their window, the piles a card is taken from).
"""

from __future__ import annotations

from types import SimpleNamespace

from ..core.saved import Fields, is_whole
from . import actions as A
from .cards import CARDS, DATA, FIRST_ACTION_CARD, NUM_CLASSES, REACTION_KINDS, SNEDIG, THOR, TYR
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
    MODE_NAMES,
    MOVE,
    ONSLAUGHT,
    PREP,
    QUEUE_MODES,
    REACT,
    RELOCATE,
    RESERVE,
    SPOILS,
    TAKE,
    TRAVEL,
)
from .troops import EMPTY, LEFT, RIGHT, THOR_TAIL, Troop, relocation_options


def _kinds(card) -> set[str]:
    return {e.kind for e in card.effects}


# The modes a turn's stack starts from (the engine replaces the whole stack with one of them).
BASE = (KROG, PREP, ONSLAUGHT, SPOILS)
# What may stand directly on each mode: a frame is pushed only by the handler of the frame below
# it (or by what runs when that frame's window closes); every other mode is answered, or popped,
# before anything else is pushed, so it can only be on top.
ABOVE = {
    PREP: {BUILD, RELOCATE, CLAIM, REACT, TAKE, MOVE, EV_DISCARD, ENGAGE},
    ONSLAUGHT: {TRAVEL, CHALLENGE, REACT, BONUS, DEFEND, KEEP, TAKE, RESERVE, DISCARD_REQ, MOVE},
    BUILD: {RELOCATE},
    REACT: {REACT, MOVE},
}
CONTINUATIONS = ("played", "engaged", "attacked")  # a window's ``then`` (cardplay.CONTINUE)
# reactions whose effect acts on the card they answer, or on the challenge attempt
ON_A_CARD = {k for k in REACTION_KINDS if {"cancel_card", "immune"} & _kinds(CARDS[k])}
ON_A_CHALLENGE = {
    k for k in REACTION_KINDS if {"ignore_requirement", "difficulty_change"} & _kinds(CARDS[k])
}


# ---- one frame's fields ----------------------------------------------------------------------
def check_frame_fields(fr, m: int, n: int) -> None:
    """The values of frame ``fr`` (a ``Fields`` of the frame's dict, keys already checked) of
    mode ``m``: types and ranges, so that every later check and the engine can read them."""
    seat = (0, n - 1)
    troop = (0, A.MAX_TROOPS - 1)
    if m == KROG:
        fr.int("ender", *seat)
    elif m == RELOCATE:
        fr.int("troop", 0, A.PENDING)
        wild = fr.get("wild")
        if not is_whole(wild) or wild not in (TYR, THOR):
            fr.fail("wild", f"must be Tyr ({TYR}) or Thor ({THOR}), got {wild!r}")
        fr.ints("options", 0, 1)
    elif m == CLAIM:
        fr.int("target", *seat)
        fr.int("troop", *troop)
    elif m == TRAVEL:
        fr.int("world", 0, A.NUM_WORLDS - 1)
        _distinct(fr, "chosen", fr.ints("chosen", *troop))
    elif m == CHALLENGE:
        _challenge(fr, "ch")
        _distinct(fr, "chosen", fr.ints("chosen", *troop))
    elif m == DISCARD_REQ:
        _challenge(fr, "ch")
        _distinct(fr, "troops", fr.ints("troops", *troop))
        fr.int("left", 1, DATA.deck_size)
    elif m == TAKE:
        fr.str("src", ("valhalla", "krog", "pool"))
    elif m == KEEP:
        drawn = fr.ints("drawn", 0, len(DATA.rewards) - 1)
        if len(drawn) < 2:
            fr.fail("drawn", f"is {drawn}: a reward is chosen from two or more (one is kept)")
    elif m == DEFEND:
        fr.int("att", *seat)
        fr.int("troop", *troop)
    else:
        _check_queue_fields(fr, m, n)


def _check_queue_fields(fr, m: int, n: int) -> None:
    """The queue frames' fields (cardplay.py): who is still to be asked, and about what."""
    if m == REACT:
        for i, entry in enumerate(fr.list("queue")):
            pair = fr.list(f"queue[{i}]", 2, value=entry)
            fr.int(f"queue[{i}] seat", 0, n - 1, value=pair[0])
            _reactions(fr, f"queue[{i}] kinds", pair[1])
        fr.bool("card")
        then = fr.get("then")
        if then is not None:
            do = Fields(then, f"{fr.where}: field 'then'", known=("do",))
            do.str("do", CONTINUATIONS)
        if "kinds" in fr.d:
            _reactions(fr, "kinds", fr.get("kinds"))
    elif m == BONUS:
        for i, entry in enumerate(fr.list("queue")):
            pair = fr.ints(f"queue[{i}]", 0, n - 1, 2, value=entry)
            if pair[1] > 1:
                fr.fail(f"queue[{i}]", f"is [seat, side] with side 0 or 1, got {entry!r}")
        fr.int("side", -1, 1)
    elif m in (EV_DISCARD, ENGAGE):
        fr.ints("queue", 0, n - 1)
        if m == EV_DISCARD:
            fr.bool("keep")
            fr.int("by", 0, n - 1)


def _challenge(fr, name: str) -> None:
    fr.int(name, 0, len(DATA.challenges) - 1)


def _distinct(fr, name: str, values: list) -> None:
    if len(set(values)) != len(values):
        fr.fail(name, f"lists a troop twice: {values}")


def _reactions(fr, name: str, value) -> None:
    kinds = fr.ints(name, FIRST_ACTION_CARD, DATA.num_kinds - 1, value=value)
    if not kinds or any(k not in REACTION_KINDS for k in kinds):
        fr.fail(name, f"must list the reaction cards that answer, got {value!r}")


# ---- the stack as a whole --------------------------------------------------------------------
def check_stack(f, ctx: SimpleNamespace) -> None:
    """The saved stack (``f``: the state's ``Fields``; ``ctx``: its values read and checked) is
    one the engine builds, and every frame in it can be run when it reaches the top."""
    stack = ctx.stack
    modes = [fr["m"] for fr in stack]
    if (ctx.pending is not None) != (BUILD in modes):
        f.fail(
            "pending",
            f"is {ctx.pending}, but a troop is being laid down exactly while the 'stack' has a "
            "build decision",
        )
    if not stack:
        return
    names = [MODE_NAMES[m] for m in modes]
    if modes[0] not in BASE or any(m in BASE for m in modes[1:]):
        f.fail(
            "stack",
            f"is {names}: a turn's stack starts from one of "
            f"{[MODE_NAMES[m] for m in BASE]}, and only there",
        )
    for i in range(1, len(stack)):
        if modes[i] not in ABOVE.get(modes[i - 1], ()):
            f.fail("stack", f"is {names}: no decision {names[i - 1]!r} has {names[i]!r} on it")
    for i, fr in enumerate(stack):
        top = i == len(stack) - 1
        if (fr["p"] < 0) != (fr["m"] in QUEUE_MODES and not top):
            f.fail(
                f"stack[{i}]",
                f"has seat {fr['p']}: a queue frame below the top waits (-1), every other frame "
                "names the seat that decides",
            )
        FRAME_NEEDS[fr["m"]](f, ctx, i, fr)
    _check_waiting_cards(f, ctx)
    _check_contest_frames(f, ctx)


def _fail(f, i: int, fr, message: str) -> None:
    f.fail(f"stack[{i}]", f"({MODE_NAMES[fr['m']]}) {message}")


def _turn_frame(f, ctx, i, fr) -> None:
    """Preparation, Onslaught and Spoils are the active seat's; Spoils needs a card to discard."""
    if fr["p"] != ctx.active:
        _fail(f, i, fr, f"is seat {fr['p']}'s, but 'active' is {ctx.active}")
    if fr["m"] == SPOILS and (len(ctx.stack) > 1 or not ctx.hands[fr["p"]].any()):
        _fail(f, i, fr, "is the last decision of a turn, with a card in 'hands' to discard")


def _krog(f, ctx, i, fr) -> None:
    """The Krog top is offered between turns, to a seat after the one whose turn ended."""
    if len(ctx.stack) > 1 or fr["ender"] != ctx.active or fr["p"] == ctx.active or not ctx.krog:
        _fail(
            f,
            i,
            fr,
            f"offers the 'krog' top ({ctx.krog[-1:]}) to seat {fr['p']} after 'active' seat "
            f"{ctx.active}'s turn (ender {fr['ender']}), alone on the stack",
        )


def _build(f, ctx, i, fr) -> None:
    if fr["p"] != ctx.active or ctx.pending is None:
        _fail(f, i, fr, f"lays down 'pending' ({ctx.pending}) for 'active' seat {ctx.active}")


def _relocate(f, ctx, i, fr) -> None:
    """A displaced wildcard goes to one of the places ``relocation_options`` gives its troop (a
    choice of one is made at once), the troop laid down or one of the seat's own."""
    p, ti = fr["p"], fr["troop"]
    below = ctx.stack[i - 1]["m"]
    if ti == A.PENDING:
        troop = ctx.pending if below == BUILD else None
    else:
        troop = ctx.troops[p][ti] if below == PREP and ti < len(ctx.troops[p]) else None
    if p != ctx.active or troop is None or troop.series:
        _fail(f, i, fr, f"moves a wildcard of troop {ti} of seat {p}, which has no such troop")
    if sorted(set(fr["options"])) != fr["options"] or fr["options"] != relocation_options(
        troop, fr["wild"]
    ):
        _fail(f, i, fr, f"offers {fr['options']}, but the troop's ends allow other places")
    if len(fr["options"]) < 2:
        _fail(f, i, fr, "offers a single place (that choice is made at once)")


def _claim(f, ctx, i, fr) -> None:
    q, ti = fr["target"], fr["troop"]
    if fr["p"] != ctx.active or q == fr["p"] or ti >= len(ctx.troops[q]):
        _fail(f, i, fr, f"claims troop {ti} of seat {q}, which is not an opponent's troop")


def _trip(f, ctx, i, fr) -> None:
    """Choosing troops for a trip or a challenge: regrouped troops of the active seat; a challenge
    open (or reserved by the seat)."""
    p = fr["p"]
    regrouped = [t for t, troop in enumerate(ctx.troops[p]) if not troop.engaged]
    if p != ctx.active or any(t not in regrouped for t in fr["chosen"]):
        _fail(f, i, fr, f"chose troops {fr['chosen']}, not all regrouped troops of seat {p}")
    if fr["m"] == TRAVEL and len(fr["chosen"]) >= len(DATA.worlds[fr["world"]].troops):
        _fail(f, i, fr, f"chose {fr['chosen']}, as many troops as the trip takes (it is made)")
    if fr["m"] == CHALLENGE and fr["ch"] not in ctx.open + [ctx.reserved[p]]:
        _fail(f, i, fr, f"faces challenge {fr['ch']}, which is not 'open' or reserved by seat {p}")


def _discard_req(f, ctx, i, fr) -> None:
    c = ctx.contest
    if (
        c is None
        or c["t"] != "ch"
        or (c["p"], c["ch"], c["tr"]) != (fr["p"], fr["ch"], fr["troops"])
    ):
        _fail(
            f, i, fr, f"pays the discard icons of a challenge attempt that 'contest' ({c}) is not"
        )
    if ctx.hands[fr["p"]].sum() < fr["left"]:
        _fail(f, i, fr, f"needs {fr['left']} more cards from seat {fr['p']}'s 'hands'")


def _take(f, ctx, i, fr) -> None:
    src = fr["src"]
    pile = {"valhalla": ctx.valhalla.any(), "krog": bool(ctx.krog), "pool": bool(ctx.pool)}
    if not pile[src]:
        _fail(f, i, fr, f"takes a card from {src!r}, which is empty")


def _reserve(f, ctx, i, fr) -> None:
    if not ctx.open:
        _fail(f, i, fr, "reserves one of the 'open' challenges, but none is open")


def _defend(f, ctx, i, fr) -> None:
    c = ctx.contest
    if (
        c is None
        or c["t"] != "bt"
        or (c["q"], c["p"], c["ti"]) != (fr["p"], fr["att"], fr["troop"])
    ):
        _fail(f, i, fr, f"answers an attack that 'contest' ({c}) is not")


def _react(f, ctx, i, fr) -> None:
    """A reaction window: a card window answers the card waiting on top of 'played'; the other
    continuations resume the contest; the seat asked knows what it may play."""
    then = None if fr["then"] is None else fr["then"]["do"]
    if fr["card"] != (then == "played"):
        _fail(f, i, fr, f"is a card window ({fr['card']}) exactly when it continues 'played'")
    want = {"engaged": "ch", "attacked": "bt"}.get(then)
    if want and (ctx.contest is None or ctx.contest["t"] != want):
        _fail(f, i, fr, f"continues {then!r}, but 'contest' is {ctx.contest}")
    if fr["p"] >= 0 and "kinds" not in fr:
        _fail(f, i, fr, f"asks seat {fr['p']} without the reactions it may play ('kinds')")


def _bonus(f, ctx, i, fr) -> None:
    if ctx.contest is None:
        _fail(f, i, fr, "asks for bonus cards, but there is no 'contest'")
    if fr["p"] >= 0 and fr["side"] not in (0, 1):
        _fail(f, i, fr, f"asks seat {fr['p']} for a bonus on side {fr['side']}")


def _ev_discard(f, ctx, i, fr) -> None:
    if fr["p"] >= 0 and not ctx.hands[fr["p"]].any():
        _fail(f, i, fr, f"asks seat {fr['p']} to discard, but its 'hands' are empty")


def _engage(f, ctx, i, fr) -> None:
    p = fr["p"]
    if p >= 0 and all(t.engaged for t in ctx.troops[p]):
        _fail(f, i, fr, f"asks seat {p} to engage one of its regrouped 'troops'; it has none")


def _nothing(f, ctx, i, fr) -> None:
    """(Frames whose fields are all they need.)"""


FRAME_NEEDS = {
    KROG: _krog,
    PREP: _turn_frame,
    ONSLAUGHT: _turn_frame,
    SPOILS: _turn_frame,
    BUILD: _build,
    RELOCATE: _relocate,
    CLAIM: _claim,
    TRAVEL: _trip,
    CHALLENGE: _trip,
    DISCARD_REQ: _discard_req,
    TAKE: _take,
    RESERVE: _reserve,
    KEEP: _nothing,
    DEFEND: _defend,
    REACT: _react,
    BONUS: _bonus,
    EV_DISCARD: _ev_discard,
    ENGAGE: _engage,
    MOVE: _nothing,
}


def _check_waiting_cards(f, ctx) -> None:
    """Played cards: those resolving (``r`` >= 0, their effects' frames above depth ``r``) first,
    then one waiting (``r`` -1) for each open card window; a waiting reaction that acts on a card
    answers one, one that acts on a challenge needs the attempt."""
    played, depth = ctx.played, len(ctx.stack)
    waiting = [c for c in played if c["r"] < 0]
    resolving = [c["r"] for c in played if c["r"] >= 0]
    windows = sum(1 for fr in ctx.stack if fr["m"] == REACT and fr["card"])
    if played[len(resolving) :] != waiting or resolving != sorted(resolving):
        f.fail("played", "lists the cards resolving (r >= 0, by depth) before those waiting (-1)")
    if len(waiting) != windows or any(r >= depth for r in resolving):
        f.fail(
            "played",
            f"has {len(waiting)} cards waiting and depths {resolving}, but the 'stack' has "
            f"{windows} card windows and {depth} frames",
        )
    for j, c in enumerate(played):
        if c["r"] < 0 and c["k"] in ON_A_CARD and j == 0:
            f.fail("played", f"has reaction {c['k']} waiting with no card below it to answer")
        if (
            c["r"] < 0
            and c["k"] in ON_A_CHALLENGE
            and (not ctx.contest or ctx.contest["t"] != "ch")
        ):
            f.fail("played", f"has reaction {c['k']} waiting with no challenge 'contest'")


def _check_contest_frames(f, ctx) -> None:
    """A challenge attempt or battle is in progress exactly while a frame of it is on the stack."""
    of_contest = any(
        fr["m"] in (DISCARD_REQ, BONUS, DEFEND)
        or (fr["m"] == REACT and fr["then"] is not None and fr["then"]["do"] != "played")
        for fr in ctx.stack
    )
    if (ctx.contest is not None) != of_contest:
        f.fail(
            "contest",
            f"is {ctx.contest}, but the 'stack' {'has' if of_contest else 'has no'} frame of a "
            "challenge attempt or battle",
        )


def partial_line_ok(line) -> bool:
    """A sequence line as laying down leaves it between placements: flanks hold Snedig/Tyr (or
    nothing), the occupied class slots one run (possibly empty), naturals in their own slot,
    every Thor head followed by its tail."""
    if line[LEFT] not in (EMPTY, SNEDIG, TYR) or line[RIGHT] not in (EMPTY, SNEDIG, TYR):
        return False
    occ = [c for c in range(NUM_CLASSES) if line[c + 1] != EMPTY]
    if occ and occ[-1] - occ[0] + 1 != len(occ):
        return False
    for c in occ:
        k = line[c + 1]
        if k == THOR and (c == NUM_CLASSES - 1 or line[c + 2] != THOR_TAIL):
            return False
        if k == THOR_TAIL and (c == 0 or line[c] != THOR):
            return False
        if k not in (THOR, THOR_TAIL, TYR, c):
            return False
    return True


def troop_ok(t: Troop, complete: bool) -> bool:
    """A troop on the table is complete (``is_valid``); one being laid down or waiting for a
    displaced wildcard's relocation is a partial line or a series with a natural card."""
    if complete:
        return t.is_valid()
    if t.series:
        return t.nat >= 1
    return partial_line_ok(t.line)
