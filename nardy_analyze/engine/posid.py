"""GNU Backgammon Position ID: 14 characters that identify a backgammon position, for pasting a
position from a finding into an analysis program (gnubg, and the programs that read its IDs).

The key is a bit string: for the player *not* on roll, then for the player on roll, each point 1..24
and the bar in that player's own numbering gives one 1-bit per checker followed by a 0-bit.  The
80 bits are packed little-endian into 10 bytes and written in base64 without padding.
"""
from __future__ import annotations

import base64

from .core import Side


def position_id(mover: Side, opponent: Side) -> str:
    """Position ID of the position with ``mover`` on roll (sides in their own numbering, bar at 24)."""
    bits: list[int] = []
    for side in (opponent, mover):
        for count in side:
            bits.extend([1] * count)
            bits.append(0)
    bits.extend([0] * (80 - len(bits)))
    key = bytearray(10)
    for i, bit in enumerate(bits[:80]):
        if bit:
            key[i // 8] |= 1 << (i % 8)
    return base64.b64encode(bytes(key)).decode("ascii")[:14]
