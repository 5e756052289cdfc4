"""Where the proved artifacts are: the top-level ``models/`` folder (certified trees, proof
ledgers, the atlas), one copy.

A source checkout or an editable install reads ``models/`` beside the package; a wheel carries
the same files as the package data ``cbsolve/models/`` (pyproject.toml maps the package
``cbsolve.models`` onto ``models/``), so the installed folder is looked for first.
"""
from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def models_dir() -> Path:
    """The folder of the proved artifacts (``cbsolve/models`` in a wheel, else ``models/``)."""
    installed = _PACKAGE / "models"
    return installed if installed.is_dir() else _PACKAGE.parent / "models"


__all__ = ["models_dir"]
