"""The exact move from a position (cbsolve/strategy/exact.py) under its caller's deadline."""
from __future__ import annotations

from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.strategy import exact
from cbsolve.game.variant import Variant


def test_the_reply_matrix_is_not_built_past_the_deadline():
    # `next --strategy optimal --objective expected --time-limit 10` on Logik 5x8 after two
    # replies took 22 s: the whole game's reply matrix (32,768 rows) was built first, with no
    # deadline, for a search of 135 secrets
    logik = Variant.from_options("mastermind", length=5, digits=8)
    log = FeedbackLog.parse(logik, ["11234:1,1", "15267:2,2"])
    exact._SEARCHES.clear()
    move, why = exact.exact_move(log, deadline=Deadline(0))
    assert move is None and why
    assert not exact._SEARCHES          # a set-up cut short is not kept for the next move


def test_a_small_game_keeps_its_search_from_move_to_move():
    mm = Variant.preset("mastermind")
    log = FeedbackLog.parse(mm, ["1122:1,0"])
    exact._SEARCHES.clear()
    move, _ = exact.exact_move(log, deadline=Deadline(None))
    assert move is not None and move.secrets == 256
    search = exact.cached_search(mm)
    assert exact.cached_search(mm) is search and search.setup_stopped is None
