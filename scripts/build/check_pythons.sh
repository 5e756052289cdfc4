#!/usr/bin/env bash
# Builds and tests cbsolve on each Python version, one after another, from a clean clone of
# this repository (its last commit): a fresh venv a version, the README's two commands in it
# (`pip install -e ".[all,test]"`, then the not-slow suite). One summary line a version; the
# logs stay in the work directory printed first.
#
#   scripts/build/check_pythons.sh [VERSION|INTERPRETER ...]     (default: 3.11 3.12 3.13)
# A version is found as python3.X on PATH, else as pyenv's newest 3.X.*.
set -uo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
echo "work directory: $work"
git clone -q "$repo" "$work/src" || exit 2

interpreter() {     # a version (3.12) or an interpreter's path or name -> its path, if it runs
    local c
    case "$1" in
        3.*) for c in "$(command -v "python$1")" \
                      "$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$1".*/bin/python 2>/dev/null | sort -V | tail -1)"; do
                 # (a pyenv shim exists for every version but runs only the selected ones)
                 [ -n "$c" ] && "$c" -c pass 2>/dev/null && { echo "$c"; return; }
             done ;;
        *) c="$(command -v "$1")" && "$c" -c pass 2>/dev/null && echo "$c" ;;
    esac
}

failed=0
for want in "${@:-3.11 3.12 3.13}"; do
    for v in $want; do
        py="$(interpreter "$v")"
        if [ -z "$py" ]; then echo "Python $v: not found"; failed=1; continue; fi
        name="$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
        env="$work/venv-$name"
        t0=$(date +%s)
        "$py" -m venv "$env" && (cd "$work/src" && "$env/bin/pip" install -e ".[all,test]") \
            >"$work/install-$name.log" 2>&1
        rc=$?
        t1=$(date +%s)
        if [ "$rc" != 0 ]; then
            echo "Python $name: install FAILED in $((t1 - t0)) s ($work/install-$name.log)"
            failed=1; continue
        fi
        (cd "$work/src" && "$env/bin/python" -m pytest -m "not slow" -n auto -q -p no:cacheprovider) \
            >"$work/tests-$name.log" 2>&1
        rc=$?
        t2=$(date +%s)
        echo "Python $("$py" --version | cut -d' ' -f2): install $((t1 - t0)) s, tests $((t2 - t1)) s:" \
             "$(tail -1 "$work/tests-$name.log") (exit $rc)"
        [ "$rc" = 0 ] || failed=1
    done
done
exit "$failed"
