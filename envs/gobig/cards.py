"""Go Big's cards: 91 cards, 13 copies of each value 1-7; hands of 6 and a market of 2.

Cards are their values (1-7) in piles and lists, and count rows over the values elsewhere
(index value - 1). These are the rulebook's numbers; a variant's smaller deck and hands are
the game's ``values``, ``copies`` and ``hand_size`` (rules.py), and a card keeps its value there.
"""

import numpy as np

VALUES = 7
COPIES = 13
HAND_SIZE = 6
MARKET_SIZE = 2
TOTAL_CARDS = VALUES * COPIES

# The values 1..7 by index (a count row's value - 1): ``np.repeat(CARD_VALUES, row)`` lists a
# row's cards, ``row @ CARD_VALUES`` sums their points.
CARD_VALUES = np.arange(1, VALUES + 1)
