"""Walk a .mat record through the rules engine, roll by roll: the position before every roll.

Used by the differential tests (against gnubg-nn and the gnubg binary) and the mutation tests.  The
walk re-reads the record itself (``mat.read``) and applies each roll with
``nardy_analyze.engine.judge.judge``, whose ``.after`` is the position after the play as written;
the library's replayer is not involved, so its bookkeeping (cube, results) cannot hide here.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from nardy_analyze.engine.core import Dice
from nardy_analyze.engine import get_variant
from nardy_analyze.engine.core import Side
from nardy_analyze.engine.judge import Verdict, judge
from nardy_analyze.notation import mat
from nardy_analyze.record import Action, Kind, Match

RULES = get_variant("backgammon").rules


@dataclass(frozen=True)
class Roll:
    """One played roll of a record, with the position before it (both sides in their own numbering)."""

    game: int                 # 1-based order of the game in the file
    index: int                # index of the action in ``game.actions``
    action: Action
    mover: Side
    opponent: Side
    d1: int                   # the higher die
    d2: int                   # the lower die
    verdict: Verdict

    @property
    def steps(self) -> list[tuple[int, int]]:
        return [(s.src, s.dst) for s in self.action.steps]

    @property
    def key(self) -> bytes:
        """A compact identity of (mover, opponent, dice)."""
        return bytes(self.mover) + bytes(self.opponent) + bytes((self.d1, self.d2))


def read_match(path: str | Path) -> Match:
    path = Path(path)
    return mat.read(mat.decode(path.read_bytes()), str(path))


def rolls(match: Match) -> Iterator[Roll]:
    """Every roll with dice 1-6 that was played (not ``????``), in record order, game by game.

    A game's walk stops when a side has borne off all its checkers (what follows is not a play).
    """
    for game in match.games:
        pos = list(RULES.initial())
        for i, a in enumerate(game.actions):
            if a.kind is not Kind.ROLL or a.unplayed or a.dice is None:
                continue
            if not all(1 <= d <= 6 for d in a.dice):
                continue
            p = a.player
            me, opp = pos[p], pos[1 - p]
            d1, d2 = max(a.dice), min(a.dice)
            v = judge(RULES, me, opp, Dice.roll(d1, d2), [(s.src, s.dst) for s in a.steps])
            yield Roll(game.number, i, a, me, opp, d1, d2, v)
            pos[p], pos[1 - p] = v.after
            if sum(v.after[0]) == 0:
                break


def file_rolls(paths: Iterable[str | Path]) -> Iterator[tuple[Path, Roll]]:
    for path in paths:
        for r in rolls(read_match(path)):
            yield Path(path), r


def gnubg_nn_results(gnubg_nn, mover: Side, opponent: Side, d1: int, d2: int) -> set:
    """The positions gnubg-nn's move generator reaches, as ``(mover_after, opponent_after)``.

    gnubg's board is ``[opponent, mover]`` (index p-1 for point p, 24 for the bar); the keys it
    returns decode to the same order.  The unchanged position when nothing can be played.
    """
    out = set()
    for k in gnubg_nn.moves([list(opponent), list(mover)], d1, d2, 0):
        opp, me = gnubg_nn.boardfromkey(k)
        out.add((tuple(me), tuple(opp)))
    return out or {(tuple(mover), tuple(opponent))}
