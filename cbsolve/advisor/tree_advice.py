"""The certified trees as the position service's advice (step 2 of :mod:`.service`): the tree
in ``models/`` for the objective (or a tree file a face gave), followed while the log follows
it; a subtree's cost is re-derived from the secrets it covers, so a tree file that misses a
secret of the position answers nothing.

Place in the data flow: :mod:`cbsolve.certificates.certified` (the shipped trees, following
one) and a position's secrets -> :class:`CertifiedTrees` -> the advice with its proved value
(:class:`~.advice_form.AdviceForm`), or why no tree answers here.
"""
from __future__ import annotations

from pathlib import Path

from ..certificates.certified import follow_tree, left_at, shipped_tree, subtree_cost
from ..game.feedback import FeedbackLog
from . import answers as A
from .advice_form import AdviceForm


class CertifiedTrees:
    """The trees one service follows, with the costs of the subtrees a game met."""

    def __init__(self, form: AdviceForm, tree: dict | None = None):
        self.form = form
        self.space = form.space
        self.file = tree              # a tree file to follow instead of the certified ones
        self._costs: dict = {}        # (tree, log) -> (worst, total) of the subtree there

    def tree(self, objective: str) -> dict | None:
        """The tree followed for ``objective``: the file given, else the certified one."""
        return self.file if self.file is not None else shipped_tree(self.form.variant, objective)

    def follow(self, log: FeedbackLog, cands, strategy, objective,
               remaining) -> A.Advice | None:
        """The tree's guess where ``log`` leaves the game, with its subtree's value; None off
        the tree (or no tree)."""
        tree = self.tree(objective)
        node = None if tree is None else follow_tree(tree, log)
        if node is None:
            return None
        if cands is None:
            import numpy as np      # the whole space: only at the opening of a listed game

            cands = np.arange(self.space.size, dtype=np.int64)
        key = (id(tree), tuple(log.tokens()))   # a game replays the same few tree positions
        cost = self._costs.get(key)
        if cost is None:
            cost = self._costs[key] = subtree_cost(self.space, node, cands)
        if cost is None:            # a tree file that misses a secret of this position
            return None
        worst, total = cost
        honoured = (tree.get("strategy") == f"optimal-{objective}"
                    and tree.get("max_depth") is None)
        note = (f"from the {tree['_kind']} {Path(tree['_path']).name}: {worst} more guesses at "
                f"worst, {total / cands.size:.3f} on average from here")
        value = worst if objective == "worst" else total
        return self.form.advice(node["guess"], strategy, remaining, cands, objective,
                                A.Provenance(A.TREE, objective, honoured, note=note),
                                needed=(value, value) if honoured else (None, value),
                                optimum={"objective": objective, "secrets": int(cands.size),
                                         "worst": worst, "total": total,
                                         "average": total / cands.size} if honoured else None,
                                how="the certified tree" if honoured else "the tree")

    def off_tree(self, log: FeedbackLog, objective: str) -> str:
        """Why no certified tree answers here: none for this game and objective, or where the
        game left it."""
        tree = self.tree(objective)
        if tree is None:
            return f"no certified tree in models/ for this game and the {objective} objective"
        return (f"the game left the {tree['_kind']} {Path(tree['_path']).name} "
                f"({left_at(tree, log)})")
