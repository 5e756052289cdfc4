"""``cbsolve assist``: advice for a real game played elsewhere.

You type the guesses you made and the scores you got; the assistant says how many secrets are
still possible (exact, or a solver's bound for spaces too large to list), suggests the next
guess, takes back entries with ``undo`` and names the conflicting entries when the scores
cannot all be right.

Advice comes from the position service (:mod:`cbsolve.advisor`): a heuristic strategy, or,
with ``strategy="optimal"``, one objective (worst or expected) through the whole game: the
certified tree in ``models/`` for it (docs/tree-format.md; replayed against every secret when
loaded) while your guesses are the ones it recommends, then the exact search from the
position for the same objective, else a heuristic aiming at it, labelled. With ``coach``,
each guess you type is reviewed against the best from the same position (:mod:`.coach`)
before it is recorded.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from . import loop
from ..runtime import time_policy
from ..runtime.deadline import Deadline, Turns

# The certified trees' lookup and replay live with the position service (cbsolve.certificates.certified)
from ..certificates.certified import MODELS, find_tree, follow_tree, load_tree, shipped_tree  # noqa: F401
from ..errors import InconsistentLog, InvalidCode, InvalidFeedback
from ..game.variant import Variant
from .coach import Coach, describe, record
from .commands import ASSIST, ASSIST_HELP, action
from .engine import Suggestion, check_strategy
from .inputs import Console, format_reply, looks_like_score, read_score, reply_syntax
from .state import GameState

if TYPE_CHECKING:
    from ..game.codes import CodeSpace

FALLBACK = "minimax"


class Assistant:
    """Advice for one game: the game's :class:`~.state.GameState` (its code-breaker, a
    :class:`~.engine.Guesser`, records your entries) plus an optional strategy tree to follow."""

    def __init__(self, variant: Variant, strategy: str = "minimax", guesses: str = "all",
                 seed: int | None = None, tree_path: str | None = None,
                 time_limit: float | None = time_policy.ASSIST_SECONDS, coach: bool = False,
                 wait=None, objective: str = "worst", turns: Turns | None = None):
        """``turns``: one Deadline a turn, made by the session loop (else ``time_limit``
        seconds a turn), shared by the advice and the coach's review."""
        self.variant = variant
        self.turns = turns if turns is not None else Turns(time_limit)
        #: How to wait for the heuristic kernel, which has no stop flag: the CLI runs it in
        #: another thread (cli._interrupt.abandonable) so Ctrl-C is not held until it ends.
        self._wait = wait or (lambda work: work())
        self.tree = None
        if tree_path:
            self.tree = load_tree(variant, Path(tree_path))
        elif strategy == "optimal":
            self.tree = shipped_tree(variant, objective)
        self.strategy = check_strategy(strategy)
        self.guesses = guesses
        # the advice: the position service, for one objective through the whole game
        self.state = GameState(variant, "assist", strategy=strategy, guesses=guesses,
                               objective=objective, seed=seed,
                               tree=self.tree if tree_path else None)
        self.guesser = self.state.breaker
        # the advice's own service, strategy and objective: one source
        self.coach = (Coach(self.guesser.service, objective=objective, strategy=strategy)
                      if coach else None)

    @property
    def log(self):
        return self.guesser.log

    def tree_node(self) -> dict | None:
        """The tree node the game has reached, or None once it left the tree."""
        return None if self.tree is None else follow_tree(self.tree, self.log)

    def advise(self, deadline: Deadline | None = None) -> Suggestion:
        """The suggestion within ``deadline`` (the turn's); also raises when the log is
        inconsistent."""
        return self._wait(lambda: self.guesser.suggest(deadline))

    def add(self, guess: str, bulls: int, cows: int, notation: str | None = None) -> None:
        self.state.record(guess, bulls, cows, notation)

    def undo(self):
        taken = self.state.undo()
        return None if taken is None else taken[1]


HELP = ("Type GUESS SCORE for a guess you played and its score (SCORE: {syntax}), or the score "
        "alone if you played my suggestion; help lists the commands.")
COMMANDS = ASSIST_HELP


def _split_entry(space: CodeSpace, line: str):
    """(guess or None, reply text) from GUESS B C | GUESS:B,C | B C; a GUESS alone gives an
    empty reply text (its score is missing)."""
    variant = space.variant
    if ":" in line:
        guess, _, reply = line.partition(":")
        return guess.strip(), reply
    alone = line.strip()
    if variant.length > 2 and space.spells(alone):
        return alone, ""                    # a code of the game alone: its score is missing
    head, _, rest = alone.partition(" ")
    if rest and variant.length > 2 and space.spells(head):
        return head, rest                   # a code first is the guess ("0123 1": not 123 bulls)
    if looks_like_score(variant, line):     # a score alone: for the suggested guess
        return None, line
    return (head, rest) if rest else (None, line)


class AssistSession:
    """The interactive loop (any :class:`Console`); returns a JSON-able summary at the end."""

    def __init__(self, assistant: Assistant, console: Console):
        self.a, self.c = assistant, console
        self.won = False
        self.reviews: list[dict] = []

    def show(self, deadline: Deadline) -> None:
        c, g = self.c, self.a.guesser
        if g.inconsistent is None and g.large:
            try:        # beyond the filter the advice is what finds the log inconsistent
                self.a.advise(deadline)
            except InconsistentLog:
                pass    # g.inconsistent holds the diagnosis now
        if g.inconsistent is not None:
            for line in g.inconsistent.describe(g.log):
                c.say(line)
            c.say("  Type undo to take back the last entry, fix K SCORE to correct entry K, "
                  "or confirm K if entry K is right.")
            return
        s = self.a.advise(deadline)
        if s.solved is not None:    # entries given that already won: the game is over
            self.won = True
            c.say(f"Solved: entry {s.solved} ({s.guess}) had every bull.")
            return
        qual = "" if s.exact else "at least "
        n = "?" if s.candidates is None else f"{qual}{s.candidates}"
        word = "secret remains" if s.candidates == 1 and s.exact else "secrets remain"
        if s.guess is None:
            advice = "No suggestion this time."
        elif s.determined:
            advice = f"It must be {s.guess}."
        else:
            advice = f"Suggested guess: {s.guess} ({s.strategy})."
        c.say(f"{n} {word}. {advice}")
        if s.note:
            c.say(f"  ({s.note})")

    def run(self) -> dict:
        """The session, driven by the one game loop (:mod:`.loop`: one Deadline a turn)."""
        loop.run(self, lambda prompt: self.c.ask(prompt).strip(), self.a.turns)
        return self.summary()

    # --- the loop's questions ------------------------------------------------------------
    def begin(self, turns: Turns) -> None:
        v = self.a.variant
        self.c.say(f"cbsolve assist: {v.describe()}. {HELP.format(syntax=reply_syntax(v))}")
        self.show(turns.start())

    def to_move(self) -> bool:
        return False                # the computer only advises: you move, elsewhere

    def prompt(self) -> str | None:
        return None if self.won else "> "

    def end_of_input(self) -> None:
        pass

    def step(self, line: str, deadline: Deadline | None = None) -> bool:
        """Handle one line within its turn's ``deadline`` (None: a turn starts now); False
        ends the session."""
        if not line:
            return True
        c, a, v = self.c, self.a, self.a.variant
        deadline = deadline if deadline is not None else a.turns.start()
        act = action(v, line, a.state.legal(ASSIST))
        if act == "quit":
            return False
        if act == "help":
            for text in COMMANDS:
                c.say(text)
        elif act == "undo":
            e = a.undo()
            c.say("  nothing to undo." if e is None else f"  took back {e.shown(v)}.")
            self.show(deadline)
        elif act == "fix":
            self._fix(line)
            self.show(deadline)
        elif act == "again":
            while a.undo() is not None:
                pass
            self.reviews.clear()
            c.say("New game.")
            self.show(deadline)
        elif act == "hint":
            self.show(deadline)
            if a.guesser.inconsistent is None:
                c.say("  remaining: " + " ".join(a.guesser.candidate_codes(6, deadline))
                      + (" ..." if (a.guesser.candidates or 7) > 6 else ""))
        elif act == "list":
            self._list(line, deadline)
        else:
            return self._entry(line, deadline)
        return True

    def _list(self, line: str, deadline: Deadline) -> None:
        words = line.split()
        k = int(words[1]) if len(words) > 1 and words[1].isdigit() else 20
        if self.a.guesser.inconsistent is not None:
            self.c.say("  no secret is consistent with these entries.")
        else:
            self.c.say("  " + " ".join(self.a.guesser.candidate_codes(k, deadline)))

    def _entry(self, line: str, deadline: Deadline) -> bool:
        """A guess played and its score (or the score of the suggested guess): reviewed by the
        coach, recorded, and the advice after it."""
        c, a, v = self.c, self.a, self.a.variant
        guess, reply_text = _split_entry(a.guesser.space, line)
        try:
            if guess is None:
                if a.guesser.inconsistent is not None:
                    raise InvalidFeedback("the entries are inconsistent; undo first")
                guess = a.advise(deadline).guess
            guess = a.guesser.space.format(a.guesser.space.parse(guess))
            if not reply_text.strip():
                raise InvalidFeedback(f"{guess} needs its score after it: {guess} SCORE, with "
                                      f"SCORE as {reply_syntax(v)}")
            typed = read_score(v, reply_text)
            if typed is None:
                raise InvalidFeedback(f"{reply_text.strip()!r} is not a score; "
                                      f"type {reply_syntax(v)}")
            reply, notation = typed[:2], typed[2]
        except (InvalidCode, InvalidFeedback) as exc:
            c.say(f"  {exc}; try again (help lists the commands).")
            return True
        review = (a.coach.review(a.log, guess, deadline)
                  if a.coach is not None and a.guesser.inconsistent is None else None)
        try:
            a.add(guess, *reply, notation=notation)
        except InconsistentLog:
            pass  # shown below
        k = len(a.log)
        c.say(f"  entry {k}: {guess} -> {format_reply(v, *reply)}")
        if review is not None:
            self.reviews.append({"entry": k, **record(review)})
            c.say(f"  {describe(review)}")
            c.say(f"    ({review.method})")
        if reply[0] == v.length and a.guesser.inconsistent is None:
            self.won = True
            c.say(f"Solved in {k} guess{'es' if k != 1 else ''}.")
            return False
        self.show(deadline)
        return True

    def _fix(self, line: str) -> None:
        """``fix K SCORE`` or ``confirm K``: the diagnosis then never proposes entry K."""
        g, v = self.a.guesser, self.a.variant
        try:
            k = self.a.state.fix(line)
        except InvalidFeedback as exc:
            self.c.say(f"  {exc}; try again.")
            return
        e = g.log[k - 1]
        self.c.say(f"  entry {k}: {e.text} -> {format_reply(v, e.bulls, e.cows)}"
                   + (" (confirmed)" if k in g.confirmed else ""))

    def entries(self) -> dict:
        """What was typed: the entries, whether solved, whether consistent."""
        a = self.a
        return {"entries": a.log.to_json(), "solved": self.won,
                "consistent": a.guesser.inconsistent is None}

    def summary(self) -> dict:
        a = self.a
        data = self.entries()
        if a.coach is not None:
            data["coach"] = self.reviews
        if a.guesser.inconsistent is not None:
            data.update(a.guesser.inconsistent.to_json())
        elif not self.won:      # the last answer is a turn of its own
            data["suggestion"] = a.advise(a.turns.start()).to_json()
        return data
