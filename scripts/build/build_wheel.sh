#!/usr/bin/env bash
# A portable wheel of cbsolve in dist/ (or the directory given): the kernels built for any
# x86-64 (no -march: the fast paths are compiled per instruction set and chosen at run time;
# CBSOLVE_PORTABLE=1 recompiles every kernel, so no object of an older -march=native build
# slips in), so the wheel installs with no compiler on a Linux of this glibc or newer
# that has libgomp. Check it with scripts/build/check_portable.py.
#   scripts/build/build_wheel.sh [OUT_DIR]   (PYTHON=python3.12 for another interpreter)
#   then: pip install "dist/cbsolve-...whl[all]"
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$repo/dist}"
mkdir -p "$out"
CBSOLVE_PORTABLE=1 "${PYTHON:-python}" -m pip wheel --no-deps -q -w "$out" "$repo"
ls -1 "$out"/cbsolve-*.whl
