"""Independent verifier: valid trees and certificates pass, every kind of tampering is rejected."""
import copy
import json

import pytest

from cbsolve.certificates.certify import verify, verify_certificate
from cbsolve.search.worst import solve_worst
from cbsolve.game.variant import Variant

# Bulls & Cows with 3 of 8 digits: a certificate (5 guesses do not suffice) with maps at the
# root and below it, refuted guesses with sub-proofs, and counting leaves; 0.1 s to compute.
VARIANT = Variant(3, "01234567", repeats=False)


@pytest.fixture(scope="module")
def solved():
    result = solve_worst(VARIANT, workers=1)
    assert result.worst == 6 and result.proved
    return result


def inner_node(cert):
    """The first refuted guess's sub-proof at the root: a node with a non-empty history."""
    guess, entry = next(iter(cert["root"]["refuted"].items()))
    return guess, entry["node"]


def test_valid(solved):
    report = verify(solved.tree)
    assert report.valid and report.kind == "tree+lower-bound" and report.optimal
    assert (report.worst, report.total, report.secrets) == (solved.worst, solved.total, 336)
    nodes, lower = verify_certificate(solved.certificate)
    assert lower == 6 and nodes > 3


def rejected(doc, fragment):
    report = verify(doc)
    assert not report.valid, "tampered document accepted"
    assert fragment in report.message, report.message
    return report


def test_tampered_numbers(solved):
    cert = copy.deepcopy(solved.certificate)
    cert["claim"]["max_guesses"] += 1
    rejected(cert, "guesses left")
    cert = copy.deepcopy(solved.certificate)
    _, node = inner_node(cert)
    node["left"] -= 1
    rejected(cert, "guesses left")
    cert = copy.deepcopy(solved.certificate)
    cert["responses"] = 99
    rejected(cert, "replies")
    tree = copy.deepcopy(solved.tree)
    tree["stats"]["total"] -= 1
    rejected(tree, "total")
    tree = copy.deepcopy(solved.tree)
    tree["stats"]["histogram"]["1"] = 2
    rejected(tree, "histogram")


def test_changed_reply_is_rejected(solved):
    cert = copy.deepcopy(solved.certificate)
    guess, entry = next(iter(cert["root"]["refuted"].items()))
    entry["reply"] = "3,0"  # the winning reply can never refute
    rejected(cert, "winning reply")
    cert = copy.deepcopy(solved.certificate)
    _, entry = next(iter(cert["root"]["refuted"].items()))
    entry["reply"] = "1,1"  # another class: the sub-proof no longer matches its set
    assert not verify(cert).valid


def test_dropped_guess_is_rejected(solved):
    cert = copy.deepcopy(solved.certificate)
    _, node = inner_node(cert)
    dropped = next(iter(node["refuted"]))
    del node["refuted"][dropped]
    report = rejected(cert, "refuted")  # either the guess itself or a guess mapped onto it
    assert dropped in report.message or "mapped onto" in report.message
    cert = copy.deepcopy(solved.certificate)
    _, node = inner_node(cert)
    del node["mapped"][next(iter(node["mapped"]))]
    rejected(cert, "neither refuted nor mapped")
    cert = copy.deepcopy(solved.certificate)
    cert["root"]["refuted"] = {}
    assert not verify(cert).valid


def test_broken_permutation_is_rejected(solved):
    # A permutation of the inner node must fix the history guess; swapping two of the symbols
    # that guess uses breaks that.
    cert = copy.deepcopy(solved.certificate)
    history_guess, node = inner_node(cert)
    a, b = (int(history_guess[0]), int(history_guess[1]))
    for perm in node["perms"]:
        sym = perm[1]
        sym[a], sym[b] = sym[b], sym[a]
    rejected(cert, "does not fix history guess")
    # At the root (empty history) any permutation fixes the history, but it must map the guess
    # onto the representative it names.
    cert = copy.deepcopy(solved.certificate)
    text, (k, rep) = next(iter(cert["root"]["mapped"].items()))
    pos = cert["root"]["perms"][k][0]
    pos[0], pos[1] = pos[1], pos[0]
    assert not verify(cert).valid
    cert = copy.deepcopy(solved.certificate)
    cert["root"]["perms"][0][1] = [0] * 8  # not a bijection
    rejected(cert, "not a permutation pair")


def test_mapped_onto_unrefuted_guess_is_rejected(solved):
    cert = copy.deepcopy(solved.certificate)
    _, node = inner_node(cert)
    target = next(iter(node["refuted"]))
    del node["refuted"][target]
    # keep every other guess mapped, but the representative itself is now unrefuted
    assert not verify(cert).valid


def test_tree_tampering(solved):
    tree = copy.deepcopy(solved.tree)
    reply = next(iter(tree["root"]["children"]))
    del tree["root"]["children"][reply]
    rejected(tree, "not solved")
    tree = copy.deepcopy(solved.tree)
    tree["root"]["guess"] = "999"
    rejected(tree, "bad code")
    tree = copy.deepcopy(solved.tree)
    tree["root"]["children"]["9,9"] = {"guess": "012"}
    assert not verify(tree).valid
    tree = copy.deepcopy(solved.tree)
    tree["certificate"]["claim"]["max_guesses"] = 6  # would claim the tree's 6 is not enough
    assert not verify(tree).valid


def test_unknown_format_and_round_trip(solved, tmp_path):
    assert not verify({"format": "something"}).valid
    path = tmp_path / "t.json"
    path.write_text(json.dumps(solved.tree))
    from cbsolve.certificates.certify import verify_file
    assert verify_file(path).valid
