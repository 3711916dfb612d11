"""Input features (deckzoo.agents.features): the Wizard set checked piece by piece against the
rules and the seat's view over random games, the policy file that names its feature set (round
trip, refused when damaged), and the config key that asks for them."""

from __future__ import annotations

import numpy as np
import pytest

import deckzoo.envs as E
from deckzoo.agents import features
from deckzoo.agents.policy import POLICY_VERSION, PolicyAgent, load_policy, save_policy
from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.wizard.cards import NULL, NUM_SUITED, RANKS, WIZARD, trick_winner

from .test_policy_file import meta_of, random_weights, rewrite_file


def wizard_positions(n=4, games=6, seed=0, **options):
    """(observation, view) of the seat to act at every decision of random games."""
    game = E.game_class("wizard")(n, **options)
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        state = game.new_state(seed * 100 + g)
        while not state.is_terminal():
            p = state.current_player
            out.append((state.observe(p), state.view(p)))
            state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))
    return game, out


def beaten_by_if_led(card: int, view: dict) -> int:
    """Cards the seat has not seen (not in its hand, not played this round) that would beat
    ``card`` leading a trick: any Wizard; a higher card of its suit; any trump if it is no trump."""
    seen = list(view["hand"] or []) + list(view["played"])
    unseen = {c: (4 if c >= NUM_SUITED else 1) - seen.count(c) for c in range(54)}
    trump = view["trump"]
    if card == WIZARD:
        return 0
    if card == NULL:
        return 16
    suit, rank = divmod(card, RANKS)
    count = unseen[WIZARD]
    count += sum(unseen[suit * RANKS + r] for r in range(rank + 1, RANKS))
    if trump is not None and trump != 4 and suit != trump:
        count += sum(unseen[trump * RANKS + r] for r in range(RANKS))
    return count


@pytest.mark.parametrize("n,options", [(4, {}), (3, {"num_rounds": 5}), (6, {"foresight": False})])
def test_wizard_features_follow_the_rules_and_the_view(n, options):
    game, positions = wizard_positions(n, games=4, seed=n, **options)
    f = features.make("wizard", game)
    assert f.obs_size == game.observation_shape[0]
    batch = f(np.stack([o for o, _ in positions]))
    assert batch.shape == (len(positions), f.out_size) and batch.dtype == np.float32
    k, checked_play = game.rounds, 0
    for row, (obs, view) in zip(batch, positions):
        np.testing.assert_array_equal(row, f(obs))  # one observation = the same row of a batch
        np.testing.assert_array_equal(row[: f.obs_size], obs)
        x = row[f.obs_size :]
        wins, beaten = x[:54], x[54:108]
        need = x[108 : 108 + 9 * n].reshape(n, 9)
        c = 108 + 9 * n
        slack, to_play = x[c : c + 16], x[c + 16 : c + 16 + n]
        me = view["player"]
        if view["phase"] == "play":
            checked_play += 1
            trick, trump = view["trick"], view["trump"]
            for card in range(54):
                expect = trick_winner(trick + [card], 4 if trump is None else trump) == len(trick)
                assert bool(wins[card]) == expect, (card, trick, trump)
            assert to_play[n - 1 - len(trick)] == 1 and to_play.sum() == 1
        if view["hand"] is not None:
            for card in range(54):
                assert beaten[card] == pytest.approx(min(beaten_by_if_led(card, view), 16) / 16)
        for r in range(n):
            seat = (me + r) % n
            bid = view["bids"][seat]
            if bid is None:
                assert not need[r].any()
                continue
            gap = bid - view["tricks_won"][seat]
            assert need[r, min(max(gap, -3), 4) + 3] == 1 and need[r, :8].sum() == 1
            left = view["hand_sizes"][seat]
            assert need[r, 8] == (gap == left)
            if r == 0:
                assert slack[min(max(left - gap, 0), 15)] == 1 and slack.sum() == 1
        if view["bids"][me] is None:
            assert not slack.any()
    assert checked_play > 50 and k == game.rounds


def test_features_refuse_another_observation_size():
    f = features.make("wizard", E.game_class("wizard")(4))
    with pytest.raises(ConfigError, match="size 677"):
        f(np.zeros(600, dtype=np.float32))


def test_unknown_or_foreign_feature_sets_are_named():
    with pytest.raises(ConfigError, match="unknown input features 'nope'.*wizard"):
        features.make("nope", E.game_class("wizard")(4))
    with pytest.raises(ConfigError, match="are for wizard, not gobig"):
        features.make("wizard", E.game_class("gobig")(4))
    assert features.names("wizard") == ["wizard"] and features.names("gobig") == []


@pytest.fixture
def wizard_policy(tmp_path):
    game = E.game_class("wizard")(4)
    f = features.make("wizard", game)
    w = random_weights(f.out_size, game.num_actions, hidden=(8,), activation="tanh")
    w.features = f
    path = save_policy(tmp_path / "p.npz", w, game="wizard", game_config=game.config())
    return game, w, path


def test_policy_file_with_features_round_trips_and_plays(wizard_policy):
    game, w, path = wizard_policy
    got, meta = load_policy(path)
    assert meta["features"] == "wizard" and meta["version"] == POLICY_VERSION == 2
    assert meta["obs_size"] == got.obs_size == 677
    assert got.input_size == 677 + w.features.size
    assert got.equals(w)
    _, positions = wizard_positions(4, games=1)
    obs = np.stack([o for o, _ in positions[:40]])
    np.testing.assert_array_equal(got.logits(obs), w.logits(obs))
    # the logits are those of the plain network on [observation, features]
    plain = random_weights(w.input_size, game.num_actions, hidden=(8,), activation="tanh")
    np.testing.assert_allclose(w.logits(obs), plain.logits(w.features(obs)), rtol=1e-5, atol=1e-5)
    state = game.new_state(3)
    agent = PolicyAgent(got, seed=0, deterministic=True)
    while not state.is_terminal():
        state.apply(agent.act(state.for_player(state.current_player)))


@pytest.mark.parametrize(
    "change,why",
    [
        ({"features": "nope"}, "input features 'nope'"),
        ({"features": 3}, "needs a string name"),
        ({"game_config": None}, "needs a string name"),
        ({"game_config": {"num_players": 5}}, "takes 883 inputs.*give 1010"),  # 5 seats
    ],
)
def test_policy_file_with_damaged_features_is_refused(wizard_policy, change, why):
    _, _, path = wizard_policy
    bad = rewrite_file(path, meta=meta_of(path, **change))
    with pytest.raises(ConfigError, match=why):
        load_policy(bad)


def test_saving_features_needs_the_game(wizard_policy, tmp_path):
    _, w, _ = wizard_policy
    with pytest.raises(ValueError, match="needs game and game_config"):
        save_policy(tmp_path / "q.npz", w)
