"""The expected-case search's progress line on stderr (rich), or nothing."""
from __future__ import annotations


class _Progress:
    """A rich progress line on stderr (first guess, classes done), or nothing."""

    def __init__(self, show: bool, n_first: int):
        self.bar = None
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
        self.n_first = n_first

    def first(self, rank: int, code: str) -> None:
        if self.bar:
            self.bar.update(self.task, description=f"first guess {code} ({rank + 1}/{self.n_first})",
                            completed=0)

    def classes(self, k: int) -> None:
        if self.bar:
            self.bar.update(self.task, total=k, completed=0)

    def interval(self, lower, upper) -> None:
        if self.bar:
            self.bar.update(self.task, interval=f"total in [{'?' if lower is None else lower}, "
                                                f"{'?' if upper is None else upper}]")

    def advance(self) -> None:
        if self.bar:
            self.bar.advance(self.task)

    def close(self) -> None:
        if self.bar:
            self.bar.stop()


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)
