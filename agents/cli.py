"""The ``deckzoo`` command. Each subcommand lives in its own module exposing ``add_parser(sub)``;
modules that do not exist (yet) are skipped, so features land without touching this file."""

from __future__ import annotations

import argparse
import sys

from .registry import optional_module

SUBCOMMAND_MODULES = (
    "deckzoo.agents.demo",
    "deckzoo.agents.arena_cli",
    "deckzoo.agents.play",
    "deckzoo.agents.replay",
    "deckzoo.agents.serve",
    "deckzoo.training.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deckzoo", description="deckzoo: card-game environments for RL")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMAND_MODULES:
        mod = optional_module(name)
        if mod is not None:
            mod.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result = args.func(args)
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
