"""Public memory of the hidden large cards: which draw pile each one can have come from.

Rulings X7 and "the reshuffle forgets nothing" (docs/rules/bigwig.md): when the discard pile is
shuffled into a new draw pile, everyone saw which cards it holds, so the table still knows them
afterwards; a card of it is either still in the pile or in the hand of a player who drew from it.

The record keeps one entry per draw pile of the game, oldest first: the dealt deck (all 52 large
cards; the deal counts as each player drawing 7 from it), then every reshuffled discard pile. For
each pile it keeps ``cards`` (its composition when it was formed), ``left`` (those cards not yet
seen again) and ``held[q]`` (cards seat q took from it that have not been seen again). Large cards
never pass from hand to hand, so a card a seat plays came from a pile it drew from. When only one
pile can have supplied it, the record takes it off that pile's ``left`` and ``held``; when several
can (a Til Valhallar from the deck and one from a reshuffled pile, say), the play is kept as
``unattributed`` with the candidate piles, and ``deal_hidden`` settles it when it deals.

Everything here is computed from public events only (draw counts and face-up cards), so it belongs
in every seat's view. ``deal_hidden`` redeals the cards one seat cannot see consistently with it.
"""

from __future__ import annotations

import numpy as np

from .cards import NUM_KINDS


class Origins:
    __slots__ = ("cards", "drawn", "held", "left", "unattributed")

    def __init__(self, cards, left, held, drawn, unattributed):
        self.cards = cards  # per pile: list of NUM_KINDS counts when it was formed
        self.left = left  # per pile: counts of its cards not seen again
        self.held = held  # per pile: per seat, cards taken from it not seen again
        self.drawn = drawn  # per pile: per seat, cards drawn from it (the deal not counted)
        self.unattributed = unattributed  # per seat: [kind, [candidate piles]] of ambiguous plays

    @classmethod
    def dealt(cls, hidden: np.ndarray, hand_sizes: list[int]) -> Origins:
        """Nothing seen yet: one pile of ``hidden`` (counts per kind), ``hand_sizes`` dealt."""
        n = len(hand_sizes)
        return cls(
            [hidden.tolist()],
            [hidden.tolist()],
            [list(hand_sizes)],
            [[0] * n],
            [[] for _ in range(n)],
        )

    # ---- public events ------------------------------------------------------------------
    def draw(self, seat: int) -> None:
        self.held[-1][seat] += 1
        self.drawn[-1][seat] += 1

    def reshuffle(self, pile: list[int]) -> None:
        """The face-up discard pile (counts per kind) became the new face-down draw pile."""
        n = len(self.held[0])
        self.cards.append(list(pile))
        self.left.append(list(pile))
        self.held.append([0] * n)
        self.drawn.append([0] * n)

    def reveal(self, seat: int, kind: int) -> None:
        """``seat`` showed a card of ``kind`` from its hand (played, sacrificed or a ticket)."""
        held, left = self.held, self.left
        if len(left) == 1:  # before the first reshuffle every card comes from the deck
            left[0][kind] -= 1
            held[0][seat] -= 1
            return
        piles = [b for b in range(len(left)) if held[b][seat] and left[b][kind]]
        if not piles:
            raise AssertionError(f"seat {seat} showed kind {kind}: no pile it drew from has it")
        if len(piles) > 1:
            self.unattributed[seat].append([kind, piles])
            return
        self._attribute(seat, kind, piles[0])
        self._settle()

    def _attribute(self, seat: int, kind: int, pile: int) -> None:
        self.left[pile][kind] -= 1
        self.held[pile][seat] -= 1

    def _settle(self) -> None:
        """Attribute the ambiguous plays that later attributions left with a single candidate."""
        changed = True
        while changed:
            changed = False
            for seat, plays in enumerate(self.unattributed):
                for play in plays:
                    kind, piles = play
                    still = [b for b in piles if self.held[b][seat] and self.left[b][kind]]
                    if len(still) == 1:
                        plays.remove(play)
                        self._attribute(seat, kind, still[0])
                        changed = True
                        break
                    play[1] = still

    # ---- what the view shows ------------------------------------------------------------
    def hidden_count(self, seat: int) -> int:
        """Cards of ``seat`` not yet seen again (its hand plus a face-down commit)."""
        return sum(h[seat] for h in self.held) - len(self.unattributed[seat])

    def reshuffled(self) -> list[int] | None:
        """The composition of the current draw pile when it was shuffled (None: still the deck)."""
        return list(self.cards[-1]) if len(self.cards) > 1 else None

    def to_dict(self) -> dict:
        return {
            "piles": [
                {"cards": list(c), "left": list(lf), "held": list(h), "drawn": list(d)}
                for c, lf, h, d in zip(self.cards, self.left, self.held, self.drawn)
            ],
            "unattributed": [[[k, list(p)] for k, p in plays] for plays in self.unattributed],
        }

    @classmethod
    def from_dict(cls, d: dict) -> Origins:
        piles = d["piles"]
        return cls(
            [list(p["cards"]) for p in piles],
            [list(p["left"]) for p in piles],
            [list(p["held"]) for p in piles],
            [list(p["drawn"]) for p in piles],
            [[[int(k), list(p)] for k, p in plays] for plays in d["unattributed"]],
        )

    def clone(self) -> Origins:
        return Origins(
            [c[:] for c in self.cards],
            [lf[:] for lf in self.left],
            [h[:] for h in self.held],
            [d[:] for d in self.drawn],
            [[[k, p[:]] for k, p in plays] for plays in self.unattributed],
        )

    # ---- checking a saved record ----------------------------------------------------------
    def explains(self, hidden, pile, budget: int = 100_000) -> bool | None:
        """Whether the record can be the history of this position: every seat's unseen cards
        (``hidden[q]``: counts per kind, hand and face-down card) and every ambiguous play came
        from a pile the seat drew from, in the numbers ``held`` says, the current draw pile's
        cards (``pile``: counts per kind) are still in it, and nothing else is left in any pile.

        A saved state is checked with this (saved.py): a record that no history explains makes a
        later play raise in ``reveal`` or a determinization fail. It is an exact search (a card
        at a time, most constrained first, identical cards placed in pile order so that no
        placement is tried twice); None when ``budget`` placements did not settle it.
        """
        room = [h[:] for h in self.held]
        supply = [lf[:] for lf in self.left]
        last = supply[-1]
        for k, c in enumerate(pile):
            last[k] -= int(c)
            if last[k] < 0:
                return False
        every = tuple(range(len(supply)))
        items = [
            (q, int(k), tuple(c)) for q, plays in enumerate(self.unattributed) for k, c in plays
        ]
        items += [
            (q, k, every)
            for q, row in enumerate(hidden)
            for k, c in enumerate(row)
            for _ in range(c)
        ]
        if any(sum(r) != sum(1 for q, _, _ in items if q == s) for s, r in enumerate(zip(*room))):
            return False  # (zip(*room): per seat) a seat's places must be exactly its cards
        if sum(map(sum, supply)) != len(items):
            return False

        def options(item):
            q, k, candidates = item
            return sum(1 for b in candidates if room[b][q] and supply[b][k])

        items.sort(key=lambda item: (options(item), item))
        steps = [budget]

        def place(i: int, first: int) -> bool | None:
            if i == len(items):
                return True
            steps[0] -= 1
            if steps[0] < 0:
                return None
            q, k, candidates = items[i]
            for b in candidates:
                if b < first or not (room[b][q] and supply[b][k]):
                    continue
                room[b][q] -= 1
                supply[b][k] -= 1
                same = i + 1 < len(items) and items[i + 1] == items[i]
                found = place(i + 1, b if same else 0)
                room[b][q] += 1
                supply[b][k] += 1
                if found is not False:
                    return found
            return False

        return place(0, 0)

    # ---- determinize --------------------------------------------------------------------
    def deal_hidden(
        self, player: int, own: list[int], pile_size: int, rng: np.random.Generator
    ) -> tuple[list[np.ndarray], list[int]]:
        """A consistent redeal of what ``player`` cannot see.

        ``own``: the kinds ``player`` holds unseen by the others (hand and face-down card); no other
        seat's hidden card is known (every onlooker is asked about a ticket, so being asked shows
        none). Returns each seat's hidden cards as counts per kind (``player``'s own row is
        ``own``) and the draw pile (a shuffled list of kinds, top last).

        Every card is dealt from a pile it can have come from, to a seat that drew from that pile
        (or left in the current pile), in the numbers the record holds; the ambiguous plays are
        first settled on candidate piles. A random depth-first search finds such a settlement
        (the real game is one, so it exists); the rest of each pile is then dealt uniformly.
        """
        n = len(self.held[0])
        piles = range(len(self.left))
        room = [h[:] for h in self.held]  # room[b][q]: q's places from pile b still to fill
        supply = [lf[:] for lf in self.left]
        every = list(piles)
        # (seat, kind, candidate piles, stays in hand): ambiguous plays first, then the known cards
        items = [(q, k, c, False) for q, plays in enumerate(self.unattributed) for k, c in plays]
        items += [(player, k, every, True) for k in own]
        if len(self.left) > 1:

            def options(item):
                q, k, candidates, _ = item
                return sum(1 for b in candidates if room[b][q] and supply[b][k])

            order = sorted(items, key=options)
            if not _search(order, 0, room, supply, rng):
                raise AssertionError("no consistent deal of the hidden cards exists")
        else:  # a single pile: everything comes from it
            for q, k, _, _ in items:
                room[0][q] -= 1
                supply[0][k] -= 1
        hands = [np.zeros(NUM_KINDS, dtype=np.int64) for _ in range(n)]
        for q, k, _, stays in items:
            if stays:
                hands[q][k] += 1
        draw: list[int] = []
        last = len(self.left) - 1
        for b in piles:
            if room[b][player]:
                raise AssertionError(f"pile {b}: {room[b][player]} of the player's places unfilled")
            pool = np.repeat(np.arange(NUM_KINDS), supply[b])
            rng.shuffle(pool)
            at = 0
            for q in range(n):
                if room[b][q]:
                    hands[q] += np.bincount(pool[at : at + room[b][q]], minlength=NUM_KINDS)
                    at += room[b][q]
            if b == last:
                draw = pool[at:].tolist()
                at += len(draw)
            if at != len(pool) or (b == last and len(draw) != pile_size):
                raise AssertionError(f"pile {b}: {len(pool)} cards for {at} places")
        return hands, draw


def _search(items, depth, room, supply, rng) -> bool:
    """Place ``items[depth:]`` on candidate piles with room and supply left (random order,
    backtracking)."""
    if depth == len(items):
        return True
    q, k, candidates, _ = items[depth]
    options = [b for b in candidates if room[b][q] and supply[b][k]]
    rng.shuffle(options)
    for b in options:
        room[b][q] -= 1
        supply[b][k] -= 1
        if _search(items, depth + 1, room, supply, rng):
            return True
        room[b][q] += 1
        supply[b][k] += 1
    return False
