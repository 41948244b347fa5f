"""One game's state under replay: a typed dataclass that every handler receives.

:class:`GameState` is everything the replay of one game knows (the board, the cube, whose turn it is,
the result declared or reached), as plain data: the handlers of the actions (:mod:`.game`, :mod:`.cube`,
:mod:`.results`, :mod:`.resync`, :mod:`.draw`) are functions ``handler(st, a, nxt, i)`` of the state,
the action, the next action and the action's index in the game; the observer that builds the costly
events (:class:`.telling.Teller`) only reads it.  How a game ended and what a record declares are small
typed values (:class:`Ended`, :class:`Declared`, :class:`Owed`; :class:`How`).

The compiled core's hook: a run of plainly legal turns (``turns.quick_turn``) changes only ``pos``,
``rolls``, ``rolled``, ``roll_at``, ``report.turns``, ``first_roller``, ``last`` and ``last_roller``
(all ints, tuples and lists of them), so one batch call can replay such a run from this state and hand
back to Python at the first action that needs more (a finding, the cube, a result).
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import field
from typing import Callable, NamedTuple

from ..shapes import dataclass
from ..engine import Variant
from ..engine.compiled import maker
from ..engine.core import Rules, Side
from ..i18n import _
from ..record import Action, Game, Loc
from .clock import Clock
from .turns import PLAY_RULES, player_text
from ..events import ERROR, Finding, GameReport, How


class Ended(NamedTuple):
    """How the game ended on the board (a bear-off, a dropped double, the last-roll draw)."""

    how: How
    winner: int | None               # None: a draw
    points: int                      # the stake the variant's scoring gives


class Declared(NamedTuple):
    """The result the record declares (a ``Wins`` cell, a resignation, a timeout)."""

    winner: int
    points: int | None               # None: no points written
    cell: Action


class Owed(NamedTuple):
    """A game whose last roll is still owed to the other player (option ``last_roll``)."""

    winner: int
    stake: int


@dataclass(slots=True, eq=False, repr=False)
class GameState:
    """The replay's knowledge of one game (what the handlers read and change).  (No generated ``__repr__``:
    forty fields' worth of it would be unreadable, and making it is a third of the class's cost at start-up.)"""

    variant: Variant
    rules: Rules
    one_part: bool                   # the variant's turns are one part: turns.quick_turn applies
    game: Game
    number: int                      # the game's number in findings (record.game_numbers)
    path: str                        # the record's path, for findings
    tell_finding: Callable[[Finding], None]
    crawford: bool | None            # None: may be the Crawford game or a later one (an excerpt)
    money: bool
    need: tuple[int, int] | None     # match play: points each side still needs to win the match
    score: tuple[int, int]           # the score at the start of the game (match play)
    pos: list[Side]                  # both sides, first player's first, each in its owner's numbering
    report: GameReport
    clock: Clock
    keep_parts: bool = False         # the observer wants each part of a turn of several (action states)
    cube: int = 1
    owner: int | None = None
    pending: Action | None = None    # an unanswered double
    cube_turned: bool = False
    rolls: int = 0
    roll_at: list[int] = field(default_factory=list)   # the index of each roll counted (1, 2, ...)
    rolled: list[int] = field(default_factory=lambda: [0, 0])   # rolls played by each side
    found: list[tuple[Finding, Action]] = field(default_factory=list)  # findings at an action (their move)
    plays_broken: int = 0            # findings under a checker-play rule so far (the observer's ``legal``)
    resyncs: int = 0                 # illegal plays after which resync() chose the position
    last: Action | None = None       # the previous action
    last_roller: int | None = None   # who rolled last: the other side is to roll next
    ended: Ended | None = None
    declared: Declared | None = None
    first_error: int | None = None   # line of the first illegal play: later positions may be off
    part_no: int | None = None       # the part of the turn being judged (K of move M.K; 0: the roll's own)
    how_resigned: How = How.RESIGN   # how a game ended early: a resignation or a timeout
    last_roll: bool = False          # the last-roll draw (option last_roll)
    first_roller: int | None = None
    owed: Owed | None = None
    draw_cell: Action | None = None
    # after a result reported wrong: the other (winner, points) the next score line may reflect
    slips: list[tuple[int, int]] = field(default_factory=list)
    conceded: bool = False           # the whole match conceded: credited as written
    actions: list[Action] = field(default_factory=list)

    # -- words and findings --------------------------------------------------------------------------
    def name(self, side: int) -> str:
        """The player ``side`` for messages (in the current language when the record names nobody)."""
        n = self.game.players[side] if side in (0, 1) else ""
        return n or player_text(side)

    def player_field(self, side: int) -> str:
        """The player ``side`` as a finding's ``player`` (data: always the English "player N" when the
        record names nobody)."""
        n = self.game.players[side] if side in (0, 1) else ""
        return n or f"player {side + 1}"

    def find(self, rule: str, msg: str, a: Action | None = None, loc: Loc | None = None,
             severity: str = ERROR, side: int | None = None, **extra) -> None:
        """Report a finding at ``a`` (or ``loc``); ``side`` names another player than the action's (the
        opponent's part of a turn: a handover)."""
        loc = loc or (a.loc if a else self.game.loc)
        if rule in PLAY_RULES:
            self.plays_broken += 1
            if severity == ERROR:
                if self.first_error is not None and self.first_error < loc.line:
                    msg += " " + _("(the position may be off since the illegal play at line {line})").format(
                        line=self.first_error)
                elif self.first_error is None:
                    self.first_error = loc.line
        who = side if side is not None else (a.player if a else None)
        f = Finding(rule, msg, self.path, loc.line, loc.column, severity, self.number, None,
                    self.player_field(who) if who is not None else None, who, row=a.move if a else None,
                    cube=self.cube, owner=self.owner, part=self.part_no or None, **extra)
        if a is not None:
            self.found.append((f, a))
        self.tell_finding(f)

    def number_moves(self) -> None:
        """Each finding's ``move``: the roll whose position it is about, counted as ``show --move`` and the
        replayer count (1 = the game's opening roll): its own roll, else the next roll after its action
        (a double or a take: the roll the cube was turned before); None after the last roll (the game's
        final position, ``show --game G`` without ``--move``)."""
        if not self.found:
            return
        where = {id(a): i for i, a in enumerate(self.actions)}
        roll_at = self.roll_at
        for f, a in self.found:
            i = where.get(id(a))
            if i is None:
                continue
            k = bisect_left(roll_at, i)
            f.move = k + 1 if k < len(roll_at) else None
        self.found = []

    # -- results -------------------------------------------------------------------------------------
    def stake(self, level: int) -> int:
        """Points of a game won at ``level``: the variant's scoring (rules object), the cube."""
        return self.variant.stake(level, self.cube, self.cube_turned)

    def set_result(self, w: int | None, pts: int | None, how: How) -> None:
        r = self.report
        r.winner, r.points, r.how = w, pts, how.value


def new_state(variant: Variant, game: Game, number: int, path: str, tell_finding: Callable[[Finding], None],
              crawford: bool | None, money: bool, need: tuple[int, int] | None, score: tuple[int, int],
              start=None, keep_parts: bool = False) -> GameState:
    """The state of ``game`` before its first action (``start``: the position it starts from, first
    player's side first; default the variant's initial one)."""
    a, b = start or variant.rules.initial()
    return _NEW_STATE(variant, variant.rules, variant.rules.one_part_turns, game, number, path, tell_finding, crawford,
                      money, need, score, [a, b], _NEW_REPORT(number, game.players), Clock(variant), keep_parts,
                      last_roll=bool(variant.get("last_roll", False)))


# GameState(...) and GameReport(...) as their __init__ makes them, without its frame (engine.compiled.maker)
_NEW_STATE, _NEW_REPORT = maker(GameState), maker(GameReport)
