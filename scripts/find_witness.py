"""Find a strategy for Bulls & Cows 5 of 10 that wins every secret within 7 guesses.

The complete worst-case search stays at [7, 8] after an hour (docs/optimal.md, "Certified
results"): its greedy tree needs 8 in five reply classes of the first guess 01234, and proving
"6 more guesses suffice" from such a class with the complete search spends its time refuting
bad second guesses. Here each class whose greedy tree is too deep gets a witness search
(:func:`cbsolve.search.witness.find_witness`: second guesses one per orbit, best partition
first, each of its classes decided by the exact kernel within a short cap). The assembled tree
is written gzipped; ``cbsolve verify`` checks it secret by secret.

    nice -n 10 python scripts/find_witness.py --out models/certified/bc-5-10-worst-witness.json.gz

Add ``--certificate`` to embed the refutation tree proving 6 guesses fail (the lower bound).
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cbsolve.codes import CodeSpace  # noqa: E402
from cbsolve.search import memory  # noqa: E402
from cbsolve.search.witness import WitnessLog, find_witness  # noqa: E402
from cbsolve.search.worst import _certificate, _depth, _Native, _tree_doc  # noqa: E402
from cbsolve.deadline import Deadline  # noqa: E402
from cbsolve.variant import Variant  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--first", default="01234")
    ap.add_argument("--worst", type=int, default=7, help="guesses allowed in all")
    ap.add_argument("--cap", type=float, default=5.0, help="seconds per class decision")
    ap.add_argument("--levels", type=int, default=1)
    ap.add_argument("--max-guesses", type=int, default=None, help="guesses tried per class")
    ap.add_argument("--deeper-guesses", type=int, default=8,
                    help="guesses tried per node below the second guess")
    ap.add_argument("--rank", action="store_true",
                    help="order the second guesses by the classes their greedy trees miss")
    ap.add_argument("--survey", action="store_true",
                    help="decide every class of each second guess (evidence of a failure)")
    ap.add_argument("--second", nargs="+", default=[], metavar="CLASS=GUESS",
                    help="the second guess to use in a class (e.g. 0,2=10567)")
    ap.add_argument("--classes", nargs="+", default=None,
                    help="search only these reply classes of the first guess (e.g. 0,2); no tree")
    ap.add_argument("--certificate", action="store_true",
                    help="embed the certificate that one guess less fails")
    ap.add_argument("--add-certificate", action="store_true",
                    help="only embed the certificate in the tree already written to --out")
    args = ap.parse_args(argv)
    variant = Variant(5, "0123456789", False, False)
    space = CodeSpace(variant)
    plan = memory.check(variant.describe(), space.size, "worst", memory.budget(), 1)
    t0 = time.perf_counter()
    native = _Native(variant, "all", {}, 1, plan=plan)
    print(f"set-up {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    if args.add_certificate:
        doc = json.loads(gzip.decompress(Path(args.out).read_bytes()))
        doc["certificate"] = _certificate(variant, native, args.worst - 1, "all", Deadline(None),
                                          None)
        print(f"certificate: {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
        _write(doc, args.out)
        return 0
    first = space.index_of(args.first)
    everyone = np.arange(space.size, dtype=np.int64)
    replies = native.replies(first, everyone)
    left = args.worst - 1
    children = []
    for r in np.unique(replies):
        if r == variant.win_response:
            continue
        cls = everyone[replies == r]
        name = variant.format_response(int(r))
        if args.classes and name not in args.classes:
            continue
        t1 = time.perf_counter()
        greedy = native.core.greedy(cls, 0, np.array([first], dtype=np.int64))
        if _depth(greedy) <= left:
            children.append((int(r), greedy))
            print(f"{name}: {cls.size} secrets, greedy depth {_depth(greedy)} "
                  f"({time.perf_counter() - t1:.1f} s)", file=sys.stderr, flush=True)
            continue
        def echo(row, name=name):
            hist, g, outcome, sec = row
            print(f"  {name} {'  ' * (len(hist) - 1)}guess {len(hist) + 1} "
                  f"{space.format(space.codes[g])}: {outcome} ({sec:.1f} s)",
                  file=sys.stderr, flush=True)

        seconds = dict(x.split("=") for x in args.second)
        only = [space.index_of(seconds[name])] if name in seconds else None
        log = WitnessLog(echo=echo)
        found = find_witness(native, cls, left, [first], cap=args.cap, levels=args.levels,
                             log=log, max_guesses=args.max_guesses,
                             deeper_guesses=args.deeper_guesses, rank_by_greedy=args.rank,
                             survey=args.survey, only=only)
        if found is None:
            print(f"{name}: {cls.size} secrets, no witness ({time.perf_counter() - t1:.1f} s, "
                  f"{log.nodes} decisions)", file=sys.stderr, flush=True)
            if args.survey:
                continue
            return 1
        print(f"{name}: {cls.size} secrets, witness depth {_depth(found)} "
              f"({time.perf_counter() - t1:.1f} s, {log.nodes} decisions)",
              file=sys.stderr, flush=True)
        children.append((int(r), found))
    if args.classes:
        return 0
    root = {"guess": int(first), "children": children}
    doc = _tree_doc(variant, native, root, "all", proved=False)
    doc["strategy"] = "witness-worst"
    if args.certificate:
        cert = _certificate(variant, native, args.worst - 1, "all", Deadline(None), None)
        doc["certificate"] = cert
    print(f"tree: worst {doc['stats']['worst']}, total {doc['stats']['total']}, "
          f"{time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    _write(doc, args.out)
    return 0


def _write(doc: dict, path: str) -> None:
    text = json.dumps(doc, separators=(",", ":")) + "\n"
    Path(path).write_bytes(gzip.compress(text.encode(), compresslevel=9, mtime=0))


if __name__ == "__main__":
    sys.exit(main())
