"""Collection rules for the whole repository (tests/conftest.py holds the fixtures)."""
import importlib.util

# Optional extras: their modules cannot be imported (nor their doctests collected) without them.
collect_ignore_glob = [] if importlib.util.find_spec("gymnasium") else ["cbsolve/gym/*"]
if not importlib.util.find_spec("verifiers"):
    collect_ignore_glob += ["cbsolve/integrations/verifiers.py", "cbsolve_codebreaker/*"]
if not importlib.util.find_spec("textarena"):
    collect_ignore_glob += ["cbsolve/integrations/textarena.py"]
