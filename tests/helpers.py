"""Small builders shared by the tests."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
EXAMPLES = ROOT / "examples"


def side(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    """A side from {point: checkers} in its own numbering (25 or 'bar' via ``bar``)."""
    s = [0] * 25
    for p, n in points.items():
        s[24 if p == 25 else p - 1] += n
    s[24] += bar
    assert sum(s) <= 15, s
    return tuple(s)


def mirror(point: int) -> int:
    """The opponent's number for the mover's point (backgammon): 25 - p."""
    return 25 - point
