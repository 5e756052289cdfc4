"""The optional packages (pyproject.toml's extras): imported where a feature needs one, or one
line saying which extra installs it.

The core (scoring, the native consistency engines, strategies, exact search, certify, verify,
bounds, play) needs only numpy, click, rich and sympy; the solver and tool packages below are
extras, so one package without a wheel for a new Python does not block the install
(``pip install 'cbsolve[all]'`` brings them all).

>>> missing_message("pysat.solvers", "the SAT backend").split(":")[0]
"the SAT backend needs the python-sat package (not the unrelated 'pysat')"
"""
from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import TYPE_CHECKING

from .runtime.deadline import Abandoned, finish_or_abandon
from .errors import CbsolveError

if TYPE_CHECKING:
    from .runtime.deadline import Deadline

#: import name -> (the distribution pip installs, the cbsolve extra that brings it).
EXTRAS: dict[str, tuple[str, str]] = {
    "ortools": ("ortools", "cpsat"),
    "pysat": ("python-sat", "sat"),
    "pyganak": ("pyganak", "counting"),
    "pyapproxmc": ("pyapproxmc", "counting"),
    "dask": ("dask[distributed]", "dask"),
    "distributed": ("dask[distributed]", "dask"),
    "matplotlib": ("matplotlib", "plots"),
    "yaml": ("pyyaml", "yaml"),
    "verifiers": ("verifiers", "verifiers"),      # cbsolve.integrations.verifiers (not in all)
    "textarena": ("textarena", "textarena"),      # cbsolve.integrations.textarena (not in all)
}
#: Extras that `all` leaves out (heavy: pyproject.toml says why).
OUTSIDE_ALL = {"verifiers", "textarena"}


class MissingExtra(CbsolveError, ImportError):
    """A feature's optional package is not installed (exit 2); the message names the extra."""


def _top(module: str) -> str:
    top = module.partition(".")[0]
    if top not in EXTRAS:
        raise KeyError(f"{top!r} is not one of cbsolve's extras")
    return top


def installed(module: str) -> bool:
    """Is the optional package providing ``module`` importable (without importing it)?"""
    return importlib.util.find_spec(_top(module)) is not None


def missing_message(module: str, feature: str) -> str:
    """The one line: which feature, which package, which extra."""
    dist, extra = EXTRAS[_top(module)]
    # `pip install pysat` installs an unrelated project of that import name.
    other = " (not the unrelated 'pysat')" if dist == "python-sat" else ""
    also = "" if extra in OUTSIDE_ALL else " (or 'cbsolve[all]')"
    return f"{feature} needs the {dist} package{other}: pip install 'cbsolve[{extra}]'{also}"


def require(module: str, feature: str) -> ModuleType:
    """Import ``module`` (e.g. ``"ortools.sat.python.cp_model"``) for ``feature`` (e.g. "the
    CP-SAT backend"); :class:`MissingExtra` with the one line when its package is missing."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is None or not (module == exc.name or module.startswith(exc.name + ".")):
            raise       # a package the extra itself needs is missing: a broken install, not ours
        message = missing_message(module, feature)
        if exc.name != _top(module):    # the top-level name imports but is another project
            message += f"; the installed {_top(module)!r} lacks {exc.name!r}"
        raise MissingExtra(message) from None


def imported_within(module: str, deadline: Deadline) -> bool:
    """Import ``module`` while ``deadline`` lasts: True once it is imported (or failed to:
    :func:`require` then says why), False when the deadline expires first (a time limit or
    Ctrl-C's stop request). A Python import cannot be stopped, and OR-Tools' takes 0.4-1 s
    (it imports pandas), so it runs in a background thread that finishes it while the caller
    goes on without the module."""
    def import_it() -> None:
        try:
            importlib.import_module(module)
        except BaseException:       # noqa: BLE001  (require() reports it in the caller)
            pass

    try:
        finish_or_abandon(import_it, deadline)
    except Abandoned:
        return False
    return True
