"""The shared batched-engine helpers: a state declared once (allocate, reset by scope, load from a
scalar state) and the named batched views of an observation layout."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from deckzoo.envs.core.batched_state import (
    Field,
    StateFields,
    length,
    none_as,
    padded,
    per_seat,
    seat_rows,
    seat_set,
    seat_take,
)
from deckzoo.envs.core.encoding import Layout

FIELDS = StateFields(
    Field("phase", np.int64, scope="fixed", load="stage"),
    Field("hands", np.int8, ("n", 3)),
    Field("commits", np.int64, ("n",), -1, scope="round"),
    Field("joiners", bool, ("n",), False, scope="round", load=seat_set("joined")),
    Field("pile", np.int8, (5,), load=padded("draw")),
    Field("pile_len", np.int64, load=length("draw")),
    Field("cur", np.int64, (), -1, scope="fixed", load=none_as(-1, "current")),
    Field("scratch", np.int64, load="skip"),
)


def engine(B=3, n=4):
    e = SimpleNamespace(B=B, n=n)
    FIELDS.allocate(e)
    return e


def test_fields_are_allocated_at_their_reset_values():
    e = engine()
    assert e.hands.shape == (3, 4, 3) and e.hands.dtype == np.int8 and not e.hands.any()
    assert e.commits.shape == (3, 4) and (e.commits == -1).all()
    assert e.pile.shape == (3, 5) and e.cur.shape == (3,) and (e.cur == -1).all()
    assert FIELDS.names[:3] == ["phase", "hands", "commits"]


def test_reset_by_scope():
    e = engine()
    for name in FIELDS.names:
        getattr(e, name)[...] = 1
    lanes = np.array([0, 2])
    FIELDS.reset(e, lanes, "round")
    assert (e.commits[lanes] == -1).all() and not e.joiners[lanes].any()
    assert (e.hands[lanes] == 1).all()  # a game field survives a round's reset
    assert (e.commits[1] == 1).all()  # other lanes are untouched
    FIELDS.reset(e, lanes)
    assert not e.hands[lanes].any() and (e.commits[lanes] == -1).all()
    assert (e.phase == 1).all() and (e.cur == 1).all()  # fixed fields are the engine's


def test_load_from_a_scalar_state():
    e = engine()
    e.pile[1] = 9
    s = SimpleNamespace(
        stage=2, hands=np.ones((4, 3)), commits=[0, -1, 2, -1], joined=[1, 3], draw=[4, 5],
        current=None,
    )  # fmt: skip
    FIELDS.load(e, 1, s)
    assert e.phase[1] == 2 and (e.hands[1] == 1).all() and list(e.commits[1]) == [0, -1, 2, -1]
    assert list(e.joiners[1]) == [False, True, False, True]
    assert list(e.pile[1]) == [4, 5, 0, 0, 0] and e.pile_len[1] == 2 and e.cur[1] == -1
    assert not e.hands[0].any()


def test_a_bad_declaration_is_refused():
    with pytest.raises(ValueError, match="twice"):
        StateFields(Field("a", int), Field("a", int))
    with pytest.raises(ValueError, match="scope"):
        StateFields(Field("a", int, scope="turn"))


def test_seat_rows_address_lane_seat_pairs():
    e = engine()
    rows = seat_rows(np.array([0, 2]), np.array([3, 1]), e.n)
    per_seat(e.hands)[rows, 2] = 7
    assert e.hands[0, 3, 2] == 7 and e.hands[2, 1, 2] == 7 and e.hands.sum() == 14
    took = seat_take(e.hands, np.array([0, 2]), np.array([3, 1]))
    np.testing.assert_array_equal(took, e.hands[[0, 2], [3, 1]])


LAYOUT = Layout([("hand", 3), ("seats", (2, 2)), ("flag", 1)])


def test_batched_views_write_the_rows_by_name():
    buf, v = LAYOUT.batch(4)
    assert buf.shape == (4, 8) and v["seats"].shape == (4, 2, 2)
    v["seats"][:, 1, 0] = 5
    v["hand"][2] = [1, 2, 3]
    v["flag"][:, 0] = 7
    scalar, sv = LAYOUT.new()
    sv["seats"][1, 0], sv["flag"] = 5, 7
    np.testing.assert_array_equal(buf[0], scalar)
    assert list(buf[2, :3]) == [1, 2, 3] and LAYOUT.offset("flag") == 7
