"""GNU Backgammon's analysis properties in SGF: what gnubg's ``save match`` writes after ``analyse match``.

The SGF writer (:mod:`nardy_analyze.notation.sgf`) appends them to a move or cube node when the caller
passes an analysis: a mapping from the record's cell (its ``(line, column)``) to a :class:`CheckerAnalysis`
or a :class:`CubeAnalysis`, plain data made by the job that evaluated the positions (``convert --analyse``).
Nothing here evaluates anything.

* a roll's node: ``A[i][move E ver 3 w wg wbg lg lbg equity 0C 0 1 0.000000 1]...`` (the candidate plays,
  best first, ``i`` the index of the play made; each with the five outcome probabilities and its cubeful
  equity, normalised, from the mover's view), ``LU[luck]`` (the roll's luck, normalised equity) and
  ``GW[1]``/``GB[2]`` (gnubg's luck marks: lucky above 0.3, very lucky above 0.6, for the player it was
  good for) and ``DA[...]`` when the roller had a cube decision before the roll;
* a double's node and the answer's node: ``DA[E ver 3 0C 1 0.000000 1`` then the no-double and the
  double/take outputs, seven numbers each: the five probabilities, the cubeless equity and the cubeful
  equity (in match play, match-winning chances, as gnubg keeps them)``]``.

gnubg computes its statistics (``show statistics match``) from these properties when it loads the file:
the game statistics property ``GS`` is not written.
"""
from __future__ import annotations

from typing import Callable, Sequence

from ..shapes import dataclass

__all__ = ["Candidate", "CheckerAnalysis", "CubeAnalysis", "properties"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One play of the list: its steps ``(src, dst)`` in the mover's numbering (25 bar, 0 off), the outcome
    probabilities (win, gammon win, backgammon win, gammon loss, backgammon loss) and its equity."""

    steps: tuple[tuple[int, int], ...]
    probs: tuple[float, float, float, float, float]
    equity: float


@dataclass(frozen=True, slots=True)
class CubeAnalysis:
    """The roller's cube decision: ``no_double`` and ``double_take`` are seven numbers each (five
    probabilities, cubeless equity, cubeful equity or match-winning chances), the roller's view."""

    no_double: tuple[float, ...]
    double_take: tuple[float, ...]
    plies: int = 0


@dataclass(frozen=True, slots=True)
class CheckerAnalysis:
    """A roll: the candidate plays (best first), the index of the play made, the roll's luck, and the cube
    decision before it (None when the cube was not the roller's to turn)."""

    candidates: Sequence[Candidate]
    played: int
    luck: float | None = None
    cube: CubeAnalysis | None = None
    plies: int = 0


def _context(plies: int, move: bool) -> str:
    """gnubg's evaluation context as it writes it: plies, cubeful, (move lists: prune), deterministic,
    noise, (cube: the move filter flag)."""
    return f"{plies}C 0 1 0.000000 1" if move else f"{plies}C 1 0.000000 1"


def _cube_text(c: CubeAnalysis) -> str:
    nums = " ".join(f"{x:.6f}" for x in (*c.no_double, *c.double_take))
    return f"DA[E ver 3 {_context(c.plies, False)} {nums}]"


def properties(entry: CheckerAnalysis | CubeAnalysis | None, player: int,
               letters: Callable[[Sequence, int], str]) -> str:
    """The properties to append to a node of ``player`` (0 = W, 1 = B); ``letters(steps, player)``: the
    writer's move letters.  "" without an analysis."""
    if entry is None:
        return ""
    if isinstance(entry, CubeAnalysis):
        return _cube_text(entry)
    out = _cube_text(entry.cube) if entry.cube is not None else ""
    if entry.candidates:
        out += f"A[{entry.played}]" + "".join(
            f"[{letters(c.steps, player)} E ver 3 " + " ".join(f"{p:.6f}" for p in c.probs) +
            f" {c.equity:.6f} {_context(entry.plies, True)}]" for c in entry.candidates)
    if entry.luck is not None:
        out += f"LU[{entry.luck:.5f}]" + _luck_mark(entry.luck, player)
    return out


LUCKY, VERY_LUCKY = 0.3, 0.6      # gnubg's luck marks: a roll's luck above 0.3 is lucky, above 0.6 very lucky


def _luck_mark(luck: float, player: int) -> str:
    """gnubg's luck mark: ``GW[1]`` (good for White: W lucky or B unlucky), ``GB[2]`` (very good for
    Black), ..."""
    size = 2 if abs(luck) > VERY_LUCKY else 1 if abs(luck) > LUCKY else 0
    if not size:
        return ""
    good_for = player if luck > 0 else 1 - player
    return f"G{'WB'[good_for]}[{size}]"
