"""The judge's inputs as one value (engine.core.Dice) and the ideas about dice written once: the 21 rolls
(ROLLS, roll_plays), a record's dice check (valid_dice), the recorded play first (judge.as_written)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from nardy_analyze.engine import ROLLS, Dice, generate, get_variant, roll_plays, valid_dice
from nardy_analyze.engine.judge import as_written, judge, problem_text


def test_a_roll_and_numbers():
    assert Dice.roll(6, 4) == Dice((6, 4), 6, 4, True) and Dice.roll(4, 6).numbers == (4, 6)
    assert Dice.roll(5, 5).numbers == (5, 5, 5, 5) and not Dice.roll(5, 5).plain and Dice.roll(6, 4).plain
    assert Dice.roll(6, 4) is Dice.roll(6, 4)                  # made once, not per turn
    assert Dice.roll(9, 9).numbers == (9,) * 4                 # outside the table: made as asked
    assert Dice.of((3, 4)) == Dice((3, 4), 4, 3, False) and Dice.of([5, 5, 5]).numbers == (5, 5, 5)
    assert Dice.of(()) == Dice((), 0, 0, False) and not Dice.of((5, 5, 5)).plain


def test_the_21_rolls():
    assert len(ROLLS) == len(set(ROLLS)) == 21
    assert {(d.d1, d.d2) for d in ROLLS} == {(a, b) for a in range(1, 7) for b in range(1, a + 1)}
    assert all(d.rolled and d.d1 >= d.d2 for d in ROLLS)


@pytest.mark.parametrize("variant", ["backgammon", "long", "gulbara"])
def test_roll_plays_is_each_roll_with_its_legal_plays(variant):
    rules = get_variant(variant).rules
    me, opp = rules.initial()
    got = list(roll_plays(rules, me, opp))
    assert [d for d, _ in got] == list(ROLLS)
    for dice, ps in got:
        turn = rules.start_turn(me, opp, False, (dice.d1, dice.d2))
        assert ps.plays == generate(rules, me, opp, dice.numbers, turn).plays


def test_valid_dice():
    assert valid_dice((6, 1)) and valid_dice([3, 3]) and valid_dice((5, 5, 5))
    assert not valid_dice((0, 3)) and not valid_dice((7, 1)) and not valid_dice((6, -1))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_recorded_play_first_is_what_the_judge_finds(seed):
    """``as_written`` (one step per number, in the written order) gives the judge's own verdict wherever it
    answers, for legal plays walked in their order (backgammon and long nardy)."""
    rng = random.Random(seed)
    for variant in ("backgammon", "long"):
        rules = get_variant(variant).rules
        me, opp = rules.initial()
        for _ in range(20):
            dice = rng.choice(ROLLS)
            turn = rules.start_turn(me, opp, False, (dice.d1, dice.d2))
            ps = generate(rules, me, opp, dice.numbers, turn)
            if not ps.plays:
                break
            after, path = rng.choice(list(ps.plays.items()))
            steps = [(s, d) for s, d, _ in path]
            exact = as_written(rules, me, opp, dice.numbers, steps, turn, True)
            v = judge(rules, me, opp, dice, steps, turn=turn)
            assert v.legal and v.after == after
            if exact is not None:
                assert (exact[0], exact[1]) == after and exact[3] == v.used
            me, opp = after[1], after[0]


def test_a_verdict_is_worded_where_it_is_shown():
    """The judge answers with values; ``problem_text`` words them (a roll spelt "64", numbers "5-5-5")."""
    from nardy_analyze.i18n import set_language

    rules = get_variant("backgammon").rules
    me, opp = rules.initial()
    v = judge(rules, me, opp, Dice.roll(6, 4), [(24, 17)])
    [problem] = v.problems
    assert problem.rule == "dice-mismatch" and problem.params["dice"] == Dice.roll(6, 4)
    english = problem_text(rules, problem)
    assert english == "24/17 moves 7 pips, which no unused number of the roll 64 makes (unused: 6-4)"
    set_language("ru")
    try:
        russian = problem_text(rules, problem)       # the same value, worded in the reader's language
        assert russian != english and russian.startswith("24/17") and "броске 6-4" in russian
    finally:
        set_language("en")
