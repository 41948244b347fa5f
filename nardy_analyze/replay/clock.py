"""The clock of one game under replay: the time control (``time-limit``) and who ran out of time.

The game replay (:mod:`nardy_analyze.replay`) calls :meth:`Clock.check` before each action when
:attr:`Clock.checks` is true, and :meth:`Clock.run_out` on a timeout; the clock reports through the
``find`` callback it is given (the game's finding channel).  Scoring a timeout (as a resignation) is
the results' business, not the clock's: the clock only says whose time ran out.
"""
from __future__ import annotations

from typing import Callable

from ..engine import Variant
from ..record import Action, Kind


class Clock:
    """The time control of one game: ``limit`` seconds per move (None: no time control)."""

    __slots__ = ("limit", "checks", "timed_out", "_find", "_name")

    def __init__(self, variant: Variant, find: Callable[..., None], name: Callable[[int], str]):
        self.limit: float | None = variant.get("time_limit")
        self.checks = bool(self.limit)       # whether check() has anything to check
        self.timed_out: int | None = None    # the side whose time ran out
        self._find, self._name = find, name

    def check(self, a: Action, nxt: Action | None) -> None:
        """``time-limit``: an action that took longer than the time control allows, unless the record
        declares that player's timeout right there (the timeout itself, or the action just before it)."""
        limit = self.limit
        if not limit or a.clock is None or a.clock <= limit or a.kind == Kind.TIMEOUT:
            return
        if nxt is not None and nxt.kind == Kind.TIMEOUT and nxt.player == a.player:
            return
        self._find("time-limit", f"{self._name(a.player)} took {a.clock:g} s over this move; the time control "
                   f"allows {limit:g} s per move and no timeout is declared", a)

    def run_out(self, a: Action) -> None:
        """``a`` is a timeout: its player's time ran out."""
        self.timed_out = a.player
