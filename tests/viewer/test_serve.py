"""``deckzoo serve`` without a browser: bad requests change nothing, games stay independent,
abandoned games go away, opponents see only their seat, and the replay is the game."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from deckzoo.agents.base import RandomAgent
from deckzoo.agents.registry import register_agent, unregister_agent
from deckzoo.agents.tools.replay import final_state
from deckzoo.envs.core.game import InfoState

from .helpers import check_reproduces
from .server import Running


@pytest.fixture(scope="module")
def server():
    running = Running()
    yield running
    running.close()


def new_game(server, **body):
    status, game = server.call(
        "POST", "/api/games", {"game": "gobig", "players": 3, "seed": 7, **body}
    )
    assert status == 201, game
    return game


def play_out(server, game, seed: int, stop_after: int | None = None) -> dict:
    """Click random legal actions until the game ends (or ``stop_after`` clicks)."""
    rng = np.random.default_rng(seed)
    clicks = 0
    while not game["over"] and clicks != stop_after:
        action = int(rng.choice([a for a, _ in game["legal"]]))
        status, game = server.call(
            "POST", f"/api/games/{game['id']}/act", {"action": action, "step": game["step"]}
        )
        assert status == 200, game
        clicks += 1
    return game


def test_a_game_is_set_up_as_asked_and_shows_only_the_persons_seat(server):
    game = new_game(server, seat=1, opponents="random,heuristic")
    assert game["seats"] == ["player_0 (random)", "player_1", "player_2 (heuristic)"]
    assert game["your_turn"] and game["legal"] and game["step"] >= 1  # seat 0 moved first
    hands = {
        p: next(z for z in s["zones"] if z["label"] == "hand")
        for p, s in enumerate(game["scene"]["seats"])
    }
    view = server.lobby.sessions[game["id"]].state.view(1)
    for p in (0, 2):  # the others' hands: backs, plus the market cards they are known to hold
        up = sum(c.get("count", 1) for c in hands[p]["cards"] if not c.get("back"))
        down = sum(c.get("count", 1) for c in hands[p]["cards"] if c.get("back"))
        assert (up, up + down) == (sum(view["known_in_hand"][p]), view["hand_sizes"][p])
    assert not any(c.get("back") for c in hands[1]["cards"])
    status, catalogue = server.call("GET", "/api/games")
    assert status == 200 and {g["name"] for g in catalogue["games"]} >= {
        "gobig",
        "wizard",
        "midgard",
    }


@pytest.mark.parametrize(
    "method,path,body,raw,status,message",
    [
        ("POST", "/api/games", None, b"{not json", 400, "not JSON"),
        ("POST", "/api/games", None, b"[1, 2]", 400, "must be a JSON object"),
        ("POST", "/api/games", {"game": 3}, None, 400, "'game' must be a game name"),
        ("POST", "/api/games", {"game": "chess"}, None, 400, "unknown env 'chess'"),
        (
            "POST",
            "/api/games",
            {"game": "gobig", "players": 9},
            None,
            400,
            "'num_players' must be in 2..6",
        ),
        (
            "POST",
            "/api/games",
            {"game": "gobig", "players": "3"},
            None,
            400,
            "'players' must be an integer",
        ),
        (
            "POST",
            "/api/games",
            {"game": "gobig", "options": {"colour": 1}},
            None,
            400,
            "unknown option",
        ),
        ("POST", "/api/games", {"game": "gobig", "seat": 4}, None, 400, "'seat' must be in 0..3"),
        (
            "POST",
            "/api/games",
            {"game": "gobig", "opponents": "telepath"},
            None,
            400,
            "unknown agent 'telepath'",
        ),
        (
            "POST",
            "/api/games",
            {"game": "gobig", "opponents": ["random"] * 2},
            None,
            400,
            "give one agent spec or 3",
        ),
        ("POST", "/api/games", None, b" " * 70000, 413, "over 65536 bytes"),
        ("GET", "/api/games/no-such-id", None, None, 404, "no game 'no-such-id'"),
        ("POST", "/api/games/no-such-id/act", {"action": 1}, None, 404, "no game 'no-such-id'"),
        ("GET", "/nowhere", None, None, 404, "no such page"),
        ("PUT", "/api/games", {}, None, 405, "PUT is not allowed"),
    ],
)
def test_bad_requests_get_a_clear_error(server, method, path, body, raw, status, message):
    before = len(server.lobby.sessions)
    got, answer = server.call(method, path, body, raw)
    assert got == status and message in answer["error"]
    assert len(server.lobby.sessions) == before


@pytest.mark.parametrize(
    "body,status,message",
    [
        ({"step": 0}, 400, "needs an 'action'"),
        ({"action": "play 1x1"}, 400, "'action' must be an action id"),
        ({"action": True}, 400, "'action' must be an action id"),
        ({"action": 10**9}, 409, "illegal action 1000000000"),
        ({"action": 21}, 409, "legal actions are ["),  # drawing is not legal before playing a set
        ({"action": "LEGAL", "step": "NEXT"}, 409, "stale step 1: the game is at step 0"),
        ({"action": "LEGAL", "step": "1"}, 400, "'step' must be an integer"),
    ],
)
def test_bad_moves_change_nothing(server, body, status, message):
    game = new_game(server)
    gid = game["id"]
    if body.get("action") == "LEGAL":
        body = {**body, "action": game["legal"][0][0]}
    if body.get("step") == "NEXT":  # a second click on a position already moved from
        body = {**body, "step": game["step"] + 1}
    before = server.lobby.sessions[gid].state.to_dict()
    got, answer = server.call("POST", f"/api/games/{gid}/act", body)
    assert got == status and message in answer["error"]
    assert server.lobby.sessions[gid].state.to_dict() == before
    assert server.call("GET", f"/api/games/{gid}")[1] == game


def test_a_finished_game_refuses_moves_and_its_replay_is_the_game(server):
    game = play_out(server, new_game(server, opponents="heuristic"), seed=1)
    gid = game["id"]
    status, answer = server.call(
        "POST", f"/api/games/{gid}/act", {"action": 0, "step": game["step"]}
    )
    assert status == 409 and "the game is over" in answer["error"]
    status, record = server.call("GET", f"/api/games/{gid}/replay")
    assert status == 200 and record["finished"] and record["human_seat"] == 0
    assert final_state(record) == server.lobby.sessions[gid].state  # every field and the generator
    check_reproduces(record)
    assert record["winners"] == game["winners"] and len(record["actions"]) == game["step"]


def test_two_concurrent_games_are_independent(server):
    games = [new_game(server, seed=s, seat=s % 3) for s in (11, 12)]
    finished = {}

    def play(g, seed):
        finished[g["id"]] = play_out(server, g, seed)

    threads = [threading.Thread(target=play, args=(g, i)) for i, g in enumerate(games)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for g, seed in zip(games, (11, 12)):
        record = server.call("GET", f"/api/games/{g['id']}/replay")[1]
        assert record["finished"] and record["seed"] == seed and record["human_seat"] == seed % 3
        assert final_state(record) == server.lobby.sessions[g["id"]].state
        check_reproduces(record)
    assert finished[games[0]["id"]]["log"] != finished[games[1]["id"]]["log"]


def test_abandoned_games_go_away_and_the_others_play_on():
    server = Running(idle_timeout=0.5)
    try:
        left = new_game(server)
        left = play_out(server, left, seed=3, stop_after=2)
        status, answer = server.call("GET", f"/api/games/{left['id']}/replay")
        assert status == 409 and "once the game is over" in answer["error"]  # it holds the seeds
        kept = new_game(server, seed=8)
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:  # one game is touched, the other left alone
            assert server.call("GET", f"/api/games/{kept['id']}")[0] == 200
            time.sleep(0.1)
        status, answer = server.call("GET", f"/api/games/{left['id']}")
        assert status == 404 and "abandoned or timed out" in answer["error"]
        assert left["id"] not in server.lobby.sessions
        kept = play_out(server, server.call("GET", f"/api/games/{kept['id']}")[1], seed=4)
        status, record = server.call("GET", f"/api/games/{kept['id']}/replay")
        assert status == 200 and record["finished"] and len(record["actions"]) == kept["step"]
        status, _ = server.call("DELETE", f"/api/games/{kept['id']}")  # abandoned on purpose
        assert status == 200 and server.call("GET", f"/api/games/{kept['id']}")[0] == 404
    finally:
        server.close()


def test_too_many_games_are_refused():
    server = Running(max_games=1)
    try:
        new_game(server)
        status, answer = server.call("POST", "/api/games", {"game": "gobig"})
        assert status == 503 and "1 games are running" in answer["error"]
    finally:
        server.close()


def test_opponents_get_only_their_seats_view(server):
    seen = []

    class Spy(RandomAgent):
        def act(self, info_state):
            seen.append((type(info_state), info_state.player, info_state.current_player))
            return super().act(info_state)

    register_agent("spy", lambda game, seed, arg: Spy(seed))
    try:
        game = play_out(server, new_game(server, players=4, seat=2, opponents="spy"), seed=5)
    finally:
        unregister_agent("spy")
    assert game["over"] and seen
    assert all(kind is InfoState and seat == to_act != 2 for kind, seat, to_act in seen)
