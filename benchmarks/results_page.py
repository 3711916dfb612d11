"""The layout every results page (``benchmarks/results/<name>.md``) shares, and their rewriting.

Each benchmark writes its page through ``page``: after the title come the results, the tables and
charts (narrow enough for the documentation site's column: long agent specs, file names and
method text go under the tables, not into them); then ``## How it was made``, the command, the
machine and what each column means; the lab notes (earlier runs, reruns, superseded rows, the
full command history) come last under ``## Lab notes``. mkdocs_hooks.py publishes the pages and
their PNG charts into the site; tests/core/test_docs_results.py checks the order, and that every
page is what its writer makes of its JSON.

    .venv/bin/python benchmarks/results_page.py            # rewrite every page from its JSON
    .venv/bin/python benchmarks/results_page.py peers zoo  # some pages

A result measured on an earlier version of a game than the registry's current one shows the game
with a dagger (``bigwig †``), and a note under its table names the version it was measured on
(``EnvLabels``): a table never offers an env id that cannot be made today.

Rewriting runs no games: it reads ``<name>.json`` (the zoo page: the shipped policies' metadata)
and writes ``<name>.md`` (the peers and throughput pages also refresh their sections of
docs/performance.md and docs/vector.md); the charts are left as they are.
"""

from __future__ import annotations

import fcntl
import importlib
import importlib.util
import json
import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
HOW = "## How it was made"
NOTES = "## Lab notes"
OLD_MARK = "†"  # marks a game measured on an earlier version of its env
ENV_ID = re.compile(r"\b([a-z][a-z0-9]*)_v(\d+)\b")
CHART = re.compile(r"(!\[[^\]]*\]\()([^()/\s]+\.png)\)")


def page(title: str, results: Iterable[str], how: Iterable[str], notes: Iterable[str] = ()) -> str:
    """A results page: the title, the results, ``## How it was made``, then the lab notes (if
    any). Each part is a list of Markdown lines; blank lines at their ends are dropped."""

    def trim(lines: Iterable[str]) -> list[str]:
        out = list(lines)
        while out and not out[0].strip():
            out.pop(0)
        while out and not out[-1].strip():
            out.pop()
        return out

    lines = [f"# {title}", "", *trim(results), "", HOW, "", *trim(how)]
    notes = trim(notes)
    if notes:
        lines += ["", NOTES, "", *notes]
    return "\n".join(lines) + "\n"


def merge_entry(
    results: Path,
    name: str,
    plan: dict,
    section: str,
    key: str,
    row: dict,
    write: Callable,
    before: Callable[[dict], None] | None = None,
) -> None:
    """Merge one finished entry (a cell, a run) into ``results/<name>.json`` and rewrite its page
    with ``write(data)``, under a lock: two processes may share one plan's entries, and a
    resumable benchmark must never lose a finished one to the other's write. ``before(data)``
    runs under the lock before the entry is replaced (to keep what it replaces)."""
    results.mkdir(parents=True, exist_ok=True)
    path = results / f"{name}.json"
    with open(results / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = json.loads(path.read_text()) if path.exists() else {"plan": plan, section: {}}
        data["plan"] = plan
        if before is not None:
            before(data)
        data[section][key] = row
        path.write_text(json.dumps(data, indent=2) + "\n")
        write(data)


def charts(names: Iterable[str], alt: Callable[[str], str] | None = None) -> list[str]:
    """PNG charts (file names beside the page) as one paragraph of images; the site's stylesheet
    puts two side by side. No names, no lines."""
    names = list(names)
    if not names:
        return []
    alt = alt or (lambda name: name.removesuffix(".png"))
    return [" ".join(f"![{alt(n)}]({n})" for n in names)]


def for_docs(markdown: str, docs_page: Path) -> str:
    """A results page as a section of a docs page (``update_docs``): every heading two levels
    down, and its charts linked from where the docs page is (mkdocs_hooks.py points such links
    at the site's results pages)."""
    to_results = Path(os.path.relpath(RESULTS, docs_page.resolve().parent)).as_posix()
    lines = []
    for line in markdown.splitlines():
        if line.startswith("#"):
            line = "##" + line
        lines.append(CHART.sub(lambda m: f"{m.group(1)}{to_results}/{m.group(2)})", line))
    return "\n".join(lines)


def command_history(commands: list[str]) -> list[str]:
    """A run's commands, oldest first, as lab-note lines (one item each); words around a command
    (``(2026-12-02) python ... (then merged)``) stay outside its code span."""
    if len(commands) < 2:
        return []
    return [
        f"- Commands, oldest first ({len(commands)}):",
        *[f"    1. {code_span(c)}" for c in commands],
    ]


def code_span(command: str) -> str:
    """A recorded command as a code span, the words around it (a date before it, a remark in
    parentheses after it) outside."""
    start = command.find("python ")
    head, command = command[:start] if start > 0 else "", command[max(start, 0) :]
    tail = ""
    cut = command.rfind(" (")
    if cut > 0 and command.endswith(")") and " --" not in command[cut:]:
        command, tail = command[:cut], command[cut:]
    return f"{head}`{command}`{tail}"


def current_env(env: str) -> str | None:
    """The registry's current env id of ``env``'s game (``bigwig_v0`` -> ``bigwig_v1``); None for
    an id that is not a deckzoo game's (``texas_holdem_v4``)."""
    from deckzoo.envs import registry

    m = ENV_ID.fullmatch(env)
    game = registry.games().get(m.group(1)) if m else None
    return game.env_name() if game is not None else None


class EnvLabels:
    """Env ids as a page shows them: a current id as it is, an earlier version's as its game's
    name with a dagger, remembered for the note under the table (``note``)."""

    def __init__(self) -> None:
        self.old: dict[str, str] = {}  # an earlier id -> the current one

    def label(self, env: str) -> str:
        current = current_env(env)
        if current is None or current == env:
            return env
        self.old[env] = current
        return f"{ENV_ID.fullmatch(env).group(1)} {OLD_MARK}"

    def sub(self, text: str) -> str:
        """``text`` with every env id in it shown as ``label`` shows it."""
        return ENV_ID.sub(lambda m: self.label(m.group(0)), text)

    def note(self) -> list[str]:
        """The note under a table that showed an earlier version (none: no lines)."""
        if not self.old:
            return []
        olds, currents = sorted(self.old), sorted(set(self.old.values()))
        versions = "an earlier version" if len(olds) == 1 else "earlier versions"
        return [
            "",
            (
                f"{OLD_MARK} Measured on {_and(olds)}, {versions} of today's {_and(currents)} "
                "(each game's rules page lists what changed, under Version history)."
            ),
        ]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# ---- rewriting the pages from their JSON --------------------------------------------------------
def _module(name: str):
    """The benchmark script ``benchmarks/<name>.py``, loaded from its file under a private module
    name: a bare ``import training`` would find the repository's ``training`` package when it is
    imported already (and shadow it for everyone else when it is not)."""
    private = f"_deckzoo_benchmark_{name}"
    if private in sys.modules:
        return sys.modules[private]
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))  # the scripts import their sibling modules by bare name
    spec = importlib.util.spec_from_file_location(private, HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[private] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[private]
        raise
    return module


def _json(results: Path, name: str):
    return json.loads((results / f"{name}.json").read_text())


def _strength(results: Path) -> str:
    data = _json(results, "strength")
    return _module("strength").markdown(data["rows"], data["meta"])


def _leaderboard(results: Path) -> str:
    data = _json(results, "leaderboard")
    shown = {e: r for e, r in data["envs"].items() if r["records"]}
    return _module("leaderboard").markdown({"meta": data["meta"], "envs": shown})


def _zoo(results: Path) -> str:
    zoo = _module("zoo")
    import yaml

    return zoo.report(yaml.safe_load(zoo.PLAN.read_text()), results)


def _training(results: Path) -> str:
    training = _module("training")
    return training.report_markdown(_json(results, "training"))


PAGES: dict[str, Callable[[Path], str]] = {
    "strength": _strength,
    "leaderboard": _leaderboard,
    "zoo": _zoo,
    "training": _training,
    "duplicate": lambda r: _module("duplicate").markdown(_json(r, "duplicate")),
    "exploitability": lambda r: _module("exploitability").report(_json(r, "exploitability")),
    "openspiel": lambda r: _module("openspiel").report(_json(r, "openspiel")),
    "robust_training": lambda r: _module("robust_training").report(_json(r, "robust_training")),
    "distributed": lambda r: _module("distributed").markdown(_json(r, "distributed")),
    "throughput": lambda r: _module("throughput").markdown(_json(r, "throughput")),
    "throughput_kernels_refactor": lambda r: _module("compare_throughput").report(
        _json(r, "throughput_kernels_refactor")
    ),
    "peers": lambda r: _module("peers").markdown(_json(r, "peers")),
    "evaluation": lambda r: _module("evaluation").markdown(_json(r, "evaluation")),
}
"""Each results page, as its writer makes it from the saved results in a results folder."""

DOCS_SECTIONS = {"throughput": "docs/vector.md", "peers": "docs/performance.md"}
"""The pages whose writers also print their tables into a docs page (``update_docs``)."""


def main(argv: list[str] | None = None) -> int:
    names = (argv if argv is not None else sys.argv[1:]) or list(PAGES)
    unknown = [n for n in names if n not in PAGES]
    if unknown:
        raise SystemExit(f"no results page {unknown}; the pages are {', '.join(PAGES)}")
    for name in names:
        (RESULTS / f"{name}.md").write_text(PAGES[name](RESULTS))
        print(f"wrote {RESULTS / f'{name}.md'}")
        if name in DOCS_SECTIONS:
            _module(name).update_docs(_json(RESULTS, name))
            print(f"wrote the {name} section of {DOCS_SECTIONS[name]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
