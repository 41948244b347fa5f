"""The clock of one game under replay: the time control (``time-limit``) and who ran out of time.

The game replay (:mod:`nardy_analyze.replay`) calls :meth:`Clock.check` before each action when
:attr:`Clock.checks` is true, and :meth:`Clock.run_out` on a timeout; the clock reports through the game
state it is given (``st.find``, ``st.name``: :class:`.state.GameState`) and keeps no reference to it.  Scoring a timeout (as a resignation) is
the results' business, not the clock's: the clock only says whose time ran out.

Two time controls, each optional (docs/rules.md, "The clock"):

* ``time_limit``: seconds per move (nardy apps' two minutes): an action whose clock time is longer;
* a **running clock** (options ``clock``, ``increment``, ``clock_per``; ``TimeControl "840+8"``): each
  player's clock starts at ``clock`` seconds, loses the time of each of the player's actions (``Action.clock``,
  or, when no time taken is written, what the clock after the action, ``Action.clock_left``, implies) and gains ``increment`` seconds after
  each of the player's moves (rolls).  A Gul bara handover counts against the player who plays it (its own
  clock times); a doubles chain is the roller's move.  The first action after which a clock is below zero
  is one ``time-limit`` finding (one per player and clock: the game's, or the match's with
  ``clock_per=match``), unless the record declares that player's timeout there; a timeout declared while
  the player's clock (as the record's times give it) still has time left is a ``time-limit`` finding too.
"""
from __future__ import annotations

from ..engine import Variant
from ..i18n import _
from ..record import Action, Kind


def clock_text(seconds: float) -> str:
    """``813`` -> ``13:33``; ``-5`` -> ``-0:05``; fractions kept (``0:07.5``)."""
    sign = "-" if seconds < 0 else ""
    x = abs(seconds)
    m, s = divmod(x, 60)
    sec = f"{int(s):02d}" if s == int(s) else f"{s:04.1f}"
    return f"{sign}{int(m)}:{sec}"


class RunningClock:
    """Both players' clocks of a running time control, kept over one game or one match (``clock_per``)."""

    __slots__ = ("start", "increment", "left", "fallen", "timed")

    def __init__(self, start: float, increment: float) -> None:
        self.start, self.increment = start, increment
        self.left = [float(start), float(start)]    # seconds on each clock now
        self.fallen = [False, False]                # the clock went below zero (reported once)
        self.timed = [False, False]                 # the record gave the player's times (the clock is known)

    @classmethod
    def of(cls, variant: Variant) -> "RunningClock | None":
        start = variant.get("clock")
        if start is None:
            return None
        return cls(start, variant.get("increment") or 0)

    @property
    def control(self) -> str:
        return f"{self.start:g}+{self.increment:g}"

    @staticmethod
    def per_match(variant: Variant, match_length: int) -> bool:
        """Whether the clocks run over the whole match (``clock_per``: ``auto`` = a match record's)."""
        per = variant.get("clock_per", "auto")
        return per == "match" or (per == "auto" and match_length > 0)


class Clock:
    """The time control of one game: ``limit`` seconds per move (None: no time control) and the running
    clock (:class:`RunningClock`, None: none)."""

    __slots__ = ("limit", "checks", "timed_out", "running")

    def __init__(self, variant: Variant):
        values = variant.values           # (RunningClock.of's question first: nearly every variant has no clock)
        self.limit: float | None = values.get("time_limit")
        self.running: RunningClock | None = RunningClock.of(variant) if values.get("clock") is not None else None
        self.checks = bool(self.limit) or self.running is not None   # whether check() has anything to check
        self.timed_out: int | None = None    # the side whose time ran out

    def attach(self, running: RunningClock | None) -> None:
        """Run this game on ``running`` (the match's clocks, ``clock_per=match``) instead of its own."""
        if running is not None:
            self.running = running
            self.checks = True

    def check(self, st, a: Action, nxt: Action | None) -> None:
        """``time-limit``: an action that took longer than the time control allows, unless the record
        declares that player's timeout right there (the timeout itself, or the action just before it)."""
        if self.running is not None:
            self.run(st, a, nxt)
        limit = self.limit
        if not limit or a.clock is None or a.clock <= limit or a.kind == Kind.TIMEOUT:
            return
        if nxt is not None and nxt.kind == Kind.TIMEOUT and nxt.player == a.player:
            return
        # TRANSLATORS: {took}, {limit}: seconds
        st.find("time-limit", _("{player} took {took} s over this move; the time control allows {limit} s per "
                                "move and no timeout is declared").format(
            player=st.name(a.player), took=f"{a.clock:g}", limit=f"{limit:g}"), a)

    def run_out(self, a: Action) -> None:
        """``a`` is a timeout: its player's time ran out."""
        self.timed_out = a.player

    # -- the running clock ----------------------------------------------------------------------------
    def run(self, st, a: Action, nxt: Action | None) -> None:
        r = self.running
        p = a.player
        move = a.kind == Kind.ROLL
        timeout_next = nxt is not None and nxt.kind == Kind.TIMEOUT and nxt.player == p
        self._spend(st, a, p, a.clock, a.clock_left, r.increment if move else 0,
                    excused=a.kind == Kind.TIMEOUT or timeout_next)
        for seg in a.segments:          # a handover: the time of the player who plays it, no increment
            if seg.clock is not None or seg.clock_left is not None:
                self._spend(st, a, seg.player, seg.clock, seg.clock_left, 0, excused=False, side=seg.player)
        if a.kind == Kind.TIMEOUT:
            left = r.left[p]
            if r.timed[p] and not r.fallen[p] and left > 0:
                # TRANSLATORS: {left}: the time on the clock, "1:05"; {control}: the time control, "840+8"
                st.find("time-limit", _("{player} declares a timeout with {left} left on the clock (time control "
                                        "{control}, as the record's times give it)").format(
                    player=st.name(p), left=clock_text(left), control=r.control), a)
            r.fallen[p] = True

    def _spend(self, st, a: Action, p: int, took: float | None, left_after: float | None, inc: float,
               excused: bool, side: int | None = None) -> None:
        r = self.running
        if took is None and left_after is None:
            return                       # no time written: the action took none on the clock
        r.timed[p] = True
        before = r.left[p]
        if took is not None:             # the time taken counts; the clock shown after it is then a note
            after = before - took
        else:                            # the clock shown includes the increment of this move
            after = left_after - inc
            took = before - after
        if after < 0 and not r.fallen[p]:
            r.fallen[p] = True
            if not excused:
                st.find("time-limit", _("{player}'s clock falls below zero on this move: {left} left before it, "
                                        "{took} taken (time control {control}) and no timeout is "
                                        "declared").format(player=st.name(p), left=clock_text(before),
                                                           took=clock_text(took), control=r.control),
                        a, side=side)
        r.left[p] = after + inc
