"""Which reply of an inconsistent log could alone be the wrong one, and what it should read.

Place in the data flow: consistency backends -> :mod:`diagnose` -> (this module) -> CLI and
play. A player who mis-scored one reply wants every reply that could be it, each with every
score that makes the log consistent and how many secrets that leaves, not one guess at it.
Over an enumerable space the answer is exact: a code contradicting exactly one entry k is a
secret of the log with k's reply changed to that code's score against k's guess, so grouping
the codes that break one entry by (entry, score) gives every single-reply repair and its
secret count at once (one pass over the mismatch matrix). Beyond the filter only the entries
of the minimal conflict can be repaired by one change (a single change must break every
conflict); :func:`single_repairs_counted` takes each in turn within its share of the deadline:
it lists the secrets of the other entries (all of them when they are few: every fitting score
and its exact count at once), else counts the log with each possible score in its place
(exact, or "at least" where the time ran out, labelled).

Ranking, likeliest first: a repair that makes an earlier guess the secret comes last (the game
would have ended there), then the newest reply (a mistyped score is usually the one just
typed), then the repair that leaves more secrets (with secrets equally likely a priori and one
reply mistyped, a repair's posterior weight is its secret count), then alphabet order.
Entries the player ``confirmed`` are never proposed.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..runtime.deadline import Deadline, stop_requested
from ..game.feedback import FeedbackLog, spell_reply
from ..game import scoring


@dataclass(frozen=True)
class Repair:
    """Change entry ``entry`` (1-based) to (``bulls``, ``cows``): the log then has ``secrets``
    consistent secrets (None: not counted; at least that many when ``exact`` is False),
    ``example`` among them (symbol indices)."""

    entry: int
    bulls: int
    cows: int
    secrets: int | None
    example: tuple[int, ...]
    exact: bool = True


def _rank_key(log: FeedbackLog, r: Repair):
    n = log.variant.length
    ends_early = r.bulls == n and r.entry < len(log)
    return (ends_early, -r.entry, -(r.secrets if r.secrets is not None else -1), r.example)


def single_repairs_enumerated(log: FeedbackLog, confirmed=()) -> list[Repair]:
    """Every single-reply repair over the enumerated space, with exact secret counts, ranked."""
    variant = log.variant
    codes = log.space.codes
    replies = scoring.score_matrix(variant, log.guesses_array(), codes)
    want = np.asarray(log.responses(), dtype=replies.dtype)[:, None]
    bad = replies != want
    one = np.flatnonzero(bad.sum(axis=0) == 1)
    if one.size == 0:
        return []
    rows = bad[:, one].argmax(axis=0)                       # the entry each code breaks
    keys = rows.astype(np.int64) * variant.response_slots + replies[rows, one]
    uniq, first, counts = np.unique(keys, return_index=True, return_counts=True)
    skip = {k - 1 for k in confirmed}
    out = []
    for key, at, count in zip(uniq.tolist(), first.tolist(), counts.tolist(), strict=True):
        row, response = divmod(int(key), variant.response_slots)
        if row in skip:
            continue
        bulls, cows = variant.response_of(response)
        out.append(Repair(row + 1, bulls, cows, int(count),
                          tuple(int(v) for v in codes[one[at]])))
    return sorted(out, key=lambda r: _rank_key(log, r))


#: Most joint fixes listed when no single reply explains the log (each changes several
#: replies; a long log can have thousands of them).
MAX_JOINT = 100


@dataclass(frozen=True)
class JointRepair:
    """Change the replies in ``changes`` ((entry, bulls, cows), entries ascending) at once:
    the log then has ``secrets`` consistent secrets, ``example`` among them."""

    changes: tuple[tuple[int, int, int], ...]
    secrets: int
    example: tuple[int, ...]


def fewest_repairs_enumerated(log: FeedbackLog, confirmed=()) -> tuple[list[JointRepair], int]:
    """When no single reply explains the log: every way of changing the fewest replies (none
    of them ``confirmed``) with its exact secret count, ranked like the single repairs, at most
    :data:`MAX_JOINT`; and how many there are in all. ([], 0) when the confirmed replies
    cannot all hold."""
    variant = log.variant
    codes = log.space.codes
    replies = scoring.score_matrix(variant, log.guesses_array(), codes)
    bad = replies != np.asarray(log.responses(), dtype=replies.dtype)[:, None]
    keep = ~bad[[k - 1 for k in confirmed]].any(axis=0) if confirmed else np.ones(bad.shape[1], bool)
    if not keep.any():
        return [], 0
    lies = bad.sum(axis=0)
    fewest = lies[keep].min()
    idx = np.flatnonzero(keep & (lies == fewest))
    # one key per code: the reply each broken entry would need (+1), 0 where it holds
    kind = np.uint16 if variant.response_slots < 2**16 - 1 else np.int64   # as small as the replies
    keys = np.where(bad[:, idx], replies[:, idx].astype(kind) + 1, 0).astype(kind).T
    uniq, first, counts = np.unique(keys, axis=0, return_index=True, return_counts=True)
    out = []
    for key, at, count in zip(uniq, first.tolist(), counts.tolist(), strict=True):
        changes = tuple((int(row) + 1, *variant.response_of(int(r) - 1))
                        for row, r in enumerate(key) if r)
        out.append(JointRepair(changes, int(count), tuple(int(v) for v in codes[idx[at]])))
    n = variant.length
    out.sort(key=lambda j: (any(b == n and e < len(log) for e, b, _ in j.changes),
                            [-e for e, _, _ in reversed(j.changes)], -j.secrets, j.example))
    return out[:MAX_JOINT], len(out)


def joint_corrections(log: FeedbackLog, joints: list[JointRepair]) -> list[dict]:
    """The joint fixes as ``corrections`` items: the items of one option change its replies
    together; ``secrets``: what the log then has."""
    out = []
    for option, j in enumerate(joints, 1):
        for e, b, c in j.changes:
            item = correction_item(log, e, b, c, [x for x in j.changes if x[0] != e])
            item["message"] += f" ({secrets_text(j.secrets, True)} left)"
            item.update(option=option, replies=len(j.changes), secrets=j.secrets,
                        secrets_at_least=j.secrets, secrets_exact=True)
            out.append(item)
    return out


#: Beyond the filter, the secrets of the other entries are listed up to this many by the
#: depth-first search (a few solver calls' worth by the solvers): when they are all listed,
#: every fitting score and its exact count come from that one listing.
REST_LIST_CAP = {"search": 100_000, "solver": 20}
#: Of the extra time (``extra`` of :func:`single_repairs_counted`), deciding which other
#: scores fit (a find-one each, most proved impossible at once) takes this share; counting the
#: secrets of each fitting score shares the rest.
DECIDE_SHARE = 0.25
#: Rounds of deciding and of counting: a find-one or a count the time cut is started again
#: with an equal share of what the others left (a fresh start: the kernel cannot resume a
#: count), at most this many times.
ROUNDS = 3


@dataclass(frozen=True)
class CountingEngine:
    """How :func:`single_repairs_counted` asks its backend, each call within a deadline:
    ``list(log, limit) -> (codes (k, N) uint8, complete)``; ``first(log) -> (code or None,
    decided)``; ``count(log) -> (count, exact)`` (a count that is not exact is a lower bound);
    ``kind``: ``search`` or ``solver`` (:data:`REST_LIST_CAP`)."""

    list: object
    first: object
    count: object
    kind: str = "search"


def single_repairs_counted(log: FeedbackLog, conflict: list[int], deadline: Deadline,
                           engine: CountingEngine, confirmed=(),
                           extra: float | None = None) -> tuple[list[Repair], list[str]]:
    """Beyond the filter: every score of every entry of ``conflict`` (not ``confirmed``) that
    alone makes the log consistent, with its secret count (exact, else a proved lower bound),
    ranked; and notes saying what the deadline left undecided. Each entry's listing gets an
    equal share of ``deadline`` (at least one fitting score for each entry that has one);
    deciding the other scores and counting take at most ``extra`` seconds of what is left
    (None: all of it). Time a step leaves goes to the next one."""
    numbers = [k for k in conflict if k not in set(confirmed)]
    found: list[_Fits] = []
    notes: list[str] = []
    for i, k in enumerate(numbers):
        if deadline.expired():
            left = numbers[i:]
            notes.append(f"repl{'ies' if len(left) > 1 else 'y'} {', '.join(map(str, left))} "
                         f"not examined ({_why_stopped()})")
            break
        found.append(_listed(log, k, deadline.part(1 / (len(numbers) - i)), engine))
    more = deadline.share(1.0, cap=extra, untimed=extra)
    open_ = [f for f in found if not f.complete]
    _decide(log, open_, more.part(DECIDE_SHARE), engine)
    counted = _count_fits(log, open_, more, engine)
    out = [Repair(f.entry, *log.variant.response_of(r), f.seen[r], f.codes[r])
           for f in found if f.complete for r in f.order()] + counted
    for f in found:
        lower = sum(not r.exact for r in counted if r.entry == f.entry)
        said = [x for x in (f"{lower} secret counts are lower bounds" if lower else "",
                            f"{f.undecided} scores not decided" if f.undecided else "") if x]
        if said:
            notes.append(f"reply {f.entry}: {', '.join(said)} ({_why_stopped()})")
    return sorted(out, key=lambda r: _rank_key(log, r)), notes


def _why_stopped() -> str:
    return "interrupted" if stop_requested() else "the time ran out"


def _decide(log: FeedbackLog, found: list[_Fits], deadline: Deadline,
            engine: CountingEngine) -> None:
    """Which possible scores the listings did not show also fit: a find-one each, an equal
    share of what ``deadline`` has left, in rounds for those a round left undecided (most are
    proved impossible at once, so the later ones get more); those still undecided stay in
    ``undecided_scores``."""
    v = log.variant
    possible = [v.response_index(b, c) for b, c in scoring.possible_responses(v)]
    pending = [(f, r) for f in found for r in possible if r not in f.codes and r != f.current]
    for _ in range(ROUNDS):
        undecided = []
        for j, (f, r) in enumerate(pending):
            code, decided = (None, False) if deadline.expired() else engine.first(
                _with_reply(log, f.entry, r), deadline.part(1 / (len(pending) - j)))
            if code is not None:
                f.codes[r] = tuple(code)
            elif not decided:
                undecided.append((f, r))
        pending = undecided
        if not pending or deadline.expired():
            break
    for f, r in pending:
        f.undecided_scores.append(r)


def _count_fits(log: FeedbackLog, found: list[_Fits], deadline: Deadline,
                engine: CountingEngine) -> list[Repair]:
    """Count the secrets of each fitting score of ``found``, each an equal share of the time
    left, in rounds while counts remain unfinished and time is left; an unfinished count is the
    larger of what it reached and what the listing saw (a lower bound)."""
    best: dict[tuple[int, int], tuple[int, bool]] = {}
    pending = [(f, r) for f in found for r in f.order()]
    for _ in range(ROUNDS):
        for j, (f, r) in enumerate(pending):
            if deadline.expired():
                break
            n, exact = engine.count(_with_reply(log, f.entry, r),
                                    deadline.part(1 / (len(pending) - j)))
            if n >= best.get((f.entry, r), (0, False))[0] or exact:
                best[f.entry, r] = (n, exact)
        pending = [(f, r) for f, r in pending if not best.get((f.entry, r), (0, False))[1]]
        if not pending or deadline.expired():
            break
    out = []
    for f in found:
        for r in f.order():
            n, exact = best.get((f.entry, r), (0, False))
            out.append(Repair(f.entry, *log.variant.response_of(r), max(n, f.seen.get(r, 1)),
                              f.codes[r], exact))
    return out


@dataclass
class _Fits:
    """The scores found to fit entry ``entry``: a secret of each (``codes``), how many the
    listing saw (``seen``), whether the listing was complete (then ``seen`` are exact counts),
    and how many possible scores stayed undecided."""

    entry: int
    current: int
    codes: dict
    seen: dict
    complete: bool
    undecided_scores: list = field(default_factory=list)

    @property
    def undecided(self) -> int:
        return len(self.undecided_scores)

    def order(self) -> list[int]:
        """The fitting scores, those the listing saw most first."""
        return sorted((r for r in self.codes if r != self.current), key=lambda r: -self.seen.get(r, 0))


def _with_reply(log: FeedbackLog, k: int, response: int) -> FeedbackLog:
    """``log`` with entry ``k``'s reply replaced by ``response``."""
    b, c = log.variant.response_of(response)
    return FeedbackLog(log.variant, [e if i != k else replace(e, bulls=b, cows=c)
                                     for i, e in enumerate(log.entries, 1)])


def _listed(log: FeedbackLog, k: int, deadline: Deadline, engine: CountingEngine) -> _Fits:
    """The scores a listing of the secrets of the entries other than ``k`` shows fit ``k``:
    every one, with its exact count, when the listing is complete."""
    v, e = log.variant, log[k - 1]
    rest = log.subset([j for j in range(1, len(log) + 1) if j != k])
    codes, complete = engine.list(rest, REST_LIST_CAP[engine.kind], deadline)
    found = _Fits(k, v.response_index(e.bulls, e.cows), {}, {}, complete)
    if len(codes):
        replies = scoring.score_against(v, e.guess, codes)
        values, first, counts = np.unique(replies, return_index=True, return_counts=True)
        for r, f, n in zip(values.tolist(), first.tolist(), counts.tolist(), strict=True):
            found.seen[r], found.codes[r] = n, tuple(int(x) for x in codes[f])
    return found


def reply_text(variant, bulls: int, cows: int) -> str:
    """A reply as entries spell it: ``B,C``, or ``B`` when the variant scores bulls only."""
    return f"{bulls}" if variant.bulls_only else f"{bulls},{cows}"


def correction_item(log: FeedbackLog, number: int, bulls: int, cows: int, others) -> dict:
    """One ``corrections`` item: entry ``number`` to (bulls, cows), together with ``others``
    ((entry, bulls, cows) changed at the same time). ``from``/``to`` are spelled ``B,C``
    (the contract); the message echoes each reply in the notation it was typed in."""
    variant = log.variant
    e = log[number - 1]
    old, new = e.reply(variant), spell_reply(variant, bulls, cows, e.notation)
    if not others:
        msg = f"changing reply {number} ({e.text}) from {old} to {new} makes the log consistent"
    else:
        rest = ", ".join(f"reply {j} to {spell_reply(variant, b, c, log[j - 1].notation)}"
                         for j, b, c in others)
        msg = (f"changing reply {number} ({e.text}) from {old} to {new}, together with "
               f"{rest}, makes the log consistent")
    return {"entry": number, "guess": e.text, "from": reply_text(variant, e.bulls, e.cows),
            "to": reply_text(variant, bulls, cows), "message": msg}


def repair_corrections(log: FeedbackLog, repairs: list[Repair]) -> list[dict]:
    """The repairs as ``corrections`` items (docs/contract.md): option k is the k-th likeliest;
    each changes one reply and says how many secrets the log then has."""
    out = []
    for option, r in enumerate(repairs, 1):
        item = correction_item(log, r.entry, r.bulls, r.cows, ())
        if r.secrets is not None:
            item["message"] += f" ({secrets_text(r.secrets, r.exact)} left)"
        item.update(option=option, replies=1, secrets=r.secrets if r.exact else None)
        if r.secrets is not None:
            item.update(secrets_at_least=r.secrets, secrets_exact=r.exact)
        out.append(item)
    return out


def secrets_text(n: int, exact: bool) -> str:
    """"12 secrets", or "at least 12 secrets" for a lower bound."""
    return f"{'' if exact else 'at least '}{n} secret{'s' if n != 1 else ''}"


def describe_corrections(log: FeedbackLog, corrections: list[dict], limit: int = 6) -> list[str]:
    """Text lines for ``corrections`` items: each reply that alone could be wrong with the
    scores that fit it (best first, echoed in the notation the reply was typed in), or the
    one fix that changes several replies at once."""
    variant = log.variant
    if not corrections:
        return []
    if "option" not in corrections[0]:
        return [f"suggestion: {c['message']}" for c in corrections]
    if corrections[0].get("replies", 1) != 1:
        return _describe_joint(log, corrections, limit)
    by_entry: dict[int, list[dict]] = {}
    for c in corrections:
        by_entry.setdefault(c["entry"], []).append(c)
    lines = []
    def fit(e, c):
        b, _, w = c["to"].partition(",")
        shown = spell_reply(variant, int(b), int(w or 0), e.notation)
        n = c.get("secrets_at_least", c.get("secrets"))
        return shown if n is None else \
            f"{shown} ({secrets_text(n, c.get('secrets_exact', True))})"

    for k, options in list(by_entry.items())[:limit]:
        e = log[k - 1]
        fits = ", ".join(fit(e, c) for c in options[:limit])
        more = f", and {len(options) - limit} more" if len(options) > limit else ""
        lines.append(f"reply {k} ({e.shown(variant)}) alone could be wrong; "
                     f"it fits as {fits}{more}")
    if len(by_entry) > limit:
        lines.append(f"and {len(by_entry) - limit} more replies (--json lists them all)")
    return lines


def _describe_joint(log: FeedbackLog, corrections: list[dict], limit: int) -> list[str]:
    """Text for fixes that change several replies each: one line an option, best first."""
    options: dict[int, list[dict]] = {}
    for c in corrections:
        options.setdefault(c["option"], []).append(c)
    first = next(iter(options.values()))
    lines = [f"no single reply explains it; the fewest to change at once: {len(first)}"]
    for items in list(options.values())[:limit]:
        parts = []
        for c in items:
            e = log[c["entry"] - 1]
            b, _, w = c["to"].partition(",")
            parts.append(f"reply {c['entry']} ({e.shown(log.variant)}) to "
                         f"{spell_reply(log.variant, int(b), int(w or 0), e.notation)}")
        n = items[0].get("secrets")
        tail = "" if n is None else f" ({n} secret{'s' if n != 1 else ''})"
        lines.append("  " + " and ".join(parts) + tail)
    if len(options) > limit:
        lines.append(f"  and {len(options) - limit} more such fixes (--json lists them)")
    return lines
