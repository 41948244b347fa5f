"""Seed 003's app rules on backgammon records (docs/rules.md, Backgammon, 7. Scoring and 10. Resignations): nardy500 scoring, resignation,
timeout as the end of a game, the time control (``time-limit``); and options per variant.

Records are record-model objects (``replay_builder.Rec``) replayed through ``replay.replay``; each
breaking record is paired with the nearest legal one.
"""
from __future__ import annotations

import pytest
from helpers import side
from replay_builder import Rec, errors, play_turn

from nardy_analyze import analyze
from nardy_analyze.engine import RuleSet, get_variant
from nardy_analyze.engine.backgammon import START
from nardy_analyze.record import Kind

N500 = {"Scoring": "nardy500"}
BG = get_variant("backgammon").rules


def bearoff_end(bob):
    """Alice bears off her last checker (on her 1) with 21; Bob's side as given."""
    r = Rec("backgammon", N500)
    r.roll(0, (2, 1), "1/off")
    return r, (side({1: 1}), bob)


@pytest.mark.parametrize("bob,pts", [
    (side({6: 14}), 500),                     # Bob bore off one: a single win
    (side({6: 15}), 1000),                    # none: mars
    (side({6: 14}, bar=1), 1500),             # none, and one on the bar: koks
    (side({6: 14, 20: 1}), 1500),             # none, and one in Alice's home (his 20 = her 5): koks
])
def test_nardy500_results(bob, pts):
    for declared in (pts, pts + 500, 1 if pts == 500 else 500):
        r, start = bearoff_end(bob)
        w = r.cell(Kind.WIN, 0, declared)
        found = errors(r.run(start=start))
        assert found == ([] if declared == pts else [("result-mismatch", w.loc.line)]), (declared, found)


def test_nardy500_resignation_is_500_whatever_could_be_lost():
    start = (START, START)
    r = Rec("backgammon", N500)
    r.cell(Kind.RESIGN, 1, 500)
    rep = r.run(start=start)
    assert errors(rep) == [] and (rep.games[0].winner, rep.games[0].points) == (0, 500)
    r = Rec("backgammon", N500)
    c = r.cell(Kind.RESIGN, 1, 1000)
    assert errors(r.run(start=(side({6: 15}), side({24: 15})))) == [("result-mismatch", c.loc.line)]


def test_nardy500_has_no_cube():
    r = Rec("backgammon", N500)
    pos = [START, START]
    r.add(play_turn(BG, pos, 0, (3, 1), True, 1))
    d = r.cell(Kind.DOUBLE, 1, 2)
    r.cell(Kind.TAKE, 0)
    assert ("cube-illegal", d.loc.line) in errors(r.run())


def test_timeout_ends_the_game_as_a_resignation():
    pos = [START, START]
    r = Rec("backgammon", N500)
    r.add(play_turn(BG, pos, 0, (3, 1), True, 1))
    r.cell(Kind.TIMEOUT, 1)                               # Bob's flag falls: Alice wins 500
    rep = r.run()
    assert errors(rep) == []
    g = rep.games[0]
    assert (g.winner, g.points, g.how) == (0, 500, "timeout")
    assert [f for f in rep.findings if f.rule == "result-mismatch"] == []
    # points written with the timeout are checked as a resignation's
    r = Rec("backgammon", N500)
    r.add(play_turn(BG, [START, START], 0, (3, 1), True, 1))
    t = r.cell(Kind.TIMEOUT, 1, 1000)
    assert errors(r.run()) == [("result-mismatch", t.loc.line)]
    r = Rec("backgammon", N500)
    r.add(play_turn(BG, [START, START], 0, (3, 1), True, 1))
    r.cell(Kind.TIMEOUT, 1)
    w = r.cell(Kind.WIN, 1, 500)                          # the wrong winner
    assert errors(r.run()) == [("result-mismatch", w.loc.line)]


def test_timeout_in_points_scoring_is_a_single_game_times_the_cube_unless_written():
    r = Rec("backgammon")
    r.add(play_turn(BG, [START, START], 0, (3, 1), True, 1))
    r.cell(Kind.TIMEOUT, 1)
    rep = r.run()
    assert errors(rep) == [] and rep.games[0].points == 1


def _clocked(times, tags=None, timeout_after=False):
    r = Rec("backgammon", {**N500, **(tags or {})})
    pos = [START, START]
    acts = []
    dice = [(3, 1), (5, 2), (6, 4), (4, 2), (6, 5)]
    for i, t in enumerate(times):
        a = r.add(play_turn(BG, pos, i % 2, dice[i % len(dice)], i < 2, i + 1))
        a.clock = t
        acts.append(a)
    if timeout_after:
        r.cell(Kind.TIMEOUT, (len(times) - 1) % 2, clock=130.0)
    return r, acts


def test_time_limit_two_minutes_per_move_in_nardy500():
    r, acts = _clocked([10.0, 120.0, 45.5])
    assert [f.rule for f in r.run().findings if f.rule == "time-limit"] == []      # 120 s is within
    r, acts = _clocked([10.0, 120.5, 45.5, 130.0])
    found = [(f.rule, f.line) for f in r.run().findings if f.rule == "time-limit"]
    assert found == [("time-limit", acts[1].loc.line), ("time-limit", acts[3].loc.line)]
    # the same over-long move followed by that player's declared timeout is no time-limit finding
    r, acts = _clocked([10.0, 30.0, 125.0], timeout_after=True)
    rep = r.run()
    assert [f for f in rep.findings if f.rule == "time-limit"] == []
    assert rep.games[0].how == "timeout" and rep.games[0].winner == 1


def test_time_control_tag_and_option():
    r, acts = _clocked([61.0, 10.0], {"TimeControl": "60"})
    assert [(f.rule, f.line) for f in r.run().findings if f.severity == "error"] == [("time-limit", acts[0].loc.line)]
    r, acts = _clocked([61.0, 10.0], {"TimeControl": "1:30"})
    assert [f for f in r.run().findings if f.rule == "time-limit"] == []
    r, acts = _clocked([61.0, 10.0], {"TimeControl": "-"})            # no limit
    assert [f for f in r.run().findings if f.rule == "time-limit"] == []
    # points scoring has no time limit unless a time control is set
    r = Rec("backgammon")
    a = r.add(play_turn(BG, [START, START], 0, (3, 1), True, 1))
    a.clock = 500.0
    assert [f for f in r.run().findings if f.rule == "time-limit"] == []
    assert [f.rule for f in r.run(time_limit=300).findings if f.rule == "time-limit"] == ["time-limit"]
    # an unreadable TimeControl is a warning at the tag, not a silent guess
    r, _ = _clocked([61.0], {"TimeControl": "fast"})
    m = r.match()
    m.tag_locs["TimeControl"] = m.tag_locs.get("TimeControl") or __import__("nardy_analyze.record").record.Loc(3, 1)
    rep = analyze.validate_match(m)
    assert any(f.rule == "parse-error" and f.severity == "warning" and "TimeControl" in f.message
               for f in rep.findings)


def test_time_limit_in_long_nardy_records():
    r = Rec("long", {"TimeControl": "120"})
    pos = list(get_variant("long").rules.initial())
    a = r.add(play_turn(get_variant("long").rules, pos, 0, (6, 5), True, 1))
    a.clock = 121
    assert [(f.rule, f.line) for f in r.run().findings if f.rule == "time-limit"] == [("time-limit", a.loc.line)]


# ----------------------------------------------------------------------------- options per variant


def test_variant_chosen_from_the_records_tag():
    r = Rec("long")
    r.add(play_turn(get_variant("long").rules, list(get_variant("long").rules.initial()), 0, (6, 6), True, 1))
    m = r.match()
    assert analyze.validate_match(m, "backgammon").variant == "long"
    m.tags = {"Variation": "Gul bara"}
    assert analyze.validate_match(m, "backgammon").variant == "gulbara"
    m.tags = {}
    assert analyze.validate_match(m, "long").variant == "long"
    m.tags = {"Variant": "chess"}
    rep = analyze.validate_match(m)
    assert [f.rule for f in rep.findings] == ["parse-error"] and "chess" in rep.findings[0].message


def test_rule_options_checked_against_the_records_variant():
    opts = RuleSet.from_command_line(["crawford=off", "long:koks=on"])
    assert opts == RuleSet(None, {"crawford": False}, {"long": {"koks": True}})
    assert opts.flat() == {"crawford": False, "long:koks": True} and RuleSet.of(opts.flat()) == opts
    r = Rec("long")
    rep = analyze.validate_match(r.match(), "backgammon", opts)
    assert len(rep.arg_errors) == 1 and "crawford" in rep.arg_errors[0]
    rep = analyze.validate_match(Rec("backgammon").match(), "backgammon", opts)
    assert rep.arg_errors == []                       # long:koks is for long records only
    with pytest.raises(ValueError):
        RuleSet.from_command_line(["nosuch=1"])
    with pytest.raises(ValueError):
        RuleSet.from_command_line(["chess:koks=on"])
    # the replayer reads only the options its variant has
    v = get_variant("long")
    assert not v.has("crawford") and v.get("crawford", False) is False and v.has("koks")


def test_koks_option_from_the_records_tag_and_from_rule():
    me, bob = side({1: 1}), side({24: 14, 15: 1})
    for tags, options, pts in [({}, {}, 2), ({"Koks": "on"}, {}, 3), ({}, {"koks": True}, 3),
                               ({"Koks": "off"}, {"koks": True}, 2)]:
        r = Rec("long", tags)
        r.roll(0, (1, 1), "1/off")
        r.cell(Kind.WIN, 0, pts)
        assert errors(r.run(start=(me, bob), **options)) == [], (tags, options)


# ----------------------------------------------------------------------------- --explain for long nardy


def test_long_board_places_the_opponent_and_has_no_position_id():
    from nardy_analyze.report.board import diagram
    from nardy_analyze.report import explain_lines, to_json
    from nardy_analyze.result import RunResult

    me, opp = get_variant("long").rules.initial()
    lines = diagram((me, opp), "Alice", "Bob", variant="long")
    text = "\n".join(lines)
    assert "position ID" not in text and "same way" in text
    nums_bottom, cells_bottom = lines[4].split(), lines[3].split()
    # Bob's head (his 24) stands on Alice's 12, Alice's head on her 24
    assert cells_bottom[nums_bottom.index("12")] == "O15"
    nums_top, cells_top = lines[1].split(), lines[2].split()
    assert cells_top[nums_top.index("24")] == "X15"
    assert "position ID" in "\n".join(diagram((START, START)))
    # a long-nardy finding explained: the board and the legal alternatives, and no Position ID in JSON
    r = Rec("long")
    r.roll(0, (6, 5), "24/18 24/19")
    rep = r.run()
    f = next(f for f in rep.findings if f.rule == "head-rule")
    out = "\n".join(explain_lines(f, rep))
    assert "O15" in out and "legal plays include: " in out and "position ID" not in out
    run = RunResult(reports=[rep])
    pos = next(x for x in to_json(run, explain=True)["findings"] if x["rule"] == "head-rule")["position"]
    assert "position_id" not in pos and pos["mover"][23] == 15


def test_cli_rule_that_the_records_variant_does_not_have(tmp_path, cli):
    from helpers import EXAMPLES

    rec = str(EXAMPLES / "club-night.mat")
    code, out, err = cli.subprocess("validate", "--rule", "koks=on", rec)
    assert code == 2 and "--rule koks" in err and "backgammon" in err and "Traceback" not in err
    assert "4 error(s)" in out                                  # the record is still validated
    code, out, err = cli.subprocess("validate", "--rule", "long:koks=on", rec)
    assert code == 1 and err == ""
    code, out, err = cli.subprocess("validate", "--rule", "nosuch=1", rec)
    assert code == 2 and "unknown rule option" in err
    code, out, err = cli.subprocess("validate", "--format", "json", "--rule", "koks=on", rec)
    import json
    doc = json.loads(out)
    assert code == 2 and doc["argument_errors"][0]["path"] == rec
