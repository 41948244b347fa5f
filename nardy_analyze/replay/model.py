"""What the replay reports: findings, a report per game and per match (plain data).

:class:`MatchReport` is what ``validate`` reads, and what :func:`nardy_analyze.replay.replay` returns
(built by its default visitor, :class:`~.visitor.ReportBuilder`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..engine.core import Pos
from ..i18n import pgettext
from .turns import PLAY_RULES, player_text  # noqa: F401  (player_text: for the other modules)

ERROR = "error"
WARNING = "warning"
# Rules about checker plays: after one of these the replay follows the record, not the rules.
POSITION_RULES = PLAY_RULES


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


@dataclass(slots=True)
class MatchReport:
    """The findings and game reports of one replayed match."""

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
