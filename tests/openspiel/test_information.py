"""Information through the bridge: the deal has the engine's probabilities, information-state
strings are equal exactly when a seat cannot tell two histories apart (by enumeration on the small
variants), resampling keeps the resampling seat's information state, and OpenSpiel's Python
IS-MCTS bot plays every game."""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts

from deckzoo.openspiel import load

from .helpers import GAMES, as_params, quick_game, sample_chance, small_variants

VARIANTS = small_variants()
NEEDS_VARIANTS = pytest.mark.skipif(
    not VARIANTS, reason="no small variants (deckzoo.envs.variants) to enumerate"
)


def variant_game(name: str) -> pyspiel.Game:
    game, options = VARIANTS[name]
    return load(game, **as_params(game, options))


def table(engine) -> str:
    """Everything every seat sees of a position together."""
    n = engine.game.num_players
    return json.dumps([engine.view(p) for p in range(n)], sort_keys=True)


def set_up_outcomes(game: pyspiel.Game) -> dict[str, float]:
    """The bridge's deal: each table it can start at, with its probability."""
    out: dict[str, float] = {}

    def walk(state, prob):
        if state.is_chance_node():
            for a, p in state.chance_outcomes():
                walk(state.child(a), prob * p)
            return
        key = table(state.engine_state)
        out[key] = out.get(key, 0.0) + prob

    walk(game.new_initial_state(), 1.0)
    return out


@NEEDS_VARIANTS
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_deal_has_the_engines_probabilities_and_no_needless_branch(name):
    """Against every outcome of the deal as the game enumerates it (``testing.all_deals``,
    equally likely: each distinct order of the deck, each start seat), the bridge's chance nodes
    reach the same tables with the same probabilities. And each path of the bridge's deal is a
    table of its own: it never branches on an order nobody can see."""
    from deckzoo.envs.variants import all_deals
    from deckzoo.envs.variants import variant_game as engine_game

    engine = engine_game(name)
    try:
        deals = [table(s) for s in all_deals(engine)]
    except ValueError:
        pytest.skip(f"{name}: the game does not enumerate its deals")
    want: dict[str, float] = {}
    for key in deals:
        want[key] = want.get(key, 0.0) + 1.0 / len(deals)
    game = variant_game(name)
    got = set_up_outcomes(game)
    assert set(got) == set(want)
    for key, p in want.items():
        assert got[key] == pytest.approx(p, rel=1e-9)
    paths = 0

    def count(state):
        nonlocal paths
        if state.is_chance_node():
            for a, _ in state.chance_outcomes():
                count(state.child(a))
        else:
            paths += 1

    count(game.new_initial_state())
    assert paths == len(got)


def enumerate_histories(game: pyspiel.Game, width: int, deals: int, seed: int):
    """Decision nodes of the tree below the first ``deals`` deals of a depth-first walk that
    follows ``width`` outcomes of each chance node (a seeded choice) and every action; each with,
    for its acting seat, what that seat saw: its view after every step (an action with its
    chance, or the set-up) and its own actions, worked out here apart from the bridge's strings.
    Depth first, the deals walked differ in the cards dealt last: hidden cards of some seats."""
    rng = np.random.default_rng(seed)
    n = game.num_players()
    started = [0]

    def walk(state, seen, engine):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            for a in rng.permutation(outcomes)[:width]:
                if engine is None and started[0] >= deals:
                    return
                yield from step(state.child(int(a)), seen, engine, None)
            return
        if engine is None:
            return
        p = state.current_player()
        yield state, p, seen[p]
        for a in state.legal_actions():
            mine = [(("own", a),) if q == p else () for q in range(n)]
            yield from step(state.child(a), [s + m for s, m in zip(seen, mine)], engine, a)

    def step(child, seen, engine, action):
        now = child.engine_state
        if now is not None and now is not engine and not child.is_chance_node():
            if engine is None:
                started[0] += 1
            seen = [s + (json.dumps(now.view(q), sort_keys=True),) for q, s in enumerate(seen)]
            engine = now
        yield from walk(child, seen, engine)

    yield from walk(game.new_initial_state(), [() for _ in range(n)], None)


@NEEDS_VARIANTS
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_information_state_strings_are_equal_exactly_when_a_seat_cannot_tell_histories_apart(
    name,
):
    """On a small variant, every line of play below a sample of its deals: two decision nodes
    have the same information-state string for the acting seat exactly when that seat saw the
    same thing (views after every step, own actions); the tensor agrees where there is one. The
    sample holds pairs that differ in hidden cards only, so merging them is tested too."""
    game = variant_game(name)
    by_string: dict[tuple, set] = {}
    by_seen: dict[tuple, set] = {}
    tensors: dict[tuple, bytes] = {}
    nodes: dict[tuple, int] = {}
    has_tensor = game.get_type().provides_information_state_tensor
    for i, (state, p, seen) in enumerate(enumerate_histories(game, width=2, deals=16, seed=0)):
        key = (p, state.information_state_string(p))
        by_string.setdefault(key, set()).add(seen)
        by_seen.setdefault((p, seen), set()).add(key)
        nodes[key] = nodes.get(key, 0) + 1
        if has_tensor and (nodes[key] > 1 or i % 8 == 0) and len(tensors) < 250:  # long: a sample
            tensor = np.asarray(state.information_state_tensor(p), dtype=np.float32).tobytes()
            assert tensors.setdefault(key, tensor) == tensor
    assert all(len(v) == 1 for v in by_string.values()), "a string merges what a seat can tell"
    assert all(len(v) == 1 for v in by_seen.values()), "a seat's string splits what it cannot"
    if has_tensor:  # and the tensors as well (a seat's own: they hold no seat number)
        assert len({(p, t) for (p, _), t in tensors.items()}) == len(tensors)
    # the sample has information states of several histories (they differ in hidden cards)
    assert max(nodes.values()) > 1


@pytest.mark.parametrize("name", GAMES)
def test_resampling_keeps_the_seats_information_state(name):
    """``resample_from_infostate`` (the engine's ``determinize``): the seat's string, observation
    and legal actions stay; the other seats' strings start afresh; the world plays on."""
    game = quick_game(name)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = np.random.default_rng(1)
    state, checked = game.new_initial_state(), 0
    while not state.is_terminal() and checked < 6:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        p = state.current_player()
        world = state.resample_from_infostate(p, sampler)
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.observation_string(p) == state.observation_string(p)
        assert world.legal_actions() == state.legal_actions()
        for q in range(game.num_players()):
            if q != p:
                assert world.information_state_string(q).split("\n")[1].startswith("resampled")
        while not world.is_terminal() and world.move_number() < 40:
            if world.is_chance_node():
                world.apply_action(sample_chance(world, rng))
            else:
                world.apply_action(int(rng.choice(world.legal_actions())))
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    with pytest.raises(ValueError, match="chance"):
        game.new_initial_state().resample_from_infostate(0, sampler)


class _NoEvaluation:
    """An IS-MCTS evaluator that values every leaf at 0 and has uniform priors: the search still
    resamples a world and walks the tree each simulation, without the cost of rollouts."""

    def __init__(self, num_players: int):
        self.zeros = np.zeros(num_players)

    def evaluate(self, state):
        return self.zeros

    def prior(self, state):
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


@pytest.mark.parametrize("name", GAMES)
def test_the_python_ismcts_bot_plays_a_game_of_each(name):
    """OpenSpiel's Python IS-MCTS bot takes every decision of a whole game (each simulation
    resamples a world, and the bot checks that the resampling seat's information state is kept)."""
    game = quick_game(name)
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game, _NoEvaluation(game.num_players()), uct_c=2.0, max_simulations=4, random_state=rs
    )
    rng = np.random.default_rng(0)
    state, decisions = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(int(action))
            decisions += 1
    assert decisions > 0
    assert sum(state.returns()) == pytest.approx(0.0)
    lo, hi = game.min_utility(), game.max_utility()
    assert all(lo <= r <= hi for r in state.returns())
