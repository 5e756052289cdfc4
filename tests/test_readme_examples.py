"""The README's console examples are what the tool does: every ``$ cbsolve ...`` line of a
```console block that shows output is run and its output compared; every other one is parsed
by its command (a renamed option or a lost argument fails here).

The README is the only source: fixing an example is editing the README. Comparison rules:
a line that is only ``...`` stands for any number of lines (none included); wall-clock
figures (``0.077 s``) match any figure; trailing blanks are ignored; a ``# comment`` after a
command is not part of it. Commands run from the repository's root (``models/...``).
"""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SECONDS = re.compile(r"\b\d+(\.\d+)? s\b")
ELISION = "..."


def examples(text: str) -> list[tuple[int, str, list[str]]]:
    """(line number, command line, expected output lines) of each ``$ cbsolve`` example."""
    found = []
    in_console = False
    current = None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            in_console = line.strip() == "```console" and not in_console
            current = None
            continue
        if not in_console:
            continue
        if line.startswith("$ "):
            current = None
            if line.startswith("$ cbsolve"):
                current = (number, line[2:], [])
                found.append(current)
        elif current is not None:
            current[2].append(line)
    return found


def _words(command: str) -> list[str]:
    return shlex.split(command, comments=True)[1:]      # without `cbsolve` and the comment


def matches(expected: list[str], actual: list[str]) -> bool:
    """``actual`` against ``expected`` with its ``...`` lines (any number of lines)."""
    def norm(line: str) -> str:
        return SECONDS.sub("<s> s", line.rstrip())

    expected = [norm(x) for x in expected]
    actual = [norm(x) for x in actual]
    pattern = "\n".join(".*?" if x.strip() == ELISION else re.escape(x) for x in expected)
    # an elision line also swallows the line break of the lines it stands for
    pattern = pattern.replace("\n.*?\n", "(?:\n.*?)?\n").replace("\n.*?", "(?:\n.*)?")
    if pattern.startswith(".*?\n"):
        pattern = "(?:.*?\n)?" + pattern[4:]
    return re.fullmatch(pattern, "\n".join(actual), re.S) is not None


ALL = examples(README.read_text())
SHOWN = [(n, cmd, out) for n, cmd, out in ALL if out]
PARSED = [(n, cmd) for n, cmd, out in ALL if not out]


def test_the_readme_has_examples_of_both_kinds():
    assert len(SHOWN) >= 5 and len(PARSED) >= 5


@pytest.mark.parametrize("number, command, expected", SHOWN,
                         ids=[f"README:{n}" for n, _, _ in SHOWN])
def test_an_example_prints_what_the_readme_shows(number, command, expected):
    proc = subprocess.run([sys.executable, "-m", "cbsolve", *_words(command)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    actual = (proc.stdout + proc.stderr).splitlines()
    assert matches(expected, actual), (
        f"README.md line {number}: `{command}` printed (exit {proc.returncode}):\n"
        + "\n".join(actual))


@pytest.mark.parametrize("number, command", PARSED, ids=[f"README:{n}" for n, _ in PARSED])
def test_an_example_without_output_parses(number, command):
    from cbsolve.cli import app

    words = _words(command)
    cmd = app.get_command(None, words[0])
    assert cmd is not None, f"README.md line {number}: no command {words[0]!r}"
    try:
        cmd.make_context(f"cbsolve {words[0]}", words[1:])
    except click.ClickException as exc:
        pytest.fail(f"README.md line {number}: `{command}`: {exc.format_message()}")


def test_elisions_and_times():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "d"], ["a", "d"])
    assert matches(["a", "..."], ["a", "b"])
    assert matches(["...", "c"], ["c"]) and matches(["...", "c"], ["a", "b", "c"])
    assert matches(["took 0.077 s"], ["took 1.5 s"])
    assert not matches(["a", "d"], ["a", "b", "d"])
    assert not matches(["a", "...", "d"], ["a", "b"])
    assert not matches(["1 bulls"], ["2 bulls"])
