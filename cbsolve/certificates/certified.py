"""Certified trees in ``models/``: found by variant and objective, replayed once, followed.

Place in the data flow: ``models/*.json[.gz]`` (data made and verified by the scripts and the
tests, docs/tree-format.md) -> the replay against every secret (:mod:`cbsolve.certificates.tree`) -> the
node a log reaches. A tree whose strategy is ``optimal-worst`` is worst-case optimal (its
subtree at any node it reaches is optimal from that position, since a better subtree would
lower the whole); ``optimal-expected`` the same for the total. A tree made under a depth cap
(``max_depth``) is optimal under that cap only and is used when no uncapped one exists.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..data import models_dir
from ..errors import UnknownName
from ..game.variant import Variant

#: Certified trees live in models/ (package data in a wheel: cbsolve.data; never imported code).
MODELS = models_dir()
#: The tree strategy proved optimal for each objective.
STRATEGY_OF = {"worst": "optimal-worst", "expected": "optimal-expected"}


def same_game(a: Variant, b: Variant) -> bool:
    """``a`` and ``b`` are one game up to the names of the symbols (Logik on 1-8 or on A-H):
    a value (an optimum, a tree's worst case or total) holds for both. Following a tree needs
    the same symbols (:func:`find_tree` without ``any_symbols``)."""
    return len(a.symbols) == len(b.symbols) and replace(b, symbols=a.symbols) == a


def find_tree(variant: Variant, objective: str | None = "worst",
              models: Path = MODELS, any_symbols: bool = False) -> Path | None:
    """A certified tree for ``variant`` optimal for ``objective`` (None: any tree, the
    worst-case optimal one preferred); uncapped trees before depth-capped ones.
    ``any_symbols``: a tree of the same game on other symbols will do (for its value)."""
    found = []
    for path in sorted(models.glob("*.json*")) if models.is_dir() else []:
        doc = _header(path)
        if doc is None:
            from .certify import UnreadableFile, load  # NumPy: only for a header that fails

            try:
                doc = load(path)
            except UnreadableFile:
                continue
        if not isinstance(doc, dict) or doc.get("format") != "cbsolve-tree":
            continue
        strategy = doc.get("strategy")
        if objective is not None and strategy != STRATEGY_OF[objective]:
            continue
        try:
            theirs = Variant.from_dict(doc["variant"])
            if theirs == variant or (any_symbols and same_game(variant, theirs)):
                found.append((strategy != "optimal-worst", doc.get("max_depth") is not None,
                              path))
        except (KeyError, TypeError, ValueError):
            continue
    return min(found)[2] if found else None


def certified_value(variant: Variant, objective: str) -> tuple[int, str] | None:
    """(the proved optimum of the whole game for ``objective``: the worst case or the total,
    and the file it comes from) from a certified tree's stats, or None. The stats are the
    claims ``cbsolve verify`` replays; the tests replay every shipped tree
    (tests/test_certified_models.py), so the header is read without a replay here. The value
    holds for the same game on other symbols (:func:`same_game`)."""
    path = find_tree(variant, objective, any_symbols=True)
    if path is None:
        return None
    doc = _header(path)
    if doc is None:
        from .certify import load

        doc = load(path)
    if doc.get("proved") is not True or doc.get("max_depth") is not None:
        return None
    stats = doc.get("stats") or {}
    value = stats.get("worst" if objective == "worst" else "total")
    return (int(value), path.name) if isinstance(value, int) else None


def best_shipped_tree(variant: Variant, objective: str,
                      models: Path = MODELS) -> tuple[int, str] | None:
    """(the least worst case or total any tree shipped in ``models/`` or ``models/certified/``
    reaches for ``variant``, its path from the checkout) or None: an upper end of the
    optimum whatever the tree's strategy (a polished or heuristic tree too). The claim is the
    tree's stats, which ``cbsolve verify FILE`` replays against every secret (the tests replay
    every shipped tree: tests/test_certified_models.py, tests/research/test_polish.py)."""
    key = "worst" if objective == "worst" else "total"
    found = []
    for path in sorted([*models.glob("*.json*"), *models.glob("certified/*.json*")]
                       if models.is_dir() else []):
        doc = _header(path)
        if not isinstance(doc, dict) or doc.get("format") != "cbsolve-tree" \
                or doc.get("guesses", "all") not in ("all", "candidates"):
            continue
        value = (doc.get("stats") or {}).get(key)
        try:
            same = same_game(variant, Variant.from_dict(doc["variant"]))
        except (KeyError, TypeError, ValueError):
            continue
        if same and isinstance(value, int):
            found.append((value, f"models/{path.relative_to(models)}"))
    return min(found) if found else None


def shipped_method(path: str) -> str:
    """How an upper end from :func:`best_shipped_tree` is named, wherever it is reported
    (``bounds``, ``optimal``, the position service's interval)."""
    return f"tree {path} (cbsolve verify replays it)"


def _header(path: Path) -> dict | None:
    """The fields before ``root`` (format, variant, strategy, stats), read from the file's
    first few kilobytes: choosing a tree must not parse every tree in models/ (the Bulls &
    Cows trees take a second). None when the head does not parse: the caller loads it all.
    A file whose head does not name the tree format (a tree writes it first) is no tree:
    ``{}``, so the atlas and the results tables beside the trees are never loaded whole
    (each look-up loaded them: 39 ms a call)."""
    import gzip
    import json

    try:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as handle:
            head = handle.read(8192)
        if '"cbsolve-tree"' not in head:
            return {}
        cut = head.find('"root"')
        doc = json.loads(head[:cut].rstrip().rstrip(",") + "}") if cut > 0 else None
    except (OSError, ValueError, EOFError):
        return None
    return doc if isinstance(doc, dict) else None


def load_tree(variant: Variant, path: Path | None = None, objective: str | None = None) -> dict:
    """Load and replay a tree for ``variant`` (``path``, else the certified one in models/
    for ``objective``); an unusable tree raises a CbsolveError."""
    from .tree import InvalidTree, check_tree, histogram_of, stats_of

    shipped = path is None      # models/ trees carry certificates, checked when they were made
    if path is None:
        path = find_tree(variant, objective)
        if path is None:
            raise UnknownName(f"no certified strategy tree in {MODELS} for {variant.describe()}; "
                              "use a heuristic strategy (minimax, expected, entropy, parts, "
                              "first, random)")
    from .certify import UnreadableFile, load

    try:
        doc = load(path)
    except UnreadableFile as exc:     # missing, not JSON, or nested too deeply
        raise InvalidTree(f"tree file: {exc}") from None
    if check_tree(doc) != variant:
        raise InvalidTree(f"tree {str(path)!r} is for {check_tree(doc).describe()}, "
                          f"not {variant.describe()}")
    stats = stats_of(histogram_of(variant, doc["root"]))  # replays every secret
    given = doc.get("stats")
    if not isinstance(given, dict) or any(given.get(k) != v for k, v in stats.items()):
        raise InvalidTree(f"tree {str(path)!r}: its stats do not match its replay "
                          f"(replayed: worst {stats['worst']}, total {stats['total']})")
    doc["_path"] = str(path)
    doc["_kind"] = "certified tree" if shipped else "tree"
    return doc


_SHIPPED: dict = {}


def shipped_tree(variant: Variant, objective: str | None = "worst") -> dict | None:
    """The certified tree in models/ for ``variant`` and ``objective``, loaded and replayed
    once; None if there is none."""
    key = (variant, objective)
    if key not in _SHIPPED:
        path = find_tree(variant, objective)
        _SHIPPED[key] = load_tree(variant, path) if path is not None else None
        if _SHIPPED[key] is not None:
            _SHIPPED[key]["_kind"] = "certified tree"
    return _SHIPPED[key]


def follow_tree(tree: dict, log) -> dict | None:
    """The tree node the log's entries reach, or None once a guess leaves the tree."""
    variant, node = log.variant, tree["root"]
    for e in log:
        if node is None or e.text != node["guess"]:
            return None
        key = variant.format_response(variant.response_index(e.bulls, e.cows))
        node = (node.get("children") or {}).get(key)
    return node


def left_at(tree: dict, log) -> str | None:
    """Where the log leaves ``tree`` ("entry K: GUESS, the tree plays X"), None while on it."""
    variant, node = log.variant, tree["root"]
    for k, e in enumerate(log, 1):
        if node is None:
            return f"the tree ends before entry {k}"
        if e.text != node["guess"]:
            return f"entry {k} played {e.text} where the tree plays {node['guess']}"
        key = variant.format_response(variant.response_index(e.bulls, e.cows))
        node = (node.get("children") or {}).get(key)
    return None


def subtree_cost(space, node: dict, members) -> tuple[int, int] | None:
    """(worst, total) guesses from ``node`` over the code indices ``members`` (the secrets the
    log leaves there), counted from there; None if the subtree misses one of them."""
    import numpy as np

    from ..game.scoring import score_against

    v = space.variant
    worst = total = 0
    stack = [(node, np.asarray(members), 1)]
    while stack:
        n, group, depth = stack.pop()
        if n is None:
            return None
        replies = score_against(v, space.parse(n["guess"]), space.codes[group])
        won = replies == v.win_response
        if won.any():
            total, worst = total + depth, max(worst, depth)
        children = n.get("children") or {}
        for r in np.unique(replies[~won]):
            stack.append((children.get(v.format_response(int(r))), group[replies == r],
                          depth + 1))
    return worst, total
