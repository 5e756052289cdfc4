"""Checkpoint and resume on a Dask cluster (docs/optimal.md, "Checkpoint and resume"): the
driver records the settled tasks' results; killed with SIGKILL (the driver and its local
cluster) once the checkpoint shows part of the work, ``--resume DIR --scheduler local`` sends
only the open tasks and ends with the one-machine value and a tree that verifies. The kills
wait for states of the file, never for seconds."""
import json
import os
import signal
from pathlib import Path

import pytest
from testkit import kill_at_checkpoint, local_dask_client, resume_and_verify

from cbsolve.certificates.certify import verify
from cbsolve.cli import main
from cbsolve.search import checkpoint as cp
from cbsolve.search.checkpoint.distributed import DaskExpectedSteps, DaskWorstSteps
from cbsolve.search.distributed import DistributedExpected, Split, solve_worst_distributed
from cbsolve.search.distributed.cluster import _Stopped
from cbsolve.search.expected import solve_expected
from cbsolve.search.worst import solve_worst
from cbsolve.game.variant import Variant

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
CAP = 300   # seconds a child may take (the machine is shared); a cap on waiting, never asserted
DASK = ["--scheduler", "local", "--workers", "2"]
MM55 = ["--variant", "mastermind", "--length", "5", "--digits", "5"]   # worst 5: 4 refuted
BC48 = ["--variant", "bulls-cows", "--length", "4", "--digits", "8", "--objective", "expected"]
BC36 = ["--variant", "bulls-cows", "--length", "3", "--digits", "6", "--objective", "expected"]


def _resume_and_verify(d: Path, tmp_path: Path) -> dict:
    return resume_and_verify(d, tmp_path, ROOT, ENV, CAP, extra=tuple(DASK))


#: The CLI's resumes on a local cluster of their own (a child process and its two workers,
#: about 8 and 5 CPU s): the slow run's; the default run resumes a Dask split in process below.
@pytest.mark.slow
def test_a_stopped_worst_driver_resumes_without_its_refuted_guesses(client, tmp_path,
                                                                   monkeypatch):
    """The driver stopped right after its second refutation at the depth in progress (as a
    SIGKILL right after that write leaves the file: on a quiet machine the depth's guesses are
    refuted within a few writes, too briefly for a kill from outside to land there); the CLI's
    resume ends with the one-machine value, a tree and certificate, and does not send the
    guesses recorded as refuted."""
    variant = Variant.from_options("mastermind", length=5, digits=5)
    d = tmp_path / "ck"
    ident = cp.identity(variant, "worst", "all", None, distributed=True, lookahead=0,
                        certificate=True)     # what `optimal --checkpoint --scheduler` opens
    refuted, seen = DaskWorstSteps.guess_refuted, []

    def stop_after_two(self, depth, guess):
        refuted(self, depth, guess)
        seen.append(guess)
        if len(seen) == 2:
            raise _Stopped

    monkeypatch.setattr(DaskWorstSteps, "guess_refuted", stop_after_two)
    first = solve_worst_distributed(client, variant, checkpoint=cp.Checkpoint(d, ident,
                                                                              every=3600))
    assert first.proved is False
    state = cp.read(d)["state"]
    assert len(state["guesses"]) == 2 and state["depth"] is not None
    data = _resume_and_verify(d, tmp_path)
    one = solve_worst(variant, workers=1)
    assert data["worst"] == one.worst
    assert json.loads((tmp_path / "tree.json").read_text())["certificate"]
    fresh = solve_worst_distributed(client, variant)     # from the start, on 2 workers too
    assert _tasks(data["notes"]) <= _tasks(fresh.notes) - len(state["guesses"])


def _tasks(notes: list[str]) -> int:
    """The tasks a Dask run sent, as its note says ("distributed: N ...")."""
    return next(int(note.split()[1]) for note in notes if note.startswith("distributed:"))


@pytest.mark.slow
def test_expected_driver_killed_resumes_to_the_same_total(client, tmp_path):
    d = tmp_path / "ck"
    kill_at_checkpoint([*BC48, *DASK], d,
                       lambda s: bool((s.get("current") or {}).get("classes")),
                       signal.SIGKILL, ROOT, ENV, CAP, group=True)
    solved = cp.read(d)["state"]["current"]["classes"]
    data = _resume_and_verify(d, tmp_path)
    variant = Variant.from_options("bulls-cows", length=4, digits=8)
    one = solve_expected(variant, workers=1)
    assert data["total"] == one.total
    # the classes recorded were not sent again (a run from the start sends the optimal first
    # guess's 13 classes, the only first guess its bound does not prune)
    fresh = DistributedExpected(client, variant, None, "all").run()    # as `optimal` drives it
    assert _tasks(data["notes"]) <= _tasks(fresh.notes) - len(solved)


def test_resume_of_a_dask_checkpoint_needs_the_scheduler(client, tmp_path, capsys):
    """In process, on the module's cluster (a child process starting a cluster of its own cost
    about 3 CPU s for the same files)."""
    d = tmp_path / "ck"       # a small game: only the checkpoint's kind matters here
    assert main(["optimal", *BC36, "--scheduler", client.scheduler.address,
                 "--checkpoint", str(d)]) == 0
    capsys.readouterr()
    assert main(["optimal", "--resume", str(d)]) == 2
    err = capsys.readouterr().err
    assert "--scheduler" in err and len(err.strip().splitlines()) == 1


SMALL = Variant(3, "12345", repeats=True, name="mastermind-3-5")


@pytest.fixture(scope="module")
def client():
    yield from local_dask_client(2)


def test_a_stopped_dask_split_resumes_from_its_second_guesses(client, tmp_path, monkeypatch):
    ident = cp.identity(SMALL, "expected", "all", None, distributed=True)
    d = tmp_path / "ck"
    settled, seen = DaskExpectedSteps.split_settled, []

    def stop_after_some(self, *args):
        settled(self, *args)
        seen.append(args)
        if len(seen) == 3:   # three second guesses settled: stop as a kill would, mid-class
            raise _Stopped

    def run():
        checkpoint = cp.Checkpoint(d, ident, every=3600)
        driver = DistributedExpected(client, SMALL, None, "all",
                                     split=Split(min_size=20, min_slots=1))
        driver.steps = checkpoint.dask_expected_steps()
        try:
            return driver.run(), driver
        finally:
            checkpoint.close()

    monkeypatch.setattr(DaskExpectedSteps, "split_settled", stop_after_some)
    first, _ = run()
    assert first.proved is False
    # the class being split at the stop holds its second guesses settled (earlier classes
    # were solved whole: their record is the class's)
    split = cp.read(d)["state"]["current"]["split"]
    assert split and all(r["exact"] or r["refuted"] for r in split.values())
    monkeypatch.setattr(DaskExpectedSteps, "split_settled", settled)
    restored, known = DaskExpectedSteps.split_known, []

    def spy(self, g, c):
        out = restored(self, g, c)
        known.append(out)
        return out

    monkeypatch.setattr(DaskExpectedSteps, "split_known", spy)
    again, _ = run()
    assert any(exact or refuted for exact, refuted, _ in known)
    one = solve_expected(SMALL, workers=1, progress=False)
    assert again.proved and (again.total, again.worst) == (one.total, one.worst)
    report = verify(again.tree)
    assert report.valid and report.total == one.total, report.message
