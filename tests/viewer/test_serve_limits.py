"""``deckzoo serve`` cannot be pinned by one request: a search asking for more than
``--max-move-seconds`` is refused or capped, an agent past the deadline stops only its own game,
the agent pool is bounded, and another client's game keeps answering meanwhile."""

from __future__ import annotations

import argparse
import threading
import time

import pytest

import deckzoo.envs as E
from deckzoo.agents.base import RandomAgent
from deckzoo.agents.registry import make_agent, register_agent, unregister_agent
from deckzoo.agents.tools.serve import AgentPool, MoveOverrun, RequestError, seconds_arg

from .server import Running

LIMIT = 1.0  # --max-move-seconds of the servers here


@pytest.fixture(scope="module")
def server():
    running = Running(max_move_seconds=LIMIT, agent_threads=2)
    yield running
    running.close()


@pytest.fixture
def sleeper():
    """An agent ``sleeper`` that thinks until the test lets it go (or 30 s pass)."""
    release = threading.Event()

    class Sleeper(RandomAgent):
        def act(self, info_state):
            release.wait(30)
            return super().act(info_state)

    register_agent("sleeper", lambda game, seed, arg: Sleeper(seed))
    yield release
    release.set()
    unregister_agent("sleeper")


def first_seat(seed: int) -> int:
    """The seat that moves first in the 3-player Go Big game of this seed."""
    return E.game_class("gobig")(3).new_state(seed).current_player


def timed(server, method, path, body=None):
    start = time.monotonic()
    status, answer = server.call(method, path, body)
    return status, answer, time.monotonic() - start


def test_a_huge_search_is_capped_and_another_clients_game_answers_within_a_second(server):
    heavy = {}
    first_to_move = first_seat(seed=1)
    seat = (first_to_move + 2) % 3  # both searchers move before the person

    def ask():
        heavy["answer"] = server.call(
            "POST",
            "/api/games",
            {
                "game": "gobig",
                "players": 3,
                "seat": seat,
                "seed": 1,
                "opponents": "ismcts:100000000",
            },
        )

    first = threading.Thread(target=ask)
    first.start()
    deadline = time.monotonic() + 30
    while not any(t.name == "deckzoo-agent" for t in threading.enumerate()):
        assert time.monotonic() < deadline, "the search never started"
        time.sleep(0.01)
    status, game, took = timed(
        server,
        "POST",
        "/api/games",
        {"game": "gobig", "players": 3, "seat": 1, "seed": 2, "opponents": "random"},
    )
    assert status == 201 and took < 1.0, (status, took)
    action = game["legal"][0][0]
    status, _, took = timed(
        server, "POST", f"/api/games/{game['id']}/act", {"action": action, "step": game["step"]}
    )
    assert status == 200 and took < 1.0, (status, took)
    assert first.is_alive()  # the search was still running all along
    first.join(60)
    assert not first.is_alive()
    status, answer = heavy["answer"]
    assert status == 201, answer
    searching = f"player_{first_to_move} (ismcts:100000000, at most {LIMIT:g} s a move)"
    assert answer["seats"][first_to_move] == searching and answer["your_turn"]
    searcher = server.lobby.sessions[answer["id"]].agents[first_to_move]
    assert (searcher.seconds, searcher.clock) == (LIMIT, "wall")
    assert searcher.last_iterations < 100000000  # 0 where its last decision had one legal move


@pytest.mark.parametrize("spec", ["ismcts:5s", "ismcts:100:seconds=3", "ismcts:2s:clock=cpu"])
def test_a_search_asking_for_more_time_than_allowed_is_refused_in_one_line(server, spec):
    before = len(server.lobby.sessions)
    status, answer = server.call("POST", "/api/games", {"game": "gobig", "opponents": spec})
    assert status == 400 and "\n" not in answer["error"]
    assert f"opponent {spec!r} asks for" in answer["error"]
    assert f"at most {LIMIT:g} s (deckzoo serve --max-move-seconds)" in answer["error"]
    assert len(server.lobby.sessions) == before


def test_a_search_within_the_limit_keeps_its_budget_on_the_wall_clock(server):
    status, game = server.call(
        "POST", "/api/games", {"game": "gobig", "opponents": "ismcts:50:0.5s:clock=cpu"}
    )
    assert status == 201 and game["seats"][1] == "player_1 (ismcts:50:0.5s:clock=cpu)"
    agent = server.lobby.sessions[game["id"]].agents[1]
    assert (agent.iterations, agent.seconds, agent.clock) == (50, 0.5, "wall")


def test_an_agent_past_the_deadline_stops_only_its_own_game(sleeper):
    running = Running(max_move_seconds=0.2, agent_threads=2)  # deadline 2 * 0.2 + 1 = 1.4 s
    try:
        ask = {"game": "gobig", "players": 3, "seed": 3, "opponents": "sleeper"}
        status, game = running.call("POST", "/api/games", {**ask, "seat": first_seat(3)})
        assert status == 201 and game["your_turn"]
        for _ in range(20):  # the person's turn may take several decisions
            body = {"action": game["legal"][0][0], "step": game["step"]}
            status, answer, took = timed(running, "POST", f"/api/games/{game['id']}/act", body)
            if status != 200:
                break
            game = answer
        assert status == 503 and 1.4 <= took < 10, (status, took)
        assert "(sleeper) took over 1.4 s for a move (the limit is 0.2 s)" in answer["error"]
        assert "the game is stopped" in answer["error"]
        status, answer = running.call("POST", f"/api/games/{game['id']}/act", body)
        assert status == 409 and "this game was stopped" in answer["error"]
        status, other, took = timed(
            running,
            "POST",
            "/api/games",
            {
                "game": "gobig",
                "players": 3,
                "seed": 3,
                "seat": (first_seat(3) + 1) % 3,
                "opponents": "random",
            },
        )
        assert status == 201 and took < 1.0 and other["your_turn"] and other["step"] > 0
    finally:
        sleeper.set()
        running.close()


def test_the_pool_computes_at_most_its_threads_moves_at_once(sleeper):
    pool = AgentPool(max_move_seconds=0.1, threads=1, queue_seconds=0.3)
    blocked = make_agent("sleeper", "gobig", 0)
    with pytest.raises(MoveOverrun):
        pool.move(blocked, None, "player_1 (sleeper)")  # overruns, and keeps its thread
    quick = RandomAgent(0)
    view = _any_view()
    with pytest.raises(RequestError, match="all 1 agent threads are busy"):
        pool.move(quick, view, "player_2 (random)")
    sleeper.set()  # the overrun move ends (its view is None: it raises there) and frees the slot
    deadline = time.monotonic() + 10
    while any(t.name == "deckzoo-agent" for t in threading.enumerate()):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert pool.move(quick, view, "player_2 (random)") in view.legal_actions()


def _any_view():
    state = E.game_class("gobig")(3).new_state(0)
    return state.for_player(state.current_player)


@pytest.mark.parametrize("text", ["0", "-1", "nan", "inf", "two"])
def test_max_move_seconds_must_be_a_positive_number(text):
    with pytest.raises(argparse.ArgumentTypeError):
        seconds_arg(text)
    assert seconds_arg("0.5") == 0.5
