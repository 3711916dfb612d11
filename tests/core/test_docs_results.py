"""What the documentation site promises its reader, beyond building strictly (test_docs_site.py).

* Search works with ``site/index.html`` opened from disk (README.md says to open it so).
* Every results page (benchmarks/results/*.md) opens with its tables and charts, narrow enough
  for the site's column, then says how it was made; lab notes come last; each page is what its
  writer in benchmarks/ makes of its saved results, so rerunning a benchmark keeps that order.
* No heading names an issue number.
* The docs and results name each game's current env id; an earlier one only where a result was
  measured (or a policy trained) on it, or in a history section.
* Each game's page opens with its env summary, as the env made from the registry is.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
RESULT_PAGES = sorted(RESULTS.glob("*.md"))
HOW = "## How it was made"
NOTES = "## Lab notes"
MAX_COLUMNS = 10  # more do not fit the site's text column at 1280 px, even wrapped
MAX_WORD = 40  # characters of a cell's longest word (a long spec goes under the table)

yaml = pytest.importorskip("yaml")


def _mkdocs_config() -> dict:
    return yaml.safe_load((ROOT / "mkdocs.yml").read_text())


def _plugin_names(config: dict) -> list[str]:
    return [p if isinstance(p, str) else next(iter(p)) for p in config.get("plugins", [])]


def test_search_works_from_disk():
    """From ``file://`` Material shows its search box only when the index comes as a script
    (the ``offline`` plugin writes ``search/search_index.js``) and a Web Worker can start, which
    needs the iframe-worker shim; the plugin would load that from unpkg.com, which a reader
    without a network cannot reach, so the site carries its own copy."""
    config = _mkdocs_config()
    plugins = _plugin_names(config)
    assert "search" in plugins and "offline" in plugins, (
        "mkdocs.yml: search from disk needs Material's offline plugin beside search"
    )
    assert config.get("use_directory_urls") is False, "pages must be files (rules/gobig.html)"
    shims = [p for p in config.get("extra", {}).get("polyfills", []) if "iframe-worker" in p]
    assert shims, "mkdocs.yml: extra.polyfills lists no iframe-worker shim (unpkg.com is used)"
    for shim in shims:
        assert "://" not in shim, f"the shim {shim} is loaded from the network"
        assert (ROOT / "docs" / shim).is_file(), f"docs/{shim} is missing"


def _results_page_module():
    """benchmarks/results_page.py, which knows each page's writer (benchmarks/ is no package)."""
    name = "deckzoo_bench_results_page"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "results_page.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _blocks(text: str) -> list[str]:
    """The page's blocks (paragraphs, tables, headings), blank-line separated, outside code."""
    text = re.sub(r"```.*?```", "```code```", text, flags=re.DOTALL)
    return [b.strip() for b in re.split(r"\n\s*\n", text) if b.strip()]


def _tables(text: str) -> list[list[str]]:
    """Each Markdown table's rows (header and body, not the separator)."""
    return [
        [row for row in block.splitlines() if not re.fullmatch(r"\|[-:| ]+\|", row)]
        for block in _blocks(text)
        if block.startswith("|")
    ]


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def test_there_are_results_pages():
    assert {p.stem for p in RESULT_PAGES} >= {"strength", "leaderboard", "training", "peers"}


@pytest.mark.parametrize("page", RESULT_PAGES, ids=lambda p: p.stem)
def test_a_results_page_opens_with_its_results_then_says_how_they_were_made(page):
    text = page.read_text()
    title, first, *rest = _blocks(text)
    assert title.startswith("# ") and "\n" not in title, f"{page.name}: no title line first"
    assert first.startswith(("|", "![")), (
        f"{page.name}: the first block after the title is not a table or a chart but {first[:80]!r}"
    )
    headings = [b for b in rest if b.startswith("## ")]
    assert HOW in headings, f"{page.name}: no '{HOW}' section"
    if NOTES in headings:
        assert headings.index(NOTES) > headings.index(HOW), f"{page.name}: lab notes before {HOW}"
        assert headings[-1] == NOTES, f"{page.name}: a section after the lab notes"


@pytest.mark.parametrize("page", RESULT_PAGES, ids=lambda p: p.stem)
def test_a_results_page_shows_its_charts_before_how_they_were_made(page):
    """Every chart a benchmark wrote beside its page (``<page>.png``, ``<page>.<game>.png``) is
    on the page, among the results."""
    text = page.read_text()
    results = text[: text.index(HOW)] if HOW in text else text
    charts = sorted(p.name for p in RESULTS.glob(f"{page.stem}*.png"))
    charts = [c for c in charts if c.split(".")[0] == page.stem]
    missing = [c for c in charts if f"]({c})" not in results]
    assert not missing, f"{page.name} does not show the charts {missing} above '{HOW}'"


@pytest.mark.parametrize("page", RESULT_PAGES, ids=lambda p: p.stem)
def test_a_results_page_has_tables_that_fit_the_column(page):
    """At most MAX_COLUMNS columns, and no cell word longer than MAX_WORD characters: with the
    site's stylesheet such a table wraps inside the text column rather than scrolling sideways."""
    for table in _tables(page.read_text()):
        columns = len(_cells(table[0]))
        assert columns <= MAX_COLUMNS, f"{page.name}: a table of {columns} columns: {table[0]}"
        for row in table:
            for cell in _cells(row):
                word = max(cell.split(), key=len, default="")
                assert len(word) <= MAX_WORD, f"{page.name}: a cell word too long: {word}"


def test_the_site_stylesheet_wraps_tables():
    css = [c for c in _mkdocs_config().get("extra_css", []) if (ROOT / "docs" / c).is_file()]
    assert css, "mkdocs.yml names no stylesheet of docs/ under extra_css"
    text = " ".join((ROOT / "docs" / c).read_text() for c in css)
    assert re.search(r"table:not\(\[class\]\)\s+td[^{]*\{[^}]*overflow-wrap", text), (
        "the stylesheet does not let table cells wrap"
    )


@pytest.mark.parametrize("name", [p.stem for p in RESULT_PAGES])
def test_a_results_page_is_what_its_writer_makes_of_the_saved_results(name):
    """Regenerating a page from its JSON (``python benchmarks/results_page.py``, no games run)
    gives the committed page: the layout lives in the writers, not in hand edits."""
    pages = _results_page_module().PAGES
    assert name in pages, f"benchmarks/results_page.py does not know the writer of {name}.md"
    assert pages[name](RESULTS) == (RESULTS / f"{name}.md").read_text(), (
        f"benchmarks/results/{name}.md differs from its writer's output: "
        f"python benchmarks/results_page.py {name}"
    )


def test_a_page_writer_is_found_whatever_else_is_named_like_its_script(monkeypatch):
    """benchmarks/training.py shares its name with the repository's training/ folder: which one a
    bare ``import training`` finds depends on what ran before (a CI run once failed on it)."""
    import types

    rp = _results_page_module()
    monkeypatch.setitem(sys.modules, "training", types.ModuleType("training"))
    monkeypatch.delitem(sys.modules, "_deckzoo_benchmark_training", raising=False)
    assert rp.PAGES["training"](RESULTS) == (RESULTS / "training.md").read_text()
    assert not hasattr(sys.modules["training"], "report_markdown")  # nothing was shadowed


@pytest.mark.parametrize("name", ["throughput", "peers"])
def test_a_docs_section_printed_by_a_benchmark_is_its_page(name):
    rp = _results_page_module()
    docs = ROOT / rp.DOCS_SECTIONS[name]
    text = docs.read_text()
    begin, end = f"<!-- {name}.py results: begin -->", f"<!-- {name}.py results: end -->"
    section = text[text.index(begin) + len(begin) : text.index(end)].strip()
    assert section == rp.for_docs(rp.PAGES[name](RESULTS), docs).strip(), (
        f"the {name} section of {docs.name} is not its results page"
    )


ISSUE_REF = re.compile(r"#\d+|\bissues?\s+\d+", re.IGNORECASE)


def _site_sources() -> list[Path]:
    """Every Markdown file the site shows: docs/ and the results pages."""
    return sorted((ROOT / "docs").rglob("*.md")) + RESULT_PAGES


def _headings(text: str) -> list[str]:
    """The Markdown headings (ATX, outside fenced code)."""
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    return [line for line in text.splitlines() if re.match(r"#{1,6} ", line)]


def test_no_heading_names_an_issue_number():
    """Headings are the reader's outline; the tracker's issue numbers mean nothing to a reader
    (a section can say in its text which issue it answers)."""
    found = [
        f"{path.relative_to(ROOT)}: {heading}"
        for path in _site_sources()
        for heading in _headings(path.read_text())
        if ISSUE_REF.search(heading)
    ]
    assert not found, "headings that name an issue:\n" + "\n".join(found)


# ---- env versions --------------------------------------------------------------------------------
HISTORY = re.compile(r"#{2,6} (How it was made|Lab notes|Version history)\s*$")
SAYS_OLD = re.compile(r"\b(measured|trained) on\b", re.IGNORECASE)


def _old_env_ids() -> re.Pattern:
    """Every earlier version's env id of a registered game (``bigwig_v0`` while ``bigwig_v1`` is
    current), as ``name_vN`` or PettingZoo's ``name-vN``."""
    from deckzoo.envs import registry

    old = [
        f"{name}[_-]v{k}" for name, game in registry.games().items() for k in range(game.version)
    ]
    return re.compile(r"\b(?:" + "|".join(old) + r")\b") if old else re.compile(r"(?!x)x")


def _units_outside_history(text: str) -> list[str]:
    """The page's sentences and table cells, outside its history sections (a results page's
    "How it was made" and "Lab notes", which quote the commands that were run; a rules page's
    "Version history") and outside headings."""
    kept, history_level = [], None
    for line in text.splitlines():
        heading = re.match(r"(#{1,6}) ", line)
        if heading:
            level = len(heading.group(1))
            if history_level is not None and level <= history_level:
                history_level = None
            if HISTORY.match(line):
                history_level = level
            kept.append("")
        elif history_level is None:
            kept.append(line)
    units = []
    for block in re.split(r"\n\s*\n", "\n".join(kept)):
        if block.lstrip().startswith("|"):
            units += [cell for row in block.splitlines() for cell in _cells(row)]
        else:
            units += re.split(r"(?<=[.!?])\s+(?=[A-Z0-9(*`†])", " ".join(block.split()))
    return units


def test_an_earlier_env_version_is_named_only_as_where_a_result_was_measured():
    """The docs and results name each game's current env id. An earlier one (``bigwig_v0``) may
    appear only (1) in a history section (see ``_units_outside_history``), or (2) in a sentence or
    table cell that says the result was "measured on" or "trained on" it, before naming it; and
    never in a heading. A table of results measured on an earlier version shows the game with a
    dagger and says so under it (benchmarks/results_page.py, ``EnvLabels``)."""
    old = _old_env_ids()
    found = []
    for path in _site_sources():
        text = path.read_text()
        where = path.relative_to(ROOT)
        found += [f"{where}: heading {h}" for h in _headings(text) if old.search(h)]
        for unit in _units_outside_history(text):
            for m in old.finditer(unit):
                if not SAYS_OLD.search(unit[: m.start()]):
                    found.append(f"{where}: {m.group(0)} in {unit[:120]!r}")
    assert not found, "earlier env versions named as envs:\n" + "\n".join(found)


# ---- the env summary of each game's page --------------------------------------------------------
SUMMARY = re.compile(r"<!-- env summary -->\n(.*?)<!-- end env summary -->", re.DOTALL)


def _game_names() -> list[str]:
    from deckzoo.envs import registry

    return list(registry.games())


@pytest.mark.parametrize("game", _game_names())
def test_a_game_page_opens_with_its_env_summary_as_the_env_is(game):
    """Under the title, PettingZoo's kind of box: import line, env ids, agents, action and
    observation shapes at the default player count, global state, Parallel API; each checked here
    against an env made from the registry (``make layout-tables`` prints the box)."""
    from deckzoo.envs import registry

    page = ROOT / "docs" / "rules" / f"{game}.md"
    if not page.exists():  # a game folder added beside the others (the sixth-game test's Tiny)
        pytest.skip(f"{game} has no rules page in this repository's docs/rules")
    text = page.read_text()
    box = SUMMARY.search(text)
    assert box, f"{page.name} has no env summary (run `make layout-tables`)"
    assert _blocks(text)[1].startswith("<!-- env summary -->"), f"{page.name}: not under the title"
    rows = {cells[0]: cells[1] for cells in map(_cells, box.group(1).splitlines()[2:])}
    name = registry.game_class(game).env_name()
    env = registry.make(name)
    agent = env.possible_agents[0]
    actions = env.action_space(agent).n
    observation = env.observation_space(agent)["observation"].shape
    mask = env.observation_space(agent)["action_mask"].shape
    parallel = hasattr(registry.env_module(name), "parallel_env")
    assert rows["Import"] == f"`from deckzoo.envs import {name}`"
    assert getattr(importlib.import_module("deckzoo.envs"), name).env  # the line imports
    assert f"`{name}`" in rows["Env id"] and f"`{registry.pettingzoo_id(name)}`" in rows["Env id"]
    assert f"`{env.possible_agents[-1]}`" in rows["Agents"]
    assert f"({len(env.possible_agents)} players)" in rows["Agents"]
    assert rows["Actions"] == f"`Discrete({actions})`"
    assert f"`observation` float32 `{observation}`" in rows["Observation"]
    assert f"`action_mask` int8 `{mask}`" in rows["Observation"]
    assert f"`{env.state_space.shape}`" in rows["Global state"]
    assert rows["Parallel API"].startswith("yes" if parallel else "no")
