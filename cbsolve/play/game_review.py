"""Grading whole games move by move (``cbsolve review``): each move's candidates and its regret
in both objectives, per game and over all games.

Place in the data flow: :class:`~.transcripts.Transcript` (a checked game with its candidate
sets), one run :class:`~cbsolve.runtime.deadline.Deadline` and a per-move budget ->
:class:`MoveReview` per move, :class:`GameReview` per game, :func:`summarise` over them.

Definitions, over the candidate set S before a move, any code of the variant a guess, the final
guess counted: V({s}) = 1, V_g(S) = 1 + max over replies r other than the win of V(S_r),
V(S) = min_g V_g(S); T({s}) = 1, T_g(S) = |S| + sum over r other than the win of T(S_r),
T(S) = min_g T_g(S). A move's regret is ``worst`` = V_g(S) - V(S) and ``expected`` =
(T_g(S) - T(S)) / |S|. Both come from the position service's review
(:meth:`cbsolve.advisor.PositionService.review`), which is the one engine: exact where the
position is solved within the move's budget, else proved bounds with their provenance.

The move's budget is cut from the run's Deadline (the smaller of the two); the worst-case
review has half of it, the expected-case review what is left. When the run's Deadline expires
or Ctrl-C stops it, the moves not reached are left out and the game says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..runtime.deadline import Deadline, stop_requested
from ..errors import CbsolveError
from ..game.feedback import FeedbackLog
from .transcripts import Transcript
from ..game.rule import score

OBJECTIVES = ("worst", "expected")


@dataclass
class MoveReview:
    """One move: the candidates before and after it, whether the guess could be the secret,
    which earlier entries it contradicts, and its regret in each objective (exact value, or
    None with proved bounds)."""

    number: int
    guess: str
    reply: str
    candidates_before: int
    candidates_after: int
    candidate: bool
    contradicted: list[int]
    regret: dict[str, float | None]
    bounds: dict[str, tuple[float, float | None]]
    known: dict[str, str]
    best_guess: dict[str, str | None]
    method: dict[str, str]
    #: V(S) and T(S) / |S| where known exactly (None otherwise)
    optimum: dict[str, float | None] = field(default_factory=dict)

    @property
    def exact(self) -> bool:
        return all(self.regret[o] is not None for o in OBJECTIVES)

    def to_json(self) -> dict:
        return {"move": self.number, "guess": self.guess, "reply": self.reply,
                "candidates_before": self.candidates_before,
                "candidates_after": self.candidates_after, "candidate": self.candidate,
                "contradicts": bool(self.contradicted), "contradicted_entries": self.contradicted,
                "regret": dict(self.regret), "exact": self.exact,
                "regret_bounds": {o: list(b) for o, b in self.bounds.items()},
                "known": dict(self.known), "optimum": dict(self.optimum),
                "best_guess": dict(self.best_guess), "method": dict(self.method)}


@dataclass
class GameReview:
    """One game's moves and totals (see :meth:`to_json`)."""

    line: int
    variant: object
    moves: list[MoveReview]
    turns: int
    solved: bool
    optimum_worst: tuple[int | None, bool]     # V of the start (value, exact)
    reviewed_all: bool = True                 # False: the run's deadline or Ctrl-C came first
    extra: dict = field(default_factory=dict)

    def totals(self) -> dict[str, float | None]:
        """Summed regret per objective; None unless every move's is exact."""
        out = {}
        for o in OBJECTIVES:
            values = [m.regret[o] for m in self.moves]
            out[o] = (None if not self.reviewed_all or any(v is None for v in values)
                      else float(sum(values)))
        return out

    def total_bounds(self) -> dict[str, list]:
        out = {}
        for o in OBJECTIVES:
            lows = [m.bounds[o][0] for m in self.moves]
            highs = [m.bounds[o][1] for m in self.moves]
            high = None if not self.reviewed_all or None in highs else float(sum(highs))
            out[o] = [float(sum(lows)), high]
        return out

    def first_mistake(self) -> int | None:
        """The first move whose regret is proved positive in either objective."""
        return next((m.number for m in self.moves
                     if any(m.bounds[o][0] > 0 for o in OBJECTIVES)), None)

    def turns_over_optimum(self) -> int | None:
        value, _ = self.optimum_worst
        return self.turns - value if self.solved and value is not None else None

    def to_json(self) -> dict:
        value, exact = self.optimum_worst
        return {"line": self.line, **self.extra, "variant": self.variant.to_dict(),
                "moves": [m.to_json() for m in self.moves], "turns": self.turns,
                "solved": self.solved, "optimum_worst": value, "optimum_worst_exact": exact,
                "turns_over_optimum": self.turns_over_optimum(),
                "regret": self.totals(), "regret_bounds": self.total_bounds(),
                "first_mistake": self.first_mistake(),
                "exact": self.reviewed_all and all(m.exact for m in self.moves),
                "complete": self.reviewed_all}


def review_game(service, game: Transcript, run: Deadline, per_move: float | None) -> GameReview:
    """Every move of ``game`` reviewed with ``service`` (a PositionService of its variant)."""
    log = game.log
    variant, space = log.variant, service.space
    moves: list[MoveReview] = []
    reviewed_all = True
    service.reviewer().prepare(run)         # once per service: not out of a move's budget
    for k, entry in enumerate(log.entries):
        if run.expired():
            reviewed_all = False
            break
        before, after = game.candidates[k], game.candidates[k + 1]
        g = space.index_of(entry.guess)
        earlier = FeedbackLog(variant, log.entries[:k])
        move_budget = run.capped(per_move)
        fields: dict[str, dict] = {"regret": {}, "bounds": {}, "known": {}, "best_guess": {},
                                   "method": {}, "optimum": {}}
        for objective in OBJECTIVES:
            budget = move_budget.part(0.5) if objective == "worst" else move_budget
            for name, value in _reviewed(service, earlier, entry.text, objective,
                                         budget).items():
                fields[name][objective] = value
        moves.append(MoveReview(
            k + 1, entry.text, entry.reply(variant), int(before.size), int(after.size),
            bool(np.isin(g, before)), _contradicted(log, k), **fields))
        if stop_requested():
            reviewed_all = k + 1 == len(log.entries)
            break
    solved = bool(len(log) and log.entries[-1].bulls == variant.length)
    return GameReview(game.line, variant, moves, len(log), solved,
                      _start_optimum(moves, variant), reviewed_all, dict(game.extra))


def _reviewed(service, log, guess, objective, deadline) -> dict:
    """One review's regret (None unless exact), its proved bounds, how it is known, the best
    guess, the method and the position's optimum (exact only)."""
    try:
        r = service.review(log, guess, objective, deadline)
    except CbsolveError as exc:
        return {"regret": None, "bounds": (0.0, None), "known": "none", "best_guess": None,
                "method": f"not reviewed: {exc}", "optimum": None}
    scale = r.candidates if objective == "expected" else 1
    if r.exact and r.regret is not None:
        value = r.regret / scale
        return {"regret": value, "bounds": (value, value), "known": r.known,
                "best_guess": r.best_guess, "method": r.method, "optimum": r.best / scale}
    (cost_lo, cost_hi), (best_lo, best_hi) = r.cost_bounds, r.best_bounds
    low = max(0, cost_lo - best_hi) / scale if cost_lo is not None and best_hi is not None else 0.0
    high = (cost_hi - best_lo) / scale if cost_hi is not None and best_lo is not None else None
    return {"regret": None, "bounds": (float(low), None if high is None else float(high)),
            "known": r.known, "best_guess": r.best_guess, "method": r.method, "optimum": None}


def _contradicted(log: FeedbackLog, k: int) -> list[int]:
    """The earlier entries (numbers from 1) that rule out entry k + 1's guess as the secret."""

    entry, variant = log.entries[k], log.variant
    return [i for i, e in enumerate(log.entries[:k], 1)
            if score(variant, entry.guess, e.guess) != (e.bulls, e.cows)]


def _start_optimum(moves: list[MoveReview], variant) -> tuple[int | None, bool]:
    """V of the start position: the first move's exact review, else the certified worst case
    (the atlas's upper end, exact when its lower end meets it)."""
    if moves and moves[0].optimum["worst"] is not None:
        return int(moves[0].optimum["worst"]), True
    from ..integrations.oracle import certified_worst

    try:
        value, exact, _ = certified_worst(variant, Deadline(5.0))
    except CbsolveError:
        return None, False
    return value, exact


def summarise(games: list[GameReview], bad: list[str], seconds: float,
              stopped: str | None) -> dict:
    """Over all games: counts, exact share, solve rate, mean turns and regret."""
    moves = [m for g in games for m in g.moves]
    exact = [m for m in moves if m.exact]
    out = {"games": len(games), "bad_lines": len(bad), "moves": len(moves),
           "exact_moves": len(exact), "exact_share": len(exact) / len(moves) if moves else None,
           "solved": sum(g.solved for g in games),
           "solve_rate": sum(g.solved for g in games) / len(games) if games else None,
           "mean_turns": float(np.mean([g.turns for g in games])) if games else None}
    for o in OBJECTIVES:
        per_move = [m.regret[o] for m in moves if m.regret[o] is not None]
        per_game = [t[o] for g in games if (t := g.totals())[o] is not None]
        out[f"mean_regret_{o}_per_move"] = float(np.mean(per_move)) if per_move else None
        out[f"mean_regret_{o}_per_game"] = float(np.mean(per_game)) if per_game else None
        out[f"games_exact_{o}"] = len(per_game)
    out.update(seconds=seconds, seconds_per_game=seconds / len(games) if games else None,
               complete=stopped is None, stopped=stopped)
    return out
