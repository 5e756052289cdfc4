"""Strategy-tree file formats: cbsolve's own (docs/tree-format.md) and the field's.

Place in the data flow: beside :mod:`cbsolve.certificates.tree`. Readers turn a file into a cbsolve tree
document in the variant's symbols; the verifier (:mod:`cbsolve.certificates.certify`) then replays it like
any other tree, so ``cbsolve verify --format irving`` checks a published strategy with the
scorer alone. Writers take a tree that solves every secret.

=================  ==================================================  ===================
format             file                                                default variant
=================  ==================================================  ===================
``cbsolve``        docs/tree-format.md (JSON, ``.gz`` allowed)          the file's own
``irving``         Irving's text notation (Knuth, Koyama-Lai papers,    mastermind
                   fancidev/mastermind), :mod:`.irving`
``arfst-yaml``     arfst23/Mastermind's YAML, :mod:`.arfst`             mastermind
``arfst-text``     arfst23/Mastermind's fixed-column text               mastermind
``kunigami-json``  the Bulls & Cows JSON tree of kunigami's blog/app,   bulls-cows
                   :mod:`.pairs_json`
=================  ==================================================  ===================

A file's alphabet is matched to the variant's by position: arfst23 numbers colours 0..k-1
(``file_symbols`` defaults to ``0123...``); the other formats use the variant's own symbols
(kunigami's lists hold symbol indices). ``file_symbols`` overrides the file's alphabet.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..certificates.certify import load
from ..certificates.tree import histogram_of, make_tree, write_tree
from ..errors import CbsolveError, unknown_name
from ..game.variant import Variant
from ..inputs import STDIN, UnreadableInput, read_text as read_capped
from . import arfst, irving, pairs_json
from .common import Alphabet, FormatError, candidate_nodes, file_digits

FORMATS = ("cbsolve", "irving", "arfst-yaml", "arfst-text", "kunigami-json")
DEFAULT_VARIANT = {"irving": "mastermind", "arfst-yaml": "mastermind",
                   "arfst-text": "mastermind", "kunigami-json": "bulls-cows"}

__all__ = ["FORMATS", "FormatError", "format_of", "guess_format", "read_document",
           "write_document"]


def check_format(name: str) -> str:
    if name not in FORMATS:
        raise unknown_name("tree format", name, FORMATS)
    return name


def guess_format(path: str, text: str | None = None) -> str | None:
    """The format a file name (and, for JSON, its content) implies; None when it does not."""
    name = str(path).lower().removesuffix(".gz")
    if name.endswith((".yml", ".yaml")):
        return "arfst-yaml"
    if name.endswith((".json", ".js")):
        # kunigami's tree is a list whose first item is the guess (a list); a list of rows
        # (a table of results) is left to the cbsolve reader, which names it as such
        if text is not None and re.match(r"\s*(\[\s*\[|const\b|let\b|var\b)", text):
            return "kunigami-json"
        return "cbsolve"
    return None


def format_of(path: str, give: str = "format=") -> str:
    """The format of the file ``path`` as its name (and a JSON file's start) implies; bad input
    when the file is missing or its name does not tell, naming ``give``: how the caller states
    a format (the API's ``format=``, the CLI's ``--format``)."""
    import os

    path = str(path)
    if path != STDIN and not os.path.lexists(path):     # before "cannot tell the format"
        raise UnreadableInput(f"{path!r}: no such file")
    fmt = guess_format(path, read_text(path)[:64] if path.endswith((".json", ".js")) else None)
    if fmt is None:
        raise CbsolveError(f"cannot tell the format of {path!r} from its name; give {give} "
                           f"({', '.join(FORMATS)})")
    return fmt


def read_text(path) -> str:
    """The file as text, through the input caps (a missing file: "no such file"; bytes that
    are not UTF-8: "not a UTF-8 text file")."""
    try:
        return read_capped(path, repr(str(path)))
    except OSError as exc:
        raise FormatError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None


def _alphabet(fmt: str, variant: Variant, file_symbols: str | None) -> Alphabet:
    if file_symbols is None and fmt.startswith("arfst"):
        file_symbols = file_digits(variant)
    return Alphabet(variant, file_symbols)


def read_document(path, fmt: str, variant: Variant | None = None,
                  file_symbols: str | None = None) -> dict:
    """A cbsolve tree document from a file in ``fmt`` (its own claims kept: Irving counts
    as node ``count``; no ``stats`` block unless the file is cbsolve's own)."""
    check_format(fmt)
    if fmt == "cbsolve":
        return load(path)
    text = read_text(path)
    variant = variant or Variant.preset(DEFAULT_VARIANT[fmt])
    alphabet = _alphabet(fmt, variant, file_symbols)
    reader = {"irving": irving.read, "arfst-yaml": arfst.read_yaml,
              "arfst-text": arfst.read_text, "kunigami-json": pairs_json.read}[fmt]
    try:
        root = reader(text, variant, alphabet)
    except RecursionError:
        raise FormatError(f"{str(path)!r} is nested too deeply to read") from None
    return {"format": "cbsolve-tree", "version": 1, "variant": variant.to_dict(),
            "strategy": f"read from {fmt}", "guesses": "all", "source": fmt, "root": root}


def write_document(doc: dict, path, fmt: str, file_symbols: str | None = None) -> None:
    """Write a verified tree document in ``fmt`` (cbsolve: with its stats recomputed)."""
    check_format(fmt)
    variant = Variant.from_dict(doc["variant"])
    root = doc["root"]
    if fmt == "cbsolve":
        keep = {k: v for k, v in doc.items()
                if k not in ("format", "version", "variant", "strategy", "guesses", "stats", "root")}
        write_tree(make_tree(variant, doc.get("strategy", "unknown"), doc.get("guesses", "all"),
                             root, histogram_of(variant, root), **keep), path)
        return
    alphabet = _alphabet(fmt, variant, file_symbols)
    if fmt == "irving":
        text = irving.write(variant, root, alphabet)
    elif fmt == "arfst-yaml":
        text = arfst.write_yaml(variant, root, alphabet)
    elif fmt == "arfst-text":
        text = arfst.write_text(variant, root, alphabet)
    else:
        text = pairs_json.write(variant, root, alphabet, candidate_nodes(variant, root))
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CbsolveError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
