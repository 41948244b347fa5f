"""Text diagrams of a position, for ``--explain``."""
from __future__ import annotations

from .engine import borne_off
from .engine.posid import position_id
from .engine.core import Pos


def _cell(me: int, opp: int) -> str:
    if me:
        return f"X{me}"
    if opp:
        return f"O{opp}"
    return " ."


def diagram(pos: Pos, mover: str = "X", opponent: str = "O", role: str = "to play",
            opp_point=None, position_ids: bool = True) -> list[str]:
    """The board from the first side's view: its checkers X, the other side's O, points in X's numbering.

    ``opp_point(p)`` is the opponent's own number for X's point p (backgammon: 25 - p; long nardy runs
    both sides the same way: ((p + 11) mod 24) + 1)."""
    me, opp = pos
    other = opp_point or (lambda p: 25 - p)
    top = range(13, 25)
    bottom = range(12, 0, -1)

    def row(points) -> tuple[str, str]:
        nums, cells = [], []
        for i, p in enumerate(points):
            sep = "  |" if i == 6 else ""
            nums.append(f"{sep}{p:>3}")
            cells.append(f"{sep}{_cell(me[p - 1], opp[other(p) - 1]):>3}")
        return "".join(nums), "".join(cells)

    n1, c1 = row(top)
    n2, c2 = row(bottom)
    return [
        f"X = {mover} ({role}, own numbering), O = {opponent}",
        n1, c1, c2, n2,
        f"bar: X{me[24]} O{opp[24]}   off: X{borne_off(me)} O{borne_off(opp)}"
        + (f"   gnubg position ID (X on roll): {position_id(me, opp)}" if position_ids else ""),
    ]
