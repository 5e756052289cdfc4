"""The position service (cbsolve/advisor): instant openings, one objective through a whole
game, provenance under a deadline."""
from __future__ import annotations

import json

import numpy as np
import pytest

from cbsolve.advisor import PositionService
from cbsolve.advisor.choose import choose, guess_rows
from cbsolve.advisor.opening import opening
from cbsolve.cli import main
from cbsolve.game.codes import CodeSpace
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score
from cbsolve.strategy.heuristics import SCORED, Chooser
from cbsolve.game.variant import Variant

MM = Variant.preset("mastermind")
BC = Variant.preset("bulls-cows")


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def play_out(service: PositionService, secret: str, objective: str) -> int:
    """Guesses a game needs when every guess is the service's optimal advice."""
    v, space = service.variant, service.space
    log = FeedbackLog(v)
    for n in range(1, 20):
        advice = service.advise(log, strategy="optimal", objective=objective)
        assert advice.provenance.honoured, advice.provenance.note
        bulls, cows = score(v, space.parse(secret), space.parse(advice.guess))
        if bulls == v.length:
            return n
        log.add(advice.guess, bulls, cows)
    raise AssertionError("no end")


def secrets_of(variant, sample=None, seed=28):
    space = CodeSpace(variant)
    idx = np.arange(space.size)
    if sample is not None:
        idx = np.random.default_rng(seed).choice(idx, sample, replace=False)
    return space.format_many(space.codes[np.sort(idx)])


def test_following_optimal_worst_needs_knuths_five_on_mastermind():
    # Knuth 1977 ("The computer as Master Mind", J. Recreational Math. 9(1)): 5 guesses
    service = PositionService(MM)
    worst = max(play_out(service, s, "worst") for s in secrets_of(MM))
    assert worst == 5


def test_following_optimal_expected_totals_koyama_lais_5625_on_mastermind():
    # Koyama & Lai 1993 (J. Recreational Math. 25(4)): 5625 guesses over the 1296 secrets
    service = PositionService(MM)
    assert sum(play_out(service, s, "expected") for s in secrets_of(MM)) == 5625


def test_following_optimal_worst_needs_seven_on_bulls_and_cows_sample():
    # Bulls & Cows 4/10: 7 guesses in the worst case (the certified tree in models/)
    service = PositionService(BC)
    assert max(play_out(service, s, "worst") for s in secrets_of(BC, sample=300)) <= 7


@pytest.mark.slow
def test_following_optimal_worst_needs_seven_on_every_bulls_and_cows_secret():
    service = PositionService(BC)
    assert max(play_out(service, s, "worst") for s in secrets_of(BC)) == 7


def test_leaving_the_tree_keeps_the_objective():
    # from 1123:1,1 "optimal" switched to the expected objective and needed 6 in all;
    # the worst-case search from there proves 4 more suffice, and the advice is its guess
    log = FeedbackLog.parse(MM, ["1111:0,0", "2233:1,1"])     # off the certified tree
    advice = PositionService(MM).advise(log, strategy="optimal", objective="worst")
    assert advice.source == "exact" and advice.provenance.honoured
    from cbsolve.search.position import Position, solve_from

    best = solve_from(Position.from_log(log), "worst", certificate=False)
    assert advice.needed.exact == best.upper == advice.optimum["worst"]
    assert advice.note.startswith("the game left the certified tree mastermind-worst.json")


@pytest.mark.parametrize("variant", [MM, BC, Variant(3, "0123", repeats=True),
                                     Variant(4, "012345", repeats=True, feedback="bulls")],
                         ids=["mastermind", "bulls-cows", "3x4", "black-peg-4x6"])
@pytest.mark.parametrize("strategy", SCORED)
def test_the_closed_form_opening_is_the_kernels_choice(variant, strategy):
    code, sizes, _ = opening(variant, strategy)
    space = CodeSpace(variant)
    chooser = Chooser(variant, strategy)
    assert space.format(code) == space.format(space.codes[chooser.choose(
        np.arange(space.size))])
    assert sum(sizes) == space.size


def test_opening_of_large_games_lists_no_code():
    for variant in (Variant.from_options("mastermind", length=8, digits=8),
                    Variant.from_options(None, length=12, letters=26, repeats=True)):
        advice = PositionService(variant).advise(FeedbackLog(variant), strategy="minimax")
        assert advice.source == "opening" and advice.candidates == CodeSpace(variant).size


def test_a_deadline_cut_heuristic_is_labelled_best_so_far():
    v = Variant.from_options("mastermind", length=5, digits=8)
    log = FeedbackLog.parse(v, ["11223:1,1"])
    service = PositionService(v)
    cands = service.candidates(log)
    chooser = Chooser(v, "minimax", use_matrix=False)
    rows, _ = guess_rows(chooser, service.classes, (), cands, Deadline(None))
    cut = choose(chooser, cands, rows, Deadline(0))
    assert cut.index is None and not cut.complete and cut.scored == 0
    advice = service.advise(log, strategy="minimax", deadline=Deadline(0))
    assert advice.source == "heuristic" and not advice.provenance.complete
    assert advice.provenance.stopped == "time" and "no guess scored" in advice.note
    full = service.advise(log, strategy="minimax")
    assert full.provenance.complete and full.provenance.stopped is None


def test_the_chunked_choice_is_the_kernels():
    import cbsolve.advisor.choose as ch

    v = MM
    for strategy in SCORED:
        log = FeedbackLog.parse(v, ["1122:1,0"])
        service = PositionService(v)
        cands = service.candidates(log)
        chooser = Chooser(v, strategy, use_matrix=False)
        history = (service.space.index_of(log[0].guess),)
        got = ch.choose(chooser, cands, np.arange(service.space.size), Deadline(None),
                        chunk_pairs=5_000)      # 19 guesses a chunk, 69 chunks
        assert got.complete and got.index == chooser.choose(cands, history)


def test_ctrl_c_inside_a_chunk_keeps_the_chunks_done(monkeypatch):
    """Under load a chunk can outlast the CLI's grace after Ctrl-C, whose KeyboardInterrupt
    then lands inside it: the best of the chunks finished is the answer (incomplete); with
    none finished, none (the service then answers as at an early deadline)."""
    import cbsolve.advisor.choose as ch

    pairs = 5_000
    log = FeedbackLog.parse(MM, ["1122:1,0"])
    service = PositionService(MM)
    cands = service.candidates(log)
    rows = np.arange(service.space.size)
    step = pairs // cands.size
    chooser = Chooser(MM, "minimax", use_matrix=False)
    first = ch.choose(chooser, cands, rows[:step], Deadline(None), pairs)   # the first chunk
    best_of, calls = chooser.best_of, []

    def interrupted_in_the_second(c, chunk):
        calls.append(chunk.size)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return best_of(c, chunk)

    monkeypatch.setattr(chooser, "best_of", interrupted_in_the_second)
    got = ch.choose(chooser, cands, rows, Deadline(None), pairs)
    assert (got.index, got.scored, got.complete) == (first.index, step, False)
    calls[:] = [0]                                     # the next call is the second: raises
    got = ch.choose(chooser, cands, rows, Deadline(None), pairs)
    assert (got.index, got.scored, got.complete) == (None, 0, False)


def test_cli_next_objective_and_provenance(capsys):
    code, text, _ = run(capsys, "next", "--variant", "mastermind", "--strategy", "optimal",
                        "--objective", "expected", "--json")
    data = json.loads(text)
    assert code == 0 and data["source"] == "tree" and data["objective"] == "expected"
    assert data["honoured"] and data["needed"]["exact"] == 5625   # Koyama & Lai 1993
    code, _, err = run(capsys, "next", "--objective", "best")
    assert code == 2 and "objective" in err and len(err.strip().splitlines()) == 1


def test_cli_next_time_limit_labels_the_answer(capsys):
    code, text, _ = run(capsys, "next", "11223:1,1", "--variant", "mastermind", "--length", "5",
                        "--digits", "8", "--time-limit", "1e-9", "--json")
    data = json.loads(text)
    assert code == 0 and data["complete"] is False and data["stopped"] == "time"
    assert data["guess"] is not None and data["source"] == "heuristic"


@pytest.mark.parametrize("variant, guess", [(MM, "1123"), (BC, "0123"),
                                            (Variant(4, "012345", repeats=True,
                                                     feedback="bulls"), "0011")])
def test_the_opening_partition_in_closed_form_is_the_scorers(variant, guess):
    from cbsolve.strategy.partition import partition

    log = FeedbackLog(variant)
    closed = PositionService(variant).partition(log, guess)
    listed = partition(log, guess)
    assert closed.to_json() == listed.to_json()


def test_optimal_never_reports_less_than_bounds_proves(capsys):
    # `optimal --objective worst --length 6 --digits 10 --time-limit 50` said
    # [5, ?] where `bounds` proves 6 (the first guess's partition in closed form)
    from cbsolve.bounds import compute_bounds

    proved = compute_bounds(Variant.from_options(None, length=6, digits=10), search=False,
                            strategies=False, deep=False).worst.lower
    code, text, _ = run(capsys, "optimal", "--objective", "worst", "--length", "6", "--digits",
                        "10", "--time-limit", "1", "--json")
    data = json.loads(text)
    assert code == 0 and not data["proved"] and proved == 6 and data["lower"] >= proved
    assert any("from bounds" in n for n in data["notes"])


def test_the_spread_order_scores_every_guess_once_and_chooses_as_the_kernel():
    import cbsolve.advisor.choose as ch

    rows = ch.spread_first(MM.n_symbols ** MM.length, spread=16)
    assert sorted(rows.tolist()) == list(range(1296)) and rows[1] == 81
    log = FeedbackLog.parse(MM, ["1122:1,0", "1344:0,2", "3516:1,1"])
    service = PositionService(MM)
    cands = service.candidates(log)
    chooser = Chooser(MM, "minimax", use_matrix=False)
    got = ch.choose(chooser, cands, rows, Deadline(None), chunk_pairs=20_000)
    assert got.complete and got.index == chooser.choose(cands)


def test_bounds_uses_the_certified_trees(capsys):
    # Mastermind 4/6: total 5625 (Koyama & Lai 1993), worst 5 (Knuth 1977); Bulls & Cows 4/10:
    # worst 7 and total 26274, the certified trees in models/ (verified by
    # tests/test_certified_models.py)
    for args, worst, total in ((["--variant", "mastermind"], 5, 5625), ([], 7, 26274)):
        code, text, _ = run(capsys, "bounds", *args, "--no-search", "--no-strategies",
                            "--shallow", "--json")
        data = json.loads(text)
        assert code == 0 and data["worst"]["exact"] == worst
        assert data["expected"]["exact"] == total
        assert "certified tree" in data["expected"]["lower_method"]


def test_cli_partition_time_limit_leaves_out_the_best(capsys):
    code, text, _ = run(capsys, "partition", "0145", "0123:1,2", "--time-limit", "1e-9",
                        "--json")
    data = json.loads(text)
    assert code == 0 and data["best"] is None and data["best_complete"] is False
    assert sum(c["count"] for c in data["classes"]) == data["candidates"]


def test_bot_plays_the_objective_it_is_given():
    from cbsolve.certificates.certified import shipped_tree
    from cbsolve.play.bot import Bot

    for objective in ("worst", "expected"):
        bot = Bot(MM, strategy="optimal", seed=1, objective=objective)
        assert bot.handle("guess") == shipped_tree(MM, objective)["root"]["guess"]


@pytest.mark.parametrize("variant", [Variant.from_options(None, length=6, digits=10),
                                     Variant.preset("mastermind"),
                                     Variant(5, "12345678", repeats=True)],
                         ids=["bulls-cows-6-10", "mastermind", "logik"])
@pytest.mark.parametrize("objective", ["worst", "expected"])
def test_the_openings_needed_interval_is_the_closed_form_bound_of_bounds(variant, objective):
    """`next` on an opening and `bounds` answer the same question the same way: the lower end
    of the guesses still needed is the one-level partition bound in closed form (6/10 said
    [5, ?] from counting alone where `bounds` proves 6), or the atlas's proved lower end for
    the game where it is higher (as `bounds` answers)."""
    from cbsolve.bounds.adaptive import closed_form_bound
    from cbsolve.bounds.known import atlas_ends
    from cbsolve.game.scoring import possible_responses

    advice = PositionService(variant).advise(FeedbackLog(variant), strategy="minimax",
                                             objective=objective)
    proved = closed_form_bound(variant, len(possible_responses(variant)),
                               CodeSpace(variant).size)
    closed = proved.worst if objective == "worst" else proved.total
    atlas = atlas_ends(variant, objective)
    assert advice.provenance.source == "opening"
    assert advice.needed.lower == max(closed, atlas.lower if atlas is not None else closed)


@pytest.mark.parametrize("variant", [Variant.from_options(None, length=5, digits=10),
                                     Variant(5, "12345678", repeats=True)],
                         ids=["bulls-cows-5-10", "logik"])
@pytest.mark.parametrize("objective", ["worst", "expected"])
def test_the_openings_upper_end_is_the_best_tree_that_bounds_uses(variant, objective):
    """The opening's interval said [6, ?] on Bulls & Cows 5/10 where `bounds` proves [6, 8]
    at once (the best tree shipped for the game, which `cbsolve verify` replays): no wider
    than what `bounds` proves under a spent deadline."""
    from cbsolve.api import bounds

    advice = PositionService(variant).advise(FeedbackLog(variant), strategy="minimax",
                                             objective=objective)
    proved = bounds(variant, deadline=Deadline(0.0))
    interval = proved.worst if objective == "worst" else proved.expected
    assert advice.provenance.source == "opening" and advice.needed.upper is not None
    assert interval.lower <= advice.needed.lower <= advice.needed.upper <= interval.upper
    assert advice.needed.upper_method == interval.upper_method


@pytest.mark.parametrize("variant, lines", [
    (BC, ["4561:0,1", "0123:4,0"]),
    (MM, ["1135:0,2", "3456:4,0", "1111:0,0"]),          # entries after the win that hold
    (Variant.from_options("mastermind", length=10, digits=10), ["1234567890:10,0"]),
], ids=["bulls-cows", "mastermind", "mastermind-10x10"])
def test_a_won_game_needs_no_more_guesses(variant, lines):
    # `next 0123:4,0` said "the secret is 0123 (play it)", one more guess needed (on 10x10:
    # the objective "not proved"); the game ended at the reply with every bull
    log = FeedbackLog.parse(variant, lines)
    won = next(k for k, e in enumerate(log, 1) if e.bulls == variant.length)
    advice = PositionService(variant).advise(log, strategy="optimal", objective="worst")
    assert advice.solved == won and advice.guess == log[won - 1].text
    assert (advice.needed.lower, advice.needed.upper) == (0, 0) and advice.provenance.honoured
    assert advice.to_json()["solved"] == won


def test_a_won_game_with_a_contradicting_reply_is_diagnosed():
    from cbsolve.errors import InconsistentLog

    log = FeedbackLog.parse(BC, ["0123:4,0", "4567:1,0"])
    with pytest.raises(InconsistentLog):
        PositionService(BC).advise(log)


def test_an_opening_with_too_many_patterns_lists_none_of_them(monkeypatch):
    # 64 of 26 letters: `next` listed the 1.6 million guess patterns (6 s, past --time-limit 3)
    # only to find their closed forms too costly; their count alone says so
    from cbsolve.game import patterns
    from cbsolve.advisor.opening import opening_partition

    def listed(variant):
        raise AssertionError("patterns listed")

    monkeypatch.setattr(patterns, "guess_patterns", listed)
    huge = Variant.from_options(None, length=64, letters=26, repeats=True)
    assert opening(huge, "minimax") is None
    assert opening_partition(huge, CodeSpace(huge).parse("AB" * 32)) is None
