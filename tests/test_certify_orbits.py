"""The verifier's symbol-swap shortcut: classes and orbits against brute force, same verdicts as
scoring every guess, and tampering still caught where the shortcut is taken."""
import copy
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cbsolve.certificates import certify
from cbsolve.certificates.certify_orbits import GuessOrbits, canonical_keys, symbol_classes
from cbsolve.game.codes import CodeSpace
from cbsolve.game.scoring import counting_verdicts, pack, score_against
from cbsolve.search.worst import solve_worst
from cbsolve.game.variant import Variant


def brute_classes(secrets: np.ndarray, d: int) -> list[set[int]]:
    """Union of every swap (a b) that maps the set onto itself, by plain set comparison."""
    base = {tuple(c) for c in secrets}
    label = list(range(d))
    for a, b in itertools.combinations(range(d), 2):
        swap = {a: b, b: a}
        if {tuple(swap.get(x, x) for x in c) for c in base} == base:
            old = label[b]
            label = [label[a] if x == old else x for x in label]
    return sorted({frozenset(i for i in range(d) if label[i] == x) for x in label}, key=min)


def classes(label: np.ndarray) -> list[set[int]]:
    return sorted({frozenset(np.flatnonzero(label == x).tolist()) for x in label}, key=min)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.integers(2, 5), st.booleans(), st.integers(0, 2**32 - 1))
def test_symbol_classes_equal_brute_force(n, d, repeats, seed):
    if not repeats and n > d:
        return
    codes = CodeSpace(Variant(n, "012345"[:d], repeats)).codes
    rng = np.random.default_rng(seed)
    secrets = codes[rng.random(len(codes)) < rng.uniform(0.05, 1.0)]
    if len(secrets) == 0:
        return
    assert classes(symbol_classes(secrets, d)) == brute_classes(secrets, d)


def test_equal_counts_per_position_are_not_enough():
    # every symbol once at each position, yet no swap keeps {01, 12, 20}
    secrets = np.array([[0, 1], [1, 2], [2, 0]], dtype=np.uint8)
    assert classes(symbol_classes(secrets, 3)) == [{0}, {1}, {2}]
    assert classes(symbol_classes(secrets, 5)) == [{0}, {1}, {2}, {3, 4}]  # 3, 4 unused


@pytest.mark.parametrize("repeats", [False, True])
def test_canonical_keys_are_the_orbits(repeats):
    d = 5
    codes = CodeSpace(Variant(3, "01234", repeats)).codes
    label = np.array([0, 0, 2, 2, 2])      # classes {0, 1} and {2, 3, 4}
    keys = canonical_keys(codes, label)
    images = {}
    for perm in itertools.permutations(range(d)):
        if all(label[perm[s]] == label[s] for s in range(d)):
            for i, c in enumerate(codes):
                images.setdefault(i, set()).add(tuple(perm[x] for x in c))
    for i, j in itertools.combinations(range(len(codes)), 2):
        same_orbit = tuple(codes[j]) in images[i]
        assert (keys[i] == keys[j]) == same_orbit


def test_orbit_verdicts_equal_scoring_every_guess():
    v = Variant(4, "0123456", repeats=False)
    codes = CodeSpace(v).codes
    orbits = GuessOrbits(codes, v.n_symbols, lambda c: pack(v, c))
    rng = np.random.default_rng(5)
    shortcuts = 0
    for _ in range(40):
        # secrets consistent with one or two guesses: sets with interchangeable symbols
        g = codes[rng.integers(len(codes), size=2)]
        replies = [score_against(v, x, codes) for x in g]
        members = np.flatnonzero(replies[0] == replies[0][rng.integers(len(codes))])
        if rng.random() < 0.5:
            members = members[replies[1][members] == replies[1][members[0]]]
        found = orbits.of(codes[members])
        threshold = int(rng.integers(0, 12))
        full = counting_verdicts(v, codes, codes[members], threshold) < 2
        if found is None:
            continue
        shortcuts += 1
        reps, orbit = found
        assert np.array_equal((counting_verdicts(v, reps, codes[members], threshold) < 2)[orbit], full)
    assert shortcuts >= 10


@pytest.fixture(scope="module")
def bc_4_7():
    result = solve_worst(Variant(4, "0123456", repeats=False), workers=1)
    assert result.proved
    return result.certificate


def nodes_without_entries(node, path=()):
    """Paths to the nodes a certificate settles by counting alone (the verifier's fast path)."""
    if not isinstance(node, dict):
        return
    if not (node.get("refuted") or node.get("same") or node.get("mapped")):
        yield path
    for guess, entry in (node.get("refuted") or {}).items():
        if isinstance(entry, dict) and "node" in entry:
            yield from nodes_without_entries(entry["node"], path + (guess,))


def test_emptied_node_is_rejected_where_counting_does_not_settle_it(bc_4_7):
    assert certify.verify(bc_4_7).valid
    # the first node below the root with entries, emptied: the verifier's fast path
    # (no entries) must still find the guesses counting does not settle
    cert = copy.deepcopy(bc_4_7)
    guess, entry = next((g, e) for g, e in cert["root"]["refuted"].items()
                        if isinstance(e, dict) and e.get("node", {}).get("refuted"))
    for key in ("refuted", "same", "mapped", "perms"):
        entry["node"].pop(key, None)
    report = certify.verify(cert)
    assert not report.valid and "neither refuted nor mapped" in report.message
    assert any(nodes_without_entries(bc_4_7["root"]))
