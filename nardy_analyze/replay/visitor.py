"""The replay's one output channel: a visitor (python-chess's ``BaseVisitor`` shape).

:func:`nardy_analyze.replay.replay` walks a match and calls the methods of the visitor it is given, in
the order of the record::

    begin_match(match, variant)
      finding(...)                         the record's parse errors
      begin_game(game)                     for each game:
        finding(...)                         its parse errors, the score line's findings
        finding / turn / action_state        as each action is replayed (a turn's row when it is complete,
                                             an action's state after the action and its findings)
        game_end(end)                        how the game ended (:class:`~.events.GameEnd`)
      end_game(report)                       the game's :class:`GameReport`
      finding(...)                         the end of the match
    end_match(report)                      the :class:`MatchReport` that ``replay`` returns

Every method is a no-op here; a consumer subclasses :class:`ReplayVisitor` and overrides what it needs.
The costly events are built only for a visitor that overrides their method (:func:`overrides`): the
per-action :class:`ActionState` (``action_state``), the per-turn :class:`~.events.TurnRow` (``turn``) and
the :class:`~.events.GameEnd` (``game_end``).  ``validate`` overrides none of them and pays nothing.

The consumers: :class:`MatchReport` (the findings and game reports: ``validate``), the normalised match
(:mod:`.normal`: the action states, for ``show``, ``convert``, the HTML report and the replayer) and
the statistics (:mod:`nardy_analyze.stats`, skill analysis: turn rows and game ends).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:   # annotations only
    from ..engine import Variant
    from ..notation.normal import ActionState
    from ..record import Game, Match
    from .events import GameEnd, TurnRow
    from .model import Finding, GameReport, MatchReport


class ReplayVisitor:
    """What the replay tells, one method per event; every method does nothing by default."""

    __slots__ = ()

    def begin_match(self, match: Match, variant: Variant) -> None:
        """The replay of ``match`` under ``variant`` starts."""

    def begin_game(self, game: Game) -> None:
        """The replay of ``game`` starts (before its parse errors and score findings)."""

    def finding(self, finding: Finding) -> None:
        """A rule broken (or a warning), in the order found."""

    def action_state(self, state: ActionState) -> None:
        """The state around one action (cube, board before and after, legality), after the action."""

    def turn(self, row: TurnRow) -> None:
        """One turn of one player, once the turn is complete (a double's turn when it is answered)."""

    def game_end(self, end: GameEnd) -> None:
        """How the game ended, once its result is settled (after its last turn)."""

    def end_game(self, report: GameReport) -> None:
        """The game's report (winner, points, how, turns), after ``game_end``."""

    def end_match(self, report: MatchReport) -> None:
        """The replay of the match is over: ``report`` is what :func:`~nardy_analyze.replay.replay` returns."""


def overrides(visitor: object, name: str) -> bool:
    """Whether ``visitor`` does something on event ``name`` (its class overrides the no-op)."""
    method = getattr(type(visitor), name, None)
    return method is not None and method is not getattr(ReplayVisitor, name)


def channel(visitors: tuple[object, ...], name: str) -> Callable | None:
    """One callable telling event ``name`` to every visitor that overrides it; None when none does (the
    event need not be built)."""
    fns = [getattr(v, name) for v in visitors if overrides(v, name)]
    if not fns:
        return None
    if len(fns) == 1:
        return fns[0]

    def tell_all(*event) -> None:
        for fn in fns:
            fn(*event)
    return tell_all
