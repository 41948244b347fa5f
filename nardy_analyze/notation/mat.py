"""Reader for Jellyfish match text (``.mat``, often saved as ``.txt``): docs/mat-format.md, "Dialects read".

The text is cut into pieces at the ``Game N`` lines.  The piece before the first game (tags, the ``N point
match`` line) is read by regular expressions, or by the Lark grammar ``grammars/mat.lark`` (LALR, contextual
lexer) when a line is of another kind.  A game is read a line at a time: each row is cut into plain items by
``row_items`` (the common kinds of row) or, for any other row, by the grammar (``lark_items``), and one builder
turns the items into Actions.  A game with a line the grammar does not read costs only that line: it
becomes a :class:`Problem` with its line and column and the rows around it are still read.  Nothing here
checks the rules; steps are kept as written.

Which column a cell is in decides who played it (0 = left = first name on the score line):

* on a numbered row ``  7) 41: 9/5 7/6        Doubles => 2`` the first cell is the left one when
  it starts within 4 characters after ``7)``, when another cell follows it on the row
  (``  4)      Doubles => 2          Drops``) or when it starts before the left/right split below;
  otherwise (blank left cell) the right one;
* any other cell (a second cell, or a cell on a row without a number such as ``      Wins 1 point``)
  is the left one when it starts before the midpoint between column 6 and the column where the
  right-hand name starts on the score line, the right one otherwise;
* ``Losses N point`` is what the losing side writes.  Some sites put it in the winner's column
  (``" Losses 2 point"`` at column 2 before ``"      Wins 2 point and the match"``, or
  ``" 14) 22: ...   14)  Losses 1 point  ...  Wins 1 point and the match"``); when a ``Losses``
  cell is followed directly by a ``Wins`` cell of the same side, the ``Losses`` is given to the
  other side (the ``Wins`` column is the reliable one: the match scores confirm it).
"""
from __future__ import annotations

import re
from functools import cache, lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..engine.compiled import PURE, field_spec, maker, use_packed
from ..record import BAR, OFF, Action, Game, Kind, Loc, Match, Problem, Segment, Step, split_rating
# decode: the shared decoder of the notations, kept as mat.decode
from ..i18n import N_, _, ngettext
from . import Notation, decode, either, expected_found, guarded_read, normalise_text, quoted, register
from .grammar import error_place, grammar_text

try:        # the compiled reader of the common rows (GAME_ACTIONS below)
    if PURE:
        raise ImportError("NARDY_ANALYZE_PURE is set")
    from ._matrows import (PACKED_API as _PACKED_API, configure as _configure_rows, configure_ngn as _configure_ngn,
                           game_actions as _game_actions, mat_game as _mat_game, mat_tags as _mat_tags,
                           ngn_actions as _ngn_actions, shapes as _shapes)
except ImportError:                  # not built (no C compiler at install) or turned off
    _configure_rows = _configure_ngn = _game_actions = _mat_game = _mat_tags = _ngn_actions = _shapes = None
    _PACKED_API = None

if TYPE_CHECKING:
    from lark import Lark, Token

__all__ = ["decode", "read", "looks_like_mat", "grammar", "parse", "row_items", "lark_items"]


# ----------------------------------------------------------------------------- parser
#
# Lark (and the grammar's parser) is loaded the first time a piece of text needs it: a record whose rows
# are all of the common kinds (see "row items" below) is read without it, and a command that reads only
# such records does not pay for importing Lark (tests/test_speed_paths.py checks both ways give the same).


class _BuildRules:
    """Runs inside the LALR parser (``transformer=``, as a ``lark.Transformer``): turns rules into plain
    tuples.

    Stateless, so one instance serves every parse.  Cells become ``(tag, tokens)``.
    """

    def preamble(self, ch: list) -> list:
        return ch

    def comment(self, ch: list) -> tuple:
        return ("comment", ch)

    def match_line(self, ch: list) -> tuple:
        return ("match", ch)

    def blank(self, ch: list) -> None:
        return None

    def game(self, ch: list) -> tuple:
        return (ch[0], ch[1], ch[2:])

    def game_header(self, ch: list) -> list:
        return ch

    def score_line(self, ch: list) -> list:
        return ch

    def row(self, ch: list) -> list:
        return ch

    def roll(self, ch: list) -> tuple:
        return ("roll", ch)

    def roll_unplayed(self, ch: list) -> tuple:
        return ("unplayed", ch)

    def roll_cannot(self, ch: list) -> tuple:
        return ("cannot", ch)

    def roll_illegal(self, ch: list) -> tuple:
        return ("illegal", ch)

    def double(self, ch: list) -> tuple:
        return ("double", ch)

    def beaver(self, ch: list) -> tuple:
        return ("beaver", ch)

    def take(self, ch: list) -> tuple:
        return ("take", ch)

    def drop(self, ch: list) -> tuple:
        return ("drop", ch)

    def win(self, ch: list) -> tuple:
        return ("win", ch)

    def resign(self, ch: list) -> tuple:
        return ("resign", ch)

    def loss(self, ch: list) -> tuple:
        return ("loss", ch)


_STARTS = ["preamble", "preamble_line", "game", "game_header", "score_line", "row"]


@cache
def grammar() -> tuple[Lark, type[Exception]]:
    """The Lark parser of ``grammars/mat.lark`` and Lark's ``UnexpectedInput`` (the class of its parse
    errors), built on first use and kept."""
    # Lark only for the rows the row reader leaves (start-up: most records never need it)
    from lark import Lark, Transformer
    from lark.exceptions import UnexpectedInput

    build = type("_Build", (_BuildRules, Transformer), {})
    parser = Lark(
        grammar_text("mat"),
        parser="lalr",
        lexer="contextual",
        start=_STARTS,
        transformer=build(),
        maybe_placeholders=False,
        cache=True,      # the grammar's analysis is kept in the temp folder, keyed by its text: faster start-up
    )
    return parser, UnexpectedInput


def parse(text: str, start: str) -> tuple[Any, Any]:
    """``(result, None)``: ``text`` parsed by the grammar from the rule ``start``; ``(None, error)`` when it
    does not parse (``error``: Lark's ``UnexpectedInput``, which says where and what was expected)."""
    parser, unexpected = grammar()
    try:
        return parser.parse(text, start=start), None
    except unexpected as e:
        return None, e


# ----------------------------------------------------------------------------- row items
#
# A row of a game is read into a list of items, plain data (tuples of str, int and bool; steps as
# (src, dst, hit) triples), which one builder (``_Reader._build_rows``) turns into Actions.  Two readers
# give the items:
#
# * ``row_items``: nearly every row of a record is "N)", rolls with their plays, "64: Cannot Move",
#   "Doubles => N", "Takes", "Drops", "Wins N points [and the match]" or "Losses N points".  Such a row is
#   cut by the regular expression below (the terminals of grammars/mat.lark, written once more);
# * ``lark_items``: any other row is parsed by Lark (rule ``row``) and its tokens made the same items.
#   An unreadable row is Lark's too, so the grammar stays the definition and every message comes from it:
#   ``row_items`` only ever takes rows the grammar reads the same way (tests/test_speed_paths.py compares the
#   two on the corpus and on generated rows).
#
# The items of a row, one tuple of five per move number or cell (``column``: 1-based, of the cell's first
# character; ``text``: the cell as written):
#
#   (NO, column, "12)", 12, None)                  a move number
#   (ROLL, column, text, dice, steps)              "53: 8/3 6/3": dice as written ("53", "00"), steps a tuple
#                                                  of (src, dst, hit) with BAR 25 and OFF 0
#   (UNPLAYED | CANNOT, column, text, dice, None)  "61: ????", "????" (dice ""), "64: Cannot Move"
#   (ILLEGAL, column, text, dice, mark)            "64: Illegal play (25;0;1)": mark "Illegal play (25;0;1)"
#   (DOUBLE | BEAVER, column, text, value, None)   "Doubles => 2", "Beavers => 4"
#   (TAKE | DROP, column, text, None, None)
#   (WIN, column, text, points, and_match)         "Wins 1 point and the match"
#   (RESIGN, column, text, points, None)           "Resigns" (points None), "Losses 2 points"
#   (NOTE, column, message, None, None)            a hand-typed spelling of the next cell, read as meant
#                                                  (a warning)
#   (BAD, column, message, None, None)             an unreadable cell ("53: 26/21"): the row is skipped,
#                                                  the message is the problem; always the last item
#
# Nothing in the items needs an Action or Lark: a compiled reader of rows, or a replay of many rows at once,
# can take them as they are.

NO, ROLL, UNPLAYED, CANNOT, ILLEGAL, DOUBLE, BEAVER, TAKE, DROP, WIN, RESIGN, NOTE, BAD = range(13)

_STEP_RE = r"(?:bar|[0-9]{1,3})(?:/(?:[0-9]{1,3}|off)\*?)+(?:\([0-9]{1,3}\))?(?=[ \t\n])"
_FAST_ITEM = re.compile(
    r"[ \t]*(?:"
    r"(?P<no>[0-9]{1,6}\))"
    r"|(?P<cd>[0-9][0-9]:)[ \t]+(?P<cw>cannot)[ \t]+(?P<cm>move)"
    r"|(?:(?P<ud>[0-9][0-9]:)[ \t]+)?(?P<uq>\?\?\?\??)(?!\?)"
    r"|(?P<roll>[0-9][0-9]:(?=[ \t\n])(?:[ \t]+" + _STEP_RE + r")*)"
    r"|(?P<dw>doubles?)[ \t]*(?P<arrow>=>)[ \t]*(?P<dv>[0-9]{1,6})"
    r"|(?P<take>takes?)"
    r"|(?P<drop>drops)"
    r"|(?P<ww>wins)[ \t]+(?P<wn>[0-9]{1,6})[ \t]+(?P<wp>points?)"
    r"(?:[ \t]+(?P<wm>and[ \t]+(?:wins[ \t]+)?the[ \t]+match))?"
    r"|(?P<lw>losses)[ \t]+(?P<ln>[0-9]{1,6})[ \t]+(?P<lp>points?)"
    r")(?=[ \t\n])", re.I)
# a row whose first cell is score-line text: "  1) Ann : 3        12: 24/23 13/11"
_PASTED = re.compile(r"[ \t]*[0-9]{1,6}\)[ \t]+(?P<cell>(?P<name>[^ \t\n:](?:[^\n:]{0,98}[^ \t\n:])?)[ \t]*:"
                     r"[ \t]*[0-9]{1,6})(?=[ \t]+[0-9][0-9]:)")
# an opening row whose both cells are score-line text: "  1) Ann : 15     Ann : 15"
_SCORE_CELL = r"(?P<{n}>[^ \t\n:](?:[^\n:]{{0,98}}[^ \t\n:])?)[ \t]*:[ \t]*[0-9]{{1,6}}"
_PASTED_BOTH = re.compile(r"[ \t]*[0-9]{1,6}\)[ \t]+(?P<cells>" + _SCORE_CELL.format(n="name") + r"[ \t]+"
                          + _SCORE_CELL.format(n="name2") + r")[ \t]*$")
_FAST_HEADER = re.compile(r"[ \t]*Game[ \t]+[0-9]{1,6}[ \t]*$")


_G = _FAST_ITEM.groupindex
_G_NO, _G_ROLL, _G_CD, _G_CM, _G_UD, _G_UQ, _G_DW, _G_DV, _G_TAKE, _G_DROP, _G_WW, _G_WN, _G_WM, _G_LW, _G_LN, \
    _G_LP = (_G[g] for g in ("no", "roll", "cd", "cm", "ud", "uq", "dw", "dv", "take", "drop", "ww", "wn", "wm",
                             "lw", "ln", "lp"))


def row_items(src: str) -> list | None:
    """The items of one row (``src`` ends with a newline), or None when the row is not one of the common
    kinds: then Lark reads it (``lark_items``)."""
    items: list = []
    pos = 0
    match = _FAST_ITEM.match
    # an item ends with a character that is not blank: the items end at the row's last one (then the row
    # ends with blanks and its newline, the grammar's _NL)
    stop = len(src.rstrip(" \t\n"))
    while pos < stop:
        m = match(src, pos)
        if m is None:
            return None
        pos = m.end()
        kind = m.lastindex                   # the group that closes last: the item's kind
        if kind == _G_ROLL:
            a = m.start(kind)
            text = src[a:pos]
            if len(text) > 3:
                play = text[3:]
                steps = _PLAYS.get(play)
                if steps is None:
                    try:
                        steps = play_steps(play, a + 4)
                    except BadCell as e:     # the row is skipped, if it is one of these kinds at all
                        return _bad_row(src, pos, items, (BAD, e.column, e.message, None, None))
                    if len(_PLAYS) >= PLAYS_MAX:
                        _PLAYS.clear()
                    _PLAYS[play] = steps
                items.append((ROLL, a + 1, text, text[:2], steps))
            else:
                items.append((ROLL, a + 1, text, text[:2], ()))
        elif kind == _G_NO:
            a = m.start(kind)
            text = src[a:pos]
            items.append((NO, a + 1, text, int(text[:-1]), None))
        elif kind == _G_DV:                  # "Doubles => 2"
            a = m.start(_G_DW)
            items.append((DOUBLE, a + 1, src[a:pos], int(m.group(kind)), None))
        elif kind == _G_CM:                  # "64: Cannot Move"
            a = m.start(_G_CD)
            items.append((CANNOT, a + 1, src[a:pos], src[a:a + 2], None))
        elif kind == _G_UQ:                  # "61: ????" (never played), "????" alone (no dice)
            a = m.start(_G_UD)
            if a < 0:
                if items and items[-1][0] == ROLL:
                    return None              # "61: 8/3 ????": the grammar's one cell (ROLL UNPLAYED), an error
                a = m.start(kind)
                items.append((UNPLAYED, a + 1, src[a:pos], "", None))
            else:
                items.append((UNPLAYED, a + 1, src[a:pos], src[a:a + 2], None))
        elif kind == _G_TAKE or kind == _G_DROP:
            a = m.start(kind)
            items.append((TAKE if kind == _G_TAKE else DROP, a + 1, src[a:pos], None, None))
        elif kind == _G_LP:                  # "Losses 2 point"
            a = m.start(_G_LW)
            items.append((RESIGN, a + 1, src[a:pos], int(m.group(_G_LN)), None))
        else:                                # "Wins 2 points [and the match]"
            a = m.start(_G_WW)
            items.append((WIN, a + 1, src[a:pos], int(m.group(_G_WN)), kind == _G_WM))
    return items


def _bad_row(src: str, pos: int, items: list, bad: tuple) -> list | None:
    """``items`` and ``bad`` when the rest of the row (from ``pos``) is of the common kinds too, else None."""
    match = _FAST_ITEM.match
    stop = len(src.rstrip(" \t\n"))
    first = True
    while pos < stop:
        m = match(src, pos)
        if m is None:
            return None
        if first and m.lastindex == _G_UQ and m.start(_G_UD) < 0:
            return None                      # "53: 26/21 ????": one cell of the grammar, its message first
        first = False
        pos = m.end()
    return items + [bad]


_ROLL_TAGS = {"roll": ROLL, "unplayed": UNPLAYED, "cannot": CANNOT, "illegal": ILLEGAL}
_VALUE_TAGS = {"double": (DOUBLE, 2), "beaver": (BEAVER, 2), "win": (WIN, 1), "loss": (RESIGN, 1)}


def lark_items(tree: list, src: str) -> list:
    """The items of a row as Lark's parser gives it (rule ``row``; ``src``: the text the tokens' positions
    are in).  A cell the grammar takes but that cannot be read (a point 26) ends the items with BAD."""
    items: list = []
    for item in tree:
        if not isinstance(item, tuple):      # MOVE_NO
            items.append((NO, item.column, item.value, int(item.value[:-1]), None))
            continue
        tag, toks = item
        first = toks[0]
        col = first.column
        text = src[first.start_pos:toks[-1].end_pos]
        try:
            items.append(_lark_cell(tag, toks, col, text, items))
        except BadCell as bad:
            items.append((BAD, bad.column, bad.message, None, None))
            break                            # the row is skipped
    return items


def _lark_cell(tag: str, toks: list, col: int, text: str, items: list) -> tuple:
    """One cell of ``lark_items``; the notes on a hand-typed play go to ``items`` before it."""
    kind = _ROLL_TAGS.get(tag)
    if kind is not None:
        first = toks[0]
        if first.type != "ROLL":             # "????", "Illegal play" without dice
            return (kind, col, text, "", text if kind == ILLEGAL else None)
        dt = first.value[:2]
        play = first.value[3:]
        if kind != ROLL:
            if play.strip():
                what = {UNPLAYED: "????", CANNOT: "Cannot Move"}.get(kind, "Illegal play")
                # TRANSLATORS: {what}: a notation keyword ("Cannot Move"); {found}: the text after it
                raise BadCell(col + 3 + len(play) - len(play.lstrip()),
                              _('expected "{what}" right after the dice, found "{found}"').format(
                                  what=what, found=play.strip()))
            return (kind, col, text, dt, toks[-1].value if kind == ILLEGAL else None)
        if not play:
            return (ROLL, col, text, dt, ())
        notes: list = []
        steps = play_steps(play, col + 3, notes)
        # hand-typed spellings: warnings, the play read as meant
        items.extend((NOTE, c, msg, None, None) for c, msg in notes)
        return (ROLL, col, text, dt, steps)
    if tag in ("take", "drop"):
        return (TAKE if tag == "take" else DROP, col, text, None, None)
    if tag == "resign":                      # "Resigns", "Concedes 2 points"
        return (RESIGN, col, text, _int(toks[1]) if len(toks) > 1 else None, None)
    kind, at = _VALUE_TAGS[tag]
    return (kind, col, text, _int(toks[at]), toks[-1].type == "AND_MATCH" if kind == WIN else None)


class _Tok:
    """A token of the score line or the preamble read without Lark: the attributes of Lark's ``Token``
    that the reader uses, and cheaper."""

    __slots__ = ("type", "value", "start_pos", "line", "column", "end_column", "end_pos")

    def __init__(self, kind: str, m: re.Match, group: str) -> None:
        a, b = m.span(group)
        self.type = kind
        self.value = m.group(group)
        self.start_pos = a
        self.end_pos = b
        self.line = 1
        self.column = a + 1
        self.end_column = b + 1


# The score line " Alice : 0     Bob : 0" (rule score_line: NAME? COLON INT NAME? COLON INT), the same way:
# the terminals NAME, COLON and INT of the grammar, the blanks between them ignored.
_NAME_RE = r"[^ \t\n:](?:[^\n:]{0,98}[^ \t\n:])?(?=[ \t]*:)"
_FAST_SCORE = re.compile(
    r"[ \t]*(?P<n1>" + _NAME_RE + r")?[ \t]*(?P<c1>:)[ \t]*(?P<i1>[0-9]{1,6})(?![0-9])"
    r"[ \t]*(?P<n2>" + _NAME_RE + r")?[ \t]*(?P<c2>:)[ \t]*(?P<i2>[0-9]{1,6})(?![0-9])[ \t]*\n")
_SCORE_TYPES = (("n1", "NAME"), ("c1", "COLON"), ("i1", "INT"), ("n2", "NAME"), ("c2", "COLON"), ("i2", "INT"))


def _fast_score(src: str) -> list | None:
    """The tokens of a score line (``src`` ends with a newline) as the grammar gives them, or None: then
    Lark reads it."""
    m = _FAST_SCORE.fullmatch(src)
    if m is None:
        return None
    return [_Tok(t, m, g) for g, t in _SCORE_TYPES if m.start(g) >= 0]


# The lines before the first game (rule preamble): tags and other ";" comments, "N point match" and
# blank lines, the same way: the terminals COMMENT, INT, POINTS and MATCH.
_FAST_COMMENT = re.compile(r"[ \t]*(?P<c>;[^\n]*)")
_FAST_MATCH = re.compile(r"[ \t]*(?P<i>[0-9]{1,6})[ \t]+(?P<p>points?)[ \t]+(?P<m>match)[ \t]*", re.I)
_FAST_BLANK = re.compile(r"[ \t]*")


def _fast_preamble(chunk: str) -> list | None:
    """The items of the text before the first game (``chunk`` ends with a newline) as the grammar's
    ``preamble`` gives them (None for a blank line), or None when a line is of another kind: then Lark
    reads it."""
    items: list = []
    for no, line in enumerate(chunk.split("\n")[:-1], 1):
        m = _FAST_COMMENT.fullmatch(line)
        if m is not None:
            tok = _Tok("COMMENT", m, "c")
            tok.line = no
            items.append(("comment", [tok]))
            continue
        m = _FAST_MATCH.fullmatch(line)
        if m is not None:
            toks = [_Tok("INT", m, "i"), _Tok("POINTS", m, "p"), _Tok("MATCH", m, "m")]
            for tok in toks:
                tok.line = no
            items.append(("match", toks))
            continue
        if _FAST_BLANK.fullmatch(line) is None:
            return None
        items.append(None)
    return items


# ----------------------------------------------------------------------------- text level

_GAME_LINE = re.compile(r"^[ \t]*Game[ \t]+[0-9]+[ \t]*$", re.M)
_GAME_AT = re.compile(r"[ \t]*Game[ \t]+[0-9]+[ \t]*$", re.M)      # (matched at a line's start)
_MATCH_LINE = re.compile(r"^[ \t]*[0-9]+[ \t]+point[ \t]+match\b", re.M | re.I)
_TAG = re.compile(r';[ \t]*\[[ \t]*([^"\]]*?)[ \t]*"(.*)"[ \t]*\][ \t]*$')


def _game_starts(text: str, first: bool = False) -> list[int]:
    """The start of each ``Game N`` line of ``text``, as ``_GAME_LINE.finditer`` gives them (only the first with
    ``first``): looked for from each word "Game" with nothing but blanks before it on its line, instead of a
    search for a line start at every position of the text."""
    out: list[int] = []
    find, rfind, at = text.find, text.rfind, _GAME_AT.match
    i = find("Game")
    while i >= 0:
        start = rfind("\n", 0, i) + 1
        if (start == i or not text[start:i].strip(" \t")) and at(text, start) is not None:
            out.append(start)
            if first:
                break
        i = find("Game", i + 4)
    return out


def comment_text(line: str) -> str:
    """The text of a ``;`` comment line: after the ``;`` and one blank, trailing blanks removed (the
    indentation of the text is kept, so that ``; `` + text reads back as the same text)."""
    body = line[1:]
    if body[:1] in (" ", "\t"):
        body = body[1:]
    return body.rstrip()


def comment_line(text: str) -> str:
    """The ``;`` line that :func:`comment_text` reads back as ``text``: ``; text``, or ``;; text`` when the
    line would read as a header tag (``; [Key "Value"]``, ``; Key: value``) or a malformed one."""
    line = f"; {text}" if text else ";"
    if _TAG.match(line) or _COLON_TAG.match(line) or line[1:].lstrip().startswith("["):
        line = ";" + line
    return line


# PPNards-style header lines ";App: PPNards", ";Game type: Backgammon +1"
_COLON_TAG = re.compile(r";[ \t]*([A-Za-z][A-Za-z0-9 _-]{0,30}?)[ \t]*:[ \t]*(\S.*?)[ \t]*$")
# header keys that name the game played: read as the record's variant (tag "Variation")
_VARIANT_KEYS = {"gametype", "variant", "variation"}


@lru_cache(maxsize=4096)
def _names_variant(key: str) -> bool:
    """Whether a tag key names the game played other than as "Variation" (``_Reader._tag``; the few keys there
    are, once each)."""
    norm = key.casefold().replace(" ", "").replace("_", "")
    return norm in _VARIANT_KEYS and norm != "variation"


_GAP = re.compile(r"[ \t]{2,}")

LEFT_CELL_GAP = 4          # a first cell at most this many columns after "N)" is the left one
LEFT_CELL_COLUMN = 6       # where left cells start in every known dialect
DEFAULT_THRESHOLD = 20     # left/right split when there is no score line
MARGIN_COLUMN = 2          # a result line starting at this column or before is at the margin, in no column
MAX_REPEAT = 15            # "13/11(2)": largest repeat count read
MAX_STEPS = 32             # more written steps than this in one cell is not a play
MAX_PROBLEMS = 25          # unreadable lines reported per game (or before the first game)


def looks_like_mat(text: str) -> bool:
    """True when the text has an ``N point match`` line or a ``Game N`` line (sniffing)."""
    head = text[:200_000]
    return bool(_game_starts(head, first=True) or _MATCH_LINE.search(head))    # (the cheaper question first)


# ----------------------------------------------------------------------------- messages

# What a reader expected, in messages (translated where they are used; the quoted words are notation keywords,
# the same in every language).  The names of the grammar's terminals are the keys.
_CELL_START = N_('a roll like "53:", "Doubles => N", "Takes", "Drops" or "Wins N points"')
_IN_PLAY = N_('a move like "13/9", "bar/22*" or "6/off", or the next cell')
_NAMES = {
    "ROLL": N_('a roll like "53:"'),
    "MOVE_NO": N_('a move number like "12)"'),
    "INT": N_("a number"),
    "UNPLAYED": '"????"',
    "ILLEGAL": '"Illegal play (...)"',
    "CONCEDES": '"Concedes"',
    "CANNOT": '"Cannot Move"',
    "MOVE": '"Move"',
    "DOUBLES": '"Doubles => N"',
    "BEAVERS": '"Beavers => N"',
    "ARROW": '"=>"',
    "TAKES": '"Takes"',
    "DROPS": '"Drops"',
    "WINS": '"Wins N points"',
    "RESIGNS": '"Resigns"',
    "LOSSES": '"Losses N points"',
    "POINTS": N_('"point" or "points"'),
    "AND_MATCH": '"and the match"',
    "MATCH": '"match"',
    "GAME": '"Game"',
    "NAME": N_("a player name"),
    "COLON": '":"',
    "COMMENT": N_("a tag like '; [Key \"Value\"]'"),
    "_NL": N_("the end of the line"),
    "$END": N_("the end of the text"),
}
# the names above that are one quoted keyword: quoted in the language's quotation marks, not translated
_KEYWORD = re.compile(r'"([^"]*)"')
_AFTER_WORD = {   # what must follow these words (lower case)
    "wins": N_('the points, as in "Wins 2 points"'),
    "losses": N_('the points, as in "Losses 2 points"'),
    "resigns": N_('the end of the cell or the points, as in "Resigns 2 points"'),
    "doubles": N_('"=>", as in "Doubles => 2"'),
    "beavers": N_('"=>", as in "Beavers => 4"'),
    "=>": N_('the cube value, as in "Doubles => 2"'),
    "cannot": N_('"Move", as in "64: Cannot Move"'),
    "point": N_('"and the match" or the next cell'),
    "points": N_('"and the match" or the next cell'),
}


def _name(text: str) -> str:
    """One of the names above in the current language: a quoted keyword alone is only re-quoted."""
    m = _KEYWORD.fullmatch(text)
    return quoted(m.group(1)) if m else _(text)
_ROLLISH = re.compile(r"(?:[0-9][0-9]:|(?:bar|[0-9]+)(?:/[0-9a-z*]+)+(?:\([0-9]+\))?)$", re.I)


def _expected_text(expected: set[str], context: str, before: str) -> str:
    """Say what was expected at an error; ``before`` is the line's text before the error."""
    if context == "score_line":
        return _('a score line like " Alice : 0     Bob : 0"')
    if context == "preamble_line":
        return _("a tag like '; [Key \"Value\"]', a line \"N point match\" or \"Game N\"")
    if context == "game_header":
        return _('a line "Game N"')
    words = before.split()
    last = words[-1].lower() if words else ""
    if last in _AFTER_WORD:
        return _(_AFTER_WORD[last])
    if last.isdigit() and len(words) > 1 and words[-2].lower() in ("wins", "losses", "resigns"):
        return _(_NAMES["POINTS"])
    if _ROLLISH.match(last) and not before.endswith("  "):
        return _(_IN_PLAY)
    if "ROLL" in expected and "TAKES" in expected:
        return _(_CELL_START)
    # a terminal without a name of its own: its grammar name (an interface word), as Lark gives it
    names = [_name(_NAMES[t]) if t in _NAMES else t for t in sorted(expected) if t != "$END" or len(expected) == 1]
    if not names:
        return _("something else")
    return either(names)


def _found_text(line: str, col: int) -> str:
    """The cell-sized piece of ``line`` starting at 1-based ``col``, for messages."""
    piece = line[col - 1: col - 1 + 80]
    m = _GAP.search(piece)
    if m:
        piece = piece[: m.start()]
    piece = piece.strip()
    if not piece:
        return _("the end of the line")
    if len(piece) > 40:
        piece = piece[:40] + "..."
    return quoted(piece)


# ----------------------------------------------------------------------------- reader


class BadCell(Exception):
    def __init__(self, column: int, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


def _int(tok: Token) -> int:
    return int(tok.value)


def _point(text: str, is_src: bool, col: int, word: str) -> int:
    """A written point: 0..25, "bar" (25, only where a move starts) or "off" (0, only where it ends)."""
    low = text.lower()
    if low == "bar" and is_src:
        return BAR
    if low == "off" and not is_src:
        return OFF
    if text.isdigit() and int(text) <= 25:
        return int(text)
    # TRANSLATORS: {text}: the unreadable point; {word}: the movement it is in ("13/x9")
    raise BadCell(col, _('expected a point 0..25, "bar" or "off", found "{text}" in "{word}"').format(
        text=text, word=word))


_WORD = re.compile(r"\S+")
Triple = tuple[int, int, bool]                  # a step as plain data: (src, dst, hit)
_MOVEMENTS: dict[str, tuple[Triple, ...]] = {}  # cache: movement text -> its steps
_PLAYS: dict[str, tuple[Triple, ...]] = {}      # cache: a roll cell's play text (after "53:") -> its steps,
PLAYS_MAX = 50_000                              # emptied when it holds PLAYS_MAX (plain tuples: shared safely)


class _Steps(dict):
    """The Step of each (src, dst, hit), made once (at most 26 x 26 x 2 of them)."""

    def __missing__(self, key: Triple) -> Step:
        step = self[key] = Step(*key)
        return step


STEP = _Steps()
_STEP_OF = STEP.__getitem__


def _movement(word: str, col: int) -> tuple[Triple, ...]:
    """The steps of one written movement such as ``"13/11(2)"`` or ``"bar/20*/14"``."""
    count = 1
    body = word
    if word.endswith(")"):
        i = word.rindex("(")
        count = int(word[i + 1: -1])
        if not 1 <= count <= MAX_REPEAT:
            raise BadCell(col, _('expected a repeat count 1..{most}, found "{word}"').format(
                most=MAX_REPEAT, word=word))
        body = word[:i]
    parts = body.split("/")
    src = _point(parts[0], True, col, word)
    chain: list[Triple] = []
    for part in parts[1:]:
        if src == OFF and chain:
            raise BadCell(col, _('expected "off" only at the end of a move, found "{word}"').format(word=word))
        hit = part.endswith("*")
        dst = _point(part[:-1] if hit else part, False, col, word)
        chain.append((src, dst, hit))
        src = dst
    return tuple(chain * count)


_JOINED = re.compile(r"(?<=\*)(?=bar|[0-9])", re.I)


def _typed(word: str, col: int, notes: list | None) -> list[str]:
    """A hand-typed word read as the movements it plainly is: ``13/11*8/3`` (no blank after ``*``) is
    two, a comma after a movement (``6/5,``) is dropped; each with a note (column, message)."""
    out = word
    if out.endswith(","):
        out = out[:-1]
        if notes is not None:
            notes.append((col + len(out), _('a comma after "{word}": read as a blank between movements').format(
                word=out)))
    pieces = _JOINED.split(out)
    if len(pieces) > 1 and notes is not None:
        notes.append((col, _('"{word}" has no blank after "*": read as the movements {movements}').format(
            word=out, movements=" ".join(pieces))))
    return pieces


def read_play(text: str, column: int) -> list[Step]:
    """The Step entries of the movements ``text`` (starting at ``column``), as ``play_steps`` reads them; a
    play text seen before is read once (``_PLAYS``, as the row reader's)."""
    steps = _PLAYS.get(text)
    if steps is None:
        steps = play_steps(text, column)
        if len(_PLAYS) >= PLAYS_MAX:
            _PLAYS.clear()
        _PLAYS[text] = steps
    return list(map(_STEP_OF, steps))


def _play_step_objects(text: str, column: int) -> tuple[Step, ...] | None:
    """The Step objects of a play's text as the row reader reads it (None: a cell that cannot be read): the
    compiled row reader's way to the Python one for a play it has not seen."""
    try:
        steps = play_steps(text, column)
    except BadCell:
        return None
    return tuple(map(_STEP_OF, steps))


def play_steps(text: str, column: int, notes: list | None = None) -> tuple[Triple, ...]:
    """The steps (src, dst, hit) of the movements ``text`` (starting at ``column``): chains and ``(n)``
    expanded.  ``notes`` (when given) gets a (column, message) for every word read as typed by hand
    (``_typed``)."""
    steps: list[Triple] = []
    cache = _MOVEMENTS
    for m in _WORD.finditer(text):
        word = m.group()
        chain = cache.get(word)
        if chain is None:
            if word.endswith(",") or "*" in word[:-1] and _JOINED.search(word[:-1]):
                chain = ()
                for piece in _typed(word, column + m.start(), notes):
                    chain += _movement(piece, column + m.start())
            else:
                chain = _movement(word, column + m.start())
                if len(cache) < 50_000:
                    cache[word] = chain
        steps.extend(chain)
        if len(steps) > MAX_STEPS:
            raise BadCell(column + m.start(), ngettext("expected at most {n} steps in one play, found more",
                                                       "expected at most {n} steps in one play, found more",
                                                       MAX_STEPS).format(n=MAX_STEPS))
    return tuple(steps)


# the dice of a roll cell's two digits (None: not two dice 1-6), for every two digits
DICE_OF: dict[str, tuple[int, int] | None] = {
    f"{a}{b}": ((a, b) if 1 <= a <= 6 and 1 <= b <= 6 else None) for a in range(10) for b in range(10)}
DICE_OF[""] = None                                # "????" alone: no dice written
_KINDS = {DOUBLE: Kind.DOUBLE, BEAVER: Kind.BEAVER, TAKE: Kind.TAKE, DROP: Kind.DROP, RESIGN: Kind.RESIGN}


def cell_side(col: int, threshold: int, after_no: bool, nested: bool, no_col: int, no_end: int,
              followed: bool) -> int:
    """The side (0 left, 1 right) of a row's cell that starts at column ``col``: ``threshold`` is the
    left/right split of the score line; ``after_no`` when the cell follows an ``N)`` (at columns ``no_col`` to
    ``no_end``), ``nested`` when that ``N)`` is not the row's first item, ``followed`` when another cell
    follows this one on the row.  The one placement of a row's cells (``_Reader._build_rows``)."""
    if after_no and not nested:
        # the left cell when it starts close to "N)"; one indented further than usual is still the left one
        # when another cell follows it on the row (" 4)      Doubles => 2    Drops") or it starts before the
        # left/right split of the score line
        return 0 if (col - no_end <= LEFT_CELL_GAP or followed or col < threshold) else 1
    if after_no:                        # a second "N)" inside the row: it marks where the cell is
        return 0 if no_col < threshold else 1
    return 0 if col < threshold else 1


# The compiled twin of ``row_items`` + ``_Reader._build_rows`` (notation/_matrows.c): a game's rows read into
# Actions in one call, or None when a row is not one of the common kinds.  None when it is not built or
# ``NARDY_ANALYZE_PURE`` is set: then the Python reader, the reference, reads every row.
GAME_ACTIONS = None
# and the .ngn reader's common move lines (``ngn._Reader._by_lines``), made by the same code
NGN_ACTIONS = None
# and a whole common game (``_Reader._compiled_game``): its header, its score line and its rows, or None when
# the Python reader must read it (``_pasted_score`` and ``_game_lines``, the reference)
MAT_GAME = None
# and the text before the first game when it holds only header tags, "N point match" lines and blank lines
# (``_Reader._plain_preamble``): ([(key, value)], [Loc], [(line, column, N as written)]), or None
MAT_TAGS = None
# whether MAT_GAME gives a game's actions packed (a PackedActions: see below) rather than as a list
PACKED = False
if _configure_rows is not None:
    _configure_rows(Action, Loc, DICE_OF, _play_step_objects, STEP, Kind.ROLL, Kind.DOUBLE, Kind.TAKE, Kind.DROP,
                    Kind.WIN, Kind.RESIGN, LEFT_CELL_GAP, MAX_STEPS, MAX_REPEAT)
    _configure_ngn(Segment)
    GAME_ACTIONS, NGN_ACTIONS, MAT_GAME, MAT_TAGS = _game_actions, _ngn_actions, _mat_game, _mat_tags
    # a game read by MAT_GAME keeps its actions packed (notation/_matrows.c: PackedActions), each made into an Action
    # the first time it is asked for, where the engine's core reads them too (its batch: the replay)
    PACKED = use_packed(_PACKED_API)


# Game(...) and Loc(...) without their __init__'s frame (engine.compiled.maker): a few per game
_NEW_GAME, _NEW_LOC = maker(Game), maker(Loc)


def _field_shapes(cls) -> list | None:
    """A slotted dataclass's fields as the compiled reader fills them without calling the class (``field_spec``:
    (name, 0 required / 1 a default / 2 a new list, the default)); None when a field has another default factory."""
    spec = field_spec(cls)
    if spec is None or any(kind == 2 and made is not list for _name, kind, made in spec):
        return None
    return [(name, kind, None if kind == 2 else made) for name, kind, made in spec]


if GAME_ACTIONS is not None:
    _action_fields, _loc_fields = _field_shapes(Action), _field_shapes(Loc)
    _names = [name for name, _kind, _default in _action_fields or []]
    if _loc_fields and {"value", "and_match", "cannot_move"} <= set(_names):
        _shapes(_action_fields, _loc_fields, _names.index("value"), _names.index("and_match"),
                _names.index("cannot_move"))


_KIND_OF = attrgetter("kind")


class _Reader:
    """Reads one text.  ``tokenize=False`` reads every line with Lark (the tests compare both ways)."""

    def __init__(self, text: str, path: str, tokenize: bool = True) -> None:
        self.text = text
        self.match = Match(path=path, notation="mat")
        self.tokenize = tokenize

    # -- top level -------------------------------------------------------------------

    def run(self) -> Match:
        text = self.text
        if not text.endswith("\n"):
            text += "\n"
        starts = _game_starts(text)
        first = starts[0] if starts else len(text)
        if first > 0:
            self._preamble(text[:first])
        line = 1 + text.count("\n", 0, first)
        whole = MAT_GAME if self.tokenize else None
        for i, start in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else len(text)
            lines = whole is not None and self._compiled_game(whole, i + 1, text, start, end, line - 1)
            if not lines:
                self._game(i + 1, text[start:end], line - 1)
                lines = text.count("\n", start, end)
            line += lines
        if not starts:
            last_line = text.count("\n")
            self.match.problems.append(Problem(
                Loc(max(last_line, 1), 1),
                _('expected a game: a line "Game N" followed by the score line, found none')))
        return self.match

    # -- parsing helpers ---------------------------------------------------------------

    def _problem(self, sink: list[Problem], game: int | None, loc: Loc, message: str) -> None:
        if len(sink) < MAX_PROBLEMS:
            sink.append(Problem(loc, message, game))
        elif len(sink) == MAX_PROBLEMS:
            sink.append(Problem(loc, _("too many unreadable lines; the rest of this part is not reported"), game))

    def _error_problem(self, e: Any, line_text: str, line_no: int, context: str,
                       sink: list[Problem], game: int | None) -> None:
        """A Problem from a Lark error in the one-line text ``line_text`` (numbered ``line_no``)."""
        body = line_text.rstrip("\n")
        col, expected = error_place(e, body)
        if context == "score_line":
            # the whole line is what was found: point at its start
            col = len(body) - len(body.lstrip()) + 1
            found = " ".join(body[:200].split())
            found = quoted(found if len(found) <= 40 else found[:40] + "...") if found else _("an empty line")
            what = _expected_text(expected, context, body[:col - 1])
        else:
            what = _expected_text(expected, context, body[:col - 1])
            found = _found_text(body, col)
            if what == _(_IN_PLAY):          # inside a play: the one unreadable movement
                word = body[col - 1: col - 1 + 41].split(maxsplit=1)
                if word:
                    found = quoted(word[0] if len(word[0]) <= 40 else word[0][:40] + "...")
        self._problem(sink, game, Loc(line_no, col), expected_found(what, found))

    # -- before the first game -----------------------------------------------------------

    def _preamble(self, chunk: str) -> None:
        if self.tokenize and self._plain_preamble(chunk):
            return
        items = _fast_preamble(chunk) if self.tokenize else None
        if items is None:
            items, _error = parse(chunk, "preamble")
        if items is not None:
            for item in items:
                if item is not None:
                    self._preamble_item(item, 0)
            return
        # Free text before the "N point match" line (a banner of the tournament archive) is no record
        # but harms nothing: it is kept as comments and reported once, as a warning.
        header = _MATCH_LINE.search(chunk)
        header_line = chunk.count("\n", 0, header.start()) + 1 if header else 0
        free: list[tuple[int, str]] = []
        for no, line in enumerate(chunk.split("\n")[:-1], 1):
            if len(self.match.problems) > MAX_PROBLEMS:
                break                        # reported as "too many": reading on would only cost time
            if not line.strip():
                continue
            item, e = parse(line + "\n", "preamble_line")
            if e is not None:
                if no < header_line and not line.lstrip().startswith(";"):
                    free.append((no, line))
                    self.match.comments.append(line.rstrip())    # in file order with the ";" lines
                    continue
                self._error_problem(e, line, no, "preamble_line", self.match.problems, None)
                continue
            if item is not None:
                self._preamble_item(item, no - 1)
        if free:
            first, last = free[0][0], free[-1][0]
            col = len(free[0][1]) - len(free[0][1].lstrip()) + 1
            if first == last:
                # TRANSLATORS: {n}: how many lines (1 here: "line(s)" stays as the English writes it)
                text = ngettext("{n} line(s) of free text before the \"N point match\" line (line {first}) are "
                                "not match text: kept as comments",
                                "{n} line(s) of free text before the \"N point match\" line (line {first}) are "
                                "not match text: kept as comments", len(free))
            else:
                text = ngettext("{n} line(s) of free text before the \"N point match\" line (lines {first}-{last}) "
                                "are not match text: kept as comments",
                                "{n} line(s) of free text before the \"N point match\" line (lines {first}-{last}) "
                                "are not match text: kept as comments", len(free))
            self.match.problems.append(Problem(
                Loc(first, col), text.format(n=len(free), first=first, last=last), warning=True, rule="free-text"))

    def _preamble_item(self, item: tuple, line_off: int) -> None:
        kind, toks = item
        first = toks[0]
        loc = Loc(first.line + line_off, first.column)
        if kind == "match":
            self._match_length(_int(first), loc, first.value)
            return
        self._comment_line(first.value, loc)

    def _match_length(self, n: int, loc: Loc, written: str) -> None:
        """An ``N point match`` line (``written``: its number as written)."""
        if self.match.match_length is not None:
            self.match.problems.append(Problem(
                loc, _('expected one "N point match" line, found a second one "{n} point match"').format(
                    n=written)))
            return
        self.match.match_length = n
        self.match.match_loc = loc

    def _plain_preamble(self, chunk: str) -> bool:
        """The text before the first game read as ``_fast_preamble`` + ``_preamble_item`` read it, without
        their tokens (nearly every line is a tag: ``; [Site "..."]``); False, with nothing read, when a line
        is not a ``;`` comment, an ``N point match`` line or blank (the same lines ``_fast_preamble`` takes).
        Where every line is a tag, an ``N point match`` line or blank (nearly every file), the compiled
        reader reads them (``MAT_TAGS``)."""
        got = MAT_TAGS(chunk) if MAT_TAGS is not None else None
        if got is not None:
            pairs, locs, lengths = got
            self.match.tag_items.extend(pairs)
            tag = self._tag
            for (key, val), loc in zip(pairs, locs):
                tag(key, val, loc)
            for no, col, n in lengths:
                self._match_length(int(n), Loc(no, col), n)
            return True
        lines = chunk.split("\n")
        lines.pop()                          # the chunk ends with a newline
        for line in lines:
            c = line.lstrip(" \t")
            if c and c[0] != ";" and _FAST_MATCH.fullmatch(line) is None:
                return False
        for no, line in enumerate(lines, 1):
            c = line.lstrip(" \t")
            if not c:
                continue
            if c[0] == ";":
                self._comment_line(c, Loc(no, len(line) - len(c) + 1))
                continue
            m = _FAST_MATCH.fullmatch(line)
            toks = [_Tok("INT", m, "i"), _Tok("POINTS", m, "p"), _Tok("MATCH", m, "m")]
            for tok in toks:
                tok.line = no
            self._preamble_item(("match", toks), 0)
        return True

    def _comment_line(self, value: str, loc: Loc) -> None:
        """A ``;`` line before the first game (``value``: from the ``;`` on, at ``loc``): a tag, a comment, or a
        tag that cannot be read."""
        if value.startswith(";;"):           # ";; text": a comment that would read as a tag otherwise
            self.match.comments.append(comment_text(value[1:]))
            return
        m = _TAG.match(value)
        if m:
            key, val = m.group(1), m.group(2)
            self.match.tag_items.append((key, val))
            self._tag(key, val, loc)
            return
        if value[1:].lstrip().startswith("["):
            found = value if len(value) <= 40 else value[:40] + "..."
            self.match.problems.append(Problem(
                loc, _("expected a tag like '; [Key \"Value\"]', found \"{found}\"").format(found=found)))
            return
        m = _COLON_TAG.match(value)
        if m:                                # ";Game type: Backgammon +1" (PPNards)
            self._tag(m.group(1), m.group(2), loc)
        self.match.comments.append(comment_text(value))   # any other ";" line is a comment: kept for conversion

    def _tag(self, key: str, val: str, loc: Loc) -> None:
        """Record a header tag (the first of a key wins); a tag that names the game played (``Game type``,
        ``GameType``, ``Variant``) is also the record's variant, tag ``Variation``."""
        m = self.match
        if key not in m.tags:
            m.tags[key] = val
            m.tag_locs[key] = loc
        if _names_variant(key) and m.tag("Variation") is None:
            m.tags["Variation"] = val
            m.tag_locs["Variation"] = loc

    # -- one game --------------------------------------------------------------------------

    def _game(self, number: int, chunk: str, line_off: int) -> None:
        header_col = len(chunk) - len(chunk.lstrip(" \t")) + 1
        game = Game(number=number, loc=Loc(line_off + 1, header_col))
        self.match.games.append(game)
        lines = chunk.split("\n")
        lines.pop()                          # the chunk ends with a newline
        self._pasted_score(number, chunk, lines, line_off)
        self._game_lines(game, lines, line_off)
        self._finish(game, chunk, line_off)

    def _compiled_game(self, whole, number: int, text: str, start: int, end: int, line_off: int) -> int:
        """The common game ``text[start:end]`` read in one call of the compiled reader (``MAT_GAME``: a plain
        ``Game N`` line, a score line ``_FAST_SCORE`` reads, no name of it in the rows, every row one
        ``GAME_ACTIONS`` takes): what :meth:`_game` gives it, and the number of its lines; 0, with nothing read,
        for any other game."""
        got = whole(text, start, end, line_off, LEFT_CELL_COLUMN, PACKED)
        if got is None:
            return 0
        header_col, written, n1, n2, s1, s2, score_line, score_col, actions, end_line, resigns, lines = got
        game = _NEW_GAME(number=number, loc=_NEW_LOC(line_off + 1, header_col), written_number=written,
                         score=(s1, s2), score_loc=_NEW_LOC(score_line, score_col), actions=actions,
                         end_loc=_NEW_LOC(end_line, 1))
        self.match.games.append(game)
        (p0, r0), (p1, r1) = split_rating(n1.strip() if n1 else ""), split_rating(n2.strip() if n2 else "")
        game.players = (p0, p1)
        if r0 is not None or r1 is not None:
            game.ratings = (r0, r1)
        self._results(game, resigns)
        return lines

    def _pasted_score(self, number: int, chunk: str, lines: list[str], line_off: int) -> None:
        """Rows typed by hand with score-line text in a cell (``  1) Ann : 3        12: 24/23 13/11``: the
        name pasted into the empty cell of the player who does not open) read with that cell empty (the
        text blanked out, columns kept) and a warning.  Only a player's name from the score line, followed
        by `` : N``, right after the move number.  ``lines``: the lines of the game's text ``chunk``, changed
        in place."""
        k = 1
        while k < len(lines) and not lines[k].strip():
            k += 1
        m = _FAST_SCORE.fullmatch(lines[k] + "\n") if k < len(lines) else None
        if m is None:
            return
        names = {n.strip().lower() for n in (m.group("n1"), m.group("n2")) if n and n.strip()}
        rows = chunk[sum(len(line) + 1 for line in lines[:k + 1]):].lower()
        if not any(n in rows for n in names):     # nearly every game: no name in its rows
            return
        for i in range(k + 1, len(lines)):
            both = _PASTED_BOTH.match(lines[i])
            if both is not None and both.group("name").strip().lower() in names \
                    and both.group("name2").strip().lower() in names:
                a, b = both.span("cells")
                text = lines[i][a:b]
                lines[i] = lines[i][:a] + " " * (b - a) + lines[i][b:]
                # TRANSLATORS: {text}: the row's text after its number, as written ("Ann : 15     Ann : 15")
                self.match.problems.append(Problem(
                    Loc(line_off + i + 1, a + 1), _('score-line text "{text}" in both cells of the row: read as '
                                                    'an empty row').format(text=" ".join(text.split())),
                    number, warning=True))
                continue
            c = _PASTED.match(lines[i])
            if c is None or c.group("name").strip().lower() not in names:
                continue
            a, b = c.span("cell")
            text = lines[i][a:b]
            lines[i] = lines[i][:a] + " " * (b - a) + lines[i][b:]
            self.match.problems.append(Problem(
                Loc(line_off + i + 1, a + 1), _('score-line text "{text}" in a cell of the row: read as an empty '
                                                'cell (the name typed into the cell of the player who does not '
                                                'play there)').format(text=text), number, warning=True))

    def _read_row(self, line: str) -> tuple[list | None, Any]:
        """``(items, None)``: the items of the row ``line`` (see "row items"); ``(None, error)``: Lark's error
        for a line the grammar does not read as a row."""
        src = line + "\n"
        if self.tokenize:
            items = row_items(src)
            if items is not None:
                return items, None
        tree, error = parse(src, "row")
        return (None, error) if tree is None else (lark_items(tree, src), None)

    def _game_lines(self, game: Game, lines: list[str], line_off: int) -> None:
        """Read one game: its ``Game N`` line, its score line (the first line that is not blank) and its rows.

        When every line reads (the grammar's rule ``game``), every row is taken.  Otherwise the game is read
        line by line: each unreadable line is a problem and the rest are still read, up to MAX_PROBLEMS.
        Which rows a whole game takes is decided before any is built, so that both ways read a row the same.
        """
        sink = game.problems
        n = len(lines)
        whole = True                         # every line so far reads as the grammar's rule "game" has it
        if _FAST_HEADER.match(lines[0]):
            game.written_number = int(lines[0].split()[1])
        else:
            header, error = parse(lines[0] + "\n", "game_header")
            if error is None:
                game.written_number = _int(header[1])
            else:
                whole = False
                self._error_problem(error, lines[0], line_off + 1, "game_header", sink, game.number)
        threshold = DEFAULT_THRESHOLD
        k = 1                                # the score line: the first non-blank line
        while k < n and not lines[k].strip():
            k += 1
        first_row = k + 1
        if k == n:
            whole = False
            self._problem(sink, game.number, Loc(line_off + 1, len(lines[0].rstrip()) + 1),
                          _('expected a score line like " Alice : 0     Bob : 0" after "Game N", '
                            "found the end of the text"))
        else:
            score = _fast_score(lines[k] + "\n") if self.tokenize else None
            if score is None:
                score, error = parse(lines[k] + "\n", "score_line")
                if error is not None:
                    whole = False
                    self._error_problem(error, lines[k], line_off + k + 1, "score_line", sink, game.number)
                    first_row = k    # no score line: the line may still be the first row
            if score is not None:
                self._score(game, score, line_off + k)
                threshold = self._threshold(score)
        rows: list = []                      # the rows read so far, from first_row on
        unread = None                        # Lark's error for the row after them, when it was read
        if whole and self.tokenize and GAME_ACTIONS is not None:
            # the compiled reader of the common rows: every row of the game, or None (then the rows below)
            actions = GAME_ACTIONS(lines, first_row, n, line_off + first_row, threshold)
            if actions is not None:
                game.actions.extend(actions)
                return
        if whole:
            # the grammar's blank lines before the score line hold blanks and tabs only (this reader skips any
            # white space there): after another one, the game is whole only if the row reader takes every row
            blanks = all(_FAST_BLANK.fullmatch(lines[i]) for i in range(1, k))
            tokenize = self.tokenize
            whole = blanks or tokenize
            for i in range(first_row, n if whole else first_row):
                items = row_items(lines[i] + "\n") if tokenize else None
                if items is None and blanks:
                    tree, unread = parse(lines[i] + "\n", "row")
                    if tree is not None:
                        items = lark_items(tree, lines[i] + "\n")
                if items is None:
                    whole = False
                    break
                rows.append(items)
            if whole:
                self._build_rows(game, rows, line_off + first_row, threshold)
                return
        for i in range(first_row, n):          # line by line
            if len(sink) > MAX_PROBLEMS:
                break                        # reported as "too many": reading on would only cost time
            j = i - first_row
            if j < len(rows):
                items = rows[j]
            else:
                line = lines[i]
                if not line.strip():
                    continue
                if unread is not None and j == len(rows):
                    items, error = None, unread      # read once already, when the game was tried whole
                else:
                    items, error = self._read_row(line)
                if items is None:
                    if i != k:               # an unreadable score line is reported already
                        self._error_problem(error, line, line_off + i + 1, "row", sink, game.number)
                    continue
            if items:
                self._build_rows(game, [items], line_off + i, threshold)

    def _score(self, game: Game, toks: list[Token], line_off: int) -> None:
        names = ["", ""]
        scores = [0, 0]
        side = 0
        for tok in toks:
            if tok.type == "NAME":
                names[side] = tok.value.strip()
            elif tok.type == "INT":
                scores[side] = _int(tok)
                side = 1
        (n0, r0), (n1, r1) = split_rating(names[0]), split_rating(names[1])
        game.players = (n0, n1)
        if r0 is not None or r1 is not None:
            game.ratings = (r0, r1)
        game.score = (scores[0], scores[1])
        first = toks[0]
        game.score_loc = Loc(first.line + line_off, first.column)

    @staticmethod
    def _threshold(toks: list[Token]) -> int:
        """Columns before this are the left side on rows whose placement is not told by ``N)``."""
        # the right-hand side starts after the first score
        seen_int = False
        for tok in toks:
            if tok.type == "INT":
                seen_int = True
            elif seen_int:
                col = tok.column if tok.type == "NAME" else max(tok.column - 1, 1)
                return max((col + LEFT_CELL_COLUMN) // 2, LEFT_CELL_COLUMN + 1)
        return DEFAULT_THRESHOLD

    def _build_rows(self, game: Game, rows: list[list], line: int, threshold: int) -> None:
        """The Actions of rows' items (see "row items"), the first row on line ``line + 1``, the next below
        it; an item BAD skips its row."""
        out = game.actions
        roll_kind, dice_of, step_of = Kind.ROLL, DICE_OF, _STEP_OF
        for items in rows:
            line += 1
            if not items:
                continue
            actions: list[Action] = []
            append = actions.append
            move: int | None = None
            no_col = no_end = 0              # columns of the "N)" right before the current cell, if any
            after_no = nested = False
            n = len(items)
            for k, (kind, col, text, value, rest) in enumerate(items):
                if kind == NO:
                    nested = move is not None or bool(actions)
                    move = value
                    no_col, no_end, after_no = col, col + len(text), True
                    continue
                if kind == NOTE:             # a hand-typed spelling of the next cell, read as meant
                    self.match.problems.append(Problem(Loc(line, col), text, game.number, warning=True))
                    continue
                if kind == BAD:
                    self._problem(game.problems, game.number, Loc(line, col), text)
                    break                    # skip the whole row
                if after_no:
                    side = cell_side(col, threshold, True, nested, no_col, no_end,
                                     k + 1 < n and items[k + 1][0] != NO)
                    after_no = False
                else:       # cell_side's plain case inline: a call per cell costs this reader ~4 % (bench/)
                    side = 0 if col < threshold else 1
                loc = Loc(line, col)
                if kind == ROLL:             # nearly every cell: first
                    append(Action(roll_kind, side, loc, move, text, dice_of[value], value, loc,
                                  list(map(step_of, rest))))
                    continue
                if kind <= ILLEGAL:          # UNPLAYED, CANNOT, ILLEGAL: a roll with a mark, no play
                    action = Action(roll_kind, side, loc, move, text, dice_of[value], value, loc)
                    if kind == UNPLAYED:
                        action.unplayed = True
                    elif kind == CANNOT:
                        action.cannot_move = True
                    else:
                        action.illegal_mark = rest
                elif kind == WIN:
                    action = Action(Kind.WIN, side, loc, move, text, value=value, and_match=rest)
                else:
                    action = Action(_KINDS[kind], side, loc, move, text, value=value)
                append(action)
            else:
                out.extend(actions)

    def _finish(self, game: Game, chunk: str, line_off: int) -> None:
        self._results(game)
        # the last non-blank line of the game's text
        body = chunk.rstrip()
        game.end_loc = Loc(line_off + 1 + body.count("\n"), 1)

    @staticmethod
    def _results(game: Game, resigns: bool | None = None) -> None:
        """The game's results as the record means them: a ``Losses`` cell is the loser's, a margin ``Wins``.
        ``resigns``: whether a resignation is among the actions (None: looked for here)."""
        acts = game.actions
        if resigns is None:
            resigns = Kind.RESIGN in map(_KIND_OF, acts)   # (looked for in C: nearly every game has none)
        if resigns:
            last = len(acts) - 1
            for i in _indexes_of(acts, Kind.RESIGN):
                if i < last:
                    a, b = acts[i], acts[i + 1]
                    if b.kind is Kind.WIN and a.player == b.player and a.text[:6].lower() == "losses":
                        a.player = 1 - b.player
        for a in reversed(acts):         # (the results after the last roll)
            if a.kind is Kind.ROLL:
                break
            # "Wins N points" on a line of its own at the left margin, before any row's cells (a typist's
            # habit): in neither player's column; the replay credits the winner the game's end shows
            if a.kind is Kind.WIN and a.move is None and a.loc.column <= MARGIN_COLUMN:
                a.margin = True


def _indexes_of(acts, kind: Kind) -> list[int]:
    """The indexes of the actions of ``kind`` among ``acts``: a list's, or a game's packed actions' (the compiled
    reader's, ``PackedActions.kind_indexes``: the other actions are not made)."""
    if type(acts) is list:
        return [i for i, a in enumerate(acts) if a.kind is kind]
    return acts.kind_indexes(kind)


def read(text: str, path: str = "") -> Match:
    """Read Jellyfish match text.  Never raises: what cannot be read becomes a Problem."""
    return guarded_read("mat", path, lambda: _Reader(normalise_text(text), path).run())


# What a .mat cannot hold (kinds of LOSS_KINDS: ``common_losses`` reports them; the writer's own checks are
# ``result_losses``).  The writer (``mat_writer``, with the normalised match it writes from) is imported the
# first time a .mat is written: reading and validating do without it (start-up).
CANNOT_HOLD = frozenset({"clock", "action_comments", "game_comments", "other_variants", "timeouts", "setups",
                         "resign_offers"})


def _writer():
    from . import mat_writer      # (on first use: reading needs no writer)
    return mat_writer


def _write(match: Match, normal) -> str:
    return _writer().write(match, normal)


def _result_losses(normal) -> list[str]:
    return _writer().result_losses(normal)


def _register() -> None:
    register(Notation("mat", (".mat",), looks_like_mat, read, _write, ambiguous_suffixes=(".txt",),
                      cannot_hold=CANNOT_HOLD, needs_replay=True, result_losses=_result_losses, loose_sniff=True))


_register()
