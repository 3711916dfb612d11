"""BigWig's observation: the layout, what a seat may know (``view``) and its encoding (``observe``).

Seats are relative: index 0 is the observer, then clockwise. Every entry lies in [0, 1]; the
pieces and their scales are the comments below (the index table: ``game.layout`` /
docs/rules/bigwig.md). ``rules.py``'s ``BigWigState.view`` and ``observe`` call these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.encoding import Layout
from .actions import NONE, PHASE_NAMES, PHASE_OVER, PHASE_SACRIFICE
from .cards import (
    DECK_SIZE,
    HAND_LIMIT,
    NUM_HOLMGANGS,
    NUM_KINDS,
    NUM_POINT_KINDS,
    NUM_SMALL_KINDS,
    POINT_VP,
    SMALL_TOTAL,
    TOTAL_VP,
)

if TYPE_CHECKING:
    from .rules import BigWigState

# Lookup tables for the observation (a float32 take is cheaper than int * float then a cast).
_HALF = (np.arange(3) / 2).astype(np.float32)  # card counts (at most 2 of a kind) / 2
_VP_SCALE = (np.arange(TOTAL_VP + 1) / TOTAL_VP).astype(np.float32)
_SIZE_SCALE = (np.arange(HAND_LIMIT + 1) / HAND_LIMIT).astype(np.float32)


def make_layout(n: int) -> Layout:
    """The observation's pieces for ``n`` players, in buffer order."""
    return Layout(
        [
            ("hand", NUM_KINDS),  # own cards per kind / 2
            ("well_in_hand", 1),  # own well card in hand (0 while it lies in the trick)
            (
                "my_commit",
                NUM_KINDS + 1,
            ),  # one-hot: own face-down card in the current trick (46 = well)
            (
                "to_act",
                1,
            ),  # the observer has a decision to make now (in a trick: has not committed yet)
            ("phase", 5),  # one-hot: target, stake, ticket, commit, sacrifice
            (
                "current_player",
                n,
            ),  # one-hot seat deciding now (none in a trick or the ticket window)
            (
                "round_card",
                NUM_SMALL_KINDS,
            ),  # one-hot: the revealed altar card (point kinds, holmgang)
            (
                "trump",
                4,
            ),  # red, yellow, blue, green shown on the card at stake (white is always trump)
            ("participants", n),  # relative seats playing the current trick
            ("challenger", n),  # one-hot
            ("target", n),  # one-hot
            ("stake", NUM_POINT_KINDS),  # one-hot point kind at stake in the holmgang
            ("joiners", n),  # relative seats that joined with Til Valhallar
            ("collected", (n, NUM_POINT_KINDS)),  # face-up point cards per relative seat / 2
            ("vp", n),  # victory points per relative seat / 60
            ("altar", NUM_POINT_KINDS),  # point cards under the altar / 2 (public, B36)
            ("discard", NUM_KINDS),  # face-up discard pile per kind / 2
            (
                "hand_sizes",
                n,
            ),  # cards in hand (well included; a committed card still counts) / 9
            ("draw_pile", 1),  # large cards left to draw / 52
            ("reshuffled", NUM_KINDS),  # the draw pile's cards when it was reshuffled / 2 (X7)
            ("drawn_since", n),  # cards each relative seat drew from the current draw pile / 52
            ("altar_pile", 1),  # unrevealed small cards / 24
            ("holmgangs", NUM_HOLMGANGS),  # thermometer: holmgang cards revealed
            (
                "last_trick",
                (n, NUM_KINDS + 1),
            ),  # one-hot card of each relative seat in the last trick
            ("last_winner", n),  # one-hot winner of the last trick
            ("age_rank", n),  # rank from youngest (0) to oldest (1)
            ("to_sacrifice", n),  # relative seats still to take their well draw this round
        ]
    )


def view(st: BigWigState, player: int) -> dict:
    """What ``player`` may know (B36): own hand and commit; everything public; never another
    seat's commit or whether it has committed yet."""
    commit = st.commits[player]
    return {
        "player": player,
        "num_players": st.game.num_players,
        "age_order": list(st.game.age_order),
        "phase": PHASE_NAMES[st.phase],
        "round": st.round,
        "current_player": st.shown_current_player(player),
        "to_act": st.to_act(player),
        "hand": st.hands[player].tolist(),
        "well_in_hand": st.well[player],
        "my_commit": None if commit == NONE else commit,
        "round_card": None if st.round_card == NONE else st.round_card,
        "point_on_table": st.point_on_table,
        "trump": list(st.trump),
        "participants": list(st.participants),
        "challenger": None if st.challenger == NONE else st.challenger,
        "target": None if st.target == NONE else st.target,
        "stake": None if st.stake == NONE else st.stake,
        "joiners": list(st.joiners),
        "to_sacrifice": list(st.queue) if st.phase == PHASE_SACRIFICE else [],
        "collected": st.collected.tolist(),
        "vp": st.vp().tolist(),
        "altar": st.altar.tolist(),
        "discard": st.discard.tolist(),
        "hand_sizes": st.public_hand_sizes(),
        "draw_pile": len(st.draw),
        "reshuffled": st.origins.reshuffled(),
        "drawn_since": list(st.origins.drawn[-1]),
        "origins": st.origins.to_dict(),
        "altar_pile": len(st.small),
        "holmgangs": st.holmgangs,
        "last_trick": [None if k == NONE else k for k in st.last_trick],
        "last_winner": None if st.last_winner == NONE else st.last_winner,
    }


def encode_observation(st: BigWigState, player: int) -> np.ndarray:
    """Encode ``view(player)`` into the layout (written at precomputed offsets: it runs every
    step)."""
    game = st.game
    n = game.num_players
    o = game.offsets
    buf = np.zeros(game.layout.size, dtype=np.float32)
    order = game.seat_order[player]  # relative seat i -> absolute seat
    rel = game.relative[player]  # absolute seat -> relative seat
    buf[o["hand"] : o["hand"] + NUM_KINDS] = _HALF[st.hands[player]]
    buf[o["well_in_hand"]] = st.well[player]
    if st.commits[player] != NONE:
        buf[o["my_commit"] + st.commits[player]] = 1.0
    buf[o["to_act"]] = st.to_act(player)
    if st.phase != PHASE_OVER:
        buf[o["phase"] + st.phase] = 1.0
        shown = st.shown_current_player(player)
        if shown is not None:
            buf[o["current_player"] + rel[shown]] = 1.0
    _put_round(buf, o, st, rel)
    collected = st.collected[order]
    buf[o["collected"] : o["collected"] + n * NUM_POINT_KINDS] = _HALF[collected.ravel()]
    buf[o["vp"] : o["vp"] + n] = _VP_SCALE[collected @ POINT_VP]
    buf[o["altar"] : o["altar"] + NUM_POINT_KINDS] = _HALF[st.altar]
    buf[o["discard"] : o["discard"] + NUM_KINDS] = _HALF[st.discard]
    buf[o["hand_sizes"] : o["hand_sizes"] + n] = _SIZE_SCALE[st.public_sizes()[order]]
    buf[o["draw_pile"]] = len(st.draw) / DECK_SIZE
    origins = st.origins
    if len(origins.cards) > 1:
        buf[o["reshuffled"] : o["reshuffled"] + NUM_KINDS] = _HALF[origins.cards[-1]]
    drawn = np.asarray(origins.drawn[-1], dtype=np.float32)
    buf[o["drawn_since"] : o["drawn_since"] + n] = drawn[order] / DECK_SIZE
    buf[o["altar_pile"]] = len(st.small) / SMALL_TOTAL
    buf[o["holmgangs"] : o["holmgangs"] + st.holmgangs] = 1.0
    base = o["last_trick"]
    for s, k in enumerate(st.last_trick):
        if k != NONE:
            buf[base + rel[s] * (NUM_KINDS + 1) + k] = 1.0
    if st.last_winner != NONE:
        buf[o["last_winner"] + rel[st.last_winner]] = 1.0
    buf[o["age_rank"] : o["age_rank"] + n] = game.age_rank_scaled[order]
    if st.phase == PHASE_SACRIFICE:
        for s in st.queue:
            buf[o["to_sacrifice"] + rel[s]] = 1.0
    return buf


def _put_round(buf: np.ndarray, o: dict, st: BigWigState, rel: list[int]) -> None:
    """The current round's pieces: its altar card, trump colours, the trick's players and the
    holmgang's challenger, target, stake and joiners."""
    if st.round_card != NONE:
        buf[o["round_card"] + st.round_card] = 1.0
    buf[o["trump"] : o["trump"] + 4] = st.trump
    for s in st.participants:
        buf[o["participants"] + rel[s]] = 1.0
    if st.challenger != NONE:
        buf[o["challenger"] + rel[st.challenger]] = 1.0
    if st.target != NONE:
        buf[o["target"] + rel[st.target]] = 1.0
    if st.stake != NONE:
        buf[o["stake"] + st.stake] = 1.0
    for s in st.joiners:
        buf[o["joiners"] + rel[s]] = 1.0
