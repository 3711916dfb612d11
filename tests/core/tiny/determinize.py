"""A Tiny position as ``player`` could believe it: the other hands and the undealt cards dealt
again from the cards it has not seen."""

from __future__ import annotations


def determinize(state, player: int, rng):
    s = state.clone()
    others = [q for q in range(state.game.num_players) if q != player]
    pool = state.rest + [c for q in others for c in state.hands[q]]
    rng.shuffle(pool)
    for q in others:
        k = len(state.hands[q])
        s.hands[q], pool = sorted(pool[:k]), pool[k:]
    s.rest = sorted(pool)
    return s
