"""The alphabet rule of --digits, as --help states it (and the README)."""
import pytest

from cbsolve.cli import main
from cbsolve.game.variant import Variant


@pytest.mark.parametrize("preset, digits, symbols", [
    ("mastermind", 6, "123456"), ("mastermind", 9, "123456789"),
    ("mastermind", 10, "0123456789"), ("black-peg", 8, "12345678"),
    ("bulls-cows", 6, "012345"), ("numbers", 9, "012345678"),
])
def test_digits_follow_the_stated_rule(preset, digits, symbols):
    assert Variant.from_options(preset, digits=digits).symbols == symbols


def test_help_states_the_rule(capsys):
    assert main(["next", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--variant mastermind --digits 6 is 123456, --digits 10 is 0123456789" in text
