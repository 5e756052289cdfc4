"""The worst-case search decided in checkpointed steps: "can d guesses find every secret?"
asked one first-guess orbit and one of its reply classes at a time.

Place in the data flow: ``cbsolve optimal --checkpoint DIR`` -> the worst-case driver
(:class:`cbsolve.search.worst.driver._WorstRun`) -> **this module** -> the worst-case kernel
(:mod:`cbsolve.search.worst.kernel`) on one reply class at a time -> the checkpoint
(:mod:`cbsolve.search.checkpoint`).

Without a checkpoint the driver hands the kernel the whole question for d in one call, which
a crash loses whole. Here the question is split as the sharded proofs split it
(:mod:`cbsolve.search.worst.shards`): d guesses suffice exactly when some first guess (one per
orbit of the game's symmetry) leaves only reply classes that d-1 more guesses settle. The
orbits are tried in the kernel's root order (smallest largest class first), each class
largest first, on one kernel and one memo; every class settled, every orbit refuted (with its
refutation tree), every depth refuted (its whole certificate) and the greedy tree go into the
checkpoint as soon as they are proved, so a resumed run skips them. The certificate of a
refuted depth is composed as ``cbsolve merge`` composes the shards' (the other guesses of an
orbit mapped onto its representative), which ``cbsolve verify`` checks.

State (``checkpoint.state``): ``greedy`` (the kernel's greedy tree), ``refuted`` (depth ->
certificate), ``depth`` (the depth being decided), ``orbits`` (representative -> its outcome
at that depth), ``settled`` (representative -> the replies whose class d-1 guesses settle),
``witness`` (the first guess and the trees of its classes once a depth is found feasible).
"""
from __future__ import annotations

import numpy as np

from ...game.capacity import capacity
from ...game.codes import CodeSpace
from ...game.symmetry import Symmetry
from ..result import Verdict
from ..worst.deeper import mapped_entries
from ..worst.trees import CERT_FORMAT, CERT_VERSION, _cert_node

REFUTED, WORKS = "refuted", "works"


class WorstSteps:
    """One worst-case run's checkpointed decisions, on the run's kernel (``native``)."""

    def __init__(self, checkpoint, native, variant, guesses: str, deadline, report) -> None:
        self.cp, self.native, self.variant, self.guesses = checkpoint, native, variant, guesses
        self.deadline, self.report = deadline, report
        self.state = checkpoint.state
        self._orbits = None

    # --- greedy tree ---------------------------------------------------------------------------
    def greedy(self, compute):
        """The greedy tree: from the checkpoint, else ``compute()`` and recorded."""
        if "greedy" in self.state:
            return _tree_in(self.state["greedy"])
        tree = compute()
        if tree is not None:
            with self.cp.lock:
                self.state["greedy"] = tree
            self.cp.changed()
        return tree

    # --- deciding one depth --------------------------------------------------------------------
    def refuted(self, d: int) -> dict | None:
        return self.state.get("refuted", {}).get(str(d))

    def decide(self, d: int) -> tuple[Verdict, dict | None]:
        """Whether ``d`` guesses suffice, and the kernel tree of depth ``d`` when they do (the
        first working orbit's guess over its classes' trees)."""
        if self.refuted(d) is not None:
            return Verdict.NO, None
        st = self.state
        with self.cp.lock:
            if st.get("depth") != d:
                st.update(depth=d, orbits={}, settled={})
                st.pop("witness", None)
        if "witness" in st:
            return Verdict.YES, _tree_in(st["witness"])
        everyone = np.arange(self.native.space.size, dtype=np.int64)
        for g, classes in self.orbits(everyone):
            key = self.native.space.format(self.native.codes[g])
            if key in st["orbits"]:
                continue   # refuted at this depth before (here, or in the run resumed)
            outcome = self._orbit(g, key, classes, d)
            if outcome is None:
                return Verdict.STOPPED, None
            if outcome["outcome"] == WORKS:
                with self.cp.lock:
                    st["witness"] = outcome["tree"]
                self.cp.changed()
                return Verdict.YES, _tree_in(outcome["tree"])
            with self.cp.lock:
                st["orbits"][key] = outcome
                st["settled"].pop(key, None)
            self.cp.changed()
        cert = self._certificate(d)
        with self.cp.lock:
            st.setdefault("refuted", {})[str(d)] = cert
            st.update(depth=None, orbits={}, settled={})
        self.cp.changed()
        return Verdict.NO, None

    def orbits(self, everyone: np.ndarray) -> list[tuple[int, list]]:
        """(representative, its non-winning reply classes largest first) for every first-guess
        orbit, in the kernel's root order: smallest largest class first, then by code."""
        if self._orbits is None:
            reps = Symmetry(self.variant).guess_representatives([])
            out = []
            for g in (int(x) for x in reps):
                replies = self.native.replies(g, everyone)
                classes = [(int(r), everyone[replies == r]) for r in np.unique(replies)
                           if r != self.variant.win_response]
                classes.sort(key=lambda c: -len(c[1]))
                out.append((g, classes))
            out.sort(key=lambda o: (len(o[1][0][1]) if o[1] else 0, o[0]))
            self._orbits = out
        return self._orbits

    def _orbit(self, g: int, key: str, classes: list, d: int) -> dict | None:
        """The outcome of first guess ``g`` at depth ``d`` (None: stopped)."""
        native, variant, st = self.native, self.variant, self.state
        if classes and len(classes[0][1]) > capacity(d - 1, native.n_responses):
            return {"outcome": REFUTED, "reply": variant.format_response(classes[0][0])}
        history = np.array([g], dtype=np.int64)
        settled = set(st["settled"].get(key, []))
        try:
            for r, members in classes:
                if r in settled:
                    continue
                native.set_root(members, history)
                verdict = Verdict(native.run("feasible", d - 1, self.deadline, self.report))
                if verdict is Verdict.STOPPED:
                    return None
                if verdict is Verdict.NO:
                    raw = native.run("certificate", d - 1, self.deadline, self.report)
                    if raw is None:
                        return None
                    return {"outcome": REFUTED, "reply": variant.format_response(r),
                            "node": _cert_node(variant, native, raw)}
                with self.cp.lock:
                    st["settled"].setdefault(key, []).append(r)
                self.cp.changed()
            children = []
            for r, members in classes:   # every class settled: g works within d
                native.set_root(members, history)
                tree = native.run("tree", d - 1, self.deadline, self.report)
                if tree is None:
                    return None
                children.append([r, tree])
        finally:
            native.set_root(np.arange(native.space.size, dtype=np.int64),
                            np.zeros(0, dtype=np.int64))
        return {"outcome": WORKS, "tree": {"guess": g, "children": children}}

    def _certificate(self, d: int) -> dict:
        """The certificate that ``d`` guesses do not suffice, from every orbit's refutation
        (orbits refuted by counting need no entry: the verifier counts)."""
        root: dict = {"left": d}
        refuted = {g: {"reply": o["reply"], "node": o["node"]}
                   for g, o in self.state["orbits"].items() if "node" in o}
        if refuted:
            root["refuted"] = refuted
            root.update(mapped_entries(CodeSpace(self.variant), Symmetry(self.variant), [],
                                       set(refuted)))
        return {"format": CERT_FORMAT, "version": CERT_VERSION,
                "variant": self.variant.to_dict(), "guesses": self.guesses,
                "responses": self.native.n_responses,
                "claim": {"max_guesses": d, "solvable": False}, "root": root}


def _tree_in(raw: dict) -> dict:
    """A kernel tree read back from JSON: the children as (reply, subtree) pairs."""
    return {"guess": int(raw["guess"]),
            "children": [(int(r), _tree_in(c)) for r, c in raw["children"]]}
