"""Series of games between two players (choosers), sides alternated and dice seeded, with Wilson intervals:
what the training log and bench/bench_evaluator.py measure."""
from __future__ import annotations

import math
import random

from ..shapes import dataclass
from ..engine import get_variant
from .play import Chooser, play_games


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` successes in ``n`` trials (95 % for z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


@dataclass
class Series:
    games: int = 0          # finished games
    wins: int = 0           # of the first player
    points: int = 0         # the first player's points, net
    unfinished: int = 0

    def wilson(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def play_series(variant: str, players: tuple[Chooser, Chooser], games: int, seed: int = 1,
                options: dict | None = None, step: int = 200) -> Series:
    """``games`` games of ``players[0]`` against ``players[1]``: in game g the first player takes side g % 2,
    and games 2k and 2k + 1 share their dice (``random.Random("SEED:k")``), the players swapped: luck
    cancels in each pair as far as the two players' plays keep the games alike.  ``step`` games are played
    at once, in step (:func:`play_games`: the net evaluates the positions of all of them in one call)."""
    rules = get_variant(variant, options).rules
    s = Series()
    swapped = (players[1], players[0])
    for g0 in range(0, games, step):
        block = range(g0, min(games, g0 + step))
        results = play_games(rules, [players if g % 2 == 0 else swapped for g in block],
                             [random.Random(f"{seed}:{g // 2}") for g in block])
        for g, res in zip(block, results):
            _count(s, res, g % 2)
    return s


def _count(s: Series, res, side: int) -> None:
    """Add the result of a game the first player played on ``side``."""
    if res.winner is None:
        s.unfinished += 1
        return
    s.games += 1
    won = res.winner == side
    s.wins += won
    s.points += res.points if won else -res.points
