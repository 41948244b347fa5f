"""The project's own notation (.ngn, docs/notation.md): the writer and reader are each other's mirror.

Contract: for every record ``m``, ``read(write(m))`` is the same record (``record.same_record``: same
tags, games, players, scores, rolls, steps as written, cube actions, clock times, comments, results)
and ``write(read(write(m))) == write(m)``.  Checked on every Jellyfish record of the shared corpus, on
the fixtures and examples, on hypothesis-built records and on generated games of every variant.
Unreadable text gives ``parse-error`` problems with line and column; the reader never raises.
"""
from __future__ import annotations

import glob
import os

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from nardy_analyze import notation
from nardy_analyze.generate import generate_match
from nardy_analyze.notation import ngn
from nardy_analyze.record import Action, Game, Kind, Loc, Match, Segment, Setup, Step, record_dict, same_record

from helpers import CORPUS, EXAMPLES, ROOT

L = Loc(1, 1)


def roundtrip(m: Match) -> str:
    text = ngn.write(m)
    back = ngn.read(text, "x.ngn")
    assert not back.problems, back.problems[:3]
    assert not [g.problems for g in back.games if g.problems]
    assert record_dict(back) == record_dict(m)
    assert ngn.write(back) == text
    return text


# ----------------------------------------------------------------------------- record equality

def test_same_record_ignores_places_and_spelling_only():
    a = Match("a.mat", "mat", {"Event": "x"}, {"Event": Loc(1, 1)}, 5)
    a.games.append(Game(1, Loc(3, 1), 1, ("A", "B"), (0, 0), actions=[
        Action(Kind.ROLL, 0, Loc(4, 5), 1, "64: 24/18", (6, 4), "64", Loc(4, 5), [Step(24, 18)])]))
    b = Match("b.ngn", "ngn", {"Event": "x"}, {"Event": Loc(9, 9)}, 5)
    b.games.append(Game(1, Loc(7, 1), 1, ("A", "B"), (0, 0), actions=[
        Action(Kind.ROLL, 0, Loc(8, 1), 1, "64:  24/18", (6, 4), "64", Loc(8, 1), [Step(24, 18)])]))
    assert same_record(a, b)
    b.games[0].actions[0].clock = 3.0
    assert not same_record(a, b)
    b.games[0].actions[0].clock = None
    b.games[0].actions[0].steps = [Step(24, 18, True)]
    assert not same_record(a, b)
    b.games[0].actions[0].steps = [Step(24, 18)]
    b.tags = {"Event": "x", "Site": ""}
    assert not same_record(a, b)
    b.tags = {"Event": "x"}
    b.games[0].actions[0].segments.append(Segment("handover", 1, (4,), [Step(13, 9)]))
    assert not same_record(a, b)


# ----------------------------------------------------------------------------- real records

def _mat_files(folder: str) -> list[str]:
    root = CORPUS / folder
    return sorted(glob.glob(str(root / "**" / "*.mat"), recursive=True)
                  + glob.glob(str(root / "**" / "*.txt"), recursive=True))


@pytest.mark.slow
@pytest.mark.parametrize("folder", ["gnubg-selfplay", "bglab"])
def test_corpus_records_survive_ngn(folder):
    files = _mat_files(folder)
    if not files:
        pytest.skip(f"../shared/corpus/{folder} is absent")
    done = 0
    for path in files:
        m = notation.read_path(path)
        if not m.games:
            continue
        try:
            roundtrip(m)
        except AssertionError as e:
            raise AssertionError(f"{path}: {e}") from None
        done += 1
    assert done >= len(files) // 2


def test_fixtures_and_examples_survive_ngn():
    files = sorted(glob.glob(str(ROOT / "tests" / "fixtures" / "**" / "*.mat"), recursive=True)
                   + glob.glob(str(EXAMPLES / "*.mat")))
    assert len(files) >= 10
    for path in files:
        roundtrip(notation.read_path(path))


def test_ngn_examples_are_canonical_or_read_cleanly():
    for path in sorted(glob.glob(str(EXAMPLES / "**" / "*.ngn"), recursive=True)):
        m = notation.read_path(path)
        assert m.notation == "ngn"
        assert not m.problems and not any(g.problems for g in m.games), path
        roundtrip(m)


@pytest.mark.parametrize("variant,options", [
    ("backgammon", {}), ("backgammon", {"scoring": "nardy500"}), ("long", {}), ("long", {"koks": True}),
    ("gulbara", {}), ("gulbara", {"chain_from_turn": 4})])
def test_generated_games_survive_ngn(variant, options):
    m = generate_match(variant, 12, 2026, ("Ann Lee", "Böb \"B\""), options)
    text = roundtrip(m)
    if variant == "gulbara":
        assert "handover " in text and "chain " in text


# ----------------------------------------------------------------------------- hypothesis records

_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
_KEY = st.text(st.characters(exclude_categories=("Cs",), exclude_characters='"[]\n\r'), min_size=1,
               max_size=10).map(str.strip).filter(lambda k: k and k != ngn.MATCH_LENGTH_TAG)
_STEP = st.builds(Step, st.integers(0, 25), st.integers(0, 25), st.booleans())
_STEPS = st.lists(_STEP, max_size=6)
_CLOCK = st.none() | st.integers(0, 100_000).map(float) | st.floats(0, 100_000, allow_nan=False)
_COMMENTS = st.lists(_TEXT, max_size=2)
_VALUE = st.integers(0, 10**9 - 1)


@st.composite
def _segment(draw):
    kind = draw(st.sampled_from(["chain", "handover"]))
    if kind == "chain":
        d = draw(st.integers(1, 6))
        dice = (d, d, d, d)
    else:
        dice = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=4)))
    return Segment(kind, draw(st.integers(0, 1)), dice, draw(_STEPS))


@st.composite
def _action(draw):
    kind = draw(st.sampled_from(list(Kind)))
    a = Action(kind, draw(st.integers(0, 1)), L, draw(st.none() | st.integers(1, 999_999)))
    if kind is Kind.ROLL:
        a.dice_text = draw(st.sampled_from(["", "00", "79"]) | st.tuples(
            st.integers(1, 6), st.integers(1, 6)).map(lambda t: f"{t[0]}{t[1]}"))
        if a.dice_text and all("1" <= c <= "6" for c in a.dice_text):
            a.dice = (int(a.dice_text[0]), int(a.dice_text[1]))
        how = draw(st.sampled_from(["steps", "steps", "unplayed", "cannot"]))
        if how == "steps":
            a.steps = draw(_STEPS)
        elif how == "unplayed":
            a.unplayed = True
        else:
            a.cannot_move = True
        a.segments = draw(st.lists(_segment(), max_size=3))
    elif kind in (Kind.DOUBLE, Kind.BEAVER):
        a.value = draw(_VALUE)
    elif kind in (Kind.WIN, Kind.RESIGN, Kind.TIMEOUT):
        a.value = draw(st.none() | _VALUE)
        a.and_match = kind is Kind.WIN and draw(st.booleans())
        a.level = draw(st.none() | st.integers(1, 3)) if kind is Kind.RESIGN else None
    elif kind is Kind.SETUP:
        side = st.lists(st.integers(0, 24), max_size=15).map(lambda pts: tuple(pts.count(i) for i in range(25)))
        a.setup = Setup(draw(st.none() | st.tuples(side, side)),
                        draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6))),
                        draw(st.none() | st.integers(1, 64)), draw(st.none() | st.sampled_from([0, 1, -1])))
    a.clock = draw(_CLOCK)
    a.comments = draw(_COMMENTS)
    return a


@st.composite
def _match(draw):
    keys = draw(st.lists(_KEY, max_size=6, unique=True))
    tags = {k: draw(_TEXT) for k in keys}
    if draw(st.booleans()):
        tags.setdefault("White", draw(_TEXT))
        tags.setdefault("Black", draw(_TEXT))
    m = Match("", "test", tags, match_length=draw(st.none() | st.integers(0, 99)),
              comments=draw(_COMMENTS))
    for n in range(1, draw(st.integers(0, 3)) + 1):
        players = draw(st.sampled_from([(tags.get("White", ""), tags.get("Black", ""))])
                       | st.tuples(_TEXT, _TEXT))
        g = Game(n, L, draw(st.none() | st.integers(0, 999)), players,
                 draw(st.none() | st.tuples(st.integers(0, 999_999), st.integers(0, 999_999))),
                 comments=draw(_COMMENTS))
        g.actions = draw(st.lists(_action(), max_size=8))
        m.games.append(g)
    return m


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_match())
def test_hypothesis_records_survive_ngn(m):
    roundtrip(m)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_reader_never_raises_on_any_text(text):
    m = ngn.read(text, "x.ngn")
    problems = m.problems + [p for g in m.games for p in g.problems]
    for p in problems:
        assert p.loc.line >= 1 and p.loc.column >= 1
        assert "internal error" not in p.message, p.message


_PIECES = st.sampled_from([
    '[Event "x"]', '[A b "c\\"d"]', "Game 1 ", 'players "a" "b" ', "score 1-2 ", "1. ", "1... ", "W ", "B ",
    "64: ", "24/18 ", "bar/21* ", "6/off ", "24/21(2) ", "(1:05) ", "(3.5s) ", "{ c } ", "{ x\n y } ", "; z",
    "\n", "\n   ", "chain 44: ", "handover B 34: ", "double 2 ", "take ", "drop ", "resign ", "wins 2 match ",
    "timeout ", "????", "cannot move", "??: ", "{", "}", '"', "\\"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES | st.text(alphabet='[]"\\{} ;\n\tWB0123456789./:*()?-', max_size=3), max_size=40))
def test_whatever_reads_cleanly_survives_the_round_trip(parts):
    text = "".join(parts)
    m = ngn.read(text, "x.ngn")
    problems = m.problems + [p for g in m.games for p in g.problems]
    assert not [p for p in problems if "internal error" in p.message]
    if not problems:
        roundtrip(m)


_SAMPLE = ngn.write(generate_match("gulbara", 1, 7, ("A", "B"))).splitlines(keepends=True)[:40]


@settings(max_examples=300, deadline=None)
@example(line=len(_SAMPLE) - 2, col=60, junk="\r0")       # a lone CR after the last line: a line of its own
@given(st.integers(0, len(_SAMPLE) - 1), st.integers(0, 60), st.text(min_size=1, max_size=3))
def test_reader_never_raises_on_damaged_records(line, col, junk):
    lines = list(_SAMPLE)
    s = lines[line]
    lines[line] = s[:col] + junk + s[col:]
    text = "".join(lines)
    m = ngn.read(text, "x.ngn")
    for p in m.problems + [p for g in m.games for p in g.problems]:
        assert "internal error" not in p.message, p.message
        # the junk may hold line breaks too: CR, LF and CRLF each end a line (as the decoder reads them)
        assert 1 <= p.loc.line <= text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1


# ----------------------------------------------------------------------------- the notation itself

GUL = """\
[Event "Example"]
[White "Aysel"]
[Black "Rashad"]
[Variant "gulbara"]
[MatchLength "0"]
[TimeControl "120"]
{ a match comment }

Game 1 score 0-0 ; first game
1. 33: 24/21 24/21 21/18(2) (0:41) { strong }
   chain 44: 18/14(2) 14/10(2)
   chain 55: 10/5
   handover B 555: 24/19 19/14 14/9
   chain 66: 24/18(4)
1... 64: 24/18 18/14 (1:05)
2. 31: 18/15 24/23  double 2
3... take ; taken
B resign 2 (125.5s)
W wins 2 match
"""


def test_reads_every_piece_of_a_hand_written_record():
    m = ngn.read(GUL, "gul.ngn")
    assert not m.problems and not m.games[0].problems
    assert list(m.tags) == ["Event", "White", "Black", "Variant", "TimeControl"]
    assert m.match_length == 0 and m.match_loc == Loc(5, 1)
    assert m.tag_locs["Black"] == Loc(3, 1)
    assert m.comments == ["a match comment"]
    g = m.games[0]
    assert g.players == ("Aysel", "Rashad") and g.score == (0, 0) and g.comments == ["first game"]
    a = g.actions
    assert [(x.kind, x.player, x.move) for x in a] == [
        (Kind.ROLL, 0, 1), (Kind.ROLL, 1, 1), (Kind.ROLL, 0, 2), (Kind.DOUBLE, 1, 2), (Kind.TAKE, 1, 3),
        (Kind.RESIGN, 1, None), (Kind.WIN, 0, None)]
    first = a[0]
    assert first.loc == Loc(10, 4) and first.dice == (3, 3) and first.clock == 41.0
    assert first.steps == [Step(24, 21), Step(24, 21), Step(21, 18), Step(21, 18)]
    assert first.comments == ["strong"]
    assert [(s.kind, s.player, s.dice, len(s.steps)) for s in first.segments] == [
        ("chain", 0, (4, 4, 4, 4), 4), ("chain", 0, (5, 5, 5, 5), 1), ("handover", 1, (5, 5, 5), 3),
        ("chain", 0, (6, 6, 6, 6), 4)]
    assert first.segments[2].loc == Loc(13, 4) and first.segments[2].text == "handover B 555: 24/19 19/14 14/9"
    assert a[1].clock == 65.0 and a[3].value == 2 and a[4].comments == ["taken"]
    assert a[5].value == 2 and a[5].clock == 125.5
    assert a[6].value == 2 and a[6].and_match
    assert g.end_loc == Loc(19, 1)
    roundtrip(m)


def test_writer_layout():
    text = ngn.write(ngn.read(GUL, ""))
    assert text.splitlines()[:12] == [
        '[Event "Example"]', '[White "Aysel"]', '[Black "Rashad"]', '[Variant "gulbara"]',
        '[MatchLength "0"]', '[TimeControl "120"]', "", "{ a match comment }", "", "Game 1 score 0-0",
        "{ first game }", "1. 33: 24/21(2) 21/18(2) (0:41) { strong }"]
    assert "   handover B 555: 24/19 19/14 14/9\n" in text
    assert "2. 31: 18/15 24/23  double 2\n3... take { taken }\nB resign 2 (125.5s)\nW wins 2 match\n" in text


def test_sniffing_tells_ngn_from_mat():
    assert notation.sniff(GUL).name == "ngn"
    assert notation.sniff(" 7 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n").name == "mat"
    assert notation.for_path("x.ngn").name == "ngn"


def _problems(text: str) -> list[tuple[int, int, str]]:
    m = ngn.read(text, "bad.ngn")
    return [(p.loc.line, p.loc.column, p.message) for p in m.problems + [q for g in m.games for q in g.problems]]


@pytest.mark.parametrize("line,expect", [
    ("1. 64: 24/x8 13/9", (1, 8, 'expected a move like "24/18", "bar/21*" or "6/off", a clock time like '
                              '"(1:05)", a comment or the next cell, found "24/x8"')),
    ("1. 64 24/18", (1, 4, 'expected a cell: a roll like "64:", "double N", "beaver N", "take", "drop", '
                           '"resign", "accept", "reject", "wins N", "timeout" or "setup", found "64"')),
    ("1. 64: 30/24", (1, 8, 'expected a point 0..25, "bar" or "off", found "30" in "30/24"')),
    ("1. double", (1, 10, "expected a number, found the end of the line")),
    ("1. 64: 24/18 (2:5)", (1, 14, 'expected a clock time like "(1:05)", a comment or the next cell, '
                                   'found "(2:5)"')),
    ("1. 64: 24/18 (0:05) (0:06)", (1, 21, "expected one clock time per action, found a second one (0:06)")),
    ("   handover X 4: 13/9", (1, 13, 'expected "W" or "B" or the numbers played, like "44:" or "3:", found "X"')),
    ("   chain 47: 13/9", (1, 10, 'expected numbers 1..6 after "chain", found "47:"')),
    ("hello", (1, 1, 'expected a line starting with a tag [Key "Value"], "Game N", a move number like "12." or '
                     '"12...", "W"/"B", "chain", "handover" or a comment, found "hello"')),
])
def test_parse_errors_point_at_the_place(line, expect):
    text = "[Event \"x\"]\nGame 1\n2. 11: 24/23\n" + line + "\n3. 21: 24/22 24/23\n"
    found = _problems(text)
    assert len(found) == 1, found
    ln, col, msg = found[0]
    assert (ln - 3, col, msg) == expect
    m = ngn.read(text, "")
    kinds = [(a.move, a.player) for a in m.games[0].actions]
    assert (2, 0) in kinds and (3, 0) in kinds       # the lines around it are still read


def test_structure_errors():
    assert _problems('1. 64: 24/18\n') == [
        (1, 1, 'expected a line "Game N" before the first move, found "1."')]
    assert _problems('[A "1"]\n[A "2"]\nGame 1\n') == [
        (2, 1, 'expected each tag once, found a second "A" tag (the first is at line 1)')]
    assert _problems('Game 1\n[A "1"]\n') == [
        (2, 1, 'expected a move line, a comment or "Game N", found a tag; tags go before the first game')]
    assert _problems('[MatchLength "five"]\nGame 1\n') == [
        (1, 1, 'expected a whole number of points in the MatchLength tag (0 for money play), found "five"')]
    assert _problems('Game 1\n1. double 2\n   chain 44: 24/20\n') == [
        (3, 4, 'expected a roll on the line before "chain" (a chain or handover line continues a roll)')]
    assert _problems('[Event "unclosed\nGame 1\n')[0][:2] == (1, 1)


def test_a_bad_game_does_not_stop_the_next_one():
    text = "Game 1\n1. 64: 24/18 24/20\n2. 6x: 1/2\nGame 2\n1. 31: 8/5 6/5  52: 13/8 13/11\n"
    m = ngn.read(text, "")
    assert len(m.games) == 2
    assert [(p.loc.line, p.loc.column) for p in m.games[0].problems] == [(3, 4)]
    assert len(m.games[1].actions) == 2 and not m.games[1].problems


# ----------------------------------------------------------------------------- the command line

def test_generate_is_deterministic_and_writes_atomically(tmp_path, cli):
    code1, out1, err = cli.subprocess("generate", "--variant", "gulbara", "--games", "3", "--seed", "11",
                           "--players", "Ann,Bob")
    assert code1 == 0, err
    code2, out2, _ = cli.subprocess("generate", "--variant", "gulbara", "--games", "3", "--seed", "11",
                         "--players", "Ann,Bob")
    assert out1 == out2 and out1.startswith('[Event "Generated games"]')
    assert '[White "Ann"]\n[Black "Bob"]\n' in out1
    _, other, _ = cli.subprocess("generate", "--variant", "gulbara", "--games", "3", "--seed", "12", "--players",
                                 "Ann,Bob")
    assert other != out1
    target = tmp_path / "g.ngn"
    code, out, _ = cli.subprocess("generate", "--variant", "gulbara", "--games", "3", "--seed", "11", "--players",
                       "Ann,Bob", "-o", str(target))
    assert code == 0 and out == ""
    assert target.read_text(encoding="utf-8") == out1
    assert os.listdir(tmp_path) == ["g.ngn"]


@pytest.mark.parametrize("variant", ["backgammon", "long", "gulbara"])
def test_generated_files_validate_from_file_and_stdin(tmp_path, variant, cli):
    code, text, _ = cli.subprocess("generate", "--variant", variant, "--games", "2", "--seed", "5")
    assert code == 0
    path = tmp_path / "g.ngn"
    path.write_text(text, encoding="utf-8")
    code, out, err = cli.subprocess("validate", str(path))
    assert out.splitlines()[-1].startswith("1 file(s), 2 game(s)"), out + err
    code2, out2, _ = cli.subprocess("validate", "-", input=text.encode())
    assert out2.splitlines()[-1] == out.splitlines()[-1]
    assert code2 == code


def test_generate_bad_arguments(cli):
    code, _, err = cli.subprocess("generate", "--variant", "chess", "--games", "1")
    assert code == 2 and "unknown variant" in err
    code, _, err = cli.subprocess("generate", "--variant", "long", "--players", "OnlyOne")
    assert code == 2 and "two names" in err
    code, _, err = cli.subprocess("generate", "--variant", "long", "--rule", "koks=maybe")
    assert code == 2 and "koks" in err
    code, _, err = cli.subprocess("generate", "--variant", "long", "-o", str(ROOT / "no-such-folder" / "x.ngn"))
    assert code == 2 and "cannot write" in err and "Traceback" not in err
    assert not (ROOT / "no-such-folder").exists()


def test_validate_reports_ngn_parse_errors_with_place(tmp_path, cli):
    bad = tmp_path / "bad.ngn"
    bad.write_text('[Variant "long"]\n\nGame 1\n1. 64: 24/x8\n', encoding="utf-8")
    code, out, _ = cli.subprocess("validate", str(bad))
    assert code == 1
    assert f"{bad}:4:8: parse-error: expected a move like" in out
    bad.write_text('[Variant "long"]\n[Koks "maybe"]\n\nGame 1\n1. 64: 24/18 23/20\n', encoding="utf-8")
    code, out, _ = cli.subprocess("validate", str(bad))
    assert f"{bad}:2:1: parse-error: warning: rule option koks takes on/off" in out


def test_the_examples_in_the_specification_read_and_validate():
    from nardy_analyze.analyze import validate_match

    doc = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    blocks = [b.split("\n", 1)[1] for b in doc.split("```")[1::2] if b.split("\n", 1)[1].lstrip().startswith(("[", ";"))]
    assert len(blocks) >= 4
    for text in blocks:
        m = ngn.read(text, "doc.ngn")
        assert not m.problems and not any(g.problems for g in m.games), (text, m.problems)
        report = validate_match(m)
        errors = [f for f in report.findings if f.severity == "error"]
        assert not errors, [(f.line, f.rule, f.message) for f in errors]


def test_readme_generate_demo_is_true(tmp_path, cli):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## generate", 1)[1].split("```")[3]
    shown = block.split("$ nardy-analyze generate --variant gulbara --seed 3 --players Aysel,Rashad | head -13\n")[1]
    shown = shown.split("$ ")[0].splitlines()
    _, out, _ = cli.subprocess("generate", "--variant", "gulbara", "--seed", "3", "--players", "Aysel,Rashad")
    assert out.splitlines()[:13] == shown
    target = tmp_path / "games.ngn"
    cli.subprocess("generate", "--variant", "long", "--games", "2", "--seed", "7", "--players", "Timur,Dina", "-o",
                   str(target))
    code, out, _ = cli.subprocess("validate", str(target))
    assert out.splitlines()[-1] in block and code == 0


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_match(), st.integers(0, 10_000))
def test_reading_line_by_line_after_a_bad_line_gives_the_same_record(m, where):
    """One unreadable line sends the reader to its line-by-line mode: everything else reads the same."""
    lines = ngn.write(m).split("\n")
    at = where % len(lines)
    damaged = "\n".join(lines[:at] + ["@@@ unreadable"] + lines[at:])
    back = ngn.read(damaged, "x.ngn")
    problems = back.problems + [p for g in back.games for p in g.problems]
    assert [(p.loc.line, p.loc.column) for p in problems] == [(at + 1, 1)]
    assert record_dict(back) == record_dict(m)


def test_chain_and_handover_parts_may_follow_the_roll_on_its_line():
    m = ngn.read("Game 1\n1. 33: 24/21(2) chain 44: 21/17 handover B 4: 24/20 (0:30) {x}\n"
                 "1... 21: 24/22 22/21\n", "")
    a = m.games[0].actions
    assert not m.games[0].problems
    assert [(s.kind, s.player, s.dice, s.loc) for s in a[0].segments] == [
        ("chain", 0, (4, 4, 4, 4), Loc(2, 17)), ("handover", 1, (4,), Loc(2, 33))]
    # a clock time after a handover part is the time of the handover's player (docs/rules.md, "The clock")
    assert a[0].clock is None and a[0].segments[1].clock == 30.0 and a[0].comments == ["x"] and a[1].player == 1
    assert ngn.write(m).splitlines()[1:4] == ["1. 33: 24/21(2) { x }", "   chain 44: 21/17",
                                              "   handover B 4: 24/20 (0:30)"]


def test_a_bad_chain_or_handover_line_adds_nothing():
    m = ngn.read("Game 1\n1. 33: 24/21(2) (0:10)\n   chain 44: 21/17 handover X 4: 13/9\n"
                 "   chain 55: 21/16 (0:11)\n2. 11: 24/23\n", "")
    assert [(p.loc.line, p.loc.column) for p in m.games[0].problems] == [(3, 29), (4, 20)]
    assert m.games[0].problems[1].message == "expected one clock time per action, found a second one (0:11)"
    first = m.games[0].actions[0]
    assert first.segments == [] and first.clock == 10.0


# ----------------------------------------------------------------------------- the line reader against Lark

def _both_ways(text: str) -> tuple[Match, Match]:
    """The record read by the line reader (Lark only for the lines it does not take) and by Lark alone; the
    line reader's compiled part (``mat.NGN_ACTIONS``: runs of move lines), where it is in use, gives what its
    Python part gives."""
    from nardy_analyze.notation import mat
    text = notation.normalise_text(text)
    fast = ngn._Reader(text, "x.ngn").run()
    if mat.NGN_ACTIONS is not None:
        saved, mat.NGN_ACTIONS = mat.NGN_ACTIONS, None
        try:
            assert ngn._Reader(text, "x.ngn").run() == fast
        finally:
            mat.NGN_ACTIONS = saved
    return fast, ngn._Reader(text, "x.ngn", tokenize=False).run()


@pytest.mark.parametrize("variant,options", [
    ("backgammon", {}), ("long", {}), ("gulbara", {}), ("gulbara", {"chain_from_turn": 4})])
def test_the_line_reader_reads_generated_records_as_lark(variant, options):
    text = ngn.write(generate_match(variant, 20, 11, ("Ann", "Bob"), options))
    fast, lark = _both_ways(text)
    assert fast == lark                      # every field, places included
    assert sum(len(g.actions) for g in fast.games) > 100


def test_the_line_reader_reads_the_examples_as_lark():
    for path in sorted(glob.glob(str(EXAMPLES / "*.ngn"))):
        with open(path, encoding="utf-8") as f:
            fast, lark = _both_ways(f.read())
        assert fast == lark, path


_LINE_EDITS = st.sampled_from([
    " {c}", " (0:05)", " (clk 0:10:00)", " ; note", "\t", "  ", "x", "*", "/", ":", "(2)", " match", " 2",
    " take", " drop", " double 4", " wins 2", " chain 44: 24/20", " handover B 3: 6/3", " W", "?", "{", "}",
    '"', " 64: 24/18", " ????", " cannot move", " illegal play (x)", "12.", "12...", "CHAIN", "Take", "bar/",
    "/off", "\n", "\n1. 64:", " setup dice 31", " score 2-1", "Game 3", "Game", " players \"A\" \"B\"",
    " 7-", "1.", "1...", " 66: 24/18(4)", " 21: 24/23 24/22", " 31: bar/22* 6/5", " 62: 6/off 2/off", "off", "BAR", " chain 33: 8/5", "handover W 5:", "chain 12:", " chain 77:", "chain B 44:",
    "CHAIN 55: 8/3", "handover 3: 6/3 6/3", "chain 66:", " ratings \"1500\" \"\"", ' players "A\\"x" "B"',
    " ratings", ' players "A"', " PLAYERS", ' ratings "1" "2" score 1-0', ' "x"', " playersx"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["backgammon", "long", "gulbara"]), st.integers(0, 50),
       st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 80), _LINE_EDITS
                          | st.text(alphabet=" \tWB0123456789./:*()?-{};\"x", max_size=4)), max_size=4),
       st.booleans())
def test_the_line_reader_reads_altered_lines_as_lark(variant, seed, edits, delete):
    """Any line, altered or not, read or refused, gives what Lark alone gives: actions, places, problems."""
    lines = ngn.write(generate_match(variant, 1, seed, ("A", "B"))).split("\n")[:30]
    for at, col, edit in edits:
        k = at % len(lines)
        s = lines[k]
        lines[k] = s[:col] + ("" if delete and len(edit) > 3 else edit) + s[col + (1 if delete else 0):]
    fast, lark = _both_ways("\n".join(lines))
    assert fast == lark


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["\n", " ", "\t", "[", "]", '"', "1", "12", "123456", "1234567", ".", "...", ":",
                                 "??", "game", "Game", "GAME", "players", "Players", "score", "ratings", "x", "é"]),
                max_size=16))
def test_the_sniff_finds_the_lines_a_multiline_search_finds(pieces):
    """The sniff's two patterns (the first line, then each line after a line end) accept exactly the texts
    that one search with "^" in MULTILINE mode accepts: a line starting with a tag, a numbered move or
    "Game N players|ratings|score" (any case)."""
    import re
    reference = re.compile(r'^[ \t]*(?:\[[^\]"\n]+"|[0-9]{1,6}\.(?:\.\.)?[ \t]+(?:[0-9]{2}|\?\?):|game[ \t]+[0-9]+'
                           r'[ \t]+(?:players|ratings|score)\b)', re.M | re.I)
    text = "".join(pieces)
    assert ngn.looks_like_ngn(text) == bool(reference.search(text))
