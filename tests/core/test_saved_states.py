"""Saved states are validated: every state reached in random play round-trips through JSON, and
single-field corruptions of a saved state (per game: sizes against the config, card
conservation, indices, phases, hidden-information fields, types, missing keys) are rejected by
``from_dict`` with a ``ValueError`` naming the field, before anything is built. Every game of the
registry runs; its own corruptions are in its folder (``CORRUPTIONS`` in envs/<game>/testing.py,
see envs/core/testing.py)."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import deckzoo.envs as E
from deckzoo.envs.bigwig import wells

NAMES = E.registry.env_names()


def short(name):
    return E.registry.short_options(name)


def fact(name, key, default=None):
    return E.registry.testing_fact(name, key, default)


def states(game, seed, every=1, limit=None):
    """The states of one random game (every ``every``-th), as clones."""
    rng = np.random.default_rng(seed)
    s = game.new_state(seed)
    out = []
    i = 0
    while True:
        if i % every == 0:
            out.append(s.clone())
        if s.is_terminal() or (limit and len(out) >= limit):
            return out
        s.apply(int(rng.choice(s.legal_actions())))
        i += 1


@pytest.mark.parametrize("name", NAMES)
@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32), players=st.integers(0, 10))
def test_every_state_of_random_play_round_trips(name, seed, players):
    game_cls = E.game_class(name)
    counts = game_cls.supported_players()
    game = game_cls(counts[players % len(counts)], **short(name))
    for s in states(game, seed, fact(name, "ROUND_TRIP_EVERY", 1)):
        d = json.loads(json.dumps(s.to_dict()))
        back = type(s).from_dict(d)
        assert back == s and back.to_dict() == s.to_dict()
        assert type(s).from_dict(d, game) == s


def _first(name, pred, players=None, seed=0):
    """A saved mid-game state (its dict) satisfying ``pred(state)``."""
    game = E.game_class(name)(players, **short(name))
    for k in range(40):
        for s in states(game, seed + k):
            if pred(s):
                return type(s), s.to_dict()
    raise AssertionError("no such state in 40 random games")


def _rejected(cls, d, field):
    with pytest.raises(ValueError, match=field) as err:
        cls.from_dict(d)
    assert not isinstance(err.value, KeyError)
    return str(err.value)


# ---- corruptions common to every game ------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_common_corruptions_are_rejected(name):
    cls, d = _first(name, lambda s: not s.is_terminal() and s.current_player is not None)
    cases = [
        ("state", lambda x: x.pop("state")),
        ("rng", lambda x: x.pop("rng")),
        ("rng", lambda x: x.update(rng={"bit_generator": {"bit_generator": "seed"}})),
        ("rng", lambda x: x["rng"]["bit_generator"].update(state="x")),
        ("game", lambda x: x.update(game="chess")),
        ("config", lambda x: x.update(config={"num_players": 99})),
        ("config", lambda x: x.update(config=[1])),
        ("unknown field", lambda x: x.update(extra=1)),
        ("current_player", lambda x: x["state"].update(current_player=9)),
        ("current_player", lambda x: x["state"].update(current_player="0")),
        ("unknown field", lambda x: x["state"].update(surprise=True)),
    ]
    for field, corrupt in cases:
        bad = copy.deepcopy(d)
        corrupt(bad)
        _rejected(cls, bad, field)
    for key in list(d["state"]):  # every field is required: never a bare KeyError
        bad = copy.deepcopy(d)
        del bad["state"][key]
        _rejected(cls, bad, f"'{key}' is missing")
    with pytest.raises(ValueError, match="JSON object"):
        cls.from_dict([1, 2])
    with pytest.raises(ValueError, match="config"):  # the saved config must be the given game's
        cls.from_dict(d, _other_game(name, d["config"]))


def _other_game(name, config):
    """The same game in a different valid configuration: another player count, the other options
    kept where they fit it (a per-seat option does not), else left at their defaults."""
    game_cls = E.game_class(name)
    n = next(c for c in game_cls.supported_players() if c != config["num_players"])
    try:
        return game_cls(**{**config, "num_players": n})
    except E.ConfigError:
        return game_cls(n)


# ---- per game: its own corruptions (field named in the error, corruption of the fields) ------
@pytest.mark.parametrize("name", NAMES)
def test_single_field_corruptions_are_rejected_naming_the_field(name):
    corruptions = fact(name, "CORRUPTIONS")
    if not corruptions:
        pytest.skip(f"envs/{E.game_class(name).name}/testing.py declares no CORRUPTIONS")
    players = fact(name, "CORRUPTION_PLAYERS")
    cls, d = _first(name, fact(name, "corruptible", lambda s: not s.is_terminal()), players)
    assert cls.from_dict(d) is not None  # the uncorrupted state loads
    for field, corrupt in corruptions:
        bad = copy.deepcopy(d)
        corrupt(bad["state"])
        message = _rejected(cls, bad, field.split("/")[0])
        assert f"saved {E.game_class(name).name} state" in message, message


# ---- keyed chance (duplicate boards) survives saving ----------------------------------------
# a game long enough for keyed chance events (the short Midgard game has no reshuffle)
KEYED_OPTIONS = {"midgard": {"start_position": 4, "max_turns": 60}}


def _keyed_game(name, seed):
    """A duplicate board's game of ``name`` and the generator of its actions."""
    game_cls = E.game_class(name)
    game = game_cls(**KEYED_OPTIONS.get(game_cls.name, short(name)))
    return game.new_state(seed, keyed_chance=True), np.random.default_rng(seed)


@pytest.mark.parametrize("name", NAMES)
def test_keyed_chance_survives_the_round_trip_and_the_copy_plays_the_same_future(name):
    """Saved before any keyed chance event and reloaded, a board's game draws every later event
    (a reshuffle, Loki's pick) as the original does: both play the same actions to the end and
    stay equal. A copy that lost its keyed chance is not equal (``==`` compares it)."""
    s, rng = _keyed_game(name, 11)
    for _ in range(3):
        s.apply(int(rng.choice(s.legal_actions())))
    d = json.loads(json.dumps(s.to_dict()))
    assert d["chance"] == {"seed": 11, "counts": {}}
    back = type(s).from_dict(d)
    assert back == s and back.chance is not s.chance and back.chance.seed == 11
    lost = copy.deepcopy(d)
    del lost["chance"]
    assert type(s).from_dict(lost) != s  # an ordinary game now, not the board's
    while not s.is_terminal():
        a = int(rng.choice(s.legal_actions()))
        s.apply(a)
        back.apply(a)
        assert back == s
    assert back.chance.counts == s.chance.counts
    if name.startswith(("bigwig", "midgard")):  # the games whose play moves chance in time
        assert sum(s.chance.counts.values()) > 0, "no keyed chance event in the game"


def test_a_reloaded_board_reshuffles_as_the_original_and_a_copy_without_keys_does_not():
    """BigWig: the saved game's next reshuffle comes from the board's stream, so the reloaded
    game's draw pile equals the original's; the same state without its keyed chance (what
    saving used to give) reshuffles differently, and ``==`` tells them apart."""
    game = E.game_class("bigwig")(3)
    s = game.new_state(4, keyed_chance=True)
    d = json.loads(json.dumps(s.to_dict()))
    back = type(s).from_dict(d)
    plain = copy.deepcopy(d)
    del plain["chance"]
    ordinary = type(s).from_dict(plain)
    assert back == s and ordinary != s and ordinary.to_dict()["state"] == s.to_dict()["state"]
    piles = []
    for t in (s, back, ordinary):
        t.draw, t.hands[0] = [], 0
        t.discard[:] = 0
        t.discard[:12] = 1
        wells.draw(t, 0, 1)
        piles.append(list(t.draw))
    assert piles[0] == piles[1] and piles[0] != piles[2]


@pytest.mark.parametrize(
    "chance",
    [
        {"seed": -1, "counts": {}},
        {"seed": "11", "counts": {}},
        {"seed": True, "counts": {}},
        {"counts": {}},
        {"seed": 11},
        {"seed": 11, "counts": []},
        {"seed": 11, "counts": {"reshuffle": -1}},
        {"seed": 11, "counts": {"reshuffle": 1.5}},
        {"seed": 11, "counts": {}, "extra": 1},
        [11],
    ],
)
def test_a_malformed_keyed_chance_is_rejected_naming_it(chance):
    game = E.game_class("bigwig")(3)
    d = game.new_state(2, keyed_chance=True).to_dict()
    d["chance"] = chance
    _rejected(type(game.new_state(0)), d, "chance")


# ---- states the engine could not have reached by play (cross-field consistency) -------------
def _bigwig_sacrifice():
    """A saved BigWig state in the well draws with two seats still to draw."""
    return _first("bigwig_v1", lambda s: s.phase == 4 and len(s.queue) >= 2, players=4)


def test_bigwig_sacrifice_needs_its_queue_and_the_seat_at_its_head():
    cls, d = _bigwig_sacrifice()
    empty = copy.deepcopy(d)
    empty["state"]["queue"] = []  # the first sacrifice used to raise half applied
    _rejected(cls, empty, "queue")
    other = copy.deepcopy(d)
    other["state"]["current_player"] = d["state"]["queue"][1]  # a seat would sacrifice twice
    _rejected(cls, other, "current_player")
    dropped = copy.deepcopy(d)
    dropped["state"]["queue"] = d["state"]["queue"][1:]  # the asked seat no longer in it
    _rejected(cls, dropped, "queue")
    assert cls.from_dict(d) is not None


def test_bigwig_draw_pile_record_must_explain_the_cards():
    """The public record of the draw piles with the right totals but the wrong cards: no
    history puts the hidden cards where it says they can be, so it is refused."""
    cls, d = _first("bigwig_v1", lambda s: not s.is_terminal() and s.round > 1, players=3)
    pile = d["state"]["origins"]["piles"][-1]
    left = pile["left"]
    gone = next(k for k, x in enumerate(left) if x == 0 and pile["cards"][k] > 0)
    here = next(k for k, x in enumerate(left) if x > 0)
    left[gone], left[here] = left[gone] + 1, left[here] - 1  # same count, another card
    message = _rejected(cls, d, "origins")
    assert "hands" in message and "draw" in message


def _midgard_windows():
    """A saved Midgard state with a reaction window waiting below another one."""
    return _first(
        "midgard_v1",
        lambda s: len(s.stack) >= 3 and s.stack[1].m == 14 and s.stack[2].m == 14,
        players=4,
    )


@pytest.mark.parametrize(
    "lower",
    [
        {"queue": "x"},  # not a list: a crash when the window is asked again
        {"queue": [[0]]},  # an entry without the reactions it may play
        {"queue": [[0, [0]]]},  # a troop card is no reaction
        {"then": {"do": "bogus"}},  # no such continuation
        {"card": "yes"},
        {"m": 6, "world": 0, "chosen": 5},  # another mode, its fields of the wrong type
        {"m": 2},  # a troop being laid down that does not exist (and no window above a build)
        {"m": 1},  # a second Preparation inside the turn
        {"p": 0},  # a waiting window that already asks a seat
    ],
)
def test_midgard_lower_frames_must_be_runnable(lower):
    """Frames below the top are run later, once the frames above are answered; a malformed one
    used to load and fail moves later. They are checked as the top one is."""
    cls, d = _midgard_windows()
    assert cls.from_dict(d) is not None
    bad = copy.deepcopy(d)
    frame = bad["state"]["stack"][1]
    if "m" in lower:
        frame.clear()
        frame.update({"p": d["state"]["stack"][0]["p"]})
    frame.update(lower)
    _rejected(cls, bad, "stack")
