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


def unfinished_match(f) -> bool:
    """The warning for a match record that ends, every game complete, before anyone reaches the match
    length (tests/test_consistency.py tests it)."""
    return f.rule == "match-score" and f.severity == "warning" and "before either player reaches" in f.message


def without_unfinished_match(rep):
    """``rep`` without that warning: for tests of other rules on short hand-written excerpts of matches."""
    rep.findings = [f for f in rep.findings if not unfinished_match(f)]
    return rep
