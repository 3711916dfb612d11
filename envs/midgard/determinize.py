"""Midgard determinization: a full state equal to this one in everything a seat can know, the
hidden cards resampled (other hands with the Thing, hidden rewards with the reward pile,
face-down bonuses, the challenge deck's order)."""

from __future__ import annotations

import numpy as np

from . import actions as A
from .cards import DATA, KINDS, REWARD_KINDS
from .invariants import face_down
from .modes import BONUS, KEEP


def determinize(s, player: int, rng: np.random.Generator):
    """Resample what ``player`` cannot see: other hands with the Thing, others' hidden rewards
    with the reward pile (a top card the player put back stays), the challenge deck order."""
    d = s.clone()
    n = s.game.num_players
    others = [q for q in range(n) if q != player]
    # A seat's cards are its hand plus a face-down challenge bonus of its (MD22); those that
    # everyone saw join it stay (X7), the rest is resampled with the Thing.
    held = s.hands + face_down(s)
    pool = list(s.thing)
    for q in others:
        pool.extend(KINDS.repeat(held[q] - s.known[q]).tolist())
    rng.shuffle(pool)
    bonus_side = {q: side for side, q in hidden_bonus(s, player) if s.contest["t"] == "ch"}
    if bonus_side:
        d.contest["b"], d.contest["held"] = list(d.contest["b"]), list(d.contest["held"])
    thing = None
    if s.thing_base is not None:  # after a reshuffle the Thing is known to all (M-E2)
        need = sum(1 for q in bonus_side if not (s.known[q, A.FIRST_ACTION_CARD :] > 0).any())
        thing, pool = thing_after_reshuffle(s, player, pool, need)
        d.thing_drawn = draws_after_reshuffle(s, player, thing, rng)
    cards_of = {q: KINDS.repeat(s.known[q]).tolist() for q in others}
    # a face-down bonus is an event or reaction: a seat that has none among its known cards
    # gets one from the pool before any hand is dealt (a deal could take the last one)
    for q in bonus_side:
        if not (s.known[q, A.FIRST_ACTION_CARD :] > 0).any():
            first = next(j for j, x in enumerate(pool) if x >= A.FIRST_ACTION_CARD)
            cards_of[q].append(pool.pop(first))
    for q in others:
        cards = cards_of[q]
        k = int(held[q].sum()) - len(cards)
        cards, pool = cards + pool[:k], pool[k:]
        if q in bonus_side:  # the face-down bonus: any event or reaction among them
            side = bonus_side[q]
            actions = [x for x in cards if x >= A.FIRST_ACTION_CARD]
            new = int(actions[rng.integers(len(actions))])
            cards.remove(new)
            d.contest["held"].remove(d.contest["b"][side])
            d.contest["held"].append(new)
            d.contest["b"][side] = new
        d.hands[q] = np.bincount(np.asarray(cards, dtype=np.int64), minlength=DATA.num_kinds)
    d.thing = pool if thing is None else thing
    c = s.contest
    if (
        c is not None
        and c["t"] == "bt"
        and player != c["p"]
        and s.stack
        and s.stack[-1].m == BONUS
        and s.stack[-1].side == 1
    ):
        # the attacker's secret choice (placed or not, and which; MD16) is resampled from its
        # resampled hand: no bonus or any event/reaction in it
        q = c["p"]
        choices = [-1] + [
            k for k in range(A.FIRST_ACTION_CARD, DATA.num_kinds) if d.hands[q, k] > 0
        ]
        k = int(choices[rng.integers(len(choices))])
        d.contest["b"], d.contest["bs"] = [k, c["b"][1]], [q if k >= 0 else -1, c["bs"][1]]
    keep_top = s.reward_top_known == player and s.reward_deck
    rpool = list(s.reward_deck[:-1] if keep_top else s.reward_deck)
    hidden_keep = [f for f in d.stack if f.m == KEEP and f.p != player]
    for q in others:
        rpool.extend(REWARD_KINDS.repeat(s.rewards[q]).tolist())
    for f in hidden_keep:
        rpool.extend(f.drawn)
    rng.shuffle(rpool)
    for q in others:
        k = int(s.rewards[q].sum())
        d.rewards[q] = np.bincount(
            np.asarray(rpool[:k], dtype=np.int64), minlength=len(DATA.rewards)
        )
        rpool = rpool[k:]
    for f in hidden_keep:  # the clone's own copies (KeepFrame.copy)
        k = len(f.drawn)
        f.drawn, rpool = rpool[:k], rpool[k:]
    d.reward_deck = rpool + ([s.reward_deck[-1]] if keep_top else [])
    d.ch_deck = list(s.ch_deck)
    rng.shuffle(d.ch_deck)
    d._mask = None
    return d


def hidden_bonus(s, player: int) -> list:
    """(side, owner) of face-down bonuses ``player`` cannot see."""
    c = s.contest
    if c is None:
        return []
    return [
        (side, c["bs"][side]) for side in (0, 1) if c["b"][side] >= 0 and c["bs"][side] != player
    ]


def thing_after_reshuffle(s, player: int, pool: list, need: int) -> tuple[list, list]:
    """Split the shuffled unknown cards ``pool`` into a Thing and the rest (the others' unseen
    cards). Since the last reshuffle the Thing holds only cards it held then that ``player``
    did not draw itself (``thing_base`` is public, its own draws it saw), so the Thing takes
    the first cards of ``pool`` within that bound: a uniform choice of the cards the bound
    allows. (The Thing's cards are not weighed by what the others showed since; an
    approximation, as MD15's.) ``need`` events or reactions must stay out of the Thing for
    face-down bonuses; if the uniform choice leaves fewer, the Thing takes events last, which
    the true Thing shows possible."""
    size = len(s.thing)
    left = np.asarray(s.thing_base) - s.thing_drawn[player]
    thing = _take_within(pool, left, size, events_last=False)
    rest = _minus(pool, thing)
    if sum(1 for x in rest if x >= A.FIRST_ACTION_CARD) < need:
        thing = _take_within(pool, left, size, events_last=True)
        rest = _minus(pool, thing)
    return thing, rest


def draws_after_reshuffle(s, player: int, thing: list, rng) -> np.ndarray:
    """Each other seat's draws since the reshuffle, resampled: the reshuffled cards neither in
    the new Thing nor drawn by ``player``, dealt in the (public) numbers each seat drew."""
    drawn = s.thing_drawn.copy()
    left = np.asarray(s.thing_base) - drawn[player]
    left -= np.bincount(np.asarray(thing, dtype=np.int64), minlength=DATA.num_kinds)
    cards = KINDS.repeat(left).tolist()
    rng.shuffle(cards)
    for q in range(s.game.num_players):
        if q != player:
            k = int(drawn[q].sum())
            drawn[q] = np.bincount(np.asarray(cards[:k], dtype=np.int64), minlength=DATA.num_kinds)
            cards = cards[k:]
    return drawn


def _take_within(pool: list, bound, size: int, events_last: bool) -> list:
    """The first ``size`` cards of ``pool`` with at most ``bound[kind]`` of each kind (troop cards
    before events and reactions when ``events_last``), in pool order."""
    order = pool
    if events_last:
        order = [x for x in pool if x < A.FIRST_ACTION_CARD] + [
            x for x in pool if x >= A.FIRST_ACTION_CARD
        ]
    room = np.array(bound, dtype=np.int64).tolist()  # Python ints: cheaper to index one by one
    out = []
    for x in order:
        if len(out) == size:
            break
        if room[x] > 0:
            room[x] -= 1
            out.append(x)
    return out


def _minus(pool: list, taken: list) -> list:
    """``pool`` without one copy of each card of ``taken`` (order kept)."""
    left = np.bincount(np.asarray(taken, dtype=np.int64), minlength=DATA.num_kinds).tolist()
    out = []
    for x in pool:
        if left[x] > 0:
            left[x] -= 1
        else:
            out.append(x)
    return out
