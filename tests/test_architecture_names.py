"""docs/architecture.md is where a newcomer finds where to change what: every file path and every
qualified name it cites (`cbsolve/search/worst/`, `advisor/exact_cost.py`,
`time_policy.search_seconds`, `cb.regret`, `PositionService.review`) must exist, so a rename
that forgets the page fails here instead of sending a reader to nothing. Read by parsing, not
importing: the check costs no solver start-up."""
from __future__ import annotations

import ast
import builtins
import fnmatch
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"

#: A cited path: ends in a file suffix or a slash; may hold a glob (`bench_*.py`) or a brace
#: list (`search_expected*.{cpp,hpp}`). Relative paths (`worst/third.py`) name a file's tail.
PATH = re.compile(r"^[\w./*{},-]+(\.(py|cpp|hpp|sh|json|toml|yml|md|gz)|/)$")
#: A qualified name: a module (dotted or by its path tail) and a name in it, maybe called.
QUALIFIED = re.compile(r"^((?:[a-z_]\w*[./])+)([A-Za-z_]\w*)(\(.*\))?$")
#: A class, or a class's member: `PositionService`, `PositionService.review`, `Solver.prepare`.
CLASS_NAME = re.compile(r"^([A-Z][a-z]\w*[a-z]\w*)(\.(\w+))?$")
#: A function by its call: `run_interruptible`, `stop_reasons()`.
FUNCTION = re.compile(r"^([a-z]+_\w+)(\(\))?$")
#: Illustrations on the page, not names in the code.
EXAMPLES = {"a.b.c", "a/__init__", "a/b/__init__"}


def cited() -> list[str]:
    return sorted(set(re.findall(r"`([^`\n]+)`", PAGE.read_text())))


@cache
def repo_files() -> tuple[str, ...]:
    skip = {".git", "__pycache__", ".benchmarks"}
    return tuple(path for p in ROOT.rglob("*") if p.is_file()
                 and not skip.intersection(p.relative_to(ROOT).parts)
                 and not (path := p.relative_to(ROOT).as_posix()).startswith("build/"))


def path_exists(cited_path: str) -> bool:
    files = repo_files()
    braces = re.search(r"\{([^}]*)\}", cited_path)
    patterns = ([cited_path.replace(braces.group(0), alt) for alt in braces.group(1).split(",")]
                if braces else [cited_path])
    for pattern in patterns:
        if pattern.endswith("/"):
            found = any(("/" + f).find("/" + pattern) >= 0 for f in files)
        else:
            found = any(fnmatch.fnmatchcase(f, pattern) or fnmatch.fnmatchcase(f, "*/" + pattern)
                        for f in files)
        if not found:
            return False
    return True


@cache
def modules() -> dict[str, str]:
    """'cbsolve/search/worst' -> its file, for every Python module of the package."""
    found = {}
    for f in repo_files():
        if f.startswith("cbsolve/") and f.endswith(".py"):
            parts = f[:-3].split("/")
            found["/".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return found


@cache
def defined_in(file: str) -> frozenset[str]:
    """Every name a module binds: functions, classes, assignments (module, class and `self.`
    attributes, enum members) and imports."""
    names = set()
    for node in ast.walk(ast.parse((ROOT / file).read_text())):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                for part in ast.walk(target):
                    if isinstance(part, ast.Name):
                        names.add(part.id)
                    elif isinstance(part, ast.Attribute):
                        names.add(part.attr)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


@cache
def native_text() -> str:
    return "\n".join((ROOT / f).read_text() for f in repo_files()
                     if f.startswith("cbsolve/_native/") and f.endswith((".cpp", ".hpp")))


def defined_anywhere(name: str) -> bool:
    """In the package, its build, its scripts or its native sources."""
    python = [*modules().values(), "setup.py",
              *(f for f in repo_files() if f.startswith("scripts/") and f.endswith(".py"))]
    return (any(name in defined_in(f) for f in python)
            or re.search(rf"\b{re.escape(name)}\b", native_text()) is not None)


def public_name(name: str) -> bool:
    """`cb.X` / `cbsolve.X`: a name the package exports (eagerly or on first use), a module, or
    a package pyproject maps into it (`cbsolve.models`)."""
    init = (ROOT / "cbsolve" / "__init__.py").read_text()
    return (name in defined_in("cbsolve/__init__.py") or f'"{name}"' in init
            or f"cbsolve/{name}" in modules() or (ROOT / "cbsolve" / name).is_dir()
            or f'"cbsolve.{name}"' in (ROOT / "pyproject.toml").read_text())


def problem(token: str) -> str | None:
    """Why a cited token names nothing, or None when it names something (or is no name)."""
    word = token.split()[0]
    if token in EXAMPLES:
        return None
    if PATH.match(word):
        return None if path_exists(word) else "no such file or directory"
    if match := QUALIFIED.match(token):
        module, name = match.group(1)[:-1].replace(".", "/"), match.group(2)
        if module in ("cb", "cbsolve"):
            return None if public_name(name) else "not a public name of cbsolve"
        module = module.removeprefix("cbsolve/")
        files = [f for key, f in modules().items()
                 if key == f"cbsolve/{module}" or key.endswith(f"/{module}")]
        if not files:
            native = any(f.endswith(f"_native/{module.split('/')[-1]}.cpp") for f in repo_files())
            if native:
                return None if defined_anywhere(name) else f"{name} not in the native module"
            return None          # the standard library (`os._exit`, `functools.cache`)
        submodule = ROOT / "cbsolve" / module / name
        if submodule.with_suffix(".py").is_file() or submodule.is_dir():
            return None          # a module of a package (`cbsolve.runtime.isa`)
        return None if any(name in defined_in(f) for f in files) else f"{name} not in {files}"
    match = CLASS_NAME.match(token) or FUNCTION.match(token)
    if match and " " not in token:
        names = [match.group(1)] + ([match.group(3)] if CLASS_NAME.match(token) and
                                    match.group(3) else [])
        missing = [n for n in names if not defined_anywhere(n) and not hasattr(builtins, n)]
        return f"{missing} defined nowhere" if missing else None
    return None


def test_every_cited_path_and_name_exists():
    tokens = cited()
    assert len(tokens) > 200, "the page's citations were not found: the pattern drifted"
    missing = {t: why for t in tokens if (why := problem(t))}
    assert not missing, missing


def test_the_check_catches_a_stale_citation():
    assert problem("cbsolve/search/no_such_module.py")
    assert problem("advisor/no_such_file.py")
    assert problem("time_policy.NO_SUCH_SHARE")
    assert problem("cb.no_such_function")
    assert problem("PositionService.no_such_method")
    assert problem("no_such_function()")
    assert problem("time_policy.search_seconds") is None
    assert problem("cb.regret") is None
