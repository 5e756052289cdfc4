"""The exact search from a position as the service's advice (step 3 of
:mod:`.service`): the worst case by :func:`cbsolve.search.position.solve_from`, the expected
case by :func:`cbsolve.strategy.exact.exact_move`, within the advice's share of the deadline
(:data:`cbsolve.runtime.time_policy.ADVICE_EXACT_SHARE`); its advice carries the optimum it proved.
"""
from __future__ import annotations

from ..runtime import time_policy
from ..runtime.deadline import Deadline, stop_requested
from ..errors import CbsolveError
from . import answers as A

OPTIMAL = "optimal"
#: Largest remaining set the exact searches are asked about for advice (within the deadline's
#: share): the expected case as :data:`cbsolve.strategy.exact.EXACT_SECRETS` (Bulls & Cows:
#: 1.8 s at 720 secrets); the worst case is faster (Bulls & Cows after 0124:0,2, 1,260
#: secrets, 3.0 s; after 0124:1,1, 720, 0.3 s; Mastermind after 1123:1,1, 230, 0.2 s).
EXACT_SECRETS = {"worst": 1500, "expected": 500}


def exact_advice(service, log, cands, objective, remaining, deadline):
    """(advice from the exact search for ``objective``, "") or (None, why not)."""
    n = int(cands.size)
    if n > EXACT_SECRETS[objective]:
        return None, (f"{n} secrets remain, more than the {EXACT_SECRETS[objective]} "
                      f"searched exactly for the {objective} case")
    # untimed, the exact search still gets a bounded share: advice must come
    part = deadline.share(time_policy.ADVICE_EXACT_SHARE,
                          untimed=time_policy.ADVICE_EXACT_SECONDS * 10)
    if part.expired():
        return None, "no time left for an exact search"
    if objective == "worst":
        found = _exact_worst(log, service.guesses, part)
    else:
        found = _exact_expected(log, service.guesses, part)
    if found is None:
        stopped = ("interrupted" if stop_requested() else
                   f"not finished within {part.seconds:g} s")
        return None, f"the exact {objective}-case search from here was {stopped}"
    guess, total, worst = found
    value = worst if objective == "worst" else total
    note = (f"exact optimum from here: {worst} more guesses at worst"
            if objective == "worst" else
            f"exact optimum from here: {total / n:.3f} more guesses on average, "
            f"{worst} at worst")
    return service.form.advice(guess, OPTIMAL, remaining, cands, objective,
                               A.Provenance(A.EXACT, objective, True, note=note),
                               needed=(value, value), how="exact search",
                               optimum={"objective": objective, "secrets": n, "total": total,
                                        "average": total / n, "worst": worst}), ""


def _exact_worst(log, guesses, deadline: Deadline):
    from ..search.position import Position, solve_from

    try:
        position = Position.from_log(log)
        result = solve_from(position, "worst", guesses=guesses, deadline=deadline,
                            certificate=False)
    except CbsolveError:
        return None
    except KeyboardInterrupt:
        return None
    if not result.proved or result.tree is None:
        return None
    return result.tree["root"]["guess"], int(result.total), int(result.upper)


def _exact_expected(log, guesses, deadline: Deadline):
    from ..strategy.exact import exact_move     # the exact searches: where they answer

    try:
        move, _ = exact_move(log, guesses, deadline=deadline)
    except KeyboardInterrupt:
        return None
    return None if move is None else (move.guess, move.total, move.worst)
