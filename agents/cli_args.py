"""Reading what users type: YAML values and files, ``KEY=VALUE`` options, seeds and counts, and
training configs by file or by the name of one shipped with the package; and ``terminal_safe``
for text from files on its way to the terminal.

Every function here raises ``ConfigError`` with a message fit to print as one line (the CLI
prints it and exits with status 2), never a traceback.

YAML is read as YAML 1.2 reads numbers: PyYAML follows YAML 1.1, where ``1e-4`` (no dot) is the
string "1e-4" and only ``1.0e-4`` is a float; ``load_yaml`` reads both as floats.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from deckzoo.envs.core.errors import ConfigError

# The training configs shipped with the package (deckzoo.configs). The top-level configs/ folder
# installs as deckzoo/configs beside deckzoo/agents, so this is that folder both in a checkout
# (and its editable install) and in an installed wheel, without importing anything.
CONFIGS = Path(__file__).resolve().parents[1] / "configs"
# YAML in that folder that is not a training config: the zoo policies' evaluation plan.
NOT_TRAINING = ("zoo",)


def _loader():
    import yaml

    class Loader(yaml.SafeLoader):
        """SafeLoader plus YAML 1.2's exponent floats without a dot (``1e-4``, ``3E5``)."""

    Loader.add_implicit_resolver(
        "tag:yaml.org,2002:float",
        re.compile(r"^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
        list("-+0123456789"),
    )
    return Loader


def load_yaml(text: str, where: str = "YAML"):
    """Parse ``text``; a syntax error names ``where``, the line and the column."""
    import yaml

    try:
        return yaml.load(text, Loader=_loader())
    except RecursionError:  # PyYAML composes nested collections recursively
        raise ConfigError(f"{where}: invalid YAML: nested too deeply") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        if mark is not None:
            raise ConfigError(
                f"{where}:{mark.line + 1}:{mark.column + 1}: invalid YAML: {problem}"
            ) from None
        raise ConfigError(f"{where}: invalid YAML: {problem}") from None


def parse_key_value(text: str, what: str = "option") -> tuple[str, object]:
    """``key=value`` with the value read as YAML (``3`` -> 3, ``1e-4`` -> 0.0001, ``null`` -> None,
    ``literal`` -> "literal")."""
    key, eq, value = text.partition("=")
    if not eq or not key.strip():
        raise ConfigError(f"{what} must be KEY=VALUE, got {text!r}")
    return key.strip(), load_yaml(value, f"{what} {text!r}")


def option_arg(text: str) -> tuple[str, object]:
    """argparse ``type=`` for ``--option KEY=VALUE`` (argparse turns the error into one line)."""
    try:
        return parse_key_value(text, "--option")
    except ConfigError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """The repeatable ``--option KEY=VALUE`` of the commands that make a game."""
    parser.add_argument(
        "--option",
        action="append",
        type=option_arg,
        metavar="KEY=VALUE",
        help="a game option, e.g. --option end_rule=literal (repeatable)",
    )


def add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    """``--backend local|ray`` and ``--address``: where arena games are played (the arena, and the
    strength and leaderboard benchmarks)."""
    parser.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local processes (default) or Ray tasks (needs deckzoo[ray])",
    )
    parser.add_argument(
        "--address",
        default=None,
        help="with --backend ray: the cluster to join (auto or HOST:PORT); default: a local Ray "
        "instance of --workers CPUs",
    )


def seed_arg(text: str) -> int:
    """argparse ``type=`` for seeds: an integer in 0..2**63-1 (what numpy's generators take)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number >= 0, got {text!r}") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"a seed is a whole number in 0..2**63-1, got {value}")
    return value


def count_arg(minimum: int):
    """argparse ``type=`` for counts: an integer >= ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a whole number >= {minimum}, got {text!r}"
            ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    parse.__name__ = f"integer >= {minimum}"
    return parse


def shipped_configs() -> list[str]:
    """The names of the shipped training configs (``gobig``, ``wizard-vector``, ...)."""
    return sorted(p.stem for p in CONFIGS.glob("*.yaml") if p.stem not in NOT_TRAINING)


def config_path(text: str | Path) -> Path:
    """The config file ``text`` names: a file at that path, else a shipped config by its name
    (``gobig`` or ``gobig.yaml``), so that ``deckzoo train --config gobig`` works from any folder
    after ``pip install``. ``configs/NAME.yaml``, as the docs write it for a checkout, is the
    shipped config too where no such file is under the current folder. Anything else is one
    ``ConfigError`` line listing the shipped names."""
    path = Path(text)
    if path.is_file():
        return path
    if path.exists():
        raise ConfigError(f"config {str(text)!r} is not a file")
    name = path.name.removesuffix(".yaml")
    names = shipped_configs()
    by_name = path.parent in (Path("."), Path("configs"))
    if by_name and name in names:
        return CONFIGS / f"{name}.yaml"
    why = ", and no shipped config of that name" if by_name else ""
    raise ConfigError(f"no config file {str(text)!r}{why}; shipped configs: {', '.join(names)}")


# C0 controls but tab and newline, DEL, and C1 controls: ESC (C0) and CSI (C1) start the terminal's
# escape sequences (clear the screen, set the window title, move the cursor, ...).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_OR_NEWLINE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def terminal_safe(text: str, one_line: bool = False) -> str:
    """``text`` with its control characters written out (ESC as ``\\x1b``), for printing text
    that comes from a file (a replay's names, a message quoting it) to a terminal, which would
    otherwise obey escape sequences hidden in it. ``one_line``: newlines too (an error line)."""
    pattern = _CONTROL_OR_NEWLINE if one_line else _CONTROL
    return pattern.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
