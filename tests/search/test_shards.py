"""Sharded worst-case refutations: plan, shards in any order, resume after SIGKILL, merge into
one certificate that the independent verifier accepts (docs/optimal.md, "Sharded proofs")."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cbsolve.certificates.certify import verify_file
from cbsolve.cli import main
from cbsolve.runtime.deadline import Deadline
from cbsolve.search.worst.merge import merge_shards
from cbsolve.search.worst.shard_files import result_path
from cbsolve.search.worst.shards import run_shard
from cbsolve.runtime.status import StopReason
from cbsolve.game.variant import Variant

MM = ["--variant", "mastermind"]


def cli(capsys, *args) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def plan_and_run(capsys, directory: Path, depth: int, order, n: int, extra=()) -> bytes:
    """Plan ``depth``, run shards ``order`` of ``n``, merge; the certificate's bytes."""
    assert cli(capsys, "optimal", *MM, *extra, "--plan", str(directory), "--max-depth",
               str(depth))[0] == 0
    for k in order:
        assert cli(capsys, "optimal", *MM, "--plan", str(directory), "--shard", f"{k}/{n}")[0] == 0
    code, out, _ = cli(capsys, "merge", str(directory), "--json")
    assert code == 0, out
    assert json.loads(out)["complete"] is True
    return (directory / "certificate.json").read_bytes()


def one_process_certificate(capsys, tmp_path: Path, depth: int, extra=()) -> dict:
    out = tmp_path / f"one-{depth}.json"
    code, _, _ = cli(capsys, "optimal", *MM, *extra, "--max-depth", str(depth), "--out", str(out))
    assert code == 1       # infeasible within depth: the certificate says so
    return json.loads(out.read_text())


def test_mastermind_refute_4_sharded_three_ways(capsys, tmp_path):
    # Knuth 1977: Mastermind 4x6 needs 5 guesses in the worst case, so 4 are refuted.
    cert = plan_and_run(capsys, tmp_path / "p", 4, [1, 2, 3], 3)
    report = verify_file(tmp_path / "p" / "certificate.json")
    assert report.valid and report.kind == "lower-bound" and report.lower_bound == 5
    one = one_process_certificate(capsys, tmp_path, 4)
    assert json.loads(cert) == one
    assert verify_file(tmp_path / "one-4.json").lower_bound == report.lower_bound


def test_shards_in_any_order_merge_to_the_same_bytes(capsys, tmp_path):
    # Consistent guesses only: 5 guesses are refuted with real sub-proofs below every orbit.
    extra = ["--guesses", "candidates"]
    a = plan_and_run(capsys, tmp_path / "a", 5, [1, 2, 3], 3, extra)
    b = plan_and_run(capsys, tmp_path / "b", 5, [3, 1, 2], 3, extra)
    c = plan_and_run(capsys, tmp_path / "c", 5, [1], 1, extra)
    assert a == b == c
    report = verify_file(tmp_path / "a" / "certificate.json")
    assert report.valid and report.lower_bound == 6 and report.nodes > 100
    assert json.loads(a) == one_process_certificate(capsys, tmp_path, 5, extra)


def test_a_first_guess_that_settles_within_the_depth_is_not_refuted(capsys, tmp_path):
    d = tmp_path / "p"
    assert cli(capsys, "optimal", *MM, "--plan", str(d), "--max-depth", "5")[0] == 0
    code, out, _ = cli(capsys, "optimal", *MM, "--plan", str(d), "--shard", "1/1", "--json")
    assert code == 1
    run = json.loads(out)
    assert "1122" in run["not_refuted"]          # Knuth's first guess: 5 suffice after it
    witness = json.loads(result_path(d, 2).read_text())["witness"]
    assert witness["root"]["guess"] == "1122"
    (tmp_path / "w.json").write_text(json.dumps(witness))
    report = verify_file(tmp_path / "w.json")
    assert report.valid and report.worst <= 5
    code, out, _ = cli(capsys, "merge", str(d))
    assert code == 1 and "not refuted" in out and "1122" in out
    assert not (d / "certificate.json").exists()


def test_a_missing_orbit_is_named(capsys, tmp_path):
    d = tmp_path / "p"
    assert cli(capsys, "optimal", *MM, "--plan", str(d), "--max-depth", "4")[0] == 0
    assert cli(capsys, "optimal", *MM, "--plan", str(d), "--shard", "1/2")[0] == 0
    code, out, _ = cli(capsys, "merge", str(d), "--json")
    assert code == 1
    assert json.loads(out)["missing"] == ["1:1112", "3:1123"]


def test_tampered_truncated_or_foreign_files_are_refused(capsys, tmp_path):
    extra = ["--guesses", "candidates"]
    plan_and_run(capsys, tmp_path / "p", 5, [1], 1, extra)
    path = result_path(tmp_path / "p", 0)
    good = path.read_text()
    doc = json.loads(good)
    doc["reply"] = "0,1" if doc["reply"] != "0,1" else "0,2"
    path.write_text(json.dumps(doc))
    code, _, err = cli(capsys, "merge", str(tmp_path / "p"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "checksum" in err
    path.write_text(good[: len(good) // 2])
    code, _, err = cli(capsys, "merge", str(tmp_path / "p"))
    assert code == 2 and "truncated" in err
    # a whole, sealed result of another proof (depth 4 of the same game)
    plan_and_run(capsys, tmp_path / "q", 4, [1], 1, extra)
    path.write_text(result_path(tmp_path / "q", 0).read_text())
    code, _, err = cli(capsys, "merge", str(tmp_path / "p"))
    assert code == 2 and "another proof" in err
    path.write_text(good)
    code, _, err = cli(capsys, "optimal", "--plan", str(tmp_path / "p"), "--shard", "1/1")
    assert code == 2 and "plan's variant" in err        # a shard of another game
    plan = tmp_path / "p" / "plan.json"
    plan.write_text(plan.read_text().replace('"depth":5', '"depth":4'))
    for args in (["merge", str(tmp_path / "p")],
                 ["optimal", *MM, "--plan", str(tmp_path / "p"), "--shard", "1/1"]):
        code, _, err = cli(capsys, *args)
        assert code == 2 and "checksum" in err


def test_a_spent_deadline_keeps_nothing_of_the_orbit(capsys, tmp_path):
    d = tmp_path / "p"
    assert cli(capsys, "optimal", *MM, "--plan", str(d), "--max-depth", "5")[0] == 0
    run = run_shard(d, (1, 1), Variant.preset("mastermind"),
                    deadline=Deadline.from_limit(10, spent=10), workers=1)
    assert run.stop is StopReason.TIME and not run.complete
    assert not list((d / "results").iterdir())
    assert len(merge_shards(d).missing) == 5


def mastermind_5x5_plan(tmp_path: Path) -> tuple[Path, list[str], dict]:
    """A plan refuting 5 for Mastermind 5x5 (7 orbits, 0.2-40 s each), made by a child
    process; its directory, the command line of its shards and their environment."""
    d = tmp_path / "p"
    args = [sys.executable, "-m", "cbsolve", "optimal", *MM, "--length", "5", "--digits", "5",
            "--plan", str(d)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    subprocess.run([*args, "--max-depth", "5"], check=True, capture_output=True, env=env)
    return d, args, env


def test_a_shard_killed_with_sigkill_resumes(tmp_path):
    # Mastermind 5x5, refuting 5: orbit 0 (11111) takes a fraction of a second, orbit 4
    # (11223, settled within 5: its strategy is written) several times longer.
    d, args, env = mastermind_5x5_plan(tmp_path)
    # a stray temporary file, as a kill during a write leaves it
    result_path(d, 4).with_name(result_path(d, 4).name + ".tmp").write_text('{"format"')
    proc = subprocess.Popen([*args, "--shard", "1/4", "--workers", "1"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not result_path(d, 0).exists() and proc.poll() is None:
            time.sleep(0.01)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert result_path(d, 0).exists()
    rerun = subprocess.run([*args, "--shard", "1/4", "--json"], capture_output=True, text=True,
                           env=env)
    assert rerun.returncode == 1, rerun.stderr    # orbit 4 is not refuted (5 suffice after it)
    run = json.loads(rerun.stdout)
    outcomes = {o["orbit"]: o["outcome"] for o in run["orbits"]}
    assert outcomes[0] == "done-before" and set(outcomes) == {0, 4}
    assert run["complete"] and run["not_refuted"] == ["11223"]
    merged = merge_shards(d)
    assert merged.not_refuted == ["11223"] and "1:11112" in merged.missing
    assert not any(m.startswith(("0:", "4:")) for m in merged.missing)


@pytest.mark.parametrize("args, word", [
    (["--shard", "1/2"], "--plan"),
    (["--plan", "X", "--shard", "0/2"], "1 <= K <= N"),
    (["--plan", "X", "--shard", "a/b"], "K/N"),
    (["--plan", "X"], "--max-depth"),
    (["--plan", "X", "--max-depth", "4", "--objective", "expected"], "worst"),
    (["--plan", "X", "--max-depth", "4", "--out", "f.json"], "--out"),
    (["--plan", "X", "--max-depth", "4", "1122:1,0"], "entries"),
])
def test_bad_shard_options_are_one_line_exit_2(capsys, tmp_path, args, word):
    args = [a.replace("X", str(tmp_path / "x")) for a in args]
    code, _, err = cli(capsys, "optimal", *MM, *args)
    assert code == 2 and word in err and len(err.strip().splitlines()) == 1


def test_ctrl_c_stops_a_shard_with_exit_130_and_keeps_nothing_of_its_orbit(tmp_path):
    # Mastermind 5x5, refuting 5: orbit 3 (11123) alone is shard 4/7 and runs for many seconds.
    d, args, env = mastermind_5x5_plan(tmp_path)
    proc = subprocess.Popen([*args, "--shard", "4/7", "--workers", "1", "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert not result_path(d, 3).exists()
    doc = json.loads(out)
    if "orbits" in doc:          # the run had started (else: the before-start document)
        assert doc["stop"] == "interrupted" and doc["orbits"][0]["outcome"] == "stopped"
