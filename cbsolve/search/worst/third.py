"""Shards two levels deeper: a (first guess, second guess) unit split by the third guesses of
one reply class of its second guess (docs/optimal.md, "A third level").

Place in the data flow: ``cbsolve optimal --plan DIR --max-depth D --split third`` ->
:func:`.deeper.plan_units`, then :func:`split_units` here splits the large second-guess units
-> ``--shard K/N`` runs a part (:mod:`.shards` calls :func:`refute_third`) -> one result file
a part -> :func:`collapse` (called by :mod:`.merge`) turns the parts of one second guess back
into its second-level result -> :func:`.deeper.merge_units` -> one certificate that ``cbsolve
verify`` checks.

A second-guess unit (g, class S, h) refutes h by one reply class T of h on S that D-2 guesses
cannot settle; the kernel tries T = the largest class first. T cannot be settled when every
third guess k fails on it: some reply of k to T leaves a set that D-3 guesses cannot settle.
The stabiliser of (g, h) maps T onto itself, so one k an orbit of it is enough, and the third
guesses are independent: a unit whose T has more than ``size`` third guesses to refute (those
neither counting nor uselessness excludes, the measure of its work: on Bulls & Cows 5/9 the
units of 6,900-8,300 such guesses took 26-37 s, those under 1,000 at most 5 s) becomes parts
of at most ``size`` of them, dealt round-robin so the costly ones spread. If some k settles T
(a part is ``not-refuted``), the split did not refute h by T: merge names it, as for the
second level (plan without ``--split third`` to go on).
"""
from __future__ import annotations

import numpy as np

from ...game.capacity import capacity
from ...game.codes import CodeSpace
from ...runtime.deadline import Deadline
from ...game.scoring import possible_responses, score_matrix
from ...game.symmetry import Symmetry
from ...game.variant import Variant
from ..result import Verdict
from . import shard_files as files
from .deeper import _classes, _reply_index, decide_class, mapped_entries
from .kernel import _Native

#: Default of ``--split-size``: third guesses a part refutes at most (Bulls & Cows 5/9: 34
#: second-guess units, 82,292 third guesses, 6,900-8,300 in each of the six costliest units).
SPLIT_SIZE = 2000


def viable_guesses(variant: Variant, space: CodeSpace, guesses, members: np.ndarray,
                   left: int, n_resp: int) -> list[int]:
    """Of ``guesses`` (code indices), those that need a refutation at ``members`` with ``left``
    guesses left after them: not useless (one reply for all, not a member) and with no reply
    class larger than cap(left) (counting excludes those; the verifier settles both itself)."""

    out = []
    for k in guesses:
        sub = _classes(variant, space, int(k), members)
        if not np.isin(k, members) and len(sub) == 1 and len(sub[0][1]) == len(members):
            continue
        if sub and len(sub[0][1]) > capacity(left, n_resp):
            continue
        out.append(int(k))
    return out


def split_units(variant: Variant, orbits: list[str], units: list[dict], depth: int,
                guesses: str, size: int) -> list[dict]:
    """The units of :func:`.deeper.plan_units` with each second-guess unit of more than
    ``size`` third guesses to refute replaced by its parts ``{..., "reply", "third": [...]}``."""
    space, sym = CodeSpace(variant), Symmetry(variant)
    n_resp = len(possible_responses(variant))
    everyone = np.arange(space.size, dtype=np.int64)
    out: list[dict] = []
    for unit in units:
        if "second" not in unit:
            out.append(unit)
            continue
        g = space.index_of(space.parse(orbits[unit["orbit"]]))
        h = space.index_of(space.parse(unit["second"]))
        replies = score_matrix(variant, space.codes[[g]], space.codes)[0]
        S = everyone[replies == _reply_index(variant, unit["class"])]
        out.extend(third_units(variant, space, sym, unit, g, h, S, depth, guesses, size, n_resp))
    return out


def third_units(variant: Variant, space: CodeSpace, sym: Symmetry, unit: dict, g: int, h: int,
                S: np.ndarray, depth: int, guesses: str, size: int, n_resp: int) -> list[dict]:
    """The parts of second-guess ``unit`` (a dict with orbit, class, second), or [unit] itself
    when it is small or its first class T is refuted by counting."""

    subs = _classes(variant, space, h, S)
    if depth < 4 or not subs or len(subs[0][1]) > capacity(depth - 2, n_resp):
        return [unit]
    r, T = subs[0]
    reps = sym.guess_representatives([tuple(space.codes[g]), tuple(space.codes[h])],
                                     candidates=T if guesses == "candidates" else None)
    thirds = viable_guesses(variant, space, reps, T, depth - 3, n_resp)
    if len(thirds) <= size:
        return [unit]
    parts = -(-len(thirds) // size)
    return [{**unit, "reply": variant.format_response(r),
             "third": [space.format(space.codes[k]) for k in thirds[j::parts]]}
            for j in range(parts)]


def refute_third(native: _Native, plan: dict, u: int, deadline: Deadline,
                 reached: dict) -> dict | None:
    """Part ``u`` (first guess, class, second guess, its reply class T, third guesses): its
    result document (without timing), None when stopped. ``refuted`` holds, per third guess,
    the reply of it that D-3 guesses cannot settle (and its refutation node unless counting
    settles it); a third guess that settles T ends the part ``not-refuted`` (``settles``)."""

    unit = plan["units"][u]
    variant, space, depth = native.variant, native.space, plan["depth"]
    g = space.index_of(space.parse(plan["orbits"][unit["orbit"]]))
    h = space.index_of(space.parse(unit["second"]))
    everyone = np.arange(space.size, dtype=np.int64)
    S = everyone[native.replies(g, everyone) == _reply_index(variant, unit["class"])]
    T = S[native.replies(h, S) == _reply_index(variant, unit["reply"])]
    doc = {"format": files.RESULT_FORMAT, "version": files.SHARD_VERSION,
           "plan": plan["checksum"], "variant": plan["variant"], "objective": "worst",
           "guesses": plan["guesses"], "depth": depth, "guess": plan["orbits"][unit["orbit"]],
           "unit": u, **unit}
    refuted: dict[str, dict] = {}
    try:
        for j, text in enumerate(unit["third"]):
            k = space.index_of(space.parse(text))
            history = np.array([g, h, k], dtype=np.int64)
            entry = None
            for r, members in _classes(variant, space, k, T):
                reached.update(classes=len(unit["third"]), settled=j, deciding=len(members))
                if len(members) > capacity(depth - 3, native.n_responses):
                    entry = {"reply": variant.format_response(r)}
                    break
                verdict, node = decide_class(native, members, history, depth - 3, deadline)
                if verdict is Verdict.STOPPED:
                    return None
                if verdict is Verdict.NO:
                    entry = {"reply": variant.format_response(r), "node": node}
                    break
            if entry is None:   # every reply of k settled: k settles T within D-2
                return {**doc, "outcome": files.NOT_REFUTED, "settles": text}
            refuted[text] = entry
    finally:
        native.set_root(everyone, np.zeros(0, dtype=np.int64))
    return {**doc, "outcome": files.REFUTED, "refuted": refuted}


def collapse(plan: dict, results: list[dict]) -> list[dict]:
    """The results with the parts of each split second guess replaced by one second-level
    result: refuted by its class T (whose node refutes every third guess, the others mapped
    onto their representatives), or not-refuted naming the third guess that settles T."""

    parts: dict[tuple, list[dict]] = {}
    order: list = []    # the results in unit order, a split second guess at its first part
    for doc in results:
        if "third" not in doc:
            order.append(doc)
            continue
        key = (doc["orbit"], doc["second"])
        if key not in parts:
            parts[key] = []
            order.append(key)
        parts[key].append(doc)
    if not parts:
        return results
    variant = Variant.from_dict(plan["variant"])
    space, sym, depth = CodeSpace(variant), Symmetry(variant), plan["depth"]
    everyone = np.arange(space.size, dtype=np.int64)
    collapsed = {}
    for (orbit, second), docs in parts.items():
        head = {k: docs[0][k] for k in ("orbit", "class", "second")}
        settles = [d for d in docs if d["outcome"] == files.NOT_REFUTED]
        if settles:
            collapsed[orbit, second] = {**head, "outcome": files.NOT_REFUTED,
                                        "third": f"{docs[0]['reply']}:{settles[0]['settles']}"}
            continue
        node: dict = {"left": depth - 2, "refuted": {}}
        for d in docs:
            node["refuted"].update(d["refuted"])
        node["refuted"] = dict(sorted(node["refuted"].items()))
        g = space.index_of(space.parse(plan["orbits"][orbit]))
        h = space.index_of(space.parse(second))
        pool = None
        if plan["guesses"] == "candidates":
            rg = score_matrix(variant, space.codes[[g]], space.codes)[0]
            rh = score_matrix(variant, space.codes[[h]], space.codes)[0]
            pool = everyone[(rg == _reply_index(variant, head["class"]))
                            & (rh == _reply_index(variant, docs[0]["reply"]))]
        node.update(mapped_entries(space, sym, [tuple(space.codes[g]), tuple(space.codes[h])],
                                   set(node["refuted"]), pool))
        collapsed[orbit, second] = {**head, "outcome": files.REFUTED, "reply": docs[0]["reply"],
                                    "node": node}
    return [collapsed[x] if isinstance(x, tuple) else x for x in order]
