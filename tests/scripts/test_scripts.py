"""Every script in scripts/ runs: each smoke-tested with tiny arguments (the scripts that
have a test of their own are named in ``OWN_TESTS``), so a change to the package that breaks a
benchmark, a model generator, a research driver or a stress run fails here, not weeks later by
hand. The figures themselves are not asserted (benchmarks are not timed tests)."""
from __future__ import annotations

import json
import random
import string
from pathlib import Path

import numpy as np
import pytest
from testkit import load_script, script_path

from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.variant import Variant

ROOT = Path(__file__).resolve().parents[2]
MM = Variant.preset("mastermind")
TINY = Variant(3, "0123", False)               # 24 secrets: every search in milliseconds

#: Scripts smoke-tested in the test module of what they measure or make.
OWN_TESTS = {
    "band_scaling": "test_band_scaling.py", "bench_consistency": "test_consistency_backends.py",
    "bounds_table": "test_bounds_table.py", "build_atlas": "test_build_atlas.py",
    "fold_streaming": "test_fold_streaming.py", "recheck_cells": "test_recheck_cells.py",
    "stream_cells": "test_stream_cells.py",
    "fold_ledgers": "test_fold_ledgers.py",
    "find_witness": "test_witness.py", "polish_tree": "test_polish.py",
    "witness": "test_witness.py", "polish": "test_polish.py",
    "first_guess_value": "test_first_guess_value.py", "first_guess_bound": "test_first_guess_bound.py",
    "fuzz_cli": "test_cli_fuzz.py", "stress_expected_deadlines": "test_expected_stop_points.py",
    "stress_worst_deadlines": "test_worst_stop_points.py",
    "native_function_lengths": "test_native_function_length.py",
}


#: The benchmark smoke tests of 1.5-2.5 CPU s each (children started, a cluster, kills): the slow
#: run's, which CI runs after the README's command.
SLOW_BENCH = pytest.mark.slow


def test_every_script_is_smoke_tested():
    """Each script is loaded by a test here or named with its own test (which loads it)."""
    here = Path(__file__).read_text()
    for path in sorted(ROOT.glob("scripts/*/*.py")):
        name = path.stem
        if name in OWN_TESTS:
            own = next((ROOT / "tests").rglob(OWN_TESTS[name])).read_text()
            assert name in own, f"{OWN_TESTS[name]} does not load {name}"
        else:
            assert f'load_script("{name}")' in here, f"scripts/{path.parent.name}/{name}.py"


def test_ab_harness_runs_two_checkouts_together_and_in_turn():
    ab = load_script("ab")
    runs = ab.together([ab.THIS, ab.THIS], ["-c", "import cbsolve, sys; print(sys.path[0] or 1)"])
    assert [r.checkout for r in runs] == [ab.THIS, ab.THIS] and all(r.wall > 0 for r in runs)
    assert ab.alternating(["a", "b"], 2) == ["a", "b", "b", "a", "b", "a", "a", "b"]
    assert ab.ratio([2.0, 8.0], [1.0, 2.0]) == pytest.approx(8 ** 0.5)
    with pytest.raises(SystemExit, match="failed"):
        ab.run(ab.THIS, ["-c", "raise SystemExit(3)"])
    with pytest.raises(SystemExit, match="no cbsolve package"):
        ab.main([str(ROOT / "docs"), "-c", "pass"])


def test_bench_puzzle_stream_checks_a_short_stream_and_one_single_puzzle():
    bench = load_script("bench_puzzle_stream")
    row = bench.run_stream(5, "easy", seed=3, variant="mastermind")
    assert row["count"] == 5 and row["wall"] > 0
    assert bench.run_single(1)["count"] == 1


def test_ab_command_line_runs_python_with_a_checkouts_cbsolve(tmp_path):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, str(script_path("ab")), str(ROOT), "-c",
                          "import cbsolve, os; print(cbsolve.__file__, os.getcwd())"],
                         capture_output=True, text=True, cwd=tmp_path, check=True).stdout.split()
    assert out == [str(ROOT / "cbsolve" / "__init__.py"), str(ROOT)]


def test_bench_refute_sample_runs_a_tiny_plan_under_both_configurations(tmp_path, capsys):
    bench = load_script("bench_refute_sample")
    plan = bench.make_plan(Variant(4, "1234", True), tmp_path / "plan", 4)   # 129 units
    sample = bench.draw(plan, 10, seed=1)
    assert len(sample) == 10 == len(set(sample))
    assert {plan["units"][u]["orbit"] for u in sample} == set(range(len(plan["orbits"])))
    report = bench.main(["--plan", str(tmp_path / "plan"), "--size", "10", "--seed", "1",
                         "--ab", "today", "frontier", "--json"])
    assert report["sample"] == sample
    for name in ("today", "frontier"):
        rows = report["rows"][name]
        assert [r["unit"] for r in rows] == sample and all(r["cpu"] >= 0 for r in rows)
        assert report["summary"][name]["units"] == 10
    # the two configurations decide every unit alike
    assert ([r["outcome"] for r in report["rows"]["today"]]
            == [r["outcome"] for r in report["rows"]["frontier"]])


@SLOW_BENCH
def test_bench_toolkit_and_bench_setup_compare_this_checkout_with_itself(capsys):
    ab = load_script("ab")
    toolkit = load_script("bench_toolkit")
    rows = toolkit.bench(ab.THIS, ab.THIS, 1, "expected_3")
    assert [r["workload"] for r in rows] == ["expected 3 of 10 distinct"] and rows[0]["ratio"] > 0
    setup = load_script("bench_setup")
    assert setup.main(["--games", "mm5x5", "--searches", "worst"]) == 0
    assert "| mm5x5 | worst |" in capsys.readouterr().out


def test_bench_verify_certificates_runs_a_check_in_a_checkout(tmp_path):
    bench = load_script("bench_verify_certificates")
    from cbsolve.search.worst import solve_worst
    from cbsolve.certificates.tree import write_tree

    res = solve_worst(TINY, workers=1)
    write_tree(res.tree, tmp_path / "t.json")
    wall, cpu, out = bench.run(bench.ROOT, tmp_path / "t.json")
    assert wall > 0 and cpu >= 0 and " True " in f" {out} "


def test_bench_analysis_runs_one_sweep_cell_per_configuration():
    from cbsolve.analysis import make_cells

    bench = load_script("bench_analysis")
    cells = make_cells(lengths=[2], alphabets=[2], strategies=["minimax"])
    rows = bench.measure(cells, workers=(1,), repeat=1)
    assert rows[0]["scheduler"] == "local" and rows[0]["identical"]


@SLOW_BENCH
def test_bench_bounds_and_bench_scoring_rows():
    rows = load_script("bench_bounds").bench(runs=1, max_n=6)
    assert any("N=6" in label for label, _ in rows)
    rows = load_script("bench_scoring").run(repeat=1)
    assert rows[0][0].startswith("score matrix") and all(len(r[1]) == 2 for r in rows)


def test_bench_coach_times_both_reviews():
    bench = load_script("bench_coach")
    from cbsolve.advisor import PositionService

    log = FeedbackLog.parse(MM, ["1122:1,0"])
    review, seconds = bench.timed(PositionService(MM), log, "1344", "worst")
    assert seconds >= 0 and review.exact
    estimate, seconds = bench.timed_estimate(MM, log, "1344")
    assert seconds >= 0 and estimate.worst >= review.cost


@SLOW_BENCH
def test_bench_distributed_expected_optimal_play_and_strategies():
    dist = load_script("bench_distributed")
    rows = dist.bench(TINY, workers=(1,))
    assert rows[-1]["same"] is True
    rows = load_script("bench_expected").bench(bc_limit=0, workers=1, repeat=1)
    assert [r["total"] for r in rows] == [5625, 5626]     # Koyama-Lai (1993); depth 5
    rows = load_script("bench_optimal").bench(workers=(1,))
    assert rows[0]["worst"] == 5                           # Knuth (1977)
    bench_play = load_script("bench_play")
    row = bench_play.bot_latency("first", games=2, variant=TINY)
    assert row["turns"] >= 2
    assert bench_play._variant(["--variant", "mastermind"]) == MM     # the CLI's options
    row = load_script("bench_strategies").time_evaluation("mastermind", "first", repeats=1)
    assert row["total"] > 0


def test_simulate_trace_projects_a_chain_and_independent_units(capsys, tmp_path):
    sim = load_script("simulate_trace")
    # two groups in a chain: 4 tasks of 1 s after 1 s of driver work, then one task of 2 s
    trace = {"groups": [{"id": 0, "after": [], "driver_cpu": 1.0},
                        {"id": 1, "after": [0], "driver_cpu": 0.0}],
             "tasks": [{"group": 0, "cpu": 1.0}] * 4 + [{"group": 1, "cpu": 2.0}]}
    assert sim.simulate(trace, 1)["makespan"] == pytest.approx(7.0)
    assert sim.simulate(trace, 2)["makespan"] == pytest.approx(5.0)
    assert sim.simulate(trace, 8)["makespan"] == pytest.approx(4.0)
    assert sim.simulate(trace, 8, barriers=False)["makespan"] == pytest.approx(3.0)
    assert sim.summary(trace)["largest"] == 2.0
    # guesses in flight: the driver spends 2 s between sending its two tasks of 1 s
    flight = {"groups": [{"id": 0, "after": [], "driver_cpu": 0.0, "driver_sent": 2.0},
                         {"id": 1, "after": [0], "driver_cpu": 2.0}],
              "tasks": [{"group": 0, "cpu": 1.0, "ready": 0.0},
                        {"group": 0, "cpu": 1.0, "ready": 2.0}]}
    assert sim.simulate(flight, 1) == pytest.approx(
        {"workers": 1, "makespan": 3.0, "one_worker": 4.0, "speedup": 4 / 3})
    # the first task built its worker's search (0.5 s): every worker pays that once
    built = {"groups": [{"id": 0, "after": [], "driver_cpu": 0.0}],
             "tasks": [{"group": 0, "cpu": 1.5, "setup": 0.5}, {"group": 0, "cpu": 1.0}]}
    assert sim.simulate(built, 2) == pytest.approx(
        {"workers": 2, "makespan": 1.5, "one_worker": 2.5, "speedup": 2.5 / 1.5})
    path = tmp_path / "run.trace.json"
    path.write_text(json.dumps({"objective": "expected", "variant": {"name": "t"}, **trace}))
    sim.main([str(path), "--workers", "1", "8"])
    assert "speed-up" in capsys.readouterr().out


def test_sample_shards_runs_units_of_a_deeper_plan_and_projects(tmp_path, capsys):
    from cbsolve.search.worst.shards import plan_refutation

    plan_refutation(MM, tmp_path / "p", 5, "candidates", split="second")
    sample = load_script("sample_shards")
    sample.main(["--plan", str(tmp_path / "p"), "--sample", "2", "--limit", "30", "--",
                 "--variant", "mastermind"])
    lines = capsys.readouterr().out.splitlines()
    doc = json.loads(lines[-1])
    assert [r["outcome"] for r in doc["rows"]] == ["refuted", "refuted"]
    assert doc["projection"]["units"] > 2 and not doc["projection"]["lower_bound"]


def test_bench_on_the_fly_runs_a_child():
    row = load_script("bench_on_the_fly").run(3, "0123", False, "worst", "on-the-fly", None, 1)
    assert row["proved"] and row["source"] == "on-the-fly"


def test_bench_time_limits_and_verify_bounds_rows():
    limits = load_script("bench_time_limits")
    limit, seconds = limits.count_n16()
    assert limit > 0 and seconds >= 0
    row = load_script("bench_verify_bounds").measure(TINY, 5.0, 5.0)
    assert row["worst_ok"] and row["expected_ok"]


def test_make_models_worst_reproduces_the_stored_mastermind_file(tmp_path):
    make = load_script("make_models")
    make.main(["worst", "--only", "mastermind", "--out", str(tmp_path)])
    assert (tmp_path / "mastermind-worst.json").read_bytes() == \
        (ROOT / "models" / "mastermind-worst.json").read_bytes()


def test_make_models_expected_small_and_certified(tmp_path, capsys):
    make = load_script("make_models")
    path = make.make_expected("mm", MM, max_depth=5, out_dir=tmp_path)
    stored = ROOT / "models" / "mastermind-4-6-expected-depth5.json"
    assert path.read_text() == stored.read_text()
    assert make.main(["small", "--max-length", "2", "--expected-limit", "1"]) == 0
    assert "| mastermind | 2 | 2 |" in capsys.readouterr().out
    assert make.main(["certified", "--list"]) == 0 and "mm-5x4-expected" in capsys.readouterr().out


def test_band_estimate_helpers():
    band = load_script("band_estimate")
    assert band.arrangements_log2([1, 1]) == pytest.approx(1.0)
    assert band.bulls_collision_log2(4, 10, np.random.default_rng(0), guesses=3, codes=200) < 0


def test_audit_inconsistent_decides_a_tiny_log():
    audit = load_script("audit_inconsistent")
    v = Variant(4, string.digits, False)
    toks, _ = audit.gen_flip(v, 3, random.Random(1))
    log = FeedbackLog.parse(v, toks)
    assert audit.decide(log, 2.0) in (True, False, None)
    rec = {"results": {"native": audit.run_backend(log, "native", 2.0)}}
    assert isinstance(audit.classify(rec), list) and rec["truth"] in (
        "consistent", "inconsistent", "unknown")


def test_stress_time_limits_one_case():
    stress = load_script("stress_time_limits")
    row = stress.run_one("evaluate", "mm4x7", 0.2)
    assert row["call"] == "evaluate" and json.dumps(row)


def test_stress_commands_tell_an_unexercised_stop_from_a_slow_one():
    """A case that ended before its Ctrl-C measured nothing: its own verdict, not a slow stop."""
    verdict = load_script("stress_time_limits").verdict
    ctrl_c = {"limit": None, "exit": 130, "printed": True, "says_time_limit": False}
    assert verdict("next", {**ctrl_c, "exercised": False, "overrun": None}) \
        == "did not exercise the stop"
    assert verdict("next", {**ctrl_c, "exercised": True, "overrun": 0.9}, 0.5) == "slow stop"
    assert verdict("next", {**ctrl_c, "exercised": True, "overrun": 0.1}, 0.5) == "ok"
    assert verdict("next", {**ctrl_c, "exercised": True, "overrun": 0.1, "printed": False},
                   0.5) == "no answer printed"
    assert verdict("bot", {**ctrl_c, "exercised": True, "overrun": 0.1, "printed": False},
                   0.5) == "ok"
    timed = {"limit": 2.0, "exit": 0, "printed": True, "exercised": True, "overrun": 0.2}
    assert verdict("next", timed, 0.5) == "ok"
    assert verdict("next", {**timed, "exit": 2}, 0.5) == "exit 2"


def test_script_path_finds_each_folder():
    assert script_path("make_models").parent.name == "models"
    assert script_path("find_witness").parent.name == "research"


def test_bench_serve_answers_a_few_requests_through_one_service():
    row = load_script("bench_serve").run(20)
    assert row["requests"] == 20 and row["median_ms"] > 0


@SLOW_BENCH
def test_bench_position_times_each_face_on_a_tiny_game():
    bench = load_script("bench_position")
    opts = ["--length", "3", "--digits", "5"]
    for face in bench.FACES:
        for entries in ([], ["012:1,1"]):
            found = bench.command(face, opts, entries, ["--time-limit", "5"], "012")
            if found is None:
                assert face == "play-host" and entries
                continue
            seconds, code, source = bench.run(*found)
            assert code == 0 and seconds > 0, (face, entries)
            if face == "next":
                assert source in ("opening", "heuristic"), (entries, source)


@SLOW_BENCH
def test_bench_api_rows_on_small_settings():
    bench = load_script("bench_api")
    rows = bench.bench_puzzle(seeds=1) + bench.bench_regret(positions=1, guesses=2)
    assert {r["row"].split(",")[0] for r in rows} >= {"regret expected", "regret worst"}
    assert all(r["median"] > 0 and r["cpu"] >= 0 for r in rows)


@SLOW_BENCH
def test_bench_api_compares_two_trees_row_by_row(capsys):
    bench = load_script("bench_api")
    here = str(Path(__file__).parents[2])
    bench.compare("import", here, 1)        # this tree against itself: one row, both columns
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"A = {here}, B = {here}, 1 pairs")
    assert out[2].startswith("import cbsolve") and len(out[2].split()) >= 5


def test_regret_profile_sums_the_class_solves_by_size():
    out = load_script("regret_profile").profile(positions=2, guesses=3, seed=0)
    assert len(out["per_guess"]) == 6 and out["checksum"] > 0
    assert sum(k for k, _, _ in out["buckets"].values()) >= 6


def test_check_portable_finds_the_built_kernels_portable():
    """The kernels compile their fast loops per instruction set and dispatch at run time: no
    instruction beyond the x86-64 baseline outside the dispatched copies."""
    import platform
    import shutil

    if platform.machine() != "x86_64" or shutil.which("objdump") is None:
        pytest.skip("x86-64 ELF and objdump only")
    check = load_script("check_portable")
    so = sorted((ROOT / "cbsolve" / "_native").glob("scoring*.so"))
    assert so and check.main([str(so[0])]) == 0


def test_docs_hooks_write_the_cli_reference_from_the_commands():
    page = load_script("docs_hooks").reference()
    assert "cbsolve consistent" in page and "--time-limit" in page


@SLOW_BENCH
def test_bench_checkpoint_kills_and_resumes_a_tiny_search():
    rows = load_script("bench_checkpoint").main(["--game", "tiny-expected", "--every", "0.05",
                                                 "--workers", "1"])
    assert rows[0]["same_value"] is True and rows[0]["game"] == "tiny-expected"
    gaps = load_script("bench_checkpoint").main(["--game", "tiny-expected", "--gaps",
                                                 "--workers", "1"])
    assert gaps[0]["writes"] >= 1


def test_bench_listing_compares_the_filter_and_the_search(capsys):
    load_script("bench_listing").main(["--length", "4", "--digits", "6", "--entries", "1234:1,1"])
    assert "| 1234:1,1 |" in capsys.readouterr().out


@SLOW_BENCH
def test_limits_sweep_measures_each_cell_as_its_own_process(tmp_path):
    """Two tiny cells of the sweep: each a whole process, its wall time and peak memory
    recorded, the CSV written as it goes; an over-limit cell is marked (a 0 MB cap)."""
    sweep = load_script("bench_limits_sweep")
    out = tmp_path / "sweep.csv"
    rows = sweep.sweep("bounds", ["repeats", "distinct"], [2], [2, 3], 5.0, out, 5.0, 4096)
    assert [(r["rule"], r["digits"]) for r in rows] == [("repeats", 2), ("repeats", 3),
                                                        ("distinct", 2), ("distinct", 3)]
    assert all(r["exit"] == 0 and r["peak_mb"] > 0 and r["ok"] for r in rows)
    assert len(out.read_text().splitlines()) == 1 + len(rows)
    over = sweep.sweep("partition", ["repeats"], [2], [2], 5.0, None, 5.0, 0)
    assert over[0]["exit"] == 0 and not over[0]["ok"]


def test_a_measured_child_gives_its_json_its_costs_or_its_own_error_line():
    """scripts/common/child_run.py, what the streaming benchmark and the atlas build both record:
    the child's last JSON line with its CPU, peak memory and wall; a failure as the child's own
    last line, not /usr/bin/time's report; a streaming run measured the same way."""
    child = load_script("child_run")
    row = child.measured(["-c", "print('noise'); print('{\"x\": 3}')"])
    assert row["x"] == 3 and row["cpu_seconds"] >= 0 and row["peak_rss_mb"] > 1
    assert row["wall_seconds"] >= 0 and "load" in row
    failed = child.measured(["-c", "import sys; sys.exit('the child says why')"])
    assert failed["error"] == "the child says why" and "cpu_seconds" not in failed
    capped = child.measured(["-c", "b = bytearray(400 * 2**20)"], memory_gb=0.2)
    assert capped["error"] == "MemoryError"
    game = Variant(3, "012", True).to_dict()
    run = child.streaming(game, {"heuristic": "minimax"}, 60)
    assert run["complete"] and run["secrets"] == 27 and run["peak_rss_mb"] > 1
    here = child.evaluated(game, {"heuristic": "minimax"}, None)
    measures = ("seconds", "wall_seconds", "load", "cpu_seconds", "peak_rss_mb")
    assert {k: v for k, v in run.items() if k not in measures} == {
        k: v for k, v in here.items() if k != "seconds"}


def test_bench_streaming_runs_one_game_and_tabulates_the_best_run():
    """One tiny game in this process, its first-guess patterns, and the table of its best
    complete run (the rows the benchmark appends to its results file)."""
    bench = load_script("bench_streaming")
    row = bench.run_one("3x3", {"heuristic": "minimax"}, None)
    assert row["complete"] and row["secrets"] == 27 and sum(row["histogram"].values()) == 27
    assert len(bench.first_guesses("3x3")) == 3             # patterns 3, 2+1, 1+1+1
    row.update(game="3x3", wall_seconds=0.1, cpu_seconds=0.1, peak_rss_mb=1.0, mikemag=None,
               load=0.0)
    worse = dict(row, worst=row["worst"] + 1)
    text = bench.table([worse, row])
    assert f"| 3x3 | 27 | {row['worst']} (None)" in text
    distinct = bench.run_one("3x4-distinct", {"heuristic": "parts"}, None)
    assert distinct["variant"]["repeats"] is False and distinct["secrets"] == 24
    assert sum(distinct["histogram"].values()) == 24
    peg = bench.game_variant("12x2-black-peg")
    assert peg.bulls_only and peg.repeats and (peg.length, peg.n_symbols) == (12, 2)
    for bad in ("5x4-distinct", "3x13", "3by4"):
        with pytest.raises(SystemExit, match="bench_streaming: "):
            bench.game_variant(bad)


def test_atlas_page_is_the_atlas_shipped():
    """docs/atlas.md is generated from models/atlas.json: the page is the one the data gives,
    and it names every family's grid and the build's hash."""
    page = load_script("atlas_page")
    from cbsolve.bounds import atlas_file

    doc = atlas_file.load()
    budgets = json.loads(page.BUDGETS.read_text())
    text = page.page(doc, budgets)
    assert text == page.PAGE.read_text()
    assert doc["sha256"][:12] in text
    assert all(title in text for _, title in page.FAMILIES)


def test_bench_review_games_are_consistent_and_reviewed():
    bench = load_script("bench_review")
    games = bench.random_games(TINY, 3, seed=1)
    for game in games:      # each guess a candidate, the last one the secret
        log = FeedbackLog(TINY)
        for e in game["entries"]:
            log.add(e["guess"], e["bulls"], e["cows"])
        assert log.entries[-1].bulls == 3 and log.solved_at() == len(log)
    out = bench.bench(TINY, 3, seed=1, move_time=None)
    assert [g["moves"] for g in out["games"]] == [len(g["entries"]) for g in games]
    assert all(g["exact"] == g["moves"] for g in out["games"])     # 24 codes: all exact


def test_reference_rows_agree_across_adapters():
    """The three adapters host the same games (same secrets, same players): the same rows."""
    bench = load_script("reference_rows")
    adapters = ["gym"] + [a for a in ("textarena", "verifiers")
                          if __import__("importlib").util.find_spec(a)]
    options = {"variant": "bulls-cows", "length": 3, "digits": 4, "slack": 2}
    found = bench.rows(options, 2, 5, adapters, ["random", "optimal"], None)
    by_player = {}
    for r in found:
        key = {k: v for k, v in r.items() if k != "adapter"}
        by_player.setdefault(r["player"], []).append(key)
    assert all(len({json.dumps(k, sort_keys=True) for k in keys}) == 1
               for keys in by_player.values())
    optimal = next(r for r in found if r["player"] == "optimal")
    assert optimal["solved"] == 2 and optimal["regret_expected"] == 0
    assert "| gym | random |" in bench.table(found)


def test_review_table_covers_every_second_guess_and_writes_a_table_the_review_reads(tmp_path):
    from cbsolve.advisor import PositionService
    from cbsolve.advisor.review_memo import ReviewMemo

    table = load_script("review_table")
    variant = Variant(3, "0123", False)
    work = table.orbits(PositionService(variant), 0, False)
    assert sum(k for _, _, k in work) == 24 - 1           # every candidate but the win
    out = tmp_path / "table.json"
    table.main(["--length", "3", "--digits", "4", "--out", str(out), "--third"])
    data = json.loads(out.read_text())
    assert Variant.from_dict(data["variant"]) == variant
    kinds = {key.split("|")[0] for key in data["reviews"]}
    assert kinds == {"worst", "expected", "optimum"}
    assert ReviewMemo(variant).canonical([(3, 1, 0)])[0] == (0, 1, 2)   # renamed in order


def test_review_table_third_guesses_in_slices_merge_into_every_third_move(tmp_path):
    from cbsolve.advisor import PositionService
    from cbsolve.advisor.review_memo import ReviewMemo
    from cbsolve.runtime.deadline import Deadline

    table = load_script("review_table")
    variant = Variant(3, "0123", False)
    service = PositionService(variant)
    moves = table.third_guesses(service, table.third_positions(
        service, table.orbits(service, 0, False)))
    assert 0 < sum(share for _, _, share in moves) < 1   # games won by the second guess: none
    parts = [tmp_path / f"part{i}.json" for i in range(2)]
    for i, part in enumerate(parts):
        table.main(["--length", "3", "--digits", "4", "--out", str(part), "--third-guesses",
                    "--slice", f"{i}/2"])
    out = tmp_path / "table.json"
    table.main(["--length", "3", "--digits", "4", "--out", str(out), "--merge", *map(str, parts)])
    memo = ReviewMemo(variant)
    memo.fold(json.loads(out.read_text()))
    for log, guess, _ in moves:
        for objective in ("worst", "expected"):
            kept = memo.get(memo.key(log, service.space.parse(guess), objective))
            fresh = PositionService(variant).review(log, guess, objective, Deadline(None))
            assert kept is not None and kept[:3] == (fresh.candidates, fresh.cost, fresh.best)
