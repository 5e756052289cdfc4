"""scripts/bench/band_scaling.py smoke test: every engine on a tiny point, and the pooled refit."""
from __future__ import annotations

import json

from testkit import load_script


def test_tiny_run_and_refit(tmp_path):
    bs = load_script("band_scaling")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    common = ["--lengths", "8,10", "--ratios", "1.0", "--seeds", "2", "--time-limit", "5",
              "--fit-floor", "0"]
    bs.main([*common, "--engines", ",".join(bs.ENGINES), "--json-out", str(a)])
    bs.main([*common, "--engines", "dfs", "--first-seed", "2", "--json-out", str(b)])
    rows = json.loads(a.read_text())["rows"]
    assert len(rows) == 2 * len(bs.ENGINES) and all(r["unknown"] == 0 for r in rows)
    out = tmp_path / "pooled.json"
    bs.main(["--from-json", f"{a},{b}", "--fit-floor", "0", "--json-out", str(out)])
    pooled = json.loads(out.read_text())
    dfs_rows = [r for r in pooled["rows"] if r["engine"] == "dfs"]
    assert [r["seeds"] for r in dfs_rows] == [4, 4]     # seeds 0-1 and 2-3 pooled
    assert {(f["ratio"], f["engine"]) for f in pooled["fits"]} >= {(1.0, "dfs")}
