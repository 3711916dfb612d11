"""Big Number's observation: its layout, what a seat may know (``view``) and its encoder
(``observe``). Functions of the state, found by ``State`` by name (envs/core/game.py,
``FUNCTION_MODULES``); the global state is global_state.py's.

Seats are relative (index 0 is the observer, then clockwise); counts are divided by the copies of
each card type (1 or 2). The encoder writes every piece by its name.
"""

from __future__ import annotations

import numpy as np

from ..core.encoding import Layout
from .actions import ANSWER, LEAD, PHASE_NAMES, PICK
from .cards import HAND_SIZE, NUM_TYPES, counts_of, expand, play_value

#: the pieces that hold card counts, divided by the copies of each type (2: two decks)
COUNT_PIECES = ("hand", "selection", "played", "middle", "out_of_play", "known")


def make_layout(n: int, two_decks: bool) -> Layout:
    """The observation's pieces for ``n`` players, in buffer order."""
    pieces = [("hand", NUM_TYPES)]  # own cards, count / copies
    if two_decks:
        pieces.append(("selection", NUM_TYPES))  # the play being built, own seat only
    pieces += [
        ("played", NUM_TYPES),  # the set just played, awaiting its pick-up
        ("middle", NUM_TYPES),  # the set in the middle (the beaten one during the pick-up)
        ("out_of_play", NUM_TYPES),  # cards out of play this deal, count / copies
        ("known", (n, NUM_TYPES)),  # cards each relative seat is known to hold (X7)
        ("middle_size", HAND_SIZE),  # one-hot size 1-9 of the middle set
        ("middle_owner", n),  # one-hot relative seat that played the middle set
        ("hand_sizes", n),  # / 9 (the game's hand_size)
        ("scores", n),  # penalty points / (target + 8), or / 9 with single_deal
        ("passed", n),  # seats that passed since the middle set was played
        ("current_player", n),  # one-hot relative seat to act
        ("deal_start", n),  # one-hot relative seat that started this deal
        ("phase", 3),  # one-hot: lead, answer, pick
        ("deal", 1),  # deal index / (max deals - 1)
    ]
    return Layout(pieces)


def view(st, player: int) -> dict:
    """What ``player`` may know (N14): own hand and selection, everything face up, sizes."""
    building = st.phase in (LEAD, ANSWER) and player == st.current_player
    return {
        "player": player,
        "num_players": st.game.num_players,
        "two_decks": st.game.two_decks,
        "deal": st.deal,
        "deal_start": st.deal_start,
        "current_player": st.current_player,
        "phase": PHASE_NAMES[st.phase],
        "hand": expand(st.hands[player]),
        "selection": list(st.pending) if building else [],
        "played": list(st.pending) if st.phase == PICK else [],
        "middle": list(st.middle),
        "middle_owner": st.owner,
        "middle_value": play_value(st.middle) if st.middle else 0,
        "passed": st.passed,
        "out_of_play": expand(st.out),
        "known": [expand(k) for k in st.known],
        "hand_sizes": [sum(h) for h in st.hands],
        "scores": list(st.scores_),
        "deal_penalties": [list(x) for x in st.history],
    }


def observe(st, player: int) -> np.ndarray:
    """Encode ``view(player)`` into the layout: the dense pieces through their names' slices (a
    ``layout.new()`` record would cost a tenth of the encoder), the one-hot cells from their
    pieces' offsets."""
    g = st.game
    n, L = g.num_players, g.layout
    piece, at = L.slice, L.offset
    buf = np.zeros(L.size, dtype=np.float32)
    order = [(player + i) % n for i in range(n)]
    buf[piece("hand")], buf[piece("out_of_play")] = st.hands[player], st.out
    known = []
    for q in order:
        known += st.known[q]
    buf[piece("known")] = known
    building = g.two_decks and st.phase in (LEAD, ANSWER) and player == st.current_player
    if st.pending and (building or st.phase == PICK):
        buf[piece("played" if st.phase == PICK else "selection")] = counts_of(st.pending)
    if st.middle:
        buf[piece("middle")] = counts_of(st.middle)
        buf[at("middle_size") + len(st.middle) - 1] = 1.0
        buf[at("middle_owner") + (st.owner - player) % n] = 1.0
    if g.copies > 1:  # a count / the copies of each type; the count pieces are hand .. known
        buf[piece("hand").start : piece("known").stop] *= 1.0 / g.copies
    buf[piece("hand_sizes")] = [sum(st.hands[q]) / g.hand_size for q in order]
    buf[piece("scores")] = [min(st.scores_[q] / g.max_score, 1.0) for q in order]
    for q in st.passed:
        buf[at("passed") + (q - player) % n] = 1.0
    if st.current_player is not None:
        buf[at("current_player") + (st.current_player - player) % n] = 1.0
        buf[at("phase") + st.phase] = 1.0
    buf[at("deal_start") + (st.deal_start - player) % n] = 1.0
    buf[piece("deal")] = min(st.deal / max(g.max_deals - 1, 1), 1.0)
    return buf
