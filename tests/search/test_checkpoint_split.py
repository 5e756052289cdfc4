"""The parallel split's second guesses in the checkpoint (docs/optimal.md, "Checkpoint and
resume"): a class solved by the split records each second guess as it settles, and a resumed
split starts from them, to the value an uninterrupted search proves, with a tree that
verifies. The stop is requested after a given number of second guesses settled (a state of
the search, not a time)."""
import pytest

from cbsolve.certificates.certify import verify
from cbsolve.search import checkpoint as cp
from cbsolve.search.checkpoint.expected import ExpectedSteps, SplitJournal
from cbsolve.search.expected import solve_expected, split
from cbsolve.search.expected.kernel import INF_T, INF_W
from cbsolve.game.variant import Variant

BC48 = Variant.from_options("bulls-cows", length=4, digits=8)
#: Classes of at least this many secrets go to the split (the first guess's largest of
#: Bulls & Cows 4/8 do), so a short game exercises it.
SPLIT = 150


def _ident() -> dict:
    return cp.identity(BC48, "expected", "all", None)


def _solve(directory, **kw):
    checkpoint = cp.Checkpoint(directory, _ident(), every=3600)
    return solve_expected(BC48, workers=2, split_min=SPLIT, checkpoint=checkpoint, **kw)


@pytest.fixture(scope="module")
def uninterrupted() -> int:
    return solve_expected(BC48, workers=2, split_min=SPLIT).total


def _split_records(directory) -> dict:
    return cp.read(directory)["state"].get("current", {}).get("split", {})


def test_a_stopped_split_resumes_from_its_second_guesses(tmp_path, monkeypatch, uninterrupted):
    d = tmp_path / "ck"
    put, seen = SplitJournal._put, []

    def stop_after_some(self, kind, g, value):
        put(self, kind, g, value)
        seen.append(kind)
        if len(seen) == 6:   # six second guesses settled: stop as a kill would, mid-class
            self.steps.search.solver.request_stop("stopped")

    monkeypatch.setattr(SplitJournal, "_put", stop_after_some)
    first = _solve(d)
    assert first.proved is False
    records = _split_records(d)
    assert records and sum(len(r["exact"]) + len(r["refuted"]) for r in records.values()) >= 6
    monkeypatch.setattr(SplitJournal, "_put", put)

    restored = split._restored
    started_from = []

    def spy(heap, state, exact, refuted):
        started_from.append((dict(exact), dict(refuted)))
        return restored(heap, state, exact, refuted)

    monkeypatch.setattr(split, "_restored", spy)
    best_seen = {r: rec["best"]["guess"] for r, rec in records.items() if "best" in rec}
    used, split_best = [], ExpectedSteps._split_best

    def spy_best(self, g1, c, d):
        out = split_best(self, g1, c, d)
        used.append((str(c.response), out is not None))
        return out

    monkeypatch.setattr(ExpectedSteps, "_split_best", spy_best)
    again = _solve(d)
    assert any(exact or refuted for exact, refuted in started_from)
    # a class whose best second guess was recorded with its subtree took that subtree (its
    # classes not solved again), unless the resume found a better guess (best-first: the
    # first one expanded is usually the optimum)
    assert best_seen and any(ok for r, ok in used if r in best_seen)
    assert again.proved and again.total == uninterrupted
    report = verify(again.tree)
    assert report.valid and report.total == uninterrupted


def _heap(*guesses):
    return [((10, 2), False, g, None) for g in guesses]


def test_restored_split_keeps_only_the_guesses_still_open():
    state = {"best": (100, 4), "guess": None, "fail": (INF_T, INF_W)}
    heap = split._restored(_heap(1, 2, 3, 4, 5), state,
                           exact={1: (90, 4), 2: (95, 3)},
                           refuted={3: (120, 4), 4: (50, 3)})
    # the best exact value recorded is the running best; the other exact guess is settled
    assert state["best"] == (90, 4) and state["guess"] == 1
    # 3's bound reaches the best: settled; 4's does not: open again, its bound kept
    assert sorted((b, g) for b, _, g, _ in heap) == [((10, 2), 5), ((50, 3), 4)]
    assert state["fail"] == (95, 3)


def test_restored_split_above_the_budget_is_only_a_bound():
    state = {"best": (80, 4), "guess": None, "fail": (INF_T, INF_W)}
    heap = split._restored(_heap(1, 2), state, exact={1: (90, 4)}, refuted={})
    assert state["best"] == (80, 4) and state["guess"] is None and state["fail"] == (90, 4)
    assert [g for _, _, g, _ in heap] == [2]


def _class_keys(records: dict) -> set:
    """(reply, path, guess, first secret) of every class recorded solved, nested ones too
    (path: the (guess, first secret) pairs of the classes split again on the way)."""
    def walk(reply, path, rec):
        out = {(reply, path, int(g), int(f)) for g, fs in rec.get("classes", {}).items()
               for f in fs}
        for g, inner in rec.get("inner", {}).items():
            for f, sub in inner.items():
                out |= walk(reply, (*path, (int(g), int(f))), sub)
        return out

    return set().union(*(walk(reply, (), rec) for reply, rec in records.items()))


@pytest.mark.parametrize("record_seconds", [0.0, 3600.0])   # with subtrees, values alone
@pytest.mark.parametrize("split_min", [SPLIT, 60])   # 60: classes of second guesses split too
def test_a_stopped_expansion_resumes_from_its_solved_classes(tmp_path, monkeypatch,
                                                              uninterrupted, split_min,
                                                              record_seconds):
    """A second guess's classes are recorded as they are solved (with their subtrees when
    their solve took the checkpoint's record_seconds, else their values alone): a stop in the middle of its
    expansion keeps them, and the resumed run solves none of them again (a class recorded by
    its value alone has its subtree read from the table if its guess becomes the best)."""
    d = tmp_path / "ck"
    record, seen = SplitJournal.class_solved, []

    def stop_after_some(self, g, sub, value, depth, history, subtree=True):
        record(self, g, sub, value, depth, history, subtree)
        seen.append(g)
        if len(seen) == 5:   # five classes solved: stop as a kill would, mid-expansion
            self.steps.search.solver.request_stop("stopped")

    monkeypatch.setattr(SplitJournal, "class_solved", stop_after_some)
    # this game's classes are quick: 0.0 records every subtree, 3600.0 none
    first = solve_expected(BC48, workers=2, split_min=split_min,
                           checkpoint=cp.Checkpoint(d, _ident(), every=3600,
                                                    record_seconds=record_seconds))
    assert first.proved is False
    kept = _class_keys(_split_records(d))
    assert kept, "the stop came after classes were solved: some are recorded"

    again_solved = []

    def spy(self, g, sub, value, depth, history, subtree=True):
        again_solved.append((self.reply, self.path, g, int(sub[0])))
        record(self, g, sub, value, depth, history, subtree)

    monkeypatch.setattr(SplitJournal, "class_solved", spy)
    again = solve_expected(BC48, workers=2, split_min=split_min,
                           checkpoint=cp.Checkpoint(d, _ident(), every=3600,
                                                    record_seconds=record_seconds))
    assert not kept & set(again_solved)
    assert again.proved and again.total == uninterrupted
    report = verify(again.tree)
    assert report.valid and report.total == uninterrupted
