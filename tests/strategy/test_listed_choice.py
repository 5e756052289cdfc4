"""A small position's heuristic choice through the kernel's list-based entries (no NumPy) is
the array path's: the same guess, the same secrets left and the same partition summary, for
every heuristic and guess pool, on random positions of many variants; the position service
gives the same advice either way."""
import numpy as np
import pytest
from hypothesis import given, settings
from testkit import hidden_secret_log, variant_and_log

from cbsolve.advisor import PositionService
from cbsolve.consistency.native import consistent_indices
from cbsolve.runtime.deadline import Deadline
from cbsolve.errors import InconsistentLog
from cbsolve.game.feedback import FeedbackLog
from cbsolve.strategy import choose_next
from cbsolve.strategy.listed import listed_choice
from cbsolve.strategy.partition import LISTED_PAIRS
from cbsolve.strategy.rules import STRATEGIES
from cbsolve.game.variant import Variant

CHOSEN = [s for s in STRATEGIES if s != "random"]


@given(variant_and_log(max_entries=3))
@settings(max_examples=60, deadline=None)
def test_the_listed_choice_is_choose_nexts_on_random_positions(log):
    left = consistent_indices(log)
    if not left.size:
        with pytest.raises(InconsistentLog) as light:
            listed_choice(log, "minimax")
        with pytest.raises(InconsistentLog) as heavy:
            choose_next(log, "minimax")
        assert light.value.conflict == heavy.value.conflict
        return
    for strategy in CHOSEN:
        for guesses in ("all", "candidates"):
            light = listed_choice(log, strategy, guesses)
            if log.space.size * left.size > LISTED_PAIRS:
                assert light is None                    # the array path's, in chunks
                continue
            assert light == choose_next(log, strategy, guesses), (strategy, guesses)


GAMES = [("bulls-cows", 1), ("bulls-cows", 2), ("mastermind", 1), ("mastermind", 2),
         ("black-peg", 1), ("black-peg", 2), ("bulls-cows-no-leading-zero", 1)]


@pytest.mark.parametrize("preset,clues", GAMES)
def test_the_services_advice_is_the_array_paths(preset, clues):
    variant = Variant.preset(preset)
    rng = np.random.default_rng(clues)
    for _ in range(3):
        _, log = hidden_secret_log(variant, clues, rng)
        for strategy in CHOSEN:
            for guesses in ("all", "candidates"):
                service = PositionService(variant, guesses)
                light = service.advise(log, strategy=strategy, deadline=Deadline(None))
                # given the secrets left, the service scores through the NumPy arrays (one
                # guess per symmetry class while the history is short, in chunks)
                heavy = service.advise(log, strategy=strategy, deadline=Deadline(None),
                                       cands=consistent_indices(log))
                a, b = light.to_json(), heavy.to_json()
                assert a.pop("note").split(" (")[0] == b.pop("note").split(" (")[0]
                assert a == b, (preset, log.tokens(), strategy, guesses)
                if strategy != "first" and light.candidates > 2:
                    assert light.note.endswith("(every guess)")     # the list-based path


def test_random_and_large_positions_take_the_array_path():
    log = FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:1,2"])
    assert listed_choice(log, "random") is None                # NumPy's seeded generator
    assert listed_choice(FeedbackLog(Variant.preset("bulls-cows")), "minimax") is None
    big = FeedbackLog.parse(Variant(6, "0123456789", repeats=False), ["012345:1,2"])
    assert listed_choice(big, "minimax") is None               # 151,200 codes x 10^4 secrets


def test_every_instruction_set_path_makes_the_same_listed_choice():
    from cbsolve.runtime import isa

    logs = [FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:1,2"]),
            FeedbackLog.parse(Variant.preset("mastermind"), ["1122:1,1"]),
            FeedbackLog.parse(Variant(9, "012", True), ["001122001:3,4", "012012012:2,5"]),
            FeedbackLog.parse(Variant(3, "0123456789ABCDEFGHIJKLMNOPQRSTUV", True), ["012:1,0", "345:0,1"])]
    for log in logs:
        for strategy in ("minimax", "expected", "entropy", "parts"):
            chosen = []
            for path in isa.available():
                with isa.use(path):
                    chosen.append(listed_choice(log, strategy))
            assert chosen[0] is not None and chosen == chosen[:1] * len(chosen), strategy
