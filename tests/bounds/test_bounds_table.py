"""scripts/research/bounds_table.py smoke test: tiny grid, every output written, intervals consistent."""
from __future__ import annotations

import csv
import math

from testkit import load_script


def test_smoke_grid_writes_table_csv_and_plots(tmp_path):
    bt = load_script("bounds_table")
    rows = bt.bounds_table(range(2, 4), range(2, 5), workers=1, time_limit=2, strategy_limit=100,
                           search_limit=0)
    assert len(rows) == 5 + 6  # distinct needs N <= D
    for r in rows:
        assert r["worst_lower"] <= r["worst_upper"] and r["total_lower"] <= r["total_upper"]
        assert r["worst_exact"] == (r["worst_lower"] == r["worst_upper"])
        assert math.isclose(r["chvatal"], r["N"] * math.log(r["D"]) / math.log(math.comb(r["N"] + 2, 2)))
    paths = bt.write_outputs(rows, tmp_path)
    assert {p.name for p in paths} == {"bounds-table.md", "bounds-table.csv",
                                       "bounds-table-worst.png", "bounds-table-expected.png"}
    text = (tmp_path / "bounds-table.md").read_text()
    assert "### distinct" in text and "### repeats" in text and "**" in text
    with (tmp_path / "bounds-table.csv").open() as fh:
        assert len(list(csv.DictReader(fh))) == len(rows)
    assert (tmp_path / "bounds-table-worst.png").read_bytes()[:4] == b"\x89PNG"


def test_main_smoke(tmp_path, capsys):
    bt = load_script("bounds_table")
    assert bt.main(["--smoke", "--workers", "1", "--out", str(tmp_path)]) == 0
    assert "11 cells" in capsys.readouterr().out


def test_rows_record_the_verifier_and_mark_a_rejected_search(monkeypatch):
    import copy

    from cbsolve.search import worst

    bt = load_script("bounds_table")
    honest = bt.bounds_table([4], [6], ("distinct",), workers=1, time_limit=5,
                             strategy_limit=0)
    assert "worst: confirmed" in honest[0]["verified"] and honest[0]["worst_exact"]
    real = worst.solve_worst

    def wrong(*args, **kwargs):
        res = copy.deepcopy(real(*args, **kwargs))
        res.worst = res.lower = res.upper = res.upper + 1
        return res

    monkeypatch.setattr(worst, "solve_worst", wrong)
    rows = bt.bounds_table([4], [6], ("distinct",), workers=1, time_limit=5,
                           strategy_limit=0)
    assert "worst: rejected" in rows[0]["verified"] and not rows[0]["worst_exact"]
    assert "†" in bt.markdown(rows)


def test_update_recomputes_chosen_cells_and_keeps_the_rest(tmp_path, capsys):
    bt = load_script("bounds_table")
    assert bt.main(["--smoke", "--workers", "1", "--out", str(tmp_path)]) == 0
    before = bt.read_rows(tmp_path / "bounds-table.csv")
    header = bt.split_header((tmp_path / "bounds-table.md").read_text())
    # mark every row, so the recomputed ones can be told apart from the kept ones
    for r in before:
        r["notes"] = "kept"
    bt.write_outputs(before, tmp_path, header=header)
    assert bt.main(["--smoke", "--workers", "1", "--out", str(tmp_path),
                    "--cells", "3x4d,2x3r", "--update"]) == 0
    assert "11 cells (2 computed" in capsys.readouterr().out
    after = bt.read_rows(tmp_path / "bounds-table.csv")
    assert [(r["kind"], r["N"], r["D"]) for r in after] == [(r["kind"], r["N"], r["D"]) for r in before]
    redone = {(r["kind"], r["N"], r["D"]) for r in after if r["notes"] != "kept"}
    assert redone == {("distinct", 3, 4), ("repeats", 2, 3)}
    fresh = {(r["kind"], r["N"], r["D"]): r for r in
             bt.bounds_table(cells=[(3, 4, False)], workers=1, time_limit=10, strategy_limit=100,
                             search_limit=30)}
    row = next(r for r in after if (r["kind"], r["N"], r["D"]) == ("distinct", 3, 4))
    assert (row["worst_lower"], row["worst_upper"]) == (fresh[("distinct", 3, 4)]["worst_lower"],
                                                         fresh[("distinct", 3, 4)]["worst_upper"])
    text = (tmp_path / "bounds-table.md").read_text()
    assert text.startswith(header) and "cells 3x4d,2x3r recomputed" in text
    assert text.count("| 3 | 4 | 24 |") == 1        # the cell's row once, in the table
    assert (tmp_path / "bounds-table-worst.png").read_bytes()[:4] == b"\x89PNG"


def test_bad_cells_and_update_without_table_exit_2(tmp_path, capsys):
    bt = load_script("bounds_table")
    assert bt.main(["--cells", "5x10q", "--out", str(tmp_path)]) == 2
    assert bt.main(["--cells", "9x4d", "--out", str(tmp_path)]) == 2
    assert bt.main(["--cells", "3x4d", "--update", "--out", str(tmp_path / "none")]) == 2
    assert bt.main(["--update", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4 and all(line.startswith("bounds_table: ") for line in err)
