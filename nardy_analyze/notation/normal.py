"""The normalised match: a record as the replay understood it, as plain data for the writers.

What writers of other notations need and a notation cannot say by itself: the cube value before each
action, the board before and after it, the single-die route of a combined move and where it hits, how
and by whom each game was won, which game is the Crawford game.  The replay computes it
(:func:`nardy_analyze.replay.normal.normalise`); a caller that writes a notation whose registry entry has
``needs_replay`` computes it and passes it to ``write(match, normal)``.  This module only defines the
data: a notation never imports the replay.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..record import Action, Game, Match


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
    # a roll whose written play is one step per number, legal in the written order (turns.quick_turn):
    # its single-die route is the written steps (normal.py takes it without walking it again)
    exact: bool = False
    # a roll with further parts (Gul bara chains and handovers): one PartState per part, the roller's own
    # play first, in the order played: every written part, and a part the record leaves out where that is
    # a finding (a chain stopped short, a handover owed; its text empty); the K-th after the roller's play
    # is move M.K of show, the replayer and findings (None for a turn of one part)
    parts: list["PartState"] | None = None
    # a roll the replay counted: its number in the game (1 = the opening roll), the ``move`` of ``show
    # --move``, of the replayer's address and of findings; None for every other action
    roll: int | None = None


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


@dataclass(slots=True)
class NormalAction:
    action: Action
    state: ActionState | None            # None for actions the replay did not reach (after the game ended)
    # ROLL: single-die steps (src, dst, hit) in the mover's numbering, when the play is legal; None otherwise
    route: tuple[tuple[int, int, bool], ...] | None = None


@dataclass(slots=True)
class NormalGame:
    game: Game
    # the replay's report of the game (nardy_analyze.replay.GameReport): winner, points, how, crawford, turns
    report: Any
    actions: list[NormalAction] = field(default_factory=list)

    @property
    def winner(self) -> int | None:
        return self.report.winner

    @property
    def points(self) -> int | None:
        return self.report.points


@dataclass(slots=True)
class NormalMatch:
    match: Match
    variant: str
    options: dict[str, Any]
    # the replay's report of the match (nardy_analyze.replay.MatchReport): its findings and games
    report: Any
    games: list[NormalGame] = field(default_factory=list)

    @property
    def first_error(self) -> Any:
        """The first error finding of the replay (by line and column), None when there is none."""
        errors = [f for f in self.report.findings if f.severity == "error"]
        return min(errors, key=lambda f: (f.line, f.column)) if errors else None


__all__ = ["ActionState", "PartState", "NormalAction", "NormalGame", "NormalMatch"]
