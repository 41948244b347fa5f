"""The sniffs of the built-in notations that a file of another notation must pass through: each decides from
the start of a text whether it is a record of its notation, without the notation's module (its parser, and
Lark with it).  ``notation.sniff`` asks them for a file whose suffix does not say (``.txt``), and each
notation's module registers the same function: one definition of each sniff.  (The ``.mat`` reader's loose
sniff stays in its module, which reads such a file anyway.)  The compiled parts of such light questions are
looked up here on first use (:func:`compiled_part`)."""
from __future__ import annotations

import re
from typing import Any, Callable

from .. import PURE      # (``NARDY_ANALYZE_PURE``, read once in the package: the compiled parts not loaded)

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
    global _NGN_LINES
    if _NGN_LINES is None:
        _NGN_LINES = compiled_part("ngn_lines") or ngn_by_expressions
    return _NGN_LINES(head)


def ngn_by_expressions(head: str) -> bool:
    """:func:`looks_like_ngn` by its regular expressions alone (the reference of the compiled scan)."""
    return bool(_NGN_FIRST.match(head) or _NGN_NEXT.search(head))


_NGN_LINES = None       # the compiled scan (else the expressions), once looked up


def compiled_part(name: str) -> Callable[..., Any] | None:
    """The compiled function ``name`` of ``_matrows`` for a question asked of every file or game by a module that
    loads no C extension as it is imported (this one, the notation registry: ``--help`` loads none):
    ``ngn_lines`` (the .ngn sniff's lines), ``any_set`` (a game's actions scanned for a set attribute),
    ``PackedActions`` (the type of the actions of a game the compiled .mat reader read: any_set takes them).  None
    where it is not built or ``NARDY_ANALYZE_PURE`` is set (the caller then runs its Python twin, the
    reference).  Asked at the first call of that question."""
    if PURE:
        return None
    try:
        from ._matrows import PackedActions, any_set, ngn_lines   # (on first use: the sniffs load no C)
    except ImportError:             # not built (no C compiler at install)
        return None
    return {"any_set": any_set, "ngn_lines": ngn_lines, "PackedActions": PackedActions}[name]


def looks_like_sgf(text: str) -> bool:
    """An SGF game tree of backgammon (``GM[6]``)."""
    head = text.lstrip()[:4096]
    return head.startswith("(") and ";" in head[:16] and _SGF_GAME.search(head) is not None


def looks_like_json(text: str) -> bool:
    """The project's JSON notation: an object whose start names its format."""
    return text.lstrip()[:1] == "{" and JSON_FORMAT in text[:4096]
