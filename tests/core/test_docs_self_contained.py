"""The repository stands on its own: no file points at a path outside it (the design notes, the
rulings list or the rulebooks that deckzoo was built from), and every ruling id cited anywhere
(code, tests, docs) is defined in a docs/rules page: the first cell of a table row there, with
its reason, or a bold definition (``**MD1 [ours]**``)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
THIS = Path(__file__).resolve()

# Ruling ids: cross-game X1-X8, BigWig B.., Go Big G.., Big Number N.., Midgard M.. (M34a), Wizard
# W.., this implementation's own MD.., and fixes such as M-D1. Not inside longer words (B006,
# PCG64).
RULING = re.compile(r"(?<![\w-])(?:MD\d+|[BGMNW]-D\d+|[BGMNWX][1-9]\d?[a-z]?)(?![\w-])")
# Test names cite rulings too: test_b27_..., test_N1_..., test_g1_g2_... (every id at the start).
TEST_NAME = re.compile(r"\btest_((?:(?:md|[bgmnwx])\d+[a-z]?_)+)", re.IGNORECASE)
SECTION = re.compile(
    "\u00a7" + r"\s?\d"
)  # a section sign with a number: a section of an outside document
OUTSIDE = [
    re.compile(p)
    for p in (
        r"\.\./shared",
        r"\bshared/\w",  # any path into a folder of the workspace outside the repository
        "RUL" + r"INGS\.md",
        "DES" + r"IGN\.md",
        "STY" + r"LE\.md",
        r"(?<![\w/])seeds/\w+\.txt",
    )
]


def tracked_text_files() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    out = []
    for name in names:
        path = ROOT / name
        if path.resolve() == THIS or not path.is_file():
            continue
        try:
            path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images and other binary files
        out.append(path)
    return out


def defined_rulings() -> set[str]:
    ids = set()
    for page in (ROOT / "docs" / "rules").glob("*.md"):
        for line in page.read_text().splitlines():
            if line.startswith("|"):
                ids.update(RULING.findall(line.split("|")[1]))
            ids.update(m.group(1) for m in re.finditer(r"\*\*(" + RULING.pattern + r")", line))
    return ids


def test_no_reference_leaves_the_repository():
    found = []
    for path in tracked_text_files():
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern in [*OUTSIDE, SECTION]:
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()[:100]}")
    assert not found, "references outside the repository:\n" + "\n".join(found)


def test_every_cited_ruling_is_defined_in_the_docs():
    defined = defined_rulings()
    assert {
        "X1",
        "X8",
        "B1",
        "B38",
        "G1",
        "G15",
        "N1",
        "N15",
        "M1",
        "M51",
        "W1",
        "W13",
        "MD1",
    } <= defined
    missing = []
    for path in tracked_text_files():
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            cited = RULING.findall(line)
            for m in TEST_NAME.finditer(line):
                cited += [
                    x[:-1].upper() + x[-1] if x[-1].isalpha() and x[-2].isdigit() else x.upper()
                    for x in m.group(1).rstrip("_").split("_")
                ]
            for rid in cited:
                if rid not in defined:
                    missing.append(f"{path.relative_to(ROOT)}:{i}: {rid}")
    assert not missing, "ruling ids without a definition in docs/rules:\n" + "\n".join(missing)


def test_every_game_page_gives_each_ruling_a_reason():
    """The "Rulings and their reasons" table of each page has a non-empty reason for each row."""
    for page in sorted((ROOT / "docs" / "rules").glob("*.md")):
        text = page.read_text()
        assert "## Rulings and their reasons" in text, page.name
        table = text.split("## Rulings and their reasons", 1)[1].split("\n## ", 1)[0]
        rows = [
            r
            for r in table.splitlines()
            if RULING.fullmatch(r.split("|")[1].strip() if r.startswith("|") else "")
        ]
        assert len(rows) >= 10, page.name
        for row in rows:
            cells = [c.strip() for c in row.strip("|").split("|")]
            assert len(cells) == 3 and all(cells), (page.name, row)
