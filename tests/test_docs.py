"""The documentation site: every example on the tutorial and getting-started pages runs, and
the site builds offline with warnings as errors (when MkDocs is installed: the docs extra)."""
from __future__ import annotations

import doctest
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs" / "tutorials").glob("*.md")) + sorted(
    (ROOT / "docs" / "start").glob("*.md"))
#: Pages whose examples need an optional extra.
NEEDS = {"environment.md": "gymnasium", "verifiers.md": "verifiers", "textarena.md": "textarena"}


#: The verifiers tutorial loads verifiers' v1 API, about 5 CPU s in a process (the adapter's own
#: tests, tests/integrations/test_verifiers.py, load it in the default run): the slow run's.
@pytest.mark.parametrize("page", [
    pytest.param(p, marks=pytest.mark.slow) if p.name == "verifiers.md" else p for p in PAGES],
    ids=lambda p: f"{p.parent.name}/{p.name}")
def test_page_examples_run(page):
    extra = NEEDS.get(page.name)
    if extra and importlib.util.find_spec(extra) is None:
        pytest.skip(f"{extra} not installed")
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS,
                              verbose=False, report=True)
    assert result.attempted > 0, f"{page.name} has no example"
    assert result.failed == 0


def test_every_tutorial_is_in_the_site():
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in PAGES:
        assert f"{page.parent.name}/{page.name}" in nav


@pytest.mark.slow      # about 5 CPU s; the pages' examples and tables are checked here too
@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None, reason="mkdocs not installed")
def test_site_builds_strictly_offline(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(tmp_path / "site")], cwd=ROOT, env=env, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    cli = (tmp_path / "site" / "cli" / "index.html").read_text()
    assert "cbsolve puzzle" in cli and "--difficulty" in cli       # generated from click
    api = (tmp_path / "site" / "api" / "index.html").read_text()
    assert "next_guess" in api and "to_json" in api                 # from the docstrings


def shown_commands(page: Path):
    """(command words, the output the page shows under it) for each ``$ cbsolve ...`` line of
    the page's console blocks that has output lines under it."""
    import shlex

    lines, found = page.read_text().splitlines(), []
    for i, line in enumerate(lines):
        if not line.startswith("$ cbsolve "):
            continue
        shown = []
        for after in lines[i + 1:]:
            if after.startswith(("$ ", "```")):
                break
            shown.append(after)
        if shown:
            found.append((shlex.split(line[2:], comments=True)[1:], "\n".join(shown)))
    return found


@pytest.mark.parametrize("page", [p for p in PAGES if shown_commands(p)],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_console_output_shown_is_the_tools(page, capsys):
    """What a page shows under a command is what the command prints (a page once showed
    "1 bulls, 3 cows" where the tool says "1 bull, 3 cows")."""
    from cbsolve.cli import main

    for words, shown in shown_commands(page):
        assert main(words) == 0
        assert capsys.readouterr().out.rstrip("\n") == shown, words


#: The site's pages but the journal (history, only appended to: a block moved there from
#: benchmarks.md on 2026-11-24 kept its rows without their header).
SITE_PAGES = [p for p in sorted((ROOT / "docs").rglob("*.md")) if p.name != "journal.md"
              and str(p.relative_to(ROOT / "docs")) in (ROOT / "mkdocs.yml").read_text()]


@pytest.mark.parametrize("page", SITE_PAGES, ids=lambda p: p.name)
def test_every_table_row_sits_in_a_table(page):
    """A row cut off from its table (a blank line before it) renders as a stray line: the
    contract's `puzzle` row once did. Each run of `|` lines starts with a header and `|---`."""
    lines = page.read_text().splitlines()
    fenced = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not line.startswith("|") or (i and lines[i - 1].startswith("|")):
            continue
        assert i + 1 < len(lines) and lines[i + 1].replace(" ", "").startswith("|-"), \
            f"{page.name}:{i + 1}: a table row outside a table: {line[:60]}"

def test_ci_runs_the_readmes_test_command():
    """A contributor's green light is CI's: `.ci/run` runs the README's test command verbatim."""
    readme = (ROOT / "README.md").read_text().splitlines()
    command = next(line for line in readme if line.startswith("python -m pytest"))
    assert command in (ROOT / ".ci" / "run").read_text().splitlines()


def test_ci_runs_the_slow_tests_after_the_readmes_command():
    """What the README's command leaves out (`-m "not slow"`) CI runs next: nothing tested goes
    untested in CI."""
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    readme = next(i for i, line in enumerate(lines) if line.startswith("python -m pytest -m \"not"))
    assert any(line.startswith("python -m pytest -m slow") for line in lines[readme + 1:])
