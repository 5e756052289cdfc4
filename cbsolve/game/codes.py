"""CodeSpace: the set of codes of a variant, counted exactly, ranked, and enumerated.

Codes are tuples (or array rows) of symbol indices 0..D-1. The space is ordered
lexicographically by alphabet order; :meth:`CodeSpace.code_at` and :meth:`CodeSpace.index_of`
rank and unrank without enumerating, so sampling and sizes work at N=40, D=26. Enumeration gives
an ``(n_codes, N)`` uint8 array for spaces that fit in memory.

>>> from cbsolve.game.variant import Variant
>>> space = CodeSpace(Variant.preset("bulls-cows"))
>>> space.size, space.format(space.code_at(0)), space.index_of(space.parse("9876"))
(5040, '0123', 5039)
>>> CodeSpace(Variant(40, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", repeats=True)).size == 26**40
True
"""
from __future__ import annotations

from functools import cached_property
from math import perm
from typing import TYPE_CHECKING

from ..errors import InvalidCode, SpaceTooLarge
from .variant import Variant

if TYPE_CHECKING:  # numpy is imported where used, so `cbsolve score` starts fast
    import numpy as np

#: Largest space :meth:`CodeSpace.codes` enumerates (rows x N bytes; 10 of 10 distinct is 3.6M).
ENUMERATION_LIMIT = 20_000_000
#: Code lists kept across CodeSpace objects (read-only, so shared): every new FeedbackLog
#: makes a CodeSpace, and listing Bulls & Cows 4/10 again cost 0.8 ms of a 1.6 ms API call.
#: Spaces up to this many codes, the last few variants only (a list is rows x N bytes).
SHARED_CODES_LIMIT = 1_000_000
_SHARED_CODES: dict = {}
_SHARED_VARIANTS = 4
#: A larger list is shared too, the last one only: a position of Mastermind 8x8 (16.7 M codes,
#: 134 MB, 0.4-1 s to list) was listed three times, by the log, the service and the chooser.
_SHARED_LARGE: dict = {}


class CodeSpace:
    """All codes of one variant."""

    def __init__(self, variant: Variant):
        self.variant = variant
        self.length = variant.length
        self.n_symbols = variant.n_symbols
        self._index = {c: i for i, c in enumerate(variant.symbols)}
        # Symbols are read in either case where that is unambiguous (`rrgg` for RGBYOP); an
        # alphabet holding both cases of a letter keeps them apart. Codes print as declared.
        for c, i in list(self._index.items()):
            other = c.swapcase()
            if len(other) == 1 and other != c and other not in variant.symbols:
                self._index[other] = i

    # --- size and ranking ----------------------------------------------------------------
    @cached_property
    def size(self) -> int:
        """Exact number of codes (a Python int, any N and D)."""
        return self._count_suffixes(0, first_restricted=self.variant.no_leading_zero)

    def _count_suffixes(self, used: int, first_restricted: bool, filled: int = 0) -> int:
        """Codes completing a prefix of ``filled`` symbols of which ``used`` are distinct."""
        n, d = self.length, self.n_symbols
        rest = n - filled
        if rest == 0:
            return 1
        if self.variant.repeats:
            return (d - 1) * d ** (rest - 1) if first_restricted else d ** rest
        if first_restricted:
            return (d - 1) * perm(d - 1, rest - 1)
        return perm(d - used, rest)

    def _choices(self, prefix: list[int]) -> list[int]:
        """Symbols allowed at the next position after ``prefix``, in alphabet order."""
        syms = range(self.n_symbols)
        if not prefix and self.variant.no_leading_zero:
            syms = range(1, self.n_symbols)
        if self.variant.repeats:
            return list(syms)
        taken = set(prefix)
        return [s for s in syms if s not in taken]

    def code_at(self, index: int) -> tuple[int, ...]:
        """The ``index``-th code in lexicographic order (0-based), without enumerating."""
        if not 0 <= index < self.size:
            raise InvalidCode(f"code index {index} out of range; allowed 0..{self.size - 1}")
        prefix: list[int] = []
        for pos in range(self.length):
            block = self._count_suffixes(len(prefix) + 1, False, pos + 1)
            choices = self._choices(prefix)
            k, index = divmod(index, block)
            prefix.append(choices[k])
        return tuple(prefix)

    def index_of(self, code) -> int:
        """Lexicographic rank of a valid code (inverse of :meth:`code_at`)."""
        code = self.validate(code)
        rank = 0
        prefix: list[int] = []
        for pos, sym in enumerate(code):
            block = self._count_suffixes(len(prefix) + 1, False, pos + 1)
            rank += self._choices(prefix).index(sym) * block
            prefix.append(sym)
        return rank

    def indices_of(self, codes) -> np.ndarray:
        """:meth:`index_of` of many valid codes at once (an ``(n, N)`` uint8 array; int64
        ranks), without listing the space. The rank is a number in mixed radix: the digit of
        position p is the symbol's rank among those still allowed there (every symbol with
        repeats; the unused ones without; not the first symbol at position 0 under the
        no-leading-zero rule), its weight the number of codes completing a prefix of p + 1."""
        import numpy as np

        codes = np.asarray(codes, dtype=np.int64).reshape(-1, self.length)
        out = np.zeros(codes.shape[0], dtype=np.int64)
        for pos in range(self.length):
            digit = codes[:, pos].copy()
            if not self.variant.repeats and pos:    # unused symbols below it come before it
                digit -= (codes[:, :pos] < codes[:, pos:pos + 1]).sum(axis=1)
            if pos == 0 and self.variant.no_leading_zero:
                digit -= 1
            out += digit * self._count_suffixes(pos + 1, False, pos + 1)
        return out

    def codes_at(self, indices) -> np.ndarray:
        """``codes[indices]`` (an ``(n, N)`` uint8 array), without listing a large space that
        is not listed yet (Mastermind 8x8: 134 MB, 0.4-2 s): :meth:`codes_of_indices` then."""
        listed = self.__dict__.get("codes", _SHARED_CODES.get(self.variant,
                                                               _SHARED_LARGE.get(self.variant)))
        if listed is None and self.size <= SHARED_CODES_LIMIT:
            listed = self.codes
        if listed is not None:
            return listed[indices]
        return self.codes_of_indices(indices)

    def codes_of_indices(self, indices) -> np.ndarray:
        """:meth:`code_at` of many indices at once (the inverse of :meth:`indices_of`): the
        digits of each index in that mixed radix, each read as the symbol of that rank."""
        import numpy as np

        idx = np.asarray(indices, dtype=np.int64)
        flat = idx.reshape(-1)
        out = np.empty((flat.size, self.length), dtype=np.uint8)
        free = None if self.variant.repeats else np.ones((flat.size, self.n_symbols), dtype=bool)
        for pos in range(self.length):
            digit, flat = np.divmod(flat, self._count_suffixes(pos + 1, False, pos + 1))
            if pos == 0 and self.variant.no_leading_zero:
                digit = digit + 1       # the first symbol is not allowed there
            if free is None:
                out[:, pos] = digit
                continue
            # the symbol of rank `digit` among the unused ones (below: a leading one skipped)
            allowed = free.copy()
            if pos == 0 and self.variant.no_leading_zero:
                allowed[:, 0], digit = False, digit - 1
            sym = np.argmax(np.cumsum(allowed, axis=1) > digit[:, None], axis=1)
            out[:, pos] = sym
            free[np.arange(flat.size), sym] = False
        return out.reshape(*idx.shape, self.length)

    def random_codes(self, k: int, rng: np.random.Generator) -> list[tuple[int, ...]]:
        """``k`` codes drawn uniformly (with replacement) from the whole space."""
        size = self.size
        out = []
        for _ in range(k):
            # Python ints: the size may exceed 64 bits.
            idx = int.from_bytes(rng.bytes((size.bit_length() + 71) // 8), "little") % size
            out.append(self.code_at(idx))
        return out

    # --- enumeration ---------------------------------------------------------------------
    @property
    def enumerable(self) -> bool:
        return self.size <= ENUMERATION_LIMIT

    @cached_property
    def codes(self) -> np.ndarray:
        """All codes as a read-only ``(size, N)`` uint8 array in lexicographic order."""
        shared = _SHARED_CODES.get(self.variant, _SHARED_LARGE.get(self.variant))
        if shared is not None:
            return shared
        arr = self._list_codes()
        if self.size <= SHARED_CODES_LIMIT:
            if len(_SHARED_CODES) >= _SHARED_VARIANTS:
                _SHARED_CODES.pop(next(iter(_SHARED_CODES)), None)     # the oldest
            _SHARED_CODES[self.variant] = arr
        else:
            _SHARED_LARGE.clear()
            _SHARED_LARGE[self.variant] = arr
        return arr

    def _list_codes(self) -> np.ndarray:
        import numpy as np

        if not self.enumerable:
            # The fact only: each caller knows what its user can do instead.
            raise SpaceTooLarge(f"{self.variant.describe()} has {self.size} codes, more than the "
                                f"{ENUMERATION_LIMIT} that can be listed")
        n, d = self.length, self.n_symbols
        first = np.arange(1 if self.variant.no_leading_zero else 0, d, dtype=np.uint8)
        arr = first[:, None]
        # distinct: each row extended by the symbols it does not use yet, read off a mask of
        # used symbols (row-major nonzero keeps the order lexicographic); comparing each
        # extension with every column took 4.5 s on 9 of 9 (loaded), the mask 0.3 s
        used = np.zeros((arr.shape[0], d), dtype=bool)
        used[np.arange(arr.shape[0]), first] = True
        for _ in range(1, n):
            m = arr.shape[0]
            if self.variant.repeats:
                ext = np.empty((m * d, arr.shape[1] + 1), dtype=np.uint8)
                ext[:, :-1] = np.repeat(arr, d, axis=0)
                ext[:, -1] = np.tile(np.arange(d, dtype=np.uint8), m)
            else:
                rows, syms = np.nonzero(~used)
                ext = np.empty((rows.size, arr.shape[1] + 1), dtype=np.uint8)
                ext[:, :-1] = arr[rows]
                ext[:, -1] = syms
                used = used[rows]
                used[np.arange(rows.size), syms] = True
            arr = ext
        arr = np.ascontiguousarray(arr)
        assert arr.shape[0] == self.size
        arr.setflags(write=False)
        return arr

    # --- parse / format / validate -------------------------------------------------------
    def parse(self, text: str) -> tuple[int, ...]:
        """Parse a code string; raises :class:`InvalidCode` naming the problem."""
        if not isinstance(text, str):
            raise InvalidCode(f"a code must be a string, got {text!r}")
        symbols = self.variant.symbols
        bad = [c for c in text if c not in self._index]
        if bad:
            raise InvalidCode(f"code {text!r}: symbol {bad[0]!r} not in alphabet {symbols!r}")
        if len(text) != self.length:
            raise InvalidCode(f"code {text!r} has length {len(text)}; this variant needs {self.length}")
        return self.validate(tuple(self._index[c] for c in text), text)

    def spells(self, text: str) -> bool:
        """Whether ``text`` is written as a code: the variant's length, every character a
        symbol as :meth:`parse` reads it (either case where unambiguous). It may still be an
        invalid code (a repeated symbol, a leading zero): :meth:`parse` says which."""
        return len(text) == self.length and all(c in self._index for c in text)

    def validate(self, code, text: str | None = None) -> tuple[int, ...]:
        """Check a code given as symbol indices; returns it as a tuple of ints."""
        code = tuple(int(x) for x in code)
        shown = repr(text) if text is not None else repr(code)
        if len(code) != self.length:
            raise InvalidCode(f"code {shown} has length {len(code)}; this variant needs {self.length}")
        if any(not 0 <= x < self.n_symbols for x in code):
            raise InvalidCode(f"code {shown} has a symbol index outside 0..{self.n_symbols - 1}")
        if not self.variant.repeats and len(set(code)) != len(code):
            rep = next(x for x in code if code.count(x) > 1)
            raise InvalidCode(f"code {shown} repeats symbol {self.variant.symbols[rep]!r}; "
                              "this variant needs distinct symbols")
        if self.variant.no_leading_zero and code[0] == 0:
            raise InvalidCode(f"code {shown} starts with {self.variant.symbols[0]!r}; "
                              "this variant forbids a leading first symbol")
        return code

    def format(self, code) -> str:
        return "".join(self.variant.symbols[int(x)] for x in code)

    def format_many(self, codes) -> list[str]:
        """:meth:`format` for many codes at once, vectorised (a symbol is one character):
        one by one, 50k secrets took 0.9 s to format against 0.04 s to find them. ASCII
        alphabets (the usual case) go through one byte string, 4x faster than NumPy's
        4-byte unicode arrays (2M codes of 40 symbols: 0.7 s against 3.0 s)."""
        import numpy as np

        n = self.variant.length
        symbols = self.variant.symbols
        arr = np.asarray(codes).reshape(-1, n)
        if arr.shape[0] == 0:
            return []
        if symbols.isascii():
            text = np.frombuffer(symbols.encode("ascii"), dtype=np.uint8)[arr].tobytes().decode("ascii")
            return [text[i:i + n] for i in range(0, len(text), n)]
        chars = np.array(list(symbols))[arr]                       # (k, N) one-character strings
        return np.ascontiguousarray(chars).view(f"<U{n}").ravel().tolist()
