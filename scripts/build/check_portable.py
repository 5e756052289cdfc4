"""Does a wheel (or a kernel .so) run on any x86-64? Its machine code is read with objdump:
outside the run-time-dispatched copies of the hot loops (the namespaces ``isa_avx2::`` and
``isa_avx512::``, cbsolve/_native/toolkit_isa.hpp), no instruction may need more than the
x86-64 baseline: no AVX (VEX/EVEX: a ``v`` mnemonic, a ymm/zmm/mask register), no BMI, no
POPCNT. A kernel built with ``-march=native`` on an AVX2 or AVX-512 machine has thousands.

    python scripts/build/check_portable.py dist/cbsolve-*.whl [more .whl or .so]

Exit 0 when every kernel is portable, 1 otherwise (the first offending functions are named), 2
on bad input or without objdump. Linux x86-64 only (ELF, AT&T syntax).
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter
from pathlib import Path

#: Functions allowed beyond the baseline: the dispatched copies, by namespace.
DISPATCHED = re.compile(r"\bisa_(avx2|avx512)::")
#: Operands or mnemonics no baseline x86-64 code has. (tzcnt is left out: GCC's baseline
#: ``rep bsf`` decodes as tzcnt.)
BEYOND = re.compile(r"%[yz]mm\d|%k[0-7]\b|^v[a-z]|^(shlx|shrx|sarx|andn|bzhi|pdep|pext|rorx|mulx|"
                    r"blsr|blsi|blsmsk|popcnt|lzcnt|movbe|adcx|adox)\b")
FUNCTION = re.compile(r"^[0-9a-f]+ <(.+)>:$")
INSTRUCTION = re.compile(r"^\s+[0-9a-f]+:\s+(\S.*)$")


def offending(so: Path) -> tuple[Counter, int]:
    """(beyond-baseline instructions per function outside the dispatched copies, the number of
    such instructions inside them)."""
    text = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", str(so)],
                          capture_output=True, text=True, check=True).stdout
    bad, dispatched, function = Counter(), 0, ""
    for line in text.splitlines():
        if m := FUNCTION.match(line):
            function = m.group(1)
        elif (m := INSTRUCTION.match(line)) and BEYOND.search(m.group(1)):
            if DISPATCHED.search(function):
                dispatched += 1
            else:
                bad[function] += 1
    return bad, dispatched


def kernels(paths: list[Path], tmp: Path) -> list[Path]:
    out = []
    for p in paths:
        if p.suffix == ".whl":
            with zipfile.ZipFile(p) as whl:
                names = [n for n in whl.namelist() if n.endswith(".so")]
                whl.extractall(tmp / p.stem, names)
            out += [tmp / p.stem / n for n in names]
        elif p.suffix == ".so":
            out.append(p)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", type=Path, help=".whl or .so files")
    args = ap.parse_args(argv)
    if shutil.which("objdump") is None:
        print("check_portable: objdump not found (binutils)", file=sys.stderr)
        return 2
    missing = [str(p) for p in args.paths if not p.is_file()]
    if missing:
        print(f"check_portable: no such file: {missing[0]}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        sos = kernels(args.paths, Path(tmp))
        if not sos:
            print("check_portable: no kernel (.so) in the files given", file=sys.stderr)
            return 2
        failed = 0
        for so in sos:
            bad, dispatched = offending(so)
            if bad:
                failed += 1
                worst = ", ".join(f"{f[:80]} ({n})" for f, n in bad.most_common(3))
                print(f"NOT portable {so.name}: {sum(bad.values())} instructions beyond x86-64 in "
                      f"{len(bad)} functions outside the dispatched copies, e.g. {worst}")
            else:
                print(f"portable     {so.name}: baseline x86-64 outside the dispatched copies "
                      f"({dispatched} AVX2/AVX-512 instructions inside them)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
