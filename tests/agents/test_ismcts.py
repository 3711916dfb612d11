"""ISMCTS: spec parsing, budgets, determinism, search quality on explicit Go Big positions."""

import pytest

from deckzoo.agents.base import RandomAgent
from deckzoo.agents.evaluation.match import play_match
from deckzoo.agents.heuristics.gobig import HeuristicAgent
from deckzoo.agents.ismcts import ISMCTSAgent, parse_spec
from deckzoo.agents.registry import make_agent
from deckzoo.envs import ConfigError, registry
from deckzoo.envs.gobig.rules import GoBigGame, encode_play
from tests.gobig.helpers import position


@pytest.mark.parametrize(
    "arg,expected",
    [
        (None, {}),
        ("500", {"iterations": 500}),
        ("0.5s", {"seconds": 0.5}),
        (
            "300:rollout=heuristic:c=0.5:reward=score",
            {"iterations": 300, "rollout": "heuristic", "exploration": 0.5, "reward": "score"},
        ),
        ("300,max_rollout_steps=40", {"iterations": 300, "max_rollout_steps": 40}),
        ("seconds=2", {"seconds": 2.0}),
        ("60:rollout=heuristic:bias=1.5", {"iterations": 60, "rollout": "heuristic", "bias": 1.5}),
        ("60:prior=zoo/sample:bias=2", {"iterations": 60, "prior": "zoo:sample", "bias": 2.0}),
    ],
)
def test_parse_spec(arg, expected):
    assert parse_spec(arg) == expected


@pytest.mark.parametrize(
    "spec,match",
    [
        ("ismcts:lots", "lots"),
        ("ismcts:100:depth=3", "depth"),
        ("ismcts:0", "iterations"),
        ("ismcts:-1s", "seconds"),
        ("ismcts:10:reward=points", "reward"),
        ("ismcts:10:rollout=ismcts", "search"),
        ("ismcts:10:rollout=nobody", "nobody"),
        ("ismcts:10:bias=1", "bias"),
        ("ismcts:10:rollout=heuristic:bias=-1", "bias"),
        ("ismcts:10:prior=heuristic", "bias"),  # a prior without bias would do nothing
        ("ismcts:10:prior=ismcts:bias=1", "search"),
        ("ismcts:10:prior=nobody:bias=1", "nobody"),
        ("ismcts:10:rollout=heuristic:noise=0.3", "unknown option 'noise'"),  # removed
        ("ismcts:10:reward=rank", "win, score"),  # removed
    ],
)
def test_bad_specs_raise_config_errors(spec, match):
    with pytest.raises(ConfigError, match=match):
        make_agent(spec, "gobig", 0)


def test_registry_builds_ismcts_with_rollout_agent():
    agent = make_agent("ismcts:7:rollout=heuristic:reward=score", "gobig", 3)
    assert isinstance(agent, ISMCTSAgent) and agent.iterations == 7 and agent.reward == "score"
    assert isinstance(agent.rollout_agent, HeuristicAgent)
    assert make_agent("ismcts", "gobig").rollout_agent is None


def test_registry_builds_the_prior_apart_from_the_rollouts():
    agent = make_agent("ismcts:7:prior=heuristic:bias=2", "gobig", 3)
    assert isinstance(agent.prior_agent, HeuristicAgent) and agent.rollout_agent is None
    assert agent.bias == 2.0 and "prior=HeuristicAgent" in repr(agent)


def test_agents_pickle_and_keep_their_settings():
    import pickle

    agent = make_agent("ismcts:5:rollout=heuristic:bias=1:reward=score", "gobig", 3)
    copy = pickle.loads(pickle.dumps(agent))
    assert repr(copy) == repr(agent) and "bias=1.0" in repr(copy)
    state = GoBigGame(3).new_state(1)
    seat = state.current_player
    assert copy.act(state.for_player(seat)) == agent.act(state.for_player(seat))


def winning_endgame():
    """Seat 0 to play, nothing left to draw. 2x6 empties the hand and ends the game 42 to 35
    (a win); 1x6 lets seat 1 play its 7s (up to 21 points) before the game can end."""
    return position(hands=[[6, 6], [7, 7, 7]], banks=[[5] * 6, [7] * 5], current=0)


def test_finds_the_winning_endgame_move():
    state = winning_endgame()
    assert state.scores().tolist() == [30, 35]
    agent = ISMCTSAgent(seed=1, iterations=150)
    assert agent.act(state.for_player(0)) == encode_play(6, 2)
    assert agent.last_iterations == 150
    assert sum(agent.last_visits.values()) == 150
    assert max(agent.last_visits, key=agent.last_visits.get) == encode_play(6, 2)


def test_same_seed_same_search_and_no_mutation():
    state = GoBigGame(3).new_state(5)
    before = state.to_dict()
    a = ISMCTSAgent(seed=9, iterations=40)
    b = ISMCTSAgent(seed=9, iterations=40)
    assert a.act(state.for_player(state.current_player)) == b.act(
        state.for_player(state.current_player)
    )
    assert a.last_visits == b.last_visits
    assert state.to_dict() == before  # searching never touches the real state


def test_single_legal_action_answers_without_search():
    # Seat 0 holds a single 4: its only legal move is "play 1x4".
    state = position(hands=[[4], [1, 2]], deck=[3, 3, 3], market=[5, 5], current=0)
    agent = ISMCTSAgent(seed=0, iterations=10_000)
    assert agent.act(state.for_player(0)) == encode_play(4, 1)
    assert agent.last_iterations == 0


def test_seconds_budget_stops_in_time():
    import time

    state = GoBigGame(4).new_state(2)
    agent = ISMCTSAgent(seed=0, seconds=0.05)
    t0 = time.perf_counter()
    agent.act(state.for_player(state.current_player))
    assert agent.last_iterations >= 1
    assert (
        time.perf_counter() - t0 < 2.0
    )  # one iteration past the deadline at most (generous for CI)


def test_iterations_and_seconds_together_stop_at_whichever_comes_first():
    state = GoBigGame(4).new_state(2)
    seat = state.current_player
    few = ISMCTSAgent(seed=0, iterations=5, seconds=60.0)  # the count ends it long before the clock
    assert few.act(state.for_player(seat)) == ISMCTSAgent(seed=0, iterations=5).act(
        state.for_player(seat)
    )
    assert few.last_iterations == 5
    capped = ISMCTSAgent(seed=0, iterations=10**9, seconds=0.05)  # the clock ends it
    capped.act(state.for_player(seat))
    assert 1 <= capped.last_iterations < 10**9
    assert parse_spec("500:1s") == {"iterations": 500, "seconds": 1.0}
    agent = make_agent("ismcts:500:1s", "gobig", 0)
    assert (agent.iterations, agent.seconds) == (
        500,
        1.0,
    ) and "iterations=500, seconds=1.0" in repr(agent)
    assert make_agent("ismcts:0.5s", "gobig", 0).iterations is None


def test_truncated_rollouts_and_score_reward_play_legal_games():
    game = GoBigGame(3)
    agents = [
        ISMCTSAgent(seed=1, iterations=6, max_rollout_steps=5, reward="score"),
        ISMCTSAgent(seed=2, iterations=6, rollout_agent=HeuristicAgent()),
        RandomAgent(3),
    ]
    res = play_match(game, agents, ["a", "b", "c"], seed=4)
    assert res.steps > 0 and res.winners


def test_beats_random_at_gobig():
    """A small budget is already far above the random agent (uniform share 1/2 in two-player
    games)."""
    game = GoBigGame(2)
    wins = 0.0
    games = 10
    for g in range(games):
        agents = [ISMCTSAgent(seed=g, iterations=20), RandomAgent(100 + g)]
        seat = g % 2
        if seat:
            agents.reverse()
        res = play_match(game, agents, ["x", "y"], seed=g)
        wins += (seat in res.winners) / len(res.winners)
    assert wins / games >= 0.8


def test_bias_expands_the_rollout_agents_move_first():
    """With one iteration only one root move is ever expanded: under ``bias`` it is the
    heuristic's own choice, without it a random one."""
    from tests.agents.helpers import positions

    game = GoBigGame(3)
    differs = 0
    for state in positions(game, seed=2, count=12, skip=2):
        seat = state.current_player
        want = HeuristicAgent(0).act(state.for_player(seat))
        biased = make_agent("ismcts:1:rollout=heuristic:bias=1", "gobig", 5)
        assert biased.act(state.for_player(seat)) == want
        plain = make_agent("ismcts:1:rollout=heuristic", "gobig", 5)
        differs += plain.act(state.for_player(seat)) != want
    assert differs > 0


def test_bias_widens_progressively():
    """Under ``bias`` a root visited n times has tried at most 1 + int(0.5 * sqrt(n)) moves; plain
    ISMCTS tries every legal move before any is tried twice."""
    state = position(
        hands=[[1, 2, 3, 4, 5, 6, 7, 7], [1, 2, 3], [4, 5, 6]],
        deck=[1, 2, 3, 4] * 3,
        market=[5, 6],
        current=0,
    )
    assert len(state.legal_actions()) == 8
    biased = make_agent("ismcts:16:rollout=heuristic:bias=1", "gobig", 1)
    biased.act(state.for_player(0))
    assert sum(v > 0 for v in biased.last_visits.values()) <= 1 + int(0.5 * 15**0.5)
    plain = make_agent("ismcts:16:rollout=heuristic", "gobig", 1)
    plain.act(state.for_player(0))
    assert all(v > 0 for v in plain.last_visits.values())


# ---- horizon: rollouts cut at the end of the scoring round ---------------------------------------
def test_parse_and_validate_horizon():
    assert parse_spec("200:rollout=heuristic:horizon=2") == {
        "iterations": 200,
        "rollout": "heuristic",
        "horizon": 2,
    }
    for spec in ("ismcts:10:horizon=0", "ismcts:10:horizon=x"):
        with pytest.raises(ConfigError, match="horizon"):
            make_agent(spec, "bignumber", 0)
    assert make_agent("ismcts:10:horizon=1", "bignumber", 0).horizon == 1


class _Recording(ISMCTSAgent):
    """Records where each iteration stopped: (round_index, terminal) of the state it valued."""

    def _iterate(self, root, state):
        ends = self.__dict__.setdefault("ends", [])
        original = state.score_returns

        def spy():
            ends.append((state.round_index(), state.is_terminal()))
            return original()

        state.score_returns = spy  # the horizon valuation reads the points once, at the stop
        super()._iterate(root, state)


@pytest.mark.parametrize(
    "game_name,horizon", [("bignumber", 1), ("wizard", 1), ("wizard", 2), ("bigwig", 1)]
)
def test_horizon_stops_every_iteration_at_the_round_end(game_name, horizon):
    import deckzoo.envs as E

    state = E.game_class(game_name)(4).new_state(5)
    for _ in range(7):  # a little way into the first round
        state.apply(int(state.legal_actions()[0]))
    while len(state.legal_actions()) < 2:
        state.apply(int(state.legal_actions()[0]))
    start = state.round_index()
    agent = _Recording(1, iterations=40, horizon=horizon)
    action = agent.act(state.for_player(state.current_player))
    assert state.is_legal(action)
    assert len(agent.ends) == 40
    assert all(done or r == start + horizon for r, done in agent.ends), agent.ends


def test_horizon_values_the_points_of_the_round():
    """Seat 0 can lead its whole one-suit hand (N12) and end the deal with no penalty; leading one
    card lets the others play on. Valued by the deal's points, the search takes the deal at once."""
    from deckzoo.envs.bignumber.rules import BigNumberGame, BigNumberState

    state = BigNumberState.from_hands(
        BigNumberGame(4), ["9d 8d", "1c 2c 3h", "4s 5s 6h", "7c 7h 2s"], leader=0
    )
    names = {state.action_name(int(a)): int(a) for a in state.legal_actions()}
    agent = ISMCTSAgent(0, iterations=60, horizon=1)
    assert agent.act(state.for_player(0)) == names["play 9♦ 8♦ (98)"]


@pytest.mark.parametrize("game_name", list(registry.games()))
def test_round_index_is_public_and_never_decreases(game_name):
    import numpy as np

    import deckzoo.envs as E

    game = E.game_class(game_name)()
    rng = np.random.default_rng(0)
    state = game.new_state(3)
    last, steps = state.round_index(), 0
    while not state.is_terminal():
        p = state.current_player
        if steps % 50 == 0:
            assert state.determinize(p, rng).round_index() == state.round_index()
        state.apply(int(rng.choice(state.legal_actions())))
        assert state.round_index() >= last
        last, steps = state.round_index(), steps + 1
    assert state.is_terminal()
    # At the end: every scoring round finished (Big Number's deals, Wizard's 15 rounds, BigWig's
    # altar cards); games without rounds stay at 0.
    finished = {
        "bignumber": len(state.view(0).get("deal_penalties", [])),
        "wizard": 15,
        "bigwig": state.view(0).get("round"),
    }.get(game_name, 0)
    assert last == finished
