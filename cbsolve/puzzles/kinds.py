"""Puzzle kinds besides "find the secret" (``puzzle --kind``), each built from a verified
find-the-secret puzzle and its random stream, each answer checked over every code.

- ``count`` ("how many secrets remain"): the first j entries of the puzzle (j drawn, fewer
  than all), ``answer`` {``secrets``}: the codes consistent with them.
- ``wrong-reply`` ("which reply is wrong"): the puzzle plus one more clue, then one reply
  changed so that no secret fits; the correction is unique: only changing that entry makes
  the log consistent again, and only back to its true reply (the extra clue makes that
  entry redundant, so the true reply is the only one its one secret gives); the changed
  reply is never the win. ``answer``
  {``entry`` (from 1), ``reply`` (the true one), ``given`` (the changed one)}.
- ``best-guess``: the first j entries with at least 3 secrets left (the fewest such), and
  ``answer`` {``guess``, ``worst``}: a worst-case optimal next guess and the exact worst case
  from there (guesses still needed, it counted), from the exact search from that position;
  any guess whose worst case equals it is as good (``cbsolve partition`` or ``cb.regret`` grade
  another one).
"""
from __future__ import annotations

import numpy as np

from ..errors import CbsolveError, unknown_name
from ..game.feedback import FeedbackLog

KINDS = ("find", "count", "wrong-reply", "best-guess")
#: Tries at a unique correction before the next extra clue, and extra clues at most.
WRONG_TRIES, EXTRA_CLUES = 8, 50


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise unknown_name("puzzle kind", kind, KINDS)
    return kind


def apply_kind(maker, puzzle, draw, stream, kind: str, deadline=None) -> None:
    """Turn the find-the-secret ``puzzle`` (its draw ``draw``) into ``kind``, in place."""
    puzzle.kind = kind
    if kind == "find":
        return
    replies = [int(maker.replies.row(g)[draw.secret]) for g in draw.guesses]
    if kind == "count":
        j = stream.below(len(draw.guesses) - 1) + 1 if len(draw.guesses) > 1 else 0
        left = _consistent(maker, draw.guesses[:j], replies[:j]).size
        if j and left != draw.candidates_after[j - 1]:
            raise AssertionError("internal error: the count of a prefix disagrees")
        puzzle.entries = puzzle.entries[:j]
        puzzle.answer = {"secrets": int(left)}
    elif kind == "wrong-reply":
        _wrong_reply(maker, puzzle, draw, replies, stream)
    else:
        _best_guess(maker, puzzle, draw, deadline)


def _consistent(maker, guesses, replies) -> np.ndarray:
    """Code indices consistent with the entries (every code checked through the rows)."""
    mask = np.ones(maker.size, dtype=bool)
    for g, r in zip(guesses, replies):
        mask &= maker.replies.row(g) == r
    return np.flatnonzero(mask)


def _possible(maker, guess: int) -> list[int]:
    return np.unique(maker.replies.row(guess)).tolist()


def _wrong_reply(maker, puzzle, draw, replies, stream) -> None:
    secret = draw.secret
    for _ in range(EXTRA_CLUES):
        extra = stream.below(maker.size)
        if extra == secret:
            continue
        guesses = [*draw.guesses, extra]
        true = [*replies, int(maker.replies.row(extra)[secret])]
        # entries the extra clue made redundant: without them the secret is still alone
        redundant = [k for k in range(len(guesses))
                     if _consistent(maker, guesses[:k] + guesses[k + 1:],
                                    true[:k] + true[k + 1:]).size == 1]
        for _ in range(WRONG_TRIES if redundant else 0):
            k = redundant[stream.below(len(redundant))]
            others = [r for r in _possible(maker, guesses[k])       # not the win: too plain
                      if r not in (true[k], maker.variant.win_response)]
            if not others:
                continue
            given = others[stream.below(len(others))]
            changed = [*true[:k], given, *true[k + 1:]]
            if _unique_correction(maker, guesses, changed, k, secret):
                puzzle.entries = [maker.entry(g, r) for g, r in zip(guesses, changed)]
                puzzle.answer = {"entry": k + 1, "reply": _shown(maker, true[k]),
                                 "given": _shown(maker, given)}
                return
    raise CbsolveError(f"no wrong-reply puzzle with a unique correction from seed "
                       f"{puzzle.seed} ({EXTRA_CLUES} extra clues tried)")


def _unique_correction(maker, guesses, replies, k, secret) -> bool:
    """No secret fits ``replies``; dropping entry i leaves secrets only for i == k, and
    there only the secret (so its true reply is the one correction)."""
    if _consistent(maker, guesses, replies).size:
        return False
    for i in range(len(guesses)):
        rest = _consistent(maker, guesses[:i] + guesses[i + 1:], replies[:i] + replies[i + 1:])
        if i != k and rest.size:
            return False
        if i == k and rest.tolist() != [secret]:
            return False
    return True


def _shown(maker, reply: int) -> str:
    return maker.variant.format_response(reply)


def _best_guess(maker, puzzle, draw, deadline) -> None:
    from ..search.position import Position, solve_from

    after = draw.candidates_after
    fit = [j for j in range(1, len(after) + 1) if after[j - 1] >= 3]
    j = fit[-1] if fit else 0
    entries = puzzle.entries[:j]
    log = FeedbackLog(maker.variant)
    for e in entries:
        log.add(e["guess"], e["bulls"], e.get("cows"))
    result = solve_from(Position.from_log(log), "worst", guesses="all", certificate=False,
                        deadline=deadline)
    if not result.proved or result.tree is None:
        raise CbsolveError(f"the exact search from the position of seed {puzzle.seed} did "
                           "not finish within the time limit")
    puzzle.entries = entries
    puzzle.answer = {"guess": result.tree["root"]["guess"], "worst": int(result.upper),
                     "secrets": int(after[j - 1]) if j else maker.size}
