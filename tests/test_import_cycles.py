"""No import circle anywhere in cbsolve/: every module's imports, function-local ones included,
form a graph without cycles, so the package reads in one direction (docs/architecture.md,
"Data flow"). Importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first, so those
packages count as imported too (except the importer's own packages, which ran before it)."""
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
    included; ``from pkg import x`` imports ``pkg.x`` when that is a module, else ``pkg``; a
    ``lazy_module("pkg.x")`` declaration imports ``pkg.x`` (when first used)."""
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
        elif (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "lazy_module"
              and node.args and isinstance(node.args[0], ast.Constant)):
            targets.add(node.args[0].value)     # a declared lazy import (cbsolve/lazy.py)
    found = {t for t in targets if t in known}
    own = set(parents(name)) | {name}
    for target in list(found):
        found.update(p for p in parents(target) if p in known)
    return found - own


def parents(name: str) -> list[str]:
    """The packages whose ``__init__`` runs before module ``name``: ``a.b.c`` -> a, a.b."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


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
    assert graph["pkg.c"] == {"pkg.sub", "pkg.sub.a"} and graph["pkg.sub"] == {"pkg.sub.a"}
    assert cycle(graph) == ["pkg.sub.a", "pkg.sub.b", "pkg.sub.a"]
    (pkg / "sub" / "b.py").write_text("def g():\n    return 1\n")
    assert cycle(import_graph(pkg)) is None


def test_a_declared_lazy_import_is_an_import(tmp_path):
    """``lazy_module("pkg.b")`` (cbsolve/lazy.py) at a module's top is an edge like any import,
    so a circle through it is found."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text('from cbsolve.lazy import lazy_module\nb = lazy_module("pkg.b")\n')
    (pkg / "b.py").write_text("from . import a\n")
    graph = import_graph(pkg)
    assert graph["pkg.a"] == {"pkg.b"}
    assert cycle(graph) == ["pkg.a", "pkg.b", "pkg.a"]


def test_a_package_init_closes_a_circle(tmp_path):
    """Importing ``pkg.y.a`` runs ``pkg/y/__init__``: when that imports ``pkg.x``, which
    imports ``pkg.y.a``, the walk reports the circle through the package; a module's own
    packages (which ran before it) make no edge."""
    pkg = tmp_path / "pkg"
    for sub in ("x", "y"):
        (pkg / sub).mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "x" / "__init__.py").write_text("def f():\n    from pkg.y.a import g\n    return g\n")
    (pkg / "y" / "__init__.py").write_text("from .. import x\n")
    (pkg / "y" / "a.py").write_text("from . import b\ndef g():\n    return 1\n")
    (pkg / "y" / "b.py").write_text("from pkg.y import a\n")
    graph = import_graph(pkg)
    assert graph["pkg.x"] == {"pkg.y", "pkg.y.a"}
    assert graph["pkg.y.b"] == {"pkg.y.a"}          # pkg.y is b's own package
    assert cycle(graph) == ["pkg.x", "pkg.y", "pkg.x"]
    (pkg / "y" / "__init__.py").write_text("")
    (pkg / "y" / "b.py").write_text("")
    assert cycle(import_graph(pkg)) is None


def test_no_import_cycle_in_cbsolve():
    graph = import_graph(PACKAGE)
    assert sum(map(len, graph.values())) > len(graph)      # the walk found the imports
    found = cycle(graph)
    assert found is None, " -> ".join(found)


#: The data flow of docs/architecture.md, left to right: a module imports only from its own
#: column or the columns to its left. The modules of the concept packages ``game`` and
#: ``certificates`` take their own columns (the game's rules come first, its symmetry later).
#: Beside the flow (anyone may import them): time and the machine (``runtime``), errors, the
#: inputs' caps, extras, lazy, the argument checks, the Gymnasium ids and the native kernels.
FLOW = [
    {"variant"},
    {"codes", "patterns", "capacity", "guess_pool"},
    {"rule", "scoring"},
    {"feedback"},
    {"consistency"},
    {"tree", "certify", "certify_orbits", "settle_bound", "claims", "certified"},
    {"strategy", "search", "symmetry", "stabilizer"},
    {"bounds", "formats"},
    {"advisor"},
    {"puzzles"},
    {"cli", "play", "analysis", "api", "api_results", "gym", "integrations", "__main__"},
]
BESIDE = {"", "runtime", "errors", "inputs", "extras", "_native", "lazy", "arguments",
          "gym_registration", "data"}
#: Packages whose modules stand in the flow one by one.
CONCEPT_PACKAGES = {"game", "certificates"}
#: docs/architecture.md, "Search, layer by layer": cbsolve/search/ the same way.
SEARCH_LAYERS = [
    {"result"},
    {"memory", "reply_matrix"},
    {"options"},
    {"setup"},
    {"expected"},
    {"worst"},
    {"checkpoint"},
    {"position"},
    {"distributed"},
    {""},                   # the face
]


def column(name: str, columns: list[set[str]], depth: int) -> int | None:
    parts = name.split(".") + [""] * (depth + 1)
    part = parts[depth]
    if columns is FLOW and part in CONCEPT_PACKAGES and parts[depth + 1]:
        part = parts[depth + 1]
    return next((i for i, names in enumerate(columns) if part in names), None)


def test_nothing_imports_to_its_left():
    graph = import_graph(PACKAGE)
    for top in {m.split(".")[1] for m in graph if "." in m} | {""}:
        assert top in BESIDE or top in CONCEPT_PACKAGES or column(f"cbsolve.{top}", FLOW, 1) \
            is not None, f"{top} has no column"
    for m in graph:
        if m.count(".") == 2 and m.split(".")[1] in CONCEPT_PACKAGES:
            assert column(m, FLOW, 1) is not None, f"{m} has no column"
    wrong = [f"{m} -> {t}" for m, targets in graph.items() for t in targets
             if (a := column(m, FLOW, 1)) is not None and (b := column(t, FLOW, 1)) is not None
             and b > a]
    assert wrong == []


def test_the_search_wing_imports_only_from_its_own_layer_or_above():
    graph = import_graph(PACKAGE)
    inside = {m: t for m, t in graph.items() if m.startswith("cbsolve.search")}
    for m in inside:
        assert column(m, SEARCH_LAYERS, 2) is not None, f"{m} has no layer"
    wrong = [f"{m} -> {t}" for m, targets in inside.items() for t in targets
             if t.startswith("cbsolve.search")
             and column(t, SEARCH_LAYERS, 2) > column(m, SEARCH_LAYERS, 2)]
    assert wrong == []


def test_no_test_imports_another_test():
    """Shared helpers live in tests/testkit.py or a conftest, never in a test module."""
    wrong = []
    for path in sorted(Path(__file__).resolve().parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            wrong += [f"{path.name}: {n}" for n in names if n.split(".")[-1].startswith("test_")]
    assert wrong == []
