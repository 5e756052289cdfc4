"""The capped witness search (scripts/research/witness.py) against the complete search.

On games the complete search settles, a witness must exist at the proved optimum and never
below it, and every witness must pass the independent verifier.
"""
import gzip
import json

import numpy as np
import pytest
from testkit import load_script
from witness import WitnessLog, by_greedy_misses, find_witness, ordered_guesses

from cbsolve.certificates.certify import verify, verify_file
from cbsolve.game.codes import CodeSpace
from cbsolve.search.worst import solve_worst
from cbsolve.search.worst.kernel import _Native
from cbsolve.search.worst.trees import _depth, _tree_doc
from cbsolve.game.variant import Variant


def _check(variant, native, root, depth):
    doc = _tree_doc(variant, native, root, "all", proved=False)
    report = verify(doc)
    assert report.valid, report.message
    assert report.secrets == CodeSpace(variant).size
    assert report.worst == _depth(root) <= depth


@pytest.mark.parametrize("variant", [Variant(4, "123456", repeats=True),
                                     Variant(4, "0123456", False)], ids=["mm-4x6", "bc-4-7"])
def test_witness_at_the_optimum_and_none_below(variant):
    optimum = solve_worst(variant, workers=1).worst
    native = _Native(variant, "all", {}, 1)
    everyone = np.arange(CodeSpace(variant).size, dtype=np.int64)
    log = WitnessLog()
    root = find_witness(native, everyone, optimum, [], cap=5.0, log=log)
    assert root is not None and log.rows[-1][2] == "proved"
    _check(variant, native, root, optimum)
    assert find_witness(native, everyone, optimum - 1, [], cap=5.0) is None


def test_recursion_alone_is_a_complete_search():
    # a cap too short for the kernel: every class is searched by the recursion itself, which
    # with as many levels as guesses tries every orbit at every node
    variant = Variant(3, "01234", False)
    optimum = solve_worst(variant, workers=1).worst
    native = _Native(variant, "all", {}, 1)
    everyone = np.arange(CodeSpace(variant).size, dtype=np.int64)
    root = find_witness(native, everyone, optimum, [], cap=1e-9, levels=optimum)
    assert root is not None
    _check(variant, native, root, optimum)
    assert find_witness(native, everyone, optimum - 1, [], cap=1e-9, levels=optimum) is None


def test_from_the_classes_of_a_first_guess():
    # every first guess of Bulls & Cows is equivalent, so each class of 0123 has a witness with
    # the game's optimum less one; assembled, they are a tree the verifier accepts
    variant = Variant(4, "0123456", False)
    optimum = solve_worst(variant, workers=1).worst
    native = _Native(variant, "all", {}, 1)
    space = CodeSpace(variant)
    first = space.index_of("0123")
    everyone = np.arange(space.size, dtype=np.int64)
    replies = native.replies(first, everyone)
    children = []
    for r in np.unique(replies):
        if r != variant.win_response:
            found = find_witness(native, everyone[replies == r], optimum - 1, [first], cap=5.0)
            assert found is not None
            children.append((int(r), found))
    _check(variant, native, {"guess": first, "children": children}, optimum)


def test_greedy_ranking_keeps_every_guess_and_still_finds_a_witness():
    variant = Variant(4, "0123456", False)
    optimum = solve_worst(variant, workers=1).worst
    native = _Native(variant, "all", {}, 1)
    everyone = np.arange(CodeSpace(variant).size, dtype=np.int64)
    guesses = ordered_guesses(native, everyone, [])
    ranked = by_greedy_misses(native, everyone, optimum, [], guesses)
    assert sorted(ranked) == sorted(guesses)
    root = find_witness(native, everyone, optimum, [], cap=5.0, rank_by_greedy=True)
    assert root is not None
    _check(variant, native, root, optimum)


# scripts/research/find_witness.py: any variant, the first guess tried by the script when not given


def _run_script(tmp_path, *options):
    script = load_script("find_witness")
    out = tmp_path / "tree.json.gz"
    return script.main(["--out", str(out), *options]), out


@pytest.mark.parametrize("options", [
    ("--game", "mastermind", "--length", "4"),
    ("--length", "4", "--digits", "7", "--distinct"),
    ("--length", "3", "--symbols", "ABCDE", "--repeats", "--no-leading-zero"),
], ids=["mm-4x6", "bc-4-7", "3x5-repeats-nlz"])
def test_script_finds_a_witness_at_the_optimum_with_its_certificate(tmp_path, options):
    script = load_script("find_witness")
    variant = script.variant_of(script.parse(["--out", "x", "--worst", "1", *options]))
    optimum = solve_worst(variant, workers=1).worst
    status, out = _run_script(tmp_path, *options, "--worst", str(optimum), "--certificate",
                              "--firsts", "9")
    assert status == 0
    report = verify_file(out)
    assert report.valid, report.message
    assert report.secrets == CodeSpace(variant).size
    assert report.optimal and report.worst == report.lower_bound == optimum
    # one guess less: every first guess fails, so no tree and exit 1
    status, _ = _run_script(tmp_path, *options, "--worst", str(optimum - 1), "--firsts", "9")
    assert status == 1


def test_script_first_guesses_are_one_per_orbit():
    # Mastermind 4x6: the first guesses up to symmetry are the five patterns 1111, 1112,
    # 1122, 1123, 1234 (Knuth 1977 lists the same five)
    script = load_script("find_witness")
    variant = Variant(4, "123456", repeats=True)
    native = _Native(variant, "all", {}, 1)
    space = CodeSpace(variant)
    firsts = script.first_guesses(native, 10)
    patterns = sorted(tuple(sorted(np.unique(space.codes[g], return_counts=True)[1]))
                      for g in firsts)
    assert patterns == sorted([(4,), (1, 3), (2, 2), (1, 1, 2), (1, 1, 1, 1)])


def test_script_with_a_first_guess_in_the_variant_symbols(tmp_path):
    # the first guess is read in the variant's own symbols (1..6 for Mastermind)
    status, out = _run_script(tmp_path, "--game", "mastermind", "--length", "4", "--first",
                              "1122", "--worst", "5")
    assert status == 0
    doc = json.loads(gzip.decompress(out.read_bytes()))
    assert doc["root"]["guess"] == "1122" and verify_file(out).valid


@pytest.mark.parametrize("options", [
    ("--game", "nope", "--worst", "5"),
    ("--game", "mastermind", "--length", "4", "--first", "1127", "--worst", "5"),
    ("--length", "4", "--digits", "11", "--worst", "5"),
], ids=["preset", "first-guess", "digits"])
def test_script_bad_input_is_one_line_and_exit_2(tmp_path, capsys, options):
    status, out = _run_script(tmp_path, *options)
    assert status == 2 and not out.exists()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")


def test_script_greedy_misses_below_the_optimum():
    # one guess below the optimum no strategy exists, so every first guess leaves at least one
    # class whose greedy tree is too deep; at the optimum the listed depths are all past it
    script = load_script("find_witness")
    variant = Variant(4, "0123456", False)
    optimum = solve_worst(variant, workers=1).worst
    native = _Native(variant, "all", {}, 1)
    for first in script.first_guesses(native, 10):
        assert script.greedy_misses(native, first, optimum - 2)
        assert all(depth > optimum - 1 for _, _, depth in
                   script.greedy_misses(native, first, optimum - 1))


def test_script_sub_class_search_agrees_with_the_kernel(tmp_path):
    # --sub searches one class a pinned second guess leaves, over every third guess up to
    # symmetry: it finds a witness exactly when the complete search says the class fits
    variant = Variant(4, "123456", repeats=True)
    native = _Native(variant, "all", {}, 1)
    space = CodeSpace(variant)
    first = space.index_of(space.parse("1122"))
    cls = native.all[native.replies(first, native.all) == variant.response_index(0, 1)]
    second = ordered_guesses(native, cls, [first])[0]
    replies = native.replies(second, cls)
    outcomes = set()
    common = ("--game", "mastermind", "--length", "4", "--first", "1122", "--worst", "4",
              "--classes", "0,1", "--second", f"0,1={space.format(space.codes[second])}")
    for r in np.unique(replies):
        sub = cls[replies == r]
        if r == variant.win_response or sub.size < 3:
            continue
        fits = native.core.feasible(sub, 2, np.array([first, second], dtype=np.int64)) == 1
        status, _ = _run_script(tmp_path, *common, "--sub", variant.format_response(int(r)))
        assert status == (0 if fits else 1)
        outcomes.add(fits)
        # skipping every third guess tries none
        status, _ = _run_script(tmp_path, *common, "--sub", variant.format_response(int(r)),
                                "--skip", str(space.size))
        assert status == 1
    assert outcomes == {True, False}
    # a reply no secret gets (3 black, 1 white cannot happen): nothing to find, exit 1
    assert _run_script(tmp_path, *common, "--sub", "3,1")[0] == 1


@pytest.mark.parametrize("options", [
    ("--sub", "0,1"),
    ("--classes", "0,1", "--sub", "0,1"),
    ("--classes", "0,1", "--second", "0,1=3456", "--sub", "7"),
    ("--classes", "0,1", "--second", "0,1=3457", "--sub", "0,1"),
], ids=["no-class", "no-pin", "bad-reply", "bad-second"])
def test_script_sub_bad_input_is_one_line_and_exit_2(tmp_path, capsys, options):
    status, out = _run_script(tmp_path, "--game", "mastermind", "--length", "4", "--first",
                              "1122", "--worst", "4", *options)
    assert status == 2 and not out.exists()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
