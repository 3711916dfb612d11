"""The documentation site (mkdocs.yml) builds with warnings as errors, as `make docs` builds it.

A strict build fails on a broken link or anchor, a page missing from the nav, and an API object
(``::: deckzoo...`` in docs/api/) that does not exist, so this is where `make test` notices that a
rename broke the docs. Skipped, saying so, only where the ``docs`` extra is not installed.
Beside the build: each game's page is in the nav with its screenshot and names every option, and
the hooks of mkdocs_hooks.py do what they say.
"""

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from deckzoo.envs import registry

ROOT = Path(__file__).resolve().parents[2]
DOCS_EXTRA = ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python")


def _missing_docs_extra() -> list[str]:
    return [
        name
        for name in DOCS_EXTRA
        if importlib.util.find_spec(name.split(".")[0]) is None
        or importlib.util.find_spec(name) is None
    ]


needs_docs_extra = pytest.mark.skipif(
    bool(_missing_docs_extra()),
    reason=f"the docs extra is not installed (missing {', '.join(_missing_docs_extra())}): "
    "pip install -e '.[docs]'",
)


def _load_hooks():
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", ROOT / "mkdocs_hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _nav_pages(nav) -> list[str]:
    """Every page path in mkdocs.yml's nav, however deep."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, dict):
        return [p for value in nav.values() for p in _nav_pages(value)]
    return [p for item in nav for p in _nav_pages(item)]


# One build on one worker (about 15 s on a loaded 2-core machine); the rest of the suite runs
# on the other worker meanwhile.
@pytest.mark.xdist_group("docs_site")
@needs_docs_extra
def test_site_builds_strictly(tmp_path):
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stderr[-4000:]}"
    assert (site / "index.html").exists()
    # Search from disk (file://): the index as a script, the worker shim from the site itself.
    assert (site / "search" / "search_index.js").exists(), "no search index for file://"
    assert "unpkg.com" not in (site / "index.html").read_text(encoding="utf-8")
    engine_page = (site / "api" / "engine.html").read_text(encoding="utf-8")
    assert "IllegalActionError" in engine_page, "the API pages hold no generated reference"
    # The results pages' charts are published beside them (a missing one fails the build).
    charts = sorted(p.name for p in (ROOT / "benchmarks" / "results").glob("*.png"))
    assert charts and all((site / "results" / c).is_file() for c in charts)
    assert 'src="throughput.png"' in (site / "results" / "throughput.html").read_text("utf-8")


def test_every_game_has_a_page_in_the_nav_with_its_screenshot():
    """A game's page is its rules page, in the site's nav, with the replay page's picture."""
    yaml = pytest.importorskip("yaml")
    nav = _nav_pages(yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"])
    for game in registry.games():
        assert f"rules/{game}.md" in nav, f"mkdocs.yml's nav lacks docs/rules/{game}.md"
        assert (ROOT / "docs" / "viewer" / f"{game}.png").exists(), f"no screenshot of {game}"
        page = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
        assert f"](../viewer/{game}.png)" in page, f"docs/rules/{game}.md lacks its screenshot"


def test_every_option_of_a_game_is_named_on_its_page():
    """The game's page says what each of its options does: each is named there, as code."""
    for name, game_cls in registry.games().items():
        page = (ROOT / "docs" / "rules" / f"{name}.md").read_text()
        unnamed = [o.name for o in game_cls.OPTIONS if not re.search(rf"`{o.name}\b", page)]
        assert not unnamed, f"docs/rules/{name}.md does not name the options {unnamed}"


@needs_docs_extra
def test_nested_list_items_are_indented_as_python_markdown_nests_them():
    hooks = _load_hooks()
    after_blank_line_and_in_code = "\n\n  - not nested\n```\n  - code\n```"
    text = "- a turn:\n  1. bank\n  2. play\n     more\n- end" + after_blank_line_and_in_code
    assert hooks.nest_lists(text) == (
        "- a turn:\n    1. bank\n    2. play\n     more\n- end" + after_blank_line_and_in_code
    )


@needs_docs_extra
def test_links_to_benchmark_results_point_at_the_site_pages():
    hooks = _load_hooks()

    class Page:
        class file:
            src_uri = "rules/gobig.md"

    text = (
        "[t](../../benchmarks/results/training.md#vector) [s](../viewer.md) "
        "[w](https://example.org/benchmarks/results/x.md) "
        "![c](../../benchmarks/results/peers.png) ![v](../viewer/gobig.png)"
    )
    assert hooks.on_page_markdown(text, Page, None, None) == (
        "[t](../results/training.md#vector) [s](../viewer.md) "
        "[w](https://example.org/benchmarks/results/x.md) "
        "![c](../results/peers.png) ![v](../viewer/gobig.png)"
    )


@needs_docs_extra
def test_plain_text_blocks_of_docstrings_show_as_code():
    hooks = _load_hooks()
    doc = (
        "Options\n    end_rule  when the game ends\n    start_player  who begins\n"
        "Args:\n    x: a value\n* item\n    continued\nUsage::\n\n    make()\n::\n\n    b()"
    )
    assert hooks.literal_blocks(doc) == (
        "Options\n\n    end_rule  when the game ends\n    start_player  who begins\n"
        "Args:\n    x: a value\n* item\n    continued\nUsage:\n\n    make()\n\n\n    b()"
    )


@needs_docs_extra
def test_a_usage_line_shows_as_code():
    hooks = _load_hooks()
    assert hooks.literal_blocks("deckzoo arena GAME [--games N] [--out DIR]\n\nPlays.") == (
        "``deckzoo arena GAME [--games N] [--out DIR]``\n\nPlays."
    )
    assert hooks.literal_blocks("deckzoo environments.") == "deckzoo environments."
