"""`cbsolve optimal --scheduler`: the expected-case search split over a Dask cluster gives the
single-machine optimum and a tree the verifier accepts (a two-process LocalCluster)."""
import json

import numpy as np
import pytest
from testkit import local_dask_client

from cbsolve.certificates.certify import verify
from cbsolve.cli import main
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.search import distributed
from cbsolve.search.distributed import DistributedExpected
from cbsolve.search.expected import solve_expected
from cbsolve.search.position import Position, solve_from
from cbsolve.search.worst import solve_worst
from cbsolve.game.variant import Variant

SMALL = Variant(3, "12345", repeats=True, name="mastermind-3-5")


@pytest.fixture(scope="module")
def client():
    yield from local_dask_client(2)


@pytest.mark.parametrize("max_depth", [None, 4, 3])
@pytest.mark.parametrize("way", ["first guesses", "in flight", "split"])
def test_same_optimum_as_one_machine_and_a_valid_tree(client, max_depth, way):
    # first guesses: one at a time, their classes as tasks (the split needs 3 worker threads);
    # in flight: the whole set (125 secrets, below min_size) by its guesses, many at once;
    # split: one guess at a time, every class of at least 20 secrets split by its guesses
    split = {"first guesses": distributed.Split(min_size=1000, min_slots=3),
             "in flight": distributed.Split(min_size=1000, min_slots=1),
             "split": distributed.Split(min_size=20, min_slots=1)}[way]
    one = solve_expected(SMALL, max_depth=max_depth, workers=1, progress=False)
    driver = DistributedExpected(client, SMALL, max_depth, "all", split=split)
    many = driver.run()
    if way != "split":
        assert driver.splits == (way == "in flight")
    elif max_depth is None:         # the optimal first guess has a class of more than 20
        assert driver.splits > 0
    assert many.status == one.status and many.proved == one.proved
    assert (many.total, many.worst) == (one.total, one.worst)
    if many.tree is not None:
        report = verify(many.tree)
        assert report.valid and report.total == one.total, report.message


@pytest.mark.parametrize("third", [False, True])
def test_the_split_with_and_without_its_third_level(client, third):
    # the split's first second guess by its classes as tasks (third) or as one task: the same
    # optimum; the tasks' CPU is their thread's, their worker process's at least as much
    one = solve_expected(SMALL, workers=1, progress=False)
    driver = DistributedExpected(client, SMALL, None, "all",
                                 split=distributed.Split(min_size=20, min_slots=1, third=third))
    many = driver.run()
    assert driver.splits > 0 and (many.total, many.worst) == (one.total, one.worst)
    assert verify(many.tree).valid
    assert 0 < driver.dispatch.task_seconds <= driver.dispatch.process_seconds


def test_candidates_only_and_from_a_position(client):
    one = solve_expected(SMALL, guesses="candidates", workers=1, progress=False)
    many = DistributedExpected(client, SMALL, None, "candidates").run()
    assert (many.total, many.worst) == (one.total, one.worst)
    assert verify(many.tree).valid
    position = Position.from_log(FeedbackLog.parse(SMALL, ["123:0,1"]))
    here = solve_from(position, "expected")
    there = DistributedExpected(client, SMALL, None, "all").run(position.members,
                                                                list(position.history))
    assert (there.total, there.worst) == (here.total, here.worst)


def test_cli_published_optimum_on_a_local_cluster(capsys, tmp_path):
    # Koyama & Lai 1993: Mastermind 4/6, 5625 guesses in total (average 4.340)
    out, trace = tmp_path / "t.json", tmp_path / "run.trace.json"
    code = main(["optimal", "--variant", "mastermind", "--objective", "expected",
                 "--scheduler", "local", "--workers", "2", "--out", str(out), "--json",
                 "--trace", str(trace)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["proved"] and data["total"] == 5625
    assert main(["verify", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 5625
    doc = json.loads(trace.read_text())     # every task that returned, in its group
    assert doc["format"] == "cbsolve-dask-trace" and doc["tasks"]
    assert {t["group"] for t in doc["tasks"]} <= {g["id"] for g in doc["groups"]}
    assert all(t["key"].startswith("cbsolve-solve_") and t["cpu"] >= 0 for t in doc["tasks"])


@pytest.mark.parametrize("args, words", [
    # a closed port: Dask retries until its connect timeout, 10 s without a time limit (the
    # slow run's), what is left of the time limit with one
    pytest.param(["--scheduler", "tcp://127.0.0.1:9", "--objective", "expected"],
                 "cannot connect", marks=pytest.mark.slow),
    (["--scheduler", "tcp://127.0.0.1:9", "--objective", "expected", "--time-limit", "1"],
     "cannot connect"),
    (["--scheduler", "local", "--ties"], "--ties"),
    (["--scheduler", "tcp://127.0.0.1:9", "--objective", "expected", "--workers", "2"],
     "--workers"),
    (["--trace", "t.json"], "--scheduler"),
])
def test_cli_bad_distributed_options_exit_2(capsys, args, words):
    code = main(["optimal", "--length", "2", "--digits", "3", *args])
    err = capsys.readouterr().err
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1


def test_a_scheduler_that_never_answers_is_given_up_at_the_time_limit():
    """A listening socket that never speaks Dask: `optimal --scheduler` with a time limit stops
    waiting for it at that limit (one line naming the limit, exit 2), not after the default 10 s.
    In its own process: this module's running cluster keeps an event loop the client would
    share."""
    import socket
    import subprocess
    import sys

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        port = silent.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "cbsolve", "optimal", "--length", "2",
                               "--digits", "3", "--objective", "expected", "--scheduler",
                               f"tcp://127.0.0.1:{port}", "--time-limit", "0.5"],
                              capture_output=True, text=True, timeout=120)
    err = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(err) == 1, done.stderr
    assert "cannot connect" in err[0] and "within the time limit" in err[0]


def test_time_limit_reports_not_proved(client):
    result = DistributedExpected(client, Variant.preset("mastermind"), None, "all",
                                 deadline=Deadline.from_limit(0.001)).run()
    assert not result.proved and any("time limit" in note for note in result.notes)


@pytest.mark.parametrize("variant, options", [
    (SMALL, {}), (SMALL, {"guesses": "candidates"}), (SMALL, {"max_depth": 3}),
    (Variant(3, "012345", repeats=False), {}),
    (Variant(3, "0123", repeats=True, feedback="bulls"), {}),
])
def test_worst_case_same_optimum_and_a_verified_certificate(client, variant, options):
    from cbsolve.search.distributed.worst import solve_worst_distributed

    one = solve_worst(variant, workers=1, **options)
    many = solve_worst_distributed(client, variant, **options)
    assert (many.status, many.proved, many.worst) == (one.status, one.proved, one.worst)
    assert many.lower == one.lower
    doc = many.tree if many.tree is not None else many.certificate
    report = verify(doc)
    assert report.valid, report.message
    assert report.lower_bound == (one.worst if one.worst else options["max_depth"] + 1)


def test_worst_case_from_a_position_on_the_cluster(client):
    from cbsolve.search.distributed.worst import solve_worst_distributed
    from cbsolve.search.position import stamp

    position = Position.from_log(FeedbackLog.parse(SMALL, ["123:0,1"]))
    here = solve_from(position, "worst")
    there = solve_worst_distributed(client, SMALL, root=position)
    stamp(there, position)
    assert there.worst == here.worst
    assert verify(there.tree).valid


@pytest.mark.parametrize("limit", [1e-3, 0.05, 0.3])
def test_a_time_limit_leaves_a_sound_answer_that_says_why(client, limit):
    """Cut short anywhere, the distributed search proves the single-machine optimum or
    nothing, and says the time limit stopped it (scripts/stress/stress_expected_deadlines.py --dask
    runs this at random limits)."""
    from cbsolve.runtime.status import Status, StopReason

    one = solve_expected(SMALL, workers=1, progress=False)
    res = DistributedExpected(client, SMALL, None, "all",
                              deadline=Deadline.from_limit(limit)).run()
    if res.proved:
        assert (res.total, res.status, res.stop) == (one.total, Status.OPTIMAL, None)
    else:
        # the interval proved so far, as one process reports it: the counting lower bound
        # and the greedy strategy, whose tree the verifier replays to its upper bound
        assert res.status is Status.FEASIBLE and res.lower <= one.total <= res.upper
        assert res.total == res.upper and verify(res.tree).valid
        assert res.stop is StopReason.TIME and res.to_json()["time_limit_hit"] is True


@pytest.mark.parametrize("variant", [SMALL, Variant(4, "0123456", repeats=False)])
def test_a_time_limited_worst_case_search_reports_the_interval_proved(client, variant):
    """A time-limited worst-case search on the cluster reported unknown (or was refused): it
    now reports the depths refuted so far and the greedy tree, as one process does."""
    from cbsolve.search.distributed.worst import solve_worst_distributed
    from cbsolve.runtime.status import Status, StopReason

    one = solve_worst(variant, workers=1)
    res = solve_worst_distributed(client, variant, deadline=Deadline.from_limit(1e-3))
    if res.proved:
        assert (res.worst, res.stop) == (one.worst, None)
    else:
        assert res.status is Status.FEASIBLE and res.lower <= one.worst <= res.upper
        assert res.worst == res.upper and verify(res.tree).valid
        assert res.stop is StopReason.TIME and res.to_json()["time_limit_hit"] is True


def test_a_local_cluster_is_closed_even_after_a_stop_request():
    # A library caller stopped (Ctrl-C's stop request) still gets its LocalCluster closed: in
    # the background, so the caller leaves at once.
    pytest.importorskip("distributed")
    from cbsolve.runtime.deadline import clear_stop, request_stop

    manager = distributed.cluster_client("local", 1)
    try:
        with manager as c:
            assert c.submit(sum, [1, 2]).result() == 3
            request_stop()
    finally:
        clear_stop()
    assert manager.closing is not None
    manager.closing.join(timeout=60)
    assert not manager.closing.is_alive()
    assert manager.cluster.status.name == "closed" and manager.client.status == "closed"


def test_the_winning_tree_fetch_honours_a_passed_deadline(client):
    # The last phase of the distributed worst search (the winning guess's tree, built by a task)
    # waits in short steps: a deadline already passed (or Ctrl-C, which expires every deadline)
    # stops it and cancels the task, where a blocked result() held Ctrl-C for seconds.
    from cbsolve.search.distributed.cluster import _Stopped
    from cbsolve.search.distributed.worst import _winning_tree
    from cbsolve.search.worst.kernel import _Native

    native = _Native(SMALL, "all", {}, 1)
    one = solve_worst(SMALL, workers=1)
    first = one.tree["root"]["guess"]
    g = int(np.flatnonzero([native.space.format(c) == first for c in native.codes])[0])
    with pytest.raises(_Stopped):
        _winning_tree(client, SMALL, native, "all", g, one.worst, Deadline(0))
    tree = _winning_tree(client, SMALL, native, "all", g, one.worst, Deadline(None))
    assert verify(tree).valid and tree["stats"]["worst"] == one.worst
