"""The Jellyfish .mat reader: every cell kind, the dialects of docs/mat-format.md, bad input, the corpus."""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from nardy_analyze.notation import mat, read_bytes, read_path
from nardy_analyze.record import BAR, OFF, Action, Kind, Loc, Match, Step

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"

R, D, T, DR, W, RS = Kind.ROLL, Kind.DOUBLE, Kind.TAKE, Kind.DROP, Kind.WIN, Kind.RESIGN


def S(src: int, dst: int, hit: bool = False) -> Step:
    return Step(src, dst, hit)


def brief(a: Action) -> tuple:
    """(player, kind, move, line, column, text): where and what."""
    return (a.player, a.kind, a.move, a.loc.line, a.loc.column, a.text)


def all_problems(m: Match) -> list:
    return m.problems + [p for g in m.games for p in g.problems]


def text(*lines: str) -> str:
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- gnubg dialect

GNUBG = text(
    '; [Site "GNU Backgammon"]',                                        # 1
    '; [CubeLimit "1024"]',                                             # 2
    '; [Player 1 Elo "3,00/0"]',                                        # 3
    "",                                                                 # 4
    " 5 point match",                                                   # 5
    "",                                                                 # 6
    " Game 1",                                                          # 7
    " Alice : 0                      Bob : 0",                          # 8
    "  1)                             31: 8/5 6/5",                     # 9
    "  2) 42: 8/4 6/4                 65: 25/20 20/14*",                # 10
    "  3) 55:                          Doubles => 2",                   # 11
    "  4)  Takes                      64: 25/21 6/0 ",                  # 12
    "  5)  Doubles => 4                Drops",                          # 13
    "      Wins 2 points",                                              # 14
    "",                                                                 # 15
    " Game 2",                                                          # 16
    " Alice : 2                      Bob : 0",                          # 17
    "  1) 21: 13/11 24/23             43: 13/9 13/10",                  # 18
    "  2) 65: 24/18 24/19             Doubles => 2",                    # 19
    "  3)  Drops                       Wins 1 point",                   # 20
    "",                                                                 # 21
    " Game 3",                                                          # 22
    " Alice : 2                      Bob : 1",                          # 23
    "  1) 33: 8/5 8/5 6/3 6/3         11: 6/5 6/5 6/5 6/5",             # 24
    "                                  Wins 1 point and the match",     # 25
)


def test_gnubg_header_and_games():
    m = mat.read(GNUBG, "g.mat")
    assert all_problems(m) == []
    assert m.notation == "mat" and m.path == "g.mat"
    assert m.tags == {"Site": "GNU Backgammon", "CubeLimit": "1024", "Player 1 Elo": "3,00/0"}
    assert m.tag_locs["CubeLimit"] == Loc(2, 1)
    assert m.tag("cubelimit") == "1024"
    assert m.match_length == 5 and m.match_loc == Loc(5, 2)
    assert [g.number for g in m.games] == [1, 2, 3]
    assert [g.written_number for g in m.games] == [1, 2, 3]
    g1, g2, g3 = m.games
    assert g1.loc == Loc(7, 2)
    assert g1.players == ("Alice", "Bob") and g1.score == (0, 0) and g1.score_loc == Loc(8, 2)
    assert g2.score == (2, 0) and g3.score == (2, 1)
    assert g1.end_loc == Loc(14, 1) and g3.end_loc == Loc(25, 1)


def test_gnubg_cells():
    g1, g2, g3 = mat.read(GNUBG, "g.mat").games
    assert [brief(a) for a in g1.actions] == [
        (1, R, 1, 9, 34, "31: 8/5 6/5"),          # blank left cell: the second player opened
        (0, R, 2, 10, 6, "42: 8/4 6/4"),
        (1, R, 2, 10, 34, "65: 25/20 20/14*"),
        (0, R, 3, 11, 6, "55:"),                  # a roll with nothing after it
        (1, D, 3, 11, 35, "Doubles => 2"),
        (0, T, 4, 12, 7, "Takes"),
        (1, R, 4, 12, 34, "64: 25/21 6/0"),
        (0, D, 5, 13, 7, "Doubles => 4"),
        (1, DR, 5, 13, 35, "Drops"),
        (0, W, None, 14, 7, "Wins 2 points"),     # own line, left column
    ]
    a = g1.actions
    assert a[0].dice == (3, 1) and a[0].dice_text == "31" and a[0].dice_loc == Loc(9, 34)
    assert a[0].steps == [S(8, 5), S(6, 5)]
    assert a[2].steps == [S(BAR, 20), S(20, 14, True)]
    assert a[3].dice == (5, 5) and a[3].steps == [] and not a[3].unplayed and not a[3].cannot_move
    assert a[4].value == 2 and a[7].value == 4
    assert a[6].steps == [S(BAR, 21), S(6, OFF)]
    assert a[9].value == 2 and not a[9].and_match
    assert [brief(a) for a in g2.actions][-2:] == [
        (0, DR, 3, 20, 7, "Drops"),
        (1, W, 3, 20, 35, "Wins 1 point"),        # a Drops and a Wins on one row
    ]
    assert g2.actions[-1].value == 1
    assert [brief(a) for a in g3.actions] == [
        (0, R, 1, 24, 6, "33: 8/5 8/5 6/3 6/3"),
        (1, R, 1, 24, 34, "11: 6/5 6/5 6/5 6/5"),
        (1, W, None, 25, 35, "Wins 1 point and the match"),   # own line, right column
    ]
    assert g3.actions[0].steps == [S(8, 5), S(8, 5), S(6, 3), S(6, 3)]
    assert g3.actions[-1].value == 1 and g3.actions[-1].and_match


def test_long_left_cell_pushes_right_cell():
    src = text(
        " Game 1",
        " A : 0                          B : 0",
        " 29) 55: 25/20 25/20 20/15 20/15 31: 3/0 1/0",
    )
    g = mat.read(src, "").games[0]
    assert [brief(a) for a in g.actions] == [
        (0, R, 29, 3, 6, "55: 25/20 25/20 20/15 20/15"),
        (1, R, 29, 3, 34, "31: 3/0 1/0"),
    ]


# ----------------------------------------------------------------------------- other sites

GALAXY = text(
    '; [Site "BackgammonGalaxy"]',                                                 # 1
    '; [Player 1 Elo "2,00/0"]',                                                   # 2
    "",                                                                            # 3
    "3 point match",                                                               # 4
    "",                                                                            # 5
    " Game 1",                                                                     # 6
    " Hossein Aghili : 0             lasse : 0",                                   # 7
    "  1)                             54: 13/8 24/20",                             # 8
    "  2) 41: bar/21* 21/20           43: Bar/21 24/21",                           # 9
    "  3) 44: bar/21 13/9(2) 24/20    22: 6/2*(2)",                                # 10
    "  4) 61: 13/7*/6                 13: 24/23 8/5",                              # 11
    "  5) 61: 13/6                    66: 6/off 5/Off 4/0 3/off",                  # 12
    "  6) 64: Cannot Move             00: ????",                                   # 13
    "  7) 61: ????                     Losses 2 point",                            # 14
    "",                                                                            # 15
    "      Wins 2 point and the match",                                            # 16
)


def test_galaxy_cells():
    m = mat.read(GALAXY, "x.txt")
    assert all_problems(m) == []
    assert m.match_length == 3 and m.match_loc == Loc(4, 1)
    g = m.games[0]
    assert g.players == ("Hossein Aghili", "lasse")
    acts = g.actions
    assert [brief(a) for a in acts] == [
        (1, R, 1, 8, 34, "54: 13/8 24/20"),
        (0, R, 2, 9, 6, "41: bar/21* 21/20"),
        (1, R, 2, 9, 34, "43: Bar/21 24/21"),
        (0, R, 3, 10, 6, "44: bar/21 13/9(2) 24/20"),
        (1, R, 3, 10, 34, "22: 6/2*(2)"),
        (0, R, 4, 11, 6, "61: 13/7*/6"),
        (1, R, 4, 11, 34, "13: 24/23 8/5"),
        (0, R, 5, 12, 6, "61: 13/6"),
        (1, R, 5, 12, 34, "66: 6/off 5/Off 4/0 3/off"),
        (0, R, 6, 13, 6, "64: Cannot Move"),
        (1, R, 6, 13, 34, "00: ????"),
        (0, R, 7, 14, 6, "61: ????"),
        (1, RS, 7, 14, 35, "Losses 2 point"),
        (0, W, None, 16, 7, "Wins 2 point and the match"),
    ]
    assert acts[1].steps == [S(BAR, 21, True), S(21, 20)]
    assert acts[2].steps == [S(BAR, 21), S(24, 21)]
    assert acts[3].steps == [S(BAR, 21), S(13, 9), S(13, 9), S(24, 20)]
    assert acts[4].steps == [S(6, 2, True), S(6, 2, True)]
    assert acts[5].steps == [S(13, 7, True), S(7, 6)]                 # a chain
    assert acts[6].dice == (1, 3) and acts[6].dice_text == "13"       # low-high, as written
    assert acts[7].steps == [S(13, 6)]                                # combined move stays one step
    assert acts[8].steps == [S(6, OFF), S(5, OFF), S(4, OFF), S(3, OFF)]
    assert acts[9].cannot_move and acts[9].steps == [] and acts[9].dice == (6, 4)
    assert acts[10].unplayed and acts[10].dice is None and acts[10].dice_text == "00"
    assert acts[11].unplayed and acts[11].dice == (6, 1)
    assert acts[12].value == 2 and acts[13].value == 2 and acts[13].and_match


def test_losses_template_on_a_numbered_row():
    # the loser's "N)  Losses X point" with the winner's "Wins" far to the right
    src = text(
        " Game 1",
        " lasse : 0                       Carlos Corral : 0",
        " 19) 21: 7/5 7/6                 52: 3/0 2/0",
        " 20)  Losses 3 point                                               Wins 3 point and the match",
    )
    g = mat.read(src, "").games[0]
    assert g.players == ("lasse", "Carlos Corral")
    assert [brief(a) for a in g.actions][2:] == [
        (0, RS, 20, 4, 7, "Losses 3 point"),
        (1, W, 20, 4, 68, "Wins 3 point and the match"),
    ]


def test_losses_template_inside_the_right_cell():
    # " 24) 43: ...   24)  Losses 2 point ... Wins 2 point and the match": the Wins column is the
    # reliable one (the match score proves the right player won), the Losses goes to the other side
    src = text(
        " Game 2",
        " lasse : 0                       canoz : 1",
        " 24) 43: 21/18 18/14              24)  Losses 2 point"
        "                                               Wins 2 point and the match",
    )
    g = mat.read(src, "").games[0]
    assert all_problems(mat.read(src, "")) == []
    assert [brief(a) for a in g.actions] == [
        (0, R, 24, 3, 6, "43: 21/18 18/14"),
        (0, RS, 24, 3, 40, "Losses 2 point"),
        (1, W, 24, 3, 101, "Wins 2 point and the match"),
    ]


def test_losses_at_column_two_before_a_left_wins():
    src = text(
        " Game 1",
        " lasse : 4                       jp23 : 1",
        " 19) 64: 9/3 9/5                 44:",
        " Losses 1 point",
        "",
        "      Wins 1 point and the match",
    )
    g = mat.read(src, "").games[0]
    assert [brief(a) for a in g.actions][2:] == [
        (1, RS, None, 4, 2, "Losses 1 point"),     # written at column 2, but the left side wins
        (0, W, None, 6, 7, "Wins 1 point and the match"),
    ]
    assert g.actions[2].value == 1


def test_studio_layout_and_oddities():
    src = text(
        '; [Site "Backgammon Studio"]',
        "",
        "16 point match",
        "",
        "",
        " Game 1",
        " Llabba : 0                             Breum  : 0",
        "  1)                                    43: 13/10 13/9",
        "  99) 51: 2/1 2/off                     61: ????",
        "  100)  Wins 1 point                     ",
        "  101)                                   ",
        "",
        " Game 2",
        " Llabba : 1                             Breum  : 0",
        "  5)  Doubles => 2                       Drops",
        "  6)  Wins 1 point                      ",
        "  7) 32: ????                           Wins 4016 point",
        "  8) 21:                                 Resigns",
    )
    m = mat.read(src, "s.txt")
    assert all_problems(m) == []
    assert m.match_length == 16
    g1, g2 = m.games
    assert g1.players == ("Llabba", "Breum")
    assert [brief(a) for a in g1.actions] == [
        (1, R, 1, 8, 41, "43: 13/10 13/9"),
        (0, R, 99, 9, 7, "51: 2/1 2/off"),
        (1, R, 99, 9, 41, "61: ????"),
        (0, W, 100, 10, 9, "Wins 1 point"),      # move number past 99; row "101)" is empty
    ]
    assert [brief(a) for a in g2.actions] == [
        (0, D, 5, 15, 7, "Doubles => 2"),
        (1, DR, 5, 15, 42, "Drops"),
        (0, W, 6, 16, 7, "Wins 1 point"),
        (0, R, 7, 17, 6, "32: ????"),
        (1, W, 7, 17, 41, "Wins 4016 point"),
        (0, R, 8, 18, 6, "21:"),
        (1, RS, 8, 18, 42, "Resigns"),
    ]
    assert g2.actions[4].value == 4016
    assert g2.actions[-1].value is None


def test_bare_unplayed_and_resigns_with_points():
    src = text(
        " Game 1",
        " A : 0                          B : 0",
        "  1) ????                        Resigns 2 points",
    )
    m = mat.read(src, "")
    assert all_problems(m) == []
    a, b = m.games[0].actions
    assert brief(a) == (0, R, 1, 3, 6, "????")
    assert a.unplayed and a.dice is None and a.dice_text == "" and a.dice_loc == Loc(3, 6)
    assert brief(b) == (1, RS, 1, 3, 34, "Resigns 2 points") and b.value == 2


def test_names_scores_and_money_session():
    src = text(
        "0 point match",
        " Game 1",
        "  : 0                            lasse : 0",
        "  1) 31: 8/5 6/5                 42: 8/4 6/4",
        " Game 7",
        " Alice Smith,1673 : 3           Bob : 12",
        "  1) 31: 8/5 6/5",
    )
    m = mat.read(src, "")
    assert all_problems(m) == []
    assert m.match_length == 0
    g1, g2 = m.games
    assert g1.players == ("", "lasse") and g1.score == (0, 0)
    assert [a.player for a in g1.actions] == [0, 1]
    assert g2.number == 2 and g2.written_number == 7
    assert g2.players == ("Alice Smith", "Bob") and g2.score == (3, 12)
    assert g2.ratings == ("1673", None) and g1.ratings == (None, None)      # the rating is split out


def test_headerless_no_final_newline_crlf_bom():
    src = " Game 1\r\n A : 0                      B : 0\r\n  1) 31: 8/5 6/5                 42: 8/4 6/4"
    data = b"\xef\xbb\xbf" + src.encode()
    m = read_bytes(data, "h.mat")
    assert all_problems(m) == []
    assert m.match_length is None and m.tags == {}
    assert [brief(a) for a in m.games[0].actions] == [
        (0, R, 1, 3, 6, "31: 8/5 6/5"),
        (1, R, 1, 3, 34, "42: 8/4 6/4"),
    ]


def test_blank_line_between_header_and_score_line():
    m = mat.read(" Game 1\n\n A : 0          B : 0\n  1) 31: 8/5 6/5\n", "")
    assert all_problems(m) == []
    assert m.games[0].score_loc == Loc(3, 2) and len(m.games[0].actions) == 1


# ----------------------------------------------------------------------------- decode, sniff, dispatch


def test_decode():
    assert mat.decode(b"\xef\xbb\xbfa\r\nb\rc\n") == "a\nb\nc\n"
    assert mat.decode("Jürgen".encode("utf-8")) == "Jürgen"
    assert mat.decode(b"J\xfcrgen") == "Jürgen"          # Latin-1 fallback
    assert mat.decode(b"") == ""
    assert isinstance(mat.decode(bytes(range(256)) * 10), str)


def test_latin1_name():
    data = b" Game 1\n J\xfcrgen : 0                    Bob : 0\n  1) 31: 8/5 6/5\n"
    m = read_bytes(data, "")
    assert m.games[0].players == ("Jürgen", "Bob") and all_problems(m) == []


def test_looks_like_mat():
    assert mat.looks_like_mat(GNUBG)
    assert mat.looks_like_mat("5 point match\n")
    assert mat.looks_like_mat(" Game 1\n")
    assert not mat.looks_like_mat("(;FF[4]GM[6])")
    assert not mat.looks_like_mat("")


def test_read_path(tmp_path):
    p = tmp_path / "a b.mat"
    p.write_bytes(GNUBG.encode())
    m = read_path(p)
    assert m.path == str(p) and len(m.games) == 3
    missing = read_path(tmp_path / "nope.mat")
    assert missing.games == [] and missing.problems and missing.problems[0].loc == Loc(1, 1)


# ----------------------------------------------------------------------------- bad input


def test_empty_text():
    for src in ("", "\n\n", "   "):
        m = mat.read(src, "")
        assert m.games == []
        assert len(m.problems) == 1 and "expected a game" in m.problems[0].message


def test_binary_garbage():
    data = bytes(range(256)) * 50 + b"\x00\xff\xfe" * 1000
    m = mat.read(mat.decode(data), "bin")
    probs = all_problems(m)
    assert probs
    assert all(p.loc.line >= 1 and p.loc.column >= 1 for p in probs)
    assert len(probs) <= mat.MAX_PROBLEMS + 2


def test_garbled_row_in_game_two_of_three():
    src = GNUBG.replace("  2) 65: 24/18 24/19             Doubles => 2",
                        "  2) 7x: 13/9 24/19              Doubles => 2")
    good = mat.read(GNUBG, "")
    m = mat.read(src, "")
    g1, g2, g3 = m.games
    assert m.problems == [] and g1.problems == [] and g3.problems == []
    assert g1.actions == good.games[0].actions and g3.actions == good.games[2].actions
    assert len(g2.problems) == 1
    p = g2.problems[0]
    assert p.loc == Loc(19, 6) and p.game == 2
    assert p.message == ('expected a roll like "53:", "Doubles => N", "Takes", "Drops" or '
                         '"Wins N points", found "7x: 13/9 24/19"')
    # the bad row is skipped; the rows before and after it are kept
    assert [brief(a) for a in g2.actions] == [
        (0, R, 1, 18, 6, "21: 13/11 24/23"),
        (1, R, 1, 18, 34, "43: 13/9 13/10"),
        (0, DR, 3, 20, 7, "Drops"),
        (1, W, 3, 20, 35, "Wins 1 point"),
    ]
    assert g2.broken and not g1.broken


@pytest.mark.parametrize(
    "row, column, message",
    [
        ("  1) 53: 13-8 6/3", 10, 'expected a move like "13/9", "bar/22*" or "6/off", or the next cell, found "13-8"'),
        ("  1) 53: 13/8x", 10, 'expected a move like "13/9", "bar/22*" or "6/off", or the next cell, found "13/8x"'),
        ("  1) 53: 27/22 6/3", 10, 'expected a point 0..25, "bar" or "off", found "27" in "27/22"'),
        ("  1) 53: 8/bar", 10, 'expected a move like "13/9", "bar/22*" or "6/off", or the next cell, found "8/bar"'),
        ("  1) 53: off/3", 10, 'expected a move like "13/9", "bar/22*" or "6/off", or the next cell, found "off/3"'),
        ("  1) 53: 8/off/3", 10, 'expected "off" only at the end of a move, found "8/off/3"'),
        ("  1) 53: 8/3(0)", 10, 'expected a repeat count 1..15, found "8/3(0)"'),
        ("  1) 53: 8/3 ????", 10, 'expected "????" right after the dice, found "8/3"'),
        ("  1) 53: 8/3 Illegal play (1;2)", 10, 'expected "Illegal play" right after the dice, found "8/3"'),
        ("  1) 53: ?????", 10, 'expected a move like "13/9", "bar/22*" or "6/off", or the next cell, found "?????"'),
        ("  1) Concedes 2", 16, 'expected "point" or "points", found the end of the line'),
        ("  1)  Doubles 2", 15, 'expected "=>", as in "Doubles => 2", found "2"'),
        ("  1)  Doubles =>", 17, 'expected the cube value, as in "Doubles => 2", found the end of the line'),
        ("      Wins", 11, 'expected the points, as in "Wins 2 points", found the end of the line'),
        ("      Wins 2 pointz", 14, 'expected "point" or "points", found "pointz"'),
        ("      Wins 2 points and", 21, 'expected "and the match" or the next cell, found "and"'),
        ("  1) 64: Cannot", 16, 'expected "Move", as in "64: Cannot Move", found the end of the line'),
        ("  1) 53 8/3", 6, 'expected a roll like "53:", "Doubles => N", "Takes", "Drops" or "Wins N points", found "53 8/3"'),
        ("  1) 53:8/3", 6, 'expected a roll like "53:", "Doubles => N", "Takes", "Drops" or "Wins N points", found "53:8/3"'),
        ("  x) 53: 8/3", 3, 'expected a roll like "53:", "Doubles => N", "Takes", "Drops" or "Wins N points", found "x) 53: 8/3"'),
    ],
)
def test_bad_cells(row, column, message):
    src = text(" Game 1", " A : 0                          B : 0", "  1) 31: 8/5 6/5", row, "  9) 42: 8/4 6/4")
    m = mat.read(src, "")
    g = m.games[0]
    assert m.problems == []
    assert [(p.loc, p.message, p.game) for p in g.problems] == [(Loc(4, column), message, 1)]
    assert [a.loc.line for a in g.actions] == [3, 5]      # the bad row only is lost


def test_bad_dice_are_kept_as_written():
    # two digits that are not two dice 1..6: the replayer reports them (rule dice-mismatch)
    g = mat.read(text(" Game 1", " A : 0     B : 0", "  1) 70: 8/1"), "").games[0]
    assert g.problems == []
    a = g.actions[0]
    assert a.dice is None and a.dice_text == "70" and a.steps == [S(8, 1)]


def test_truncated_game():
    src = GNUBG[: GNUBG.index("20/14*") + 3]          # cut inside "20/14*"
    m = mat.read(src, "")
    g = m.games[0]
    assert len(m.games) == 1
    assert [p.loc for p in g.problems] == [Loc(10, 44)]
    assert "found \"20/\"" in g.problems[0].message
    assert [a.text for a in g.actions] == ["31: 8/5 6/5"]


def test_missing_score_line():
    m = mat.read(text(" Game 1", "  1) 31: 8/5 6/5"), "")
    g = m.games[0]
    assert [p.loc for p in g.problems] == [Loc(2, 3)]
    assert g.problems[0].message.startswith('expected a score line like " Alice : 0     Bob : 0", found "1) 31')
    assert [a.text for a in g.actions] == ["31: 8/5 6/5"]    # the row is still read
    m = mat.read(" Game 1\n", "")
    assert "found the end of the text" in m.games[0].problems[0].message


def test_bad_header_lines():
    src = text('; [Event "x"', "; a plain comment", "5 point match", "7 point match", "hello", " Game 1", " A : 0   B : 0")
    m = mat.read(src, "")
    assert [p.loc for p in m.problems] == [Loc(1, 1), Loc(4, 1), Loc(5, 1)]
    assert m.match_length == 5 and len(m.games) == 1


def test_huge_line():
    line = "  1) 53: " + "13/9 " * 210_000                   # about 1 MB of movements
    src = text(" Game 1", " A : 0                          B : 0", line, "  2) 31: 8/5 6/5")
    t0 = time.perf_counter()
    m = mat.read(src, "")
    assert time.perf_counter() - t0 < 5
    g = m.games[0]
    assert len(g.problems) == 1 and g.problems[0].loc.line == 3
    assert [a.text for a in g.actions] == ["31: 8/5 6/5"]
    # one megabyte of garbage, of blanks, of digits
    for junk in ("x" * 1_000_000, " " * 1_000_000 + "x", "7" * 1_000_000, "53:" + " " * 1_000_000 + "x"):
        t0 = time.perf_counter()
        m = mat.read(text(" Game 1", " A : 0     B : 0", junk, "  2) 31: 8/5 6/5"), "")
        assert time.perf_counter() - t0 < 5
        g = m.games[0]
        assert len(g.problems) == 1 and g.problems[0].loc.line == 3
        assert len(g.problems[0].message) < 300
        assert [a.text for a in g.actions] == ["31: 8/5 6/5"]
    m = mat.read("x" * 1_000_000, "")
    assert m.problems and m.problems[0].loc == Loc(1, 1)


def test_read_never_raises_on_odd_text():
    for src in ("\x00", "Game", " Game 1\n : \n", " Game 1\n A : 0 B : 0\n 1)\n", ")))", "\ufeff Game 1",
                " Game 1\n A : 0   B : 0\n  1) 99999999999) 31: 8/5\n", "; [", ";", "\n" * 10_000):
        m = mat.read(src, "")
        assert isinstance(m, Match)
        for p in all_problems(m):
            assert p.loc.line >= 1 and p.loc.column >= 1 and p.message


# ----------------------------------------------------------------------------- the corpus


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    files = (sorted((CORPUS / "gnubg-selfplay").glob("*.mat")) + sorted((CORPUS / "mutants").glob("*.mat"))
             + sorted((CORPUS / "bglab" / "data-raw").glob("*/raw/*.txt")))
    if not files:
        pytest.skip(f"no record files under {CORPUS}")
    return files


_GAME_HEADER = re.compile(r"^\s*Game \d+", re.M)


@pytest.mark.slow
def test_corpus_reads_without_problems():
    files = _corpus_files()
    datas = [(f, f.read_bytes()) for f in files]
    t0 = time.perf_counter()
    matches = [mat.read(mat.decode(data), str(f)) for f, data in datas]
    elapsed = time.perf_counter() - t0
    games = 0
    for (f, data), m in zip(datas, matches):
        assert all_problems(m) == [], (f, all_problems(m)[:3])
        assert len(m.games) == len(_GAME_HEADER.findall(data.decode("latin-1"))), f
        for g in m.games:
            assert g.actions, (f, g.number)
            assert g.score is not None, (f, g.number)
            for a in g.actions:
                assert a.player in (0, 1)
                if a.kind is Kind.ROLL:
                    assert len(a.steps) <= 4, (f, a)
        games += len(m.games)
    assert games > 5000
    print(f"\n{len(files)} corpus files, {games} games read in {elapsed:.1f} s")   # speed: bench/, not asserted


# -- the one left/right placement of a row's cells (mat.cell_side, for the items of both row readers) ----------

@pytest.mark.parametrize("col, after_no, nested, no_col, no_end, followed, side", [
    (5, True, False, 2, 4, False, 0),       # right after " 1)": the left cell
    (25, True, False, 2, 4, False, 1),      # far from "N)", alone, past the split: the right cell
    (25, True, False, 2, 4, True, 0),       # far from "N)" but another cell follows: still the left one
    (12, True, False, 2, 4, False, 0),      # indented further than usual but before the split: the left one
    (25, True, True, 22, 24, False, 1),     # a second "N)" inside the row: where the "N)" stands decides
    (25, True, True, 3, 5, False, 0),
    (5, False, False, 0, 0, False, 0),      # no "N)" before it: the score line's split decides
    (25, False, False, 0, 0, False, 1),
])
def test_cell_side(col, after_no, nested, no_col, no_end, followed, side):
    assert mat.cell_side(col, 20, after_no, nested, no_col, no_end, followed) == side


@pytest.mark.parametrize("tokenize", [True, False])
def test_both_row_readers_place_cells_alike(tokenize):
    text = (" 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
            "  1) 31: 8/5 6/5                  42: 8/4 6/4\n"
            "  2)      Doubles => 2            Takes\n"
            "  3)                              Drops\n"
            "      Wins 1 point\n")
    m = mat._Reader(text, "t.mat", tokenize=tokenize).run()
    acts = m.games[0].actions
    assert [(a.kind, a.player) for a in acts] == [(Kind.ROLL, 0), (Kind.ROLL, 1), (Kind.DOUBLE, 0), (Kind.TAKE, 1),
                                                  (Kind.DROP, 1), (Kind.WIN, 0)]
