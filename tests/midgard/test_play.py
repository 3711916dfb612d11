"""Random play through the shared conformance harness, determinism, bad inputs, the action
codec and the observation/view contract."""

from __future__ import annotations

import json

import numpy as np
import pytest

from deckzoo.envs.core.conformance import check_bad_inputs, check_determinism, check_random_play
from deckzoo.envs.midgard import actions as A
from deckzoo.envs.midgard.rules import MidgardGame

from .util import RULES_PAGE, legal


def test_random_play_short_games_reach_every_action_range():
    """20 short games per player count, cheap checks (invariants, non-empty masks) every step;
    together they use every action range (every kind of decision is reachable)."""
    counts = np.zeros(A.NUM_ACTIONS, dtype=np.int64)
    for n in (3, 4, 5, 6):
        game = MidgardGame(n, start_position=4, max_turns=40)
        stats = check_random_play(game, num_games=20, seed=100 + n)
        assert stats.games == 20 and min(stats.lengths) > 0
        counts += stats.action_counts
    for name, shape in A.RANGES:
        size = int(np.prod(shape)) if shape else 1
        assert counts[A.BASE[name] : A.BASE[name] + size].sum() > 0, name
    # every event and every reaction was played for its effect at least once (issue 7)
    for rng_name, first in (("play_event", A.FIRST_ACTION_CARD), ("react", A.FIRST_REACTION)):
        size = A.SHAPE[rng_name][0]
        never = [
            A.DATA.kind_names[first + i] for i in range(size) if counts[A.BASE[rng_name] + i] == 0
        ]
        assert not never, f"never played: {never}"


@pytest.mark.parametrize("n", [3, 6])
def test_random_play_deep_checks(n):
    """Exact masks (every action tried on clones), JSON round trips, observe == f(view) and
    determinize on a sample of decisions."""
    game = MidgardGame(n, start_position=6, max_turns=15)
    check_random_play(game, num_games=3, seed=7 + n, deep_every=9)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_games_end_by_the_calendar_or_the_safeguards(n):
    game = MidgardGame(n, start_position=6)
    stats = check_random_play(game, num_games=6, seed=n)
    assert stats.games == 6


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_play_full_games_slow(n):
    """Whole games at the real calendar, every decision checked (invariants, a non-empty mask,
    global-state bounds). 6 a player count (24 games, ~50,000 decisions): at ~2,000 decisions a
    game these are the suite's slowest tests per game, and the short games above already reach
    every kind of decision."""
    game = MidgardGame(n)
    stats = check_random_play(game, num_games=6, seed=1000 + n, deep_every=20000)
    assert stats.games == 6


def test_determinism():
    for n in (3, 5):
        check_determinism(MidgardGame(n, start_position=6, max_turns=30), seed=n, num_games=2)


def test_bad_inputs_change_nothing():
    state = MidgardGame(4, start_position=6, max_turns=20).new_state(3)
    rng = np.random.default_rng(5)
    for _ in range(120):
        if state.is_terminal():
            break
        check_bad_inputs(state)
        state.apply(int(rng.choice(state.legal_actions())))


def test_is_legal_agrees_with_the_mask():
    rng = np.random.default_rng(1)
    for seed in range(3):
        s = MidgardGame(4, start_position=6, max_turns=20).new_state(seed)
        step = 0
        while not s.is_terminal():
            if step % 5 == 0:
                mask = s.legal_mask()
                got = np.array([s.is_legal(a) for a in range(A.NUM_ACTIONS)])
                assert (got == mask).all(), np.flatnonzero(got != mask)
            s.apply(int(rng.choice(s.legal_actions())))
            step += 1


def test_action_codec_round_trips_and_names_every_id():
    seen = set()
    for a in range(A.NUM_ACTIONS):
        name, coords = A.decode(a)
        assert A.encode(name, *coords) == a
        text = A.action_name(a)
        assert text and "<" not in text
        seen.add(name)
    assert seen == {name for name, _ in A.RANGES}
    with pytest.raises(ValueError):
        A.decode(A.NUM_ACTIONS)
    with pytest.raises(ValueError):
        A.encode("face", 40)


def test_observation_pieces_follow_the_view():
    game = MidgardGame(4, start_position=6, max_turns=20)
    s = game.new_state(9)
    rng = np.random.default_rng(2)
    for _ in range(150):
        if s.is_terminal():
            break
        for p in range(4):
            view = s.view(p)
            json.dumps(view)
            obs = game.layout.split(s.observe(p))
            assert np.allclose(obs["hand"] * 8, view["hand"])
            assert np.allclose(obs["coins"] * 50, np.roll(view["coins"], -p))
            assert np.flatnonzero(obs["open"]).tolist() == sorted(view["open"])
            assert obs["calendar"][view["calendar"]] == 1
            assert np.allclose(
                obs["troop_flags"][:, :, 0].sum(axis=1),
                np.roll([len(t) for t in view["troops"]], -p),
            )
            assert obs["current_player"][(view["current_player"] - p) % 4] == 1
        s.apply(int(rng.choice(s.legal_actions())))


def test_hidden_information_is_not_in_the_view():
    s = MidgardGame(4).new_state(2)
    v = s.view(1)
    assert "thing" not in v and v["hand"] == s.hands[1].tolist()
    assert all(key not in json.dumps(v) for key in ('reward_deck"', "ch_deck"))
    d = s.determinize(1, np.random.default_rng(0))
    assert d.view(1) == v and (d.hands[1] == s.hands[1]).all()
    assert legal(s, "end_phase")


def test_aec_reports_the_turn_cap_as_truncation():
    from deckzoo.envs import make

    env = make("midgard_v1", num_players=3, max_turns=3)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, _rew, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term and "scores" in info
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.unwrapped.game_state.truncated


def test_render_view_shows_only_what_the_seat_knows():
    s = MidgardGame(4).new_state(5)
    text = s.render_view(2)
    other = s.render_view(1)
    assert "player_2 (you)" in text and "your hand" in text
    from deckzoo.envs.midgard.cards import DATA

    mine = [DATA.kind_names[k] for k in range(DATA.num_kinds) if s.hands[2, k]]
    assert all(name in text.split("your hand:")[1] for name in mine)
    assert text.split("your hand:")[0] == other.split("your hand:")[0].replace(
        "player_1 (you)", "player_1"
    ).replace("player_2", "player_2 (you)")


def test_docs_action_and_observation_tables_match_the_code():
    """docs/rules/midgard.md prints the action ranges and the 4-player layout: no drift."""
    text = RULES_PAGE.read_text("utf-8")
    assert A.range_table() in text
    layout = MidgardGame(4).layout
    for name, shape, a, b in layout.pieces:
        assert f"| `{name}` | {'x'.join(map(str, shape))} | {a}-{b - 1} |" in text, name
    assert f"| **total** | {layout.size} | |" in text and f"`Discrete({A.NUM_ACTIONS})`" in text
