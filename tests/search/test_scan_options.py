"""The worst-case kernel's scan options change its speed only (cbsolve/_native/search_worst.cpp):

- ``late_symmetry``: a node whose limit fits the byte-lane scan scans every guess and cuts the
  survivors to one an orbit, instead of scanning one guess an orbit;
- ``prefetch``: the byte-lane scan requests its rows' memory ahead of use.

With both on and both off the kernel must explore the same nodes and guesses (the same
counts per guesses left), reach the same verdicts, and write byte-identical certificates, which the
verifier accepts. Mastermind 4x6 (limits 14 and 183 with 2 and 3 guesses left, both within the
byte-lane scan) and Bulls & Cows 3/6 (no repeats: other orbits).
"""
import numpy as np
import pytest

from cbsolve.certificates.certify import _CertChecker
from cbsolve.search.worst.kernel import _Native
from cbsolve.search.worst.trees import _cert_node
from cbsolve.game.variant import Variant

OLD = {"late_symmetry": False, "prefetch": False}
NEW = {"late_symmetry": True, "prefetch": True}
GAMES = [Variant(4, "123456", repeats=True), Variant(3, "012345", repeats=False)]


def _pair(variant, guesses="all"):
    new, old = _Native(variant, guesses, {}, 1), _Native(variant, guesses, {}, 1)
    new.core, old.core = new.fresh_core(NEW), old.fresh_core(OLD)
    return new, old


@pytest.mark.parametrize("variant", GAMES, ids=str)
def test_same_verdicts_and_nodes_on_every_class(variant):
    """The classes of a few first guesses, 2 to 4 guesses left: one verdict, one node count."""
    new, old = _pair(variant)
    rng = np.random.default_rng(3)
    firsts = rng.permutation(len(new.codes))[:4].tolist()
    verdicts = set()
    for g in firsts:
        hist = np.array([g], dtype=np.int64)
        for r in np.unique(new.matrix[g]).tolist():
            if r == variant.win_response:
                continue
            S = np.flatnonzero(new.matrix[g] == r).astype(np.int64)
            for left in (2, 3, 4):
                got = new.core.feasible(S, left, hist)
                assert got == old.core.feasible(S, left, hist), (g, r, left)
                verdicts.add(got)
    assert verdicts == {0, 1}
    # per guesses left: nodes, memo hits, guesses explored
    assert new.core.profile() == old.core.profile() and new.core.nodes() > 0


@pytest.mark.parametrize("variant", GAMES, ids=str)
def test_same_certificate_bytes(variant):
    """Refuting one guess fewer than the game's worst case (Mastermind 4x6: 5, Knuth 1977;
    Bulls & Cows 3/6: found by the kernel), from the root: the same certificate, and the
    verifier accepts it."""
    new, old = _pair(variant)
    everyone = np.arange(len(new.codes), dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    depth = next(d for d in range(1, 9)
                 if [n.core.feasible(everyone, d, empty) for n in (new, old)] == [1, 1])
    assert variant.length != 4 or depth == 5      # Knuth 1977
    for native in (new, old):
        native.set_root(everyone, empty)
        assert native.run("feasible", depth - 1) == 0
    assert new.core.profile() == old.core.profile()
    cert_new = new.run("certificate", depth - 1)
    assert cert_new == old.run("certificate", depth - 1)
    node = _cert_node(variant, new, cert_new)
    _CertChecker(variant, False).check(node, everyone, [], depth - 1, "(root)")
