"""MkDocs hooks for the documentation site (``mkdocs.yml`` names this file under ``hooks``).

What the site needs that MkDocs and mkdocstrings cannot do from configuration alone:

* **The package, where mkdocstrings looks for it.** The folders ``envs/``, ``agents/`` and
  ``training/`` install as ``deckzoo.envs``, ``deckzoo.agents`` and ``deckzoo.training``
  (``package-dir`` in pyproject.toml), so no folder is named ``deckzoo``. mkdocstrings reads the
  source without importing it (griffe) and finds a package by its folder's name, which it cannot
  do here. ``on_config`` builds a temporary folder ``deckzoo/`` whose three entries are links to
  those folders and makes it the Python handler's search path; nothing is imported and nothing
  is written into the repository.
* **The measured results.** The benchmarks write ``benchmarks/results/<name>.md`` and their
  charts (``<name>.png``, ``<name>.<game>.png``), outside ``docs/``; copying them there would
  leave two versions to drift apart. ``on_files`` publishes them as they are, as the site's
  ``results/<name>.md`` and ``results/<chart>.png`` (a page's ``![...](<chart>.png)`` then
  resolves beside it), and ``on_page_markdown`` points the docs' links and images to them
  (``../benchmarks/results/training.md``, right on GitHub) at those pages, so a link to a result
  or a chart that does not exist still fails the strict build.
* **Docstrings as they read.** The docstrings are written as plain text (for ``help()`` and
  editors) in a reStructuredText habit: a literal block announced by ``::``, or a heading line
  with its indented table right under it (``Options``, ``Actions (23 ids)`` in each engine).
  ``ReadableDocstrings``, a griffe extension (mkdocs.yml lists it for the Python handler), shows
  those blocks as code, as in the source, rather than run together into one paragraph.
* **GitHub's nested lists.** GitHub nests a list indented by two spaces under the item above it,
  Python-Markdown only one indented by four, so ``on_page_markdown`` indents such nested items by
  four (the docs stay as they read on GitHub).
"""

from __future__ import annotations

import os
import posixpath
import re
import shutil
import tempfile
from pathlib import Path

import griffe
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent
PACKAGE_DIRS = ("envs", "agents", "training")
RESULTS_DIR = ROOT / "benchmarks" / "results"
RESULTS_IN_REPO = "benchmarks/results/"  # as a path from the repository root
RESULTS_ON_SITE = "results/"  # as a path from docs_dir
NESTED_ITEM = re.compile(r"^ {1,3}(?=(?:[-*+]|\d+[.)]) )")
LINK = re.compile(r"\]\(([^)\s#]+\.(?:md|png))(#[^)\s]*)?\)")
RESULT_FILES = ("*.md", "*.png")  # the pages and their charts

GOOGLE_SECTION = re.compile(
    r"^(Args|Arguments|Attributes|Parameters|Returns|Raises|Yields|Warns|"
    r"Examples?|Notes?|Warnings?|Other Parameters):$"
)
LIST_ITEM = re.compile(r"^(?:[-*+]|\d+[.)]) ")

_source_root: str | None = None


@event_priority(100)  # before mkdocstrings, whose on_config starts the Python handler
def on_config(config):
    """Build the ``deckzoo/`` folder of links and make it the Python handler's search path."""
    global _source_root
    _source_root = tempfile.mkdtemp(prefix="deckzoo-docs-")
    package = Path(_source_root, "deckzoo")
    package.mkdir()
    for name in PACKAGE_DIRS:
        os.symlink(ROOT / name, package / name, target_is_directory=True)
    python = config.plugins["mkdocstrings"].config.handlers.setdefault("python", {})
    python["paths"] = [_source_root, *python.get("paths", [])]
    return config


def on_shutdown():
    """Remove the folder of links."""
    if _source_root is not None:
        shutil.rmtree(_source_root, ignore_errors=True)


def on_files(files, config):
    """Publish ``benchmarks/results/*.md`` and their PNG charts as the site's ``results/``."""
    for path in sorted(p for pattern in RESULT_FILES for p in RESULTS_DIR.glob(pattern)):
        files.append(
            File(
                RESULTS_ON_SITE + path.name,
                src_dir=str(RESULTS_DIR.parent),
                dest_dir=config.site_dir,
                use_directory_urls=config.use_directory_urls,
            )
        )
    return files


def on_page_markdown(markdown, page, config, files):
    """Point the links and images to ``benchmarks/results/<name>`` (a page or a chart) at the
    site's ``results/<name>``."""
    if page.file.src_uri.startswith(RESULTS_ON_SITE):
        return markdown
    page_dir = posixpath.dirname(page.file.src_uri)

    def repoint(match: re.Match) -> str:
        target, anchor = match.group(1), match.group(2) or ""
        in_repo = posixpath.normpath(posixpath.join("docs", page_dir, target))
        if "://" in target or not in_repo.startswith(RESULTS_IN_REPO):
            return match.group(0)
        on_site = RESULTS_ON_SITE + in_repo[len(RESULTS_IN_REPO) :]
        return f"]({posixpath.relpath(on_site, page_dir or '.')}{anchor})"

    return nest_lists(LINK.sub(repoint, markdown))


def nest_lists(markdown: str) -> str:
    """Indent by four the list items indented by one to three spaces right under another line
    (outside fenced code), so that Python-Markdown nests them as GitHub does."""
    lines = markdown.split("\n")
    fenced = False
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and i and lines[i - 1].strip() and NESTED_ITEM.match(line):
            lines[i] = "    " + line.lstrip(" ")
    return "\n".join(lines)


def literal_blocks(text: str) -> str:
    """A docstring's plain-text blocks as Markdown code blocks.

    A line indented by four or more right under an unindented line that is neither a list item
    nor a Google-style section title (``Args:``, which the docstring parser reads) starts a
    block: a blank line before it makes Markdown show it as code instead of running it into the
    paragraph above. reStructuredText's ``text::`` becomes ``text:`` and a lone ``::`` goes. A
    first line that is a usage line (``deckzoo arena GAME [--games N] ...``) becomes code, since
    Markdown reads its brackets as links.
    """
    out: list[str] = []
    lines = text.split("\n")
    if lines[0].startswith("deckzoo ") and "[" in lines[0] and "`" not in lines[0]:
        lines[0] = f"``{lines[0]}``"
    for line in lines:
        prev = out[-1] if out else ""
        starts_block = (
            line.startswith("    ")
            and prev.strip()
            and not prev.startswith(" ")
            and not GOOGLE_SECTION.match(prev)
            and not LIST_ITEM.match(prev)
        )
        if starts_block:
            out.append("")
        if line.strip() == "::":
            line = ""
        elif line.endswith("::") and not line.startswith(" "):
            line = line[:-1]
        out.append(line)
    return "\n".join(out)


class ReadableDocstrings(griffe.Extension):
    """Griffe extension: every docstring through ``literal_blocks`` before it is parsed."""

    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = literal_blocks(obj.docstring.value)
