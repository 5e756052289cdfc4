"""Every Python module of the package stays under 600 lines: one concept a module, read in a
sitting (docs/architecture.md). A module that grows past it splits along its concepts."""
from pathlib import Path

ROOT = Path(__file__).parents[1]
LIMIT = 600


def lines_of(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_every_module_is_under_the_limit():
    long = {str(p.relative_to(ROOT)): lines_of(p) for p in (ROOT / "cbsolve").rglob("*.py")
            if lines_of(p) >= LIMIT}
    assert long == {}


def test_the_count_is_of_lines(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("a = 1\n" * LIMIT)
    assert lines_of(module) == LIMIT      # at the limit: the test above names it
