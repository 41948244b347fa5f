"""Snowie's ``Illegal play (...)`` marks: the position record in the mark decoded, the replay going on
from its board, and every notation keeping the mark (docs/mat-format.md, docs/rules.md "Exporters'
marks").  The records are written here in the exporter's own layout: the mark in the left column, 40
fields separated by ``;`` with a trailing ``;``.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from nardy_analyze import analyze, notation; from nardy_analyze.notation import snowie
from nardy_analyze.engine.backgammon import Backgammon
from nardy_analyze.generate import generate_match
from nardy_analyze.notation import mat
from helpers import without_unfinished_match
from nardy_analyze.replay import ERROR, WARNING, Events, ReplayVisitor, replay
from nardy_analyze.engine import get_variant
from nardy_analyze.convert import write_text

R = Backgammon()


def encode(own, other, names, score=(0, 0), dice=(0, 0), length=7, cube=1, owner=0) -> str:
    """The exporter's layout (the board seen from ``names[0]``): field 12 the other's bar, negative;
    13..36 points 1..24; 37 the own bar."""
    f = [length, 0, 0, 0 if length else 1, 1, names[0], names[1], 0, score[0], score[1], cube, owner,
         -other[24]]
    f += [own[i] if own[i] else -other[23 - i] for i in range(24)]
    f += [own[24], dice[0], dice[1]]
    return "Illegal play (" + ";".join(map(str, f)) + ";)"


# Alice has two checkers on her 10-point and plays 10/6(2) on a 54, which no legal 54 reaches; her
# later plays need the five checkers this leaves on her 6-point.
MARK = ("Illegal play (7;0;0;0;1;Alice;Bob;0;0;0;1;0;0;-2;0;0;0;3;5;1;2;0;0;0;-3;2;-1;0;0;-1;-2;-3;-1;-2;0;0;"
        "2;0;5;2;)")
RECORD = f"""\
 7 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 63: 13/7 13/10              21: 13/11 6/5
  3) 31: 13/10 6/5               61: 13/7 8/7
  4) 54: {MARK} 52: 13/8 13/11
  5) 11: 6/5(4)                  63: 13/7 11/8
  6) 31: 6/3 8/7                 21: 8/6 7/6
  7)  Doubles => 2                Drops
      Wins 1 point
"""


def validate(text: str, path: str = "snowie.mat"):
    """The findings of a short hand-written excerpt, without the unfinished-match warning (tested on its
    own in test_consistency.py)."""
    return without_unfinished_match(analyze.validate_match(notation.read_text(text, path)))


def found(rep):
    return [(f.rule, f.severity, f.line) for f in rep.findings]


def before_mark():
    """Alice's and Bob's sides before the mark (from the legal plays of rows 1-3)."""
    a, b = R.initial()
    for me_first, steps in ((True, [(8, 5), (6, 5)]), (False, [(8, 4), (6, 4)]), (True, [(13, 7), (13, 10)]),
                            (False, [(13, 11), (6, 5)]), (True, [(13, 10), (6, 5)]), (False, [(13, 7), (8, 7)])):
        for s, d in steps:
            if me_first:
                a, b, _ = R.apply(a, b, s, d)
            else:
                b, a, _ = R.apply(b, a, s, d)
    return a, b


def test_the_mark_is_snowies_position_record():
    a, b = before_mark()
    a2, b2 = a, b
    for s, d in ((10, 6), (10, 6)):
        a2, b2, _ = R.apply(a2, b2, s, d)
    assert encode(a2, b2, ("Alice", "Bob"), dice=(5, 2)) == MARK
    pos = snowie.decode(MARK)
    assert pos is not None
    assert (pos.match_length, pos.names, pos.score, pos.cube, pos.owner, pos.dice) == \
        (7, ("Alice", "Bob"), (0, 0), 1, 0, (5, 2))
    assert snowie.boards(pos)[0] == (a2, b2)
    assert snowie.follows(a, b, a2, b2) and snowie.describe(a, b, a2) == "10/6(2)"


@pytest.mark.parametrize("text", [
    "Illegal play", "Illegal play ()", "Illegal play (25;0;0;0;0;0;5;0;3;0;0;0;0;5;0;0;0;0;0;0;0;0;0;0;2;0)",
    MARK.replace(";Bob;0;", ";Bob;x;"), MARK.replace("5;2;)", "5;)"), MARK.replace(";5;1;2;", ";9;9;9;"),
])
def test_what_is_not_a_position_record(text):
    assert snowie.decode(text) is None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), flip=st.booleans())
def test_decode_gives_back_any_position_of_a_generated_game(seed, flip):
    m = generate_match("backgammon", 1, seed, ("Ann", "Bob"))
    states = []

    class States(ReplayVisitor):
        wants = Events.STATES

        def action_state(self, state):
            states.append(state)

    replay(m, get_variant("backgammon"), visitor=States())
    st_ = random.Random(seed).choice(states)
    own, other = st_.after if not flip else (st_.after[1], st_.after[0])
    names = ("Ann", "Bob") if not flip else ("Bob", "Ann")
    pos = snowie.decode(encode(own, other, names, dice=(3, 1)))
    assert pos is not None and pos.names == names
    assert snowie.boards(pos)[0] == (own, other)


def test_the_illegal_play_that_stood_is_an_error_under_the_rule_it_breaks(english):
    """No legal 54 reaches the mark's board (10/6(2)): the illegal play stood, the game went on from that
    board.  An error at the mark, under the rule the play the board shows breaks (the second 10/6 needs a
    4 the roll no longer has), saying that the record marks it; the replay goes on from that board."""
    rep = validate(RECORD)
    assert found(rep) == [("dice-mismatch", ERROR, 8)], [f.message for f in rep.findings]
    f = rep.findings[0]
    assert (f.game, f.column, f.dice) == (1, 6, (5, 4))
    assert f.message.startswith("10/6 moves 4 pips, which no unused number of the roll 54 makes (unused: 5)")
    assert "the play 10/6(2) that the board in the record's mark shows" in f.message
    assert "the record marks it as illegal" in f.message and "went on from that board" in f.message
    a, b = before_mark()
    assert f.position == (a, b)                         # the board before the play
    g = rep.games[0]
    assert (g.winner, g.points) == (0, 1)               # the plays after it are legal from the mark's board


def test_the_board_seen_from_the_other_player():
    a, b = before_mark()
    a2, b2 = a, b
    for s, d in ((10, 6), (10, 6)):
        a2, b2, _ = R.apply(a2, b2, s, d)
    text = RECORD.replace(MARK, encode(b2, a2, ("Bob", "Alice"), dice=(5, 2)))
    rep = validate(text)
    assert found(rep) == [("dice-mismatch", ERROR, 8)], [f.message for f in rep.findings]
    assert "10/6(2)" in rep.findings[0].message


def test_a_mark_whose_board_reaches_a_legal_play_says_so():
    a, b = before_mark()
    a2, b2 = a, b
    for s, d in ((10, 6), (10, 5)):
        a2, b2, _ = R.apply(a2, b2, s, d)
    text = RECORD.replace(MARK, encode(a2, b2, ("Alice", "Bob"))).replace("5) 11: 6/5(4)", "5) 11: 6/5(3) 5/4")
    rep = validate(text)
    assert found(rep)[0] == ("parse-error", WARNING, 8)
    assert "which a legal 54 reaches (10/5 10/6)" in rep.findings[0].message \
        or "which a legal 54 reaches (10/6 10/5)" in rep.findings[0].message


def test_a_board_that_does_not_follow_falls_back_to_the_plays_that_follow():
    # Bob's checkers moved in the mark (his 13-point emptied): not the board after Alice's play
    bad = MARK.replace(";-3;2;-1;", ";0;2;-1;")
    assert snowie.decode(bad) is not None
    rep = validate(RECORD.replace(MARK, bad))
    first = rep.findings[0]
    assert (first.rule, first.severity, first.line) == ("parse-error", WARNING, 8)
    assert "does not follow from the board before the play" in first.message
    # no legal 54 leaves five checkers on the 6-point: the play after is an error, as it should be
    assert ("no-checker", ERROR, 10) in found(rep)


def test_without_a_record_the_legal_play_fitting_the_most_following_rolls():
    """Every legal 54 fits Bob's next roll; only 10/5 10/6 fits Alice's three plays after it."""
    text = f"""\
 7 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 63: 13/7 13/10              21: 13/11 6/5
  3) 31: 13/10 6/5               61: 13/7 8/7
  4) 54: Illegal play            52: 13/8 13/11
  5) 11: 6/5(4)                  63: 13/7 11/8
  6) 22: 5/3(4)                  21: 8/6 7/6
  7) 11: 5/4(4)                  31: 8/5 6/5
  8)  Doubles => 2                Drops
      Wins 1 point
"""
    rep = validate(text)
    assert found(rep) == [("parse-error", WARNING, 8)], [f.message for f in rep.findings]
    msg = rep.findings[0].message
    assert "holds no position record" in msg
    assert "fit 10/5 10/6 best" in msg or "fit 10/6 10/5 best" in msg


@pytest.mark.parametrize("to", ["mat", "sgf", "ngn", "json"])
def test_convert_keeps_the_mark_and_never_writes_a_play(tmp_path, to):
    src = tmp_path / "snowie.mat"
    src.write_text(RECORD, encoding="utf-8")
    m = notation.read_path(src)
    text = write_text(m, to)
    assert MARK in text.replace('\\"', '"')
    assert "10/6" not in text and "6/10" not in text    # the play the mark's board shows is never written
    back = notation.read_text(text, f"back.{to}", to)
    a = [x for x in back.games[0].actions if x.illegal_mark]
    assert len(a) == 1 and a[0].illegal_mark == MARK and a[0].steps == [] and a[0].dice == (5, 4)
    rep = without_unfinished_match(analyze.validate_match(back))
    assert [(f.rule, f.severity) for f in rep.findings] == [("dice-mismatch", ERROR)]
    assert "10/6(2)" in rep.findings[0].message
    # a mark with no position record is kept as well
    bare = notation.read_text(RECORD.replace(MARK, "Illegal play"), "bare.mat")
    again = notation.read_text(write_text(bare, to), f"again.{to}", to)
    assert [x.illegal_mark for x in again.games[0].actions if x.illegal_mark] == ["Illegal play"]


def test_convert_command_keeps_the_findings(tmp_path):
    from typer.testing import CliRunner
    from nardy_analyze.cli import app
    src = tmp_path / "snowie.mat"
    src.write_text(RECORD, encoding="utf-8")
    runner = CliRunner()
    want = [(f.rule, f.severity) for f in validate(RECORD).findings]
    for to in ("mat", "sgf", "ngn", "json"):
        out = tmp_path / f"out.{to}"
        r = runner.invoke(app, ["convert", str(src), "--to", to, "-o", str(out)])
        assert r.exit_code == 0, r.output
        rep = without_unfinished_match(analyze.validate_match(notation.read_path(out)))
        assert [(f.rule, f.severity) for f in rep.findings] == want, to


def test_the_mark_is_part_of_the_record():
    from nardy_analyze.record import record_dict, same_record
    a = notation.read_text(RECORD, "a.mat")
    b = notation.read_text(RECORD.replace(MARK, "Illegal play"), "b.mat")
    assert not same_record(a, b)
    for to in ("sgf", "ngn", "json", "mat"):
        back = notation.read_text(write_text(a, to), f"back.{to}", to)
        x, y = (record_dict(g.games[0].actions[6]) for g in (a, back))
        x.pop("move"), y.pop("move")            # SGF has no move numbers
        assert x == y, to


def test_a_mark_showing_the_board_before_the_play():
    a, b = before_mark()
    rep = validate(RECORD.replace(MARK, encode(a, b, ("Alice", "Bob"), dice=(5, 4))))
    assert found(rep)[0] == ("parse-error", WARNING, 8)
    assert "the position in the mark is the board before the play" in rep.findings[0].message


def test_a_mark_whose_board_leaves_a_number_unplayed_is_a_max_dice_error(english):
    """The board in the mark shows 10/6 alone on a 54 that could be played whole: max-dice, at the mark."""
    a, b = before_mark()
    a2, b2, _ = R.apply(a, b, 10, 6)
    text = RECORD.replace(MARK, encode(a2, b2, ("Alice", "Bob"), dice=(5, 4))).replace(
        "5) 11: 6/5(4)", "5) 11: 10/9 6/5(3)")
    rep = validate(text)
    assert found(rep)[0] == ("max-dice", ERROR, 8), [f.message for f in rep.findings]
    assert "10/6" in rep.findings[0].message and "record marks it as illegal" in rep.findings[0].message


def test_the_positions_after_the_mark_are_not_said_to_be_off(english):
    """The mark's board is the game's own: an error after it does not carry "the position may be off"."""
    text = RECORD.replace("5) 11: 6/5(4)", "5) 11: 6/5(3) 24/22")
    rep = validate(text)
    later = [f for f in rep.findings if f.line > 8 and f.severity == ERROR]
    assert later and all("may be off" not in f.message for f in later), [f.message for f in later]
