"""The analysis in the replayer (``show FILE --as html --analyse``), without a browser
(tests/test_replayer_analysis_browser.py opens the page in chromium).

What the page embeds must be ``analyze``'s: each step's grades and equities lost are those of the decision
rows of the same record at the same depth, the chart's points are the analysis' chances (the play made's
win chance, or in match play its match-winning chance, from the first player's view), and the chart has
one point per step of the replay.  Long nardy and Gul bara through the shipped evaluator, backgammon
through bgsage (skipped with the reason when the analysis extra is not installed).
"""
from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from helpers import EXAMPLES
from nardy_analyze import notation
from nardy_analyze.cli import app
from nardy_analyze.report import replayer
from nardy_analyze.stats import skill
from nardy_analyze.stats.met import met

needs_bgsage = pytest.mark.skipif(not skill.engine_available(),
                                  reason="the analysis extra (bgsage) is not installed")


def read(path):
    return notation.read_bytes(path.read_bytes(), str(path))


def analysed(path, variant="backgammon", plies=0) -> tuple:
    match = read(path)
    data = replayer.record_data(match, variant)
    replayer.add_analysis(data, match, variant, None, plies, threads=1)
    return match, data


def rows_of(match, variant="backgammon", plies=0) -> list[dict]:
    res = skill.analyse_match(match, variant, None, skill.Config(plies=plies, threads=1))
    return [dict(zip(skill.DECISION_COLUMNS, r)) for r in res.rows]


def check_grades_are_analyzes(match, data, variant="backgammon", plies=0) -> int:
    """Every checker row of ``analyze`` is on the step of its roll with the same grade, error and legal plays;
    the cube rows, game by game, are the cube decisions on the steps.  Returns the decisions compared."""
    rows = rows_of(match, variant, plies)
    assert rows
    marks = {}
    part_marks: dict = {}                     # a Gul bara turn's later parts (steps M.K), in the steps' order
    cube_marks: dict = {}
    for g in data["games"]:
        assert len(g["a"]) == len(g["f"])
        for fr, a in zip(g["f"], g["a"]):
            for e in a or ():
                if e["k"] == "c" and fr[1] == "roll":
                    assert fr[0]
                    marks[(g["n"], int(fr[0]))] = e
                elif e["k"] == "c":
                    assert fr[1] in ("chain", "handover") and "." in fr[0]
                    part_marks.setdefault((g["n"], int(fr[0].split(".")[0])), []).append(e)
                else:
                    cube_marks.setdefault(g["n"], []).append((e["k"], e["a"], e["g"], e["e"]))
    n = 0
    cube_rows: dict = {}
    for r in rows:
        if r["kind"] == "checker":
            if r.get("part") in ("chain", "handover"):
                e = part_marks[(r["game"], r["move"])].pop(0)
            else:
                e = marks.pop((r["game"], r["move"]))
            assert e["g"] == r["grade"], (r["game"], r["move"])
            assert e["n"] == r["moves"]
            if r["error"] == r["error"]:
                assert e["e"] == pytest.approx(r["error"], abs=1e-4)          # (the page keeps 4 decimals)
                assert e["q"] == pytest.approx(r["equity_played"], abs=1e-4)
                assert e["p"][0][1] == pytest.approx(r["equity_best"], abs=1e-4)
            else:
                assert e["e"] is None and e["r"] is None
            n += 1
        else:
            cube_rows.setdefault(r["game"], []).append(("d" if r["kind"] == "double" else "t", r["play"], r["grade"],
                                                        r["error"]))
            n += 1
    assert not marks and not any(part_marks.values())     # no graded step that analyze has no row for
    assert cube_marks.keys() == cube_rows.keys()
    for game, marked in cube_marks.items():
        got, want = sorted(marked), sorted(cube_rows[game])
        assert [x[:3] for x in got] == [x[:3] for x in want], game
        assert [x[3] for x in got] == pytest.approx([x[3] for x in want], abs=1e-4), game
    return n


def first_players_chance(s: dict, mwc: bool) -> float | None:
    """The chances after a decision of position_analysis, the first player's view (as the chart holds them)."""
    if s["kind"] == "checker":
        v = s["mwc"] if mwc else s["win"]
    elif not mwc:
        v = s["win"]
    else:
        v = s["mwc"][{"no double": 0, "double": 0, "take": 1, "pass": 2}[s["action"]]]
    return None if v is None else (v if s["side"] == 0 else 1 - v)


def check_chart_is_the_analysis(match, data, variant="backgammon", plies=0) -> int:
    """The chart's point after each analysed play is the analysis' chance of the play made (the first
    player's view); one point per step; the first point is the chance before the game; the last, the
    result."""
    spots, _res = skill.position_analysis(match, variant, None, plies, threads=1, chances=True)
    mwc = data["analysis"]["mwc"]
    checked = 0
    for g in data["games"]:
        frames, w = g["f"], g["w"]
        assert len(w) == len(frames)                                        # one point per step
        if mwc:
            a0, a1 = data["length"] - g["score"][0], data["length"] - g["score"][1]
            assert w[0] == pytest.approx(met(a0, a1, min(a0, a1) == 1 and not g["crawford"]), abs=1e-4)
        else:
            assert w[0] == 0.5
        if g["result"] is not None and g["result"][0] is not None and not mwc:
            assert w[-1] == (1.0 if g["result"][0] == 0 else 0.0)
        keys = {fr[0]: i for i, fr in enumerate(frames) if fr[0]}
        for s in spots:
            if s["game"] != g["n"] or s["kind"] != "checker":
                continue
            i = keys[str(s["move"])]
            if i + 1 >= len(frames) or frames[i + 1][1] == "end":
                continue                                                     # the last point: the result
            want = first_players_chance(s, mwc)
            if want is not None:
                assert w[i + 1] == pytest.approx(want, abs=1e-4), (g["n"], s["move"])
                assert 0 <= w[i + 1] <= 1
                checked += 1
    return checked


# ----------------------------------------------------------------------------- the long games (evaluator)

def test_gul_bara_grades_and_chart_are_the_evaluators():
    match, data = analysed(EXAMPLES / "tbilisi-gulbara.ngn", "gulbara")
    assert data["analysis"] == {"plies": 0, "engine": "evaluator", "mwc": False}
    assert check_grades_are_analyzes(match, data, "gulbara") > 20
    assert check_chart_is_the_analysis(match, data, "gulbara") > 20
    # the chain doubles and handovers of a Gul bara turn are steps with a decision of their own: the part's
    # play by the player who made it
    parts = 0
    for g in data["games"]:
        for fr, a in zip(g["f"], g["a"]):
            if "." in fr[0] and a:
                assert [e["k"] for e in a] == ["c"] and a[0]["s"] == fr[2]
                parts += 1
    assert parts > 5


@pytest.mark.slow
def test_long_nardy_grades_and_chart_are_the_evaluators():
    match, data = analysed(EXAMPLES / "ganja-long-nardy.ngn", "long")
    assert data["analysis"]["engine"] == "evaluator"
    assert check_grades_are_analyzes(match, data, "long") > 100
    assert check_chart_is_the_analysis(match, data, "long") > 100


def test_a_page_without_analyse_has_none():
    match = read(EXAMPLES / "tbilisi-gulbara.ngn")
    data = replayer.record_data(match)
    assert "analysis" not in data and all("a" not in g and "w" not in g for g in data["games"])


# ----------------------------------------------------------------------------- backgammon (bgsage)

@needs_bgsage
@pytest.mark.slow
def test_match_play_grades_and_match_winning_chances_are_analyzes():
    match, data = analysed(EXAMPLES / "baku-final-5pt.mat")
    assert data["analysis"] == {"plies": 0, "engine": "bgsage", "mwc": True}
    assert check_grades_are_analyzes(match, data) > 200
    assert check_chart_is_the_analysis(match, data) > 200
    # the final position's point: the match-winning chance after the game's result
    for g in data["games"]:
        if g["result"] is not None:
            winner, points = g["result"][:2]
            before = [data["length"] - g["score"][0], data["length"] - g["score"][1]]
            after = list(before)
            after[winner] -= points
            # a score with a player 1 away after a game played at 1 away (Crawford or later) is post-Crawford
            assert g["w"][-1] == pytest.approx(met(after[0], after[1], min(before) == 1), abs=1e-4)
    # the grades are shown: some steps carry one
    assert any(e["g"] for g in data["games"] for a in g["a"] if a for e in a)


@needs_bgsage
@pytest.mark.slow
def test_cube_decisions_sit_on_their_steps():
    """The self-play 7-point match: a no-double decision on a roll's step (before its play), a double on the
    double's step, the answer on the take's or drop's step."""
    match, data = analysed(EXAMPLES / "selfplay-7pt.mat")
    seen = set()
    for g in data["games"]:
        for fr, a in zip(g["f"], g["a"]):
            for e in a or ():
                if e["k"] == "d":
                    assert (fr[1], e["a"]) in (("roll", "no double"), ("double", "double"))
                    assert e["s"] == fr[2]
                    assert a[0] is e                                        # the cube decision first
                    seen.add(e["a"])
                elif e["k"] == "t":
                    assert fr[1] in ("take", "drop", "beaver") and e["a"] in ("take", "pass") and e["s"] == fr[2]
                    seen.add(e["a"])
                else:
                    assert e["s"] == fr[2]
    assert {"no double", "double"} <= seen and seen & {"take", "pass"}
    assert check_grades_are_analyzes(match, data) > 100


# ----------------------------------------------------------------------------- the command line

def test_show_analyse_options(tmp_path):
    run = CliRunner().invoke
    rec = str(EXAMPLES / "tbilisi-gulbara.ngn")
    r = run(app, ["show", rec, "--analyse"])
    assert r.exit_code == 2 and "--as html" in r.output
    r = run(app, ["show", rec, "--as", "html", "--plies", "1"])
    assert r.exit_code == 2 and "--analyse" in r.output
    r = run(app, ["show", rec, "--as", "html", "--analyse", "--plies", "2"])
    assert r.exit_code == 2 and "--plies" in r.output
    out = tmp_path / "page.html"
    r = run(app, ["show", rec, "--as", "html", "--analyse", "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    data = json.loads(re.search(r'<script type="application/json" id="rp-data">(.*?)</script>', text, re.S).group(1))
    rec_data = data["files"][0]
    assert rec_data["analysis"]["engine"] == "evaluator"
    assert all(len(g["w"]) == len(g["f"]) == len(g["a"]) for g in rec_data["games"])
    assert 'id="rp-chart"' in text


def test_russian_page_has_the_analysis_words(tmp_path, russian):
    out = tmp_path / "page.html"
    r = CliRunner().invoke(app, ["show", str(EXAMPLES / "tbilisi-gulbara.ngn"), "--as", "html",
                                 "--analyse", "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    for word in ("очень плохо", "показать лучшие ходы", "Шансы на победу", "эквити", "сыграно"):
        assert word in text, word
    for english in ("show the best plays", "'s winning chances", '"very bad":"very bad"'):
        assert english not in text, english


@needs_bgsage
@pytest.mark.slow
def test_validate_html_analyse_embeds_the_analysed_games(tmp_path):
    """validate --format html --analyse: the replayer's games (those with findings) carry the analysis,
    at --plies but never deeper than 1."""
    out = tmp_path / "report.html"
    r = CliRunner().invoke(app, ["validate", str(EXAMPLES / "club-night.mat"), "--format", "html", "--analyse",
                                 "--plies", "2", "-o", str(out)])
    assert r.exit_code == 1, r.output
    text = out.read_text()
    data = json.loads(re.search(r'<script type="application/json" id="rp-data">(.*?)</script>', text, re.S).group(1))
    rec = data["files"][0]
    assert rec["analysis"] == {"plies": 1, "engine": "bgsage", "mwc": bool(rec["length"])}
    assert rec["games"] and all(len(g["w"]) == len(g["f"]) for g in rec["games"])
    assert any(a for g in rec["games"] for a in g["a"])
