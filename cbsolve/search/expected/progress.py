"""The expected-case search's progress: a rich line on stderr, a caller's callable, or
nothing. Either way it keeps where the search is (the first guess being solved, its classes
done), which the callable hears with the interval proved so far."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Counters:
    """Where the expected-case search is, as its progress callable hears it (the names the
    worst-case kernel's counters share: ``nodes``, ``memo_entries``, ``top_done``,
    ``top_total``)."""

    nodes: int
    top_done: int = 0          # first guesses settled
    top_total: int = 0         # first guesses to settle (the scan's order)
    guess: str | None = None   # the first guess being solved
    classes_done: int = 0
    classes_total: int = 0
    memo_entries: int = 0


class _Progress:
    """A rich progress line on stderr (first guess, classes done) when ``show``; the state
    (:meth:`counters`) is kept either way."""

    def __init__(self, show: bool, n_first: int):
        self.bar = None
        self.n_first, self.rank, self.code = n_first, 0, None
        self.total, self.done = 0, 0
        if not show:
            return
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(),
                            TextColumn("{task.completed}/{task.total} classes"),
                            TextColumn("{task.fields[interval]}"),
                            TimeElapsedColumn(), transient=True,
                            console=_stderr_console())
        self.bar.start()
        self.task = self.bar.add_task("expected search", total=1, interval="")

    def first(self, rank: int, code: str) -> None:
        self.rank, self.code, self.done = rank, code, 0
        if self.bar:
            self.bar.update(self.task, description=f"first guess {code} ({rank + 1}/{self.n_first})",
                            completed=0)

    def classes(self, k: int) -> None:
        self.total, self.done = k, 0
        if self.bar:
            self.bar.update(self.task, total=k, completed=0)

    def interval(self, lower, upper) -> None:
        if self.bar:
            self.bar.update(self.task, interval=f"total in [{'?' if lower is None else lower}, "
                                                f"{'?' if upper is None else upper}]")

    def advance(self) -> None:
        self.done += 1
        if self.bar:
            self.bar.advance(self.task)

    def counters(self, nodes: int) -> Counters:
        return Counters(nodes, self.rank, self.n_first, self.code, self.done, self.total)

    def close(self) -> None:
        if self.bar:
            self.bar.stop()


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)
