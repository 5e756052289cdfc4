"""The expected-case search's checkpointed state: what the driver
(:class:`cbsolve.search.expected.search._Search`) has proved, one first guess and one of its
reply classes at a time.

Place in the data flow: ``cbsolve optimal --objective expected --checkpoint DIR`` -> the
driver -> **this module** (record, replay) -> the checkpoint (:mod:`cbsolve.search.checkpoint`).

The driver tries the first guesses in bound order and solves each one's reply classes (in
parallel) against the incumbent. What is proved, and so kept: the greedy value and the
first-guess order (``greedy``, ``order``: seconds of set-up on Bulls & Cows 4/10); every first
guess settled, with the bound it proved and whether it became the incumbent (``done``); the
incumbent's tree with the secrets it finds at each depth (``incumbent``); the reply classes of
the first guess in progress solved exactly, each with its optimal subtree (``current``): the
subtree is read from the solver's table as soon as the class is solved, since the table is
lost with the process. A resumed run replays ``done``, marks those classes solved, and builds
the final tree from the stored subtrees (no class is solved twice). A class solved by the
parallel split (:mod:`cbsolve.search.expected.split`; Bulls & Cows 4/10: over 1,000 secrets,
more than a minute) also has its second guesses recorded as they settle (``current.split``,
reply -> ``exact`` and ``refuted``: guess -> (total, worst)): a resumed split starts from them.
Inside it, each guess being expanded records its classes as they are solved (``classes``:
every one's value, the slow ones' subtrees too, version 2; a class split again keeps its own
record in ``inner``): a resumed expansion solves only the others (:class:`SplitJournal`).
"""
from __future__ import annotations

import threading

import numpy as np


def settled_first_guess(state: dict, rank: int, g1: int):
    """The record of first guess ``g1`` at ``rank`` of the order in ``state["done"]`` (both
    drivers, local and Dask, keep it so): (value or None, bound, became the incumbent), or
    None if not settled yet."""
    done = state.get("done", [])
    if rank >= len(done):
        return None
    entry = done[rank]
    if entry["guess"] != g1:
        raise AssertionError("internal error: the checkpoint's first-guess order differs")
    value = None if entry["value"] is None else (int(entry["value"][0]), int(entry["value"][1]))
    return value, (int(entry["bound"][0]), int(entry["bound"][1])), bool(entry["incumbent"])


class ExpectedSteps:
    """One expected-case run's checkpointed decisions (``search``: the driver)."""

    def __init__(self, checkpoint, search) -> None:
        self.cp, self.search, self.state = checkpoint, search, checkpoint.state
        self.tree_lock = threading.Lock()   # the driver's win counts serve one tree at a time

    def _record(self, **items) -> None:
        with self.cp.lock:
            self.state.update(items)
        self.cp.changed()

    # --- set-up ------------------------------------------------------------------------------
    def greedy(self, compute, halted):
        """The greedy value (total, worst) or None: from the checkpoint, else ``compute()``
        (recorded unless the search was stopped during it: ``halted()``)."""
        if "greedy" in self.state:
            g = self.state["greedy"]
            return None if g is None else (int(g[0]), int(g[1]))
        value = compute()
        if halted() is None:
            self._record(greedy=None if value is None else [int(value[0]), int(value[1])])
        return value

    def order(self, compute, halted) -> list:
        """The first guesses in bound order: from the checkpoint, else ``compute()``."""
        if "order" in self.state:
            return [(int(g), int(t), int(w), bool(c)) for g, t, w, c in self.state["order"]]
        order = compute()
        if halted() is None and order:
            self._record(order=[[int(g), int(t), int(w), bool(c)] for g, t, w, c in order])
        return order

    # --- first guesses -------------------------------------------------------------------------
    def done(self, rank: int, g1: int):
        """The record of first guess ``g1`` (at ``rank`` of the order) if settled before:
        (value or None, bound, became the incumbent), else None."""
        return settled_first_guess(self.state, rank, g1)

    def settle(self, rank: int, g1: int, value, bound, incumbent: bool, classes) -> bool:
        """First guess ``g1`` settled: its exact ``value`` (None: refuted) and the ``bound`` it
        proved; the incumbent's tree recorded with it (built now from the table and the stored
        class subtrees). False if the tree could not be built (stopped): nothing recorded."""
        entry = {"guess": int(g1), "value": None if value is None else [int(x) for x in value],
                 "bound": [int(x) for x in bound], "incumbent": bool(incumbent)}
        items = {}
        if incumbent:
            built = self.tree(g1, classes)
            if built is None:
                return False
            items["incumbent"] = {"guess": int(g1), "tree": built[0], "wins": built[1]}
        with self.cp.lock:
            if len(self.state.setdefault("done", [])) != rank:
                return False   # an earlier one went unrecorded: a resume redoes from there
            self.state["done"].append(entry)
            self.state.update(items)
            self.state.pop("current", None)
        self.cp.changed()
        return True

    def incumbent_tree(self, g1: int):
        """(tree, wins by depth) of the incumbent ``g1`` recorded, else None."""
        inc = self.state.get("incumbent")
        if inc is None or inc["guess"] != g1:
            return None
        return inc["tree"], {int(k): int(v) for k, v in inc["wins"].items()}

    def tree(self, g1: int, classes):
        """(tree, wins by depth) of first guess ``g1`` over its solved ``classes``: the stored
        subtrees where there are some, the table elsewhere; None if stopped."""
        search = self.search
        return self.walk(lambda: search._node(
            g1, np.arange(search.n, dtype=np.int32), search.depth, [],
            lambda sub, d, history: self.subtree(g1, sub, d, history)))

    def subtree(self, g1: int, sub: np.ndarray, d: int, history) -> dict:
        """The optimal subtree of class ``sub`` of ``g1``: recorded, else read from the table
        (its wins counted into the tree being built either way)."""
        search = self.search
        hit = self._known(g1).get(int(sub[0]))
        if hit is None:
            return search._optimal_subtree(sub, d, history)
        for depth, count in hit[1].items():
            search._wins[depth] = search._wins.get(depth, 0) + count
        return hit[0]

    # --- reply classes of the first guess in progress --------------------------------------------
    def begin(self, g1: int, classes) -> None:
        """Start first guess ``g1``: its classes solved before are marked exact."""
        cur = self.state.get("current")
        if cur is None or cur["guess"] != g1:
            self._record(current={"guess": int(g1), "classes": {}})
            return
        for c in classes:
            rec = cur["classes"].get(str(c.response))
            if rec is not None:
                c.lower, c.exact = (int(rec["value"][0]), int(rec["value"][1])), True

    def class_solved(self, g1: int, c, d: int) -> None:
        """Class ``c`` of ``g1`` solved exactly: its subtree (the split's record of its best
        second guess, else read from the table) recorded (skipped if that fails: the class
        is then solved again after a resume)."""
        best = self._split_best(g1, c, d)
        if best is not None:
            tree, wins = best
        else:
            built = self.walk(lambda: self.search._optimal_subtree(c.members, d, [g1]))
            if built is None:
                return
            tree, wins = built
        with self.cp.lock:
            cur = self.state.get("current")
            if cur is None or cur["guess"] != g1:
                return
            cur["classes"][str(c.response)] = {"value": [int(c.lower[0]), int(c.lower[1])],
                                               "first": int(c.members[0]), "tree": tree,
                                               "wins": wins}
            cur.get("split", {}).pop(str(c.response), None)
        self.cp.changed()

    def walk(self, build):
        """(tree, wins by depth) that ``build()`` makes from the table, its wins counted
        apart from the tree being built; None if it fails (stopped while re-solving an
        evicted set)."""
        search = self.search
        with self.tree_lock:
            saved, search._wins = search._wins, {}
            try:
                return build(), dict(search._wins)
            except Exception:   # noqa: BLE001  (stopped while re-solving an evicted set)
                return None
            finally:
                search._wins = saved

    def _split_best(self, g1: int, c, d: int):
        """(tree, wins) the split recorded for its best second guess of class ``c``, if that
        guess is the one the class was solved with (else None)."""
        with self.cp.lock:
            cur = self.state.get("current")
            rec = None if cur is None or cur["guess"] != g1 else \
                cur.get("split", {}).get(str(c.response), {}).get("best")
        if rec is None or self.search.solver.best_guess(c.members, d) != rec["guess"]:
            return None
        return rec["tree"], {int(k): int(v) for k, v in rec["wins"].items()}

    def split_journal(self, g1: int, c) -> SplitJournal:
        """The record of class ``c`` of ``g1`` solved by the parallel split: its second
        guesses settled so far, and where the split reports the next ones."""
        return SplitJournal(self, g1, str(c.response))

    def _known(self, g1: int) -> dict:
        cur = self.state.get("current")
        if cur is None or cur["guess"] != g1:
            return {}
        return {rec["first"]: (rec["tree"], {int(k): int(v) for k, v in rec["wins"].items()})
                for rec in cur["classes"].values()}


class SplitJournal:
    """One set's guesses settled by the parallel split
    (:meth:`cbsolve.search.expected.split.ParallelSplit.solve`), while ``g1`` is the first
    guess in progress: a class of ``g1`` (``path`` = (reply,): ``current.split[reply]``) or,
    inside it, a class of a guess being expanded that is split again (``path`` + (guess,
    first secret): that record's ``inner[guess][first]``, the same shape). Each record holds
    the guesses settled (``exact``, ``refuted``, ``best``) and, for each guess being expanded,
    its classes solved so far (``classes[guess][first]``: value, subtree, wins), dropped with
    ``inner`` once the guess settles."""

    def __init__(self, steps: ExpectedSteps, g1: int, reply: str, path: tuple = ()) -> None:
        self.steps, self.g1, self.reply, self.path = steps, g1, reply, path

    @property
    def record_seconds(self) -> float:
        """A class solved in at least this long is recorded with its subtree
        (:data:`cbsolve.search.checkpoint.store.RECORD_SECONDS`, the checkpoint's)."""
        return self.steps.cp.record_seconds

    def _record(self) -> dict | None:
        cur = self.steps.state.get("current")
        if cur is None or cur["guess"] != self.g1:
            return None
        rec = cur.setdefault("split", {}).setdefault(self.reply, {"exact": {}, "refuted": {}})
        for g, first in self.path:
            rec = rec.setdefault("inner", {}).setdefault(str(g), {}).setdefault(
                str(first), {"exact": {}, "refuted": {}})
        return rec

    def known(self) -> tuple[dict, dict]:
        """(guess -> exact value, guess -> lower bound that refuted it), as recorded."""
        with self.steps.cp.lock:
            rec = self._record() or {"exact": {}, "refuted": {}}
            return tuple({int(g): (int(v[0]), int(v[1])) for g, v in rec[kind].items()}
                         for kind in ("exact", "refuted"))

    def exact(self, g: int, value, tree=None) -> None:
        """Second guess ``g`` settled with its exact ``value``; ``tree`` (members, d, history:
        it is the running best) its subtree is built now (its classes recorded, else from the
        table) and kept, so a resume that ends with it need not solve its classes again."""
        solved = None if tree is None else self._classes(g)   # before _put drops them
        self._put("exact", g, value)
        if tree is None:
            return
        members, d, history = tree
        search = self.steps.search
        built = self.steps.walk(lambda: search._node(g, members, d, history,
                                                     self._subtree_of(solved)))
        if built is None:
            return
        with self.steps.cp.lock:
            rec = self._record()
            if rec is None or ("best" in rec and tuple(rec["best"]["value"]) <= tuple(value)):
                return   # a better one was recorded meanwhile (another thread)
            rec["best"] = {"guess": int(g), "value": [int(value[0]), int(value[1])],
                           "tree": built[0], "wins": {str(k): v for k, v in built[1].items()}}
        self.steps.cp.changed()

    def refuted(self, g: int, low) -> None:
        self._put("refuted", g, low)

    def _put(self, kind: str, g: int, value) -> None:
        with self.steps.cp.lock:
            rec = self._record()
            if rec is None:
                return
            rec[kind][str(int(g))] = [int(value[0]), int(value[1])]
            for part in ("classes", "inner"):   # g settled: its classes are no longer needed
                rec.get(part, {}).pop(str(int(g)), None)
        self.steps.cp.changed()

    # --- the classes of a guess being expanded ---------------------------------------------------
    def solved(self, g: int) -> dict:
        """First secret -> exact value of each class of ``g`` recorded solved (a resume skips
        them)."""
        return {first: value for first, (value, _, _) in self._classes(g).items()}

    def class_solved(self, g: int, sub, value, d: int, history, subtree: bool = True) -> None:
        """Class ``sub`` of guess ``g`` solved exactly (``value``, ``d`` guesses left after
        ``history``): recorded, with its subtree when ``subtree`` (the record of its own
        split's best guess if that is the one the table holds, else read from the table),
        else its value alone (tree null: read from the table if ``g`` becomes the best)."""
        first, search = int(sub[0]), self.steps.search
        built = None
        if subtree:
            with self.steps.cp.lock:
                rec = self._record()
                inner = None if rec is None else \
                    rec.get("inner", {}).get(str(g), {}).get(str(first), {}).get("best")
            if inner is not None and search.solver.best_guess(sub, d) == inner["guess"]:
                built = inner["tree"], {int(k): int(v) for k, v in inner["wins"].items()}
            else:
                built = self.steps.walk(lambda: search._optimal_subtree(sub, d, history))
                if built is None:
                    return
        with self.steps.cp.lock:
            rec = self._record()
            if rec is None or str(int(g)) in rec["exact"] or str(int(g)) in rec["refuted"]:
                return
            rec.setdefault("classes", {}).setdefault(str(int(g)), {})[str(first)] = {
                "value": [int(value[0]), int(value[1])],
                "tree": None if built is None else built[0],
                "wins": None if built is None else {str(k): v for k, v in built[1].items()}}
            rec.get("inner", {}).get(str(int(g)), {}).pop(str(first), None)
        self.steps.cp.changed()

    def inner(self, g: int, sub) -> SplitJournal:
        """The record of class ``sub`` of guess ``g`` split again."""
        return SplitJournal(self.steps, self.g1, self.reply,
                            (*self.path, (int(g), int(sub[0]))))

    def _classes(self, g: int) -> dict:
        """First secret -> (value, tree, wins) of the classes of ``g`` recorded solved (tree
        and wins None where only the value was recorded)."""
        with self.steps.cp.lock:
            rec = self._record() or {}
            recs = rec.get("classes", {}).get(str(int(g)), {})
            return {int(f): ((int(r["value"][0]), int(r["value"][1])), r["tree"],
                             None if r["wins"] is None else
                             {int(k): int(v) for k, v in r["wins"].items()})
                    for f, r in recs.items()}

    def _subtree_of(self, solved: dict):
        """The subtree builder of a guess's classes: the recorded ones, else the table's."""
        search = self.steps.search

        def child(sub, d, history):
            hit = solved.get(int(sub[0]))
            if hit is None or hit[1] is None:   # not recorded, or its value alone
                return search._optimal_subtree(sub, d, history)
            for depth, count in hit[2].items():
                search._wins[depth] = search._wins.get(depth, 0) + count
            return hit[1]

        return child
