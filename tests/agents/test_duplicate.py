"""Duplicate boards (issue #48): keyed chance in the engines, boards in the arena (seeds, seats,
identical games for identical agents, whole boards, replays), the paired statistics and
--until-separated."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from deckzoo.agents.cli import main
from deckzoo.agents.evaluation.arena import run_arena
from deckzoo.agents.evaluation.boards import (
    MIN_BOARDS,
    ahead_share,
    format_interval,
    mean_interval,
    paired_summary,
    t_quantile,
)
from deckzoo.agents.evaluation.config import ArenaConfig, ArenaResult
from deckzoo.agents.evaluation.report import paired_markdown
from deckzoo.agents.evaluation.stats import summarize, wilson_interval
from deckzoo.agents.evaluation.tasks import board_size, comparable, game_tasks
from deckzoo.agents.tools.replay import arena_replay, final_state
from deckzoo.envs import GAMES, ConfigError, registry
from deckzoo.envs.bigwig import wells
from deckzoo.envs.core.game import KeyedChance

# small settings of the games, so that whole boards take milliseconds (another game: its
# SHORT_OPTIONS, through fast())
FAST = {
    "gobig": {},
    "bignumber": {},
    "wizard": {"num_rounds": 3},
    "bigwig": {},
    "midgard": {"max_turns": 8},
}


def fast(game: str) -> dict:
    return FAST.get(game, registry.short_options(game))


def board_records(game, agents, players=3, games=None, seating="rotate", **kw):
    size = board_size(len(agents), players, seating)
    cfg = ArenaConfig(
        game=game,
        agents=agents,
        games=games or 2 * size,
        players=players,
        options=fast(game),
        seed=5,
        duplicate=True,
        seating=seating,
        save_games=10**6,
        **kw,
    )
    return run_arena(cfg)


# ---- keyed chance in the engines ------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(GAMES))
def test_keyed_chance_leaves_the_set_up_as_the_ordinary_seeded_game(game):
    g = GAMES[game](3, **fast(game))
    plain, keyed = g.new_state(17), g.new_state(17, keyed_chance=True)
    saved = keyed.to_dict()
    assert saved.pop("chance") == {"seed": 17, "counts": {}}  # the keyed streams, saved with it
    assert plain.to_dict() == saved  # same deal, same generator state
    assert plain.chance is None and keyed.chance.seed == 17


def _bigwig_reshuffle(state, pile):
    """Force BigWig's next draw to reshuffle ``pile`` (kind counts); the new draw pile."""
    state.draw = []
    state.discard[:] = pile
    state.hands[0] = 0
    wells.draw(state, 0, 1)
    return list(state.draw)


def _midgard_reshuffle(state, pile):
    state.thing, state.krog = [], []
    state.valhalla[:] = pile
    state._reshuffle()
    return list(state.thing)


@pytest.mark.parametrize(
    "game,force,pile_of",
    [("bigwig", _bigwig_reshuffle, "discard"), ("midgard", _midgard_reshuffle, "valhalla")],
)
def test_a_reshuffle_is_the_same_whatever_chance_came_before_it(game, force, pile_of):
    """Two games of one board whose play consumed different chance before their first reshuffle
    still reshuffle the same pile into the same order; the ordinary generator does not."""
    g = GAMES[game](3)
    size = len(getattr(g.new_state(0), pile_of))
    pile = np.zeros(size, dtype=np.int64)
    pile[: min(size, 6)] = 3
    orders = {}
    for keyed in (True, False):
        a, b = g.new_state(9, keyed_chance=keyed), g.new_state(9, keyed_chance=keyed)
        b.rng.random(5)  # b's play drew something a's did not (a Loki pick, an earlier event)
        first_a, first_b = force(a, pile), force(b, pile)
        orders[keyed] = (first_a == first_b, first_a != force(a, pile))
    assert orders[True] == (True, True)  # same first reshuffle; the second is its own draw
    assert orders[False][0] is False  # sequential chance desyncs


def test_keyed_chance_travels_with_clones_and_leaves_search_copies():
    s = GAMES["bigwig"](3).new_state(3, keyed_chance=True)
    s.chance.next("reshuffle")
    c = s.clone()
    assert c.chance is not s.chance and c.chance.counts == {"reshuffle": 1}
    c.chance.next("reshuffle")
    assert s.chance.counts == {"reshuffle": 1}  # independent counters
    d = s.determinize(s.current_player, np.random.default_rng(0))
    assert d.chance is None  # a search's copy must not know the board's future chance
    m = GAMES["midgard"](3).new_state(3, keyed_chance=True)
    assert m.clone().chance.seed == 3
    assert m.determinize(m.current_player, np.random.default_rng(0)).chance is None


def test_keyed_streams_depend_on_seed_kind_and_index_only():
    def first(chance, event):
        return chance.next(event).integers(2**62)

    a, b = KeyedChance(4), KeyedChance(4)
    assert first(a, "loki") == first(b, "loki")
    assert first(a, "reshuffle") == first(KeyedChance(4), "reshuffle")  # kinds count apart
    assert first(a, "loki") != first(KeyedChance(4), "loki")  # the second loki is a new draw
    assert first(KeyedChance(5), "loki") != first(KeyedChance(4), "loki")
    with pytest.raises(ValueError, match="seed"):
        GAMES["gobig"](3).new_state(None, keyed_chance=True)


# ---- boards in the arena --------------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(GAMES))
def test_identical_agents_play_identical_games_in_every_seat(game):
    """a and b are the same seeded agent: each seat's agent seed is the board's, so whichever
    label sits there, every game of a board is the same game."""
    res = board_records(game, ["a=random", "b=random"], players=3)
    boards = {}
    for rec in res.records:
        boards.setdefault(rec["board"], []).append(rec)
    assert len(boards) == 2 and all(len(b) == 3 for b in boards.values())
    for recs in boards.values():
        first = recs[0]
        for rec in recs[1:]:
            assert rec["actions"] == first["actions"]
            assert rec["scores"] == first["scores"] and rec["winners"] == first["winners"]
            assert rec["seats"] != first["seats"]  # the labels did move
    b0, b1 = boards.values()
    assert b0[0]["actions"] != b1[0]["actions"]  # boards are different deals


@pytest.mark.parametrize("seating,players", [("rotate", 4), ("orders", 4), ("rotate", 2)])
def test_a_boards_games_start_from_one_deal_seat_for_seat_rotated(seating, players):
    cfg = ArenaConfig(
        game="gobig",
        agents=["a=heuristic", "b=random", "c=random", "d=random"][:players],
        games=3 * board_size(players, players, seating),
        players=players,
        seating=seating,
        duplicate=True,
    )
    tasks = game_tasks(cfg)
    size = board_size(players, players, seating)
    assert size == (math.factorial(players - 1) * players if seating == "orders" else players)
    for b in range(3):
        board = tasks[b * size : (b + 1) * size]
        assert {t["board"] for t in board} == {b} and all(t["keyed_chance"] for t in board)
        assert len({t["seed"] for t in board}) == 1  # one deal
        assert len({tuple(t["agent_seeds"]) for t in board}) == 1  # one agent seed per seat
        for seat in range(players):  # every agent in every seat equally often
            counts = {lb: 0 for lb in board[0]["seats"]}
            for t in board:
                counts[t["seats"][seat]] += 1
            assert set(counts.values()) == {size // players}
        if seating == "rotate":
            first = board[0]["seats"]
            assert [t["seats"] for t in board] == [first[r:] + first[:r] for r in range(size)]
        g = GAMES["gobig"](players)
        deals = [g.new_state(t["seed"], keyed_chance=True).to_dict() for t in board]
        assert all(d == deals[0] for d in deals)
    assert len({tasks[b * size]["seed"] for b in range(3)}) == 3


def test_board_runs_are_whole_boards_and_resume_by_first_game():
    whole = ArenaConfig(game="gobig", agents=["heuristic", "random"], games=8, players=2,
                        duplicate=True, seed=3)  # fmt: skip
    recs = [comparable(r) for r in run_arena(whole).records]
    parts = []
    for first in (0, 4):
        cfg = ArenaConfig(**{**whole.__dict__, "games": 4, "first_game": first})
        parts += [comparable(r) for r in run_arena(cfg).records]
    assert parts == recs and [r["board"] for r in recs] == [0, 0, 1, 1, 2, 2, 3, 3]
    for bad in ({"games": 7}, {"first_game": 1}):
        with pytest.raises(ConfigError, match="multiple of the board size 2"):
            run_arena(ArenaConfig(**{**whole.__dict__, **bad}))


def test_an_ordinary_run_is_unchanged_by_the_duplicate_code():
    cfg = ArenaConfig(game="gobig", agents=["heuristic", "random"], games=4, players=2, seed=3)
    tasks = game_tasks(cfg)
    assert len({t["seed"] for t in tasks}) == 4
    assert all("board" not in t and "keyed_chance" not in t for t in tasks)
    res = run_arena(cfg)
    assert res.paired is None and "paired" not in res.to_dict()
    assert all("board" not in r for r in res.records)


def test_a_saved_board_game_replays_to_its_result():
    """BigWig board games reshuffle from keyed streams: the replay must draw the same way."""
    res = board_records("bigwig", ["heuristic", "random"], players=3, games=6)
    for rec in res.records:
        replay = arena_replay(GAMES["bigwig"](3), rec)
        assert replay["keyed_chance"] is True
        state = final_state(json.loads(json.dumps(replay)))
        assert np.asarray(state.scores()).tolist() == rec["scores"]
    assert any(
        len(final_state(arena_replay(GAMES["bigwig"](3), r)).origins.cards) > 1 for r in res.records
    )  # fmt: skip  (some game did reshuffle)


# ---- paired statistics ----------------------------------------------------------------------
def test_t_quantiles():
    for df, want in [(1, 12.706), (2, 4.303), (3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042)]:
        assert t_quantile(0.975, df) == pytest.approx(want, abs=1e-3)
    assert t_quantile(0.975, 10**6) == pytest.approx(1.96, abs=1e-3)
    m = mean_interval([1.0, 2.0, 3.0], min_n=2)
    assert m["mean"] == 2.0 and m["half_width"] == pytest.approx(4.303 / math.sqrt(3), abs=1e-3)
    assert m["method"] == "t" and m["unavailable"] is None
    assert math.isnan(mean_interval([1.0], min_n=1)["low"])  # one value: no spread, no bounds


def test_no_interval_from_fewer_than_min_boards():
    """Two boards with one result gave "[1.000, 1.000]": a t interval from one degree of
    freedom over values that agree. Below MIN_BOARDS there is no interval, and it says why."""
    assert MIN_BOARDS == 5
    for n in range(MIN_BOARDS):
        m = mean_interval([1.0] * n, (0.0, 1.0))
        assert math.isnan(m["low"]) and math.isnan(m["high"]) and math.isnan(m["half_width"])
        assert m["unavailable"] == f"{n} boards; need >= {MIN_BOARDS}"
    two = mean_interval([1.0, 1.0], (0.0, 1.0))
    assert format_interval(two) == "1.000, n/a (2 boards; need >= 5)"
    assert mean_interval([0.2, 0.9], unit="games")["unavailable"] == "2 games; need >= 5"


def test_boards_that_all_agree_get_no_zero_width_interval():
    """Bounded values with no spread get the Wilson score interval over the boards; unbounded
    ones get none."""
    ones = mean_interval([1.0] * 6, (0.0, 1.0))
    assert ones["method"] == "wilson" and ones["high"] == 1.0
    assert ones["low"] == pytest.approx(wilson_interval(6, 6)[0]) and ones["low"] < 0.7
    level = mean_interval([0.5] * 8, (0.0, 1.0))
    assert level["low"] < 0.5 < level["high"]
    scaled = mean_interval([3.0] * 6, (-3.0, 3.0))  # the top of its bounds, as a share: 1
    assert scaled["low"] == pytest.approx(-3.0 + 6.0 * wilson_interval(6, 6)[0])
    flat = mean_interval([2.5] * 9)
    assert flat["unavailable"] == "no spread over 9 boards" and math.isnan(flat["low"])
    assert format_interval(flat, 2) == "2.50, n/a (no spread over 9 boards)"


def test_an_interval_is_never_zero_width():
    rng = np.random.default_rng(7)
    for _ in range(300):
        values = rng.choice([0.0, 0.5, 1.0], size=int(rng.integers(0, 12)), p=[0.05, 0.05, 0.9])
        for bounds in [(0.0, 1.0), None]:
            m = mean_interval(values, bounds)
            assert m["unavailable"] or m["high"] > m["low"], (values, bounds, m)


def test_the_report_of_two_boards_says_n_a():
    records = [
        _rec(2 * b + i, b, seats, scores)
        for b in range(2)
        for i, (seats, scores) in enumerate(((["A", "B"], [3.0, 1.0]), (["B", "A"], [1.0, 3.0])))
    ]
    res = ArenaResult(
        ArenaConfig("gobig", ["A", "B"], games=4, players=2, duplicate=True),
        "gobig", 2, records, summarize(records, 2), False, 0.0, paired_summary(records),
    )  # fmt: skip
    md = "\n".join(paired_markdown(res))
    assert "[1.000, 1.000]" not in md and "1.000, n/a (2 boards; need >= 5)" in md
    pair = res.paired["pairs"][0]
    assert math.isnan(pair["variance_reduction"])  # from two boards: no estimate either


def test_ahead_share_counts_every_pair_of_seats():
    ranks = [0, 1, 1, 2]
    assert ahead_share(ranks, [0], [1]) == 1.0
    assert ahead_share(ranks, [1], [2]) == 0.5
    assert ahead_share(ranks, [3], [0, 1, 2]) == 0.0
    assert ahead_share(ranks, [1], [0, 2, 3]) == pytest.approx((0 + 0.5 + 1) / 3)


def _rec(index, board, seats, scores):
    best = max(scores)
    return {
        "index": index,
        "board": board,
        "seats": seats,
        "scores": scores,
        "winners": [s for s, v in enumerate(scores) if v == best],
    }


def test_paired_summary_cancels_the_luck_of_the_deal():
    """Each board's deal adds the same luck to both seats; A is 1 point better. Unpaired, a
    game's difference carries the luck; over a board it cancels, so the variance reduction is
    large and the paired interval sits on 1."""
    rng = np.random.default_rng(0)
    records = []
    for b in range(40):
        luck = rng.normal(0, 10, size=2)  # what each seat of this deal is worth
        for i, seats in enumerate((["A", "B"], ["B", "A"])):
            skill = [1.0 if lb == "A" else 0.0 for lb in seats]
            noise = rng.normal(0, 0.5, size=2)
            scores = [float(luck[s] + skill[s] + noise[s]) for s in range(2)]
            records.append(_rec(2 * b + i, b, seats, scores))
    p = paired_summary(records)
    assert p["boards"] == 40 and p["games"] == 80
    (pair,) = p["pairs"]
    assert {pair["a"], pair["b"]} == {"A", "B"}
    sign = 1 if pair["a"] == "A" else -1
    d = pair["score_diff"]
    assert abs(d["mean"] - sign) < 0.4 and d["half_width"] < 0.5
    assert pair["variance_reduction"] > 50
    assert pair["score_diff_unpaired"]["half_width"] > 5 * d["half_width"]
    rows = {r["agent"]: r for r in p["agents"]}
    assert rows["A"]["boards"] == rows["B"]["boards"] == 40
    assert rows["A"]["win_share"]["mean"] + rows["B"]["win_share"]["mean"] == pytest.approx(1)
    assert rows["A"]["rating_mu"] > rows["B"]["rating_mu"]


def test_records_without_boards_are_each_their_own_board():
    records = [_rec(i, 0, ["A", "B"], [1.0, 0.0]) for i in range(3)]
    for r in records:
        del r["board"]
    p = paired_summary(records)
    assert p["boards"] == 3 and p["games"] == 3
    assert p["pairs"][0]["score_diff"]["mean"] == 1.0
    assert math.isnan(p["pairs"][0]["variance_reduction"])  # no spread to reduce


def test_duplicate_run_summary_and_files(tmp_path):
    res = board_records("gobig", ["heuristic", "random"], players=2, games=8)
    d = res.to_dict()
    assert d["paired"]["boards"] == 4 and d["paired"]["games"] == 8
    pair = d["paired"]["pairs"][0]
    assert pair["boards"] == 4 and pair["games"] == 8
    assert main(["arena", "gobig", "--agents", "heuristic,random", "--players", "2", "--games",
                 "8", "--duplicate", "--no-progress", "--workers", "1", "--out",
                 str(tmp_path / "o")]) == 0  # fmt: skip
    md = (tmp_path / "o" / "summary.md").read_text()
    assert "Paired over boards" in md and "variance reduction" in md
    assert json.loads((tmp_path / "o" / "summary.json").read_text())["paired"]["boards"] == 4


def test_duplicate_config_errors(capsys):
    base = {"game": "gobig", "agents": ["a=heuristic", "b=random"], "players": 2, "games": 4}
    with pytest.raises(ConfigError, match="needs duplicate"):
        run_arena(ArenaConfig(**base, until_separated=("a", "b")))
    with pytest.raises(ConfigError, match="two different agents"):
        run_arena(ArenaConfig(**base, duplicate=True, until_separated=("a", "c")))
    assert main(["arena", "gobig", "--agents", "a=heuristic,b=random", "--max-games", "8"]) == 2
    assert "--until-separated" in capsys.readouterr().err


# ---- --until-separated ----------------------------------------------------------------------
def test_until_separated_stops_at_the_same_board_whatever_the_workers():
    cfg = ArenaConfig(game="gobig", agents=["a=heuristic", "b=random"], players=2, games=200,
                      duplicate=True, until_separated=("a", "b"), seed=1)  # fmt: skip
    one = run_arena(cfg)
    st = one.stopping
    assert st["separated"] and st["leader"] == "a" and st["ahead_share_sequence"][0] > 0.5
    assert len(one.records) == 2 * (st["stopped_at_board"] + 1) < 200
    two = run_arena(ArenaConfig(**{**cfg.__dict__, "workers": 2}))
    assert [comparable(r) for r in two.records] == [comparable(r) for r in one.records]
    assert two.stopping == st


def test_until_separated_stops_at_max_games_when_the_agents_are_level():
    cfg = ArenaConfig(game="gobig", agents=["a=random", "b=random"], players=2, games=40,
                      duplicate=True, until_separated=("a", "b"), seed=1)  # fmt: skip
    res = run_arena(cfg)
    assert not res.stopping["separated"] and res.stopping["leader"] is None
    assert len(res.records) == 40
    lo, hi = res.stopping["ahead_share_sequence"]
    assert lo <= 0.5 <= hi


def test_until_separated_from_the_command_line(tmp_path, capsys):
    argv = ["arena", "gobig", "--agents", "a=heuristic,b=random", "--players", "2",
            "--until-separated", "a,b", "--max-games", "200", "--workers", "1", "--no-progress",
            "--out", str(tmp_path / "o")]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "until separated (a, b): separated after board" in out
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["config"]["duplicate"] and summary["config"]["games"] == 200
    assert summary["stopping"]["separated"] and summary["games_played"] < 200
