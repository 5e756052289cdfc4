"""Collection rules for the whole repository (tests/conftest.py holds the fixtures)."""
import importlib.util

# Optional extras: their modules cannot be imported (nor their doctests collected) without them.
collect_ignore_glob = [] if importlib.util.find_spec("gymnasium") else ["cbsolve/gym/*"]
