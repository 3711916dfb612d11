"""The observation tables of docs/rules/<game>.md, generated from the games' layouts.

Each page holds at least one table between the markers::

    <!-- observation layout {"num_players": 4} -->
    | piece | shape | indices | encoding |
    ...
    <!-- end observation layout -->

The marker names the game options the table is printed for. The piece, shape and index columns
come from ``game.layout`` (the one source of the observation layout); the encoding column is
the page's own text, kept by piece name (a new piece gets an empty cell to fill in). The test
suite checks that every registered game's page has such a table and that it matches the code.

    python -m deckzoo.envs.layout_docs [--root .]   # rewrite the tables (``make layout-tables``)
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from . import registry

BLOCK = re.compile(r"(<!-- observation layout (\{.*?\}) -->\n)(.*?)"
                   r"(<!-- end observation layout -->)", re.DOTALL)
_ROW = re.compile(r"^\| `([^`]+)` \|[^|]*\|[^|]*\|(.*)\|\s*$")


def notes_of(table: str) -> dict[str, str]:
    """The encoding column of a table, by piece name."""
    return {m.group(1): m.group(2).strip() for m in map(_ROW.match, table.splitlines()) if m}


def refresh(text: str, game_cls) -> str:
    """``text`` with every marked table printed again from the code."""

    def table(m: re.Match) -> str:
        game = game_cls(**json.loads(m.group(2)))
        return m.group(1) + game.layout.table(notes_of(m.group(3))) + "\n" + m.group(4)

    return BLOCK.sub(table, text)


def page(root: Path, name: str) -> Path:
    return root / "docs" / "rules" / f"{registry.game_class(name).name}.md"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
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
