"""The module design of a game folder, checked from its source (docs/adding-a-game.md):

* no import circle among the folder's modules (``from .x import``, ``from . import x`` and
  ``import`` statements anywhere in a module, type-only ones included);
* no forwarding methods: a method whose whole body (its docstring aside) hands ``self`` (or all
  its parameters) to a function of a sibling module (``return text.render(self, observer)``), or
  a class attribute that is one (``_draw = wells.draw``), is what ``State``'s
  ``FUNCTION_MODULES`` and modules of functions make unnecessary;
* no mixins: a State is one class of the rules module; the rest of a game is modules of
  functions over the state.
"""

from __future__ import annotations

import ast
from pathlib import Path


def sibling_imports(folder: Path) -> dict[str, set[str]]:
    """Module name -> the sibling modules it imports (relative imports of level 1)."""
    names = {p.stem for p in folder.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    deps.add(node.module.split(".")[0])
                else:
                    deps.update(a.name for a in node.names)
        graph[path.stem] = {d for d in deps if d in names and d != path.stem}
    graph.pop("__init__", None)
    for deps in graph.values():
        deps.discard("__init__")
    return graph


def import_cycles(folder: Path) -> list[list[str]]:
    """Every import circle of the folder's modules, each as the path that closes it."""
    graph = sibling_imports(folder)
    cycles, done = [], set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            cycles.append([*path[path.index(node) :], node])
            return
        if node in done:
            return
        for dep in sorted(graph.get(node, ())):
            visit(dep, [*path, node])
        done.add(node)

    for node in sorted(graph):
        visit(node, [])
    return cycles


def forwarding_methods(folder: Path) -> list[str]:
    """``module.Class.method`` of every method that only hands ``self`` to a sibling's function."""
    siblings = {p.stem for p in folder.glob("*.py")}
    found = []
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text())
        imported = set()  # names bound from sibling modules, and the sibling modules themselves
        for node in ast.walk(tree):
            local = isinstance(node, ast.ImportFrom) and node.level == 1
            if local and (not node.module or node.module.split(".")[0] in siblings):
                imported.update(a.asname or a.name for a in node.names)
        modules = {  # sibling modules bound by ``from . import x``
            a.asname or a.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 1 and not node.module
            for a in node.names
        }
        for cls in [n for n in tree.body if isinstance(n, ast.ClassDef)]:
            for item in cls.body:
                if isinstance(item, ast.FunctionDef) and _forwards(item, imported):
                    found.append(f"{path.stem}.{cls.name}.{item.name}")
                elif isinstance(item, ast.Assign) and _aliases(item.value, modules):
                    names = [t.id for t in item.targets if isinstance(t, ast.Name)]
                    found += [f"{path.stem}.{cls.name}.{name}" for name in names]
    return found


def _aliases(value: ast.expr, modules: set[str]) -> bool:
    """A class attribute that is a sibling module's function (``_draw = wells.draw``): a
    forward without the method around it."""
    return (
        isinstance(value, ast.Attribute)
        and isinstance(value.value, ast.Name)
        and value.value.id in modules
    )


def _forwards(fn: ast.FunctionDef, imported: set[str]) -> bool:
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if len(body) != 1 or not isinstance(body[0], (ast.Return, ast.Expr)):
        return False
    call = body[0].value
    if not isinstance(call, ast.Call) or not fn.args.args:
        return False
    params = [a.arg for a in fn.args.args]  # self or cls first
    f = call.func
    root = f.value if isinstance(f, ast.Attribute) else f
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name) or root.id not in imported:
        return False
    args = [a.id if isinstance(a, ast.Name) else None for a in call.args]
    # hands self (or cls) on, or hands every other parameter on as they came
    return bool(args) and (args[0] == params[0] or args == params[1:])


def mixin_bases(folder: Path) -> list[str]:
    """``module.Class(Base)`` for every class whose base is a class of a sibling module other
    than the game's own rules (a State split into mixins, instead of modules of functions)."""
    siblings = {p.stem for p in folder.glob("*.py")}
    found = []
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text())
        mixins = set()
        for node in ast.walk(tree):
            local = isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
            if local and node.module.split(".")[0] in siblings - {"rules"}:
                mixins.update(a.asname or a.name for a in node.names if "Mixin" in a.name)
        for cls in [n for n in tree.body if isinstance(n, ast.ClassDef)]:
            for base in cls.bases:
                if isinstance(base, ast.Name) and (base.id in mixins or "Mixin" in base.id):
                    found.append(f"{path.stem}.{cls.name}({base.id})")
    return found
