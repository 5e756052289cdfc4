"""Shards one level deeper: a worst-case refutation split by (first-guess orbit, second-guess
orbit) (docs/optimal.md, "Sharded proofs", "One level deeper").

Place in the data flow: ``cbsolve optimal --plan DIR --max-depth D --split second`` ->
:func:`plan_units` (here) -> ``--shard K/N`` runs units (:mod:`.shards` calls
:func:`refute_second`) -> one result file a unit (:mod:`.shard_files`) -> :func:`merge_units`
-> one certificate in the one-process format, which ``cbsolve verify`` checks.

A first guess g is refuted when one of its reply classes S cannot be settled in D-1 more
guesses, and S cannot be settled when every second guess h fails: some reply of h to S leaves
a set that D-2 guesses cannot settle. The stabiliser of g maps S onto itself (it keeps every
reply to g), so one h an orbit of that stabiliser is enough, and each (g, h) is an independent
unit. The plan splits the class the kernel tries first (the largest, then by reply) of each
first-guess orbit; guesses that counting excludes (a reply class of h larger than cap(D-2)) or
that are useless (one reply for all of S, not in S) need no unit, as the verifier settles them
itself. An orbit whose largest class counting already refutes stays one unit (the whole orbit,
as :mod:`.shards` runs it). If some h settles S (the unit is ``not-refuted``), that class has
a strategy and the orbit is not refuted by this split: merge names it (plan the orbit without
the split, or another class, to go on).
"""
from __future__ import annotations

import numpy as np

from ...game.capacity import capacity
from ...game.codes import CodeSpace
from ...runtime.deadline import Deadline
from ...errors import InvalidVariant
from ...game.scoring import possible_responses, score_matrix
from ...game.symmetry import Symmetry
from ...game.variant import Variant
from ..result import Verdict
from . import shard_files as files
from .kernel import _Native
from .trees import _cert_node

#: The ways a plan splits the refutation: one unit a first-guess orbit, a second-guess orbit,
#: or also the third guesses of a large second-guess unit (:mod:`.third`).
SPLITS = ("orbit", "second", "third")


def _classes(variant: Variant, space: CodeSpace, g: int, members: np.ndarray) -> list:
    """Non-winning reply classes of guess ``g`` on ``members``, in the kernel's order."""
    replies = score_matrix(variant, space.codes[[g]], space.codes[members])[0]
    classes = [(int(r), members[replies == r]) for r in np.unique(replies)
               if r != variant.win_response]
    classes.sort(key=lambda c: -len(c[1]))
    return classes


def _reply_index(variant: Variant, text: str) -> int:
    return next(r for r in range(variant.response_slots) if variant.format_response(r) == text)


def plan_units(variant: Variant, orbits: list[str], depth: int, guesses: str) -> list[dict]:
    """The units of the deeper split: per first-guess orbit ``{"orbit": i}`` (refuted by
    counting, or nothing to split) or one ``{"orbit", "class", "second"}`` per second-guess
    orbit of its first class that neither counting nor uselessness settles."""
    if depth < 3:
        raise InvalidVariant(f"--split second needs --max-depth 3 or more (got {depth}): "
                             "a second guess needs guesses left after it")
    space, sym = CodeSpace(variant), Symmetry(variant)
    n_resp = len(possible_responses(variant))
    everyone = np.arange(space.size, dtype=np.int64)
    units: list[dict] = []
    for i, text in enumerate(orbits):
        g = space.index_of(space.parse(text))
        classes = _classes(variant, space, g, everyone)
        if not classes or len(classes[0][1]) > capacity(depth - 1, n_resp):
            units.append({"orbit": i})
            continue
        r, S = classes[0]
        pool = S if guesses == "candidates" else None
        mine = []
        for h in sym.guess_representatives([tuple(space.codes[g])], candidates=pool):
            sub = _classes(variant, space, int(h), S)
            inside = bool(np.isin(h, S))
            if not inside and len(sub) == 1 and len(sub[0][1]) == len(S):
                continue            # useless: one reply for all of S
            if sub and len(sub[0][1]) > capacity(depth - 2, n_resp):
                continue            # counting excludes it
            mine.append({"orbit": i, "class": variant.format_response(r),
                         "second": space.format(space.codes[int(h)])})
        units.extend(mine if mine else [{"orbit": i}])
    return units


def unit_label(plan: dict, unit: dict) -> str:
    """``first``, ``first:class:second``, a part ``first:class:second:reply:third+more`` or
    a split second guess ``first:class:second:reply:third`` (the third guess that settles),
    for reports and error messages."""
    first = plan["orbits"][unit["orbit"]]
    if "second" not in unit:
        return first
    label = f"{first}:{unit['class']}:{unit['second']}"
    third = unit.get("third")
    if isinstance(third, list):
        return f"{label}:{unit['reply']}:{third[0]}+{len(third) - 1}"
    return label if third is None else f"{label}:{third}"


def refute_second(native: _Native, plan: dict, u: int, deadline: Deadline,
                  reached: dict) -> dict | None:
    """Unit ``u`` (a first guess, its class, a second guess): its result document (without
    timing), None when stopped."""
    unit = plan["units"][u]
    head = {"unit": u, **unit}
    variant, space, depth = native.variant, native.space, plan["depth"]
    g = space.index_of(space.parse(plan["orbits"][unit["orbit"]]))
    h = space.index_of(space.parse(unit["second"]))
    everyone = np.arange(space.size, dtype=np.int64)
    S = everyone[native.replies(g, everyone) == _reply_index(variant, unit["class"])]
    doc = {"format": files.RESULT_FORMAT, "version": files.SHARD_VERSION,
           "plan": plan["checksum"], "variant": plan["variant"], "objective": "worst",
           "guesses": plan["guesses"], "depth": depth, "guess": plan["orbits"][unit["orbit"]],
           **head}
    history = np.array([g, h], dtype=np.int64)
    subs = _classes(variant, space, h, S)
    try:
        for k, (r, members) in enumerate(subs):
            reached.update(classes=len(subs), settled=k, deciding=len(members))
            if len(members) > capacity(depth - 2, native.n_responses):
                return {**doc, "outcome": files.REFUTED, "reply": variant.format_response(r),
                        "size": len(members)}
            verdict, node = decide_class(native, members, history, depth - 2, deadline)
            if verdict is Verdict.STOPPED:
                return None
            if verdict is Verdict.NO:
                return {**doc, "outcome": files.REFUTED, "reply": variant.format_response(r),
                        "size": len(members), "node": node}
    finally:
        native.set_root(everyone, np.zeros(0, dtype=np.int64))
    # every reply of h settled: class S has a strategy within depth-1 (h first)
    return {**doc, "outcome": files.NOT_REFUTED}


def decide_class(native: _Native, members: np.ndarray, history: np.ndarray, left: int,
                 deadline: Deadline) -> tuple[Verdict, dict | None]:
    """Do ``left`` guesses settle ``members`` after ``history``? With NO, its refutation node
    (a certificate node); a stop while either is computed is STOPPED."""
    native.set_root(members, history)
    verdict = Verdict(native.run("feasible", left, deadline))
    if verdict is not Verdict.NO:
        return verdict, None
    raw = native.run("certificate", left, deadline)
    if raw is None:
        return Verdict.STOPPED, None
    return verdict, _cert_node(native.variant, native, raw)


def merge_units(plan: dict, results: list[dict]) -> tuple[dict, list[str]]:
    """(root entries ``refuted``: first guess -> {reply, node}, and the first guesses not
    refuted by the split, each as ``first:class:second`` of the second guess that settles)."""
    variant = Variant.from_dict(plan["variant"])
    space, sym, depth = CodeSpace(variant), Symmetry(variant), plan["depth"]
    by_orbit: dict[int, list[dict]] = {}
    for doc in results:
        by_orbit.setdefault(doc["orbit"], []).append(doc)
    refuted, settled = {}, []
    for i, docs in sorted(by_orbit.items()):
        first = plan["orbits"][i]
        if "second" not in docs[0]:          # a whole-orbit unit
            if docs[0]["outcome"] == files.NOT_REFUTED:
                settled.append(first)
            elif "node" in docs[0]:
                refuted[first] = {"reply": docs[0]["reply"], "node": docs[0]["node"]}
            continue
        winners = [d for d in docs if d["outcome"] == files.NOT_REFUTED]
        if winners:
            settled.append(unit_label(plan, winners[0]))
            continue
        reply = docs[0]["class"]
        node: dict = {"left": depth - 1}
        node["refuted"] = {d["second"]: {k: d[k] for k in ("reply", "node") if k in d}
                           for d in docs}
        g = space.index_of(space.parse(first))
        pool = None
        if plan["guesses"] == "candidates":
            everyone = np.arange(space.size, dtype=np.int64)
            replies = score_matrix(variant, space.codes[[g]], space.codes)[0]
            pool = everyone[replies == _reply_index(variant, reply)]
        node.update(mapped_entries(space, sym, [tuple(space.codes[g])], set(node["refuted"]),
                                   pool))
        refuted[first] = {"reply": reply, "node": node}
    return refuted, settled


def mapped_entries(space: CodeSpace, sym: Symmetry, history: list, representatives: set[str],
                   pool=None) -> dict:
    """``mapped`` and ``perms`` of a certificate node after ``history`` (codes): every other
    guess of the orbits of ``representatives`` (of the pool, default every code) with the
    permutation, fixing the history, that takes it onto its representative (its orbit's
    lowest code)."""
    codes_idx, rep_idx, perms = sym.orbit_map(history, pool)
    rep_text = np.array(space.format_many(space.codes[rep_idx]), dtype=object)
    mapped, perm_ids, perm_list = {}, {}, []
    for k in range(len(codes_idx)):
        if codes_idx[k] == rep_idx[k] or rep_text[k] not in representatives:
            continue
        key = tuple(map(tuple, perms[k].to_json()))
        if key not in perm_ids:
            perm_ids[key] = len(perm_list)
            perm_list.append(perms[k].to_json())
        mapped[space.format(space.codes[codes_idx[k]])] = [perm_ids[key], str(rep_text[k])]
    return {"mapped": mapped, "perms": perm_list} if mapped else {}
