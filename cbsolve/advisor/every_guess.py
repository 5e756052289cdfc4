"""Every guess of a position up to symmetry, scored by the four heuristics (``cbsolve
partition --all``), through the position service (:meth:`PositionService.partition_table`).

Place in the data flow: the strategy layer's table (:func:`cbsolve.strategy.partition.
partition_table`: the classes by the native union-find, scored in blocks under the deadline)
-> **the rows shown, best first** -> :class:`~.answers.PartitionTable`. A table cut by the
deadline or Ctrl-C shows its best rows scored so far, at most
:data:`~cbsolve.strategy.partition.SHOWN_WHEN_CUT`, and says why it stopped.
"""
from __future__ import annotations

from ..runtime.deadline import Deadline, stop_requested
from ..errors import unknown_name
from ..game.feedback import FeedbackLog
from ..strategy.partition import SCORES, SHOWN_WHEN_CUT, partition_table as score_every_guess
from .answers import PartitionTable


def partition_table(log: FeedbackLog, sort: str, deadline: Deadline) -> PartitionTable:
    """The table of every guess after ``log``, best first by ``sort``; InconsistentLog when
    no secret is left."""
    if sort not in SCORES:
        raise unknown_name("sort", sort, tuple(SCORES))
    table = score_every_guess(log, sort, deadline=deadline)
    # a complete table's rows are formatted under the same deadline (604,800 rows take
    # seconds): cut there, it shows the best rows formatted, as a cut table does
    rows = table.ranked(None if table.complete else SHOWN_WHEN_CUT,
                        deadline=deadline if table.complete else None)
    stopped = None
    if not table.complete or len(rows) < table.scored:     # a time limit or Ctrl-C
        stopped = "interrupted" if stop_requested() else "time"
        # cut while formatting a complete table: its best rows, as a cut table shows (the
        # 560,000 rows formatted by then took 2 s to print after a Ctrl-C)
        rows = rows[:SHOWN_WHEN_CUT]
    return PartitionTable(table.candidates, sort, rows, table.complete, table.scored,
                          table.total, stopped, deadline.seconds)
