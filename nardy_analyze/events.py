"""The replay's events and reports: one module of plain data, low in the layers (beside the record model).

What the replay tells its visitor (:class:`nardy_analyze.replay.ReplayVisitor`) and what it returns, as
plain values: a :class:`Finding` (a rule broken, or a warning), an :class:`ActionState` (the state around
one action, with a :class:`PartState` per part of a turn of several), a :class:`TurnRow` per turn, a
:class:`GameEnd` per game end, a :class:`GameReport` per game and the :class:`MatchReport` of a match;
:class:`How` says how a game ended.  The notations' normalised match (:mod:`nardy_analyze.notation.normal`),
the reports and the statistics read them; nothing here knows the replay, a notation or an output format.

Positions are those the replay really goes on from: after an illegal play that the replay replaced by a
legal one (its look-ahead), ``after`` is the legal play's position, so figures derived from
``before``/``after`` (pips, hits, entries, checkers borne off) never count the same checker twice.
"""
from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from typing import Any, NamedTuple

from .engine.core import Pos, SegmentSpec
from .shapes import dataclass
from .i18n import pgettext
from .record import Action, sent_by_fields

ERROR = "error"
WARNING = "warning"


class How(StrEnum):
    """How a game ended (``GameReport.how`` and ``GameEnd.how`` hold its value, a plain string)."""

    BEAROFF = "bearoff"
    DROP = "drop"
    RESIGN = "resign"               # also a result written with no end on the board
    TIMEOUT = "timeout"
    DRAW = "draw"                   # the last-roll draw


def how_text(how: str | None) -> str:
    """How a game ended (``GameReport.how``: ``bearoff``, ``drop``, ...), in words for messages."""
    if how == "bearoff":
        return pgettext("how a game ended", "bearoff")
    if how == "drop":
        return pgettext("how a game ended", "drop")
    if how == "resign":
        return pgettext("how a game ended", "resign")
    if how == "timeout":
        return pgettext("how a game ended", "timeout")
    if how == "draw":
        return pgettext("how a game ended", "draw")
    return str(how)


@sent_by_fields
@dataclass(slots=True)
class Finding:
    rule: str
    message: str
    path: str
    line: int
    column: int
    severity: str = ERROR
    game: int | None = None           # the game's number (record.game_numbers: its own Game N, else the order)
    move: int | None = None           # the roll whose position it is about (show --move; None: the final position)
    player: str | None = None
    side: int | None = None
    # for --explain: the position before the action (mover first) and the legal alternatives
    position: Pos | None = None
    dice: tuple[int, ...] | None = None    # the roll (two dice), or the numbers of a chain/handover part
    alternatives: list[str] = field(default_factory=list)
    board_title: str = ""             # what the position is, for --explain (default: before the play)
    board_side: int | None = None     # whose view the position is drawn from (default: the player's)
    analysis: dict | None = None      # validate --analyse: the engine's analysis of the position (plain data)
    row: int | None = None            # the move number written on the action's row (a .mat row's "22)")
    cube: int | None = None           # the cube's value and owner (0/1, None centred) at the finding
    owner: int | None = None
    part: int | None = None           # Gul bara: the later part of its roll's turn it is about (K of M.K; None:
                                      # the roll itself, or no turn of parts)

    @property
    def address(self) -> str | None:
        """The move as ``show --move`` and the replayer take it: ``"M"``, ``"M.K"`` for a later part of a
        Gul bara turn; None without a move."""
        if self.move is None:
            return None
        return f"{self.move}.{self.part}" if self.part else str(self.move)

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path, "line": self.line, "column": self.column, "game": self.game,
            "move": self.move, "part": self.part, "row": self.row, "player": self.player, "rule": self.rule,
            "severity": self.severity, "message": self.message,
        }


@sent_by_fields
@dataclass(slots=True)
class GameReport:
    number: int
    players: tuple[str, str]
    turns: int = 0
    winner: int | None = None
    points: int | None = None
    how: str | None = None            # bearoff, drop, resign, timeout, draw (winner None, 0 points)
    crawford: bool | None = False     # the Crawford game of a match (None: an excerpt that does not say)
    # the points the variant's scoring credits the winner (the written points where the rules accept
    # them, else what the rules give: docs/stats.md "Points"); None without a result
    credited: int | None = None
    conceded: bool = False            # the whole match conceded (credited what the winner needed)
    # the score before the game by the one count of points (docs/stats.md "Points"): the points credited
    # to the earlier games, from the score the record starts at; a score line is taken only where the
    # record leaves the points out (an excerpt's first game, games left out, a game with no result)
    score: tuple[int, int] = (0, 0)


@sent_by_fields
@dataclass(slots=True)
class MatchReport:
    """The findings and game reports of one replayed match (what ``replay()`` returns by default:
    :class:`nardy_analyze.replay.ReportBuilder`)."""

    path: str
    notation: str
    variant: str
    games: list[GameReport] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    # --rule options that do not apply to the variant this record was judged under (exit code 2)
    arg_errors: list[str] = field(default_factory=list)
    analysis_note: str | None = None  # validate --analyse: why the record's findings have no analysis
    # the match's final score by the one count of points (GameReport.score plus the last game's points)
    final_score: tuple[int, int] = (0, 0)

    @property
    def errors(self) -> int:
        return sum(f.severity == ERROR for f in self.findings)

    @property
    def warnings(self) -> int:
        return sum(f.severity == WARNING for f in self.findings)

    @property
    def turns(self) -> int:
        return sum(g.turns for g in self.games)


@dataclass(slots=True)
class ActionState:
    """What the replay knew around one action: the cube before it, the board before and after it
    (``sides[0]`` / ``sides[1]`` are the first / second player's sides in their own numbering) and,
    for a roll, whether the play was legal."""

    index: int
    cube: int
    owner: int | None
    before: tuple
    after: tuple
    legal: bool = True
    # a roll whose written play is one step per number, legal in the written order, or a dance (nothing
    # written where no number can be played) (turns.quick_turn): its single-die route is the written steps
    # (normal.py takes it without walking it again)
    exact: bool = False
    # a roll with further parts (Gul bara chains and handovers): one PartState per part, the roller's own
    # play first, in the order played: every written part, and a part the record leaves out where that is
    # a finding (a chain stopped short, a handover owed; its text empty); the K-th after the roller's play
    # is move M.K of show, the replayer and findings (None for a turn of one part)
    parts: list["PartState"] | None = None
    # a roll the replay counted: its number in the game (1 = the opening roll), the ``move`` of ``show
    # --move``, of the replayer's address and of findings; None for every other action
    roll: int | None = None
    # a roll's single-die route, ((src, dst, hit), ...), where the compiled batch replayed it and found it
    # (what judge.route gives: for an exact roll, judge.with_hits of the written steps); None: normal.py
    # works it out
    route: tuple | None = None


@dataclass(slots=True)
class PartState:
    """One part of a turn as the replay played it (``ActionState.parts``): ``kind`` ``"roll"``, ``"chain"``
    or ``"handover"``, who played it, the numbers it was to play (the dice for the roll), its place in the
    text (a part the record leaves out: where its finding is, ``text`` empty), and the board before and
    after it (first player's side first)."""

    kind: str
    player: int
    numbers: tuple[int, ...]
    line: int
    column: int
    text: str
    before: tuple
    after: tuple


class TurnRow(NamedTuple):
    """One turn of one player.

    A turn is a roll and its play, preceded by the cube action that opened it, if any.  A turn that is only
    a cube action (a double that was dropped) has ``dice`` None and ``before == after``.
    (A named tuple: immutable like a frozen dataclass, and several times faster to build, which counts
    with one row per turn.)
    """

    game: int                         # the game's number (record.game_numbers: its own Game N, else the order)
    turn: int                         # 1-based index of the turn in the game (both players counted)
    side: int                         # 0 = first player of the score line, 1 = second
    line: int                         # line of the roll (or of the double) in the record
    dice: tuple[int, int] | None      # high die first; None when no valid roll was played
    before: Pos                       # (mover, opponent) before the play, each in its owner's numbering
    after: Pos                        # (mover, opponent) the replay goes on from
    doubled: bool = False             # this player offered the cube at the start of the turn
    answer: str = ""                  # the opponent's answer to that double: "take", "drop" or ""
    cube: int = 1                     # the cube value after the turn's cube action
    action: Action | None = None      # the record's cell (chain and handover segments for Gul bara)
    spec: SegmentSpec | None = None   # the turn driver's first part of the roll, as the replay judged it
                                      # (None when the replay judged no play: an exporter's illegal mark)
    move: int | None = None           # the roll's number in the game, as findings and show --move give it
                                      # (None for a turn without a counted roll: a double that was dropped)
    cube_before: int = 1              # the cube value at the start of the turn, before its cube action
    owner: int | None = None          # who owned the cube at the start of the turn (side), None = centred
    score: tuple[int, int] = (0, 0)   # the score before the game (sides 0 and 1; match play)
    crawford: bool = False            # the Crawford game (match play)


@dataclass(slots=True, frozen=True)
class GameEnd:
    """How one game ended, once its result is settled by the replay."""

    game: int
    winner: int | None                # None: the record ends without a result, or a draw (how "draw")
    points: int | None                # points the variant's scoring credits the winner: as declared where
                                      # the rules accept it, else what the rules give (docs/stats.md)
    how: str | None                   # "bearoff", "drop", "resign" (also a written result with no end),
                                      # "timeout", "draw" (the last-roll draw)
    level: int | None                 # the result level of the final position (1 single, 2 gammon/mars,
                                      # 3 backgammon/koks); None when the game did not end by bearing off
    cube: int                         # the cube value at the end (the highest the game reached)
