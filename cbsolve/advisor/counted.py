"""A guess's partition on a space too large to list (Mastermind 10x10, 8 of 26 letters after
replies): each reply class counted, anytime, under the command's one deadline.

Place in the data flow: a log, a guess, the position service's count of the secrets a log
leaves (:meth:`.service.PositionService.counted`: the counting backends of ``consistent``,
exact where they finish, else a lower bound) -> the class of each reply r is the set the log
plus the entry ``guess:r`` leaves, each counted with an equal share of the time left -> the
classes with their counts, exact or proved bounds: a lower bound from the count, an upper
bound from the whole set once its size is exact (a class holds at most the set less what
the other classes are proved to hold). Classes proved empty are left out; the all-bulls
class is the guess itself, counted by scoring it against the log. When every class is
exact the set's size is their sum and the four scores are those of ``partition`` on a
listed space; no comparison with the best guess (that needs the secrets listed).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..game.rule import score
from ..runtime.deadline import Deadline, stop_requested
from ..game.feedback import FeedbackLog
from ..strategy.partition import row_sums, scores_of_sums

#: (count, exact) of the secrets a log leaves, within a deadline (count: a lower bound when
#: not exact, None when nothing was counted).
Counter = Callable[[FeedbackLog, Deadline], tuple[int | None, bool]]


#: Share of the time for the whole set's count, before the classes share the rest: the upper
#: bounds need it exact (Mastermind 10x10 after one reply: 0.65 s, where most classes take
#: hundredths and a few seconds each).
TOTAL_SHARE = 0.25


@dataclass
class CountedPartition:
    """Reply classes {"reply", "count", "exact", "upper"}: ``count`` exact, or a proved lower
    bound when not ``exact`` (0 when the deadline came first), ``upper`` a proved upper bound
    (None: none known); ``candidates`` the same for the whole set."""

    guess: str
    candidates: int
    candidates_exact: bool
    candidate: bool                    # the guess itself can be the secret
    classes: list[dict]
    stopped: str | None = None         # "time" | "interrupted" when not complete
    best: None = None                  # no comparison with other guesses: nothing is listed
    best_complete: bool = False

    @property
    def complete(self) -> bool:
        return self.candidates_exact and all(c["exact"] for c in self.classes)

    @property
    def scores(self) -> dict | None:
        """The four scores when every class is exact (else None: bounds do not give them)."""
        if not self.complete or not self.candidates:
            return None

        return scores_of_sums(self.candidates, *row_sums([c["count"] for c in self.classes]))

    @property
    def largest(self) -> int:
        """The largest class's size (a lower bound on it unless ``complete``)."""
        return max((c["count"] for c in self.classes), default=0)

    def to_json(self, members: bool = False) -> dict:
        return {"guess": self.guess, "candidates": self.candidates,
                "candidates_exact": self.candidates_exact, "candidate": self.candidate,
                "classes": self.classes, "largest": self.largest, "scores": self.scores,
                "best": None, "best_complete": False, "listed": False,
                "complete": self.complete, "stopped": self.stopped}


def counted_partition(log: FeedbackLog, guess: str, count: Counter,
                      deadline: Deadline) -> CountedPartition | None:
    """The classes of ``guess`` (a valid code) over the secrets ``log`` leaves, each counted
    by ``count`` with an equal share of the time left (the set's own count first, with
    :data:`TOTAL_SHARE` of it: the upper bounds come from it); None when the log leaves no secret (proved)."""
    from ..game.scoring import possible_responses

    v, space = log.variant, log.space
    code = space.parse(guess)
    candidate = all(score(v, code, e.guess) == (e.bulls, e.cows) for e in log)
    win = (v.length, 0)
    replies = [r for r in possible_responses(v) if r != win]
    total, total_exact = count(log, deadline.part(TOTAL_SHARE))
    if total_exact and total == 0:
        return None
    found: dict[tuple[int, int], tuple[int | None, bool]] = {win: (int(candidate), True)}
    for i, (b, c) in enumerate(replies):
        if deadline.expired():
            break
        extended = FeedbackLog(v, log.entries)
        extended.add(guess, b, None if v.bulls_only else c)
        found[(b, c)] = count(extended, deadline.part(1.0 / (len(replies) - i)))
    lows = {r: (found[r][0] or 0) if r in found else 0 for r in [win, *replies]}
    exact = {r for r, (_, ok) in found.items() if ok}
    if len(exact) == len(replies) + 1:          # every class exact: the set is their sum
        total, total_exact = sum(lows.values()), True
    elif not total_exact:
        total = max(total or 0, sum(lows.values()))
    classes = []
    for r in [win, *replies]:
        if r in exact and lows[r] == 0:
            continue                                    # proved empty
        upper = (lows[r] if r in exact else
                 total - (sum(lows.values()) - lows[r]) if total_exact else None)
        classes.append({"reply": v.format_response(v.response_index(*r)), "count": lows[r],
                        "exact": r in exact, "upper": upper})
    stopped = None
    if not (total_exact and len(exact) == len(replies) + 1):
        stopped = "interrupted" if stop_requested() else "time"
    return CountedPartition(guess=space.format(code), candidates=total,
                            candidates_exact=total_exact,
                            candidate=candidate, classes=classes, stopped=stopped)
