"""Puzzles: seeded logs that exactly one secret satisfies, and the questions made of them
(``cbsolve puzzle``, ``cb.puzzle``, ``cb.Puzzle``). Not a game loop: a puzzle is drawn, verified
and handed over whole, so it lives beside the faces that play (:mod:`cbsolve.play`), not in
them.

- :mod:`.puzzle`: one puzzle (:class:`~.puzzle.Puzzle`, :func:`~.puzzle.make_puzzle`), drawn,
  made minimal and verified over every code;
- :mod:`.draw`: the draw over the reply rows (its native twin ``_native/puzzle.cpp``);
- :mod:`.difficulty`: the measured difficulty and its labels;
- :mod:`.kinds`: the questions besides "find the secret" (``--kind``: count, wrong-reply,
  best-guess);
- :mod:`.stream`: many puzzles from one process (``--count K --jsonl``);
- :mod:`.export`: a stream as a dataset with train and test splits (``--export DIR``).

Place in the data flow: after the position service's column (a ``best-guess`` answer asks the
exact search from the position), before the faces (the CLI, the API, the environments).
"""
