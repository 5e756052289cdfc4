"""Many puzzles from one process: seeds S, S+1, ... (``cbsolve puzzle --count K --jsonl``).

Puzzle i of the stream is exactly ``puzzle --seed S+i`` (the same options): the stream only
pays the process start, the imports and the variant's reply rows once (cbsolve/puzzles/puzzle.py,
``maker_for``), which is where one command line per puzzle lost its time (about 6 puzzles a
second, each a new interpreter; docs/benchmarks.md, "Puzzle streams").
"""
from __future__ import annotations

import json
from collections.abc import Iterator

from ..runtime.deadline import Deadline
from ..game.variant import Variant
from .puzzle import Puzzle, check_request, make_puzzle, maker_for


def puzzles(variant: Variant, *, seed: int, count: int, difficulty: str = "medium",
            clues: int | None = None, distractors: int = 0,
            deadline: Deadline | None = None, kind: str = "find") -> Iterator[Puzzle]:
    """``count`` puzzles of seeds ``seed``, ``seed + 1``, ...; stops early (the caller says
    so) when ``deadline`` expires between two puzzles."""
    check_request(difficulty, clues, distractors, kind)
    maker = maker_for(variant)             # a bad variant fails before the first line
    if count > 1:
        maker.replies.whole()
    for i in range(count):
        if deadline is not None and i and deadline.expired():
            return
        yield make_puzzle(variant, seed=seed + i, difficulty=difficulty, clues=clues,
                          distractors=distractors, deadline=deadline, kind=kind)


def json_lines(stream: Iterator[Puzzle], batch: int = 256) -> Iterator[str]:
    """The stream as text: one ``puzzle --json`` document a line, ``batch`` lines a chunk."""
    lines: list[str] = []
    for p in stream:
        lines.append(json.dumps(p.to_json()))
        if len(lines) >= batch:
            yield "\n".join(lines) + "\n"
            lines = []
    if lines:
        yield "\n".join(lines) + "\n"
