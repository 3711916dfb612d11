"""Per-game chance adapters: which chance nodes answer each of a game's chance calls.

Every game works with ``ChanceAdapter`` itself: a shuffle is ``chance.fisher_yates`` (every
position, last first, equal values merged), an ``integers`` draw a uniform node. That is exact
but branches on orderings nobody can see, which only matters where a tree is walked whole
(NashConv on a small variant). An adapter of a game therefore knows the game's deal and answers
it compactly, as hands (multisets, ``chance.deal``) and an unseen rest without chance:

* Go Big: the set-up shuffle deals the hands and the market; the deck stays a *lazy pile*, its
  order left open until a card is drawn (the bridge resolves the top card then, by value).
* Big Number: each deal's shuffle is the hands; the cards set aside are the rest (never seen).
* Wizard: each round's permutation is the hands (in deal order from the dealer's left) and the
  flipped card; the stock is the rest (never seen).

An adapter answers a call only when the call looks as it expects (its size, its moment);
anything else falls back to the exact generic processes, so a changed engine stays correct and
only loses compactness (tests/openspiel checks that the small variants stay compact). After a run
``verify`` checks that the hands the engine dealt are the ones chance chose.

The adapters are looked up by game name (``adapter_for``): a game without one uses the generic
adapter, so a new game needs nothing here. Each imports its game's card data when it is used, so
this module loads no game.
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.core.game import Game, State

from .chance import Call, Done, Pick, deal, draw_one, fisher_yates, uniform

# The most distinct chance actions a game without an adapter may use (its card kinds and the
# ranges of its integer draws must stay below it; the bridge checks every node).
DEFAULT_MAX_CHANCE_OUTCOMES = 4096


class ChanceAdapter:
    """The generic answers: exact for any engine (see the module docstring)."""

    def max_chance_outcomes(self, game: Game) -> int:
        return DEFAULT_MAX_CHANCE_OUTCOMES

    def process(self, game: Game, pre: State | None, call: Call) -> Pick | Done:
        """The chance nodes answering ``call``, made while applying an action to ``pre`` (None:
        while setting up the game)."""
        if call.method in ("shuffle", "permutation"):
            return fisher_yates(call.values, label=call.method)
        if call.method == "resolve":  # the next card of a lazy pile (chance.LazyPile)
            return draw_one(call.values, label="draw")
        low, high = call.values
        return uniform(low, high, label="draw")

    def verify(self, game: Game, state: State, metas: list) -> None:
        """Check a finished run against what the processes chose (``Done.meta``)."""


def _pool(values) -> dict[int, int]:
    out: dict[int, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def _counts(group: dict[int, int], size: int, offset: int = 0) -> list[int]:
    row = [0] * size
    for v, c in group.items():
        row[v - offset] += c
    return row


class GoBigAdapter(ChanceAdapter):
    """The set-up deal as hands and market; the deck a lazy pile (rules.py: ``GoBigState.new``
    pops seat 0's hand, then seat 1's, ..., then the market, from the end of the shuffled list).
    """

    def max_chance_outcomes(self, game: Game) -> int:
        from deckzoo.envs.gobig.cards import COPIES, VALUES

        return (VALUES + 1) * COPIES

    def process(self, game: Game, pre: State | None, call: Call) -> Pick | Done:
        from deckzoo.envs.gobig.cards import COPIES, HAND_SIZE, MARKET_SIZE

        n = game.num_players
        hand = getattr(game, "hand_size", HAND_SIZE)
        sizes = [hand] * n + [MARKET_SIZE]
        if pre is not None or call.method != "shuffle" or call.index != 0:
            return super().process(game, pre, call)
        if len(call.values) < sum(sizes):
            return super().process(game, pre, call)

        def finish(groups, rest) -> Done:
            popped = [v for g in groups for v in sorted(g) for _ in range(g[v])]
            bottom = [v for v in sorted(rest) for _ in range(rest[v])]
            return Done(bottom + popped[::-1], lazy=(("deck", len(bottom)),), meta=groups)

        labels = [f"deal player_{p}" for p in range(n)] + ["market"]
        return deal(_pool(call.values), sizes, COPIES, finish, labels)

    def verify(self, game: Game, state: State, metas: list) -> None:
        from deckzoo.envs.gobig.cards import VALUES

        for groups in metas:
            if groups is None:
                continue
            *hands, market = groups
            for p, g in enumerate(hands):
                if state.hands[p].tolist() != _counts(g, VALUES, offset=1):
                    raise AssertionError(f"gobig adapter: player_{p}'s hand is not the one dealt")
            if sorted(state.market) != sorted(v for v in market for _ in range(market[v])):
                raise AssertionError("gobig adapter: the market is not the one dealt")


class BigNumberAdapter(ChanceAdapter):
    """Each deal's shuffle as the hands (rules.py: ``_deal_cards`` gives seat ``p`` the slice
    ``p * hand_size`` onwards); the cards set aside are the rest, never seen."""

    def max_chance_outcomes(self, game: Game) -> int:
        from deckzoo.envs.bignumber.cards import NUM_TYPES

        return NUM_TYPES * 2  # card types x at most two copies

    def process(self, game: Game, pre: State | None, call: Call) -> Pick | Done:
        from deckzoo.envs.bignumber.cards import HAND_SIZE

        n = game.num_players
        hand = getattr(game, "hand_size", HAND_SIZE)
        if call.method != "shuffle" or len(call.values) < n * hand:
            return super().process(game, pre, call)

        def finish(groups, rest) -> Done:
            dealt = [v for g in groups for v in sorted(g) for _ in range(g[v])]
            aside = [v for v in sorted(rest) for _ in range(rest[v])]
            return Done(dealt + aside, meta=groups)

        labels = [f"deal player_{p}" for p in range(n)]
        return deal(_pool(call.values), [hand] * n, 2, finish, labels)

    def verify(self, game: Game, state: State, metas: list) -> None:
        from deckzoo.envs.bignumber.cards import NUM_TYPES

        for groups in metas:
            for p, g in enumerate(groups or ()):
                if list(state.hands[p]) != _counts(g, NUM_TYPES):
                    raise AssertionError(f"bignumber adapter: player_{p}'s hand is not the dealt")


class WizardAdapter(ChanceAdapter):
    """Each round's permutation as the hands and the flipped card (rules.py: ``deal`` gives deal
    position ``i`` to the seat ``i % n`` places left of the dealer, then flips the next card);
    the stock is the rest, never seen. Hands are dealt in that order, from the dealer's left."""

    def max_chance_outcomes(self, game: Game) -> int:
        from deckzoo.envs.wizard.cards import DECK_COUNTS, NUM_KINDS

        return NUM_KINDS * int(DECK_COUNTS.max())

    def process(self, game: Game, pre: State | None, call: Call) -> Pick | Done:
        from deckzoo.envs.wizard.cards import DECK_COUNTS, DECK_KINDS

        kinds = np.asarray(getattr(game, "deck_kinds", DECK_KINDS))
        n = game.num_players
        rnd = 1 if pre is None else pre.round + 1
        if call.method != "permutation" or len(call.values) != len(kinds) or n * rnd > len(kinds):
            return super().process(game, pre, call)
        flips = 1 if n * rnd < len(kinds) else 0
        by_kind: dict[int, list[int]] = {}
        for index in call.values:  # the deck's card indices of each kind
            by_kind.setdefault(int(kinds[index]), []).append(index)

        def finish(groups, rest) -> Done:
            take = {k: list(v) for k, v in by_kind.items()}
            hands = [[k for k in sorted(g) for _ in range(g[k])] for g in groups[:n]]
            order = [take[hands[i % n][i // n]].pop() for i in range(n * rnd)]
            for g in groups[n:]:
                order += [take[k].pop() for k in g for _ in range(g[k])]
            order += [i for k in sorted(take) for i in take[k]]
            return Done(order, meta=groups)

        pool = {k: len(v) for k, v in by_kind.items()}
        labels = [f"deal {r + 1} left of the dealer" for r in range(n)] + ["flip"]
        return deal(pool, [rnd] * n + [1] * flips, int(DECK_COUNTS.max()), finish, labels)

    def verify(self, game: Game, state: State, metas: list) -> None:
        from deckzoo.envs.wizard.cards import NUM_KINDS

        n = game.num_players
        for meta in metas:
            if meta is None:
                continue
            groups = meta
            for r, g in enumerate(groups[:n]):
                seat = (state.dealer + 1 + r) % n
                if state.hands[seat].tolist() != _counts(g, NUM_KINDS):
                    raise AssertionError(f"wizard adapter: player_{seat}'s hand is not the dealt")
            if groups[n:] and [state.flipped] != list(groups[n]):
                raise AssertionError("wizard adapter: the flipped card is not the one dealt")


class BigWigAdapter(ChanceAdapter):
    """Generic answers; the bound of its chance actions: its card kinds and the Loki draw (at
    most every point card on the altar)."""

    def max_chance_outcomes(self, game: Game) -> int:
        from deckzoo.envs.bigwig.cards import NUM_KINDS, NUM_SMALL_KINDS, SMALL_TOTAL

        return max(NUM_KINDS, NUM_SMALL_KINDS, SMALL_TOTAL)


class MidgardAdapter(ChanceAdapter):
    """Generic answers; the bound of its chance actions: its card, reward and challenge kinds."""

    def max_chance_outcomes(self, game: Game) -> int:
        from deckzoo.envs.midgard.cards import DATA

        return max(DATA.num_kinds, len(DATA.rewards), len(DATA.challenges), game.max_players)


ADAPTERS: dict[str, ChanceAdapter] = {
    "gobig": GoBigAdapter(),
    "bignumber": BigNumberAdapter(),
    "wizard": WizardAdapter(),
    "bigwig": BigWigAdapter(),
    "midgard": MidgardAdapter(),
}


def adapter_for(game: Game) -> ChanceAdapter:
    """The game's adapter, or the generic one."""
    return ADAPTERS.get(type(game).name, ChanceAdapter())
