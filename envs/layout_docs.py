"""The observation and global-state tables of docs/rules/<game>.md, generated from the layouts.

Each page holds at least one table of each kind between the markers::

    <!-- observation layout {"num_players": 4} -->
    | piece | shape | indices | encoding |
    ...
    <!-- end observation layout -->

(``state layout`` for the global state of ``env.state()``). The marker names the game options the
table is printed for. The piece, shape and index columns come from ``game.layout`` (or
``game.state_layout``, the one source of each layout); the encoding column is the page's own
text, kept by piece name (a new piece gets an empty cell to fill in). The test suite checks that
every registered game's page has such tables and that they match the code.

    python -m deckzoo.envs.layout_docs [--root .]   # rewrite the tables (``make layout-tables``)
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from . import registry

BLOCK = re.compile(
    r"(<!-- observation layout (\{.*?\}) -->\n)(.*?)"
    r"(<!-- end observation layout -->)",
    re.DOTALL,
)
STATE_BLOCK = re.compile(
    r"(<!-- state layout (\{.*?\}) -->\n)(.*?)(<!-- end state layout -->)", re.DOTALL
)
_ROW = re.compile(r"^\| `([^`]+)` \|[^|]*\|[^|]*\|(.*)\|\s*$")


def notes_of(table: str) -> dict[str, str]:
    """The encoding column of a table, by piece name."""
    return {m.group(1): m.group(2).strip() for m in map(_ROW.match, table.splitlines()) if m}


def refresh(text: str, game_cls) -> str:
    """``text`` with every marked table printed again from the code."""

    def table(m: re.Match, which: str) -> str:
        layout = getattr(game_cls(**json.loads(m.group(2))), which)
        return m.group(1) + layout.table(notes_of(m.group(3))) + "\n" + m.group(4)

    text = BLOCK.sub(lambda m: table(m, "layout"), text)
    return STATE_BLOCK.sub(lambda m: table(m, "state_layout"), text)


def page(root: Path, name: str) -> Path:
    return root / "docs" / "rules" / f"{registry.game_class(name).name}.md"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--root", default=".", help="repository root")
    args = ap.parse_args(argv)
    for name in registry.env_names():
        path = page(Path(args.root), name)
        text = path.read_text()
        new = refresh(text, registry.game_class(name))
        if new != text:
            path.write_text(new)
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
