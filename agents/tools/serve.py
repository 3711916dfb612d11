"""``deckzoo serve [--host 127.0.0.1] [--port 8765]``: play against the agents in a browser.

A small web server (the standard library's ``ThreadingHTTPServer``; nothing to build) hands out
one page on which a person picks a game, a seat count, a seat and the opponents (any agent spec:
``random``, ``heuristic``, ``ismcts:200``, ``zoo:GAME``, ... as ``deckzoo.agents.registry``
knows them; ``ppo:PATH`` only for files in ``--policy-dir``), plays by clicking legal actions,
and, once the game is over, downloads the replay (the file ``deckzoo play --replay`` and
``deckzoo replay --html`` read). The person sees only their seat's view; each opponent acts on
``state.for_player(seat)``, so it sees only its own.

JSON API (errors are ``{"error": message}``, one line, with a 4xx status, and change nothing)::

    GET    /api/games               games, player counts, options; agent spec examples
    POST   /api/games               {"game", "players", "seat", "opponents", "seed", "options"}
                                    (all but "game" optional) -> a new game, as the person sees it
    GET    /api/games/ID            the game as the person sees it
    POST   /api/games/ID/act        {"action": id, "step": n} -> the game after the person's action
                                    and the opponents' replies; "step" (the number of moves so far,
                                    as last shown) guards against acting twice on one position
    GET    /api/games/ID/replay     the replay file, as a download, once the game is over
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
computed at once. A connection that sends nothing for ``CONNECTION_TIMEOUT`` seconds is closed, a
body is at most ``MAX_BODY`` bytes and is refused before it is read when its length is missing,
negative or too large, and one client address holds at most ``--games-per-client`` games.

Who may call. The server has no accounts; it trusts whoever can reach it, so it listens on
127.0.0.1 unless told otherwise. What it guards against is a web page on another origin that the
person has open in the same browser: such a page can send requests to 127.0.0.1 without reading
the answers (a form, or ``fetch`` in ``no-cors`` mode, with a ``text/plain`` body), or, by DNS
rebinding (its own host name answering with 127.0.0.1), read the answers as if they were its own.
Hence every request must name this server in its ``Host`` header (the bound address and port, or
on loopback any of 127.0.0.1, localhost and [::1]; a rebound name never matches), a request that
changes something must carry no foreign ``Origin`` and, with its body, ``Content-Type:
application/json`` (which a page may only send cross-origin after a preflight this server never
allows). A ``ppo:PATH`` opponent would open a file the client names, so it is refused unless the
file lies in ``--policy-dir``, with one message whatever the reason, saying nothing of which
files exist. The replay holds the seed and the agents' seeds, from which every hidden card can be
rebuilt, so it is served only once the game is over (or stopped).
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import re
import secrets
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

from deckzoo.envs.core.errors import ConfigError, IllegalActionError

from ..base import Agent
from ..cli_args import count_arg
from ..ismcts import ISMCTSAgent
from ..registry import make_agent
from .replay import finish_record, new_record
from .viewer.frames import last_action, legal_list, observer_scene, scene_module, status

AGENT_EXAMPLES = ("heuristic", "random", "ismcts:200", "ismcts:0.5s", "zoo:GAME", "ppo:PATH")
MAX_BODY = 64 * 1024
MAX_MOVE_SECONDS = 2.0  # default --max-move-seconds
AGENT_THREADS = 4  # default --agent-threads
QUEUE_SECONDS = 30.0  # how long a move waits for a free agent thread before the request is refused
IDLE_TIMEOUT = 1800.0  # default --idle-timeout
MAX_SECONDS = 86400.0  # the most --idle-timeout and --max-move-seconds accept
MAX_GAMES = 100  # default --max-games
GAMES_PER_CLIENT = 8  # default --games-per-client
CONNECTION_TIMEOUT = 5.0  # seconds a connection may stay silent (a request half sent, or none)
SEED_LIMIT = 2**63  # seeds are 0 <= seed < SEED_LIMIT, as the agents' seeds drawn from them
STATE_CHANGING = ("POST", "PUT", "DELETE")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
# The one answer to every refused ppo:PATH: the same words whether the file is missing, outside
# the folder or the server has none, so that a client learns nothing about the server's files.
POLICY_REFUSED = (
    "'ppo:PATH' opponents must name a policy file in this server's --policy-dir; "
    "use zoo:GAME for the shipped policies"
)


class RequestError(Exception):
    """A request the server refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: HTTPStatus, message: str):
        super().__init__(message)
        self.status = status


def _shown(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters, so an error echoing a client's input stays short."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _int(
    body: dict, key: str, default=None, lo: int | None = None, hi: int | None = None
) -> int | None:
    value = body.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(
            HTTPStatus.BAD_REQUEST, f"'{key}' must be an integer, got {_shown(repr(value))}"
        )
    if lo is not None and value < lo:
        raise RequestError(
            HTTPStatus.BAD_REQUEST, f"'{key}' must be at least {lo}, got {_shown(str(value))}"
        )
    if hi is not None and value > hi:
        raise RequestError(HTTPStatus.BAD_REQUEST, f"'{key}' must be at most {hi}")
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


def policy_spec(spec: str, policy_dir: str | None) -> tuple[str, str, str]:
    """``(spec to build, path as given, real path)`` for a client's opponent spec: a
    ``ppo:PATH[:greedy|:sample]`` is allowed only for a file whose real path (links followed)
    lies inside ``policy_dir``, a real path itself; the agent is then built from the real path,
    so a link changed after this check cannot lead outside. Any other spec is returned as is,
    with empty paths."""
    kind, _, arg = spec.partition(":")
    if kind != "ppo":
        return spec, "", ""
    path, mode = arg, ""
    head, _, tail = arg.rpartition(":")
    if head and tail in ("greedy", "sample"):
        path, mode = head, ":" + tail
    if policy_dir is None or not path:
        raise RequestError(HTTPStatus.BAD_REQUEST, POLICY_REFUSED)
    try:  # a path over the system's length limit or with a NUL byte is just another refusal
        real = os.path.realpath(path)
        inside = os.path.commonpath([real, policy_dir]) == policy_dir and os.path.isfile(real)
    except (OSError, ValueError):
        inside = False
    if not inside:
        raise RequestError(HTTPStatus.BAD_REQUEST, POLICY_REFUSED)
    return f"ppo:{real}{mode}", path, real


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

    def __init__(
        self,
        game,
        seat: int,
        specs: list[str],
        seed: int,
        pool: AgentPool,
        build: list[str] | None = None,
        client: str = "",
    ):
        """``specs`` name the opponents in the labels and the replay; ``build`` (default
        ``specs``) are the specs the agents are made from (``policy_spec``'s real paths)."""
        n = game.num_players
        self.id = secrets.token_urlsafe(12)
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self.game, self.seat, self.pool, self.client = game, seat, pool, client
        self.stopped = ""  # why the game was stopped, once an opponent overran its deadline
        self.mod = scene_module(game.name)
        seeds = [int(x) for x in np.random.default_rng(seed).integers(SEED_LIMIT, size=n)]
        seat_specs = specs[:seat] + ["human"] + specs[seat:]
        built = build or specs
        built = built[:seat] + ["human"] + built[seat:]
        self.agents = {
            p: make_agent(spec, game.name, seeds[p]) for p, spec in enumerate(built) if p != seat
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

    def over(self) -> bool:
        """Whether no move can be made any more: the game ended or was stopped."""
        return bool(self.stopped) or self.state.is_terminal()

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
    """The games of one server, by id; drops games idle for ``idle_timeout`` seconds, holds at
    most ``max_games`` in all and ``games_per_client`` per client address."""

    def __init__(
        self,
        idle_timeout: float = IDLE_TIMEOUT,
        max_games: int = MAX_GAMES,
        pool: AgentPool | None = None,
        games_per_client: int = GAMES_PER_CLIENT,
        policy_dir: str | None = None,
    ):
        self.idle_timeout = idle_timeout
        self.max_games = max_games
        self.games_per_client = games_per_client
        self.policy_dir = None if policy_dir is None else os.path.realpath(policy_dir)
        self.pool = pool or AgentPool()
        self.sessions: dict[str, Session] = {}
        self.lock = threading.Lock()

    def _sweep(self) -> None:
        now = time.monotonic()
        for gid in [g for g, s in self.sessions.items() if now - s.touched > self.idle_timeout]:
            del self.sessions[gid]

    def _game(self, body: dict):
        """The game a create request asks for (``ConfigError`` for the game's own refusals)."""
        import deckzoo.envs as E

        name = body.get("game")
        if not isinstance(name, str):
            raise RequestError(HTTPStatus.BAD_REQUEST, "'game' must be a game name, e.g. \"gobig\"")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise RequestError(
                HTTPStatus.BAD_REQUEST, "'options' must be an object of game options"
            )
        options = dict(options)
        if "num_players" in options:  # the game's first argument, so it cannot come twice
            if body.get("players") is not None:
                raise RequestError(
                    HTTPStatus.BAD_REQUEST,
                    "give the player count once: 'players' or options.num_players, not both",
                )
            players = options.pop("num_players")
        else:
            players = _int(body, "players")
        return E.game_class(name)(players, **options)

    def create(self, body: dict, client: str = "") -> Session:
        seed = _int(body, "seed", lo=0, hi=SEED_LIMIT - 1)
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % SEED_LIMIT)
        with self.lock:  # before the opponents' first moves are computed, and again after
            self._check_room(client)
        paths: dict[str, str] = {}
        try:
            game = self._game(body)
            seat = _int(body, "seat", 0, lo=0)
            if seat >= game.num_players:
                raise ConfigError(f"'seat' must be in 0..{game.num_players - 1}, got {seat}")
            specs = _specs(body.get("opponents"), game.num_players)
            build = []
            for spec in specs:
                built, given, real = policy_spec(spec, self.policy_dir)
                build.append(built)
                paths[real] = given
            session = Session(game, seat, specs, seed, self.pool, build, client)
        except ConfigError as e:
            message = str(e)
            for real, given in paths.items():  # a policy file's error names it as the client did
                if real:
                    message = message.replace(real, given)
            raise RequestError(HTTPStatus.BAD_REQUEST, message) from e
        with self.lock:
            self._check_room(client)
            self.sessions[session.id] = session
        return session

    def _check_room(self, client: str) -> None:
        """Refuse a new game while ``max_games`` are held, or ``games_per_client`` for this
        client (call with ``lock`` held)."""
        self._sweep()
        if len(self.sessions) >= self.max_games:
            raise RequestError(
                HTTPStatus.SERVICE_UNAVAILABLE,
                f"{self.max_games} games are running; finish or abandon one first",
            )
        if sum(s.client == client for s in self.sessions.values()) >= self.games_per_client:
            raise RequestError(
                HTTPStatus.TOO_MANY_REQUESTS,
                f"you hold {self.games_per_client} games, the most one client may; abandon one "
                '(the page\'s "new game" does) or let it time out',
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


def _one_line(e: BaseException) -> str:
    """``Type: message`` on one line and at most 300 characters, for the server's log."""
    return _shown(" ".join(f"{type(e).__name__}: {e}".split()), 300)


def _split_host(value: str) -> tuple[str, int] | None:
    """``(host, port)`` of a ``Host`` header (``[::1]:8765`` -> ``("::1", 8765)``, no port:
    80), lower case; None if it is not of that form."""
    value = value.strip().lower()
    if value.startswith("["):
        host, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else "80"
    else:
        host, colon, port = value.rpartition(":")
        if not colon:
            host, port = value, "80"
        if ":" in host:
            return None
    if not host or not re.fullmatch(r"[0-9]{1,5}", port):
        return None
    return host, int(port)


def _ip(host: str):
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def host_names(given: str, bound: str) -> frozenset[str] | None:
    """The names a ``Host`` header may give for a server started with ``--host given`` and
    bound to the address ``bound``: those two, and on loopback 127.0.0.1, localhost and ::1.
    None when bound to every interface (0.0.0.0): then any literal IP address is accepted, since
    only a host *name* can be rebound to this machine by another site's DNS."""
    ip = _ip(bound)
    if ip is not None and ip.is_unspecified:
        return None
    names = {given.strip("[]").lower(), bound.lower()}
    if ip is not None and ip.is_loopback:
        names.update(LOOPBACK_NAMES)
    return frozenset(names)


class Handler(BaseHTTPRequestHandler):
    server_version = "deckzoo"
    lobby: Lobby  # set on the subclass made by make_server, as are the two below
    hosts: frozenset[str] | None = frozenset(LOOPBACK_NAMES)  # see host_names
    port = 0
    quiet = True
    # Seconds a socket read or write may wait: a client that goes silent (or never sends its
    # request, or sends half a body) loses its connection and frees its thread.
    timeout = CONNECTION_TIMEOUT

    def version_string(self) -> str:
        return self.server_version  # without the Python version the standard library adds

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)

    def handle(self):
        try:
            super().handle()
        except (ConnectionError, TimeoutError):  # the client hung up or went quiet: no answer
            self.close_connection = True

    def send_error(self, code, message=None, explain=None):
        """The standard library's own refusals (a malformed request line, an unknown method, a
        header line over 64 KiB) answer in one JSON line like every other error."""
        self.close_connection = True
        text = message or HTTPStatus(code).phrase
        self.log_error("code %d, message %s", code, text)
        self._json({"error": text}, HTTPStatus(code), {"Connection": "close"})

    def _send(self, status: HTTPStatus, body: bytes, ctype: str, headers: dict | None = None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, data, status: HTTPStatus = HTTPStatus.OK, headers: dict | None = None):
        self._send(status, json.dumps(data).encode(), "application/json; charset=utf-8", headers)

    def _check_host(self) -> str:
        """The request's ``Host``, refused unless it names this server (see the module
        docstring, "Who may call")."""
        values = self.headers.get_all("Host") or []
        if len(values) != 1:
            raise RequestError(HTTPStatus.BAD_REQUEST, "the request needs one Host header")
        parsed = _split_host(values[0])
        if parsed is None:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"bad Host header {_shown(values[0])!r}")
        host, port = parsed
        if self.hosts is None:
            known = host == "localhost" or _ip(host) is not None
        else:
            known = host in self.hosts
        if not known or port != self.port:
            raise RequestError(
                HTTPStatus.MISDIRECTED_REQUEST,
                f"this server does not answer to the host {_shown(values[0])!r}",
            )
        return values[0].strip().lower()

    def _check_origin(self, host: str) -> None:
        origins = self.headers.get_all("Origin")
        if origins is not None and [o.strip().lower() for o in origins] != [f"http://{host}"]:
            raise RequestError(
                HTTPStatus.FORBIDDEN, "requests from another site's pages are refused"
            )

    def _declared_length(self, method: str) -> int:
        """The body's length from its one ``Content-Length``, checked before a byte of it is
        read: no length for a POST or PUT, or a chunked body, gets 411."""
        if self.headers.get_all("Transfer-Encoding"):
            raise RequestError(
                HTTPStatus.LENGTH_REQUIRED, "send the body with a Content-Length, not chunked"
            )
        values = self.headers.get_all("Content-Length") or []
        if not values:
            if method in ("POST", "PUT"):
                raise RequestError(HTTPStatus.LENGTH_REQUIRED, f"a {method} needs a Content-Length")
            return 0
        text = values[0].strip()
        if len(values) > 1 or not re.fullmatch(r"[0-9]+", text):
            raise RequestError(
                HTTPStatus.BAD_REQUEST, "Content-Length must be one non-negative whole number"
            )
        if len(text.lstrip("0")) > 9 or int(text) > MAX_BODY:
            raise RequestError(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the body is over {MAX_BODY} bytes"
            )
        return int(text)

    def _check(self, method: str) -> int:
        """Refuse a request this server should not answer or read (the module docstring's "Who
        may call"); returns the length of its body."""
        host = self._check_host()
        if method in STATE_CHANGING:
            self._check_origin(host)
        length = self._declared_length(method)
        needs_json = method in ("POST", "PUT") or (method in STATE_CHANGING and length)
        if needs_json and self.headers.get_content_type() != "application/json":
            raise RequestError(
                HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send the body as Content-Type: application/json"
            )
        return length

    def _body(self) -> dict:
        try:
            raw = self.rfile.read(self.length) if self.length else b""
        except TimeoutError:
            raise RequestError(
                HTTPStatus.REQUEST_TIMEOUT, "the body did not arrive in time"
            ) from None
        if len(raw) < self.length:
            raise RequestError(
                HTTPStatus.BAD_REQUEST, "the body is shorter than its Content-Length"
            )
        try:
            body = json.loads(raw or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"the body is not JSON: {e}") from None
        except RecursionError:
            raise RequestError(HTTPStatus.BAD_REQUEST, "the body is nested too deeply") from None
        except ValueError:  # Python's limit on the digits of an int
            raise RequestError(
                HTTPStatus.BAD_REQUEST, "a number in the body has too many digits"
            ) from None
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
            raise RequestError(HTTPStatus.NOT_FOUND, f"no such page {_shown(path)!r}")
        if len(parts) == 2:
            return self._games(method, path)
        if len(parts) == 3:
            return self._game(method, path, parts[2])
        if parts[3] == "act" and method == "POST":
            return self._act(parts[2])
        if parts[3] == "replay" and method == "GET":
            return self._replay(parts[2])
        raise RequestError(HTTPStatus.NOT_FOUND, f"no such page {_shown(path)!r}")

    def _games(self, method: str, path: str):
        if method == "GET":
            return self._json(games_catalogue())
        if method == "POST":
            session = self.lobby.create(self._body(), self.client_address[0])
            with session.lock:
                return self._json(session.payload(), HTTPStatus.CREATED)
        raise RequestError(HTTPStatus.METHOD_NOT_ALLOWED, f"{method} is not allowed on {path}")

    def _game(self, method: str, path: str, gid: str):
        if method == "GET":
            session = self.lobby.get(gid)
            with session.lock:
                return self._json(session.payload())
        if method == "DELETE":
            self.lobby.drop(gid)
            return self._json({"abandoned": gid})
        raise RequestError(
            HTTPStatus.METHOD_NOT_ALLOWED, f"{method} is not allowed on {_shown(path)}"
        )

    def _act(self, gid: str):
        body = self._body()
        if "action" not in body:
            raise RequestError(HTTPStatus.BAD_REQUEST, "the body needs an 'action' id")
        session = self.lobby.get(gid)
        with session.lock:
            session.act(body["action"], _int(body, "step"))
            return self._json(session.payload())

    def _replay(self, gid: str):
        session = self.lobby.get(gid)
        with session.lock:
            if not session.over():
                raise RequestError(
                    HTTPStatus.CONFLICT,
                    "the replay is served once the game is over (it holds the seeds, from which "
                    "the hidden cards follow)",
                )
            name = f"{session.game.name}-{session.id}.json"
            return self._json(
                session.record,
                headers={"Content-Disposition": f'attachment; filename="{name}"'},
            )

    def _handle(self, method: str):
        try:
            self.length = self._check(method)
            self._route(method)
        except RequestError as e:
            self._json({"error": str(e)}, e.status)
        except (ConnectionError, TimeoutError):
            raise  # the client is gone: nothing can be answered (``handle`` ends quietly)
        except Exception as e:  # noqa: BLE001 (an agent or engine bug: log it, keep serving)
            where = f"{method} {_shown(self.path.split('?', 1)[0])}"
            sys.stderr.write(f"deckzoo serve: internal error on {where}: {_one_line(e)}\n")
            self._json(
                {"error": "internal error; the server's log says more"},
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


class Server(ThreadingHTTPServer):
    """``ThreadingHTTPServer`` whose errors outside a request's handling (a client gone before
    its answer is flushed) are one log line, not a traceback on stderr."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        sys.stderr.write(f"deckzoo serve: error serving {client_address[0]}: {_one_line(error)}\n")


def make_server(
    host: str = "127.0.0.1",
    port: int = 8765,
    idle_timeout: float = IDLE_TIMEOUT,
    max_games: int = MAX_GAMES,
    quiet: bool = True,
    max_move_seconds: float = MAX_MOVE_SECONDS,
    agent_threads: int = AGENT_THREADS,
    games_per_client: int = GAMES_PER_CLIENT,
    policy_dir: str | None = None,
    connection_timeout: float = CONNECTION_TIMEOUT,
) -> Server:
    """A server (not yet serving: call ``serve_forever``); port 0 picks a free port."""
    lobby = Lobby(
        idle_timeout,
        max_games,
        AgentPool(max_move_seconds, agent_threads),
        games_per_client=games_per_client,
        policy_dir=policy_dir,
    )
    handler = type(
        "DeckzooHandler",
        (Handler,),
        {"lobby": lobby, "quiet": quiet, "timeout": connection_timeout},
    )
    server = Server((host, port), handler)
    bound, handler.port = server.server_address[:2]
    handler.hosts = host_names(host, bound)
    return server


def _is_loopback(host: str) -> bool:
    ip = _ip(host)
    return host == "localhost" or (ip is not None and ip.is_loopback)


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
            games_per_client=args.games_per_client,
            policy_dir=args.policy_dir,
        )
    except OSError as e:
        print(f"deckzoo serve: cannot listen on {args.host}:{args.port}: {e.strerror or e}")
        return 2
    host, port = server.server_address[:2]
    if not _is_loopback(host):
        print(
            f"deckzoo serve: listening on {host}, not only this machine: anyone who can reach it "
            "can play and use the server's agents (there are no accounts)",
            flush=True,
        )
    print(f"deckzoo serve: open http://{host}:{port}/ in a browser (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped")
    finally:
        server.server_close()
    return 0


def seconds_arg(text: str, maximum: float = MAX_SECONDS) -> float:
    """A positive number of seconds, at most ``maximum``, for argparse."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (value > 0 and np.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    if value > maximum:
        raise argparse.ArgumentTypeError(f"must be at most {maximum:g} seconds, got {text!r}")
    return value


def port_arg(text: str) -> int:
    """A TCP port, 0..65535, for argparse."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port in 0..65535, got {value}")
    return value


def dir_arg(text: str) -> str:
    """An existing folder, as its real path, for argparse."""
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"not a folder: {text!r}")
    return os.path.realpath(text)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "serve",
        help="play against the agents in a web browser",
        description="A small web server: pick a game, a seat count, a seat and the opponents "
        "(any agent spec, as deckzoo arena --help lists them; ppo:PATH only for files in "
        "--policy-dir), play by clicking legal actions, and download the replay once the game is "
        "over. You see only your seat's view; each opponent sees only its own. The server has no "
        "accounts: keep it on 127.0.0.1 unless every machine that can reach it is trusted.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    p.add_argument(
        "--port", type=port_arg, default=8765, help="port (default 8765; 0 picks a free one)"
    )
    p.add_argument(
        "--idle-timeout",
        type=seconds_arg,
        default=IDLE_TIMEOUT,
        help=f"seconds after which an untouched game is dropped (default {IDLE_TIMEOUT:g}, at "
        f"most {MAX_SECONDS:g})",
    )
    p.add_argument(
        "--max-games",
        type=count_arg(1),
        default=MAX_GAMES,
        help=f"games held at once (default {MAX_GAMES})",
    )
    p.add_argument(
        "--games-per-client",
        type=count_arg(1),
        default=GAMES_PER_CLIENT,
        help=f"games one client address may hold at once (default {GAMES_PER_CLIENT})",
    )
    p.add_argument(
        "--policy-dir",
        type=dir_arg,
        metavar="DIR",
        help="a folder of policy files that clients may name as ppo:PATH opponents (default: "
        "none; zoo:GAME policies are always allowed)",
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
