"""Checkpoint and resume of `cbsolve optimal` (docs/optimal.md, "Checkpoint and resume").

A real subprocess runs with ``--checkpoint DIR`` and is killed with SIGKILL: once its timed
writes (``--checkpoint-every 0.05``) have left a first file, or right after the write of a
given progress (a depth partly refuted, a first guess partly solved: testkit.kill_at_write
writes every proved step, so a state that lasts a millisecond is met on any machine).
``--resume DIR`` must then end with the value an uninterrupted search proves and a tree (with
its certificate, worst) that ``cbsolve verify`` accepts. No timing is asserted: the kills wait
for states of the file, not for seconds.
"""
import functools
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from testkit import kill_at_checkpoint, kill_at_nodes, kill_at_write, resume_and_verify

from cbsolve.cli import main
from cbsolve.search.checkpoint import FILE_NAME
from cbsolve.search.expected import solve_expected
from cbsolve.search.worst import solve_worst
from cbsolve.game.variant import Variant

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
#: Seconds a child may take (the machine is shared); a cap on waiting, never asserted.
CAP = 300

MM47 = ["--variant", "mastermind", "--length", "4", "--digits", "7"]   # worst 6: 5 refuted
MM55 = ["--variant", "mastermind", "--length", "5", "--digits", "5"]   # worst 5: a witness
BC48 = ["--variant", "bulls-cows", "--length", "4", "--digits", "8", "--objective", "expected"]


def _cbsolve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cbsolve", *args], capture_output=True,
                          text=True, env=ENV, cwd=ROOT, timeout=CAP)


def _state(d: Path) -> dict | None:
    try:
        return json.loads((d / FILE_NAME).read_text())["state"]
    except (FileNotFoundError, ValueError):
        return None


def _kill_when(args: list[str], d: Path, ready, sig=signal.SIGKILL) -> subprocess.Popen:
    """Run `optimal ARGS --workers 1 --checkpoint D`, send ``sig`` once the checkpoint's state
    satisfies ``ready`` (testkit.kill_at_checkpoint)."""
    return kill_at_checkpoint([*args, "--workers", "1"], d, ready, sig, ROOT, ENV, CAP)


def _resume_and_verify(d: Path, tmp_path: Path) -> dict:
    return resume_and_verify(d, tmp_path, ROOT, ENV, CAP)


@functools.cache
def _worst_of(args: tuple[str, ...]) -> int:
    """The worst case an uninterrupted one-worker search proves (once a test process)."""
    variant = Variant.from_options("mastermind", length=int(args[3]), digits=int(args[5]))
    return solve_worst(variant, workers=1).worst


def _worst(args: list[str]) -> int:
    return _worst_of(tuple(args))


def _killed_at(args: list[str], d: Path, ready: str) -> dict:
    """`optimal ARGS --workers 1 --checkpoint D` SIGKILLed at the first write of a state where
    ``ready`` holds (testkit.kill_at_write): the state the kill left, which must hold it."""
    proc = kill_at_write([*args, "--workers", "1"], d, ready, ROOT, ENV, CAP)
    assert proc.returncode == -signal.SIGKILL, "the search ended before writing: " + ready
    state = _state(d)
    assert eval("lambda s: " + ready)(state)
    return state


def test_worst_killed_after_the_first_file_resumes_to_the_same_value(tmp_path):
    d = tmp_path / "ck"
    proc = _kill_when(MM47, d, lambda s: True)         # the timed writes' first file
    assert proc.returncode in (-signal.SIGKILL, 0)     # 0: it ended before the kill landed
    _check_worst_resumed(MM47, d, tmp_path)


@pytest.mark.parametrize("args, ready", [
    (MM47, "bool(s.get('orbits'))"),                        # 5 partly refuted
    # Mastermind 5x5 (a search and a resume of it, and the reference search: 2.5-3 CPU s
    # each): the slow run's
    pytest.param(MM55, "'4' in s.get('refuted', {})", marks=pytest.mark.slow),   # 4 refuted
    pytest.param(MM55, "bool(s.get('settled'))",            # classes of a witness settled
                 marks=pytest.mark.slow),
])
def test_worst_killed_resumes_to_the_same_value_and_a_verified_certificate(args, ready,
                                                                           tmp_path):
    d = tmp_path / "ck"
    _killed_at(args, d, ready)
    _check_worst_resumed(args, d, tmp_path)


def _check_worst_resumed(args: list[str], d: Path, tmp_path: Path) -> None:
    data = _resume_and_verify(d, tmp_path)
    assert data["worst"] == data["upper"] == _worst(args)
    tree = json.loads((tmp_path / "tree.json").read_text())
    assert tree["certificate"]["claim"]["max_guesses"] == data["worst"] - 1


@functools.cache
def _bc48_whole():
    """Bulls & Cows 4/8, expected, searched whole by one worker (once a test process)."""
    return solve_expected(Variant.from_options("bulls-cows", length=4, digits=8), workers=1)


def _bc48_total() -> int:
    return _bc48_whole().total


@functools.cache
def _bc48_ties_whole():
    return solve_worst(Variant.from_options("bulls-cows", length=4, digits=8), workers=1,
                       ties=True)


@pytest.mark.parametrize("timed", [True, False])
def test_expected_killed_resumes_to_the_same_total(timed, tmp_path):
    d = tmp_path / "ck"
    if timed:
        _kill_when(BC48, d, lambda s: True)                        # the timed writes' first file
    else:
        _killed_at(BC48, d, "bool(s.get('current', {}).get('classes'))")     # classes solved
    data = _resume_and_verify(d, tmp_path)
    assert data["total"] == data["upper"] == _bc48_total()


BC48_TIES = ["--variant", "bulls-cows", "--length", "4", "--digits", "8", "--ties"]


@pytest.mark.parametrize("ready", [
    # before the tie-breaks: resumed as the worst case's refutations are (MM55 above), then the
    # tie-breaks whole; about 5 CPU s, the slow run's
    pytest.param("'4' in s.get('refuted', {})", marks=pytest.mark.slow),
    # the count phase begun (4-6 CPU s): the slow run's; the total phase's resume below reads
    # the count phase's record
    pytest.param("bool(s.get('ties_count', {}).get('done'))", marks=pytest.mark.slow),
    "'ties_total' in s",                                                 # the total phase begun
])
def test_ties_killed_resumes_to_the_same_proved_tie_breaks(ready, tmp_path):
    d = tmp_path / "ck"
    _killed_at(BC48_TIES, d, ready)
    data = _resume_and_verify(d, tmp_path)
    whole = _bc48_ties_whole()
    assert (data["worst"], data["total"]) == (whole.worst, whole.total)
    assert data["at_worst"] == {"lower": whole.at_worst[0], "upper": whole.at_worst[1]}
    tree = json.loads((tmp_path / "tree.json").read_text())
    assert tree["ties"]["proved"] and tree["certificate"]["claim"]["max_guesses"] == whole.worst - 1


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_write_the_checkpoint_and_report_it(sig, tmp_path):
    d = tmp_path / "ck"
    proc = _kill_when(BC48, d, lambda s: "order" in s, sig)
    out, err = proc.communicate()
    assert proc.returncode == 130, err
    data = json.loads(out)
    assert data["interrupted"] is True
    assert data["checkpoint"]["dir"] == str(d)
    assert any("--resume" in note for note in data["notes"])
    assert _resume_and_verify(d, tmp_path)["total"] == _bc48_total()


@pytest.mark.parametrize("args", [MM47, BC48])
def test_a_time_limit_writes_the_checkpoint_and_the_resume_finishes(args, tmp_path):
    d = tmp_path / "ck"
    stopped = _cbsolve("optimal", *args, "--workers", "1", "--checkpoint", str(d),
                       "--time-limit", "1", "--json")
    assert stopped.returncode == 0, stopped.stderr
    first = json.loads(stopped.stdout)
    # what the stop proved is on disk (nothing, if the limit ended the set-up: then no file)
    assert first["checkpoint"]["dir"] == str(d)
    assert (d / FILE_NAME).exists() == (first["checkpoint"]["writes"] > 0)
    out = tmp_path / "tree.json"
    again = _cbsolve("optimal", *args, "--checkpoint", str(d), "--json", "--out", str(out))
    assert again.returncode == 0, again.stderr
    data = json.loads(again.stdout)
    assert data["proved"] and data["upper"] == (_worst(args) if args is MM47 else _bc48_total())
    assert _cbsolve("verify", str(out)).returncode == 0


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A complete checkpoint of Mastermind 4x7, worst."""
    d = tmp_path_factory.mktemp("done") / "ck"
    run = _cbsolve("optimal", *MM47, "--checkpoint", str(d), "--json")
    assert run.returncode == 0, run.stderr
    return d


def _copy(src: Path, tmp_path: Path) -> Path:
    d = tmp_path / "copy"
    d.mkdir()
    (d / FILE_NAME).write_bytes((src / FILE_NAME).read_bytes())
    return d


def _refused(capsys, *args) -> str:
    code = main(["optimal", *args])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return err


def test_a_finished_checkpoint_resumes_at_once(finished, tmp_path):
    data = _resume_and_verify(_copy(finished, tmp_path), tmp_path)
    assert data["worst"] == 6 and data["checkpoint"]["writes"] == 0


def test_tampered_checkpoint_is_refused(finished, tmp_path, capsys):
    d = _copy(finished, tmp_path)
    text = (d / FILE_NAME).read_text()
    (d / FILE_NAME).write_text(text.replace('"max_guesses":5', '"max_guesses":4', 1))
    assert "checksum" in _refused(capsys, "--resume", str(d))


def test_truncated_checkpoint_is_refused(finished, tmp_path, capsys):
    d = _copy(finished, tmp_path)
    (d / FILE_NAME).write_bytes((d / FILE_NAME).read_bytes()[:1000])
    assert "truncated" in _refused(capsys, "--resume", str(d))


@pytest.mark.parametrize("other", [
    ["--variant", "mastermind", "--length", "4", "--digits", "6"],         # another game
    [*MM47, "--objective", "expected"],                                    # another objective
    [*MM47, "--guesses", "candidates"],                                    # another pool
    [*MM47, "--max-depth", "7"],                                           # another cap
])
def test_checkpoint_of_another_search_is_refused(finished, tmp_path, capsys, other):
    d = _copy(finished, tmp_path)
    assert "another search" in _refused(capsys, *other, "--checkpoint", str(d))


@pytest.mark.parametrize("args", [
    ["--checkpoint", "X", "--resume", "X"],
    ["--checkpoint", "X", "--ties", "--objective", "expected"],
    ["--checkpoint", "X", "1234:0,0"],
    ["--checkpoint-every", "5"],
    ["--checkpoint", "X", "--checkpoint-every", "0"],
    ["--resume", "no-such-directory"],
])
def test_bad_combinations_are_refused(args, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _refused(capsys, *args)
    assert not (tmp_path / "X").exists()


@pytest.mark.parametrize("option, named", [
    (["--variant", "bulls-cows"], "variant options"),     # the issue's: a Mastermind checkpoint
    (["--length", "5"], "variant options"),               # any variant option states the game
    (["--objective", "expected"], "--objective"),
    (["--guesses", "candidates"], "--guesses"),
    (["--max-depth", "7"], "--max-depth"),
    (["--lookahead", "1"], "--lookahead"),
    (["--ties"], "--ties"),
    (["--no-certificate"], "--no-certificate"),
])
def test_resume_with_a_conflicting_option_is_refused(finished, tmp_path, capsys, option, named):
    d = _copy(finished, tmp_path)
    err = _refused(capsys, "--resume", str(d), *option)
    assert "conflicts with the checkpoint" in err and named in err


def test_resume_with_the_checkpoints_own_options_resumes(finished, tmp_path, capsys):
    d = _copy(finished, tmp_path)
    code = main(["optimal", "--resume", str(d), *MM47, "--objective", "worst", "--json"])
    out = capsys.readouterr().out
    assert code == 0 and json.loads(out)["worst"] == 6


@pytest.mark.parametrize("content", [bytes(range(128, 256)), b"not json at all\n", b"[1, 2]"])
def test_a_file_that_is_not_a_checkpoint_is_refused(content, tmp_path, capsys):
    d = tmp_path / "ck"
    d.mkdir()
    (d / FILE_NAME).write_bytes(content)
    assert "is not a checkpoint" in _refused(capsys, "--resume", str(d))
    assert "is not a checkpoint" in _refused(capsys, *MM47, "--checkpoint", str(d))


@pytest.mark.parametrize("flag", ["--checkpoint", "--resume"])
def test_a_file_where_the_directory_should_be_is_refused(flag, tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("")
    assert "is a file, not a directory" in _refused(capsys, *MM47, flag, str(afile))


BC36 = ["--variant", "bulls-cows", "--length", "3", "--digits", "6", "--objective", "expected"]


@pytest.fixture(scope="module")
def finished_expected(tmp_path_factory) -> Path:
    """A complete checkpoint of Bulls & Cows 3/6, expected."""
    d = tmp_path_factory.mktemp("done-expected") / "ck"
    run = _cbsolve("optimal", *BC36, "--checkpoint", str(d), "--json")
    assert run.returncode == 0, run.stderr
    return d


def _resealed(src: Path, tmp_path: Path, change) -> Path:
    """A copy of the checkpoint in ``src`` whose state ``change(state)`` edited, its checksum
    recomputed (so only the state's own consistency can refuse it)."""
    from cbsolve.search.worst.shard_files import sealed

    doc = json.loads((src / FILE_NAME).read_text())
    change(doc["state"])
    d = tmp_path / "edited"
    d.mkdir(parents=True)
    (d / FILE_NAME).write_text(json.dumps(sealed(doc)))
    return d


def _set(path: tuple, value):
    def change(state):
        node = state
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


@pytest.mark.parametrize("change", [
    _set(("greedy",), "junk"),                                 # the 62-line traceback
    _set(("greedy", "guess"), 99999),                          # no such code
    _set(("greedy", "children", 0, 1, "guess"), 3),            # a tree that loses secrets
    _set(("refuted", "5", "claim", "max_guesses"), 4),         # a certificate of another depth
    _set(("depth",), 3),                                       # deciding a depth refuted
])
def test_a_worst_state_that_contradicts_itself_is_refused(finished, tmp_path, capsys, change):
    d = _resealed(finished, tmp_path, change)
    assert "contradicts itself" in _refused(capsys, "--resume", str(d))


def _add(path: tuple, delta: int):
    def change(state):
        node = state
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] += delta
    return change


@pytest.mark.parametrize("change", [
    _set(("done", 0, "guess"), 5),                            # not the order's first guess
    _add(("done", 0, "value", 0), -1),                        # a total its tree does not make
    _add(("incumbent", "wins", "2"), 1),                      # wins that are not its tree's
    _set(("incumbent", "tree", "children"), {}),              # a tree that loses secrets
])
def test_an_expected_state_that_contradicts_itself_is_refused(finished_expected, tmp_path,
                                                              capsys, change):
    d = _resealed(finished_expected, tmp_path, change)
    assert "contradicts itself" in _refused(capsys, "--resume", str(d))


def test_an_unedited_state_passes_the_checks(finished, finished_expected, tmp_path, capsys):
    for src in (finished, finished_expected):
        d = _resealed(src, tmp_path / src.parent.name, lambda state: None)
        assert main(["optimal", "--resume", str(d), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["proved"] is True


def test_a_kill_inside_the_one_first_guess_orbit_leaves_less_than_half_the_work(tmp_path):
    """What is proved below the first guess is kept (its reply classes solved, with
    their subtrees), so a search of a game with one first-guess orbit (Bulls & Cows: every
    first guess alike) killed at 60 % of its work resumes with at most half of the whole
    run's work left, counted in search nodes (one worker: the same nodes every run)."""
    whole = _bc48_whole()
    d = tmp_path / "ck"
    proc = kill_at_nodes([*BC48, "--workers", "1"], d, int(0.6 * whole.nodes), ROOT, ENV, CAP)
    assert proc.returncode == -signal.SIGKILL, "the search ended before 60 % of its nodes"
    state = _state(d)
    assert not state.get("done") and state["current"]["classes"]    # inside the one orbit
    data = resume_and_verify(d, tmp_path, ROOT, ENV, CAP, extra=("--workers", "1"))
    assert data["total"] == whole.total
    assert data["nodes"] <= whole.nodes // 2, (data["nodes"], whole.nodes)
