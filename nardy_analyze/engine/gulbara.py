"""Gul bara (docs/rules.md, "Gul bara"): long nardy with home freeze, exact bear-off, handovers and doubles chains.

The single-step rules differ from long nardy only by two switches (``home_freeze``, ``exact_bear_off``);
the turn logic lives in :class:`GulBaraTurn`, the variant's turn driver (see ``core.TurnDriver``).
"""
from __future__ import annotations

from .core import CHECKERS, OPPONENT, ROLLER, Dice, SegmentSpec, Side, borne_off, remaining
from .long import HEAD, LongNardy
from ..i18n import _


class GulBara(LongNardy):
    name = "gulbara"
    title = "Gul bara"
    aliases = ("gul-bara", "gul_bara")
    has_chains = True
    has_handovers = True
    OPTIONS = {
        **LongNardy.OPTIONS,
        "chain_from_turn": (1, ()),                   # the roll of the game chains start at
    }
    OWN_RULES = (*LongNardy.OWN_RULES, "home-move", "doubles-chain", "handover")
    home_freeze = True
    exact_bear_off = True
    one_part_turns = False       # chains and handovers: GulBaraTurn
    # the compiled batch: every roll whose parts (roll, chain doubles, handovers) are legal, GulBaraTurn's driver
    # in C (without an observer; with one, a plain roll played with both numbers: played_roll_ends_turn)
    batch_turns = "parts"

    def __init__(self, head_exception: str = "standard", koks: bool = False, chain_from_turn: int = 1,
                 home_mars: int | None = None) -> None:
        super().__init__(head_exception, koks, home_mars)
        if not isinstance(chain_from_turn, int) or chain_from_turn < 1:
            raise ValueError(_("chain_from_turn takes a whole number from 1, not {value}").format(
                value=repr(chain_from_turn)))
        self.chain_from_turn = chain_from_turn

    @classmethod
    def build_args(cls, opts) -> dict:
        return {**super().build_args(opts),
                "chain_from_turn": opts.get("chain_from_turn", cls.OPTIONS["chain_from_turn"][0]) or 1}

    def __repr__(self) -> str:
        return (f"GulBara(head_exception={self.head_exception!r}, koks={self.koks}, "
                f"chain_from_turn={self.chain_from_turn}, home_mars={self.home_mars})")

    def turn_segments(self, d1: int, d2: int, first_turn: bool, roll_number: int = 1) -> "GulBaraTurn":
        """The driver of one roll: ``roll_number`` is the 1-based count of rolls in the game, this one
        included (option ``chain_from_turn``: a double starts a chain from that roll on)."""
        return GulBaraTurn(self, d1, d2, first_turn, roll_number)

    def played_roll_ends_turn(self, d1: int, d2: int, roll_number: int) -> bool:
        """A plain roll played with both numbers leaves nothing to hand over and starts no chain: the turn
        is the roller's play, and its driver's first part is a plain roll's (``double`` None).  A double
        never is (a chain may follow, and its parts carry the double)."""
        return d1 != d2

    def part_driver(self, kind: str, numbers: tuple[int, ...], roller: Side, chain_turn=None,
                    double: int | None = None, roll_number: int = 1) -> "GulBaraTurn":
        """The driver of a roll standing at its later part ``kind`` (``chain``: the roller plays the double
        ``numbers[0]`` four times; ``handover``: the roller's opponent plays ``numbers``), that part pending
        once ``next`` is asked.  ``roller``: the roller's side now; ``chain_turn``: the roller's head state
        for the chain, (checkers taken from the head this roll, allowed; default (0, 1)); ``double``: for a
        handover, the double whose numbers were handed over (None: the roll was not a double), the chain
        then going on from the next double when roll ``roll_number`` starts chains."""
        taken, allowed = chain_turn if chain_turn is not None else (0, 1)
        if kind == "chain":
            double = numbers[0]
        drv = GulBaraTurn(self, double or 1, double or 2, False, roll_number if kind == "handover" else
                          max(roll_number, self.chain_from_turn))
        drv.phase = kind
        drv.double = double
        drv.rest = tuple(numbers) if kind == "handover" else ()
        drv.head0, drv.allowed = roller[HEAD - 1] + taken, allowed
        return drv

    def handover_turn(self) -> tuple[int, int]:
        """The turn state of an opponent's handover play: one checker may leave the head, never two."""
        return 0, 1


class GulBaraTurn:
    """Turn logic of Gul bara's rules 1-2 (docs/rules.md) for one roll.

    1. ``roll``: the roller plays the roll (four numbers for a double).
    2. ``handover``: numbers the roller could not use go to the opponent (fresh head allowance of one,
       no first-turn exception).  Numbers the opponent cannot use either are lost.
    3. ``chain``: after a double (from roll ``chain_from_turn`` on), the roller plays every higher double
       up to 6-6, four numbers each, each followed by its handover when needed.  The whole chain is one
       turn for the roller's head rule: the allowance of the roll holds across the chain.
    """

    __slots__ = ("rules", "dice", "first_turn", "chain", "phase", "double", "rest", "pending", "head0",
                 "allowed")

    def __init__(self, rules: GulBara, d1: int, d2: int, first_turn: bool, roll_number: int) -> None:
        self.rules = rules
        self.dice = (d1, d2)
        self.first_turn = first_turn
        self.chain = d1 == d2 and roll_number >= rules.chain_from_turn
        self.phase = "roll"
        self.double: int | None = d1 if d1 == d2 else None
        self.rest: tuple[int, ...] = ()
        self.pending: SegmentSpec | None = None
        self.head0 = 0
        self.allowed = 1

    def next(self, roller: Side, other: Side) -> SegmentSpec | None:
        if self.pending is not None:
            raise RuntimeError("GulBaraTurn.next called twice without played()")
        if self.phase == "done" or borne_off(roller) == CHECKERS or borne_off(other) == CHECKERS:
            return None
        if self.phase == "roll":
            turn = self.rules.start_turn(roller, other, self.first_turn, self.dice)
            self.head0, self.allowed = roller[HEAD - 1], turn[1]
            spec = SegmentSpec("roll", ROLLER, Dice.roll(*self.dice).numbers, turn, self.double)
        elif self.phase == "handover":
            spec = SegmentSpec("handover", OPPONENT, self.rest, self.rules.handover_turn(), self.double)
        else:   # chain
            turn = (self.head0 - roller[HEAD - 1], self.allowed)
            spec = SegmentSpec("chain", ROLLER, (self.double,) * 4, turn, self.double)
        self.pending = spec
        return spec

    def played(self, used: tuple[int, ...]) -> None:
        """Report the numbers the segment just asked for used (any order)."""
        spec, self.pending = self.pending, None
        if spec is None:
            raise RuntimeError("GulBaraTurn.played called without next()")
        if spec.player == ROLLER:
            rest = remaining(spec.numbers, tuple(used))
            if rest:
                self.phase, self.rest = "handover", rest
                return
        if self.chain and self.double is not None and self.double < 6:
            self.double += 1
            self.phase = "chain"
        else:
            self.phase = "done"

