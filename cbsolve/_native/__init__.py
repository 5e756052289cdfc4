"""Compiled kernels (one extension module per ``*.cpp`` here; see setup.py).

OpenMP threads sleep between parallel regions instead of spinning: cbsolve interleaves short
kernels with Python work, and on a shared 2-core machine spinning threads steal the core the
Python side needs. Set before the first kernel module loads libgomp; a user's value wins.
"""
import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

# CBSOLVE_ISA forces the kernels' instruction-set path (cbsolve/runtime/isa.py); a name that is not a
# path is ignored by the kernels, so say so once rather than let a benchmark measure the wrong one.
_isa = os.environ.get("CBSOLVE_ISA")
if _isa and _isa not in ("scalar", "avx2", "avx512"):
    import sys

    print(f"cbsolve: CBSOLVE_ISA={_isa!r} is not scalar, avx2 or avx512; the kernels use the best "
          "path this processor runs", file=sys.stderr)
