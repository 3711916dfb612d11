"""No module imports another module's private name (``from x import _y``): what one module needs
of another is public, so a module's private helpers can change without breaking its neighbours."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("envs", "agents", "training", "benchmarks", "tests")


def private_imports(source: str) -> list[tuple[int, str]]:
    """(line, name) of every ``from ... import _name`` in ``source`` (dunders are public)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            for alias in node.names:
                name = alias.name
                if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
                    found.append((node.lineno, name))
    return found


def test_the_check_finds_a_private_import():
    src = "from a import b, _c\nfrom .d import (\n    _e,\n)\nfrom __future__ import annotations\n"
    assert private_imports(src) == [(1, "_c"), (2, "_e")]
    assert private_imports("from a import __version__\nimport _thread\n") == []


def test_no_module_imports_a_private_name():
    bad = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, name in private_imports(path.read_text())
    ]
    assert not bad, "private names imported across modules:\n" + "\n".join(bad)
