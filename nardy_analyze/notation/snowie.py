"""Snowie's position record, as exporters write it inside an ``Illegal play (...)`` mark.

A program exporting Jellyfish match text writes ``54: Illegal play (0;0;0;1;0;Ann;Bob;...;6;2;)`` where
the game's play was refused (the board was set by hand instead of played).  The numbers in the
parentheses are Snowie's one-line position text: 40 fields separated by ``;`` (a trailing ``;`` is
usual), laid out as docs/mat-format.md describes:

====== ==================================================================================
field  meaning
====== ==================================================================================
0      match length (0: money)
1      Jacoby rule (1 on, money only)
2, 3   not known (exporters write 0 and 0, or 0 and 1 for money)
4      the player on roll (0 or 1; exporters disagree on its sense: not used)
5, 6   the two players' names; the board is seen from the player named in field 5
7      1 = the Crawford game
8, 9   the scores of the players of fields 5 and 6
10     the cube value
11     the cube owner: 1 the player of field 5, 0 centred, -1 the other
12     a bar: the other player's checkers on the bar, written negative (some exporters write the
       own player's bar here, positive)
13..36 points 1..24 in the numbering of the player of field 5: positive = that player's checkers,
       negative = the other's (the other's point 25 - n)
37     a bar: the own player's checkers on the bar, positive (or the other's, negative)
38, 39 dice (0 0: none)
====== ==================================================================================

:func:`decode` reads the fields; :func:`boards` gives the readings of the two bars and the two
perspectives, in the order to try them; the replay keeps the first one that follows from the position
before the play (docs/rules.md, "Exporters' marks").  Pure functions, no I/O, no engine.
"""
from __future__ import annotations

import re

from ..shapes import dataclass

FIELDS = 40
_MARK = re.compile(r"\(([^()]*)\)")


@dataclass(frozen=True, slots=True)
class SnowiePosition:
    match_length: int
    names: tuple[str, str]            # field 5 (the board's own player), field 6
    crawford: bool
    score: tuple[int, int]
    cube: int
    owner: int                        # 1: the own player, 0: centred, -1: the other
    points: tuple[int, ...]           # fields 12..37: 26 numbers (bar, points 1..24, bar)
    dice: tuple[int, int]


def decode(mark: str) -> SnowiePosition | None:
    """The position record inside ``mark`` (``Illegal play (...)`` or the bare fields); None when it is
    not one (a different number of fields, a number that is not one, a side with more than 15
    checkers)."""
    m = _MARK.search(mark)
    body = m.group(1) if m else mark
    fields = [f.strip() for f in body.split(";")]
    if fields and fields[-1] == "":
        fields.pop()
    if len(fields) != FIELDS:
        return None
    try:
        nums = {i: int(fields[i]) for i in range(FIELDS) if i not in (5, 6)}
    except ValueError:
        return None
    points = tuple(nums[i] for i in range(12, 38))
    if sum(v for v in points if v > 0) > 15 or -sum(v for v in points if v < 0) > 15:
        return None
    return SnowiePosition(nums[0], (fields[5], fields[6]), nums[7] == 1, (nums[8], nums[9]), nums[10],
                          nums[11], points, (nums[38], nums[39]))


def boards(pos: SnowiePosition) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(own side, other side) as 25-tuples (points 1..24 in each owner's numbering, then the bar), one
    per reading of the two bar fields: the sign says whose bar (negative: the other's), then field 12 as
    the own bar and 37 as the other's, then the reverse.  Readings giving a side more than 15 checkers
    are left out; equal readings are given once."""
    pts = pos.points
    own = [0] * 25
    other = [0] * 25
    for k in range(1, 25):
        v = pts[k]
        if v > 0:
            own[k - 1] += v
        elif v < 0:
            other[24 - k] += -v
    a, b = pts[0], pts[25]
    readings = []
    signed = (max(a, 0) + max(b, 0), max(-a, 0) + max(-b, 0))
    for own_bar, other_bar in (signed, (abs(a), abs(b)), (abs(b), abs(a))):
        o, t = list(own), list(other)
        o[24], t[24] = own_bar, other_bar
        if sum(o) > 15 or sum(t) > 15:
            continue
        item = (tuple(o), tuple(t))
        if item not in readings:
            readings.append(item)
    return readings


def _pips(side: tuple[int, ...]) -> int:
    return sum(n * (i + 1) for i, n in enumerate(side))


def follows(me: tuple[int, ...], opp: tuple[int, ...], after_me: tuple[int, ...],
            after_opp: tuple[int, ...]) -> bool:
    """Whether ``after_*`` can come from ``me``/``opp`` by one play of ``me`` (any numbers up to four
    sixes, legal or not): the opponent's checkers unchanged but for blots sent to the bar, the mover's
    checkers only forward (none back to the bar), at most 24 pips in all (four sixes), and the board
    changed."""
    hits = 0
    for i in range(24):
        if after_opp[i] != opp[i]:
            if after_opp[i] != 0 or opp[i] != 1:
                return False
            hits += 1
    if after_opp[24] != opp[24] + hits:
        return False
    if after_me == me or after_me[24] > me[24] or sum(after_me) > sum(me):
        return False
    moved = _pips(me) - _pips(after_me)
    return 0 < moved <= 24


def movements(me: tuple[int, ...], after_me: tuple[int, ...]) -> list[tuple[int, int]]:
    """The movement from ``me`` to ``after_me`` as written steps ``(src, dst)`` in the mover's numbering
    (25 the bar, 0 off): the sources and destinations paired from the highest, as :func:`describe` spells
    them."""
    src: list[int] = []
    dst: list[int] = []
    for i in range(25):
        d = after_me[i] - me[i]
        point = i + 1                     # 25: the bar
        (dst if d > 0 else src).extend([point] * abs(d))
    dst.extend([0] * (sum(me) - sum(after_me)))
    src.sort(reverse=True)
    dst.sort(reverse=True)
    return list(zip(src, dst))


def describe(me: tuple[int, ...], opp: tuple[int, ...], after_me: tuple[int, ...]) -> str:
    """The movement from ``me`` to ``after_me`` spelt as a play (``10/6(2)``, ``bar/20 13/off``):
    sources and destinations paired from the highest; ``*`` where an opponent's blot stood."""
    moves = []
    for s, d in movements(me, after_me):
        hit = 1 <= d <= 24 and opp[24 - d] == 1
        moves.append(f"{'bar' if s == 25 else s}/{'off' if d == 0 else d}{'*' if hit else ''}")
    out: list[str] = []
    for m in moves:
        if out and out[-1][0] == m:
            out[-1][1] += 1
        else:
            out.append([m, 1])
    return " ".join(m if n == 1 else f"{m}({n})" for m, n in out)
