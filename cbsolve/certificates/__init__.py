"""Certificates: strategy trees and proofs as files, and the independent verifier that
re-derives every number they claim from the scorer alone.

- :mod:`.tree`: strategy trees (docs/tree-format.md): build, read, write, statistics.
- :mod:`.certify`: the verifier (``cbsolve verify``), with :mod:`.certify_orbits` (symbols a
  node's secrets cannot tell apart) and :mod:`.settle_bound` (the settle table it recomputes).
- :mod:`.claims`: what a tree file claims, compared with what its replay measures.
- :mod:`.certified`: the certified trees shipped in ``models/``, found by variant and objective.
"""
