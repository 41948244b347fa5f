"""Find the Lark grammars: ``grammars/*.lark`` in a source checkout, ``nardy_analyze/grammars`` once installed."""
from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path


@cache
def grammar_text(name: str) -> str:
    """The text of ``grammars/<name>.lark``."""
    fname = f"{name}.lark"
    try:
        res = resources.files("nardy_analyze.grammars") / fname
        if res.is_file():
            return res.read_text(encoding="utf-8")
    except ModuleNotFoundError:
        pass
    return (Path(__file__).resolve().parents[2] / "grammars" / fname).read_text(encoding="utf-8")


def error_place(e, line: str) -> tuple[int, set[str]]:
    """Where a Lark parse error of the one-line text ``line`` is (1-based column) and the terminals that
    were expected there.  An error at the end of the line (or of the text) points just past its last
    non-blank character."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken   # Lark only once a parse failed (start-up)

    end_col = len(line.rstrip()) + 1
    col = getattr(e, "column", None)
    if isinstance(e, UnexpectedCharacters):
        expected = set(e.allowed or ())
    elif isinstance(e, UnexpectedToken):
        expected = set(e.expected or ())
        if e.token.type in ("$END", "_NL"):
            col = end_col
    else:                                # UnexpectedEOF
        expected = set(getattr(e, "expected", ()) or ())
        col = end_col
    if not isinstance(col, int) or col < 1:
        col = end_col
    return col, expected
