"""A rule-of-thumb Big Number player, built from the rulebook's "Tips" section.

It scores hands with one function, ``hand_value``: fewer cards is better; cards that go together
(a long suit or a pair/triple, the way to a big number later, and a hand all of one suit or rank,
which can go out "everything at once") are worth keeping; high digits win rounds. Then:

* lead: go out "everything at once" when the hand allows it; otherwise lead the card whose loss
  hurts the hand least (small numbers are fine for a lead);
* answer: go out if a play empties the hand; otherwise compare every legal play (the hand after it,
  with the best pick-up) with passing; a play that wins tempo gets a bonus, shedding many cards
  matters more when an opponent is down to one or two cards ("play your big sets before they go
  out");
* pick-up: the beaten card that fits the hand best (a 9 of the strongest suit is worth a lot).

With two decks the engine asks for a play card by card; the agent picks the best play that extends
the selection made so far and sends its next card (or "finish"). It only reads the view.
"""

from __future__ import annotations

from functools import lru_cache

from deckzoo.agents.base import Agent
from deckzoo.envs.bignumber.actions import ADD_BASE, FINISH, PASS, PICK_BASE, PLAY_BASE
from deckzoo.envs.bignumber.cards import NUM_TYPES, is_uniform, legal_plays

GROUP_WEIGHT = 0.7  # a card in the longest suit or rank group beyond the first
UNIFORM_BONUS = 1.5  # the whole hand can go out at the next lead
RANK_WEIGHT = 0.04  # per digit point: high cards win rounds
TEMPO_BONUS = 0.3  # playing keeps the chance of winning the round (and leading)


def hand_value(hand: list[int]) -> float:
    """Higher is better. ``hand`` is a count vector over the 36 card types.

    Memoised on the hand's counts: a search that rolls out with this agent values the same few
    hands thousands of times a move (it was half of ISMCTS's time in Big Number).
    """
    return _hand_value(tuple(hand))


@lru_cache(maxsize=1 << 16)
def _hand_value(hand: tuple[int, ...]) -> float:
    size = sum(hand)
    if size == 0:
        return 100.0
    suits = [0] * 4
    ranks = [0] * 9
    pips = 0
    for c in range(NUM_TYPES):
        k = hand[c]
        if k:
            suits[c % 4] += k
            ranks[c // 4] += k
            pips += k * (c // 4 + 1)
    group = max(max(suits), max(ranks))
    value = -size + GROUP_WEIGHT * (group - 1) + RANK_WEIGHT * pips
    if size > 1 and is_uniform(hand):
        value += UNIFORM_BONUS
    return value


def best_pick(hand: list[int], beaten) -> int:
    """The beaten card that leaves the best hand (ties: the higher card)."""
    best, best_v = None, None
    for c in sorted(set(beaten), reverse=True):
        hand[c] += 1
        v = hand_value(hand)
        hand[c] -= 1
        if best_v is None or v > best_v + 1e-9:
            best, best_v = c, v
    return best


class HeuristicAgent(Agent):
    name = "heuristic"

    def act(self, info_state) -> int:
        view = info_state.view()
        hand = [0] * NUM_TYPES
        for c in view["hand"]:
            hand[c] += 1
        if view["phase"] == "pick":
            return PICK_BASE + best_pick(hand, view["middle"])
        middle = tuple(view["middle"])
        plays = legal_plays(hand, middle)
        selection = tuple(view["selection"])
        if selection:  # two decks: finish the play already begun
            plays = [t for t in plays if t[: len(selection)] == selection]
        choice = self.choose(
            view, hand, middle, plays, can_pass=view["phase"] == "answer" and not selection
        )
        if choice is None:
            return PASS
        if not view["two_decks"]:
            return PLAY_BASE + info_state.game.set_index[choice]
        k = len(selection)
        return FINISH if len(choice) == k else ADD_BASE + choice[k]

    def choose(self, view, hand, middle, plays, can_pass):
        """The play to make (a descending tuple), or None to pass."""
        size = sum(hand)
        for t in plays:
            if len(t) == size:  # going out (or everything at once)
                return t
        others = [k for q, k in enumerate(view["hand_sizes"]) if q != view["player"]]
        danger = min(others) <= 2
        best, best_v = None, None
        for t in plays:
            after = hand[:]
            for c in t:
                after[c] -= 1
            if middle:
                after[best_pick(after, middle)] += 1
            v = hand_value(after) + TEMPO_BONUS
            if danger:
                v += 0.5 * (len(t) - 1)
            if best_v is None or v > best_v + 1e-9:
                best, best_v = t, v
        if can_pass and (best is None or hand_value(hand) >= best_v):
            return None
        return best
