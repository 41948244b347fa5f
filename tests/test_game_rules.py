"""Game-level rules (docs/rules.md, "Backgammon" and "Rule ids"): for every game-level rule id of backgammon, the
record that breaks it and the nearest legal record, which must pass.

Records are written here as small .mat texts, read with ``mat.read`` and validated with
``analyze.validate_match``.  Every play in them is a real legal play: the builder asks the engine for
the legal plays of each roll (first in sorted order, or one with a wanted property), and games that are
won by bearing off are played out by a seeded random legal-play loop.  What the tests assert is what
the replayer decides at game level (cube, results, scores, openings), which the engine cannot decide.
"""
from __future__ import annotations

import functools
import json
import random
import re

import pytest

from nardy_analyze.engine.core import Dice
from nardy_analyze import inputs
from nardy_analyze.engine import RuleSet
from nardy_analyze import analyze
from nardy_analyze.report.board import diagram
from nardy_analyze.engine import borne_off, fmt_steps, generate
from nardy_analyze.engine.backgammon import START, Backgammon
from nardy_analyze.notation import mat
from nardy_analyze.record import Kind
from nardy_analyze.replay import ERROR, WARNING

from helpers import without_unfinished_match

R = Backgammon()
NAMES = ("Alice", "Bob")
PATH = "game.mat"
RIGHT = 33                      # the column where right-hand cells start (gnubg layout)
ENDINGS = ("Wins", "Losses", "Resigns")
OPENING = [(0, 3, 1), (1, 4, 2), (0, 6, 2), (1, 5, 3)]   # (side, die, die): four ordinary turns


# ----------------------------------------------------------------------------- record builder


def fmt_play(me, opp, path) -> str:
    """Engine steps ((src, dst, die), ...) in gnubg spelling: 25 = bar, 0 = off, ``*`` for a hit."""
    out = []
    for src, dst, _die in path:
        me, opp, hit = R.apply(me, opp, src, dst)
        out.append(f"{src}/{dst}{'*' if hit else ''}")
    return " ".join(out)


def wins(points: int, and_match: bool = False) -> str:
    return f"Wins {points} point{'s' if points != 1 else ''}{' and the match' if and_match else ''}"


class GameRec:
    """One game being written: its cells in order, (side, text), and the position they lead to."""

    def __init__(self, score=(0, 0)):
        self.score = score
        self.pos = [START, START]
        self.cube = 1
        self.cells: list[tuple[int, str]] = []
        self.locs: list[tuple[int, int, int | None]] = []   # (line, column, move) per cell, by MatRec.text

    def cell(self, side: int, text: str) -> int:
        self.cells.append((side, text))
        return len(self.cells) - 1

    def roll(self, side: int, d1: int, d2: int, want=None) -> int:
        """A legal play of d1-d2 for ``side``: the first in sorted order, or the first that ``want(before,
        after)`` (mover's sides) accepts."""
        me, opp = self.pos[side], self.pos[1 - side]
        ps = generate(R, me, opp, Dice.roll(max(d1, d2), min(d1, d2)).numbers)
        keys = sorted(ps.plays)
        if want is not None:
            keys = [k for k in keys if want(me, k[0])]
        key = keys[0]
        self.pos[side], self.pos[1 - side] = key
        return self.cell(side, f"{d1}{d2}: {fmt_play(me, opp, ps.plays[key])}".rstrip())

    def rolls(self, turns) -> None:
        for side, d1, d2 in turns:
            self.roll(side, d1, d2)

    def double(self, side: int, value: int | None = None) -> int:
        return self.cell(side, f"Doubles => {value or self.cube * 2}")

    def take(self, side: int) -> int:
        self.cube *= 2
        return self.cell(side, "Takes")

    def drop(self, side: int) -> int:
        return self.cell(side, "Drops")


class MatRec:
    """A match being written; ``text()`` lays it out as gnubg does and fills every game's ``locs``."""

    def __init__(self, length: int = 0, tags: dict[str, str] | None = None):
        self.length = length
        self.tags = dict(tags or {})
        self.games: list[GameRec] = []

    def game(self, score=(0, 0)) -> GameRec:
        g = GameRec(score)
        self.games.append(g)
        return g

    def text(self) -> str:
        lines = [f'; [{k} "{v}"]' for k, v in self.tags.items()]
        if lines:
            lines.append("")
        lines += [f" {self.length} point match", ""]
        for n, g in enumerate(self.games, 1):
            lines.append(f" Game {n}")
            lines.append(f" {NAMES[0]} : {g.score[0]}".ljust(RIGHT - 1) + f"{NAMES[1]} : {g.score[1]}")
            g.locs = [None] * len(g.cells)
            items: list[list] = []          # ["row", left, right] or ["end", index]
            row = None
            for i, (side, text) in enumerate(g.cells):
                if text.startswith(ENDINGS):
                    items.append(["end", i])
                    row = None
                elif side == 0 or row is None or row[2] is not None:
                    row = ["row", i, None] if side == 0 else ["row", None, i]
                    items.append(row)
                else:
                    row[2] = i
            move = 0
            for item in items:
                line = len(lines) + 1
                if item[0] == "end":
                    i = item[1]
                    side, text = g.cells[i]
                    pad = 6 if side == 0 else RIGHT
                    g.locs[i] = (line, pad + 1, None)
                    lines.append(" " * pad + text)
                    continue
                move += 1
                _, left, right = item
                s = f"{move:>3}) "
                if left is not None:
                    g.locs[left] = (line, len(s) + 1, move)
                    s += g.cells[left][1]
                if right is not None:
                    s = s.ljust(RIGHT - 1) if len(s) < RIGHT - 2 else s + "  "
                    g.locs[right] = (line, len(s) + 1, move)
                    s += g.cells[right][1]
                lines.append(s)
            lines.append("")
        return "\n".join(lines) + "\n"


def read(m: MatRec):
    text = m.text()
    match = mat.read(text, PATH)
    assert not match.problems and not any(g.problems for g in match.games), text
    return match


def check(m: MatRec, **options):
    """The findings of a hand-written match (most stop before the match is won: that warning is left out
    here, and tested in test_consistency.py)."""
    return without_unfinished_match(analyze.validate_match(read(m), options=options or None))


def dump(rep) -> str:
    return "\n".join(f"{f.line}:{f.column} {f.rule} {f.severity} {f.message} [game {f.game}, move {f.move}, "
                     f"{f.player}]" for f in rep.findings) or "(no findings)"


def clean(rep) -> None:
    assert rep.findings == [], dump(rep)


def only(rep, rule: str, severity: str = ERROR):
    """The one finding of the report; it must be of ``rule`` and ``severity``."""
    assert len(rep.findings) == 1, dump(rep)
    f = rep.findings[0]
    assert (f.rule, f.severity) == (rule, severity), dump(rep)
    return f


def at(f, g: GameRec, i: int, game: int = 1, player: int | None = None) -> None:
    """The finding points at cell ``i`` of ``g``: line, column, game, the row's written move number and
    player."""
    line, col, move = g.locs[i]
    side = g.cells[i][0] if player is None else player
    assert (f.line, f.column, f.game, f.row, f.player) == (line, col, game, move, NAMES[side]), \
        (f.line, f.column, f.game, f.row, f.player, f.message)


def has(f, *words: str) -> None:
    for w in words:
        assert w in f.message, (w, f.message)


# ----------------------------------------------------------------------------- games to the end


def level_of(loser) -> int:
    """docs/rules.md, Backgammon, 7. Scoring, written independently of the engine: 1 single, 2 gammon, 3 backgammon."""
    if borne_off(loser):
        return 1
    if loser[24] or any(loser[18:24]):       # bar, or the loser's 19..24 = the winner's home
        return 3
    return 2


@functools.lru_cache(maxsize=None)
def simulate(seed: int):
    """A whole game of random legal plays: ((side, d1, d2, before, after, path), ...), winner."""
    rng = random.Random(seed)
    pos = [START, START]
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            break
    side = 0 if a > b else 1
    turns = []
    while True:
        me, opp = pos[side], pos[1 - side]
        ps = generate(R, me, opp, Dice.roll(max(a, b), min(a, b)).numbers)
        key = rng.choice(sorted(ps.plays))
        turns.append((side, a, b, (me, opp), key, ps.plays[key]))
        pos[side], pos[1 - side] = key
        if borne_off(pos[side]) == 15:
            return tuple(turns), side
        side = 1 - side
        a, b = rng.randint(1, 6), rng.randint(1, 6)


def find_seed(pred) -> int:
    for seed in range(300):
        turns, w = simulate(seed)
        if pred(turns, w):
            return seed
    raise AssertionError("no seed found")


def final_level(turns, w) -> int:
    me, opp = turns[-1][4]
    return level_of(opp)


def write_turns(g: GameRec, turns, double_before: int | None = None) -> None:
    """Write simulated turns into ``g``; ``double_before``: that turn's mover doubles and is taken."""
    for k, (side, a, b, before, after, path) in enumerate(turns):
        if k == double_before:
            g.double(side)
            g.take(1 - side)
        assert (g.pos[side], g.pos[1 - side]) == before
        g.cell(side, f"{a}{b}: {fmt_play(before[0], before[1], path)}".rstrip())
        g.pos[side], g.pos[1 - side] = after


def bearoff_game(level: int, m: MatRec, score=(0, 0), double_before: int | None = None):
    """A game won by bearing off at ``level``; returns (game, winner side)."""
    seed = find_seed(lambda t, w: final_level(t, w) == level and len(t) < 120)
    turns, w = simulate(seed)
    g = m.game(score)
    write_turns(g, turns, double_before)
    assert borne_off(g.pos[w]) == 15 and level_of(g.pos[1 - w]) == level
    return g, w


def short_game(m: MatRec, score=(0, 0), winner: int = 0, points: int = 1, and_match: bool = False) -> GameRec:
    """Four ordinary turns, then the other side resigns: ``Wins N`` in the winner's column."""
    g = m.game(score)
    g.rolls(OPENING)
    g.cell(winner, wins(points, and_match))
    return g


# ----------------------------------------------------------------------------- opening-roll


def test_opening_double_is_an_error():
    m = MatRec()
    g = m.game()
    i = g.roll(0, 6, 6)
    g.rolls([(1, 4, 2), (0, 5, 3)])
    g.cell(0, wins(1))
    f = only(check(m), "opening-roll")
    at(f, g, i)
    has(f, "66", "double")


def test_opening_non_double_and_later_doubles_pass():
    m = MatRec()
    g = m.game()
    g.rolls([(0, 6, 5), (1, 4, 4), (0, 3, 3)])     # doubles after the opening are ordinary
    g.cell(0, wins(1))
    clean(check(m))


def test_second_player_opens():
    m = MatRec()
    g = m.game()
    g.rolls([(1, 3, 1), (0, 6, 6), (1, 5, 2)])    # blank left cell on move 1: Bob opens; Alice's 66 is fine
    g.cell(1, wins(1))
    text = m.text()
    assert text.splitlines()[g.locs[0][0] - 1].startswith("  1)" + " " * 28 + "31:")
    match = read(m)
    assert [a.player for a in match.games[0].actions] == [1, 0, 1, 1]
    clean(analyze.validate_match(match))
    # the second player's opening double is the opening roll too
    m = MatRec()
    g = m.game()
    i = g.roll(1, 5, 5)
    g.rolls([(0, 3, 1)])
    g.cell(0, wins(1))
    f = only(check(m), "opening-roll")
    at(f, g, i)
    assert f.column == RIGHT and f.move == 1 and f.player == "Bob"


# ----------------------------------------------------------------------------- cube-illegal


def crawford_match(tags=None) -> tuple[MatRec, GameRec, int]:
    """3-point match: Alice reaches 2 (= length - 1); Bob doubles in game 2 and post-Crawford in game 3."""
    m = MatRec(3, tags)
    short_game(m, (0, 0), winner=0, points=2)          # a gammon resignation: 2-0
    g2 = m.game((2, 0))
    g2.rolls(OPENING[:3])
    d = g2.double(1)
    g2.drop(0)
    g2.cell(1, wins(1))
    g3 = m.game((2, 1))                                 # post-Crawford: doubles are allowed again
    g3.rolls(OPENING[:3])
    g3.double(1)
    g3.take(0)
    g3.rolls([(1, 6, 1), (0, 4, 3)])
    g3.cell(0, wins(2, and_match=True))                 # cube 2, single: 2 points, Alice needed 1
    return m, g2, d


def test_double_in_crawford_game():
    m, g2, d = crawford_match()
    f = only(check(m), "cube-illegal")
    at(f, g2, d, game=2)
    has(f, "Crawford", "Bob doubles to 2")


def test_crawford_off_header_allows_the_double():
    m, _, _ = crawford_match({"Crawford": "Off"})
    clean(check(m))
    # the option alone (no header) does the same; the header wins over the option
    m, _, _ = crawford_match()
    clean(check(m, crawford=False))
    m, g2, d = crawford_match({"Crawford": "On"})
    only(check(m, crawford=False), "cube-illegal")


def test_money_session_has_no_crawford_game():
    m = MatRec(0)
    short_game(m, (0, 0), winner=0, points=2)
    g = m.game((2, 0))
    g.rolls(OPENING[:3])
    g.double(1)
    g.drop(0)
    g.cell(1, wins(1))
    clean(check(m))


def cube_game(m: MatRec, actions) -> tuple[GameRec, dict[str, int]]:
    """Four turns, then ``actions``: ("roll", side, d1, d2), ("double", side[, value]), ("take", side),
    ("drop", side), ("cell", side, text).  Returns the game and the index of every named action."""
    g = m.game()
    g.rolls(OPENING)
    idx: dict[str, int] = {}
    for n, (kind, side, *rest) in enumerate(actions):
        if kind == "roll":
            i = g.roll(side, *rest)
        elif kind == "double":
            i = g.double(side, *rest)
        elif kind == "cell":
            i = g.cell(side, *rest)
        else:
            i = getattr(g, kind)(side)
        idx[f"{kind}{n}"] = i
    return g, idx


def test_double_when_opponent_owns_the_cube():
    m = MatRec()
    g, idx = cube_game(m, [("double", 0), ("take", 1), ("roll", 0, 6, 1), ("roll", 1, 5, 4),
                           ("double", 0), ("take", 1), ("roll", 0, 4, 1), ("cell", 1, wins(4))])
    f = only(check(m), "cube-illegal")
    at(f, g, idx["double4"])
    has(f, "Alice doubles to 4", "Bob owns the cube at 2")


def test_owner_redoubles():
    m = MatRec()
    cube_game(m, [("double", 0), ("take", 1), ("roll", 0, 6, 1), ("roll", 1, 5, 4), ("roll", 0, 2, 1),
                  ("double", 1), ("take", 0), ("roll", 1, 4, 1), ("cell", 1, wins(4))])
    clean(check(m))


def test_double_after_rolling():
    m = MatRec()
    g, idx = cube_game(m, [("roll", 0, 6, 1), ("double", 0), ("take", 1), ("roll", 1, 5, 4),
                           ("cell", 1, wins(2))])
    f = only(check(m), "cube-illegal")
    at(f, g, idx["double1"])
    has(f, "before rolling")


def test_double_before_rolling():
    m = MatRec()
    cube_game(m, [("roll", 0, 6, 1), ("roll", 1, 5, 4), ("double", 0), ("take", 1), ("roll", 0, 2, 1),
                  ("cell", 1, wins(2))])
    clean(check(m))


def test_taker_redoubles_out_of_turn():
    """After Bob takes it is still Alice's turn: Bob may not redouble before Alice has rolled."""
    m = MatRec()
    g, idx = cube_game(m, [("double", 0), ("take", 1), ("double", 1), ("drop", 0), ("cell", 1, wins(2))])
    f = only(check(m), "cube-illegal")
    at(f, g, idx["double2"])
    has(f, "Bob doubles to 4")


def test_double_before_the_opening_roll():
    """The opening roll decides who plays first; nobody owns a turn to double in before it."""
    m = MatRec()
    g = m.game()
    d = g.double(0)
    g.take(1)
    g.rolls(OPENING)
    g.cell(1, wins(2))
    f = only(check(m), "cube-illegal")
    at(f, g, d)
    has(f, "before the opening roll")
    # the first player's first own turn after the opening is the earliest double
    m = MatRec()
    g = m.game()
    g.rolls(OPENING[:2])
    g.double(0)
    g.take(1)
    g.rolls(OPENING[2:])
    g.cell(1, wins(2))
    clean(check(m))


def cube_limit_game(limit: str) -> tuple[MatRec, GameRec, dict[str, int]]:
    m = MatRec(0, {"CubeLimit": limit})
    g, idx = cube_game(m, [("double", 0), ("take", 1), ("roll", 0, 6, 1), ("double", 1), ("drop", 0),
                           ("cell", 1, wins(2))])
    return m, g, idx


def test_double_above_cube_limit():
    m, g, idx = cube_limit_game("2")
    f = only(check(m), "cube-illegal")
    at(f, g, idx["double3"])
    has(f, "Bob doubles to 4", "cube limit is 2")


def test_double_up_to_cube_limit():
    m, _, _ = cube_limit_game("4")
    clean(check(m))


def no_cube_record() -> tuple[MatRec, GameRec, dict[str, int]]:
    m = MatRec(0)
    g, idx = cube_game(m, [("double", 0), ("drop", 1), ("cell", 0, wins(1))])
    return m, g, idx


def test_double_without_cube():
    m, g, idx = no_cube_record()
    # --rule cube=off
    options = RuleSet.from_command_line(["cube=off"], None, "backgammon")
    assert options.common == {"cube": False}
    f = only(check(m, **options.flat()), "cube-illegal")
    at(f, g, idx["double0"])
    has(f, "without the doubling cube")


def test_double_with_cube():
    m, _, _ = no_cube_record()
    clean(check(m))


def test_double_names_wrong_value():
    m = MatRec()
    g, idx = cube_game(m, [("double", 0, 4), ("take", 1), ("roll", 0, 6, 1), ("cell", 1, wins(2))])
    f = only(check(m), "cube-illegal")
    at(f, g, idx["double0"])
    has(f, "doubles to 4", "cube stands at 1", "offers 2")


def test_double_names_right_value():
    m = MatRec()
    cube_game(m, [("double", 0, 2), ("take", 1), ("roll", 0, 6, 1), ("double", 1, 4), ("take", 0),
                  ("roll", 1, 5, 2), ("cell", 1, wins(4))])
    clean(check(m))


# ----------------------------------------------------------------------------- cube-response


def test_take_without_double():
    m = MatRec()
    g, idx = cube_game(m, [("take", 1), ("roll", 1, 6, 1), ("cell", 1, wins(1))])
    f = only(check(m), "cube-response")
    at(f, g, idx["take0"])
    has(f, "Bob takes", "no double")


def test_drop_without_double():
    """Some sites write a resignation as "Drops" with no double (issue 5): a warning, read as Bob resigning."""
    m = MatRec()
    g, idx = cube_game(m, [("roll", 0, 6, 1), ("drop", 1), ("cell", 0, wins(1))])
    rep = check(m)
    f = only(rep, "cube-response", WARNING)
    at(f, g, idx["drop1"])
    has(f, "Bob drops", "no double", "resignation")
    assert (rep.games[0].winner, rep.games[0].points) == (0, 1)
    # nearest error: the "resigning" side is declared the winner
    m = MatRec()
    g, idx = cube_game(m, [("roll", 0, 6, 1), ("drop", 1), ("cell", 1, wins(1))])
    rep = check(m)
    assert [(f.rule, f.severity) for f in rep.findings] == [("cube-response", WARNING), ("result-mismatch", ERROR)], \
        dump(rep)


def test_double_without_answer():
    m = MatRec()
    g, idx = cube_game(m, [("double", 0), ("roll", 0, 6, 1), ("roll", 1, 5, 2), ("cell", 1, wins(1))])
    f = only(check(m), "cube-response")
    at(f, g, idx["double0"])
    has(f, "Alice doubled to 2", "neither taken nor dropped")
    # (the unanswered double did not turn the cube: "Wins 1 point" is no result-mismatch)

    # a double left unanswered at the end of the record
    m = MatRec()
    g, idx = cube_game(m, [("double", 0)])
    rep = check(m)
    assert [(f.rule, f.severity) for f in rep.findings] == [("cube-response", ERROR), ("result-mismatch", WARNING)], \
        dump(rep)
    at(rep.findings[0], g, idx["double0"])


def test_double_take_and_double_drop_pass():
    m = MatRec()
    cube_game(m, [("double", 0), ("take", 1), ("roll", 0, 6, 1), ("cell", 1, wins(2))])
    clean(check(m))
    m = MatRec()
    cube_game(m, [("double", 0), ("drop", 1), ("cell", 0, wins(1))])
    clean(check(m))


# ----------------------------------------------------------------------------- result-mismatch: bear-off


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("cube", [1, 2])
def test_bearoff_result_right(level, cube):
    m = MatRec()
    g, w = bearoff_game(level, m, double_before=5 if cube == 2 else None)
    g.cell(w, wins(level * cube))
    rep = check(m)
    clean(rep)
    assert (rep.games[0].winner, rep.games[0].points, rep.games[0].how) == (w, level * cube, "bearoff")


def test_bearoff_wrong_winner():
    m = MatRec()
    g, w = bearoff_game(1, m)
    i = g.cell(1 - w, wins(1))
    f = only(check(m), "result-mismatch")
    at(f, g, i)
    has(f, f"{NAMES[1 - w]} is declared the winner", f"but {NAMES[w]} won (bearoff)")


@pytest.mark.parametrize("level,declared,name", [(1, 2, "a single game"), (2, 1, "a gammon"),
                                                 (2, 3, "a gammon"), (3, 2, "a backgammon")])
def test_bearoff_wrong_points(level, declared, name):
    m = MatRec()
    g, w = bearoff_game(level, m)
    i = g.cell(w, wins(declared))
    f = only(check(m), "result-mismatch")
    at(f, g, i)
    has(f, f"declared {declared} point(s)", f"{name} at cube 1 gives {level}")


def test_bearoff_points_not_multiplied_by_cube():
    m = MatRec()
    g, w = bearoff_game(2, m, double_before=5)
    i = g.cell(w, wins(2))
    f = only(check(m), "result-mismatch")
    at(f, g, i)
    has(f, "declared 2 point(s)", "a gammon at cube 2 gives 4")


def test_bearoff_without_result_is_a_warning_and_still_counts():
    m = MatRec(0)
    g, w = bearoff_game(2, m)
    nxt = m.game((2, 0) if w == 0 else (0, 2))       # the score line agrees with the unwritten gammon
    nxt.rolls(OPENING)
    nxt.cell(0, wins(1))
    f = only(check(m), "result-mismatch", WARNING)
    at(f, g, len(g.cells) - 1)
    has(f, "the game ended", f"{NAMES[w]} wins 2", "no result is written")


def test_unfinished_game_is_a_warning():
    m = MatRec()
    g = m.game()
    g.rolls(OPENING)
    f = only(check(m), "result-mismatch", WARNING)
    at(f, g, len(g.cells) - 1)
    has(f, "ends without a result")


# ----------------------------------------------------------------------------- result-mismatch: drops


def drop_game(declared: int, redouble: bool = False) -> tuple[MatRec, GameRec, int]:
    m = MatRec(0)                         # money: the full stake, no match-play credit
    g = m.game()
    g.rolls(OPENING)
    if redouble:                  # Alice doubles, Bob takes, Alice plays, Bob redoubles to 4, Alice drops
        g.double(0)
        g.take(1)
        g.roll(0, 6, 1)
        g.double(1)
        g.drop(0)
        return m, g, g.cell(1, wins(declared))
    g.double(0)
    g.drop(1)
    return m, g, g.cell(0, wins(declared))


def test_drop_credited_with_doubled_value():
    m, g, i = drop_game(2)
    f = only(check(m), "result-mismatch")
    at(f, g, i)
    has(f, "declared 2 point(s)", "a dropped double at cube 1 gives 1")
    m, g, i = drop_game(4, redouble=True)
    f = only(check(m), "result-mismatch")
    at(f, g, i)
    has(f, "declared 4 point(s)", "a dropped double at cube 2 gives 2")


def test_drop_credited_with_value_before_double():
    m, _, _ = drop_game(1)
    rep = check(m)
    clean(rep)
    assert (rep.games[0].winner, rep.games[0].points, rep.games[0].how) == (0, 1, "drop")
    m, _, _ = drop_game(2, redouble=True)
    clean(check(m))


# ----------------------------------------------------------------------------- result-mismatch: resignations


def loser_bore_off_position():
    """A single-game seed and the first turn after which the loser has borne off a checker
    while the winner has not finished."""
    seed = find_seed(lambda t, w: final_level(t, w) == 1 and len(t) < 150)
    turns, w = simulate(seed)
    for k, (side, *_rest, after, _path) in enumerate(turns):
        loser = after[0] if side != w else after[1]
        if borne_off(loser):
            return turns[:k + 1], w
    raise AssertionError("unreachable")


def test_resigned_gammon_after_loser_bore_off():
    turns, w = loser_bore_off_position()
    for declared, ok in ((2, False), (3, False), (1, True)):
        m = MatRec()
        g = m.game()
        write_turns(g, turns)
        assert borne_off(g.pos[1 - w]) >= 1 and borne_off(g.pos[w]) < 15
        i = g.cell(w, wins(declared))
        rep = check(m)
        if ok:
            clean(rep)
            assert (rep.games[0].winner, rep.games[0].how) == (w, "resign")
        else:
            f = only(rep, "result-mismatch")
            at(f, g, i)
            has(f, f"declared {declared} point(s) for a resignation", "possible results are 1")


def no_backgammon_position():
    """A gammon seed and a turn after which the loser has borne off none, has no checker on the bar or
    in the winner's home, and no checker the winner could still hit: only a gammon can happen."""
    seed = find_seed(lambda t, w: final_level(t, w) == 2 and len(t) < 150)
    turns, w = simulate(seed)
    for k in range(len(turns) - 2, 0, -1):
        side, _a, _b, _before, after, _path = turns[k]
        win, lose = (after[0], after[1]) if side == w else (after[1], after[0])
        far_winner = max((p for p in range(1, 25) if win[p - 1]), default=0)
        loser_pts_in_winner_numbering = [25 - p for p in range(1, 25) if lose[p - 1]]
        if (not borne_off(lose) and not lose[24] and not any(lose[18:24]) and borne_off(win) < 15
                and all(q > far_winner for q in loser_pts_in_winner_numbering)):
            return turns[:k + 1], w
    raise AssertionError("no such position")


def test_resigned_backgammon_when_none_possible():
    turns, w = no_backgammon_position()
    for declared, ok in ((3, False), (2, True), (1, True)):
        m = MatRec()
        g = m.game()
        write_turns(g, turns)
        i = g.cell(w, wins(declared))
        rep = check(m)
        if ok:
            clean(rep)
        else:
            f = only(rep, "result-mismatch")
            at(f, g, i)
            has(f, "declared 3 point(s) for a resignation", "possible results are 1, 2")


def test_resigned_backgammon_in_contact():
    m = MatRec()
    g = m.game()
    g.rolls(OPENING)            # both sides still have their back checkers in the other's home
    g.cell(0, wins(3))
    clean(check(m))


# ----------------------------------------------------------------------------- result-mismatch: match play


def credit_match(declared: int) -> tuple[MatRec, GameRec, int, int]:
    """3-point match: the winner of a gammon at cube 2 (4 points) leads 1-0, so needs 2 to win."""
    seed = find_seed(lambda t, w: final_level(t, w) == 2 and len(t) < 120)
    _, w = simulate(seed)
    m = MatRec(3)
    short_game(m, (0, 0), winner=w, points=1)
    g, w2 = bearoff_game(2, m, score=(1, 0) if w == 0 else (0, 1), double_before=5)
    assert w2 == w
    i = g.cell(w, wins(declared, and_match=True))
    return m, g, i, w


@pytest.mark.parametrize("declared", [2, 3, 4])     # points needed, match length, full result
def test_match_winning_credit_accepted(declared):
    m, g, i, w = credit_match(declared)
    rep = check(m)
    clean(rep)
    assert (rep.games[1].winner, rep.games[1].points) == (w, declared)


@pytest.mark.parametrize("declared", [1, 5])
def test_match_winning_credit_rejected(declared):
    m, g, i, w = credit_match(declared)
    f = only(check(m), "result-mismatch")
    at(f, g, i, game=2)
    has(f, f"declared {declared} point(s)", "a gammon at cube 2 gives 4")


def test_less_credit_when_the_match_goes_on():
    m = MatRec(7)
    g, w = bearoff_game(2, m)
    i = g.cell(w, wins(1))
    f = only(check(m), "result-mismatch")
    at(f, g, i)
    has(f, "declared 1 point(s)", "a gammon at cube 1 gives 2")
    m = MatRec(7)
    g, w = bearoff_game(2, m)
    g.cell(w, wins(2))
    clean(check(m))


# ----------------------------------------------------------------------------- match-score


def test_score_line_differs_from_results():
    m = MatRec(5)
    short_game(m, (0, 0), winner=0, points=1)
    short_game(m, (0, 0), winner=1, points=2)               # should say Alice : 1
    short_game(m, (0, 2), winner=0, points=1)               # later lines are checked from there on
    rep = check(m)
    f = only(rep, "match-score")
    text_lines = m.text().splitlines()
    line = next(n for n, s in enumerate(text_lines, 1) if s.startswith(" Game 2")) + 1
    assert (f.line, f.column, f.game) == (line, 2, 2)
    has(f, "score line says 0-0", "earlier results give 1-0")


def test_score_lines_agree_with_results():
    m = MatRec(5)
    short_game(m, (0, 0), winner=0, points=1)
    short_game(m, (1, 0), winner=1, points=2)
    short_game(m, (1, 2), winner=0, points=1)
    clean(check(m))


def test_game_after_the_match_is_a_warning_and_still_replayed():
    m = MatRec(3)
    short_game(m, (0, 0), winner=0, points=3, and_match=True)
    g2 = m.game((3, 0))
    g2.rolls(OPENING[:2])
    bad = g2.cell(0, "62: 13/10 13/11")                # 13/10 is 3 pips: not a 6 or a 2
    g2.rolls([(1, 5, 3)])
    g2.cell(1, wins(1))
    rep = check(m)
    assert [(f.rule, f.severity, f.game) for f in rep.findings] == [
        ("match-score", WARNING, 2), ("dice-mismatch", ERROR, 2)], dump(rep)
    has(rep.findings[0], "follows the end of the 3-point match")
    at(rep.findings[1], g2, bad, game=2)
    assert len(rep.games) == 2 and rep.games[1].winner == 1


def test_last_game_wins_the_match():
    m = MatRec(3)
    short_game(m, (0, 0), winner=0, points=3, and_match=True)
    clean(check(m))


# ----------------------------------------------------------------------------- dice-mismatch from dice text


@pytest.mark.parametrize("dice", ["70", "00"])
def test_bad_dice_text(dice):
    m = MatRec()
    g = m.game()
    g.rolls(OPENING[:2])
    # a legal 21 that puts a checker on an empty point, written with dice that are not dice
    me, opp = g.pos
    ps = generate(R, me, opp, Dice.roll(2, 1).numbers)
    key = next(k for k in sorted(ps.plays) if any(not me[p] and k[0][p] for p in range(24)))
    new = [p for p in range(24) if not me[p] and key[0][p]]
    i = g.cell(0, f"{dice}: {fmt_play(me, opp, ps.plays[key])}")
    g.pos = list(key)
    g.roll(1, 5, 3)
    # Alice's next play moves a checker that only the bad row put there: the replay must go on from
    # the position as written, not report it as no-checker
    me2, opp2 = g.pos
    d = next(d for d in [(6, 4), (6, 3), (5, 4), (4, 3), (6, 1), (5, 1), (4, 1), (3, 1), (2, 1)]
             if any(k[0][p] < me2[p] for k in generate(R, me2, opp2, Dice.roll(*d).numbers).plays for p in new))
    g.roll(0, *d, want=lambda b, a: any(a[p] < b[p] for p in new))
    g.cell(1, wins(1))
    match = read(m)
    act = match.games[0].actions[i]
    assert (act.kind, act.dice, act.dice_text, len(act.steps)) == (Kind.ROLL, None, dice, 2)
    f = only(analyze.validate_match(match), "dice-mismatch")
    at(f, g, i)
    has(f, f"'{dice}'", "not two dice 1-6")


def test_unplayed_zero_dice_pass():
    m = MatRec()
    g = m.game()
    g.rolls(OPENING)
    g.cell(0, "00: ????")                  # a roll never played (docs/mat-format.md), then the resignation
    g.cell(1, wins(1))
    clean(check(m))


# ----------------------------------------------------------------------------- parse-error


def test_garbled_row_in_middle_game():
    m = MatRec(0)
    short_game(m, (0, 0), winner=0, points=1)
    g2 = m.game((1, 0))
    g2.rolls(OPENING[:2])
    bad = g2.cell(0, "62: 24/18 1x/11")
    g2.rolls([(1, 5, 3), (0, 4, 1)])
    g2.cell(1, wins(1))
    g3 = m.game((1, 1))
    g3.rolls(OPENING[:2])
    illegal = g3.cell(0, "62: 24/15")               # 9 pips: no number of 62 makes that
    g3.rolls([(1, 5, 3)])
    g3.cell(1, wins(1))
    text = m.text()
    match = mat.read(text, PATH)
    assert [len(g.problems) for g in match.games] == [0, 1, 0] and not match.problems
    rep = analyze.validate_match(match)
    line, _, _ = g2.locs[bad]
    col = text.splitlines()[line - 1].index("1x/11") + 1
    rules = [(f.rule, f.game) for f in rep.findings]
    assert rules == [("parse-error", 2), ("dice-mismatch", 3)], dump(rep)
    pe, dm = rep.findings
    assert (pe.line, pe.column, pe.severity) == (line, col, ERROR)
    has(pe, "1x/11")
    at(dm, g3, illegal, game=3)
    assert len(rep.games) == 3 and rep.games[0].winner == 0 and rep.games[2].winner == 1


# ----------------------------------------------------------------------------- max-dice exemption


def test_empty_roll_before_resignation_is_not_max_dice():
    m = MatRec()
    g = m.game()
    g.rolls(OPENING)
    g.cell(0, "52:")                     # Alice rolls, does not play, and resigns
    g.cell(1, wins(1))
    clean(check(m))
    m = MatRec()
    g = m.game()
    g.rolls(OPENING)
    g.cell(0, "52:")
    g.cell(0, "Losses 1 point")          # written by the resigning side
    rep = check(m)
    clean(rep)
    assert rep.games[0].winner == 1


def test_empty_roll_before_opponent_resigns_is_not_max_dice():
    """Decision: the exemption does not ask who resigns; the opponent may resign once the roll is seen."""
    m = MatRec()
    g = m.game()
    g.rolls(OPENING)
    g.cell(0, "66:")
    g.cell(0, wins(1))
    clean(check(m))


def test_empty_roll_at_end_of_record_is_only_unfinished():
    m = MatRec()
    g = m.game()
    g.rolls(OPENING)
    i = g.cell(0, "52:")
    f = only(check(m), "result-mismatch", WARNING)
    at(f, g, i)


def test_empty_roll_mid_game_is_max_dice():
    m = MatRec()
    g = m.game()
    g.rolls(OPENING)
    i = g.cell(0, "52:")
    g.rolls([(1, 6, 1), (0, 4, 3)])
    g.cell(1, wins(1))
    f = only(check(m), "max-dice")
    at(f, g, i)
    has(f, "played nothing")


# ----------------------------------------------------------------------------- --explain


def larger_die_record(tmp_path):
    """A random game up to the first turn where only one number can be played and the larger must;
    the smaller is written instead."""
    def larger_turn(turns, w):
        for k, (side, a, b, before, after, path) in enumerate(turns):
            if generate(R, before[0], before[1], Dice.roll(max(a, b), min(a, b)).numbers).larger_only:
                return k
        return None

    seed = find_seed(lambda t, w: larger_turn(t, w) is not None)
    turns, _ = simulate(seed)
    k = larger_turn(turns, None)
    side, a, b, before, after, path = turns[k]
    m = MatRec(0)
    g = m.game()
    write_turns(g, turns[:k])
    small, big = min(a, b), max(a, b)
    src, dst = next(iter(R.single_steps(before[0], before[1], small)))
    i = g.cell(side, f"{a}{b}: {fmt_play(before[0], before[1], [(src, dst, small)])}")
    f = tmp_path / "larger.mat"
    f.write_text(m.text())
    return f, g, i, side, before, (big, small), path


def test_explain_text_and_json(tmp_path, cli):
    f, g, i, side, before, dice, path = larger_die_record(tmp_path)
    line, col, move = g.locs[i]
    right = fmt_steps(path)             # the larger-die play, spelt as alternatives are
    code, out, _ = cli.subprocess("validate", "--explain", str(f))
    assert code == 1, out
    lines = out.splitlines()
    k = next(n for n, s in enumerate(lines) if f"{f}:{line}:{col}: larger-die:" in s)
    assert re.search(rf"\[game 1, move \d+, {NAMES[side]}\]$", lines[k]), lines[k]
    block = []
    for s in lines[k + 1:]:
        if not s.startswith("    | "):
            break
        block.append(s[len("    | "):])
    board = diagram(before, NAMES[side], NAMES[1 - side])
    assert block[0] == f"position before the play to play {dice[0]}{dice[1]}:"
    assert block[1:1 + len(board)] == ["  " + s for s in board]
    assert block[-1].startswith("legal plays include: ")
    assert right in block[-1].removeprefix("legal plays include: ").split("; ")

    code, out, _ = cli.subprocess("validate", "--format", "json", "--explain", str(f))
    assert code == 1
    doc = json.loads(out)
    [x] = [x for x in doc["findings"] if x["rule"] == "larger-die"]
    assert (x["line"], x["column"], x["row"], x["player"]) == (line, col, move, NAMES[side])
    assert f"[game 1, move {x['move']}, {NAMES[side]}]" in lines[k]
    assert {k: x["position"][k] for k in ("mover", "opponent")} == \
        {"mover": list(before[0]), "opponent": list(before[1])}
    assert len(x["position"]["position_id"]) == 14
    assert right in x["alternatives"]
    # without --explain the JSON keeps to the plain fields
    code, out, _ = cli.subprocess("validate", "--format", "json", str(f))
    [x] = [x for x in json.loads(out)["findings"] if x["rule"] == "larger-die"]
    assert "position" not in x and "alternatives" not in x


@pytest.mark.parametrize("length", [0, 16])
def test_jacoby_gammon_at_unturned_cube_counts_single(length):
    """With the Jacoby rule (option or header) a gammon with the cube never turned is worth 1 x cube."""
    def record(points, tags=None):
        m = MatRec(length, tags)
        g, w = bearoff_game(2, m)
        g.cell(w, wins(points))
        return m

    clean(check(record(1), jacoby=True))
    clean(check(record(1, {"Jacoby": "On"})))
    only(check(record(2), jacoby=True), "result-mismatch")
    # without the rule (the default), the gammon is worth 2
    clean(check(record(2)))
    has(only(check(record(1)), "result-mismatch"), "a gammon at cube 1 gives 2")


def test_jacoby_does_not_apply_once_the_cube_was_turned():
    m = MatRec(0)
    g, w = bearoff_game(2, m, double_before=5)
    g.cell(w, wins(4))
    clean(check(m, jacoby=True))
