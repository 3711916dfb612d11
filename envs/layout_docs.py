"""The generated parts of docs/rules/<game>.md: the env's summary box, and the observation and
global-state tables, printed from the code.

Right under each page's title, between the markers ``<!-- env summary -->`` and
``<!-- end env summary -->``, a box as PettingZoo's env pages have one: the import line, the env
ids, the agents, the action and observation shapes (at the default player count), the global
state and whether the game has a Parallel env, all read from the registry and the game's class
(``summary``). A page without the box gets one under its title.

Each page also holds at least one table of each kind between the markers::

    <!-- observation layout {"num_players": 4} -->
    | piece | shape | indices | encoding |
    ...
    <!-- end observation layout -->

(``state layout`` for the global state of ``env.state()``). The marker names the game options the
table is printed for. The piece, shape and index columns come from ``game.layout`` (or
``game.state_layout``, the one source of each layout); the encoding column is the page's own
text, kept by piece name (a new piece gets an empty cell to fill in). The test suite checks that
every registered game's page has such tables and that they match the code.

    python -m deckzoo.envs.layout_docs [--root .]   # rewrite them (``make layout-tables``)
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
SUMMARY_BLOCK = re.compile(r"(<!-- env summary -->\n)(.*?)(<!-- end env summary -->)", re.DOTALL)
TITLE = re.compile(r"\A# [^\n]*\n")
_ROW = re.compile(r"^\| `([^`]+)` \|[^|]*\|[^|]*\|(.*)\|\s*$")


def notes_of(table: str) -> dict[str, str]:
    """The encoding column of a table, by piece name."""
    return {m.group(1): m.group(2).strip() for m in map(_ROW.match, table.splitlines()) if m}


def players_text(game_cls) -> str:
    """The supported player counts, runs joined: ``"2-6"``, ``"3-6, 10, 12"``."""
    runs: list[list[int]] = []
    for n in game_cls.supported_players():
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def summary_rows(game_cls) -> dict[str, str]:
    """The summary box's rows (name -> Markdown cell), from the registry and the game's class at
    its default player count."""
    game = game_cls()
    name, n = game_cls.env_name(), game.num_players
    parallel = hasattr(registry.env_module(name), "parallel_env")
    last = f"player_{n - 1}"
    return {
        "Import": f"`from deckzoo.envs import {name}`",
        "Env id": (
            f"`{name}`; PettingZoo `{registry.pettingzoo_id(game_cls)}`, "
            f"Gymnasium `{registry.gym_id(game_cls)}`"
        ),
        "Players": f"{players_text(game_cls)} (default {n})",
        "Agents": f"`player_0` ... `{last}` ({n} players)",
        "Actions": f"`Discrete({game.num_actions})`",
        "Observation": (
            f"`observation` float32 `{game.observation_shape}`, `action_mask` int8 "
            f"`({game.num_actions},)` ({n} players)"
        ),
        "Global state": f"`env.state()` float32 `{game.state_shape}` ({n} players)",
        "Parallel API": (
            f"yes: `{name}.parallel_env()`" if parallel else "no (AEC; turns are sequential)"
        ),
    }


def summary(game_cls) -> str:
    """The summary box: a two-column table of ``summary_rows``."""
    rows = summary_rows(game_cls)
    return "\n".join(["| | |", "|---|---|", *[f"| {k} | {v} |" for k, v in rows.items()]])


def refresh(text: str, game_cls) -> str:
    """``text`` with the summary box and every marked table printed again from the code (a page
    without a box gets one under its title)."""

    def table(m: re.Match, which: str) -> str:
        layout = getattr(game_cls(**json.loads(m.group(2))), which)
        return m.group(1) + layout.table(notes_of(m.group(3))) + "\n" + m.group(4)

    if not SUMMARY_BLOCK.search(text) and TITLE.match(text):
        title = TITLE.match(text).group(0)
        box = "<!-- env summary -->\n<!-- end env summary -->\n"
        text = title + "\n" + box + text[len(title) :]
    text = SUMMARY_BLOCK.sub(lambda m: m.group(1) + summary(game_cls) + "\n" + m.group(3), text)
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
