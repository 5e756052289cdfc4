"""The one command vocabulary of play/: the actions a face may be asked for, the words that ask
for them, and each face's help. Every face reads a line through :func:`action` (``play`` and
``assist``, typed by a person) or :data:`PROTOCOL` (``bot``, sent by a referee) and applies the
action to its :class:`~.state.GameState`; the words are declared here once.

A person's words (any case; a first word typed with capitals that is also a code is a guess,
:func:`~.inputs.command_word`):

==========  ===============  =====================================================
action      words            in
==========  ===============  =====================================================
quit        quit, q, exit    play, assist
help        help, ?, h       play (a blank line too), assist
again       again            play, assist (a new game)
hint        hint             play, assist
undo        undo             play, assist (the last move, again and again)
fix         fix, confirm,    play (when the computer guesses: ``GameState.legal``), assist: ``fix K SCORE``
            ok               corrects reply K, ``confirm K`` says it is right
list        list             assist (the first K secrets left)
==========  ===============  =====================================================

The bot's protocol spells the same game's actions one exact word each: ``new`` (again),
``guess`` (the computer's move), ``score B C`` (the reply to it), ``check GUESS`` (the
opponent's guess scored against the bot's secret), ``quit``.

>>> from cbsolve.game.variant import Variant
>>> v = Variant.preset("bulls-cows")
>>> action(v, "Undo", ASSIST), action(v, "list 5", PLAY), action(v, "", PLAY)
('undo', None, 'blank')
"""
from __future__ import annotations

from ..game.variant import Variant
from .inputs import command_word, reply_syntax

#: action -> the words a person types for it
WORDS: dict[str, tuple[str, ...]] = {
    "quit": ("quit", "q", "exit"),
    "help": ("help", "?", "h"),
    "again": ("again",),
    "hint": ("hint",),
    "undo": ("undo",),
    "fix": ("fix", "confirm", "ok"),
    "list": ("list",),
}
#: The actions each face understands from a person.
PLAY = frozenset({"quit", "help", "again", "hint", "undo", "fix"})
ASSIST = frozenset(WORDS)
#: The bot's protocol: word -> action.
PROTOCOL = {"new": "again", "guess": "move", "score": "score", "check": "check", "quit": "quit"}
PROTOCOL_HELP = "new, guess, score B C, check GUESS, quit"


def action(variant: Variant, line: str, allowed: frozenset[str]) -> str | None:
    """The action ``line`` asks for among ``allowed`` ("blank" for an empty line), or None
    when it asks for none (a code, a score, or a word this face does not know)."""
    word = command_word(variant, line)
    if not word:
        return "blank"
    return next((name for name in allowed if word in WORDS[name]), None)


def short_reply(variant: Variant) -> str:
    """How a score's numbers are named in a short help line: ``B``, ``B C`` or ``B W``."""
    return "B" if variant.bulls_only else ("B W" if variant.pegs else "B C")


def play_help(variant: Variant, mode: str) -> list[str]:
    """``play``'s commands, at every prompt."""
    short = short_reply(variant)
    lines = ["Commands (at any prompt):"]
    if mode != "host":
        lines.append("  CODE          guess my secret (at 'Your guess')")
    if mode != "guess":
        lines.append(f"  {short:<13} score my guess: {reply_syntax(variant)} (at 'Score for')")
        lines.append(f"  fix K {short:<7} correct your score number K")
        lines.append("  confirm K     your score number K is right: look for the mistake elsewhere")
    lines += ["  undo          take back the last move (again and again, to any depth)",
              "  hint          what your replies leave, and the best next guess",
              "  again         abandon this game and start a new one",
              "  help          this list",
              "  quit          end the game (I reveal my secret)"]
    return lines


#: ``assist``'s commands.
ASSIST_HELP = ["Commands:",
               "  GUESS SCORE   a guess you played and its score (GUESS B C, GUESS:B,C, "
               "GUESS xAyB, GUESS xByW, GUESS 2 black 1 white)",
               "  SCORE         the score of the guess I suggested",
               "  undo          take back the last entry (again and again, to any depth)",
               "  fix K SCORE   correct the score of entry K",
               "  confirm K     the score of entry K is right: look for a mistake elsewhere",
               "  hint          what your entries leave, and the suggested guess",
               "  list [K]      the first K remaining secrets (default 20)",
               "  again         forget the entries: a new game",
               "  help          this list",
               "  quit          end"]
