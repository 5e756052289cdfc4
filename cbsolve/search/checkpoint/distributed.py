"""The Dask drivers' checkpointed state (``cbsolve optimal --scheduler ... --checkpoint DIR``):
the settled tasks' results, recorded as they come back, so a resumed driver sends only the
open tasks.

Place in the data flow: ``cbsolve optimal --scheduler ADDRESS|local --checkpoint DIR`` -> the
Dask drivers (:mod:`cbsolve.search.distributed.worst`, :mod:`cbsolve.search.distributed.expected`)
-> **this module** (record, replay) -> the checkpoint file (:mod:`.store`).

Worst case (:class:`DaskWorstSteps`): the greedy tree (``greedy``), the depths refuted
(``refuted``, a list: their certificate is written by the driver from its own memo, as
without a checkpoint), the depth in progress and the first guesses refuted at it (``depth``,
``guesses``), and the first guess that works once one does (``winner``: [depth, guess]).

Expected case (:class:`DaskExpectedSteps`): the greedy value (``greedy``), every first guess
settled in bound order (``done``: guess, value or None, the bound it proved, incumbent), the
incumbent's classes with their trees (``incumbent``), the first guess in progress and its
classes solved with their trees (``current.classes``), and, for a class split by its second
guesses, each second guess settled (``current.split``: ``exact`` values, with the tree of the
one that was the best, and ``refuted`` lower bounds). A task's tree is its own result: no
table is needed to rebuild it.
"""
from __future__ import annotations
from .expected import settled_first_guess
from .worst import _tree_in


def _pair(value) -> tuple[int, int]:
    return int(value[0]), int(value[1])


class _Steps:
    def __init__(self, checkpoint) -> None:
        self.cp, self.state = checkpoint, checkpoint.state

    def _update(self, **items) -> None:
        with self.cp.lock:
            self.state.update(items)
        self.cp.changed()

    def greedy(self, compute):
        """The greedy tree or value: from the checkpoint, else ``compute()`` (recorded)."""
        if "greedy" in self.state:
            return self.state["greedy"]
        value = compute()
        if value is not None:
            self._update(greedy=value)
        return value


class DaskWorstSteps(_Steps):
    """The worst-case Dask driver's decisions: depths refuted, first guesses refuted at the
    depth in progress, the winner."""

    def greedy(self, compute):
        raw = super().greedy(compute)
        return None if raw is None else _tree_in(raw)

    def depth_refuted(self, d: int) -> bool:
        return d in self.state.get("refuted", [])

    def winner(self, d: int) -> int | None:
        w = self.state.get("winner")
        return None if w is None or w[0] != d else int(w[1])

    def open_guesses(self, d: int, order: list[int]) -> list[int]:
        """The first guesses of ``order`` not refuted at depth ``d`` before."""
        with self.cp.lock:
            if self.state.get("depth") != d:
                self.state.update(depth=d, guesses=[])
            done = set(self.state["guesses"])
        return [g for g in order if g not in done]

    def guess_refuted(self, d: int, g: int) -> None:
        with self.cp.lock:
            if self.state.get("depth") == d:
                self.state["guesses"].append(int(g))
        self.cp.changed()

    def decided(self, d: int, winner: int | None) -> None:
        """Depth ``d`` decided: refuted (``winner`` None) or feasible with ``winner``."""
        with self.cp.lock:
            if winner is None:
                self.state.setdefault("refuted", []).append(int(d))
            else:
                self.state["winner"] = [int(d), int(winner)]
            self.state.update(depth=None, guesses=[])
        self.cp.changed()


class DaskExpectedSteps(_Steps):
    """The expected-case Dask driver's settled results, at the top of the searched set."""

    def greedy(self, compute):
        value = super().greedy(compute)
        return None if value is None else _pair(value)

    # --- first guesses -----------------------------------------------------------------------
    def done(self, rank: int, g: int):
        """(value or None, bound, incumbent) of first guess ``g`` at ``rank`` if settled."""
        return settled_first_guess(self.state, rank, g)

    def incumbent_classes(self, g: int, classes) -> None:
        """Mark the classes of the recorded incumbent ``g`` solved, with their trees."""
        inc = self.state.get("incumbent")
        if inc is None or inc["guess"] != g:
            raise AssertionError("internal error: the checkpoint's incumbent is missing")
        _restore(classes, inc["classes"])

    def settle(self, rank: int, g: int, value, bound, incumbent: bool, classes) -> None:
        entry = {"guess": int(g), "value": None if value is None else list(_pair(value)),
                 "bound": list(_pair(bound)), "incumbent": bool(incumbent)}
        with self.cp.lock:
            if len(self.state.setdefault("done", [])) != rank:
                return   # an earlier one went unrecorded: a resume redoes from there
            self.state["done"].append(entry)
            if incumbent:
                self.state["incumbent"] = {"guess": int(g), "classes": {
                    str(c.reply): _class_record(c) for c in classes}}
            self.state.pop("current", None)
        self.cp.changed()

    # --- the classes of the first guess in progress ----------------------------------------------
    def _current(self, g: int) -> dict | None:
        cur = self.state.get("current")
        return cur if cur is not None and cur["guess"] == g else None

    def begin(self, g: int, classes) -> None:
        """Start first guess ``g``: its classes solved before are marked solved."""
        with self.cp.lock:
            cur = self._current(g)
            if cur is None:
                self.state["current"] = {"guess": int(g), "classes": {}, "split": {}}
            else:
                _restore(classes, cur["classes"])
        self.cp.changed()

    def class_solved(self, g: int, c) -> None:
        with self.cp.lock:
            cur = self._current(g)
            if cur is None:
                return
            cur["classes"][str(c.reply)] = _class_record(c)
            cur["split"].pop(str(c.reply), None)
        self.cp.changed()

    # --- a class split by its second guesses ---------------------------------------------------
    def split_known(self, g: int, c):
        """(guess -> exact value, guess -> lower bound, the best exact's result or None) of
        class ``c`` of ``g``: an exact value recorded without its tree counts as a bound (the
        guess is expanded again if it can still be the best)."""
        with self.cp.lock:
            cur = self._current(g)
            rec = None if cur is None else cur["split"].get(str(c.reply))
            if rec is None:
                return {}, {}, None
            refuted = {int(x): _pair(v) for x, v in rec["refuted"].items()}
            best = rec.get("best")
            exact = {}
            if best is not None:
                exact[int(best["guess"])] = _pair(best["value"])
            for x, v in rec["exact"].items():
                if int(x) not in exact:
                    refuted[int(x)] = _pair(v)
            return exact, refuted, best

    def split_restored(self, g: int, c, best, fail, heap: list):
        """(best, fail, found, heap) of the split of class ``c`` of ``g`` resumed from the
        second guesses recorded (:func:`cbsolve.search.expected.split._restored`)."""
        from ..expected.split import _restored

        exact, refuted, recorded = self.split_known(g, c)
        state = {"best": best, "guess": None, "fail": fail}
        heap = _restored(heap, state, exact, refuted)
        found = None
        if state["guess"] is not None:
            found = {"tree": recorded["tree"], "histogram": recorded["histogram"]}
        return state["best"], state["fail"], found, heap

    def split_settled(self, g: int, c, guess: int, res: dict, best: bool) -> None:
        """Second guess ``guess`` of class ``c`` settled with task result ``res`` (exact, or a
        bound); ``best``: it is now the class's best (its tree kept)."""
        value = [int(res["total"]), int(res["worst"])]
        with self.cp.lock:
            cur = self._current(g)
            if cur is None:
                return
            rec = cur["split"].setdefault(str(c.reply), {"exact": {}, "refuted": {}})
            rec["exact" if res["exact"] else "refuted"][str(int(guess))] = value
            if best:
                rec["best"] = {"guess": int(guess), "value": value, "tree": res["tree"],
                               "histogram": res["histogram"]}
        self.cp.changed()


def _class_record(c) -> dict:
    return {"value": list(_pair(c.lower)), "tree": c.tree,
            "histogram": {str(k): int(v) for k, v in c.histogram.items()}}


def _restore(classes, records: dict) -> None:
    for c in classes:
        rec = records.get(str(c.reply))
        if rec is not None:
            c.exact, c.lower, c.tree = True, _pair(rec["value"]), rec["tree"]
            c.histogram = {int(k): int(v) for k, v in rec["histogram"].items()}
