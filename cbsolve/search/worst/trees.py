"""The worst-case search's documents: the native tree written out in docs/tree-format.md and
the refutation tree proving that d guesses do not suffice (the lower-bound certificate,
docs/tree-format.md), which :mod:`cbsolve.certificates.certify` checks with the scorer alone.
"""
from __future__ import annotations

import numpy as np

from ...certificates.tree import make_tree
from ...runtime.deadline import Deadline
from ...game.variant import Variant
from ..result import SearchResult
from .kernel import _Native

CERT_FORMAT = "cbsolve-worst-lower-bound"
CERT_VERSION = 1


def _depth(node: dict) -> int:
    best, stack = 0, [(node, 1)]
    while stack:
        nd, k = stack.pop()
        best = max(best, k)
        stack.extend((c, k + 1) for _, c in nd["children"])
    return best


def _fill_stats(result: SearchResult, tree_doc: dict) -> None:
    stats = tree_doc["stats"]
    result.worst, result.total = stats["worst"], stats["total"]
    result.histogram = {int(k): v for k, v in stats["histogram"].items()}


def _tree_doc(variant: Variant, native: _Native, root: dict, guesses: str,
              proved: bool = True, name: str | None = None) -> dict:
    """Native tree (code indices, reply indices) -> docs/tree-format.md document."""
    fmt, codes = native.space.format, native.codes
    hist: dict[int, int] = {}

    def convert(node: dict, members: np.ndarray, depth: int) -> dict:
        g = node["guess"]
        replies = native.replies(g, members)
        won = int(np.count_nonzero(replies == variant.win_response))
        if won:
            hist[depth] = hist.get(depth, 0) + won
        out = {"guess": fmt(codes[g]), "children": {}}
        for reply, child in node["children"]:
            out["children"][variant.format_response(reply)] = convert(
                child, members[replies == reply], depth + 1)
        return out

    root_doc = convert(root, native.all, 1)
    name = name or ("optimal-worst" if proved else "greedy-minimax")
    return make_tree(variant, name, guesses, root_doc, hist, objective="worst", proved=proved)


def _certificate(variant: Variant, native: _Native, d: int, guesses: str, deadline: Deadline,
                 progress) -> dict | None:
    """Refutation tree proving that ``d`` guesses do not suffice (docs/optimal.md)."""
    raw = native.run("certificate", d, deadline, progress)
    if raw is None:
        return None
    return {"format": CERT_FORMAT, "version": CERT_VERSION, "variant": variant.to_dict(),
            "guesses": guesses, "responses": native.n_responses,
            "claim": {"max_guesses": d, "solvable": False},
            "root": _cert_node(variant, native, raw)}


def _cert_node(variant: Variant, native: _Native, raw: dict) -> dict:
    """The kernel's refutation node (code and reply indices) -> a certificate node
    (docs/optimal.md); the shards write the nodes below a first guess with it."""
    fmt, codes = native.space.format, native.codes
    # A certificate names the same few codes and replies over and over (Mastermind 4x6 after
    # two replies: 564,000 names of 1,296 codes): each is formatted once.
    names: dict[int, str] = {}
    replies: dict[int, str] = {}

    def name(index: int) -> str:
        if (known := names.get(index)) is None:
            known = names[index] = fmt(codes[index])
        return known

    def reply_name(reply: int) -> str:
        if (known := replies.get(reply)) is None:
            known = replies[reply] = variant.format_response(reply)
        return known

    def convert(node: dict) -> dict:
        out: dict = {"left": node["left"]}
        if node.get("limit") is not None:   # the node's settle bound (cbsolve/certificates/settle_bound.py)
            out["limit"] = node["limit"]
        refuted, same, mapped, perms, perm_ids = {}, {}, {}, [], {}
        for e in node["entries"]:
            g = name(e["guess"])
            if e["kind"] == 0:
                child = convert(e["child"])
                entry = {"reply": reply_name(e["reply"])}
                if child is not None:
                    entry["node"] = child
                refuted[g] = entry
            elif e["kind"] == 1:
                key = (tuple(e["pos_perm"]), tuple(e["sym_perm"]))
                if key not in perm_ids:
                    perm_ids[key] = len(perms)
                    perms.append([list(key[0]), list(key[1])])
                mapped[g] = [perm_ids[key], name(e["other"])]
            else:
                same[g] = name(e["other"])
        for key, value in (("refuted", refuted), ("same", same), ("mapped", mapped),
                           ("perms", perms)):
            if value:
                out[key] = value
        return out

    return convert(raw)
