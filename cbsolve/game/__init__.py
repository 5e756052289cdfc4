"""The game: the fixed rules of a variant, its codes, the scoring rule, feedback logs, and the
symmetry that makes codes equivalent. Everything else in cbsolve reasons about a game through
these modules; they import nothing of the engines above them.

- :mod:`.variant`: ``Variant``, one game's rules as a frozen value.
- :mod:`.codes`: ``CodeSpace``, the codes of a variant, counted, ranked and enumerated.
- :mod:`.rule` and :mod:`.scoring`: the rule for one pair in plain Python, and the same rule
  in the native core and the NumPy reference.
- :mod:`.feedback`: feedback entries and logs, parsed and validated.
- :mod:`.symmetry`, :mod:`.stabilizer`, :mod:`.patterns`: which codes a history cannot tell
  apart.
- :mod:`.guess_pool`: which codes a strategy, a search or a tree may guess.
- :mod:`.capacity`: the counting lower bounds the replies' number allows.
"""
