"""Ruling G16: a small variant of Go Big shrinks the deck and the hands, nothing else."""

import numpy as np
import pytest

from deckzoo.agents.heuristics.gobig import HeuristicAgent, unseen_list
from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.gobig.rules import (
    DRAW_DECK,
    NUM_ACTIONS,
    NUM_PLAYS,
    TAKE_MARKET,
    VALUES,
    GoBigGame,
    GoBigState,
    decode_play,
    encode_play,
)
from deckzoo.envs.variants import variant_game


def small(**options) -> GoBigGame:
    return GoBigGame(3, **{"values": 3, "copies": 3, "hand_size": 2, **options})


def test_g16_the_deck_holds_copies_of_each_value_up_to_values_and_hands_of_hand_size():
    game = small()
    assert game == variant_game("gobig_small")
    assert game.total_cards == 9 and game.deck_counts.tolist() == [3, 3, 3, 0, 0, 0, 0]
    for seed in range(20):
        s = game.new_state(seed)
        assert s.hands.sum(axis=1).tolist() == [2, 2, 2]
        assert len(s.market) == 2 and len(s.deck) == 1
        s.check_invariants()
    # the ids and the layout stay the rulebook game's: same actions, same pieces
    rulebook = GoBigGame(3)
    assert game.num_actions == NUM_ACTIONS == rulebook.num_actions
    assert game.layout.pieces == rulebook.layout.pieces
    assert (game.max_game_length, game.score_bounds) == (18, (0, 18))


def test_g16_a_left_out_value_is_never_dealt_nor_played():
    game = small()
    rng = np.random.default_rng(0)
    for seed in range(100):
        s = game.new_state(seed)
        while not s.is_terminal():
            mask = s.legal_mask()
            played = [decode_play(a)[0] for a in np.flatnonzero(mask[:NUM_PLAYS])]
            assert all(v <= 3 for v in played)
            s.apply(int(rng.choice(np.flatnonzero(mask))))
        s.check_invariants()


def test_g16_every_rule_applies_nearest_higher_sets_are_beaten_and_the_market_is_refilled():
    game = small()
    fields = {
        "current_player": 2,
        "phase": 0,
        "turn": 2,
        "start_player": 0,
        "over": False,
        # seat 0 shows a single 2, seat 1 a single 3; seat 2 plays a single 1
        "hands": [[0, 1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0], [1, 0, 1, 0, 0, 0, 0]],
        "known": [[0] * VALUES] * 3,
        "deck": [3],
        "market": [1, 2],
        "displays": [[2, 1], [3, 1], None],
        "banks": [[0] * VALUES] * 3,
        "box": [0] * VALUES,
    }
    s = GoBigState.from_dict(
        {"game": "gobig", "config": game.config(), "rng": _rng(), "state": fields}
    )
    s.apply(encode_play(1, 1))  # G6: the nearest higher single (the 2) is beaten, the 3 is safe
    assert s.displays[:2] == [None, (3, 1)] and s.box.tolist()[:3] == [0, 1, 0]
    assert s.legal_mask()[[DRAW_DECK, TAKE_MARKET]].all()
    s.apply(TAKE_MARKET)  # G8: the market is taken and refilled from the deck at once
    assert s.market == [3] and s.deck == [] and s.known[2].tolist()[:2] == [1, 1]
    assert s.current_player == 0


def test_g16_observation_divides_by_the_variants_copies_and_deck():
    game = small()
    s = game.new_state(3)
    obs = s.observe(0)
    at = game.layout.slice
    np.testing.assert_array_equal(obs[at("hand")], (s.hands[0] / 3).astype(np.float32))
    np.testing.assert_array_equal(obs[at("hand_sizes")], np.float32(2 / 9))
    assert obs[at("deck_size")][0] == np.float32(1 / 9) and obs.max() <= 1.0


def test_g16_the_heuristic_counts_the_variants_unseen_cards():
    game = small()
    s = game.new_state(5)
    view = s.view(0)
    unseen = unseen_list(view, game.deck_counts)
    assert unseen[3:] == [0, 0, 0, 0] and sum(unseen) == 9 - 2 - 2  # own hand and market seen
    agent = HeuristicAgent(0)
    assert s.legal_mask()[agent.act(s.for_player(s.current_player))]


@pytest.mark.parametrize(
    "options,key",
    [({"values": 1}, "values"), ({"copies": 14}, "copies"), ({"hand_size": 0}, "hand_size")],
)
def test_g16_sizes_out_of_range_raise_naming_the_option(options, key):
    with pytest.raises(ConfigError, match=f"option '{key}'"):
        GoBigGame(3, **options)


def test_g16_a_deal_must_leave_the_market_its_two_cards():
    GoBigGame(3, values=2, copies=4, hand_size=2)  # 8 cards: 6 dealt, a market of 2
    with pytest.raises(ConfigError, match="option 'hand_size'.*market of 2"):
        GoBigGame(4, values=2, copies=4, hand_size=2)


def _rng() -> dict:
    return {"bit_generator": np.random.default_rng(0).bit_generator.state}


def test_g16_the_batched_engine_and_the_heuristics_twin_play_a_variant_as_the_scalar_ones():
    from deckzoo.agents.heuristics.gobig_batched import decide
    from deckzoo.envs import vector

    game = small()
    rng = np.random.default_rng(4)
    hero = HeuristicAgent(0)
    states, tops = [], []
    for seed in range(150):
        s = game.new_state(seed)
        while not s.is_terminal():
            if len(s.legal_actions()) > 1:
                info = s.for_player(s.current_player)
                states.append(s.clone())
                tops.append(hero.best_plays(info) if s.phase == 0 else [hero.act(info)])
            s.apply(int(rng.choice(s.legal_actions())))
    batch = vector.from_states(states)
    lanes = np.arange(len(states))
    got = decide(batch.engine, lanes, batch.legal_mask(), np.random.default_rng(0))
    assert all(int(a) in top for a, top in zip(got, tops))
    assert sum(len(t) == 1 for t in tops) > 200 and sum(s.phase == 1 for s in states) > 20
