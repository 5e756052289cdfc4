"""One game declared once (cbsolve/play/state.py), one command vocabulary (play/commands.py)
and one game loop (play/loop.py), which the faces ``play``, ``assist`` and ``bot`` share."""
import io

import pytest

from cbsolve.errors import InconsistentLog, InvalidFeedback
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant
from cbsolve.play import loop
from cbsolve.play.assistant import Assistant, AssistSession
from cbsolve.play.bot import Bot, serve
from cbsolve.play.commands import ASSIST, PLAY, PROTOCOL, WORDS, action
from cbsolve.play.inputs import Console
from cbsolve.play.state import GameState
from cbsolve.play.terminal import Game
from cbsolve.runtime.deadline import Deadline, Turns

BC = Variant.preset("bulls-cows")


def test_each_mode_has_the_sides_it_plays_with():
    sides = {mode: (GameState(BC, mode, strategy="first", seed=1).maker is not None,
                    GameState(BC, mode, strategy="first", seed=1).breaker is not None)
             for mode in ("guess", "host", "both", "assist", "bot")}
    assert sides == {"guess": (True, False), "host": (False, True), "both": (True, True),
                     "assist": (False, True), "bot": (True, True)}


def test_both_mode_alternates_and_a_round_is_finished_before_the_result():
    state = GameState(BC, "both", strategy="first", secret="4567")
    assert state.turn() == "you"
    entry = state.score_yours("4567", Deadline(None))
    assert entry == {"guess": "4567", "bulls": 4, "cows": 0}
    state.keep_yours(entry)
    assert state.you_done and state.turn() == "me"          # the round is not over yet
    guess = state.my_move(Deadline(None)).guess
    assert guess == "0123"                                   # "first" opens with the lowest code
    state.record(guess, *score(BC, state.maker.space.parse("0123"),
                               state.maker.space.parse(guess)))
    assert state.turn() is None and state.finish().winner == "draw"


def test_undo_takes_back_the_last_move_of_either_side_and_fix_corrects_the_record():
    state = GameState(BC, "both", strategy="first", secret="4567")
    state.keep_yours(state.score_yours("0123", Deadline(None)))
    state.record("0123", 0, 1)
    k = state.fix("fix 1 1 0")
    assert k == 1 and state.result.computer_guesses == [{"guess": "0123", "bulls": 1, "cows": 0}]
    with pytest.raises(InvalidFeedback):
        state.fix("fix 7 1 0")
    who, reply = state.undo()
    assert who == "me" and reply.text == "0123" and not state.result.computer_guesses
    who, entry = state.undo()
    assert who == "you" and entry["guess"] == "0123" and state.maker.guesses == 0
    assert state.undo() is None


def test_an_inconsistent_reply_stays_recorded_for_undo_or_fix():
    state = GameState(BC, "host", strategy="first")
    state.record("0123", 0, 0)
    with pytest.raises(InconsistentLog):
        state.record("4567", 0, 0)
    assert len(state.breaker.log) == 2 and state.breaker.inconsistent is not None
    state.fix("fix 2 1 1")
    assert state.breaker.inconsistent is None


def test_a_new_game_returns_the_record_left_with_its_secret():
    state = GameState(BC, "guess", seed=3, secret="9876")
    state.keep_yours(state.score_yours("0123", Deadline(None)))
    left = state.new()
    assert left.secret == "9876" and left.your_guesses[0]["guess"] == "0123"
    assert state.result.your_guesses == [] and state.history == []


def test_one_vocabulary_serves_every_face():
    assert action(BC, "q", PLAY) == "quit" and action(BC, "OK 2", ASSIST) == "fix"
    assert action(BC, "list 3", ASSIST) == "list" and action(BC, "list 3", PLAY) is None
    guessing = GameState(BC, "guess", seed=1).legal(PLAY)            # no score of mine to fix
    assert action(BC, "fix 1 0 0", guessing) is None and action(BC, "fix 1 0 0", PLAY) == "fix"
    assert GameState(BC, "assist", strategy="first").legal(ASSIST) == ASSIST
    assert action(BC, "0123", PLAY) is None and action(BC, "  ", PLAY) == "blank"
    assert len({w for words in WORDS.values() for w in words}) == sum(map(len, WORDS.values()))
    assert set(PROTOCOL.values()) - {"move", "score", "check"} <= set(WORDS)


class _Recorder:
    """A face that records the Deadline each turn got."""

    def __init__(self, lines, moves):
        self.lines, self.moves, self.seen = list(lines), moves, []

    def begin(self, turns):
        self.seen.append(("begin", turns.start()))

    def to_move(self):
        return self.moves > 0

    def move(self, deadline):
        self.moves -= 1
        self.seen.append(("move", deadline))

    def prompt(self):
        return "> " if self.lines else None

    def step(self, line, deadline):
        self.seen.append((line, deadline))
        return line != "stop"

    def end_of_input(self):
        self.seen.append(("end", None))


def test_the_loop_makes_one_deadline_a_turn_the_first_the_edges():
    first = Deadline.from_limit(5.0)
    face = _Recorder(["a", "b", "stop", "never"], moves=1)
    loop.run(face, lambda prompt: face.lines.pop(0), Turns(5.0, first))
    assert [what for what, _ in face.seen] == ["begin", "move", "a", "b", "stop"]
    deadlines = [d for _, d in face.seen]
    assert deadlines[0] is first and len({id(d) for d in deadlines}) == len(deadlines)


def test_the_loop_tells_the_face_when_input_ends():
    face = _Recorder(["a"], moves=0)

    def read(prompt):
        if not face.lines:
            raise EOFError
        return face.lines.pop(0)

    face.prompt = lambda: "> "
    loop.run(face, read, Turns(None))
    assert [what for what, _ in face.seen] == ["begin", "a", "end"]


def test_every_face_runs_on_the_one_loop(monkeypatch):
    """play, assist and bot each hand the loop their turns: one Deadline a line."""
    runs = []
    real = loop.run
    monkeypatch.setattr(loop, "run", lambda face, read, turns: (runs.append(type(face).__name__),
                                                                real(face, read, turns))[1])
    out = io.StringIO()
    Game(BC, "guess", Console(io.StringIO("quit\n"), out), secret="0123").run()
    AssistSession(Assistant(BC, strategy="first"), Console(io.StringIO("quit\n"), out)).run()
    assert serve(Bot(BC, strategy="first", seed=1), io.StringIO("quit\n"), out) == 1
    assert runs == ["Game", "AssistSession", "_Protocol"]
