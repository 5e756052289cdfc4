"""A guess's partition on a space too large to list: each reply class counted by the
counting backends (:mod:`cbsolve.advisor.counted`), exact or bounded, under a deadline."""
from collections import Counter

import numpy as np
from testkit import hidden_secret_log

from cbsolve import Variant, api
from cbsolve.advisor.counted import CountedPartition
from cbsolve.consistency import Query, consistent
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score

MM1010 = Variant.from_options("mastermind", length=10, digits=10)


def test_classes_of_a_small_set_are_its_scored_secrets():
    """Six clues leave a few dozen secrets of 10^10: listed and scored directly, their reply
    histogram is the counted classes, every one exact, the scores those of the sizes."""
    _, log = hidden_secret_log(MM1010, 6, np.random.default_rng(1))
    secrets = consistent(log, Query(limit=None)).secrets
    guess = "0011223344"
    part = api.partition(guess, log, members=False, deadline=Deadline(None))
    assert isinstance(part, CountedPartition) and part.complete and part.stopped is None
    code = log.space.parse(guess)
    expected = Counter(score(MM1010, code, log.space.parse(s)) for s in secrets)
    assert {c["reply"]: c["count"] for c in part.classes} == {
        f"{b},{c}": n for (b, c), n in expected.items()}
    assert part.candidates == len(secrets) and part.largest == max(expected.values())
    assert part.scores["parts"] == len(expected)
    assert all(c["exact"] and c["upper"] == c["count"] for c in part.classes)


def test_a_deadline_leaves_bounds_that_hold():
    """Cut by its deadline after one reply (2.6e8 secrets): each class exact or bounded, and
    the classes decided exactly agree with a count of their own."""
    log = FeedbackLog.parse(MM1010, ["0123456789:2,3"])
    part = api.partition("0011223344", log, members=False, deadline=Deadline(2.0))
    assert isinstance(part, CountedPartition)
    assert "10,0" not in [c["reply"] for c in part.classes]   # not a candidate: proved empty
    low = sum(c["count"] for c in part.classes)
    assert low <= part.candidates
    for c in part.classes:
        assert c["upper"] is None or c["count"] <= c["upper"]
    if part.candidates_exact:
        assert all(c["upper"] is not None for c in part.classes)
    exact = [c for c in part.classes if c["exact"]]
    assert exact, "the small classes are counted within 2 s"
    for c in sorted(exact, key=lambda c: c["count"])[:3]:     # the smallest: cheap to recount
        b, k = (int(x) for x in c["reply"].split(","))
        again = FeedbackLog.parse(MM1010, ["0123456789:2,3", f"0011223344:{b},{k}"])
        assert consistent(again, Query(count=True, limit=0)).count == c["count"]
    if not part.complete:
        assert part.stopped == "time" and part.scores is None


def test_an_expired_deadline_decides_only_the_guess_itself():
    log = FeedbackLog.parse(MM1010, ["0123456789:2,3"])
    part = api.partition("0123456789", log, members=False, deadline=Deadline(0))
    assert part.stopped == "time" and not part.complete
    assert [c for c in part.classes if c["exact"]] == []     # 0123456789 is not a candidate
    assert all(c["count"] == 0 for c in part.classes)


def test_cli_partition_beyond_the_listing(capsys):
    """``cbsolve partition`` after replies on 8 of 26 letters (2e11 codes): the counted classes,
    exit 0 at its time limit, the cut said in the JSON."""
    import json

    from cbsolve.cli import main

    code = main(["partition", "IJKLMNOP", "ABCDEFGH:1,1", "IJKLMNOA:0,2", "--variant",
                 "mastermind", "--length", "8", "--letters", "26", "--repeats",
                 "--time-limit", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["listed"] is False and data["best"] is None
    assert data["guess"] == "IJKLMNOP" and data["candidate"] is False
    if data["complete"]:
        assert sum(c["count"] for c in data["classes"]) == data["candidates"]
    else:
        assert data["stopped"] == "time" and data["time_limit_hit"] is True


def test_empty_reply_classes_are_counted_without_a_diagnosis(monkeypatch):
    """Each class the guess cannot get (most of them) is an inconsistent log: counting it ran
    the diagnosis of an inconsistent log, whose solver fallback imports OR-Tools (about a
    second, after a Ctrl-C too: the import outlasted the grace period and was cut in a native
    module's initialisation, a traceback). A count needs none."""
    import cbsolve.consistency.diagnose as diagnose

    def no_diagnosis(*args, **kwargs):
        raise AssertionError("a class count diagnosed its empty class")

    monkeypatch.setattr(diagnose, "diagnose", no_diagnosis)
    _, log = hidden_secret_log(MM1010, 6, np.random.default_rng(1))
    part = api.partition("0011223344", log, members=False, deadline=Deadline(None))
    assert isinstance(part, CountedPartition) and part.complete
    from cbsolve.advisor.service import PositionService

    # the secret 0011223344 would have scored 1 bull against the first guess
    empty = FeedbackLog.parse(MM1010, ["0123456789:2,3", "0011223344:10,0"])
    assert PositionService(MM1010).counted(empty, Deadline(None), backend="native") == (0, True)
