"""Regenerate the certified expected-case optimal trees in models/ (cbsolve.search.expected).

Each tree is replayed against every secret with the scoring rule (cbsolve.tree.histogram_of)
before it is written; tests/test_search_expected.py replays the stored files again.

    python scripts/models/make_expected_models.py                 # Mastermind 4/6 (5625) and depth 5 (5626)
    python scripts/models/make_expected_models.py --bulls-cows 600  # also Bulls & Cows 4/10 if proved in time
"""
from __future__ import annotations

import argparse
from pathlib import Path

from cbsolve.search.expected import solve_expected
from cbsolve.tree import histogram_of, write_tree
from cbsolve.variant import Variant

MODELS = Path(__file__).resolve().parents[2] / "models"


def make(name: str, variant: Variant, max_depth: int | None = None,
         time_limit: float | None = None, out_dir: Path = MODELS) -> Path | None:
    """Solve, replay, write ``<out_dir>/<name>.json``; None if not proved within the limit."""
    result = solve_expected(variant, max_depth=max_depth, time_limit=time_limit, progress=False)
    if not result.proved or result.tree is None:
        print(f"{name}: not proved within {time_limit} s: total in [{result.lower}, {result.upper}]")
        return None
    if histogram_of(variant, result.tree["root"]) != result.histogram:
        raise SystemExit(f"{name}: the tree does not replay to its statistics")
    path = out_dir / f"{name}.json"
    write_tree(result.tree, path)
    print(f"{name}: total {result.total}, worst {result.worst}, {result.seconds:.1f} s -> {path}")
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bulls-cows", type=float, default=0.0, metavar="SECONDS",
                        help="also try Bulls & Cows 4/10 within this time limit (0: skip)")
    args = parser.parse_args(argv)
    mm = Variant.preset("mastermind")
    make("mastermind-4-6-expected", mm)
    make("mastermind-4-6-expected-depth5", mm, max_depth=5)
    if args.bulls_cows > 0:
        make("bulls-cows-4-10-expected", Variant.preset("bulls-cows"), time_limit=args.bulls_cows)


if __name__ == "__main__":
    main()
