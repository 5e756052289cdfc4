"""scripts/bounds_table.py smoke test: tiny grid, every output written, intervals consistent."""
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
