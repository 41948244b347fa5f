"""Scorings: how a game's result counts, as a strategy object a variant picks by its ``scoring`` option
(``Rules.SCORINGS``: the option's value -> the strategy; backgammon: ``points`` and ``nardy500``).

A scoring answers the game-level questions of the replay for the variant's options ``opt(key)``: whether
the cube is used, the stake of a game won at a level, what a resignation or a dropped double may give, the
result's name in messages, and which options it implies where the caller set none (``implied``).  A new
scoring is one more subclass and one more entry in the variant's ``SCORINGS``: no method of the variant
tests the option's value.
"""
from __future__ import annotations

from typing import Any, Callable

from ..i18n import N_, _

Opt = Callable[[str], Any]


class Scoring:
    """Points: level x cube (the Jacoby rule, where the variant has it, counts a gammon single while the cube
    was never turned); a dropped double gives the cube's value before the double."""

    name = "points"
    implied: dict[str, Any] = {}      # options set by this scoring unless given (the caller's win)
    # the result of a game won at each level, for messages ("a gammon at cube 2 gives 4")
    # TRANSLATORS: the result of a game won at the lowest level (used as "a single game at cube 2")
    LEVEL_NAMES: tuple[str, ...] = (N_("a single game"), N_("a gammon"), N_("a backgammon"))

    def cube_in_play(self, opt: Opt) -> bool:
        return bool(opt("cube"))

    def level_name(self, level: int) -> str:
        return _(self.LEVEL_NAMES[level - 1])

    def stake(self, level: int, cube: int, cube_turned: bool, opt: Opt) -> int:
        if opt("jacoby") and not cube_turned:
            level = 1
        return cube * level

    def resign_stakes(self, top: int, cube: int, cube_turned: bool, opt: Opt) -> dict[int, int]:
        return {self.stake(k, cube, cube_turned, opt): k for k in range(1, top + 1)}

    def drop_stake(self, cube: int, cube_turned: bool, opt: Opt) -> int:
        return cube


class Nardy500(Scoring):
    """The nardy apps' short nardy: 500, 1000, 1500 points a game, no cube, two minutes a move (docs/rules.md,
    Backgammon, 7. Scoring); a resignation or a timeout always 500 (seed 003); a drop written anyway ends the
    game as a resignation would (500)."""

    name = "nardy500"
    implied = {"cube": False, "time_limit": 120}
    LEVEL_NAMES = (N_("a single win"), N_("a mars"), N_("a koks"))

    def cube_in_play(self, opt: Opt) -> bool:
        return False

    def stake(self, level: int, cube: int, cube_turned: bool, opt: Opt) -> int:
        return 500 * level

    def resign_stakes(self, top: int, cube: int, cube_turned: bool, opt: Opt) -> dict[int, int]:
        return {500: 1}

    def drop_stake(self, cube: int, cube_turned: bool, opt: Opt) -> int:
        return 500


POINTS = Scoring()
NARDY500 = Nardy500()
