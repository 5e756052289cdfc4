"""The research drivers are scripts, not package code (the wheel does not ship them): their
folder goes on the path, as when a script in it runs, so the tests import them by name."""
from __future__ import annotations

import sys
from pathlib import Path

RESEARCH = str(Path(__file__).resolve().parents[2] / "scripts" / "research")
if RESEARCH not in sys.path:
    sys.path.insert(0, RESEARCH)
