"""Every passage a rules page presents as a rulebook quote is word for word in that game's
rulebook, so a reader can trust a quote without opening the rulebook.

The convention (also stated in docs/rules/rulebooks/README.md):

- Each page docs/rules/<game>.md cites its rulebook with a link to ``rulebooks/<game>.txt``, the
  rulebook's text kept verbatim in the repository; quotes are checked against that file.
- On a rules page, text in double quotes ("..." or the curly pair) is a quote from the rulebook,
  wherever it stands (prose, the rulings tables' "why" columns, the "what" columns). Not quotes:
  text in code spans, code blocks and HTML comments; the title of a section of the same page, a
  heading or a list item's bold title (a cross-reference); the source labels the page defines
  ("Rulebook", "decision", ...). Names of actions and data values go in code spans.
- A quote from another source carries that source's label before it in the same table cell
  (outside tables: the same line), written as ``Wizard: "..."`` or ``Wizard ("...")``; the last
  label before a quote decides, and "rulebook and Odin: " counts as the rulebook.
- A paraphrase has no quote marks.

The comparison normalises only whitespace (any run is one space), the case of the first letter of
each fragment, and ellipses: "..." or the ellipsis character splits a quote into fragments that
must each occur, in this order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
BOOKS = RULES / "rulebooks"

# The labels a page's legend defines for the sources of its reasons, quoted where defined.
LABELS = {"rulebook", "decision", "synthetic", "published", "odin", "wizard", "openspiel"}
CITATION = re.compile(r"\]\((rulebooks/(\w+)\.txt)\)")
QUOTE = re.compile(r'"([^"]*)"|\u201c([^\u201d]*)\u201d')
# A section of the page: a heading (its trailing "(M42)" optional) or a list item's bold title.
TITLE = re.compile(r"^(?:#+\s+(.+?)(?:\s+\([^()]*\))?|\s*[-*]\s+\*\*(.+?)\*\*.*)$", re.MULTILINE)
CODE_BLOCK = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
ITEM = re.compile(r"(?:[-*]|\d+\.|#+)\s")  # a list item or a heading starts a new segment
ELLIPSIS = re.compile(r"\.\.\.|\u2026")
# A source label: the rulebook, or another source written as a label (a colon, or a parenthesis
# opening on the quote). "rulebook and Odin: " names the rulebook too.
RULEBOOK_LABEL = re.compile(r"\b[Rr]ulebook")
OTHER_LABEL = re.compile(
    r"(?<!rulebook and )\b(?:Wizard|Odin|OpenSpiel|published)(?::|\s\((?=[\"\u201c]))"
)


def normal(text: str) -> str:
    """One space for every run of whitespace: line breaks and tables in the rulebook text do not
    change its words."""
    return " ".join(text.split())


def occurs(fragment: str, book: str, start: int) -> int:
    """The end of the first occurrence of ``fragment`` in ``book`` at or after ``start``, its first
    letter in either case (a quote may begin mid-sentence or start a sentence); -1 if none."""
    fragment = normal(fragment)
    variants = {fragment, fragment[:1].lower() + fragment[1:], fragment[:1].upper() + fragment[1:]}
    ends = [i + len(v) for v in variants if (i := book.find(v, start)) >= 0]
    return min(ends, default=-1)


def quoted_exactly(quote: str, book: str) -> bool:
    """Whether every fragment of ``quote`` between ellipses occurs in ``book``, in order. The
    earliest end of each fragment leaves the most room for the next one, so a greedy scan is
    exact."""
    book = normal(book)
    position = 0
    fragments = [f for f in ELLIPSIS.split(quote) if f.strip()]
    if not fragments:
        return False
    for fragment in fragments:
        position = occurs(fragment.strip(), book, position)
        if position < 0:
            return False
    return True


def blank(match: re.Match) -> str:
    """Spaces for the matched text, its line breaks kept, so that line numbers stay right."""
    return re.sub(r"[^\n]", " ", match.group(0))


def segments(text: str) -> list[tuple[int, str]]:
    """(first line number, segment) for the page's text outside code and comments: each cell of a
    table row, or else a paragraph or list item (a quote may wrap onto the next line). A quote's
    source label counts only inside its segment."""
    text = CODE_SPAN.sub(blank, COMMENT.sub(blank, CODE_BLOCK.sub(blank, text)))
    out: list[tuple[int, str]] = []
    prose: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if prose and (not stripped or stripped.startswith("|") or ITEM.match(stripped)):
            out.append((number - len(prose), "\n".join(prose)))
            prose = []
        if stripped.startswith("|"):
            out += [(number, cell) for cell in stripped.strip("|").split("|")]
        elif stripped:
            prose.append(line)
    if prose:
        out.append((len(text.splitlines()) + 1 - len(prose), "\n".join(prose)))
    return out


def rulebook_quotes(page: str) -> list[tuple[int, str]]:
    """(line number, quote) for every passage ``page`` presents as a rulebook quote."""
    titles = {normal(m.group(1) or m.group(2)).lower() for m in TITLE.finditer(page)}
    quotes = []
    for first, segment in segments(page):
        if (segment.count('"') % 2) or segment.count("\u201c") != segment.count("\u201d"):
            raise ValueError(f"line {first}: unbalanced quote marks in {normal(segment)!r}")
        for match in QUOTE.finditer(segment):
            number = first + segment.count("\n", 0, match.start())
            quote = match.group(1) if match.group(1) is not None else match.group(2)
            if normal(quote).lower() in titles | LABELS:
                continue
            before = segment[: match.start() + 1]  # the label's parenthesis opens on the quote
            labels = [(m.start(), True) for m in RULEBOOK_LABEL.finditer(before)]
            labels += [(m.start(), False) for m in OTHER_LABEL.finditer(before)]
            if labels and not max(labels)[1]:
                continue  # attributed to another source
            quotes.append((number, quote))
    return quotes


def misquotes(page: str, book: str) -> list[tuple[int, str]]:
    """The rulebook quotes of ``page`` that ``book`` does not contain word for word."""
    return [(n, q) for n, q in rulebook_quotes(page) if not quoted_exactly(q, book)]


def cited_rulebook(page: Path) -> Path:
    """The rulebook file the page links to (exactly one)."""
    cited = {m.group(1) for m in CITATION.finditer(page.read_text(encoding="utf-8"))}
    assert len(cited) == 1, f"{page.name} must link to one rulebooks/<game>.txt, found {cited}"
    return RULES / cited.pop()


PAGES = sorted(RULES.glob("*.md"))


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_every_rulebook_quote_occurs_in_the_cited_rulebook(page):
    book = cited_rulebook(page)
    assert book == BOOKS / f"{page.stem}.txt", f"{page.name} cites {book.name}"
    assert book.is_file(), f"{page.name} cites {book}, which is missing"
    wrong = misquotes(page.read_text(encoding="utf-8"), book.read_text(encoding="utf-8"))
    assert not wrong, f"{page.name}: not word for word in {book.name}:\n" + "\n".join(
        f"  line {n}: {q!r}" for n, q in wrong
    )


def test_every_rulebook_has_its_page():
    books = {p.stem for p in BOOKS.glob("*.txt")}
    assert books == {p.stem for p in PAGES}
    assert (BOOKS / "README.md").is_file()


def test_only_the_rules_pages_quote_rulebooks():
    """A rulebook quote elsewhere in docs/ would escape the check: the other pages may mention the
    rulebook, but not on a line with a quote."""
    found = []
    for path in sorted((ROOT / "docs").glob("*.md")):
        for number, segment in segments(path.read_text(encoding="utf-8")):
            if RULEBOOK_LABEL.search(segment) and QUOTE.search(segment):
                found.append(f"{path.name}:{number}: {segment.strip()[:100]}")
    assert not found, "rulebook quotes outside docs/rules:\n" + "\n".join(found)


# The checker itself, on a small rulebook and deliberately wrong quotes.

BOOK = """Setup

1. Shuffle all the number cards and deal 6 cards to each player.
The tallest player goes first.  Still tied?   Share the victory."""


def test_checker_reports_a_misquote_and_accepts_exact_quotes():
    page = (
        "# Game\n\n## Rulings\n\n| id | what | why |\n|---|---|---|\n"
        '| G1 | six each | rulebook: "deal 6 cards to each player" |\n'
        '| G2 | start | rulebook: "the shortest player goes first" |\n'
    )
    assert misquotes(page, BOOK) == [(8, "the shortest player goes first")]


def test_checker_normalises_only_whitespace_first_letter_and_ellipses():
    assert quoted_exactly("the tallest player goes first", BOOK)  # first letter's case
    assert quoted_exactly("Still tied? Share", BOOK)  # a run of spaces
    assert quoted_exactly("all the number cards and\ndeal 6", BOOK)  # a line break
    assert quoted_exactly("Shuffle all ... deal 6 cards \u2026 goes first", BOOK)
    assert not quoted_exactly("goes first ... Shuffle all", BOOK)  # fragments out of order
    assert not quoted_exactly("THE tallest player", BOOK)  # only the first letter
    assert not quoted_exactly("deal six cards to each player", BOOK)  # one word changed
    assert not quoted_exactly("deal 6 cards to each player!", BOOK)  # punctuation counts
    assert not quoted_exactly("...", BOOK)  # nothing quoted


def test_checker_skips_code_headings_labels_and_other_sources():
    page = (
        "# Game\n\n## Rulings and their reasons\n\n"
        '"Rulebook" means the rulebook\'s text; "decision" that this project chose.\n'
        'See "Rulings and their reasons". The action `"draw 2"`.\n'
        '<!-- layout {"num_players": 4} -->\n'
        "| X | what | why |\n"
        '| W3 | deal | rulebook, and Wizard ("high card deals") |\n'
        '| W4 | trump | Wizard: "any card"; rulebook: "The tallest player" |\n'
        '| N6 | beat | rulebook and Odin: "highest card" |\n'
        '```\n"inside a code block"\n```\n'
    )
    assert rulebook_quotes(page) == [(10, "The tallest player"), (11, "highest card")]


def test_checker_rejects_unbalanced_quote_marks():
    with pytest.raises(ValueError, match="line 3"):
        rulebook_quotes('# Game\n\nthe rulebook says "deal 6 cards\n')
