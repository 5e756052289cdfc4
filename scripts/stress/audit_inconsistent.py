"""Differential audit: inconsistent logs beyond the filter, every backend, plus CLI diagnoses.

Throwaway audit (not a benchmark): builds logs that are inconsistent for a cheap-to-see reason
(a changed reply, totals that contradict each other, bulls that contradict each other, a
no-leading-zero rule) in spaces too large for the native filter, runs every backend on each
(``Query(limit=1)`` within a Deadline of T seconds; the backends' own ``solve``, so the seconds exclude the
diagnosis, which the CLI sample checks), and flags:

* ``DISAGREE``  one backend proves infeasible, another returns a secret (re-scored here);
* ``SLOW``      a backend answers ``unknown`` or takes > 2 s where another proves
                infeasible in < 0.5 s;
* ``ALLUNKNOWN`` no backend decides the log;
* ``ERROR``     a traceback;
* ``CLI-*``     the CLI's conflict is not minimal / not a conflict, its corrections do not
                make the log consistent, its status differs, or it printed a traceback.

Usage: ``PYTHONPATH=. python scripts/stress/audit_inconsistent.py --out audit.jsonl [--variants
L10d,MM16] [--per 2] [--cli 0.3]``; ``--report audit.jsonl`` prints the summary of a run.
"""
from __future__ import annotations

import argparse
import json
import random
import string
import subprocess
import sys
import time
import traceback

import numpy as np

from cbsolve.game.codes import CodeSpace
from cbsolve.consistency import Query, auto_choice, dfs, get_backend
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score
from cbsolve.game.scoring import possible_responses
from cbsolve.game.variant import Variant

L, D = string.ascii_uppercase, string.digits
VARIANTS = {
    "L10d": Variant(10, L, False),                                  # 10 of 26 letters, distinct
    "D8d": Variant(8, D, False),                                    # 8 of 10 digits, distinct
    "L20r": Variant(20, L, True),                                   # 20 of 26 letters, repeats
    "MM16": Variant(16, "123456", True),                            # Mastermind 16 x 6
    "D40r": Variant(40, D, True),                                   # 40 of 10 digits, repeats
    "BP16": Variant(16, "123456", True, feedback="bulls"),          # black-peg 16 x 6
    "D12z": Variant(12, D, True, no_leading_zero=True),             # 12 digits, no leading 0
    "D9zd": Variant(9, D, False, no_leading_zero=True),             # 9 of 10, distinct, no 0
}
#: ``auto#``: auto with ``count=True`` (``--count``), which routes to PySAT when the search
#: cannot count quickly.
BACKENDS = ("native", "cpsat", "sat", "auto", "auto#")
SLOW, FAST = 2.0, 0.5


def cli_options(v: Variant) -> list[str]:
    return ["--length", str(v.length), "--symbols", v.symbols,
            "--repeats" if v.repeats else "--distinct",
            "--no-leading-zero" if v.no_leading_zero else "--leading-zero",
            "--feedback", v.feedback]


def cli_command(v: Variant, tokens, backend="auto", tl=10) -> str:
    return " ".join(["python -m cbsolve consistent", *tokens, *cli_options(v),
                     "--backend", backend, "--json", "--time-limit", str(tl)])


# --- logs -----------------------------------------------------------------------------------
def fmt(v, code) -> str:
    return "".join(v.symbols[s] for s in code)


def token(v, code, b, c) -> str:
    return f"{fmt(v, code)}:{b}" if v.bulls_only else f"{fmt(v, code)}:{b},{c}"


def valid_reply(v, b, c) -> bool:
    n = v.length
    return 0 <= b and 0 <= c and b + c <= n and not (b == n - 1 and c == 1) and \
        (v.repeats or b + c >= 2 * n - v.n_symbols) and (not v.bulls_only or c == 0)


def hidden(v, k, rng, secret=None):
    """k entries scored against ``secret`` (random when None): tokens and the secret."""
    space = CodeSpace(v)
    codes = space.random_codes(k + 1, np.random.default_rng(rng.randrange(2**32)))
    secret = codes[0] if secret is None else secret
    out = []
    for g in codes[1:]:
        b, c = score(v, secret, g)
        out.append(token(v, g, b, c))
    return out, secret


def random_code(v, rng):
    return CodeSpace(v).random_codes(1, np.random.default_rng(rng.randrange(2**32)))[0]


def pad(v, core, size, rng, secret=None):
    """``core`` entries among padding scored against ``secret``, ``size`` in all, shuffled."""
    extra, _ = hidden(v, max(0, size - len(core)), rng, secret)
    out = core + extra
    rng.shuffle(out)
    return out


def gen_flip(v, k, rng):
    """A hidden-secret log of k entries with one reply changed to another possible one."""
    toks, _ = hidden(v, k, rng)
    i = rng.randrange(k)
    g, reply = toks[i].split(":")
    old = tuple(int(x) for x in reply.split(",")) if "," in reply else (int(reply), 0)
    opts = [r for r in possible_responses(v) if r != old and valid_reply(v, *r)]
    b, c = rng.choice(opts)
    toks[i] = f"{g}:{b}" if v.bulls_only else f"{g}:{b},{c}"
    return toks, f"entry {i + 1} {reply}->{b},{c}"


def gen_counts(v, rng, long):
    """Totals (bulls-only: bulls of single-symbol guesses) that cannot hold together."""
    n, d = v.length, v.n_symbols
    size = rng.randint(10, 40) if long else rng.randint(2, 5)
    if not v.repeats and d <= 12:
        return counts_small_alphabet(v, rng, size)
    if not v.repeats:
        syms = list(range(d))
        rng.shuffle(syms)
        if v.no_leading_zero:   # a guess must not start with the first symbol
            syms.sort(key=lambda s: s == 0)
        groups = [syms[i:i + n] for i in range(0, d - n + 1, n)]   # disjoint full guesses
        left = d - n * len(groups)
        how = rng.choice(["over", "under"] if left else ["over"])
        # present symbols: sum of totals + present(left over) = n, 0 <= present(left) <= left
        goal = n + 1 if how == "over" else n - left - 1
        if goal < 0:
            how, goal = "over", n + 1
        totals = split(goal, len(groups), n, rng, low=max(0, 2 * n - d))
        if totals is None:
            return None
        core = []
        for grp, t in zip(groups, totals, strict=False):
            code = grp[:]
            rng.shuffle(code)
            if v.no_leading_zero and code[0] == 0:
                code[0], code[-1] = code[-1], code[0]
            b = rng.randint(0, min(t, 2)) if t else 0
            if b == n - 1 and t - b == 1:
                b = n
            core.append(token(v, code, b, t - b))
        return pad(v, core, size, rng), f"{len(groups)} disjoint guesses, totals {totals} ({how})"
    # repeats: single-symbol guesses whose counts add to n+1 (or all symbols to n-1)
    if v.no_leading_zero and rng.random() < 0.5:
        # no symbol but the first present -> the secret is all zeros, which starts with 0
        code = [1 + (i % (d - 1)) for i in range(n)]
        core = [token(v, code, 0, 0)]
        return pad(v, core, size, rng, secret=None) if long else core, "only symbol 0 left"
    syms = list(range(d))
    rng.shuffle(syms)
    if v.no_leading_zero:
        syms.remove(0)
    if rng.random() < 0.5 and not v.no_leading_zero:
        counts = split(n - 1, d, n, rng)       # every symbol's count given: they add to n-1
        used = syms
        how = "all counts add to N-1"
    else:
        m = rng.randint(2, min(4, len(syms)))
        used = syms[:m]
        counts = split(n + 1, m, n, rng)
        how = f"{m} counts add to N+1"
    if rng.random() < 0.5 or v.bulls_only or len(syms) < 4:
        core = [token(v, [s] * n, k, 0) for s, k in zip(used, counts, strict=False)]
    else:   # two-symbol guesses (half a, half b), bulls 0, on disjoint pairs: totals add to N+1
        m = rng.randint(2, min(3, len(syms) // 2))
        counts = split(n + 1, m, n, rng)
        core = []
        for i, t in enumerate(counts):
            a, b = syms[2 * i], syms[2 * i + 1]
            code = [a] * (n // 2) + [b] * (n - n // 2)
            core.append(token(v, code, 0, t))
        how = f"{m} half-and-half guesses on disjoint pairs, bulls 0, totals {counts} (sum N+1)"
    return pad(v, core, size, rng), how


def counts_small_alphabet(v, rng, size):
    """Distinct symbols, small alphabet: 1-3 random guesses and a vector of totals that no set
    of N present symbols gives (found by enumerating the sets), each total alone possible."""
    import itertools

    n, d = v.length, v.n_symbols
    space = CodeSpace(v)
    sets = [set(c) for c in itertools.combinations(range(d), n)]
    m = rng.randint(1, 3)
    guesses = [random_code(v, rng) for _ in range(m)]
    seen = {tuple(len(p & set(g)) for g in guesses) for p in sets}
    lo = max(0, 2 * n - d)
    if m == 1 or rng.random() < 0.3:    # one total below 2N - D: impossible on its own
        g = guesses[0]
        t = lo - 1
        if t < 0:
            return None
        b = rng.randint(0, t)
        return pad(v, [token(v, g, b, t - b)], size, rng), f"one total {t} < 2N-D = {lo}"
    options = [t for t in itertools.product(range(lo, n + 1), repeat=m) if t not in seen]
    if not options:
        return None
    totals = rng.choice(options)
    core = []
    for g, t in zip(guesses, totals, strict=False):
        b = rng.randint(0, min(t, 2))
        if b == n - 1 and t - b == 1:
            b = t
        core.append(token(v, g, b, t - b))
    del space
    return pad(v, core, size, rng), f"{m} guesses with totals {list(totals)} no present set gives"


def split(total, parts, cap, rng, low=0):
    """``parts`` integers in [low, cap] adding to ``total`` (None if impossible)."""
    if not parts * low <= total <= parts * cap:
        return None
    out = [low] * parts
    for _ in range(total - parts * low):
        i = rng.choice([j for j in range(parts) if out[j] < cap])
        out[i] += 1
    return out


def gen_bulls(v, rng, long):
    """Bulls that contradict: one guess twice, a guess and a near copy, or guesses that
    disagree at every position whose bulls add to more than N. Totals (bulls-cows) come from a
    hidden secret, so only the bulls are wrong."""
    n, d = v.length, v.n_symbols
    size = rng.randint(10, 40) if long else rng.randint(2, 5)
    secret = random_code(v, rng)
    kind = rng.choice(["twice", "near", "shifts"])

    def total(g):
        b, c = score(v, secret, g)
        return b + c

    def entry(g, b):
        t = b if v.bulls_only else max(b, total(g))
        c = t - b
        if not valid_reply(v, b, c):
            return None
        return token(v, g, b, c)

    if kind == "twice":
        g = random_code(v, rng)
        t = n if v.bulls_only else total(g)
        if not v.bulls_only and rng.random() < 0.3:   # same bulls, totals differ
            b = rng.randint(0, min(t, n - 1))
            t2 = rng.choice([x for x in range(b, n + 1) if x != t])
            core = [token(v, g, b, t - b), token(v, g, b, t2 - b)]
            if not all(valid_reply(v, b, x - b) for x in (t, t2)):
                return None
            how = f"one guess twice, same bulls, totals {t} and {t2}"
        else:
            bs = rng.sample(range(0, t + 1), 2) if t >= 1 else None
            if bs is None:
                return None
            core = [entry(g, bs[0]), entry(g, bs[1])]
            how = f"one guess twice, bulls {bs}"
    elif kind == "near":
        g = list(random_code(v, rng))
        k = rng.randint(1, max(1, n // 4))
        h = g[:]
        for p in rng.sample(range(n), k):
            choices = [s for s in range(d) if s != g[p] and (v.repeats or s not in h)
                       and not (p == 0 and v.no_leading_zero and s == 0)]
            if not choices:
                return None
            h[p] = rng.choice(choices)
        k = sum(a != b for a, b in zip(g, h, strict=False))
        hi = n if v.bulls_only else min(total(g), total(h))
        if hi < k + 1:
            return None
        b1 = rng.randint(k + 1, hi)
        core = [entry(g, b1), entry(h, b1 - k - 1)]
        if rng.random() < 0.5:
            core.reverse()
        how = f"a guess and a copy with {k} positions changed, bulls differ by {k + 1}"
    else:
        perm = list(range(d))
        rng.shuffle(perm)
        m = rng.randint(2, min(d, 6))
        guesses = []
        for i in range(d):
            g = [perm[(p + i) % d] for p in range(n)]
            if v.no_leading_zero and g[0] == 0:
                continue
            guesses.append(g)
            if len(guesses) == m:
                break
        caps = [n if v.bulls_only else total(g) for g in guesses]
        if sum(caps) < n + 1:
            return None
        bs = [0] * len(guesses)
        for _ in range(n + 1):
            i = rng.choice([j for j in range(len(guesses)) if bs[j] < caps[j]])
            bs[i] += 1
        core = [entry(g, b) for g, b in zip(guesses, bs, strict=False)]
        how = f"{len(guesses)} guesses disagreeing at every position, bulls {bs} (sum N+1)"
    if any(c is None for c in core):
        return None
    return pad(v, core, size, rng, secret), how


def gen_nlz(v, k, rng):
    """A log scored against a secret that starts with the forbidden symbol (scored in the
    variant without the rule): consistent there, usually not here once k is large."""
    free = Variant(v.length, v.symbols, v.repeats, feedback=v.feedback)
    while True:
        secret = random_code(free, rng)
        if secret[0] == 0:
            break
    toks, _ = hidden(v, k, rng, secret)
    return toks, "hidden secret starts with 0"


# --- running --------------------------------------------------------------------------------
def rescore(log: FeedbackLog, secret: str) -> bool:
    code = log.space.parse(secret)
    return all(score(log.variant, code, e.guess) == (e.bulls, e.cows) for e in log)


def run_backend(log, name, tl):
    dfs.KEPT.clear()
    q = Query(count=True, limit=1) if name == "auto#" else Query(limit=1)
    t0 = time.perf_counter()
    deadline = Deadline.from_limit(tl)
    try:
        chosen = auto_choice(log, q, deadline=deadline)["backend"] if name.startswith("auto") else name
        r = get_backend(chosen).solve(log, q, deadline=deadline)
    except Exception:
        return {"status": "error", "seconds": time.perf_counter() - t0,
                "error": traceback.format_exc(limit=6)}
    out = {"status": str(r.status), "seconds": round(time.perf_counter() - t0, 4)}
    if name.startswith("auto"):
        out["chose"] = chosen
    if r.secrets:
        out["secret"] = r.secrets[0]
        out["rescored"] = rescore(log, r.secrets[0])
    return out


def decide(log, tl=10.0):
    """Is ``log`` consistent? True only with a re-scored secret; False when a backend proves
    infeasible and none finds a secret; None when undecided."""
    proved = False
    for name in ("native", "cpsat", "sat"):
        r = run_backend(log, name, tl)
        if r.get("secret") and r["rescored"]:
            return True
        if r["status"] == "infeasible":
            proved = True
            break
    return False if proved else None


def classify(rec):
    res = rec["results"]
    flags = []
    inf = {b: r for b, r in res.items() if r["status"] == "infeasible"}
    sat = {b: r for b, r in res.items() if r.get("secret")}
    for b, r in res.items():
        if r["status"] == "error":
            flags.append(f"ERROR:{b}")
        if r.get("secret") and not r["rescored"]:
            flags.append(f"BADSECRET:{b}")
    if inf and sat:
        flags.append("DISAGREE:" + ",".join(sorted(inf)) + " vs " + ",".join(sorted(sat)))
    fast = [b for b, r in inf.items() if r["seconds"] < FAST]
    if fast:
        for b, r in res.items():
            if r["status"] == "unknown" or (r["status"] == "infeasible" and r["seconds"] > SLOW):
                flags.append(f"SLOW:{b}({r['status']},{r['seconds']:.2f}s)")
    if all(r["status"] == "unknown" for r in res.values()):
        flags.append("ALLUNKNOWN")
    rec["truth"] = "consistent" if sat and any(r["rescored"] for r in sat.values()) else \
        ("inconsistent" if inf else "unknown")
    return flags


def run_cli(v, tokens, backend, tl):
    cmd = [sys.executable, "-m", "cbsolve", "consistent", *tokens, *cli_options(v),
           "--backend", backend, "--json", "--time-limit", str(tl)]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    out = {"backend": backend, "exit": p.returncode, "wall": round(time.perf_counter() - t0, 3)}
    if "Traceback" in p.stderr:
        out["traceback"] = p.stderr[-2000:]
    try:
        data = json.loads(p.stdout)
    except json.JSONDecodeError:
        out["stdout"] = p.stdout[-500:]
        out["stderr"] = p.stderr[-500:]
        return out
    out.update(status=data["status"], seconds=data["seconds"], conflict=data.get("conflict"),
               corrections=data.get("corrections"), notes=data.get("notes"))
    return out


def check_cli(v, tokens, cli, tl):
    """Flags for one CLI answer: conflict minimal and inconsistent; corrections work."""
    flags = []
    log = FeedbackLog.parse(v, tokens)
    if cli.get("traceback"):
        flags.append("CLI-TRACEBACK")
    if cli.get("status") != "infeasible":
        flags.append(f"CLI-STATUS:{cli.get('status')}")
        return flags
    if cli["exit"] != 1:
        flags.append(f"CLI-EXIT:{cli['exit']}")
    conflict = cli.get("conflict")
    if not conflict:
        flags.append("CLI-NOCONFLICT")
    else:
        if decide(log.subset(conflict), tl) is not False:
            flags.append("CLI-CONFLICT-NOT-INCONSISTENT")
        for i in conflict:
            rest = [k for k in conflict if k != i]
            ans = decide(log.subset(rest), tl)
            if ans is not True:
                flags.append(f"CLI-CONFLICT-NOT-MINIMAL(drop {i}: {ans})")
    fixes = cli.get("corrections")
    if fixes is None:
        flags.append("CLI-NOCORRECTIONS")
    else:
        fixed = list(tokens)
        for f in fixes:
            g = fixed[f["entry"] - 1].split(":")[0]
            fixed[f["entry"] - 1] = f"{g}:{f['to']}"
        if decide(FeedbackLog.parse(v, fixed), tl) is not True:
            flags.append("CLI-CORRECTIONS-FAIL")
    return flags


def make_logs(vname, v, per, rng):
    """(kind, length class, tokens, how) for one variant."""
    out = []
    for long in (False, True):
        klass = "long" if long else "short"
        for gen, kind in ((gen_counts, "counts"), (gen_bulls, "bulls")):
            made, tries = 0, 0
            while made < per and tries < 50 * per:
                tries += 1
                got = gen(v, rng, long)
                if got is None:
                    continue
                toks, how = got
                try:
                    FeedbackLog.parse(v, toks)
                except Exception as exc:          # a generator bug: report, skip
                    print(f"  skip {kind}: {exc}", file=sys.stderr)
                    continue
                out.append((kind, klass, toks, how))
                made += 1
        for gen, kind in ((gen_flip, "flip"),) + (((gen_nlz, "nlz"),) if v.no_leading_zero else ()):
            if kind == "nlz" and not long:
                continue
            made, tries = 0, 0
            while made < per and tries < 6 * per:
                tries += 1
                k = rng.randint(10, 40) if long else rng.randint(2, 5)
                if vname == "D40r" and long:
                    k = rng.randint(10, 30)
                toks, how = gen(v, k, rng)
                # "by trying": keep it unless a backend finds a (re-scored) secret quickly
                log = FeedbackLog.parse(v, toks)
                r = run_backend(log, "cpsat", 2.0)
                if r.get("secret") and r["rescored"]:
                    continue
                out.append((kind, klass, toks, how))
                made += 1
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--per", type=int, default=2, help="logs per variant, kind and length")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--cli", type=float, default=0.3, help="fraction of logs also run by the CLI")
    ap.add_argument("--cli-backends", default="auto")
    ap.add_argument("--out", default="audit.jsonl")
    ap.add_argument("--report", default=None, help="only summarise this JSONL file")
    args = ap.parse_args(argv)
    if args.report:
        report(args.report)
        return
    rng = random.Random(args.seed)
    with open(args.out, "a") as fh:
        for vname in args.variants.split(","):
            v = VARIANTS[vname]
            logs = make_logs(vname, v, args.per, rng)
            print(f"{vname}: {len(logs)} logs", flush=True)
            for kind, klass, toks, how in logs:
                log = FeedbackLog.parse(v, toks)
                rec = {"variant": vname, "kind": kind, "length": klass, "entries": len(toks),
                       "how": how, "tokens": toks,
                       "results": {b: run_backend(log, b, args.time_limit) for b in BACKENDS}}
                rec["flags"] = classify(rec)
                if rec["truth"] == "inconsistent" and rng.random() < args.cli:
                    rec["cli"] = []
                    for b in args.cli_backends.split(","):
                        c = run_cli(v, toks, b, args.time_limit)
                        c["flags"] = check_cli(v, toks, c, args.time_limit)
                        rec["cli"].append(c)
                        rec["flags"] += [f"{f}[{b}]" for f in c["flags"]]
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                line = " ".join(f"{b}={r['status'][:3]}:{r['seconds']:.2f}"
                                for b, r in rec["results"].items())
                print(f"  {kind:6s} {klass:5s} {len(toks):2d}e {rec['truth'][:5]} {line} "
                      f"{' '.join(rec['flags'])}", flush=True)


def report(path: str) -> None:
    recs = [json.loads(line) for line in open(path)]
    from collections import Counter, defaultdict

    n = Counter((r["variant"], r["kind"], r["length"]) for r in recs)
    print("logs per variant/kind/length:")
    for k, c in sorted(n.items()):
        print(f"  {k[0]:5s} {k[1]:7s} {k[2]:5s} {c}")
    truth = Counter(r["truth"] for r in recs)
    print("truth:", dict(truth))
    print("backend statuses and seconds (inconsistent logs):")
    times = defaultdict(list)
    stat = defaultdict(Counter)
    for r in recs:
        if r["truth"] != "inconsistent":
            continue
        for b, x in r["results"].items():
            stat[(r["variant"], b)][x["status"]] += 1
            times[(r["variant"], b)].append(x["seconds"])
    for key in sorted(stat):
        t = np.array(times[key])
        print(f"  {key[0]:5s} {key[1]:6s} {dict(stat[key])} median {np.median(t):.3f} "
              f"p90 {np.percentile(t, 90):.3f} max {t.max():.2f}")
    print("flagged:")
    for r in recs:
        if r["flags"]:
            print(f"  {r['variant']} {r['kind']} {r['length']} {r['how']}: {r['flags']}")
            print("    " + cli_command(VARIANTS[r["variant"]], r["tokens"]))
            print("    " + " ".join(f"{b}={x['status']}:{x['seconds']:.2f}"
                                    for b, x in r["results"].items()))
    clis = [c for r in recs for c in r.get("cli", [])]
    print(f"CLI runs: {len(clis)}; flagged: {sum(1 for c in clis if c['flags'])}")


if __name__ == "__main__":
    main()
