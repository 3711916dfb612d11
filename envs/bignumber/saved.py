"""A saved Big Number state: its fields (``to_dict``, ``from_dict``) and their check before a
state is built (``check_state``): every field's type, size and range, card conservation, known
cards within the hands (hidden information), the round and deal bookkeeping (see
envs/core/saved.py). ``State`` finds them by name as ``_to_dict``, ``_from_dict`` and
``_check_dict`` (envs/core/game.py, ``FUNCTION_MODULES``)."""

from __future__ import annotations

import numpy as np

from ..core.saved import Fields, check_conservation
from .actions import ANSWER, LEAD, OVER, PHASE_NAMES, PICK
from .cards import NUM_TYPES, beats, card_name, is_set, legal_plays

FIELDS = (
    "current_player",
    "phase",
    "over",
    "hands",
    "known",
    "aside",
    "out",
    "middle",
    "owner",
    "passes",
    "pending",
    "deal",
    "deal_start",
    "scores",
    "history",
)


def to_dict(st) -> dict:
    """The state's fields as JSON values (``state.to_dict()``'s ``state``)."""
    return {
        "current_player": st.current_player,
        "phase": st.phase,
        "over": st.over,
        "hands": [h[:] for h in st.hands],
        "known": [k[:] for k in st.known],
        "aside": st.aside[:],
        "out": st.out[:],
        "middle": list(st.middle),
        "owner": st.owner,
        "passes": st.passes,
        "pending": list(st.pending),
        "deal": st.deal,
        "deal_start": st.deal_start,
        "scores": st.scores_[:],
        "history": [x[:] for x in st.history],
    }


def from_dict(cls, game, d: dict):
    """Build a ``cls`` state from ``to_dict``'s fields as given (after ``check_state``)."""
    s = cls.__new__(cls)
    s.game = game
    s.current_player, s.phase, s.over = d["current_player"], d["phase"], d["over"]
    s.hands = [list(h) for h in d["hands"]]
    s.known = [list(k) for k in d["known"]]
    s.aside, s.out = list(d["aside"]), list(d["out"])
    s.middle, s.owner = tuple(d["middle"]), d["owner"]
    s.passes, s.pending = d["passes"], tuple(d["pending"])
    s.deal, s.deal_start = d["deal"], d["deal_start"]
    s.scores_ = list(d["scores"])
    s.history = [list(x) for x in d["history"]]
    s._plays = s._mask = None
    return s


def check_state(game, d: dict) -> None:
    """``ValueError`` naming the field for anything a Big Number game cannot have reached."""
    n, copies = game.num_players, game.copies
    f = Fields(d, "saved bignumber state", FIELDS)
    phase = f.int("phase", 0, len(PHASE_NAMES) - 1)
    cp = f.seat("current_player", n, none=True)
    over = f.bool("over")
    hands = f.matrix("hands", n, NUM_TYPES, hi=copies)
    known = f.matrix("known", n, NUM_TYPES, hi=copies)
    aside, out = f.counts("aside", NUM_TYPES, copies), f.counts("out", NUM_TYPES, copies)
    middle = f.ints("middle", 0, NUM_TYPES - 1)
    owner = f.seat("owner", n, none=True)
    passes = f.int("passes", 0, n)
    pending = f.ints("pending", 0, NUM_TYPES - 1)
    deal = f.int("deal", 0, game.max_deals)
    f.seat("deal_start", n)
    scores = f.ints("scores", 0, 10**6, n)
    history = f.list("history")
    for i, row in enumerate(history):
        f.ints(f"history[{i}]", 0, game.hand_size, n, value=row)
    if over != (cp is None) or over != (phase == OVER):
        f.fail(
            "over",
            f"is {over} but current_player is {cp!r} and phase {phase!r} (all three say "
            "whether the game is over)",
        )
    if len(history) != deal + over:
        f.fail(
            "history",
            f"lists {len(history)} deals, but 'deal' is {deal} (deals played: {deal + over})",
        )
    if scores != [sum(col) for col in zip(*history)] and (history or any(scores)):
        f.fail("scores", f"{scores} are not the sums of the deals' penalties in 'history'")
    if middle and (middle != sorted(middle, reverse=True) or not is_set(tuple(middle))):
        f.fail("middle", f"{middle} is not a set in descending order")
    total = hands.sum(axis=0) + aside + out
    for c in middle + (pending if phase == PICK else []):
        total[c] += 1
    check_conservation(
        f.where,
        total,
        np.asarray(game.deck_counts),
        "hands/aside/out/middle/pending (the play being picked up in the pick 'phase')",
        card_name,
    )
    if (known > hands).any():
        p = int(np.flatnonzero((known > hands).any(axis=1))[0])
        f.fail(
            "known",
            f"says player {p} is known to hold cards it does not hold in 'hands' (hidden "
            "information)",
        )
    sizes = hands.sum(axis=1)
    if (sizes > game.hand_size).any():
        f.fail("hands", f"a player holds more than {game.hand_size} cards: {sizes.tolist()}")
    if not over and (sizes == 0).any():
        f.fail("hands", "a player has an empty hand in a running deal (the deal would have ended)")
    _check_round(f, game, phase, cp, middle, owner, passes, pending, hands)


def _check_round(
    f: Fields, game, phase: int, cp, middle, owner, passes: int, pending, hands
) -> None:
    """The round: a set in the middle has an owner, the passes have not ended the round, the
    phase fits the middle, the seat asked is the one after the owner and those that passed, and
    a pick-up or a selection in progress is one the game can have."""
    n = game.num_players
    if bool(middle) != (owner is not None):
        f.fail(
            "owner", f"is {owner!r} but the middle is {middle!r} (a set in the middle has an owner)"
        )
    if passes >= (1 if owner is None else n - 1):
        f.fail("passes", f"{passes} passes in a row would have ended the round ('owner' {owner})")
    if phase == LEAD and middle:
        f.fail("middle", "must be empty when a player is to lead ('phase')")
    if phase in (ANSWER, PICK) and (not middle or cp != (owner + 1 + passes) % n):
        f.fail(
            "phase",
            f"is {PHASE_NAMES[phase]}, which needs a set in the 'middle' and the seat after its "
            f"'owner' ({owner}) and the 'passes' ({passes}) to act ('current_player' {cp})",
        )
    if phase == PICK:
        _check_pick(f, game, cp, middle, pending, hands)
    if pending and phase in (LEAD, ANSWER):
        _check_selection(f, game, cp, middle, pending, hands)
    if pending and phase == OVER:
        f.fail("pending", "must be empty once the game is over ('phase')")


def _check_pick(f: Fields, game, cp: int, middle, pending, hands) -> None:
    """A pick-up: the play that beat the middle, out of the hand of the seat that made it, and a
    choice of two or more kinds of card to take."""
    play = tuple(pending)
    if (
        not play
        or list(play) != sorted(play, reverse=True)
        or not is_set(play)
        or not beats(play, tuple(middle))
        or len(set(middle)) < 2
    ):
        f.fail(
            "pending",
            f"{pending} must be the play that beat the 'middle' {middle}, and the middle a "
            "choice of two or more cards to take (pick 'phase')",
        )
    if hands[cp].sum() + len(play) > game.hand_size:
        f.fail(
            "hands",
            f"player {cp} ('current_player') holds {int(hands[cp].sum())} cards after playing "
            f"'pending' {pending}: more than {game.hand_size} before",
        )


def _check_selection(f: Fields, game, cp: int, middle, pending, hands) -> None:
    """A play being built card by card (two decks): cards of the hand of the seat building it, a
    prefix of one of its legal plays (so that it can be finished)."""
    held = hands[cp]
    sel = tuple(pending)
    if not game.two_decks or any(pending.count(c) > held[c] for c in set(pending)):
        f.fail(
            "pending",
            f"{pending} is not a selection in progress from player {cp}'s hand "
            "('current_player', 'hands')",
        )
    if not any(t[: len(sel)] == sel for t in legal_plays(held.tolist(), tuple(middle))):
        f.fail(
            "pending",
            f"{pending} does not start any play player {cp} ('current_player') may make on the "
            f"'middle' {middle}",
        )
