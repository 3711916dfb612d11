"""``deckzoo serve [--host 127.0.0.1] [--port 8765]``: play against the agents in a browser.

A small web server (the standard library's ``ThreadingHTTPServer``; nothing to build) hands out
one page on which a person picks a game, a seat count, a seat and the opponents (any agent spec:
``random``, ``heuristic``, ``ismcts:200``, ``ppo:PATH``, ... as ``deckzoo.agents.registry``
knows them), plays by clicking legal actions, and downloads the replay (the file ``deckzoo play
--replay`` and ``deckzoo replay --html`` read). The person sees only their seat's view; each
opponent acts on ``state.for_player(seat)``, so it sees only its own.

JSON API (errors are ``{"error": message}`` with a 4xx status and change nothing)::

    GET    /api/games               games, player counts, options; agent spec examples
    POST   /api/games               {"game", "players", "seat", "opponents", "seed", "options"}
                                    (all but "game" optional) -> a new game, as the person sees it
    GET    /api/games/ID            the game as the person sees it
    POST   /api/games/ID/act        {"action": id, "step": n} -> the game after the person's action
                                    and the opponents' replies; "step" (the number of moves so far,
                                    as last shown) guards against acting twice on one position
    GET    /api/games/ID/replay     the replay file, as a download
    DELETE /api/games/ID            abandon the game

Games are independent (one lock each), and one left alone for ``--idle-timeout`` seconds is
dropped: its id then answers 404 like any unknown id.

Bounds. No request can pin the server: every opponent's move runs in one pool of
``--agent-threads`` threads (``AgentPool``) and is held to ``--max-move-seconds`` (default 2) of
thinking. A search agent (``ismcts``) is given that time budget on the wall clock, which also
bounds its CPU time: a spec that asks for more time is refused in one line, one that asks only for
iterations (``ismcts:100000000``) is capped at the limit, and the seat's label says so. Any other
agent is held to it by a deadline (twice the limit and a second more): a move not back by then
stops its game. The other games keep answering meanwhile, with at most ``--agent-threads`` moves
computed at once.
"""

from __future__ import annotations

import argparse
import json
import secrets
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

from deckzoo.envs.core.errors import ConfigError, IllegalActionError

from .base import Agent
from .cli_args import count_arg
from .ismcts import ISMCTSAgent
from .registry import make_agent
from .replay import finish_record, new_record
from .viewer.frames import last_action, legal_list, observer_scene, scene_module, status

AGENT_EXAMPLES = ("heuristic", "random", "ismcts:200", "ismcts:0.5s", "ppo:PATH")
MAX_BODY = 64 * 1024
MAX_MOVE_SECONDS = 2.0  # default --max-move-seconds
AGENT_THREADS = 4  # default --agent-threads
QUEUE_SECONDS = 30.0  # how long a move waits for a free agent thread before the request is refused


class RequestError(Exception):
    """A request the server refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: HTTPStatus, message: str):
        super().__init__(message)
        self.status = status


def _int(body: dict, key: str, default=None, lo: int | None = None) -> int | None:
    value = body.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(HTTPStatus.BAD_REQUEST, f"'{key}' must be an integer, got {value!r}")
    if lo is not None and value < lo:
        raise RequestError(HTTPStatus.BAD_REQUEST, f"'{key}' must be at least {lo}, got {value}")
    return value


def _specs(opponents, n: int) -> list[str]:
    """One agent spec per other seat from a spec, a comma-separated list or a JSON list."""
    if opponents is None:
        opponents = "heuristic"
    if isinstance(opponents, str):
        opponents = [s.strip() for s in opponents.split(",")]
    if not isinstance(opponents, list) or not all(
        isinstance(s, str) and s.strip() for s in opponents
    ):
        raise RequestError(
            HTTPStatus.BAD_REQUEST, "'opponents' must be an agent spec or a list of them"
        )
    specs = [s.strip() for s in opponents]
    if len(specs) == 1:
        specs *= n - 1
    if len(specs) != n - 1:
        raise RequestError(
            HTTPStatus.BAD_REQUEST,
            f"'opponents': give one agent spec or {n - 1} of them, got {len(specs)}",
        )
    return specs


class MoveOverrun(RequestError):
    """An opponent's move that did not come back within the pool's deadline."""

    def __init__(self, message: str):
        super().__init__(HTTPStatus.SERVICE_UNAVAILABLE, message)


class AgentPool:
    """Where every opponent move of a server is computed: at most ``threads`` at once, each held
    to ``max_move_seconds`` (see the module docstring, "Bounds").

    A Python thread cannot be stopped from outside, so a move past its deadline runs on after its
    game is stopped; it holds its thread's slot until it ends, so such moves can never take more
    than ``threads`` cores, and a move waiting for a slot gives up after ``queue_seconds``.
    """

    def __init__(
        self,
        max_move_seconds: float = MAX_MOVE_SECONDS,
        threads: int = AGENT_THREADS,
        queue_seconds: float = QUEUE_SECONDS,
    ):
        if not max_move_seconds > 0 or threads < 1:
            raise ValueError("max_move_seconds must be > 0 and threads >= 1")
        self.max_move_seconds = float(max_move_seconds)
        self.threads = threads
        self.queue_seconds = queue_seconds
        self.deadline = 2 * self.max_move_seconds + 1.0
        self._slots = threading.BoundedSemaphore(threads)

    def bound(self, spec: str, agent: Agent) -> str:
        """Hold a new opponent to the limit: a search gets a wall-clock budget of at most
        ``max_move_seconds`` (a spec asking for more is refused); returns what the seat's label
        adds ("" when the agent's own budget already fits)."""
        if not isinstance(agent, ISMCTSAgent):
            return ""
        limit = self.max_move_seconds
        if agent.seconds is not None and agent.seconds > limit:
            raise RequestError(
                HTTPStatus.BAD_REQUEST,
                f"opponent {spec!r} asks for {agent.seconds:g} s a move; this server allows at "
                f"most {limit:g} s (deckzoo serve --max-move-seconds)",
            )
        capped = agent.seconds is None
        agent.seconds, agent.clock = agent.seconds or limit, "wall"
        return f", at most {limit:g} s a move" if capped else ""

    def move(self, agent: Agent, view, who: str) -> int:
        """``agent.act(view)`` on one of the pool's threads; ``MoveOverrun`` if it is not back
        in time (``who`` names the seat in that message)."""
        if not self._slots.acquire(timeout=self.queue_seconds):
            raise RequestError(
                HTTPStatus.SERVICE_UNAVAILABLE,
                f"all {self.threads} agent threads are busy; try again in a moment",
            )
        result: dict = {}
        done = threading.Event()

        def think():
            try:
                result["action"] = int(agent.act(view))
            except Exception as e:  # noqa: BLE001 (raised again on the request's thread)
                result["error"] = e
            finally:
                self._slots.release()
                done.set()

        threading.Thread(target=think, name="deckzoo-agent", daemon=True).start()
        if not done.wait(self.deadline):
            raise MoveOverrun(
                f"{who} took over {self.deadline:g} s for a move (the limit is "
                f"{self.max_move_seconds:g} s); the game is stopped"
            )
        if "error" in result:
            raise result["error"]
        return result["action"]


class Session:
    """One game between a person (``seat``) and agents; every method runs under ``lock``."""

    def __init__(self, game, seat: int, specs: list[str], seed: int, pool: AgentPool):
        n = game.num_players
        self.id = secrets.token_urlsafe(12)
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self.game, self.seat, self.pool = game, seat, pool
        self.stopped = ""  # why the game was stopped, once an opponent overran its deadline
        self.mod = scene_module(game.name)
        seeds = [int(x) for x in np.random.default_rng(seed).integers(2**63, size=n)]
        seat_specs = specs[:seat] + ["human"] + specs[seat:]
        self.agents = {
            p: make_agent(spec, game.name, seeds[p])
            for p, spec in enumerate(seat_specs)
            if p != seat
        }
        notes = {p: pool.bound(seat_specs[p], agent) for p, agent in self.agents.items()}
        self.labels = [
            f"player_{p}" if p == seat else f"player_{p} ({s}{notes[p]})"
            for p, s in enumerate(seat_specs)
        ]
        self.record = new_record(game, seed, seat, seat_specs, seeds)
        self.state = game.new_state(seed)
        self.log: list[dict] = []
        self._opponents_move()

    def _apply(self, action: int) -> None:
        move = last_action(self.mod, self.state, action)
        self.state.apply(action)
        if move["public"] is not None and move["seat"] != self.seat:
            move = {"seat": None, "id": None, "name": move["public"], "public": move["public"]}
        self.log.append(move)
        self.record["actions"].append(int(action))
        finish_record(self.record, self.state)

    def _opponents_move(self) -> None:
        state = self.state
        while not state.is_terminal() and state.current_player != self.seat:
            p = state.current_player
            try:
                action = self.pool.move(self.agents[p], state.for_player(p), self.labels[p])
            except MoveOverrun as e:
                self.stopped = str(e)
                raise
            self._apply(action)

    def act(self, action, step) -> None:
        if self.stopped:
            raise RequestError(HTTPStatus.CONFLICT, f"this game was stopped: {self.stopped}")
        if self.state.is_terminal():
            raise RequestError(HTTPStatus.CONFLICT, "the game is over")
        if step is not None and step != len(self.record["actions"]):
            raise RequestError(
                HTTPStatus.CONFLICT,
                f"stale step {step}: the game is at step {len(self.record['actions'])}; reload it",
            )
        if self.state.current_player != self.seat:  # only while an opponent errs mid-turn
            raise RequestError(HTTPStatus.CONFLICT, "it is not your turn")
        if isinstance(action, bool) or not isinstance(action, int):
            raise RequestError(
                HTTPStatus.BAD_REQUEST, f"'action' must be an action id, got {action!r}"
            )
        mask = self.state.legal_mask()
        if not (0 <= action < len(mask) and mask[action]):
            why = IllegalActionError(
                action, np.flatnonzero(mask), "not legal now", self.state.action_name
            )
            raise RequestError(HTTPStatus.CONFLICT, str(why))
        self._apply(action)
        self._opponents_move()

    def payload(self) -> dict:
        """The game as the person may see it: their seat's scene, never another hand."""
        state = self.state
        scene = observer_scene(self.mod, state, self.seat)
        mine = state.current_player == self.seat
        return {
            "id": self.id,
            "game": self.game.name,
            "config": self.game.config(),
            "num_players": self.game.num_players,
            "seat": self.seat,
            "seats": self.labels,
            "step": len(self.record["actions"]),
            "title": scene["title"],
            "scene": scene,
            "your_turn": mine,
            "legal": legal_list(state) if mine else [],
            "last": self.log[-1] if self.log else None,
            "log": self.log,
            **{k: v for k, v in status(state).items() if k != "actor"},
        }


class Lobby:
    """The games of one server, by id; drops games idle for ``idle_timeout`` seconds."""

    def __init__(
        self, idle_timeout: float = 1800.0, max_games: int = 100, pool: AgentPool | None = None
    ):
        self.idle_timeout = idle_timeout
        self.max_games = max_games
        self.pool = pool or AgentPool()
        self.sessions: dict[str, Session] = {}
        self.lock = threading.Lock()

    def _sweep(self) -> None:
        now = time.monotonic()
        for gid in [g for g, s in self.sessions.items() if now - s.touched > self.idle_timeout]:
            del self.sessions[gid]

    def create(self, body: dict) -> Session:
        import deckzoo.envs as E

        name = body.get("game")
        if not isinstance(name, str):
            raise RequestError(HTTPStatus.BAD_REQUEST, "'game' must be a game name, e.g. \"gobig\"")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise RequestError(
                HTTPStatus.BAD_REQUEST, "'options' must be an object of game options"
            )
        seed = _int(body, "seed", lo=0)
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % 2**63)
        with self.lock:  # before the opponents' first moves are computed, and again after
            self._check_room()
        try:
            game = E.game_class(name)(_int(body, "players"), **options)
            seat = _int(body, "seat", 0, lo=0)
            if seat >= game.num_players:
                raise ConfigError(f"'seat' must be in 0..{game.num_players - 1}, got {seat}")
            specs = _specs(body.get("opponents"), game.num_players)
            session = Session(game, seat, specs, seed, self.pool)
        except ConfigError as e:
            raise RequestError(HTTPStatus.BAD_REQUEST, str(e)) from e
        with self.lock:
            self._check_room()
            self.sessions[session.id] = session
        return session

    def _check_room(self) -> None:
        """Refuse a new game while ``max_games`` are held (call with ``lock`` held)."""
        self._sweep()
        if len(self.sessions) >= self.max_games:
            raise RequestError(
                HTTPStatus.SERVICE_UNAVAILABLE,
                f"{self.max_games} games are running; finish or abandon one first",
            )

    def get(self, gid: str) -> Session:
        with self.lock:
            self._sweep()
            session = self.sessions.get(gid)
            if session is None:
                raise RequestError(
                    HTTPStatus.NOT_FOUND,
                    f"no game {gid!r}: it never existed, was abandoned or timed out",
                )
            session.touched = time.monotonic()
            return session

    def drop(self, gid: str) -> None:
        self.get(gid)
        with self.lock:
            self.sessions.pop(gid, None)


def games_catalogue() -> dict:
    import deckzoo.envs as E

    games = []
    for cls in E.GAMES.values():
        games.append(
            {
                "name": cls.name,
                "players": list(cls.supported_players()),
                "default_players": cls.default_players,
                "options": [
                    {"name": o.name, "default": o.default, "doc": o.doc} for o in cls.OPTIONS
                ],
            }
        )
    return {"games": games, "agents": list(AGENT_EXAMPLES)}


class Handler(BaseHTTPRequestHandler):
    server_version = "deckzoo"
    lobby: Lobby  # set on the subclass made by make_server
    quiet = True

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)

    def _send(self, status: HTTPStatus, body: bytes, ctype: str, headers: dict | None = None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, data, status: HTTPStatus = HTTPStatus.OK, headers: dict | None = None):
        self._send(status, json.dumps(data).encode(), "application/json; charset=utf-8", headers)

    def _body(self) -> dict:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise RequestError(HTTPStatus.BAD_REQUEST, "bad Content-Length") from None
        if length > MAX_BODY:
            raise RequestError(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the body is over {MAX_BODY} bytes"
            )
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"the body is not JSON: {e}") from None
        if not isinstance(body, dict):
            raise RequestError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
        return body

    def _route(self, method: str):
        path = self.path.split("?", 1)[0].rstrip("/") or "/"
        parts = path.strip("/").split("/")
        if method == "GET" and path in ("/", "/index.html"):
            from .viewer.page import play_page

            return self._send(HTTPStatus.OK, play_page().encode(), "text/html; charset=utf-8")
        if parts[:2] != ["api", "games"] or len(parts) > 4:
            raise RequestError(HTTPStatus.NOT_FOUND, f"no such page {path!r}")
        lobby = self.lobby
        if len(parts) == 2:
            if method == "GET":
                return self._json(games_catalogue())
            if method == "POST":
                session = lobby.create(self._body())
                with session.lock:
                    return self._json(session.payload(), HTTPStatus.CREATED)
        elif len(parts) == 3:
            if method == "GET":
                session = lobby.get(parts[2])
                with session.lock:
                    return self._json(session.payload())
            if method == "DELETE":
                lobby.drop(parts[2])
                return self._json({"abandoned": parts[2]})
        elif parts[3] == "act" and method == "POST":
            body = self._body()
            if "action" not in body:
                raise RequestError(HTTPStatus.BAD_REQUEST, "the body needs an 'action' id")
            session = lobby.get(parts[2])
            with session.lock:
                session.act(body["action"], _int(body, "step"))
                return self._json(session.payload())
        elif parts[3] == "replay" and method == "GET":
            session = lobby.get(parts[2])
            with session.lock:
                name = f"{session.game.name}-{session.id}.json"
                return self._json(
                    session.record,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'},
                )
        else:
            raise RequestError(HTTPStatus.NOT_FOUND, f"no such page {path!r}")
        raise RequestError(HTTPStatus.METHOD_NOT_ALLOWED, f"{method} is not allowed on {path}")

    def _handle(self, method: str):
        try:
            self._route(method)
        except RequestError as e:
            self._json({"error": str(e)}, e.status)
        except Exception as e:  # noqa: BLE001 (an agent or engine bug: report it, keep serving)
            self._json(
                {"error": f"internal error: {type(e).__name__}: {e}"},
                HTTPStatus.INTERNAL_SERVER_ERROR,
            )

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def do_DELETE(self):
        self._handle("DELETE")

    def do_PUT(self):
        self._handle("PUT")


def make_server(
    host: str = "127.0.0.1",
    port: int = 8765,
    idle_timeout: float = 1800.0,
    max_games: int = 100,
    quiet: bool = True,
    max_move_seconds: float = MAX_MOVE_SECONDS,
    agent_threads: int = AGENT_THREADS,
) -> ThreadingHTTPServer:
    """A server (not yet serving: call ``serve_forever``); port 0 picks a free port."""
    lobby = Lobby(idle_timeout, max_games, AgentPool(max_move_seconds, agent_threads))
    handler = type("DeckzooHandler", (Handler,), {"lobby": lobby, "quiet": quiet})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def run(args) -> int:
    try:
        server = make_server(
            args.host,
            args.port,
            args.idle_timeout,
            args.max_games,
            quiet=not args.verbose,
            max_move_seconds=args.max_move_seconds,
            agent_threads=args.agent_threads,
        )
    except OSError as e:
        print(f"deckzoo serve: cannot listen on {args.host}:{args.port}: {e.strerror or e}")
        return 2
    host, port = server.server_address[:2]
    print(f"deckzoo serve: open http://{host}:{port}/ in a browser (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped")
    finally:
        server.server_close()
    return 0


def seconds_arg(text: str) -> float:
    """A positive number of seconds, for argparse."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (value > 0 and np.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def add_parser(sub) -> None:
    p = sub.add_parser(
        "serve",
        help="play against the agents in a web browser",
        description="A small web server: pick a game, a seat count, a seat and the opponents "
        "(any agent spec, as deckzoo arena --help lists them), play by clicking legal actions, "
        "and download the replay. You see only your seat's view; each opponent sees only its own.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    p.add_argument(
        "--port", type=count_arg(0), default=8765, help="port (default 8765; 0 picks a free one)"
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=1800.0,
        help="seconds after which an untouched game is dropped (default 1800)",
    )
    p.add_argument(
        "--max-games", type=count_arg(1), default=100, help="games held at once (default 100)"
    )
    p.add_argument(
        "--max-move-seconds",
        type=seconds_arg,
        default=MAX_MOVE_SECONDS,
        help=f"the most an opponent may think per move (default {MAX_MOVE_SECONDS:g}): ismcts "
        "specs asking for more time are refused, iteration budgets are capped at it, and any "
        "other agent's game is stopped when a move takes twice that and a second more",
    )
    p.add_argument(
        "--agent-threads",
        type=count_arg(1),
        default=AGENT_THREADS,
        help=f"opponent moves computed at once, over all games (default {AGENT_THREADS})",
    )
    p.add_argument("--verbose", action="store_true", help="log every request")
    p.set_defaults(func=run)
