"""The exact searches' options: one object, checked once, for both objectives.

Place in the data flow: the entry points (``solve_worst``, ``solve_expected``) -> **checked
options** -> the set-up (:mod:`.setup`: where the replies come from) and the kernels. The
entry points keep their keyword arguments; this is where they become one validated value: the
guess pool (:class:`cbsolve.game.guess_pool.GuessPool`), the depth cap, the prunings switched off,
the workers (:mod:`cbsolve.runtime.workers`), the memory budget and the plan it allows (:mod:`.memory`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..game.codes import CodeSpace
from ..errors import InvalidVariant, SpaceTooLarge, unknown_name
from ..game.guess_pool import GuessPool, guess_pool
from ..game.variant import Variant
from ..runtime.workers import resolve
from . import memory

#: The transposition table's default entries (the expected-case kernel; its memory counts).
MEMO_ENTRIES = 8_000_000


@dataclass(frozen=True)
class SearchOptions:
    """What an exact search was asked for, checked: the guess pool, the depth cap (None: none),
    the prunings switched on or off by name, the number of workers, the memory budget (bytes)
    and the plan it allows (the reply matrix, or replies scored on the fly)."""

    objective: str
    guesses: GuessPool
    max_depth: int | None
    prune: dict[str, bool] = field(default_factory=dict)
    workers: int = 1
    budget: int = 0
    plan: memory.Plan | None = None

    @classmethod
    def checked(cls, variant: Variant, objective: str, prunings: tuple[str, ...], *,
                guesses: str = "all", max_depth: int | None = None, prune: dict | None = None,
                workers: int | None = None, memory_budget: str | int | None = None,
                replies: str = "auto", memo_entries: int = MEMO_ENTRIES) -> SearchOptions:
        """Validate a search's arguments (one clear error each, exit 2 at the CLI) and plan its
        memory; ``prunings`` are the names the objective's kernel can switch off."""
        pool = guess_pool(guesses)
        prune = dict(prune or {})
        bad = sorted(set(prune) - set(prunings))
        if bad:
            raise unknown_name("pruning", bad[0], prunings)
        if variant.response_slots > 256:
            raise SpaceTooLarge(f"code length {variant.length} too large for the exact search "
                                "(replies must fit in a byte: at most 14)")
        if max_depth is not None and (isinstance(max_depth, bool) or not isinstance(max_depth, int)
                                      or max_depth < 1):
            raise InvalidVariant(f"max depth must be a positive integer, got {max_depth!r}")
        workers = resolve(workers)
        budget = memory.budget(memory_budget)
        plan = memory.check(variant.describe(), CodeSpace(variant).size, objective, budget,
                            workers, replies, memo_entries)
        return cls(objective, pool, max_depth, prune, workers, budget, plan)
