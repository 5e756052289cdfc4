"""The Gymnasium face holds the contract: the ids exist after ``import
cbsolve`` alone, in either order of imports, without ``import cbsolve`` loading Gymnasium; bad
constructor arguments, a step before reset, unknown reset options and actions that are no
code's index are CbsolveErrors (Gymnasium's own error types where its ecosystem expects
them)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import cbsolve as cb  # noqa: E402
from cbsolve.gym import make_env  # noqa: E402
from cbsolve.gym.env import InvalidAction, ResetNeeded  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=True).stdout.strip()


@pytest.mark.parametrize("imports", [
    "import cbsolve, gymnasium", "import gymnasium, cbsolve",
    # a check that Gymnasium is installed (conftest.py's) looks it up without running it
    "import cbsolve, importlib.util; importlib.util.find_spec('gymnasium'); import gymnasium"])
def test_ids_are_registered_by_import_cbsolve_in_either_order(imports):
    out = python(f"{imports}\n"
                 "env = gymnasium.make('cbsolve/BullsCows-v0')\n"
                 "print(env.action_space.n, 'cbsolve.gym' in __import__('sys').modules)")
    assert out == "5040 True"      # the environment's module loaded at make, not before


def test_import_cbsolve_does_not_import_gymnasium():
    assert python("import sys, cbsolve; print('gymnasium' in sys.modules)") == "False"


@pytest.mark.parametrize("kwargs, name", [
    ({"max_guesses": "10"}, "max_guesses"), ({"max_guesses": 0}, "max_guesses"),
    ({"max_guesses": 2.5}, "max_guesses"), ({"variant": 42}, "variant"),
    ({"reward": "points"}, "reward"), ({"render_mode": "human"}, "render_mode"),
])
def test_bad_constructor_arguments_are_cbsolve_errors_naming_them(kwargs, name):
    kwargs = {"variant": "mastermind", **kwargs}
    with pytest.raises(cb.CbsolveError, match=name):
        make_env(**kwargs)
    with pytest.raises(cb.CbsolveError, match=name):     # through the registry too
        gymnasium.make("cbsolve/CodeBreaker-v0", **kwargs)


def test_step_before_reset_and_after_the_end_is_reset_needed():
    env = make_env("mastermind", max_guesses=1)
    with pytest.raises(ResetNeeded) as caught:
        env.step(0)
    assert isinstance(caught.value, gymnasium.error.ResetNeeded)
    assert isinstance(caught.value, cb.CbsolveError)
    env.reset(seed=1, options={"secret": "6666"})
    *_, terminated, truncated, _ = env.step(env.unwrapped.encode("1111"))
    assert (terminated, truncated) == (False, True)
    with pytest.raises(ResetNeeded):
        env.step(0)
    wrapped = gymnasium.make("cbsolve/Mastermind-v0")      # Gymnasium's wrapper says it first
    with pytest.raises(gymnasium.error.ResetNeeded):
        wrapped.step(0)


@pytest.mark.parametrize("options", [{"secrets": "1234"}, {"seed": 3}, {"entries": "1234:1,0"},
                                     {"secret": 1234}, ["secret"]])
def test_unknown_or_malformed_reset_options_are_refused(options):
    env = make_env("mastermind")
    with pytest.raises(cb.CbsolveError):
        env.reset(seed=0, options=options)


def test_reset_options_take_the_json_log_form_too():
    env = make_env("mastermind")
    _, info = env.reset(seed=0, options={"entries": [{"guess": "1122", "bulls": 1, "cows": 1},
                                                     "3344:0,1"]})
    assert info["candidates"] == cb.consistent(["1122:1,1", "3344:0,1"], variant="mastermind",
                                               count=True, limit=0).count


@pytest.mark.parametrize("action", [-1, 1296, 10**30, 2.0, "0", True, None, np.int64(-3)])
def test_actions_that_are_no_codes_index_are_invalid_actions(action):
    env = make_env("mastermind")
    env.reset(seed=0)
    with pytest.raises(InvalidAction) as caught:
        env.unwrapped.decode(action)
    assert isinstance(caught.value, gymnasium.error.InvalidAction) and "0..1295" in str(caught.value)
    with pytest.raises(InvalidAction):
        env.step(action)


def test_numpy_actions_are_codes():
    env = make_env("mastermind")
    env.reset(seed=0)
    assert env.decode(np.int64(0)) == env.decode(np.array(0)) == "1111"
    assert env.decode(1295) == "6666"
    env.step(np.int64(7))
