"""A ``deckzoo serve`` server in a background thread, and small clients for it: JSON over urllib,
and raw bytes over a socket for the requests urllib would not send."""

from __future__ import annotations

import json
import socket
import threading
import urllib.error
import urllib.request

from deckzoo.agents.tools.serve import make_server


class Running:
    def __init__(self, **kwargs):
        # One client (the tests, on 127.0.0.1) plays far more than the default 8 games per client
        # in a module's server; the per-client cap has its own tests.
        kwargs.setdefault("games_per_client", 1000)
        self.server = make_server(port=0, **kwargs)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def lobby(self):
        return self.server.RequestHandlerClass.lobby

    def call(self, method: str, path: str, body=None, raw: bytes | None = None):
        """``(status, JSON answer)``; ``raw`` sends those bytes as the body instead of ``body``."""
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def send(self, request: bytes, timeout: float = 30.0) -> bytes:
        """Send ``request`` as it is over a new connection; everything the server sends back
        until it closes the connection (b"" if it closed without a word)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as sock:
            sock.sendall(request)
            chunks = []
            while True:
                try:
                    chunk = sock.recv(65536)
                except ConnectionResetError:
                    break
                if not chunk:
                    break
                chunks.append(chunk)
        return b"".join(chunks)

    def request(
        self,
        method: str,
        path: str,
        headers: dict | None = None,
        body: bytes = b"",
        host: str | None = None,
    ) -> tuple[int, dict, dict]:
        """``(status, headers, JSON answer)`` of a request with exactly these headers (``Host``
        first, the server's own unless ``host`` is given; no header is added but that one)."""
        host = f"127.0.0.1:{self.port}" if host is None else host
        lines = [f"{method} {path} HTTP/1.1", f"Host: {host}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        return parse_answer(self.send(("\r\n".join(lines) + "\r\n\r\n").encode() + body))

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


def parse_answer(answer: bytes) -> tuple[int, dict, dict]:
    """``(status, headers, JSON body)`` of one HTTP answer."""
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        key, _, value = line.partition(":")
        headers[key.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers, json.loads(body)
