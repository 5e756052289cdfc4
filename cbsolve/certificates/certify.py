"""Independent verifier: re-derives every claimed number of a tree or certificate from the scorer.

Place in the data flow: the last stop. ``cbsolve optimal`` and ``cbsolve evaluate`` write
strategy trees (docs/tree-format.md) and lower-bound certificates (docs/tree-format.md, "Lower-bound certificate format");
``cbsolve verify FILE`` calls :func:`verify_file`. This module imports only the variant, the
code space, the scoring rule and its own helper :mod:`cbsolve.certificates.certify_orbits` (symbol swaps
found from a node's secrets), never the search that produced the file, so a bug in the
search cannot vouch for itself (the certificate idea of PySAT's proofs, applied to Knuth 1977's
"5 guesses suffice and 4 do not").

Trees are replayed against every secret: each node's guess is scored against the secrets that
reach it; the tree must solve every secret, and the histogram, worst case, total and secret
count are recomputed and compared with the claims in ``stats``.

A worst-case lower-bound certificate claims that no strategy finds every secret within
``max_guesses`` guesses. It is a refutation tree: at a node (reached by a history of guesses and
replies, whose consistent secrets S the verifier recomputes) with k guesses left, *every* guess
must be disposed of by one of these rules, each checked here:

* counting: some non-winning reply class of the guess exceeds cap(k-1), the most secrets k-1
  guesses can tell apart (cap(0) = 0, cap(j) = 1 + (R-1) cap(j-1), R the number of replies);
  a whole node is settled when |S| > cap(k); a node may name a smaller ``limit`` for its
  classes, which holds when the settle table of S (:mod:`cbsolve.certificates.settle_bound`, recomputed
  here from the classes of every allowed guess on S) gives b(k-1) <= limit;
* useless: every secret gives the guess the same reply and the guess is not a secret: a
  strategy starting with it contains a strategy for S with fewer guesses;
* refuted: the certificate names one reply class that is itself refuted with k-1 guesses
  left (a child node) or exceeds cap(k-1);
* same: the guess gets exactly the replies of another guess that is refuted here;
* mapped: an explicit position/symbol permutation that fixes every guess of the history (hence
  maps S onto itself) takes the guess onto a guess that is refuted here.

Guesses settled by counting or uselessness may be left out of the file; the verifier finds
them itself. Anything else missing, any number changed, any permutation that does not fix
the history: the file is rejected with a message naming the node and the guess.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import claims
from ..game.capacity import capacity
from .certify_orbits import GuessOrbits
from ..game.codes import CodeSpace
from ..errors import CbsolveError, Expired, InvalidCode
from ..game.guess_pool import GUESS_POOLS
from ..inputs import InputTooLarge, UnreadableInput, load_json
from ..game.scoring import (counting_verdicts, pack, partition_counts, possible_responses,
                      score_against, score_matrix)
from .settle_bound import settle_table
from ..game.variant import Variant

TREE_FORMAT, TREE_VERSION = "cbsolve-tree", 1
CERT_FORMAT, CERT_VERSION = "cbsolve-worst-lower-bound", 1
#: Top-level keys of a tree document that are claims (checked by :mod:`cbsolve.certificates.claims`).
CLAIM_KEYS = ("stats", "ties", "at_worst", "max_depth", "proved")


class Invalid(Exception):
    """Raised inside the verifier when a check fails (reported, not propagated)."""


class OutOfTime(Expired):
    """The caller's deadline expired before a certificate was checked: nothing was decided
    (propagated; only callers that pass a deadline see it)."""


class UnreadableFile(CbsolveError):
    """The file cannot be read or is not JSON (bad input: CLI exit 2)."""


class NotATree(CbsolveError):
    """The JSON document is something else (a table of results): bad input, CLI exit 2."""


@dataclass
class Report:
    valid: bool
    kind: str
    secrets: int | None = None
    worst: int | None = None
    total: int | None = None
    histogram: dict[int, int] = field(default_factory=dict)
    lower_bound: int | None = None      # worst case >= this (from a certificate)
    optimal: bool | None = None         # tree worst == certificate lower bound
    nodes: int = 0
    message: str = ""
    variant: dict | None = None         # the file's variant (Variant.to_dict), once read
    guesses: str | None = None          # measured: "candidates" if every guess could be the secret
    claimed: dict = field(default_factory=dict)      # the file's claim blocks, as written
    mismatches: list[dict] = field(default_factory=list)  # every claim the replay contradicts
    search_word: list[str] = field(default_factory=list)  # proof claims without a certificate
    position: dict | None = None        # the file's position block (a game from a log's entries)

    @property
    def average(self) -> float | None:
        return None if self.total is None or self.secrets is None else self.total / self.secrets

    def to_json(self) -> dict:
        data = {"valid": self.valid, "kind": self.kind, "worst": self.worst, "total": self.total,
                "secrets": self.secrets, "average": self.average,
                "histogram": {str(k): v for k, v in sorted(self.histogram.items())},
                "lower_bound": self.lower_bound, "optimal": self.optimal, "nodes": self.nodes,
                "guesses": self.guesses, "variant": self.variant, "claimed": self.claimed,
                "mismatches": self.mismatches, "search_word": self.search_word}
        if self.message:
            data["message"] = self.message
        if self.position is not None:
            data["position"] = self.position
        return data


# --- entry points ---------------------------------------------------------------------------
def load(path) -> dict:
    """Read a JSON document (``.gz`` files are decompressed)."""
    try:
        return load_json(path, repr(str(path)))
    except InputTooLarge:
        raise
    except UnreadableInput as exc:   # missing, a directory, not UTF-8, a broken gzip file
        raise UnreadableFile(str(exc)) from None
    except OSError as exc:
        raise UnreadableFile(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError, EOFError) as exc:
        raise UnreadableFile(f"{str(path)!r} is not a JSON document: {exc}") from None
    except RecursionError:
        raise UnreadableFile(f"{str(path)!r} is nested too deeply to read") from None


def verify_file(path, expect: Variant | None = None) -> Report:
    return verify(load(path), expect)


def verify(doc, expect: Variant | None = None, deadline=None) -> Report:
    """Check a strategy tree (with an optional embedded certificate) or a certificate; with
    ``expect``, the document must also be for that variant (a valid proof of another game
    does not prove the claim the user asked about). ``deadline`` (anything with
    ``expired()``): a certificate check still running when it expires raises
    :class:`OutOfTime`."""
    if isinstance(doc, list):
        keys = sorted({k for row in doc if isinstance(row, dict) for k in row})
        raise NotATree(f"a table of {len(doc)} rows (columns {', '.join(keys[:6])}"
                       f"{', ...' if len(keys) > 6 else ''}), not a strategy tree or certificate: "
                       "there is no tree to replay")
    kind = doc.get("format") if isinstance(doc, dict) else None
    try:
        if kind not in (TREE_FORMAT, CERT_FORMAT):
            raise Invalid(f'unknown document format {kind!r}; expected "{TREE_FORMAT}" or "{CERT_FORMAT}"')
        variant = _variant(doc)
        if expect is not None and variant != expect:
            raise Invalid(f"the file is for {variant.describe()}, not for {expect.describe()}")
        if kind == TREE_FORMAT:
            rep = _verify_tree_doc(doc, deadline)
        else:
            start, _ = _position(doc, variant)
            rep = Report(valid=True, kind="lower-bound",
                         secrets=CodeSpace(variant).size if start is None else int(start.size))
            rep.nodes, rep.lower_bound = verify_certificate(doc, deadline)
        rep.variant = variant.to_dict()
        rep.position = doc.get("position")
        return rep
    except Invalid as exc:
        name = {TREE_FORMAT: "tree", CERT_FORMAT: "lower-bound"}.get(str(kind), "unknown")
        return Report(valid=False, kind=name, message=str(exc))


def _variant(doc: dict) -> Variant:
    try:
        return Variant.from_dict(doc.get("variant") or {})
    except CbsolveError as exc:
        raise Invalid(f"bad variant: {exc}") from None


# --- trees ----------------------------------------------------------------------------------
def _header(doc: dict, kind: str, version: int) -> tuple[Variant, str]:
    """The fields every verified document starts with: version, variant, guess set."""
    if doc.get("version") != version:
        raise Invalid(f"unsupported {kind} version {doc.get('version')!r}; supported: {version}")
    guesses = doc.get("guesses", "all")
    variant = _variant(doc)
    if guesses not in GUESS_POOLS:
        raise Invalid(f"bad guesses field {guesses!r}; allowed: all, candidates")
    return variant, guesses


def _position(doc: dict, variant: Variant) -> tuple[np.ndarray | None, list]:
    """The secrets and played guesses of a document's ``position`` block (docs/tree-format.md):
    (None, []) for the whole game; else the codes consistent with every entry, recomputed
    with the scorer, and the guesses as symbol tuples (a refutation tree's history)."""
    block = doc.get("position")
    if block is None:
        return None, []
    entries = block.get("entries") if isinstance(block, dict) else None
    if not isinstance(entries, list):
        raise Invalid('bad "position": expected {"entries": [{"guess": CODE, "reply": REPLY}, ...]}')
    space = CodeSpace(variant)
    codes = space.codes
    replies = {variant.format_response(variant.response_index(b, c)): variant.response_index(b, c)
               for b, c in possible_responses(variant)}
    members = np.arange(codes.shape[0])
    history = []
    for i, e in enumerate(entries, 1):
        if not isinstance(e, dict) or e.get("reply") not in replies:
            raise Invalid(f"position entry {i}: expected a guess and one of the variant's replies")
        guess = _parse(space, e.get("guess"), f"position entry {i}")
        members = members[score_against(variant, guess, codes[members]) == replies[e["reply"]]]
        history.append(tuple(int(x) for x in guess))
    if members.size == 0:
        raise Invalid("position: no secret is consistent with its entries")
    claimed = block.get("secrets")
    if claimed is not None and claimed != int(members.size):
        raise Invalid(f"position claims {claimed!r} secrets; its entries leave {members.size}")
    return members, history


def position_secrets(doc: dict, variant: Variant) -> np.ndarray | None:
    """The code indices of the secrets a tree's ``position`` leaves (None: the whole game)."""
    try:
        return _position(doc, variant)[0]
    except Invalid as exc:
        raise CbsolveError(f"bad position block: {exc}") from None


def _verify_tree_doc(doc: dict, deadline=None) -> Report:
    """Replay the tree, then compare every claim with the replay (all differences reported)."""
    variant, guesses = _header(doc, "tree", TREE_VERSION)
    start, _ = _position(doc, variant)
    m = measure_tree(variant, doc.get("root"), start)
    hist = m["histogram"]
    if guesses == "candidates" and m["guesses"] != "candidates":
        raise Invalid(f"node at reply path {m['non_candidate']}: guess is not a candidate "
                      'but the tree claims "guesses": "candidates"')
    rep = Report(valid=True, kind="tree", secrets=m["secrets"], worst=m["worst"],
                 total=m["total"], histogram=hist, nodes=m["nodes"], guesses=m["guesses"],
                 claimed={k: doc[k] for k in CLAIM_KEYS if k in doc})
    if m["counts"]:
        rep.claimed["node counts"] = m["counts"]
    rep.mismatches = claims.check_document(doc, m)
    rep.search_word = claims.search_word(doc)
    cert = doc.get("certificate")
    if cert is not None:
        if not isinstance(cert, dict) or cert.get("format") != CERT_FORMAT:
            raise Invalid(f'embedded certificate must have "format": "{CERT_FORMAT}"')
        if _variant(cert) != variant or cert.get("guesses", "all") != guesses:
            raise Invalid("embedded certificate is for another variant or guess set")
        if cert.get("position") != doc.get("position"):
            raise Invalid("embedded certificate is for another position than the tree")
        cert_nodes, lower = verify_certificate(cert, deadline)
        rep.kind, rep.nodes, rep.lower_bound = "tree+lower-bound", m["nodes"] + cert_nodes, lower
        rep.optimal = lower == m["worst"]
        if doc.get("proved") and not rep.optimal:
            rep.mismatches.append(claims.mismatch(
                "proved (worst case = certified lower bound)", lower, m["worst"]))
    if rep.mismatches:
        rep.valid = False
        rep.message = "; ".join(claims.describe(x) for x in rep.mismatches)
    return rep


def replay_tree(variant: Variant, root, candidates_only: bool = False,
                start: np.ndarray | None = None) -> tuple[dict[int, int], int]:
    """Play every secret (or the code indices ``start``: a position's secrets) through the
    tree with the scorer; returns (histogram, node count)."""
    m = measure_tree(variant, root, start)
    if candidates_only and m["guesses"] != "candidates":
        raise Invalid(f"node at reply path {m['non_candidate']}: guess is not a candidate "
                      'but the tree claims "guesses": "candidates"')
    return m["histogram"], m["nodes"]


def measure_tree(variant: Variant, root, start: np.ndarray | None = None) -> dict:
    """Play every secret (or the code indices ``start``: a position's secrets) through the tree
    with the scorer and measure it: histogram, secrets,
    worst, total, nodes, ``guesses`` ("candidates" when every guess could be the secret where
    it is played, else "all"), and the nodes whose ``count`` claim differs from the secrets
    reaching them. A secret the tree does not solve raises :class:`Invalid`."""
    if not isinstance(root, dict):
        raise Invalid('tree has no "root" node')
    space = CodeSpace(variant)
    codes = space.codes
    win = variant.win_response
    hist: dict[int, int] = {}
    nodes = 0
    non_candidate = None
    count_errors = []
    counts = 0
    stack = [(root, np.arange(codes.shape[0]) if start is None else start, 1, "(root)")]
    while stack:
        node, idx, depth, where = stack.pop()
        nodes += 1
        if not isinstance(node, dict) or not isinstance(node.get("guess"), str):
            raise Invalid(f"node at reply path {where} has no guess")
        guess = _parse(space, node["guess"], where)
        if "count" in node:
            counts += 1
            if node["count"] != len(idx):
                count_errors.append((where, node["count"], len(idx)))
        replies = score_against(variant, guess, codes[idx])
        if non_candidate is None and not np.any(replies == win):
            non_candidate = where
        children = node.get("children") or {}
        if not isinstance(children, dict):
            raise Invalid(f"node at reply path {where}: children must be an object")
        seen = set()
        for r in np.unique(replies):
            members = idx[replies == r]
            if r == win:
                hist[depth] = hist.get(depth, 0) + len(members)
                continue
            key = variant.format_response(int(r))
            seen.add(key)
            if key not in children:
                raise Invalid(f"secret {space.format(codes[members[0]])} is not solved: node at "
                              f"reply path {where} has no child for reply {key}")
            path = key if where == "(root)" else f"{where}/{key}"
            stack.append((children[key], members, depth + 1, path))
        extra = sorted(set(children) - seen)
        if extra:
            raise Invalid(f"node at reply path {where}: child for reply {extra[0]} that no "
                          "remaining secret gives")
    hist = dict(sorted(hist.items()))
    total = sum(k * v for k, v in hist.items())
    return {"histogram": hist, "secrets": sum(hist.values()), "worst": max(hist), "total": total,
            "nodes": nodes, "guesses": "all" if non_candidate else "candidates",
            "non_candidate": non_candidate, "count_errors": count_errors, "counts": counts}


def _parse(space: CodeSpace, text, where: str) -> tuple[int, ...]:
    try:
        return space.parse(text)
    except (InvalidCode, TypeError) as exc:
        raise Invalid(f"node at {where}: bad code {text!r}: {exc}") from None


# --- worst-case lower-bound certificates ----------------------------------------------------
def verify_certificate(doc: dict, deadline=None) -> tuple[int, int]:
    """Check a lower-bound certificate; returns (nodes checked, proved lower bound on the worst
    case). Raises :class:`OutOfTime` if ``deadline`` expires first."""
    variant, guesses = _header(doc, "certificate", CERT_VERSION)
    claim = doc.get("claim") or {}
    d = claim.get("max_guesses")
    if not isinstance(d, int) or isinstance(d, bool) or d < 0 or claim.get("solvable") is not False:
        raise Invalid(f"bad claim {claim!r}: expected {{\"max_guesses\": K, \"solvable\": false}}")
    checker = _CertChecker(variant, guesses == "candidates", deadline)
    if doc.get("responses") is not None and doc["responses"] != checker.n_responses:
        raise Invalid(f"certificate counts {doc['responses']!r} replies; the variant has "
                      f"{checker.n_responses}")
    start, history = _position(doc, variant)
    checker.check(doc.get("root"), np.arange(checker.codes.shape[0]) if start is None else start,
                  history, d, "(root)")
    return checker.nodes, d + 1


class _CertChecker:
    def __init__(self, variant: Variant, candidates_only: bool, deadline=None):
        self.variant = variant
        self.deadline = deadline
        self.space = CodeSpace(variant)
        self.codes = self.space.codes
        self.packed = pack(variant, self.codes)        # packed once, reused at every node
        self.orbits = GuessOrbits(self.codes, variant.n_symbols, lambda c: pack(variant, c))
        self.tuples = [tuple(int(x) for x in c) for c in self.codes]
        self.text_index = {self.space.format(c): i for i, c in enumerate(self.codes)}
        self.candidates_only = candidates_only
        self.n_responses = len(possible_responses(variant))
        self.win = variant.win_response
        self.slots = variant.response_slots
        self.nodes = 0
        # reply text -> index, for every reply the variant can give
        self.reply_index = {variant.format_response(variant.response_index(b, c)):
                            variant.response_index(b, c) for b, c in possible_responses(variant)}

    def cap(self, k: int) -> int:
        return capacity(k, self.n_responses)

    def check(self, node, S: np.ndarray, history: list, k: int, where: str) -> None:
        self.nodes += 1
        if self.deadline is not None and self.deadline.expired():
            raise OutOfTime(f"certificate check stopped at node {where} ({self.nodes} nodes)",
                            self.deadline.reason())
        if not isinstance(node, dict):
            raise Invalid(f"node {where}: not an object")
        if node.get("left") != k:
            raise Invalid(f"node {where}: claims {node.get('left')!r} guesses left; the path gives {k}")
        if len(S) == 0:
            raise Invalid(f"node {where}: no secret reaches it (an empty set is always solved)")
        if k <= 0 or len(S) > self.cap(k):
            return  # counting: k guesses cannot tell |S| secrets apart
        v = self.variant
        if self.candidates_only:
            pool, packed_pool = S, pack(v, self.codes[S])
        else:
            pool, packed_pool = np.arange(self.codes.shape[0]), self.packed
        packed_s = pack(v, self.codes[S])
        threshold = self.cap(k - 1)
        if node.get("limit") is not None:
            threshold = self._checked_limit(node["limit"], S, pool, packed_s, packed_pool, k, where)
        implicit = self._implicit(S, packed_s, packed_pool, threshold)
        refuted = node.get("refuted") or {}
        same = node.get("same") or {}
        mapped = node.get("mapped") or {}
        perms = node.get("perms") or []
        if not all(isinstance(x, dict) for x in (refuted, same, mapped)) or not isinstance(perms, list):
            raise Invalid(f"node {where}: refuted/same/mapped must be objects and perms a list")
        if not (refuted or same or mapped):
            self._all_handled(implicit, pool, S, k, where)   # most nodes: counting settles all
            return
        rows: dict[int, np.ndarray] = {}

        def replies_of(i: int) -> np.ndarray:
            if i not in rows:
                rows[i] = score_matrix(v, pack(v, self.codes[int(pool[i])]), packed_s)[0]
            return rows[i]

        position = np.full(self.codes.shape[0], -1, dtype=np.int64)
        position[pool] = np.arange(len(pool))

        def pool_pos(text, role: str) -> int:
            g = self.text_index.get(text) if isinstance(text, str) else None
            if g is None:
                raise Invalid(f"node {where}: {role} {text!r} is not a code of this variant")
            if position[g] < 0:
                raise Invalid(f"node {where}: {role} {text} is not an allowed guess here")
            return int(position[g])

        handled = implicit.copy()
        explicit = np.zeros(len(pool), dtype=bool)
        for text, entry in refuted.items():
            i = pool_pos(text, "refuted guess")
            if not isinstance(entry, dict) or entry.get("reply") not in self.reply_index:
                raise Invalid(f"node {where}: guess {text} has no valid refuting reply")
            r = self.reply_index[entry["reply"]]
            if r == self.win:
                raise Invalid(f"node {where}: guess {text} refuted by the winning reply")
            members = S[replies_of(i) == r]
            if len(members) == 0:
                raise Invalid(f"node {where}: guess {text}: no secret gives reply {entry['reply']}")
            if len(members) <= threshold:
                child = entry.get("node")
                if child is None:
                    raise Invalid(f"node {where}: guess {text}: class {entry['reply']} has "
                                  f"{len(members)} secrets, which {k - 1} guesses could tell "
                                  "apart, and no sub-proof is given")
                self.check(child, members, history + [self.tuples[int(pool[i])]], k - 1,
                           f"{where}/{text}:{entry['reply']}")
            explicit[i] = True
        handled |= explicit
        for text, other in same.items():
            i = pool_pos(text, "guess")
            j = pool_pos(other, "twin")
            if not (explicit[j] or implicit[j]):
                raise Invalid(f"node {where}: guess {text} is the same as {other}, which is not refuted")
            if not np.array_equal(replies_of(i), replies_of(j)):
                raise Invalid(f"node {where}: guesses {text} and {other} do not get the same replies")
            handled[i] = True
        checked_perms: set[int] = set()
        for text, entry in mapped.items():
            i = pool_pos(text, "mapped guess")
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)
                    and not isinstance(entry[0], bool) and 0 <= entry[0] < len(perms)):
                raise Invalid(f"node {where}: mapped guess {text}: expected [perm index, code]")
            perm = perms[entry[0]]
            if entry[0] not in checked_perms:
                self._check_perm(perm, history, where)
                checked_perms.add(entry[0])
            j = pool_pos(entry[1], "representative")
            image = _apply(perm, self.tuples[int(pool[i])])
            if image != self.tuples[int(pool[j])]:
                raise Invalid(f"node {where}: permutation {entry[0]} maps {text} to "
                              f"{self.space.format(image)}, not {entry[1]}")
            if not (explicit[j] or implicit[j] or entry[1] in same):
                raise Invalid(f"node {where}: guess {text} is mapped onto {entry[1]}, which is not refuted")
            handled[i] = True
        self._all_handled(handled, pool, S, k, where)

    def _checked_limit(self, limit, S: np.ndarray, pool: np.ndarray, packed_s, packed_pool,
                       k: int, where: str) -> int:
        """The node's claimed class limit, once the settle table of S confirms it."""
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
            raise Invalid(f"node {where}: limit {limit!r} is not a class size")
        counts = partition_counts(self.variant, packed_pool, packed_s)
        b = settle_table(counts, np.isin(pool, S), self.win, self.n_responses, k - 1)[k - 1]
        if b > limit:
            raise Invalid(f"node {where}: claims no class over {limit} can be settled in "
                          f"{k - 1} guesses; the settle table of its {len(S)} secrets gives {b}")
        return min(limit, self.cap(k - 1))

    def _implicit(self, S: np.ndarray, packed_s, packed_pool, threshold: int) -> np.ndarray:
        """Guesses the counting rules settle: a non-winning class larger than ``threshold``
        (cap(k-1), or the node's checked limit), or one class that is not a win (useless);
        scored once per orbit of the symbol swaps that keep S (cbsolve/certificates/certify_orbits.py)."""
        v = self.variant
        orbits = None if self.candidates_only else self.orbits.of(self.codes[S])
        if orbits is None:
            return counting_verdicts(v, packed_pool, packed_s, threshold) < 2
        representatives, orbit = orbits
        return (counting_verdicts(v, representatives, packed_s, threshold) < 2)[orbit]

    def _all_handled(self, handled: np.ndarray, pool: np.ndarray, S: np.ndarray, k: int,
                     where: str) -> None:
        if not handled.all():
            g = int(pool[np.flatnonzero(~handled)[0]])
            raise Invalid(f"node {where}: guess {self.space.format(self.codes[g])} is neither refuted "
                          f"nor mapped, and counting does not exclude it ({k} guesses left, "
                          f"{len(S)} secrets)")

    def _check_perm(self, perm, history, where: str) -> None:
        try:
            ok = self._perm_ok(perm)
        except TypeError:
            ok = False
        if not ok:
            raise Invalid(f"node {where}: {perm!r} is not a permutation pair of this variant")
        for h in history:
            if _apply(perm, h) != tuple(h):
                raise Invalid(f"node {where}: permutation {perm!r} does not fix history guess "
                              f"{self.space.format(h)}")

    def _perm_ok(self, perm) -> bool:
        v = self.variant
        ok = (isinstance(perm, list) and len(perm) == 2 and all(isinstance(p, list) for p in perm)
              and sorted(perm[0]) == list(range(v.length))
              and sorted(perm[1]) == list(range(v.n_symbols)))
        if ok and v.no_leading_zero:
            ok = perm[0][0] == 0 and perm[1][0] == 0
        return bool(ok)


def _apply(perm, code) -> tuple[int, ...]:
    """image[i] = sym_perm[code[pos_perm[i]]] (the convention of docs/optimal.md)."""
    pos_perm, sym_perm = perm
    return tuple(int(sym_perm[code[p]]) for p in pos_perm)
