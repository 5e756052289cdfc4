"""cbsolve partition: reply classes of one guess, and the table of every guess up to symmetry."""
import json

import pytest

from cbsolve.cli import main
from cbsolve.consistency import Query, consistent
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.strategy.partition import partition
from cbsolve.game.variant import Variant


def run_json(capsys, *args):
    code = main(["partition", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_knuth_first_guess_table(capsys):
    # Knuth 1977, "The computer as Master Mind": the largest class after each first guess of
    # Mastermind 4/6 is 625 (1111), 317 (1112), 256 (1122), 276 (1123), 312 (1234).
    code, data = run_json(capsys, "--all", "--variant", "mastermind")
    assert code == 0 and data["candidates"] == 1296
    largest = {row["guess"]: row["minimax"] for row in data["guesses"]}
    assert largest == {"1111": 625, "1112": 317, "1122": 256, "1123": 276, "1234": 312}
    assert data["guesses"][0]["guess"] == "1122"          # best minimax first
    assert sum(row["equivalent"] for row in data["guesses"]) == 1296


def test_classes_agree_with_the_consistency_filter():
    v = Variant.preset("bulls-cows")
    entries = ["0123:1,2", "4567:0,1"]
    part = partition(FeedbackLog.parse(v, entries), "0145")
    assert sum(c["count"] for c in part.classes) == part.candidates == 108
    for c in part.classes:   # each class is what the log plus that reply leaves
        result = consistent(FeedbackLog.parse(v, [*entries, f"0145:{c['reply']}"]),
                            Query(count=True, limit=None), backend="native")
        assert result.count == c["count"] and sorted(result.secrets) == c["members"]
    assert part.scores["minimax"] == part.largest
    assert part.best["minimax"] <= part.scores["minimax"]
    assert part.best["entropy"] >= part.scores["entropy"]


def test_cli_list_and_errors(capsys):
    code, data = run_json(capsys, "1122", "1234:0,0", "--variant", "mastermind", "--list")
    assert code == 0 and data["candidates"] == 16 and not data["candidate"]
    assert data["classes"] == [{"reply": "0,0", "count": 16,
                                "members": data["classes"][0]["members"]}]
    assert main(["partition", "0123", "0123:1,2", "4567:0,2"]) == 1
    assert main(["partition", "01234"]) == 2
    assert "length 5" in capsys.readouterr().err
    assert main(["partition"]) == 2


@pytest.mark.parametrize("sort", ["expected", "entropy", "parts"])
def test_table_sorted_by_the_heuristic(capsys, sort):
    code, data = run_json(capsys, "--all", "--sort", sort, "--variant", "mastermind")
    values = [row[sort] for row in data["guesses"]]
    assert values == sorted(values, reverse=sort in ("entropy", "parts"))


def test_a_table_cut_part_way_ranks_the_guesses_scored_so_far(monkeypatch):
    """The deadline is looked at between blocks of guesses: cut after two blocks, the table
    holds those guesses, ranked as the whole table ranks them, and says how many of how many."""
    import cbsolve.strategy.partition as module
    from cbsolve.game import scoring

    log = FeedbackLog.parse(Variant.preset("mastermind"), ["1122:1,0"])
    whole = module.partition_table(log)
    assert whole.complete and whole.scored == whole.total > 12
    blocks = []
    real = scoring.partition_counts

    def counted(*args, **kwargs):
        blocks.append(1)
        return real(*args, **kwargs)

    class AfterTwoBlocks:                      # a deadline that expires once two are scored
        def expired(self):
            return len(blocks) >= 2

    monkeypatch.setattr(scoring, "partition_counts", counted)
    cut = module.partition_table(log, deadline=AfterTwoBlocks(),
                                 block_pairs=6 * whole.candidates)     # six guesses a block
    assert (cut.scored, cut.total, cut.complete) == (12, whole.total, False)
    rows = cut.ranked()
    by_guess = {row["guess"]: row for row in whole.ranked()}
    assert all(by_guess[row["guess"]] == row for row in rows)          # the same scores
    assert rows == sorted(rows, key=lambda r: (r["minimax"], r["expected"], -r["entropy"],
                                               -r["parts"], not r["candidate"], r["guess"]))
    assert cut.ranked(top=3) == rows[:3]


def test_rows_formatted_under_an_expired_deadline_are_the_best_first_block():
    """A complete table's rows are formatted in blocks that watch the deadline: cut after the
    first block, they are the ranking's first rows, as the whole ranking has them."""
    import cbsolve.strategy.partition as module

    table = module.partition_table(FeedbackLog.parse(Variant.preset("mastermind"), ["1122:1,0"]))
    every = table.ranked(block=5)
    cut = table.ranked(deadline=Deadline(0.0), block=5)
    assert len(every) == table.scored > 5 and cut == every[:5]


def test_a_large_positions_classes_come_from_the_union_find_that_watches_the_deadline(
        monkeypatch):
    """`partition --all --time-limit 3` on Mastermind 8x8 after a reply took 6 s: the NumPy
    orbits of 16.7 M codes look at the deadline only between steps of seconds each. Above
    NATIVE_ORBITS_FROM codes the table's classes come from the native union-find (chunks of
    0.05 s between looks, the position service's way); they are the same classes."""
    import numpy as np

    import cbsolve.strategy.partition as module
    from cbsolve.game.symmetry import Symmetry

    log = FeedbackLog.parse(Variant(6, "0123456789", repeats=False), ["012345:1,2"])
    history = [e.guess for e in log]
    _, rep, _ = Symmetry(log.variant).orbit_map(history, with_perms=False)
    reps, sizes = np.unique(rep, return_counts=True)

    def whole_space_orbits(self, history, codes_idx=None, **kwargs):
        assert codes_idx is not None, "the whole space's orbits in NumPy"
        return real(self, history, codes_idx, **kwargs)

    real = Symmetry.orbit_map
    monkeypatch.setattr(Symmetry, "orbit_map", whole_space_orbits)
    table = module.partition_table(log, deadline=Deadline(None))
    assert table.total == reps.size and table.complete
    by_code = dict(zip(table.codes.tolist(), table.equivalent.tolist(), strict=True))
    assert by_code == dict(zip(reps.tolist(), sizes.tolist(), strict=True))
