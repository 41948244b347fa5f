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


def diagram(pos: Pos, mover: str = "X", opponent: str = "O", role: str = "to play") -> list[str]:
    """The board from the first side's view: its checkers X, the other side's O, points in X's numbering."""
    me, opp = pos
    top = range(13, 25)
    bottom = range(12, 0, -1)

    def row(points) -> tuple[str, str]:
        nums, cells = [], []
        for i, p in enumerate(points):
            sep = "  |" if i == 6 else ""
            nums.append(f"{sep}{p:>3}")
            cells.append(f"{sep}{_cell(me[p - 1], opp[24 - p]):>3}")
        return "".join(nums), "".join(cells)

    n1, c1 = row(top)
    n2, c2 = row(bottom)
    return [
        f"X = {mover} ({role}, own numbering), O = {opponent}",
        n1, c1, c2, n2,
        f"bar: X{me[24]} O{opp[24]}   off: X{borne_off(me)} O{borne_off(opp)}   "
        f"gnubg position ID (X on roll): {position_id(me, opp)}",
    ]
