"""Play: the faces through which most users meet cbsolve, as one game and many front-ends.

- :mod:`.state`: one game, declared once (:class:`~.state.GameState`: the code-maker and the
  code-breaker, whose move it is, a move applied or taken back, a new game, the record);
- :mod:`.commands`: the one command vocabulary (a person's words, the bot's protocol);
- :mod:`.loop`: the one game loop, one Deadline a turn;
- :mod:`.engine`: the computer as code-breaker (:class:`Guesser`) and code-maker (:class:`Host`);
  :mod:`.hosts`: code-makers that never fix their secret;
- the faces, which only read lines and print: :mod:`.terminal` (``cbsolve play``: you against
  the computer, both directions), :mod:`.assistant` (``cbsolve assist``: advice for a game
  played elsewhere), :mod:`.bot` (``cbsolve bot``, the line protocol a referee drives);
  :mod:`.referee` runs two bots against each other; :mod:`.coach` words the position
  service's review of a guess.

Place in the data flow: the last stop, built on the position service, strategies and
consistency; nothing below imports it. Puzzles, which are drawn whole rather than played, are
:mod:`cbsolve.puzzles`.
"""
from .engine import Diagnosis, Guesser, Host, Suggestion

__all__ = ["Diagnosis", "Guesser", "Host", "Suggestion"]
