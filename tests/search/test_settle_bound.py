"""The settle table (cbsolve/certificates/settle_bound.py, search_worst_settle.hpp) against exhaustive search.

b(j) of a set S claims that no subset of S larger than b(j) is settled within j guesses. Here
it is checked on every subset of small consistent sets (their depths found by the kernel's
search with the table off), then the kernel with the table on is compared with the kernel
without it (the same verdict at every depth tried, Mastermind 4x6's classes), and its
certificates, whose nodes name the table's limit, pass the verifier, which recomputes the
table; a node that claims a smaller limit than its table gives is rejected.
"""
from itertools import combinations

import numpy as np
import pytest

from cbsolve.certificates.certify import Invalid, _CertChecker
from cbsolve.game.scoring import partition_counts, possible_responses
from cbsolve.search.worst.kernel import _Native
from cbsolve.search.worst.trees import _cert_node
from cbsolve.certificates.settle_bound import settle_table
from cbsolve.game.variant import Variant

OFF = {"settle_bound": False, "counted_memo": False}
MM46 = Variant(4, "123456", repeats=True)
EMPTY = np.zeros(0, dtype=np.int64)


def _table(variant, native, S, depth):
    counts = partition_counts(variant, native.codes, native.codes[S])
    member = np.isin(np.arange(len(native.codes)), S)
    return settle_table(counts, member, variant.win_response, len(possible_responses(variant)),
                        depth)


def _class(native, variant, history, replies):
    """The secrets consistent with ``history`` (guess indices) and ``replies`` (indices)."""
    S = np.arange(len(native.codes), dtype=np.int64)
    for g, r in zip(history, replies):
        S = S[native.matrix[g, S] == r]
    return S


def _least_depth(native, U, history):
    for j in range(1, 8):
        if native.core.feasible(U, j, history) == 1:
            return j
    raise AssertionError("no depth settles the set")


@pytest.mark.parametrize("variant", [Variant(3, "1234", repeats=True),
                                     Variant(3, "01234", repeats=False)], ids=str)
def test_no_subset_beats_its_sets_table(variant):
    """Every subset U of a small consistent set S needs more guesses than any j with
    |U| > b(j) (exhaustive: all subsets of sets of up to 10 secrets)."""
    native = _Native(variant, "all", {"symmetry": False}, 1)
    native.core = native.fresh_core(OFF)
    rng = np.random.default_rng(7)
    checked, tight, sets = 0, 0, 0
    for g in rng.permutation(len(native.codes))[:40].tolist():
        history = np.array([g], dtype=np.int64)
        for r in np.unique(native.matrix[g]).tolist():
            S = _class(native, variant, [g], [r])
            if not 4 <= len(S) <= 10 or r == variant.win_response or sets >= 10:
                continue
            sets += 1
            table = _table(variant, native, S, 4)
            for size in range(1, len(S) + 1):
                for U in combinations(S.tolist(), size):
                    j = _least_depth(native, np.array(U, dtype=np.int64), history)
                    # settled within j guesses: at most b(j) secrets
                    assert len(U) <= table[j], (S.tolist(), U, j, table)
                    tight += len(U) == table[j]
                    checked += 1
    assert sets == 10 and tight > 0    # many subsets, and the bound is reached


@pytest.fixture(scope="module")
def kernels():
    on = _Native(MM46, "all", {}, 1)
    off = _Native(MM46, "all", {}, 1)
    off.core = off.fresh_core(OFF)
    return on, off


def test_the_table_changes_no_verdict(kernels):
    """Mastermind 4x6, the classes after each first guess and a few second guesses: the
    kernel with the table decides each as the exhaustive search without it does."""
    on, off = kernels
    firsts = [on.space.index_of(on.space.parse(t)) for t in ("1111", "1122", "1123", "1234")]
    verdicts = set()
    for g in firsts:
        for r in np.unique(on.matrix[g]):
            if r == MM46.win_response:
                continue
            S = _class(on, MM46, [g], [r])
            for left in (3, 4):
                hist = np.array([g], dtype=np.int64)
                got = on.core.feasible(S, left, hist)
                assert got == off.core.feasible(S, left, hist), (g, r, left)
                verdicts.add(got)
    assert verdicts == {0, 1}


def test_certificates_name_limits_that_the_verifier_recomputes():
    """Five consistent guesses do not settle Mastermind 4x6 (its consistent-guess worst case
    is 6): the kernel's certificate, with the limits the table gives below the root, passes
    the verifier; lowering a limit below the table's value is caught."""
    native = _Native(MM46, "candidates", {}, 1)
    everyone = np.arange(len(native.codes), dtype=np.int64)
    native.set_root(everyone, EMPTY)
    assert native.run("feasible", 5) == 0
    node = _cert_node(MM46, native, native.run("certificate", 5))
    assert "limit" not in node      # a game's root has none (merge composes that node)
    _CertChecker(MM46, True).check(node, everyone, [], 5, "(root)")
    limited = _limited_nodes(node, [])
    assert limited, "no node of the certificate uses the table"
    path, sub = limited[0]
    S = _walk(native, path)
    counts = partition_counts(MM46, native.codes[S], native.codes[S])   # the pool: S itself
    table = settle_table(counts, np.ones(len(S), dtype=bool), MM46.win_response,
                         len(possible_responses(MM46)), sub["left"] - 1)
    assert sub["limit"] == table[sub["left"] - 1] < native.core.capacity(sub["left"] - 1)
    sub["limit"] -= 1
    with pytest.raises(Invalid, match="settle table"):
        _CertChecker(MM46, True).check(node, everyone, [], 5, "(root)")


def _limited_nodes(node, path):
    found = [(path, node)] if "limit" in node else []
    for guess, entry in (node.get("refuted") or {}).items():
        if "node" in entry:
            found += _limited_nodes(entry["node"], path + [(guess, entry["reply"])])
    return found


def _walk(native, path):
    history, replies = [], []
    for guess, reply in path:
        history.append(native.space.index_of(native.space.parse(guess)))
        replies.append(next(r for r in range(MM46.response_slots)
                            if MM46.format_response(r) == reply))
    return _class(native, MM46, history, replies)
