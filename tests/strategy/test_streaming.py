"""The streaming evaluation (cbsolve/strategy/streaming.py) against its own replay: on small games
the level-by-level evaluation's histogram is the one of playing every secret alone, and the
replayed guesses form one strategy (the next guess depends on the replies so far only), with the
replies recomputed by the NumPy reference scorer."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from testkit import STREAMING_GAMES

from cbsolve.game.codes import CodeSpace
from cbsolve.runtime.deadline import Deadline
from cbsolve.errors import InvalidCode, InvalidRecipe, SpaceTooLarge
from cbsolve.game.scoring import score_against, score_matrix
from cbsolve.runtime.status import StopReason
from cbsolve.strategy.streaming import (Recipe, _engine, evaluate_streaming, play_streaming,
                                        resolve_first)
from cbsolve.game.variant import Variant


def replay_all(variant: Variant, recipe: Recipe) -> dict[int, int]:
    """Every secret played alone; checks the plays form one strategy under the NumPy scorer."""
    space = CodeSpace(variant)
    recipe = resolve_first(variant, recipe)
    next_guess: dict[tuple, str] = {}
    histogram: dict[int, int] = {}
    for secret in space.format_many(space.codes):
        guesses = play_streaming(variant, recipe, secret)
        assert guesses[-1] == secret and secret not in guesses[:-1]
        codes = [space.parse(g) for g in guesses]
        replies = score_matrix(variant, codes, [space.parse(secret)], backend="numpy")[:, 0]
        for t, guess in enumerate(guesses):
            assert next_guess.setdefault(tuple(replies[:t].tolist()), guess) == guess
        histogram[len(guesses)] = histogram.get(len(guesses), 0) + 1
    return histogram


#: Games whose secret-by-secret replay costs seconds (each secret played alone from the root:
#: Bulls & Cows' 5,040 secrets about 7 s, the tight rule's helpers about 15 ms a secret, 20 s):
#: replayed whole in the slow run. The default run plays a seeded sample of their secrets
#: against the class-by-class walk of the evaluated strategy (below), and
#: tests/strategy/test_streaming_check.py replays every secret class by class.
WHOLE_REPLAY_SLOW = ("bulls-cows", "tight-helpers")
GAME_ID = lambda x: getattr(x, "name", None) or ""  # noqa: E731


@pytest.mark.parametrize("variant,recipe", [
    pytest.param(v, r, marks=pytest.mark.slow) if v.name in WHOLE_REPLAY_SLOW else (v, r)
    for v, r in STREAMING_GAMES], ids=GAME_ID)
def test_the_evaluation_is_the_replay_of_every_secret(variant, recipe):
    result = evaluate_streaming(variant, recipe)
    assert result.complete and result.stop is None
    assert sum(result.histogram.values()) == result.secrets == CodeSpace(variant).size
    assert result.worst == max(result.histogram)
    assert result.total == sum(k * v for k, v in result.histogram.items())
    assert result.recipe.first is not None                 # the replay names its first guess
    assert replay_all(variant, result.recipe) == result.histogram


def class_walk(variant: Variant, recipe: Recipe, secret: int) -> list[int]:
    """The guesses (indices) the evaluated strategy makes against ``secret``, found class by
    class as the evaluation does: the engine's choice for the secrets still consistent, the
    class split by the NumPy scorer, and in a class of one or two after the first guess the
    lowest code, then the other."""
    space = CodeSpace(variant)
    engine = _engine(variant, recipe, space)
    members, guesses = np.arange(space.size, dtype=np.uint32), []
    while not guesses or guesses[-1] != secret:
        if guesses and members.size <= 2:
            guess = int(members[0]) if int(members[0]) not in guesses else int(members[1])
        else:
            guess = int(engine.choose_at(len(guesses), members))
        replies = score_against(variant, space.code_at(guess), space.codes_at(members),
                                backend="numpy")
        mine = score_against(variant, space.code_at(guess), space.codes_at([secret]),
                             backend="numpy")[0]
        members = members[(replies == mine) & (members != guess)]
        guesses.append(guess)
        assert len(guesses) <= 20
    return guesses


@pytest.mark.parametrize("variant,recipe", [
    (v, r) for v, r in STREAMING_GAMES if v.name in WHOLE_REPLAY_SLOW], ids=GAME_ID)
def test_sampled_secrets_play_the_evaluated_strategy(variant, recipe):
    """The default run's share of the whole replay above for its two costly games: 60 seeded
    secrets played alone make the guesses of the class-by-class walk, within the worst case."""
    result = evaluate_streaming(variant, recipe)
    space = CodeSpace(variant)
    for secret in np.random.default_rng(5).choice(space.size, 60, replace=False).tolist():
        played = play_streaming(variant, result.recipe, space.format(space.code_at(secret)))
        walked = class_walk(variant, result.recipe, secret)
        assert [space.index_of(space.parse(g)) for g in played] == walked
        assert len(walked) <= result.worst


def test_the_same_recipe_gives_the_same_strategy_and_another_seed_may_not():
    variant = Variant(5, "012345", repeats=True)
    recipe = Recipe(heuristic="minimax", sample=100, sample_top=500, randoms=20)
    first, again = evaluate_streaming(variant, recipe), evaluate_streaming(variant, recipe)
    assert first.histogram == again.histogram and first.recipe == again.recipe
    secret = "53201"
    assert play_streaming(variant, first.recipe, secret) == play_streaming(variant, recipe, secret)


def test_a_full_pool_plays_knuths_minimax_within_five_guesses():
    # Knuth, "The computer as master mind" (J. Recreational Mathematics 9, 1976): minimax with
    # every code as a guess solves Mastermind 4x6 within 5 guesses (ties broken otherwise here,
    # so the total differs from his 5801).
    result = evaluate_streaming(Variant.preset("mastermind"),
                                Recipe(first="1122", heuristic="minimax", randoms=1296))
    assert result.worst == 5


@pytest.mark.parametrize("n,classes", [(4, 5), (5, 7), (6, 11)])
def test_a_permutation_games_depth1_pool_is_one_guess_per_cycle_type(n, classes):
    # N of N symbols without repeats: the symmetries fixing the first guess (the identity
    # arrangement) act on the other guesses by conjugation, so their orbits are the cycle types,
    # p(N) of them (the partition numbers, OEIS A000041: p(4..6) = 5, 7, 11)
    from cbsolve.strategy.streaming import _depth1_pool

    variant = Variant(n, "012345"[:n], repeats=False)
    pool = _depth1_pool(variant, 0)
    space = CodeSpace(variant)
    types = set()
    for index in pool.tolist():
        code, seen, lengths = space.code_at(index), set(), []
        for start in range(n):
            length, p = 0, start
            while p not in seen:
                seen.add(p)
                p, length = code[p], length + 1
            if length:
                lengths.append(length)
        types.add(tuple(sorted(lengths)))
    assert len(pool) == len(types) == classes


def test_a_spent_deadline_reports_a_stop_and_no_number():
    result = evaluate_streaming(Variant.preset("mastermind"), Recipe(), deadline=Deadline(0))
    assert not result.complete and result.stop == StopReason.TIME
    assert result.worst is None and result.total is None and result.histogram is None
    assert result.to_json()["worst"] is None


def test_a_deadline_reached_during_the_levels_stops_the_kernel():
    # 7x7 (823,543 secrets) takes many seconds; under 0.2 s it is stopped or it is whole.
    result = evaluate_streaming(Variant(7, "0123456", repeats=True), Recipe(first="0001122"),
                                deadline=Deadline(0.2))
    if result.complete:
        assert sum(result.histogram.values()) == result.secrets
    else:
        assert result.stop == StopReason.TIME and result.worst is None


def test_bad_recipes_and_secrets_are_refused_with_one_line():
    with pytest.raises(InvalidRecipe, match="heuristic 'best' unknown"):
        Recipe(heuristic="best")
    with pytest.raises(InvalidRecipe, match="sample must be an integer >= 1"):
        Recipe(sample=0)
    with pytest.raises(InvalidRecipe, match="field 'pool' unknown"):
        Recipe.from_json({"pool": 3})
    assert Recipe.from_json(Recipe(first="1234").to_json()) == Recipe(first="1234")
    with pytest.raises(InvalidCode):
        play_streaming(Variant.preset("mastermind"), Recipe(), "1239")
    with pytest.raises(InvalidCode):
        evaluate_streaming(Variant.preset("mastermind"), Recipe(first="12"))
    with pytest.raises(SpaceTooLarge):
        evaluate_streaming(Variant(12, "0123456789", repeats=True), Recipe())
    with pytest.raises(SpaceTooLarge, match="lists the codes of a game without repeats"):
        evaluate_streaming(Variant(9, "0123456789AB", repeats=False), Recipe())   # 79.8 M


def test_the_tight_tail_rule_reaches_a_target_the_heuristic_overshoots():
    # Small pools leave 4 secrets of Mastermind 4x5 at 6 guesses; sought: 5. The rule re-chooses
    # at the nodes its test flags (the replay above shows the result is still one strategy).
    variant = Variant(4, "01234", repeats=True)
    plain = Recipe(first="0011", heuristic="parts", candidates=5, randoms=1, sample=300)
    before = evaluate_streaming(variant, plain)
    after = evaluate_streaming(variant, Recipe(**{**plain.to_json(), "target": 5,
                                                  "tight_randoms": 50}))
    assert before.worst > 5 and after.worst <= 5


def test_the_tail_search_reaches_a_target_the_tight_rule_alone_misses():
    # The same small pools: the tight tail rule alone leaves a secret of Mastermind 4x5 at 6;
    # the tail search (from 4 guesses left) ends every secret by 5. That it is still one
    # strategy, replayed secret by secret, is test_the_evaluation_is_the_replay_of_every_secret's.
    variant = Variant(4, "01234", repeats=True)
    tight = Recipe(first="0011", heuristic="parts", candidates=5, randoms=1, sample=300, target=5)
    searched = replace(tight, search_below=300, search_left=4, search_tries=4)
    assert evaluate_streaming(variant, tight).worst == 6
    assert evaluate_streaming(variant, searched).worst == 5


def test_the_tail_search_keeps_every_guess_where_its_target_is_met_already():
    # Where choose's strategy already ends by the target, the search changes no guess.
    variant = Variant(4, "0123", repeats=True)
    plain = Recipe(first="0011", heuristic="minimax", target=5)
    searched = replace(plain, search_below=1000, search_left=5, search_tries=8)
    before, after = evaluate_streaming(variant, plain), evaluate_streaming(variant, searched)
    assert before.worst <= 5 and after.histogram == before.histogram
    for secret in ("3210", "0000", "1302"):
        assert play_streaming(variant, searched, secret) == play_streaming(variant, plain, secret)


def test_the_tight_tail_fields_are_absent_when_off_so_older_recipes_keep_their_form():
    assert "target" not in Recipe().to_json() and "tight_randoms" not in Recipe().to_json()
    on = Recipe(target=8, tight_randoms=100)
    assert Recipe.from_json(on.to_json()) == on
    with pytest.raises(InvalidRecipe, match="target must be an integer >= 0"):
        Recipe(target=-1)


def _largest_part(variant: Variant, guess, members: np.ndarray) -> int:
    space = CodeSpace(variant)
    replies = score_against(variant, guess, space.codes_at(members), backend="numpy")
    return int(np.bincount(replies).max())


def test_the_local_search_leaves_no_single_position_change_with_a_smaller_largest_class():
    # Every class of Mastermind 4x5 after the first guess, scored whole (sample above every
    # class), minimax, a pool of three candidates: the guess the climbing strategy makes is a local optimum of the largest
    # reply class over all 4 x 4 codes one position away (checked with the NumPy scorer), and
    # at least as good as the guess of the same pool without the search.
    variant = Variant(4, "01234", repeats=True)
    space = CodeSpace(variant)
    plain = Recipe(first="0011", heuristic="minimax", candidates=3, randoms=0, sample=1000,
                   sample_top=1000, symmetric=False)
    climbing = replace(plain, climb=50, climb_above=3)
    engine, before = _engine(variant, climbing, space), _engine(variant, plain, space)
    first = space.parse("0011")
    replies = score_against(variant, first, space.codes, backend="numpy")
    checked = improved = 0
    for reply in np.unique(replies):
        members = np.flatnonzero(replies == reply).astype(np.uint32)
        if members.size < 3:
            continue
        guess = space.code_at(int(engine.choose_at(1, members)))
        largest = _largest_part(variant, guess, members)
        pooled = _largest_part(variant, space.code_at(int(before.choose_at(1, members))), members)
        assert largest <= pooled
        improved += largest < pooled
        for p in range(variant.length):
            for s in range(variant.n_symbols):
                near = np.array(guess, copy=True)
                near[p] = s
                assert _largest_part(variant, near, members) >= largest
        checked += 1
    assert checked >= 5 and improved >= 1


def test_the_local_search_is_refused_where_the_codes_are_listed():
    with pytest.raises(InvalidRecipe, match="recipe climb works on games where every string"):
        evaluate_streaming(Variant(4, "012345", repeats=False), Recipe(climb=3))
    assert "climb" not in Recipe().to_json() and Recipe(climb=2).to_json()["climb"] == 2
    assert "tight_helpers" not in Recipe().to_json()
    assert not {"search_below", "search_left", "search_tries"} & set(Recipe().to_json())
    searched = Recipe(target=6, search_below=500, search_left=4, search_tries=8)
    assert Recipe.from_json(searched.to_json()) == searched
    assert Recipe.from_json(Recipe(tight_helpers=5).to_json()) == Recipe(tight_helpers=5)
