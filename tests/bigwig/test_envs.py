"""bigwig_v1 through PettingZoo: the AEC env never shows a committed card before the reveal (X5),
and the native Parallel env lets every seat of a trick commit in one step."""

import copy
import pickle

import numpy as np
import pytest
from pettingzoo.test import parallel_seed_test

from deckzoo.envs import IllegalActionError, bigwig_v1
from deckzoo.envs.bigwig.cards import point_kind, standard
from deckzoo.envs.bigwig.rules import PASS, PHASE_COMMIT, PHASE_TICKET, TARGET_BASE

from .helpers import table


@pytest.mark.parametrize("n", [2, 4, 6])
def test_aec_no_observation_reveals_a_committed_card_before_the_reveal(n):
    env = bigwig_v1.env(num_players=n)
    env.reset(seed=n)
    rng = np.random.default_rng(n)
    state = env.unwrapped.game_state
    checked = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        state = env.unwrapped.game_state
        # a trick or the ticket window (W-E1), not yet complete
        in_trick = (
            state.phase in (PHASE_COMMIT, PHASE_TICKET) and len(state.simultaneous_players()) > 1
        )
        others = [a for a in env.agents if a != agent]
        before = {a: env.observe(a) for a in others}
        views = {a: state.view(int(a.split("_")[1])) for a in others}
        masks = {a: state.legal_mask_for(int(a.split("_")[1])) for a in others}
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if in_trick:  # the trick is not complete yet: nobody else may notice anything
            for a in others:
                after = env.observe(a)
                assert np.array_equal(after["observation"], before[a]["observation"]), (
                    f"{a} saw {agent}'s decision"
                )
                # (the AEC mask itself moves with the turn; the seat's own pending mask does not
                # change)
                seat = int(a.split("_")[1])
                assert np.array_equal(env.unwrapped.game_state.legal_mask_for(seat), masks[a])
                assert env.unwrapped.game_state.view(seat) == views[a]
            checked += 1
    assert checked > 20


def test_aec_pending_seat_knows_it_must_still_commit_but_not_what_others_did():
    env = bigwig_v1.raw_env(num_players=3)
    env.reset(seed=0)
    env.game_state = table(
        [[standard("red", 9)], [standard("blue", 9)], [standard("green", 1)]], point_kind(["red"])
    )
    layout = env.game.layout
    env.agent_selection = "player_0"
    env.step(standard("red", 9))
    obs1 = layout.split(env.observe("player_1")["observation"])
    assert obs1["to_act"][0] == 1 and obs1["my_commit"].sum() == 0
    assert obs1["last_trick"].sum() == 0 and np.allclose(obs1["hand_sizes"], 2 / 9)
    obs0 = layout.split(env.observe("player_0")["observation"])
    assert obs0["to_act"][0] == 0 and obs0["my_commit"][standard("red", 9)] == 1


@pytest.mark.parametrize("n", range(2, 7))
def test_parallel_all_trick_players_commit_in_one_step(n):
    env = bigwig_v1.parallel_env(num_players=n)
    obs, _ = env.reset(seed=10 + n)
    noop = env.noop
    assert noop == env.game.num_actions and env.action_space("player_0").n == noop + 1
    rng = np.random.default_rng(n)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    simultaneous = 0
    steps = 0
    while env.agents:
        state = env.game_state
        acting = state.simultaneous_players()
        for a in env.agents:
            seat = int(a.split("_")[1])
            mask = obs[a]["action_mask"]
            assert mask.any()
            if seat in acting:
                assert not mask[noop] and np.array_equal(
                    mask[:noop].astype(bool), state.legal_mask_for(seat)
                )
            else:
                assert mask.tolist() == [0] * noop + [1]
        if len(acting) > 1:
            simultaneous += 1
            if state.phase == PHASE_TICKET:  # every onlooker decides in the same step (W-E1)
                duel = (state.challenger, state.target)
                assert acting == tuple(s for s in state.game.age_order if s not in duel)
            else:
                assert state.phase == PHASE_COMMIT and set(acting) == set(state.participants)
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, rew, *_ = env.step(actions)
        steps += 1
        for a, r in rew.items():
            totals[a] += r
    assert simultaneous > 10
    returns = env.game_state.returns()
    assert np.allclose([totals[a] for a in env.possible_agents], returns)
    assert steps < env.game_state.round * (n + 2) + 1  # far fewer steps than the AEC env needs


def test_parallel_same_seed_and_actions_same_game():
    def run():
        env = bigwig_v1.parallel_env(num_players=4)
        obs, _ = env.reset(seed=5)
        rng = np.random.default_rng(1)
        trace = []
        while env.agents:
            actions = {
                a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents
            }
            obs, rew, *_ = env.step(actions)
            trace.append((sorted(actions.items()), sorted(rew.items())))
        return trace, env.game_state.to_dict()

    assert run() == run()


def test_parallel_illegal_action_raises_and_keeps_the_state():
    env = bigwig_v1.parallel_env(num_players=3)
    obs, _ = env.reset(seed=2)
    while len(env.game_state.simultaneous_players()) < 3:
        obs, *_ = env.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents})
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
    bad = dict(actions, player_2=int(np.flatnonzero(obs["player_2"]["action_mask"] == 0)[0]))
    before = env.game_state.to_dict()
    with pytest.raises(IllegalActionError):
        env.step(bad)
    assert env.game_state.to_dict() == before
    env.step(actions)  # the legal joint action still works


@pytest.mark.parametrize("n", [2, 4, 6])
def test_parallel_seed_test_passes_with_the_default_options(n):
    """PettingZoo's seed test samples the action spaces without masks and steps with them under
    the default ``illegal_action="raise"``: a mask-less sample is a legal action, so two envs of
    one seed play the same whole game."""
    parallel_seed_test(lambda: bigwig_v1.parallel_env(num_players=n))


def test_parallel_maskless_sample_is_legal_and_an_explicit_mask_is_honoured():
    env = bigwig_v1.parallel_env(num_players=4)
    obs, _ = env.reset(seed=3)
    for i, a in enumerate(env.agents):
        env.action_space(a).seed(i)
    steps = 0
    while env.agents:
        actions = {a: env.action_space(a).sample() for a in env.agents}
        for a, x in actions.items():
            assert obs[a]["action_mask"][x] == 1, (a, x)
        obs, *_ = env.step(actions)
        steps += 1
    assert steps > 20 and env.game_state.is_terminal()
    obs, _ = env.reset(seed=3)
    space = env.action_space("player_0")
    illegal = np.zeros(space.n, dtype=np.int8)
    illegal[np.flatnonzero(obs["player_0"]["action_mask"] == 0)[0]] = 1
    x = space.sample(mask=illegal)  # the caller's mask, not the env's
    assert obs["player_0"]["action_mask"][x] == 0
    before = env.game_state.to_dict()
    with pytest.raises(IllegalActionError):  # and an illegal action still raises
        env.step({**{a: env.action_space(a).sample() for a in env.agents}, "player_0": x})
    assert env.game_state.to_dict() == before


def test_parallel_copies_sample_from_their_own_game():
    env = bigwig_v1.parallel_env(num_players=3)
    env.reset(seed=1)
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        twin.step({a: env.action_space(a).sample() for a in env.agents})  # env's sample: legal
        for _ in range(15):
            actions = {a: twin.action_space(a).sample() for a in twin.agents}
            twin.step(actions)
    alone = pickle.loads(pickle.dumps(env.action_space("player_0")))  # without its env
    assert alone.n == env.action_space("player_0").n and 0 <= alone.sample() < alone.n


def test_parallel_sequential_decisions_give_only_the_decider_a_real_mask():
    env = bigwig_v1.parallel_env(num_players=3)
    env.reset(seed=0)
    env.game_state = table(
        [[standard("red", 1)], [standard("red", 2)], [standard("blue", 1)]],
        15,
        collected=[[], [point_kind(["red"])], []],
    )
    obs = env._observations()
    assert obs["player_0"]["action_mask"][: env.noop].any()  # the challenger picks a target
    assert obs["player_1"]["action_mask"].tolist() == [0] * env.noop + [1]
    assert obs["player_2"]["action_mask"].tolist() == [0] * env.noop + [1]


def test_dense_reward_follows_vp_won_and_lost_in_a_duel():
    """reward="dense": the duel's stake leaving the target is a negative reward for it (VP / 20)."""
    env = bigwig_v1.raw_env(num_players=3, reward="dense")
    env.reset(seed=0)
    p2, p3 = point_kind(["red"]), point_kind(["red", "green"])
    env.game_state = table(
        [[standard("red", 9)], [standard("red", 2)], [standard("blue", 1)]],
        15,
        collected=[[], [p3, p2], []],
        altar=[point_kind(["blue"])],
    )
    env._rewards = type(env._rewards)("dense", env.game_state)
    env.agent_selection = "player_0"
    env.step(TARGET_BASE)  # challenge the player to the left (seat 1)
    env.step(env.unwrapped.game.stake_base + p3)
    env.step(PASS)  # seat 2, an onlooker without a Til Valhallar, can only decline (B27)
    env.step(standard("red", 9))
    env.step(standard("red", 2))  # the reveal: red 9 wins the 3 VP stake and the 2 VP altar card
    assert env.rewards == {"player_0": 5 / 20, "player_1": -3 / 20, "player_2": 0.0}


def test_determinize_mid_trick_keeps_the_view_and_resamples_hidden_commits():
    s = table(
        [
            [standard("red", v) for v in (1, 2, 3)],
            [standard("blue", v) for v in (1, 2, 3)],
            [standard("green", v) for v in (1, 2, 3)],
        ],
        point_kind(["red"]),
    )
    s.apply(standard("red", 3))
    s.apply(standard("blue", 3))  # seat 2 still to commit; seats 0 and 1 committed face down
    rng = np.random.default_rng(0)
    commits = set()
    for _ in range(30):
        d = s.determinize(2, rng)
        assert d.view(2) == s.view(2) and np.array_equal(d.legal_mask(), s.legal_mask())
        d.check_invariants()
        commits.add(d.commits[0])
    assert len(commits) > 3  # seat 0's face-down card is not leaked into the copies


def test_W_E1_bigwig_is_at_version_1_and_v0_is_refused():
    """The ticket window changed the game (W-E1): v1 is the env, asking for v0 names v1."""
    from deckzoo.envs import ConfigError, canonical, make

    assert bigwig_v1.Game.version == 1 and canonical("deckzoo/BigWig-v1") == "bigwig_v1"
    for old in ("bigwig_v0", "deckzoo/bigwig-v0", "deckzoo/BigWig-v0"):
        with pytest.raises(ConfigError, match="bigwig_v1"):
            make(old)
