"""The interval known before an exact search (cbsolve/bounds/known.py): an evaluated heuristic
as the source of its upper end, reproduced by `cbsolve evaluate` and `cbsolve verify`."""
from __future__ import annotations

import json

import pytest

from cbsolve.bounds.known import Known, apply, heuristic_upper, known_interval
from cbsolve.cli import main
from cbsolve.runtime.deadline import Deadline
from cbsolve.search import SearchResult
from cbsolve.runtime.status import Status
from cbsolve.game.variant import Variant

#: Bulls & Cows 4 of 8: no tree ships for it, and the constructions prove 16 at most.
FOUR = Variant(4, "01234567", repeats=False)
OPTIONS = ("--length", "4", "--digits", "8")


def cli_json(capsys, *args) -> dict:
    code = main([*args, "--json"])
    out, _ = capsys.readouterr()
    assert code == 0, out
    return json.loads(out)


def test_with_no_tree_shipped_the_heuristic_is_the_upper_end_and_evaluate_reproduces_it(
        capsys, tmp_path):
    known = known_interval(FOUR, "worst", Deadline(None), None, "all")
    assert known.upper is not None and known.tree is None and known.lower is None
    strategy = known.strategy
    assert strategy["name"] == "minimax" and strategy["guesses"] == "all"
    assert f"`cbsolve evaluate --strategy minimax --first {strategy['first']}`" in \
        known.upper_method
    tree = tmp_path / "minimax.json"
    played = cli_json(capsys, "evaluate", "--strategy", "minimax", "--first", strategy["first"],
                      *OPTIONS, "--out", str(tree))
    assert played["worst"] == known.upper
    replayed = cli_json(capsys, "verify", str(tree))
    assert replayed["valid"] and replayed["worst"] == known.upper
    # the expected objective: Irving's heuristic, its total
    total = known_interval(FOUR, "expected", Deadline(None), None, "all")
    assert total.strategy["name"] == "expected"
    assert cli_json(capsys, "evaluate", "--strategy", "expected", *OPTIONS)["total"] == \
        total.upper


def test_a_stopped_search_names_the_heuristic_behind_its_upper_end():
    known = known_interval(FOUR, "worst", Deadline(None), None, "all")
    stopped = SearchResult("worst", Status.UNKNOWN, False, 1680, lower=5)
    found = apply(stopped, known)
    assert stopped.upper == known.upper
    assert found == {"method": known.upper_method, "tree": None, "strategy": known.strategy}
    assert any(f"upper bound {known.upper}" in note for note in stopped.notes)


def test_the_heuristic_starts_only_when_its_budget_covers_it_and_only_if_better():
    small = Known(None, 15)           # 720 secrets: the search proves it as fast
    heuristic_upper(small, Variant(3, "0123456789", repeats=False), "worst", Deadline(None))
    assert (small.upper, small.strategy) == (15, None)
    spent = Known(5, 15)
    heuristic_upper(spent, FOUR, "worst", Deadline(0.0))         # no time: not started
    assert (spent.upper, spent.strategy) == (15, None)
    tight = Known(5, 5, upper_method="a tree")
    heuristic_upper(tight, FOUR, "worst", Deadline(None))       # never worse than known
    assert (tight.upper, tight.upper_method, tight.strategy) == (5, "a tree", None)


def test_with_a_time_limit_the_heuristic_closes_an_interval_the_bounds_leave_open():
    # Mastermind 4x8: the shipped tree (an expected-case one) has worst case 7; the two-level
    # partition bound proves 6, and minimax reaches 6 (the optimum, proved by the search)
    mm48 = Variant(4, "12345678", repeats=True)
    known = known_interval(mm48, "worst", Deadline(120.0), None, "all")
    assert (known.lower, known.upper) == (6, 6)
    assert known.strategy["name"] == "minimax"


@pytest.mark.parametrize("objective", ["worst", "expected"])
def test_a_depth_cap_or_a_restricted_pool_knows_nothing(objective):
    assert known_interval(FOUR, objective, Deadline(None), 4, "all") is None
    assert known_interval(FOUR, objective, Deadline(None), None, "candidates") is None


def test_ctrl_c_in_the_heuristic_leaves_the_report_to_the_search(monkeypatch):
    """The CLI's Ctrl-C (a stop request, then KeyboardInterrupt) while the heuristic plays:
    the search that follows stops at once and reports what was proved; a bare
    KeyboardInterrupt (a library caller's) is raised as it came."""
    import cbsolve as cb
    from cbsolve import strategy
    from cbsolve.runtime.deadline import clear_stop, request_stop

    def ctrl_c(*args, stop=True, **kwargs):
        if stop:
            request_stop()
        raise KeyboardInterrupt

    monkeypatch.setattr(strategy, "evaluate", ctrl_c)
    try:
        result = cb.optimal(variant=FOUR)     # the worst-case search returns, marked
    except cb.SearchInterrupted as stop:
        result = stop.result
    finally:
        clear_stop()
    assert result.interrupted and not result.proved
    assert result.upper_from is None or "strategy" not in result.upper_from
    monkeypatch.setattr(strategy, "evaluate", lambda *a, **k: ctrl_c(stop=False))
    with pytest.raises(KeyboardInterrupt):
        cb.optimal(variant=FOUR)


@pytest.mark.parametrize("objective", ["worst", "expected"])
def test_where_the_heuristic_does_not_fit_first_gives_the_upper_end(objective):
    # Bulls & Cows 6/10 under `optimal --time-limit 50`: minimax (15 s estimated) did not fit
    # its share and the upper end stayed "?", while `bounds` proved 13 with `first` (3 s)
    from cbsolve.strategy import evaluate

    known = Known(None, None)     # the heuristic estimated at a million seconds a secret
    heuristic_upper(known, FOUR, objective, Deadline(600.0), per_secret=(1e6, 1e6))
    first = evaluate(FOUR, "first")
    assert known.strategy == {"name": "first", "guesses": first.guesses, "first": first.first}
    assert known.upper == (first.worst if objective == "worst" else first.total)
    assert "`cbsolve evaluate --strategy first" in known.upper_method


class SlowClock:
    """A deterministic slow machine: every read of the clock takes ``tick`` seconds, so a
    deadline of k ticks expires after k reads, whatever the load of the machine running it."""

    def __init__(self, tick: float = 1e-4):
        self.now, self.tick = 0.0, tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


def contains(known, interval) -> bool:
    """``optimal``'s starting interval lies within the one ``bounds`` proved (its trivial upper
    end, "every code in order", is left out by ``optimal``: no end is then no worse), and
    an upper end from a strategy names it as ``bounds`` does."""
    if known.strategy is not None and known.upper == interval.upper:
        assert known.strategy == interval.upper_strategy
    upper_ok = (interval.upper_method.startswith("trivial") if known.upper is None
                else known.upper <= interval.upper)
    return known.lower is not None and known.lower >= interval.lower and upper_ok


#: Logik 5x8, Mastermind 6x6, Bulls & Cows 5/10 and 6/10, a letter game: the two-level
#: partition bounds raise a lower end beyond the closed forms on each, in 0.1-0.5 s.
GAMES = {"logik-5x8": Variant(5, "12345678", repeats=True),
         "mastermind-6x6": Variant(6, "123456", repeats=True),
         "bulls-cows-5": Variant(5, "0123456789", repeats=False),
         "bulls-cows-6": Variant(6, "0123456789", repeats=False),
         "letters-4x12": Variant(4, "ABCDEFGHIJKL", repeats=True), "bulls-cows-4x8": FOUR}


#: Bulls & Cows 5/10 (about 3.4 CPU s an objective) in the slow run; 6/10, the other game
#: without repeats of ten symbols, in the default one.
@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow) if g == "bulls-cows-5"
                                  else g for g in sorted(GAMES)])
@pytest.mark.parametrize("objective", ["worst", "expected"])
def test_optimal_starts_from_the_fast_proved_ends_under_the_same_deadline(game, objective):
    # `optimal --time-limit` is never worse than the proved ends it starts from (the contract,
    # docs/contract.md, `optimal`): its starting interval holds what `bounds --no-search`
    # proves without strategies nor two-level bounds within OPTIMAL_CHEAP_SECONDS of the same deadline, on a
    # machine however slow (the deadline in clock reads: spent, nearly spent, enough for the
    # closed forms only, enough for more; on Bulls & Cows 4 of 8, its heuristic cut at each
    # step)
    from cbsolve.runtime import time_policy
    from cbsolve.bounds import compute_bounds

    variant = GAMES[game]
    cap = time_policy.OPTIMAL_CHEAP_SECONDS
    for reads in (0, 1, 30, 300, 3000) + ((400, 700, 1000, 1500) if variant is FOUR else ()):
        proved = compute_bounds(variant, search=False, strategies=False, deep=False,
                                deadline=Deadline(min(reads * 1e-4, cap), SlowClock()))
        interval = proved.worst if objective == "worst" else proved.expected
        known = known_interval(variant, objective, Deadline(reads * 1e-4, SlowClock()), None,
                               "all")
        assert contains(known, interval), (reads, known, interval)


@pytest.mark.parametrize("game", ["logik-5x8", "bulls-cows-5", "letters-4x12"])
def test_under_a_spent_deadline_optimal_reports_what_bounds_proves(game):
    import cbsolve as cb
    from cbsolve.api import bounds

    variant = GAMES[game]
    proved = bounds(variant, deadline=Deadline(0.0))
    for objective in ("worst", "expected"):
        result = cb.optimal(variant=variant, objective=objective, deadline=Deadline(0.0))
        interval = proved.worst if objective == "worst" else proved.expected
        if interval.lower == interval.upper:    # the ends meet (Logik's worst: ledger and tree)
            assert result.proved and result.lower == result.upper == interval.lower
            continue
        assert not result.proved and result.lower == interval.lower
        assert result.stop == "time" and any("not started" in n for n in result.notes)
        assert result.upper == interval.upper or (
            result.upper is None and interval.upper_method.startswith("trivial"))
