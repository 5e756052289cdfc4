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
NEEDS = {"environment.md": "gymnasium"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: f"{p.parent.name}/{p.name}")
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


def test_ci_runs_the_readmes_test_command():
    """A contributor's green light is CI's: `.ci/run` runs the README's test command verbatim."""
    readme = (ROOT / "README.md").read_text().splitlines()
    command = next(line for line in readme if line.startswith("python -m pytest"))
    assert command in (ROOT / ".ci" / "run").read_text().splitlines()
