"""Strategy trees (docs/tree-format.md, version 1): build, read, write, statistics, DOT export.

Place in the data flow: strategies (``cbsolve evaluate``) and the exact search
(``cbsolve optimal``) produce trees; ``cbsolve verify`` and the tests replay them. A tree says,
for every reply sequence, which guess to play next::

    {"format": "cbsolve-tree", "version": 1, "variant": {...}, "strategy": "minimax",
     "guesses": "all", "stats": {"secrets", "worst", "total", "histogram"},
     "root": {"guess": "1122", "children": {"0,0": {"guess": "3344", "children": {}}}}}

:func:`histogram_of` plays every secret through a tree with the scoring rule and recomputes the
statistics, so claims in ``stats`` can be checked (the independent verifier is ``certify.py``).

>>> from cbsolve.game.variant import Variant
>>> v = Variant(2, "ab", repeats=True)
>>> root = {"guess": "ab", "children": {"0,2": {"guess": "ba"},
...         "1,0": {"guess": "aa", "children": {"0,0": {"guess": "bb"}}}}}
>>> t = make_tree(v, "hand", "all", root, histogram_of(v, root))
>>> t["stats"]
{'secrets': 4, 'worst': 3, 'total': 8, 'histogram': {'1': 1, '2': 2, '3': 1}}
"""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import CbsolveError
from ..inputs import UnreadableInput, load_json
from ..game.variant import Variant

FORMAT = "cbsolve-tree"
VERSION = 1


class InvalidTree(CbsolveError, ValueError):
    """A strategy-tree document is malformed, for another variant, or fails its replay."""


# --- building -------------------------------------------------------------------------------
def stats_of(histogram: dict[int, int]) -> dict:
    """``stats`` block from a histogram {guess count: secrets}: secrets, worst, total."""
    hist = {int(k): int(v) for k, v in histogram.items() if int(v)}
    return {"secrets": sum(hist.values()), "worst": max(hist) if hist else 0,
            "total": sum(k * v for k, v in hist.items()),
            "histogram": {str(k): hist[k] for k in sorted(hist)}}


def make_tree(variant: Variant, strategy: str, guesses: str, root: dict,
              histogram: dict[int, int], **extra) -> dict:
    """A version-1 tree document; ``extra`` keys (e.g. ``objective``, ``proved``) are added."""
    doc = {"format": FORMAT, "version": VERSION, "variant": variant.to_dict(),
           "strategy": strategy, "guesses": guesses, "stats": stats_of(histogram)}
    doc.update(extra)
    doc["root"] = root
    return doc


# --- reading and writing --------------------------------------------------------------------
def write_tree(tree: dict, path) -> None:
    """Write a tree as JSON (compact: trees of large variants have 10^5 nodes), gzipped when
    the name ends in ``.gz`` as :func:`read_tree` expects (no time stamp: the same tree gives
    the same bytes)."""
    data = (json.dumps(tree, separators=(",", ":")) + "\n").encode("utf-8")
    if str(path).endswith(".gz"):
        import gzip

        data = gzip.compress(data, compresslevel=9, mtime=0)
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise InvalidTree(f"cannot write tree file {str(path)!r}: {exc.strerror or exc}") from None


def write_file(path, what: str, text: str) -> None:
    """Write an output file (a DOT drawing, a certificate) named ``what`` in the error: a
    failure is bad input (CbsolveError, exit 2), never a traceback."""
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise CbsolveError(f"cannot write {what} file {str(path)!r}: {exc.strerror or exc}") from None


def read_tree(path) -> dict:
    """Read and structurally check a tree file (format, version, variant, node shapes)."""
    try:
        data = load_json(path, f"tree file {str(path)!r}")
    except UnreadableInput as exc:   # missing, a directory, not UTF-8, a broken gzip file
        raise InvalidTree(str(exc)) from None
    except OSError as exc:
        raise InvalidTree(f"cannot read tree file {str(path)!r}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidTree(f"tree file {str(path)!r} is not valid JSON: {exc}") from None
    except RecursionError:
        raise InvalidTree(f"tree file {str(path)!r} is nested too deeply to read") from None
    check_tree(data)
    return data


def check_tree(data) -> Variant:
    """Structural checks of a tree document; returns its variant."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidTree(f'not a strategy tree: expected "format": "{FORMAT}"')
    if data.get("version") != VERSION:
        raise InvalidTree(f"unsupported tree version {data.get('version')!r}; supported: {VERSION}")
    variant = Variant.from_dict(data.get("variant") or {})
    if not isinstance(data.get("root"), dict):
        raise InvalidTree('tree has no "root" node')
    for path, node in iter_nodes(data["root"]):
        if not isinstance(node, dict) or not isinstance(node.get("guess"), str):
            raise InvalidTree(f"node at reply path {'/'.join(path) or '(root)'} has no guess")
        children = node.get("children", {})
        if not isinstance(children, dict):
            raise InvalidTree(f"node at reply path {'/'.join(path) or '(root)'}: "
                              "children must be an object")
    return variant


def iter_nodes(root: dict, path: tuple[str, ...] = ()):
    """(reply path, node) pairs depth first, replies in stored order (no recursion limit)."""
    stack = [(path, root)]
    while stack:
        p, node = stack.pop()
        yield p, node
        children = node.get("children") if isinstance(node, dict) else None
        if isinstance(children, dict):
            stack.extend((p + (k,), c) for k, c in reversed(list(children.items())))


def count_nodes(root: dict) -> int:
    return sum(1 for _ in iter_nodes(root))


# --- replay ---------------------------------------------------------------------------------
def histogram_of(variant: Variant, root: dict) -> dict[int, int]:
    """Histogram {guess count: secrets} from playing every secret through the tree.

    The replay is the independent verifier's (:func:`cbsolve.certificates.certify.replay_tree`, scoring rule
    only), so there is one definition of "this tree solves every secret"; a tree that does not
    raises :class:`InvalidTree` naming a secret it misses.
    """
    from .certify import Invalid, replay_tree

    try:
        hist, _ = replay_tree(variant, root)
    except Invalid as exc:
        raise InvalidTree(str(exc)) from None
    return hist


# --- DOT export -----------------------------------------------------------------------------
def to_dot(tree: dict, max_depth: int | None = None) -> str:
    """Graphviz DOT text of a tree (nodes labelled by guess, edges by reply).

    ``max_depth`` cuts the drawing below that many guesses (full trees of large variants are
    unreadable); cut subtrees are drawn as a single "..." node.
    """
    lines = ["digraph strategy {", '  node [shape=box, fontname="monospace"];']
    counter = 0

    def visit(node: dict, depth: int) -> str:
        nonlocal counter
        name = f"n{counter}"
        counter += 1
        if max_depth is not None and depth > max_depth:
            lines.append(f'  {name} [label="...", shape=plaintext];')
            return name
        lines.append(f'  {name} [label="{_dot_escape(node["guess"])}"];')
        for reply, child in (node.get("children") or {}).items():
            child_name = visit(child, depth + 1)
            lines.append(f'  {name} -> {child_name} [label="{_dot_escape(reply)}"];')
        return name

    visit(tree["root"], 1)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')
