"""Hypothesis strategies for the contract campaigns (tests/contract/): a public call drawn
with valid arguments, then, in about half the examples, one argument replaced by anything at
all; and the check that the call kept the contract (an answer, or a CbsolveError naming what
was wrong).

Examples stay cheap: tiny games (at most a few hundred codes, Bulls & Cows 4/10 when the
variant is left out) and time limits of at most 0.2 s.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import cbsolve as cb
from cbsolve.game.codes import CodeSpace
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant

#: Examples per test in the default suite, and per test of the `slow` campaign (over 10,000
#: in all: 15 functions, 7 parsers and serve's requests).
DEFAULT_EXAMPLES = int(os.environ.get("CBSOLVE_FUZZ_EXAMPLES", "25"))
CAMPAIGN_EXAMPLES = int(os.environ.get("CBSOLVE_CAMPAIGN_EXAMPLES", "600"))

#: The campaigns' Hypothesis profiles: no per-example deadline (a call may spend its 0.2 s
#: budget, more on a loaded machine), no health check on slow draws; each test scales
#: ``max_examples`` from these (``@settings(CONTRACT, max_examples=...)``).
settings.register_profile("cbsolve-contract", max_examples=DEFAULT_EXAMPLES, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow,
                                                 HealthCheck.filter_too_much])
settings.register_profile("cbsolve-campaign", settings.get_profile("cbsolve-contract"),
                          max_examples=CAMPAIGN_EXAMPLES)
CONTRACT = settings.get_profile("cbsolve-contract")
CAMPAIGN = settings.get_profile("cbsolve-campaign")

#: Anything a caller might pass by mistake.
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12), st.binary(max_size=6),
    st.lists(st.integers(-3, 12), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.tuples(st.text(max_size=4), st.integers(-1, 5)), st.just(object()), st.just(Ellipsis),
    st.sampled_from([float("nan"), -1, 10**30, "", "7", 2.5, -0.0]),
)   # nothing callable: a callback that raises is the caller's own error, passed through

#: Tiny games of every kind, and the presets that are small.
TINY_VARIANTS = [
    Variant(2, "0123", True), Variant(2, "0123", False), Variant(3, "012", True),
    Variant(3, "0123", False, no_leading_zero=True), Variant(2, "0123", True, feedback="bulls"),
    Variant(2, "01234", True, no_leading_zero=True), Variant(1, "01", True),
]
SMALL_PRESETS = ["cowbull", "black-peg", "mastermind", "Mastermind "]

#: Text near codes and replies, for the parsers.
near_codes = st.one_of(st.text(alphabet="0123456ABCD", max_size=5), st.text(max_size=5))
replies = st.one_of(
    st.builds(lambda b, c: f"{b},{c}", st.integers(0, 5), st.integers(0, 5)),
    st.builds(lambda b, c: f"{b}A{c}B", st.integers(0, 5), st.integers(0, 5)),
    st.builds(lambda b, c: f"{b}B{c}W", st.integers(0, 5), st.integers(0, 5)),
    st.builds(str, st.integers(0, 5)),
    st.builds(lambda b, c: f"{b} bull, {c} cows", st.integers(0, 5), st.integers(0, 5)),
    st.text(alphabet="0123456789,ABW -", max_size=6),
)
near_tokens = st.one_of(st.builds(lambda g, r: f"{g}:{r}", near_codes, replies),
                        st.text(max_size=10))


class Game:
    """A drawn variant (or preset name, or None: Bulls & Cows 4/10) and draws of its codes."""

    def __init__(self, draw, given):
        self.draw, self.given = draw, given
        self.variant = cb.as_variant(given)
        self.space = CodeSpace(self.variant)

    def code(self) -> str:
        if self.draw(st.integers(0, 9)) == 0:
            return self.draw(near_codes)
        return self.space.format(self.space.code_at(self.draw(st.integers(0, self.space.size - 1))))

    def log(self) -> list:
        """Entries scored against a hidden secret, now and then a wrong reply (an inconsistent
        log) or a token near the grammar; each entry as a token, a dict or a tuple."""
        draw, v, space = self.draw, self.variant, self.space
        secret = space.code_at(draw(st.integers(0, space.size - 1)))
        out: list = []
        for _ in range(draw(st.integers(0, 3))):
            guess = space.code_at(draw(st.integers(0, space.size - 1)))
            bulls, cows = score(v, secret, guess)
            if draw(st.integers(0, 5)) == 0:
                bulls, cows = draw(st.integers(0, v.length)), draw(st.integers(0, v.length))
            shown, cows_or_none = space.format(guess), None if v.bulls_only else cows
            form = draw(st.integers(0, 9))
            if form == 0:
                out.append(draw(near_tokens))
            elif form == 1:
                out.append({"guess": shown, "bulls": bulls, "cows": cows_or_none})
            elif form == 2:
                out.append((shown, bulls, cows_or_none))
            else:
                out.append(f"{shown}:{bulls}" if v.bulls_only else f"{shown}:{bulls},{cows}")
        return out


@st.composite
def games(draw) -> Game:
    return Game(draw, draw(st.sampled_from([None, *TINY_VARIANTS, *SMALL_PRESETS])))


#: A budget: a short time limit or a short Deadline (never unlimited: no example runs long).
budgets = st.one_of(st.builds(lambda s: {"time_limit": s}, st.sampled_from([0, 0.05, 0.2])),
                    st.builds(lambda s: {"deadline": Deadline(s)},
                              st.sampled_from([0.0, 0.05, 0.2])))
seeds = st.one_of(st.none(), st.integers(0, 2**64 - 1))
counts = st.one_of(st.none(), st.integers(0, 30))


#: Junk for an argument that names a file to write: never a name (a test writes nowhere but
#: its scratch directory).
PATH_JUNK = st.one_of(st.none(), st.booleans(), st.integers(), st.just(""), st.just(b"x"),
                      st.lists(st.integers(), max_size=2), st.just(object()))


@st.composite
def spoiled(draw, valid: st.SearchStrategy, files: tuple = ()):
    """A call ``(fn, args, kwargs)`` drawn from ``valid``, in about half the examples with one
    argument (positional, keyword, or the budget) replaced by junk; ``files``: the places
    (positions, keywords) that name files, given PATH_JUNK."""
    fn, args, kwargs = draw(valid)
    places = [*range(len(args)), *kwargs]
    if places and draw(st.booleans()):
        place = draw(st.sampled_from(places))
        junk = draw(PATH_JUNK if place in files else JUNK if place not in ("time_limit", "deadline")
                    else JUNK.filter(lambda j: j is not None))
        if isinstance(place, int):
            args = (*args[:place], junk, *args[place + 1:])
        else:
            kwargs = {**kwargs, place: junk}
    return fn, args, kwargs


def holds_the_contract(call) -> object:
    """Run ``call``: its answer, or None after a CbsolveError whose message is one line that
    names the argument when the argument was out of range. The documented stops (an
    exhaustive evaluation, a certificate check cut by the deadline) are answers too.
    Anything else fails the test."""
    from hypothesis import event

    from cbsolve.arguments import InvalidArgument
    from cbsolve.certificates.certify import OutOfTime
    from cbsolve.strategy import Unfinished

    try:
        answer = call()
        event("answered")
        return answer
    except InvalidArgument as exc:
        assert str(exc).startswith(exc.name) and "\n" not in str(exc), str(exc)
        event(f"InvalidArgument {exc.name}")
    except cb.CbsolveError as exc:
        assert str(exc), type(exc)
        event(type(exc).__name__)
    except (Unfinished, OutOfTime) as exc:
        event(type(exc).__name__)
    return None
