"""The Gymnasium ids (``cbsolve/BullsCows-v0`` ...) registered on ``import cbsolve``, without
importing Gymnasium then.

Importing Gymnasium costs 0.3-0.8 s (it loads NumPy and its own environments), more than all of
``import cbsolve``, which a command such as ``cbsolve score`` pays at every start. And
Gymnasium 1.x reads no package entry points for plugins. So:

* when Gymnasium is already imported, the ids are registered at once (nothing to load: the
  registry stores the entry point as a string, the environment's module loads at ``make``);
* else an import hook waits for the first ``import gymnasium`` and registers them right after
  it, so ``import cbsolve; import gymnasium; gymnasium.make("cbsolve/BullsCows-v0")`` works
  whatever the order of the imports;
* without Gymnasium installed the hook is never called (``cbsolve.gym`` says what to
  install).
"""
from __future__ import annotations

import sys

ENTRY_POINT = "cbsolve.gym.env:CodeBreakerEnv"
#: Registered id -> the preset it plays; ``cbsolve/CodeBreaker-v0`` plays any variant.
IDS = {"cbsolve/BullsCows-v0": "bulls-cows", "cbsolve/Mastermind-v0": "mastermind"}
ANY_VARIANT = "cbsolve/CodeBreaker-v0"


def register_ids(gymnasium) -> None:
    """Register the ids on ``gymnasium``'s registry (again: a no-op)."""
    for env_id, preset in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=ENTRY_POINT, kwargs={"variant": preset})
    if ANY_VARIANT not in gymnasium.registry:
        gymnasium.register(ANY_VARIANT, entry_point=ENTRY_POINT)


class _AfterGymnasium:
    """A finder on ``sys.meta_path`` (any object with ``find_spec``; importlib.abc is not
    loaded for it) that finds nothing itself: it wraps the loader of ``gymnasium`` so that the
    ids are registered once the package has run, then leaves ``sys.meta_path``."""

    def find_spec(self, name, path=None, target=None):
        if name != "gymnasium":
            return None
        spec = None
        for finder in sys.meta_path:           # whichever finder would have found it
            find = None if finder is self else getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find else None
            if spec is not None:
                break
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader
        run = loader.exec_module

        def exec_module(module):
            # only an import runs the module (importlib.util.find_spec, as a check that
            # Gymnasium is installed, does not): the hook stays until then
            run(module)
            self.remove()
            try:
                register_ids(module)
            except Exception:  # noqa: BLE001  a Gymnasium we do not know: `import cbsolve.gym`
                pass

        loader.exec_module = exec_module      # type: ignore[method-assign]
        return spec

    def remove(self) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)


def install() -> None:
    """Register now if Gymnasium is loaded, else when it is first imported."""
    loaded = sys.modules.get("gymnasium")
    if loaded is not None:
        try:
            register_ids(loaded)
        except Exception:  # noqa: BLE001  (a half-imported or unknown Gymnasium: leave it)
            pass
        return
    if not any(isinstance(f, _AfterGymnasium) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasium())
