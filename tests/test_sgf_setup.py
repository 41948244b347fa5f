"""Set-up positions, beavers, resignation levels and answers: the record model, every reader and writer
that can hold them, the refusals of those that cannot, the replay's rules, and GNU Backgammon as the judge.

Fixtures in ``tests/fixtures/gnubg-sgf`` were written by GNU Backgammon 1.07 (``save match``,
``export match mat``): ``setup.sgf`` (``set board``, ``set dice``, ``set cube value``), ``setup2.sgf`` (a set-up position with W on
the bar, cube value and owner, a set-up in the middle of a game, resignations of a gammon and a single game),
``beaver-resign.sgf``/``.mat`` (a money session with a beaver and resignations of a single game and a
backgammon), ``analysed.sgf`` (``analyse match`` plus ``annotate``: A, DA, LU, GB/GW, BM, DO, MR, GS, C).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings, strategies as st

from nardy_analyze import notation
from nardy_analyze.analyze import validate_match
from nardy_analyze.convert import convert_paths
from nardy_analyze.engine.posid import decode_position_id, position_id
from nardy_analyze.record import CENTRED, Action, Game, Kind, Loc, Match, Setup, Step, record_dict, same_record
from nardy_analyze.convert import write_text

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "gnubg-sgf"
SCHEMA = json.loads((ROOT / "docs" / "schema" / "match.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
HAVE_GNUBG = shutil.which(GNUBG) is not None or os.path.exists(GNUBG)

OPENING = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def read(path: Path) -> Match:
    m = notation.read_path(path)
    assert not m.problems and not any(g.problems for g in m.games), \
        [p.message for p in m.problems] + [p.message for g in m.games for p in g.problems]
    return m


def via(match: Match, fmt: str) -> Match:
    text = write_text(match, fmt)
    if fmt == "json":
        VALIDATOR.validate(json.loads(text))
    back = notation.get(fmt).read(text, f"x.{fmt}")
    assert not back.problems and not any(g.problems for g in back.games), text
    return back


def kinds(m: Match) -> list[list[str]]:
    return [[a.kind.value for a in g.actions] for g in m.games]


# ----------------------------------------------------------------------------- reading gnubg's files


def test_gnubg_setup_reads_as_setup_actions():
    m = read(FIX / "setup2.sgf")
    g1, g2, g3 = ([(a.kind.value, a.player) for a in g.actions] for g in m.games)
    assert g1[:3] == [("setup", 0), ("setup", 1), ("roll", 1)] and g3 == [("setup", 0)]
    first, board = (a.setup for a in m.games[0].actions[:2])
    # gnubg: its opening roll 63 set as dice, then set board (PL[B]), set cube value 2, set cube owner
    assert (first.dice, first.checkers, first.cube) == ((6, 3), None, None)
    assert (board.dice, board.cube, board.owner) == (None, 2, 0)
    assert board.checkers[0][24] == 1 and sum(board.checkers[0]) == 15 and sum(board.checkers[1]) == 15
    mid = m.games[1].actions[1].setup                  # a set-up in the middle of game 2
    assert mid.owner == CENTRED and sum(mid.checkers[0]) == 10 and sum(mid.checkers[1]) == 12
    rep = validate_match(m)
    assert rep.errors == 0, [f.message for f in rep.findings]
    # resigned a gammon at cube 2 (RE[B+4R]); a single game after the mid-game set-up (RE[W+1R])
    assert [(g.winner, g.points, g.how) for g in rep.games[:2]] == [(1, 4, "resign"), (0, 1, "resign")]


def test_setup_is_replayed_from():
    """W, on the bar against B's closed points, cannot move with 55 and 44 in the set-up position: legal.
    The same record without its set-up is replayed from the opening position, where those rolls play."""
    m = read(FIX / "setup2.sgf")
    assert validate_match(m).errors == 0
    for g in m.games:
        g.actions = [a for a in g.actions if a.kind is not Kind.SETUP]
    rules = [f.rule for f in validate_match(m).findings if f.severity == "error"]
    assert "max-dice" in rules, rules


def test_gnubg_setup_by_dice_and_cube_value():
    m = read(FIX / "setup.sgf")
    setups = [a.setup for a in m.games[0].actions if a.kind is Kind.SETUP]
    assert [(s.checkers is not None, s.dice, s.cube) for s in setups] == [
        (True, (5, 4), None), (False, (3, 1), 2), (False, (6, 4), None)] or \
        [(s.checkers is not None, s.dice, s.cube) for s in setups] == [
        (False, (5, 4), None), (True, (3, 1), 2), (False, (6, 4), None)]
    double = next(a for a in m.games[0].actions if a.kind is Kind.DOUBLE)
    assert double.value == 4                           # the cube was set to 2 before it
    assert validate_match(m).errors == 0


def test_gnubg_beaver_and_resignations():
    m = read(FIX / "beaver-resign.sgf")
    assert kinds(m)[0][:4] == ["roll", "double", "beaver", "take"]
    beaver = m.games[0].actions[2]
    assert beaver.value == 4 and beaver.player == 0
    # RE[B+4R]: a resignation at cube 4 (the replay tells resign from the board)
    rep = validate_match(m)
    assert [(g.winner, g.points, g.how) for g in rep.games[:2]] == [(1, 4, "resign"), (1, 3, "resign")]
    # beavers are off by default (docs/rules.md, backgammon rule 8, option beaver): the beaver is a finding
    assert [f.rule for f in rep.findings if f.severity == "error"] == ["cube-illegal"]
    on = validate_match(m, options={"beaver": True}) if "options" in validate_match.__code__.co_varnames else None
    if on is not None:
        assert on.errors == 0, [f.message for f in on.findings]


def test_gnubg_mat_beavers_read_and_written_byte_for_byte_but_the_unfinished_tail():
    text = (FIX / "beaver-resign.mat").read_text(encoding="utf-8")
    m = notation.get("mat").read(text, "b.mat")
    assert not m.problems and not any(g.problems for g in m.games)
    assert kinds(m)[0][:4] == ["roll", "double", "beaver", "roll"]
    assert m.games[0].actions[2].value == 4
    out = write_text(m, "mat")
    # gnubg's own export of games 1 and 2 (game 3 is unfinished: gnubg leaves no padding there)
    assert out.split(" Game 3")[0] == text.split(" Game 3")[0]


@pytest.mark.slow
def test_analysed_sgf_reads_without_error_and_keeps_comments():
    m = read(FIX / "analysed.sgf")
    assert {"A", "DA", "LU", "BM", "DO", "GB", "GW", "MR", "GS"} <= set(m.ignored)
    assert m.ignored["A"] >= 50
    comments = [c for g in m.games for a in g.actions for c in a.comments]
    assert comments == ["A comment: [24/18] is fine"]
    assert validate_match(m).errors == 0
    # same match as the unanalysed one: gnubg's analysis is not part of the record
    plain = notation.read_path(ROOT.parent / "shared" / "corpus" / "gnubg-selfplay" / "gnubg_1001.mat")
    if plain.games:
        assert [[(a.kind, a.dice and tuple(sorted(a.dice))) for a in g.actions if a.kind is not Kind.WIN]
                for g in m.games] == \
               [[(a.kind, a.dice and tuple(sorted(a.dice))) for a in g.actions if a.kind is not Kind.WIN]
                for g in plain.games]


def test_unknown_properties_are_no_parse_error():
    text = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]ZZ[whatever]XY[1][2]\n;W[31hefe]QQ[x]TE[1]IT[])"
    m = notation.get("sgf").read(text, "u.sgf")
    assert not m.problems and not m.games[0].problems
    assert m.ignored == {"ZZ": 1, "XY": 1, "QQ": 1, "TE": 1, "IT": 1}


def test_convert_prints_the_ignored_note(tmp_path, capsys):
    from typer.testing import CliRunner
    from nardy_analyze.cli import app

    r = CliRunner().invoke(app, ["convert", str(FIX / "analysed.sgf"), "--to", "json", "-o", str(tmp_path / "a.json")])
    assert r.exit_code == 0, r.output
    assert "note:" in r.output and "analysis/annotation properties ignored" in r.output and "A 57" in r.output


@pytest.mark.parametrize("bad, msg", [
    ("AW[f]", "AE[a:y]"),
    ("AE[a:y]AW[f][f][f][f][f][f][f][f][f][f][f][f][f][f][f][f]", "more than 15"),
    ("PL[X]", "PL[W]"),
    ("DI[71]", "two dice"),
    ("CV[3]", "cube value"),
    ("CP[q]", "CP[c]"),
])
def test_bad_setup_properties_are_located_problems(bad, msg):
    text = f"(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]\n;{bad})"
    m = notation.get("sgf").read(text, "bad.sgf")
    probs = m.games[0].problems
    assert probs and msg in probs[0].message and probs[0].loc.line == 2


# ----------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("name", ["setup.sgf", "setup2.sgf", "beaver-resign.sgf", "analysed.sgf"])
@pytest.mark.parametrize("fmt", ["json", "ngn"])
def test_sgf_round_trips(name, fmt):
    """sgf -> json -> sgf and sgf -> ngn -> sgf: the same record, and the same SGF text."""
    m = read(FIX / name)
    back = via(m, fmt)
    assert record_dict(back)["games"] == record_dict(m)["games"]
    sgf = notation.get("sgf")
    assert write_text(back, "sgf") == write_text(m, "sgf")
    again = sgf.read(write_text(back, "sgf"), "again.sgf")
    assert record_dict(again)["games"] == record_dict(m)["games"]


def _record(actions: list[Action], length: int = 0) -> Match:
    m = Match(path="t", notation="json", match_length=length)
    m.games.append(Game(1, Loc(1, 1), players=("Ann", "Bob"), score=(0, 0), actions=actions))
    return m


def _a(kind: Kind, player: int, **kw) -> Action:
    return Action(kind, player, Loc(1, 1), **kw)


def rich() -> Match:
    """A record with everything of this issue: set-ups (mid-game too), beaver, raccoon, offers answered."""
    me = list(OPENING)
    me[5] -= 2
    me[4] += 2
    return _record([
        _a(Kind.SETUP, 1, setup=Setup(checkers=(tuple(me), OPENING), dice=(4, 2), cube=2, owner=CENTRED)),
        _a(Kind.ROLL, 1, dice=(4, 2), dice_text="42", steps=[Step(8, 4), Step(6, 4)]),
        _a(Kind.DOUBLE, 0, value=4),
        _a(Kind.BEAVER, 1, value=8),
        _a(Kind.BEAVER, 0, value=16, comments=["a raccoon"]),
        _a(Kind.TAKE, 1),
        _a(Kind.ROLL, 0, dice=(3, 1), dice_text="31", steps=[Step(8, 5), Step(6, 5)]),
        _a(Kind.RESIGN, 1, level=2),
        _a(Kind.REJECT, 0),
        _a(Kind.SETUP, 1, setup=Setup(cube=16, owner=1)),
        _a(Kind.RESIGN, 1, level=1, value=16),
        _a(Kind.ACCEPT, 0),
        _a(Kind.WIN, 0, value=16),
    ])


@pytest.mark.parametrize("fmt", ["json", "ngn", "sgf"])
def test_every_new_action_survives(fmt):
    m = rich()
    back = via(m, fmt)
    assert record_dict(back)["games"][0]["actions"] == record_dict(m)["games"][0]["actions"]


def test_rich_record_is_legal_with_beavers_on():
    m = rich()
    m.tags["Beaver"] = "On"
    m.tag_items.append(("Beaver", "On"))
    rep = validate_match(m)
    assert rep.errors == 0, [(f.rule, f.message) for f in rep.findings]
    assert (rep.games[0].winner, rep.games[0].points, rep.games[0].how) == (0, 16, "resign")


def test_mat_refuses_what_it_cannot_hold_and_lossy_drops_it(tmp_path):
    src = tmp_path / "rich.json"
    src.write_text(write_text(rich(), "json"), encoding="utf-8")
    run = convert_paths([str(src)], "mat", out_dir=str(tmp_path / "out"))
    o = run.outcomes[0]
    assert o.status == "refused" and not (tmp_path / "out" / "rich.mat").exists()
    text = "\n".join(o.messages)
    for what in ("a set-up position", "the level of a resignation", "a resignation's acceptance",
                 "a rejected resignation offer"):
        assert what in text, text
    run = convert_paths([str(src)], "mat", out_dir=str(tmp_path / "out"), lossy=True)
    assert run.outcomes[0].status == "written" and run.outcomes[0].dropped
    mat = (tmp_path / "out" / "rich.mat").read_text(encoding="utf-8")
    assert "Beavers => 8" in mat and "Beavers => 16" in mat
    assert mat.count("Resigns") == 1 and "Resigns 16 points" in mat    # the rejected offer is dropped whole
    back = notation.read_path(tmp_path / "out" / "rich.mat")
    assert [a.kind.value for a in back.games[0].actions if a.kind.value in ("beaver", "resign")] == \
        ["beaver", "beaver", "resign"]


def test_sgf_and_ngn_and_json_hold_everything():
    for fmt in ("sgf", "ngn", "json"):
        assert notation.get(fmt).losses(rich()) == [], fmt


# ----------------------------------------------------------------------------- the replay's rules


def test_beaver_in_match_play_is_cube_illegal():
    m = _record([_a(Kind.ROLL, 0, dice=(3, 1), dice_text="31", steps=[Step(8, 5), Step(6, 5)]),
                 _a(Kind.DOUBLE, 1, value=2), _a(Kind.BEAVER, 0, value=4), _a(Kind.TAKE, 1)], length=5)
    found = [f for f in validate_match(m).findings if f.rule == "cube-illegal"]
    assert found and "money play" in found[0].message


def test_beaver_off_and_without_double():
    m = _record([_a(Kind.ROLL, 0, dice=(3, 1), dice_text="31", steps=[Step(8, 5), Step(6, 5)]),
                 _a(Kind.BEAVER, 1, value=2)])
    msgs = [f.message for f in validate_match(m).findings if f.rule == "cube-illegal"]
    assert msgs and "no double" in msgs[0]


def test_dropped_beaver_gives_the_beaverer_the_taken_cube():
    m = _record([_a(Kind.ROLL, 0, dice=(3, 1), dice_text="31", steps=[Step(8, 5), Step(6, 5)]),
                 _a(Kind.DOUBLE, 1, value=2), _a(Kind.BEAVER, 0, value=4), _a(Kind.DROP, 1),
                 _a(Kind.WIN, 0, value=2)])
    m.tags["Beaver"] = "On"
    rep = validate_match(m)
    assert rep.errors == 0, [f.message for f in rep.findings]
    assert (rep.games[0].winner, rep.games[0].points, rep.games[0].how) == (0, 2, "drop")


def test_resign_level_gives_the_points_and_is_checked():
    roll = _a(Kind.ROLL, 0, dice=(3, 1), dice_text="31", steps=[Step(8, 5), Step(6, 5)])
    m = _record([roll, _a(Kind.RESIGN, 1, level=2)])
    rep = validate_match(m)
    assert (rep.games[0].winner, rep.games[0].points) == (0, 2)
    assert not [f for f in rep.findings if f.rule == "result-mismatch" and f.severity == "error"]
    # a gammon resigned for 3 points at cube 1 is a finding; so is a level the position no longer allows
    m = _record([roll, _a(Kind.RESIGN, 1, level=2, value=3)])
    assert any("gives 2" in f.message for f in validate_match(m).findings if f.rule == "result-mismatch")


def test_rejected_offer_lets_the_game_go_on():
    m = _record([_a(Kind.ROLL, 0, dice=(3, 1), dice_text="31", steps=[Step(8, 5), Step(6, 5)]),
                 _a(Kind.RESIGN, 1, level=1), _a(Kind.REJECT, 0),
                 _a(Kind.ROLL, 1, dice=(6, 4), dice_text="64", steps=[Step(24, 18), Step(13, 9)]),
                 _a(Kind.RESIGN, 1, level=1), _a(Kind.ACCEPT, 0)])
    rep = validate_match(m)
    assert rep.errors == 0, [f.message for f in rep.findings]
    assert (rep.games[0].winner, rep.games[0].points, rep.games[0].how) == (0, 1, "resign")


def test_answer_without_offer_is_a_finding():
    m = _record([_a(Kind.ROLL, 0, dice=(3, 1), dice_text="31", steps=[Step(8, 5), Step(6, 5)]),
                 _a(Kind.ACCEPT, 1)])
    assert any("offered none" in f.message for f in validate_match(m).findings if f.rule == "result-mismatch")


def test_bare_resigns_does_not_declare_zero_points():
    text = " 5 point match\n\n Game 1\n Ann : 0                        Bob : 0\n" \
           "  1) 31: 8/5 6/5                  Resigns\n"
    m = notation.get("mat").read(text, "r.mat")
    rep = validate_match(m)
    g = rep.games[0]
    assert g.winner == 0 and g.points is None
    assert any(f.rule == "result-mismatch" and f.severity == "warning" and "no points" in f.message
               for f in rep.findings)


# ----------------------------------------------------------------------------- properties

sides = st.lists(st.integers(0, 24), min_size=0, max_size=15).map(
    lambda pts: tuple(pts.count(i) for i in range(25)))


@settings(max_examples=150, deadline=None)
@given(sides, sides)
def test_position_id_decodes_what_it_encodes(a, b):
    assert decode_position_id(position_id(a, b)) == (a, b)


setups = st.builds(
    Setup,
    checkers=st.none() | st.tuples(sides, sides),
    dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    cube=st.none() | st.sampled_from([1, 2, 4, 8, 64]),
    owner=st.none() | st.sampled_from([0, 1, CENTRED]),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), setups), min_size=1, max_size=4), st.sampled_from(["json", "ngn", "sgf"]))
def test_any_setup_survives(items, fmt):
    m = _record([_a(Kind.SETUP, p, setup=s) for p, s in items])
    back = via(m, fmt)
    assert record_dict(back)["games"][0]["actions"] == record_dict(m)["games"][0]["actions"]


# ----------------------------------------------------------------------------- GNU Backgammon as the judge

DUMP = r'''
import gnubg, json
out = {}
for key, path in %(jobs)r:
    gnubg.command('load match "%%s"' %% path)
    m = gnubg.match(analysis=0, boards=1)
    games = []
    for g in m["games"]:
        acts = []
        for x in g["game"]:
            a = {k: (sorted(v) if k == "dice" else v) for k, v in x.items()}
            if "move" in a:
                a["move"] = sorted([list(s) for s in a["move"]])
            acts.append(a)
        games.append({"info": g["info"], "actions": acts})
    out[key] = {"X": m["match-info"]["X"]["name"], "O": m["match-info"]["O"]["name"],
                "length": m["match-info"]["match-length"], "games": games}
json.dump(out, open(%(out)r, "w"), default=str)
'''


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_GNUBG, reason=f"GNU Backgammon not installed ({GNUBG}; apt-get install -y gnubg)")
def test_gnubg_reads_our_sgf_as_its_own(tmp_path):
    """Every fixture, written again by us from the record (directly, and through .json and .ngn), is read
    by gnubg as exactly the match it reads from its own file: set-ups, beavers, resignations, results."""
    jobs = []
    for name in ("setup.sgf", "setup2.sgf", "beaver-resign.sgf", "analysed.sgf"):
        m = read(FIX / name)
        jobs.append((name, str(FIX / name)))
        for fmt in ("sgf", "json", "ngn"):
            rec = m if fmt == "sgf" else via(m, fmt)
            out = tmp_path / f"{fmt}-{name}"
            out.write_text(write_text(rec, "sgf"), encoding="utf-8")
            jobs.append((f"{fmt}-{name}", str(out)))
    script = tmp_path / "dump.py"
    dump = tmp_path / "dump.json"
    script.write_text(DUMP % {"jobs": jobs, "out": str(dump)})
    p = subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=300,
                       stdin=subprocess.DEVNULL)
    assert dump.exists(), p.stderr[-2000:]
    got = json.loads(dump.read_text())
    for name in ("setup.sgf", "setup2.sgf", "beaver-resign.sgf"):
        ref = got[name]
        assert any(a["action"] == "set" for g in ref["games"] for a in g["actions"]) or name != "setup.sgf"
        for fmt in ("sgf", "json", "ngn"):
            assert got[f"{fmt}-{name}"] == ref, (fmt, name)
    # the analysed file: the same moves and results (our file has no analysis to give back)
    strip = lambda d: [[{k: v for k, v in a.items() if k in ("action", "player", "dice", "move", "board")}
                        for a in g["actions"]] for g in d["games"]]
    for fmt in ("sgf", "json", "ngn"):
        assert strip(got[f"{fmt}-analysed.sgf"]) == strip(got["analysed.sgf"])
        assert [g["info"].get("winner") for g in got[f"{fmt}-analysed.sgf"]["games"]] == \
               [g["info"].get("winner") for g in got["analysed.sgf"]["games"]]


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_GNUBG, reason=f"GNU Backgammon not installed ({GNUBG}; apt-get install -y gnubg)")
def test_gnubg_reads_a_rich_record_written_by_us(tmp_path):
    """Our set-up, beaver, raccoon and resignation nodes: gnubg loads the file, sees the set-up position
    and the cube actions, and the same result."""
    m = rich()
    out = tmp_path / "rich.sgf"
    out.write_text(write_text(m, "sgf"), encoding="utf-8")
    script = tmp_path / "dump.py"
    dump = tmp_path / "dump.json"
    script.write_text(DUMP % {"jobs": [("rich", str(out))], "out": str(dump)})
    subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=300,
                   stdin=subprocess.DEVNULL)
    got = json.loads(dump.read_text())["rich"]
    acts = [a["action"] for a in got["games"][0]["actions"]]
    assert acts[:4] == ["set", "set", "set", "set"], acts      # board, dice, cube, owner
    assert acts.count("double") == 3 and acts.count("take") == 1, acts
    board = got["games"][0]["actions"][0].get("board")
    me = list(OPENING)
    me[5] -= 2
    me[4] += 2
    assert board == position_id(tuple(me), OPENING)     # Bob (B) on roll: his side first
    assert got["games"][0]["info"]["winner"] == "X" or got["games"][0]["info"]["winner"] == "O"
    assert got["games"][0]["info"].get("points-won") == 16


def test_sgf_refuses_a_beaver_it_would_read_back_as_a_double():
    m = _record([_a(Kind.ROLL, 0, dice=(3, 1), dice_text="31", steps=[Step(8, 5), Step(6, 5)]),
                 _a(Kind.BEAVER, 1, value=2)])
    assert any("a beaver that answers no double" in x for x in notation.get("sgf").losses(m))
    assert notation.get("sgf").losses(rich()) == []


def test_sgf_double_after_an_unanswered_double_and_a_roll_is_no_beaver():
    text = ("(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[a]PB[b]\n;W[31hefe]\n;B[double]\n;W[42hdfd]"
            "\n;W[double])")
    m = notation.get("sgf").read(text, "d.sgf")
    assert [a.kind.value for a in m.games[0].actions] == ["roll", "double", "roll", "double"]


def test_impossible_setup_is_a_finding():
    clash = list(OPENING)
    clash[0] = 1                    # my point 1 is the opponent's 24, where the opponent has 2 checkers
    clash[5] -= 1
    m = _record([_a(Kind.SETUP, 0, setup=Setup(checkers=(tuple(clash), OPENING)))])
    found = [f for f in validate_match(m).findings if f.rule == "parse-error" and f.severity == "error"]
    assert found and "both players on Ann's point 1" in found[0].message
