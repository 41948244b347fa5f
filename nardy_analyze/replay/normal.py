"""A record as the replay understands it: what writers of other notations need and a notation cannot say
by itself (the cube value before each action, the single-die route of a combined move and where it hits,
how and by whom each game was won, which game is the Crawford game).

Every fact here comes from :func:`nardy_analyze.replay.replay` (``trace=True``) and the engine
(:func:`nardy_analyze.engine.judge.route`); writers never re-derive them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.judge import _with_hits, route
from ..record import Action, Game, Kind, Match
from . import ActionState, Finding, GameReport, MatchReport, replay


@dataclass(slots=True)
class NormalAction:
    action: Action
    state: ActionState | None            # None for actions the replay did not reach (after the game ended)
    # ROLL: single-die steps (src, dst, hit) in the mover's numbering, when the play is legal; None otherwise
    route: tuple[tuple[int, int, bool], ...] | None = None


@dataclass(slots=True)
class NormalGame:
    game: Game
    report: GameReport
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
    report: MatchReport
    games: list[NormalGame] = field(default_factory=list)

    @property
    def first_error(self) -> Finding | None:
        errors = [f for f in self.report.findings if f.severity == "error"]
        return min(errors, key=lambda f: (f.line, f.column)) if errors else None


_LAST: list = []          # (match, variant, options, result) of the last call: writers and checks share it


def normalise(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None) -> NormalMatch:
    """The replay's view of ``match`` (the last result is reused for the same, unchanged Match object)."""
    if _LAST and _LAST[0] is match and _LAST[1] == variant and _LAST[2] == (options or {}):
        return _LAST[3]
    result = _normalise(match, variant, options)
    _LAST[:] = [match, variant, dict(options or {}), result]
    return result


def _normalise(match: Match, variant: str, options: dict[str, Any] | None) -> NormalMatch:
    from ..inputs import variant_for   # (analyze imports the notations)

    from ..engine import UnknownVariant

    try:
        v = variant_for(match, variant, options or {})
    except UnknownVariant:                # a variant the engine does not know yet: the record as written
        rep = MatchReport(match.path, match.notation, str(match.tag("Variation") or variant))
        out = NormalMatch(match, rep.variant, dict(options or {}), rep)
        for game in match.games:
            out.games.append(NormalGame(game, GameReport(game.number, game.players),
                                        [NormalAction(a, None) for a in game.actions]))
        return out
    from ..engine import OPTIONS

    rep = replay(match, v, trace=True)
    out = NormalMatch(match, v.name, {k: v.opt(k) for k in OPTIONS.get(v.name, {})}, rep)
    rules = v.rules
    roll = Kind.ROLL
    for game, grep in zip(match.games, rep.games):
        ng = NormalGame(game, grep)
        states = grep.states or []
        # the trace holds one state per action reached, in order (indexes increase): positional when the
        # last index is its position
        if states and states[-1].index != len(states) - 1:
            by_index = {s.index: s for s in states}
            states = [by_index.get(i) for i in range(len(game.actions))]
        n = len(states)
        actions = ng.actions
        for i, a in enumerate(game.actions):
            st = states[i] if i < n else None
            na = NormalAction(a, st)
            actions.append(na)
            if st is not None and st.exact and st.legal:
                # the written steps, one die each, legal in their order, reached st.after (the replay's
                # turns.quick_turn: a roll of two dice 1-6, played, with no further parts)
                steps = [(s.src, s.dst) for s in a.steps]
                before = st.before
                p = a.player
                na.route = _with_hits(rules, before[p], before[1 - p], steps)
                continue
            if a.kind is not roll or st is None or not st.legal or a.unplayed or a.segments or a.illegal_mark:
                continue
            dice = a.dice
            if dice is None:
                continue
            if len(dice) == 2:
                d1, d2 = dice
                if not (0 < d1 < 7 and 0 < d2 < 7):
                    continue
                if d1 < d2:
                    d1, d2 = d2, d1
            elif all(1 <= d <= 6 for d in dice):
                d1, d2 = max(dice), min(dice)
            else:
                continue
            p = a.player
            before, after = st.before, st.after
            na.route = route(rules, before[p], before[1 - p], d1, d2, [(s.src, s.dst) for s in a.steps],
                             (after[p], after[1 - p]))
        out.games.append(ng)
    return out
