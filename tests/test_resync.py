"""After an illegal play the replay follows the record, unless the plays that follow show which legal
play really happened (a step left out or mistyped): then it goes on from that play and says so."""
from __future__ import annotations

from nardy_analyze.analyze import validate_match
from nardy_analyze.notation import mat

from helpers import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "selfplay" / "selfplay_0103_5pt.mat"
ROW = "  2) 21: 25/23 23/22             65: 24/18 18/13 "


def findings(text: str):
    rep = validate_match(mat.read(text, "t.mat"))
    return [f for f in rep.findings if f.severity == "error"]


def test_fixture_is_legal():
    assert findings(FIXTURE.read_text()) == []


def test_left_out_step_is_found_once_and_the_real_play_named():
    text = FIXTURE.read_text()
    assert ROW in text
    line = text[:text.index(ROW)].count("\n") + 1
    bad = text.replace(ROW, "  2) 21: 25/23 23/22             65: 24/18 ", 1)
    fs = findings(bad)
    assert [(f.line, f.rule) for f in fs] == [(line, "max-dice")]
    assert "the plays that follow fit 24/18 18/13 instead" in fs[0].message


def test_mistyped_step_is_found_once():
    text = FIXTURE.read_text()
    line = text[:text.index(ROW)].count("\n") + 1
    bad = text.replace(ROW, "  2) 21: 25/23 23/22             65: 24/18 18/12 ", 1)
    fs = findings(bad)
    assert [(f.line, f.rule) for f in fs] == [(line, "dice-mismatch")]
    assert "fit 24/18 18/13 instead" in fs[0].message


def test_record_that_goes_on_consistently_is_followed_as_recorded():
    # Bob plays only the 6 (an illegal play) and really leaves the checker on 18: the next plays are
    # written from that position, so the replay keeps the recorded position and names no other play.
    text = (" 1 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
            "  1) 21: 13/11 6/5               65: 24/18\n"
            "  2) 31: 8/5 6/5                 41: 18/14 14/13\n")
    fs = findings(text)
    assert [(f.line, f.rule) for f in fs] == [(5, "max-dice")]
    assert "fit" not in fs[0].message
