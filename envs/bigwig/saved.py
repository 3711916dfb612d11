"""A saved BigWig state: its fields (``to_dict``, ``from_dict``) and their check before a state is
built (``check_state``): every field's type, size and range, conservation of the large cards, the
wells and the altar pile's small cards, face-down commits only by the trick's players (hidden
information), the hand limit and the round's bookkeeping (see envs/core/saved.py)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from ..core.saved import Fields, check_conservation
from .actions import (
    NONE,
    PHASE_COMMIT,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_SACRIFICE,
    PHASE_STAKE,
    PHASE_TARGET,
    PHASE_TICKET,
)
from .cards import (
    DECK_SIZE,
    HAND_LIMIT,
    HOLMGANG,
    KIND_COPIES,
    NUM_HOLMGANGS,
    NUM_KINDS,
    NUM_POINT_KINDS,
    NUM_SMALL_KINDS,
    POINT_TRUMP,
    POINT_VP,
    SMALL_COPIES,
    SMALL_TOTAL,
    TIL_VALHALLAR,
    WELL,
    card_name,
    small_name,
)
from .holmgang import challenger_of
from .origins import Origins

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


def to_dict(st) -> dict:
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


def from_dict(cls, game, d: dict):
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
    f = Fields(d, "saved bigwig state", FIELDS)
    v = _read(f, game.num_players)
    _check_cards(f, v, game.num_players)
    _check_altar_pile(f, v)
    _check_round(f, game, v)
    PHASE_CHECKS[v.phase](f, game, v)
    _check_origins(f, v, game.num_players)


def _read(f: Fields, n: int) -> SimpleNamespace:
    """Every field, its type, size and range checked."""
    v = SimpleNamespace()
    v.phase = f.int("phase", 0, len(PHASE_NAMES) - 1)
    v.cp = f.seat("current_player", n, none=True)
    v.hands = f.matrix("hands", n, NUM_KINDS, hi=2)
    v.well = f.bools("well", n)
    v.draw = f.ints("draw", 0, NUM_KINDS - 1)
    v.discard = f.counts("discard", NUM_KINDS, 2)
    v.small = f.ints("small", 0, NUM_SMALL_KINDS - 1)
    v.collected = f.matrix("collected", n, NUM_POINT_KINDS, hi=2)
    v.altar = f.counts("altar", NUM_POINT_KINDS, 2)
    v.holmgangs = f.int("holmgangs", 0, NUM_HOLMGANGS)
    v.round = f.int("round", 0, SMALL_TOTAL)
    v.round_card = f.int("round_card", NONE, NUM_SMALL_KINDS - 1)
    v.on_table = f.bool("point_on_table")
    v.trump = f.bools("trump", 4)
    v.participants = f.ints("participants", 0, n - 1)
    v.commits = f.ints("commits", NONE, WELL, n)
    v.challenger = f.int("challenger", NONE, n - 1)
    v.target = f.int("target", NONE, n - 1)
    v.stake = f.int("stake", NONE, NUM_POINT_KINDS - 1)
    v.joiners = f.ints("joiners", 0, n - 1)
    v.tickets = f.ints("tickets", 0, n - 1)
    v.queue = f.ints("queue", 0, n - 1)
    v.last_trick = f.ints("last_trick", NONE, WELL, n)
    v.last_winner = f.int("last_winner", NONE, n - 1)
    v.origins = f.get("origins")
    for name in ("participants", "joiners", "tickets", "queue"):
        seats = getattr(v, name)
        if len(set(seats)) != len(seats):
            f.fail(name, f"lists a seat twice: {seats}")
    return v


def _check_cards(f: Fields, v, n: int) -> None:
    """The large cards: each copy in one place, each well in hand or face down, face-down cards
    only by the trick's players, the hand limit."""
    large = v.hands.sum(axis=0) + v.discard
    for k in v.draw + [c for c in v.commits if c not in (NONE, WELL)]:
        large[k] += 1
    check_conservation(f.where, large, KIND_COPIES, "hands/draw/discard/commits", card_name)
    for q in range(n):
        if v.well[q] == (v.commits[q] == WELL):
            f.fail(
                "well",
                f"player {q}'s well must be either in hand or played face down ('commits'), not "
                f"{'both' if v.well[q] else 'neither'}",
            )
        if v.commits[q] != NONE and (v.phase != PHASE_COMMIT or q not in v.participants):
            f.fail(
                "commits",
                f"player {q} has a face-down card, but only the players of a trick ('participants')"
                f" have one, in the commit 'phase' (hidden information)",
            )
    sizes = v.hands.sum(axis=1) + [w + (c not in (NONE, WELL)) for w, c in zip(v.well, v.commits)]
    if (sizes > HAND_LIMIT).any():
        f.fail("hands", f"a player holds more than {HAND_LIMIT} cards: {sizes.tolist()}")


def _check_altar_pile(f: Fields, v) -> None:
    """The small cards: collected, under the altar, in the altar pile, the point card on the table
    and the holmgangs revealed make up the 24; the round count fits the cards revealed."""
    pile = v.collected.sum(axis=0).tolist() + [v.holmgangs]
    pile[:NUM_POINT_KINDS] = [a + b for a, b in zip(pile, v.altar.tolist())]
    for k in v.small:
        pile[k] += 1
    if v.on_table:
        if not 0 <= v.round_card < NUM_POINT_KINDS:
            f.fail(
                "point_on_table",
                f"is true, but the round's card ('round_card') is {v.round_card} (not a point "
                "card)",
            )
        pile[v.round_card] += 1
    check_conservation(
        f.where,
        pile,
        SMALL_COPIES,
        "collected/altar/small/round_card/point_on_table/holmgangs",
        small_name,
    )
    revealed = SMALL_TOTAL - len(v.small)
    if not 1 <= v.round <= revealed:  # each round reveals one card (a scenario may lack some)
        f.fail("round", f"is {v.round}, but {revealed} cards have left the altar pile ('small')")
    if v.round_card == NONE:
        f.fail("round_card", "is missing (-1), but every position has the round's card revealed")


def _check_round(f: Fields, game, v) -> None:
    """What every phase shares: the round's kind (a point card or a holmgang) against the duel's
    fields and the holmgang count, and the last trick's record."""
    holmgang = v.round_card == HOLMGANG
    if (v.phase == PHASE_OVER) != (v.cp is None):
        f.fail("current_player", f"is {v.cp!r} but the 'phase' is {PHASE_NAMES[v.phase]}")
    if v.on_table != (v.phase == PHASE_COMMIT and not holmgang):
        f.fail(
            "point_on_table",
            f"is {v.on_table}, but the point card is on the table exactly while a point round's "
            f"trick is played ('phase' {PHASE_NAMES[v.phase]}, 'round_card' {v.round_card})",
        )
    duel = {"challenger": v.challenger, "target": v.target, "stake": v.stake}
    for name, x in duel.items():
        if not holmgang and x != NONE:
            f.fail(name, f"is {x}, but only a holmgang round ('round_card') has a duel")
    if v.joiners and not (holmgang and v.phase in (PHASE_COMMIT, PHASE_SACRIFICE, PHASE_OVER)):
        f.fail("joiners", "join a holmgang's trick: only after its ticket window ('phase')")
    if holmgang and v.holmgangs < 1:
        f.fail("holmgangs", "is 0, but the round's card ('round_card') is a holmgang")
    if v.holmgangs == NUM_HOLMGANGS and not holmgang:
        f.fail(
            "holmgangs",
            f"is {NUM_HOLMGANGS}: the game ends with that holmgang's round, yet 'round_card' is "
            f"{v.round_card}",
        )
    if v.tickets and v.phase != PHASE_TICKET:
        f.fail("tickets", f"lists secret joins {v.tickets} outside the ticket window ('phase')")
    if v.phase != PHASE_TICKET and v.queue and v.phase != PHASE_SACRIFICE:
        f.fail(
            "queue",
            f"is {v.queue}, but only the ticket window and the well draws have one ('phase' is "
            f"{PHASE_NAMES[v.phase]})",
        )
    w = v.last_winner
    if w != NONE and v.last_trick[w] in (NONE, WELL):
        f.fail("last_winner", f"is player {w}, who played no card in 'last_trick' {v.last_trick}")
    if v.phase == PHASE_COMMIT and v.trump != _trump_of(v):
        f.fail(
            "trump",
            f"is {v.trump}, but the trick's colours are the point card's ('round_card', or the "
            "'stake' in a holmgang)",
        )


def _trump_of(v) -> list[bool]:
    card = v.stake if v.round_card == HOLMGANG else v.round_card
    return POINT_TRUMP[card].tolist() if 0 <= card < NUM_POINT_KINDS else [False] * 4


def _check_target(f: Fields, game, v) -> None:
    """The challenger (the fewest VP, B24) picks a target among the seats holding a point card."""
    _check_challenger(f, game, v, "target")
    if v.target != NONE or v.stake != NONE:
        f.fail("target", f"and 'stake' are {v.target}, {v.stake} in the target 'phase'")
    n = game.num_players
    if not any(v.collected[q].any() for q in range(n) if q != v.cp):
        f.fail(
            "collected",
            f"shows no point card but player {v.cp}'s, so there is nobody to challenge (B25) in "
            "the target 'phase'",
        )


def _check_stake(f: Fields, game, v) -> None:
    """The challenger picks one of the target's point cards."""
    _check_challenger(f, game, v, "stake")
    if v.target in (NONE, v.challenger) or not v.collected[v.target].any():
        f.fail(
            "target",
            f"is {v.target}: the stake 'phase' needs another seat holding a point card "
            "('collected')",
        )
    if v.stake != NONE:
        f.fail("stake", f"is {v.stake} in the stake 'phase', before it is chosen")


def _check_ticket(f: Fields, game, v) -> None:
    """The onlookers decide in age order; the asked seat heads the queue of those still to
    decide, the secret joins are by seats that decided and hold a ticket (B27)."""
    _check_duel(f, game, v)
    onlookers = [s for s in game.age_order if s not in (v.challenger, v.target)]
    if not v.queue or v.cp != v.queue[0] or v.queue != onlookers[len(onlookers) - len(v.queue) :]:
        f.fail(
            "queue",
            f"is {v.queue}, but the ticket 'phase' asks 'current_player' {v.cp} first of the "
            f"onlookers still to decide, in age order (the last of {onlookers}: every seat but "
            f"the 'challenger' {v.challenger} and the 'target' {v.target})",
        )
    decided = onlookers[: len(onlookers) - len(v.queue)]
    if [s for s in decided if s in v.tickets] != v.tickets:
        f.fail("tickets", f"{v.tickets}: a secret join is by an onlooker that decided ('queue')")
    for s in v.tickets:
        if not v.hands[s, TIL_VALHALLAR]:
            f.fail("tickets", f"player {s} joins in secret but holds no Til Valhallar ('hands')")


def _check_commit(f: Fields, game, v) -> None:
    """The trick's players commit one at a time in their order; the asked seat is the first that
    has not committed, and every seat before it has."""
    if v.round_card == HOLMGANG:
        _check_duel(f, game, v)
        onlookers = [s for s in game.age_order if s not in (v.challenger, v.target)]
        if [s for s in onlookers if s in v.joiners] != v.joiners:
            f.fail(
                "joiners",
                f"{v.joiners} must be onlookers (not the 'challenger' or the 'target'), in age "
                "order",
            )
        players = {v.challenger, v.target, *v.joiners}
    else:
        players = set(range(game.num_players))
    if v.participants != [s for s in game.turn_order if s in players]:
        f.fail(
            "participants",
            f"is {v.participants}, but this trick is played by {sorted(players)}, youngest first, "
            "then clockwise ('round_card', 'challenger', 'target', 'joiners')",
        )
    waiting = [s for s in v.participants if v.commits[s] == NONE]
    done = len(v.participants) - len(waiting)
    if not waiting or v.cp != waiting[0] or waiting != v.participants[done:]:
        f.fail(
            "current_player",
            f"is {v.cp!r}, but in the commit 'phase' the first player of 'participants' that has "
            f"not committed is asked ('commits' {v.commits})",
        )


def _check_sacrifice(f: Fields, game, v) -> None:
    """After the trick, the seats that played their well draw in the trick's order; the asked seat
    heads the queue and holds a card to sacrifice (an empty hand draws at once, B22)."""
    if v.round_card == HOLMGANG:
        _check_duel(f, game, v, before_trick=False)
    wells = [s for s in v.participants if v.last_trick[s] == WELL]
    if not v.queue or v.queue != wells[len(wells) - len(v.queue) :]:
        f.fail(
            "queue",
            f"is {v.queue}, but the sacrifice 'phase' needs the seats still to draw, the last of "
            f"those that played their well in 'last_trick' ({wells}, 'participants')",
        )
    if v.cp != v.queue[0] or not v.hands[v.cp].any():
        f.fail(
            "current_player",
            f"is {v.cp!r}: the sacrifice 'phase' asks the head of 'queue' ({v.queue[0]}), who "
            "holds a card to sacrifice ('hands')",
        )


def _check_over(f: Fields, game, v) -> None:
    """The game ends after the last holmgang's round (B32)."""
    if v.holmgangs != NUM_HOLMGANGS or v.round_card != HOLMGANG:
        f.fail(
            "holmgangs",
            f"is {v.holmgangs} with 'round_card' {v.round_card}, but the game is over ('phase') "
            f"only after the round of the {NUM_HOLMGANGS}th holmgang",
        )


def _check_challenger(f: Fields, game, v, phase: str) -> None:
    """The holmgang's challenger acts now, and is the right one (``_check_fewest``)."""
    if v.round_card != HOLMGANG or v.cp != v.challenger:
        f.fail(
            "phase",
            f"is {phase}, which needs a holmgang round ('round_card') and the 'challenger' to act "
            f"('current_player' {v.cp!r})",
        )
    _check_fewest(f, game, v)


def _check_fewest(f: Fields, game, v) -> None:
    """The holmgang's challenger has the fewest VP (ties: the youngest, B24): nothing changes
    the points between the holmgang's reveal and its trick."""
    expected = challenger_of((v.collected @ POINT_VP).tolist(), game.age_rank)
    if v.challenger != expected:
        f.fail(
            "challenger",
            f"is {v.challenger}, but player {expected} has the fewest VP ('collected'; ties: the "
            "youngest)",
        )


def _check_duel(f: Fields, game, v, before_trick: bool = True) -> None:
    """Once the stake is chosen: a challenger, another seat as target, a stake it holds until the
    trick is resolved."""
    if v.challenger == NONE or v.target in (NONE, v.challenger) or v.stake == NONE:
        f.fail(
            "challenger",
            f"{v.challenger}, 'target' {v.target} and 'stake' {v.stake}: the holmgang's "
            f"{PHASE_NAMES[v.phase]} 'phase' needs a challenger, another seat and a stake "
            f"('round_card' is {v.round_card})",
        )
    if before_trick:
        _check_fewest(f, game, v)
        if not v.collected[v.target, v.stake]:
            f.fail(
                "stake",
                f"is {small_name(v.stake)}, which player {v.target} ('target') does not hold "
                "('collected')",
            )


PHASE_CHECKS = {
    PHASE_TARGET: _check_target,
    PHASE_STAKE: _check_stake,
    PHASE_TICKET: _check_ticket,
    PHASE_COMMIT: _check_commit,
    PHASE_SACRIFICE: _check_sacrifice,
    PHASE_OVER: _check_over,
}


def _check_origins(f: Fields, v, n: int) -> None:
    """The public record of the draw piles (``origins.py``): its shape and ranges, and that it
    explains the hidden cards: as many on record for each seat as it holds unseen, and a history
    (``Origins.explains``) that puts every unseen card and the draw pile's cards in a pile they
    can have come from."""
    o = Fields(v.origins, f"{f.where}: field 'origins'", ("piles", "unattributed"))
    piles = o.list("piles")
    if not piles:
        o.fail("piles", "must list at least the dealt deck")
    rows = [_pile(f, b, pile, n, b == len(piles) - 1, len(v.draw)) for b, pile in enumerate(piles)]
    plays = o.list("unattributed", n)
    for q, row in enumerate(plays):
        for play in o.list(f"unattributed[{q}]", value=row):
            entry = o.list(f"unattributed[{q}] entry", 2, value=play)
            k = o.int(f"unattributed[{q}] kind", 0, NUM_KINDS - 1, value=entry[0])
            cands = o.ints(f"unattributed[{q}] piles", 0, len(piles) - 1, value=entry[1])
            if len(set(cands)) < 2 or len(set(cands)) != len(cands):
                o.fail(f"unattributed[{q}]", f"play {entry} needs two or more distinct piles")
            if any(not (rows[b][1][k] and rows[b][2][q]) for b in cands):
                o.fail(f"unattributed[{q}]", f"play {entry} names a pile that cannot have it")
    hidden = [
        v.hands[q]
        + np.bincount([c for c in [v.commits[q]] if 0 <= c < NUM_KINDS], minlength=NUM_KINDS)
        for q in range(n)
    ]
    for q in range(n):
        on_record = sum(r[2][q] for r in rows) - len(plays[q])
        if on_record != int(hidden[q].sum()):
            f.fail(
                "origins",
                f"has {on_record} cards of player {q} on record, but it holds "
                f"{int(hidden[q].sum())} unseen ('hands', 'commits'; hidden information)",
            )
    record = Origins.from_dict(v.origins)
    pile = np.bincount(np.asarray(v.draw, dtype=np.int64), minlength=NUM_KINDS)
    if record.explains([h.tolist() for h in hidden], pile.tolist()) is False:
        f.fail(
            "origins",
            "does not fit the hidden cards: no history puts each card of 'hands', 'commits' and "
            "'draw' in a draw pile it can have come from",
        )


def _pile(f: Fields, b: int, pile, n: int, last: bool, size: int):
    """One draw pile's record: its composition, its cards not seen again, each seat's cards from
    it not seen again and its draws from it."""
    p = Fields(pile, f"{f.where}: field 'origins.piles[{b}]'", ("cards", "left", "held", "drawn"))
    cards = p.ints("cards", 0, 2, NUM_KINDS)
    left = p.ints("left", 0, 2, NUM_KINDS)
    held = p.ints("held", 0, DECK_SIZE, n)
    drawn = p.ints("drawn", 0, DECK_SIZE, n)
    if any(c > k for c, k in zip(cards, KIND_COPIES.tolist())) or (b and not any(cards)):
        p.fail("cards", f"{cards} is not a pile of the deck's cards")
    if any(x > c for x, c in zip(left, cards)):
        p.fail("left", f"{left} holds cards the pile never had ('cards' {cards})")
    if sum(drawn) > sum(cards) or (b and any(h > d for h, d in zip(held, drawn))):
        p.fail("drawn", f"{drawn} and 'held' {held} do not fit a pile of {sum(cards)} cards")
    if sum(left) != sum(held) + (size if last else 0):
        p.fail(
            "left",
            f"counts {sum(left)} cards not seen again, but the seats hold {sum(held)} from it "
            f"('held') and {size if last else 0} are still in it ('draw')",
        )
    return cards, left, held, drawn
