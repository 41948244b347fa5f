"""Find the Lark grammars: ``grammars/*.lark`` in a source checkout, ``nardy_analyze/grammars`` once installed."""
from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def grammar_text(name: str) -> str:
    """The text of ``grammars/<name>.lark``: the package's ``grammars`` folder once installed, the checkout's
    top-level one in a source tree.  (Files beside the modules, read as files: the package has a compiled part
    and is never imported from a zip; ``importlib.resources`` would add 5 ms to every command's start.)"""
    fname = f"{name}.lark"
    package = Path(__file__).resolve().parents[1]
    for folder in (package / "grammars", package.parent / "grammars"):
        if (folder / fname).is_file():
            return (folder / fname).read_text(encoding="utf-8")
    raise FileNotFoundError(f"the grammar {fname} is neither in {package / 'grammars'} nor in "
                            f"{package.parent / 'grammars'}")


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
