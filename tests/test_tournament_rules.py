"""Tournament rules as played (docs/rules.md, "Rule options of clubs and federations", "The clock",
"Presets"): the first-turn head exception's four readings, home mars and koks, the last-roll draw, the
running clock with an increment (per game or per match, the clock after the move), the presets.

Each option value is checked on records written by hand in the project's notation (the nearest legal and
illegal case), and on generated games: games generated under every option and preset validate clean, and
break when the option is switched.
"""
from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from nardy_analyze import analyze
from nardy_analyze.engine import get_variant
from nardy_analyze.engine.posid import position_id
from nardy_analyze.engine.presets import PRESETS
from nardy_analyze.convert import write_text
from nardy_analyze.generate import generate_match
from nardy_analyze.engine.ruleset import RuleSet, parse_clock
from nardy_analyze.notation import get as notation
from nardy_analyze.notation import ngn
from nardy_analyze.record import Action, Kind, Loc
from nardy_analyze.replay import ERROR, WARNING


def findings(text: str, **options):
    rep = analyze.validate_match(ngn.read(text, "t.ngn"), "backgammon", options or None)
    return rep


def errors(text: str, **options) -> list[tuple[str, int]]:
    return [(f.rule, f.line) for f in findings(text, **options).findings if f.severity == ERROR]


def warnings(text: str) -> list[tuple[str, int]]:
    return [(f.rule, f.line) for f in findings(text).findings if f.severity == WARNING]


def line_of(text: str, start: str) -> int:
    """The line number of the first line that starts with ``start``."""
    return next(i for i, line in enumerate(text.split("\n"), 1) if line.startswith(start))


def side(points: dict[int, int]) -> tuple[int, ...]:
    s = [0] * 25
    for p, n in points.items():
        s[p - 1] = n
    return tuple(s)


# ------------------------------------------------------------------------------- the head exception

def head(option: str, roll: str, play: str) -> str:
    return (f'[Variant "long"]\n[HeadException "{option}"]\n\nGame 1\n'
            f"1. {roll}: {play}\n")


@pytest.mark.parametrize("option,roll,play,rule", [
    ("standard", "55", "24/19 19/14 14/9 9/4", None),         # one checker plays all four 5s
    ("standard", "55", "24/19(2) 19/14(2)", "head-rule"),     # 5-5 has no exception
    ("any-double", "55", "24/19(2) 19/14(2)", None),          # every double has it
    ("any-double", "55", "24/19(3) 19/14", "head-rule"),      # but never a third checker
    ("any-double", "11", "24/23(2) 23/22(2)", None),
    ("any-double", "65", "24/18 24/19", "head-rule"),         # a plain roll never
    ("six-four", "66", "24/18(2)", None),
    ("six-four", "44", "24/20(2) 20/16(2)", None),
    ("six-four", "33", "24/21(2) 21/18(2)", "head-rule"),     # 3-3 is not one of them
    ("six-four", "33", "24/21 21/18 18/15", None),            # one checker: three 3s (its 12 is closed)
    ("standard", "33", "24/21 21/18 18/15", "max-dice"),      # the standard 3-3 plays all four
    ("standard", "33", "24/21(2) 21/18(2)", None),
    ("conditional", "33", "24/21(2) 21/18(2)", None),
    ("conditional", "55", "24/19(2) 19/14(2)", "head-rule"),  # one checker could use all four 5s
])
def test_head_exception_values(option, roll, play, rule):
    assert errors(head(option, roll, play)) == ([] if rule is None else [(rule, 5)])


def test_head_exception_only_on_the_first_turn():
    text = ('[Variant "long"]\n[HeadException "any-double"]\n\nGame 1\n'
            "1. 65: 24/18 18/13  21: 24/22 22/21\n2. 22: 24/22(2) 22/20(2)\n")
    assert errors(text) == [("head-rule", 6)]


def test_head_exception_message_names_the_option():
    f = findings(head("six-four", "33", "24/21(2) 21/18(2)")).findings
    assert "with 6-6 or 4-4" in f[0].message


def test_bad_head_exception_value_is_a_warning_at_the_tag():
    rep = findings(head("sometimes", "55", "24/19 19/14 14/9 9/4"))
    assert [(f.rule, f.line, f.severity) for f in rep.findings if f.rule == "parse-error"] == \
        [("parse-error", 2, WARNING)]


# ------------------------------------------------------------------------------- home mars and koks

def ending(tags: str, loser: dict[int, int], declared: int) -> str:
    """W bears off the last checker (on the 1-point) with 21; B's checkers as given."""
    pid = position_id(side({1: 1}), side(loser))
    return (f'[Variant "long"]\n{tags}\nGame 1\nW setup position {pid}\n'
            f"1. 21: 1/off\nW wins {declared}\n")


ALL_HOME = {6: 5, 5: 5, 4: 5}            # B all home, none off
NOT_HOME = {6: 5, 5: 5, 14: 5}           # B none off, five on its 14 (W's home): a koks with option koks


@pytest.mark.parametrize("tags,loser,points", [
    ("", ALL_HOME, 2),                                   # default: a mars wherever the checkers are
    ('[HomeMars "1"]\n', ALL_HOME, 1),                   # a home mars counts as an oin
    ('[HomeMars "3"]\n', ALL_HOME, 3),
    ('[HomeMars "1"]\n', NOT_HOME, 2),                   # not all home: a mars as usual
    ('[Koks "on"]\n', NOT_HOME, 3),                      # koks: a loser's checker in the winner's home
    ('[Koks "on"]\n[HomeMars "1"]\n', ALL_HOME, 1),
    ("", {1: 1, **{6: 13}}, 1),                          # the loser bore off one: an oin
])
def test_scoring_options(tags, loser, points):
    assert errors(ending(tags, loser, points)) == []
    for wrong in {1, 2, 3} - {points}:
        text = ending(tags, loser, wrong)
        assert errors(text) == [("result-mismatch", line_of(text, "W wins"))], wrong


def test_home_mars_is_counted_by_stats(tmp_path):
    from nardy_analyze import statsrun

    path = tmp_path / "h.ngn"
    path.write_text(ending('[HomeMars "1"]\n', ALL_HOME, 1))
    g = statsrun.games([str(path)])
    assert list(g["kind"].astype(str)) == ["home-mars", "home-mars"]
    assert list(g["points"]) == [1, 0]
    p = statsrun.players([str(path)]).set_index("player")
    assert (p.loc["player 1", "home_mars_won"], p.loc["player 2", "home_mars_lost"]) == (1, 1)
    assert p["draws"].sum() == 0


def test_draws_are_counted_by_stats(tmp_path):
    from nardy_analyze import statsrun

    path = tmp_path / "d.ngn"
    path.write_text(last_roll(ON, {1: 1}, {1: 2}, "1. 21: 1/off  31: 1/off(2)\nB draw\n"))
    g = statsrun.games([str(path)])
    assert list(g["result"].astype(str)) == ["draw", "draw"] and list(g["kind"].astype(str)) == ["draw", "draw"]
    assert list(g["points"]) == [0, 0]
    for p in (statsrun.players([str(path)]), statsrun.players(g)):      # streamed and from the games table
        assert list(p["draws"]) == [1, 1] and list(p["finished"]) == [1, 1] and list(p["wins"]) == [0, 0]


# ------------------------------------------------------------------------------- the last-roll draw

def last_roll(tags: str, w: dict[int, int], b: dict[int, int], moves: str) -> str:
    pid = position_id(side(w), side(b))
    return f'[Variant "long"]\n{tags}\nGame 1\nW setup position {pid}\n{moves}'


ON = '[LastRoll "on"]\n'


def test_last_roll_draw():
    text = last_roll(ON, {1: 1}, {1: 2}, "1. 21: 1/off  31: 1/off(2)\nB draw\n")
    rep = findings(text)
    assert [f for f in rep.findings] == []
    assert (rep.games[0].winner, rep.games[0].points, rep.games[0].how) == (None, 0, "draw")


def test_last_roll_switched_off_the_roll_is_after_the_end():
    text = last_roll("", {1: 1}, {1: 2}, "1. 21: 1/off  31: 1/off(2)\nB draw\n")
    assert errors(text) == [("result-mismatch", line_of(text, "1."))]


def test_last_roll_that_does_not_finish_is_the_first_players_win():
    moves = "1. 21: 1/off  21: 6/4 5/4\n"
    assert errors(last_roll(ON, {1: 1}, {6: 1, 5: 1}, moves + "W wins 1\n")) == []
    text = last_roll(ON, {1: 1}, {6: 1, 5: 1}, moves + "B draw\n")
    assert errors(text) == [("result-mismatch", line_of(text, "B draw"))]


def test_no_last_roll_when_the_second_cannot_finish():
    # five checkers left: no roll bears them all off
    b = {1: 5}
    assert errors(last_roll(ON, {1: 1}, b, "1. 21: 1/off\nW wins 1\n")) == []
    text = last_roll(ON, {1: 1}, b, "1. 21: 1/off  66: 1/off(4)\nW wins 1\n")
    assert errors(text) == [("result-mismatch", line_of(text, "1."))]


def test_no_last_roll_for_the_second_player_finishing_first():
    # B finishes first: W (the first roller) has no last roll
    text = last_roll(ON, {6: 5}, {1: 1}, "1. 21: 6/4 6/5  21: 1/off\n2. 66: 6/off(4)\n")
    assert errors(text) == [("result-mismatch", line_of(text, "2."))]


def test_a_missing_last_roll_is_a_warning():
    text = last_roll(ON, {1: 1}, {1: 2}, "1. 21: 1/off\nW wins 1\n")
    assert errors(text) == [] and warnings(text) == [("result-mismatch", line_of(text, "W wins"))]


def test_the_declared_winner_of_a_drawn_game_is_an_error():
    text = last_roll(ON, {1: 1}, {1: 2}, "1. 21: 1/off  31: 1/off(2)\nW wins 1\n")
    assert errors(text) == [("result-mismatch", line_of(text, "W wins"))]


def test_a_draw_keeps_the_match_score():
    pid = position_id(side({1: 1}), side({1: 2}))
    text = (f'[Variant "long"]\n[LastRoll "on"]\n[MatchLength "3"]\n\nGame 1 score 0-0\nW setup position {pid}\n'
            "1. 21: 1/off  31: 1/off(2)\nB draw\nGame 2 score 0-0\n"
            f"W setup position {pid}\n1. 21: 1/off\nW wins 1\n")
    rep = findings(text)
    assert [f.rule for f in rep.findings if f.severity == ERROR] == []
    bad = text.replace("Game 2 score 0-0", "Game 2 score 0-1")
    assert [f.rule for f in findings(bad).findings if f.severity == ERROR] == ["match-score"]


# ------------------------------------------------------------------------------- the clock

def clocked(control: str, cells: str, tags: str = "") -> str:
    return (f'[Variant "long"]\n[TimeControl "{control}"]\n{tags}\nGame 1\n{cells}')


def test_parse_clock():
    assert parse_clock("840+8") == {"clock": 840, "increment": 8, "time_limit": None}
    assert parse_clock("14:00+8") == parse_clock("14m+8s") == parse_clock("840 + 8")
    assert parse_clock("840+8/game")["clock_per"] == "game"
    assert parse_clock("60+10 per match")["clock_per"] == "match"
    assert parse_clock("120") == {"time_limit": 120, "clock": None}
    assert parse_clock("840+") == "?" and parse_clock("fast") == "?"


FIRST = "1. 65: 24/18 18/13 (0:30)  21: 24/22 22/21 (0:05)\n"
SECOND = "2. 64: 24/18 18/14 {}  31: 24/21 21/20 (0:05)\n"


@pytest.mark.parametrize("third,rule", [
    ("(0:10)", None),            # 60 - 30 + 5 - 30 + 5 = 10 left: 10 s is exactly the time left
    ("(0:11)", "time-limit"),    # one second more: the clock falls below zero
])
def test_clock_with_increment(third, rule):
    cells = (FIRST + SECOND.format("(0:30)") +
             f"3. 43: 24/20 20/17 {third}  11: 24/23 23/22 22/21 21/20 (0:05)\n")
    text = clocked("60+5", cells)
    assert errors(text) == ([] if rule is None else [(rule, line_of(text, "3."))])


def test_the_clock_falls_once():
    cells = (FIRST + SECOND.format("(0:50)") +
             "3. 43: 24/20 20/17 (0:50)  11: 24/23 23/22 22/21 21/20 (0:05)\n")
    text = clocked("60+5", cells)
    assert errors(text) == [("time-limit", line_of(text, "2."))]


def test_a_timeout_where_the_clock_falls_is_no_finding():
    cells = FIRST + "2. 64: 24/18 18/14 (0:50)\nW timeout\n"
    assert errors(clocked("60+5", cells)) == []


def test_a_timeout_with_time_left_is_a_finding():
    cells = FIRST + "2. 64: 24/18 18/14 (0:10)\nW timeout\n"
    text = clocked("60+5", cells)
    f = [x for x in findings(text).findings if x.severity == ERROR]
    assert [(x.rule, x.line) for x in f] == [("time-limit", line_of(text, "W timeout"))]
    assert "0:30 left" in f[0].message
    # a record without times says nothing of the clock: its timeout is taken as written
    assert errors(clocked("60+5", "1. 65: 24/18 18/13  21: 24/22 22/21\nW timeout\n")) == []


@pytest.mark.parametrize("shown,rule", [
    ("(clk 0:05)", None),              # 0:00 before the increment: within
    ("(clk 0:04)", "time-limit"),      # -0:01 before it
    ("(clk -0:03)", "time-limit"),
])
def test_the_clock_after_the_move(shown, rule):
    cells = f"1. 65: 24/18 18/13 (clk 0:35)  21: 24/22 22/21 (clk 1:00)\n2. 64: 24/18 18/14 {shown}\n"
    text = clocked("60+5", cells)
    assert errors(text) == ([] if rule is None else [(rule, line_of(text, "2."))])


def test_per_match_and_per_game_clock():
    game2 = "Game 2 score 0-1\n1. 65: 24/18 18/13 (0:25)  21: 24/22 22/21 (0:05)\n"
    game1 = "Game 1 score 0-0\n1. 65: 24/18 18/13 (0:40)  21: 24/22 22/21 (0:05)\nW resign 1\n"
    text = f'[Variant "long"]\n[TimeControl "60+5"]\n[MatchLength "3"]\n{{}}\n{game1}{game2}'
    # the match's clock: 60 - 40 + 5 = 25 left after game 1, and 25 taken in game 2 is within
    assert errors(text.format("")) == []
    over = text.replace("(0:25)", "(0:26)")
    assert errors(over.format("")) == [("time-limit", line_of(over, "Game 2") + 1)]
    assert errors(over.format('[ClockPer "game"]')) == []          # a fresh clock each game
    money = over.replace('[MatchLength "3"]', '[MatchLength "0"]')
    assert errors(money.format("")) == []                          # money play: per game by default


def test_a_handover_counts_against_its_player():
    m = generate_match("gulbara", 12, seed=7, options={"clock": 600, "increment": 5})
    assert analyze.validate_match(m).findings == []
    where = next((g, a, s) for g in m.games for a in g.actions for s in a.segments if s.kind == "handover")
    g, a, seg = where
    seg.clock, seg.clock_left = 5000.0, None
    got = [(f.rule, f.game, f.side) for f in analyze.validate_match(m).findings if f.severity == ERROR]
    assert got == [("time-limit", g.number, seg.player)]
    assert seg.player != a.player


def test_time_limit_per_move_still_applies_beside_a_clock():
    text = '[Variant "long"]\n\nGame 1\n1. 65: 24/18 18/13 (0:30)  21: 24/22 22/21 (0:05)\n'
    assert errors(text, clock=60, increment=5) == []
    assert errors(text, clock=60, increment=5, time_limit=20) == [("time-limit", 4)]
    assert errors(text, clock=20, increment=5) == [("time-limit", 4)]


# ----------------------------------------------------------- the 840+8 match: one time-limit at a known move

def _federation_match():
    """A long nardy match to 7 under 840+8 (generated legal games), the first player taking 25 s on every
    move, the second 5 s; no clock-after times."""
    m = generate_match("long", 40, seed=21)
    score, games = [0, 0], []
    for g in m.games:
        games.append(g)
        win = next(a for a in g.actions if a.kind is Kind.WIN)
        score[win.player] += win.value
        if max(score) >= 7:
            break
    m.games = games
    m.match_length = 7
    m.tags = {**m.tags, "TimeControl": "840+8"}
    for g in m.games:
        for a in g.actions:
            a.clock = (25.0 if a.player == 0 else 5.0) if a.kind is Kind.ROLL else None
    return m


def _expected_crossing(m):
    """The first player's move at which the match clock (840 s, +8 after each move) falls below zero."""
    left = 840.0
    for g in m.games:
        for a in g.actions:
            if a.kind is Kind.ROLL and a.player == 0:
                if left - 25 < 0:
                    return g, a
                left = left - 25 + 8
    return None


def _time_findings(m):
    rep = analyze.validate_match(m)
    return rep, [f for f in rep.findings if f.rule == "time-limit"]


@pytest.fixture(scope="module")
def federation():
    m = _federation_match()
    crossing = _expected_crossing(m)
    assert crossing is not None and len(m.games) >= 2
    return m, crossing


def _roundtrip(m, fmt):
    text = write_text(m, fmt)
    return notation(fmt).read(text, f"t.{fmt}")


@pytest.mark.parametrize("fmt", [None, "ngn", "json", "sgf"])
def test_federation_clock_crosses_zero_once_at_the_known_move(federation, fmt):
    m, (g, a) = federation
    rec = m if fmt is None else _roundtrip(m, fmt)
    rep, found = _time_findings(rec)
    # the crossing move: the k-th roll of the first player in its game (SGF keeps no move numbers)
    k = [x for x in g.actions if x.kind is Kind.ROLL and x.player == 0].index(a)
    there = [x for x in rec.games[g.number - 1].actions if x.kind is Kind.ROLL and x.player == 0][k]
    assert [(f.game, f.line, f.side) for f in found] == [(g.number, there.loc.line, 0)]
    assert [f for f in rep.findings if f.severity == ERROR and f.rule != "time-limit"] == []


@pytest.mark.parametrize("fmt", [None, "ngn", "json", "sgf"])
def test_federation_clock_with_a_timeout_there_has_none(federation, fmt):
    m, (g, a) = federation
    m = copy.deepcopy(m)
    gi = g.number - 1
    game = m.games[gi]
    i = next(k for k, x in enumerate(game.actions) if x.loc == a.loc and x.kind is Kind.ROLL and x.player == 0)
    game.actions = game.actions[:i + 1] + [Action(Kind.TIMEOUT, 0, Loc(a.loc.line, 60), text="timeout")]
    m.games = m.games[:gi + 1]
    rec = m if fmt is None else _roundtrip(m, fmt)
    rep, found = _time_findings(rec)
    assert found == []
    assert [f for f in rep.findings if f.severity == ERROR] == []
    assert rep.games[-1].winner == 1 and rep.games[-1].how == "timeout"


def test_federation_preset_sets_the_clock(federation):
    m, (g, a) = federation
    m = copy.deepcopy(m)
    del m.tags["TimeControl"]
    assert _time_findings(m)[1] == []
    found = [f for f in analyze.validate_match(m, options=RuleSet.from_command_line([], "federation")).findings
             if f.rule == "time-limit"]
    assert [(f.game, f.row) for f in found] == [(g.number, a.move)]
    m.tags["Rules"] = "federation"
    assert [(f.game, f.row) for f in _time_findings(m)[1]] == [(g.number, a.move)]


# ------------------------------------------------------------------------------- presets

def test_presets_set_only_options_their_variants_have():
    for p in PRESETS.values():
        for variant, opts in p.options.items():
            v = get_variant(variant, opts)
            assert all(v.has(k) for k in opts), (p.name, variant)


def test_rules_over_preset_and_tags_over_both():
    opts = RuleSet.from_command_line(["koks=off"], "club")
    own, problems = opts.for_variant("long")
    assert own["koks"] is False and own["home_mars"] == 1 and problems == []
    m = ngn.read('[Variant "long"]\n[Rules "club"]\n[Koks "off"]\n\nGame 1\n', "t.ngn")
    from nardy_analyze.judged import choose_variant
    v = choose_variant(m).variant
    assert (v.opt("koks"), v.opt("home_mars")) == (False, 1)


def test_unknown_preset():
    with pytest.raises(ValueError, match="names no rule set"):
        RuleSet.from_command_line([], "fide")
    rep = findings('[Variant "long"]\n[Rules "fide"]\n\nGame 1\n1. 65: 24/18 18/13\n')
    assert [(f.rule, f.line, f.severity) for f in rep.findings if f.rule == "parse-error"] == \
        [("parse-error", 2, WARNING)]


# ------------------------------------------------------- generated games under every option and preset

OPTION_CASES = [
    ("long", {"head_exception": "any-double"}),
    ("long", {"head_exception": "six-four"}),
    ("long", {"head_exception": "conditional"}),
    ("long", {"home_mars": 1}),
    ("long", {"home_mars": 3, "koks": True}),
    ("long", {"last_roll": True}),
    ("gulbara", {"last_roll": True, "home_mars": 1}),
    ("long", {"cube": True}),
    ("gulbara", {"cube": True}),
    ("long", {"clock": 840, "increment": 8}),
    ("backgammon", {"clock": 600, "increment": 8, "clock_per": "match"}),
    ("gulbara", {"clock": 300, "increment": 5}),
] + [(variant, {"rules": name}) for name, p in PRESETS.items()
     for variant in (p.options or ("backgammon", "long", "gulbara"))]


def _options(opts):
    if "rules" in opts:
        return RuleSet.from_command_line([], opts["rules"])
    return opts


@pytest.mark.parametrize("variant,opts", OPTION_CASES, ids=lambda x: str(x))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_generated_games_under_each_option_validate_clean(variant, opts, seed):
    """Generated games validate without a finding, except a game that ends in a mutual lock (no roll moves a
    checker of either side again), which is unfinished and said so."""
    m = generate_match(variant, 3, seed=seed, options=_options(opts))
    text = ngn.write(m)
    rep = analyze.validate_match(ngn.read(text, "g.ngn"))
    findings = [f for f in rep.findings if not _ends_in_a_lock(m, variant, opts, f)]
    assert findings == [], (variant, opts, seed, findings[:3])


def _ends_in_a_lock(m, variant: str, opts, finding) -> bool:
    """Whether ``finding`` is the warning of a game without a result that ends in a mutual lock: its final position
    lets no roll move either side (``generate.locked``), and a hundred random turns there move nothing."""
    import random
    from nardy_analyze.generate import _play_turn, locked
    from nardy_analyze.judged import variant_for
    from nardy_analyze.replay.normal import normalise
    if finding.rule != "result-mismatch" or finding.severity != WARNING or finding.game is None:
        return False
    ng = normalise(m, variant, _options(opts)).games[finding.game - 1]
    if ng.report.winner is not None or ng.report.how == "draw":
        return False
    pos = list([na.state for na in ng.actions if na.state is not None][-1].after)
    rules = variant_for(m, variant, _options(opts)).rules
    rolls = sum(a.kind is Kind.ROLL for a in ng.game.actions)
    if not locked(rules, pos, rolls + 1):
        return False
    rng, before = random.Random(rolls), tuple(pos)
    for k in range(100):
        roll = Action(Kind.ROLL, k % 2, Loc(1, 1), dice=(rng.randint(1, 6), rng.randint(1, 6)))
        _play_turn(rules, pos, k % 2, roll, [5, 5], rolls + 1 + k, rng, None, 1)
    return tuple(pos) == before


def test_a_generated_game_stops_at_a_mutual_lock():
    """A Gul bara game of seed 82 under the club rules reaches a mutual lock at its 44th roll: it ends there,
    unfinished (it used to run on to the generator's cap of 4,000 idle rolls), and validate says so."""
    m = generate_match("gulbara", 3, seed=82, options=_options({"rules": "club"}))
    g = m.games[2]
    assert len(g.actions) == 44 and not any(a.kind in (Kind.WIN, Kind.DRAW) for a in g.actions)
    assert not g.actions[-1].steps and not g.actions[-1].segments
    rep = analyze.validate_match(ngn.read(ngn.write(m), "g.ngn"))
    assert [(f.rule, f.game) for f in rep.findings] == [("result-mismatch", 3)]
    assert all(_ends_in_a_lock(m, "gulbara", {"rules": "club"}, f) for f in rep.findings)
    assert [len(x.actions) for x in m.games[:2]] == [33, 38]


def _switch(text: str, tag: str, value: str) -> str:
    """The record with the option tag ``tag`` set to ``value`` (added when absent)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(f"[{tag} "):
            lines[i] = f'[{tag} "{value}"]'
            return "\n".join(lines)
    return f'[{tag} "{value}"]\n' + text


def _first_turn_double(m, doubles) -> bool:
    """Some player's own first roll is a double of ``doubles`` played with two checkers off the head."""
    for g in m.games:
        seen = set()
        for a in g.actions:
            if a.kind is Kind.ROLL and a.player not in seen:
                seen.add(a.player)
                if a.dice[0] == a.dice[1] and a.dice[0] in doubles and sum(s.src == 24 for s in a.steps) == 2:
                    return True
    return False


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_switched_head_exception_breaks(seed):
    m = generate_match("long", 4, seed=seed, options={"head_exception": "any-double"})
    text = ngn.write(m)
    assert analyze.validate_match(ngn.read(text, "g.ngn")).findings == []
    if _first_turn_double(m, (1, 2, 5)):
        assert "head-rule" in {f.rule for f in analyze.validate_match(
            ngn.read(_switch(text, "head_exception", "standard"), "g.ngn")).findings}
    m = generate_match("long", 4, seed=seed)                     # standard: 3-3 with two checkers
    text = ngn.write(m)
    if _first_turn_double(m, (3,)):
        assert "head-rule" in {f.rule for f in analyze.validate_match(
            ngn.read(_switch(text, "head_exception", "six-four"), "g.ngn")).findings}


def _physical(g):
    """The positions after each action of a generated long nardy game (the written steps applied)."""
    v = get_variant("long")
    pos = list(v.rules.initial())
    for a in g.actions:
        if a.kind is Kind.ROLL:
            me, opp = pos[a.player], pos[1 - a.player]
            for s in a.steps:
                me, opp, _ = v.rules.apply(me, opp, s.src, s.dst)
            pos[a.player], pos[1 - a.player] = me, opp
        yield a, pos


def _has_last_roll(g) -> bool:
    """A roll written after a side has borne off every checker (the last roll)."""
    over = False
    for a, pos in _physical(g):
        if a.kind is Kind.ROLL and over:
            return True
        over = over or any(not sum(x) for x in pos)
    return False


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_switched_last_roll_breaks(seed):
    m = generate_match("long", 12, seed=seed, options={"last_roll": True})
    text = ngn.write(m)
    assert analyze.validate_match(ngn.read(text, "g.ngn")).findings == []
    last = sum(map(_has_last_roll, m.games))
    off = analyze.validate_match(ngn.read(_switch(text, "last_roll", "off"), "g.ngn"))
    bad = [f.rule for f in off.findings if f.severity == ERROR]
    assert bad.count("result-mismatch") == last and set(bad) <= {"result-mismatch", "match-score"}


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_switched_home_mars_breaks(seed):
    m = generate_match("long", 10, seed=seed, options={"home_mars": 1})
    text = ngn.write(m)
    rep = analyze.validate_match(ngn.read(text, "g.ngn"))
    assert rep.findings == []
    home = sum(1 for g in m.games if _home_mars(g))
    off = analyze.validate_match(ngn.read(_switch(text, "home_mars", "off"), "g.ngn"))
    assert sum(f.rule == "result-mismatch" for f in off.findings) == home


def _home_mars(g) -> bool:
    """The game ended with the loser all home and none off (from the written plays)."""
    for _, pos in _physical(g):
        pass
    win = g.actions[-1]
    loser = pos[1 - win.player]
    return sum(loser) == 15 and not any(loser[6:24])


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_switched_clock_breaks(seed):
    m = generate_match("long", 2, seed=seed, options={"clock": 840, "increment": 8})
    text = ngn.write(m)
    assert analyze.validate_match(ngn.read(text, "g.ngn")).findings == []
    # a clock of 20 s with no increment: the times written fall below zero, once per player and game
    rep = analyze.validate_match(ngn.read(_switch(text, "TimeControl", "20+0"), "g.ngn"))
    got = [(f.game, f.side) for f in rep.findings]
    assert {f.rule for f in rep.findings} == {"time-limit"} and len(got) == len(set(got)) >= 1


# ------------------------------------------------------------------------------- the cube and match scoring

def cube_game(tags: str, cells: str) -> str:
    pid = position_id(side({1: 1}), side(ALL_HOME))
    return f'[Variant "long"]\n{tags}\nGame 1\nW setup position {pid}\n{cells}'


@pytest.mark.parametrize("variant", ["long", "gulbara"])
def test_cube_in_the_long_games(variant):
    text = cube_game('[Cube "on"]\n', "W double 2\nB take\n1. 21: 1/off\nW wins 4\n").replace("long", variant)
    assert errors(text) == []                                  # a mars at cube 2
    wrong = text.replace("W wins 4", "W wins 2")
    assert errors(wrong) == [("result-mismatch", line_of(wrong, "W wins"))]
    off = text.replace('[Cube "on"]', '[Cube "off"]')          # the default: no cube
    assert [r for r, _ in errors(off)][0] == "cube-illegal"
    dropped = cube_game('[Cube "on"]\n', "W double 2\nB drop\nW wins 1\n").replace("long", variant)
    assert errors(dropped) == []


def test_generated_long_games_with_the_cube_end_to_end(tmp_path):
    from nardy_analyze import statsrun

    m = generate_match("long", 20, seed=5, options={"cube": True})
    assert any(a.kind is Kind.DOUBLE for g in m.games for a in g.actions)
    for fmt in ("ngn", "json"):
        path = tmp_path / f"c.{fmt}"
        path.write_text(notation(fmt).write(m))
        assert analyze.validate_match(notation(fmt).read(path.read_text(), str(path))).findings == []
        g = statsrun.games([str(path)])
        assert g["max_cube"].max() >= 2 and (g["kind"].astype(str) == "drop").any() == \
            any(a.kind is Kind.DROP for gm in m.games for a in gm.actions)


def test_match_scoring_follows_the_preset():
    pid = position_id(side({1: 1}), side(ALL_HOME))
    game = f"W setup position {pid}\n1. 21: 1/off\nW wins {{}}\n"
    text = (f'[Variant "long"]\n[Rules "club"]\n[MatchLength "3"]\n\nGame 1 score 0-0\n{game.format(1)}'
            f"Game 2 score 1-0\n{game.format(1)}Game 3 score 2-0\n{game.format(1)}")
    assert [f for f in findings(text).findings if f.severity == ERROR] == []      # a home mars is 1 point
    plain = text.replace('[Rules "club"]', '[Rules "standard"]')                  # a mars is 2
    assert {f.rule for f in findings(plain).findings if f.severity == ERROR} == {"result-mismatch"}
    two = f'[Variant "long"]\n[MatchLength "3"]\n\nGame 1 score 0-0\n{game.format(2)}Game 2 score 2-0\n{game.format(2)}'
    assert findings(two).findings == []                                           # 2 + 2: the match is won
    club = two.replace('[MatchLength "3"]', '[MatchLength "3"]\n[Rules "club"]')
    # under the club's scoring each home mars is 1 point: both results are wrong (the score line after a wrong
    # result is not a second finding)
    assert [f.rule for f in findings(club).findings if f.severity == ERROR] == ["result-mismatch"] * 2


def _doubles(m) -> bool:
    return any(a.kind is Kind.DOUBLE for g in m.games for a in g.actions)


def _koks(m) -> bool:
    """Some game ended with a loser's checker still on the loser's 13-18 and none off."""
    for g in m.games:
        for _, pos in _physical(g):
            pass
        win = g.actions[-1]
        if win.kind is Kind.WIN and g.actions[-2].kind is Kind.ROLL:
            loser = pos[1 - win.player]
            if sum(loser) == 15 and any(loser[12:18]):
                return True
    return False


@pytest.mark.parametrize("variant,opts,tag,value,breaks", [
    ("long", {"koks": True}, "koks", "off", _koks),
    ("long", {"cube": True}, "cube", "off", _doubles),
    ("gulbara", {"cube": True}, "cube", "off", _doubles),
    ("long", {"rules": "federation"}, "Rules", "standard", _doubles),      # the federation's cube
    ("long", {"rules": "club"}, "Rules", "standard", lambda m: _koks(m) or any(map(_home_mars, m.games))),
])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_switched_option_or_preset_breaks(variant, opts, tag, value, breaks, seed):
    m = generate_match(variant, 6, seed=seed, options=_options(opts))
    text = ngn.write(m)
    assert analyze.validate_match(ngn.read(text, "g.ngn")).findings == []
    switched = analyze.validate_match(ngn.read(_switch(text, tag, value), "g.ngn"))
    assert any(f.severity == ERROR for f in switched.findings) == breaks(m)


@pytest.mark.parametrize("fmt", ["ngn", "json"])
def test_clock_times_draws_and_handover_clocks_round_trip(fmt):
    from nardy_analyze.record import record_dict

    m = generate_match("gulbara", 12, seed=3, options={"clock": 300, "increment": 5})
    assert any(s.clock is not None and s.clock_left is not None for g in m.games for a in g.actions
               for s in a.segments)
    assert record_dict(_roundtrip(m, fmt)) == record_dict(m)
    m = generate_match("long", 30, seed=1, options={"last_roll": True})
    assert any(a.kind is Kind.DRAW for g in m.games for a in g.actions)
    assert record_dict(_roundtrip(m, fmt)) == record_dict(m)
