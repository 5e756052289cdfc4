"""Sharded refutations one level deeper (``--split second``): (first guess, second guess)
units run in shuffled order merge into one certificate that the verifier accepts and that
proves what the unsplit plan proves (docs/optimal.md, "One level deeper")."""
from __future__ import annotations

import json
from pathlib import Path

from testkit import cli_run, merge_shuffled, shard_plan

from cbsolve.certificates.certify import verify_file
from cbsolve.runtime.deadline import Deadline
from cbsolve.search.distributed.trace import from_plan
from cbsolve.search.worst.shard_files import read_plan, unit_path
from cbsolve.search.worst.shards import run_shard
from cbsolve.game.variant import Variant

MM = ["--variant", "mastermind"]
CANDIDATES = ["--guesses", "candidates"]


def plan(capsys, directory: Path, depth: int, split: str, extra=CANDIDATES) -> dict:
    return shard_plan(capsys, directory, *MM, *extra, "--max-depth", str(depth), "--split", split)


def test_second_guess_units_in_shuffled_order_merge_to_the_unsplit_proof(capsys, tmp_path):
    # Mastermind 4x6, consistent guesses only: 6 guesses needed (5 refuted), the refutation
    # has real sub-proofs under every first guess (982 certificate nodes).
    deep = plan(capsys, tmp_path / "deep", 5, "second")
    assert deep["split"] == "second" and deep["units"] > len(deep["orbits"])
    units = read_plan(tmp_path / "deep")["units"]
    assert {u["orbit"] for u in units} == set(range(len(deep["orbits"])))
    assert any("second" in u for u in units)
    assert merge_shuffled(capsys, tmp_path / "deep", 7, seed=1)["units"] == deep["units"]
    trace = from_plan(tmp_path / "deep")     # the units as one group of independent tasks
    assert len(trace["tasks"]) == trace["jobs"] == deep["units"]
    assert all(t["cpu"] >= 0 and t["group"] == 0 for t in trace["tasks"])
    split_report = verify_file(tmp_path / "deep" / "certificate.json")
    assert split_report.valid and split_report.lower_bound == 6
    # the unsplit plan proves the same bound
    plan(capsys, tmp_path / "flat", 5, "orbit")
    merge_shuffled(capsys, tmp_path / "flat", 2, seed=2)
    flat_report = verify_file(tmp_path / "flat" / "certificate.json")
    assert flat_report.lower_bound == split_report.lower_bound
    flat = json.loads((tmp_path / "flat" / "certificate.json").read_text())
    split = json.loads((tmp_path / "deep" / "certificate.json").read_text())
    assert flat["claim"] == split["claim"]
    assert set(flat["root"]["refuted"]) == set(split["root"]["refuted"])
    # another shuffle, another N: the same bytes
    plan(capsys, tmp_path / "again", 5, "second")
    merge_shuffled(capsys, tmp_path / "again", 3, seed=3)
    assert (tmp_path / "again" / "certificate.json").read_bytes() == \
        (tmp_path / "deep" / "certificate.json").read_bytes()


def test_a_second_guess_that_settles_its_class_is_named_not_merged(capsys, tmp_path):
    # Mastermind 4x6 with every guess allowed: 5 guesses suffice (Knuth 1977), so some second
    # guess settles the first class of each orbit but 1111 within 4 more.
    d = tmp_path / "p"
    plan(capsys, d, 5, "second", extra=())
    merged = merge_shuffled(capsys, d, 1, seed=0, code=1)
    firsts = {label.split(":")[0] for label in merged["not_refuted"]}
    assert "1122" in firsts and "1111" not in firsts


def test_missing_duplicate_and_mismatched_units_are_refused(capsys, tmp_path):
    d = tmp_path / "p"
    plan(capsys, d, 5, "second")
    run_shard(d, (1, 2), Variant.preset("mastermind"), deadline=Deadline.from_limit(None))
    code, out, _ = cli_run(capsys, "merge", str(d), "--json")
    assert code == 1 and json.loads(out)["missing"][0].startswith("1:")   # named, exit 1
    run_shard(d, (2, 2), Variant.preset("mastermind"), deadline=Deadline.from_limit(None))
    first, second = unit_path(d, 0), unit_path(d, 1)
    copy = first.with_name("unit-00000 (1).json")
    copy.write_text(first.read_text())                                    # a duplicate
    code, _, err = cli_run(capsys, "merge", str(d))
    assert code == 2 and "not a result file of this plan" in err
    assert len(err.strip().splitlines()) == 1
    copy.unlink()
    good = second.read_text()
    second.write_text(first.read_text())                                  # another unit's
    code, _, err = cli_run(capsys, "merge", str(d))
    assert code == 2 and "another proof" in err and len(err.strip().splitlines()) == 1
    second.write_text(good)
    assert cli_run(capsys, "merge", str(d))[0] == 0


def test_bad_split_options_are_one_line_exit_2(capsys, tmp_path):
    for args, word in ((["--plan", str(tmp_path / "a"), "--max-depth", "5", "--split", "fourth"],
                        "split"),
                       (["--plan", str(tmp_path / "b"), "--max-depth", "2", "--split", "second"],
                        "3 or more"),
                       (["--split", "second"], "--plan")):
        code, _, err = cli_run(capsys, "optimal", *MM, *args)
        assert code == 2 and word in err and len(err.strip().splitlines()) == 1, err
