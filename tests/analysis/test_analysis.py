"""`cbsolve analyze`: cells, local pool vs Dask (identical results), resuming, report, CLI."""
import csv
import json

import pytest

from cbsolve.analysis import make_cells, run_cell, run_sweep
from cbsolve.analysis.sweep import family_variant
from cbsolve.cli import main
from cbsolve.game.variant import Variant

SMALL = dict(lengths=[2, 3], alphabets=[2, 3, 4], strategies=["minimax", "first", "random"])


def small_cells():
    return make_cells(["mastermind", "bulls-cows"], **SMALL)


def rows_of(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_cells_are_unique_and_skip_impossible_variants():
    cells = small_cells()
    keys = [c["key"] for c in cells]
    assert len(keys) == len(set(keys))
    # distinct symbols need N <= D: bulls-cows N=3 with D=2 is impossible and left out
    assert not any(c["family"] == "bulls-cows" and c["variant"]["length"] == 3
                   and len(c["variant"]["symbols"]) == 2 for c in cells)
    assert family_variant(Variant.preset("mastermind"), 3, 4).symbols == "1234"
    assert family_variant(Variant.preset("bulls-cows"), 2, 5).symbols == "01234"
    assert family_variant(Variant.preset("cowbull"), 2, 6).symbols == "ABCDEF"


def test_known_values_and_bounds_agree_with_the_strategies():
    # Knuth 1977: minimax on Mastermind 4/6 needs 5801 guesses in total, worst case 5
    row = run_cell(make_cells(["mastermind"], [4], [6], ["minimax"], bounds=False)[0])["row"]
    assert (row["total"], row["worst"]) == (5801, 5)
    table = {}
    for cell in make_cells(["mastermind", "bulls-cows"], [2, 3], [3, 4, 5],
                           ["minimax", "expected", "first"]):
        r = run_cell(cell)["row"]
        assert r["status"] == "ok", r
        table.setdefault((r["family"], r["length"], r["alphabet"]), {})[r["strategy"]] = r
    for _key, by in table.items():
        b = by["bounds"]
        for s in ("minimax", "expected", "first"):
            assert b["worst_lower"] <= by[s]["worst"] and b["total_lower"] <= by[s]["total"]
            if b["total_exact"] != "":  # the optimum is no worse than any heuristic
                assert b["total_exact"] <= by[s]["total"] and b["worst_exact"] <= by[s]["worst"]
        hist = json.loads(by["minimax"]["histogram"])
        assert sum(hist.values()) == by["minimax"]["secrets"]
        assert sum(int(k) * v for k, v in hist.items()) == by["minimax"]["total"]


def test_a_failing_cell_is_reported_not_raised():
    cell = dict(make_cells(["mastermind"], [2], [2], ["minimax"], bounds=False)[0])
    cell["strategy"] = "psychic"
    row = run_cell(cell)["row"]
    assert row["status"] == "error" and "psychic" in row["note"]


def test_local_pool_and_dask_give_identical_results(tmp_path):
    import distributed

    cells = small_cells()
    run_sweep(cells, tmp_path / "zero", workers=0, make_plots=False)
    one = run_sweep(cells, tmp_path / "one", workers=1, make_plots=False)
    two = run_sweep(cells, tmp_path / "two", workers=2, make_plots=False)
    assert one.errors == two.errors == 0 and one.computed == len(cells)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, env={"OMP_NUM_THREADS": "1"}) as cluster:
        dask = run_sweep(cells, tmp_path / "dask", scheduler=cluster.scheduler_address,
                         make_plots=False)
    assert dask.computed == len(cells) and dask.errors == 0
    base = (tmp_path / "one" / "results.csv").read_bytes()
    assert (tmp_path / "two" / "results.csv").read_bytes() == base
    assert (tmp_path / "zero" / "results.csv").read_bytes() == base
    assert (tmp_path / "dask" / "results.csv").read_bytes() == base
    assert len(rows_of(tmp_path / "dask" / "timings.csv")) == len(cells)


def test_rerun_skips_finished_cells_and_survives_a_torn_line(tmp_path):
    cells = small_cells()
    first = run_sweep(cells[:10], tmp_path, workers=0, make_plots=False)
    assert first.computed == 10
    # an interrupted append: half a row at the end of the file
    with open(tmp_path / "results.csv", "a") as fh:
        fh.write("N=9 D=9 distinct symbols=0123456789 minimax,bulls-c")
    again = run_sweep(cells, tmp_path, workers=0, make_plots=False)
    assert again.skipped == 10 and again.computed == len(cells) - 10
    rows = rows_of(tmp_path / "results.csv")
    assert [r["key"] for r in rows] == [c["key"] for c in cells]  # table order restored
    third = run_sweep(cells, tmp_path, workers=0, make_plots=False)
    assert third.computed == 0 and third.skipped == len(cells)
    run_sweep(cells, tmp_path / "fresh", workers=1, make_plots=False)
    assert (tmp_path / "fresh" / "results.csv").read_bytes() == \
        (tmp_path / "results.csv").read_bytes()


def test_report_markdown_and_plots(tmp_path):
    cells = make_cells(["mastermind"], [2, 3], [2, 3], ["minimax", "first"])
    res = run_sweep(cells, tmp_path, workers=0)
    md = (tmp_path / "results.md").read_text()
    assert "## mastermind" in md and "| 3 | 3 | 27 |" in md
    pngs = sorted(p.name for p in tmp_path.glob("*.png"))
    assert pngs == ["mastermind-average.png", "mastermind-histograms.png", "mastermind-worst.png"]
    for p in tmp_path.glob("*.png"):
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert res.errors == 0


def test_cli_analyze_json_and_resume(tmp_path, capsys):
    args = ["analyze", "--family", "mastermind", "--lengths", "2", "--alphabets", "2-3",
            "--strategies", "minimax,random", "--out", str(tmp_path), "--workers", "0",
            "--no-plots", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cells"] == 6 and data["computed"] == 6 and data["errors"] == 0
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["computed"] == 0 and data["resumed"] == 6


def test_cli_analyze_given_variant_is_the_family(tmp_path, capsys):
    assert main(["analyze", "--variant", "cowbull", "--length", "2", "--strategies", "first",
                 "--no-bounds", "--out", str(tmp_path), "--workers", "0", "--no-plots",
                 "--json"]) == 0
    rows = rows_of(tmp_path / "results.csv")
    assert [(r["length"], r["alphabet"], r["strategy"]) for r in rows] == [("2", "4", "first")]


@pytest.mark.parametrize("args,fragment", [
    (["--strategies", "minimax,psychic"], "unknown strategy 'psychic'"),
    (["--lengths", "2-x"], "--lengths '2-x'"),
    (["--alphabets", "0"], "values must be in 1..26"),
    (["--family", "nope"], "unknown variant 'nope'"),
    (["--workers", "-1"], "'--workers': must be a whole number in 0..256, got '-1'"),
])
def test_cli_analyze_bad_options_exit_2(tmp_path, capsys, args, fragment):
    assert main(["analyze", "--out", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1


def test_cli_analyze_unreachable_scheduler_exit_2(tmp_path, capsys):
    # the time limit bounds Dask's retries (10 s without one: tests/search/test_distributed.py)
    code = main(["analyze", "--family", "mastermind", "--lengths", "2", "--alphabets", "2",
                 "--strategies", "first", "--no-bounds", "--out", str(tmp_path),
                 "--scheduler", "tcp://127.0.0.1:9", "--no-plots", "--time-limit", "1"])
    assert code == 2 and "cannot connect to the Dask scheduler" in capsys.readouterr().err


def test_committed_default_sweep_reproduces_on_its_small_cells():
    """docs/analysis/results.csv (the committed default sweep): recompute every cell of at most
    120 secrets and compare the whole row."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "docs" / "analysis" / "results.csv"
    if not path.exists():
        pytest.skip("no committed default sweep")
    committed = {r["key"]: r for r in rows_of(path)}
    cells = [c for c in make_cells() if c["secrets"] <= 120]
    assert cells and all(c["key"] in committed for c in cells)
    for cell in cells:
        row = run_cell(cell)["row"]
        assert {k: str(v) for k, v in row.items()} == committed[cell["key"]], cell["key"]
