"""The sniffs of the built-in notations that a file of another notation must pass through: each decides from
the start of a text whether it is a record of its notation, without the notation's module (its parser, and
Lark with it).  ``notation.sniff`` asks them for a file whose suffix does not say (``.txt``), and each
notation's module registers the same function: one definition of each sniff.  (The ``.mat`` reader's loose
sniff stays in its module, which reads such a file anyway.)"""
from __future__ import annotations

import re

from .. import PURE

# .ngn: a line that starts with a tag, a numbered move or "Game N players|ratings|score": the first line
# (match), or a line after a line end (search: a pattern that starts with "\n" is scanned for it, much
# faster than "^" in MULTILINE mode)
_NGN_LINE = r'[ \t]*(?:\[[^\]"\n]+"|[0-9]{1,6}\.(?:\.\.)?[ \t]+(?:[0-9]{2}|\?\?):|(?i:game)[ \t]+[0-9]+[ \t]+' \
            r'(?i:players|ratings|score)\b)'
_NGN_FIRST = re.compile(_NGN_LINE)
_NGN_NEXT = re.compile("\n" + _NGN_LINE)
_SGF_GAME = re.compile(r"GM\s*\[\s*6\s*\]")

JSON_FORMAT = "nardy-analyze-match"     # the "format" of the project's JSON notation


def looks_like_ngn(text: str) -> bool:
    """True when a line starts with a tag ``[Key "``, a numbered move ``1. 64:`` or ``Game 1 players``
    (Jellyfish files write tags after ``;`` and number moves ``1)``).  The compiled scan of the lines
    (``_matrows.ngn_lines``) answers where it is built; the expressions are its reference."""
    head = text[:200_000]
    scan = _NGN_LINES or _ngn_lines()
    return scan(head) if scan is not False else ngn_by_expressions(head)


def ngn_by_expressions(head: str) -> bool:
    """:func:`looks_like_ngn` by its regular expressions alone (the reference of the compiled scan)."""
    return bool(_NGN_FIRST.match(head) or _NGN_NEXT.search(head))


_NGN_LINES = None       # the compiled scan, once looked up (False: not built or turned off)


def _ngn_lines():
    global _NGN_LINES
    try:
        if PURE:
            raise ImportError("NARDY_ANALYZE_PURE is set")
        from ._matrows import ngn_lines       # (here: importing the sniffs loads no C extension)
    except ImportError:
        ngn_lines = False
    _NGN_LINES = ngn_lines
    return ngn_lines


def looks_like_sgf(text: str) -> bool:
    """An SGF game tree of backgammon (``GM[6]``)."""
    head = text.lstrip()[:4096]
    return head.startswith("(") and ";" in head[:16] and _SGF_GAME.search(head) is not None


def looks_like_json(text: str) -> bool:
    """The project's JSON notation: an object whose start names its format."""
    return text.lstrip()[:1] == "{" and JSON_FORMAT in text[:4096]
