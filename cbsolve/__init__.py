"""cbsolve: constraint solver and analyzer for Bulls-and-Cows-family code-breaking games.

The curated public API; heavy solver packages are imported only where used.
"""
from .codes import CodeSpace
from .errors import (
                     CbsolveError,
                     InconsistentLog,
                     InvalidCode,
                     InvalidFeedback,
                     InvalidVariant,
                     SpaceTooLarge,
                     UnknownName,
)
from .variant import PRESETS, Variant

__all__ = ["CbsolveError", "CodeSpace", "InconsistentLog", "InvalidCode", "InvalidFeedback",
           "InvalidVariant", "PRESETS", "SpaceTooLarge", "UnknownName", "Variant"]
__version__ = "0.1.0"
