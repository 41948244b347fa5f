"""Text from records made safe to show: control characters as visible escapes.

A record may hold anything in a player's name, a tag, a comment or a line that cannot be read: escape
sequences that clear a terminal or retitle its window (``ESC [ 2 J``, ``ESC ] 0 ; ... BEL``), a carriage
return that overwrites what was printed, characters that turn the direction of the text round. Every
output meant to be read (terminal, text report, the stats table, HTML, SVG, messages) shows them as
escapes instead: ``\\x1b``, ``\\x07``, ``\\u202e``. The record itself keeps what it held (a conversion
writes it unchanged), and JSON and SARIF carry it JSON-escaped (``\\u001b``), exactly.
"""
from __future__ import annotations

import re

# C0 controls but the tab (plain white space, harmless), DEL and the C1 controls (Unicode category Cc),
# the explicit bidirectional embeddings, overrides and isolates, and the two noncharacters XML refuses.
# A line break is listed: a one-line output shows it as an escape too (``visible(text, newlines=True)``
# keeps line breaks); so is a carriage return, which would overwrite what was printed.
_OTHERS = "\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufffe\uffff"
_UNSAFE_RE = re.compile(f"[\x00-\x08\x0a-\x1f{_OTHERS}]")
_UNSAFE_NO_NL = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHERS}]")
_JSON_RE = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")   # what json.dumps(ensure_ascii=False) leaves raw


_SHORT = {"\n": "\\n", "\r": "\\r"}


def _esc(m: re.Match) -> str:
    if m.group() in _SHORT:
        return _SHORT[m.group()]
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def visible(text: str, newlines: bool = False) -> str:
    """``text`` with every control character as an escape (``\\x1b``); ``newlines``: keep line breaks
    (a diagram, a message of several lines)."""
    if (text if not newlines else text.replace("\n", "")).replace("\t", " ").isprintable():
        return text                      # (the common case: isprintable is fast, and Cf/bidi are rare)
    return (_UNSAFE_NO_NL if newlines else _UNSAFE_RE).sub(_esc, text)


def markup(text: str) -> str:
    """``text`` for HTML or XML (SVG): escaped as markup, control characters made visible (XML 1.0 does not
    allow most of them at all)."""
    from html import escape      # (here, not at start-up: only the HTML and SVG writers need it)
    return escape(visible(text))


def json_safe(text: str) -> str:
    """JSON text (as ``json.dumps(..., ensure_ascii=False)`` writes it) with DEL, the C1 controls and the
    bidirectional controls written as ``\\u`` escapes too: the same JSON value, and nothing in it that a
    terminal acts on.  (json escapes the C0 controls itself; these characters occur only inside strings.)"""
    return _JSON_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
