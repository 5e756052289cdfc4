"""``cbsolve puzzle``: a seeded log with exactly one consistent secret (:func:`cbsolve.api.puzzle`,
cbsolve/puzzles/puzzle.py); ``--count K --jsonl``: a stream of them (cbsolve/puzzles/stream.py)."""
from __future__ import annotations

import json
import secrets
import sys

import click

from ..runtime import time_policy
from ..errors import CbsolveError
from . import COUNT, EXIT_OK, POSITIVE, SECONDS, SEED, app, emit, json_option, variant_options
from ._budget import TimeLimit
from .. import api
from ..puzzles.stream import json_lines, puzzles
from ..puzzles.export import export


@app.command("puzzle")
@click.option("--difficulty", default="medium", show_default=True, metavar="easy|medium|hard",
              help="The band of the measured difficulty (difficulty_measure.score: the "
                   "candidates a fixed reference solver carries); puzzles are drawn until "
                   "one falls in it. All are minimal: every clue is needed.")
@click.option("--clues", type=POSITIVE, default=None, metavar="K",
              help="Exactly K clues (puzzles are drawn until one has K).")
@click.option("--distractors", type=COUNT, default=0, show_default=True, metavar="K",
              help="Also give K wrong answers one symbol away from the secret (at most "
                   "N x (D - 1) with repeats, N x (D - N) without; more is refused).")
@click.option("--seed", type=SEED, default=None,
              help="Seed (default: drawn at random and printed, so the puzzle can be made "
                   "again); with --count, the first of seeds S, S+1, ...")
@click.option("--kind", default="find", show_default=True,
              metavar="find|count|wrong-reply|best-guess",
              help="The question: find the secret; count: how many secrets the first entries "
                   "leave; wrong-reply: which reply was changed (the correction unique); "
                   "best-guess: a worst-case optimal next guess and its exact value. The "
                   "answer is in 'answer'.")
@click.option("--count", type=POSITIVE, default=None, metavar="K",
              help="K puzzles, of seeds S, S+1, ... (each the puzzle --seed S+i gives).")
@click.option("--jsonl", "as_jsonl", is_flag=True,
              help="One JSON document a line (the streaming form of --json).")
@click.option("--export", "export_dir", default=None, metavar="DIR",
              help="With --count: write DIR/train.jsonl, DIR/test.jsonl and a dataset card "
                   "(Hugging Face datasets loads them); the splits share no puzzle up to "
                   "symmetry.")
@click.option("--test-fraction", type=click.FloatRange(0, 1), default=0.1, show_default=True,
              help="With --export: the share of orbit keys that go to the test split.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help=f"Stop drawing after this long (default {time_policy.PUZZLE_SECONDS:g} for "
                   "one puzzle, none for --count; 0: no limit). A stream stopped by it ends "
                   "with a line {\"complete\": false, ...}.")
@click.option("--show-answer", is_flag=True,
              help="Also print the answer under the puzzle (text; --json always holds it).")
@variant_options
@json_option
def puzzle_command(difficulty, clues, distractors, seed, kind, count, as_jsonl, export_dir,
                   test_fraction, time_limit, show_answer, variant, as_json) -> int:
    """A log that exactly one secret satisfies, verified by the native filter."""
    if export_dir is not None:
        if count is None or as_jsonl:
            raise CbsolveError("--export DIR writes a stream: give --count K (and not --jsonl)")
        return _export(variant, difficulty, clues, distractors, seed, kind, count, time_limit,
                       export_dir, test_fraction, as_json)
    if as_json and as_jsonl:
        raise CbsolveError("--json and --jsonl: give one (--jsonl streams one document a line)")
    if as_json and count is not None and count > 1:
        raise CbsolveError(f"--count {count} with --json: --json prints one document; "
                           "use --jsonl for one document a line")
    if count is not None or as_jsonl:
        return _stream(variant, difficulty, clues, distractors, seed, kind, count or 1,
                       time_limit, as_jsonl, show_answer)
    budget = TimeLimit.from_option(time_limit, time_policy.PUZZLE_SECONDS)
    p = api.puzzle(variant, seed=seed, difficulty=difficulty, clues=clues, distractors=distractors,
               deadline=budget.deadline, kind=kind)
    emit(as_json, p.to_json(), _text(p, show_answer))
    return EXIT_OK


def _text(p, show_answer: bool = False) -> str:
    m = p.difficulty_measure
    lines = [f"{p.variant.describe()}: {p.clues} clues, {p.difficulty} (score {m['score']}, "
             f"candidates after each clue {m['candidates_after']}), seed {p.seed}",
             *(f"  {t}" for t in p.tokens())]
    if p.distractors:
        lines.append(f"  wrong answers one symbol away: {' '.join(p.distractors)}")
    if not show_answer:
        lines.append("  exactly one secret is consistent (verified; --show-answer prints it)"
                     if p.answer is None else f"  {p.kind}: --show-answer prints the answer")
    elif p.answer is not None:
        lines.append(f"  {p.kind}: answer {p.answer}")
    else:
        lines.append(f"  the one consistent secret: {p.secret} (verified)")
    return "\n".join(lines)


def _stream(variant, difficulty, clues, distractors, seed, kind, count, time_limit,
            as_jsonl, show_answer) -> int:
    budget = TimeLimit.from_option(time_limit, None)
    first = secrets.randbits(32) if seed is None else seed
    stream = puzzles(variant, seed=first, count=count, difficulty=difficulty, clues=clues,
                     distractors=distractors, deadline=budget.deadline, kind=kind)
    made = _Counted(stream)
    out = sys.stdout
    chunks = json_lines(made) if as_jsonl else (_text(p, show_answer) + "\n" for p in made)
    for chunk in chunks:
        out.write(chunk)
        out.flush()
    if made.n < count:               # the time limit stopped the stream: said, never silent
        stop = {"command": "puzzle", "complete": False, "time_limit_hit": True,
                "time_limit": budget.seconds, "puzzles": made.n, "count": count,
                "next_seed": first + made.n}
        out.write((json.dumps(stop) if as_jsonl else
                   f"stopped at the time limit after {made.n} of {count} puzzles "
                   f"(next seed {first + made.n})") + "\n")
        out.flush()
    return EXIT_OK


def _export(variant, difficulty, clues, distractors, seed, kind, count, time_limit, folder,
            fraction, as_json) -> int:
    from importlib.metadata import PackageNotFoundError, version

    budget = TimeLimit.from_option(time_limit, None)
    first = secrets.randbits(32) if seed is None else seed
    stream = _Counted(puzzles(variant, seed=first, count=count, difficulty=difficulty,
                              clues=clues, distractors=distractors, deadline=budget.deadline,
                              kind=kind))
    try:
        release = version("cbsolve")
    except PackageNotFoundError:
        release = "source"
    try:
        counts = export(stream, folder, fraction, {
            "variant": variant.describe(), "count": count, "seed": first,
            "difficulty": difficulty, "kind": kind, "version": release})
    except OSError as exc:
        raise CbsolveError(f"--export {folder}: {exc.strerror or exc}") from None
    doc = {"command": "puzzle", "export": str(folder), "seed": first, **counts,
           "complete": stream.n == count}
    emit(as_json, doc, f"{counts['train']} train and {counts['test']} test puzzles in {folder}"
         + ("" if stream.n == count else f" (stopped at the time limit after {stream.n})"))
    return EXIT_OK


class _Counted:
    """An iterator that counts what it gave."""

    def __init__(self, it):
        self.it, self.n = iter(it), 0

    def __iter__(self):
        for x in self.it:
            self.n += 1
            yield x
