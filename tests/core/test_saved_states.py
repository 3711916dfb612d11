"""Saved states are validated: every state reached in random play round-trips through JSON, and
single-field corruptions of a saved state (per game: sizes against the config, card
conservation, indices, phases, hidden-information fields, types, missing keys) are rejected by
``from_dict`` with a ``ValueError`` naming the field, before anything is built."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import deckzoo.envs as E

NAMES = list(E.ENVS)


def short(name):
    return dict(getattr(E.ENVS[name], "SHORT_OPTIONS", {}))


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
    game_cls = E.ENVS[name].Game
    counts = game_cls.supported_players()
    game = game_cls(counts[players % len(counts)], **short(name))
    every = 7 if name == "midgard_v0" else 1
    for s in states(game, seed, every):
        d = json.loads(json.dumps(s.to_dict()))
        back = type(s).from_dict(d)
        assert back == s and back.to_dict() == s.to_dict()
        assert type(s).from_dict(d, game) == s


def _first(name, pred, players=None, seed=0):
    """A saved mid-game state (its dict) satisfying ``pred(state)``."""
    game = E.ENVS[name].Game(players, **short(name))
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
    other = E.ENVS[name].Game(**{**d["config"], **_other_config(name, d["config"])})
    with pytest.raises(ValueError, match="config"):
        cls.from_dict(d, other)  # the saved config must be the given game's


def _other_config(name, config):
    """A different valid configuration of the same game."""
    counts = E.ENVS[name].Game.supported_players()
    n = next(c for c in counts if c != config["num_players"])
    out = {"num_players": n}
    if name == "bigwig_v0":
        out["age_order"] = list(range(n))
    return out


def _set(field, value):
    return lambda st: st.__setitem__(field, value)


def _add_row(field):
    return lambda st: st[field].append(copy.deepcopy(st[field][0]))


# ---- per game: (field named in the error, corruption of the state's fields) ----------------
GOBIG = [
    ("hands", _add_row("hands")),  # 5 hands in a 4-player game
    (
        "hands",
        lambda st: st["hands"][0].__setitem__(0, st["hands"][0][0] + 5),
    ),  # 96 cards in a 91-card game
    ("hands/deck", lambda st: st["deck"].pop()),  # a vanished card
    ("phase", _set("phase", 99)),
    ("hands", _set("hands", "abc")),
    ("deck", lambda st: st["deck"].append(9)),
    ("displays", _set("displays", [[9, 1]] * 4)),
    ("displays", lambda st: st["displays"].__setitem__(0, [3, 4])),
    ("market", lambda st: st["market"].extend([1, 2])),
    ("over", _set("over", True)),
    ("start_player", _set("start_player", -1)),
    ("known", lambda st: st["known"].__setitem__(0, [13] * 7)),  # hidden information
]
BIGNUMBER = [
    ("hands", _add_row("hands")),
    (
        "known",
        lambda st: st["known"].__setitem__(0, [1] * 36),
    ),  # hidden information: not in the hand
    ("hands/aside", lambda st: st["aside"].__setitem__(0, st["aside"][0] + 1)),
    ("phase", _set("phase", 99)),
    ("owner", _set("owner", None)),
    ("middle", _set("middle", [0, 4])),  # not a set (different rank and suit)
    ("passes", _set("passes", 7)),
    ("scores", _set("scores", [5, 0, 0, 0])),
    ("history", lambda st: st["history"].append([1, 0, 0, 0])),
    ("deal", _set("deal", -1)),
]
WIZARD = [
    ("hands", _add_row("hands")),
    ("hands/played", lambda st: st["stock"].__setitem__(0, st["stock"][0] + 1)),
    ("phase", _set("phase", 99)),
    (
        "voids",
        lambda st: _void_in_held_suit(st),
    ),  # hidden information: showed out yet holds the suit
    ("played", lambda st: st["played"].__setitem__(52, st["played"][52] + 1)),
    ("dealer", _set("dealer", 7)),
    ("led", _set("led", 3)),
    ("scores", lambda st: st["scores"].__setitem__(0, st["scores"][0] + 10)),
    ("trump", _set("trump", 9)),
    ("history", lambda st: st["history"].append(st["history"][0] if st["history"] else {})),
]
BIGWIG = [
    ("hands", _add_row("hands")),
    ("hands/draw", lambda st: st["draw"].append(0)),
    ("phase", _set("phase", 99)),
    (
        "commits",
        lambda st: st["participants"].remove(
            next(q for q, c in enumerate(st["commits"]) if c != -1)
        ),
    ),
    ("well", lambda st: st["well"].__setitem__(0, not st["well"][0])),
    ("collected/altar", lambda st: st["small"].append(15)),
    ("round", _set("round", 24)),
    ("commits", _set("commits", [99] * 4)),
    ("trump", _set("trump", [1, 0])),
    ("origins", lambda st: st["origins"]["piles"][0]["held"].__setitem__(0, 99)),
    ("origins", lambda st: st["origins"].pop("piles")),
]
MIDGARD = [
    ("hands", _add_row("hands")),
    ("known", lambda st: st["known"].__setitem__(0, list(st["hands"][0]) + [0])),
    ("hands/thing", lambda st: st["thing"].append(0)),
    ("skat", lambda st: st.__setitem__("skat", st["skat"] + 1)),
    ("ch_deck/open", lambda st: st["ch_deck"].append(st["open"][0])),
    ("troops", lambda st: st["troops"][0].append(["bad"])),
    ("stack", _set("stack", [])),
    ("stack", lambda st: st["stack"][-1].__setitem__("m", 99)),
    ("world", lambda st: st["world"].__setitem__(0, 42)),
    ("rewards/revealed", lambda st: st["reward_deck"].append(0)),
]


def _void_in_held_suit(st):
    for q, hand in enumerate(st["hands"]):
        for s in range(4):
            if any(hand[s * 13 : (s + 1) * 13]):
                st["voids"][q] |= 1 << s
                return
    raise AssertionError("no suited card in any hand")


def _running(s):
    return not s.is_terminal()


CORRUPTIONS = {
    "gobig_v0": (GOBIG, lambda s: _running(s) and len(s.deck) > 4 and s.turn > 3),
    "bignumber_v0": (
        BIGNUMBER,
        lambda s: _running(s) and s.middle and s.deal == 0 and len(s.middle) == 1,
    ),
    "wizard_v0": (
        WIZARD,
        lambda s: _running(s) and s.round == 2 and s.phase == 2 and len(s.trick) == 1,
    ),
    "bigwig_v0": (
        BIGWIG,
        lambda s: (
            _running(s) and s.phase == 3 and sum(c != -1 for c in s.commits) == 1 and s.round > 2
        ),
    ),
    "midgard_v0": (MIDGARD, lambda s: _running(s) and s.turn > 2 and s.known.any()),
}


@pytest.mark.parametrize("name", NAMES)
def test_single_field_corruptions_are_rejected_naming_the_field(name):
    corruptions, pred = CORRUPTIONS[name]
    players = {"bignumber_v0": 4, "bigwig_v0": 4, "gobig_v0": 4, "midgard_v0": 4, "wizard_v0": 4}[
        name
    ]
    cls, d = _first(name, pred, players)
    assert cls.from_dict(d) is not None  # the uncorrupted state loads
    for field, corrupt in corruptions:
        bad = copy.deepcopy(d)
        corrupt(bad["state"])
        message = _rejected(cls, bad, field.split("/")[0])
        assert f"saved {name[:-3]} state" in message, message
