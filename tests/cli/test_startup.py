"""Start-up: listing the commands, scoring one pair and a small game's ``consistent``,
``partition`` and ``next`` (a scored or first-candidate heuristic, the opening) import no
heavy package (NumPy, the solver back-ends), and the lazy command list says what each
command's own help says."""
import importlib
import subprocess
import sys
from pathlib import Path

import click
import pytest

from cbsolve.cli import COMMAND_MODULES, SHORT_HELP, app

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "ortools", "pysat", "scipy", "matplotlib", "rich")

PROBE = """
import sys
from cbsolve.cli import main
code = main(sys.argv[1:])
heavy = sorted({m.split(".")[0] for m in sys.modules} & set(HEAVY))
sys.stderr.write(f"HEAVY {heavy}\\n")
"""


@pytest.mark.parametrize("argv", [["--help"], ["score", "0123", "1234"],
                                  ["score", "1122", "1212", "--variant", "mastermind", "--json"],
                                  ["no-such-command"],
                                  ["consistent", "0123:1,2", "4567:0,1", "--count"],
                                  ["consistent", "0123:1,2", "--all", "--json"],
                                  ["consistent", "1122:1,1", "--variant", "mastermind", "--limit", "3"],
                                  ["consistent", "12:1", "--variant", "black-peg", "--length", "2"],
                                  ["consistent", "ABCDE:1,1", "--letters", "8", "--length", "5",
                                   "--no-leading-zero", "--count", "--backend", "native"],
                                  ["partition", "0123"], ["partition", "0123", "4567:0,1", "--json"],
                                  ["partition", "1122", "1234:1,1", "--variant", "mastermind"],
                                  ["partition", "0123", "0132:4,0", "0123:1,2"],
                                  ["next"], ["next", "--variant", "mastermind"],
                                  ["next", "0123:1,2"], ["next", "0123:1,2", "4567:0,1", "--json"],
                                  ["next", "1122:1,1", "--variant", "mastermind"],
                                  ["next", "1234:2", "--variant", "black-peg", "--strategy",
                                   "entropy", "--guesses", "candidates"],
                                  ["next", "0123:1,2", "--strategy", "first"],
                                  ["next", "0123:4,0", "--json"]])
def test_listing_and_scoring_import_no_heavy_package(argv):
    probe = f"HEAVY = {HEAVY!r}\n{PROBE}"
    proc = subprocess.run([sys.executable, "-c", probe, *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    last = proc.stderr.strip().splitlines()[-1]
    assert last == "HEAVY []", (argv, proc.stderr)


def test_the_command_list_matches_each_commands_own_help():
    for name in COMMAND_MODULES:
        importlib.import_module(f"cbsolve.cli.{name}")
        command = app.commands[name]
        assert name in SHORT_HELP, f"add {name!r} to SHORT_HELP in cbsolve/cli/__init__.py"
        for limit in (45, 60, 200):
            assert (click.utils.make_default_short_help(SHORT_HELP[name], limit)
                    == command.get_short_help_str(limit)), name


def test_help_lists_every_command():
    proc = subprocess.run([sys.executable, "-m", "cbsolve", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    listed = [line.split()[0] for line in proc.stdout.split("Commands:")[1].splitlines()
              if line.strip()]
    assert listed == sorted(COMMAND_MODULES)
