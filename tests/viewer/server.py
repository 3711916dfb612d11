"""A ``deckzoo serve`` server in a background thread, and a small JSON client for it."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

from deckzoo.agents.serve import make_server


class Running:
    def __init__(self, **kwargs):
        self.server = make_server(port=0, **kwargs)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
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

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
