"""Replay-level scenarios for the long-nardy and Gul bara rule ids (docs/rules.md, long nardy and Gul bara) and the
turn model (a roll and its segments, walked by the variant's turn driver).

Each test writes a record as record-model objects (``replay_builder.Rec``), replays it through
``replay.replay`` and asserts the findings: the record that breaks the rule gives exactly that rule at
that line, and the nearest legal record gives none.  Plays are real legal plays asked of the engine
(``play_turn``) wherever the scenario does not fix them.
"""
from __future__ import annotations

import copy

import pytest
from helpers import side
from replay_builder import Rec, errors, play_turn, steps

from nardy_analyze.engine.core import Dice
from nardy_analyze.engine import generate, get_variant
from nardy_analyze.record import Kind, Segment
from nardy_analyze.replay import Events, ReportBuilder

LONG = get_variant("long").rules
GUL = get_variant("gulbara").rules


def first_turn_action(rules, d: int, p: int = 0):
    pos = list(rules.initial())
    return play_turn(rules, pos, p, (d, d), True, 1), pos


# ----------------------------------------------------------------------------- head rule


@pytest.mark.parametrize("variant", ["long", "gulbara"])
@pytest.mark.parametrize("d", [6, 4, 3])
def test_first_turn_exception_doubles_let_two_checkers_leave_the_head(variant, d):
    rules = get_variant(variant).rules
    a, _ = first_turn_action(rules, d)
    assert sum(s.src == 24 for s in a.steps) == 2         # the engine's legal play uses the exception
    r = Rec(variant)
    r.add(a)
    assert errors(r.run()) == []
    # a third checker off the head is too many even on the first turn
    r = Rec(variant)
    bad = r.roll(0, (d, d), " ".join([f"24/{24 - d}"] * 3))
    assert errors(r.run())[0] == ("head-rule", bad.loc.line)


@pytest.mark.parametrize("d", [1, 2, 5])
def test_no_exception_for_1_1_2_2_5_5(d):
    r = Rec("long")
    a, _ = first_turn_action(LONG, d)
    r.add(a)
    assert errors(r.run()) == []                           # one checker from the head runs all four
    r = Rec("long")
    bad = r.roll(0, (d, d), f"24/{24 - d} 24/{24 - d} {24 - d}/{24 - 2 * d} {24 - d}/{24 - 2 * d}")
    assert errors(r.run()) == [("head-rule", bad.loc.line)]


def test_no_exception_on_a_later_turn():
    rules = LONG
    pos = list(rules.initial())
    r = Rec("long")
    r.add(play_turn(rules, pos, 0, (5, 2), True, 1))
    r.add(play_turn(rules, pos, 1, (4, 1), True, 2))
    bad = r.roll(0, (6, 6), "24/18 24/18")                 # Alice's second turn
    assert errors(r.run()) == [("head-rule", bad.loc.line)]
    r.actions[-1] = None
    r.actions.pop()
    r.add(play_turn(rules, pos, 0, (6, 6), False, 3))
    assert errors(r.run()) == []


def test_head_rule_in_a_handover_counts_on_its_own_and_has_no_first_turn_exception():
    # Alice opens 6-6 in Gul bara: two checkers reach 18 and 18/12 is blocked by Bob's head; Bob plays
    # the two handed-over 6s: one checker may leave his head (the handover is not his first turn).
    a, _ = first_turn_action(GUL, 6)
    assert [(g.kind, g.player, g.dice) for g in a.segments] == [("handover", 1, (6, 6))]
    r = Rec("gulbara")
    r.add(a)
    assert errors(r.run()) == []
    r = Rec("gulbara")
    act = r.roll(0, (6, 6), "24/18 24/18", [("handover", 1, (6, 6), "24/18 24/18")])
    assert errors(r.run()) == [("head-rule", act.segments[0].loc.line)]
    # and Bob's own first roll after it still has the exception
    r = Rec("gulbara")
    pos = list(GUL.initial())
    r.add(play_turn(GUL, pos, 0, (6, 6), True, 1))
    bob = r.add(play_turn(GUL, pos, 1, (4, 4), True, 2))
    assert sum(s.src == 24 for s in bob.steps) == 2
    assert errors(r.run()) == []


def test_a_handover_is_not_the_opponents_turn_no_rolls_twice_warning_no_roll_event():
    r = Rec("gulbara")
    r.roll(0, (6, 6), "24/18 24/18", [("handover", 1, (6, 6), "24/18")])
    r.roll(1, (3, 1), "24/21 21/20")
    turns = []

    class Rows(ReportBuilder):
        wants = Events.TURNS | Events.ENDS

        def turn(self, row):
            turns.append(row)

        def game_end(self, end):
            pass

    rep = r.run(observer=Rows())
    assert [f for f in rep.findings if f.rule == "parse-error"] == []
    assert [t.side for t in turns if t.dice is not None] == [0, 1]      # one turn row per roll
    assert rep.games[0].turns == 2


# ----------------------------------------------------------------------------- six-block

# Alice (mover) holds a five-point run; Bob's checkers all behind it (on his head, Alice's 12).
def _block_position(run, extra, bob=None):
    me = {p: 1 for p in run}
    me.update(extra)
    me_side = side(me)
    opp = side(bob or {24: 15})
    return me_side, opp


@pytest.mark.parametrize("variant", ["long", "gulbara"])
def test_six_block_refused_five_run_allowed_and_allowed_once_a_checker_is_past(variant):
    run = [20, 19, 18, 17, 16]
    me, opp = _block_position(run, {24: 9, 22: 1})
    # 24/21 22/21 makes 21..16 (six in a row, in either order) with every Bob checker behind the block
    r = Rec(variant)
    bad = r.roll(0, (3, 1), "24/21 22/21")
    assert errors(r.run(start=(me, opp)))[0] == ("six-block", bad.loc.line)
    # the nearest legal play: a five-run stays (20 left open)
    r = Rec(variant)
    r.roll(0, (3, 1), "20/17 22/21")
    assert errors(r.run(start=(me, opp))) == []
    # with one of Bob's checkers past the block (his 2 = Alice's 14) the same six-block is allowed
    me2, opp2 = _block_position(run, {24: 9, 22: 1}, {24: 14, 2: 1})
    r = Rec(variant)
    r.roll(0, (3, 1), "24/21 22/21")
    assert errors(r.run(start=(me2, opp2))) == []


def test_seven_run_refused_and_the_run_across_1_to_24():
    # Across the board's edge: Alice holds 3, 2, 1, 24, 23; 24/22 would make 3..22 on Bob's route
    # (his 15..10) with all Bob's checkers on his head (Alice's 12), behind it.
    me = side({3: 1, 2: 1, 1: 1, 24: 5, 23: 1, 20: 6})
    opp = side({24: 15})
    r = Rec("long")
    bad = r.roll(0, (2, 1), "24/22 20/19")
    assert errors(r.run(start=(me, opp)))[0] == ("six-block", bad.loc.line)
    r = Rec("long")
    r.roll(0, (2, 1), "20/18 20/19")
    assert errors(r.run(start=(me, opp))) == []
    # a seven-run: 23..17 held but 19, filling it makes seven in a row
    me = side({23: 1, 22: 1, 21: 1, 20: 1, 18: 1, 17: 1, 24: 8, 10: 1})
    r = Rec("long")
    bad = r.roll(0, (5, 1), "24/19 10/9")
    assert errors(r.run(start=(me, opp)))[0] == ("six-block", bad.loc.line)


# ----------------------------------------------------------------------------- home and bear-off


def test_home_move_in_gulbara_but_not_in_long_nardy():
    me = side({6: 5, 5: 5, 4: 5})
    opp = side({24: 15})
    r = Rec("gulbara")
    bad = r.roll(0, (4, 2), "6/2 6/4")
    assert errors(r.run(start=(me, opp)))[0] == ("home-move", bad.loc.line)
    r = Rec("gulbara")
    r.roll(0, (4, 2), "4/off", [("handover", 1, (2,), "24/22")])   # 2 has no exact checker: handed over
    assert errors(r.run(start=(me, opp))) == []
    r = Rec("long")
    r.roll(0, (4, 2), "6/2 6/4")                                  # inside home is allowed in long nardy
    assert errors(r.run(start=(me, opp))) == []


def test_bear_off_exact_larger_and_inexact():
    me = side({3: 5, 2: 5, 1: 5})
    opp = side({24: 15})
    # long nardy: a 6 bears off from the highest point when none stands higher
    r = Rec("long")
    r.roll(0, (6, 5), "3/off 3/off")
    assert errors(r.run(start=(me, opp))) == []
    # Gul bara: only the exact number -- 6-5 cannot bear off, the numbers go to Bob
    r = Rec("gulbara")
    bad = r.roll(0, (6, 5), "3/off 3/off")
    assert errors(r.run(start=(me, opp)))[0] == ("bear-off-inexact", bad.loc.line)
    r = Rec("gulbara")
    bob = side({24: 14, 11: 1})
    r.roll(0, (6, 5), "", [("handover", 1, (6, 5), "24/18 11/6")])
    assert errors(r.run(start=(me, bob))) == []
    r = Rec("gulbara")
    r.roll(0, (3, 2), "3/off 2/off")
    assert errors(r.run(start=(me, opp))) == []
    # long nardy: a larger number while a checker stands higher is inexact
    me = side({6: 2, 2: 13})
    r = Rec("long")
    bad = r.roll(0, (4, 1), "2/off 6/5")
    assert errors(r.run(start=(me, opp)))[0] == ("bear-off-inexact", bad.loc.line)
    r = Rec("long")
    r.roll(0, (4, 1), "6/2 6/5")
    assert errors(r.run(start=(me, opp))) == []


# ----------------------------------------------------------------------------- handover (seed examples)

# Alice's checkers on her 20 face Bob's checkers on her 17 and 16 (his 5 and 4): neither 3 nor 4 moves.
NEITHER = (side({20: 15}), side({5: 1, 4: 1, 10: 13}))
# Alice can play the 3 (9/6) but then no 4: 9-4 = 5 and 6-4 = 2 are Bob's (his 17 and 14), and 20's
# numbers are blocked as above.
THREE_ONLY = (side({20: 14, 9: 1}), side({5: 1, 4: 1, 17: 1, 14: 1, 10: 11}))


def test_seed_example_neither_number_playable_both_handed_over():
    assert generate(GUL, *NEITHER, Dice.roll(4, 3).numbers).max_dice == 0
    r = Rec("gulbara")
    r.roll(0, (4, 3), "", [("handover", 1, (4, 3), "10/6 10/7")])
    r.roll(1, (2, 1), "10/9 9/7")                         # then Bob rolls, as usual
    assert errors(r.run(start=NEITHER)) == []
    # not handed over although Bob could play them
    r = Rec("gulbara")
    bad = r.roll(0, (4, 3), "")
    r.roll(1, (2, 1), "10/9 9/7")
    assert errors(r.run(start=NEITHER)) == [("handover", bad.loc.line)]
    # played by the wrong side
    r = Rec("gulbara")
    a = r.roll(0, (4, 3), "", [("handover", 0, (4, 3), "20/16 20/17")])
    assert errors(r.run(start=NEITHER))[0] == ("handover", a.segments[0].loc.line)
    # numbers that do not match what was left
    r = Rec("gulbara")
    a = r.roll(0, (4, 3), "", [("handover", 1, (4,), "10/6")])
    assert errors(r.run(start=NEITHER))[0] == ("handover", a.segments[0].loc.line)
    # the handover play follows the maximum-dice rule
    r = Rec("gulbara")
    a = r.roll(0, (4, 3), "", [("handover", 1, (4, 3), "10/6")])
    assert errors(r.run(start=NEITHER)) == [("max-dice", a.segments[0].loc.line)]


def test_seed_example_three_playable_four_handed_over():
    assert generate(GUL, *THREE_ONLY, Dice.roll(4, 3).numbers).max_dice == 1
    r = Rec("gulbara")
    r.roll(0, (4, 3), "9/6", [("handover", 1, (4,), "10/6")])
    assert errors(r.run(start=THREE_ONLY)) == []
    # the 3 handed over too although Alice could play it
    r = Rec("gulbara")
    bad = r.roll(0, (4, 3), "", [("handover", 1, (4, 3), "10/6 10/7")])
    assert errors(r.run(start=THREE_ONLY)) == [("handover", bad.loc.line)]
    # Alice plays the 3 and the 4 is left with no handover, though Bob can play it
    r = Rec("gulbara")
    bad = r.roll(0, (4, 3), "9/6")
    assert errors(r.run(start=THREE_ONLY)) == [("handover", bad.loc.line)]
    # in long nardy the 4 is simply lost
    r = Rec("long")
    r.roll(0, (4, 3), "9/6")
    assert errors(r.run(start=THREE_ONLY)) == []


def test_numbers_neither_side_can_use_are_lost_written_or_not():
    # a full lock: Alice's 20 and 21 face Bob's 4, 5, 6; Bob's 12 faces Alice's 20 and 21 (his 8, 9),
    # and his home checkers are frozen (Gul bara) with no bear-off yet
    me, opp = side({20: 14, 21: 1}), side({6: 1, 5: 1, 4: 1, 12: 12})
    assert generate(GUL, me, opp, Dice.roll(4, 3).numbers).max_dice == 0 and generate(GUL, opp, me, Dice.roll(4, 3).numbers).max_dice == 0
    r = Rec("gulbara")
    r.roll(0, (4, 3), "")
    assert errors(r.run(start=(me, opp))) == []
    r = Rec("gulbara")
    r.roll(0, (4, 3), "", [("handover", 1, (4, 3), "")])    # written with nothing played: the same
    assert errors(r.run(start=(me, opp))) == []


# ----------------------------------------------------------------------------- doubles chain


@pytest.mark.parametrize("d", [1, 3, 6])
def test_chains_from_1_1_3_3_and_6_6(d):
    a, _ = first_turn_action(GUL, d)
    r = Rec("gulbara")
    r.add(a)
    assert errors(r.run()) == []
    chain = [g.dice[0] for g in a.segments if g.kind == "chain"]
    assert chain == sorted(chain) and all(x > d for x in chain)


def test_handover_inside_a_chain():
    a, _ = first_turn_action(GUL, 1)
    kinds = [g.kind for g in a.segments]
    assert "handover" in kinds and kinds.index("handover") < len(kinds) - 1 and "chain" in kinds[kinds.index("handover"):]
    r = Rec("gulbara")
    r.add(copy.deepcopy(a))
    assert errors(r.run()) == []
    # the handover inside the chain given to the roller instead
    b = copy.deepcopy(a)
    i = kinds.index("handover")
    b.segments[i].player = 0
    r = Rec("gulbara")
    r.add(b)
    assert errors(r.run())[0] == ("handover", b.segments[i].loc.line)


def test_chain_cut_short_out_of_order_and_past_6_6():
    a, _ = first_turn_action(GUL, 3)
    # cut short: the 5-5 (and what follows) left out although Alice can play 5s
    b = copy.deepcopy(a)
    k = next(i for i, g in enumerate(b.segments) if g.kind == "chain" and g.dice[0] == 5)
    b.segments = b.segments[:k]
    r = Rec("gulbara")
    r.add(b)
    found = errors(r.run())
    assert found and found[0][0] == "doubles-chain" and found[0][1] == b.segments[-1].loc.line
    # out of order: 5-5 written before 4-4
    b = copy.deepcopy(a)
    b.segments[0], b.segments[1] = b.segments[1], b.segments[0]
    r = Rec("gulbara")
    r.add(b)
    found = errors(r.run())
    assert found[0][0] == "doubles-chain"
    # continued past 6-6
    b = copy.deepcopy(a)
    b.segments.append(Segment("chain", 0, (6, 6, 6, 6), steps(""), None, ""))
    r = Rec("gulbara")
    r.add(b)
    assert errors(r.run()) == [("doubles-chain", b.segments[-1].loc.line)]
    # a chain in long nardy, or after a plain roll
    r = Rec("long")
    act = r.roll(0, (5, 2), "24/19 19/17", [("chain", 0, (3, 3, 3, 3), "")])
    assert errors(r.run()) == [("doubles-chain", act.segments[0].loc.line)]


def test_chain_from_turn_option_plays_plain_doubles_early():
    a, _ = first_turn_action(GUL, 4)
    assert a.segments                                       # a chain from the first roll by default
    rules = get_variant("gulbara", {"chain_from_turn": 4}).rules
    pos = list(rules.initial())
    plain = play_turn(rules, pos, 0, (4, 4), True, 1)
    assert plain.segments == []
    r = Rec("gulbara", {"ChainFromTurn": "4"})
    r.add(copy.deepcopy(plain))
    assert errors(r.run()) == []
    r = Rec("gulbara")                                      # default: the chain is missing
    r.add(copy.deepcopy(plain))
    assert errors(r.run())[0][0] == "doubles-chain"
    r = Rec("gulbara", {"ChainFromTurn": "4"})              # option on: a chain written is one too many
    b = r.add(copy.deepcopy(a))
    assert errors(r.run())[0] == ("doubles-chain", b.segments[0].loc.line)


# ----------------------------------------------------------------------------- results and openings


def test_long_opening_double_allowed_backgammon_not():
    r = Rec("long")
    a, _ = first_turn_action(LONG, 5)
    r.add(a)
    assert errors(r.run()) == []


@pytest.mark.parametrize("variant", ["long", "gulbara"])
def test_oin_mars_koks(variant):
    me = side({1: 1})
    mars = side({24: 15})                      # Bob bore off none; none in Alice's home (his 13-18)
    koks = side({24: 14, 15: 1})               # ... one of his checkers still in Alice's home (his 15)
    oin = side({1: 14})
    for bob, koks_on, pts in [(oin, False, 1), (mars, False, 2), (koks, False, 2), (koks, True, 3),
                              (mars, True, 2)]:
        for declared in (pts, pts + 1):
            r = Rec(variant, {"Koks": "on" if koks_on else "off"})
            r.roll(0, (1, 1) if variant == "long" else (2, 1), "1/off")
            w = r.cell(Kind.WIN, 0, declared)
            found = errors(r.run(start=(me, bob)))
            if declared == pts:
                assert found == [], (bob, koks_on, declared, found)
            else:
                assert found == [("result-mismatch", w.loc.line)], (bob, koks_on, declared, found)


def test_win_in_a_handover():
    # Alice (all on her 19) can play neither 4 nor 3 (her 15 and 16 are Bob's 3 and 4); Bob bears off
    # his last two checkers with the handed-over numbers and wins a mars (Alice bore off none).
    me, bob = side({19: 15}), side({4: 1, 3: 1})
    assert generate(GUL, me, bob, Dice.roll(4, 3).numbers).max_dice == 0
    r = Rec("gulbara")
    r.roll(0, (4, 3), "", [("handover", 1, (4, 3), "4/off 3/off")])
    r.cell(Kind.WIN, 1, 2)
    rep = r.run(start=(me, bob))
    assert errors(rep) == []
    assert (rep.games[0].winner, rep.games[0].points, rep.games[0].how) == (1, 2, "bearoff")
    r = Rec("gulbara")
    r.roll(0, (4, 3), "", [("handover", 1, (4, 3), "4/off 3/off")])
    w = r.cell(Kind.WIN, 0, 2)
    assert errors(r.run(start=(me, bob))) == [("result-mismatch", w.loc.line)]


def test_handover_written_in_long_nardy_is_a_finding():
    r = Rec("long")
    a = r.roll(0, (6, 5), "24/18 18/13", [("handover", 1, (6,), "24/18")])
    found = r.run().findings
    assert [(f.rule, f.line) for f in found if f.severity == "error"] == [("handover", a.segments[0].loc.line)]
    assert "no handovers" in found[0].message
