"""A test-only variant built on ``engine.Rules`` itself (no built-in variant under it): the parallel race.

Each side runs its fifteen checkers home from points 7-10 in opposite directions, as in backgammon, but the
two sides never meet: no point is ever closed, nothing is hit, there is no bar.  A checker bears off once
every checker of its side is home (points 1-6), with the number of its point or, from the highest point, a
larger one.  A game is won single when the loser has borne a checker off, a lurch when none, a sweep when
none and a checker still outside home.

Everything it is, it declares here, on the class (name, levels, their names and stats columns, what it has);
``register(Race)`` makes it known to every command.  It touches no file of the package:
tests/test_extensions.py shows it through the commands, tests/test_layers.py that it imports only the
package's public names.
"""
from __future__ import annotations

from nardy_analyze.engine import OFF, RuleResult, Rules, borne_off

START = tuple({10: 4, 9: 4, 8: 4, 7: 3}.get(p, 0) for p in range(1, 25)) + (0,)


def _home(me) -> bool:
    return not any(me[6:25])


class Race(Rules):
    name = "race"
    title = "parallel race"
    aliases = ("parallel-race", "prace")
    LEVEL_KINDS = {1: "single", 2: "lurch", 3: "sweep"}
    LEVEL_NAMES = {1: "a single race", 2: "a lurch", 3: "a sweep"}
    LEVEL_COLUMNS = {2: "lurches", 3: "sweeps"}

    def initial(self):
        return START, START

    def closed(self, opp, point: int) -> bool:
        return False                      # the sides never meet

    def single_steps(self, me, opp, die: int, turn=None):
        for src in range(24, 0, -1):
            if not me[src - 1]:
                continue
            if src - die >= 1:
                yield src, src - die
            elif _home(me) and (src == die or not any(me[src:6])):
                yield src, OFF

    def apply(self, me, opp, src: int, dst: int):
        m = list(me)
        m[src - 1] -= 1
        if dst != OFF:
            m[dst - 1] += 1
        return tuple(m), opp, False

    def step_problem(self, me, opp, src: int, dst: int, die: int, turn=None):
        if not 1 <= src <= 24 or not me[src - 1]:
            return RuleResult("no-checker", "point", {"point": src})
        if dst == OFF and not _home(me):
            return RuleResult("bear-off-early", "outside", {"point": src, "n": sum(me[6:25])})
        if dst == OFF and die > src and any(me[src:6]):
            higher = max(p for p in range(src + 1, 7) if me[p - 1])
            return RuleResult("bear-off-inexact", "higher", {"die": die, "point": src, "higher": higher})
        return None

    def win_level(self, winner, loser) -> int:
        if borne_off(loser):
            return 1
        return 3 if any(loser[6:25]) else 2

    def max_level(self, winner, loser) -> int:
        return self.win_level(winner, loser)
