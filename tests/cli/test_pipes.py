"""A reader that goes away (``cbsolve ... | head -1``) ends the command quietly with exit 0
(docs/contract.md, "Every command"): click's own handler made it exit 1, which the contract
keeps for "the answer is none"."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cbsolve", *args], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def test_a_listing_whose_reader_leaves_after_one_line_exits_0_quietly():
    # 151,200 secrets, about 1 MB: far more than a pipe holds, so the writer meets the closed pipe
    proc = start("consistent", "--all", "--length", "6", "--digits", "10", "--time-limit", "60")
    proc.stdin.close()
    first = proc.stdout.readline()
    proc.stdout.close()                      # `head -1` is done
    code = proc.wait(timeout=120)            # guards against a hang only
    assert first.startswith(b"exactly 151200")
    assert code == 0 and proc.stderr.read() == b""


def test_serve_whose_reader_leaves_exits_0_quietly():
    proc = start("serve")
    request = json.dumps({"cmd": "score", "secret": "0123", "guess": "0132"}).encode() + b"\n"
    proc.stdin.write(request)
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["bulls"] == 2
    proc.stdout.close()                      # the reader leaves; the next answer has nowhere to go
    proc.stdin.write(request)
    proc.stdin.close()
    code = proc.wait(timeout=120)
    assert code == 0 and proc.stderr.read() == b""


def test_a_full_disk_is_still_an_error(tmp_path):
    """Only a reader that left is quiet: another failure to write the output is exit 2."""
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "cbsolve", "score", "0123", "0132"],
                              cwd=ROOT, stdout=full, stderr=subprocess.PIPE, timeout=120)
    assert proc.returncode == 2 and b"cannot write the output" in proc.stderr
