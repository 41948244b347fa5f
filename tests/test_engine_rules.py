"""One test per checker-play rule id: the position that breaks it, and the nearest legal case."""
from __future__ import annotations

import pytest

from nardy_analyze.engine.core import Dice
from nardy_analyze.engine import get_variant, legal_results
from nardy_analyze.engine.backgammon import START, Backgammon
from nardy_analyze.engine.judge import judge, problem_text

from helpers import side

R = Backgammon()


def verdict(me, opp, dice, steps):
    return judge(R, me, opp, Dice.roll(dice[0], dice[1]), steps)


def rules_of(v):
    return [p.rule for p in v.problems]


def test_opening_62_legal_and_spellings_are_equivalent():
    for steps in ([(24, 18), (13, 11)], [(13, 11), (24, 18)]):
        assert verdict(START, START, (6, 2), steps).legal
    # combined move 61: 13/6 and 13/7 7/6 are one play
    assert verdict(START, START, (6, 1), [(13, 6)]).legal
    assert verdict(START, START, (6, 1), [(13, 7), (7, 6)]).legal


def test_dice_mismatch_wrong_distance():
    v = verdict(START, START, (6, 2), [(24, 17), (13, 11)])
    assert rules_of(v) == ["dice-mismatch"]
    assert "7 pips" in problem_text(R, v.problems[0])


def test_dice_mismatch_extra_step():
    v = verdict(START, START, (6, 2), [(24, 18), (13, 11), (6, 4)])
    assert rules_of(v) == ["dice-mismatch"]
    assert "more steps" in problem_text(R, v.problems[0])
    # a double allows four steps
    assert verdict(START, START, (2, 2), [(13, 11), (13, 11), (6, 4), (6, 4)]).legal


def test_no_checker():
    v = verdict(START, START, (6, 2), [(20, 14), (8, 6)])
    assert rules_of(v) == ["no-checker"]
    # steps are judged in any order: 11/5 13/11 is 13/11/5
    assert verdict(START, START, (6, 2), [(11, 5), (13, 11)]).legal


def test_blocked_point():
    # 24/18 is open; 13/7 then ... the opponent holds our 19..: opponent 6 point is our 19
    v = verdict(START, START, (5, 1), [(24, 19), (6, 5)])
    assert rules_of(v) == ["blocked-point"]
    assert verdict(START, START, (5, 1), [(13, 8), (6, 5)]).legal


def test_bar_first_and_entry():
    me = side({24: 1, 13: 5, 8: 3, 6: 5}, bar=1)
    v = verdict(me, START, (4, 3), [(13, 9), (13, 10)])
    assert rules_of(v) == ["bar-first"]
    assert verdict(me, START, (4, 3), [(25, 21), (13, 10)]).legal
    # entry on a held point is blocked: 25-6 = 19 is the opponent's 6 point (5 checkers)
    v = verdict(me, START, (6, 6), [(25, 19)])
    assert rules_of(v) == ["blocked-point"]
    # a dance: nothing can enter, nothing is played, legal
    closed = side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3})
    assert verdict(me, closed, (6, 5), []).legal


def test_bear_off_early():
    me = side({8: 1, 6: 4, 5: 5, 4: 5})
    v = verdict(me, START, (6, 1), [(6, 0), (8, 7)])
    assert rules_of(v) == ["bear-off-early"]
    assert verdict(me, START, (6, 1), [(8, 2), (6, 5)]).legal
    # once the last checker is home, the other number may bear off (in any written order)
    assert verdict(me, START, (6, 2), [(6, 0), (8, 6)]).legal


def test_bear_off_inexact():
    me = side({5: 2, 3: 3})
    opp = side({24: 2})
    v = verdict(me, opp, (6, 1), [(3, 0), (3, 2)])
    # 6 must bear off from 5 (the highest), not from 3
    assert rules_of(v) == ["bear-off-inexact"]
    assert verdict(me, opp, (6, 1), [(5, 0), (5, 4)]).legal


def test_max_dice_both_numbers():
    v = verdict(START, START, (6, 2), [(24, 18)])
    assert rules_of(v) == ["max-dice"]
    assert "6 and 2 could both be played" in problem_text(R, v.problems[0])


def test_max_dice_over_whole_turn():
    # 6 from 20 is blocked (our 14 held), but 1 first makes the 6 playable: both must be played.
    me = side({20: 1})
    opp = side({11: 2})
    v = verdict(me, opp, (6, 1), [(20, 19)])
    assert rules_of(v) == ["max-dice"]
    assert verdict(me, opp, (6, 1), [(20, 19), (19, 13)]).legal
    assert verdict(me, opp, (6, 1), [(20, 13)]).legal


def test_larger_die():
    # One checker on 9, our 1 point held: 9/3 or 9/7 each play, never both (3/1 and 7/1 are held).
    me = side({9: 1})
    opp = side({24: 2})
    v = verdict(me, opp, (6, 2), [(9, 7)])
    assert rules_of(v) == ["larger-die"]
    assert verdict(me, opp, (6, 2), [(9, 3)]).legal
    assert legal_results("backgammon", me, opp, (6, 2)) == {(side({3: 1}), opp)}


def test_unchanged_position_when_nothing_plays():
    me = side({13: 15}, bar=0)
    me = side({13: 14}, bar=1)
    closed = side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3})
    assert legal_results("backgammon", me, closed, (4, 3)) == {(me, closed)}


def test_variant_value():
    v = get_variant("backgammon", {"crawford": False})
    assert v.opt("crawford") is False and v.opt("cube") is True
    with pytest.raises(ValueError):
        get_variant("chess")


def test_combined_move_hits_only_where_written():
    # An opposing blot on our 12 point: 61 written 13/6 can pass via 7 (no hit) or via 12 (hit).
    opp = side({13: 1, 24: 2, 8: 3, 6: 5, 11: 4})
    for steps, bar in (([(13, 6)], 0), ([(13, 12), (12, 6)], 1)):
        v = verdict(START, opp, (6, 1), steps)
        assert v.legal
        assert v.after[1][24] == bar, steps
    # the only way through hits: 13/7 is blocked, so 13/12*/6 is forced
    opp_block = side({13: 1, 18: 2, 24: 2, 8: 3, 6: 5, 11: 2})
    v = verdict(START, opp_block, (6, 1), [(13, 6)])
    assert v.legal and v.after[1][24] == 1
