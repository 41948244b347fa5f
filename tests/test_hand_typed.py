"""Hand-typed tournament archives (old matches typed from paper): each reading on a record written here in
the archive's own column layout, with the nearest record that must still be an error (docs/rules.md,
"Hand-typed archives"; docs/mat-format.md).
"""
from __future__ import annotations

import pytest

from nardy_analyze import analyze, notation
from nardy_analyze.generate import generate_match
from helpers import without_unfinished_match
from nardy_analyze.replay import ERROR, WARNING
from nardy_analyze.convert import write_text


def validate(text: str, path: str = "typed.mat"):
    """The findings of a short hand-written excerpt, without the unfinished-match warning (tested on its
    own in test_consistency.py)."""
    return without_unfinished_match(analyze.validate_match(notation.read_text(text, path)))


def found(rep):
    return [(f.rule, f.severity, f.line) for f in rep.findings]


def dump(rep) -> str:
    return "\n".join(f"{f.line}:{f.column} {f.rule} {f.severity} {f.message}" for f in rep.findings)


def line_of(text: str, needle: str, nth: int = 1) -> int:
    return [n for n, s in enumerate(text.split("\n"), 1) if needle in s][nth - 1]


OPENING = """\
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 64: 24/18 13/9              21: 13/11 6/5
"""


def game(number: int, a: int, b: int, end: str = "      Wins 1 point\n", rows: str = OPENING) -> str:
    return f"\n Game {number}\n Ann : {a}                        Bob : {b}\n{rows}{end}"


# ============================================================================ game numbers that skip

def test_game_numbers_that_skip_are_an_excerpt():
    text = " 9 point match\n" + game(1, 0, 0) + game(2, 1, 0) + game(6, 4, 3) + game(7, 5, 3)
    rep = validate(text)
    line = line_of(text, "Ann : 4")
    assert found(rep) == [("match-score", WARNING, line)], dump(rep)
    msg = rep.findings[0].message
    assert "Game 6 follows Game 2: games 3-5 are not in the file" in msg and "4-3 is taken as written" in msg
    # the later games are checked from the written score: Game 7 at 5-3 is right, at 6-3 wrong
    bad = text.replace("Ann : 5", "Ann : 6")
    rep = validate(bad)
    assert found(rep)[-1] == ("match-score", ERROR, line_of(bad, "Ann : 6")), dump(rep)
    assert "Game 7: the score line says 6-3" in rep.findings[-1].message


def test_one_game_left_out_and_the_nearest_error():
    text = " 9 point match\n" + game(1, 0, 0) + game(3, 2, 1)
    rep = validate(text)
    assert [f.message.split(":")[0] for f in rep.findings] == ["Game 3 follows Game 2"] or \
        "game 2 is not in the file" in rep.findings[0].message, dump(rep)
    # numbers that follow each other: a wrong score line is an error, with the written game number
    text = " 9 point match\n" + game(4, 0, 0) + game(5, 2, 1)
    rep = validate(text)
    assert found(rep) == [("match-score", ERROR, line_of(text, "Ann : 2"))], dump(rep)
    assert "Game 5" in rep.findings[0].message
    # a score that goes down is never explained by games left out
    text = " 9 point match\n" + game(1, 3, 0) + game(4, 1, 0)
    assert ("match-score", ERROR, line_of(text, "Ann : 1")) in found(validate(text))


# ============================================================================ a game with no written result

def test_a_game_with_no_written_result_then_a_score_line_it_explains():
    text = " 9 point match\n" + game(1, 0, 0, end="") + game(2, 0, 2)
    rep = validate(text)
    assert [(r, s) for r, s, _ in found(rep)] == [("result-mismatch", WARNING), ("match-score", WARNING)], dump(rep)
    has = rep.findings[1].message
    assert "no written result" in has and "Bob winning 2 point(s)" in has and "taken as written" in has
    # no result the position allows gives 5 points at cube 1: an error
    text = " 9 point match\n" + game(1, 0, 0, end="") + game(2, 0, 5)
    rep = validate(text)
    assert found(rep)[-1] == ("match-score", ERROR, line_of(text, "Bob : 5")), dump(rep)


# ============================================================================ one slip, one finding

def bear_off_game() -> tuple[str, str]:
    """A generated 7-point-match game (GNU Backgammon's layout) that Bob wins by bearing off his last
    checker from the 1-point (``46: 1/0``); and the same game with that roll left out and ``Wins 1 point``
    written in Ann's column."""
    m = generate_match("backgammon", 1, 1, ("Ann", "Bob"), {"cube": False})
    m.match_length = 7
    text = write_text(m, "mat")
    assert " 38) 26: 2/0 1/0                 46: 1/0 \n                                  Wins 1 point\n" in text
    wrong = text.replace(" 38) 26: 2/0 1/0                 46: 1/0 \n                                  Wins 1 point\n",
                         " 38) 26: 2/0 1/0\n      Wins 1 point\n")
    return text, wrong


NEXT = """
 Game 2
 Ann : {a}                        Bob : {b}
  1) 31: 8/5 6/5                 42: 8/4 6/4
      Wins 1 point
"""


def test_a_result_in_the_column_of_the_player_who_cannot_have_won():
    right, wrong = bear_off_game()
    assert [f for f in validate(right).findings if f.severity == ERROR] == []
    rep = validate(wrong)
    line = line_of(wrong, "Wins 1 point")
    assert ("result-mismatch", ERROR, line) in found(rep), dump(rep)
    f = next(f for f in rep.findings if f.line == line)
    assert "Ann is declared the winner, but Bob is on roll with one checker on the 1-point" in f.message
    assert rep.games[0].winner == 1
    # one slip, one finding: the next score line may follow either column
    for a, b in ((1, 0), (0, 1)):
        rep = validate(wrong + NEXT.format(a=a, b=b))
        errors = [(f.rule, f.line) for f in rep.findings if f.severity == ERROR]
        assert errors == [("result-mismatch", line)], dump(rep)
    rep = validate(wrong + NEXT.format(a=2, b=0))
    assert [f.rule for f in rep.findings if f.severity == ERROR] == ["result-mismatch", "match-score"], dump(rep)


def test_a_wrong_result_after_a_bear_off_is_reported_once():
    right, _ = bear_off_game()
    wrong = right.replace("                                  Wins 1 point\n", "      Wins 4 points\n")
    line = line_of(wrong, "Wins 4 points")
    for a, b in ((4, 0), (0, 1), (0, 4)):
        rep = validate(wrong + NEXT.format(a=a, b=b))
        errors = [(f.rule, f.line) for f in rep.findings if f.severity == ERROR]
        assert errors == [("result-mismatch", line)], (a, b, dump(rep))
    rep = validate(wrong + NEXT.format(a=3, b=0))
    assert [f.rule for f in rep.findings if f.severity == ERROR] == ["result-mismatch", "match-score"], dump(rep)


# ============================================================================ spellings typed by hand

def test_no_blank_after_a_hit_and_a_stray_comma():
    rows = """\
  1) 31: 8/5 6/5                 64: 24/18 13/9
  2) 54: 24/20 13/8              62: 13/7 9/7
  3) 65: 13/7*8/3                21: 25/23 24/23
  4) 11: 6/5 6/5, 8/7(2)         53: 13/8 13/10
"""
    plain = rows.replace("13/7*8/3", "13/7* 8/3").replace("6/5, 8/7(2)", "6/5 8/7(2)")
    base = validate(" 5 point match\n" + game(1, 0, 0, end="", rows=plain))
    text = " 5 point match\n" + game(1, 0, 0, end="", rows=rows)
    rep = validate(text)
    warn = [(f.rule, f.severity, f.line, f.column) for f in rep.findings if f.rule == "parse-error"]
    assert warn == [("parse-error", WARNING, line_of(text, "13/7*8/3"), 10),
                    ("parse-error", WARNING, line_of(text, "6/5,"), 17)], dump(rep)
    assert 'read as the movements 13/7* 8/3' in rep.findings[0].message
    assert [(f.rule, f.line) for f in rep.findings if f.rule != "parse-error"] == \
        [(f.rule, f.line) for f in base.findings], dump(rep)
    assert not any(f.severity == ERROR for f in rep.findings), dump(rep)
    # 25/22*13/9 from the bar
    m = notation.read_text(" 5 point match\n\n Game 1\n A : 0       B : 0\n  1) 31: 25/22*13/9\n", "x.mat")
    assert [(s.src, s.dst, s.hit) for s in m.games[0].actions[0].steps] == [(25, 22, True), (13, 9, False)]
    # a comma that is not after a movement is still unreadable
    rep = validate(" 5 point match\n" + game(1, 0, 0, end="", rows="  1) 31: 8/5 ,6/5\n"))
    assert [(f.rule, f.severity) for f in rep.findings][:1] == [("parse-error", ERROR)], dump(rep)


def test_score_text_in_the_empty_cell_of_the_opening_row():
    rows = "  1) Ann : 3                    12: 24/23 13/11\n  2) 64: 24/18 13/9              54: 24/20 13/8\n"
    text = " 9 point match\n" + game(1, 3, 0, end="      Wins 1 point\n", rows=rows)
    rep = validate(text)
    line = line_of(text, "1) Ann : 3")
    assert found(rep)[0] == ("parse-error", WARNING, line), dump(rep)
    assert rep.findings[0].column == 6 and '"Ann : 3"' in rep.findings[0].message
    assert not any(f.severity == ERROR for f in rep.findings), dump(rep)
    m = notation.read_text(text, "x.mat")
    first = m.games[0].actions[0]
    assert (first.player, first.dice, first.loc.column) == (1, (1, 2), text.split("\n")[line - 1].index("12:") + 1)
    # another word there is still unreadable text
    rep = validate(text.replace("1) Ann : 3", "1) Zed : 3"))
    assert ("parse-error", ERROR, line) in found(rep), dump(rep)


def test_an_empty_left_cell_then_the_right_players_double():
    rows = """\
  1) 31: 8/5 6/5                 64: 24/18 13/9
  2) 54: 24/20 13/8              31: 8/5* 6/5
  3)                  Doubles => 2
  4)  Takes                      32: 13/10 9/7
  5) 41: 25/21 24/23             21: 10/8 7/6
"""
    text = " 5 point match\n" + game(1, 0, 0, end="", rows=rows)
    rep = validate(text)
    line = line_of(text, "Doubles => 2")
    assert found(rep)[0] == ("parse-error", WARNING, line), dump(rep)
    assert "Ann's roll of move 3 is not written" in rep.findings[0].message
    assert not any(f.severity == ERROR for f in rep.findings), dump(rep)
    # the same double right after Bob's own roll on the same row is still an error
    same = text.replace("  2) 54: 24/20 13/8              31: 8/5* 6/5\n  3)                  Doubles => 2",
                        "  2) 54: 24/20 13/8              31: 8/5* 6/5  Doubles => 2")
    rep = validate(same)
    assert ("cube-illegal", ERROR, line_of(same, "Doubles => 2")) in found(rep), dump(rep)
    # and so is an empty cell when Ann is not on the bar (nothing explains a roll left out)
    off_bar = text.replace("54: 24/20 13/8", "54: 13/8 13/9").replace("8/5* 6/5", "8/5 6/5") \
        .replace("41: 25/21 24/23", "41: 24/23 13/9")
    rep = validate(off_bar)
    assert ("cube-illegal", ERROR, line_of(off_bar, "Doubles => 2")) in found(rep), dump(rep)


# ============================================================================ a result at the left margin

# one typist writes every game's "Wins N points" at the left margin, in neither player's column
DROP_GAMES = """\
 7 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 64: 24/18 13/9              21: 13/11 6/5
  3) 54: 24/20 13/8              Doubles => 2
  4)  Drops
Wins 1 point

 Game 2
 Ann : 0                        Bob : 1
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2)  Doubles => 2                Drops
Wins 1 point

 Game 3
 Ann : 1                        Bob : 1
  1) 31: 8/5 6/5                 42: 8/4 6/4
"""


def test_a_result_at_the_left_margin_goes_to_the_winner_the_drop_shows():
    rep = validate(DROP_GAMES)
    assert [f for f in rep.findings if f.severity == ERROR] == [], dump(rep)
    assert [(g.winner, g.points, g.how) for g in rep.games[:2]] == [(1, 1, "drop"), (0, 1, "drop")]
    m = notation.read_text(DROP_GAMES, "typed.mat")
    wins = [a for g in m.games for a in g.actions if a.kind.value == "win"]
    assert [a.margin for a in wins] == [True, True]
    # the same line in the left player's column still names the left player: the nearest error
    col = DROP_GAMES.replace("  4)  Drops\nWins 1 point", "  4)  Drops\n      Wins 1 point")
    rep = validate(col)
    assert ("result-mismatch", ERROR, line_of(col, "Wins 1 point")) in found(rep), dump(rep)
    # the points are still checked: a drop at cube 2 gives 1 point, not 2
    two = DROP_GAMES.replace("  4)  Drops\nWins 1 point", "  4)  Drops\nWins 2 points")
    rep = validate(two)
    assert ("result-mismatch", ERROR, line_of(two, "Wins 2 points")) in found(rep), dump(rep)


def test_a_result_at_the_left_margin_after_the_last_checker_is_borne_off():
    right, wrong = bear_off_game()
    margin = right.replace("                                  Wins 1 point\n", "Wins 1 point\n")
    assert margin != right
    rep = validate(margin)
    assert [f for f in rep.findings if f.severity == ERROR] == [], dump(rep)
    assert (rep.games[0].winner, rep.games[0].points) == (1, 1)
    # the roll that bore the last checker off left out: the position shows Bob, on roll, bears off with any
    # roll; in Ann's column that is the error of test_a_result_in_the_column_of_the_player_who_cannot_have_won,
    # at the margin it is Bob's win
    margin = wrong.replace("\n      Wins 1 point\n", "\nWins 1 point\n")
    rep = validate(margin + NEXT.format(a=0, b=1))
    assert [f for f in rep.findings if f.severity == ERROR] == [], dump(rep)
    assert rep.games[0].winner == 1


def test_a_result_at_the_left_margin_that_nothing_on_the_board_settles():
    """A resignation mid-game written at the margin: nothing shows the winner, the column's reading (the
    left player) stands, and the next score line checks it as before."""
    text = " 7 point match\n" + game(1, 0, 0, end="Wins 1 point\n") + game(2, 1, 0, end="Wins 1 point\n")
    rep = validate(text)
    assert [f for f in rep.findings if f.severity == ERROR] == [], dump(rep)
    assert [g.winner for g in rep.games] == [0, 0]
    rep = validate(" 7 point match\n" + game(1, 0, 0, end="Wins 1 point\n") + game(2, 0, 1))
    assert [f.rule for f in rep.findings if f.severity == ERROR] == ["match-score"], dump(rep)


def test_convert_writes_a_margin_result_in_the_winners_column():
    m = notation.read_text(DROP_GAMES, "typed.mat")
    text = write_text(m, "mat")
    assert "Wins 1 point" in text and "\nWins" not in text
    back = without_unfinished_match(analyze.validate_match(notation.read_text(text, "back.mat")))
    assert [(g.winner, g.points) for g in back.games] == [(1, 1), (0, 1), (None, None)]
    assert [f for f in back.findings if f.severity == ERROR] == []
    # SGF: the result is RE[] (the winner the replay credits)
    text = write_text(m, "sgf")
    assert "RE[W+1]" in text and "RE[B+1]" in text
    back = without_unfinished_match(analyze.validate_match(notation.read_text(text, "back.sgf", "sgf")))
    assert [(g.winner, g.points) for g in back.games][:2] == [(1, 1), (0, 1)]
    assert [f for f in back.findings if f.severity == ERROR] == []


# ============================================================================ a wrong score line, then the next

def drop_game(number: int, a: int, b: int) -> str:
    return game(number, a, b, end="", rows="  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
                                             "  2)  Doubles => 2                Drops\n      Wins 1 point\n")


def test_after_a_wrong_score_line_the_next_follows_either_reading():
    """Game 2's score line says 2-0 where the results give 1-0 (one error); Game 3's may follow the
    results (2-0) or the written score (3-0), without a second error; any other score is an error."""
    head = " 7 point match\n" + drop_game(1, 0, 0) + drop_game(2, 2, 0)
    line2 = line_of(head, "Ann : 2")
    for a in (2, 3):
        text = head + drop_game(3, a, 0) + drop_game(4, a + 1, 0)
        rep = validate(text)
        errors = [(f.rule, f.line) for f in rep.findings if f.severity == ERROR]
        assert errors == [("match-score", line2)], (a, dump(rep))
    text = head + drop_game(3, 4, 0)
    rep = validate(text)
    assert [(f.rule, f.line) for f in rep.findings if f.severity == ERROR] == \
        [("match-score", line2), ("match-score", line_of(text, "Ann : 4"))], dump(rep)
    # only the next score line: one that agrees with neither two games on is still an error
    text = head + drop_game(3, 3, 0) + drop_game(4, 3, 0)
    rep = validate(text)
    assert [(f.rule, f.line) for f in rep.findings if f.severity == ERROR] == \
        [("match-score", line2), ("match-score", line_of(text, "Ann : 3", 2))], dump(rep)


# ============================================================================ score-line text in both cells

def test_score_text_in_both_cells_of_the_opening_row():
    rows = "  1) Ann : 15     Ann : 15\n  2) 31: 8/5 6/5                 42: 8/4 6/4\n" \
           "  3)  Doubles => 2                Drops\n"
    text = " 21 point match\n" + game(1, 0, 0, rows=rows)
    rep = validate(text)
    line = line_of(text, "1) Ann : 15")
    assert found(rep)[0] == ("parse-error", WARNING, line), dump(rep)
    assert rep.findings[0].column == 6 and "both cells" in rep.findings[0].message
    assert not any(f.severity == ERROR for f in rep.findings), dump(rep)
    m = notation.read_text(text, "x.mat")
    first = m.games[0].actions[0]
    assert (first.player, first.dice, first.move) == (0, (3, 1), 2)
    # a name that is not on the score line is still unreadable text
    rep = validate(text.replace("1) Ann : 15     Ann : 15", "1) Ann : 15     Zed : 15"))
    assert ("parse-error", ERROR, line) in found(rep), dump(rep)


@pytest.mark.parametrize("to", ["json", "ngn"])
def test_convert_to_a_notation_without_columns_gives_a_margin_result_to_its_winner(to):
    """JSON and .ngn have no "neither column": the margin's result is written as the winner's, so the
    converted record has the same winners and no finding the original lacks."""
    m = notation.read_text(DROP_GAMES, "typed.mat")
    text = write_text(m, to)
    back = notation.read_text(text, f"back.{to}", to)
    wins = [a for g in back.games for a in g.actions if a.kind.value == "win"]
    assert [(a.player, a.margin) for a in wins] == [(1, False), (0, False)]
    rep = without_unfinished_match(analyze.validate_match(back))
    assert [(g.winner, g.points) for g in rep.games[:2]] == [(1, 1), (0, 1)]
    assert [f for f in rep.findings if f.severity == ERROR] == [], dump(rep)
    # the record read is left as it was (the writer gets a copy)
    assert [a.margin for g in m.games for a in g.actions if a.kind.value == "win"] == [True, True]
