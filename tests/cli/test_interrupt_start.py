"""Ctrl-C during start-up (importing the CLI or the command's modules, a few tenths of a second
and more on a loaded machine) ends as any interrupt does: one line, exit 130, the stub document
for --json; it printed a traceback. The interrupt is made to land in a chosen import, so the
test does not depend on when a signal would arrive."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A child that raises KeyboardInterrupt when `module` is imported, then runs `python -m cbsolve`.
CHILD = """
import runpy, sys
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            raise KeyboardInterrupt
sys.meta_path.insert(0, Interrupt())
sys.argv = ["cbsolve", *{args!r}]
runpy.run_module("cbsolve", run_name="__main__", alter_sys=True)
"""


def run_interrupted_at(module: str, args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD.format(module=module, args=args)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("module", ["click", "cbsolve.cli.static"])
def test_ctrl_c_in_an_import_is_one_line_and_exit_130(module):
    done = run_interrupted_at(module, ["static", "--length", "4"])
    assert done.returncode == 130
    assert done.stderr.splitlines() == ["cbsolve: interrupted"], done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("module", ["click", "cbsolve.cli.static"])
def test_ctrl_c_in_an_import_with_json_prints_the_stub(module):
    done = run_interrupted_at(module, ["static", "--length", "4", "--json"])
    assert done.returncode == 130 and "Traceback" not in done.stderr
    assert json.loads(done.stdout) == {"command": "static", "interrupted": True,
                                       "complete": False}
