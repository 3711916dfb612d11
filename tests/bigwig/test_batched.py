"""Batched BigWig (envs/bigwig/batched.py) beyond the registry-driven suites of tests/vector:
every chance event matched with the scalar twins, the parallel step against the scalar Parallel
env, the batch generator's own deals keeping every card, and saving a batch mid-game."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from deckzoo.envs import IllegalActionError, bigwig_v1, vector
from deckzoo.envs.bigwig.batched import BigWigBatched
from deckzoo.envs.bigwig.cards import KIND_COPIES, SMALL_COPIES, WELL
from deckzoo.envs.bigwig.rules import JOIN
from deckzoo.envs.core.batched import StateDeals

from ..vector.helpers import bits, run_differential


@pytest.fixture
def chance_events(monkeypatch) -> Counter:
    """Counts the chance events the batched engine asks for, by kind (lanes)."""
    seen: Counter = Counter()
    draw = BigWigBatched.draw

    def counting(self, kind, lanes):
        seen[kind] += len(lanes)
        return draw(self, kind, lanes)

    monkeypatch.setattr(BigWigBatched, "draw", counting)
    return seen


@pytest.mark.parametrize(
    "options,lanes,steps",
    [
        ({"num_players": 4}, 24, 400),
        ({"num_players": 3, "reward": "score"}, 16, 300),
        ({"num_players": 5, "reward": "dense", "age_order": [2, 4, 0, 1, 3]}, 16, 350),
    ],
)
def test_every_chance_event_matches_the_scalar_engine(options, lanes, steps, chance_events):
    seen = run_differential("bigwig_v1", options, lanes, steps, seed=11)
    assert seen["finished"] >= lanes
    # deals, reshuffles of the discard pile and Loki's blind picks all came from the twins
    assert chance_events["start"] == lanes + seen["finished"]
    assert chance_events["reshuffle"] > 0 and chance_events["loki"] > 0
    assert seen["actions"][JOIN] > 0  # holmgangs with a Til Valhallar joining


# ---- the parallel step -------------------------------------------------------------------------
class ParallelTwins:
    """One scalar Parallel env per lane; the batched env's chance hook hands over their states
    (a new game: the lane's env is reset, continuing its seed stream)."""

    def __init__(self, options: dict, lanes: int):
        self.envs = [bigwig_v1.parallel_env(**options) for _ in range(lanes)]
        self.obs = [None] * lanes
        for i, e in enumerate(self.envs):
            e.reset(seed=i)  # the seed stream; the first game is dealt by the hook below
        self.fresh = [True] * lanes

    def provide(self, kind: str, lanes: np.ndarray) -> list:
        if kind == "start":
            for i in lanes.tolist():
                self.obs[i], _ = self.envs[i].reset()
        return [self.envs[i].game_state for i in lanes.tolist()]


def check_view(env, twins: ParallelTwins, obs, mask, acting, where: str) -> None:
    for i, e in enumerate(twins.envs):
        seats = e.game_state.simultaneous_players()
        assert acting[i].tolist() == [q in seats for q in range(env.num_players)], where
        for q, agent in enumerate(e.possible_agents):
            o = twins.obs[i][agent]
            assert np.array_equal(bits(obs[i, q]), bits(o["observation"])), f"{where}: lane {i}"
            assert np.array_equal(mask[i, q], o["action_mask"].astype(bool)), f"{where}: lane {i}"


@pytest.mark.parametrize(
    "options",
    [
        {"num_players": 2},
        {"num_players": 4, "reward": "score"},
        {"num_players": 6, "age_order": [3, 1, 5, 0, 2, 4], "illegal_action": "penalize"},
    ],
)
def test_parallel_step_matches_the_scalar_parallel_env(options):
    B, steps = 8, 160
    twins = ParallelTwins(options, B)
    env = vector.make("bigwig_v1", num_envs=B, seed=0, **options)
    env.set_chance(StateDeals(env.engine, twins.provide))
    env.reset()
    obs, mask, acting = env.parallel_view()
    check_view(env, twins, obs, mask, acting, "reset")
    rng = np.random.default_rng(5)
    finished = penalized = 0
    for t in range(steps):
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=2)
        if options.get("illegal_action") == "penalize" and t % 40 == 39:
            actions[0, 0] = env.num_actions + 1  # out of range: the lane's game ends
            actions[0, 1 + t % 3] = env.num_actions + 1  # the scalar env blames one seat
        expect_r = np.zeros((B, env.num_players), dtype=np.float32)
        expect_done = np.zeros(B, dtype=bool)
        finals = {}
        for i, e in enumerate(twins.envs):
            step = {a: int(actions[i, q]) for q, a in enumerate(e.possible_agents)}
            o, r, term, _, _ = e.step(step)
            twins.obs[i] = o
            expect_r[i] = [r[a] for a in e.possible_agents]
            if all(term.values()):
                expect_done[i] = True
                finals[i] = np.stack([o[a]["observation"] for a in e.possible_agents])
        out = env.step_parallel(actions)
        where = f"step {t}"
        assert np.array_equal(out.terminated, expect_done), where
        assert np.array_equal(bits(out.rewards), bits(expect_r)), where
        for j, i in enumerate(out.info.get("final_lanes", np.zeros(0, int)).tolist()):
            assert np.array_equal(bits(out.info["final_obs"][j]), bits(finals[i])), where
        finished += int(expect_done.sum())
        penalized += int(out.info["illegal"].sum())
        obs, mask, acting = out.obs, out.mask, out.acting
        check_view(env, twins, obs, mask, acting, where)
        # the AEC view after a parallel step is the player to act's
        assert np.array_equal(env.legal_mask(), env.engine.legal_mask())
    assert finished >= B
    assert penalized == (4 if options.get("illegal_action") == "penalize" else 0)


def test_parallel_step_raises_before_any_lane_changes():
    env = vector.make("bigwig_v1", num_envs=4, seed=1, num_players=4)
    env.reset()
    _, mask, acting = env.parallel_view()
    assert acting.all()  # the first trick: every seat commits at once
    actions = mask.argmax(axis=2)
    actions[2, 1] = env.num_actions  # NOOP from a seat that must commit
    before = {k: v.copy() for k, v in vars(env.engine).items() if isinstance(v, np.ndarray)}
    with pytest.raises(IllegalActionError, match="lane 2"):
        env.step_parallel(actions)
    for k, v in before.items():
        assert np.array_equal(getattr(env.engine, k), v), k


def test_the_other_games_have_no_parallel_step():
    env = vector.make("wizard_v0", num_envs=2, seed=0, num_players=3)
    env.reset()
    with pytest.raises(Exception, match="no seats decide at once"):
        env.parallel_view()


# ---- the batch generator's own games ------------------------------------------------------------
def check_cards(eng) -> None:
    """Every large card, well and small card is somewhere, once (rules.py check_invariants)."""
    large = eng.hands.sum(axis=1, dtype=np.int64) + eng.discard
    pos = np.arange(eng.draw_pile.shape[1])
    live = pos < eng.draw_len[:, None]
    for k in range(len(KIND_COPIES)):
        large[:, k] += ((eng.draw_pile == k) & live).sum(axis=1)
        large[:, k] += (eng.commits == k).sum(axis=1)
    assert (large == KIND_COPIES).all()
    assert (eng.well ^ (eng.commits == WELL)).all()
    small = np.zeros((eng.B, len(SMALL_COPIES)), dtype=np.int64)
    small[:, :-1] = eng.collected.sum(axis=1) + eng.altar
    live = np.arange(eng.small.shape[1]) < eng.small_len[:, None]
    for k in range(len(SMALL_COPIES)):
        small[:, k] += ((eng.small == k) & live).sum(axis=1)
    small[np.flatnonzero(eng.point_on_table), eng.round_card[eng.point_on_table]] += 1
    small[:, -1] += eng.holmgangs
    assert (small == SMALL_COPIES).all()
    assert (eng.hands.sum(axis=2) + eng.well + (eng.commits >= 0) <= 9).all()


def test_random_deals_keep_every_card_and_save_mid_game():
    env = vector.make("bigwig_v1", num_envs=64, seed=2, num_players=4)
    _, mask, _ = env.reset()
    rng = np.random.default_rng(0)
    finished = reshuffled = 0
    for t in range(300):
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        if t == 150:
            saved, saved_actions = env.get_state(), actions
        step = env.step(actions)
        if t == 150:
            after = bits(step.obs).copy()
        mask = step.mask
        check_cards(env.engine)
        assert mask.any(axis=1).all()
        finished += int(step.terminated.sum())
        reshuffled += int(env.engine.resh.sum())
    assert finished >= 64 and reshuffled > 0
    env.set_state(*saved)  # continues exactly where get_state was taken
    assert np.array_equal(bits(env.step(saved_actions).obs), after)
