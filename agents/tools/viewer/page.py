"""Self-contained HTML pages: the stylesheet, the scripts and the data inlined into one file.

The pages load nothing from the network (their Content-Security-Policy forbids it), so a replay
page can be mailed, archived or opened offline; the play page of ``deckzoo serve`` talks only to
the server that sent it.
"""

from __future__ import annotations

import json
import re
from importlib import resources

_SLOT = re.compile(r"/\*(STYLE|SCRIPT|DATA|START)\*/")


def asset(name: str) -> str:
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


def script_json(data) -> str:
    """JSON safe inside a ``<script>`` element: ``<`` only ever occurs inside strings, where
    ``\\u003c`` means the same, so no ``</script>`` or ``<!--`` can end the element early."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def fill(template: str, scripts: list[str], data=None, start: int = 0) -> str:
    values = {
        "STYLE": asset("viewer.css"),
        "SCRIPT": "\n".join(asset(s) for s in scripts),
        "DATA": script_json(data),
        "START": str(int(start)),
    }
    return _SLOT.sub(lambda m: values[m.group(1)], asset(template))


def replay_page(record: dict, step: int = 0) -> str:
    """The replay viewer for one recorded game, opening at ``step``."""
    from .frames import replay_data

    return fill("replay.html", ["scene.js", "replay.js"], replay_data(record), step)


def play_page() -> str:
    """The page ``deckzoo serve`` hands out: set up a game, then play it by clicking."""
    return fill("play.html", ["scene.js", "play.js"])
