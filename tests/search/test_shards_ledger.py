"""A refutation plan run as a ledger (``optimal --plan DIR --shard K/N --ledger``): one
checksummed line a finished unit, resumable, shared by several processes; ``verify`` re-runs
all units or a seeded sample and re-checks their sub-proofs; ``merge --ledger`` composes what
a whole ledger proves (docs/optimal.md, "A proof as a ledger").

The game is Mastermind 4x6: with consistent guesses only, 5 guesses do not suffice (the
``--split second`` plan has 50 units with real sub-proofs, seconds to run); with every guess
allowed, 4 do not (Knuth 1977: the worst case is 5, and ``models/mastermind-worst.json`` is a
verified tree of worst case 5).
"""
from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest
from testkit import cli_run, shard_plan

from cbsolve.certificates.certify import verify_file
from cbsolve.runtime.deadline import Deadline
from cbsolve.search.worst import ledger as ledgers
from cbsolve.search.worst import shard_files as files
from cbsolve.search.worst.ledger_check import _verified
from cbsolve.search.worst.shards import run_shard
from cbsolve.game.variant import Variant

ROOT = Path(__file__).resolve().parents[2]
MM = ["--variant", "mastermind"]
KNUTH_TREE = ROOT / "models" / "mastermind-worst.json"


def planned(capsys, directory: Path, depth: int = 5, guesses: str = "candidates") -> dict:
    return shard_plan(capsys, directory, *MM, "--guesses", guesses, "--max-depth", str(depth),
                      "--split", "second")


def ledger_lines(directory: Path) -> list[dict]:
    return [json.loads(t) for t in (directory / "ledger.jsonl").read_text().splitlines()]


def run_all(capsys, directory: Path, code: int = 0) -> dict:
    """Every unit of the plan, one process, its ledger: exit ``code`` (1: a unit not refuted)."""
    got, out, err = cli_run(capsys, "optimal", *MM, "--plan", str(directory), "--shard", "1/1",
                            "--ledger", "--workers", "1", "--json")
    assert got == code, err
    return json.loads(out)


def whole_ledger(capsys, tmp_path) -> tuple[Path, Path, list[str]]:
    """The consistent-guesses plan run whole into its ledger: (plan dir, ledger, its lines)."""
    d = tmp_path / "p"
    planned(capsys, d)
    run_all(capsys, d)
    return d, d / "ledger.jsonl", (d / "ledger.jsonl").read_text().splitlines()


def test_shards_fill_one_ledger_that_resumes_and_merges_to_the_refutation(capsys, tmp_path):
    d = tmp_path / "p"
    units = planned(capsys, d)["units"]
    for k in (2, 1):   # two shards of one plan, one ledger
        code, out, err = cli_run(capsys, "optimal", *MM, "--plan", str(d), "--shard", f"{k}/2",
                                 "--ledger", "--json")
        assert code == 0, err
        code, out, _ = cli_run(capsys, "merge", str(d), "--ledger", "--json")
        assert code == (1 if k == 2 else 0)
    lines = ledger_lines(d)
    assert lines[0]["format"] == ledgers.LEDGER_FORMAT and lines[0]["units"] == units
    assert sorted(x["unit"] for x in lines[1:]) == list(range(units))
    for x in lines[1:]:
        assert x["outcome"] == "refuted" and x["proof"].startswith("sha256:")
        assert x["kernel"] == ledgers.kernel_id() and x["cpu"] >= 0 and x["nodes"] >= 1
        assert len(json.dumps(x, separators=(",", ":"))) < 400     # a compact line a unit
    result = json.loads(out)["result"]
    assert result["lower"] == 6 and result["units"] == units and "worst" not in result
    assert json.loads((d / "result.json").read_text()) == result
    # the result files are still written: the certificate merges and verifies as before
    assert cli_run(capsys, "merge", str(d))[0] == 0
    assert verify_file(d / "certificate.json").lower_bound == 6
    # a second run skips every unit in the ledger and writes nothing
    before = (d / "ledger.jsonl").read_bytes()
    again = run_all(capsys, d)
    assert {o["outcome"] for o in again["orbits"]} == {"done-before"}
    assert (d / "ledger.jsonl").read_bytes() == before


def test_a_time_limit_stops_between_units_and_the_next_run_finishes(capsys, tmp_path):
    d = tmp_path / "p"
    units = planned(capsys, d)["units"]
    ticks = iter(range(10**6))
    deadline = Deadline(12.0, clock=lambda: float(next(ticks)))    # a clock that steps per look
    run = run_shard(d, (1, 1), Variant.preset("mastermind"), deadline=deadline, ledger=True)
    assert run.stop is not None and run.stop.value == "time"
    done = [o for o in run.orbits if o["outcome"] == "refuted"]
    assert 0 < len(done) < units
    assert len(ledger_lines(d)) == 1 + len(done)      # one line a finished unit, no more
    rest = run_all(capsys, d)
    assert sum(o["outcome"] == "done-before" for o in rest["orbits"]) == len(done)
    assert len(ledger_lines(d)) == 1 + units


def test_verify_reruns_all_units_or_a_seeded_sample(capsys, tmp_path):
    d, _, _ = whole_ledger(capsys, tmp_path)
    code, out, err = cli_run(capsys, "verify", str(d / "ledger.jsonl"), "--json")
    report = json.loads(out)
    assert code == 0 and report["valid"] and len(report["checked"]) == report["units"]
    assert {c["agrees"] for c in report["checked"]} == {"same-proof"}
    assert all(c["verified"] is True and c["nodes"] >= 1 for c in report["checked"])
    picks = []
    for seed in (1, 1, 2):
        code, out, _ = cli_run(capsys, "verify", str(d / "ledger.jsonl"), "--sample", "4",
                               "--seed", str(seed), "--json")
        assert code == 0
        picks.append([c["unit"] for c in json.loads(out)["checked"]])
    assert len(picks[0]) == 4 and picks[0] == picks[1] and picks[0] != picks[2]
    code, out, err = cli_run(capsys, "verify", str(d / "ledger.jsonl"), "--sample", "2")
    assert code == 0 and "a sample of 2 (seed 0)" in out and "same proof hash" in err
    header = (d / "ledger.jsonl").read_text().splitlines()[0]
    (d / "ledger.jsonl").write_text(header + "\n")               # a ledger of no units yet
    code, out, _ = cli_run(capsys, "verify", str(d / "ledger.jsonl"))
    assert code == 1 and "no unit to check" in out


def test_a_damaged_or_edited_line_is_refused_with_one_line_exit_2(capsys, tmp_path):
    d, path, text = whole_ledger(capsys, tmp_path)
    line = json.loads(text[3])
    line["reply"] = "0,0" if line["reply"] != "0,0" else "1,0"      # edited, checksum not
    path.write_text("\n".join(text[:3] + [json.dumps(line)] + text[4:]) + "\n")
    for args in (["verify", str(path)], ["merge", str(d), "--ledger"],
                 ["optimal", *MM, "--plan", str(d), "--shard", "1/1", "--ledger"]):
        code, out, err = cli_run(capsys, *args)
        assert code == 2 and "line 4" in err and "checksum" in err, err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    path.write_text("\n".join(text[:1] + text[2:]) + "\n")             # a line dropped: missing
    code, out, _ = cli_run(capsys, "merge", str(d), "--ledger", "--json")
    assert code == 1 and json.loads(out)["missing"] == 1
    other = tmp_path / "other"                                         # another plan's ledger
    planned(capsys, other, guesses="all", depth=4)
    (other / "ledger.jsonl").write_text(path.read_text())
    code, _, err = cli_run(capsys, "verify", str(other / "ledger.jsonl"))
    assert code == 2 and "another plan" in err and len(err.strip().splitlines()) == 1


def test_a_forged_line_is_caught_by_the_rerun_and_another_kernel_by_its_outcome(capsys, tmp_path):
    d, path, text = whole_ledger(capsys, tmp_path)
    forged = json.loads(text[5])
    forged["proof"] = "sha256:" + "0" * 64                     # resealed: the checksum agrees
    other = json.loads(text[6])
    other.update(kernel="0123456789abcdef", proof="sha256:" + "1" * 64)
    text[5], text[6] = (json.dumps(files.sealed(x), separators=(",", ":")) for x in (forged, other))
    path.write_text("\n".join(text) + "\n")
    code, out, _ = cli_run(capsys, "verify", str(path), "--json")
    report = json.loads(out)
    assert code == 1 and report["failed"] == [forged["unit"]] and not report["valid"]
    by_unit = {c["unit"]: c for c in report["checked"]}
    assert by_unit[forged["unit"]]["agrees"] == "differs"
    assert by_unit[other["unit"]]["agrees"] == "same-outcome"    # hash not compared
    assert by_unit[other["unit"]]["verified"] is True            # its re-run sub-proof checked
    code, out, _ = cli_run(capsys, "verify", str(path))
    assert code == 1 and f"unit {forged['unit']} " in out and "another kernel" in out


def test_the_sub_proof_check_rejects_a_wrong_refutation(capsys, tmp_path):
    d, _, _ = whole_ledger(capsys, tmp_path)
    plan = files.read_plan(d)
    docs = [files.read_job(d, plan, i) for i in range(len(plan["units"]))]
    deep = max((x for x in docs if "node" in x), key=lambda x: len(json.dumps(x["node"])))
    assert _verified(plan, deep)["verified"] is True
    hollow = {**deep, "node": {"left": deep["node"]["left"]}}     # no refuted guess named
    assert _verified(plan, hollow)["verified"] is False
    wrong = {**deep, "reply": "4,0"}                              # the winning reply's class
    assert _verified(plan, wrong)["verified"] is False


def test_a_whole_ledger_and_a_verified_tree_give_the_exact_worst_case(capsys, tmp_path):
    d = tmp_path / "knuth"
    planned(capsys, d, depth=4, guesses="all")
    run_all(capsys, d)
    code, out, err = cli_run(capsys, "merge", str(d), "--ledger", "--tree", str(KNUTH_TREE))
    assert code == 0, err
    assert "the worst case is exactly 5" in out
    result = json.loads((d / "result.json").read_text())
    assert result["lower"] == 5 and result["worst"] == 5 and result["upper"]["worst"] == 5
    assert result["ledger"] == "sha256:" + __import__("hashlib").sha256(
        (d / "ledger.jsonl").read_bytes()).hexdigest()
    # a candidates-only ledger says nothing about a tree that plays other guesses
    c = tmp_path / "cand"
    planned(capsys, c)
    run_all(capsys, c)
    code, _, err = cli_run(capsys, "merge", str(c), "--ledger", "--tree", str(KNUTH_TREE))
    assert code == 2 and "consistent guesses only" in err


def test_a_second_guess_that_settles_its_class_is_named_by_the_ledger_merge(capsys, tmp_path):
    d = tmp_path / "p"      # every guess allowed: 5 guesses suffice (Knuth 1977)
    planned(capsys, d, depth=5, guesses="all")
    run_all(capsys, d, code=1)
    code, out, _ = cli_run(capsys, "merge", str(d), "--ledger", "--json")
    merged = json.loads(out)
    assert code == 1 and merged["missing"] == 0 and merged["result"] is None
    assert "1122" in {x.split(":")[0] for x in merged["not_refuted"]}
    assert not (d / "result.json").exists()


def test_a_torn_last_line_is_ignored_then_cut_off(capsys, tmp_path):
    d = tmp_path / "p"
    planned(capsys, d)
    plan = files.read_plan(d)
    run_shard(d, (1, 2), Variant.preset("mastermind"), deadline=Deadline(None), ledger=True)
    path = d / "ledger.jsonl"
    whole = len(ledgers.read_ledger(path, plan))
    with open(path, "a") as fh:
        fh.write('{"unit":1,"label":"11')              # a crash in the middle of a write
    assert len(ledgers.read_ledger(path, plan)) == whole
    run_shard(d, (2, 2), Variant.preset("mastermind"), deadline=Deadline(None), ledger=True)
    assert len(ledgers.read_ledger(path, plan)) == len(plan["units"])
    assert all(t.startswith("{") and t.endswith("}") for t in path.read_text().splitlines())


def _append_many(path: str, plan: dict, start: int) -> None:
    for i in range(start, start + 25):
        line = files.sealed({"unit": i, "label": ledgers._label(plan, i), "outcome": "refuted",
                             "cpu": 0.0, "nodes": 1, "proof": "sha256:" + "0" * 64})
        ledgers.append(path, plan, line)


def test_processes_append_to_one_ledger_without_tearing_lines(capsys, tmp_path):
    d = tmp_path / "p"
    planned(capsys, d)
    plan = files.read_plan(d)
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_append_many, args=(str(d / "ledger.jsonl"), plan, s))
             for s in (0, 25)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
        assert p.exitcode == 0
    text = (d / "ledger.jsonl").read_text().splitlines()
    assert len(text) == 51 and json.loads(text[0])["format"] == ledgers.LEDGER_FORMAT
    assert sorted(ledgers.read_ledger(d / "ledger.jsonl", plan)) == list(range(50))


@pytest.mark.parametrize("args, word", [
    (["optimal", *MM, "--plan", "P", "--max-depth", "5", "--ledger"], "--shard"),
    (["optimal", *MM, "--ledger"], "--plan"),
    (["merge", "P", "--tree", str(KNUTH_TREE)], "--ledger"),
    (["verify", str(KNUTH_TREE), "--sample", "3"], "ledger"),
])
def test_ledger_options_out_of_place_are_one_line_exit_2(capsys, tmp_path, args, word):
    args = [str(tmp_path / "p") if a == "P" else a for a in args]
    code, _, err = cli_run(capsys, *args)
    assert code == 2 and word in err and len(err.strip().splitlines()) == 1, err
