"""Where the hard band sits: a first-moment estimate of how many codes other than the hidden
secret fit a log of G random guesses (N positions, D symbols, repeats), checked against exact
counts on a shorter code.

Once the totals have pinned the secret's symbol counts n_s, the candidates are the
N! / prod(n_s!) arrangements of those symbols, and a random arrangement x gives the same bulls
as the secret on a random guess with probability q (the collision probability of the bulls,
estimated here by sampling). Treating the guesses as independent, about
arrangements * q^G codes besides the secret fit; the secret is usually unique once that falls
below 1. Codes close to the secret (two symbols swapped) are left out, so the estimate is low
where many codes still fit; the exact counts printed beside it show by how much.

    python scripts/research/band_estimate.py                      # N=40 of 10 digits, and the check on N=16
    python scripts/research/band_estimate.py --length 40 --guesses 20,30,40,50,60 --check-length 16
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from cbsolve.consistency import dfs
from cbsolve.game.feedback import random_log
from cbsolve.game.variant import Variant

DIGITS = "0123456789"


def bulls_collision_log2(n: int, d: int, rng: np.random.Generator, guesses: int = 200,
                         codes: int = 20_000) -> float:
    """log2 of P(bulls(g, x) = bulls(g, y)) for random codes x, y and a random guess g."""
    q = []
    for _ in range(guesses):
        g = rng.integers(0, d, n)
        b = (rng.integers(0, d, (codes, n)) == g).sum(axis=1)
        p = np.bincount(b) / codes
        q.append(float((p ** 2).sum()))
    return math.log2(float(np.mean(q)))


def arrangements_log2(counts) -> float:
    """log2 of the number of codes with these symbol counts (a multinomial coefficient)."""
    return (math.lgamma(sum(counts) + 1) - sum(math.lgamma(c + 1) for c in counts)) / math.log(2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--length", type=int, default=40)
    ap.add_argument("--guesses", default="20,25,30,35,40,45,50,60")
    ap.add_argument("--check-length", type=int, default=16, help="0: no exact check")
    ap.add_argument("--check-guesses", default="8,12,16,20,24")
    ap.add_argument("--seeds", type=int, default=4)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    d = len(DIGITS)

    n = args.length
    lq = bulls_collision_log2(n, d, rng)
    even = [n // d + (s < n % d) for s in range(d)]
    arr = arrangements_log2(even)
    print(f"N={n} of {d} digits: arrangements of even counts 2^{arr:.1f}, "
          f"bulls collision 2^{lq:.2f} per guess; unique from about {arr / -lq:.0f} guesses")
    for g in (int(x) for x in args.guesses.split(",")):
        print(f"  {g:3d} guesses: about 2^{arr + g * lq:7.1f} other codes fit")

    if not args.check_length:
        return
    n = args.check_length
    v = Variant(n, DIGITS, True)
    lq = bulls_collision_log2(n, d, rng)
    print(f"\ncheck, N={n} of {d} digits: exact count (depth-first search) vs the estimate, "
          f"per seed")
    for g in (int(x) for x in args.check_guesses.split(",")):
        cells = []
        for seed in range(args.seeds):
            log, secret = random_log(v, g, seed)
            est = 2 ** (arrangements_log2(np.bincount(np.array(secret), minlength=d)) + g * lq)
            t0 = time.perf_counter()
            c = dfs.count(log, seconds=30)
            cells.append(f"{c.count}{'' if c.complete else '+'} / {1 + est:.3g} "
                         f"({time.perf_counter() - t0:.1f} s)")
        print(f"  {g:3d} guesses: " + "; ".join(cells))


if __name__ == "__main__":
    main()
