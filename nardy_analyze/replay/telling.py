"""What the game replay tells its visitor beyond findings (a mixin of :class:`.game.GameReplay`): one row
per turn and one per game end (``turn``, ``game_end``: for statistics) and the parts of a turn in its
action state (``action_state``, built by ``GameReplay.run``: for the normalised match).  Each is built
only when the visitor overrides its method (:mod:`.visitor`).
"""
from __future__ import annotations

from ..engine.core import ROLLER, SegmentSpec, dice_sequence
from ..notation.normal import PartState
from ..record import Action, Kind
from .events import GameEnd, TurnRow
from .turns import PartOutcome

# The SegmentSpec of a roll the replay took on its quick path, by value (d1, d2, the rules' turn state, a
# hashable value): for the turn rows, which get one per turn (GameReplay.on_roll looks it up inline).  At most
# ROLL_SPECS_MAX of them (emptied when full: a variant whose turn state takes many values keeps so many).
ROLL_SPECS_MAX = 1024
ROLL_SPECS: dict[tuple, SegmentSpec] = {}
_new_row = tuple.__new__            # TurnRow._make without its Python frame
HANDLER = {k: "on_" + k.value for k in Kind}   # the game replay's handler of each kind of action


def roll_spec(d1: int, d2: int, turn) -> SegmentSpec:
    """The roller's part of a roll taken on the quick path, as the turn driver gives it (kept in
    ``ROLL_SPECS``)."""
    if len(ROLL_SPECS) >= ROLL_SPECS_MAX:
        ROLL_SPECS.clear()
    spec = ROLL_SPECS[(d1, d2, turn)] = SegmentSpec("roll", ROLLER, dice_sequence(d1, d2), turn)
    return spec


class Telling:
    """Turn rows and game ends of :class:`.game.GameReplay` (its state comes from there; the action
    states are built inline by ``GameReplay.run``, once per action)."""

    @staticmethod
    def part_state(out: PartOutcome, dice) -> PartState:
        """The state of one part of a turn, as walked (``ActionState.parts``): a written part, or one the
        record leaves out where that is a finding (its ``text`` empty, its place the finding's)."""
        s, (me, opp), part = out.side, out.before, out.part
        if part is None:
            spec = out.spec
            return PartState(spec.kind if spec is not None else "", s, tuple(spec.numbers) if spec else (),
                             out.loc.line, out.loc.column, "", (me, opp) if s == 0 else (opp, me),
                             tuple(out.after) if out.after is not None else ((me, opp) if s == 0 else (opp, me)))
        numbers = tuple(dice) if part.kind == "roll" else \
            tuple(out.spec.numbers if out.spec is not None else part.dice or ())
        return PartState(part.kind, s, numbers, part.loc.line, part.loc.column, part.text,
                         (me, opp) if s == 0 else (opp, me), tuple(out.after))

    # -- turn rows and game ends (visitor.turn, visitor.game_end) ------------------------------------------
    def observed(self, a: Action, nxt: Action | None) -> None:
        """Handle ``a`` and tell the visitor what the turn did, from the positions the replay goes on from."""
        p = a.player
        before = (self.pos[p], self.pos[1 - p])
        self.roll_spec = None
        cube_state = (self.cube, self.owner)     # before this action: a double's turn starts from it
        if a.kind == Kind.ROLL:              # most actions: one call less
            self.on_roll(a, nxt)
            if not a.unplayed:
                dice = a.dice if a.dice is not None and all(1 <= d <= 6 for d in a.dice) else None
                self.emit(p, a.loc.line, (max(dice), min(dice)) if dice else None, a, before, self.roll_spec)
            return
        getattr(self, HANDLER[a.kind])(a, nxt)
        if a.kind == Kind.DOUBLE:
            if self.offer is not None:
                self.emit(self.offer[0], self.offer[1], None, None)
            self.offer = [p, a.loc.line, "", cube_state]
        elif a.kind in (Kind.TAKE, Kind.DROP, Kind.BEAVER) and self.offer is not None and self.offer[0] != p:
            if a.kind == Kind.BEAVER:        # a beaver takes the double (and redoubles at once)
                self.offer[2] = "take"
                return
            self.offer[2] = a.kind.value
            if a.kind == Kind.DROP:
                self.emit(self.offer[0], self.offer[1], None, None)

    def emit(self, p: int, line: int, dice, a: Action | None, before=None, spec=None) -> None:
        """Tell one turn row."""
        offer, self.offer = self.offer, None
        doubled = offer is not None and offer[0] == p
        self.turn_no += 1
        here = (self.pos[p], self.pos[1 - p])
        roll_at = self.roll_at               # this turn's roll, when the replay counted it (findings' move)
        move = len(roll_at) if a is not None and roll_at and roll_at[-1] == self.index else None
        cube, owner = offer[3] if doubled else (self.cube, self.owner)
        # TurnRow(...) without the named tuple's Python-level __new__ (what its _make does): one per turn
        self.tell_turn(_new_row(TurnRow, (self.number, self.turn_no, p, line, dice, before or here, here,
                                          doubled, offer[2] if doubled else "", self.cube, a, spec, move,
                                          cube, owner, self.rep_score, bool(self.crawford))))

    def tell_game_end(self) -> None:
        """After the result is settled: a double left unanswered is a turn of its own; then the game end."""
        if self.tell_turn is not None and self.offer is not None:
            self.emit(self.offer[0], self.offer[1], None, None)
        if self.tell_end is None:
            return
        r = self.report
        level = None
        if r.how == "bearoff" and r.winner is not None:
            level = self.rules.win_level(self.pos[r.winner], self.pos[1 - r.winner])
        self.tell_end(GameEnd(self.number, r.winner, self.scored(), r.how, level, self.cube))
