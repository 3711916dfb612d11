"""The ``deckzoo`` command. Each subcommand lives in its own module exposing ``add_parser(sub)``;
the list below is the only place a new one is named, and a module that fails to import fails the
command loudly rather than vanishing from it.

A user error (a bad option, a missing or damaged file) is one line on stderr and exit status 2,
never a traceback; Ctrl-C exits with status 130.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from pathlib import Path

from deckzoo.envs.core.errors import ConfigError

from .cli_args import terminal_safe

SUBCOMMAND_MODULES = (
    "deckzoo.agents.tools.demo",
    "deckzoo.agents.evaluation.cli",
    "deckzoo.agents.tools.play",
    "deckzoo.agents.tools.replay",
    "deckzoo.agents.tools.serve",
    "deckzoo.training.cli",
    "deckzoo.training.exploit_cli",
)


class Parser(argparse.ArgumentParser):
    """argparse with a one-line error: ``deckzoo demo: argument --games: ... (see --help)``."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def version() -> str:
    """The installed distribution's version; from a source tree that is not installed (the
    package imported by path), the checkout's pyproject.toml says it, marked as such."""
    from importlib import metadata

    try:
        return metadata.version("deckzoo")
    except metadata.PackageNotFoundError:
        pass
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    found = pyproject.is_file() and re.search(
        r'^version\s*=\s*"([^"]+)"', pyproject.read_text(encoding="utf-8"), re.MULTILINE
    )
    return f"{found.group(1)} (not installed)" if found else "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="deckzoo", description="deckzoo: card-game environments for RL")
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {version()}", help="print the version"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help="what to do")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:  # --help, or a usage error already printed as one line
        return e.code if isinstance(e.code, int) else 2
    try:
        result = args.func(args)
    except ConfigError as e:  # may quote a file's text: one line, no escape codes
        print(terminal_safe(f"deckzoo {args.command}: {e}", one_line=True), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"deckzoo {args.command}: interrupted", file=sys.stderr)
        return 130
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
