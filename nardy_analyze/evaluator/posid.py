"""The position id of long nardy and Gul bara: a compact, printable key of a position between turns.

``LN-`` (long nardy) or ``GB-`` (Gul bara) and 16 characters of URL-safe base64 over 12 bytes:

* byte 0: bit 0 the player on roll (0: the first player of the record, White; 1: the second, Black);
  the other bits are 0;
* byte 1: how many rolls the game has had before this one (0-255, 255 standing for "255 or more"): it
  tells whether the player on roll (fewer than 2) or the opponent (0) still has the first turn, which the
  head rule's first-turn exception needs, and Gul bara's ``chain_from_turn`` (this roll is number
  ``rolls + 1``);
* bytes 2-11: 80 bits, least significant bit first: for the player on roll, then the opponent, each point
  1..24 in that player's own numbering gives one 1-bit per checker followed by a 0-bit (GNU Backgammon's
  packing, without the bar: the long games have none); the rest is 0.  Borne-off checkers are
  15 minus those on the board.

Nothing else is needed between turns: the head rule counts within a turn and Gul bara's chains and
handovers happen inside one roll, so a position with the player on roll and the roll count is whole.
See docs/evaluator.md ("Position id").
"""
from __future__ import annotations

import base64
import binascii

from ..shapes import dataclass
from ..engine import CHECKERS, Side
from ..i18n import _

PREFIXES = {"LN": "long", "GB": "gulbara"}     # prefix -> the engine's name of the variant
_PREFIX_OF = {v: k for k, v in PREFIXES.items()}


class PositionIdError(ValueError):
    """A position id that does not decode (the message says why)."""


@dataclass(frozen=True)
class NardyPosition:
    """A long nardy or Gul bara position between turns: ``mover`` on roll, both sides in their own
    numbering (25-tuples, the bar index 24 always 0)."""

    variant: str          # the engine's name: long or gulbara
    mover: Side
    opponent: Side
    player: int = 0       # who is on roll: 0 the first player (White), 1 the second (Black)
    rolls: int = 2        # rolls the game has had before this one (capped at 255)

    @property
    def mover_first_turn(self) -> bool:
        return self.rolls < 2

    @property
    def opponent_first_turn(self) -> bool:
        return self.rolls < 1


def check_sides(mover: Side, opponent: Side) -> None:
    """Raise :class:`PositionIdError` unless the two sides make a long-game position: 25 counts each,
    none negative, at most 15 checkers a side, the bar empty, no point held by both."""
    for side in (mover, opponent):
        if len(side) != 25 or any((not isinstance(n, int)) or n < 0 for n in side):
            raise PositionIdError(_("a side takes 24 point counts of 0 or more"))
        if side[24]:
            raise PositionIdError(_("the long games have no bar"))
        if sum(side) > CHECKERS:
            raise PositionIdError(_("a side has more than 15 checkers"))
    for p in range(1, 25):
        if mover[p - 1] and opponent[(p + 11) % 24]:
            raise PositionIdError(_("both players have checkers on the mover's point {point}").format(point=p))


def encode(pos: NardyPosition) -> str:
    """The position id of ``pos``."""
    if pos.variant not in _PREFIX_OF:
        raise PositionIdError(_("position ids of this kind describe long nardy and Gul bara positions only"))
    check_sides(pos.mover, pos.opponent)
    bits: list[int] = []
    for side in (pos.mover, pos.opponent):
        for count in side[:24]:
            bits.extend([1] * count)
            bits.append(0)
    key = bytearray(12)
    key[0] = pos.player & 1
    key[1] = max(0, min(255, pos.rolls))
    for i, bit in enumerate(bits):
        if bit:
            key[2 + i // 8] |= 1 << (i % 8)
    return _PREFIX_OF[pos.variant] + "-" + base64.urlsafe_b64encode(bytes(key)).decode("ascii")


def decode(text: str) -> NardyPosition:
    """The position of a position id; :class:`PositionIdError` when ``text`` is not one."""
    text = text.strip()
    prefix, dash, body = text.partition("-")
    if not dash or prefix.upper() not in PREFIXES or len(body) != 16:
        raise PositionIdError(_("not a long nardy or Gul bara position id (LN- or GB- and 16 characters): "
                                "{text}").format(text=text[:40]))
    try:
        key = base64.urlsafe_b64decode(body.encode("ascii"))
    except (binascii.Error, ValueError, UnicodeEncodeError):
        raise PositionIdError(_("the position id {text} is not base64").format(text=text[:40])) from None
    if key[0] > 1:
        raise PositionIdError(_("the position id {text} has unknown flags").format(text=text))
    sides: list[list[int]] = [[], []]
    bit = 0
    for s in (0, 1):
        for _p in range(24):
            n = 0
            while bit < 80 and key[2 + bit // 8] >> (bit % 8) & 1:
                n += 1
                bit += 1
            if bit >= 80:
                raise PositionIdError(_("the position id {text} is cut short").format(text=text))
            bit += 1
            sides[s].append(n)
    if any(key[2 + i // 8] >> (i % 8) & 1 for i in range(bit, 80)):
        raise PositionIdError(_("the position id {text} has bits past its position").format(text=text))
    mover = tuple(sides[0]) + (0,)
    opponent = tuple(sides[1]) + (0,)
    check_sides(mover, opponent)
    return NardyPosition(PREFIXES[prefix.upper()], mover, opponent, key[0] & 1, key[1])
