"""Big Number through the shared conformance harness (random play with deep checks on a sample),
determinism, bad inputs, and the env-level reward contract."""

from __future__ import annotations

import numpy as np
import pytest

import deckzoo.envs as E
from deckzoo.envs.bignumber.rules import BigNumberGame
from deckzoo.envs.core.conformance import check_bad_inputs, check_determinism, check_random_play

# (players, options): every player count, both deck options, single deal and the full game.
CONFIGS = [(n, {"single_deal": True}) for n in range(2, 7)] + [
    (n, {"two_decks": True, "single_deal": True}) for n in (3, 4)
]
FULL = [
    (2, {"target": 10}),
    (3, {}),
    (4, {}),
    (4, {"two_decks": True, "target": 20}),
    (5, {}),
    (6, {"target": 10}),
]


def ids(cases):
    return [f"{n}p-" + "-".join(f"{k}={v}" for k, v in o.items()) for n, o in cases]


@pytest.mark.parametrize("n,options", CONFIGS, ids=ids(CONFIGS))
def test_random_single_deals(n, options):
    game = BigNumberGame(n, **options)
    stats = check_random_play(
        game, num_games=120, seed=n, deep_every=0 if not game.two_decks else 997
    )
    assert stats.games == 120
    # A few deep checks (exact masks over every action, round trips, view/observe, determinize).
    check_random_play(game, num_games=2, seed=100 + n, deep_every=23 if not game.two_decks else 5)


@pytest.mark.parametrize("n,options", FULL, ids=ids(FULL))
def test_random_full_games(n, options):
    game = BigNumberGame(n, **options)
    stats = check_random_play(game, num_games=8, seed=n, deep_every=0)
    assert max(max(w) for w in stats.winners) < n
    check_random_play(game, num_games=1, seed=50 + n, deep_every=97 if not game.two_decks else 13)
    check_determinism(game, seed=n, num_games=1)


@pytest.mark.slow
@pytest.mark.parametrize("n,options", CONFIGS + FULL, ids=ids(CONFIGS + FULL))
def test_random_play_long(n, options):
    game = BigNumberGame(n, **options)
    check_random_play(
        game,
        num_games=150 if options.get("single_deal") else 8,
        seed=1000 + n,
        deep_every=0 if not game.two_decks else 2003,
    )


@pytest.mark.parametrize("n,two_decks", [(2, False), (4, False), (4, True), (6, True)])
def test_bad_inputs_at_every_kind_of_decision(n, two_decks):
    game = BigNumberGame(n, two_decks=two_decks, target=100)
    rng = np.random.default_rng(n)
    state = game.new_state(n)
    seen = set()
    for step in range(400):
        kind = (state.phase, bool(state.pending))
        if step % 5 == 0 or kind not in seen:
            check_bad_inputs(state)
        seen.add(kind)
        state.apply(int(rng.choice(state.legal_actions())))
    assert {p for p, _ in seen} == {0, 1, 2}  # lead, answer and pick-up decisions were all checked


@pytest.mark.parametrize("reward", ["dense", "score", "win"])
def test_rewards_through_the_env(reward):
    """dense: each deal's penalty points, negated and scaled, paid when the deal ends."""
    env = E.make("bignumber_v0", num_players=3, target=10, reward=reward)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    paid = []
    deals = 0
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        totals[agent] += rew
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        state = env.unwrapped.game_state
        step = np.array([env.rewards[a] for a in env.possible_agents])
        if len(state.history) > deals:
            deals = len(state.history)
            paid.append(step)
        elif reward == "dense":
            assert not step.any()  # nothing between deal ends
    state = env.unwrapped.game_state
    assert deals == len(state.history) >= 2
    if reward == "dense":
        want = -np.asarray(state.history, float) / 10.0
        assert np.allclose(np.asarray(paid), want)
    elif reward == "score":
        s = -state.scores().astype(float)
        assert np.allclose([totals[a] for a in env.possible_agents], (s - s.mean()) / 10.0)
    else:
        assert np.allclose([totals[a] for a in env.possible_agents], state.returns())


def test_observation_layout_and_bounds():
    for n, two in [(2, False), (4, False), (5, True)]:
        game = BigNumberGame(n, two_decks=two)
        names = [p[0] for p in game.layout.pieces]
        assert ("selection" in names) == two
        assert game.observation_shape == (game.layout.size,)
        s = game.new_state(0)
        obs = s.observe(0)
        parts = game.layout.split(obs)
        assert parts["hand"].sum() * game.copies == 9 and parts["current_player"].sum() == 1
        assert parts["phase"][0] == 1 and (0 <= obs).all() and (obs <= 1).all()


@pytest.mark.parametrize("n,two_decks", [(4, False), (4, True)])
def test_every_action_has_a_name_and_plays_round_trip(n, two_decks):
    from deckzoo.envs.bignumber.actions import PLAY_BASE
    from deckzoo.envs.bignumber.cards import SET_INDEX, SETS, cards_name

    game = BigNumberGame(n, two_decks=two_decks)
    s = game.new_state(0)
    names = [s.action_name(a) for a in range(game.num_actions)]
    assert len(set(names)) == game.num_actions and not any("invalid" in x for x in names)
    assert s.action_name(game.num_actions) == f"<invalid action {game.num_actions}>"
    if not two_decks:
        for i, t in enumerate(SETS):
            assert SET_INDEX[t] == i and names[PLAY_BASE + i].startswith(f"play {cards_name(t)} (")


def test_render_shows_the_table():
    s = BigNumberGame(3).new_state(2)
    s.apply(int(s.legal_actions()[0]))
    text = s.render()
    assert "middle:" in text and "player_2" in text and "to answer" in text
