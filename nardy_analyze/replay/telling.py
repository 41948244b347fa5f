"""The observer of a game's dispatch (:func:`.game.play`): it builds the costly events from what it sees.

:class:`Teller` reads the game state (:class:`.state.GameState`) before and after each action, and what
the action's handler returned, and tells the visitor one :class:`ActionState` per action
(``action_state``: for the normalised match), one row per turn and one per game end (``turn``,
``game_end``: for statistics).  It changes nothing of the state: the findings, results and positions are
the same whether anyone observes the game or not.  The replay makes one only for a visitor that asks
for one of those events (:mod:`.visitor`).
"""
from __future__ import annotations

from typing import Callable

from ..engine.compiled import maker
from ..engine.core import ROLLER, Dice, SegmentSpec, valid_dice
from ..events import ActionState, GameEnd, TurnRow
from ..record import Action, Kind
from .game import QUICK, QUICK_EXACT, Played, route_of, routed
from .results import scored
from .state import GameState

# The SegmentSpec of a roll the replay took on its quick path, by value (d1, d2, the rules' turn state, a
# hashable value): for the turn rows, which get one per turn.  At most ROLL_SPECS_MAX of them (emptied when
# full: a variant whose turn state takes many values keeps so many).
ROLL_SPECS_MAX = 1024
ROLL_SPECS: dict[tuple, SegmentSpec] = {}
_new_row = tuple.__new__            # TurnRow._make without its Python frame
_ANSWERS = (Kind.TAKE, Kind.DROP, Kind.BEAVER)
_CUBED = (Kind.DOUBLE, Kind.TAKE)     # no state of these without exact states (Events.PLAYS)
_NEW_ACTION_STATE = maker(ActionState)   # ActionState(...) without its __init__'s frame (engine.compiled.maker)


def roll_spec(d1: int, d2: int, turn) -> SegmentSpec:
    """The roller's part of a roll taken on the quick path, as the turn driver gives it (kept in
    ``ROLL_SPECS``)."""
    if len(ROLL_SPECS) >= ROLL_SPECS_MAX:
        ROLL_SPECS.clear()
    spec = ROLL_SPECS[(d1, d2, turn)] = SegmentSpec("roll", ROLLER, Dice.roll(d1, d2).numbers, turn)
    return spec


class Teller:
    """Builds the costly events of one game; each ``tell_*`` is the visitor's method, or None when the
    visitor does not ask for that event (nothing of it is built)."""

    __slots__ = ("tell_state", "tell_turn", "tell_end", "offer", "turn_no", "sides", "exact_states", "sparse",
                 "routes")

    def __init__(self, tell_state: Callable | None, tell_turn: Callable | None, tell_end: Callable | None,
                 exact_states: bool = True, routes: dict | None = None):
        self.tell_state, self.tell_turn, self.tell_end = tell_state, tell_turn, tell_end
        # False: no action state for a roll played exactly as written, a double or a take (``Events.PLAYS``)
        self.exact_states = exact_states
        # the visitor's dict of the game's routes (``Events.ROUTES``, with PLAYS): a roll played without a finding in
        # one part (game.routed) is told by its route there, index -> route, not by its state; None: by its state
        self.routes = routes if not exact_states and tell_state is not None else None
        # nothing at all to tell of such a roll, double or take (the batch replays them as without an observer)
        self.sparse = not exact_states and tell_turn is None
        self.offer: list | None = None       # [doubler, line, answer, (cube, owner)] of the turn being opened
        self.turn_no = 0
        self.sides: tuple | None = None      # the board after the previous action: its tuple is reused

    def after(self, st: GameState, i: int, a: Action, mark: tuple, played: Played | None, route=None) -> None:
        """``a`` (index ``i``) was handled: its action state, and a turn row when a turn is complete.  ``mark``:
        what the events need from before ``a`` (the board, the cube and its owner, the count of findings that
        break a play), taken by ``game.play`` inline, once per action.  ``route``: an exact play's steps with
        their hits, where the compiled batch found them (``ActionState.route``)."""
        sides, cube, owner, broken = mark
        if self.tell_state is not None and (self.exact_states or played is not QUICK_EXACT and a.kind not in _CUBED):
            pos, roll_at = st.pos, st.roll_at
            after = sides if sides[0] is pos[0] and sides[1] is pos[1] else (pos[0], pos[1])
            self.sides = after
            legal = st.plays_broken == broken
            if self.routes is not None and legal and routed(a, played):
                self.routes[i] = route if route is not None else route_of(st.rules, a, sides, after)
            else:
                self.tell_state(_NEW_ACTION_STATE(i, cube, owner, sides, after, legal, played is QUICK_EXACT,
                                            played.parts if played is not None else None,
                                            len(roll_at) if roll_at and roll_at[-1] == i else None, route))
        if self.tell_turn is not None:
            self.turn_of(st, i, a, sides, (cube, owner), played)

    def turn_of(self, st: GameState, i: int, a: Action, sides: tuple, cube_state: tuple,
                played: Played | None) -> None:
        """The turn row ``a`` completes, if any (a roll; a double when it is dropped or followed by another)."""
        p, kind = a.player, a.kind
        if kind == Kind.ROLL:
            if a.unplayed:
                return
            dice = a.dice if a.dice is not None and valid_dice(a.dice) else None
            dice = (max(dice), min(dice)) if dice else None
            spec = None
            if played is QUICK or played is QUICK_EXACT:   # the roller's part as the turn driver gives it
                turn = st.rules.start_turn(sides[p], sides[1 - p], st.rolled[p] == 1, dice)
                spec = ROLL_SPECS.get((dice[0], dice[1], turn))   # immutable, equal for equal keys: built once
                if spec is None:
                    spec = roll_spec(dice[0], dice[1], turn)
            elif played is not None:
                spec = played.spec
            self.emit(st, i, p, a.loc.line, dice, a, (sides[p], sides[1 - p]), spec)
            return
        offer = self.offer
        if kind == Kind.DOUBLE:
            if offer is not None:
                self.emit(st, i, offer[0], offer[1], None, None)
            self.offer = [p, a.loc.line, "", cube_state]
        elif kind in _ANSWERS and offer is not None and offer[0] != p:
            if kind == Kind.BEAVER:          # a beaver takes the double (and redoubles at once)
                offer[2] = "take"
                return
            offer[2] = kind.value
            if kind == Kind.DROP:
                self.emit(st, i, offer[0], offer[1], None, None)

    def emit(self, st: GameState, i: int, p: int, line: int, dice, a: Action | None, before=None,
             spec=None) -> None:
        """Tell one turn row."""
        offer, self.offer = self.offer, None
        doubled = offer is not None and offer[0] == p
        self.turn_no += 1
        here = (st.pos[p], st.pos[1 - p])
        roll_at = st.roll_at                 # this turn's roll, when the replay counted it (findings' move)
        move = len(roll_at) if a is not None and roll_at and roll_at[-1] == i else None
        cube, owner = offer[3] if doubled else (st.cube, st.owner)
        # TurnRow(...) without the named tuple's Python-level __new__ (what its _make does): one per turn
        self.tell_turn(_new_row(TurnRow, (st.number, self.turn_no, p, line, dice, before or here, here,
                                          doubled, offer[2] if doubled else "", st.cube, a, spec, move,
                                          cube, owner, st.score, bool(st.crawford))))

    def end_game(self, st: GameState) -> None:
        """After the result is settled: a double left unanswered is a turn of its own; then the game end."""
        if self.tell_turn is not None and self.offer is not None:
            self.emit(st, -1, self.offer[0], self.offer[1], None, None)
        if self.tell_end is None:
            return
        r = st.report
        level = None
        if r.how == "bearoff" and r.winner is not None:
            level = st.rules.win_level(st.pos[r.winner], st.pos[1 - r.winner])
        self.tell_end(GameEnd(st.number, r.winner, scored(st), r.how, level, st.cube))
