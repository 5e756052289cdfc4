"""Shared test helpers: random variants (Hypothesis strategies), a brute-force filter, and the
loader of scripts/ for their smoke tests."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import strategies as st

from cbsolve.cli import main
from cbsolve.game.codes import CodeSpace
from cbsolve.game.feedback import FeedbackLog, random_log
from cbsolve.game.rule import score
from cbsolve.game.scoring import possible_responses
from cbsolve.strategy.streaming import Recipe
from cbsolve.game.variant import Variant


@st.composite
def variants(draw, max_length: int = 6, max_symbols: int = 8, max_size: int = 40_000):
    """Random small variants of every kind (distinct/repeats, leading zero, bulls-only)."""
    while True:
        n = draw(st.integers(1, max_length))
        repeats = draw(st.booleans())
        d = draw(st.integers(1 if repeats else n, max_symbols))
        nlz = draw(st.booleans()) and d >= 2
        feedback = draw(st.sampled_from(["bulls-cows", "bulls"]))
        v = Variant(n, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:d], repeats, nlz, feedback)
        from cbsolve.game.codes import CodeSpace

        if CodeSpace(v).size <= max_size:
            return v


@st.composite
def variant_and_log(draw, max_entries: int = 5, bulls_only: bool | None = None):
    """A random small variant and a log of up to ``max_entries`` guesses scored against a
    hidden secret, about one reply in five replaced by another one (inconsistent logs too);
    ``bulls_only`` forces the feedback kind when given."""
    from cbsolve.game.codes import CodeSpace
    from cbsolve.game.feedback import FeedbackLog

    v = draw(variants(max_length=6, max_symbols=8, max_size=20_000))
    if bulls_only is not None and v.bulls_only != bulls_only:
        v = Variant(v.length, v.symbols, v.repeats, v.no_leading_zero,
                    "bulls" if bulls_only else "bulls-cows")
    space = CodeSpace(v)
    idx = st.integers(0, space.size - 1)
    secret = space.code_at(draw(idx))
    log = FeedbackLog(v)
    for _ in range(draw(st.integers(0, max_entries))):
        g = space.code_at(draw(idx))
        b, c = score(v, secret, g)
        if draw(st.integers(0, 4)) == 0:      # sometimes a wrong reply: inconsistent logs too
            b, c = draw(st.sampled_from([(bb, cc) for bb in range(v.length + 1)
                                         for cc in range(v.length + 1 - bb)
                                         if (bb, cc) != (v.length - 1, 1)]))
        log.add(space.format(g), b, None if v.bulls_only else c)
    return log


def brute_force_codes(variant: Variant) -> list[tuple[int, ...]]:
    """All codes by plain itertools, the definition the fast enumeration must match."""
    d, n = variant.n_symbols, variant.length
    out = []
    for code in itertools.product(range(d), repeat=n):
        if not variant.repeats and len(set(code)) < n:
            continue
        if variant.no_leading_zero and code[0] == 0:
            continue
        out.append(code)
    return out


def brute_force_consistent(variant: Variant, entries) -> list[tuple[int, ...]]:
    """Codes consistent with (guess tuple, bulls, cows) entries, by the pure-Python rule."""
    return [c for c in brute_force_codes(variant)
            if all(score(variant, c, g) == (b, cw) for g, b, cw in entries)]


def replay_with_rule(variant: Variant, tree: dict) -> dict[str, int]:
    """Guess count of every secret, walking the tree with the pure-Python rule only (no package
    replay), so trees from any producer are checked independently of the code under test."""
    from cbsolve.game.codes import CodeSpace

    space = CodeSpace(variant)
    counts = {}
    for idx in range(space.size):
        secret = space.code_at(idx)
        node, depth = tree["root"], 1
        while True:
            b, c = score(variant, secret, space.parse(node["guess"]))
            if b == variant.length:
                break
            node = node["children"][f"{b}" if variant.bulls_only else f"{b},{c}"]  # KeyError: unsolved
            depth += 1
            assert depth <= space.size, "tree loops"
        counts[space.format(secret)] = depth
    return counts


def histogram(counts: dict[str, int]) -> dict[int, int]:
    """{guess count: number of secrets} of a :func:`replay_with_rule` result."""
    hist: dict[int, int] = {}
    for depth in counts.values():
        hist[depth] = hist.get(depth, 0) + 1
    return dict(sorted(hist.items()))


def informative_splits(table, guesses, secrets, win):
    """(guess, {reply: [secrets]}) for each guess that wins or splits ``secrets`` (a guess
    with one non-winning class learns nothing): the branching of the exhaustive reference
    searches, with replies read from ``table[guess, secret]``."""
    for g in guesses:
        classes: dict = {}
        for s in secrets:
            classes.setdefault(table[g, s], []).append(s)
        if len(classes) == 1 and win not in classes:
            continue
        yield g, classes


def script_path(name: str) -> Path:
    """scripts/FOLDER/NAME.py: the one script of that name in scripts/'s folders (bench,
    models, research, stress, common)."""
    found = sorted((Path(__file__).resolve().parent.parent / "scripts").glob(f"*/{name}.py"))
    assert len(found) == 1, f"scripts/*/{name}.py: {found}"
    return found[0]


def load_script(name: str):
    """scripts/FOLDER/NAME.py as a module (the scripts are not a package); its folder goes on
    the path, as when a script runs, so that a script can import another of its folder."""
    path = script_path(name)
    folder = path.parent
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module        # as an import does (a dataclass in it looks itself up)
    spec.loader.exec_module(module)
    return module


def block_player(secret: tuple[int, ...], filler: int):
    """A count-then-locate player primed to run one of its searches directly on ``secret``
    (bulls only, three symbols), ``filler`` being the one absent from it."""
    from cbsolve.bounds.constructive import CountThenLocate

    v = Variant.from_options(length=len(secret), digits=3, repeats=True, feedback="bulls")
    player = CountThenLocate(v)
    player.guesses, player.stop_early = [], False
    player.respond = lambda code: score(v, secret, code)[0]
    player.filler, player.filler_bulls = filler, 0
    return player


def every_set_of_marks(m: int, k: int, search) -> tuple[int, int]:
    """(worst, total) guesses of ``search(marks) -> (positions found, guesses)`` over every
    set of k marks among m positions, each checked to be found exactly."""
    worst = total = 0
    for marks in itertools.combinations(range(m), k):
        found, asked = search(set(marks))
        assert sorted(found) == list(marks)
        worst, total = max(worst, asked), total + asked
    return worst, total


def is_code(variant: Variant, code) -> bool:
    code = tuple(int(s) for s in code)
    return (len(code) == variant.length and all(0 <= s < variant.n_symbols for s in code)
            and (variant.repeats or len(set(code)) == len(code))
            and not (variant.no_leading_zero and code[0] == 0))


def consistent_with(log: FeedbackLog, code) -> bool:
    return all(score(log.variant, tuple(int(s) for s in code), e.guess) == (e.bulls, e.cows)
               for e in log)


@st.composite
def logs(draw):
    """Small random variants; the log is scored from a hidden secret or has arbitrary replies."""
    variant = draw(variants(max_length=5, max_symbols=7, max_size=20_000))
    space = CodeSpace(variant)
    k = draw(st.integers(0, 5))
    guesses = [space.code_at(draw(st.integers(0, space.size - 1))) for _ in range(k)]
    if draw(st.booleans()):
        secret = space.code_at(draw(st.integers(0, space.size - 1)))
        replies = [score(variant, secret, g) for g in guesses]
    else:
        replies = [draw(st.sampled_from(possible_responses(variant))) for _ in guesses]
    log = FeedbackLog(variant)
    for g, (b, c) in zip(guesses, replies, strict=True):
        log.add(space.format(g), b, None if variant.bulls_only else c)
    return log


#: Tiny games of every kind, for the exact searches against brute force.
TINY = [
    Variant(2, "012", True),
    Variant(2, "0123", True),
    Variant(2, "0123", False),
    Variant(3, "012", True),
    Variant(3, "0123", False),
    Variant(2, "0123", True, feedback="bulls"),
    Variant(3, "012", True, feedback="bulls"),
    Variant(3, "0123", False, no_leading_zero=True),
    Variant(2, "01234", True, no_leading_zero=True),
    Variant(3, "01", True),
]


def replay(variant: Variant, tree: dict) -> dict[int, int]:
    """Play every secret through the tree with the pure-Python rule; histogram of guess counts."""
    space = CodeSpace(variant)
    hist: dict[int, int] = {}
    for secret in (tuple(c) for c in space.codes):
        node, depth = tree["root"], 1
        while True:
            guess = space.parse(node["guess"])
            b, c = score(variant, secret, guess)
            if b == variant.length:
                break
            node = node["children"][f"{b}" if variant.bulls_only else f"{b},{c}"]
            depth += 1
        hist[depth] = hist.get(depth, 0) + 1
    return dict(sorted(hist.items()))


#: Small games every puzzle test draws from: Mastermind, 3 of 6 distinct, 4 of 4 bulls-only.
PUZZLE_VARIANTS = [Variant.preset("mastermind"), Variant(3, "012345", repeats=False),
                   Variant(4, "1234", repeats=True, feedback="bulls")]


def puzzle_entries(p) -> list[tuple]:
    """A puzzle's entries as (guess code, bulls, cows) for :func:`brute_force_consistent`."""
    space = CodeSpace(p.variant)
    return [(space.parse(e["guess"]), e["bulls"], 0 if p.variant.bulls_only else e["cows"])
            for e in p.entries]


def run_game(lines, **kwargs):
    """A terminal game (``cbsolve.play.terminal.Game``) fed ``lines`` as the player's input:
    (its result, everything it printed)."""
    import io

    from cbsolve.play.inputs import Console
    from cbsolve.play.terminal import Game

    out = io.StringIO()
    console = Console(stdin=io.StringIO("".join(x + "\n" for x in lines)), stdout=out)
    result = Game(console=console, **kwargs).run()
    return result, out.getvalue()


def local_dask_client(n_workers: int = 2):
    """A Dask client of a local cluster of ``n_workers`` one-thread worker processes (a
    generator for a pytest fixture: yields the client, closes both after)."""
    import pytest

    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None,
                                  env={"OMP_NUM_THREADS": "1"}) as cluster:
        with distributed.Client(cluster) as client:
            yield client


def hidden_secret_log(variant: Variant, clues: int, rng) -> tuple:
    """(secret, log): ``clues + 1`` random codes drawn from ``rng`` (a NumPy Generator), the
    first the secret, each other one a guess scored against it (bulls only where the variant
    reports them alone)."""
    log, secret = random_log(variant, clues, rng)
    return secret, log



def kill_at_checkpoint(args: list[str], d: Path, ready, sig: int, cwd: Path, env: dict,
                       cap: float = 300, group: bool = False):
    """Run `cbsolve optimal ARGS --checkpoint D --checkpoint-every 0.05 --json`, send ``sig``
    once the checkpoint's state satisfies ``ready``; the process, ended (``group``: the child
    leads its own process group, its Dask workers with it, and the whole group gets ``sig``).
    For SIGKILL the file is left as it was when the state was seen: a kill right after that
    write (a quiet machine may finish the search before the signal lands; the file seen is
    what a kill at that moment leaves). ``cap``: seconds to wait, never asserted."""
    import json
    import os
    import signal
    import time

    from cbsolve.search.checkpoint import FILE_NAME

    def text():
        try:
            got = (d / FILE_NAME).read_text()
            json.loads(got)
            return got
        except (FileNotFoundError, ValueError):
            return None

    proc = subprocess.Popen([sys.executable, "-m", "cbsolve", "optimal", *args, "--checkpoint",
                             str(d), "--checkpoint-every", "0.05", "--json"], env=env, cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=group)
    end, seen = time.monotonic() + cap, None
    while time.monotonic() < end:
        got = text()
        if got is not None and ready(json.loads(got)["state"]):
            seen = got
            break
        assert proc.poll() is None, "the search ended before the state awaited was written"
        time.sleep(0.005)
    if group:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass   # it ended before the kill
    else:
        proc.send_signal(sig)
    proc.wait(timeout=cap)
    if sig == signal.SIGKILL and seen is not None:
        (d / FILE_NAME).write_text(seen)
    return proc


#: The child of :func:`kill_at_write`: `cbsolve ARGV[2:]` whose checkpoint writes its file at
#: every proved step (``changed``) and which SIGKILLs itself right after the first write whose
#: state satisfies ``lambda s: ARGV[1]``.
_KILL_AT_WRITE = """
import os, signal, sys
from cbsolve.cli import main
from cbsolve.search.checkpoint import store
ready = eval("lambda s: " + sys.argv[1])
changed = store.Checkpoint.changed
def write_at_every_step(self):
    changed(self)
    self.flush()
    with self.lock:
        if ready(self.state):
            os.kill(os.getpid(), signal.SIGKILL)
store.Checkpoint.changed = write_at_every_step
sys.exit(main(sys.argv[2:]))
"""


def kill_at_write(args: list[str], d: Path, ready: str, cwd: Path, env: dict,
                  cap: float = 300) -> subprocess.CompletedProcess:
    """Run `cbsolve optimal ARGS --checkpoint D --json` killed (SIGKILL) right after the first
    checkpoint write whose state satisfies ``ready`` (a Python expression in ``s``, the
    state); the ended process. Every proved step is written (not every 0.05 s), so a state
    that lasts a millisecond is met on any machine, and the kill lands at that write, not at
    whatever the process reached by the time a poll saw it: the file is what such a kill
    leaves. A search that never reaches the state ends on its own (exit 0, for the caller to
    refuse)."""
    return subprocess.run([sys.executable, "-c", _KILL_AT_WRITE, ready, "optimal", *args,
                           "--checkpoint", str(d), "--checkpoint-every", "3600", "--json"],
                          env=env, cwd=cwd, capture_output=True, text=True, timeout=cap)


#: The child of :func:`kill_at_nodes`: `cbsolve ARGV[2:]` (an expected-case search) whose
#: checkpoint writes its file at every proved step and which SIGKILLs itself right after the
#: first write made once its search has run ARGV[1] nodes, inside the first first guess.
_KILL_AT_NODES = """
import os, signal, sys
from cbsolve.cli import main
from cbsolve.search.checkpoint import expected, store
limit, seen = int(sys.argv[1]), {}
begun = expected.ExpectedSteps.__init__
def keep(self, checkpoint, search):
    begun(self, checkpoint, search)
    seen["search"] = search
expected.ExpectedSteps.__init__ = keep
changed = store.Checkpoint.changed
def write_at_every_step(self):
    changed(self)
    self.flush()
    search = seen.get("search")
    if search is not None and search.solver.nodes >= limit:
        os.kill(os.getpid(), signal.SIGKILL)
store.Checkpoint.changed = write_at_every_step
sys.exit(main(sys.argv[2:]))
"""


def kill_at_nodes(args: list[str], d: Path, nodes: int, cwd: Path, env: dict,
                  cap: float = 300) -> subprocess.CompletedProcess:
    """Run `cbsolve optimal ARGS --checkpoint D --json` (the expected objective) killed
    (SIGKILL) right after the first checkpoint write made once its search has run ``nodes``
    nodes: a kill at a given share of the work, counted in nodes, not seconds."""
    return subprocess.run([sys.executable, "-c", _KILL_AT_NODES, str(nodes), "optimal", *args,
                           "--checkpoint", str(d), "--checkpoint-every", "3600", "--json"],
                          env=env, cwd=cwd, capture_output=True, text=True, timeout=cap)


def cpu_seconds(pid: int) -> float:
    """User + system CPU so far of the process and every process under it (its workers), all
    their threads, from /proc/PID/stat; a process that ends between the reads counts 0. The
    tree is walked through /proc/PID/task/TID/children (a scan of every process of a busy
    machine, 20 times a second, cost the waiting test seconds of CPU), else found by a scan."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            kids = [int(c) for task in Path(f"/proc/{p}/task").iterdir()
                    for c in (task / "children").read_text().split()]
        except FileNotFoundError:
            if p == pid and Path(f"/proc/{p}/stat").exists():   # no children files here
                return _cpu_seconds_by_scan(pid)
            continue
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
        todo += kids
    return total / os.sysconf("SC_CLK_TCK")


def _cpu_seconds_by_scan(pid: int) -> float:
    ticks, children = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks[int(stat.parent.name)] = int(fields[11]) + int(fields[12])
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += ticks.get(p, 0)
        todo += children.get(p, [])
    return total / os.sysconf("SC_CLK_TCK")


def resume_and_verify(d: Path, tmp_path: Path, cwd: Path, env: dict, cap: float = 300,
                      extra: tuple = ()) -> dict:
    """`cbsolve optimal --resume D [EXTRA] --json --out TREE`: its JSON, after checking it
    ended proved and resumed and that `cbsolve verify` accepts the tree it wrote."""
    import json

    def run(*args):
        return subprocess.run([sys.executable, "-m", "cbsolve", *args], capture_output=True,
                              text=True, env=env, cwd=cwd, timeout=cap)

    out = tmp_path / "tree.json"
    done = run("optimal", "--resume", str(d), *extra, "--json", "--out", str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["proved"] is True and data["checkpoint"]["resumed"] is True
    assert verified(out), f"cbsolve verify refused {out}"
    return data


def verified(tree: Path) -> bool:
    """`cbsolve verify TREE --json` accepts the tree (run in this process: a child would add
    only its start-up)."""
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = main(["verify", str(tree), "--json"])
    return code == 0 and json.loads(out.getvalue())["valid"] is True


def cli_run(capsys, *args) -> tuple[int, str, str]:
    """``cbsolve ARGS`` in this process: (exit code, stdout, stderr)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def shard_plan(capsys, directory, *args: str) -> dict:
    """``cbsolve optimal ARGS --plan DIRECTORY --json`` in this process, which must succeed:
    its JSON document (the plan's units and orbits)."""
    code, out, err = cli_run(capsys, "optimal", *args, "--plan", str(directory), "--json")
    assert code == 0, err
    return json.loads(out)


def merge_shuffled(capsys, directory, n: int, seed: int, code: int = 0) -> dict:
    """Every shard of the plan in ``directory`` run in shuffled order
    (:func:`run_shards_shuffled`), then ``cbsolve merge DIRECTORY --json``, which must exit
    ``code`` (0: a certificate; 1: a unit not refuted, named): its JSON document. With
    ``code`` 1 the merge must also hold every unit (nothing ``missing``) and be incomplete."""
    run_shards_shuffled(directory, n, seed)
    got, out, _ = cli_run(capsys, "merge", str(directory), "--json")
    assert got == code, out
    merged = json.loads(out)
    if code == 1:
        assert not merged["complete"] and not merged["missing"]
    return merged


def run_shards_shuffled(directory, n: int, seed: int, variant: Variant | None = None) -> None:
    """Every shard K of N of the plan in ``directory`` (default game: Mastermind), in an order
    shuffled by ``seed``, each as a separate run that must complete."""
    import random

    from cbsolve.runtime.deadline import Deadline
    from cbsolve.search.worst.shards import run_shard

    order = list(range(1, n + 1))
    random.Random(seed).shuffle(order)
    for k in order:
        run = run_shard(directory, (k, n), variant or Variant.preset("mastermind"),
                        deadline=Deadline.from_limit(None), workers=1)
        assert run.complete


def random_positions(variant: Variant, seeds, max_size: int, min_size: int = 1):
    """(log, position) of a random two-entry log for each seed whose position keeps
    ``min_size``..``max_size`` secrets: the small positions the exact regret answers."""
    from cbsolve.search.position import Position

    for seed in seeds:
        log, _ = random_log(variant, 2, seed)
        position = Position.from_log(log)
        if min_size <= position.members.size <= max_size:
            yield log, position


# --- the LLM-environment adapters (tests/integrations): the NumPy reference scorer and plain
# enumeration, independent of the game session under test --------------------------------
def reference_reply(variant: Variant, secret: str, guess: str) -> tuple[int, int]:
    """(bulls, cows) of ``guess`` against ``secret`` by the NumPy reference scorer."""
    import numpy as np

    from cbsolve.game.scoring import score_matrix

    space = CodeSpace(variant)
    g = np.array([space.parse(guess)], dtype=np.uint8)
    s = np.array([space.parse(secret)], dtype=np.uint8)
    return variant.response_of(int(score_matrix(variant, g, s, backend="numpy")[0, 0]))


def reference_count(variant: Variant, moves: list[tuple[str, int, int]]) -> int:
    """Secrets consistent with ``moves`` (guess, bulls, cows), by plain enumeration."""
    space = CodeSpace(variant)
    return len(brute_force_consistent(variant, [(space.parse(g), b, c) for g, b, c in moves]))


def check_moves(session) -> None:
    """Every scored move of ``session``: the reply the reference scorer gives, and an exact
    candidate count equal to plain enumeration's (bounds around it otherwise)."""
    variant, moves = session.variant, []
    for turn in session.turns:
        if turn.kind != "ok":
            continue
        assert (turn.bulls, turn.cows) == reference_reply(variant, session.secret, turn.guess)
        moves.append((turn.guess, turn.bulls, turn.cows))
        truth = reference_count(variant, moves)
        count = turn.candidates
        assert count.lower <= truth <= count.upper
        if count.exact:
            assert count.lower == truth


def weighted_total(rewards: dict, weights: dict, penalty: float, bad: int) -> float:
    return sum(weights[k] * rewards[k] for k in weights) - penalty * bad

#: Small games and streaming recipes covering every option of the streaming strategy (repeats,
#: black-peg, no leading zero, without repeats, escalation, lookahead, the tight tail rule, the
#: local search): the
#: evaluation and its independent replays are checked on each (tests/strategy/test_streaming*.py).
STREAMING_GAMES = [
    (Variant(4, "0123", repeats=True), Recipe(heuristic="parts", randoms=5, seed=3)),
    (Variant.preset("mastermind"), Recipe(heuristic="minimax", randoms=40, sample=200,
                                          sample_top=300, candidates=50)),
    (Variant.preset("black-peg"), Recipe(heuristic="entropy", sampled_heuristic="minimax",
                                         sample=100, randoms=20, seed=7)),
    (Variant(5, "01234", repeats=True), Recipe(first="00112", heuristic="expected", sample=150,
                                               sample_top=150, candidates=30, randoms=30)),
    (Variant.preset("bulls-cows"), Recipe(heuristic="parts", sample=300, randoms=30)),
    (Variant(4, "012345", repeats=True, name="escalated"),
     Recipe(first="0011", randoms=10, escalate_below=12, escalate_randoms=300, lookahead_below=20)),
    (Variant(3, "0123456789", repeats=True, no_leading_zero=True),
     Recipe(heuristic="minimax", symmetric=False, randoms=10)),
    # without repeats (Bulls & Cows rules): codes are rows of the listed space, the symmetry
    # fixing the first guess permutes its positions with its symbols and the unused symbols
    (Variant(5, "01234", repeats=False, name="permutations"),
     Recipe(heuristic="minimax", randoms=5, sample=40, sample_top=60, candidates=20)),
    (Variant(5, "0123456", repeats=False, name="distinct-5x7"),
     Recipe(heuristic="expected", sampled_heuristic="entropy", sample=300, sample_top=500,
            candidates=40, randoms=15, seed=11)),
    (Variant(4, "012345", repeats=False, feedback="bulls", name="distinct-black-peg"),
     Recipe(first="0123", heuristic="parts", randoms=8, escalate_below=10,
            escalate_randoms=200, lookahead_below=25)),
    (Variant(4, "01234", repeats=True, name="tight"),
     Recipe(first="0011", heuristic="parts", candidates=5, randoms=1, sample=300, target=5,
            tight_randoms=50)),
    (Variant(3, "012345", repeats=True, name="tight-every-code"),
     Recipe(first="001", heuristic="minimax", candidates=5, randoms=0, target=4,
            tight_randoms=216, lookahead_below=20)),
    # the local search, in the pool's choice and in the tight tail rule's; the rule's helpers
    (Variant(4, "01234", repeats=True, name="climb"),
     Recipe(first="0011", heuristic="minimax", candidates=4, randoms=1, sample=40, sample_top=60,
            climb=5, climb_above=3, target=5, tight_randoms=3, lookahead_below=15)),
    (Variant(4, "012345", repeats=True, name="tight-helpers"),
     Recipe(first="0011", heuristic="minimax", candidates=6, randoms=20, target=5,
            tight_randoms=10, tight_helpers=8, climb=3, climb_above=3)),
    # the tail search: reaching its target (4x5 in 5), and failing it everywhere (4x5 in 4 is
    # beyond any strategy), where every node falls back to choose's guess
    (Variant(4, "01234", repeats=True, name="tail-search"),
     Recipe(first="0011", heuristic="parts", candidates=5, randoms=1, sample=300, target=5,
            search_below=300, search_left=4, search_tries=4)),
    (Variant(4, "01234", repeats=True, name="tail-search-fails"),
     Recipe(first="0011", heuristic="parts", candidates=5, randoms=1, sample=300, target=4,
            search_below=300, search_left=3, search_tries=6, climb=2, climb_above=3)),
]
