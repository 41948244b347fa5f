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


# Match ID fields: (name, bits), packed from bit 0 upwards, little-endian, 9 bytes.
_MATCH_FIELDS = (("cube_log", 4), ("owner", 2), ("on_roll", 1), ("crawford", 1), ("state", 3), ("turn", 1),
                 ("doubled", 1), ("resigned", 2), ("die1", 3), ("die2", 3), ("length", 15), ("score0", 15),
                 ("score1", 15), ("jacoby", 1))


def match_id(*, cube: int = 1, owner: int | None = None, on_roll: int = 0, crawford: bool = False,
             state: int = 1, turn: int | None = None, doubled: bool = False, resigned: int = 0,
             dice: tuple[int, int] = (0, 0), length: int = 0, score: tuple[int, int] = (0, 0),
             jacoby: bool = True) -> str:
    """GNU Backgammon Match ID: 12 characters of base64 over 66 bits of match state, and a 67th bit for
    the Jacoby setting (gnubg sets it in match play too, where the rule does not apply).

    ``owner`` None = centred cube; ``on_roll`` and ``turn`` are players 0/1 (``turn`` = who decides now,
    default the player on roll); ``state`` 1 = playing; ``resigned`` 1-3 the level offered; ``dice`` (0, 0)
    when not rolled yet."""
    values = {"cube_log": max(cube, 1).bit_length() - 1, "owner": 3 if owner is None else owner,
              "on_roll": on_roll, "crawford": int(crawford), "state": state,
              "turn": on_roll if turn is None else turn, "doubled": int(doubled), "resigned": resigned,
              "die1": dice[0], "die2": dice[1], "length": length, "score0": score[0], "score1": score[1], "jacoby": int(jacoby)}
    key, shift = 0, 0
    for name, bits in _MATCH_FIELDS:
        key |= (values[name] & ((1 << bits) - 1)) << shift
        shift += bits
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def decode_match_id(mid: str) -> dict[str, int]:
    """The fields of a Match ID (for tests and messages)."""
    key = int.from_bytes(base64.b64decode(mid), "little")
    out, shift = {}, 0
    for name, bits in _MATCH_FIELDS:
        out[name] = (key >> shift) & ((1 << bits) - 1)
        shift += bits
    return out


def decode_position_id(pid: str) -> tuple[Side, Side] | None:
    """The inverse of :func:`position_id`: ``(mover, opponent)``, or None when ``pid`` is no Position ID
    (not 14 base64 characters, or more than 15 checkers a side)."""
    if len(pid) != 14:
        return None
    try:
        key = base64.b64decode(pid + "==", validate=True)
    except ValueError:
        return None
    bits = [(key[i // 8] >> (i % 8)) & 1 for i in range(80)]
    sides: list[list[int]] = [[], []]
    i = 0
    for side in sides:
        while len(side) < 25:
            n = 0
            while i < 80 and bits[i]:
                n += 1
                i += 1
            i += 1
            side.append(n)
    if any(sum(s) > 15 for s in sides):
        return None
    opponent, mover = sides
    return tuple(mover), tuple(opponent)
