"""What a Tiny seat sees: its view (a dict) and its observation (``game.layout``, by piece name).
Functions of the state, found by ``State`` by name (envs/core/game.py, ``FUNCTION_MODULES``)."""

from __future__ import annotations

from .cards import CARD


def view(state, player: int) -> dict:
    return {
        "player": player,
        "num_players": state.game.num_players,
        "phase": "over" if state.is_terminal() else "play",
        "hand": list(state.hands[player]),
        "hand_sizes": [len(h) for h in state.hands],
        "played": [list(x) for x in state.played],
        "current_player": state.current_player,
    }


def observe(state, player: int):
    buf, v = state.game.layout.new()
    n = state.game.num_players
    for c in state.hands[player]:
        v["hand"][c] += CARD
    for r in range(n):
        for c in state.played[(player + r) % n]:
            v["played"][r, c] += CARD
    if state.current_player is not None:
        v["current_player"][(state.current_player - player) % n] = 1.0
    return buf
