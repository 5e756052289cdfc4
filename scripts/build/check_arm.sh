#!/usr/bin/env bash
# Do the kernels build for 64-bit ARM? Each cbsolve/_native/*.cpp is compiled and linked with a
# cross compiler (Debian: apt-get install g++-aarch64-linux-gnu) as the build does it (-O3,
# OpenMP, C++17), against this interpreter's Python and pybind11 headers, into an aarch64 shared
# object; on ARM the kernels have the baseline path alone (toolkit_isa.hpp). A compile check:
# running them needs an aarch64 Python (qemu-user can run one; none is installed here).
#   scripts/build/check_arm.sh [STEM ...]      (CXX=... for another cross compiler)
# One line a kernel with the compiler's CPU seconds; exit 0 when all build, 1 when one fails,
# 2 without the cross compiler.
set -uo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cxx="${CXX:-aarch64-linux-gnu-g++}"
py="${PYTHON:-python}"
command -v "$cxx" >/dev/null || { echo "check_arm: no $cxx (apt-get install g++-aarch64-linux-gnu)" >&2; exit 2; }
pb="$("$py" -c 'import pybind11; print(pybind11.get_include())')" || exit 2
inc="$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" || exit 2
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
stems=("$@")
[ ${#stems[@]} -gt 0 ] || stems=($(cd "$repo/cbsolve/_native" && ls *.cpp | sed 's/\.cpp$//'))
echo "$("$cxx" --version | head -1)"
failed=0
for s in "${stems[@]}"; do
    so="$out/$s.so"
    if /usr/bin/time -f "%U %S" -o "$out/$s.time" "$cxx" -std=c++17 -O3 -fopenmp -fPIC \
            -fvisibility=hidden -g0 -shared -I"$pb" -I"$inc" "$repo/cbsolve/_native/$s.cpp" \
            -o "$so" 2>"$out/$s.log" && file "$so" | grep -q "ARM aarch64"; then
        read -r u sy <"$out/$s.time"
        echo "aarch64 ok    $s ($(awk -v u="$u" -v s="$sy" 'BEGIN { printf "%.1f", u + s }') s CPU)"
    else
        failed=1
        echo "aarch64 FAIL  $s"; head -20 "$out/$s.log"
    fi
done
exit "$failed"
