"""Small variants: named configurations of the games whose trees are small enough to solve.

The rulebook games are far too big for exact methods (an exact NashConv, a full best response,
counterfactual regret minimisation over every information state). A small variant keeps every
rule of its game and shrinks only its sizes (fewer values or ranks or suits, smaller hands, one
round), through the game's own options, so that a 3-player game has some 10^4-10^5 information
states. Each is documented on its game's rules page, under "Small variants", as a variant and not
the rulebook game, with the rulings the shrinking forces.

``SMALL_VARIANTS`` is plain data, a variant's name -> ``(game name, options)`` where the options
include ``num_players``, so anything can rebuild the game without importing this package's code::

    from deckzoo.envs.variants import SMALL_VARIANTS, variant_game
    game_name, options = SMALL_VARIANTS["gobig_small"]   # ("gobig", {"num_players": 3, ...})
    game = variant_game("gobig_small")                   # GoBigGame(num_players=3, values=3, ...)
    env = deckzoo.envs.make(game_name, **options)        # the PettingZoo env (or make_env)

Everything that takes a game's options takes a variant's: the envs, the agents, the arena
(``deckzoo arena gobig --players 3 --option values=3 --option copies=3 --option hand_size=2
--agents heuristic,random``), the trainers (``num_players`` and ``game_options`` in a config).
A batched engine that does not support a variant refuses it when made, and the arena and the
vector trainer play it on scalar lanes instead (``deckzoo.envs.vector.refusal``).

``python -m deckzoo.envs.variants [NAME ...]`` counts each variant's information states by
enumeration (``count_information_states``): every chance outcome of the deal (each game's
``testing.all_deals``), then every sequence of actions, one state at a time with the scalar
engine. It takes minutes per variant; the counts are written on the rules pages.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterable

from . import registry
from .core.game import Game, State

#: variant name -> (game name, options incl. num_players); information states on the rules pages
SMALL_VARIANTS: dict[str, tuple[str, dict]] = {
    "gobig_small": ("gobig", {"num_players": 3, "values": 3, "copies": 3, "hand_size": 2}),
    "bignumber_small": (
        "bignumber",
        {"num_players": 3, "ranks": 2, "hand_size": 2, "single_deal": True},
    ),
    "wizard_small": (
        "wizard",
        {"num_players": 3, "num_rounds": 1, "suits": 2, "ranks": 3, "wizards": 1, "nulls": 1},
    ),
}


def variant_game(name: str) -> Game:
    """The ``Game`` of the small variant ``name`` (a key of ``SMALL_VARIANTS``)."""
    if name not in SMALL_VARIANTS:
        raise KeyError(f"no small variant {name!r}; the variants: {', '.join(SMALL_VARIANTS)}")
    game, options = SMALL_VARIANTS[name]
    return registry.game_class(game)(**options)


def make_env(name: str, **adapter_options):
    """The PettingZoo AEC env of the small variant ``name`` (``reward``, ``render_mode``... as
    for any env)."""
    game, options = SMALL_VARIANTS[name]
    return registry.make(game, **options, **adapter_options)


def all_deals(game: Game) -> Iterable[State]:
    """Every chance outcome of ``game``'s deal, one start state each (the game's
    ``testing.all_deals``). Only a game whose chance is all at the start (one deal) has them."""
    deals = registry.testing_fact(type(game).name, "all_deals", None)
    if deals is None:
        raise ValueError(f"{type(game).name} does not enumerate its deals (testing.all_deals)")
    return deals(game)


def count_information_states(game: Game, deals: Iterable[State] | None = None) -> dict:
    """Exhaustive counts over every deal (``all_deals`` unless given) and every line of play.

    An information state is the acting seat and everything it has seen: the sequence of its views
    (``state.view(seat)``) from the deal to the decision, so two histories are one information
    state exactly when that seat cannot tell them apart (perfect recall: a view names the seat's
    own moves). Histories are the decision points of the tree below the deals. Views are hashed
    (64 bits) as they are chained, which keeps the memory to one integer per information state.
    """
    n = game.num_players
    seen: set[tuple[int, int]] = set()
    counts = {"deals": 0, "histories": 0, "terminals": 0}

    def key(state: State, p: int) -> str:
        return json.dumps(state.view(p), sort_keys=True)

    def walk(state: State, past: tuple[int, ...]) -> None:
        if state.is_terminal():
            counts["terminals"] += 1
            return
        p = state.current_player
        counts["histories"] += 1
        seen.add((p, past[p]))
        for a in state.legal_actions().tolist():
            child = state.clone()
            child.apply(a)
            walk(child, tuple(hash((past[q], key(child, q))) for q in range(n)))

    for state in all_deals(game) if deals is None else deals:
        counts["deals"] += 1
        walk(state, tuple(hash(key(state, q)) for q in range(n)))
    return {**counts, "information_states": len(seen)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m deckzoo.envs.variants",
        description="Count the small variants' information states by enumeration (minutes each).",
    )
    parser.add_argument("names", nargs="*", help=f"variants (default: all, {list(SMALL_VARIANTS)})")
    args = parser.parse_args(argv)
    for name in args.names or list(SMALL_VARIANTS):
        t0 = time.perf_counter()
        counts = count_information_states(variant_game(name))
        took = time.perf_counter() - t0
        print(json.dumps({"variant": name, **counts, "seconds": round(took)}), flush=True)


if __name__ == "__main__":
    main()
