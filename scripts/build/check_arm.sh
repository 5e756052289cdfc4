#!/usr/bin/env bash
# Do the kernels build and compute the same answers on 64-bit ARM?
# 1. Each cbsolve/_native/*.cpp is compiled and linked with a cross compiler (Debian: apt-get
#    install g++-aarch64-linux-gnu) as the build does it (-O3, OpenMP, C++17), against this
#    interpreter's Python and pybind11 headers, into an aarch64 shared object; on ARM the kernels
#    have the baseline path alone (toolkit_isa.hpp).
# 2. The scoring and consistency kernels run: scripts/build/kernel_checksum.cpp (reply matrices,
#    partitions, counting verdicts, a log's consistent codes and the minimax strategy played
#    against every secret of six games, as checksums) is built for this machine and, statically,
#    for aarch64, run here on every instruction-set path the processor has and under qemu-aarch64
#    (apt-get install qemu-user), and every run must print the same lines. The modules
#    themselves cannot run there: they need an aarch64 CPython and NumPy, which this machine
#    does not have.
#   scripts/build/check_arm.sh [--run-only] [STEM ...]
#     --run-only   only step 2;  STEM ...: step 1 for those kernels only
#     CXX=..., QEMU=... for another cross compiler or emulator
# One line a kernel with the compiler's CPU seconds, one line a run; exit 0 when all build and
# every run agrees, 1 when one fails or differs, 2 without the cross compiler or the emulator.
set -uo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cxx="${CXX:-aarch64-linux-gnu-g++}"
py="${PYTHON:-python}"
command -v "$cxx" >/dev/null || { echo "check_arm: no $cxx (apt-get install g++-aarch64-linux-gnu)" >&2; exit 2; }
pb="$("$py" -c 'import pybind11; print(pybind11.get_include())')" || exit 2
inc="$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" || exit 2
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
run_only=0
if [ "${1:-}" = "--run-only" ]; then run_only=1; shift; fi
stems=("$@")
[ "$run_only" = 1 ] && stems=(none)
[ ${#stems[@]} -gt 0 ] || stems=($(cd "$repo/cbsolve/_native" && ls *.cpp | sed 's/\.cpp$//'))
echo "$("$cxx" --version | head -1)"
failed=0
for s in "${stems[@]}"; do
    [ "$run_only" = 1 ] && break
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

# 2. The kernels run, here and under the emulator.
qemu="${QEMU:-qemu-aarch64}"
command -v "$qemu" >/dev/null || { echo "check_arm: no $qemu (apt-get install qemu-user)" >&2; exit 2; }
flags=(-std=c++17 -O3 -fopenmp -ffunction-sections -Wl,--gc-sections -I"$repo/cbsolve/_native"
       -I"$pb" -I"$inc" "$repo/scripts/build/kernel_checksum.cpp")
# --gc-sections: scoring_pack.hpp's NumPy constructor (pybind11) is never called; dropped, it
# needs no libpython.
g++ "${flags[@]}" -o "$out/checksum-host" 2>"$out/host.log" \
    || { echo "host build FAIL"; head -20 "$out/host.log"; exit 1; }
"$cxx" "${flags[@]}" -static -o "$out/checksum-arm" 2>"$out/arm.log" \
    || { echo "aarch64 build FAIL (the driver)"; head -20 "$out/arm.log"; exit 1; }
"$qemu" "$out/checksum-arm" >"$out/arm.txt" || { echo "aarch64 run FAIL"; exit 1; }
for path in scalar avx2 avx512; do
    CBSOLVE_ISA="$path" "$out/checksum-host" >"$out/host.txt" || { echo "host run FAIL"; exit 1; }
    got="$(head -1 "$out/host.txt")"
    [ "$got" = "path $path" ] || continue     # a path this processor lacks: the best one ran
    if diff <(tail -n +2 "$out/arm.txt") <(tail -n +2 "$out/host.txt") >"$out/diff.txt"; then
        echo "same answers  x86-64 $path and aarch64 (qemu) scalar: $(($(wc -l <"$out/arm.txt") - 1)) games"
    else
        failed=1
        echo "DIFFERENT     x86-64 $path and aarch64 (qemu) scalar:"; cat "$out/diff.txt"
    fi
done
tail -n +2 "$out/arm.txt"
exit "$failed"
