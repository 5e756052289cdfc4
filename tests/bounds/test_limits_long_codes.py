"""Long codes over small alphabets under a short limit: an answer, within a memory cap.

``bounds --time-limit 2`` on Mastermind 14x2 was killed by the kernel at over 20 GB (the
symmetry listed 14! position maps), 13x4 spent 10 s in the closed-form partition, 14x2's
first heuristic node 2.5 s in one kernel call. Each test gives a short limit, a memory cap and
a generous timeout against a hang, and asserts what was answered (no wall-clock assertion:
docs/benchmarks.md, "Limits on every game", has the seconds)."""
import json
import resource
import subprocess
import sys

import pytest

from cbsolve.bounds import compute_bounds
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.variant import Variant

#: Address space a run may use (the contract's cap on resident memory is 2 GB; a NumPy and
#: OpenMP process reserves more address space than it touches).
ADDRESS_CAP = 6 << 30


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_CAP, ADDRESS_CAP))


@pytest.mark.parametrize("args,limit", [
    (["--variant", "mastermind", "--length", "14", "--digits", "2"], "1"),
    (["--variant", "mastermind", "--length", "12", "--digits", "3"], "1"),
    (["--variant", "black-peg", "--length", "17", "--digits", "2"], "1"),
    # 2,048 secrets: the exact search starts (its symmetry table once listed 11! maps)
    (["--variant", "mastermind", "--length", "11", "--digits", "2"], "2"),
], ids=["mastermind-14x2", "mastermind-12x3", "black-peg-17x2", "mastermind-11x2-search"])
def test_bounds_on_long_codes_answers_under_a_memory_cap(args, limit):
    done = subprocess.run([sys.executable, "-m", "cbsolve", "bounds", *args, "--recompute",
                           "--time-limit", limit, "--json"], capture_output=True, text=True,
                          timeout=300, preexec_fn=_capped)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    for objective in ("worst", "expected"):
        assert out[objective]["lower"] <= out[objective]["upper"]
    assert any("time limit" in note for note in out["notes"])


def test_symmetry_of_long_codes_comes_from_column_classes():
    """A heuristic over 14 positions starts without listing position maps (the evaluation's
    first node scores the five first-guess patterns' classes, not 87 billion maps)."""
    from cbsolve.game.symmetry import Symmetry

    sym = Symmetry(Variant(14, "01", repeats=True))
    assert not sym._listed
    assert len(sym.guess_representatives([])) == 8          # patterns 14, 13+1, ..., 7+7


def test_spent_deadline_stops_the_closed_form_partition():
    """The closed form's coefficients stop at the deadline (never half a minimum over the
    patterns): the bulls classes' closed form gives the lower end instead, and a note says so."""
    from cbsolve.bounds.partition import repeats_coefficients

    repeats_coefficients.cache_clear()   # another test of the worker may have computed 13x4's
    variant = Variant(13, "1234", repeats=True)
    got = compute_bounds(variant, deadline=Deadline.from_limit(0.0), search=False,
                         strategies=False)
    assert any("closed form) not finished" in note for note in got.notes)
    assert "bulls classes" in got.expected.lower_method
    assert got.worst.lower >= 6     # counting alone gives 5 (104 replies, 4^13 secrets)
