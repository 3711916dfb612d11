"""Every game's scene function (envs/<game>/scene.py): well formed, true to the engine, and
showing a seat nothing its view does not hold."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import deckzoo.envs as E
from deckzoo.agents.registry import optional_module
from deckzoo.agents.tools.viewer.frames import all_scenes, scene_module
from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.core.scene import check_scene

from .helpers import GAME_NAMES, hand_names, short_options


def shown(zone: dict) -> Counter:
    return Counter({c["name"]: c.get("count", 1) for c in zone["cards"] if not c.get("back")})


def backs(zone: dict) -> int:
    return sum(c.get("count", 1) for c in zone["cards"] if c.get("back"))


def hand(scene: dict, p: int) -> dict:
    return next(z for z in scene["seats"][p]["zones"] if z["label"] == "hand")


def playout(game_name: str, players: int, seed: int):
    """States of one random game (the same object, advanced), with the step index."""
    game = E.game_class(game_name)(players, **short_options(game_name))
    state, rng = game.new_state(seed), np.random.default_rng(seed)
    step = 0
    while True:
        yield step, state
        if state.is_terminal():
            return
        state.apply(int(rng.choice(state.legal_actions())))
        step += 1


@pytest.mark.parametrize("game_name", GAME_NAMES)
@pytest.mark.parametrize("players", ["min", "max"])
def test_scenes_are_well_formed_true_and_leak_nothing(game_name, players):
    cls = E.game_class(game_name)
    n = min(cls.supported_players()) if players == "min" else min(max(cls.supported_players()), 6)
    if optional_module(f"deckzoo.envs.{game_name}.scene") is None:
        pytest.skip(f"{game_name} has no envs/{game_name}/scene.py: the viewer cannot draw it")
    mod = scene_module(game_name)
    hidden_own = 0
    for step, state in playout(game_name, n, seed=3):
        scenes = all_scenes(mod, state)
        for sc in scenes:
            check_scene(sc, n)
        spectator = scenes[0]
        for p in range(n):
            truth = hand_names(state, p)
            assert shown(hand(spectator, p)) == truth, (step, p)  # the spectator sees every hand
            own = hand(scenes[1 + p], p)
            if backs(own):  # only a game's own_hand_hidden (Wizard's Foresight round) hides them
                assert state.own_hand_hidden(p)
                hidden_own += 1
            else:
                assert shown(own) == truth, (step, p)
            sizes = state.view(p)["hand_sizes"]  # as the table counts them (BigWig: commits too)
            for q in range(n):  # another seat's hand: backs and publicly known cards only
                if q != p:
                    other = hand(scenes[1 + p], q)
                    assert sum(shown(other).values()) + backs(other) == sizes[q]
                    assert not shown(other) - hand_names(state, q)
        if step % 7 == 0 and not state.is_terminal():
            # A seat's scene depends only on what it may know: a state resampled consistently
            # with its view (other hands, decks) draws the same.
            for p in range(n):
                other = state.determinize(p, np.random.default_rng(step))
                assert all_scenes(mod, other)[1 + p] == scenes[1 + p], (step, p)
    assert game_name != "wizard" or hidden_own > 0


def test_secret_actions_hide_what_the_views_hide():
    from deckzoo.envs.bigwig import scene as bigwig
    from deckzoo.envs.bigwig.rules import JOIN, PASS, PLAY_WELL, SACRIFICE_BASE
    from deckzoo.envs.midgard import actions as A
    from deckzoo.envs.midgard import scene as midgard

    state = E.game_class("bigwig")(3).new_state(1)
    assert (
        bigwig.secret_action(state, 0)
        == bigwig.secret_action(state, PLAY_WELL)
        == "a card is played face down"
    )
    assert bigwig.secret_action(state, SACRIFICE_BASE) is None  # a sacrifice is public
    # ticket decisions are secret until every onlooker has decided (W-E1)
    assert bigwig.secret_action(state, JOIN) == bigwig.secret_action(state, PASS)
    assert "onlooker" in bigwig.secret_action(state, PASS)
    state = E.game_class("midgard")(3).new_state(1)
    p = state.current_player
    assert midgard.secret_action(state, A.encode("keep_reward", 0)) == f"player_{p} keeps a reward"
    assert "bonus" in midgard.secret_action(state, A.encode("bonus", 0))
    assert midgard.secret_action(state, A.encode("travel", 2)) is None
    assert midgard.secret_action(state, A.PASS) is None  # outside a bonus decision


def test_a_game_without_a_scene_module_is_named():
    with pytest.raises(ConfigError, match="nogame has no scene module"):
        scene_module("nogame")


def test_check_scene_names_the_broken_piece():
    good = {
        "title": "t",
        "table": [{"label": "z", "cards": [{"name": "a", "color": "red"}]}],
        "seats": [{"zones": []}],
    }
    check_scene(good, 1)
    with pytest.raises(ValueError, match="one per seat|list of 2 seats"):
        check_scene(good, 2)
    bad = {**good, "table": [{"label": "z", "cards": [{"name": "a", "color": "mauve"}]}]}
    with pytest.raises(
        ValueError, match=r"\['table'\]\[0\]\['cards'\]\[0\]: unknown colour 'mauve'"
    ):
        check_scene(bad, 1)


@pytest.mark.parametrize("placed", ["Odin's Reprimand", "Loki's Trick"])
def test_midgard_known_card_maybe_face_down_is_not_drawn_in_the_hand(placed):
    # MD22: seat 1 holds a known Odin's Reprimand and puts one of two cards face down on a
    # challenge; the others cannot tell which, so the known card is shown apart from the hand.
    from ..midgard.test_information import jotun_with_known_odin

    state = jotun_with_known_odin(placed)
    mod = scene_module("midgard")
    scene = all_scenes(mod, state)[1 + 0]  # seat 0's own view
    zones = {z["label"]: z for z in scene["seats"][1]["zones"]}
    assert not shown(zones["hand"]) and backs(zones["hand"]) == state.hands[1].sum()
    assert shown(zones["known to hold"]) == Counter({"Odin's Reprimand": 1})
    spectator = all_scenes(mod, state)[0]
    assert shown(hand(spectator, 1)) == hand_names(state, 1)  # the true hand, bonus excluded
