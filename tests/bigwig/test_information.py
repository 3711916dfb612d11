"""BigWig's information model: the public memory of reshuffled draw piles (W-D1, X7), and views that
do not depend on hidden cards (two worlds with the same public history must look the same, in the
engine, the AEC env and the Parallel env: W-E1)."""

import numpy as np

from deckzoo.envs import bigwig_v1
from deckzoo.envs.bigwig.cards import (
    FENRIR,
    HOLMGANG,
    KIND_COPIES,
    NUM_KINDS,
    TIL_VALHALLAR,
    WELL,
    point_kind,
    standard,
)
from deckzoo.envs.bigwig.rules import (
    JOIN,
    PASS,
    PHASE_COMMIT,
    PHASE_NAMES,
    PHASE_SACRIFICE,
    PHASE_STAKE,
    PHASE_TARGET,
    PHASE_TICKET,
    PLAY_WELL,
    SACRIFICE_BASE,
    TARGET_BASE,
    BigWigGame,
)
from deckzoo.envs.core.adapter_options import RewardTracker

from .helpers import commit, counts, table

R, Y, B, G = "red", "yellow", "blue", "green"
P2_RED = point_kind([R])
SINGLE = KIND_COPIES == 1


def hidden_of(state, seat) -> np.ndarray:
    """The large cards of ``seat`` nobody else sees: hand plus a face-down card."""
    cards = state.hands[seat].copy()
    if state.commits[seat] not in (-1, WELL):
        cards[state.commits[seat]] += 1
    return cards


def assert_same_views(a, b, seats):
    for p in seats:
        assert a.view(p) == b.view(p), p
        assert np.array_equal(a.observe(p), b.observe(p)), p


# ---- W-D1: a reshuffled pile is remembered -------------------------------------------------------
def reshuffle_while_seat_0_draws():
    """Two players, empty draw pile: seat 0 plays the well, seat 1 a blue 5; seat 0 sacrifices its
    red 9, the discard pile (48 cards, all seen) becomes the draw pile, and seat 0 draws 3 of them.
    Seat 1 still holds green 7 and a Fenrir: every card not in seat 0's hand and not in the new pile
    was never discarded, so the table knows seat 1's hand by recall."""
    hands = [
        [standard(R, 9), standard(R, 1), standard(Y, 1)],
        [standard(B, 5), standard(G, 7), FENRIR],
    ]
    s = table(hands, P2_RED, draw=[])
    commit(s, {0: WELL, 1: standard(B, 5)})
    s.apply(SACRIFICE_BASE + standard(R, 9))
    s.check_invariants()
    return s


def test_W_D1_recall_pins_an_opponents_hand_after_a_reshuffle():
    s = reshuffle_while_seat_0_draws()
    assert s.hands[1].tolist() == counts([standard(G, 7), FENRIR], NUM_KINDS).tolist()
    assert s.hands[0].sum() == 5 and len(s.draw) == 45
    rng = np.random.default_rng(0)
    for _ in range(200):
        d = s.determinize(0, rng)
        assert d.hands[1].tolist() == s.hands[1].tolist()
        assert sorted(d.draw) == sorted(s.draw)  # the pile's composition is known, not its order
        assert d.view(0) == s.view(0)
        d.check_invariants()


def test_W_D1_view_and_observation_keep_the_reshuffled_pile():
    s = reshuffle_while_seat_0_draws()
    kept = counts([standard(R, 1), standard(Y, 1)], NUM_KINDS)  # seat 0's cards before the draw
    pile = counts(s.draw, NUM_KINDS) + s.hands[0] - kept
    for p in (0, 1):
        v = s.view(p)
        assert v["reshuffled"] == pile.tolist() and sum(v["reshuffled"]) == 48
        assert v["drawn_since"] == [3, 0]
        assert v["discard"] == [0] * NUM_KINDS
        obs = s.observe(p)
        at = s.game.offsets
        assert np.allclose(obs[at["reshuffled"] : at["reshuffled"] + NUM_KINDS], pile / 2)
        drawn = obs[at["drawn_since"] : at["drawn_since"] + 2] * 52
        assert np.allclose(drawn, [3, 0] if p == 0 else [0, 3])


def six_seats_two_reshuffles():
    """Six players with 8 cards each, 4 cards in the discard pile, none to draw. Everyone plays the
    well (no winner); in age order each sacrifices its first card and draws 1. Seat 0's sacrifice
    completes the first reshuffled pile (5 cards), seats 0-4 draw one card each from it, and seat
    5's draw needs a second reshuffle (the 5 cards sacrificed by seats 1-5)."""
    kinds = [k for k in range(NUM_KINDS) for _ in range(KIND_COPIES[k])]
    discard = [standard(R, v) for v in (1, 2, 3, 4)]
    rest = [k for k in kinds if k not in discard]
    standards = [k for k in rest if k < 36]
    others = [k for k in rest if k >= 36] + standards[30:]
    hands = [standards[5 * i : 5 * i + 5] + others[3 * i : 3 * i + 3] for i in range(6)]
    s = table(hands, P2_RED, draw=[])
    assert s.discard.tolist() == counts(discard, NUM_KINDS).tolist()
    commit(s, dict.fromkeys(range(6), WELL))
    for seat in range(6):
        assert s.current_player == seat
        s.apply(SACRIFICE_BASE + hands[seat][0])
        s.check_invariants()
    first = discard + [hands[0][0]]
    second = [hands[q][0] for q in range(1, 6)]
    return s, first, second


def test_W_D1_cards_drawn_from_a_reshuffled_pile_stay_with_their_drawers_after_another_reshuffle():
    s, first, second = six_seats_two_reshuffles()
    assert sorted(s.draw + [k for k in second if s.hands[5, k]]) == sorted(second)
    rng = np.random.default_rng(1)
    for p in (0, 5):
        mine = [k for k in first if s.hands[p, k]]
        for _ in range(100):
            d = s.determinize(p, rng)
            for q in range(6):
                from_first = [k for k in first if d.hands[q, k]]
                if q == p:
                    assert from_first == mine
                else:  # seats 0-4 each drew one card of the first pile, seat 5 none
                    assert len(from_first) == (q < 5), (p, q, from_first)
            assert set(d.draw) <= set(second) and len(d.draw) == 4
            assert d.view(p) == s.view(p)
            d.check_invariants()
    assert len(s.origins.cards) == 3 and s.view(3)["drawn_since"] == [0, 0, 0, 0, 0, 1]


def test_W_D1_determinize_respects_the_record_in_random_games():
    """Random 6-player games: at sampled positions, every determinization keeps the view, deals the
    draw pile from the current pile's unseen cards, and places each single-copy card the record
    assigns to a pile with a seat that drew from it (or in the pile, if it is the current one)."""
    game = BigWigGame(num_players=6)
    rng = np.random.default_rng(6)
    seen_piles, seen_ambiguous = set(), 0
    for g in range(6):
        s = game.new_state(100 + g)
        step = 0
        while not s.is_terminal():
            if step % 9 == 0:
                o = s.origins
                seen_piles.add(len(o.cards))
                seen_ambiguous += any(o.unattributed)
                p = int(rng.integers(6))
                d = s.determinize(p, rng)
                assert d.view(p) == s.view(p) and np.array_equal(d.observe(p), s.observe(p))
                d.check_invariants()
                assert (counts(d.draw, NUM_KINDS) <= np.asarray(o.left[-1])).all()
                last = len(o.left) - 1
                for b, left in enumerate(o.left):
                    for k in np.flatnonzero(np.asarray(left) * SINGLE):
                        holders = [q for q in range(6) if hidden_of(d, q)[k]]
                        if holders:
                            assert o.held[b][holders[0]] > 0, (b, k, holders)
                        else:
                            assert b == last and k in d.draw
            s.apply(int(rng.choice(s.legal_actions())))
            step += 1
    assert max(seen_piles) >= 3 and seen_ambiguous > 0  # further reshuffles, ambiguous plays


# ---- two worlds: the same public history, different hidden cards -------------------------------
def ticket_worlds():
    """Two 4-player worlds with the same public history that differ only in onlooker seat 2's
    hidden cards: in A it holds a Til Valhallar, in B a green 3 (the Til Valhallar lies at the
    bottom of the draw pile instead). Round 1 is a holmgang in which seat 0 (fewest VP) can only
    challenge seat 1 for its red 2, round 2 a point card."""
    base = [
        [standard(R, 1), standard(R, 2), standard(R, 3)],
        [standard(B, 1), standard(B, 2), standard(B, 3)],
    ]
    onlooker = [standard(Y, 1), standard(Y, 2)]
    pile = [standard(Y, v) for v in range(3, 10)]
    worlds = []
    for mine, bottom in ((TIL_VALHALLAR, standard(G, 3)), (standard(G, 3), TIL_VALHALLAR)):
        hands = base + [[mine, standard(G, 1), standard(G, 2)], onlooker]
        worlds.append(
            table(
                hands,
                HOLMGANG,
                collected=[[], [P2_RED], [], []],
                draw=[bottom] + pile,
                later=[P2_RED],
            )
        )
    return worlds


WATCHERS = (0, 1, 3)  # every seat but seat 2, whose cards differ


def scripted(state, seat: int) -> int:
    """The same decision in both worlds (seat 2's depends only on cards it holds in both): seat 0
    challenges seat 1 for its red 2, nobody joins, seats 0 and 2 play the well and every other
    seat its lowest card, and a sacrifice gives up the lowest card."""
    phase = PHASE_NAMES[state.phase]
    lowest = int(np.flatnonzero(state.hands[seat])[0])
    if phase == "target":
        return TARGET_BASE
    if phase == "stake":
        return state.game.stake_base + P2_RED
    if phase == "ticket":
        return PASS
    if phase == "commit":
        return PLAY_WELL if seat in (0, 2) else lowest
    return SACRIFICE_BASE + lowest


def assert_same_traces(a, b):
    assert len(a) == len(b)  # as many steps in both worlds
    for i, (x, y) in enumerate(zip(a, b)):
        assert x.keys() == y.keys(), i
        for key in x:
            if isinstance(x[key], np.ndarray):
                assert np.array_equal(x[key], y[key]), (i, key)
            else:
                assert x[key] == y[key], (i, key)


def watched(state) -> dict:
    """What the watchers can know, and every watcher's own mask (engine level)."""
    out = {}
    for p in WATCHERS:
        out[f"view {p}"] = state.view(p)
        out[f"obs {p}"] = state.observe(p)
        out[f"mask {p}"] = state.legal_mask_for(p)
    return out


def aec_trace(state):
    env = bigwig_v1.raw_env(num_players=4)
    env.reset(seed=0)
    env.game_state = state
    env._rewards = type(env._rewards)("win", state)
    env.agent_selection = env.possible_agents[state.current_player]
    trace = []
    while state.round < 3:
        step = {"agent_selection": env.agent_selection, "phase": int(state.phase)}
        for p in WATCHERS:
            obs = env.observe(f"player_{p}")
            step[f"observation {p}"] = obs["observation"]
            step[f"action_mask {p}"] = obs["action_mask"]
        trace.append({**step, **watched(state)})
        env.step(scripted(state, state.current_player))
    return trace


def parallel_trace(state):
    env = bigwig_v1.parallel_env(num_players=4)
    env.reset(seed=0)
    env.game_state = state
    env._rewards = RewardTracker("win", state)
    obs = env._observations()
    trace = []
    while env.game_state.round < 3:
        s = env.game_state
        acting = s.simultaneous_players()
        step = {"phase": int(s.phase), "acting": acting}
        for p in WATCHERS:
            step[f"observation {p}"] = obs[f"player_{p}"]["observation"]
            step[f"action_mask {p}"] = obs[f"player_{p}"]["action_mask"]
        trace.append({**step, **watched(s)})
        obs, *_ = env.step({f"player_{q}": scripted(s, q) for q in acting})
    return trace


def test_W_E1_the_worlds_differ_only_in_seat_2s_ticket():
    a, b = ticket_worlds()
    for s in (a, b):
        s.apply(TARGET_BASE)
        s.apply(s.game.stake_base + P2_RED)
    assert a.phase == b.phase == PHASE_TICKET and a.current_player == b.current_player == 2
    assert a.legal_mask_for(2)[JOIN] and not b.legal_mask_for(2)[JOIN]


def test_W_E1_aec_two_worlds_every_window_looks_the_same():
    """Target, stake, ticket window, duel, sacrifice, a point trick and its sacrifices: no
    watcher's view, observation or mask, no ``agent_selection`` and no step count depends on
    whether seat 2 holds a Til Valhallar."""
    a, b = (aec_trace(s) for s in ticket_worlds())
    assert {PHASE_TARGET, PHASE_STAKE, PHASE_TICKET, PHASE_COMMIT, PHASE_SACRIFICE} == {
        step["phase"] for step in a
    }
    assert [s["agent_selection"] for s in a if s["phase"] == PHASE_TICKET] == [
        "player_2",
        "player_3",
    ]
    assert_same_traces(a, b)


def test_W_E1_parallel_two_worlds_every_window_looks_the_same():
    """The same in the Parallel env, where the ticket window is one step of both onlookers."""
    a, b = (parallel_trace(s) for s in ticket_worlds())
    assert [s["acting"] for s in a if s["phase"] == PHASE_TICKET] == [(2, 3)]
    assert {PHASE_TARGET, PHASE_STAKE, PHASE_TICKET, PHASE_COMMIT, PHASE_SACRIFICE} == {
        step["phase"] for step in a
    }
    assert_same_traces(a, b)


def test_W_E1_a_secret_join_shows_nowhere_until_the_window_closes():
    """World A: seat 2 joins; world B: seat 2 holds no Til Valhallar and declines. While seat 3
    still decides, no watcher can tell the worlds apart; then the join is public."""
    a, b = ticket_worlds()
    for s, decision in ((a, JOIN), (b, PASS)):
        s.apply(TARGET_BASE)
        s.apply(s.game.stake_base + P2_RED)
        s.apply(decision)
        s.check_invariants()
    assert a.current_player == b.current_player == 3
    assert_same_views(a, b, WATCHERS)
    for p in WATCHERS:
        assert np.array_equal(a.legal_mask_for(p), b.legal_mask_for(p))
    for s in (a, b):
        s.apply(PASS)
    assert a.joiners == [2] and b.joiners == [] and a.view(0)["joiners"] == [2]


def test_W_E1_determinize_does_not_assume_the_onlookers_hold_a_ticket():
    """During the window a watcher's determinization gives seat 2 a Til Valhallar or not, and a
    secret join only to a seat that holds one; seat 2 itself keeps its own decision."""
    a, _ = ticket_worlds()
    a.apply(TARGET_BASE)
    a.apply(a.game.stake_base + P2_RED)
    rng = np.random.default_rng(3)
    held = set()
    for _ in range(60):
        d = a.determinize(0, rng)
        d.check_invariants()
        held.add(int(d.hands[2, TIL_VALHALLAR]))
    assert held == {0, 1}
    a.apply(JOIN)  # seat 2 joins in secret; seat 3 decides next
    joins = set()
    for _ in range(60):
        d = a.determinize(3, rng)
        d.check_invariants()
        assert d.view(3) == a.view(3)
        joins.add(tuple(d.tickets))
        assert a.determinize(2, rng).tickets == [2]
    assert joins == {(), (2,)}


def test_commits_two_worlds_views_agree_until_the_reveal():
    """Seat 1 holds and commits different cards in the two worlds; the other seats' views agree
    until the reveal (X5), hand sizes included."""
    a = table(
        [[standard(R, 1)], [standard(B, 9), standard(B, 1)], [standard(G, 1)]],
        P2_RED,
        draw=[standard(Y, 5), FENRIR],
    )
    b = table(
        [[standard(R, 1)], [standard(Y, 5), FENRIR], [standard(G, 1)]],
        P2_RED,
        draw=[standard(B, 9), standard(B, 1)],
    )
    for s, card in ((a, standard(B, 9)), (b, FENRIR)):
        s.apply(standard(R, 1))
        s.apply(card)
    assert_same_views(a, b, (0, 2))


def test_draw_pile_record_two_worlds_views_agree():
    """The record of the draw piles comes from public events only. Seats 1 and 2 hold each other's
    cards in the two worlds; seat 0 plays the well and seat 1 plays a Fenrir, both sacrifice and
    draw across a reshuffle, and the next trick is played: seat 0's view is the same in both."""

    def world(hand_1, hand_2):
        hands = [
            [standard(R, 9), standard(R, 1), standard(Y, 1)],
            [FENRIR, standard(B, 7)] + hand_1,
            [standard(Y, 2)] + hand_2,
        ]
        s = table(hands, P2_RED, draw=[])
        commit(s, {0: WELL, 1: WELL, 2: standard(Y, 2)})
        s.apply(SACRIFICE_BASE + standard(R, 9))
        s.apply(SACRIFICE_BASE + standard(B, 7))
        commit(s, {0: standard(R, 1), 1: FENRIR, 2: WELL})
        return s

    x, y = [standard(G, 7), standard(G, 8)], [standard(Y, 9), FENRIR]
    a, b = world(x, y), world(y, x)
    assert len(a.origins.cards) == 2 and a.view(0)["drawn_since"] == [3, 3, 0]
    assert_same_views(a, b, (0,))
