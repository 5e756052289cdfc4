"""Regenerate the certified worst-case models in models/ (trees with lower-bound certificates).

Pure function :func:`make_models` plus :func:`main`. Each file is a strategy tree
(docs/tree-format.md) of optimal worst case with an embedded certificate (docs/optimal.md)
that the worst case minus one is impossible; tests/test_certify_models.py verifies them with
``cbsolve.certify`` alone. The output is deterministic (the search's choices do not depend on
thread timing), so rerunning the script reproduces the files byte for byte.

    python scripts/models/make_models_worst.py            # Mastermind 4/6 (tie-breaks proved: 539
                                                   # secrets at 5, total 5627) and B&C 4/10
    python scripts/models/make_models_worst.py --only mastermind
"""
from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path

from cbsolve.search.worst import solve_worst
from cbsolve.variant import Variant

MODELS = {
    # name -> (variant preset, output file, lookahead of the tie-break, tie-breaks proved
    # (solve_worst ties=True)); .gz files are read by `cbsolve verify` directly
    "mastermind": ("mastermind", "mastermind-worst.json", 0, True),
    "bulls-cows": ("bulls-cows", "bulls-cows-worst.json.gz", 4, False),
    # the first tie-break only: 50 secrets at 7 proved in ~25 min on 2 shared cores
    "bulls-cows-ties": ("bulls-cows", "bulls-cows-worst-ties.json.gz", 0, "count"),
}


def make_models(out_dir: Path, names=tuple(MODELS), workers: int | None = None) -> list[dict]:
    """Solve each model, write it, and return one summary row per file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in names:
        preset, filename, lookahead, ties = MODELS[name]
        # the tie-break search's tree may depend on thread timing among equal optima: one
        # worker keeps the file reproducible byte for byte
        one = ties is True  # Mastermind: fast enough for one worker
        result = solve_worst(Variant.preset(preset), workers=1 if one else workers,
                             lookahead=lookahead, ties=ties)
        if not result.proved or result.certificate is None:
            raise RuntimeError(f"{name}: optimum not proved ({result.notes})")
        if ties and not result.tree["ties"]["proved" if ties is True else "at_worst_proved"]:
            raise RuntimeError(f"{name}: tie-breaks not proved ({result.notes})")
        text = json.dumps(result.tree, separators=(",", ":"), sort_keys=False) + "\n"
        path = out_dir / filename
        data = text.encode("utf-8")
        if filename.endswith(".gz"):
            data = gzip.compress(data, compresslevel=9, mtime=0)  # mtime 0: reproducible bytes
        path.write_bytes(data)
        rows.append({"model": name, "file": str(path), "worst": result.worst,
                     "total": result.total, "at_worst": result.at_worst,
                     "seconds": round(result.seconds, 2), "bytes": len(data)})
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / "models"))
    parser.add_argument("--only", choices=sorted(MODELS), action="append")
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    for row in make_models(Path(args.out), tuple(args.only or MODELS), args.workers):
        print(row)
    print(f"done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
