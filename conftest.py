"""Collection rules for the whole repository (tests/conftest.py holds the fixtures)."""
import importlib.util
from pathlib import Path

# Optional extras: their modules cannot be imported (nor their doctests collected) without them.
collect_ignore_glob = [] if importlib.util.find_spec("gymnasium") else ["cbsolve/gym/*"]
if not importlib.util.find_spec("verifiers"):
    collect_ignore_glob += ["cbsolve/integrations/verifiers.py", "cbsolve_codebreaker/*"]
if not importlib.util.find_spec("textarena"):
    collect_ignore_glob += ["cbsolve/integrations/textarena.py"]

PACKAGE = Path(__file__).resolve().parent / "cbsolve"


def pytest_ignore_collect(collection_path: Path, config):
    """Doctests (``--doctest-modules``): a module of the package without an example (no
    ``>>>``) is not imported to look for one. Importing every module in every xdist worker cost
    seconds of CPU a worker (the LLM adapters load their frameworks: verifiers' about 5 s) for no
    test; the tests import the modules they test."""
    if (collection_path.suffix == ".py" and PACKAGE in collection_path.parents
            and ">>>" not in collection_path.read_text(encoding="utf-8")):
        return True
    return None
