"""Input files as a pipe sees them: ``--log -`` is stdin; a missing file, a directory and a
binary file are each one line naming what is wrong, exit 2."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def cbsolve(*args, stdin=None, cwd=ROOT):
    """The CLI of this tree, run in ``cwd`` (short file names: messages clip long ones)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "cbsolve", *args], cwd=cwd, input=stdin,
                          capture_output=True, timeout=120, env=env)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def test_log_dash_reads_stdin():
    code, out, err = cbsolve("consistent", "--log", "-", "4567:0,1", "--count", "--json",
                             stdin=b"0123 1 2\n")
    assert code == 0, err
    piped = out
    code, out, _ = cbsolve("consistent", "0123:1,2", "4567:0,1", "--count", "--json")
    assert '"count": 108' in piped and '"count": 108' in out


@pytest.mark.parametrize("make, message", [
    (lambda d: "missing.log", "'missing.log': no such file"),
    (lambda d: ".", "'.' is a directory, not a file"),
    (lambda d: (d / "binary.log").write_bytes(b"0123 1 2\n\xff\xfe\x00\x01") and "binary.log",
     "'binary.log' is not a UTF-8 text file (byte 9 is 0xff)"),
])
@pytest.mark.parametrize("command", [["consistent"], ["next"], ["optimal"]])
def test_unreadable_logs_are_one_line_and_exit_2(tmp_path, make, message, command):
    code, out, err = cbsolve(*command, "--log", make(tmp_path), cwd=tmp_path)
    assert code == 2 and out == ""
    assert err == f"cbsolve: error: log file {message}\n"


@pytest.mark.parametrize("args", [["verify", "missing.json"],
                                  ["convert", "missing.json", "out.json"]])
def test_a_missing_tree_says_no_such_file(tmp_path, args):
    code, _, err = cbsolve(*args, cwd=tmp_path)
    assert code == 2 and err == "cbsolve: error: 'missing.json': no such file\n"


def test_a_binary_tree_says_not_utf8(tmp_path):
    path = tmp_path / "tree.json"
    path.write_bytes(b'{"format": \xff}')
    code, _, err = cbsolve("verify", "tree.json", cwd=tmp_path)
    assert code == 2 and err == ("cbsolve: error: 'tree.json' is not a UTF-8 text file (byte 11 "
                                 "is 0xff)\n")
