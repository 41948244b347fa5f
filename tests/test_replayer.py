"""The replayer's data and page (``show FILE --as html``), without a browser (tests/test_replayer_browser.py
opens the page in chromium).

The data must be the replay's: every roll's step is ``show``'s snapshot of that roll (Position ID,
Match ID, dice, cube and owner), the steps of a game follow each other (what a step leaves is what the
next one starts from), Gul bara's chain and handover parts are steps of their own with the right player
and numbers, and each finding sits on the step written at or before it.
"""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from helpers import CORPUS, EXAMPLES
from nardy_analyze import notation
from nardy_analyze.report import show as shows, svg
from nardy_analyze.analyze import validate_match
from nardy_analyze.cli import app
from nardy_analyze.engine.posid import decode_position_id, position_id
from nardy_analyze.generate import generate_match
from nardy_analyze.replay.normal import normalise
from nardy_analyze.notation import ngn
from nardy_analyze.report.replayer import address, page, record_data


def read(path):
    return notation.read_bytes(path.read_bytes(), str(path))


def sides(frame) -> tuple:
    me, opp = decode_position_id(frame[3])
    return (me, opp) if frame[2] == 0 else (opp, me)


def check_against_show(match) -> dict:
    data = record_data(match)
    snaps = shows.snapshots(match)
    # every roll, every later part of a Gul bara turn (M.K) and every final position is a snapshot of show
    rolls = {(g["n"], f[0]): f for g in data["games"] for f in g["f"] if f[0]}
    assert len(rolls) == len(snaps)
    for s in snaps:
        f = rolls[(s.game, "end" if s.move is None else s.address)]
        assert f[2] == s.player
        assert decode_position_id(f[3]) == s.pos
        if s.move is not None:
            assert f[4] == "".join(map(str, s.dice)) and f[5] == s.cube and f[6] == (-1 if s.owner is None else s.owner)
            if data["ids"]:
                assert f"{f[3]}:{f[12]}" == shows.as_gnubg(s)
    return data


def check_chain(match, data: dict) -> None:
    """Each step's board is what the step before left: the next step's board (a non-roll action moves no
    checker), or for a roll the replay's position after its part."""
    norm = normalise(match)
    for g, ng in zip(data["games"], norm.games):
        after = {}
        for na in ng.actions:
            if na.state is not None and na.state.parts:
                for p in na.state.parts:
                    after[(p.line, p.column)] = p.after
            elif na.state is not None:
                after[(na.action.loc.line, na.action.loc.column)] = na.state.after
        for f, nxt in zip(g["f"], g["f"][1:]):
            assert after[(f[8], f[9])] == sides(nxt), (g["n"], f[0], f[7])


def test_every_roll_of_a_real_match_is_shows_position():
    match = read(EXAMPLES / "selfplay-7pt.mat")
    data = check_against_show(match)
    check_chain(match, data)
    assert data["ids"] and data["cube"] and data["length"] == 7
    kinds = {f[1] for g in data["games"] for f in g["f"]}
    assert {"roll", "end", "double"} <= kinds


def test_gul_bara_parts_are_steps_of_their_own():
    match = read(EXAMPLES / "gulbara-chain-handover.ngn")
    data = check_against_show(match)
    check_chain(match, data)
    g = data["games"][0]
    keys = [f[0] for f in g["f"]]
    assert keys[:9] == ["1", "1.1", "2", "2.1", "2.2", "2.3", "2.4", "2.5", "3"]
    by_key = {f[0]: f for f in g["f"]}
    # roll 2: Aysel (0) plays 33, chains 44 and 55, hands a 5 to Rashad (1), chains 66, hands over 66
    assert [(by_key[k][1], by_key[k][2], by_key[k][4]) for k in ("2", "2.1", "2.2", "2.3", "2.4", "2.5")] == [
        ("roll", 0, "33"), ("chain", 0, "4444"), ("chain", 0, "5555"), ("handover", 1, "5"),
        ("chain", 0, "6666"), ("handover", 1, "66")]
    assert by_key["2.3"][7] == "handover B 5: 18/13" and by_key["2.3"][8:10] == [17, 4]
    assert not data["ids"] and not data["cube"]
    assert data["opp"] == [(p + 11) % 24 + 1 for p in range(1, 25)]
    # comments ride on the roll's step
    assert by_key["1"][11][0].startswith("first turn 6-6")


@settings(max_examples=12, deadline=None)
@given(variant=st.sampled_from(["backgammon", "long", "gulbara"]), seed=st.integers(0, 10_000))
def test_generated_games_of_every_variant(variant, seed):
    gen = generate_match(variant, 1, seed, ("Ann", "Bob"))
    text = ngn.write(gen)
    match = ngn.read(text, "gen.ngn")
    data = check_against_show(match)
    check_chain(match, data)
    parts = [f for f in data["games"][0]["f"] if "." in f[0]]
    if variant != "gulbara":
        assert not parts
    for f in parts:
        assert f[1] in ("chain", "handover") and f[4]


def test_findings_sit_on_their_step_and_have_an_address():
    match = read(EXAMPLES / "club-night.mat")
    rep = validate_match(match)
    data = record_data(match, report=rep)
    assert len(data["findings"]) == len(rep.findings) == 4
    for f, x in zip(rep.findings, data["findings"]):
        assert x[:5] == [f.rule, f.severity, f.message, f.line, f.column]
        assert data["games"][x[5] - 1]["n"] == f.game
        frame = data["games"][x[5] - 1]["f"][x[6]]
        # the step written at or before the finding; one before the game's first step (its score line):
        # the first step
        assert (frame[8], frame[9]) <= (f.line, f.column) or x[6] == 0
        later = data["games"][x[5] - 1]["f"][x[6] + 1]
        assert later[8] is None or (later[8], later[9]) > (f.line, f.column)
    # dice-mismatch at 17:34 is Bob's roll 64 of row 9: the 18th roll of game 1
    assert address(data, data["findings"][0]) == "game=1&move=18"
    assert data["games"][0]["f"][data["findings"][0][6]][7] == "64: 14/11 14/8"
    # only the games asked for
    some = record_data(match, report=rep, games={3})
    assert [g["n"] for g in some["games"]] == [3]
    assert [x[5] for x in some["findings"]] == [1, 1]


def test_page_is_self_contained_and_script_safe(tmp_path):
    rec = tmp_path / "odd.ngn"
    text = (EXAMPLES / "long-first-66.ngn").read_text(encoding="utf-8")
    # a comment that would end a script element, and a player name with markup
    text = text.replace("[Event", '[White "Tim</script><b>"]\n[Event', 1)
    text = text.replace("{ 3-3 on a later turn", "{ </script><script>alert(1)</script> <!-- 3-3 on a later turn")
    rec.write_text(text, encoding="utf-8")
    out = tmp_path / "odd.html"
    r = CliRunner().invoke(app, ["show", str(rec), "--as", "html", "-o", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text(encoding="utf-8")
    assert html.count("<script") == 2 and html.count("</script>") == 2
    assert "<!--" not in html
    assert not re.search(r'\s(src|href)="(?!#)', html) and "http://" not in html.replace(
        'xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html
    data = json.loads(re.search(r'<script type="application/json" id="rp-data">(.*?)</script>', html, re.S).group(1))
    assert data["files"][0]["games"] and data["geom"] == svg.board_geometry()
    assert data["files"][0]["games"][0]["players"][0] == "Tim</script><b>"
    assert any("</script>" in c for g in data["files"][0]["games"] for f in g["f"] if f[11] for c in f[11])


def test_show_as_html_options(tmp_path):
    rec = EXAMPLES / "selfplay-7pt.mat"
    r = CliRunner().invoke(app, ["show", str(rec), "--as", "html", "--game", "2", "--move", "5"])
    assert r.exit_code == 0 and r.output.startswith("<!DOCTYPE html>")
    assert '"start":"game=2&move=5"' in r.output
    r = CliRunner().invoke(app, ["show", str(rec), "--as", "html", "--game", "9"])
    assert r.exit_code == 2 and "there is no game 9" in r.output
    r = CliRunner().invoke(app, ["show", str(rec), "--as", "html", "-o", str(tmp_path)])
    assert r.exit_code == 2 and "folder" in r.output
    # -o for the other forms too, whole or not at all
    out = tmp_path / "pos.txt"
    r = CliRunner().invoke(app, ["show", str(rec), "--game", "1", "--move", "1", "--as", "gnubg", "-o", str(out)])
    assert r.exit_code == 0 and r.output == ""
    snap = shows.pick(read(rec), 1, 1)
    assert out.read_text() == shows.as_gnubg(snap) + "\n"


def test_the_page_of_a_record_without_games_says_so(tmp_path):
    rec = tmp_path / "empty.mat"
    rec.write_text("nothing here\n")
    r = CliRunner().invoke(app, ["show", str(rec), "--as", "html"])
    assert r.exit_code == 0, r.output
    assert '"games":[]' in r.output
    assert page(read(rec)).startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("variant", ["long", "gulbara"])
def test_nardy_ids_encode_both_sides_as_ngn_setups(variant):
    """For the nardy variants the data-position-id is the Position ID encoding of the two sides' 25 counts,
    as a .ngn set-up writes it: the set-up read back gives the same board."""
    gen = generate_match(variant, 1, 5, ("Ann", "Bob"))
    match = ngn.read(ngn.write(gen), "g.ngn")
    data = record_data(match)
    f = data["games"][0]["f"][10]
    me, opp = decode_position_id(f[3])
    assert position_id(me, opp) == f[3] and sum(me) <= 15 and me[24] == opp[24] == 0


@pytest.mark.slow
@pytest.mark.skipif(not (CORPUS / "gnubg-selfplay").is_dir(), reason="../shared/corpus/gnubg-selfplay not present")
def test_every_record_of_the_self_play_corpus():
    """823 games of GNU Backgammon self-play: every roll's step is show's (IDs, dice, cube, owner) and
    every step starts where the one before ended."""
    files = sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))
    assert len(files) == 100
    games = 0
    for f in files:
        match = read(f)
        data = check_against_show(match)
        check_chain(match, data)
        games += len(data["games"])
    assert games == 823


@pytest.mark.slow
@pytest.mark.skipif(not (CORPUS / "mutants").is_dir(), reason="../shared/corpus/mutants not present")
def test_records_with_planted_mistakes():
    """After an illegal play the replay goes on from the position it chose: the steps follow it."""
    files = sorted((CORPUS / "mutants").glob("*.mat"))
    assert len(files) >= 100
    for f in files:
        match = read(f)
        data = check_against_show(match)
        check_chain(match, data)
        assert data["findings"] and all(x[5] is not None for x in data["findings"] if x[1] == "error")
