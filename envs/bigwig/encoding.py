"""BigWig's observation: the layout, what a seat may know (``view``) and its encoding (``observe``).

Seats are relative: index 0 is the observer, then clockwise. Every entry lies in [0, 1]; the
pieces and their scales are the comments below (the index table: ``game.layout`` /
docs/rules/bigwig.md). ``BigWigState`` finds ``view`` and ``observe`` here by name
(``FUNCTION_MODULES``, envs/core/game.py); ``rules.py`` takes ``make_layout``.
"""

from __future__ import annotations

import threading

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


def view(st, player: int) -> dict:
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


def observe(st, player: int) -> np.ndarray:
    """Encode ``view(player)`` into the layout (every piece written through its name)."""
    game = st.game
    buf, v = _blank(game.layout)
    order = game.seat_order[player]  # relative seat i -> absolute seat
    rel = game.relative[player]  # absolute seat -> relative seat
    v["hand"][:] = _HALF[st.hands[player]]
    v["well_in_hand"][0] = st.well[player]
    if st.commits[player] != NONE:
        v["my_commit"][st.commits[player]] = 1.0
    v["to_act"][0] = st.to_act(player)
    if st.phase != PHASE_OVER:
        v["phase"][st.phase] = 1.0
        shown = st.shown_current_player(player)
        if shown is not None:
            v["current_player"][rel[shown]] = 1.0
    _put_round(v, st, rel)
    collected = st.collected[order]
    v["collected"][:] = _HALF[collected]
    v["vp"][:] = _VP_SCALE[collected @ POINT_VP]
    v["altar"][:] = _HALF[st.altar]
    v["discard"][:] = _HALF[st.discard]
    v["hand_sizes"][:] = _SIZE_SCALE[st.public_sizes()[order]]
    v["draw_pile"][0] = len(st.draw) / DECK_SIZE
    origins = st.origins
    if len(origins.cards) > 1:
        v["reshuffled"][:] = _HALF[origins.cards[-1]]
    drawn = np.asarray(origins.drawn[-1], dtype=np.float32)
    v["drawn_since"][:] = drawn[order] / DECK_SIZE
    v["altar_pile"][0] = len(st.small) / SMALL_TOTAL
    v["holmgangs"][: st.holmgangs] = 1.0
    for s, k in enumerate(st.last_trick):
        if k != NONE:
            v["last_trick"][rel[s], k] = 1.0
    if st.last_winner != NONE:
        v["last_winner"][rel[st.last_winner]] = 1.0
    v["age_rank"][:] = game.age_rank_scaled[order]
    if st.phase == PHASE_SACRIFICE:
        for s in st.queue:
            v["to_sacrifice"][rel[s]] = 1.0
    return buf.copy()


_KEPT = threading.local()


def _blank(layout: Layout) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """A zeroed buffer of ``layout`` and its named pieces (``layout.views``), kept per thread:
    a fresh ``layout.new()`` (a structured record) costs more than the rest of the encoding, so
    ``observe`` fills this one and returns a copy."""
    kept = _KEPT.__dict__.setdefault("layouts", {})
    if layout not in kept:
        buf = np.zeros(layout.size, dtype=np.float32)
        kept[layout] = buf, layout.views(buf)
    buf, v = kept[layout]
    buf[:] = 0.0
    return buf, v


def _put_round(v: dict, st, rel: list[int]) -> None:
    """The current round's pieces: its altar card, trump colours, the trick's players and the
    holmgang's challenger, target, stake and joiners."""
    if st.round_card != NONE:
        v["round_card"][st.round_card] = 1.0
    v["trump"][:] = st.trump
    for s in st.participants:
        v["participants"][rel[s]] = 1.0
    if st.challenger != NONE:
        v["challenger"][rel[st.challenger]] = 1.0
    if st.target != NONE:
        v["target"][rel[st.target]] = 1.0
    if st.stake != NONE:
        v["stake"][st.stake] = 1.0
    for s in st.joiners:
        v["joiners"][rel[s]] = 1.0
