"""Long nardy (docs/rules.md, "Long nardy"): one head, one direction, no hitting, head rule, six-block rule.

Both players move the same way round the board, from their point 24 (the head) toward 1.  The two
tracks are offset by half a board: the mover's point ``p`` is the opponent's point
:func:`opp_point` ``(p)`` and the map is its own inverse.  A point holding any opposing checker is
closed.  There is no bar: index 24 of a side stays 0.

The turn state (``start_turn`` / ``after_step``) is ``(left, allowed)``: how many checkers left the
head in this turn so far and how many may (1, or 2 on the first-turn 6-6 / 4-4 / 3-3 exception).
``None`` means a plain turn, ``(0, 1)``.
"""
from __future__ import annotations

from typing import Callable, Hashable, Iterator

from .core import (BAR, CHECKERS, COMMON_OPTIONS, FLAG_TABLES, OFF, Dice, Pos, Rules, Side, SingleSegment, RuleResult,
                   all_home, borne_off, generate, roll_plays)
from ..i18n import N_, _, ngettext, pgettext

HEAD = 24
EXCEPTION_DOUBLES = (6, 4, 3)       # first-turn doubles that let a second checker leave the head
# option head_exception: which first-turn rolls let a second checker leave the head (docs/rules.md)
HEAD_EXCEPTION = ("standard", "conditional", "any-double", "six-four")
_EXCEPTION_ROLLS = {"standard": EXCEPTION_DOUBLES, "any-double": (1, 2, 3, 4, 5, 6), "six-four": (6, 4)}

START: Side = (0,) * 23 + (CHECKERS, 0)


def opp_point(p: int) -> int:
    """The mover's point ``p`` (1..24) in the opponent's numbering, and back: ((p + 11) mod 24) + 1."""
    return (p + 11) % 24 + 1


_MINE_AT = (None,) + tuple(opp_point(r) - 1 for r in range(1, 25))   # 1-based by the opponent's point


class LongNardy(Rules):
    name = "long"
    title = "long nardy"          # the variant's name for people (pages, headings)
    aliases = ("longnardy", "longnardi", "nardy", "long-nardy", "long_nardy")
    # rule 8 (docs/rules.md): no cube by default; option ``cube`` multiplies as in backgammon (with a ``cube_limit`` where
    # the record states one).  No Crawford, Jacoby or beaver rule and no nardy500 scoring: they are
    # backgammon's, and the replayer reads only the options a variant has.
    OPTIONS = {
        "cube": (False, (True, False)),
        "cube_limit": (None, ()),
        "head_exception": ("standard", HEAD_EXCEPTION),   # the first-turn head exception
        "koks": (False, (True, False)),
        "home_mars": (None, ()),       # points of a home mars (the loser all home, none off); None: a mars
        "last_roll": (False, (True, False)),   # the second player's last roll, which can draw
        **COMMON_OPTIONS,
    }
    OWN_RULES = ("head-rule", "six-block")
    has_bar = False
    same_direction = True        # both sides run 24 -> 1 in their own numbering, half a board apart
    opening_double_allowed = True
    home_freeze = False          # Gul bara: a checker in home may only be borne off
    exact_bear_off = False       # Gul bara: only the exact number bears off
    one_part_turns = True        # the turn driver is SingleSegment (Gul bara: chains and handovers)

    def __init__(self, head_exception: str = "standard", koks: bool = False, home_mars: int | None = None) -> None:
        if head_exception not in HEAD_EXCEPTION:
            raise ValueError(_("head_exception takes one of {values}, not {value}").format(
                values=", ".join(HEAD_EXCEPTION), value=repr(head_exception)))
        if home_mars is not None and (not isinstance(home_mars, int) or home_mars < 1):
            raise ValueError(_("home_mars takes a number of points from 1 (or off), not {value}").format(
                value=repr(home_mars)))
        self.head_exception = head_exception
        self.koks = bool(koks)
        self.home_mars = home_mars

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(head_exception={self.head_exception!r}, koks={self.koks}, "
                f"home_mars={self.home_mars})")

    position_id = False          # GNU Backgammon Position IDs describe backgammon positions only

    @classmethod
    def build_args(cls, opts) -> dict:
        return {k: opts.get(k, cls.OPTIONS[k][0]) for k in ("head_exception", "koks", "home_mars")}

    def initial(self) -> Pos:
        return START, START

    # the methods the compiled core plays: a subclass that changes one of them runs on the Python code
    CORE_METHODS = ("single_steps", "apply", "step_problem", "after_step", "closed", "block_after")

    def core_spec(self) -> dict | None:
        """Long nardy's rules for the compiled core: no bar, one direction (half a board apart), a point
        closed by one checker, the head rule on 24, the six-block rule; Gul bara's home freeze and exact
        bear-off (``home_freeze``, ``exact_bear_off``), and the first turn's head allowance (``first_doubles``).
        The turn state stays Python's (``start_turn``) and is passed in to the generator."""
        if any(getattr(type(self), m) is not getattr(LongNardy, m) for m in self.CORE_METHODS):
            return None
        # the first turn's head allowance (start_turn) where it is a fixed set of doubles: the batch of the replay
        # takes players' first turns then (``conditional`` asks the generator: Python's)
        rolls = _EXCEPTION_ROLLS.get(self.head_exception)
        first = rolls is not None and type(self).start_turn is LongNardy.start_turn
        return {"has_bar": False, "closed_by": 1, "head": HEAD, "six_block": True,
                "home_freeze": bool(self.home_freeze), "exact_bear_off": bool(self.exact_bear_off),
                "first_doubles": sum(1 << d for d in rolls) if first else 0, "first_turns": first,
                "opening_doubles": self.opening_double_allowed}

    @staticmethod
    def opp_point(point: int) -> int:
        """The opponent's own number for the mover's point ``point`` (see :func:`opp_point`)."""
        return opp_point(point)

    # -- turn state -------------------------------------------------------------------------------
    def start_turn(self, me: Side, opp: Side, first_turn: bool, dice: tuple[int, ...] = ()) -> tuple[int, int]:
        """``(0, allowed)``: on the player's own first turn a 6-6, 4-4 or 3-3 lets two checkers leave the
        head (option ``head_exception``: ``six-four`` 6-6 and 4-4 only, ``any-double`` every double,
        ``conditional`` any first roll when one checker from the head cannot use all its numbers)."""
        allowed = 1
        if first_turn and len(dice) == 2:
            d1, d2 = dice
            rolls = _EXCEPTION_ROLLS.get(self.head_exception)
            if rolls is not None:
                if d1 == d2 and d1 in rolls:
                    allowed = 2
            else:
                ps = generate(self, me, opp, Dice.roll(d1, d2).numbers, (0, 1))
                if ps.max_dice < len(ps.dice):
                    allowed = 2
        return 0, allowed

    def after_step(self, turn: Hashable, me: Side, src: int, dst: int) -> tuple[int, int]:
        left, allowed = turn if turn is not None else (0, 1)
        return (left + 1, allowed) if src == HEAD else (left, allowed)

    def turn_segments(self, d1: int, d2: int, first_turn: bool, roll_number: int = 1):
        return SingleSegment(self, d1, d2, first_turn)

    def exception_words(self) -> str:
        """When the first-turn head exception applies, in words (messages)."""
        if self.head_exception == "conditional":
            return _("when one checker from the head cannot use all the numbers")
        rolls = _EXCEPTION_ROLLS[self.head_exception]
        if len(rolls) == 6:
            return _("with any double")
        doubles = [f"{d}-{d}" for d in rolls]
        if len(doubles) == 1:
            return _("with {roll}").format(roll=doubles[0])
        # TRANSLATORS: {rolls}: doubles such as "6-6, 4-4"; {last}: the last one, "3-3"
        return _("with {rolls} or {last}").format(rolls=", ".join(doubles[:-1]), last=doubles[-1])

    # -- single steps -----------------------------------------------------------------------------
    def closed(self, opp: Side, point: int) -> bool:
        """A point of the mover's numbering holding any opposing checker."""
        return 1 <= point <= 24 and opp[opp_point(point) - 1] > 0

    def closed_flags(self) -> Callable[[Side], bytes]:
        """:meth:`Rules.closed_flags`: the compiled core's where it plays these rules, else one
        ``bytes.translate``: the opponent's point q is the mover's :func:`opp_point` ``(q)`` (the side's
        indexes 12..23, then 0..11), closed by one checker.  A subclass with a ``closed`` of its own gets the
        default (``closed`` asked point by point)."""
        if type(self).closed is not LongNardy.closed:
            return super().closed_flags()
        core = self.core
        if core is not None:
            return core.closed_flags
        one = FLAG_TABLES[1]
        return lambda side: bytes(side[12:24] + side[:12]).translate(one)

    def block_after(self, me: Side, opp: Side, src: int, dst: int) -> tuple[int, int] | None:
        """The illegal block (run of six or more consecutive points along the opponent's route, with no
        opposing checker past it) that the step ``src/dst`` would make, as its first and last point in the
        mover's numbering along the opponent's route; None if the step makes none.  Only a run through
        ``dst`` can be new: a step only adds a checker there."""
        if dst == OFF:
            return None
        at = _MINE_AT                     # opponent's point r -> index of the mover's point
        si = src - 1
        gone = me[si] == 1                # the step empties src
        q = opp_point(dst)
        lo = q
        while lo > 1:
            i = at[lo - 1]
            if not me[i] or (gone and i == si):
                break
            lo -= 1
        hi = q
        while hi < 24:
            i = at[hi + 1]
            if not me[i] or (gone and i == si):
                break
            hi += 1
        if hi - lo + 1 < 6:
            return None
        if borne_off(opp) or any(opp[:lo - 1]):
            return None                   # an opposing checker is already past it
        return opp_point(hi), opp_point(lo)

    def single_steps(self, me: Side, opp: Side, die: int, turn: Hashable = None) -> Iterator[tuple[int, int]]:
        left, allowed = turn if turn is not None else (0, 1)
        home = all_home(me)
        held = sum(1 for n in me[:24] if n)       # fewer than six points held after a step: no block
        for src in range(24, 0, -1):
            if not me[src - 1] or (src == HEAD and left >= allowed):
                continue
            dst = src - die
            if dst >= 1:
                if self.home_freeze and src <= 6:
                    continue
                if opp[opp_point(dst) - 1]:
                    continue
                if held + (not me[dst - 1]) - (me[src - 1] == 1) >= 6 and self.block_after(me, opp, src, dst):
                    continue
                yield src, dst
            elif home and (dst == 0 or (not self.exact_bear_off and not any(me[src:6]))):
                yield src, OFF

    def apply(self, me: Side, opp: Side, src: int, dst: int) -> tuple[Side, Side, bool]:
        m = list(me)
        m[src - 1] -= 1
        if dst != OFF:
            m[dst - 1] += 1
        return tuple(m), opp, False

    def step_problem(self, me: Side, opp: Side, src: int, dst: int, die: int,
                     turn: Hashable = None) -> RuleResult | None:
        """Why the single step ``src/dst`` with ``die`` is illegal (worded by :meth:`step_text`); None if
        legal.

        ``die`` must already match the distance (or exceed it for a bear-off).
        """
        if not 1 <= src <= 24:
            if src == BAR:
                return RuleResult("no-checker", "no-bar", {})
            return RuleResult("no-checker", "no-point", {"point": src})
        if me[src - 1] == 0:
            return RuleResult("no-checker", "point", {"point": src})
        left, allowed = turn if turn is not None else (0, 1)
        if src == HEAD and left >= allowed:
            return RuleResult("head-rule", "head-two" if allowed == 2 else "head-one", {})
        if self.home_freeze and src <= 6 and dst != OFF:
            return RuleResult("home-move", "home-freeze", {})
        if dst != OFF:
            if self.closed(opp, dst):
                return RuleResult("blocked-point", "held-theirs",
                                   {"point": dst, "n": opp[opp_point(dst) - 1], "their": opp_point(dst)})
        else:
            if not all_home(me):
                return RuleResult("bear-off-early", "outside", {"point": src, "n": sum(me[6:24])})
            if die > src:
                if self.exact_bear_off:
                    return RuleResult("bear-off-inexact", "exact", {"die": die, "point": src})
                if any(me[src:6]):
                    higher = max(p for p in range(src + 1, 7) if me[p - 1])
                    return RuleResult("bear-off-inexact", "higher", {"die": die, "point": src, "higher": higher})
            return None
        block = self.block_after(me, opp, src, dst)
        if block:
            a, b = block
            return RuleResult("six-block", "block", {"n": (opp_point(a) - opp_point(b)) + 1, "a": a, "b": b})
        return None

    def step_text(self, problem: RuleResult) -> str:
        """The message of a :class:`RuleResult` of long nardy and Gul bara (the shared cases: ``Rules``)."""
        case, p = problem.case, problem.params
        if case == "no-bar":
            # TRANSLATORS: {variant}: the variant's name in the prepositional ("in long nardy")
            return _("there is no bar in {variant}").format(variant=self.display_title("prep"))
        if case == "no-point":
            return _("there is no point {point} in {variant}").format(variant=self.display_title("prep"), **p)
        if case == "head-two":
            return _("a checker left the head (24) after two checkers already did this turn")
        if case == "head-one":
            # TRANSLATORS: {when}: when the first-turn exception applies ("with 6-6, 4-4 or 3-3")
            return _("a checker left the head (24) after one checker already did this turn (two "
                     "only on the player's first turn {when})").format(when=self.exception_words())
        if case == "home-freeze":
            return _("moves a checker inside home; in Gul bara a checker that has entered home may "
                     "only be borne off")
        if case == "held-theirs":
            # TRANSLATORS: {point}: the mover's point; {their}: the same point in the opponent's numbering
            return ngettext(
                "point {point} is held by the opponent ({n} checker(s) on their point {their})",
                "point {point} is held by the opponent ({n} checker(s) on their point {their})", p["n"]).format(**p)
        if case == "exact":
            return _("a {die} bore off from {point}; in Gul bara only the exact "
                     "number bears off").format(**p)
        if case == "block":
            # TRANSLATORS: {a} to {b}: the points the block spans, in the mover's numbering
            return ngettext(
                "makes a block of {n} points in a row ({a} to {b} along the opponent's route) with no opposing "
                "checker past it",
                "makes a block of {n} points in a row ({a} to {b} along the opponent's route) with no opposing "
                "checker past it", p["n"]).format(**p)
        return super().step_text(problem)

    # -- results ----------------------------------------------------------------------------------
    def _koks_possible(self, loser: Side) -> bool:
        return self.koks and any(loser[12:18])

    def win_level(self, winner: Side, loser: Side) -> int:
        """1 oin, 2 mars (the loser bore off none), 3 koks (option: a mars with a loser's checker still in
        the winner's home, the loser's points 13-18), 4 home mars (option ``home_mars``: a mars with all the
        loser's checkers home)."""
        if borne_off(loser):
            return 1
        if self.home_mars is not None and all_home(loser):
            return 4
        return 3 if self._koks_possible(loser) else 2

    def cube_in_play(self, opt) -> bool:
        """The doubling cube only with option ``cube`` (docs/rules.md, long nardy rule 8)."""
        return bool(opt("cube"))

    # the one word for a game won at each level (the stats' result kinds and column names): the names of rule 8
    LEVEL_KINDS = {1: "single", 2: "mars", 3: "koks", 4: "home-mars"}
    LEVEL_NAMES = {1: N_("an oin (single win)"), 2: N_("a mars"), 3: N_("a koks")}   # 4: level_name
    LEVEL_COLUMNS = {2: "mars", 3: "koks"}

    def kind_word(self, kind: str) -> str | None:
        if kind == "single":
            # TRANSLATORS: a single win (1 point) in long nardy and Gul bara, in the stats' kind column (oin)
            return pgettext("kind value, long nardy", "single")
        return None

    def level_name(self, level: int, opt) -> str:
        if level == 4:
            return ngettext("a home mars (the loser all home, none off: {n} point(s))",
                            "a home mars (the loser all home, none off: {n} point(s))",
                            self.home_mars).format(n=self.home_mars)
        return _(self.LEVEL_NAMES[level])

    def stake(self, level: int, cube: int, cube_turned: bool, opt) -> int:
        """oin 1, mars 2, koks 3 (docs/rules.md, long nardy rule 8), a home mars the option's points; times the cube where
        option ``cube`` is on."""
        if level == 4:
            return cube * (self.home_mars or 2)
        return cube * level

    def resign_stakes(self, top: int, cube: int, cube_turned: bool, opt) -> dict[int, int]:
        """Points a resignation may give -> level, up to the level ``top`` the loser could still lose (4: an
        oin or a home mars, the loser being all home with none off)."""
        if top == 4:
            return {cube: 1, cube * (self.home_mars or 2): 4}
        return {cube * k: k for k in range(1, top + 1)}

    def drop_stake(self, cube: int, cube_turned: bool, opt) -> int:
        return cube

    def max_level(self, winner: Side, loser: Side) -> int:
        """The highest level the loser could still lose at (for resignations).  No hitting: a checker
        never goes back, so koks stays possible only while a loser's checker stands on 13-24."""
        if borne_off(loser):
            return 1
        if self.home_mars is not None and all_home(loser):
            return 4                 # all home, none off: an oin or the home mars
        return 3 if self.koks and any(loser[12:24]) else 2

    def can_finish(self, me: Side, opp: Side) -> bool:
        """Whether ``me``, on roll, bears off every checker left with some roll (the last-roll draw)."""
        left = sum(me)
        if not 0 < left <= 4 or not all_home(me):
            return False
        return any(ps.bears_all_off() for _, ps in roll_plays(self, me, opp))
