"""The one game loop of play/: every interactive face (``play``, ``assist``, ``bot``) is driven
by :func:`run`, which makes **one** Deadline a turn (a line read, or the computer's own move)
with :meth:`cbsolve.runtime.deadline.Turns.start` and hands it to the face's step; the face
passes it to everything the turn asks (the advice, ``hint``, the coach's review) and keeps no
seconds of its own.

A face is any object with:

- ``begin(turns)``: the opening lines (a face whose opening asks for advice takes its turn);
- ``to_move()``: whether the computer moves now, without a line (``play``'s code-breaker);
  ``move(deadline)`` makes that move;
- ``prompt()``: the prompt of the next line, or None when the game is over;
- ``step(line, deadline)``: apply one line; False ends the session;
- ``end_of_input()``: the input ended (Ctrl-D, a closed stdin, the referee gone).
"""
from __future__ import annotations

from typing import Callable, Protocol

from ..runtime.deadline import Deadline, Turns


class Face(Protocol):
    def begin(self, turns: Turns) -> None: ...
    def to_move(self) -> bool: ...
    def move(self, deadline: Deadline) -> None: ...
    def prompt(self) -> str | None: ...
    def step(self, line: str, deadline: Deadline) -> bool: ...
    def end_of_input(self) -> None: ...


def run(face: Face, read: Callable[[str], str | None], turns: Turns) -> None:
    """Drive ``face`` until its game or its input ends. ``read(prompt)``: the next line (None:
    a line the reader answered itself, e.g. the bot's overlong one), EOFError at the end."""
    face.begin(turns)
    while True:
        if face.to_move():
            face.move(turns.start())            # the computer's move is a turn
            continue
        prompt = face.prompt()
        if prompt is None:
            return
        try:
            line = read(prompt)
        except EOFError:
            face.end_of_input()
            return
        if line is not None and not face.step(line, turns.start()):   # a turn: one Deadline
            return
