"""A position's optimum read from the certified tree, up to a renaming of the symbols.

Renaming the symbols of a game without repeats or a forbidden first symbol (Bulls & Cows)
changes no reply, so a log and its renamed copy leave positions of the same optimum. Any first
guess can be renamed onto the tree's first guess; when the renamed log then follows the
certified tree (an optimal strategy for its objective, every subtree optimal for its class),
the tree's subtree gives the position's optimum at once: the positions after one reply, the
largest a review meets (Bulls & Cows 4/10: up to 1,440 secrets, beyond the exact solve of the
position), are the tree's children of its root.

Place in the data flow: the position service's certified trees (:meth:`PositionService.advise`
follows them) -> :func:`tree_optimum` -> the review's exact cost (:mod:`.review`), which then
solves only the reviewed guess's reply classes.
"""
from __future__ import annotations

from ..certificates.certified import follow_tree
from ..game.feedback import FeedbackLog
from .answers import TREE


def renaming(variant, first: str, root: str) -> dict[str, str] | None:
    """A renaming of the symbols taking the code ``first`` to ``root`` (both as printed), or
    None where renaming may change replies or the codes (repeats, a forbidden first symbol)."""
    if variant.repeats or variant.no_leading_zero or len(set(first)) != len(first):
        return None
    mapping = dict(zip(first, root, strict=True))
    rest = [s for s in variant.symbols if s not in mapping.values()]
    mapping.update(zip([s for s in variant.symbols if s not in mapping], rest, strict=True))
    return mapping


def tree_optimum(service, log: FeedbackLog, objective: str) -> tuple[int, str, str] | None:
    """(the optimum from the position of ``log``: worst case or total; an optimal guess there,
    as printed in the log's own symbols; the tree's note), when the log renamed onto the
    certified tree of ``objective`` follows it; else None (no tree, off it, not renamable)."""
    if not len(log) or service.tree is not None:
        return None
    tree = service.trees.tree(objective)
    if tree is None:
        return None
    to_tree = renaming(log.variant, log.entries[0].text, tree["root"]["guess"])
    if to_tree is None:
        return None
    renamed = FeedbackLog(log.variant)
    for e in log:
        renamed.add("".join(to_tree[s] for s in e.text), e.bulls,
                    None if log.variant.bulls_only else e.cows)
    if follow_tree(tree, renamed) is None:
        return None
    advice = service.advise(renamed, strategy="optimal", objective=objective)
    opt = advice.optimum
    if advice.provenance.source != TREE or opt is None or not advice.provenance.honoured:
        return None
    back = {v: k for k, v in to_tree.items()}
    value = int(opt["worst"] if objective == "worst" else opt["total"])
    return value, "".join(back[s] for s in advice.guess), (
        f"from the certified tree, the log's symbols renamed onto it ({advice.provenance.note})")
