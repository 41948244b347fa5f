"""The cube state the analysis decides with is the replay's (value, owner, score before the game, Crawford),
also after a set-up that puts the cube somewhere; no cube decision before the opening roll."""
from __future__ import annotations

from pathlib import Path

import pytest

from nardy_analyze.engine import get_variant
from nardy_analyze.notation import read_path as load_path
from nardy_analyze.replay import Events, ReplayVisitor, replay

FIX = Path(__file__).parent / "fixtures" / "gnubg-sgf"
SETUPS = [FIX / "setup.sgf", FIX / "setup2.sgf"]


class _Both(ReplayVisitor):
    wants = Events.TURNS | Events.STATES

    def __init__(self) -> None:
        self.turns, self.states, self.ends = [], [], []
        self.game = None

    def begin_game(self, game) -> None:
        self.game = game.number

    def turn(self, row) -> None:
        self.turns.append(row)

    def action_state(self, state) -> None:
        self.states.append((self.game, state))

    def end_game(self, report) -> None:
        self.ends.append(report)


def _replayed(path: Path):
    match = load_path(str(path))
    col = _Both()
    replay(match, get_variant("backgammon"), visitor=col)
    return match, col


@pytest.mark.parametrize("path", SETUPS, ids=lambda p: p.name)
def test_turn_rows_carry_the_replays_cube_state(path):
    """Each roll's turn row has the cube value and owner the replay held before that roll (its action
    state), and the score before the game."""
    match, col = _replayed(path)
    rolls = [s for _g, s in col.states if s.legal is not None]
    checked = 0
    for t in col.turns:
        if t.dice is None or t.doubled:
            continue
        a = t.action
        st = next((s for g, s in col.states if g == t.game and s.index == _index(match, t.game, a)), None)
        if st is None:
            continue
        assert (t.cube_before, t.owner) == (st.cube, st.owner), t
        checked += 1
    assert checked > 0
    assert len(rolls) > 0


def _index(match, game, action):
    for g in match.games:
        if g.number == game:
            return next(i for i, a in enumerate(g.actions) if a is action)
    return None


def test_setup2_cube_owned_after_the_set_up():
    """setup2.sgf: game 1 is set up with the cube at 2 on Ann's side; game 2 starts at 0-4."""
    match, col = _replayed(FIX / "setup2.sgf")
    g1 = [t for t in col.turns if t.game == 1]
    assert g1 and all(t.cube_before == 2 and t.owner == 0 for t in g1)
    g2 = [t for t in col.turns if t.game == 2]
    assert g2 and all(t.score == (0, 4) for t in g2)
    assert all(t.owner is None and t.cube_before == 1 for t in g2)


bgsage = pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")


@pytest.mark.parametrize("path", SETUPS, ids=lambda p: p.name)
def test_analysis_cube_state_equals_the_replays(path):
    from nardy_analyze.stats import skill

    match, col = _replayed(path)
    d = skill.decision_frame(skill.analyse_match(match).rows)
    rows = {(t.game, t.turn): t for t in col.turns}
    assert len(d)
    for r in d.itertuples():
        t = rows[(r.game, r.turn)]
        decider = t.side if r.kind != "take" else 1 - t.side
        cube = t.cube if r.kind == "checker" and t.doubled and t.answer == "take" else t.cube_before
        owner = (1 - t.side) if r.kind == "checker" and t.doubled and t.answer == "take" else t.owner
        assert r.cube == cube
        assert r.cube_owner == ("centered" if owner is None else "player" if owner == decider else "opponent")
        assert (r.away, r.opp_away) == (match.match_length - t.score[decider], match.match_length - t.score[1 - decider])
        assert r.crawford == t.crawford
    if path.name == "setup2.sgf":
        g1 = d[d.game == 1]
        assert not ((g1.player == "Bob") & (g1.kind == "double")).any()      # Ann owns the cube
        assert (g1[g1.player == "Ann"].cube_owner == "player").all()


def test_no_cube_decision_before_the_opening_roll():
    from nardy_analyze.stats import skill

    match, col = _replayed(FIX / "setup2.sgf")
    d = skill.decision_frame(skill.analyse_match(match).rows)
    for g in d.game.unique():
        first = d[(d.game == g)].turn.min()
        start = [t for t in col.turns if t.game == g and t.turn == first][0]
        rules = get_variant("backgammon").rules
        if start.before in (rules.initial(), rules.initial()[::-1]):
            assert not ((d.game == g) & (d.turn == first) & (d.kind != "checker")).any()
