"""Every reply that alone could be wrong (consistency/repairs.py), checked by brute force:
for each entry and each other score, the secrets the corrected log leaves."""
import json

from hypothesis import given, settings
from testkit import variant_and_log

from cbsolve.cli import main
from cbsolve.consistency.native import consistent_indices
from cbsolve.consistency.repairs import single_repairs_enumerated
from cbsolve.feedback import FeedbackLog
from cbsolve.scoring import possible_responses
from cbsolve.variant import Variant


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


def test_beyond_the_filter_each_entry_of_the_conflict_is_tried_within_the_deadline():
    """The searched repairs take the deadline they are given: an expired one decides nothing
    (no search is started); a live one gives one fitting score for each conflicting entry."""
    import string

    from cbsolve.consistency import dfs
    from cbsolve.consistency.repairs import single_repairs_searched
    from cbsolve.deadline import Deadline

    v = Variant(12, string.ascii_uppercase[:10], True)
    log = FeedbackLog.parse(v, ["ABCDEFABCDEF:0,0", "ABCDEFABCDEF:1,0"])
    calls = []

    def find_one(sub, deadline):
        calls.append(deadline.left())
        c = dfs.first(sub, deadline)
        return tuple(int(x) for x in c.codes[0]) if c.codes.shape[0] else None

    assert single_repairs_searched(log, [1, 2], Deadline(0), find_one) == [] and calls == []
    found = single_repairs_searched(log, [1, 2], Deadline(30), find_one)
    assert sorted((r.entry, r.bulls, r.cows) for r in found) == [(1, 1, 0), (2, 0, 0)]
    assert all(r.secrets is None for r in found)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(variant_and_log(max_entries=6))
def test_every_option_listed_repairs_the_log_with_the_fewest_changes(log):
    """Applied together, the items of each option leave exactly the secrets they state, and
    every option changes the fewest replies any secret needs (brute force over the space)."""
    import numpy as np

    from cbsolve.consistency import Query, consistent
    from cbsolve.rule import score as rule_score

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
