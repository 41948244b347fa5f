"""The cube model (stats.cube) and the match equity table (stats.met): values never leave what the position
allows, in money and match play; a certain win is worth exactly what it wins; the analysis of a bear-off
that every roll wins has equity exactly its value and zero luck."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from nardy_analyze.stats import cube as cm
from nardy_analyze.stats.met import POST, PRE, met

OWNERS = [cm.CENTRED, cm.PLAYER, cm.OPPONENT]


@st.composite
def outcomes(draw):
    win = draw(st.floats(0, 1))
    gw = draw(st.floats(0, 1)) * win
    bw = draw(st.floats(0, 1)) * gw
    gl = draw(st.floats(0, 1)) * (1 - win)
    bl = draw(st.floats(0, 1)) * gl
    return (win, gw, bw, gl, bl)


@st.composite
def stakes(draw):
    if draw(st.booleans()):
        return cm.Stakes(jacoby=draw(st.booleans()), beaver=draw(st.booleans()))
    length = draw(st.integers(1, 25))
    away = draw(st.integers(1, length))
    opp = draw(st.integers(1, length))
    crawford = min(away, opp) == 1 and max(away, opp) > 1 and draw(st.booleans())
    return cm.Stakes(length, away, opp, crawford)


def _bounds(m: cm.Model, cube: int, owner: str) -> tuple[float, float]:
    c = owner == cm.CENTRED
    return m.normalise(m.loss_value(cube, c), cube), m.normalise(m.win_value(cube, c), cube)


def test_met_is_a_table_of_chances():
    for i in range(25):
        for j in range(25):
            assert PRE[i][j] + PRE[j][i] == pytest.approx(1.0, abs=2e-5)
            if j + 1 < 25:
                assert PRE[i][j] <= PRE[i][j + 1]         # the further the opponent, the better
    assert met(1, 2) == 0.67736 and met(2, 1, post_crawford=True) == POST[1]
    assert met(0, 5) == 1.0 and met(5, 0) == 0.0


@settings(max_examples=400, deadline=None)
@given(outcomes(), stakes(), st.sampled_from([1, 2, 4, 8]), st.sampled_from(OWNERS),
       st.floats(0.5, 0.75))
def test_equities_stay_within_what_the_position_allows(probs, s, cube, owner, x):
    m = cm.Model(s, probs, x)
    nd, dt, dp = m.decision(cube, owner)
    lo, hi = _bounds(m, cube, owner)
    assert lo - 1e-9 <= nd <= hi + 1e-9
    # after a take the opponent owns twice the cube: between losing and winning at that cube
    lo2, hi2 = m.normalise(m.loss_value(2 * cube, False), cube), m.normalise(m.win_value(2 * cube, False), cube)
    if not (s.money and s.beaver and dt < 0):
        assert lo2 - 1e-9 <= dt <= hi2 + 1e-9
    assert dp == pytest.approx(m.normalise(s.value(cube), cube))
    if not s.money:              # match-winning chances are chances
        mwc = m.cubeful(m.p, cube, owner)
        assert -1e-12 <= mwc <= 1 + 1e-12


@settings(max_examples=200, deadline=None)
@given(stakes(), st.sampled_from([1, 2, 4]), st.sampled_from(OWNERS), st.floats(0.5, 0.75),
       st.sampled_from([0, 1, 2]))
def test_a_certain_result_is_worth_exactly_what_it_wins(s, cube, owner, x, level):
    win = (1.0, 1.0 if level >= 1 else 0.0, 1.0 if level == 2 else 0.0, 0.0, 0.0)
    m = cm.Model(s, win, x)
    points = cube if owner == cm.CENTRED and s.jacoby and s.money else cube * (level + 1)
    assert m.equity(cube, owner) == pytest.approx(m.normalise(s.value(points), cube), abs=1e-12)
    lose = cm.invert(win)
    m = cm.Model(s, lose, x)
    assert m.equity(cube, owner) == pytest.approx(m.normalise(s.value(-points), cube), abs=1e-12)


def test_money_values():
    """Gammonless money play: the take point is near Janowski's 0.2137 at x = 0.68; a certain single
    win is +1 whatever the cube's owner, a certain single loss -1 (not -2)."""
    m = cm.Model(cm.Stakes(), (0.5, 0, 0, 0, 0), 0.68)
    tp = m.knots(1, cm.CENTRED)[1][0]
    assert 0.2 < tp < 0.22
    for owner in OWNERS:
        assert cm.cube_decision((1, 0, 0, 0, 0), cm.Stakes(), 1, owner, 0.68)[0] == 1.0
        assert cm.cube_decision((0, 0, 0, 0, 0), cm.Stakes(), 1, owner, 0.68)[0] == -1.0
    # beaver: a double the taker beavers is worth twice as much to him
    nd, dt, dp = cm.cube_decision((0.4, 0, 0, 0, 0), cm.Stakes(beaver=True), 1, cm.CENTRED, 0.68)
    nd2, dt2, _ = cm.cube_decision((0.4, 0, 0, 0, 0), cm.Stakes(), 1, cm.CENTRED, 0.68)
    assert dt == pytest.approx(2 * dt2) and dt < 0


def test_match_play_cube():
    """Post-Crawford, the trailer 2 away doubles at once and the leader, 1 away, passes at 75 %
    (taking plays the match for 25 %, passing leaves him at 1-away 1-away, 50 %); the Crawford game has
    no double; the leader's cube is dead."""
    s = cm.Stakes(7, 2, 1)
    nd, dt, dp = cm.cube_decision((0.75, 0, 0, 0, 0), s, 1, cm.CENTRED, 0.68)
    assert dt == pytest.approx(2.0) and dp == pytest.approx(1.0) and dt > dp
    assert not cm.Stakes(7, 1, 3, crawford=True).can_double(cm.PLAYER, 1)
    assert not cm.Stakes(7, 1, 3).can_double(cm.PLAYER, 1)
    assert cm.Stakes(7, 1, 3).can_double(cm.OPPONENT, 1)


bgsage = pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")


def test_a_bear_off_every_roll_wins():
    """One checker left on the 1-point: every play of every roll wins a single game: equity exactly +1
    (money; in match play the value of winning the cube), luck exactly 0."""
    from nardy_analyze.engine import get_variant
    from nardy_analyze.stats import skill

    rules = get_variant("backgammon").rules
    me = tuple([1] + [0] * 24)
    opp = tuple([3, 3, 3, 2, 2, 2] + [0] * 19)
    for st_, cube, owner in ((cm.Stakes(), 1, cm.CENTRED), (cm.Stakes(), 2, cm.PLAYER),
                             (cm.Stakes(7, 3, 8), 2, cm.PLAYER), (cm.Stakes(7, 2, 1), 1, cm.CENTRED)):
        per_roll = [skill._bearoff_plays(rules, me, opp, r, st_, cube, owner) for r in skill._ROLLS]
        for res in per_roll:
            assert all(mv.equity == pytest.approx(1.0, abs=1e-12) for mv in res.moves)
        best, average = skill._roll_equities(skill._ROLLS, per_roll)
        assert all(best[r] - average == pytest.approx(0.0, abs=1e-12) for r in skill._ROLLS)


@pytest.mark.parametrize("name", ["bearoff-win.sgf", "bearoff-win-match.sgf"])
def test_a_record_whose_last_roll_every_roll_wins(name):
    """A set-up record (money play; a 7-point match at 3-away 7-away with the 2-cube on the roller's
    side): the roller's two checkers on his 1- and 2-points come off with any roll.  The roll's equity is
    exactly +1 (winning the cube's value), its luck and error exactly 0; the cube decision's no double is
    +1, its double/pass +1 (the set-up game's first roll is no opening roll: it has a cube decision)."""
    from pathlib import Path

    from nardy_analyze import statsrun

    path = Path(__file__).parent / "fixtures" / "gnubg-sgf" / name
    d = statsrun.analyse([str(path)], plies=0, jobs=1).decisions
    chk = d[d["kind"] == "checker"].iloc[0]
    assert chk["equity_played"] == pytest.approx(1.0, abs=1e-12)
    assert chk["equity_best"] == pytest.approx(1.0, abs=1e-12)
    assert chk["luck"] == pytest.approx(0.0, abs=1e-12) and chk["error"] == 0.0
    cube = d[d["kind"] == "double"].iloc[0]
    assert cube["nd"] == pytest.approx(1.0, abs=1e-12) and cube["dp"] == pytest.approx(1.0, abs=1e-12)
    assert cube["error"] == 0.0
    if "match" in name:
        assert (cube["cube"], cube["cube_owner"], cube["away"], cube["opp_away"]) == (2, "player", 3, 7)
