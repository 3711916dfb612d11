"""``deckzoo serve`` against hostile or broken clients, with requests sent byte for byte over a
socket: bodies refused by their declared length before they are read, other sites' pages (wrong
Host, foreign Origin, non-JSON bodies) refused, silent and vanishing clients dropped without a
traceback, the per-client cap, ``ppo:PATH`` confined to ``--policy-dir``, replays only after the
game, malformed bodies answered 400, bad command-line values refused in one line."""

from __future__ import annotations

import json
import os
import shutil
import socket
import struct
import threading
import time

import pytest

import deckzoo.envs as E
from deckzoo.agents import zoo
from deckzoo.agents.base import RandomAgent
from deckzoo.agents.cli import Parser
from deckzoo.agents.registry import register_agent, unregister_agent
from deckzoo.agents.tools.serve import POLICY_REFUSED, add_parser, host_names

from .server import Running, parse_answer

GAME = b'{"game": "gobig", "players": 3, "seed": 7}'
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def server():
    running = Running()
    yield running
    running.close()


def post(server, body: bytes = GAME, headers: dict | None = None, path: str = "/api/games"):
    """A POST with its body's true length and the headers given (JSON unless told)."""
    sent = {**JSON, "Content-Length": str(len(body)), **(headers or {})}
    return server.request("POST", path, {k: v for k, v in sent.items() if v is not None}, body)


def one_line_error(answer: dict) -> str:
    assert set(answer) == {"error"} and answer["error"] and "\n" not in answer["error"], answer
    return answer["error"]


def handler_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if "process_request_thread" in t.name]


def wait_for_handlers(timeout: float = 10.0) -> None:
    """Until every request of every server here has been handled (and anything logged)."""
    deadline = time.monotonic() + timeout
    while handler_threads():
        assert time.monotonic() < deadline, "a connection's thread is still running"
        time.sleep(0.01)


# -- 1. bodies refused by their declared length, before a byte is read ---------------------------


@pytest.mark.parametrize(
    "headers,status,message",
    [
        ({"Content-Length": "-1"}, 400, "Content-Length must be one non-negative whole number"),
        ({"Content-Length": "twelve"}, 400, "Content-Length must be one non-negative"),
        ({"Content-Length": "5, 5"}, 400, "Content-Length must be one non-negative"),
        ({"Transfer-Encoding": "chunked"}, 411, "not chunked"),
        ({}, 411, "a POST needs a Content-Length"),
        ({"Content-Length": "70000"}, 413, "the body is over 65536 bytes"),
        ({"Content-Length": "9" * 40}, 413, "the body is over 65536 bytes"),
    ],
)
def test_a_bad_length_is_refused_before_the_body_is_read(server, headers, status, message):
    before = len(server.lobby.sessions)
    # Only the headers are sent and the connection stays open: a server that tried to read the
    # body would wait for it, and the client's 10 s timeout would fail the test.
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        lines = ["POST /api/games HTTP/1.1", f"Host: 127.0.0.1:{server.port}"]
        lines += [f"{k}: {v}" for k, v in {**JSON, **headers}.items()]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    got, _, body = parse_answer(answer)
    assert got == status and message in one_line_error(body)
    assert len(server.lobby.sessions) == before


# -- 2. Host, Origin and Content-Type -------------------------------------------------------------


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "LocalHost", "[::1]"])
def test_the_loopback_names_of_the_bound_port_are_answered(server, name):
    status, _, catalogue = server.request("GET", "/api/games", host=f"{name}:{server.port}")
    assert status == 200 and catalogue["games"]


@pytest.mark.parametrize(
    "host,status",
    [
        ("rebound.example.com:PORT", 421),  # DNS rebinding: another site's name for 127.0.0.1
        ("rebound.example.com", 421),
        ("127.0.0.1:OTHER", 421),
        ("127.0.0.2:PORT", 421),
        ("0.0.0.0:PORT", 421),
        ("localhost.:PORT", 421),
        ("127.0.0.1:PORT:1", 400),
        ("::1:PORT", 400),
        ("", 400),
    ],
)
def test_a_request_for_another_host_is_refused(server, host, status):
    gid = post(server)[2]["id"]
    host = host.replace("OTHER", str(server.port + 1 if server.port < 65535 else 1))
    host = host.replace("PORT", str(server.port))
    for method, path in [("GET", "/"), ("GET", "/api/games"), ("GET", f"/api/games/{gid}")]:
        got, _, answer = server.request(method, path, host=host)
        assert got == status, (method, path, answer)
        one_line_error(answer)
    before = len(server.lobby.sessions)
    raw = (
        f"POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(GAME)}\r\n\r\n"
    ).encode() + GAME
    got, _, answer = parse_answer(server.send(raw))
    assert got == status and len(server.lobby.sessions) == before
    one_line_error(answer)


def test_a_request_without_one_host_header_is_refused(server):
    got, _, answer = parse_answer(server.send(b"GET /api/games HTTP/1.0\r\n\r\n"))
    assert got == 400 and "one Host header" in one_line_error(answer)
    host = f"Host: 127.0.0.1:{server.port}\r\n"
    twice = f"GET /api/games HTTP/1.1\r\n{host}{host}\r\n"
    got, _, answer = parse_answer(server.send(twice.encode()))
    assert got == 400 and "one Host header" in one_line_error(answer)


def test_host_names_are_the_bound_address_and_on_loopback_its_aliases():
    assert host_names("127.0.0.1", "127.0.0.1") == {"127.0.0.1", "localhost", "::1"}
    assert host_names("localhost", "127.0.0.1") == {"127.0.0.1", "localhost", "::1"}
    assert host_names("192.168.1.5", "192.168.1.5") == {"192.168.1.5"}
    assert host_names("box.lan", "192.168.1.5") == {"box.lan", "192.168.1.5"}
    assert host_names("0.0.0.0", "0.0.0.0") is None  # any IP literal, never a name


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1:1", "PAGE/"])
def test_a_change_from_another_sites_page_is_refused(server, origin):
    origin = origin.replace("PAGE", f"http://127.0.0.1:{server.port}")
    gid = post(server)[2]["id"]
    before = len(server.lobby.sessions)
    got, _, answer = post(server, headers={"Origin": origin})
    assert got == 403 and "another site" in one_line_error(answer)
    body = json.dumps({"action": 0, "step": 0}).encode()
    got, _, answer = post(server, body, {"Origin": origin}, f"/api/games/{gid}/act")
    assert got == 403
    got, _, answer = server.request("DELETE", f"/api/games/{gid}", {"Origin": origin})
    assert got == 403 and gid in server.lobby.sessions
    assert len(server.lobby.sessions) == before
    page = f"http://127.0.0.1:{server.port}"
    assert post(server, headers={"Origin": page})[0] == 201  # the page's own origin is welcome
    got, _, _ = server.request("DELETE", f"/api/games/{gid}", {"Origin": page})
    assert got == 200 and gid not in server.lobby.sessions


@pytest.mark.parametrize(
    "ctype",
    [None, "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded"],
)
def test_no_cors_bodies_cannot_fill_the_games(server, ctype):
    """What a page on another site can send without asking: text/plain (or a form) bodies."""
    before = len(server.lobby.sessions)
    for _ in range(5):
        got, _, answer = post(server, headers={"Content-Type": ctype})
        assert got == 415 and "application/json" in one_line_error(answer)
    assert len(server.lobby.sessions) == before
    got, _, _ = post(server, headers={"Content-Type": "application/json; charset=utf-8"})
    assert got == 201


# -- 3. silent and vanishing clients ---------------------------------------------------------------


@pytest.fixture
def quick_server():
    running = Running(connection_timeout=0.5)
    yield running
    running.close()


def test_a_silent_connection_is_closed(quick_server, capfd):
    head = (
        f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{quick_server.port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(GAME)}\r\n\r\n"
    ).encode()
    start = time.monotonic()
    assert quick_server.send(b"", timeout=10) == b""  # connects, says nothing
    assert quick_server.send(b"GET /api/games HTTP/1.1\r\nHost: 127.0", timeout=10) == b""
    got, _, answer = parse_answer(quick_server.send(head + GAME[:5], timeout=10))
    assert got == 408 and "in time" in one_line_error(answer)
    assert time.monotonic() - start < 8
    assert not quick_server.lobby.sessions
    wait_for_handlers()
    assert "Traceback" not in capfd.readouterr().err


def test_a_client_that_hangs_up_leaves_no_traceback(quick_server, capfd):
    head = (
        f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{quick_server.port}\r\n"
        "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
    ).encode()
    for reset in (False, True):
        sock = socket.create_connection(("127.0.0.1", quick_server.port), timeout=10)
        sock.sendall(head)
        time.sleep(0.1)  # the server reads the headers and waits for the rest of the body
        if reset:  # closed with a TCP reset, as a killed client's may be
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    # A client gone before its answer is written: a game is made, the answer hits a reset.
    sock = socket.create_connection(("127.0.0.1", quick_server.port), timeout=10)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.sendall(head.replace(b"1000", str(len(GAME)).encode())[:-1] + GAME)
    sock.close()
    wait_for_handlers()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Error" not in err, err
    assert quick_server.request("GET", "/api/games")[0] == 200  # and it serves on


# -- 4. games per client ---------------------------------------------------------------------------


def request_from(server, source: str, method: str, path: str, body: bytes = b""):
    """A request from another loopback address (``source``, e.g. 127.0.0.2), another client."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{server.port}"]
    if method == "POST":
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    try:
        conn = socket.create_connection(("127.0.0.1", server.port), 10, source_address=(source, 0))
    except OSError as e:  # Linux routes all of 127/8 to this machine; some systems only 127.0.0.1
        pytest.skip(f"cannot connect from {source}: {e}")
    with conn:
        conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return parse_answer(answer)


def test_one_client_cannot_hold_more_than_its_share_of_games():
    server = Running(games_per_client=2, max_games=10)
    try:
        mine = [post(server)[2]["id"] for _ in range(2)]
        got, _, answer = post(server)
        assert got == 429 and "you hold 2 games" in one_line_error(answer)
        assert len(server.lobby.sessions) == 2
        got, _, theirs = request_from(server, "127.0.0.2", "POST", "/api/games", GAME)
        assert got == 201, theirs  # another address still gets its games
        got, _, answer = request_from(server, "127.0.0.2", "POST", "/api/games", GAME)
        assert got == 201
        assert request_from(server, "127.0.0.2", "POST", "/api/games", GAME)[0] == 429
        assert server.request("DELETE", f"/api/games/{mine[0]}")[0] == 200
        assert post(server)[0] == 201  # a game abandoned makes room again
    finally:
        server.close()


# -- 5. ppo:PATH only inside --policy-dir ----------------------------------------------------------


@pytest.fixture(scope="module")
def policy_dir(tmp_path_factory):
    """``ok/`` holds a policy, a link out of it, and ``ok/../outside.npz`` lies beside it."""
    root = tmp_path_factory.mktemp("policies")
    (root / "ok").mkdir()
    shutil.copy(zoo.path("gobig"), root / "ok" / "gobig.npz")
    shutil.copy(zoo.path("gobig"), root / "outside.npz")
    os.symlink(root / "outside.npz", root / "ok" / "link.npz")
    (root / "ok" / "sub").mkdir()
    return root


def policy_game(server, spec: str):
    body = json.dumps({"game": "gobig", "players": 4, "seed": 3, "opponents": spec}).encode()
    return post(server, body)


def refused_specs(root) -> list[str]:
    ok = root / "ok"
    return [
        f"ppo:{root / 'outside.npz'}",  # exists, outside the folder
        f"ppo:{ok / '..' / 'outside.npz'}",  # climbs out of it
        f"ppo:{ok / 'link.npz'}",  # a link inside that leads out
        f"ppo:{ok / 'missing.npz'}",  # inside, but no such file
        f"ppo:{ok / 'sub'}",  # inside, a folder
        f"ppo:{ok}",
        "ppo:/etc/passwd",
        "ppo:/etc/passwd:sample",
        "ppo:" + "a" * 5000,
        "ppo:/" + "long/" * 1000 + "x.npz",
        "ppo:bad\x00name.npz",
        "ppo:",
        "ppo",
    ]


def test_without_a_policy_dir_no_client_names_a_file(server, policy_dir):
    specs = refused_specs(policy_dir) + [f"ppo:{policy_dir / 'ok' / 'gobig.npz'}"]
    errors = set()
    for spec in specs:
        got, _, answer = policy_game(server, spec)
        assert got == 400, (spec[:60], answer)
        errors.add(one_line_error(answer))
    assert errors == {POLICY_REFUSED}
    got, _, game = policy_game(server, "zoo:gobig")
    assert got == 201 and game["seats"][1] == "player_1 (zoo:gobig)"


def test_a_policy_dir_allows_exactly_its_own_files(policy_dir, capfd):
    server = Running(policy_dir=str(policy_dir / "ok"))
    try:
        errors = set()
        for spec in refused_specs(policy_dir):
            got, _, answer = policy_game(server, spec)
            assert got == 400, (spec[:60], answer)
            errors.add(one_line_error(answer))
        assert errors == {POLICY_REFUSED} and not server.lobby.sessions
        inside = policy_dir / "ok" / "gobig.npz"
        for spec in (
            f"ppo:{inside}",
            f"ppo:{inside}:sample",
            f"ppo:{policy_dir}/ok/sub/../gobig.npz",
        ):
            got, _, game = policy_game(server, spec)
            assert got == 201, game
            assert game["seats"][1] == f"player_1 ({spec})"
    finally:
        server.close()
    assert "Traceback" not in capfd.readouterr().err


# -- 6. the replay only once the game is over ------------------------------------------------------


def test_the_replay_is_refused_until_the_game_is_over(server):
    status, game = server.call("POST", "/api/games", {"game": "gobig", "players": 3, "seed": 4})
    assert status == 201 and not game["over"]
    gid = game["id"]
    got, _, answer = server.request("GET", f"/api/games/{gid}/replay")
    assert got == 409 and "once the game is over" in one_line_error(answer)
    while not game["over"]:
        move = {"action": game["legal"][0][0], "step": game["step"]}
        status, game = server.call("POST", f"/api/games/{gid}/act", move)
        assert status == 200, game
        if not game["over"]:
            assert server.request("GET", f"/api/games/{gid}/replay")[0] == 409
    got, headers, record = server.request("GET", f"/api/games/{gid}/replay")
    assert got == 200 and record["finished"] and record["seed"] == 4
    assert "attachment" in headers["content-disposition"]


def test_a_stopped_game_gives_its_replay():
    """No move can follow once an opponent overran its deadline, so its replay hides nothing."""
    release = threading.Event()

    class Sleeper(RandomAgent):
        def act(self, info_state):
            release.wait(30)
            return super().act(info_state)

    register_agent("sleeper", lambda game, seed, arg: Sleeper(seed))
    server = Running(max_move_seconds=0.1)  # a deadline of 1.2 s
    try:
        first = E.game_class("gobig")(2).new_state(5).current_player
        body = {"game": "gobig", "players": 2, "seed": 5, "seat": first, "opponents": "sleeper"}
        status, game = server.call("POST", "/api/games", body)
        assert status == 201 and game["your_turn"]
        for _ in range(20):  # the person's turn may take several decisions
            move = {"action": game["legal"][0][0], "step": game["step"]}
            status, answer = server.call("POST", f"/api/games/{game['id']}/act", move)
            if status != 200:
                break
            assert server.request("GET", f"/api/games/{game['id']}/replay")[0] == 409
            game = answer
        assert status == 503 and "the game is stopped" in answer["error"]
        got, _, record = server.request("GET", f"/api/games/{game['id']}/replay")
        assert got == 200 and not record["finished"] and record["seed"] == 5
    finally:
        release.set()
        unregister_agent("sleeper")
        server.close()


# -- 8. malformed bodies: 400 in one line, never a traceback ---------------------------------------


@pytest.mark.parametrize(
    "body,message",
    [
        ('{"game": ' + "[" * 30000 + "]" * 30000 + "}", "nested too deeply"),
        ('{"game": "gobig", "seed": ' + "7" * 5000 + "}", "too many digits"),
        ('{"game": "gobig", "seed": ' + "7" * 4000 + "}", "'seed' must be at most"),
        ('{"game": "gobig", "seed": 9223372036854775808}', "'seed' must be at most"),
        ('{"game": "gobig", "seed": -1}', "'seed' must be at least 0"),
        ('{"game": "gobig", "seed": 1e400}', "'seed' must be an integer"),
        ('{"game": "gobig", "seed": NaN}', "'seed' must be an integer"),
        ('{"game": "gobig", "players": 3, "options": {"num_players": 3}}', "not both"),
        ('{"game": "gobig", "options": {"num_players": "3"}}', "'num_players' must be an int"),
        ('{"game": "gobig", "opponents": "ppo:' + "p" * 5000 + '"}', POLICY_REFUSED),
        ('{"game": "gobig", "opponents": "ismcts:' + "9" * 5000 + '"}', "ismcts: cannot read"),
        ('{"game": "gobig", "seat": ' + "9" * 4000 + "}", "'seat' must be in 0..3"),
        ('{"game": "gobig", "players": ' + "9" * 4000 + "}", "'num_players' must be in 2..6"),
        ('{"game": "gobig", "options": {"' + "x" * 5000 + '": 1}}', "unknown option"),
        (b"\xff\xfe", "not JSON"),
        ("[" * 30000 + "]" * 30000, "nested too deeply"),
    ],
)
def test_a_malformed_game_request_is_a_400_in_one_line(server, capfd, body, message):
    before = len(server.lobby.sessions)
    got, _, answer = post(server, body if isinstance(body, bytes) else body.encode())
    assert got == 400 and message in one_line_error(answer), answer
    assert len(server.lobby.sessions) == before
    wait_for_handlers()
    assert "Traceback" not in capfd.readouterr().err


def test_num_players_may_come_as_an_option(server):
    body = json.dumps({"game": "gobig", "options": {"num_players": 5}}).encode()
    got, _, game = post(server, body)
    assert got == 201 and game["num_players"] == 5


def test_the_highest_seed_is_allowed(server):
    body = json.dumps({"game": "gobig", "players": 3, "seed": 2**63 - 1}).encode()
    got, _, game = post(server, body)
    assert got == 201 and game["num_players"] == 3


def test_an_unexpected_failure_is_a_generic_500_and_one_log_line(server, capfd):
    class Broken(RandomAgent):
        def act(self, info_state):
            raise RuntimeError("secret detail\nsecond line")

    register_agent("broken", lambda game, seed, arg: Broken(seed))
    try:
        # the broken agent (seat 1) moves first, whatever the deal's seed
        body = {
            "game": "gobig",
            "players": 2,
            "seat": 0,
            "opponents": "broken",
            "options": {"start_player": 1},
        }
        got, _, answer = post(server, json.dumps(body).encode())
        assert got == 500, answer
    finally:
        unregister_agent("broken")
    error = one_line_error(answer)
    assert "secret" not in error and "RuntimeError" not in error and "internal error" in error
    wait_for_handlers()
    err = capfd.readouterr().err
    logged = [line for line in err.splitlines() if "internal error" in line]
    assert len(logged) == 1 and "RuntimeError: secret detail second line" in logged[0], err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "request_bytes,status",
    [
        (b"GARBAGE\r\n\r\n", 400),
        (b"PATCH /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 501),
    ],
)
def test_the_standard_librarys_own_refusals_are_json_too(server, request_bytes, status):
    answer = server.send(request_bytes)
    if request_bytes.startswith(b"GARBAGE"):  # an HTTP/0.9 answer: the body alone
        assert "Bad request" in one_line_error(json.loads(answer))
        return
    got, _, body = parse_answer(answer)
    assert got == status
    one_line_error(body)


# -- 7. the command line ---------------------------------------------------------------------------


def parse(argv: list[str]):
    parser = Parser(prog="deckzoo")
    add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["serve", *argv])


@pytest.mark.parametrize(
    "argv",
    [
        ["--idle-timeout", "-1"],
        ["--idle-timeout", "0"],
        ["--idle-timeout", "nan"],
        ["--idle-timeout", "inf"],
        ["--idle-timeout", "1e9"],
        ["--idle-timeout", "soon"],
        ["--max-move-seconds", "1e300"],
        ["--port", "70000"],
        ["--port", "-1"],
        ["--port", "http"],
        ["--games-per-client", "0"],
        ["--policy-dir", "/no/such/folder"],
    ],
)
def test_bad_command_line_values_are_one_error_line(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        parse(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    lines = err.splitlines()
    assert len(lines) == 1 and argv[0] in lines[0] and "Traceback" not in err, err


def test_good_command_line_values_are_read(tmp_path):
    args = parse(["--idle-timeout", "86400", "--port", "65535", "--policy-dir", str(tmp_path)])
    expected = (86400.0, 65535, os.path.realpath(tmp_path))
    assert (args.idle_timeout, args.port, args.policy_dir) == expected
    args = parse([])
    assert (args.games_per_client, args.policy_dir, args.port) == (8, None, 8765)
