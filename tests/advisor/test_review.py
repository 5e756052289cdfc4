"""The position service's review (cbsolve/advisor/review.py): its exact answers against an
independent exhaustive minimax / expected computation on small games, its labels, the
hint-vs-coach agreement, and one Deadline a turn in the interactive faces."""
from __future__ import annotations

import functools
import itertools

import pytest
from testkit import run_game

from cbsolve.advisor import PositionService
from cbsolve.advisor.options import AdviceOptions
from cbsolve.advisor import review as review_module
from cbsolve.runtime.deadline import Deadline, Turns
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score
from cbsolve.strategy import exact
from cbsolve.game.variant import Variant

MM3 = Variant(3, "123", repeats=True)            # Mastermind 3x3: 27 codes
BC35 = Variant(3, "01234", repeats=False)        # Bulls & Cows 3 of 5: 60 codes


class Exhaustive:
    """Minimax and expected optima by plain recursion over every guess of the game (no
    symmetry, no bound, no kernel): the reference the review is checked against."""

    def __init__(self, variant: Variant):
        self.variant = variant
        alphabet = variant.symbols
        self.codes = [c for c in itertools.product(range(len(alphabet)), repeat=variant.length)
                      if variant.repeats or len(set(c)) == len(c)]
        self.win = (variant.length, 0)

    def classes(self, guess, secrets):
        out: dict = {}
        for s in secrets:
            out.setdefault(score(self.variant, s, guess), []).append(s)
        return out

    def guess_worst(self, guess, secrets) -> int | None:
        """Guesses in the worst case: ``guess``, then minimax-optimal play (None: the guess
        tells nothing and is no move)."""
        parts = self.classes(guess, secrets)
        if len(parts) == 1 and self.win not in parts and len(secrets) > 0:
            return None
        return max(1 if r == self.win else 1 + self.worst(frozenset(p)) for r, p in parts.items())

    def guess_total(self, guess, secrets) -> int | None:
        """Guesses summed over the secrets: ``guess``, then expected-optimal play."""
        parts = self.classes(guess, secrets)
        if len(parts) == 1 and self.win not in parts:
            return None
        return len(secrets) + sum(self.total(frozenset(p)) for r, p in parts.items()
                                  if r != self.win)

    @functools.cache
    def worst(self, secrets: frozenset) -> int:
        return min(v for g in self.codes if (v := self.guess_worst(g, secrets)) is not None)

    @functools.cache
    def total(self, secrets: frozenset) -> int:
        return min(v for g in self.codes if (v := self.guess_total(g, secrets)) is not None)


def positions(variant, first_guesses, most=14):
    """Logs of one entry leaving 2..``most`` secrets, with those secrets."""
    ref = Exhaustive(variant)
    space = PositionService(variant).space
    for text in first_guesses:
        g = tuple(space.parse(text))
        for reply, members in sorted(ref.classes(g, ref.codes).items()):
            if 2 <= len(members) <= most:
                b, c = reply
                yield FeedbackLog.parse(variant, [f"{text}:{b},{c}"]), frozenset(members)


@pytest.mark.parametrize("variant, firsts", [(MM3, ["112", "123"]), (BC35, ["012"])])
def test_exact_reviews_equal_the_exhaustive_optima(variant, firsts):
    ref = Exhaustive(variant)
    service = PositionService(variant)
    space = service.space
    checked = 0
    for log, secrets in positions(variant, firsts):
        best = {"worst": ref.worst(secrets), "expected": ref.total(secrets)}
        for code in ref.codes[::3]:
            text = space.format(code)
            for objective, of in (("worst", ref.guess_worst), ("expected", ref.guess_total)):
                r = service.review(log, text, objective, Deadline(None))
                assert r.exact and r.known == "exact" and r.complete
                assert r.best == best[objective] and r.best_bounds == (r.best, r.best)
                value = of(code, secrets)
                if value is not None:          # a guess that tells nothing: no move here
                    assert r.cost == value and r.cost_bounds == (value, value)
                    assert r.regret == value - best[objective] >= 0
                best_code = tuple(space.parse(r.best_guess))
                assert of(best_code, secrets) == best[objective]
                checked += 1
    assert checked >= 100


def test_a_large_position_is_a_labelled_heuristic_estimate_inside_proved_bounds():
    mm = Variant.preset("mastermind")
    r = PositionService(mm).review(FeedbackLog(mm), "1122", "worst", Deadline(None))
    assert r.known == "heuristic" and not r.exact and "1296 candidates, more than" in r.method
    lo, hi = r.cost_bounds
    assert lo <= r.best <= r.cost == hi and r.best_bounds[0] == lo
    assert r.to_json()["known"] == "heuristic"


def test_a_spent_deadline_cuts_the_exact_review_and_says_so():
    mm = Variant.preset("mastermind")
    log = FeedbackLog.parse(mm, ["1122:1,0"])
    r = PositionService(mm).review(log, "1344", "worst", Deadline(0.0))
    assert not r.exact and "did not end within the deadline" in r.method


def test_the_advice_is_followed_never_a_cost():
    mm = Variant.preset("mastermind")
    service = PositionService(mm)
    log = FeedbackLog.parse(mm, ["1122:0,1", "2344:0,2"])
    advice = service.advise(log, strategy="minimax", objective="worst", deadline=Deadline(None))
    r = service.review(log, advice.guess, "worst", Deadline(None), strategy="minimax")
    assert r.followed == advice.source and r.regret == 0 and "followed the advice" in r.method
    # against the best only (cb.regret's question), the same guess has its exact figures
    plain = service.review(log, advice.guess, "worst", Deadline(None))
    assert plain.followed is None and plain.exact and plain.cost == r.cost


REPRO = ["1122", "hint", "2344", "hint", "3235", "quit"]     # where hint and coach disagreed


def test_the_hinted_guess_is_what_the_coach_calls_the_advice():
    result, out = run_game(REPRO, variant=Variant.preset("mastermind"), mode="guess",
                           coach=True, seed=11)
    hinted = [line.split(": ")[1].split()[0] for line in out.splitlines()
              if "best next guess:" in line]
    assert hinted == ["2344", "3235"]
    reviews = {g["guess"]: g["coach"] for g in result.your_guesses}
    for guess in hinted:
        assert reviews[guess]["followed"] is not None and reviews[guess]["regret"] == 0
    assert "coach: 3235 is the advice" in out and "3235 costs" not in out


class CountingTurns(Turns):
    """A Turns that keeps every Deadline it made."""

    def __init__(self, seconds):
        super().__init__(seconds)
        self.made: list[Deadline] = []

    def start(self) -> Deadline:
        self.made.append(super().start())
        return self.made[-1]


def test_one_deadline_a_turn_shared_by_hint_advice_and_review(monkeypatch):
    seen: list[tuple[str, Deadline]] = []
    advise, review = PositionService.advise, PositionService.review
    monkeypatch.setattr(PositionService, "advise", lambda self, log, **kw: seen.append(
        ("advise", kw["deadline"])) or advise(self, log, **kw))
    monkeypatch.setattr(PositionService, "review", lambda self, *a: seen.append(
        ("review", a[3])) or review(self, *a))
    turns = CountingTurns(30)
    run_game(REPRO, variant=Variant.preset("mastermind"), mode="guess", coach=True, seed=11,
             turns=turns)
    assert len(turns.made) == len(REPRO)           # one Deadline a line read, no other
    made = {id(d): k for k, d in enumerate(turns.made)}
    assert all(id(d) in made for _, d in seen)      # nothing asked under a Deadline of its own
    turn_of_guess_3 = made[id(seen[-1][1])]
    assert seen[-1][0] == "review" and turn_of_guess_3 == REPRO.index("3235")


def test_assist_and_bot_make_one_deadline_a_turn():
    import io

    from cbsolve.play.assistant import Assistant, AssistSession
    from cbsolve.play.bot import Bot, serve
    from cbsolve.play.inputs import Console

    mm = Variant.preset("mastermind")
    turns = CountingTurns(30)
    lines = "1122 0 1\nhint\n2344 0 2\n"
    AssistSession(Assistant(mm, strategy="minimax", coach=True, turns=turns),
                  Console(stdin=io.StringIO(lines), stdout=io.StringIO())).run()
    assert len(turns.made) == 1 + 3 + 1     # the start, each line, the summary's answer
    turns = CountingTurns(30)
    bot = Bot(mm, strategy="first", turns=turns)
    serve(bot, io.StringIO("guess\nscore 0 1\nguess\nquit\n"), io.StringIO())
    assert len(turns.made) == 1 + 4         # the warm-up, each command line


def test_beyond_the_estimate_the_review_is_the_proved_bounds_and_regret_says_so():
    import cbsolve as cb
    from cbsolve.game.capacity import worst_lower
    from cbsolve.game.rule import possible_responses

    v = Variant(5, "0123456789", repeats=False)          # Bulls & Cows 5/10: 30,240 codes
    r = PositionService(v).review(FeedbackLog(v), "01234", "worst", Deadline(None))
    assert r.known == "bounds" and r.cost is None and r.regret is None and not r.exact
    assert r.cost_bounds == (worst_lower(30240, len(possible_responses(v))), None)
    with pytest.raises(cb.SpaceTooLarge):
        cb.regret("01234", variant=v)


def test_a_small_position_is_solved_without_the_certified_tree(monkeypatch):
    """Below review_tree_from candidates the review solves the position's optimum itself: loading
    the two Bulls & Cows 4/10 trees (seconds) would cost more than the solve."""
    bc = Variant.preset("bulls-cows")
    log = FeedbackLog.parse(bc, ["5106:1,1", "7086:1,1", "9180:0,0"])     # 6 candidates
    asked = []
    monkeypatch.setattr(review_module, "tree_optimum", lambda *a: asked.append(a))
    for objective in ("worst", "expected"):
        r = PositionService(bc).review(log, "2576", objective, Deadline(None))
        assert r.exact and r.candidates == 6 <= AdviceOptions().review_tree_from
    assert asked == []


def test_prepare_builds_the_exact_search_before_any_move():
    service = PositionService(BC35)
    exact._SEARCHES.clear()
    service.reviewer().prepare(Deadline(None))
    assert (BC35, "all") in exact._SEARCHES
    assert service.reviewer()._worst is not None
    big = PositionService(Variant(6, "0123456789", False))   # 151,200 codes: left for a move
    exact._SEARCHES.clear()
    big.reviewer().prepare(Deadline(None))
    assert exact._SEARCHES == {} and big.reviewer()._worst is None
