"""Shared vocabulary of the rules engine: sides, steps, play generation.

A *side* is a tuple of 25 ints in its owner's own numbering: index ``p - 1``
holds the checkers on point ``p`` and index 24 the bar.  Borne-off checkers are
``15 - sum(side)``.  The engine is pure: no I/O, no knowledge of notations.
"""
from __future__ import annotations

from dataclasses import dataclass, field
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
    backgammon).  Long nardy keeps there how many checkers left the head this turn and whether it is
    the player's first turn; ``start_turn`` makes it and ``after_step`` advances it.
    """

    name: str
    opening_double_allowed: bool

    def initial(self) -> Pos: ...

    def start_turn(self, me: Side, opp: Side, first_turn: bool) -> Hashable: ...

    def single_steps(self, me: Side, opp: Side, die: int, turn: Hashable = None) -> Iterator[tuple[int, int]]: ...

    def apply(self, me: Side, opp: Side, src: int, dst: int) -> tuple[Side, Side, bool]: ...

    def after_step(self, turn: Hashable, me: Side, src: int, dst: int) -> Hashable: ...

    def closed(self, opp: Side, point: int) -> bool: ...

    def step_problem(self, me: Side, opp: Side, src: int, dst: int, die: int,
                     turn: Hashable = None) -> tuple[str, str] | None: ...

    def win_level(self, winner: Side, loser: Side) -> int: ...

    def max_level(self, winner: Side, loser: Side) -> int: ...


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


def dice_sequence(d1: int, d2: int) -> tuple[int, ...]:
    return (d1,) * 4 if d1 == d2 else (d1, d2)


def generate(rules: Rules, me: Side, opp: Side, d1: int, d2: int, turn: Hashable = None) -> PlaySet:
    """Every legal play of roll ``d1-d2``: maximum-dice rule, then larger-die rule."""
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    by_depth: list[dict[Pos, tuple[StepT, ...]]] = [{(me, opp): ()}] + [dict() for _ in range(4)]
    for order in orders:
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
    max_dice = max(d for d in range(5) if by_depth[d])
    plays = by_depth[max_dice]
    larger_only = False
    if max_dice == 1 and d1 != d2:
        big = max(d1, d2)
        bigs = {rules.apply(me, opp, src, dst)[:2] for src, dst in rules.single_steps(me, opp, big, turn)}
        if bigs:
            kept = {k: v for k, v in plays.items() if k in bigs}
            larger_only = len(kept) < len(plays)
            plays = kept
    return PlaySet(dice_sequence(d1, d2), max_dice, plays, larger_only)
