"""Compiled kernels (one extension module per ``*.cpp`` here; see setup.py).

OpenMP threads sleep between parallel regions instead of spinning: cbsolve interleaves short
kernels with Python work, and on a shared 2-core machine spinning threads steal the core the
Python side needs. Set before the first kernel module loads libgomp; a user's value wins.
"""
import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
