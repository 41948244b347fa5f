"""Gul bara (docs/rules.md, "Gul bara"): the engine against a naive generator, the turn driver (chains,
handovers) and one scenario per rule."""
from __future__ import annotations

import pytest
from helpers import side
from naive_long import differential

from nardy_analyze.engine.core import Dice
from nardy_analyze.engine import OPPONENT, ROLLER, generate, get_variant, legal_results
from nardy_analyze.engine.judge import judge, problem_text
from nardy_analyze.engine.long import START, opp_point

V = "gulbara"
R = get_variant(V).rules


def theirs(points: dict[int, int], off: int = 0) -> tuple[int, ...]:
    """The opponent's side from {mover's point: checkers}; the rest on their head (the mover's 12)."""
    s = [0] * 25
    for p, n in points.items():
        s[opp_point(p) - 1] += n
    s[23] += 15 - off - sum(s)
    return tuple(s)


def rule_of(v) -> str | None:
    return v.problems[0][0] if v.problems else None


def run_turn(rules, me, opp, dice, first_turn=False, roll_number=5, choose=min):
    """Play one roll through the driver; ``choose`` picks the resulting position among the legal ones.
    Returns the list of (kind, player, numbers, turn, max_dice) and the final (roller, other)."""
    pos = [me, opp]
    drv = rules.turn_segments(max(dice), min(dice), first_turn, roll_number)
    log = []
    while (spec := drv.next(pos[0], pos[1])) is not None:
        q = 0 if spec.player == ROLLER else 1
        ps = generate(rules, pos[q], pos[1 - q], spec.numbers, spec.turn)
        after = choose(ps.plays)
        used = tuple(d for _, _, d in ps.plays[after])
        pos[q], pos[1 - q] = after
        drv.played(used)
        log.append((spec.kind, spec.player, spec.numbers, spec.turn, ps.max_dice))
    return log, tuple(pos)


def test_differential_against_naive_generator():
    n = differential(V, seed=11, games=60, synthetic_n=2500)
    assert n >= 5000, n


def test_home_freeze():
    me = side({6: 1, 9: 14})
    opp = theirs({})
    assert rule_of(judge(R, me, opp, Dice.roll(2, 1), [(6, 4), (9, 8)])) == "home-move"
    long_rules = get_variant("long").rules
    assert not judge(long_rules, me, opp, Dice.roll(2, 1), [(6, 4), (9, 8)]).problems
    assert all(m[5] >= 1 for m, _ in legal_results(V, me, opp, (2, 1)))   # 6 never moves


def test_bear_off_exact_only():
    me = side({6: 1, 3: 2, 1: 1})
    opp = theirs({})
    assert judge(R, me, opp, Dice.roll(6, 3), [(6, 0), (3, 0)]).legal                      # exact
    # 5-2: no checker on 5 or 2, and moving inside home is frozen: nothing can be played
    assert legal_results(V, me, opp, (5, 2)) == {(me, opp)}
    assert legal_results("long", me, opp, (5, 2)) != {(me, opp)}
    low = side({3: 1, 2: 1})
    v = judge(R, low, opp, Dice.roll(6, 5), [(3, 0), (2, 0)])
    assert rule_of(v) == "bear-off-inexact" and "exact" in problem_text(R, v.problems[0])
    assert legal_results(V, low, opp, (6, 5)) == {(low, opp)}
    assert legal_results("long", low, opp, (6, 5)) == {((0,) * 25, opp)}


def test_handover_neither_number_playable():
    # seed 002: 3-4 and the mover can use neither: the opponent plays 3 and 4, then rolls
    opp = theirs({21: 1, 20: 1})
    log, (me2, opp2) = run_turn(R, START, opp, (4, 3))
    assert [(k, p, n) for k, p, n, _, _ in log] == [("roll", ROLLER, (4, 3)), ("handover", OPPONENT, (4, 3))]
    assert log[0][4] == 0 and log[1][4] == 2
    assert log[1][3] == (0, 1)            # one checker off the opponent's head in the handover
    assert me2 == START and sum(a * (i + 1) for i, a in enumerate(opp2)) == \
        sum(a * (i + 1) for i, a in enumerate(opp)) - 7


def test_handover_three_playable_four_not():
    # the mover can use 3 but not 4: the mover plays 3, the opponent plays 4, then rolls
    opp = theirs({20: 1, 17: 1})
    log, (me2, _) = run_turn(R, START, opp, (4, 3))
    assert [(k, p, n) for k, p, n, _, _ in log] == [("roll", ROLLER, (4, 3)), ("handover", OPPONENT, (4,))]
    assert me2 == side({24: 14, 21: 1})


def test_numbers_neither_side_can_use_are_lost():
    # both sides bearing off with checkers on 1 and 2 only: a 4-3 bears off nothing (exact only) and
    # nothing may move inside home, so the mover hands 4-3 over, the opponent cannot use it either
    me = side({1: 7, 2: 8})
    opp = side({1: 7, 2: 8})
    log, pos = run_turn(R, me, opp, (4, 3))
    assert [(k, p, n, m) for k, p, n, _, m in log] == [("roll", ROLLER, (4, 3), 0),
                                                       ("handover", OPPONENT, (4, 3), 0)]
    assert pos == (me, opp)


@pytest.mark.parametrize("start", [1, 3, 6])
def test_chain_order(start):
    me = side({24: 5, 22: 2, 20: 2, 19: 2, 17: 2, 15: 2})
    opp = side({24: 5, 22: 2, 20: 2, 19: 2, 17: 2, 15: 2})
    log, _ = run_turn(R, me, opp, (start, start))
    doubles = [n[0] for k, p, n, _, _ in log if p == ROLLER]
    assert doubles == list(range(start, 7))
    assert [k for k, p, _, _, _ in log if p == ROLLER] == ["roll"] + ["chain"] * (6 - start)
    for k, p, n, _, _ in log:
        if p == ROLLER:
            assert len(n) == 4
        else:
            assert k == "handover" and 1 <= len(n) <= 4


def test_plain_doubles_before_chain_from_turn():
    rules = get_variant(V, {"chain_from_turn": 4}).rules
    me = side({24: 5, 22: 2, 20: 2, 19: 2, 17: 2, 15: 2})
    log, _ = run_turn(rules, me, me, (2, 2), roll_number=3)
    assert [k for k, p, *_ in log if p == ROLLER] == ["roll"]
    log, _ = run_turn(rules, me, me, (2, 2), roll_number=4)
    assert [n[0] for k, p, n, *_ in log if p == ROLLER] == [2, 3, 4, 5, 6]
    # plain (non-chain) doubles still hand over what they cannot use
    log, _ = run_turn(rules, START, START, (6, 6), roll_number=2)
    assert [(k, p) for k, p, *_ in log] == [("roll", ROLLER), ("handover", OPPONENT)]


def test_chain_from_1_1_with_handovers_inside_and_one_head_checker():
    """Not a first turn: one checker may leave the head over the whole chain.  It walks 24 -> 20 (1s),
    then 18, 16, 14 (the 2s: the fourth 2 would land on the opponent's head at 12, so it is handed
    over), then the 3s, and so on; each number it cannot use goes to the opponent."""
    log, (me2, _opp2) = run_turn(R, START, START, (1, 1))
    kinds = [(k, p, n) for k, p, n, _, _ in log]
    assert kinds[0] == ("roll", ROLLER, (1, 1, 1, 1))
    assert kinds[1] == ("chain", ROLLER, (2, 2, 2, 2))
    assert kinds[2] == ("handover", OPPONENT, (2,))
    assert me2[23] == 14                          # one checker left the head in the whole chain
    assert [n[0] for k, p, n in kinds if p == ROLLER] == [1, 2, 3, 4, 5, 6]
    # the chain's head allowance carries over: later segments start with the head already used
    assert all(t == (1, 1) for k, p, _, t, _ in log if k == "chain")
    # each handover gets its own allowance of one, never the first-turn exception
    assert all(t == (0, 1) for k, p, _, t, _ in log if k == "handover")


def test_first_turn_3_3_chain_allows_two_head_checkers_over_the_chain():
    log, (me2, _) = run_turn(R, START, START, (3, 3), first_turn=True)
    assert log[0][3] == (0, 2)
    assert me2[23] == 13                          # two left the head, no more over 3s, 4s, 5s, 6s
    assert [n[0] for k, p, n, *_ in log if p == ROLLER] == [3, 4, 5, 6]


def test_handover_never_gets_the_first_turn_exception():
    # the opponent has not rolled yet; the 6s handed over let one checker off their head, not two
    log, (me2, opp2) = run_turn(R, START, START, (6, 6), roll_number=1, first_turn=True)
    assert [(k, p, n) for k, p, n, _, _ in log] == [("roll", ROLLER, (6, 6, 6, 6)),
                                                     ("handover", OPPONENT, (6, 6))]
    assert log[1][3] == (0, 1) and log[1][4] == 1
    assert me2 == side({24: 13, 18: 2}) and opp2 == side({24: 14, 18: 1})


def test_game_over_stops_the_driver():
    me = side({1: 1})
    drv = R.turn_segments(1, 1, False, 9)
    spec = drv.next(me, START)
    assert spec.kind == "roll"
    drv.played((1,))                  # bears off the last checker: the game is over
    assert drv.next((0,) * 25, START) is None


def test_variant_names():
    for name in ("gulbara", "gul bara", "Gul Bara", "gul-bara"):
        assert get_variant(name).name == "gulbara"
    assert get_variant("gulbara", {"chain_from_turn": 3}).rules.chain_from_turn == 3


def test_generate_and_judge_take_any_tuple_of_numbers():
    """A handover hands over 1 to 4 numbers: generate() and judge() play them as they are."""
    me = side({24: 10, 20: 5})
    opp = theirs({})
    one = generate(R, me, opp, (4,), (0, 1))
    assert one.dice == (4,) and one.max_dice == 1
    three = generate(R, me, opp, (5, 5, 5), (0, 1))
    assert three.dice == (5, 5, 5) and three.max_dice == 3
    assert generate(R, me, opp, Dice.roll(5, 5).numbers, (0, 1)).dice == (5, 5, 5, 5)
    two = generate(R, me, opp, (3, 4), (0, 1))
    assert set(two.plays) == set(generate(R, me, opp, Dice.roll(4, 3).numbers, (0, 1)).plays)
    v = judge(R, me, opp, Dice.of((5, 5, 5)), [(20, 15), (20, 15), (15, 10)], turn=(0, 1))
    assert v.legal and sorted(v.used) == [5, 5, 5]
    v = judge(R, me, opp, Dice.of((5, 5, 5)), [(20, 15), (20, 15)], turn=(0, 1))
    assert v.problems[0][0] == "max-dice" and "3 of the three 5s" in problem_text(R, v.problems[0])


def test_dice_splits_do_not_explode():
    """Sixteen numbers (a whole 1-1 chain's worth) split a movement without trying every permutation."""
    from itertools import permutations

    from nardy_analyze.engine.judge import _dice_splits
    many = (1,) * 4 + (2,) * 4 + (3,) * 4 + (4,) * 4
    splits = list(_dice_splits(many, 24, 14))
    assert splits and all(sum(s) == 10 for s in splits)
    assert len(splits) == len(set(splits))
    assert [len(s) for s in splits] == sorted(len(s) for s in splits)
    # the same answer as the brute force on a small case, in the same order
    small, seen, brute = (3, 1, 2, 1), set(), []
    for k in range(1, 5):
        for seq in permutations(small, k):
            if seq not in seen:
                seen.add(seq)
                if sum(seq) == 4:
                    brute.append(seq)
    assert list(_dice_splits(small, 10, 6)) == brute
