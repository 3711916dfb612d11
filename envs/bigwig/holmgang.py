"""A BigWig holmgang round before its trick: the challenge, the stake and the ticket window.

The player with the fewest VP challenges another player who holds a point card (B24, B25),
chooses the card at stake (whose colours become trump, B12), and every onlooker decides at once
whether to join with a Til Valhallar (B27, W-E1); then the duellists and joiners play the trick
(``BigWigState._start_commits``). ``HolmgangMixin`` holds these steps of ``BigWigState``; the
protocol (masks, ``_apply``) stays in rules.py.
"""

from __future__ import annotations

from .actions import JOIN, PHASE_STAKE, PHASE_TARGET, PHASE_TICKET, TARGET_BASE
from .cards import POINT_TRUMP, TIL_VALHALLAR


def challenger_of(vp, age_rank) -> int:
    """The seat with the fewest VP; ties go to the youngest (B24)."""
    return min(range(len(vp)), key=lambda s: (vp[s], age_rank[s]))


class HolmgangMixin:
    """``BigWigState``'s holmgang steps (they use its fields and ``_start_commits``,
    ``_finish_round``)."""

    __slots__ = ()

    def _start_holmgang(self) -> None:
        """A holmgang card is revealed: the challenger is found (B24); with nobody to challenge
        the round ends at once (B25)."""
        self.holmgangs += 1
        vp = self.vp().tolist()
        c = challenger_of(vp, self.game.age_rank)
        self.challenger = c
        if not any(self.collected[q].any() for q in range(self.game.num_players) if q != c):
            self._finish_round()  # B25: nobody can be challenged, no duel
            return
        self.phase = PHASE_TARGET
        self.current_player = c

    def _choose_target(self, p: int, action: int) -> None:
        self.target = (p + action - TARGET_BASE + 1) % self.game.num_players
        self.phase = PHASE_STAKE

    def _choose_stake(self, action: int) -> None:
        self.stake = action - self.game.stake_base
        self.trump = POINT_TRUMP[self.stake].tolist()  # B12
        duel = (self.challenger, self.target)
        self.queue = [s for s in self.game.age_order if s not in duel]
        self._next_ticket()

    def _decide_ticket(self, p: int, action: int) -> None:
        if action == JOIN:  # kept secret until every onlooker has decided
            self.tickets.append(p)
        self.queue.pop(0)
        self._next_ticket()

    def _next_ticket(self) -> None:
        """B27: the next onlooker in age order decides about a ticket (every onlooker is asked,
        with or without a Til Valhallar); after the last one, the joins are revealed."""
        if self.queue:
            self.phase = PHASE_TICKET
            self.current_player = self.queue[0]
        else:
            self._reveal_tickets()

    def _reveal_tickets(self) -> None:
        """B27 (W-E1): every onlooker has decided, each unaware of the others' decisions, like a
        trick's commits; being asked showed nothing, every onlooker is. Now the joiners discard
        their tickets (in age order) and play the duel's trick."""
        for s in self.tickets:
            self.hands[s, TIL_VALHALLAR] -= 1  # the ticket is discarded, not played
            self.discard[TIL_VALHALLAR] += 1
            self.origins.reveal(s, TIL_VALHALLAR)
            self.joiners.append(s)
        self.tickets = []
        self._start_commits([self.challenger, self.target, *self.joiners])

    def decided(self) -> list[int]:
        """The onlookers that have made their ticket decision, in age order (ticket window)."""
        duel = (self.challenger, self.target)
        return [s for s in self.game.age_order if s not in duel and s not in self.queue]
