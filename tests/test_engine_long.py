"""Long nardy (docs/rules.md, "Long nardy"): the engine against a naive generator, and one scenario per rule."""
from __future__ import annotations

import copy

import pytest
from helpers import side
from hypothesis import given, settings, strategies as st
from naive_long import differential

from nardy_analyze.engine import Rules, get_variant, legal_results
from nardy_analyze.engine.core import Dice, closed_flags_py
from nardy_analyze.engine.gulbara import GulBara
from nardy_analyze.engine.judge import judge, problem_text
from nardy_analyze.engine.long import START, LongNardy, opp_point

V = "long"
R = get_variant(V).rules


def test_differential_against_naive_generator():
    n = differential(V, seed=7, games=25, synthetic_n=2500)
    assert n >= 5000, n


# -- scenarios ------------------------------------------------------------------------------------------

def theirs(points: dict[int, int], off: int = 0) -> tuple[int, ...]:
    """The opponent's side from {mover's point: checkers}; the rest (15 - listed - off) on their head."""
    s = [0] * 25
    for p, n in points.items():
        s[opp_point(p) - 1] += n
    s[23] += 15 - off - sum(s)
    return tuple(s)


def mine(points: dict[int, int], head: bool = True) -> tuple[int, ...]:
    """The mover's side from {point: checkers}, the rest on the head (24)."""
    rest = 15 - sum(points.values())
    return side({**points, 24: points.get(24, 0) + rest} if head and rest else points)


def play(me, opp, dice, steps, first_turn=False, rules=R):
    turn = rules.start_turn(me, opp, first_turn, tuple(dice))
    return judge(rules, me, opp, Dice.roll(dice[0], dice[1]), steps, turn=turn)


def rule_of(v) -> str | None:
    return v.problems[0][0] if v.problems else None


def test_start_position_and_numbering():
    assert START[23] == 15 and sum(START) == 15 and START[24] == 0
    assert opp_point(24) == 12 and opp_point(12) == 24 and opp_point(1) == 13 and opp_point(13) == 1
    assert all(opp_point(opp_point(p)) == p for p in range(1, 25))
    # the opponent's head (their 24) closes the mover's 12
    assert R.closed(START, 12) and not R.closed(START, 13)


@pytest.mark.parametrize("d, expected", [
    (6, [side({24: 13, 18: 2})]),
    (4, [side({24: 13, 16: 2})]),
    (3, [side({24: 13, 18: 2}), side({24: 13, 21: 1, 15: 1})]),
])
def test_head_exception_on_first_turn(d, expected):
    got = legal_results(V, START, START, (d, d), first_turn=True)
    assert sorted(m for m, _ in got) == sorted(expected)
    # and not on a later turn: one checker only, blocked by the opponent's head at 12
    later = legal_results(V, START, START, (d, d), first_turn=False)
    assert all(m[23] == 14 for m, _ in later)
    v = play(START, START, (d, d), [(24, 24 - d), (24, 24 - d)], first_turn=False)
    assert rule_of(v) == "head-rule"
    full = [(24, 24 - d), (24, 24 - d)] + ([(24 - d, 24 - 2 * d)] * 2 if d != 6 else [])
    assert play(START, START, (d, d), full, first_turn=True).legal


@pytest.mark.parametrize("d", [1, 2, 5])
def test_no_head_exception_for_1_1_2_2_5_5(d):
    got = legal_results(V, START, START, (d, d), first_turn=True)
    assert got == {(side({24: 14, 24 - 4 * d: 1}), START)}
    v = play(START, START, (d, d), [(24, 24 - d), (24, 24 - d), (24 - d, 24 - 2 * d), (24 - d, 24 - 2 * d)],
             first_turn=True)
    assert rule_of(v) == "head-rule"


def test_head_rule_plain_roll():
    me = mine({18: 1})
    assert all(m[23] >= 13 for m, _ in legal_results(V, me, START, (6, 5)))
    v = play(me, START, (6, 5), [(24, 18), (24, 19)])
    assert rule_of(v) == "head-rule" and "head" in problem_text(R, v.problems[0])


def test_head_exception_conditional_option():
    cond = get_variant("long", {"head_exception": "conditional"}).rules
    # the opening 6-6: one checker stops at 18, so the second may leave
    assert cond.start_turn(START, START, True, (6, 6)) == (0, 2)
    # 5-5 on an open board: one checker uses all four numbers, no second one
    assert cond.start_turn(START, START, True, (5, 5)) == (0, 1)
    # 5-5 with the mover's 9 held by the opponent: one checker stops at 14, the second may go
    opp = theirs({9: 1})
    assert cond.start_turn(START, opp, True, (5, 5)) == (0, 2)
    assert R.start_turn(START, opp, True, (5, 5)) == (0, 1)
    v = get_variant("long", {"head_exception": "conditional"})
    assert legal_results(v, START, opp, (5, 5), first_turn=True) == {(side({24: 13, 14: 2}), opp)}
    assert legal_results(V, START, opp, (5, 5), first_turn=True) == {(side({24: 14, 14: 1}), opp)}
    # never on a later turn
    assert cond.start_turn(START, START, False, (6, 6)) == (0, 1)


def test_blocked_point_and_no_checker():
    opp = theirs({20: 1})
    assert rule_of(play(START, opp, (4, 1), [(24, 20)])) == "blocked-point"
    assert rule_of(play(START, opp, (4, 1), [(10, 6)])) == "no-checker"
    assert rule_of(play(START, opp, (4, 1), [(25, 21)])) == "no-checker"
    assert not any(m[19] for m, _ in legal_results(V, START, opp, (4, 1)))


def _run(points, extra) -> tuple[int, ...]:
    return mine({**{p: 1 for p in points}, **extra})


def test_six_block_refused_without_a_checker_past():
    me = _run([10, 9, 8, 7, 6], {13: 1})
    opp = START                       # every opposing checker on the mover's 12: before the block
    v = play(me, opp, (2, 1), [(13, 11), (24, 23)])
    assert rule_of(v) == "six-block"
    assert all(not all(m[p - 1] for p in range(6, 12)) for m, _ in legal_results(V, me, opp, (2, 1)))


def test_five_run_allowed():
    me = _run([10, 9, 8, 7], {13: 1})
    assert play(me, START, (2, 1), [(13, 11), (24, 23)]).legal


def test_six_block_allowed_once_an_opposing_checker_is_past_or_borne_off():
    me = _run([10, 9, 8, 7, 6], {13: 1})
    past = theirs({3: 1})             # the mover's 3 comes after 11..6 on the opponent's route
    assert play(me, past, (2, 1), [(13, 11), (24, 23)]).legal
    off = theirs({}, off=1)
    assert play(me, off, (2, 1), [(13, 11), (24, 23)]).legal
    # the mover's 14 is the opponent's 2: past a block on the mover's 11..6 (route 12..1, then 24..13)
    assert play(me, theirs({14: 1}), (2, 1), [(13, 11), (24, 23)]).legal
    # the mover's 12 (the opponent's head) is before it
    assert rule_of(play(me, theirs({}), (2, 1), [(13, 11), (24, 23)])) == "six-block"


def test_seven_run_refused():
    me = _run([11, 10, 9, 7, 6, 5], {13: 1})
    v = play(me, START, (5, 1), [(13, 8), (24, 23)])
    assert rule_of(v) == "six-block"


def test_six_block_across_1_to_24():
    me = mine({3: 1, 2: 1, 1: 1, 23: 1, 20: 1})
    v = play(me, START, (2, 1), [(24, 22), (20, 19)])
    assert rule_of(v) == "six-block" and "6 points in a row (3 to 22" in problem_text(R, v.problems[0])
    assert all(not (m[21] and m[22] and m[23] and m[0] and m[1] and m[2])
               for m, _ in legal_results(V, me, START, (2, 1)))
    # an opposing checker past it (the mover's 15 comes after 22 on the opponent's route)
    assert play(me, theirs({15: 1}), (2, 1), [(24, 22), (20, 19)]).legal
    # one on the mover's 4 is still before it
    assert rule_of(play(me, theirs({4: 1}), (2, 1), [(24, 22), (20, 19)])) == "six-block"


def test_13_and_12_are_not_consecutive_for_the_opponent():
    # the mover's 13 and 12 are the opponent's 1 and 24: a run 16..11 is no block on their route
    me = mine({18: 1, 16: 1, 15: 1, 14: 1, 13: 1, 11: 1})
    opp = side({7: 15})               # all on their 7, the mover's 19
    assert play(me, opp, (6, 1), [(18, 12), (24, 23)]).legal


def test_bear_off_long():
    me = side({6: 1, 3: 2, 1: 1})
    opp = theirs({})
    assert play(me, opp, (3, 3), [(3, 0), (3, 0), (6, 3), (3, 0)]).legal       # exact
    assert rule_of(play(me, opp, (5, 2), [(3, 0), (3, 1)])) == "bear-off-inexact"
    assert play(me, opp, (5, 2), [(6, 1), (3, 1)]).legal                        # inside home is allowed
    low = side({3: 1, 2: 1})
    assert play(low, opp, (6, 5), [(3, 0), (2, 0)]).legal                       # larger, none higher
    early = side({10: 1, 3: 2})
    assert rule_of(play(early, opp, (3, 1), [(3, 0), (10, 9)])) == "bear-off-early"


def test_results_oin_mars_koks():
    winner = (0,) * 25
    assert R.win_level(winner, side({1: 3})) == 1             # borne off some: oin
    assert R.win_level(winner, side({1: 15})) == 2            # none borne off: mars
    assert R.win_level(winner, side({1: 14, 15: 1})) == 2     # koks is off by default
    koks = get_variant("long", {"koks": True}).rules
    assert koks.win_level(winner, side({1: 14, 15: 1})) == 3  # a checker in the winner's home (13-18)
    assert koks.win_level(winner, side({1: 14, 20: 1})) == 2
    assert koks.max_level(winner, side({1: 14, 20: 1})) == 3  # it may still be caught in 13-18
    assert koks.max_level(winner, side({1: 14, 12: 1})) == 2


def test_variant_names_and_options():
    for name in ("long", "longnardy", "long nardy", "Long Nardy"):
        assert get_variant(name).name == "long"
    from nardy_analyze.engine import OPTIONS, parse_option
    assert "long" in OPTIONS and "gulbara" in OPTIONS
    assert parse_option("long", "head_exception", "conditional") == "conditional"
    assert parse_option("long", "koks", "on") is True
    assert get_variant("long").opt("cube") is False
    with pytest.raises(ValueError):
        parse_option("long", "head_exception", "sometimes")


# -- the closed flags: one bytes.translate ------------------------------------------------------------------

@st.composite
def long_sides(draw):
    """A long-nardy side: up to 15 checkers over the 24 points (some borne off), nothing at index 24."""
    counts = [0] * 25
    for _ in range(draw(st.integers(0, 15))):
        counts[draw(st.integers(0, 23))] += 1
    return tuple(counts)


def _no_closed(side, point):
    raise AssertionError("closed() asked point by point")


@settings(max_examples=300, deadline=None)
@given(side=long_sides(), name=st.sampled_from(["long", "gulbara"]))
def test_closed_flags_are_long_nardys_own_translate(side, name):
    """Long nardy (and Gul bara, its subclass) has a ``closed_flags`` of its own: without the compiled core it
    is one ``bytes.translate``, which never asks ``closed`` (the default does, point by point, about ten times
    slower: bench/bench_core.py); with the core, the core's.  Both give what ``closed`` says point by point."""
    assert LongNardy.closed_flags is not Rules.closed_flags and GulBara.closed_flags is LongNardy.closed_flags
    rules = get_variant(name).rules
    expected = bytes(b"1"[0] if rules.closed(side, q) else b"0"[0] for q in range(1, 25))
    assert closed_flags_py(rules)(side) == expected
    pure = copy.copy(rules)
    pure.core = None                    # the pure-Python engine
    pure.closed = _no_closed            # the fast path never asks closed() point by point
    assert pure.closed_flags()(side) == expected
    assert rules.closed_flags()(side) == expected


def test_a_subclass_with_its_own_closed_gets_the_default():
    class HeldByTwo(LongNardy):
        name = "held-by-two"

        def closed(self, opp, point):
            return 1 <= point <= 24 and opp[opp_point(point) - 1] >= 2

    rules = HeldByTwo()
    assert rules.core_spec() is None
    side_ = mine({13: 1, 18: 2, 20: 5})
    flags = rules.closed_flags()(side_)
    assert flags == closed_flags_py(rules)(side_) != R.closed_flags()(side_)
    assert flags.count(b"1") == 3       # 18, 20 and the head; not 13
