"""Every reply that alone could be wrong (consistency/repairs.py), checked by brute force:
for each entry and each other score, the secrets the corrected log leaves."""
import contextlib
import io
import json

from hypothesis import given, settings
from testkit import variant_and_log

from cbsolve.cli import main
from cbsolve.consistency.native import consistent_indices
from cbsolve.consistency.repairs import single_repairs_enumerated
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.scoring import possible_responses
from cbsolve.game.variant import Variant


def changed(log, k, bulls, cows):
    entries = list(log.entries)
    entries[k - 1] = log.make_entry(log[k - 1].text, bulls,
                                    None if log.variant.bulls_only else cows, k)
    return FeedbackLog(log.variant, entries)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(variant_and_log(max_entries=5))
def test_single_repairs_are_exactly_the_single_changes_that_fit(log):
    if not len(log) or consistent_indices(log).size:
        return
    found = {(r.entry, r.bulls, r.cows): r for r in single_repairs_enumerated(log)}
    want = {}
    for k, e in enumerate(log, 1):
        for b, c in possible_responses(log.variant):
            if (b, c) == (e.bulls, e.cows):
                continue
            n = consistent_indices(changed(log, k, b, c)).size
            if n:
                want[(k, b, c)] = n
    assert {key: r.secrets for key, r in found.items()} == want
    for r in found.values():            # the example secret fits the corrected log
        assert r.example in {tuple(int(v) for v in log.space.codes[i])
                             for i in consistent_indices(changed(log, r.entry, r.bulls, r.cows))}


def test_confirmed_replies_are_never_proposed():
    log = FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:1,1", "4567:0,2", "0123:2,0"])
    assert {r.entry for r in single_repairs_enumerated(log)} == {1, 3}
    assert {r.entry for r in single_repairs_enumerated(log, confirmed={3})} == {1}


def test_cli_names_each_reply_that_alone_could_be_wrong(capsys):
    args = ["consistent", "0123:1A2B", "4567:0A2B"]
    assert main(args) == 1
    out = capsys.readouterr().out
    # echoed in the notation typed, with the secrets each score leaves
    assert "reply 2 (4567:0A2B) alone could be wrong; it fits as 0A1B (108 secrets)" in out
    assert "reply 1 (0123:1A2B) alone could be wrong" in out
    assert main(args + ["--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    fixes = data["corrections"]
    assert [f["option"] for f in fixes] == list(range(1, len(fixes) + 1))
    assert {f["entry"] for f in fixes} == {1, 2} and all(f["replies"] == 1 for f in fixes)
    for f in fixes:                      # the count each option states, re-counted
        b, c = (int(x) for x in f["to"].split(","))
        log = FeedbackLog.parse(Variant.preset("bulls-cows"), args[1:])
        assert consistent_indices(changed(log, f["entry"], b, c)).size == f["secrets"]


def _mis_scored_12_of_20(seed: int, clues: int):
    """A log of ``clues`` random guesses at a secret of 12 of 20 letters (distinct: 6.0e14
    codes, beyond the filter) whose middle reply is mis-scored by one cow."""
    import random

    from cbsolve.game.codes import CodeSpace
    from cbsolve.game.rule import score

    v = Variant(12, "ABCDEFGHIJKLMNOPQRST", repeats=False)
    space, rng = CodeSpace(v), random.Random(seed)
    secret = space.code_at(rng.randrange(space.size))
    log = FeedbackLog(v)
    for i in range(clues):
        g = space.code_at(rng.randrange(space.size))
        b, c = score(v, secret, g)
        log.add(space.format(g), b, c - 1 if i == clues // 2 and c else
                c + 1 if i == clues // 2 else c)
    return log, secret


def test_beyond_the_filter_every_fitting_score_is_counted_within_the_deadline():
    """12 of 20 letters with one mis-scored reply (seed 6: the log is inconsistent), under a
    30 s deadline: every conflicting reply's fitting scores are listed (the mis-scored reply's
    true score among them), each with its count, re-counted by the depth-first search with no
    limit: equal where it says exact, at most the true count where it says "at least"; the
    scores of one reply cover the other replies' secrets (each scores some reply against that
    guess), exactly when every count is exact."""
    from cbsolve.consistency import dfs
    from cbsolve.consistency.diagnose import _counting_engine
    from cbsolve.consistency.repairs import _with_reply, single_repairs_counted
    from cbsolve.runtime.deadline import Deadline
    from cbsolve.game.rule import score

    log, secret = _mis_scored_12_of_20(6, 10)
    assert not dfs.first(log).codes.shape[0]                   # inconsistent
    found, notes = single_repairs_counted(log, [4, 5, 6, 7, 8], Deadline(30),
                                          _counting_engine("native"))
    v = log.variant
    assert (6, *score(v, secret, log[5].guess)) in {(r.entry, r.bulls, r.cows) for r in found}
    for r in found:
        true = dfs.count(_with_reply(log, r.entry, v.response_index(r.bulls, r.cows)))
        assert true.complete and (true.count == r.secrets if r.exact else true.count >= r.secrets)
        assert all(score(v, r.example, e.guess) == (e.bulls, e.cows) if i != r.entry else
                   score(v, r.example, e.guess) == (r.bulls, r.cows) for i, e in enumerate(log, 1))
    for k in {r.entry for r in found}:
        rest = dfs.count(log.subset([j for j in range(1, len(log) + 1) if j != k]))
        mine = [r for r in found if r.entry == k]
        assert sum(r.secrets for r in mine) <= rest.count
        if all(r.exact for r in mine) and not any(f"reply {k}:" in n for n in notes):
            assert sum(r.secrets for r in mine) == rest.count


def test_beyond_the_filter_what_the_deadline_cut_is_labelled():
    """An expired deadline examines nothing and says so; the CLI under a short limit labels
    every count it could not finish "at least" (``secrets`` null, ``secrets_exact`` false)."""
    from cbsolve.consistency.diagnose import single_repairs
    from cbsolve.runtime.deadline import Deadline

    log, _ = _mis_scored_12_of_20(6, 10)
    found, notes = single_repairs(log, [4, 5, 6, 7, 8], "native", Deadline(0))
    assert found == [] and notes == ["replies 4, 5, 6, 7, 8 not examined (the time ran out)"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["consistent", "--length", "12", "--letters", "20", *log.tokens(), "--json",
                     "--time-limit", "0.6"])
    doc = json.loads(out.getvalue())
    assert code == 1 and doc["status"] == "infeasible"
    for item in doc["corrections"] or []:
        assert item["secrets_at_least"] >= 1
        assert item["secrets"] == (item["secrets_at_least"] if item["secrets_exact"] else None)
    cut = [x for x in doc["corrections"] or [] if not x["secrets_exact"]]
    assert not cut or any("lower bounds" in n for n in doc["notes"])


@settings(max_examples=80, deadline=None, derandomize=True)
@given(variant_and_log(max_entries=6))
def test_every_option_listed_repairs_the_log_with_the_fewest_changes(log):
    """Applied together, the items of each option leave exactly the secrets they state, and
    every option changes the fewest replies any secret needs (brute force over the space)."""
    import numpy as np

    from cbsolve.consistency import Query, consistent
    from cbsolve.game.rule import score as rule_score

    if not len(log) or consistent_indices(log).size:
        return
    r = consistent(log, Query(limit=1), backend="native")
    codes = log.space.codes
    small = len(codes) <= 4000          # the pure-Python rule on every code: small spaces only
    fewest = small and min(sum(rule_score(log.variant, tuple(c), e.guess) != (e.bulls, e.cows)
                               for e in log) for c in codes)
    options = {}
    for f in r.corrections:
        options.setdefault(f["option"], []).append(f)
    assert list(options) == list(range(1, len(options) + 1))
    for items in options.values():
        fixed = log
        for f in items:
            b, _, c = f["to"].partition(",")
            fixed = changed(fixed, f["entry"], int(b), int(c or 0))
        assert len(items) == items[0]["replies"]
        assert consistent_indices(fixed).size == items[0]["secrets"] > 0
        if small:
            assert len(items) == fewest
    assert np.all([f["from"] != f["to"] for f in r.corrections])
