"""The public API (cbsolve/api.py, the lazy names of cbsolve/__init__.py): light to import,
typed, and every result's ``to_json()`` equal to the CLI's ``--json`` document."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

import cbsolve as cb
from cbsolve.cli import main
from cbsolve.runtime.deadline import Deadline

ROOT = Path(__file__).resolve().parents[1]
#: Fields that measure time: they differ between two runs of the same question.
TIMING = {"seconds", "choose_seconds", "solve_seconds", "diagnose_seconds",
          "native_estimate_seconds"}



#: A game of the size the anytime tests need that neither a shipped tree nor the atlas closes.
OUTSIDE_THE_ATLAS = cb.Variant(4, "01234567", repeats=False, no_leading_zero=True)

def untimed(doc):
    if isinstance(doc, dict):
        return {k: untimed(v) for k, v in doc.items() if k not in TIMING}
    if isinstance(doc, list):
        return [untimed(v) for v in doc]
    return doc


def cli_json(capsys, *args) -> dict:
    code = main([*args, "--json"])
    out, _ = capsys.readouterr()
    assert code in (0, 1), out
    return json.loads(out)


def test_import_loads_no_numpy_and_no_solver():
    # a decision about the import graph, not a timing: the rules only, every other name lazy
    code = ("import sys, cbsolve;"
            "heavy = [m for m in ('numpy', 'ortools', 'pysat', 'click', 'dask') if m in sys.modules];"
        "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_every_public_name_resolves():
    assert set(cb._LAZY) | {"bounds"} <= set(cb.__all__)     # the list cannot drift
    assert not set(cb._OPTIONAL) & set(cb.__all__)         # `import *` needs no extra
    for name in cb.__all__:
        assert getattr(cb, name) is not None, name
    # no submodule shadows a function (importing cbsolve.X binds X on the package);
    # cbsolve.bounds, the subpackage, answers the call itself
    assert all(callable(getattr(cb, name)) for name in cb._LAZY)
    assert cb.bounds("mastermind", search=False, strategies=False).worst.lower == 5
    with pytest.raises(AttributeError):
        cb.no_such_name  # noqa: B018
    assert set(cb.__all__) <= set(dir(cb))


def test_py_typed_is_shipped():
    assert (ROOT / "cbsolve" / "py.typed").is_file()
    text = (ROOT / "pyproject.toml").read_text()
    assert '"py.typed"' in text        # package data: wheels carry the marker


@pytest.mark.parametrize("args, call", [
    (("score", "1807", "7810"), lambda: cb.score("1807", "7810")),
    (("score", "1122", "1212", "--variant", "black-peg"),
     lambda: cb.score("1122", "1212", variant="black-peg")),
    # the CLI's default time limit is 30 s, the API's none: --time-limit 0 asks the same
    (("consistent", "0123:1,2", "4567:0,1", "--count", "--limit", "5", "--time-limit", "0"),
     lambda: cb.consistent(["0123:1,2", "4567:0,1"], count=True, limit=5)),
    (("consistent", "0123:1,2", "4567:0,2", "--count", "--limit", "0", "--time-limit", "0"),
     lambda: cb.diagnose(["0123:1,2", "4567:0,2"])),
    (("next", "0123:1,2", "4567:0,1", "--strategy", "entropy"),
     lambda: cb.next_guess(["0123:1,2", "4567:0,1"], strategy="entropy")),
    (("next", "1122:1,1", "3344:0,1", "--variant", "mastermind", "--strategy", "optimal"),
     lambda: cb.next_guess(["1122:1,1", "3344:0,1"], variant="mastermind", strategy="optimal")),
    (("evaluate", "--strategy", "parts", "--variant", "mastermind", "--length", "3"),
     lambda: cb.evaluate("parts", variant=cb.Variant(3, "123456", repeats=True))),
    # optimal on one worker: the node counts of a parallel search vary from run to run
    (("optimal", "1122:1,1", "--variant", "mastermind", "--objective", "expected",
      "--workers", "1"),
     lambda: cb.optimal(["1122:1,1"], variant="mastermind", objective="expected", workers=1)),
    (("optimal", "--variant", "mastermind", "--length", "3", "--digits", "4", "--workers", "1"),
     lambda: cb.optimal(variant=cb.Variant(3, "1234", repeats=True), workers=1)),
    (("bounds", "--variant", "mastermind", "--no-search", "--time-limit", "0"),
     lambda: cb.bounds("mastermind", search=False)),
    (("consistent", "0123:1,2", "4567:0,2", "--max-lies", "1", "--limit", "3", "--time-limit", "0"),
     lambda: cb.consistent(["0123:1,2", "4567:0,2"], max_lies=1, limit=3)),
    (("evaluate", "--strategy", "minimax", "--variant", "mastermind", "--sample", "40", "--seed", "3"),
     lambda: cb.evaluate("minimax", variant="mastermind", sample=40, seed=3)),
    (("evaluate", "--strategy", "entropy", "--variant", "mastermind", "--no-symmetry"),
     lambda: cb.evaluate("entropy", variant="mastermind", symmetry=False)),
    (("partition", "1122", "--variant", "mastermind", "--time-limit", "0"),
     lambda: cb.partition("1122", variant="mastermind", members=False)),
    (("partition", "0145", "0123:1,2", "--time-limit", "0"),
     lambda: cb.partition("0145", ["0123:1,2"], members=False)),
    (("optimal", "--variant", "mastermind", "--length", "3", "--ties", "--workers", "1"),
     lambda: cb.optimal(variant=cb.Variant(3, "123456", repeats=True), ties=True, workers=1)),
    (("optimal", "--variant", "mastermind", "--length", "3", "--lookahead", "2",
      "--guesses", "candidates", "--no-certificate", "--workers", "1"),
     lambda: cb.optimal(variant=cb.Variant(3, "123456", repeats=True), lookahead=2,
                        guesses="candidates", certificate=False, workers=1)),
    (("optimal", "--variant", "mastermind", "--max-depth", "4", "--workers", "1"),  # exit 1
     lambda: cb.optimal(variant="mastermind", max_depth=4, workers=1)),
    (("optimal", "0123:1,2", "4567:0,1", "--objective", "expected", "--workers", "1"),
     lambda: cb.optimal(["0123:1,2", "4567:0,1"], objective="expected", workers=1)),
    (("partition", "--all", "0123:1,2", "4567:0,1", "--time-limit", "0"),
     lambda: cb.partition_table(["0123:1,2", "4567:0,1"])),
    (("partition", "--all", "--variant", "mastermind", "--sort", "entropy", "--time-limit", "0"),
     lambda: cb.partition_table(variant="mastermind", sort="entropy")),
    (("puzzle", "--seed", "5", "--difficulty", "hard", "--distractors", "2"),
     lambda: cb.puzzle(seed=5, difficulty="hard", distractors=2)),
])
def test_to_json_is_the_cli_document(capsys, args, call):
    assert untimed(call().to_json()) == untimed(cli_json(capsys, *args))


def test_partition_and_verify_documents(capsys, tmp_path):
    part = cb.partition("0145", ["0123:1,2", "4567:0,1"])
    assert part.to_json(members=True) == cli_json(capsys, "partition", "0145", "0123:1,2",
                                                  "4567:0,1", "--list")
    tree = tmp_path / "mm3.json"
    cli_json(capsys, "optimal", "--variant", "mastermind", "--length", "3", "--out", str(tree))
    assert cb.verify(tree).to_json() == cli_json(capsys, "verify", str(tree))


def test_the_files_optimal_writes_are_the_commands(capsys, tmp_path):
    mm3 = cb.Variant(3, "123456", repeats=True)
    # one worker each: with two threads the node count depends on their timing
    api = cb.optimal(variant=mm3, out=tmp_path / "api.json", dot=tmp_path / "api.dot",
                     dot_depth=2, workers=1).to_json()
    cli = cli_json(capsys, "optimal", "--variant", "mastermind", "--length", "3", "--out",
                   str(tmp_path / "cli.json"), "--dot", str(tmp_path / "cli.dot"),
                   "--dot-depth", "2", "--workers", "1")
    assert list(api) == list(cli)                       # the keys in the document's order
    assert (api["out"], api["dot"]) == (str(tmp_path / "api.json"), str(tmp_path / "api.dot"))
    assert untimed({**api, "out": 0, "dot": 0}) == untimed({**cli, "out": 0, "dot": 0})
    for name in ("json", "dot"):
        assert (tmp_path / f"api.{name}").read_bytes() == (tmp_path / f"cli.{name}").read_bytes()
    # a refuted depth writes its certificate, as the command does
    capped = cb.optimal(variant=mm3, max_depth=2, out=tmp_path / "cert.json")
    assert capped.status.value == "infeasible" and capped.tree is None
    assert json.loads((tmp_path / "cert.json").read_text()) == capped.certificate


def test_a_checkpoint_directory_is_the_commands(capsys, tmp_path):
    mm3 = cb.Variant(3, "123456", repeats=True)
    api = cb.optimal(variant=mm3, objective="expected", workers=1, checkpoint=tmp_path / "a")
    cli = cli_json(capsys, "optimal", "--variant", "mastermind", "--length", "3", "--objective",
                   "expected", "--workers", "1", "--checkpoint", str(tmp_path / "b"))
    same = json.dumps(untimed(api.to_json())).replace(str(tmp_path / "a"), "D")
    assert same == json.dumps(untimed(cli)).replace(str(tmp_path / "b"), "D")
    again = cb.optimal(variant=mm3, objective="expected", checkpoint=str(tmp_path / "a"))
    assert again.checkpoint["resumed"] is True and again.total == api.total
    with pytest.raises(cb.CbsolveError):       # a checkpoint of another search is refused
        cb.optimal(variant=mm3, objective="worst", checkpoint=tmp_path / "a")


def test_a_table_cut_by_the_deadline_says_so_as_the_command_does(capsys):
    cut = cb.partition_table(deadline=Deadline(0.0)).to_json()
    assert cut["stopped"] == "time" and cut["time_limit_hit"] and not cut["complete"]
    assert cut["shown"] == len(cut["guesses"]) <= cut["scored"]
    with pytest.raises(cb.UnknownName):
        cb.partition_table(sort="best")
    with pytest.raises(cb.InconsistentLog):
        cb.partition_table(["0123:1,2", "4567:0,2"])


def test_optimal_progress_hears_the_known_interval_first_then_never_a_wider_one():
    """The expected objective's progress (as the worst's) starts from the interval known
    before the search (Mastermind: the shipped tree of total 5625, Koyama and Lai 1993) and
    every interval heard after it is merged with it."""
    heard: list[tuple] = []
    o = cb.optimal(variant="mastermind", objective="expected",
                   progress=lambda *event: heard.append(event))
    phase, depth, known, lower, upper = heard[0]
    assert (phase, upper, known.upper) == ("known", 5625, 5625)
    assert known.tree == "models/mastermind-4-6-expected.json"
    assert all(e[0] in ("greedy", "first") and e[4] is not None and e[4] <= 5625
               for e in heard[1:])
    assert o.proved and o.total == 5625


def test_optimal_progress_hears_the_bounds_work_before_the_known_interval():
    """With a time limit, `optimal` is anytime: the fast proved ends are heard
    first, before any other work; each later interval known before the search (the
    two-level bounds, then the objective's own heuristic, minimax for the worst case, never a
    strategy the objective does not need) is heard when it improves and is never wider; then
    the search. Bulls & Cows 4 of 8 with no leading zero (no tree ships for it, no atlas cell)."""
    heard: list[tuple] = []
    o = cb.optimal(variant=OUTSIDE_THE_ATLAS, time_limit=120,
                   progress=lambda *event: heard.append(event))
    phases = [e[0] for e in heard]
    assert phases[0] in ("known", "bounds")
    assert "known" in phases[:2]                    # the first interval, before any evaluation
    search = next(i for i, p in enumerate(phases) if p not in ("known", "bounds"))
    assert not {"known", "bounds"} & set(phases[search:])
    evaluations = [e[2] for e in heard[:search] if e[0] == "bounds" and "strategy" in e[2]]
    assert evaluations and all("minimax" in text for text in evaluations)
    known = [e for e in heard[:search] if e[0] == "known"]
    for a, b in zip(known, known[1:], strict=False):
        assert b[3] >= a[3] and (a[4] is None or b[4] <= a[4])
    assert known[-1][2].strategy["name"] == "minimax" and o.proved


def test_logs_by_token_or_object_agree_and_variants_must_match():
    log = cb.as_log(["1122:1,1"], "mastermind")
    assert cb.consistent(log, count=True).count == cb.consistent(
        ["1122:1,1"], variant="mastermind", count=True).count
    with pytest.raises(cb.InvalidVariant):
        cb.consistent(log, variant="bulls-cows")
    with pytest.raises(cb.InconsistentLog):
        cb.next_guess(["0123:1,2", "4567:0,2"])


def test_logs_in_every_form_read_the_same():
    tokens = ["1122:1,1", "3344:0,2"]
    forms = [tokens, [{"guess": "1122", "bulls": 1, "cows": 1}, ("3344", 0, 2)],
             cb.as_log(tokens, "mastermind")]
    counts = {cb.consistent(f, variant="mastermind", count=True, limit=0).count for f in forms}
    assert len(counts) == 1
    for bad in ([5], [{"bulls": 1, "cows": 1}], [("1122", -1, 0)]):
        with pytest.raises(cb.InvalidFeedback):
            cb.as_log(bad, "mastermind")


def test_one_budget_per_call():
    with pytest.raises(cb.CbsolveError):
        cb.consistent(["0123:1,2"], deadline=Deadline(5), time_limit=5)


def test_every_entry_point_with_a_deadline_takes_time_limit_too(tmp_path):
    # deadline=, with time_limit= as a convenience, on every public entry point (verify had
    # deadline= only)
    import inspect

    from cbsolve import api
    from cbsolve.certificates.tree import write_tree

    timed = [name for name, f in vars(api).items()
             if inspect.isfunction(f) and f.__module__ == api.__name__ and not name.startswith("_")
             and "deadline" in inspect.signature(f).parameters]
    assert "verify" in timed and "optimal" in timed
    assert [n for n in timed if "time_limit" not in inspect.signature(getattr(api, n)).parameters] \
        == []
    path = tmp_path / "tree.json"
    write_tree(cb.optimal(variant=cb.Variant(2, "0123", repeats=True)).tree, path)
    assert api.verify(path, time_limit=30).valid
    with pytest.raises(cb.CbsolveError):
        api.verify(path, deadline=Deadline(5), time_limit=5)


def test_a_spent_deadline_leaves_an_unproved_interval():
    # Bulls & Cows 4 of 8 with no leading zero (no tree ships for it and no atlas cell, so no
    # known values close it): no time at all proves nothing. (On 4 of 10 the shipped certified
    # tree closes [7, 7] at once: proved.)
    result = cb.optimal(variant=OUTSIDE_THE_ATLAS, objective="worst", deadline=Deadline(0.0),
                        certificate=False)
    assert not result.proved
    assert result.to_json()["time_limit_hit"] or result.stop is not None
    assert result.lower is None or result.upper is None or result.lower <= result.upper


def test_a_sample_cut_by_the_deadline_says_so_as_the_cli_does(monkeypatch):
    from cbsolve.runtime import deadline

    checks = {"n": 0}

    def expires_on_the_sixth_check(self):
        checks["n"] += 1
        return checks["n"] > 5

    monkeypatch.setattr(deadline.Deadline, "expired", expires_on_the_sixth_check)
    doc = cb.evaluate("minimax", variant="mastermind", sample=50, seed=1,
                      deadline=Deadline(60)).to_json()
    assert doc["complete"] is False and doc["time_limit_hit"] is True
    assert 1 <= doc["sample"] < doc["sample_requested"] == 50


def test_ctrl_c_in_optimal_raises_what_was_proved_as_an_optimum():
    """What the command prints after Ctrl-C (exit 130) is the API's answer: the interval
    proved so far, with the variant, in the SearchInterrupted it raises."""
    import _thread
    import threading

    from cbsolve.runtime.deadline import clear_stop

    started = threading.Event()

    def heard(*_):       # the search is running: Ctrl-C now (Bulls & Cows 4/10: minutes)
        if not started.is_set():
            started.set()
            threading.Timer(0.2, _thread.interrupt_main).start()

    try:
        with pytest.raises(cb.SearchInterrupted) as stop:
            cb.optimal(objective="worst", certificate=False, progress=heard)
    finally:
        clear_stop()
    result = stop.value.result
    assert isinstance(result, cb.Optimum) and result.interrupted and not result.proved
    assert result.to_json()["variant"]["name"] == "bulls-cows"
    assert result.lower is None or result.lower <= 7       # Koyama and Lai 1993: 7


def test_an_unfinished_evaluation_carries_the_commands_document(capsys):
    with pytest.raises(cb.Unfinished) as stop:
        cb.evaluate("minimax", variant="mastermind", deadline=Deadline(1e-9))
    doc = stop.value.to_json()
    assert doc["complete"] is False and doc["time_limit_hit"] is True
    assert doc["settled"] < doc["secrets"] == 1296 and doc["time_limit"] == 1e-9
    cli = cli_json(capsys, "evaluate", "--variant", "mastermind", "--time-limit", "1e-9")
    assert set(cli) == set(doc) and cli["time_limit"] == doc["time_limit"]


def test_evaluate_progress_hears_every_secret():
    heard: list[tuple[int, int]] = []
    cb.evaluate("first", variant=cb.Variant(2, "0123", repeats=True),
                progress=lambda done, total: heard.append((done, total)))
    assert heard and heard[-1] == (16, 16)


#: The public surface under pyproject's [tool.mypy]: the API, its inputs (variant, log,
#: deadline, errors) and the modules defining its result dataclasses. The modules they call
#: are checked only as they are used here (--follow-imports=silent).
MYPY_SURFACE = [
    "cbsolve/__init__.py", "cbsolve/api.py", "cbsolve/api_results.py",
    "cbsolve/game/variant.py", "cbsolve/arguments.py", "cbsolve/gym_registration.py",
    "cbsolve/game/codes.py", "cbsolve/game/rule.py", "cbsolve/game/feedback.py", "cbsolve/runtime/deadline.py", "cbsolve/errors.py",
    "cbsolve/runtime/status.py", "cbsolve/advisor/review.py", "cbsolve/puzzles/puzzle.py",
    "cbsolve/consistency/query.py", "cbsolve/advisor/answers.py", "cbsolve/advisor/optimum.py",
    "cbsolve/strategy/evaluation.py",
    "cbsolve/search/result.py", "cbsolve/bounds/compute.py", "cbsolve/certificates/certify.py",
    "cbsolve/analysis/__init__.py",
    # cbsolve/strategy/partition.py (Partition) is checked only as used: its --all table
    # builder is not typed yet
]


@pytest.mark.slow      # a first run checks the stubs it reads too: about 16 CPU s
@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy not installed "
                    "(the test extra: pip install 'cbsolve[test]')")
def test_public_surface_is_mypy_clean(tmp_path, request):
    surface = list(MYPY_SURFACE)
    if importlib.util.find_spec("gymnasium") is not None:
        surface += ["cbsolve/gym/__init__.py", "cbsolve/gym/env.py"]
    # mypy's incremental cache in pytest's cache directory (.pytest_cache, git-ignored): a
    # first run checks the standard library's stubs too (about 16 s of CPU), a rerun reads
    # them (under a second); without the cache plugin, a fresh one in tmp_path
    cache = (request.config.cache.mkdir("mypy") if getattr(request.config, "cache", None)
             else tmp_path / "mypy")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent",
                           "--cache-dir", str(cache), *surface],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues found" in proc.stdout


def test_sweep_is_the_analyze_document(capsys, tmp_path):
    cli = cli_json(capsys, "analyze", "--family", "mastermind", "--lengths", "2",
                   "--alphabets", "3", "--strategies", "minimax", "--no-bounds", "--workers",
                   "0", "--no-plots", "--out", str(tmp_path / "cli"))
    api = cb.sweep(tmp_path / "api", families=["mastermind"], lengths=[2], alphabets=[3],
                   strategies=["minimax"], include_bounds=False, workers=0, plots=False)
    mine, theirs = untimed(api.to_json()), untimed(cli)
    assert {k: v for k, v in mine.items() if k not in ("out", "files")} == \
        {k: v for k, v in theirs.items() if k not in ("out", "files")}
    assert mine["computed"] == 1 and (tmp_path / "api" / "results.csv").is_file()


def test_sweep_takes_the_deadline_and_checks_its_strategies(tmp_path):
    spent = cb.sweep(tmp_path / "a", families=["mastermind"], lengths=[2, 3], alphabets=[3],
                     strategies=["minimax"], include_bounds=False, workers=0, plots=False,
                     deadline=Deadline(0.0)).to_json()
    assert spent["time_limit_hit"] is True and spent["complete"] is False
    assert spent["computed"] == 0 < spent["cells"]
    with pytest.raises(cb.UnknownName, match="unknown strategy 'best'"):
        cb.sweep(tmp_path / "b", strategies=["best"], plots=False)


def test_a_stopped_optimum_carries_the_upper_end_known_before_the_search():
    # Bulls & Cows 5/10 (worst case open, [7, 8]): a tree of worst case 8 ships in
    # models/certified/
    o = cb.optimal(variant=cb.Variant(5, "0123456789", repeats=False), time_limit=1.0)
    assert not o.proved and o.upper == 8
    assert o.upper_from["tree"] == "models/certified/bc-5-10-polished.json.gz"
    assert o.to_json()["upper_from"] == o.upper_from
