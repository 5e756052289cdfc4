"""Size by concept, measured: no Python class over 300 lines, no function over 100, and
function-local imports of cbsolve's own modules only at the heavy edges (docs/architecture.md).

The allow-lists below are the offenders of the day this test was written. They may only
shrink: an offender may not grow past its recorded size, a new one may not appear, and an
entry that is no longer an offender must be deleted (the test says so), so each split of a
class or function by responsibility lowers the list for good. The same holds for the count of
function-local imports: lower ``LOCAL_IMPORTS_ALLOWED`` to the new count whenever a change
moves imports to the top of their modules; the target is ``LOCAL_IMPORTS_TARGET``.

A heavy edge may instead be declared at the top of its module, ``x = lazy_module("cbsolve.x")``
(cbsolve/lazy.py): imported on first use, but written where a reader looks. Those declarations
are counted apart (``LAZY_MODULES_ALLOWED``, may only go down too), listed by
:func:`lazy_edges`, and allowed at a module's top only.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "cbsolve"
CLASS_LINES = 300
FUNCTION_LINES = 100

#: "module path::Class" -> its lines today (may only shrink, then leave the list).
LONG_CLASSES = {
}
#: "module path::[Class.]function" -> its lines today (may only shrink, then leave the list).
LONG_FUNCTIONS = {
}
#: ``import`` statements of cbsolve's own modules inside functions: today's count (may only
#: go down), and where it should end (imports at the top, save the heavy edges).
LOCAL_IMPORTS_ALLOWED = 112
LOCAL_IMPORTS_TARGET = 120
#: ``lazy_module(...)`` declarations at modules' tops: today's count (may only go down).
LAZY_MODULES_ALLOWED = 28


def _own(node: ast.stmt) -> bool:
    """An import of one of cbsolve's own modules (relative, or absolute ``cbsolve.``)."""
    if isinstance(node, ast.ImportFrom):
        return bool(node.level) or (node.module or "").split(".")[0] == "cbsolve"
    return isinstance(node, ast.Import) and any(a.name.split(".")[0] == "cbsolve"
                                                for a in node.names)


def measure(package: Path = PACKAGE) -> tuple[dict[str, int], dict[str, int], int]:
    """(lines of every class, lines of every function, function-local own imports) of the
    modules under ``package``; names are "path::Outer.inner" from the package's parent."""
    classes: dict[str, int] = {}
    functions: dict[str, int] = {}
    local = 0

    def walk(node: ast.AST, where: str, prefix: str, in_function: bool) -> None:
        nonlocal local
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                size = child.end_lineno - child.lineno + 1
                table = classes if isinstance(child, ast.ClassDef) else functions
                table[f"{where}::{prefix}{child.name}"] = size
                walk(child, where, f"{prefix}{child.name}.",
                     in_function or not isinstance(child, ast.ClassDef))
            else:
                local += in_function and _own(child)
                walk(child, where, prefix, in_function)

    for path in sorted(package.rglob("*.py")):
        walk(ast.parse(path.read_text(encoding="utf-8")),
             path.relative_to(package.parent).as_posix(), "", False)
    return classes, functions, local


def _lazy_call(node: ast.AST) -> str | None:
    """The module a ``lazy_module("...")`` call declares, or None for any other node."""
    if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "lazy_module"
            and node.args and isinstance(node.args[0], ast.Constant)):
        return node.args[0].value
    return None


def lazy_edges(package: Path = PACKAGE) -> tuple[list[str], list[str]]:
    """("module -> lazily imported module" for every declaration at a module's top, the
    same for declarations anywhere else: inside a function or a class, where they hide)."""
    top, hidden = [], []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(package.parent).as_posix()
        at_top = {id(node.value) for node in tree.body if isinstance(node, ast.Assign)}
        for node in ast.walk(tree):
            if (target := _lazy_call(node)) is not None and path.name != "lazy.py":
                (top if id(node) in at_top else hidden).append(f"{where} -> {target}")
    return top, hidden


def _over(sizes: dict[str, int], limit: int, allowed: dict[str, int]) -> list[str]:
    """What breaks the rule: a new offender, a listed one grown, a listed one gone."""
    problems = [f"{name}: {n} lines, over {limit} (split it by responsibility)"
                for name, n in sorted(sizes.items()) if n > limit and name not in allowed]
    problems += [f"{name}: {sizes[name]} lines, grew past the {n} it is allowed"
                 for name, n in sorted(allowed.items()) if sizes.get(name, 0) > n]
    problems += [f"{name}: no longer over {limit}: delete it from the allow-list"
                 for name in sorted(allowed) if sizes.get(name, 0) <= limit]
    return problems


def test_no_class_grows_past_300_lines():
    classes, _, _ = measure()
    assert _over(classes, CLASS_LINES, LONG_CLASSES) == []


def test_no_function_grows_past_100_lines():
    _, functions, _ = measure()
    assert _over(functions, FUNCTION_LINES, LONG_FUNCTIONS) == []


def test_function_local_imports_of_own_modules_only_go_down():
    _, _, local = measure()
    assert local <= LOCAL_IMPORTS_ALLOWED, (
        f"{local} function-local imports of cbsolve modules, more than the "
        f"{LOCAL_IMPORTS_ALLOWED} allowed: import at the top of the module")


def test_lazy_imports_are_declared_at_the_top_and_only_go_down():
    top, hidden = lazy_edges()
    assert hidden == [], "declare a lazy module at the top of its module (cbsolve/lazy.py)"
    assert len(top) <= LAZY_MODULES_ALLOWED, (
        f"{len(top)} lazy module declarations, more than the {LAZY_MODULES_ALLOWED} allowed: "
        "import at the top of the module where the cost allows:\n" + "\n".join(top))


def test_the_lazy_edges_are_found_where_they_stand(tmp_path):
    package = tmp_path / "cbsolve"
    package.mkdir()
    (package / "m.py").write_text(
        "from .lazy import lazy_module\n"
        "heavy = lazy_module('cbsolve.heavy')\n"            # at the top: listed
        "def f():\n"
        "    return lazy_module('cbsolve.hidden')\n")       # in a function: hidden
    assert lazy_edges(package) == (["cbsolve/m.py -> cbsolve.heavy"],
                                   ["cbsolve/m.py -> cbsolve.hidden"])


def test_the_measure_counts_what_it_says(tmp_path):
    package = tmp_path / "cbsolve"
    package.mkdir()
    body = "\n".join(f"        x{i} = {i}" for i in range(CLASS_LINES))
    (package / "m.py").write_text(
        "from . import a\n"                                  # top level: not counted
        "class Big:\n"
        "    def method(self):\n"
        "        from . import b\n"                          # counted
        "        import cbsolve.c\n"                         # counted
        "        import numpy\n"                             # not ours: not counted
        f"{body}\n")
    classes, functions, local = measure(package)
    assert classes == {"cbsolve/m.py::Big": CLASS_LINES + 5}
    assert functions == {"cbsolve/m.py::Big.method": CLASS_LINES + 4}
    assert local == 2
    assert _over(classes, CLASS_LINES, {}) == [
        f"cbsolve/m.py::Big: {CLASS_LINES + 5} lines, over {CLASS_LINES} (split it by "
        "responsibility)"]
    assert _over({}, CLASS_LINES, {"gone::X": 400}) == [
        f"gone::X: no longer over {CLASS_LINES}: delete it from the allow-list"]
