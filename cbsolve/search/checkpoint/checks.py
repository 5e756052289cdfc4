"""A checkpoint's state checked on load, before a resumed search trusts it.

Place in the data flow: :class:`.store.Checkpoint` reads a document whose format, version,
checksum and identity hold -> **this module** checks that its ``state`` has the shape the
drivers write (:mod:`.worst`, :mod:`.expected`, :mod:`.distributed`) and that it agrees with
itself: every tree it holds is replayed with the scorer (:func:`cbsolve.certificates.certify.measure_tree`)
and must solve the secrets it is recorded for, with the value and wins recorded beside it; a
depth recorded refuted must be beyond the reach of every tree recorded; first guesses follow
the recorded order. A state that fails is refused in one line (exit 2), never half-replayed
into a traceback or a wrong answer.

The checksum already refuses accidents (a truncation, damage); this refuses a state that was
edited and resealed, or written by a driver with a bug, wherever the contradiction is visible
without searching. Lower bounds recorded without a tree (a refuted guess's bound, a reply
class's value below the first guess) cannot be checked without redoing the search: the tree
and certificate a resumed run prints are what ``cbsolve verify`` checks with the scorer alone.
"""
from __future__ import annotations

import numpy as np

from ...certificates.certify import Invalid, measure_tree
from ...game.codes import CodeSpace
from ...errors import CbsolveError
from ...game.scoring import score_against
from ...game.variant import Variant


class Contradiction(Exception):
    """What is wrong with a state (turned into one CheckpointError line by the store)."""


def check_state(ident: dict, state: dict) -> None:
    """Raise :class:`Contradiction` if ``state`` does not fit the search ``ident`` names."""
    try:
        variant = Variant.from_dict(ident["variant"])
    except (KeyError, TypeError, ValueError, CbsolveError) as exc:
        raise Contradiction(f"its variant is not valid: {exc}") from None
    view = _View(variant)
    if ident.get("options", {}).get("distributed"):
        _dask(view, ident["objective"], state)
    elif ident["objective"] == "worst":
        _worst(view, state)
        for part in ("ties_count", "ties_total"):   # the tie-break searches: weighted totals
            if part in state:
                _expected(view, _obj(state[part], part), f"{part}.", weighted=True)
    else:
        _expected(view, state, "", weighted=False)


class _View:
    """The game a state is checked against: its codes, replies and the trees' replay."""

    def __init__(self, variant) -> None:
        self.variant, self.space = variant, CodeSpace(variant)
        self.n = self.space.size

    def guess(self, g, where: str) -> int:
        if not isinstance(g, int) or isinstance(g, bool) or not 0 <= g < self.n:
            raise Contradiction(f"{where}: {g!r} is not a code index of this game")
        return g

    def code(self, text, where: str) -> int:
        try:
            return int(self.space.index_of(self.space.parse(text)))
        except (CbsolveError, TypeError, ValueError):
            raise Contradiction(f"{where}: {text!r} is not a code of this game") from None

    def measure(self, root, start, where: str) -> dict:
        """The tree ``root`` (document form) replayed over the code indices ``start``."""
        try:
            return measure_tree(self.variant, root, start)
        except (Invalid, CbsolveError, TypeError, ValueError, KeyError) as exc:
            raise Contradiction(f"{where}: its tree does not solve the secrets it is recorded "
                                f"for ({exc})") from None

    def document(self, raw, where: str) -> dict:
        """A kernel tree (guess index, [reply, subtree] pairs) in document form."""
        node = _obj(raw, where)
        children = node.get("children")
        if not isinstance(children, list):
            raise Contradiction(f"{where}: a tree node without a list of children")
        out = {}
        for pair in children:
            if not isinstance(pair, list) or len(pair) != 2 or not isinstance(pair[0], int):
                raise Contradiction(f"{where}: a child is not a (reply, subtree) pair")
            try:
                key = self.variant.format_response(pair[0])
            except (CbsolveError, IndexError, ValueError, TypeError):
                raise Contradiction(f"{where}: {pair[0]!r} is not a reply of this game") from None
            out[key] = self.document(pair[1], where)
        g = self.guess(node.get("guess"), where)
        return {"guess": self.space.format(self.space.codes[g]), "children": out}

    def reply_class(self, g1: int, reply: int, where: str) -> np.ndarray:
        """The secrets that give ``reply`` to first guess ``g1`` (none: a contradiction)."""
        everyone = np.arange(self.n)
        replies = score_against(self.variant, tuple(self.space.codes[g1]), self.space.codes)
        members = everyone[replies == reply]
        if not len(members) or reply == self.variant.win_response:
            raise Contradiction(f"{where}: no secret gives reply {reply!r} to the first guess")
        return members


def _obj(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise Contradiction(f"{where}: expected an object, found {type(value).__name__}")
    return value


def _ints(value, k: int, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != k or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in value):
        raise Contradiction(f"{where}: expected {k} integers, found {value!r}"[:200])
    return tuple(value)


def _worst(view: _View, st: dict) -> None:
    """The worst case's state (:mod:`.worst`)."""
    depths = []
    for key, cert in _obj(st.get("refuted", {}), "refuted").items():
        claim = _obj(_obj(cert, f"refuted {key}").get("claim"), f"refuted {key}")
        if not key.isdigit() or claim.get("max_guesses") != int(key) \
                or claim.get("solvable") is not False:
            raise Contradiction(f"refuted {key!r}: its certificate claims {claim!r}"[:200])
        if cert.get("variant") != view.variant.to_dict():
            raise Contradiction(f"refuted {key}: its certificate is for another game")
        depths.append(int(key))
    refuted = max(depths, default=0)
    everyone = np.arange(view.n)
    for name in ("greedy", "witness"):
        if st.get(name) is None:
            continue
        worst = view.measure(view.document(st[name], name), everyone, name)["worst"]
        if worst <= refuted:
            raise Contradiction(f"its {name} tree finds every secret in {worst} guesses, but "
                                f"{refuted} guesses are recorded as not enough")
        if name == "witness" and worst > (st.get("depth") or 0):
            raise Contradiction(f"its witness needs {worst} guesses, more than the depth "
                                f"{st.get('depth')!r} it is recorded for")
    depth = st.get("depth")
    if depth is not None and (not isinstance(depth, int) or depth <= refuted):
        raise Contradiction(f"depth {depth!r} is being decided, but {refuted} guesses are "
                            "recorded as not enough")
    for code, outcome in _obj(st.get("orbits", {}), "orbits").items():
        view.code(code, "orbits")
        if _obj(outcome, f"orbits {code}").get("outcome") != "refuted":
            raise Contradiction(f"orbits {code}: outcome {outcome.get('outcome')!r}")
    for code, replies in _obj(st.get("settled", {}), "settled").items():
        view.code(code, "settled")
        _ints(replies, len(replies) if isinstance(replies, list) else -1, f"settled {code}")


def _expected(view: _View, st: dict, at: str, weighted: bool) -> None:
    """The expected case's state (:mod:`.expected`); ``weighted``: a tie-break search's, whose
    values are weighted totals (its trees are replayed, its values not compared)."""
    if st.get("greedy") is not None:
        _ints(st["greedy"], 2, at + "greedy")
    order = [_order_entry(x, at + "order") for x in st.get("order", [])]
    for g in order:
        view.guess(g, at + "order")
    done = st.get("done", [])
    if not isinstance(done, list) or len(done) > len(order):
        raise Contradiction(f"{at}done: more first guesses settled than ordered")
    last = None
    for rank, entry in enumerate(done):
        entry = _obj(entry, f"{at}done")
        if entry.get("guess") != order[rank]:
            raise Contradiction(f"{at}done: first guess {rank + 1} is {entry.get('guess')!r}, "
                                f"the recorded order has {order[rank]}")
        _ints(entry.get("bound"), 2, f"{at}done")
        if entry.get("value") is not None:
            _ints(entry["value"], 2, f"{at}done")
        if entry.get("incumbent"):
            last = entry
    inc = st.get("incumbent")
    if (inc is None) != (last is None) or (inc is not None and inc.get("guess") != last["guess"]):
        raise Contradiction(f"{at}incumbent: its first guess is not the last one settled as "
                            "the incumbent")
    everyone = np.arange(view.n)
    if inc is not None:
        m = view.measure(inc.get("tree"), everyone, f"{at}incumbent")
        _same(m, inc.get("wins"), 0, f"{at}incumbent")
        if not weighted and (m["total"], m["worst"]) != tuple(last.get("value") or ()):
            raise Contradiction(f"{at}incumbent: its tree totals {m['total']} (worst "
                                f"{m['worst']}), the value recorded is {last.get('value')}")
    cur = st.get("current")
    if cur is None:
        return
    g1 = _obj(cur, f"{at}current").get("guess")
    if order and (len(done) >= len(order) or g1 != order[len(done)]):
        raise Contradiction(f"{at}current: first guess {g1!r} is not the next in the order")
    view.guess(g1, f"{at}current")
    for reply, rec in _obj(cur.get("classes", {}), f"{at}current.classes").items():
        where = f"{at}current.classes {reply}"
        members = view.reply_class(g1, _reply(reply, where), where)
        rec = _obj(rec, where)
        if rec.get("first") != int(members[0]):
            raise Contradiction(f"{where}: its first secret is not the class's")
        _class_tree(view, rec, members, where, weighted)
    for reply, rec in _obj(cur.get("split", {}), f"{at}current.split").items():
        where = f"{at}current.split {reply}"
        rec = _obj(rec, where)
        for kind in ("exact", "refuted"):
            for g, value in _obj(rec.get(kind, {}), f"{where} {kind}").items():
                view.guess(int(g) if g.isdigit() else g, f"{where} {kind}")
                _ints(value, 2, f"{where} {kind}")
        if rec.get("best") is not None:
            members = view.reply_class(g1, _reply(reply, where), where)
            _class_tree(view, _obj(rec["best"], where), members, f"{where} best", weighted)


def _order_entry(entry, where: str) -> int:
    """The guess of an ``order`` entry: [guess, total bound, worst bound, is a candidate]."""
    if not isinstance(entry, list) or len(entry) != 4 or not isinstance(entry[3], bool):
        raise Contradiction(f"{where}: {entry!r} is not [guess, total, worst, candidate]"[:200])
    return _ints(entry[:3], 3, where)[0]


def _reply(text: str, where: str) -> int:
    if not text.isdigit():
        raise Contradiction(f"{where}: {text!r} is not a reply index")
    return int(text)


def _class_tree(view: _View, rec: dict, members, where: str, weighted: bool) -> None:
    """A reply class's record (value, tree, wins), its tree replayed over ``members``: the
    value counts the guesses after the first, the wins are by depth from the first guess."""
    m = view.measure(rec.get("tree"), members, where)
    _same(m, rec.get("wins"), 1, where)
    value = _ints(rec.get("value"), 2, where)
    if not weighted and value != (m["total"], m["worst"]):
        raise Contradiction(f"{where}: its tree totals {m['total']} (worst {m['worst']}), the "
                            f"value recorded is {list(value)}")


def _same(measured: dict, wins, shift: int, where: str) -> None:
    got = {str(k + shift): v for k, v in measured["histogram"].items()}
    if not isinstance(wins, dict) or {str(k): v for k, v in wins.items()} != got:
        raise Contradiction(f"{where}: the wins recorded are not its tree's")


def _dask(view: _View, objective: str, st: dict) -> None:
    """A Dask run's state (:mod:`.distributed`): its shape (its trees are its tasks' own)."""
    if objective == "worst":
        for d in st.get("refuted", []):
            _ints([d], 1, "refuted")
        for g in st.get("guesses", []):
            view.guess(g, "guesses")
        if st.get("winner") is not None:
            view.guess(_ints(st["winner"], 2, "winner")[1], "winner")
        if st.get("greedy") is not None:
            view.measure(view.document(st["greedy"], "greedy"), np.arange(view.n), "greedy")
        return
    for entry in st.get("done", []):
        view.guess(_obj(entry, "done").get("guess"), "done")
        _ints(entry.get("bound"), 2, "done")
