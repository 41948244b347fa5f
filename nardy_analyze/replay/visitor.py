"""The replay's one output channel: a visitor (python-chess's ``BaseVisitor`` shape).

:func:`nardy_analyze.replay.replay` walks a match, calls the methods of the visitor it is given in the
order of the record, and returns what the visitor's :meth:`~ReplayVisitor.result` gives::

    begin_match(match, variant)
      finding(...)                         the record's parse errors
      begin_game(game)                     for each game:
        finding(...)                         its parse errors, the score line's findings
        finding / turn / action_state        as each action is replayed (a turn's row when it is complete,
                                             an action's state after the action and its findings)
        game_end(end)                        how the game ended (:class:`~.events.GameEnd`)
      end_game(report)                       the game's :class:`GameReport`
      finding(...)                         the end of the match
    end_match(score)                       the match's final score (the one count of points)
    result()                               what ``replay`` returns

Every method is a no-op here (``result`` gives None); a consumer subclasses :class:`ReplayVisitor` and
overrides what it needs.  The costly events are built only for a visitor that asks for them in
:attr:`~ReplayVisitor.wants` (:class:`Events`: ``STATES`` for ``action_state``, ``TURNS`` for ``turn``,
``ENDS`` for ``game_end``; ``PLAYS``, with ``ROUTES``, for the SGF writer's sparse view, whose routes go to the
visitor's ``routes`` dict): a class attribute, or an instance's own (a visitor that hands the events
to another asks for what that one wants).  ``validate`` asks for none of them and pays nothing.

:class:`ReportBuilder` keeps the findings and game reports in a :class:`MatchReport` and returns it from
``result()``: the default visitor of ``replay``, and the base of the consumers that want the report too:
the normalised match (:mod:`.normal`: the action states, for ``show``, ``convert``, the HTML report and
the replayer) and the statistics (:mod:`nardy_analyze.stats`, skill analysis: turn rows and game ends).
"""
from __future__ import annotations

from enum import Flag
from typing import TYPE_CHECKING, Any

from ..events import GameReport, MatchReport

if TYPE_CHECKING:   # annotations only
    from ..engine import Variant
    from ..events import ActionState, Finding, GameEnd, TurnRow
    from ..record import Game, Match


class Events(Flag):
    """The costly events a visitor asks for (:attr:`ReplayVisitor.wants`)."""

    NONE = 0
    STATES = 1          # action_state: the state around each action
    TURNS = 2           # turn: a row per turn
    ENDS = 4            # game_end: how each game ended
    PLAYS = 8           # action_state of every action but a roll played exactly as written (one legal
                        # step per number, in order: its written steps are its route), a double and a take,
                        # for a reader of the other rolls and the results (the SGF writer's view:
                        # ``normalise(..., exact=False)``)
    ROUTES = 16         # with PLAYS: a roll played without a finding in one part (replay.game.routed) is told by
                        # its single-die route alone, put in the visitor's ``routes`` dict (index -> route, as
                        # engine.judge.route gives it; a new dict per game, set in begin_game), not by its state:
                        # what the SGF writer needs of it


class ReplayVisitor:
    """What the replay tells, one method per event; every method does nothing by default."""

    __slots__ = ()

    wants: Events = Events.NONE
    """The costly events this visitor is told (the others are never built)."""

    routes: dict | None = None
    """(``Events.PLAYS | Events.ROUTES``) The current game's routes, a dict the visitor sets in ``begin_game``: the
    replay puts there, by action index, the single-die route of each roll played without a finding in one part
    and not exactly as written (its steps with their hits, ``((src, dst, hit), ...)``, as ``engine.judge.route``
    gives them; None where the engine finds none and the written steps stand), in place of its state."""

    def begin_match(self, match: Match, variant: Variant) -> None:
        """The replay of ``match`` under ``variant`` starts."""

    def begin_game(self, game: Game) -> None:
        """The replay of ``game`` starts (before its parse errors and score findings)."""

    def finding(self, finding: Finding) -> None:
        """A rule broken (or a warning), in the order found."""

    def action_state(self, state: ActionState) -> None:
        """(``Events.STATES``) The state around one action (cube, board before and after, legality),
        after the action."""

    def turn(self, row: TurnRow) -> None:
        """(``Events.TURNS``) One turn of one player, once the turn is complete (a double's turn when it
        is answered)."""

    def game_end(self, end: GameEnd) -> None:
        """(``Events.ENDS``) How the game ended, once its result is settled (after its last turn)."""

    def end_game(self, report: GameReport) -> None:
        """The game's report (winner, points, how, turns), after ``game_end``."""

    def end_match(self, score: tuple[int, int]) -> None:
        """The replay of the match is over; ``score``: its final score by the one count of points
        (``GameReport.score`` of the last game plus that game's points)."""

    def result(self) -> Any:
        """What :func:`~nardy_analyze.replay.replay` returns once the match is replayed (None here)."""
        return None


class ReportBuilder(ReplayVisitor):
    """Keeps the findings and game reports of the match replayed: ``result()`` is its :class:`MatchReport`.
    A subclass that overrides ``begin_match``, ``finding``, ``end_game`` or ``end_match`` calls this
    class's method too."""

    __slots__ = ("report",)

    def __init__(self) -> None:
        self.report: MatchReport | None = None

    def begin_match(self, match: Match, variant: Variant) -> None:
        self.report = MatchReport(match.path, match.notation, variant.name)

    def finding(self, finding: Finding) -> None:
        self.report.findings.append(finding)

    def end_game(self, report: GameReport) -> None:
        self.report.games.append(report)

    def end_match(self, score: tuple[int, int]) -> None:
        self.report.final_score = score

    def result(self) -> MatchReport:
        return self.report
