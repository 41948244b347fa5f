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


def _records():
    from helpers import CORPUS
    files = sorted((ROOT / "examples").glob("*.mat")) + sorted((ROOT / "tests" / "fixtures").rglob("*.mat"))
    files += sorted((ROOT / "tests" / "fixtures").rglob("*.sgf"))
    if CORPUS.is_dir():
        files += sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))[::5]
        files += sorted((CORPUS / "bglab").rglob("*.txt"))[::25]
        files += sorted((CORPUS / "mutants").rglob("*.mat"))[::3]
    return files


def test_the_view_without_exact_plays_leaves_out_only_their_states():
    """``normalise(..., exact=False)`` (the SGF writer's view): a roll played exactly as written, a double and a
    take have no state and no route; any other roll played without a finding in one part has the whole view's
    route and no state; every other action has what the whole view gives it; and the SGF text is the same."""
    from nardy_analyze.inputs import discover, load
    from nardy_analyze.record import Kind
    sgf = notation.get("sgf")
    assert sgf.exact_routes is False and notation.get("mat").exact_routes is True
    left_out = kept = routed = 0
    for entry in discover([str(f) for f in _records()]):
        match = load(entry)
        if not match.games:
            continue
        whole, part = normalise(match), normalise(match, exact=False)
        assert [g.report for g in whole.games] == [g.report for g in part.games]
        assert whole.report.findings == part.report.findings
        for gw, gp in zip(whole.games, part.games):
            for w, p in zip(gw.actions, gp.actions, strict=True):
                st = w.state
                if st is not None and (st.exact and st.legal and w.action.kind is Kind.ROLL
                                       or w.action.kind in (Kind.DOUBLE, Kind.TAKE)):
                    assert p.state is None and p.route is None
                    left_out += 1
                elif st is not None and p.state is None:
                    a = w.action
                    assert a.kind is Kind.ROLL and st.legal and st.parts is None and not a.unplayed \
                        and not a.illegal_mark and not a.segments, (entry.path, a.loc)
                    assert p.route == w.route, (entry.path, a.loc)
                    routed += 1
                else:
                    assert p.state == st and p.route == w.route, (entry.path, w.action.loc)
                    kept += 1
        assert sgf.write(match, part) == sgf.write(match, whole), entry.path
    assert left_out > 100 and kept > 100 and routed > 10, (left_out, kept, routed)
