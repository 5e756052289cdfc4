"""One first guess solved class by class (scripts/research/first_guess_value.py) against the complete
expected search: the least value over the first guesses is the optimum, the optimum's own first
guess reaches it with a tree the scorer replays, and budgets from a known tree change no value."""
import numpy as np
import pytest
from first_guess_value import first_guess_value
from polish import Polisher

from cbsolve.certificates.certify import replay_tree
from cbsolve.search.expected import solve_expected
from cbsolve.search.position import expected_search
from cbsolve.strategy.evaluation import evaluate
from cbsolve.game.variant import Variant

GAMES = [Variant(4, "1234", True, False), Variant(3, "012345", False, False),
         Variant(3, "0123", True, True)]


def orbit_representatives(search) -> list[str]:
    everyone = np.arange(search.n, dtype=np.int32)
    scan = search.solver.scan(everyone, 0, search.played_mask([]), None, search.native_history([]))
    return [search.space.format(search.codes[g]) for g, *_ in scan]


@pytest.mark.parametrize("variant", GAMES, ids=["mm-4x4", "bc-3-6", "numbers-3x4"])
def test_least_first_guess_value_is_the_optimum_and_its_tree_replays(variant):
    optimum = solve_expected(variant, workers=1, progress=False)
    assert optimum.proved
    search = expected_search(variant, None, "all")
    values = [first_guess_value(variant, g, search=search) for g in orbit_representatives(search)]
    assert all(v.exact for v in values)
    best = min(values, key=lambda v: v.value)
    assert best.value == optimum.total
    hist, _ = replay_tree(variant, best.root)
    assert sum(k * v for k, v in hist.items()) == optimum.total
    assert sum(hist.values()) == search.n
    own = first_guess_value(variant, optimum.tree["root"]["guess"], search=search)
    assert own.value == optimum.total


def test_budgets_from_a_known_tree_give_the_same_values():
    variant = GAMES[0]
    tree = evaluate(variant, "entropy").tree
    first = tree["root"]
    uppers = Polisher(variant).class_totals(first)
    assert tree["stats"]["secrets"] + sum(uppers.values()) == tree["stats"]["total"]
    free = first_guess_value(variant, first["guess"])
    budgeted = first_guess_value(variant, first["guess"], uppers=uppers)
    assert budgeted.exact and budgeted.to_json()["classes"] == [
        {**c, "seconds": budgeted.to_json()["classes"][i]["seconds"]}
        for i, c in enumerate(free.to_json()["classes"])]
    assert budgeted.value <= tree["stats"]["total"]


def test_a_class_the_search_cannot_solve_within_its_budget_keeps_a_lower_bound():
    variant = GAMES[0]
    search = expected_search(variant, None, "all")
    guess = orbit_representatives(search)[0]
    exact = first_guess_value(variant, guess, search=search)
    starved = first_guess_value(variant, guess, search=search,
                                uppers={c.reply: c.value - 2 for c in exact.classes})
    assert starved.root is None and not any(c.exact for c in starved.classes if c.secrets > 2)
    for low, true in zip(starved.classes, exact.classes, strict=True):
        assert low.reply == true.reply and low.value <= true.value
