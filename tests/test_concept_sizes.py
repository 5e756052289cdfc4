"""Size by concept, measured: no Python class over 300 lines, no function over 100, and
function-local imports of cbsolve's own modules only at the heavy edges (docs/architecture.md).

The allow-lists below are the offenders of the day this test was written. They may only
shrink: an offender may not grow past its recorded size, a new one may not appear, and an
entry that is no longer an offender must be deleted (the test says so), so each split of a
class or function by responsibility lowers the list for good. The same holds for the count of
function-local imports: lower ``LOCAL_IMPORTS_ALLOWED`` to the new count whenever a change
moves imports to the top of their modules; the target is ``LOCAL_IMPORTS_TARGET``.
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
LOCAL_IMPORTS_ALLOWED = 198
LOCAL_IMPORTS_TARGET = 120


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
