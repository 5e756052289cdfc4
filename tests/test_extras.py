"""The core works without the extras (pyproject.toml), and a feature whose package is missing
says in one line which extra installs it (exit 2).

The extras are hidden from a child interpreter by a path finder that answers "not found" for
their import names (as in a venv without them: ``find_spec`` gives None, ``import`` raises
ModuleNotFoundError); the child runs each command through the CLI in process and reports the
exit codes and output as JSON. scripts/build/check_install.sh does the same in a real venv.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cbsolve.extras import EXTRAS, MissingExtra, missing_message, require

REPO = Path(__file__).resolve().parents[1]
TREES = REPO / "tests" / "fixtures" / "trees"

HIDE = """
import sys
from importlib.machinery import PathFinder

HIDDEN = {hidden!r}


class _Hide(PathFinder):
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.partition(".")[0] in HIDDEN:
            return None
        return super().find_spec(name, path, target)


sys.meta_path[sys.meta_path.index(PathFinder)] = _Hide
"""

#: Runs each argv through cbsolve's CLI in this process: {"code", "out", "err"} a command.
CHILD = """
import contextlib, io, json, sys
from cbsolve.cli import main
results = []
for argv, stdin in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.StringIO(stdin)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    results.append({"code": code, "out": out.getvalue(), "err": err.getvalue()})
hidden = sorted({m.partition(".")[0] for m in sys.modules} & set(%r))
print(json.dumps({"results": results, "imported": hidden}))
"""

#: A hard log (N=20 of 26 letters, 10 clues; tests/test_dfs.py): the search's probe lists no
#: secret, so auto would ask CP-SAT (bounded lists) or PySAT (whole lists).
HARD = ["--length", "20", "--letters", "26", "--repeats"]


def run_hidden(tmp_path: Path, commands: list[tuple[list[str], str]],
               hidden=tuple(EXTRAS)) -> tuple[list[dict], list[str]]:
    (tmp_path / "sitecustomize.py").write_text(HIDE.format(hidden=set(hidden)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), str(REPO)] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
    proc = subprocess.run([sys.executable, "-c", CHILD % (list(hidden),), json.dumps(commands)],
                          capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    doc = json.loads(proc.stdout.splitlines()[-1])
    return doc["results"], doc["imported"]


def hard_log_entries() -> list[str]:
    import string

    from cbsolve.game.feedback import random_log
    from cbsolve.game.variant import Variant

    log, _ = random_log(Variant(20, string.ascii_uppercase, True), 10, 0)
    return log.tokens()


def test_the_core_works_without_any_extra(tmp_path):
    tree = tmp_path / "tree.json"
    commands = [
        (["score", "1807", "7810"], ""),
        (["consistent", "0123:1,2", "4567:0,1", "--count"], ""),
        (["consistent", "0123:1,2", "4567:0,2"], ""),                     # "none": exit 1
        (["consistent", "--length", "10", "--digits", "10", "--repeats", "0123456789:3,4",
          "--count", "--json"], ""),                                      # the search counts
        (["next", "0123:1,2", "4567:0,1"], ""),
        (["optimal", "--length", "3", "--digits", "6", "--out", str(tree)], ""),
        (["verify", str(tree)], ""),
        (["evaluate", "--length", "3", "--digits", "6", "--strategy", "minimax"], ""),
        (["bounds", "--length", "3", "--digits", "5", "--time-limit", "20"], ""),
        (["play", "--mode", "guess", "--secret", "1234"], "1234\n"),
        (["consistent", *HARD, *hard_log_entries(), "--limit", "3", "--time-limit", "3",
          "--json"], ""),
    ]
    results, imported = run_hidden(tmp_path, commands)
    codes = [r["code"] for r in results]
    assert codes == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], [r["err"] for r in results]
    assert imported == []
    assert "exactly 108 consistent secrets" in results[1]["out"]
    assert "1 bull, 3 cows" in results[0]["out"]
    assert "worst case 5 is therefore optimal" in results[6]["out"]
    assert "found my secret in 1 guess" in results[9]["out"]
    # auto without the solvers: the native search goes on, and the reason names the extra
    hard = json.loads(results[10]["out"])
    assert hard["backend"] == "native" and "cbsolve[cpsat]" in hard["auto"]["reason"]


@pytest.mark.parametrize(("argv", "extra", "package"), [
    (["consistent", "0123:1,2", "--backend", "cpsat", "--count"], "cpsat", "ortools"),
    (["consistent", "0123:1,2", "--backend", "sat", "--count", "--json"], "sat", "python-sat"),
    (["static", "--length", "2", "--digits", "3"], "sat", "python-sat"),
    (["verify", str(TREES / "mm-2-3.yml"), "--variant", "mastermind", "--length", "2",
      "--digits", "3"], "yaml", "pyyaml"),
    (["analyze", "--lengths", "2", "--alphabets", "3", "--strategies", "first", "--workers", "0",
      "--out", "{tmp}/sweep"], "plots", "matplotlib"),
    (["optimal", "--length", "2", "--digits", "3", "--scheduler", "local", "--workers", "1"],
     "dask", "dask[distributed]"),
])
def test_a_missing_extra_is_one_line_naming_it(tmp_path, argv, extra, package):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    [r], _ = run_hidden(tmp_path, [(argv, "")])
    lines = r["err"].strip().splitlines()
    assert r["code"] == 2 and len(lines) == 1, r
    assert f"pip install 'cbsolve[{extra}]'" in lines[0] and f"the {package} package" in lines[0]
    if extra == "sat":
        assert "not the unrelated 'pysat'" in lines[0]
    assert r["out"] == ""


def test_a_wrong_pysat_package_is_named(tmp_path):
    """`pip install pysat` installs another project under the same import name: the message
    says which module it lacks."""
    fake = tmp_path / "fake"
    (fake / "pysat").mkdir(parents=True)
    (fake / "pysat" / "__init__.py").write_text("")
    sys.path.insert(0, str(fake))
    saved = {k: v for k, v in sys.modules.items() if k.partition(".")[0] == "pysat"}
    for k in saved:
        del sys.modules[k]
    try:
        with pytest.raises(MissingExtra) as caught:
            require("pysat.solvers", "the SAT backend")
    finally:
        sys.path.remove(str(fake))
        for k in [k for k in sys.modules if k.partition(".")[0] == "pysat"]:
            del sys.modules[k]
        sys.modules.update(saved)
    message = str(caught.value)
    assert message.startswith(missing_message("pysat.solvers", "the SAT backend"))
    assert "'pysat' lacks 'pysat.solvers'" in message and "\n" not in message


def test_require_returns_an_installed_extra_and_knows_only_extras():
    yaml = pytest.importorskip("yaml")
    assert require("yaml", "reading YAML") is yaml
    with pytest.raises(KeyError):
        missing_message("numpy", "anything")


def test_an_import_outlasting_the_deadline_is_left_to_finish_in_the_background(tmp_path,
                                                                             monkeypatch):
    """OR-Tools' import (0.4-1 s) cannot be stopped: a stop request made while it runs is
    answered at once (False), and the import still ends, in its thread."""
    import threading

    from cbsolve.runtime.deadline import UNLIMITED, Deadline, request_stop
    from cbsolve.extras import imported_within

    gate = threading.Event()
    monkeypatch.setattr(sys, "_cbsolve_import_gate", gate, raising=False)
    (tmp_path / "cbsolve_slow_import.py").write_text(
        "import sys\nsys._cbsolve_import_gate.wait(60)\nVALUE = 7\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "cbsolve_slow_import", raising=False)
    threading.Timer(0.2, request_stop).start()
    assert imported_within("cbsolve_slow_import", UNLIMITED) is False
    assert imported_within("json", Deadline(0.0)) is False       # expired: not even started
    gate.set()
    from cbsolve.runtime.deadline import clear_stop

    clear_stop()
    assert imported_within("cbsolve_slow_import", UNLIMITED) is True
    assert sys.modules["cbsolve_slow_import"].VALUE == 7
