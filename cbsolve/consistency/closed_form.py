"""Exact counts of logs whose every reply is "nothing", by a formula instead of a search.

Place in the data flow: FeedbackLog -> (this module) -> solve.py, before any backend counts.

A reply of 0 bulls and 0 cows says that none of the guess's symbols is in the secret; a
bulls-only reply of 0 says that no position holds the guess's symbol there. A log of such
replies only leaves each position a set of allowed symbols, and its secrets are counted in
closed form where a search counting them one by one stops at "at least" (64 zeros answered
"0,0" over 10 digits: 9^64 secrets, "at least 6 x 10^14" after 10 s):

* symbols may repeat: the product of the sets' sizes;
* distinct symbols, every position the same set A (the first without the alphabet's first
  symbol under no-leading-zero): the falling factorial |A|! / (|A| - N)!, the first position's
  choice taken first when it differs.

Other logs (a reply that is not "nothing", distinct symbols whose positions' sets differ
otherwise) are left to the search: None.

>>> from cbsolve.game.feedback import FeedbackLog
>>> from cbsolve.game.variant import Variant
>>> zero_reply_count(FeedbackLog.parse(Variant(64, "0123456789", True), ["0" * 64 + ":0,0"])) == 9**64
True
>>> zero_reply_count(FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:0,0"]))  # 6*5*4*3
360
"""
from __future__ import annotations

from math import perm, prod

from ..game.feedback import FeedbackLog


def zero_reply_count(log: FeedbackLog) -> int | None:
    """The exact number of secrets ``log`` leaves when every reply is "nothing" and the
    formula applies (see the module docstring); None otherwise, and for an empty log."""
    v = log.variant
    if not len(log) or any(e.bulls or (not v.bulls_only and e.cows) for e in log):
        return None
    n, d = v.length, v.n_symbols
    allowed = [set(range(d)) for _ in range(n)]
    if v.no_leading_zero:
        allowed[0].discard(0)
    for e in log:
        if v.bulls_only:                       # this symbol is not at this position
            for position, symbol in enumerate(e.guess):
                allowed[position].discard(int(symbol))
        else:                                  # these symbols are nowhere
            absent = {int(s) for s in e.guess}
            for symbols in allowed:
                symbols -= absent
    if v.repeats:
        return prod(len(symbols) for symbols in allowed)
    if n == 1:
        return len(allowed[0])
    common = allowed[1]
    if any(symbols != common for symbols in allowed[2:]):
        return None
    if allowed[0] == common:
        return perm(len(common), n)
    if allowed[0] == common - {0}:             # no leading zero, the first symbol still allowed
        return len(allowed[0]) * perm(len(common) - 1, n - 1)
    return None
