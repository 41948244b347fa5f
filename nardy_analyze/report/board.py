"""Text diagrams of a position, for ``--explain``."""
from __future__ import annotations

from ..engine import borne_off, get_variant
from ..engine.core import Pos
from ..engine.posid import position_id
from ..i18n import _


def _cell(me: int, opp: int) -> str:
    if me:
        return f"X{me}"
    if opp:
        return f"O{opp}"
    return " ."


def diagram(pos: Pos, mover: str = "X", opponent: str = "O", role: str | None = None,
            variant: str = "backgammon") -> list[str]:
    """The board from the first side's view: its checkers X, the other side's O, points in X's numbering.

    Each point shows the opponent's checkers standing there whatever the variant's geometry (the rules
    object's ``opp_point``: 25 - p in backgammon, ((p + 11) mod 24) + 1 in long nardy and Gul bara, where
    both sides move the same way round the board: ``same_direction``).  The bar where the variant has one,
    the GNU Backgammon Position ID where it describes the variant's positions.  ``role``: the mover's
    role in the legend (default "to play", in the current language).
    """
    if role is None:
        # TRANSLATORS: the role of the player on roll in a board's legend ("X = Anna (to play, own numbering)")
        role = _("to play")
    rules = get_variant(variant).rules
    me, opp = pos
    top = range(13, 25)
    bottom = range(12, 0, -1)

    def row(points) -> tuple[str, str]:
        nums, cells = [], []
        for i, p in enumerate(points):
            sep = "  |" if i == 6 else ""
            nums.append(f"{sep}{p:>4}")
            cells.append(f"{sep}{_cell(me[p - 1], opp[rules.opp_point(p) - 1]):>4}")
        return "".join(nums), "".join(cells)

    n1, c1 = row(top)
    n2, c2 = row(bottom)
    # TRANSLATORS: the board's legend: X and O are the checkers' letters on the board; {role}: "to play"...
    head = _("X = {mover} ({role}, own numbering), O = {opponent}").format(mover=mover, role=role,
                                                                           opponent=opponent)
    if rules.same_direction:
        # TRANSLATORS: the legend of a long nardy board; {point}: the point of X's numbering where O's head is
        head += _("; both move 24 -> 1 in their own numbering, so O runs the same way round (O's head, its 24, "
                  "is X's {point})").format(point=rules.opp_point(24))
    # TRANSLATORS: the checkers on the bar: X's count, then O's
    tail = [_("bar: X{mine} O{theirs}").format(mine=me[24], theirs=opp[24])] if rules.has_bar else []
    # TRANSLATORS: the checkers borne off: X's count, then O's
    tail.append(_("off: X{mine} O{theirs}").format(mine=borne_off(me), theirs=borne_off(opp)))
    if rules.position_id:
        tail.append(_("gnubg position ID (X on roll): {id}").format(id=position_id(me, opp)))
    return [head, n1, c1, c2, n2, "   ".join(tail)]
