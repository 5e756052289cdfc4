"""The user's pages stay pages, not notebooks: docs/benchmarks.md holds one current figure a
measured thing and docs/optimal.md is a guide; what a session measured or tried on the way is
appended to docs/journal.md, dated. A page past its budget is trimmed there, not here."""
from __future__ import annotations

from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
#: Lines a page may have.
BUDGETS = {"benchmarks.md": 400, "optimal.md": 600}


@pytest.mark.parametrize("page, budget", sorted(BUDGETS.items()))
def test_page_within_its_line_budget(page, budget):
    lines = len((DOCS / page).read_text().splitlines())
    assert lines <= budget, (f"docs/{page} has {lines} lines (budget {budget}): move dated "
                             "notes and superseded figures to docs/journal.md")
