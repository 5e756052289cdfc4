"""Sharded refutations two levels deeper (``--split third``): the third guesses of the large
(first guess, second guess) units, in parts run in shuffled order, merge into one certificate
that the verifier accepts and that is the unsplit proof (docs/optimal.md, "A third level")."""
from __future__ import annotations

from pathlib import Path

from testkit import cli_run, merge_shuffled, shard_plan

from cbsolve.certificates.certify import verify_file
from cbsolve.search.distributed.trace import from_plan
from cbsolve.search.worst.shard_files import read_plan

MM = ["--variant", "mastermind", "--guesses", "candidates"]


def plan(capsys, directory: Path, *split: str) -> dict:
    return shard_plan(capsys, directory, *MM, "--max-depth", "5", "--split", *split)


def test_third_guess_parts_in_shuffled_order_merge_to_the_unsplit_proof(capsys, tmp_path):
    # Mastermind 4x6, consistent guesses only: 5 guesses refuted (6 needed). With parts of at
    # most 45 third guesses, the five second-guess units of 46-54 third guesses are split.
    third = plan(capsys, tmp_path / "third", "third", "--split-size", "45")
    assert third["split"] == "third" and third["split_size"] == 45
    units = read_plan(tmp_path / "third")["units"]
    parts = [u for u in units if "third" in u]
    split_seconds = {(u["orbit"], u["second"]) for u in parts}
    assert len(split_seconds) == 5 and len(parts) == 10
    assert all(1 <= len(u["third"]) <= 45 for u in parts)
    for key in split_seconds:    # the parts of a second guess share out its third guesses
        mine = [k for u in parts if (u["orbit"], u["second"]) == key for k in u["third"]]
        assert len(mine) == len(set(mine)) > 45
    assert merge_shuffled(capsys, tmp_path / "third", 7, seed=4)["units"] == len(units)
    trace = from_plan(tmp_path / "third")
    assert len(trace["tasks"]) == len(units)
    report = verify_file(tmp_path / "third" / "certificate.json")
    assert report.valid and report.lower_bound == 6
    # the plan split at the second guess only proves it with the same certificate, byte for byte
    plan(capsys, tmp_path / "second", "second")
    merge_shuffled(capsys, tmp_path / "second", 3, seed=5)
    assert (tmp_path / "third" / "certificate.json").read_bytes() == \
        (tmp_path / "second" / "certificate.json").read_bytes()


def test_a_third_guess_that_settles_its_class_is_named_not_merged(capsys, tmp_path):
    # With parts of 3, every second-guess unit of more than 3 third guesses is split by its
    # largest class; for 1122's second guess 3345 that class is settled (the unit refutes it
    # by another reply), so merge names the third guess and writes no certificate.
    d = tmp_path / "p"
    plan(capsys, d, "third", "--split-size", "3")
    merged = merge_shuffled(capsys, d, 1, seed=0, code=1)
    assert any(label.startswith("1122:0,0:3345:") and label.count(":") == 4
               for label in merged["not_refuted"])


def test_bad_split_size_is_one_line_exit_2(capsys, tmp_path):
    for args, word in ((["--split", "third", "--split-size", "0"], "at least 1"),
                       (["--split", "second", "--split-size", "5"], "--split third")):
        code, _, err = cli_run(capsys, "optimal", *MM, "--plan", str(tmp_path / "a"),
                               "--max-depth", "5", *args)
        assert code == 2 and word in err and len(err.strip().splitlines()) == 1, err
