"""What the replay tells a statistics consumer: one typed row per turn and one per game end.

The replayer builds these only for a visitor (:mod:`.visitor`) that overrides ``turn`` / ``game_end``
(``validate`` passes none and pays nothing).  Positions are those the replay really goes on from: after
an illegal play that :meth:`resync` replaced by a legal one, ``after`` is the legal play's position, so
figures derived from ``before``/``after`` (pips, hits, entries, checkers borne off) never count the
same checker twice.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..engine.core import Pos, SegmentSpec
from ..record import Action


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
