"""A BigWig holmgang round before its trick: the challenge, the stake and the ticket window.

The player with the fewest VP challenges another player who holds a point card (B24, B25),
chooses the card at stake (whose colours become trump, B12), and every onlooker decides at once
whether to join with a Til Valhallar (B27, W-E1); then the duellists and joiners play the trick
(``BigWigState._start_commits``). Functions over the state: rules.py calls ``start`` when a
holmgang card is revealed and ``choose_target``, ``choose_stake``, ``decide_ticket`` from
``_apply``; the protocol (masks, ``_apply``) stays in rules.py.
"""

from __future__ import annotations

from .actions import JOIN, PHASE_STAKE, PHASE_TARGET, PHASE_TICKET, TARGET_BASE
from .cards import POINT_TRUMP, TIL_VALHALLAR


def challenger_of(vp, age_rank) -> int:
    """The seat with the fewest VP; ties go to the youngest (B24)."""
    return min(range(len(vp)), key=lambda s: (vp[s], age_rank[s]))


def start(st) -> None:
    """A holmgang card is revealed: the challenger is found (B24); with nobody to challenge the
    round ends at once (B25)."""
    st.holmgangs += 1
    vp = st.vp().tolist()
    c = challenger_of(vp, st.game.age_rank)
    st.challenger = c
    if not any(st.collected[q].any() for q in range(st.game.num_players) if q != c):
        st._finish_round()  # B25: nobody can be challenged, no duel
        return
    st.phase = PHASE_TARGET
    st.current_player = c


def choose_target(st, p: int, action: int) -> None:
    st.target = (p + action - TARGET_BASE + 1) % st.game.num_players
    st.phase = PHASE_STAKE


def choose_stake(st, action: int) -> None:
    st.stake = action - st.game.stake_base
    st.trump = POINT_TRUMP[st.stake].tolist()  # B12
    duel = (st.challenger, st.target)
    st.queue = [s for s in st.game.age_order if s not in duel]
    next_ticket(st)


def decide_ticket(st, p: int, action: int) -> None:
    if action == JOIN:  # kept secret until every onlooker has decided
        st.tickets.append(p)
    st.queue.pop(0)
    next_ticket(st)


def next_ticket(st) -> None:
    """B27: the next onlooker in age order decides about a ticket (every onlooker is asked, with
    or without a Til Valhallar); after the last one, the joins are revealed."""
    if st.queue:
        st.phase = PHASE_TICKET
        st.current_player = st.queue[0]
    else:
        reveal_tickets(st)


def reveal_tickets(st) -> None:
    """B27 (W-E1): every onlooker has decided, each unaware of the others' decisions, like a
    trick's commits; being asked showed nothing, every onlooker is. Now the joiners discard their
    tickets (in age order) and play the duel's trick."""
    for s in st.tickets:
        st.hands[s, TIL_VALHALLAR] -= 1  # the ticket is discarded, not played
        st.discard[TIL_VALHALLAR] += 1
        st.origins.reveal(s, TIL_VALHALLAR)
        st.joiners.append(s)
    st.tickets = []
    st._start_commits([st.challenger, st.target, *st.joiners])


def decided(st) -> list[int]:
    """The onlookers that have made their ticket decision, in age order (ticket window)."""
    duel = (st.challenger, st.target)
    return [s for s in st.game.age_order if s not in duel and s not in st.queue]
