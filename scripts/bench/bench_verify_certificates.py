"""The verifier's certificate check, this checkout against a baseline checkout, side by side.

Each case is verified by a fresh process of each code base in turn (the baseline is another
checkout's directory put first on ``sys.path``, e.g. ``git archive <commit> cbsolve | tar -x``
with this checkout's native ``.so`` files copied in), so both see the same load; wall and CPU
seconds (children's user + system) are printed per run.

    nice python scripts/bench/bench_verify_certificates.py --baseline /tmp/base
    nice python scripts/bench/bench_verify_certificates.py --baseline /tmp/base --quick   # 4/10 only
    nice python scripts/bench/bench_verify_certificates.py --baseline /tmp/base --nodes 20000

``--nodes M`` stops each check after M certificate nodes (both code bases visit the nodes in
the same order, so they do the same prefix of the proof): for a loaded machine, where the
baseline's whole 5 of 9 check takes hours of wall time.

Cases: Bulls & Cows 4 of 10's certificate that 6 guesses fail (5,295 nodes; written by
``solve_worst`` first), and ``cbsolve verify models/certified/bc-5-9-worst.json.gz`` (tree and
certificate, 215,651 nodes).
"""
from __future__ import annotations

import argparse
import gzip
import json
import tempfile
from pathlib import Path

import ab

ROOT = ab.THIS
CHECK = ("import sys, time; from cbsolve.certificates.certify import verify, load; d = load(sys.argv[1]); "
         "t, c = time.perf_counter(), time.process_time(); r = verify(d); "
         "print(f'{time.perf_counter() - t:.1f} {time.process_time() - c:.1f}', "
         "r.valid, r.nodes, r.lower_bound)")


def bc_4_10_certificate(path: Path) -> None:
    from cbsolve.search.worst import solve_worst
    from cbsolve.game.variant import Variant

    res = solve_worst(Variant(4, "0123456789", repeats=False), workers=1)
    with gzip.open(path, "wt") as fh:
        json.dump(res.certificate, fh)


PREFIX = ("import sys, time; from cbsolve import certify; limit = int(sys.argv[2]); "
          "check = certify._CertChecker.check\n"
          "class Stop(Exception): pass\n"
          "def bounded(self, *args):\n"
          "    if self.nodes >= limit: raise Stop\n"
          "    return check(self, *args)\n"
          "certify._CertChecker.check = bounded; d = certify.load(sys.argv[1])\n"
          "t, c = time.perf_counter(), time.process_time()\n"
          "try: certify.verify(d)\n"
          "except Stop: pass\n"
          "print(f'{time.perf_counter() - t:.1f} {time.process_time() - c:.1f}', "
          "'first', limit, 'nodes')")


def run(code_root: Path, document: Path, nodes: int | None = None) -> tuple[float, float, str]:
    """Wall and CPU seconds of a fresh process using ``code_root`` that reads ``document`` and
    verifies it, and its output: the verification's own wall and CPU seconds, the verdict."""
    argv = ["-c", CHECK, str(document)] if nodes is None else \
        ["-c", PREFIX, str(document), str(nodes)]
    done = ab.run(code_root, argv)
    return done.wall, done.cpu, done.stdout.strip()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True,
                        help="directory holding the baseline's cbsolve package")
    parser.add_argument("--quick", action="store_true", help="Bulls & Cows 4 of 10 only")
    parser.add_argument("--repeat", type=int, default=2, help="runs per code base (4/10)")
    parser.add_argument("--nodes", type=int, default=None, metavar="M",
                        help="5 of 9: only the first M certificate nodes")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        cert = Path(tmp) / "bc-4-10-cert.json.gz"
        bc_4_10_certificate(cert)
        cases = [("Bulls & Cows 4 of 10, certificate (6 guesses fail)", cert, args.repeat)]
        if not args.quick:
            what = "" if args.nodes is None else f" (first {args.nodes} certificate nodes)"
            cases.append((f"Bulls & Cows 5 of 9, tree + certificate{what}",
                          ROOT / "models/certified/bc-5-9-worst.json.gz", 1))
        print("| case | code | process wall s | process CPU s | verify wall s | verify CPU s | "
              "verdict (valid, nodes, lower bound) |")
        print("|---|---|---|---|---|---|---|")
        for n, (name, doc, repeat) in enumerate(cases):
            for _ in range(repeat):
                for label, root in (("baseline", args.baseline), ("this checkout", ROOT)):
                    wall, cpu, out = run(root, doc, args.nodes if n else None)
                    inner_wall, inner_cpu, verdict = out.split(" ", 2)
                    print(f"| {name} | {label} | {wall:.1f} | {cpu:.1f} | {inner_wall} | "
                          f"{inner_cpu} | {verdict} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
