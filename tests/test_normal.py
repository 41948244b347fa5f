"""The replay's view of a record (replay.normal.normalise) follows the record as it is now."""
from __future__ import annotations

from helpers import ROOT
from nardy_analyze import notation
from nardy_analyze.record import Step
from nardy_analyze.replay.normal import normalise


def test_a_step_changed_in_place_is_replayed_again():
    match = notation.read_path(str(ROOT / "examples" / "club-night.mat"))
    first = normalise(match)
    a = match.games[0].actions[0]          # Alice's 32: 24/21 13/11
    assert [(s.src, s.dst) for s in a.steps] == [(24, 21), (13, 11)]
    before = first.games[0].actions[0].state.after
    a.steps[:] = [Step(13, 10), Step(13, 11)]   # another legal play of 32
    second = normalise(match)
    assert second is not first
    after = second.games[0].actions[0].state.after
    assert after != before
    # the same as the record written with that play
    text = (ROOT / "examples" / "club-night.mat").read_text(encoding="utf-8")
    changed = notation.read_text(text.replace("32: 24/21 13/11", "32: 13/10 13/11", 1), "changed.mat")
    assert normalise(changed).games[0].actions[0].state.after == after
    # and back: the first view again
    a.steps[:] = [Step(24, 21), Step(13, 11)]
    assert normalise(match).games[0].actions[0].state.after == before


def test_the_same_record_under_other_options_is_replayed_under_them():
    match = notation.read_path(str(ROOT / "examples" / "club-night.mat"))
    plain = normalise(match)
    jacoby = normalise(match, "backgammon", {"jacoby": True})
    assert plain.options.get("jacoby") in (False, None) and jacoby.options.get("jacoby") is True
