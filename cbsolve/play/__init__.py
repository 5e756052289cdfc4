"""Play: the faces through which most users meet cbsolve.

- :mod:`.engine`: the computer as code-breaker (:class:`Guesser`) and code-maker (:class:`Host`);
- :mod:`.terminal`: ``cbsolve play`` (you against the computer, both directions);
- :mod:`.assistant`: ``cbsolve assist`` (advice for a game played elsewhere);
- :mod:`.bot`: ``cbsolve bot``, the line protocol a referee drives;
- :mod:`.referee`: run two bots against each other.

Place in the data flow: the last stop, built on strategies and consistency; nothing imports it.
"""
from .engine import Diagnosis, Guesser, Host, Suggestion

__all__ = ["Diagnosis", "Guesser", "Host", "Suggestion"]
