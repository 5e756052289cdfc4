"""The sweep shows the project's best proved values: a bounds row takes the bounds table's and
the certified models' values where they are stronger, lower bounds stay apart from optima (in
the table and in the plots), and the committed sweep agrees with the committed bounds table."""
import csv
import json
from pathlib import Path

import pytest

from cbsolve.analysis.proved import BOUNDS_TABLE, best_proved, overlay
from cbsolve.analysis.report import _draw_proved, _fmt

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = "N,D,kind,worst_lower,worst_exact,worst_lower_method,total_lower,total_exact,total_lower_method"


def bounds_row(n, d, repeats, worst_lower, total_lower, worst_exact="", total_exact="",
               secrets=840):
    return {"key": "k", "family": "f", "length": str(n), "alphabet": str(d),
            "repeats": str(int(repeats)), "no_leading_zero": "0", "feedback": "bulls-cows",
            "strategy": "bounds", "status": "ok", "secrets": str(secrets),
            "worst": worst_exact, "total": total_exact, "average": "", "histogram": "",
            "worst_lower": str(worst_lower), "worst_exact": worst_exact,
            "total_lower": str(total_lower), "total_exact": total_exact, "note": "own"}


@pytest.fixture
def sources(tmp_path):
    table = tmp_path / "table.csv"
    table.write_text(COLUMNS + "\n"
                     "4,7,distinct,6,True,search,3600,False,partition\n"
                     "4,8,distinct,5,False,partition,7000,False,partition\n")
    certified = tmp_path / "certified.json"
    certified.write_text(json.dumps({"x": {
        "command": "cbsolve optimal --objective expected --length 4 --symbols 0123456 "
                   "--distinct --out x.json", "objective": "expected", "lower": 3639,
        "proved": True, "file": "models/certified/x.json.gz"}}))
    return best_proved.__wrapped__(table, certified)


def test_a_stronger_source_raises_the_row_and_says_so(sources):
    row = overlay(bounds_row(4, 7, False, 5, 3517), sources)
    assert (row["worst_lower"], row["worst_exact"], row["worst"]) == ("6", "6", "6")
    assert (row["total_lower"], row["total_exact"], row["total"]) == ("3639", "3639", "3639")
    assert row["average"] == f"{3639 / 840:.6f}"
    assert "worst optimum from" in row["note"] and "certified model models/certified/x" in row["note"]
    assert overlay(row, sources) == row                       # idempotent


def test_a_lower_bound_stays_a_lower_bound(sources):
    row = overlay(bounds_row(4, 8, False, 5, 7435, secrets=1680), sources)
    assert row["worst_lower"] == "5" and row["worst_exact"] == ""    # not stronger: kept
    assert row["total_lower"] == "7435" and row["total_exact"] == ""  # weaker source ignored
    assert _fmt(row) == f"≥ {7435 / 1680:.3f} (≥ 5)"


def test_a_row_the_cell_proved_is_left_alone(sources):
    proved = bounds_row(4, 7, False, 6, 3639, worst_exact="6", total_exact="3639")
    assert overlay(proved, sources) == proved
    other = dict(bounds_row(4, 7, False, 5, 3517), strategy="minimax")
    assert overlay(other, sources) == other


def test_plot_draws_optima_and_lower_bounds_apart():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    rows = [bounds_row(4, 6, False, 5, 1446, worst_exact="5", total_exact="1446", secrets=360),
            bounds_row(4, 8, False, 6, 7435, secrets=1680)]
    _draw_proved(ax, rows, "worst")
    lines = {line.get_label(): list(line.get_xdata()) for line in ax.get_lines()}
    plt.close(fig)
    assert lines == {"optimum (proved)": [6], "lower bound (proved; optimum unknown)": [8]}


def test_the_committed_sweep_shows_the_bounds_tables_values():
    """docs/analysis/results.csv against docs/bounds-table.csv: no bounds row weaker than the
    table (Bulls & Cows 4/7, 4/8, 4/10 were drawn at 5, 5, 6 where the table proves 6, 6, 7)."""
    path = ROOT / "docs" / "analysis" / "results.csv"
    if not path.exists() or not BOUNDS_TABLE.exists():
        pytest.skip("no committed sweep or bounds table")
    best = best_proved()
    with path.open(newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["strategy"] == "bounds" and r["status"] == "ok"]
    assert rows
    for row in rows:
        assert overlay(row, best) == row, row["key"]
    worst = {(r["family"], int(r["length"]), int(r["alphabet"])): r["worst_exact"] for r in rows}
    assert [worst[("bulls-cows", 4, d)] for d in (7, 8, 10)] == ["6", "6", "7"]
