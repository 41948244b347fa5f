"""Backgammon = short nardy (docs/rules.md, "Backgammon"): steps, hits, bar entry, bear-off, results."""
from __future__ import annotations

from itertools import compress
from typing import Any, Iterator

from .core import (BAR, COMMON_OPTIONS, FLAG_TABLES, OFF, Pos, Rules, Side, SingleSegment, RuleResult, all_home,
                   borne_off)
from .scoring import NARDY500, POINTS, Scoring
from ..i18n import _, ngettext

START: Side = tuple(
    {24: 2, 13: 5, 8: 3, 6: 5}.get(p, 0) for p in range(1, 25)
) + (0,)


def _opp_count(opp: Side, point: int) -> int:
    """Opponent checkers on the mover's ``point`` (1..24): the opponent's point 25 - point."""
    return opp[24 - point]


_POINTS = range(1, 25)


def _bears_off_only(me: Side, d: int) -> bool:
    """No checker on the bar and none higher than ``d``, the smallest number of the roll: every step bears
    off the highest checker (no checker can move within the board), so every play of the roll takes the
    same checkers off: the roll is forced."""
    return not any(me[d:25])


class Backgammon(Rules):
    name = "backgammon"
    title = "backgammon"          # the variant's name for people (pages, headings)
    aliases = ("shortnardy", "short", "bg", "short-nardy", "short_nardy")
    OWN_RULES = ("bar-first", "opening-roll")
    has_bar = True
    opening_double_allowed = False
    position_id = True           # a GNU Backgammon Position ID describes its positions
    gnubg_notation = True        # .mat and .sgf hold backgammon records
    board_cube = True
    one_part_turns = True        # the turn driver is SingleSegment: a turn is the roller's play of the roll
    OPTIONS = {
        "scoring": ("points", ("points", "nardy500")),      # SCORINGS' keys
        "cube": (True, (True, False)),
        "crawford": (True, (True, False)),
        "jacoby": (False, (True, False)),
        "beaver": (False, (True, False)),
        "cube_limit": (None, ()),       # None = no limit; an int otherwise
        **COMMON_OPTIONS,
    }

    def initial(self) -> Pos:
        return START, START

    # the methods the compiled core plays: a subclass that changes one of them runs on the Python code
    CORE_METHODS = ("single_steps", "apply", "step_problem", "after_step", "start_turn", "closed")

    def core_spec(self) -> dict | None:
        """Backgammon's geometry for the compiled core: a bar, opposite directions, a point closed by two."""
        if any(getattr(type(self), m) is not getattr(Backgammon, m) for m in self.CORE_METHODS):
            return None
        return {"has_bar": True, "closed_by": 2}

    @staticmethod
    def opp_point(point: int) -> int:
        """The opponent's own number for the mover's point ``point`` (1..24): 25 - point."""
        return 25 - point

    # -- single steps ---------------------------------------------------------------------
    def start_turn(self, me: Side, opp: Side, first_turn: bool, dice: tuple[int, ...] = ()) -> None:
        return None              # no per-turn state in backgammon

    def turn_segments(self, d1: int, d2: int, first_turn: bool, roll_number: int = 1) -> SingleSegment:
        return SingleSegment(self, d1, d2, first_turn)

    def after_step(self, turn: None, me: Side, src: int, dst: int) -> None:
        return None

    def closed(self, opp: Side, point: int) -> bool:
        """A point of the mover's numbering held by two or more opposing checkers."""
        return 1 <= point <= 24 and _opp_count(opp, point) >= 2

    def single_steps(self, me: Side, opp: Side, die: int, turn: None = None) -> Iterator[tuple[int, int]]:
        if me[24]:
            dst = 25 - die
            if _opp_count(opp, dst) < 2:
                yield BAR, dst
            return
        home = all_home(me)
        for src in range(24, 0, -1):
            if not me[src - 1]:
                continue
            dst = src - die
            if dst >= 1:
                if _opp_count(opp, dst) < 2:
                    yield src, dst
            elif home and (dst == 0 or not any(me[src:6])):
                yield src, OFF

    def apply(self, me: Side, opp: Side, src: int, dst: int) -> tuple[Side, Side, bool]:
        m = list(me)
        m[24 if src == BAR else src - 1] -= 1
        hit = False
        if dst != OFF:
            m[dst - 1] += 1
            if _opp_count(opp, dst) == 1:
                o = list(opp)
                o[24 - dst] = 0
                o[24] += 1
                return tuple(m), tuple(o), True
        return tuple(m), opp, hit

    def closed_flags(self):
        """:meth:`Rules.closed_flags` by one ``bytes.translate``: the opponent's point q is the mover's
        25 - q, closed by two checkers."""
        two = FLAG_TABLES[2]
        return lambda side: bytes(side[23::-1]).translate(two)

    def forced(self, me: Side, opp: Side, numbers: tuple[int, ...], turn: None = None) -> bool:
        """:meth:`Rules.forced`: the compiled core's where it is in use (its walk stops at two plays that end
        apart: cheaper than the short cuts here); else first by the short cuts of :meth:`roll_forced`
        (cheaper than any walk in Python), then the walk."""
        if self.core is not None:
            return super().forced(me, opp, numbers, turn)
        known = self.roll_forced(me, opp, numbers, turn)
        return known if known is not None else super().forced(me, opp, numbers, turn)

    def hit_flags(self, me: Side, opp: Side, path) -> tuple[tuple[int, int, bool], ...]:
        """``(src, dst, hit)`` for the legal single steps ``path`` played in order from a position whose
        opponent side is ``opp``: what :meth:`apply` step by step says of each hit, without building the
        positions (a hit empties the opponent's blot, and nothing else changes the opponent's points)."""
        out = []
        gone: set[int] = set()
        for src, dst in path:
            hit = dst != OFF and dst not in gone and opp[24 - dst] == 1
            if hit:
                gone.add(dst)
            out.append((src, dst, hit))
        return tuple(out)

    @staticmethod
    def _steppers(opp: Side, d: int, points: list[int]) -> list[int]:
        """The points of ``points`` (those the mover holds, in ascending order, with no checker on the bar)
        from which a checker can step ``d``: onto a point not held by two opposing checkers, or, with every
        checker home, off (from point ``d``, or from the highest point when it is lower than ``d``)."""
        out = [x for x in points if x > d and opp[24 - x + d] < 2]
        if points and points[-1] <= 6:               # every checker home: bearing off
            if d in points:
                out.append(d)
            elif points[-1] < d:
                out.append(points[-1])
        return out

    def two_plays_differ(self, me: Side, opp: Side, a: int, b: int) -> bool:
        """Two different numbers ``a``, ``b``: True when two plays of both numbers, each moving two different
        checkers one step from the starting position (none on the bar), reach different boards, so the roll
        is not forced.  Such steps do not depend on each other (leaving a point or landing on one's own
        never blocks the other checker, a hit only removes an opposing checker; with every checker home a
        step keeps them home and never puts a checker higher, so a bear-off stays legal), so each pair is a
        legal play of the whole roll.  False says nothing: a full walk of the plays must decide
        (``stats._forced`` asks :meth:`roll_forced`, which asks this)."""
        if me[24]:
            return False
        points = list(compress(_POINTS, me))         # the points the mover holds (the bar is not in _POINTS)
        if points and points[-1] > 6:
            # not every checker home (nearly every roll of a game): first count the points that can play
            # each number, which most often settles it
            na = nb = 0
            for x in points:
                if x > a and opp[24 - x + a] < 2:
                    na += 1
                if x > b and opp[24 - x + b] < 2:
                    nb += 1
            if not na or not nb:
                return False
            if na > 2 or nb > 2:
                return True                          # see below
        firsts = self._steppers(opp, a, points)
        if not firsts:
            return False
        seconds = self._steppers(opp, b, points)
        if not seconds:
            return False
        # Two pairs that share one step and differ in the other reach different boards (the other step's
        # checker leaves a different point, and the highest of the two points loses a checker in one play
        # only).  Three points that can play ``a``: for any ``y``, two of them are not the point that plays
        # ``b`` (likewise the other way round); two: either one, when ``y`` is neither of them or holds two
        # checkers.
        if len(firsts) > 2 or len(seconds) > 2:
            return True
        if len(firsts) == 2 and any(y not in firsts or me[y - 1] > 1 for y in seconds):
            return True
        if len(seconds) == 2 and any(x not in seconds or me[x - 1] > 1 for x in firsts):
            return True
        board = None
        for x in firsts:
            for y in seconds:
                if x == y and me[x - 1] < 2:
                    continue
                moved = {x: -1}                      # the mover's net change, as a board would show it
                if x > a:
                    moved[x - a] = moved.get(x - a, 0) + 1
                moved[y] = moved.get(y, 0) - 1
                if y > b:
                    moved[y - b] = moved.get(y - b, 0) + 1
                key = frozenset(kv for kv in moved.items() if kv[1])
                if board is None:
                    board = key
                elif key != board:
                    return True
        return False

    def double_plays_differ(self, me: Side, opp: Side, d: int, steps: int = 4) -> bool:
        """A double ``d``: True when two plays of ``steps`` numbers ``d``, each moving ``steps`` checkers one
        step from the starting position (none on the bar), reach different boards, so the roll is not forced.
        Such steps do not depend on each other (as in :meth:`two_plays_differ`), and two different choices
        of the checkers' points leave different boards (the highest point where the choices differ loses a
        different number of checkers); there are two choices when two or more points can play ``d`` and they
        hold ``steps + 1`` checkers or more.  False says nothing."""
        if me[24]:
            return False
        movers = self._steppers(opp, d, list(compress(_POINTS, me)))
        return len(movers) > 1 and sum([me[x - 1] for x in movers]) > steps

    def roll_forced(self, me: Side, opp: Side, numbers: tuple[int, ...], turn: None = None) -> bool | None:
        """Whether the roll ``numbers`` (two different numbers, or four of a double) has at most one legal
        play, where short cuts decide it; None when they do not (``stats._forced`` then walks the plays).

        True: every checker that may move waits on the bar and the plays can only enter them: two or more
        with two different numbers (both entries, in either order, give one board), four or more with a
        double, or an entry point the double cannot reach; or every checker stands on a point no higher
        than the smallest number, so that every step bears off the highest one.  False: two plays reach
        different boards (:meth:`two_plays_differ`, :meth:`double_plays_differ`; with checkers on the bar,
        from the position after entering them: one with either number of a plain roll, all of them with a
        double).  One checker on the bar with two different numbers is always decided: after the entry with
        either number, each point that can play the other number is one play.
        (tests/test_stats_fast_paths.py compares it with the full list of legal plays.)"""
        bar = me[24]
        if len(numbers) == 2 and numbers[0] != numbers[1]:
            if not bar:
                if self.two_plays_differ(me, opp, numbers[0], numbers[1]):
                    return False
                return True if _bears_off_only(me, min(numbers)) else None
            if bar > 1:
                return True
            # one checker on the bar: every play begins by entering it with one number (x), then plays the
            # other (y) with any checker; after the entry, each point that can play y is one play
            plays = []
            for x, y in (numbers, numbers[::-1]):
                if opp[x - 1] < 2:                   # the mover's entry point 25 - x is open
                    m, o, _ = self.apply(me, opp, BAR, 25 - x)
                    then = self._steppers(o, y, list(compress(_POINTS, m)))
                    if len(then) > 1:
                        return False                 # two steps of y from different points after it
                    plays.append(self.apply(m, o, then[0], then[0] - y)[:2] if then else None)
            # at most one play after each entry: two plays of both numbers that may be one board; else at
            # most one play uses both numbers, or none does and the larger number's entry (or the only
            # one) is the play
            if len(plays) == 2 and plays[0] is not None and plays[1] is not None:
                return plays[0] == plays[1]
            return True
        if len(numbers) == 4 and numbers[0] == numbers[1] == numbers[2] == numbers[3]:
            d = numbers[0]
            if not bar:
                if self.double_plays_differ(me, opp, d):
                    return False
                return True if _bears_off_only(me, d) else None
            if bar > 3 or opp[d - 1] > 1:            # four entries or none at all
                return True
            m, o = me, opp
            for _ in range(bar):
                m, o, _ = self.apply(m, o, BAR, 25 - d)
            return False if self.double_plays_differ(m, o, d, 4 - bar) else None
        return None

    def step_problem(self, me: Side, opp: Side, src: int, dst: int, die: int,
                     turn: None = None) -> RuleResult | None:
        """Why the single step ``src/dst`` with ``die`` is illegal (worded by ``Rules.step_text``); None if
        legal.

        ``die`` must already match the distance (or exceed it for a bear-off).
        """
        if src != BAR and me[24]:
            return RuleResult("bar-first", "bar-first", {"n": me[24]})
        if me[24 if src == BAR else src - 1] == 0:
            if src == BAR:
                return RuleResult("no-checker", "bar", {})
            return RuleResult("no-checker", "point", {"point": src})
        if dst != OFF and _opp_count(opp, dst) >= 2:
            return RuleResult("blocked-point", "held", {"point": dst, "n": _opp_count(opp, dst)})
        if dst == OFF:
            if not all_home(me):
                return RuleResult("bear-off-early", "outside", {"point": src, "n": sum(me[6:25])})
            if die > src and any(me[src:6]):
                higher = max(p for p in range(src + 1, 7) if me[p - 1])
                return RuleResult("bear-off-inexact", "higher", {"die": die, "point": src, "higher": higher})
        return None

    def play_exact(self, me: Side, opp: Side, full: tuple[int, ...], steps, turn: None = None,
                   bear_off: bool = False):
        """``core.exact_steps`` for backgammon, written out: the written ``steps`` ``(src, dst)`` played in
        the written order, each exactly one unused number of ``full`` long (``bear_off``: or bearing off
        with the first unused number, in their order, that may), every step legal; ``(me, opp, hits,
        numbers used)``, or None as soon as a step is not such a step.  One list per side for the whole
        play instead of new tuples at every step (tests/test_speed_paths.py checks it against the generic
        function on random positions and plays).  The compiled core plays it where it is in use."""
        core = self.core
        if core is not None:
            try:
                return core.play_exact(me, opp, full, steps, turn, bear_off)
            except ValueError:
                pass
        left = list(full)
        m = list(me)
        o: list[int] | None = None           # the opponent's side, copied at the first hit
        hits = 0
        used = []
        for src, dst in steps:
            if not 1 <= src <= BAR:
                return None
            if src != BAR and m[24]:
                return None                  # bar-first
            i = src - 1
            if not m[i]:
                return None                  # no-checker
            if dst == OFF:
                if not bear_off or any(m[6:25]):
                    return None              # bear-off-early
                for die in dict.fromkeys(left):
                    if die == src or (die > src and not any(m[src:6])):
                        break
                else:
                    return None              # no unused number bears off from src
                m[i] -= 1
            else:
                die = src - dst
                if dst < 1 or die not in left:
                    return None
                there = (opp if o is None else o)[24 - dst]
                if there >= 2:
                    return None              # blocked-point
                m[i] -= 1
                m[dst - 1] += 1
                if there == 1:               # a hit: the blot goes to the bar
                    if o is None:
                        o = list(opp)
                    o[24 - dst] = 0
                    o[24] += 1
                    hits += 1
            left.remove(die)
            used.append(die)
        return tuple(m), (opp if o is None else tuple(o)), hits, tuple(used)

    # -- results ------------------------------------------------------------------------------
    # the ``scoring`` option's values -> the strategy that scores the games (engine/scoring.py)
    SCORINGS = {"points": POINTS, "nardy500": NARDY500}

    def scoring(self, opt) -> Scoring:
        """The scoring strategy of the options ``opt(key)``."""
        return self.SCORINGS[opt("scoring")]

    @classmethod
    def implied_options(cls, opts: dict[str, Any]) -> dict[str, Any]:
        return dict(cls.SCORINGS[opts.get("scoring", cls.OPTIONS["scoring"][0])].implied)

    def cube_in_play(self, opt) -> bool:
        """Whether the doubling cube is used under the options ``opt(key)`` (never in nardy500)."""
        return self.scoring(opt).cube_in_play(opt)

    # the one word for a game won at each level (the stats' result kinds and column names)
    LEVEL_KINDS = {1: "single", 2: "gammon", 3: "backgammon"}

    def level_name(self, level: int, opt) -> str:
        return self.scoring(opt).level_name(level)

    def stake(self, level: int, cube: int, cube_turned: bool, opt) -> int:
        """Points for a game won at ``level`` (docs/rules.md, Backgammon, 7. Scoring): the scoring's."""
        return self.scoring(opt).stake(level, cube, cube_turned, opt)

    def resign_stakes(self, top: int, cube: int, cube_turned: bool, opt) -> dict[int, int]:
        """Points a resignation (or a timeout) may give -> level, when the loser could still lose up to
        level ``top``: the scoring's."""
        return self.scoring(opt).resign_stakes(top, cube, cube_turned, opt)

    def drop_stake(self, cube: int, cube_turned: bool, opt) -> int:
        """A dropped double: the scoring's (the cube value before the double; nardy500 500)."""
        return self.scoring(opt).drop_stake(cube, cube_turned, opt)

    def win_level(self, winner: Side, loser: Side) -> int:
        """1 single, 2 gammon, 3 backgammon, for a game won by bearing off all checkers."""
        if borne_off(loser):
            return 1
        if loser[24] or any(loser[18:24]):
            return 3
        return 2

    def max_level(self, winner: Side, loser: Side) -> int:
        """The highest level the loser could still lose at (for resignations)."""
        if borne_off(loser):
            return 1
        if loser[24] or any(loser[18:24]):
            return 3
        # A loser checker that the winner can still hit may yet be sent back.
        far_winner = max((p for p in range(1, 25) if winner[p - 1]), default=0)
        loser_on_winner_pts = [25 - p for p in range(1, 25) if loser[p - 1]]
        if any(q < far_winner for q in loser_on_winner_pts):
            return 3
        return 2
