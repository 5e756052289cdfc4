"""Both exact searches past the reply matrix: replies scored on the fly give the same answers.

The reply source (cbsolve.search.memory.plan) must change nothing but memory and speed: the
same value, tree and certificate from the matrix, from on-the-fly scoring with row tables, and
from on-the-fly scoring with row tables too small for the upper nodes (a budget of exactly the
on-the-fly minimum, so those nodes score their pairs block by block). Games above 65,535 codes
(32-bit class counters) and the refusal message when nothing fits are checked too.
"""
import json

import numpy as np
import pytest

from cbsolve.certificates.certify import verify
from cbsolve.cli import main
from cbsolve.game.codes import CodeSpace
from cbsolve.errors import SpaceTooLarge
from cbsolve.search import memory
from cbsolve.search.expected import solve_expected
from cbsolve.search.worst import solve_worst
from cbsolve.search.worst.kernel import _Native
from cbsolve.game.variant import Variant

GAMES = [
    Variant.preset("mastermind"),                                   # 1,296 codes, repeats
    Variant(3, "01234567", repeats=False),                          # Bulls & Cows, distinct
    Variant(3, "12345", repeats=True, feedback="bulls"),            # black pegs only
    Variant(3, "012345", repeats=False, no_leading_zero=True),      # no leading zero
    Variant(5, "01", repeats=True),                                 # 2 symbols, 5 pegs
]


def _sources(variant, objective, workers):
    """(label, replies, budget): the matrix, on the fly with room, on the fly at the minimum."""
    n = CodeSpace(variant).size
    tight = memory.needed_on_the_fly(n, objective, workers)
    return [("matrix", "matrix", None), ("on the fly", "on-the-fly", None),
            ("on the fly, smallest tables", "on-the-fly", tight)]


#: The black-peg game's worst case with two threads (about 2.5 CPU s) in the slow run: one
#: thread in the default run, and two on the other games.
@pytest.mark.parametrize("workers, variant", [
    pytest.param(w, v, marks=pytest.mark.slow) if (w, v) == (2, GAMES[2]) else (w, v)
    for w in (1, 2) for v in GAMES], ids=lambda x: x if isinstance(x, int) else x.describe())
def test_worst_case_same_from_every_reply_source(variant, workers):
    results = {}
    for label, replies, budget in _sources(variant, "worst", workers):
        r = solve_worst(variant, replies=replies, memory_budget=budget, workers=workers)
        assert r.reply_source == replies
        assert verify(r.tree).valid and verify(r.tree).optimal
        results[label] = r
    base = results["matrix"]
    for label, r in results.items():
        assert (r.worst, r.total, r.tree["root"], r.certificate) == (
            base.worst, base.total, base.tree["root"], base.certificate), label


@pytest.mark.parametrize("variant", GAMES, ids=lambda v: v.describe())
def test_expected_case_same_from_every_reply_source(variant):
    results = {}
    for label, replies, budget in _sources(variant, "expected", 2):
        r = solve_expected(variant, replies=replies, memory_budget=budget, workers=2,
                           progress=False)
        assert r.proved and r.reply_source == replies
        assert verify(r.tree).valid
        results[label] = r
    base = results["matrix"]
    for label, r in results.items():
        assert (r.total, r.worst, r.tree["root"]) == (base.total, base.worst,
                                                      base.tree["root"]), label


def test_plan_prefers_the_matrix_and_falls_back_to_the_fly():
    n = 32_768   # Logik: a 1 GiB matrix
    assert memory.plan(n, "worst", 2 * 2**30).source == memory.MATRIX
    small = memory.plan(n, "worst", 512 * 2**20)
    assert small.source == memory.ON_THE_FLY and small.table_bytes >= memory.MIN_TABLE_ROWS * n
    # the expected case holds the matrix twice: 2 GiB does not fit it, on the fly it does
    assert memory.plan(n, "expected", 2 * 2**30).source == memory.ON_THE_FLY
    assert memory.plan(n, "worst", 2 * 2**30, source=memory.ON_THE_FLY).asked
    assert memory.plan(n, "worst", 512 * 2**20, source=memory.MATRIX) is None
    assert memory.plan(n, "worst", 64 * 2**20) is None


def test_refusal_names_both_sources_and_the_option():
    with pytest.raises(SpaceTooLarge) as info:
        memory.check("Logik", 32_768, "worst", 64 * 2**20)
    text = str(info.value)
    assert "reply matrix" in text and "on the fly" in text and "--memory-budget" in text


def test_cli_refusal_exit_2(capsys):
    code = main(["optimal", "--variant", "mastermind", "--length", "5", "--letters", "8",
                 "--memory-budget", "64M"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "32,768 codes" in err and "on the fly" in err and "--memory-budget" in err


def test_cli_reports_the_reply_source(capsys):
    code = main(["optimal", "--variant", "mastermind", "--replies", "on-the-fly", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["reply_source"] == "on-the-fly" and data["worst"] == 5
    assert any("on the fly" in note for note in data["notes"])
    assert main(["optimal", "--variant", "mastermind", "--replies", "disk"]) == 2


def test_class_counts_beyond_16_bits():
    # 3 pegs of 50 colours: 125,000 codes; the class "no colour in common" of a guess with
    # three colours has 47^3 = 103,823 secrets (AAA: 49^3), more than a 16-bit counter holds
    symbols = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwx"
    variant = Variant(3, symbols, repeats=True)
    plan = memory.plan(CodeSpace(variant).size, "worst", 2**30)
    assert plan.source == memory.ON_THE_FLY
    native = _Native(variant, "all", {}, 1, plan=plan)
    scanned = native.core.scan(native.all, native.empty)   # the first guesses, up to symmetry
    assert len(scanned) == 3 and min(s[1] for s in scanned) == 47 ** 3 > 65_535
    for guess, largest, classes, in_set, squares in scanned:
        counts = np.bincount(native.replies(guess, native.all), minlength=variant.response_slots)
        others = np.delete(counts, variant.win_response).astype(np.int64)
        assert (largest, classes, in_set, squares) == (
            others.max(), np.count_nonzero(counts), True, int((others ** 2).sum()))


def test_expected_class_counts_beyond_16_bits():
    symbols = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwx"
    variant = Variant(3, symbols, repeats=True)
    from cbsolve.search.expected.search import _Search

    plan = memory.plan(CodeSpace(variant).size, "expected", 2**30, 1, memo_entries=1000)
    search = _Search(variant, None, "all", 1, True, None, 1000, plan=plan)
    everyone = np.arange(search.n, dtype=np.int32)
    guesses = np.array([0, 1, 52], dtype=np.int32)         # AAA, AAB, ABC
    for guess, lb_total, _, _ in search.solver.scan(everyone, 0, 0, guesses, []):
        sizes = np.bincount(search.replies(guess))
        sizes = np.delete(sizes, variant.win_response)
        expect = search.n + sum(search.solver.lb_total(0, int(m)) for m in sizes if m)
        assert lb_total == expect


def test_game_above_65535_codes_from_a_position(tmp_path):
    # Mastermind 6 pegs x 7 colours: 117,649 codes, a 12.9 GiB matrix over the default budget;
    # three replies (two left a 4.7 CPU s search of 379 nodes, three one of 51)
    out = tmp_path / "tree.json"
    code = main(["optimal", "--variant", "mastermind", "--length", "6", "--digits", "7",
                 "123456:2,3", "234567:1,4", "345671:1,3", "--memory-budget", "2G",
                 "--out", str(out)])
    assert code == 0
    doc = json.loads(out.read_text())
    report = verify(doc)
    assert report.valid and report.optimal and report.lower_bound == doc["stats"]["worst"]
