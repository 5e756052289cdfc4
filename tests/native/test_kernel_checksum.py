"""The scoring and consistency kernels compute the same answers on 64-bit ARM as on x86-64 on
every instruction-set path: scripts/build/check_arm.sh --run-only builds
scripts/build/kernel_checksum.cpp for both, runs the aarch64 build under qemu-aarch64 and
compares (skipped where the cross compiler or the emulator is missing)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("aarch64-linux-gnu-g++") and shutil.which("qemu-aarch64")),
                    reason="needs g++-aarch64-linux-gnu and qemu-user")
def test_arm_runs_give_the_answers_of_every_x86_path():
    run = subprocess.run([str(ROOT / "scripts/build/check_arm.sh"), "--run-only"],
                         capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "same answers  x86-64 scalar and aarch64 (qemu) scalar: 6 games" in run.stdout
    assert "DIFFERENT" not in run.stdout
    # Knuth, "The computer as master mind" (J. Recreational Mathematics 9, 1976): his minimax
    # rule plays Mastermind 4x6 in 5801 guesses over the 1296 secrets (4.476), 5 at worst.
    assert "mastermind-4x6 codes 1296" in run.stdout
    assert "minimax total 5801 worst 5" in run.stdout
