"""Explicit chance (deckzoo.openspiel.chance): each process gives every outcome the probability a
uniform shuffle gives it, checked against brute force over every permutation."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("pyspiel")

from deckzoo.openspiel.chance import (
    Done,
    LazyPile,
    NeedChance,
    Pick,
    ScriptRng,
    deal,
    draw_one,
    fisher_yates,
    settle,
    uniform,
)


def leaves(node, prob=1.0):
    """Every (answer, probability) a process can end in."""
    if isinstance(node, Done):
        yield node, prob
        return
    assert abs(sum(p for _, p in node.outcomes) - 1.0) < 1e-12
    assert len({a for a, _ in node.outcomes}) == len(node.outcomes)
    for a, p in node.outcomes:
        assert p > 0
        yield from leaves(node.child(a), prob * p)


def brute_force(values, key) -> dict:
    """The distribution of ``key(arrangement)`` over every permutation of ``values``, equally
    likely (exact fractions)."""
    counts = Counter(key(list(order)) for order in itertools.permutations(values))
    total = sum(counts.values())
    return {k: Fraction(c, total) for k, c in counts.items()}


def distribution(node, key) -> dict:
    out: dict = {}
    for done, p in leaves(node):
        k = key(done)
        out[k] = out.get(k, 0.0) + p
    return out


def assert_same(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for k, p in want.items():
        assert got[k] == pytest.approx(float(p), abs=1e-12), k


@pytest.mark.parametrize("values", [[0, 1, 2, 3], [1, 1, 2, 2, 3], [5, 5, 5, 7]])
def test_fisher_yates_gives_each_arrangement_its_uniform_probability(values):
    assert_same(
        distribution(fisher_yates(values), lambda d: tuple(d.answer)),
        brute_force(values, tuple),
    )


def test_fisher_yates_of_one_value_is_no_chance():
    assert fisher_yates([4, 4, 4]) == Done([4, 4, 4])


@pytest.mark.parametrize(
    ("values", "sizes"),
    [([0, 1, 2, 3, 4], [2, 1]), ([1, 1, 1, 2, 2, 3, 3], [3, 2]), ([0, 0, 1, 1], [2, 2])],
)
def test_a_deal_gives_each_split_into_hands_its_probability(values, sizes):
    """Hands are the first ``sizes`` slices of a uniform shuffle, as multisets; the rest too."""

    def split(order):
        out, at = [], 0
        for k in [*sizes, len(order) - sum(sizes)]:
            out.append(tuple(sorted(order[at : at + k])))
            at += k
        return tuple(out)

    def finish(groups, rest):
        hands = [tuple(sorted(v for v, c in g.items() for _ in range(c))) for g in groups]
        return Done((*hands, tuple(sorted(v for v, c in rest.items() for _ in range(c)))))

    pool = dict(Counter(values))
    node = deal(pool, sizes, stride=4, finish=finish)
    assert_same(distribution(node, lambda d: d.answer), brute_force(values, split))
    # one path a split, not one an ordering of the hands
    paths = [d.answer for d, _ in leaves(node)]
    assert len(paths) == len(set(paths))


def test_uniform_and_draw_one():
    assert_same(distribution(uniform(2, 5), lambda d: d.answer), {2: 1 / 3, 3: 1 / 3, 4: 1 / 3})
    assert uniform(3, 4) == Done(3)  # one value: forced, no node
    assert_same(distribution(draw_one([1, 1, 2]), lambda d: d.answer), {1: 2 / 3, 2: 1 / 3})


def test_a_script_answers_in_order_then_asks_for_chance():
    rng = ScriptRng([[3, 1, 2], 4])
    x = np.array([1, 2, 3])
    rng.shuffle(x)
    assert x.tolist() == [3, 1, 2]
    assert rng.integers(5) == 4
    with pytest.raises(NeedChance) as need:
        rng.permutation(3)
    assert (need.value.call.method, need.value.call.values, need.value.call.index) == (
        "permutation",
        (0, 1, 2),
        2,
    )
    with pytest.raises(NotImplementedError, match="random"):
        rng.random()


def test_a_script_refuses_an_answer_that_is_not_an_arrangement_of_the_values():
    with pytest.raises(AssertionError):
        ScriptRng([[1, 1, 2]]).shuffle([1, 2, 3])


def test_a_lazy_pile_draws_a_card_only_when_a_pop_reaches_it():
    script = ScriptRng([2])
    pile = LazyPile([1, 2, 3, 9], unresolved=3, script=script)
    assert pile.pop() == 9  # resolved: no chance
    assert script.calls == 0
    assert pile.pop() == 2  # the script chose a 2 among the unresolved [1, 2, 3]
    assert sorted(pile) == [1, 3] and pile.unresolved == 2
    with pytest.raises(NeedChance) as need:
        pile.pop()
    assert need.value.call.method == "resolve" and sorted(need.value.call.values) == [1, 3]


def test_forced_nodes_are_followed_to_the_next_choice():
    chain = Pick(((7, 1.0),), lambda a: Pick(((a + 1, 1.0),), Done))
    assert settle(chain) == Done(8)
    two = Pick(((1, 0.5), (2, 0.5)), Done)
    assert settle(Pick(((0, 1.0),), lambda a: two)) is two
