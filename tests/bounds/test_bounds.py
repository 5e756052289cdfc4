"""Bounds: closed forms vs the native scorer, counting bounds vs their definition, and every
bound against exact optima (brute force here for tiny games; published values for classics)."""
from __future__ import annotations

import json
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cbsolve.bounds import compute_bounds
from cbsolve.bounds.constructive import count_locate_worst
from cbsolve.bounds.strategies import StrategyOrder
from cbsolve.bounds.constructive_expected import count_locate_total
from cbsolve.bounds.partition import (
    distinct_class_size,
    distinct_expr,
    first_guess_partition,
    repeats_class_sizes,
    repeats_poly,
)
from cbsolve.game.capacity import capacity, total_lower, worst_lower
from cbsolve.cli import main
from cbsolve.game.codes import CodeSpace
from cbsolve.game.patterns import count_patterns, guess_patterns, pattern_code
from cbsolve.game.scoring import partition_counts, possible_responses, score_matrix
from cbsolve.game.variant import Variant

SYMS = "0123456789"


def small_variants(max_n=5, max_d=8):
    for repeats in (False, True):
        for n in range(1, max_n + 1):
            for d in range(1, max_d + 1):
                if repeats or n <= d:
                    yield Variant(n, SYMS[:d], repeats)


# --- closed forms vs the scorer --------------------------------------------------------------
@pytest.mark.parametrize("feedback", ["bulls-cows", "bulls"])
def test_closed_form_partitions_match_scorer(feedback):
    """Every guess pattern, N <= 5, D <= 8: closed-form class sizes == native partition counts."""
    checked = 0
    for base in small_variants():
        v = Variant(base.length, base.symbols, base.repeats, feedback=feedback)
        codes = CodeSpace(v).codes
        patterns = guess_patterns(v)
        guesses = np.array([pattern_code(p) for p in patterns], dtype=np.uint8)
        hist = partition_counts(v, guesses, codes)
        for pattern, row in zip(patterns, hist, strict=True):
            ref = {v.response_of(i): int(x) for i, x in enumerate(row) if x}
            assert first_guess_partition(v, pattern) == ref, (v.describe(), pattern)
            checked += 1
    assert checked == 150  # every (variant, pattern) pair of the grid


def test_patterns_cover_every_code():
    """Each code has exactly one listed pattern; their number is the partition count."""
    from cbsolve.game.patterns import pattern_of

    for v in small_variants(4, 6):
        pats = guess_patterns(v)
        assert len(set(pats)) == len(pats)
        assert {pattern_of(c) for c in CodeSpace(v).codes.tolist()} == set(pats)
        if v.repeats:
            assert count_patterns(v.length, v.n_symbols) == len(pats)


def test_sympy_distinct_formula_matches_integers():
    expr, (n, d, b, c) = distinct_expr()
    for nv, dv in ((3, 5), (4, 6), (5, 8)):
        at = expr.subs({n: nv, d: dv})
        for bv in range(nv + 1):
            for cv in range(nv - bv + 1):
                value = int(at.subs({b: bv, c: cv}).doit())
                assert value == distinct_class_size(nv, dv, bv, cv)


def test_sympy_repeats_polynomials_match_scorer():
    """The SymPy polynomial in D for a pattern, evaluated at several D, equals the scorer."""
    for pattern in ((3,), (2, 1), (1, 1, 1), (2, 2), (2, 1, 1)):
        polys = repeats_poly(pattern)
        n = sum(pattern)
        for d in range(len(pattern), 8):
            v = Variant(n, SYMS[:d], True)
            row = partition_counts(v, np.array([pattern_code(pattern)], np.uint8),
                                   CodeSpace(v).codes)[0]
            ref = {v.response_of(i): int(x) for i, x in enumerate(row) if x}
            got = {k: int(p.eval(d)) for k, p in polys.items() if p.eval(d) != 0}
            assert got == ref == repeats_class_sizes(pattern, d)


def test_all_same_symbol_guess_is_binomial():
    """Pattern (N,): b bulls iff b positions hold that symbol -> C(N,b) (D-1)^(N-b), no cows."""
    from math import comb

    for n in range(1, 7):
        for d in range(1, 9):
            sizes = repeats_class_sizes((n,), d)
            assert sizes == {(b, 0): comb(n, b) * (d - 1) ** (n - b)
                             for b in range(n + 1) if comb(n, b) * (d - 1) ** (n - b)}


# --- counting bounds ------------------------------------------------------------------------
@given(st.integers(1, 10 ** 12), st.integers(2, 60))
@settings(max_examples=200, deadline=None)
def test_worst_lower_is_least_k_with_enough_capacity(secrets, responses):
    k = worst_lower(secrets, responses)
    assert capacity(k, responses) >= secrets
    assert k == 1 or capacity(k - 1, responses) < secrets


@given(st.integers(1, 3000), st.integers(2, 20))
@settings(max_examples=100, deadline=None)
def test_total_lower_is_the_level_fill(secrets, responses):
    """Against the definition: depth i holds at most (R-1)**(i-1) secrets, filled greedily."""
    left, depth, total = secrets, 1, 0
    while left:
        here = min(left, (responses - 1) ** (depth - 1))
        total, left, depth = total + depth * here, left - here, depth + 1
    assert total_lower(secrets, responses) == total


# --- bounds vs exact optima -----------------------------------------------------------------
def brute_force_optimum(variant: Variant) -> tuple[int, int]:
    """Exact (worst, total) of the best adaptive strategy, by exhaustive minimax (tiny spaces)."""
    codes = CodeSpace(variant).codes
    m = score_matrix(variant, codes, codes)
    win = variant.win_response
    n = len(codes)

    def classes(g, cands):
        out: dict[int, list[int]] = {}
        for s in cands:
            out.setdefault(int(m[g, s]), []).append(s)
        return out

    @cache
    def solve(cands: frozenset) -> tuple[int, int]:
        if not cands:
            return 0, 0
        best_w = best_t = None
        for g in range(n):
            parts = classes(g, cands)
            if g not in cands and len(parts) == 1:
                continue  # learns nothing
            w, t = 1, len(cands)
            for r, members in parts.items():
                if r == win:
                    continue
                sw, st_ = solve(frozenset(members))
                w, t = max(w, 1 + sw), t + st_
            best_w = w if best_w is None else min(best_w, w)
            best_t = t if best_t is None else min(best_t, t)
        return best_w, best_t

    return solve(frozenset(range(n)))


TINY = [Variant(2, "012", True), Variant(2, "0123", False), Variant(3, "012", False),
        Variant(2, "012", True, feedback="bulls"), Variant(2, "0123", True, no_leading_zero=True),
        Variant(3, "01", True), Variant(2, "01234", False), Variant(3, "0123", False, True)]


@pytest.mark.parametrize("variant", TINY, ids=lambda v: v.describe())
def test_bounds_bracket_brute_force_optimum(variant):
    worst, total = brute_force_optimum(variant)
    b = compute_bounds(variant, search=False, strategies=True)
    assert b.worst.lower <= worst <= b.worst.upper
    assert b.expected.lower <= total <= b.expected.upper
    assert b.secrets == CodeSpace(variant).size
    assert b.responses == len(possible_responses(variant))


# Knuth 1977 (Mastermind 4/6: worst 5); Koyama & Lai 1993 (total 5625);
# Tanaka 1996 / Bulls & Cows 4/10: worst 7, total 26274.
KNOWN = [("mastermind", 5, 5625), ("bulls-cows", 7, 26274)]


@pytest.mark.parametrize("preset,worst,total", KNOWN)
def test_bounds_never_contradict_published_optima(preset, worst, total):
    b = compute_bounds(Variant.preset(preset), search=False, strategies=False)
    assert b.worst.lower <= worst and b.expected.lower <= total
    # the partition bound is strictly better than counting on these classics
    assert b.expected.lower > total_lower(b.secrets, b.responses)


@pytest.mark.slow
@pytest.mark.parametrize("preset,worst,total", KNOWN)
def test_strategy_upper_bounds_bracket_published_optima(preset, worst, total):
    b = compute_bounds(Variant.preset(preset), search=False, strategies=True)
    assert b.worst.lower <= worst <= b.worst.upper
    assert b.expected.lower <= total <= b.expected.upper


def test_mastermind_partition_bound_is_knuths_five():
    """Every first guess leaves a non-win class larger than 1 + 13 + 169 = 183 secrets, which three
    more guesses cannot always solve; so 5 guesses are needed (Knuth 1977: 5 suffice)."""
    b = compute_bounds(Variant.preset("mastermind"), search=False, strategies=False)
    assert b.worst.lower == 5  # = Knuth's optimum, proved here by the partition argument


# --- large N and D: closed forms only ---------------------------------------------------------
def test_huge_space_is_counted_not_enumerated():
    v = Variant(40, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", True)
    b = compute_bounds(v)
    assert b.secrets == 26 ** 40
    assert b.responses == len(possible_responses(v))
    assert b.worst.lower == worst_lower(26 ** 40, b.responses)
    # Upper end: the count-then-locate construction (tests/bounds/test_bounds_constructive.py).
    assert b.worst.upper == count_locate_worst(v) < 26 ** 40 and b.worst.exact is None
    assert b.expected.upper == count_locate_total(v) < count_locate_worst(v) * 26 ** 40


# --- CLI ------------------------------------------------------------------------------------
def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_bounds_json_fields(capsys):
    code, out, _ = run(capsys, "bounds", "--variant", "mastermind", "--json", "--no-search",
                       "--no-strategies")
    data = json.loads(out)
    assert code == 0
    assert data["secrets"] == 1296 and data["responses"] == 14
    for key in ("worst", "expected"):
        assert set(data[key]) >= {"lower", "upper", "exact", "lower_method", "upper_method"}
    assert data["worst"]["lower"] == 5 and data["expected"]["unit"].startswith("total")


def test_cli_bounds_big_ints(capsys):
    code, out, _ = run(capsys, "bounds", "--length", "40", "--letters", "26", "--repeats", "--json")
    data = json.loads(out)
    assert code == 0 and data["secrets"] == 26 ** 40 and isinstance(data["worst"]["lower"], int)


@pytest.mark.parametrize("args", [["--length", "0"], ["--time-limit", "-1"],
                                  ["--variant", "nope"], ["--length", "11", "--distinct"]])
def test_cli_bounds_bad_input_exit_2(capsys, args):
    code, out, err = run(capsys, "bounds", *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err


# --- against the exact searches of cbsolve.search -------------------------------------------
SEARCHED = [Variant(3, "0123", True), Variant(3, "012345", False), Variant(2, "0123456", True),
            Variant(4, "0123", False), Variant(3, "0123", True, feedback="bulls")]


@pytest.mark.parametrize("variant", SEARCHED, ids=lambda v: v.describe())
def test_bounds_bracket_exact_search(variant):
    from cbsolve.search.expected import solve_expected
    from cbsolve.search.worst import solve_worst

    b = compute_bounds(variant, search=False, strategies=True)
    w = solve_worst(variant, certificate=False)
    e = solve_expected(variant)
    assert w.proved and e.proved
    assert b.worst.lower <= w.worst <= b.worst.upper
    assert b.expected.lower <= e.total <= b.expected.upper


def test_strategy_plan_puts_the_cheap_evaluations_first():
    from cbsolve.bounds import UPPER_STRATEGIES
    from cbsolve.bounds.strategies import CANDIDATES_FIRST, FIRST_FIRST, strategy_plan

    scored = ["minimax", "expected", "entropy", "parts"]
    assert strategy_plan(FIRST_FIRST - 1, UPPER_STRATEGIES) == [(n, "all") for n in [*scored, "first"]]
    assert strategy_plan(FIRST_FIRST, UPPER_STRATEGIES) == [(n, "all") for n in ["first", *scored]]
    assert strategy_plan(CANDIDATES_FIRST, UPPER_STRATEGIES) == [
        ("minimax", "candidates"), ("first", "all"), *((n, "all") for n in scored)]


def _plan_seen(monkeypatch, unfinished=()):
    """compute_bounds on a small game with the large-game plan; the evaluations asked for (the
    strategies named in ``unfinished`` do not finish)."""
    from cbsolve import strategy

    seen, evaluate = [], strategy.evaluate

    def recorded(variant, name, guesses="all", **kwargs):
        seen.append((name, guesses))
        if (name, guesses) in unfinished:
            raise strategy.Unfinished(name, 3, 210)
        return evaluate(variant, name, guesses=guesses, **kwargs)

    monkeypatch.setattr(strategy, "evaluate", recorded)
    b = compute_bounds(Variant(3, "0123456", repeats=False), search=False, deep=False,
                       order=StrategyOrder(first_first=0, candidates_first=0))
    return seen, b


def test_first_is_skipped_when_minimax_over_candidates_finished(monkeypatch):
    seen, _ = _plan_seen(monkeypatch)
    assert seen[0] == ("minimax", "candidates") and ("first", "all") not in seen
    assert ("minimax", "all") in seen


def test_first_follows_an_unfinished_minimax_over_candidates_and_ends_the_plan(monkeypatch):
    seen, b = _plan_seen(monkeypatch, unfinished={("minimax", "candidates")})
    assert seen == [("minimax", "candidates"), ("first", "all")]
    assert b.worst.upper_method.startswith("strategy first (exact evaluation")
    assert "not tried: minimax, expected, entropy, parts" in " ".join(b.notes)


def test_minimax_over_candidates_gives_its_own_exact_evaluation():
    # forced on a small game where it has the best total of the three (852 against 870 and
    # 874 over all codes and for first): the bound is its evaluation, labelled as such
    from cbsolve.strategy import evaluate

    v = Variant(3, "0123456", repeats=False)
    b = compute_bounds(v, search=False, strategy_names=("minimax", "first"), deep=False,
                       order=StrategyOrder(first_first=0, candidates_first=0))
    ev = evaluate(v, "minimax", guesses="candidates", keep_tree=False)
    others = [evaluate(v, name, keep_tree=False) for name in ("minimax", "first")]
    assert ev.total < min(o.total for o in others)
    assert b.expected.upper == ev.total
    assert b.expected.upper_method.startswith("strategy minimax over candidates (exact evaluation")
    assert b.worst.upper == min(o.worst for o in [ev, *others])
