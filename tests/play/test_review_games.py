"""``cbsolve review``: each move's figures against an exhaustive minimax written here, bad
input, and the shape of the JSON document."""
from __future__ import annotations

import functools
import itertools
import json
import random

import pytest
from testkit import cli_run

from cbsolve.game.variant import Variant


def _score(secret: str, guess: str) -> tuple[int, int]:
    bulls = sum(a == b for a, b in zip(secret, guess))
    common = sum(min(secret.count(s), guess.count(s)) for s in set(guess))
    return bulls, common - bulls


class BruteForce:
    """V and T of the review's definitions, over every code a guess, by exhaustive search
    (sets of secrets are bit masks over the codes; the score table is built once)."""

    def __init__(self, variant: Variant):
        make = (itertools.product(variant.symbols, repeat=variant.length) if variant.repeats
                else itertools.permutations(variant.symbols, variant.length))
        self.codes = ["".join(c) for c in make]
        self.index = {c: i for i, c in enumerate(self.codes)}
        win = (variant.length, 0)
        self.table = [[None if _score(s, g) == win else _score(s, g) for s in self.codes]
                      for g in self.codes]

    def mask(self, codes) -> int:
        return sum(1 << self.index[c] for c in codes)

    def classes(self, g: int, secrets: int) -> list[int]:
        out: dict = {}
        row, s = self.table[g], secrets
        while s:
            low = s & -s
            reply = row[low.bit_length() - 1]
            if reply is not None:
                out[reply] = out.get(reply, 0) | low
            s ^= low
        return list(out.values())

    def v_g(self, g: int, secrets: int) -> int:
        return 1 + max((self.v(c) for c in self.classes(g, secrets)), default=0)

    def t_g(self, g: int, secrets: int) -> int:
        return secrets.bit_count() + sum(self.t(c) for c in self.classes(g, secrets))

    @functools.lru_cache(maxsize=None)
    def v(self, secrets: int) -> int:
        if secrets.bit_count() == 1:
            return 1
        best = secrets.bit_count() + 1          # any strategy: at worst one secret a guess
        for g in range(len(self.codes)):
            classes = self.classes(g, secrets)
            if secrets >> g & 1 or len(classes) > 1:     # else the guess only wastes a turn
                value = 1
                for c in sorted(classes, key=int.bit_count, reverse=True):
                    value = max(value, 1 + self.v(c))
                    if value >= best:       # this guess cannot do better: the rest is skipped
                        break
                best = min(best, value)
        return best

    @functools.lru_cache(maxsize=None)
    def t(self, secrets: int) -> int:
        if secrets.bit_count() == 1:
            return 1
        best = None
        for g in range(len(self.codes)):
            classes = self.classes(g, secrets)
            if secrets >> g & 1 or len(classes) > 1:
                # each class of k secrets needs at least 2k - 1 guesses in total
                total = secrets.bit_count() + sum(2 * c.bit_count() - 1 for c in classes)
                for c in classes:
                    if best is not None and total >= best:
                        break
                    total += self.t(c) - (2 * c.bit_count() - 1)
                best = total if best is None else min(best, total)
        return best


def _games(brute: BruteForce, count: int, seed: int) -> list[list[dict]]:
    """Games of a player who guesses a candidate, or any code one time in three."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        secret, left, entries = rng.choice(brute.codes), set(brute.codes), []
        while True:
            pool = sorted(left) if rng.random() < 2 / 3 else brute.codes
            guess = rng.choice(pool)
            b, c = _score(secret, guess)
            entries.append({"guess": guess, "bulls": b, "cows": c})
            if guess == secret:
                break
            left = {s for s in left if _score(s, guess) == (b, c)}
        games.append(entries)
    return games


@pytest.mark.parametrize("variant", [
    Variant.from_options("mastermind", length=3, digits=3),
    # about 3.3 CPU s of exhaustive minimax: the slow run's
    pytest.param(Variant.from_options("bulls-cows", length=3, digits=5), marks=pytest.mark.slow)])
def test_review_agrees_with_exhaustive_minimax(capsys, tmp_path, variant):
    brute = BruteForce(variant)
    games = _games(brute, 6, seed=3)
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps({"variant": variant.to_dict(), "entries": g}) + "\n"
                            for g in games))
    code, out, err = cli_run(capsys, "review", str(path), "--json", "--move-time", "0")
    assert code == 0, err
    doc = json.loads(out)
    positive = 0
    for game, entries in zip(doc["games"], games, strict=True):
        left = set(brute.codes)
        for move, entry in zip(game["moves"], entries, strict=True):
            guess, mask = entry["guess"], brute.mask(left)
            g = brute.index[guess]
            after = {s for s in left if _score(s, guess) == (entry["bulls"], entry["cows"])}
            worst = brute.v_g(g, mask) - brute.v(mask)
            expected = (brute.t_g(g, mask) - brute.t(mask)) / len(left)
            assert move["exact"] is True
            assert (move["candidates_before"], move["candidates_after"]) == (len(left), len(after))
            assert move["candidate"] == (guess in left) != move["contradicts"]
            assert move["regret"]["worst"] == worst
            assert move["regret"]["expected"] == pytest.approx(expected)
            # the position's optimum, also where it comes from the atlas (the opening of a
            # game whose codes are one symmetry class: Bulls & Cows)
            assert move["optimum"]["worst"] == brute.v(mask)
            assert move["optimum"]["expected"] == pytest.approx(brute.t(mask) / len(left))
            positive += worst > 0 or expected > 0
            left = after
        assert game["solved"] is True and game["turns"] == len(entries)
        assert game["regret"]["worst"] == sum(m["regret"]["worst"] for m in game["moves"])
    assert positive > 0            # the games do hold mistakes for the review to find


def _bad(capsys, tmp_path, lines: list[str], *options: str):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return cli_run(capsys, "review", str(path), "--json", *options)


SMALL = ("--length", "3", "--digits", "5")     # Bulls & Cows 3/5: 60 codes, reviewed at once
GOOD = json.dumps({"entries": [{"guess": "012", "bulls": 0, "cows": 2},
                               {"guess": "103", "bulls": 3, "cows": 0}]})


@pytest.mark.parametrize("line, problem", [
    ("{not json", "not valid JSON"),
    ('{"entries": [{"guess": "0012", "bulls": 1, "cows": 0}]}', "entry 1"),
    ('{"entries": [{"guess": "014", "bulls": 0, "cows": 1}, {"guess": "234", "bulls": 0,'
     ' "cows": 0}]}', "entry 2 (234:0,0): no secret gives this reply"),
    ('{"entries": [{"guess": "012", "bulls": 3, "cows": 0}, {"guess": "234", "bulls": 0,'
     ' "cows": 1}]}', "comes after the game was won at entry 1"),
    ('{"variant": "mastermind", "entries": []}', "but the options give"),
    ('{"variant": "no-such-game", "entries": []}', "variant"),
    ('[1, 2]', "expected a game"),
])
def test_a_bad_line_is_one_line_naming_it_and_exit_2(capsys, tmp_path, line, problem):
    code, out, err = _bad(capsys, tmp_path, [GOOD, line], *SMALL)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "line 2" in err and problem in err, err


def test_skip_bad_reports_the_line_and_reviews_the_others(capsys, tmp_path):
    code, out, err = _bad(capsys, tmp_path, [GOOD, "{not json", GOOD], "--skip-bad", *SMALL)
    assert code == 0, err
    doc = json.loads(out)
    assert [g["line"] for g in doc["games"]] == [1, 3]
    assert [s["line"] for s in doc["skipped"]] == [2] and "not valid JSON" in doc["skipped"][0]["error"]
    assert doc["summary"]["bad_lines"] == 1


def test_an_adapters_record_is_read_where_the_framework_keeps_it(capsys, tmp_path):
    from cbsolve.integrations.game import GameOptions, GameSession

    session = GameSession(GameOptions.from_options(variant="mastermind", length=3, digits=3),
                          secret="123")
    for reply in ("My guess: [111]", "[123]"):
        session.play(reply)
    record = session.record()
    lines = [json.dumps(record), json.dumps({"info": {"cbsolve": record}}),
             json.dumps({"game_info": {"0": {"cbsolve": record}}})]
    code, out, err = _bad(capsys, tmp_path, lines)
    assert code == 0, err
    games = json.loads(out)["games"]
    assert [g["turns"] for g in games] == [2, 2, 2] and all(g["solved"] for g in games)
    record["secret"] = "333"
    code, _, err = _bad(capsys, tmp_path, [json.dumps(record)])
    assert code == 2 and "rule out the record's secret 333" in err


def test_the_document_and_the_html_report(capsys, tmp_path):
    html = tmp_path / "report.html"
    entries = [{"guess": "014", "bulls": 2, "cows": 0}, {"guess": "012", "bulls": 3, "cows": 0}]
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps({"entries": entries, "id": "g1"}) + "\n")
    code, out, err = cli_run(capsys, "review", str(path), "--json", "--html", str(html),
                             *SMALL)
    assert code == 0, err
    doc = json.loads(out)
    assert set(doc) == {"games", "skipped", "summary"}
    game = doc["games"][0]
    assert game["id"] == "g1" and game["variant"]["length"] == 3
    assert {"moves", "turns", "solved", "regret", "regret_bounds", "first_mistake",
            "turns_over_optimum", "exact", "complete"} <= set(game)
    move = game["moves"][1]
    assert {"candidates_before", "candidates_after", "candidate", "contradicts", "regret",
            "exact"} <= set(move) and set(move["regret"]) == {"worst", "expected"}
    assert move["candidates_after"] == 1 and move["candidates_before"] > 1 and move["candidate"]
    assert {"games", "moves", "exact_moves", "solve_rate", "mean_turns",
            "mean_regret_worst_per_game", "mean_regret_expected_per_game"} <= set(doc["summary"])
    page = html.read_text()
    assert "data:image/png;base64," in page and "014" in page


def test_stdin_and_an_expired_run_deadline(capsys, tmp_path, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO((GOOD + "\n").encode())))
    code, out, err = cli_run(capsys, "review", "-", "--json", *SMALL)
    assert code == 0, err
    assert json.loads(out)["summary"]["games"] == 1
    from cbsolve.runtime.deadline import Deadline
    from cbsolve.play.game_review import review_game
    from cbsolve.play.transcripts import read_game
    from cbsolve.advisor import PositionService

    game = read_game(GOOD, 1, Variant.from_options(None, length=3, digits=5))
    done = review_game(PositionService(game.variant), game, Deadline(0.0), 1.0)
    assert done.moves == [] and done.reviewed_all is False and done.to_json()["complete"] is False


def test_the_run_time_limit_and_ctrl_c_leave_a_partial_document(capsys, tmp_path):
    from cbsolve.runtime.deadline import clear_stop, request_stop

    path = tmp_path / "two.jsonl"
    path.write_text(GOOD + "\n" + GOOD + "\n")
    code, out, err = cli_run(capsys, "review", str(path), "--json", "--time-limit", "0.000001",
                             *SMALL)
    summary = json.loads(out)["summary"]
    assert code == 0, err
    assert summary["complete"] is False and summary["stopped"] == "time"
    assert summary["games"] < 2
    game = read_game_for_test()
    request_stop()
    try:
        from cbsolve.advisor import PositionService
        from cbsolve.runtime.deadline import Deadline
        from cbsolve.play.game_review import review_game

        done = review_game(PositionService(game.variant), game, Deadline(None), 1.0)
    finally:
        clear_stop()
    assert done.moves == [] and done.reviewed_all is False


def read_game_for_test():
    from cbsolve.play.transcripts import read_game

    return read_game(GOOD, 1, Variant.from_options(None, length=3, digits=5))
