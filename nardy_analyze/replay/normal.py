"""The normalised match (:mod:`nardy_analyze.notation.normal`): a record as the replay understands it,
computed here for the writers of other notations, ``show``, the HTML report and the replayer.

Every fact comes from :func:`nardy_analyze.replay.replay` (the action states its visitor is told) and
the engine (:func:`nardy_analyze.engine.judge.route`); writers never re-derive them.
"""
from __future__ import annotations

from typing import Any

from ..engine import RuleSet, UnknownVariant, valid_dice
from ..engine.compiled import maker
from ..engine.judge import with_hits
from ..judged import variant_for
from ..events import ActionState, GameReport, MatchReport
from ..notation.normal import NormalAction, NormalGame, NormalMatch
from ..record import Game, Kind, Match, game_numbers
from . import replay
from .game import route_of
from .visitor import Events, ReportBuilder

__all__ = ["normalise", "NormalAction", "NormalGame", "NormalMatch"]


_SPARSE = Events.PLAYS | Events.ROUTES       # what the sparse view asks for
# NormalGame(...) and NormalAction(...) without their __init__'s frame (engine.compiled.maker)
_NEW_GAME, _NEW_ACTION = maker(NormalGame), maker(NormalAction)


class _States(ReportBuilder):
    """The match report, and the action states of each game, in order."""

    __slots__ = ("games", "game", "wants", "routes", "game_routes")

    def __init__(self, exact: bool = True) -> None:
        super().__init__()
        # the sparse view: the rolls played without a finding in one part by their routes alone (Events.ROUTES)
        self.wants = Events.STATES if exact else _SPARSE
        self.games: list[list[ActionState]] = []
        self.game: list[ActionState] = []
        self.game_routes: list[dict[int, tuple | None]] = []     # (sparse) each game's routes, by action index
        self.routes: dict[int, tuple | None] | None = None        # the current game's, filled by the replay

    def begin_game(self, game: Game) -> None:
        self.game = []
        self.games.append(self.game)
        self.routes = {}
        self.game_routes.append(self.routes)

    def action_state(self, state: ActionState) -> None:
        self.game.append(state)


def normalise(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None,
              exact: bool = True) -> NormalMatch:
    """The replay's view of ``match`` as it is now: computed on every call (nothing is kept between calls,
    so a record changed in place is replayed again; a caller that needs the view twice keeps it).
    ``exact=False``: a roll played exactly as written (one legal step per number, in order) has neither
    state nor route (``NormalAction.state`` None: its written steps are its route, and its hits are not
    looked for), and any other roll played without a finding in one part has its route and no state
    (``NormalGame.routes``), for a writer that needs no more of them (``Notation.exact_routes`` False)."""
    try:
        v = variant_for(match, variant, options or {})
    except UnknownVariant:                # a variant the engine does not know yet: the record as written
        rep = MatchReport(match.path, match.notation, str(match.tag("Variation") or variant))
        out = NormalMatch(match, rep.variant, RuleSet.of(options).flat(), rep)
        for game, number in zip(match.games, game_numbers(match.games)):
            out.games.append(NormalGame(game, GameReport(number, game.players),
                                        [NormalAction(a, None) for a in game.actions]))
        return out
    told = _States(exact)
    rep = replay(match, v, visitor=told)
    out = NormalMatch(match, v.name, dict(v.values), rep)     # (every option of the variant, with its value)
    rules = v.rules
    for game, grep, states, routes in zip(match.games, rep.games, told.games, told.game_routes):
        if not exact:            # a sparse view: a NormalAction for each action with a state only, and the routes
            out.games.append(_sparse_game(rules, game, grep, states, routes))
            continue
        ng = _NEW_GAME(game, grep, [])
        # the trace holds one state per action reached, in order (indexes increase): positional when the
        # last index is its position
        if states and states[-1].index != len(states) - 1:
            by_index = {s.index: s for s in states}
            states = [by_index.get(i) for i in range(len(game.actions))]
        n = len(states)
        actions = ng.actions
        for i, a in enumerate(game.actions):
            st = states[i] if i < n else None
            na = _NEW_ACTION(a, st)
            actions.append(na)
            if st is not None:
                na.route = _route(rules, a, st)
        out.games.append(ng)
    return out


def _route(rules, a, st: ActionState):
    """The single-die route of the action ``a`` the replay left in state ``st``: for a legal roll, its steps
    with their hits; None for any other action."""
    if st.exact and st.legal:
        # the written steps, one die each, legal in their order, reached st.after (the replay's
        # turns.quick_turn: a roll of two dice 1-6, played, with no further parts)
        if st.route is not None:     # (the compiled batch's, the same)
            return st.route
        p = a.player
        return with_hits(rules, st.before[p], st.before[1 - p], [(s.src, s.dst) for s in a.steps])
    if a.kind is not Kind.ROLL or not st.legal or a.unplayed or a.segments or a.illegal_mark:
        return None
    if st.route is not None:         # (the compiled batch's: judge.route's, the same)
        return st.route
    if a.dice is None or not valid_dice(a.dice):
        return None
    return route_of(rules, a, st.before, st.after)


def _sparse_game(rules, game: Game, grep: GameReport, states: list[ActionState],
                 routes: dict[int, tuple | None]) -> NormalGame:
    """The sparse view of one game (``exact=False``): a NormalAction for each action with a state, with its
    route where it is a legal roll; and the routes of the rolls played without a finding in one part, which
    have no state here (``Events.ROUTES``; a roll played exactly as written has neither: its written steps
    are its route)."""
    known: dict[int, NormalAction] = {}
    actions = game.actions
    for st in states:
        a = actions[st.index]
        known[st.index] = _NEW_ACTION(a, st, _route(rules, a, st))
    return _NEW_GAME(game, grep, None, known, routes)
