"""What each seat may know: view, observation layout, determinize (W5, W13) and the env's
rewards."""

import json

import numpy as np
import pytest

from deckzoo.envs import wizard_v0
from deckzoo.envs.core.conformance import check_bad_inputs
from deckzoo.envs.wizard.cards import COUNT_SCALE, NUM_KINDS, WIZARD, playable, score_bounds
from deckzoo.envs.wizard.determinize import place_one_by_one, sample_hidden
from deckzoo.envs.wizard.rules import (
    PHASE_NAMES,
    PHASE_PLAY,
    WizardGame,
    WizardState,
)

from .helpers import bid_all, card, cards, encode_bid, encode_trump, play, stacked

D, H, E, G = range(4)


def mid_trick_state():
    """Round 3, 4 players, dealer 3; bids made; trick 1 over (player 0 won), trick 2 half played."""
    s = stacked(
        ["E5 G2 W", "E9 E1 D3", "D1 D2 H4", "N H1 H2"],
        flipped="H13",
        dealer=3,
        scores=[20, -10, 0, 30],
    )
    bid_all(s, [1, 0, 2, 1])
    play(s, "E5", "E1", "D1", "N")  # player 0 leads Elves; player 2 shows out of Elves
    play(s, "G2", "D3")  # player 0 leads again; player 1 shows out of Giants
    return s


def test_observation_pieces_match_the_view_from_each_seat():
    s = mid_trick_state()
    game = s.game
    for p in range(4):
        o = game.layout.split(s.observe(p))
        v = s.view(p)
        rel = [(p + r) % 4 for r in range(4)]
        assert np.allclose(o["hand"], s.hands[p] * COUNT_SCALE)
        assert o["hand_hidden"][0] == 0 and o["foresight"].sum() == 0
        assert o["hand_sizes"].tolist() == pytest.approx([v["hand_sizes"][q] / 15 for q in rel])
        assert o["flipped"].argmax() == card("H13") and o["flipped"].sum() == 1
        assert o["trump"].tolist() == [0, 1, 0, 0, 0]
        assert o["led_suit"].tolist() == [0, 0, 0, 1, 0]  # Giants led
        assert o["trick_leader"].argmax() == (0 - p) % 4
        assert o["trick"][(0 - p) % 4].argmax() == card("G2") and o["trick"][
            (1 - p) % 4
        ].argmax() == card("D3")
        assert o["trick"].sum() == 2
        for r, q in enumerate(rel):
            assert o["bids"][r].argmax() == v["bids"][q] and o["bids"][r].sum() == 1
        assert o["bid_pending"].sum() == 0
        assert o["tricks_won"].tolist() == pytest.approx([v["tricks_won"][q] / 15 for q in rel])
        assert o["voids"][(2 - p) % 4].tolist() == [0, 0, 1, 0] and o["voids"][
            (1 - p) % 4
        ].tolist() == [0, 0, 0, 1]
        assert o["voids"].sum() == 2
        assert np.allclose(
            o["played"][[card("E5"), card("E1"), card("D1"), card("G2"), card("D3")]], 1
        )
        assert o["played"][53] == 0.25 and o["played"].sum() == pytest.approx(5.25)
        lo, hi = score_bounds(15)
        assert o["scores"].tolist() == pytest.approx(
            [(v["scores"][q] - lo) / (hi - lo) for q in rel]
        )
        assert o["round"].argmax() == 2 and o["dealer"].argmax() == (3 - p) % 4
        assert o["current_player"].argmax() == (2 - p) % 4 and o["phase"].tolist() == [0, 0, 1]
    v = s.view(2)
    assert v["voids"] == [[], [G], [E], []]
    assert (
        v["tricks"] == [[0, cards("E5 E1 D1 N"), 0]]
        and v["trick"] == cards("G2 D3")
        and v["led_suit"] == G
    )
    assert v["played"] == sorted(cards("E5 E1 D1 N G2 D3"))
    json.dumps(v)


@pytest.mark.parametrize("n,rounds", [(3, 5), (4, 4), (5, 3), (6, 3), (10, 2), (12, 2)])
def test_incremental_observation_equals_the_reference_encoding_at_every_step(n, rounds):
    game = WizardGame(num_players=n, num_rounds=rounds)
    rng = np.random.default_rng(n)
    enc = game.encoder
    for g in range(3):
        s = game.new_state(g)
        while True:
            for p in range(n):
                assert np.array_equal(s.observe(p), enc.encode_reference(s, p)), (
                    g,
                    p,
                    s.round,
                    s.phase,
                )
            if s.is_terminal():
                break
            s.apply(int(rng.choice(s.legal_actions())))
            if rng.random() < 0.05:  # clones and determinizations carry the encoding along
                s = s.clone() if rng.random() < 0.5 else s.determinize(int(rng.integers(n)), rng)


def test_layout_table_and_shape():
    game = WizardGame(num_players=4)
    assert game.observation_shape == (game.layout.size,)
    table = game.layout.table()
    for piece in ("hand", "foresight", "trick", "bids", "voids", "played", "phase"):
        assert f"`{piece}`" in table


def test_determinize_keeps_the_view_and_respects_shown_voids():
    s = mid_trick_state()
    rng = np.random.default_rng(3)
    moved = 0
    for _ in range(300):
        d = s.determinize(2, rng)
        assert d.view(2) == s.view(2)
        d.check_invariants()
        assert not d.hands[1, 3 * 13 : 4 * 13].any()  # player 1 showed out of Giants
        assert np.array_equal(d.hands[2], s.hands[2])
        moved += not np.array_equal(d.hands[0], s.hands[0])
    assert moved > 250


def test_sample_hidden_tight_constraints_always_consistent():
    """Last-round style: no stock; holder 0 lacks Dwarves and Humans, holder 1 lacks Elves, so
    holder 0 must get every Elves card and holder 1 every Dwarves and Humans card."""
    pool = np.zeros(NUM_KINDS, dtype=np.int64)
    for c in cards("D1 D2 H3 E4 E5 W"):
        pool[c] += 1
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(200):
        a, b = sample_hidden(pool, [3, 3], [0b0011, 0b0100], rng)
        assert a[[card("E4"), card("E5")]].tolist() == [1, 1] and not a[:26].any()
        assert b[[card("D1"), card("D2"), card("H3")]].tolist() == [1, 1, 1]
        seen.add(int(a[WIZARD]))
    assert seen == {1}


def test_sample_hidden_with_a_void_is_uniform_over_consistent_deals():
    """Pool D1 E1 E2 W, two holders of 2, holder 0 lacks Dwarves: the consistent deals give holder 0
    two of {E1, E2, W}, each pair equally likely, so each of those cards lands there 2/3 of the
    time."""
    pool = np.zeros(NUM_KINDS, dtype=np.int64)
    for c in cards("D1 E1 E2 W"):
        pool[c] += 1
    rng = np.random.default_rng(2)
    hits = np.zeros(NUM_KINDS)
    for _ in range(3000):
        a, b = sample_hidden(pool, [2, 2], [0b0001, 0], rng)
        assert a[card("D1")] == 0 and b[card("D1")] == 1
        hits += a
    assert np.allclose(hits[cards("E1 E2 W")] / 3000, 2 / 3, atol=0.03)


def test_constrained_fallback_always_completes_a_consistent_deal():
    rng = np.random.default_rng(5)
    hidden = np.array(cards("D1 D2 D3 H1 H2 E1 E2 E3 G1 G2 W N"))
    voids = [0b0011, 0b0100, 0b1000, 0]  # holder 0: no Dwarves/Humans; 1: no Elves; 2: no Giants
    for _ in range(300):
        rng.shuffle(hidden)
        owner, placed = place_one_by_one(hidden, [4, 4, 3, 1], voids, rng)
        assert sorted(placed.tolist()) == sorted(hidden.tolist())
        assert np.bincount(owner, minlength=4).tolist() == [4, 4, 3, 1]
        for h, c in zip(owner.tolist(), placed.tolist()):
            assert c >= 52 or not voids[h] >> (c // 13) & 1


def test_sample_hidden_without_voids_is_uniform_enough():
    pool = np.zeros(NUM_KINDS, dtype=np.int64)
    pool[:6] = 1
    rng = np.random.default_rng(1)
    hits = np.zeros(NUM_KINDS)
    for _ in range(3000):
        a, _ = sample_hidden(pool, [2, 4], [0, 0], rng)
        hits += a
    assert np.allclose(hits[:6] / 3000, 2 / 6, atol=0.04)


def test_determinize_does_not_share_the_real_chance_generator():
    s = stacked(["E1", "E2", "E3"], flipped="N", dealer=0, num_rounds=2)
    d = s.determinize(0, np.random.default_rng(0))
    assert d.rng.bit_generator.state != s.rng.bit_generator.state


def test_views_are_copies():
    s = stacked(["W", "E1", "D1"], flipped="N", dealer=0, num_rounds=2)
    for b in (1, 0, 1):
        s.apply(encode_bid(b))
    play(s, "E1", "D1", "W")
    v = s.view(0)
    v["history"][0]["bids"][0] = 99
    v["bids"][0] = 99
    v["tricks_won"][0] = 99
    assert s.history[0]["bids"] == [1, 1, 0] and s.view(0)["history"][0]["bids"] == [1, 1, 0]
    assert s.bids == [-1, -1, -1] and s.tricks_won == [0, 0, 0]


def test_clone_and_json_round_trip_are_exact_and_independent():
    s = mid_trick_state()
    c = s.clone()
    assert c == s
    c.apply(int(c.legal_actions()[0]))
    assert c != s and s.trick == cards("G2 D3")
    back = WizardState.from_dict(json.loads(json.dumps(s.to_dict())), s.game)
    assert back == s and back.hand_sizes == s.hand_sizes


def test_fast_legality_check_agrees_with_the_mask_and_the_pure_follow_suit_rule():
    game = WizardGame(num_players=3, num_rounds=6)
    rng = np.random.default_rng(4)
    for seed in range(6):
        s = game.new_state(seed)
        while not s.is_terminal():
            mask = s.legal_mask()
            for a in range(game.num_actions):
                assert s.is_legal(a) == mask[a]
            if s.phase == 2:  # the engine's incremental masks equal the pure rule on the hand
                assert np.array_equal(mask[:NUM_KINDS], playable(s.hands[s.current_player], s.led))
                assert not mask[NUM_KINDS:].any()
            check_bad_inputs(s) if rng.random() < 0.05 else None
            s.apply(
                np.int64(rng.choice(np.flatnonzero(mask)))
                if rng.random() < 0.5
                else int(rng.choice(np.flatnonzero(mask)))
            )


def test_illegal_card_names_the_legal_ones_and_changes_nothing():
    s = (
        mid_trick_state()
    )  # player 2 holds D2 H4, Giants led: void, anything goes; make player 3 follow
    play(s, "D2")
    before = s.to_dict()
    with pytest.raises(ValueError, match=r"legal actions are \[.*play Humans 1"):
        s.apply(card("E9"))  # not in hand
    assert s.to_dict() == before


def test_w13_dense_reward_is_each_rounds_score_change_when_the_round_is_scored():
    env = wizard_v0.env(num_players=3, num_rounds=3, reward="dense")
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    state = env.unwrapped.game_state
    scale = state.game.score_scale
    assert scale == 60.0
    totals = np.zeros(3)
    rounds_seen = 0
    for agent in env.agent_iter():
        obs, rew, term, _, _ = env.last()
        totals[int(agent[-1])] += rew
        if term:
            env.step(None)
            continue
        before_round = len(state.history)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if len(state.history) > before_round:
            rounds_seen += 1
            step_rewards = np.array([env.rewards[a] for a in env.possible_agents])
            assert np.allclose(step_rewards, np.array(state.history[-1]["deltas"]) / scale)
        else:
            assert all(r == 0 for r in env.rewards.values())
    assert rounds_seen == 3
    assert np.allclose(totals, state.scores() / scale)


def test_render_names_every_phase_and_special_lead():
    s = stacked(["W E5", "N E9", "G2 E4"], flipped="W", dealer=2)
    assert "player_2 to trump" in s.render() and "(dealer choosing)" in s.render()
    s.apply(54 + E)
    assert "trump Elves" in s.render() and "player_0 to bid" in s.render()
    bid_all(s, [1, 0, 0])
    play(s, "W")
    text = s.render()
    assert "trick: player_0 Wizard; led suit free (Wizard)" in text and "player_1 to play" in text
    play(s, "N")
    s2 = stacked(["N E5", "E9 N", "G2 E4"], flipped="H1", dealer=2)
    bid_all(s2, [0, 1, 0])
    play(s2, "N")
    assert "led suit not set" in s2.render()
    play(s2, "E9")
    assert "led suit Elves" in s2.render()
    s3 = stacked(["E1", "E2", "E3"], flipped="H1", dealer=2)
    assert "own card hidden" in s3.render()


@pytest.mark.parametrize("n", [3, 4, 6])
def test_determinize_in_random_play_never_deals_a_shown_void(n):
    game = WizardGame(num_players=n)
    rng = np.random.default_rng(10 + n)
    checked = 0
    s = game.new_state(n)
    while not s.is_terminal():
        if s.phase == 2 and any(s.voids) and rng.random() < 0.2:
            for p in range(n):
                d = s.determinize(p, rng)
                d.check_invariants()
                assert d.view(p) == s.view(p)
                for q in range(n):
                    for suit in range(4):
                        if s.voids[q] >> suit & 1:
                            assert not d.hands[q, suit * 13 : (suit + 1) * 13].any()
                checked += 1
        s.apply(int(rng.choice(s.legal_actions())))
    assert checked > 20


def test_render_view_shows_only_what_the_seat_may_know():
    s = mid_trick_state()
    text = s.render_view(2)
    assert (
        "player_2 (you): score 0, bid 2, won 0, void in Elves, hand [Dwarves 2, Humans 4]" in text
    )
    others = [
        line for line in text.splitlines() if line[2:].startswith("player_") and "(you)" not in line
    ]
    assert len(others) == 3 and not any("[" in line for line in others)  # other hands: sizes only
    assert (
        "Wizard" not in text.split("\n", 1)[1] and "Elves 9" not in text
    )  # the title says "Wizard"
    assert "player_0: score 20, bid 1, won 1, hand 1 card" in text and "hand 2 cards" in text
    assert "void in Elves" in text and "void in Giants" in text
    assert "trick: player_0 Giants 2, player_1 Dwarves 3; led suit Giants" in text
    assert (
        "last trick: player_0 Elves 5, player_1 Elves 1, player_2 Dwarves 1, player_3 Null; "
        "won by player_0" in text
    )
    f = stacked(["E2", "G9", "W"], flipped="H3", dealer=2)
    text = f.render_view(0)
    assert "hand hidden (Foresight)" in text and "[Giants 9]" in text and "[Wizard]" in text
    assert "Elves 2" not in text


# ---- two worlds: the same public history, different hidden cards -------------------------------
def assert_same_views(a, b, seats):
    for p in seats:
        assert a.view(p) == b.view(p), p
        assert np.array_equal(a.observe(p), b.observe(p)), p


def test_two_worlds_shown_voids_and_played_cards_do_not_read_the_hands():
    """``mid_trick_state`` against a world where seats 1 and 3 hold other unplayed cards (still
    consistent with every card played and every void shown): seats 0 and 2 see the same views."""
    a = mid_trick_state()
    b = stacked(
        ["E5 G2 W", "H1 E1 D3", "D1 D2 H4", "N E9 H2"],
        flipped="H13",
        dealer=3,
        scores=[20, -10, 0, 30],
    )
    bid_all(b, [1, 0, 2, 1])
    play(b, "E5", "E1", "D1", "N")
    play(b, "G2", "D3")
    assert_same_views(a, b, (0, 2))


def test_two_worlds_the_dealers_trump_choice_does_not_show_the_dealers_hand():
    """A Wizard is flipped and the dealer (seat 2) names Giants after looking at its hand (W4): the
    other seats' views do not depend on which cards the dealer holds."""
    worlds = []
    for dealer_hand in ("G13 G12", "D1 H2"):
        s = stacked(["E5 E6", "D7 D8", dealer_hand], flipped="W", dealer=2)
        assert PHASE_NAMES[s.phase] == "trump" and s.current_player == 2
        s.apply(encode_trump(G))
        worlds.append(s)
    assert_same_views(*worlds, (0, 1))


def test_two_worlds_foresight_hides_the_own_card_until_play():
    """W5: in round 1 a seat sees everyone's card but its own, so until the play phase its view is
    the same whichever card it holds."""
    worlds = [stacked([own, "E5", "D3"], flipped="G7", dealer=2) for own in ("W", "N")]
    for s in worlds:
        assert s.foresight_round() and s.own_hand_hidden(0)
    assert_same_views(*worlds, (0,))
    for s in worlds:
        bid_all(s, [0, 1, 1])
        assert s.phase == PHASE_PLAY
    assert worlds[0].view(0)["hand"] != worlds[1].view(0)["hand"]  # revealed for play
