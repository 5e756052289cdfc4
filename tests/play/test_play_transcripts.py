"""The transcripts of docs/play.md are what the commands print: each `$ cbsolve play|assist|bot`
block is replayed, its typed lines fed on stdin (the console echoes them when stdin is not a
terminal, so the output reads like the page), and compared line by line."""
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "play.md"
PROMPTS = re.compile(r"^(Your guess #\d+: |Score for \S+: |Correction: |> )(.*)$")


def transcripts():
    blocks = re.findall(r"```\n(\$ cbsolve (?:play|assist|bot)[^\n]*\n.*?)```", DOC.read_text(),
                        re.S)
    return [b for b in blocks if len(b.splitlines()) > 2]


def replay(block: str) -> tuple[list[str], list[str]]:
    head, *lines = block.rstrip("\n").splitlines()
    argv = shlex.split(head[2:].split("  #")[0])
    if argv[1] == "bot":
        typed = lines[0::2]
    else:
        typed = [m.group(2) for x in lines if (m := PROMPTS.match(x))]
    proc = subprocess.run([sys.executable, "-m", *argv], input="".join(t + "\n" for t in typed),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = proc.stdout.rstrip("\n").splitlines()
    if got and PROMPTS.match(got[-1]) and not PROMPTS.match(got[-1]).group(2):
        got = got[:-1]                     # the prompt left waiting at the end of input
    if argv[1] == "bot":
        lines = lines[1::2]                # the bot answers without echoing the commands
    # a line the page shortens with a final " ..." stands for any line it begins
    got = [w if w.endswith(" ...") and g.startswith(w[:-4]) else g
           for g, w in zip(got, lines + [""] * len(got), strict=False)]
    return got, lines


@pytest.mark.parametrize("block", transcripts(), ids=lambda b: b.splitlines()[0][:40])
def test_docs_play_transcript_is_what_the_command_prints(block):
    got, want = replay(block)
    assert got == want
