"""An exact search's claims, re-checked by the independent verifier before the bounds use them.

Place in the data flow: the optimal searches (:mod:`cbsolve.search`) -> **this check** ->
:func:`cbsolve.bounds.compute_bounds` (its exact step) -> ``cbsolve bounds`` and the table.

A search is a long piece of native code with a time limit, threads and a memo; a fault in any
of them could print a wrong "proved" value (docs/bounds.md, "4 of 11"). So an end of an
interval comes from a search only when :mod:`cbsolve.certificates.certify`, which knows nothing but the
scorer, confirms it:

* an upper end: the search's tree replays (every secret solved) to the worst case or total
  the search claims for it; the replayed value is the bound;
* a worst-case lower end: the search's lower-bound certificate checks and proves the lower
  bound the search claims;
* an expected-case lower end has no certificate (nothing can check a total's optimality
  short of redoing the search): it is used as the search's word once the tree confirmed the
  search's total, and labelled so.

Any contradiction (a tree that does not replay or replays to another value, a certificate
that fails or proves another bound) discards the whole search result: the cell keeps the
interval its other methods prove, and the reason is carried in the notes and the JSON.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..runtime import time_policy
from ..certificates.certify import OutOfTime, verify
from ..game.variant import Variant


def verify_reserve(secrets: int) -> float:
    """Seconds the bounds keep back from a search for replaying its tree."""
    return max(0.2, 2 * time_policy.VERIFY_SECONDS_PER_SECRET * secrets)


@dataclass
class Checked:
    """What the verifier confirmed of one search result (objective units)."""

    objective: str
    lower: int | None = None        # lower end to use (None: none)
    upper: int | None = None        # upper end to use (None: none)
    lower_how: str = ""             # how the lower end was confirmed
    upper_how: str = ""
    problem: str | None = None      # why the result was rejected (None: it was not)
    unconfirmed: str | None = None  # a claim left unchecked (out of time): that end unused
    seconds: float = 0.0

    @property
    def rejected(self) -> bool:
        return self.problem is not None

    def to_json(self) -> dict:
        return {"checked": True, "rejected": self.rejected, "problem": self.problem,
                "unconfirmed": self.unconfirmed,
                "lower": self.lower, "upper": self.upper, "lower_how": self.lower_how,
                "upper_how": self.upper_how, "seconds": round(self.seconds, 3)}


class _Rejected(Exception):
    pass


def check_result(variant: Variant, res, deadline=None) -> Checked:
    """Verify a :class:`cbsolve.search.SearchResult` of either objective (see module doc).

    ``deadline`` (a :class:`cbsolve.runtime.deadline.Deadline`) stops a long certificate check: that
    lower end is then unconfirmed (not used, not rejected)."""
    start = time.perf_counter()
    out = Checked(res.objective)
    try:
        _check_tree(variant, res, out)
        if res.objective == "worst":
            _check_certificate(variant, res, out, deadline)
        else:
            _expected_lower(res, out)
        if out.lower is not None and out.upper is not None and out.lower > out.upper:
            raise _Rejected(f"verified lower end {out.lower} exceeds verified upper end {out.upper}")
    except _Rejected as why:
        out.lower = out.upper = None
        out.lower_how = out.upper_how = ""
        out.problem = str(why)
    out.seconds = time.perf_counter() - start
    return out


def _check_tree(variant: Variant, res, out: Checked) -> None:
    """The tree replays to what the search says of it: the upper end."""
    if res.tree is None:
        return
    tree = {k: v for k, v in res.tree.items() if k != "certificate"}
    rep = verify(tree, expect=variant)
    if not rep.valid:
        raise _Rejected(f"the search's tree does not verify: {rep.message}")
    worst_case = res.objective == "worst"
    replayed = rep.worst if worst_case else rep.total
    claimed = res.worst if worst_case else res.total
    if replayed != claimed:
        raise _Rejected(f"the search's tree replays to {replayed}, the search claimed {claimed}")
    if res.upper is not None and replayed < res.upper:
        raise _Rejected(f"the search's tree replays to {replayed}, below its claimed upper "
                        f"bound {res.upper}")
    out.upper, out.upper_how = replayed, "tree replayed"


def _check_certificate(variant: Variant, res, out: Checked, deadline) -> None:
    """The certificate proves the lower bound the search claims: the lower end."""
    cert = res.certificate
    if res.tree is not None and res.tree.get("certificate") not in (None, cert):
        raise _Rejected("the tree embeds another certificate than the search returned")
    if cert is None:
        return
    try:
        rep = verify(cert, expect=variant, deadline=deadline)
    except OutOfTime as stop:
        out.unconfirmed = f"lower-bound certificate not checked within the time limit ({stop})"
        return
    if not rep.valid:
        raise _Rejected(f"the search's lower-bound certificate does not verify: {rep.message}")
    if res.lower is not None and rep.lower_bound != res.lower:
        raise _Rejected(f"the search's certificate proves worst >= {rep.lower_bound}, the search "
                        f"claimed {res.lower}")
    out.lower, out.lower_how = rep.lower_bound, "certificate checked"


def _expected_lower(res, out: Checked) -> None:
    """The expected case's lower end: the search's word, once its tree is confirmed."""
    if res.lower is None:
        return
    if res.proved and out.upper is None:
        return  # an optimum without a confirmed tree is not used at all
    out.lower, out.lower_how = res.lower, "search's word, no certificate"


__all__ = ["Checked", "check_result", "verify_reserve"]
