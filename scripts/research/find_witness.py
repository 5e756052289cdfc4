"""Find a strategy that wins every secret of a game within a given number of guesses (a witness).

Made for the games whose complete worst-case search stays at an interval [lower, upper] after
an hour (docs/optimal.md, "Certified results"): there the greedy minimax tree needs one guess
too many in a few reply classes of the first guess, and proving "d more guesses suffice" from
such a class with the complete search spends its time refuting bad second guesses. Here each
class whose greedy tree is too deep gets a witness search
(:func:`witness.find_witness`: second guesses one per orbit, best partition
first, each of their classes decided by the exact kernel within a short cap). Without
``--first`` the script tries the first guesses itself, one per symmetry orbit, those whose
largest reply class is smallest first (``--firsts`` of them). The assembled tree is
written (gzipped when its name ends in .gz); ``cbsolve verify`` checks it secret by secret.

    nice -n 10 python scripts/research/find_witness.py --length 5 --digits 10 --distinct --first 01234 \\
        --worst 7 --out bc-5-10-worst-witness.json.gz
    nice -n 10 python scripts/research/find_witness.py --length 5 --symbols 12345678 --repeats \\
        --worst 6 --certificate --out mm-5x8-worst.json.gz

``--sub REPLY`` goes on in one class that a pinned second guess leaves, from the third guess
where an earlier run stopped (``--skip``):

    nice -n 10 python scripts/research/find_witness.py --length 6 --symbols 123456 --repeats --worst 6 \\
        --first 111223 --classes 0,2 --second 0,2=344342 --sub 1,2 --skip 600 --cap 30 \\
        --levels 0 --out unused.json

The variant options are those of the CLI (``--game`` names a preset, default ``bulls-cows``;
the length defaults to 5). ``--certificate`` embeds the refutation tree proving that one guess
less fails (the lower bound), so ``cbsolve verify`` reports the tree optimal.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cbsolve.game.codes import CodeSpace  # noqa: E402
from cbsolve.runtime.deadline import Deadline  # noqa: E402
from cbsolve.errors import CbsolveError  # noqa: E402
from cbsolve.search import memory  # noqa: E402
from cbsolve.search.worst.kernel import _Native  # noqa: E402
from cbsolve.search.worst.trees import _certificate, _depth, _tree_doc  # noqa: E402
from cbsolve.certificates.tree import read_tree, write_tree  # noqa: E402
from cbsolve.game.variant import Variant  # noqa: E402

from witness import WitnessLog, find_witness, ordered_guesses  # noqa: E402


def parse(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    game = ap.add_argument_group("variant (as in the CLI)")
    game.add_argument("--game", default=None, help="a preset (default bulls-cows)")
    game.add_argument("--length", type=int, default=5)
    alphabet = game.add_mutually_exclusive_group()
    alphabet.add_argument("--digits", type=int, default=None)
    alphabet.add_argument("--symbols", default=None)
    rep = game.add_mutually_exclusive_group()
    rep.add_argument("--repeats", dest="repeats", action="store_true", default=None)
    rep.add_argument("--distinct", dest="repeats", action="store_false")
    game.add_argument("--no-leading-zero", action="store_true", default=None)
    ap.add_argument("--first", default=None, help="the first guess (default: tried in turn)")
    ap.add_argument("--firsts", type=int, default=3,
                    help="without --first: first guesses tried (one per orbit, best first)")
    ap.add_argument("--worst", type=int, required=True, help="guesses allowed in all")
    ap.add_argument("--cap", type=float, default=5.0, help="seconds per class decision")
    ap.add_argument("--levels", type=int, default=1)
    ap.add_argument("--max-guesses", type=int, default=None, help="guesses tried per class")
    ap.add_argument("--deeper-guesses", type=int, default=8,
                    help="guesses tried per node below the second guess")
    ap.add_argument("--rank", action="store_true",
                    help="order the second guesses by the classes their greedy trees miss")
    ap.add_argument("--survey", action="store_true",
                    help="decide every class of each second guess (evidence of a failure)")
    ap.add_argument("--second", nargs="+", default=[], metavar="CLASS=GUESS",
                    help="the second guess to use in a class (e.g. 0,2=10567)")
    ap.add_argument("--classes", nargs="+", default=None,
                    help="search only these reply classes of the first guess (e.g. 0,2); no tree")
    ap.add_argument("--sub", default=None, metavar="REPLY",
                    help="with one --classes and its --second pin: search only the class REPLY "
                    "the pinned second guess leaves (third guesses in partition order)")
    ap.add_argument("--skip", type=int, default=0,
                    help="with --sub: skip this many third guesses (where a run stopped)")
    ap.add_argument("--certificate", action="store_true",
                    help="embed the certificate that one guess less fails")
    ap.add_argument("--add-certificate", action="store_true",
                    help="only embed the certificate in the tree already written to --out")
    ap.add_argument("--misses", action="store_true",
                    help="only list, per first guess, the classes its greedy tree leaves too deep")
    ap.add_argument("--memory-budget", default=None, help="as the CLI's (e.g. 3G)")
    return ap.parse_args(argv)


def variant_of(args: argparse.Namespace) -> Variant:
    """The game the options name (a preset with the CLI's overrides)."""
    return Variant.from_options(args.game, length=args.length, digits=args.digits,
                                symbols=args.symbols, repeats=args.repeats,
                                no_leading_zero=args.no_leading_zero)


def first_guesses(native, count: int) -> list[int]:
    """``count`` first guesses, one per symmetry orbit, smallest largest class first.

    Not by the greedy tree's misses (:func:`by_greedy_misses`): at the root they count whole
    classes, and a guess that leaves one hopeless class (11111 in Logik: its class 0,0 is
    Mastermind 5x7, which needs 6 guesses) would come before guesses with several hard but
    settleable ones."""
    return ordered_guesses(native, native.all, [])[:count]


def greedy_misses(native, first: int, left: int) -> list[tuple[int, int, int]]:
    """(reply, secrets, greedy depth) of the classes of ``first`` whose greedy minimax tree
    needs more than ``left`` guesses: where a witness has to do better than the greedy tree."""
    replies = native.replies(first, native.all)
    out = []
    for r in np.unique(replies):
        cls = native.all[replies == r]
        if r != native.variant.win_response and cls.size > 1:
            depth = _depth(native.core.greedy(cls, 0, np.array([first], dtype=np.int64)))
            if depth > left:
                out.append((int(r), int(cls.size), depth))
    return out


def reply_index(variant: Variant, text: str) -> int:
    """The reply written as the trees write it ("1,2", or "2" when only bulls are told): the
    label ``format_response`` gives it, as the classes are named everywhere in this script."""
    for r in range(variant.response_slots):
        if variant.format_response(r) == text:
            return r
    raise ValueError(f"not a reply of this game: {text!r}")


def sub_class_search(native, first: int, args, say) -> bool:
    """``--sub``: the witness search in one class the pinned second guess leaves, its third
    guesses one per orbit in partition order from rank ``--skip`` (``--max-guesses`` of them).
    A class of several hundred secrets with 4 guesses left can take the kernel longer than any
    cap; this goes on where an earlier run stopped instead of deciding the other classes again.
    True when a third guess works (it is printed; no tree is written)."""
    variant, space = native.variant, native.space
    name = args.classes[0]
    second = space.index_of(space.parse(dict(x.split("=") for x in args.second)[name]))
    cls = native.all[native.replies(first, native.all) == reply_index(variant, name)]
    sub = cls[native.replies(second, cls) == reply_index(variant, args.sub)]
    history = [first, second]
    if sub.size == 0:
        say(f"{name} then {args.sub}: no secret gets this reply")
        return False
    guesses = ordered_guesses(native, sub, history)
    tried = guesses[args.skip:][:args.max_guesses]
    say(f"{name} then {args.sub}: {sub.size} secrets, third guesses {args.skip + 1}-"
        f"{args.skip + len(tried)} of {len(guesses)}")

    def echo(row):
        hist, g, outcome, sec = row
        say(f"  guess {len(hist) + 1} {space.format(space.codes[g])}: {outcome} ({sec:.1f} s)")

    found = find_witness(native, sub, args.worst - 2, history, cap=args.cap, levels=args.levels,
                         log=WitnessLog(echo=echo), deeper_guesses=args.deeper_guesses,
                         survey=args.survey, only=tried) if tried else None
    say(f"{name} then {args.sub}: " + ("no witness" if found is None else
        f"witness, third guess {space.format(space.codes[found['guess']])}"))
    return found is not None


def witness_after(native, first: int, args, say) -> list | None:
    """The children (reply, tree) of ``first`` that finish within ``args.worst`` guesses, or
    None when a class has no witness (with ``--survey``/``--classes``: the classes found)."""
    variant, space = native.variant, native.space
    everyone = native.all
    replies = native.replies(first, everyone)
    left = args.worst - 1
    seconds = dict(x.split("=") for x in args.second)
    children, failed = [], 0
    for r in np.unique(replies):
        if r == variant.win_response:
            continue
        cls = everyone[replies == r]
        name = variant.format_response(int(r))
        if args.classes and name not in args.classes:
            continue
        t1 = time.perf_counter()
        greedy = native.core.greedy(cls, 0, np.array([first], dtype=np.int64))
        if _depth(greedy) <= left:
            children.append((int(r), greedy))
            say(f"{name}: {cls.size} secrets, greedy depth {_depth(greedy)} "
                f"({time.perf_counter() - t1:.1f} s)")
            continue

        def echo(row, name=name):
            hist, g, outcome, sec = row
            say(f"  {name} {'  ' * (len(hist) - 1)}guess {len(hist) + 1} "
                f"{space.format(space.codes[g])}: {outcome} ({sec:.1f} s)")

        only = [space.index_of(space.parse(seconds[name]))] if name in seconds else None
        log = WitnessLog(echo=echo)
        say(f"{name}: {cls.size} secrets, greedy depth {_depth(greedy)}: searching")
        found = find_witness(native, cls, left, [first], cap=args.cap, levels=args.levels,
                             log=log, max_guesses=args.max_guesses,
                             deeper_guesses=args.deeper_guesses, rank_by_greedy=args.rank,
                             survey=args.survey, only=only)
        if found is None:
            say(f"{name}: {cls.size} secrets, no witness ({time.perf_counter() - t1:.1f} s, "
                f"{log.nodes} decisions)")
            failed += 1
            if args.survey:
                continue
            return None
        say(f"{name}: {cls.size} secrets, witness depth {_depth(found)} "
            f"({time.perf_counter() - t1:.1f} s, {log.nodes} decisions)")
        children.append((int(r), found))
    return None if failed else children


def main(argv=None) -> int:
    args = parse(argv)
    try:
        variant = variant_of(args)
        budget = (memory.parse_size(args.memory_budget) if args.memory_budget
                  else memory.budget())
        space = CodeSpace(variant)
        plan = memory.check(variant.describe(), space.size, "worst", budget, 1)
        firsts = None if args.first is None else [space.index_of(space.parse(args.first))]
        if args.sub is not None:
            pins = dict(x.split("=") for x in args.second)
            if firsts is None or not args.classes or len(args.classes) != 1 \
                    or args.classes[0] not in pins:
                raise ValueError("--sub needs --first, one --classes and its --second pin")
            for reply in (args.sub, args.classes[0]):   # a typo fails before the set-up
                reply_index(variant, reply)
            space.index_of(space.parse(pins[args.classes[0]]))
    except (CbsolveError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    native = _Native(variant, "all", {}, 1, plan=plan)
    say(f"{variant.describe()}: {space.size} codes, set-up {time.perf_counter() - t0:.1f} s")
    if args.add_certificate:
        doc = read_tree(args.out)
        doc["certificate"] = _certificate(variant, native, args.worst - 1, "all", Deadline(None),
                                          None)
        say(f"certificate: {time.perf_counter() - t0:.1f} s")
        write_tree(doc, args.out)
        return 0
    if args.sub is not None:
        return 0 if sub_class_search(native, firsts[0], args, say) else 1
    if firsts is None:
        firsts = first_guesses(native, args.firsts)
        say("first guesses to try: " + " ".join(space.format(space.codes[g]) for g in firsts)
            + f" ({time.perf_counter() - t0:.1f} s)")
    if args.misses:
        fmt = native.variant.format_response
        for first in firsts:
            misses = greedy_misses(native, first, args.worst - 1)
            say(f"{space.format(space.codes[first])}: {len(misses)} classes past {args.worst - 1} "
                "more guesses: " + " ".join(f"{fmt(r)} ({n} secrets, greedy {d})"
                                           for r, n, d in misses))
        return 0
    for first in firsts:
        say(f"first guess {space.format(space.codes[first])}")
        children = witness_after(native, first, args, say)
        if children is not None and not args.classes:
            break
    else:
        return 0 if args.classes else 1
    root = {"guess": int(first), "children": children}
    doc = _tree_doc(variant, native, root, "all", proved=False)
    doc["strategy"] = "witness-worst"
    if args.certificate:
        doc["certificate"] = _certificate(variant, native, args.worst - 1, "all",
                                          Deadline(None), None)
    say(f"tree: worst {doc['stats']['worst']}, total {doc['stats']['total']}, "
        f"{time.perf_counter() - t0:.1f} s")
    write_tree(doc, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
