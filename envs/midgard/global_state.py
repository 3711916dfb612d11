"""Midgard's global state (``env.state()``): the full-information encoding for centralised critics.

Seat 0's observation without what only the observer sees (its hand, its rewards, the reward top it
put back, the rewards it is choosing from, the face-down bonuses as it sees them), in absolute seat
order, then everything hidden: every hand and every seat's unrevealed rewards, the face-down
bonuses with their owners, the rewards drawn for a keep-one choice, and the three decks, which are
the future:

* the Thing (up to 122 cards): counts of each kind and its next ``THING_WINDOW`` cards in order
  (a turn draws 1 to hire and up to 9 to reset a hand; the rest only by counts, and a reshuffle of
  Valhalla and the Krog is chance still to come);
* the reward pile (30 cards): its whole order (which reward a battle or a world brings);
* the challenge deck (40 challenges, each unique): which are still in it, and the next
  ``CHALLENGE_WINDOW`` in order (the ones that will open next).

``decisions`` (the ``max_decisions`` clock, public but not in the observation) is added so a
critic sees how close a truncation is.
"""

from __future__ import annotations

import numpy as np

from ..core.global_state import StateLayout, put_pile
from .cards import DATA
from .encoding import NCH, NR, K
from .modes import KEEP

THING_WINDOW = 12
CHALLENGE_WINDOW = 6
REWARD_PILE = sum(DATA.reward_counts)  # 30: the whole pile fits in its window
_REWARD_SCALE = 1.0 / np.asarray(DATA.reward_counts, dtype=np.float64)


def make_state_layout(game) -> StateLayout:
    n = game.num_players
    observer = ("hand", "own_rewards", "reward_top", "ctx_keep", "bonus_placed", "own_bonus")
    return StateLayout(
        game.layout,
        observer,
        [
            ("hands", (n, K)),  # every seat's hand: copies of each card kind / 8
            ("rewards", (n, NR)),  # every seat's unrevealed rewards of each kind / 6
            (
                "bonus",
                (2, K),
            ),  # one-hot face-down bonus of side 0 (challenge / attacker) and side 1
            ("bonus_owner", (2, n)),  # one-hot seat that placed each side's bonus
            ("keep_drawn", NR),  # the rewards drawn for a keep-one choice / 2
            (
                "reward_top_known",
                n,
            ),  # one-hot seat that put the reward pile's top back (and knows it)
            ("decisions", 1),  # decisions so far / max_decisions
            ("thing", K),  # Thing cards of each kind / 8
            ("thing_next", (THING_WINDOW, K)),  # one-hot kind of the next 12 Thing cards, top first
            ("reward_pile", NR),  # reward pile cards of each kind / copies
            ("reward_pile_next", (REWARD_PILE, NR)),  # the whole reward pile in order, top first
            ("challenge_pile", NCH),  # challenges still in the deck
            ("challenge_pile_next", (CHALLENGE_WINDOW, NCH)),  # one-hot next 6 challenges to open
        ],
    )


def global_state(s) -> np.ndarray:
    """The full-information encoding (``game.state_layout``)."""
    game = s.game
    buf, v = game.state_layout.start(s.observe(0))
    v["hands"] = s.hands * 0.125
    v["rewards"] = s.rewards * (1.0 / 6.0)
    c = s.contest
    if c is not None:
        for side in (0, 1):
            if c["b"][side] >= 0:
                v["bonus"][side, c["b"][side]] = 1.0
                v["bonus_owner"][side, c["bs"][side]] = 1.0
    keep = v["keep_drawn"]
    for f in s.stack:
        if f.m == KEEP:
            for k in f.drawn:
                keep[k] += 0.5
    if s.reward_top_known >= 0 and s.reward_deck:
        v["reward_top_known"][s.reward_top_known] = 1.0
    v["decisions"] = min(s.decisions / game.options["max_decisions"], 1.0)
    put_pile(v["thing"], v["thing_next"], s.thing, 0.125)
    put_pile(v["reward_pile"], v["reward_pile_next"], s.reward_deck, _REWARD_SCALE)
    put_pile(v["challenge_pile"], v["challenge_pile_next"], s.ch_deck, 1.0)
    return buf
