"""M-E1: reaction windows and bonus rounds ask every seat the rules let answer (MD15).

Being asked is public (the deciding seat is ``agent_selection``), so it must not depend on the
asked seat's hidden cards: a seat holding a card is asked whether or not a card of it fits, and
answers with a forced ``pass`` when none does. Each test builds two worlds that differ only in one
hidden card of seat ``k`` (a card that could answer in one world, a class card in the other, the
two swapped with the Thing's bottom card), plays the same moves in both and checks, at every
decision through the window or bonus round, that every other seat sees the same thing: its view
and observation, the deciding seat, the deciding seat's mask when that is not ``k``, and the
number of steps. Those are what the AEC env shows (envs/core/aec.py): ``agent_selection`` is the
seat ``current_player`` names, an agent's observation is ``observe(seat)`` and its
``action_mask`` the legal mask for the deciding seat, zeros for the others. The option
``reaction_windows="holders_leaky"`` keeps the old skipping, and the same check tells its worlds
apart.
"""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.envs import ConfigError
from deckzoo.envs.core.conformance import check_state
from deckzoo.envs.midgard.rules import BONUS, ONSLAUGHT, PREP, REACT, MidgardGame

from .util import A, at, blank, ch, complete, give, k, troop, world

PETER = "Kriger - Berserker - Thor - Ränger - Göddar"  # might 11, against the Jotun's 10
FILLER = k("Hyggelig")  # the card seat k holds instead, in the other world
WINDOW_MODES = (REACT, BONUS)


def _action_card(name: str, base: str) -> int:
    first = A.FIRST_REACTION if base == "react" else A.FIRST_ACTION_CARD
    return A.encode(base, k(name) - first)


# ---- the positions: each opens one kind of window or bonus round ------------------------------
def _table(hidden: dict, n: int = 4):
    """A table where every seat holds a Kriger (so every seat has a card) plus ``hidden`` (seat ->
    card names); the Thing's top is fixed (the same draws in both worlds), its bottom a Hyggelig."""
    s = blank(n)
    s.open = [ch(x) for x in ("Trade", "Scots", "Saxons", "Bjorkun", "Kraken", "Maelstrom")]
    for q in range(n):
        give(s, q, k("Kriger"))
    for q, names in hidden.items():
        give(s, q, *(k(x) for x in names))
    return s


def _finish(s, p: int, mode: int):
    complete(s, thing_top=[k("Skålde")] * 6)
    at(s, p, mode)
    if mode == PREP:
        s.events_left = 1
    return s


def event_position(event: str, hidden: dict, worlds=None):
    """Seat 0 is about to play ``event`` in its Preparation."""
    s = _table({0: [event], **{q: v for q, v in hidden.items() if q != 0}})
    if worlds is not None:
        s.world[:] = worlds
    return _finish(s, 0, PREP), [(0, _action_card(event, "play_event"))]


def challenge_position(hidden: dict):
    """Seat 0 (Peter, might 11) is about to face the Jotun (10): he wins without bonuses."""
    s = _table(hidden)
    s.troops[0] = [troop(PETER)]
    s.world[0] = world("Jotunheim")
    s.open = [ch("Jotun")]
    face = [(0, A.encode("face", ch("Jotun"))), (0, A.encode("select_troop", 0))]
    return _finish(s, 0, ONSLAUGHT), [*face, (0, A.FINISH)]


def battle_position(hidden: dict):
    """Seat 0 (a troop of might 6) is about to attack seat 1, which defends (might 4)."""
    s = _table(hidden, n=3)
    s.troops[0] = [troop("Skålde - Kriger - Berserker - Bueskytter - Sjømann - Ränger")]
    s.troops[1] = [troop("Hyggelig - Skålde - Kriger - Berserker - Bueskytter")]
    s.world[:2] = world("Nidavellir")
    return _finish(s, 0, ONSLAUGHT), [(0, A.encode("attack", 0, 0)), (1, A.encode("defend", 0))]


# (case, seat k, its hidden card in world A, the position with the moves that open the window)
CASES = [
    ("card_played", 2, "Odin's Reprimand", lambda h: event_position("Freyr's Harvest", h)),
    ("attack_event", 1, "Frigg's Veil", lambda h: event_position("Hel's Toll", h)),
    (
        "moved_by_effect",
        3,
        "Hermod's Ride",
        lambda h: event_position("Fenrir's Howl", h, worlds=[0, 0, 0, world("Asgard")]),
    ),
    ("troop_engaged_for_challenge", 0, "Sif's Blessing", challenge_position),
    ("challenge_faced_by_opponent", 3, "Skuld's Thread", challenge_position),
    ("challenge_won_by_opponent", 2, "Njord's Favour", challenge_position),
    ("challenge_bonus_opponent", 1, "Fimbulwinter", challenge_position),
    ("attacked", 1, "Heimdall's Horn", battle_position),
    ("battle_bonus_attacker", 0, "Loki's Trick", battle_position),
    ("battle_bonus_defender", 1, "Roots of Yggdrasil", battle_position),
]


def reaction_chain_position(hidden: dict):
    """Seat 0 faces the Jotun and plays Sif's Blessing in the engagement window: the reaction's
    own window (``card_played``) asks the other seats."""
    s, moves = challenge_position({**hidden, 0: ["Sif's Blessing"]})
    return s, [*moves, (0, _action_card("Sif's Blessing", "react"))]


CASES.append(("card_played_by_a_reaction", 2, "Odin's Reprimand", reaction_chain_position))


# ---- two worlds -------------------------------------------------------------------------------
def two_worlds(build, seat: int, card: str, **options):
    """World A: seat ``seat`` holds ``card``; world B: a Hyggelig instead, and ``card`` lies at the
    bottom of the Thing in its place (nobody draws that deep here)."""
    a, moves = build({seat: [card]})
    if options:
        a.game = MidgardGame(a.game.num_players, **options)
    b = a.clone()
    assert b.thing[0] == FILLER and not b.known[seat].any()
    b.hands[seat, k(card)] -= 1
    b.hands[seat, FILLER] += 1
    b.thing[0] = k(card)
    b.invalidate()
    b.check_invariants()
    return a, b, moves


def first_difference(a, b, seat: int):
    """What tells the worlds apart to a seat other than ``seat`` now, or None."""
    if a.current_player != b.current_player or a.mode != b.mode:
        return (
            f"the deciding seat {a.current_player} / {b.current_player}, mode {a.mode} / {b.mode}"
        )
    if a.current_player not in (None, seat) and not np.array_equal(a.legal_mask(), b.legal_mask()):
        return f"the mask of the deciding seat {a.current_player}"
    for p in range(a.game.num_players):
        if p == seat:
            continue
        va, vb = a.view(p), b.view(p)
        diff = sorted(key for key in va if va[key] != vb[key])
        if diff:
            return f"seat {p}'s view: {diff}"
        if not np.array_equal(a.observe(p), b.observe(p)):
            return f"seat {p}'s observation"
    return None


def play_through(a, b, seat: int, moves):
    """Play ``moves`` (seat, action) in both worlds, answering every other decision (a window or
    a bonus round) with ``pass``, until the moves are done and no window is open. Returns the
    trace of deciding seats, the first difference found (or None) and the states where ``seat``
    was asked with a real choice in world A and a forced pass in world B."""
    moves, trace, forced = list(moves), [], []
    while moves or a.mode in WINDOW_MODES:
        diff = first_difference(a, b, seat)
        if diff is not None:
            return trace, diff, forced
        p = a.current_player
        trace.append(p)
        if moves and moves[0][0] == p and a.legal_mask()[moves[0][1]]:
            action = moves.pop(0)[1]
        else:
            assert a.mode in WINDOW_MODES, f"no move for seat {p} in mode {a.mode}"
            action = A.PASS
            if p == seat and b.legal_actions().tolist() == [A.PASS] and a.legal_mask().sum() > 1:
                forced.append(b.clone())
        a.apply(action)
        b.apply(action)
    return trace, first_difference(a, b, seat), forced


@pytest.mark.parametrize(("case", "seat", "card", "build"), CASES, ids=[c[0] for c in CASES])
def test_M_E1_two_worlds_every_window_asks_the_same_seats(case, seat, card, build):
    a, b, moves = two_worlds(build, seat, card)
    trace, diff, forced = play_through(a, b, seat, moves)
    assert diff is None, f"{case}: {diff}"
    # the window was there, and seat k was asked in it in both worlds: a forced pass in world B
    assert forced, f"{case}: seat {seat} was never asked with {card} in hand ({trace})"
    check_state(forced[0], np.random.default_rng(0), deep=True)  # the forced pass's exact mask
    assert a.mode not in WINDOW_MODES and a.decisions == b.decisions


@pytest.mark.parametrize(("case", "seat", "card", "build"), CASES, ids=[c[0] for c in CASES])
def test_M_E1_holders_leaky_mode_is_told_apart(case, seat, card, build):
    # the leaky fast mode skips the seat without the card: every other seat sees the difference
    a, b, moves = two_worlds(build, seat, card, reaction_windows="holders_leaky")
    _trace, diff, _forced = play_through(a, b, seat, moves)
    assert diff is not None and "deciding seat" in diff, case


def test_M_E1_a_seat_without_a_fitting_card_is_asked_a_seat_without_cards_is_not():
    # the rulebook's windows are open to every seat; one holding no card at all (public: hand
    # sizes) cannot answer and is not asked
    s, moves = event_position("Freyr's Harvest", {})
    s.hands[3, k("Kriger")] -= 1
    s.thing.append(k("Kriger"))
    s.invalidate()
    s.apply(moves[0][1])
    asked = []
    while s.mode == REACT:
        asked.append(s.current_player)
        assert s.legal_actions().tolist() == [A.PASS]
        s.apply(A.PASS)
    assert asked == [1, 2] and s.mode == PREP


# ---- random positions: any hidden event or reaction, any window -------------------------------
def _swappable(s):
    """(seat, hidden action card, Thing index of a troop card near the bottom) or None: a seat
    holds an event or reaction nobody saw it take, and a class card lies deep in the Thing."""
    low = next((i for i, x in enumerate(s.thing[:5]) if x < A.FIRST_ACTION_CARD), None)
    if low is None or s.contest is not None:
        return None
    for q in range(s.game.num_players):
        hidden = np.flatnonzero(
            s.hands[q, A.FIRST_ACTION_CARD :] > s.known[q, A.FIRST_ACTION_CARD :]
        )
        if len(hidden):
            return q, A.FIRST_ACTION_CARD + int(hidden[0]), low
    return None


def random_two_worlds(options: dict, games: int = 2):
    """Two worlds at positions of random 4-player games (before any reshuffle): one seat's hidden
    event or reaction swapped with a class card near the Thing's bottom; then the same random
    moves in both (the swapped seat picks among moves legal in both worlds) while that card is
    deep in the Thing (at most 120 moves). Yields the first difference at each position (None if
    there is none) and how many windows the seat was asked in."""
    game = MidgardGame(4, start_position=4, **options)
    rng = np.random.default_rng(11)
    for g in range(games):
        s = game.new_state(g)
        size = len(s.thing)
        while not s.is_terminal() and len(s.thing) <= size and s.decisions < 400:
            size = len(s.thing)
            found = _swappable(s) if s.decisions % 50 == 25 else None
            if found is not None:
                yield _compare_from(s, *found, rng)
            s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))


def _compare_from(s, seat: int, card: int, low: int, rng):
    a, b = s.clone(), s.clone()
    filler = b.thing[low]
    b.hands[seat, card] -= 1
    b.hands[seat, filler] += 1
    b.thing[low] = card
    b.invalidate()
    asked = 0
    for _ in range(120):
        if a.is_terminal() or len(a.thing) <= low + 20:
            break
        diff = first_difference(a, b, seat)
        if diff is not None:
            return diff, asked
        mask = a.legal_mask()
        if a.current_player == seat:
            mask &= b.legal_mask()
            asked += a.mode in WINDOW_MODES
            if not mask.any():
                break
        action = int(rng.choice(np.flatnonzero(mask)))
        a.apply(action)
        b.apply(action)
    return None, asked


def test_M_E1_two_worlds_random_positions_no_window_tells():
    results = list(random_two_worlds({}))
    assert len(results) >= 5
    assert [d for d, _ in results if d is not None] == []
    assert sum(asked for _, asked in results) > 0  # the swapped seat was asked in windows


def test_M_E1_two_worlds_random_positions_tell_the_leaky_mode_apart():
    results = random_two_worlds({"reaction_windows": "holders_leaky"})
    assert any(d is not None for d, _ in results)  # stops at the first one


# ---- the option ----------------------------------------------------------------------------
def test_reaction_windows_option_is_checked_and_defaults_to_all():
    assert MidgardGame(4).options["reaction_windows"] == "all"
    assert not MidgardGame(4).ask_holders_only
    assert MidgardGame(4, reaction_windows="holders_leaky").ask_holders_only
    for bad in ("holders", "", None, 1):
        with pytest.raises(ConfigError, match="reaction_windows"):
            MidgardGame(4, reaction_windows=bad)
