"""A saved Wizard state: its fields (``to_dict``, ``from_dict``) and their check before a state is
built (``check_state``): every field's type, size and range, card conservation, tricks against
the played cards, shown voids against the hands (hidden information), the trump against the
flipped card, and the round's bookkeeping (see envs/core/saved.py). ``WizardState`` finds the three
by name (``_to_dict``, ``_from_dict``, ``_check_dict``)."""

from __future__ import annotations

import numpy as np

from ..core.saved import Fields, check_conservation
from .actions import PHASE_BID, PHASE_NAMES, PHASE_OVER, PHASE_PLAY, PHASE_TRUMP
from .cards import (
    DECK_COUNTS,
    LED_FREE,
    LED_NONE,
    NO_TRUMP,
    NUM_KINDS,
    NUM_SUITED,
    NUM_SUITS,
    RANKS,
    TRUMP_PENDING,
    WIZARD,
    card_name,
    forbidden_dealer_bid,
    led_suit,
    next_led,
    trick_winner,
    trump_after_flip,
)

FIELDS = (
    "current_player",
    "phase",
    "round",
    "dealer",
    "first_dealer",
    "hands",
    "stock",
    "flipped",
    "trump",
    "bids",
    "tricks_won",
    "trick",
    "trick_leader",
    "led",
    "played",
    "voids",
    "tricks",
    "scores",
    "history",
)
RECORD = ("dealer", "flipped", "trump", "bids", "tricks_won", "deltas")


def to_dict(st) -> dict:
    """The state's fields as JSON values (``WizardState.to_dict``'s ``state``)."""
    return {
        "current_player": st.current_player,
        "phase": st.phase,
        "round": st.round,
        "dealer": st.dealer,
        "first_dealer": st.first_dealer,
        "hands": st.hands.tolist(),
        "stock": st.stock.tolist(),
        "flipped": st.flipped,
        "trump": st.trump,
        "bids": list(st.bids),
        "tricks_won": list(st.tricks_won),
        "trick": list(st.trick),
        "trick_leader": st.trick_leader,
        "led": st.led,
        "played": list(st.played),
        "voids": list(st.voids),
        "tricks": [[a, list(c), w] for a, c, w in st.tricks],
        "scores": list(st.points),
        "history": [copy_record(h) for h in st.history],
    }


def from_dict(cls, game, d: dict):
    """Build a ``cls`` state from ``to_dict``'s fields as given (after ``check_state``)."""
    s = cls.__new__(cls)
    s.game = game
    s._rng = s._rng_src = None  # set by from_dict
    s.current_player, s.phase, s.round, s.dealer = (
        d["current_player"],
        d["phase"],
        d["round"],
        d["dealer"],
    )
    s.first_dealer, s.flipped, s.trump = d["first_dealer"], d["flipped"], d["trump"]
    s.hands = np.asarray(d["hands"], dtype=np.int8).reshape(game.num_players, NUM_KINDS)
    s.hand_sizes = [int(x) for x in s.hands.sum(axis=1)]
    s.recount()
    s.stock = np.asarray(d["stock"], dtype=np.int8)
    s.played = [int(x) for x in d["played"]]
    s.bids, s.tricks_won = list(d["bids"]), list(d["tricks_won"])
    s.trick, s.trick_leader, s.led = list(d["trick"]), d["trick_leader"], d["led"]
    s.voids = list(d["voids"])
    s.tricks = [[a, list(c), w] for a, c, w in d["tricks"]]
    s.points = list(d["scores"])
    s.history = [copy_record(h) for h in d["history"]]
    s.refresh_observation()
    return s


def copy_record(record: dict) -> dict:
    """A past round's record with its own lists (callers may mutate what they are given)."""
    return {k: list(v) if isinstance(v, list) else v for k, v in record.items()}


def check_state(game, d: dict) -> None:
    """``ValueError`` naming the field for anything a Wizard game cannot have reached."""
    n, rounds = game.num_players, game.rounds
    f = Fields(d, "saved wizard state", FIELDS)
    phase = f.int("phase", 0, len(PHASE_NAMES) - 1)
    cp = f.seat("current_player", n, none=True)
    rnd = f.int("round", 1, rounds)
    dealer = f.seat("dealer", n)
    f.seat("first_dealer", n)
    hands = f.matrix("hands", n, NUM_KINDS, hi=int(DECK_COUNTS.max()))
    stock = f.counts("stock", NUM_KINDS, int(DECK_COUNTS.max()))
    flipped = f.int("flipped", -1, NUM_KINDS - 1)
    trump = f.int("trump", TRUMP_PENDING, NO_TRUMP)
    bids = f.ints("bids", -1, rnd, n, note=" (at most the 'round')")
    won = f.ints("tricks_won", 0, rnd, n, note=" (at most the 'round')")
    trick = f.ints("trick", 0, NUM_KINDS - 1)
    leader = f.seat("trick_leader", n)
    led = f.int("led", LED_NONE, LED_FREE)
    played = f.counts("played", NUM_KINDS, int(DECK_COUNTS.max()))
    voids = f.ints("voids", 0, 2**NUM_SUITS - 1, n)
    tricks = _tricks(f, n)
    scores = f.ints("scores", -(10**6), 10**6, n)
    history = _history(f, n)
    _check_rounds(f, phase, cp, rnd, rounds, history, scores)
    total = hands.sum(axis=0) + played + stock
    if flipped >= 0:
        total[flipped] += 1
    check_conservation(f.where, total, game.deck_counts, "hands/played/stock/flipped", card_name)
    in_tricks = [c for t in tricks for c in t[1]] + trick
    if (
        np.bincount(np.asarray(in_tricks, dtype=np.int64), minlength=NUM_KINDS).tolist()
        != played.tolist()
    ):
        f.fail("played", "differs from the cards in 'tricks' and 'trick'")
    if sum(won) != len(tricks) or len(tricks) > rnd or len(trick) >= n:
        f.fail("tricks_won", f"{won} do not count the {len(tricks)} tricks of round {rnd}")
    if (flipped < 0) != (n * rnd == game.deck_size):
        f.fail(
            "flipped", f"is {flipped}: a card is turned up exactly when round {rnd} leaves a stock"
        )
    expected = trump_after_flip(None if flipped < 0 else flipped)
    if trump != expected and not (expected == TRUMP_PENDING and 0 <= trump < game.suits):
        f.fail("trump", f"is {trump}, which the flipped card {flipped} does not give")
    if led != led_suit(trick):
        f.fail("led", f"is {led}, but the trick {trick} leads {led_suit(trick)}")
    for q in range(n):
        for s in range(NUM_SUITS):
            if voids[q] >> s & 1 and hands[q, s * RANKS : (s + 1) * RANKS].any():
                f.fail(
                    "voids",
                    f"say player {q} showed out of suit {s} but it holds such a card in 'hands' "
                    "(hidden information)",
                )
    if phase == PHASE_TRUMP and (trump != TRUMP_PENDING or cp != dealer or flipped != WIZARD):
        f.fail(
            "phase",
            f"is trump, which needs a 'flipped' Wizard, no 'trump' yet and the 'dealer' to "
            f"choose ('current_player' {cp})",
        )
    if phase in (PHASE_BID, PHASE_PLAY) and trump == TRUMP_PENDING:
        f.fail(
            "trump",
            f"is still to be chosen, so the round cannot be bidding or playing ('phase' "
            f"{PHASE_NAMES[phase]})",
        )
    if phase == PHASE_BID and (tricks or trick):
        f.fail("phase", "is bid, but tricks have been played this round")
    if phase == PHASE_PLAY and (-1 in bids or cp != (leader + len(trick)) % n):
        f.fail(
            "phase",
            f"is play, which needs every bid made ('bids' {bids}) and the next seat after the "
            f"trick's leader ('trick_leader' {leader}, 'trick' {trick}) to act ('current_player' "
            f"{cp})",
        )
    if phase == PHASE_OVER and (trick or len(tricks) != rnd):
        f.fail("tricks", f"are {len(tricks)} (and 'trick' {trick}): a round ends after {rnd}")
    complete = len(history) == rnd - 1 + (phase == PHASE_OVER)  # (else a scenario)
    first = d["first_dealer"] if complete else None
    _check_deal(f, n, rnd, dealer, first, hands, stock, game.deck_size)
    _check_hands(f, n, rnd, hands, leader, trick, tricks)
    _check_tricks(f, n, dealer, trump, tricks, trick, leader, won, voids)
    _check_bids(f, phase, n, rnd, cp, dealer, bids)


def _check_deal(f: Fields, n, rnd, dealer, first_dealer, hands, stock, deck_size) -> None:
    """The round's deal: the dealer turns clockwise from the first (in a game with every round's
    record; a scenario set up in a later round has its own dealer), the stock is what the deal
    left."""
    turn = None if first_dealer is None else (first_dealer + rnd - 1) % n
    if turn is not None and dealer != turn:
        f.fail(
            "dealer",
            f"is {dealer}, but round {rnd} ('round') is dealt by player {turn} (the "
            "'first_dealer', then clockwise)",
        )
    left = max(0, deck_size - n * rnd - 1)
    if int(stock.sum()) != left:
        f.fail("stock", f"holds {int(stock.sum())} cards, but round {rnd} ('round') leaves {left}")


def _check_hands(f: Fields, n, rnd, hands, leader, trick, tricks) -> None:
    """Each seat holds what the round dealt it less the cards it played."""
    for q in range(n):
        expect = rnd - len(tricks) - ((q - leader) % n < len(trick))
        if int(hands[q].sum()) != expect:
            f.fail(
                "hands",
                f"player {q} holds {int(hands[q].sum())} cards, but round {rnd} ('round') dealt "
                f"{rnd} and it played {rnd - expect} ('tricks', 'trick', 'trick_leader')",
            )


def _check_tricks(f: Fields, n, dealer, trump, tricks, trick, leader, won, voids) -> None:
    """The round's tricks: the seat after the dealer leads first, then each trick's winner; each
    winner is the one the cards give (W9), ``tricks_won`` counts them, and the shown voids are
    exactly the suits a seat did not follow."""
    lead = (dealer + 1) % n
    shown = [0] * n
    for i, (first, cards, winner) in enumerate(tricks + [[leader, trick, None]]):
        if first != lead:
            f.fail(
                "tricks" if i < len(tricks) else "trick_leader",
                f"trick {i} is led by player {first}, but the 'dealer' {dealer}'s left hand leads "
                "the first trick and each trick's winner the next",
            )
        led = LED_NONE
        for j, c in enumerate(cards):
            q = (first + j) % n
            if led == LED_NONE:
                led = next_led(led, c)
            elif led != LED_FREE and c < NUM_SUITED and c // RANKS != led:
                shown[q] |= 1 << led
        if winner is not None:
            if winner != (first + trick_winner(list(cards), trump)) % n:
                f.fail("tricks", f"trick {i} {cards} is won by another seat ('trump' {trump})")
            lead = winner
    if won != [sum(1 for t in tricks if t[2] == q) for q in range(n)]:
        f.fail("tricks_won", f"{won} do not count the winners of 'tricks'")
    if voids != shown:
        f.fail("voids", f"are {voids}, but the cards of 'tricks' and 'trick' show {shown}")


def _check_bids(f: Fields, phase, n, rnd, cp, dealer, bids) -> None:
    """The bids are made clockwise from the dealer's left, the dealer last (not its forbidden
    bid, W6); none while the trump is chosen."""
    order = [(dealer + 1 + i) % n for i in range(n)]
    made = {PHASE_TRUMP: 0, PHASE_BID: order.index(cp) if cp is not None else n}.get(phase, n)
    if [b >= 0 for b in (bids[q] for q in order)] != [i < made for i in range(n)]:
        f.fail(
            "bids",
            f"are {bids}, but in the {PHASE_NAMES[phase]} 'phase' the seats from the 'dealer' "
            f"{dealer}'s left up to 'current_player' {cp} have bid",
        )
    if made == n:
        others = sum(b for q, b in enumerate(bids) if q != dealer and b > 0)
        if bids[dealer] == forbidden_dealer_bid(rnd, others):
            f.fail("bids", f"the dealer's bid {bids[dealer]} is the one it may not make (W6)")


def _tricks(f: Fields, n: int) -> list:
    """The completed tricks of the round: [leader, the n cards, winner] each."""
    tricks = f.list("tricks")
    for i, t in enumerate(tricks):
        t = f.list(f"tricks[{i}]", 3, value=t)
        f.int(f"tricks[{i}][0]", 0, n - 1, value=t[0])
        f.ints(f"tricks[{i}][1]", 0, NUM_KINDS - 1, n, value=t[1])
        f.int(f"tricks[{i}][2]", 0, n - 1, value=t[2])
    return tricks


def _history(f: Fields, n: int) -> list:
    """The past rounds' records: every seat's score change, bid and tricks won."""
    history = f.list("history")
    for i, h in enumerate(history):
        r = Fields(h, f"{f.where}: field 'history[{i}]'", RECORD)
        r.ints("deltas", -(10**6), 10**6, n)
        r.ints("bids", 0, i + 1, n)
        r.ints("tricks_won", 0, i + 1, n)
    return history


def _check_rounds(f: Fields, phase: int, cp, rnd: int, rounds: int, history, scores) -> None:
    """The game's progress: a seat to act until the end, no more round records than rounds
    scored, the end after the last round, and the scores the sums of the records."""
    n = len(scores)
    over = phase == PHASE_OVER
    if over != (cp is None):
        f.fail("current_player", f"is {cp!r} but the phase is {PHASE_NAMES[phase]}")
    finished = rnd - 1 + over  # rounds scored so far
    if len(history) > finished:
        f.fail(
            "history",
            f"lists {len(history)} rounds, but the game is in round {rnd}"
            f"{' (over)' if over else ''}",
        )
    if over and rnd != rounds:
        f.fail("round", f"is {rnd}, but the game ends after round {rounds}")
    # (a position set up in a later round, a scenario, may lack the earlier rounds' records)
    if len(history) == finished and scores != [
        sum(h["deltas"][q] for h in history) for q in range(n)
    ]:
        f.fail("scores", f"{scores} are not the sums of the rounds' score changes in 'history'")
