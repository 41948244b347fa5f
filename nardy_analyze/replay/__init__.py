"""Walk a record through the rules engine and tell what happens to a visitor (:mod:`.visitor`).

:func:`replay` tells a :class:`ReplayVisitor` what happens and returns the visitor's ``result()``: by
default a :class:`ReportBuilder`'s, the :class:`MatchReport` (the findings and a report per game); a
consumer that wants more (the state around each action, a row per turn) passes a visitor of its own that
asks for those events (``wants``).

The modules: :mod:`.visitor` (the protocol), :mod:`.match` (the games in order, the score between
them), :mod:`.state` (one game's state), :mod:`.game` (the one dispatch of a game's actions, checker
plays), :mod:`.cube`, :mod:`.results`, :mod:`.draw`, :mod:`.resync` (after an illegal play),
:mod:`.clock`, :mod:`.telling` (the observer that builds action states, turn rows and game ends),
:mod:`.turns` (one turn and its parts), :mod:`.normal` (the normalised match).  The events and reports
themselves are plain data of :mod:`nardy_analyze.events`, below the notations.  The replayer knows the
record model and the engine, nothing of notations' text or of output formats.
"""
from __future__ import annotations

from typing import Any

from ..engine import Variant
from ..engine.core import Pos
from ..events import (ERROR, WARNING, ActionState, Finding, GameEnd, GameReport, How, MatchReport, PartState,
                      TurnRow)
from ..record import Match
from .match import MatchWalk, match_name
from .turns import PLAY_RULES
from .visitor import Events, ReplayVisitor, ReportBuilder

# Rules about checker plays: after one of these the replay follows the record, not the rules.
POSITION_RULES = PLAY_RULES

__all__ = ["replay", "ReplayVisitor", "ReportBuilder", "Events", "Finding", "GameReport", "MatchReport",
           "ActionState", "PartState", "TurnRow", "GameEnd", "How", "ERROR", "WARNING", "POSITION_RULES",
           "match_name"]


def replay(match: Match, variant: Variant, start: Pos | None = None,
           visitor: ReplayVisitor | None = None) -> Any:
    """Replay every game of ``match``; parse problems become ``parse-error`` findings.  Returns
    ``visitor.result()``: by default (no visitor) the findings and game reports (:class:`MatchReport`).

    ``start``: the position every game starts from (first player's side, second player's side), for
    records of a game from a set-up position (library use, tests); default the variant's initial one.

    ``visitor``: told every event of the replay in order (:class:`ReplayVisitor`); the costly ones
    (action states, turn rows, game ends) are built only when it asks for them (``visitor.wants``)."""
    if visitor is None:
        visitor = ReportBuilder()
    MatchWalk(match, variant, visitor, start).run()
    return visitor.result()
