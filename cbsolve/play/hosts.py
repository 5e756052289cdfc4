"""Adversarial hosts: a code-maker that never fixes its secret (``cbsolve reply --host``,
``play --mode guess --host``; docs/contract.md, ``reply``).

Such a host keeps the set S of secrets consistent with its replies so far. Asked a guess, it
splits S by the reply each secret would give and answers one of the replies, so it never
contradicts itself (every reply it gives has a secret behind it). Two hosts:

- ``evil`` keeps a largest class (Absurdle's rule). Ties: a reply that is not the win, then
  fewer bulls, then fewer cows.
- ``adversary`` keeps the class whose optimal worst case, V(S_r) (the fewest guesses that
  surely find the secret from there, the final guess counted, any code a guess), is largest:
  against it any guesser needs at least V(S) guesses in all, and the worst-case optimal one
  exactly V(S). V comes from the exact search from the position
  (:func:`cbsolve.search.position.solve_from`, what the position service's ``optimum`` runs
  for a position); a class whose search the deadline stops carries its proved interval, and
  the choice is then labelled inexact (largest lower end, then largest upper end). Ties: the
  larger class, then the ``evil`` order. The win is given only when it is the only reply.
  When the log and the guess follow the certified worst-case tree shipped for the game, its
  subtrees give each class an upper end for free: classes are solved from the highest upper
  end down, and one whose upper end cannot beat the best class solved is left unsolved
  (``beaten``; the choice is still exact). Bulls & Cows 4/10's opening: one search, not 13.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..game.codes import CodeSpace
from ..runtime.deadline import Deadline
from ..errors import CbsolveError, unknown_name
from ..game.feedback import FeedbackLog

HOSTS = ("evil", "adversary")
RULES = {
    "evil": "the largest class of secrets; ties: not the win, then fewer bulls, then fewer cows",
    "adversary": "the class whose optimal worst case is largest; ties: the larger class, then "
                 "not the win, then fewer bulls, then fewer cows; the win only when it is the "
                 "only reply",
}


@dataclass
class ReplyClass:
    """The secrets that would give one reply, and (adversary) their optimal worst case."""

    response: int
    secrets: int
    lower: int | None = None          # proved bounds on V(S_r) (adversary; equal when exact)
    upper: int | None = None
    beaten: bool = False              # not solved: its upper end cannot beat the class chosen

    @property
    def exact(self) -> bool:
        return self.lower is not None and self.lower == self.upper


@dataclass
class HostReply:
    host: str
    guess: str
    bulls: int
    cows: int | None                  # None in bulls-only games
    candidates_before: int
    candidates_after: int
    win: bool
    exact: bool                       # the choice rests on exact values only
    classes: list[ReplyClass] = field(default_factory=list)
    stopped: str | None = None        # "time" when the deadline cut a class's search

    def to_json(self, variant) -> dict:
        out = {"host": self.host, "guess": self.guess, "bulls": self.bulls}
        if self.cows is not None:
            out["cows"] = self.cows
        out.update(win=self.win, candidates_before=self.candidates_before,
                   candidates_after=self.candidates_after, rule=RULES[self.host],
                   exact=self.exact, classes=[_class_json(c, variant, self.host)
                                              for c in self.classes])
        if self.stopped:
            out["stopped"] = self.stopped
        return out


def _class_json(c: ReplyClass, variant, host: str) -> dict:
    out = {"reply": variant.format_response(c.response), "secrets": c.secrets}
    if host == "adversary":
        out.update(worst={"lower": c.lower, "upper": c.upper, "exact": c.exact})
        if c.beaten:
            out["worst"]["beaten"] = True
    return out


def check_host(name: str) -> str:
    if name not in HOSTS:
        raise unknown_name("host", name, HOSTS)
    return name


def host_reply(log: FeedbackLog, guess: str, host: str,
               deadline: Deadline | None = None) -> HostReply:
    """The reply ``host`` gives to ``guess`` after ``log`` (its own earlier replies). An
    invalid guess or a game already won: CbsolveError (exit 2); a log no secret fits:
    InconsistentLog (exit 1)."""
    from ..advisor.service import PositionService
    from ..game.scoring import score_against

    check_host(host)
    variant = log.variant
    deadline = deadline if deadline is not None else Deadline(None)
    service = PositionService(variant)
    code = service.space.parse(guess.strip())
    text = service.space.format(code)
    solved = log.solved_at()
    if solved is not None:
        raise CbsolveError(f"the game is over: entry {solved} had every bull, so there is "
                           "nothing left to reply to")
    cands = service.candidates(log)
    replies = score_against(variant, code, service.space.codes_at(cands))
    values, counts = np.unique(replies, return_counts=True)
    classes = [ReplyClass(int(r), int(n)) for r, n in zip(values, counts)]
    win = variant.win_response
    stopped = None
    if host == "adversary":
        for c in classes:
            if c.response == win:
                c.lower = c.upper = 0          # the game is over: no guess still needed
        uppers = _tree_uppers(log, text, code, cands, replies)
        stopped = _values(log, text, [c for c in classes if c.response != win], uppers,
                          deadline)
    chosen = max(classes, key=lambda c: _key(c, host, win))
    exact = host == "evil" or all(c.exact or c.beaten for c in classes if c.response != win)
    bulls, cows = variant.response_of(chosen.response)
    return HostReply(host, text, bulls, None if variant.bulls_only else cows, int(cands.size),
                     chosen.secrets, chosen.response == win, exact, classes, stopped)


def _key(c: ReplyClass, host: str, win: int) -> tuple:
    """Larger is chosen; the order is :data:`RULES`."""
    not_win = c.response != win
    fewer = -c.response            # response index: bulls * (N+1) + cows, or bulls
    if host == "evil":
        return (c.secrets, not_win, fewer)
    return (not_win, c.lower or 0, c.upper or 0, c.secrets, fewer)


def _tree_uppers(log, guess: str, code, cands, replies) -> dict[int, int]:
    """Reply -> the worst case of the certified worst-case tree's subtree for that class,
    when the log and the guess follow the tree: an upper end of V(S_r) for free."""
    from ..certificates.certified import follow_tree, shipped_tree, subtree_cost

    variant = log.variant
    tree = shipped_tree(variant, "worst")
    node = None if tree is None else follow_tree(tree, log)
    if node is None or node["guess"] != guess:
        return {}
    space = tree.get("_space") or _space(variant)
    out = {}
    for r in np.unique(replies).tolist():
        child = (node.get("children") or {}).get(variant.format_response(r))
        cost = None if child is None else subtree_cost(space, child, cands[replies == r])
        if cost is not None:
            out[r] = cost[0]
    return out


def _space(variant):
    return CodeSpace(variant)


def _values(log: FeedbackLog, guess: str, classes: list[ReplyClass], uppers: dict[int, int],
            deadline: Deadline) -> str | None:
    """V(S_r) of each class (exact, or the proved interval where the deadline stopped the
    search); "time" when it did. With the tree's upper ends, the classes are solved from the
    highest upper end down and a class whose upper end cannot beat the best solved one is
    left (``beaten``); without them, small classes first, so the deadline is spent on few big
    ones."""
    from ..search.position import Position, solve_from

    stopped = None
    if uppers:
        todo = sorted(classes, key=lambda c: (-uppers.get(c.response, c.secrets), -c.secrets,
                                              c.response))
    else:
        todo = sorted(classes, key=lambda c: c.secrets)
    best = None                        # (V, secrets, fewer) of the best class solved
    for i, c in enumerate(todo):
        bound = uppers.get(c.response)
        if best is not None and bound is not None and \
                (bound, c.secrets, -c.response) < best:
            c.lower, c.upper, c.beaten = min(2, c.secrets), bound, True
            continue
        if c.secrets <= 2:             # one secret: guess it; two: one guess may miss
            c.lower = c.upper = c.secrets
        else:
            after = _extended(log)
            bulls, cows = log.variant.response_of(c.response)
            after.add(guess, bulls, None if log.variant.bulls_only else cows)
            # with upper ends few classes are solved: the first (likeliest chosen) gets most
            share = deadline.part(0.6 if uppers else 1.0 / (len(todo) - i))
            if share.expired():
                c.lower, c.upper, stopped = 2, bound, "time"
                continue
            result = solve_from(Position.from_log(after), "worst", guesses="all",
                                certificate=False, deadline=share)
            if result.proved:
                c.lower = c.upper = result.upper
            else:
                stopped = "time"
                c.lower = max(result.lower or 2, 2)
                c.upper = min(x for x in (result.upper, bound) if x is not None) \
                    if (result.upper, bound) != (None, None) else None
                continue
        key = (c.upper, c.secrets, -c.response)
        best = key if best is None or key > best else best
    return stopped


def _extended(log: FeedbackLog) -> FeedbackLog:
    """A copy of ``log`` to add a reply to."""
    out = FeedbackLog(log.variant)
    for e in log:
        out.add(e.text, e.bulls, None if log.variant.bulls_only else e.cows)
    return out


class ShiftingHost:
    """The computer as an ``evil`` or ``adversary`` code-maker in ``play``: the interface of
    :class:`cbsolve.play.engine.Host` (``check``, ``guesses``, ``secret_text``), its secret
    any code its replies still allow. Setting ``guesses`` lower (``undo``) takes back the
    replies after it."""

    def __init__(self, variant, host: str):
        self.variant, self.host = variant, check_host(host)
        self.space = CodeSpace(variant)
        self.replies: list[tuple[str, int, int | None]] = []

    def new(self, secret: str | None = None) -> None:
        if secret is not None:
            raise CbsolveError(f"the {self.host} host fixes no secret: --secret is for the "
                               "honest host")
        self.replies = []

    @property
    def guesses(self) -> int:
        return len(self.replies)

    @guesses.setter
    def guesses(self, count: int) -> None:
        del self.replies[count:]

    def log(self) -> FeedbackLog:
        out = FeedbackLog(self.variant)
        for guess, bulls, cows in self.replies:
            out.add(guess, bulls, cows)
        return out

    @property
    def secret_text(self) -> str:
        """A secret every reply so far allows (the lowest): what the host shows at the end."""
        from ..consistency.native import consistent_indices

        return self.space.format(self.space.code_at(int(consistent_indices(self.log())[0])))

    def check(self, guess: str, deadline: Deadline | None = None) -> tuple[int, int]:
        """The host's reply to ``guess`` within ``deadline`` (the turn's: cbsolve.runtime.deadline.Turns)."""
        answer = host_reply(self.log(), guess, self.host, deadline)
        self.replies.append((answer.guess, answer.bulls, answer.cows))
        return answer.bulls, answer.cows or 0

    def is_win(self, reply: tuple[int, int]) -> bool:
        return reply[0] == self.variant.length
