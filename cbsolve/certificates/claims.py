"""Claims a tree file makes, compared with what its replay measures (``cbsolve verify``).

Place in the data flow: beside the independent verifier (:mod:`cbsolve.certificates.certify`), which
replays the tree with the scorer and hands the measured numbers here. This module imports
nothing but the standard library, so it cannot vouch for a search either.

Every claim is checked, and every one that differs is reported (not only the first):

* ``stats``: ``secrets``, ``worst``, ``total``, ``histogram``, ``average`` (to the decimals the
  file gives), ``nodes``; a partial block (only a total, only an average) is checked as far as
  it goes; a key this module does not know is a claim nobody checks, so the file is invalid;
* ``ties`` (written by ``optimal --ties``): ``at_worst`` and ``total`` are the tree's,
  ``total_lower`` cannot exceed the total; ``proved``/``at_worst_proved`` say how the search
  bounded them (the lower bounds without a certificate are reported as the search's word);
* ``at_worst``: ``upper`` is this tree's count at the worst depth and ``lower`` does not exceed it;
* ``max_depth``: no secret needs more guesses;
* per-node ``count`` (read from Irving-format files): the number of secrets reaching the node.
"""
from __future__ import annotations

import math

STATS_KEYS = ("secrets", "worst", "total", "average", "histogram", "nodes")
TIES_KEYS = ("at_worst", "total", "total_lower", "proved", "at_worst_proved")


def mismatch(claim: str, claimed, replayed) -> dict:
    return {"claim": claim, "claimed": claimed, "replayed": replayed}


def average_matches(claimed, total: int, secrets: int) -> bool:
    """A claimed average agrees when it rounds from total/secrets at the decimals it shows
    (4.34028 for 5625/1296); a float that is not a number never agrees."""
    if isinstance(claimed, bool) or not isinstance(claimed, (int, float)) or not math.isfinite(claimed):
        return False
    text = repr(float(claimed))
    decimals = len(text.split(".")[1]) if "." in text and "e" not in text else 12
    return abs(claimed - total / secrets) <= 0.5 * 10 ** -decimals + 1e-12


def _as_histogram(value):
    try:
        hist = {int(k): int(v) for k, v in value.items()}
    except (AttributeError, TypeError, ValueError):
        return None
    return {k: v for k, v in hist.items() if v}


def check_stats(stats: dict, m: dict) -> list[dict]:
    out = []
    for key, want in stats.items():
        if key not in STATS_KEYS:
            out.append(mismatch(f"stats.{key}", want, None))
        elif key == "average":
            if not average_matches(want, m["total"], m["secrets"]):
                out.append(mismatch("stats.average", want, m["total"] / m["secrets"]))
        elif key == "histogram":
            if _as_histogram(want) != m["histogram"]:
                out.append(mismatch("stats.histogram", want,
                                    {str(k): v for k, v in m["histogram"].items()}))
        elif want != m[key]:
            out.append(mismatch(f"stats.{key}", want, m[key]))
    return out


def check_ties(ties: dict, m: dict) -> list[dict]:
    at_worst = m["histogram"][m["worst"]]
    out = []
    for key, want in ties.items():
        if key not in TIES_KEYS:
            out.append(mismatch(f"ties.{key}", want, None))
        elif key == "at_worst" and want != at_worst:
            out.append(mismatch("ties.at_worst", want, at_worst))
        elif key == "total" and want != m["total"]:
            out.append(mismatch("ties.total", want, m["total"]))
        elif key == "total_lower" and want is not None and not (
                isinstance(want, int) and want <= m["total"]):
            out.append(mismatch("ties.total_lower (<= total)", want, m["total"]))
        elif key in ("proved", "at_worst_proved") and not isinstance(want, bool):
            out.append(mismatch(f"ties.{key}", want, None))
    return out


def check_interval(block, m: dict) -> list[dict]:
    """``at_worst``: {"lower", "upper"} on the fewest secrets at the worst depth; the tree is
    the witness of the upper end."""
    at_worst = m["histogram"][m["worst"]]
    if not isinstance(block, dict) or set(block) - {"lower", "upper"}:
        return [mismatch("at_worst", block, None)]
    out = []
    if block.get("upper") != at_worst:
        out.append(mismatch("at_worst.upper", block.get("upper"), at_worst))
    lower = block.get("lower")
    if not isinstance(lower, int) or lower > at_worst:
        out.append(mismatch("at_worst.lower (<= the tree's count)", lower, at_worst))
    return out


def check_document(doc: dict, m: dict) -> list[dict]:
    """Every claim of a tree document against the measured numbers ``m`` (secrets, worst,
    total, histogram {int: int}, nodes, count_errors)."""
    out = []
    stats = doc.get("stats")
    if stats is not None:
        out += check_stats(stats, m) if isinstance(stats, dict) else [mismatch("stats", stats, None)]
    if "ties" in doc:
        ties = doc["ties"]
        out += check_ties(ties, m) if isinstance(ties, dict) else [mismatch("ties", ties, None)]
    if "at_worst" in doc:
        out += check_interval(doc["at_worst"], m)
    depth = doc.get("max_depth")
    if depth is not None and not (isinstance(depth, int) and m["worst"] <= depth):
        out.append(mismatch("max_depth (>= worst)", depth, m["worst"]))
    out += [mismatch(f"count at reply path {path}", claimed, replayed)
            for path, claimed, replayed in m.get("count_errors", ())]
    return out


def search_word(doc: dict) -> list[str]:
    """Claims of a proof the replay cannot redo (the search's lower bounds without a
    certificate); they are consistent with the tree, and reported as the search's word."""
    out = []
    if doc.get("proved") and doc.get("certificate") is None:
        out.append("proved")
    ties = doc.get("ties") if isinstance(doc.get("ties"), dict) else {}
    out += [f"ties.{k}" for k in ("proved", "at_worst_proved", "total_lower")
            if ties.get(k) not in (None, False)]
    if isinstance(doc.get("at_worst"), dict) and "lower" in doc["at_worst"]:
        out.append("at_worst.lower")
    return out


def describe(entry: dict) -> str:
    if entry["replayed"] is None:
        return f"claim {entry['claim']} = {entry['claimed']!r} cannot be checked (unknown claim)"
    return f"claim {entry['claim']} = {entry['claimed']!r} but the replay gives {entry['replayed']!r}"
