"""Shared vocabulary of the rules engine: sides, steps, play generation.

A *side* is a tuple of 25 ints in its owner's own numbering: index ``p - 1``
holds the checkers on point ``p`` and index 24 the bar.  Borne-off checkers are
``15 - sum(side)``.  The engine is pure: no I/O, no knowledge of notations.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from typing import Hashable, Iterator, Protocol

BAR = 25
OFF = 0
CHECKERS = 15

Side = tuple[int, ...]
Pos = tuple[Side, Side]          # (mover, opponent)
StepT = tuple[int, int, int]     # (src, dst, die)


def borne_off(side: Side) -> int:
    return CHECKERS - sum(side)


def fmt_point(p: int) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def fmt_steps(steps) -> str:
    """Spell single steps ``((13, 7, 6), (8, 7, 1))`` as ``13/7 8/7``."""
    return " ".join(f"{fmt_point(s)}/{fmt_point(d)}" for s, d, *_ in steps) or "(no move)"


class Rules(Protocol):
    """What a variant's rules object provides to the generic machinery (``generate``, ``judge``, replay).

    ``turn`` is the variant's per-turn state (hashable; ``None`` when the variant needs none, as in
    backgammon).  Long nardy keeps there how many checkers left the head this turn and how many may;
    ``start_turn`` makes it from the roll (``dice``: the two dice as rolled, so that the first-turn
    6-6/4-4/3-3 head exception can be expressed) and ``after_step`` advances it.

    ``turn_segments`` returns the variant's turn driver (:class:`TurnDriver`): which parts make up
    the turn of one roll (the roller's play; in Gul bara also chain doubles and handovers).
    """

    name: str
    opening_double_allowed: bool

    def initial(self) -> Pos: ...

    def start_turn(self, me: Side, opp: Side, first_turn: bool, dice: tuple[int, ...] = ()) -> Hashable: ...

    def single_steps(self, me: Side, opp: Side, die: int, turn: Hashable = None) -> Iterator[tuple[int, int]]: ...

    def apply(self, me: Side, opp: Side, src: int, dst: int) -> tuple[Side, Side, bool]: ...

    def after_step(self, turn: Hashable, me: Side, src: int, dst: int) -> Hashable: ...

    def closed(self, opp: Side, point: int) -> bool: ...

    def step_problem(self, me: Side, opp: Side, src: int, dst: int, die: int,
                     turn: Hashable = None) -> tuple[str, str] | None: ...

    def win_level(self, winner: Side, loser: Side) -> int: ...

    def turn_segments(self, d1: int, d2: int, first_turn: bool, roll_number: int = 1) -> "TurnDriver": ...

    def max_level(self, winner: Side, loser: Side) -> int: ...

    LEVEL_KINDS: dict[int, str]        # one word per win level: {1: "single", 2: "gammon", 3: "backgammon"}


@dataclass(slots=True)
class PlaySet:
    """All legal plays of one roll, keyed by the position they produce."""

    dice: tuple[int, ...]                    # the numbers available (four for a double)
    max_dice: int                            # how many numbers a legal play uses
    plays: dict[Pos, tuple[StepT, ...]] = field(default_factory=dict)  # result -> one way to play it
    larger_only: bool = False                # the larger-die rule removed the smaller-die plays

    def __contains__(self, pos: Pos) -> bool:
        return pos in self.plays

    def example(self, limit: int = 3) -> list[str]:
        return [fmt_steps(s) for s in list(self.plays.values())[:limit]]


def dice_sequence(d1: int, d2: int | None = None) -> tuple[int, ...]:
    """The numbers to play: a roll ``d1, d2`` (a double is four numbers), or ``d1`` already a tuple of
    numbers (a Gul bara handover may hand over any 1 to 4 numbers, e.g. ``(4,)``, ``(3, 4)``, ``(5, 5, 5)``),
    taken as they are."""
    if d2 is None:
        return tuple(int(x) for x in d1)          # type: ignore[union-attr]
    return (d1,) * 4 if d1 == d2 else (d1, d2)


def _orders(numbers: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The distinct orders of a multiset of numbers (one for a double, two for a plain roll: as given,
    then reversed)."""
    if len(set(numbers)) <= 1:
        return [numbers]
    return list(dict.fromkeys(permutations(numbers)))


def generate(rules: Rules, me: Side, opp: Side, d1, d2: int | None = None, turn: Hashable = None) -> PlaySet:
    """Every legal play of roll ``d1-d2`` (or of the numbers ``d1`` when ``d2`` is None, see
    :func:`dice_sequence`): maximum-dice rule, then larger-die rule."""
    numbers = dice_sequence(d1, d2)
    n = len(numbers)
    by_depth: list[dict[Pos, tuple[StepT, ...]]] = [{(me, opp): ()}] + [dict() for _ in range(n)]
    for order in _orders(numbers):
        frontier = {(me, opp, turn): ()}
        for depth, die in enumerate(order, start=1):
            nxt: dict[tuple, tuple[StepT, ...]] = {}
            for (m, o, t), path in frontier.items():
                for src, dst in rules.single_steps(m, o, die, t):
                    m2, o2, _ = rules.apply(m, o, src, dst)
                    key = (m2, o2, rules.after_step(t, m, src, dst))
                    if key not in nxt:
                        nxt[key] = path + ((src, dst, die),)
            if not nxt:
                break
            level = by_depth[depth]
            for (m2, o2, _), path in nxt.items():
                level.setdefault((m2, o2), path)
            frontier = nxt
    max_dice = max(d for d in range(n + 1) if by_depth[d])
    plays = by_depth[max_dice]
    larger_only = False
    if max_dice == 1 and len(set(numbers)) > 1:
        big = max(numbers)
        bigs = {rules.apply(me, opp, src, dst)[:2] for src, dst in rules.single_steps(me, opp, big, turn)}
        if bigs:
            kept = {k: v for k, v in plays.items() if k in bigs}
            larger_only = len(kept) < len(plays)
            plays = kept
    return PlaySet(numbers, max_dice, plays, larger_only)


# -- turn drivers ------------------------------------------------------------------------------------

ROLLER = 0        # SegmentSpec.player: the player who rolled
OPPONENT = 1      # ... the other player (a Gul bara handover)


@dataclass(frozen=True, slots=True)
class SegmentSpec:
    """One part of a turn, as the variant's turn driver asks for it.

    ``player`` is :data:`ROLLER` or :data:`OPPONENT`; ``numbers`` are the numbers to play (four for a
    double); ``kind`` is ``"roll"`` (the roller's play of the roll), ``"chain"`` (the roller's play of
    the next double of a Gul bara chain) or ``"handover"`` (the opponent plays numbers the previous
    part could not use); ``turn`` is the rules' turn state to pass to :func:`generate` / ``judge`` with
    the positions of ``player`` (mover) and the other side.  ``double`` is the double a chain or
    handover segment belongs to (``None`` for a handover of a plain roll).
    """

    kind: str
    player: int
    numbers: tuple[int, ...]
    turn: Hashable = None
    double: int | None = None


class TurnDriver(Protocol):
    """The turn logic of one roll.  Use::

        drv = rules.turn_segments(d1, d2, first_turn, roll_number)
        while (spec := drv.next(roller_side, other_side)) is not None:
            ... play spec.numbers for spec.player (legal plays: generate(rules, me, opp, spec.numbers,
                turn=spec.turn)) ...
            drv.played(numbers_used)

    Positions passed to ``next`` are always the roller's side first.  ``next`` returns None when the
    turn is over (or the game is: a side has borne off all 15).
    """

    def next(self, roller: Side, other: Side) -> SegmentSpec | None: ...

    def played(self, used: tuple[int, ...]) -> None: ...


class SingleSegment:
    """The turn driver of backgammon and long nardy: the roller plays the roll, and that is all."""

    __slots__ = ("rules", "dice", "first_turn", "done")

    def __init__(self, rules: Rules, d1: int, d2: int, first_turn: bool) -> None:
        self.rules, self.dice, self.first_turn, self.done = rules, (d1, d2), first_turn, False

    def next(self, roller: Side, other: Side) -> SegmentSpec | None:
        if self.done or borne_off(roller) == CHECKERS or borne_off(other) == CHECKERS:
            return None
        turn = self.rules.start_turn(roller, other, self.first_turn, self.dice)
        return SegmentSpec("roll", ROLLER, dice_sequence(*self.dice), turn)

    def played(self, used: tuple[int, ...]) -> None:
        self.done = True


def remaining(numbers: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...]:
    """The numbers not used (a multiset difference), larger first; ValueError if ``used`` holds a number
    that ``numbers`` does not."""
    r = list(numbers)
    for d in used:
        r.remove(d)
    return tuple(sorted(r, reverse=True))
