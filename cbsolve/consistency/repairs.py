"""Which reply of an inconsistent log could alone be the wrong one, and what it should read.

Place in the data flow: consistency backends -> :mod:`diagnose` -> (this module) -> CLI and
play. A player who mis-scored one reply wants every reply that could be it, each with every
score that makes the log consistent and how many secrets that leaves, not one guess at it.
Over an enumerable space the answer is exact: a code contradicting exactly one entry k is a
secret of the log with k's reply changed to that code's score against k's guess, so grouping
the codes that break one entry by (entry, score) gives every single-reply repair and its
secret count at once (one pass over the mismatch matrix). Beyond the filter, each entry of
the minimal conflict (the only entries a single change can repair) is tested by a find-one
on the other entries within its share of the deadline: one score per entry, count unknown.

Ranking, likeliest first: a repair that makes an earlier guess the secret comes last (the game
would have ended there), then the newest reply (a mistyped score is usually the one just
typed), then the repair that leaves more secrets (with secrets equally likely a priori and one
reply mistyped, a repair's posterior weight is its secret count), then alphabet order.
Entries the player ``confirmed`` are never proposed.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..deadline import Deadline
from ..feedback import FeedbackLog
from ..rule import score


@dataclass(frozen=True)
class Repair:
    """Change entry ``entry`` (1-based) to (``bulls``, ``cows``): the log then has ``secrets``
    consistent secrets (None: not counted), ``example`` among them (symbol indices)."""

    entry: int
    bulls: int
    cows: int
    secrets: int | None
    example: tuple[int, ...]


def _rank_key(log: FeedbackLog, r: Repair):
    n = log.variant.length
    ends_early = r.bulls == n and r.entry < len(log)
    return (ends_early, -r.entry, -(r.secrets if r.secrets is not None else -1), r.example)


def single_repairs_enumerated(log: FeedbackLog, confirmed=()) -> list[Repair]:
    """Every single-reply repair over the enumerated space, with exact secret counts, ranked."""
    from .. import scoring

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
    from .. import scoring

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
            item["message"] += f" ({j.secrets} secret{'s' if j.secrets != 1 else ''} left)"
            item.update(option=option, replies=len(j.changes), secrets=j.secrets)
            out.append(item)
    return out


def single_repairs_searched(log: FeedbackLog, conflict: list[int], deadline: Deadline,
                            find_one, confirmed=()) -> list[Repair]:
    """Beyond the filter: for each entry of ``conflict`` (not ``confirmed``), a secret of the
    other entries found by ``find_one(log, deadline) -> code or None`` within an equal share
    of the time left; its score against the entry's guess is a repair (count unknown)."""
    numbers = [k for k in conflict if k not in set(confirmed)]
    out = []
    for i, k in enumerate(numbers):
        if deadline.expired():
            break
        share = deadline.part(1 / (len(numbers) - i))
        rest = log.subset([j for j in range(1, len(log) + 1) if j != k])
        code = find_one(rest, share)
        if code is None:
            continue
        bulls, cows = score(log.variant, code, log[k - 1].guess)
        out.append(Repair(k, bulls, cows, None, tuple(code)))
    return sorted(out, key=lambda r: _rank_key(log, r))


def reply_text(variant, bulls: int, cows: int) -> str:
    """A reply as entries spell it: ``B,C``, or ``B`` when the variant scores bulls only."""
    return f"{bulls}" if variant.bulls_only else f"{bulls},{cows}"


def correction_item(log: FeedbackLog, number: int, bulls: int, cows: int, others) -> dict:
    """One ``corrections`` item: entry ``number`` to (bulls, cows), together with ``others``
    ((entry, bulls, cows) changed at the same time). ``from``/``to`` are spelled ``B,C``
    (the contract); the message echoes each reply in the notation it was typed in."""
    from ..feedback import spell_reply

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
        tail = "" if r.secrets is None else \
            f" ({r.secrets} secret{'s' if r.secrets != 1 else ''} left)"
        item["message"] += tail
        item.update(option=option, replies=1, secrets=r.secrets)
        out.append(item)
    return out


def describe_corrections(log: FeedbackLog, corrections: list[dict], limit: int = 6) -> list[str]:
    """Text lines for ``corrections`` items: each reply that alone could be wrong with the
    scores that fit it (best first, echoed in the notation the reply was typed in), or the
    one fix that changes several replies at once."""
    from ..feedback import spell_reply

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
        n = c.get("secrets")
        return shown if n is None else f"{shown} ({n} secret{'s' if n != 1 else ''})"

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
    from ..feedback import spell_reply

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
