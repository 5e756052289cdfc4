"""Standard output whose writes come out whole when a signal interrupts them.

A command's document can be larger than a pipe holds (``partition --all --json``: 0.6 MB), so
when the reader is slow the write blocks; a signal (Ctrl-C) then ends ``write(2)`` early with
the count written so far. Python's buffered layer writes the rest, but when the interpreter
runs unbuffered (``PYTHONUNBUFFERED``, ``-u``: common in containers and CI) ``sys.stdout``
writes straight to the raw file and ignores that count (CPython gh-85393): the rest of the
chunk was lost, a JSON document with a span missing. :func:`install` puts a layer that writes
until every byte is out between the text and the file; it keeps the unbuffered behaviour (every
write goes out at once).
"""
from __future__ import annotations

import io
import select
import sys


class WholeWrites(io.RawIOBase):
    """A raw writer over ``fd`` whose ``write`` returns only once all its bytes are written."""

    def __init__(self, fd: int):
        super().__init__()
        self._file = io.FileIO(fd, "wb", closefd=False)

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._file.fileno()

    def isatty(self) -> bool:
        return self._file.isatty()

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            n = self._file.write(view[done:])
            if n is None:            # a non-blocking descriptor that is full: wait for room
                select.select([], [self.fileno()], [])
                continue
            done += n
        return done


def install() -> bool:
    """Route ``sys.stdout`` through :class:`WholeWrites` when it writes straight to its file
    (unbuffered); a buffered ``sys.stdout`` already writes whole, a replaced one (a test's
    capture) is left alone. True when it was replaced."""
    out = sys.stdout
    if not isinstance(out, io.TextIOWrapper) or not isinstance(out.buffer, io.FileIO):
        return False
    out.flush()
    sys.stdout = io.TextIOWrapper(WholeWrites(out.fileno()), encoding=out.encoding,
                                  errors=out.errors, line_buffering=out.line_buffering,
                                  write_through=True)
    return True
