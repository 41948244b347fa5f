"""The normalised match: a record as the replay understood it, as plain data for the writers.

What writers of other notations need and a notation cannot say by itself: the cube value before each
action, the board before and after it, the single-die route of a combined move and where it hits, how
and by whom each game was won, which game is the Crawford game.  The replay computes it
(:func:`nardy_analyze.replay.normal.normalise`); a caller that writes a notation whose registry entry has
``needs_replay`` computes it and passes it to ``write(match, normal)``.  This module only defines the
data: a notation never imports the replay.
"""
from __future__ import annotations

from dataclasses import field
from typing import Any

from ..shapes import dataclass
from ..events import ActionState, Finding, GameReport, MatchReport
from ..i18n import _, ngettext
from ..record import Action, Game, Kind, Match


@dataclass(slots=True)
class NormalAction:
    action: Action
    # None for actions the replay did not reach (after the game ended), and, in a view made for a writer
    # without ``exact_routes``, for a roll played exactly as written, a double, a take, and a roll played without a
    # finding in one part (which has its route)
    state: ActionState | None
    # ROLL: single-die steps (src, dst, hit) in the mover's numbering, when the play is legal; None otherwise
    route: tuple[tuple[int, int, bool], ...] | None = None


@dataclass(slots=True)
class NormalGame:
    game: Game
    # the replay's report of the game: winner, points, how, crawford, turns
    report: GameReport
    # the NormalAction of every action of the game (``actions``), built on first use in a sparse view
    _actions: list[NormalAction] | None = None
    # a sparse view's (one made for a writer without ``exact_routes``): the NormalActions of the actions that
    # have a state, by index; every other action's is ``NormalAction(action, None)``.  None: not sparse
    known: dict[int, NormalAction] | None = None
    # a sparse view's routes of the rolls played without a finding in one part, by index: such a roll has its
    # route and no state (its NormalAction is ``NormalAction(action, None, route)``)
    routes: dict[int, tuple | None] | None = None

    @property
    def actions(self) -> list[NormalAction]:
        """The NormalAction of each action of the game, in order."""
        acts = self._actions
        if acts is None:
            known, routes = self.known or {}, self.routes or {}
            acts = self._actions = [known.get(i) or NormalAction(a, None, routes.get(i))
                                    for i, a in enumerate(self.game.actions)]
        return acts

    def stated(self) -> list[NormalAction]:
        """The NormalActions that have a state, in order."""
        if self._actions is None and self.known is not None:
            return [na for na in self.known.values() if na.state is not None]
        return [na for na in self.actions if na.state is not None]

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
    # the replay's report of the match: its findings and games
    report: MatchReport
    games: list[NormalGame] = field(default_factory=list)

    @property
    def first_error(self) -> Finding | None:
        """The first error finding of the replay (by line and column), None when there is none."""
        errors = [f for f in self.report.findings if f.severity == "error"]
        return min(errors, key=lambda f: (f.line, f.column)) if errors else None


# GNU Backgammon keeps a resignation as a level (1 single, 2 gammon, 3 backgammon) times the cube
GNUBG_TOP_LEVEL = 3


def resign_cube(ng: NormalGame) -> int:
    """The cube value when the game's resignation was made (1 when there is none)."""
    return next((na.state.cube for na in reversed(ng.stated()) if na.action.kind is Kind.RESIGN), 1) or 1


def gnubg_result_losses(normal: NormalMatch, target: str, before_any_move: bool = False) -> list[str]:
    """What ``target`` (mat or sgf), as GNU Backgammon reads it, cannot say of the results as the replay
    credits them: a match conceded for more points than gnubg's largest resignation (a backgammon at the
    cube) gives, which gnubg reads as a smaller resignation (the match unfinished); ``before_any_move``: a
    result written before the game's first move, which gnubg's .mat import does not read."""
    out: list[str] = []
    for ng in normal.games:
        r = ng.report
        n = ng.game.number
        if r.conceded and r.credited is not None:
            cube = resign_cube(ng)
            if -(-r.credited // cube) > GNUBG_TOP_LEVEL:
                # TRANSLATORS: {target}: mat or sgf; {points}: points credited; {cube}: the cube's value;
                # {top}: the most a resignation gives there (a backgammon at that cube)
                out.append(ngettext(
                    "game {game}: the match was conceded for {points} point(s); a resignation in {target} gives "
                    "at most {top} with the cube at {cube} (a backgammon), so GNU Backgammon would read the "
                    "match as unfinished",
                    "game {game}: the match was conceded for {points} point(s); a resignation in {target} gives "
                    "at most {top} with the cube at {cube} (a backgammon), so GNU Backgammon would read the "
                    "match as unfinished", r.credited).format(
                    game=n, points=r.credited, target=target, top=GNUBG_TOP_LEVEL * cube, cube=cube))
        if before_any_move and r.winner is not None and ng.actions and \
                not any(na.action.kind is Kind.ROLL for na in ng.actions):
            out.append(_("game {game}: its result comes before any move, which GNU Backgammon's {target} import "
                         "does not read (it would leave the game out)").format(game=n, target=target))
    return out


__all__ = ["NormalAction", "NormalGame", "NormalMatch", "gnubg_result_losses",
           "resign_cube"]
