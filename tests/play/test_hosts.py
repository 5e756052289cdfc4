"""Adversarial hosts (cbsolve/play/hosts.py, ``cbsolve reply``, ``play --host``): the reply
never contradicts the earlier ones; ``evil`` keeps a largest class; ``adversary``'s values are
an independent exhaustive minimax's on a small game; against it the certified worst-case tree
needs exactly its certified worst case."""
from __future__ import annotations

import json
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from testkit import brute_force_codes

import cbsolve as cb
from cbsolve.certificates.certified import shipped_tree
from cbsolve.cli import main
from cbsolve.game.feedback import FeedbackLog
from cbsolve.play.hosts import host_reply
from cbsolve.game.rule import score

ROOT = Path(__file__).resolve().parents[2]
TINY = cb.Variant(3, "012", repeats=True)           # 27 codes: exhaustive minimax is quick


def classes_by_rule(variant, log, guess):
    """Reply -> consistent secrets, by the plain rule over every code."""
    codes = brute_force_codes(variant)
    space = cb.CodeSpace(variant)
    left = [s for s in codes if all(score(variant, s, space.parse(e.text)) ==
                                    (e.bulls, e.cows or 0) for e in log)]
    out: dict[tuple[int, int], list] = {}
    for s in left:
        out.setdefault(score(variant, s, space.parse(guess)), []).append(s)
    return out


def test_evil_keeps_a_largest_class_and_breaks_ties_by_its_rule():
    v = cb.Variant.preset("mastermind")
    log = FeedbackLog(v)
    for guess in ["1122", "1344", "3526", "6153"]:
        answer = host_reply(log, guess, "evil")
        classes = classes_by_rule(v, log, guess)
        sizes = {r: len(s) for r, s in classes.items()}
        top = max(sizes.values())
        assert answer.candidates_after == sizes[(answer.bulls, answer.cows)] == top
        # ties: not the win, then fewer bulls, then fewer cows
        tied = sorted(r for r, n in sizes.items() if n == top and r[0] != v.length)
        assert (answer.bulls, answer.cows) == (tied[0] if tied else (v.length, 0))
        log.add(guess, answer.bulls, answer.cows)
    assert cb.consistent(log.tokens(), variant="mastermind", count=True).count > 0


@lru_cache(maxsize=None)
def minimax(secrets: frozenset) -> int:
    """Independent exhaustive worst case: guesses (the last counted) that surely find the
    secret among ``secrets`` in TINY, any code a guess."""
    if len(secrets) == 1:
        return 1
    best = None
    for g in brute_force_codes(TINY):
        parts: dict = {}
        for s in secrets:
            parts.setdefault(score(TINY, s, g), set()).add(s)
        if len(parts) == 1 and g not in secrets:
            continue                                  # learns nothing
        worst = 1 + max((minimax(frozenset(p)) for r, p in parts.items()
                         if r != (TINY.length, 0)), default=0)
        best = worst if best is None else min(best, worst)
    return best


def test_adversary_values_agree_with_an_exhaustive_minimax():
    space = cb.CodeSpace(TINY)
    log = FeedbackLog(TINY)
    for guess in ["001", "122"]:
        answer = host_reply(log, guess, "adversary")
        by_rule = classes_by_rule(TINY, log, guess)
        for c in answer.classes:
            b, w = TINY.response_of(c.response)
            expected = 0 if b == TINY.length else minimax(frozenset(by_rule[(b, w)]))
            assert c.exact and c.lower == c.upper == expected
        assert answer.exact
        chosen = next(c for c in answer.classes
                      if TINY.response_of(c.response) == (answer.bulls, answer.cows))
        assert chosen.upper == max(c.upper for c in answer.classes)     # the hardest class
        log.add(guess, answer.bulls, answer.cows)
    assert space.size == 27


def play_tree_against_the_adversary(variant) -> int:
    tree = shipped_tree(variant, "worst")
    node, log, guesses = tree["root"], FeedbackLog(variant), 0
    while True:
        answer = host_reply(log, node["guess"], "adversary")
        guesses += 1
        assert answer.exact
        if answer.win:
            return guesses
        log.add(node["guess"], answer.bulls, answer.cows)
        key = variant.format_response(variant.response_index(answer.bulls, answer.cows))
        node = node["children"][key]


def test_the_adversary_forces_the_certified_worst_case_on_mastermind():
    # Knuth (1977), "The computer as master mind": 5 guesses at worst for Mastermind 4x6
    assert play_tree_against_the_adversary(cb.Variant.preset("mastermind")) == 5


@pytest.mark.slow
def test_the_adversary_forces_the_certified_worst_case_on_bulls_and_cows():
    # Bulls & Cows 4/10: 7 guesses suffice, 6 do not (the published "crush5o" results, as
    # tests/test_certify_models.py cites them)
    assert play_tree_against_the_adversary(cb.Variant.preset("bulls-cows")) == 7


def test_reply_cli_json_serve_and_bad_input(capsys):
    assert main(["reply", "1122:0,0", "--variant", "mastermind", "--guess", "3344",
                 "--host", "evil", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["candidates_before"] == 256 == sum(c["secrets"] for c in doc["classes"])
    assert doc["candidates_after"] == max(c["secrets"] for c in doc["classes"])
    request = {"cmd": "reply", "entries": ["1122:0,0"], "variant": "mastermind",
               "guess": "3344", "host": "evil"}
    proc = subprocess.run([sys.executable, "-m", "cbsolve", "serve"], cwd=ROOT, text=True,
                          input=json.dumps(request) + "\n", capture_output=True, timeout=120)
    assert json.loads(proc.stdout) == {**doc, "exit": 0}
    for args in (["--guess", "12", "--host", "evil"], ["--guess", "0123", "--host", "kind"],
                 ["0123:4,0", "--guess", "4567", "--host", "evil"], ["--host", "evil"]):
        assert main(["reply", *args]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(("cbsolve: error:", "Usage", "Error"))
    assert main(["reply", "0123:0,0", "0123:1,0", "--guess", "4567", "--host", "evil"]) == 1


def test_play_guess_mode_with_the_evil_host_answers_as_reply_does():
    proc = subprocess.run([sys.executable, "-m", "cbsolve", "play", "--variant", "mastermind",
                           "--mode", "guess", "--host", "evil", "--json"], cwd=ROOT,
                          text=True, input="1122\n3344\nquit\n", capture_output=True,
                          timeout=120)
    record = json.loads(proc.stdout)
    first, second = record["your_guesses"]
    assert (first["bulls"], first["cows"]) == (0, 0)          # evil keeps 256 of 1296
    log = FeedbackLog(cb.Variant.preset("mastermind"))
    log.extend_tokens(["1122:0,0"])
    expected = host_reply(log, "3344", "evil")
    assert (second["bulls"], second["cows"]) == (expected.bulls, expected.cows)


def test_classes_left_unsolved_by_the_trees_upper_ends_could_not_have_won(monkeypatch):
    import cbsolve.play.hosts as hosts

    v = cb.Variant.preset("mastermind")
    log = FeedbackLog(v)                                # the opening, on the shipped tree
    guess = shipped_tree(v, "worst")["root"]["guess"]
    pruned = host_reply(log, guess, "adversary")
    assert any(c.beaten for c in pruned.classes) and pruned.exact
    monkeypatch.setattr(hosts, "_tree_uppers", lambda *args: {})
    full = host_reply(log, guess, "adversary")          # every class solved
    assert not any(c.beaten for c in full.classes) and full.exact
    assert (pruned.bulls, pruned.cows) == (full.bulls, full.cows)
    exact = {c.response: c.upper for c in full.classes}
    for c in pruned.classes:
        assert c.upper == exact[c.response] if c.exact else c.upper >= exact[c.response]
