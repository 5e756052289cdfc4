"""The three-guess closed-form lower bound for bulls-only games with repeats: its class sizes
match enumeration, the bound equals a brute-force three-level partition bound that tries every
second and third code on small games, it never exceeds an exact optimum of the atlas, and it
gives up (None) on an expired deadline."""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from cbsolve.bounds import compute_bounds
from cbsolve.bounds.bulls_only import pair_class, two_level_bound
from cbsolve.bounds.bulls_three import three_level_worst, triple_classes
from cbsolve.game.capacity import worst_lower
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.variant import Variant

ATLAS = Path(__file__).resolve().parents[2] / "models" / "atlas.json"


def bulls_game(n: int, d: int) -> Variant:
    return Variant.from_options(length=n, digits=d, repeats=True, feedback="bulls")


def bulls(x, g) -> int:
    return sum(a == b for a, b in zip(x, g))


def third_guess(n: int, e: int, x: int, y: int, z: int) -> tuple[int, ...]:
    """A code of the kind (x, y, z) against g1 = 0...0 and g2 = 0 on e positions, 1 after."""
    g3 = [0] * x + [1] * (e - x) + [0] * y + [1] * z
    return tuple(g3 + [2] * (n - len(g3)))


@pytest.mark.parametrize("n, d", [(2, 2), (3, 2), (3, 3), (4, 3), (3, 4), (4, 4)])
def test_class_sizes_match_enumeration(n, d):
    secrets = list(itertools.product(range(d), repeat=n))
    g1 = (0,) * n
    for e in range(n + 1):
        g2 = tuple(0 if p < e else 1 for p in range(n))
        kinds_seen = 0
        for (x, y, z), sizes in triple_classes(n, d, e):
            kinds_seen += 1
            g3 = third_guess(n, e, x, y, z)
            counts = np.zeros((n + 1,) * 3)
            for s in secrets:
                counts[bulls(s, g1), bulls(s, g2), bulls(s, g3)] += 1
            assert np.array_equal(counts, sizes)
            for b1, b2 in itertools.product(range(n + 1), repeat=2):
                assert sizes[b1, b2].sum() == pair_class(n, d, e, b1, b2)
        # every (x, y, z) once: x <= e, y + z <= N - e (z + y = N - e when D = 2)
        m = n - e
        assert kinds_seen == (e + 1) * ((m + 1) * (m + 2) // 2 if d >= 3 else m + 1)


def brute_three_level(n: int, d: int) -> int:
    """The same argument with every second and third code tried (first guess 0...0)."""
    codes = list(itertools.product(range(d), repeat=n))
    r = n + 1
    g1 = (0,) * n
    worst = 1
    for b1 in range(n):
        c1 = [s for s in codes if bulls(s, g1) == b1]
        if not c1:
            continue
        best2 = None
        for g2 in codes:
            v2 = 0
            for b2 in range(n + 1):
                c2 = [s for s in c1 if bulls(s, g2) == b2]
                if not c2:
                    continue
                if b2 == n:
                    v2 = max(v2, 2)
                    continue
                best3 = min(max((3 if b3 == n else 3 + worst_lower(k, r))
                                for b3, k in _split(c2, g3, n))
                            for g3 in codes)
                v2 = max(v2, best3)
            best2 = v2 if best2 is None else min(best2, v2)
        worst = max(worst, best2)
    return worst


def _split(cls, guess, n):
    sizes = [0] * (n + 1)
    for s in cls:
        sizes[bulls(s, guess)] += 1
    return [(b, k) for b, k in enumerate(sizes) if k]


@pytest.mark.parametrize("n, d", [(2, 3), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3)])
def test_equals_brute_force(n, d):
    assert three_level_worst(bulls_game(n, d), n + 1) == brute_three_level(n, d)


def test_never_exceeds_an_exact_optimum_and_never_below_two_levels():
    records = json.loads(ATLAS.read_text())["cells"]
    checked = 0
    for r in records:
        v = Variant.from_dict(r["variant"])
        if v.feedback != "bulls" or r["worst"].get("exact") is None or v.n_symbols < 2:
            continue
        bound = three_level_worst(v, r["responses"])
        assert bound is not None and bound <= r["worst"]["exact"], r["id"]
        assert bound >= two_level_bound(v, r["responses"], refined=v.length).worst
        checked += 1
    assert checked >= 20


def test_gains_a_guess_on_large_games():
    # 13 x 4 black-peg: one-level 9, two levels 9; three levels 10.
    v = Variant.from_options(length=13, digits=4, repeats=True, feedback="bulls")
    assert two_level_bound(v, 14, refined=13).worst == 9
    assert three_level_worst(v, 14) == 10


def test_expired_deadline_and_scope():
    assert three_level_worst(bulls_game(8, 6), 9, Deadline(0.0)) is None
    assert three_level_worst(Variant.preset("mastermind"), 14) is None
    assert three_level_worst(bulls_game(30, 3), 31) is None          # beyond MAX_LENGTH


def test_compute_bounds_uses_it():
    v = Variant.from_options(length=13, digits=4, repeats=True, feedback="bulls")
    b = compute_bounds(v, deadline=Deadline(60.0), search=False, strategies=False)
    assert b.worst.lower == 10 and "three guesses deep" in b.worst.lower_method
    assert b.worst.lower <= b.worst.upper
