"""Code and docs cite measurements by a heading of docs/benchmarks.md or docs/journal.md: every
such citation must name a heading that exists, so a reader can follow it; and no source is a
work item a reader cannot open."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITATION = re.compile(r'docs/(benchmarks|journal)\.md,\s+"([^"]+)"')


def _headings(doc: str) -> list[str]:
    text = (ROOT / "docs" / f"{doc}.md").read_text()
    return [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]


def _sources() -> list[Path]:
    return [*ROOT.glob("cbsolve/**/*.py"), *ROOT.glob("cbsolve/_native/*.[ch]pp"),
            *ROOT.glob("scripts/**/*.py"), *ROOT.glob("tests/**/*.py"), *ROOT.glob("docs/*.md"),
            ROOT / "README.md"]


def _citations():
    for path in _sources():
        # comments wrap: join a citation's lines (and drop comment markers) before matching
        text = re.sub(r"\s*\n\s*(?:#:?|//)?\s*", " ", path.read_text())
        for doc, heading in CITATION.findall(text):
            yield path.relative_to(ROOT), doc, heading


def test_every_cited_heading_exists():
    headings = {doc: _headings(doc) for doc in ("benchmarks", "journal")}
    cited = list(_citations())
    assert cited, "no citation found: the pattern no longer matches how the code cites"
    missing = [(str(path), doc, heading) for path, doc, heading in cited
               if not any(h.startswith(heading) for h in headings[doc])]
    assert not missing, missing


def test_sources_name_a_publication_or_a_heading_not_a_work_item():
    """A source a reader cannot open (an issue or a session by its number) is no source: code,
    tests and docs cite the publication or a heading of the docs instead."""
    work_item = re.compile(r"\b(issue|session)[ -]?\d+", re.IGNORECASE)
    found = [f"{path.relative_to(ROOT)}:{n}" for path in _sources()
             for n, line in enumerate(path.read_text().splitlines(), 1) if work_item.search(line)]
    assert not found, found
