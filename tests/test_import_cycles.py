"""No import circle anywhere in cbsolve/: every module's imports, function-local ones included,
form a graph without cycles, so the package reads in one direction (docs/architecture.md,
"Data flow")."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "cbsolve"


def modules(package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of ``package`` (a directory)."""
    found = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that ``name`` imports anywhere in its body, function bodies
    included; ``from pkg import x`` imports ``pkg.x`` when that is a module, else ``pkg``."""
    is_package = path.name == "__init__.py"
    targets = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".")
                parts = parts[:len(parts) - node.level + is_package]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.add(sub if sub in known else base)
    return {t for t in targets if t in known and t != name}


def import_graph(package: Path) -> dict[str, set[str]]:
    known = modules(package)
    return {name: imports(name, path, known) for name, path in known.items()}


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (first == last), or None."""
    state: dict[str, int] = {}          # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_a_function_local_import_circle_is_found(tmp_path):
    """The walk sees imports inside functions, relative and absolute, and reports the circle."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from .a import f\n")
    (pkg / "sub" / "a.py").write_text("def f():\n    from . import b\n    return b\n")
    (pkg / "sub" / "b.py").write_text("def g():\n    from pkg.sub.a import f\n    return f\n")
    (pkg / "c.py").write_text("from .sub import a\n")
    graph = import_graph(pkg)
    assert graph["pkg.sub.a"] == {"pkg.sub.b"} and graph["pkg.sub.b"] == {"pkg.sub.a"}
    assert graph["pkg.c"] == {"pkg.sub.a"} and graph["pkg.sub"] == {"pkg.sub.a"}
    assert cycle(graph) == ["pkg.sub.a", "pkg.sub.b", "pkg.sub.a"]
    (pkg / "sub" / "b.py").write_text("def g():\n    return 1\n")
    assert cycle(import_graph(pkg)) is None


def test_no_import_cycle_in_cbsolve():
    graph = import_graph(PACKAGE)
    assert sum(map(len, graph.values())) > len(graph)      # the walk found the imports
    found = cycle(graph)
    assert found is None, " -> ".join(found)
