"""Reader for Jellyfish match text (``.mat``, often saved as ``.txt``): docs/mat-format.md, "Dialects read".

The text is cut into pieces at the ``Game N`` lines; the piece before the first game (tags, the
``N point match`` line) and every game are parsed with the Lark grammar ``grammars/mat.lark``
(LALR, contextual lexer).  A game that does not parse as a whole is read again line by line, so an
unreadable row costs only that row: it becomes a :class:`Problem` with its line and column and the
rows around it are still read.  Nothing here checks the rules; steps are kept as written.

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
from typing import TYPE_CHECKING, Any

from ..record import BAR, OFF, Action, Game, Kind, Loc, Match, Problem, Step, split_rating
# decode: the shared decoder of the notations, kept as mat.decode
from ..i18n import N_, _, ngettext
from . import Notation, decode, either, expected_found, guarded_read, normalise_text, quoted, register
from .grammar import error_place, grammar_text

if TYPE_CHECKING:
    from lark import Lark, Token

__all__ = ["decode", "read", "looks_like_mat", "PARSER"]

# ----------------------------------------------------------------------------- parser
#
# Lark (and the grammar's parser) is loaded the first time a piece of text needs it: a record whose rows
# are all of the common kinds (see "fast rows" below) is read without it, and a command that reads only
# such records does not pay for importing Lark (tests/test_speed_paths.py checks both ways give the same).


class UnexpectedInput(Exception):
    """Stands for ``lark.exceptions.UnexpectedInput`` until Lark is loaded (:func:`_parser` puts the real
    class in its place: only Lark's parser raises it, and nothing is parsed by Lark before it is loaded)."""


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


def _parser() -> Lark:
    """The Lark parser of ``grammars/mat.lark``, built on first use and kept as the module attribute
    ``PARSER`` (which also builds it when asked for)."""
    parser = globals().get("PARSER")
    if parser is None:
        # Lark only for the rows the fast reader leaves (start-up: most records never need it)
        from lark import Lark, Transformer
        from lark.exceptions import UnexpectedInput as LarkUnexpectedInput  # (the same reason)

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
        globals().update(PARSER=parser, UnexpectedInput=LarkUnexpectedInput)
    return parser


def __getattr__(name: str):
    if name == "PARSER":              # the parser as a module attribute, as before
        return _parser()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# ----------------------------------------------------------------------------- fast rows
#
# Nearly every row of a record is "N)", rolls with their plays, "64: Cannot Move", "Doubles => N",
# "Takes", "Drops", "Wins N points [and the match]" or "Losses N points".  Such a row is cut into the same tokens the grammar gives by the
# regular expression below (the terminals of grammars/mat.lark, written once more); a row it does not
# take whole, and every game with such a row, is parsed by Lark as before.  So the grammar stays the
# definition and every message comes from it: the fast path only ever accepts rows the grammar reads
# the same way (tests/test_speed_paths.py compares the two on the corpus and on generated rows).

_STEP_RE = r"(?:bar|[0-9]{1,3})(?:/(?:[0-9]{1,3}|off)\*?)+(?:\([0-9]{1,3}\))?(?=[ \t\n])"
_FAST_ITEM = re.compile(
    r"[ \t]*(?:"
    r"(?P<no>[0-9]{1,6}\))"
    r"|(?P<cd>[0-9][0-9]:)[ \t]+(?P<cw>cannot)[ \t]+(?P<cm>move)"
    r"|(?P<roll>[0-9][0-9]:(?=[ \t\n])(?:[ \t]+" + _STEP_RE + r")*)"
    r"|(?P<dw>doubles?)[ \t]*(?P<arrow>=>)[ \t]*(?P<dv>[0-9]{1,6})"
    r"|(?P<take>takes?)"
    r"|(?P<drop>drops)"
    r"|(?P<ww>wins)[ \t]+(?P<wn>[0-9]{1,6})[ \t]+(?P<wp>points?)"
    r"(?:[ \t]+(?P<wm>and[ \t]+(?:wins[ \t]+)?the[ \t]+match))?"
    r"|(?P<lw>losses)[ \t]+(?P<ln>[0-9]{1,6})[ \t]+(?P<lp>points?)"
    r")(?=[ \t\n])", re.I)
# the group of a cell's first token, by the group that ends the match (``Match.lastgroup``)
_FIRST_GROUP = {"dv": "dw", "wp": "ww", "wm": "ww", "cm": "cd", "lp": "lw"}
_BLANK_TAIL = re.compile(r"[ \t]*\n")
# a row whose first cell is score-line text: "  1) Ann : 3        12: 24/23 13/11"
_PASTED = re.compile(r"[ \t]*[0-9]{1,6}\)[ \t]+(?P<cell>(?P<name>[^ \t\n:](?:[^\n:]{0,98}[^ \t\n:])?)[ \t]*:"
                     r"[ \t]*[0-9]{1,6})(?=[ \t]+[0-9][0-9]:)")
# an opening row whose both cells are score-line text: "  1) Ann : 15     Ann : 15"
_SCORE_CELL = r"(?P<{n}>[^ \t\n:](?:[^\n:]{{0,98}}[^ \t\n:])?)[ \t]*:[ \t]*[0-9]{{1,6}}"
_PASTED_BOTH = re.compile(r"[ \t]*[0-9]{1,6}\)[ \t]+(?P<cells>" + _SCORE_CELL.format(n="name") + r"[ \t]+"
                          + _SCORE_CELL.format(n="name2") + r")[ \t]*$")
_FAST_HEADER = re.compile(r"[ \t]*Game[ \t]+[0-9]{1,6}[ \t]*$")
_GROUP_TYPES = (("dw", "DOUBLES"), ("arrow", "ARROW"), ("dv", "INT"), ("ww", "WINS"), ("wn", "INT"),
                ("wp", "POINTS"), ("wm", "AND_MATCH"))


class _Tok:
    """A token of a fast row: the attributes of Lark's ``Token`` that the reader uses, and cheaper."""

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


_tok = _Tok


def _fast_row(src: str) -> list | None:
    """The items of one row (``src`` ends with a newline) as the grammar gives them, or None when the
    row is not one of the common kinds: then Lark reads it."""
    items: list = []
    pos = 0
    match = _FAST_ITEM.match
    while True:
        m = match(src, pos)
        if m is None:
            return items if _BLANK_TAIL.fullmatch(src, pos) else None
        pos = m.end()
        kind = m.lastgroup
        if kind == "no":
            items.append(_tok("MOVE_NO", m, "no"))
        elif kind == "roll":
            items.append(("roll", [_tok("ROLL", m, "roll")]))
        elif kind == "take":
            items.append(("take", [_tok("TAKES", m, "take")]))
        elif kind == "drop":
            items.append(("drop", [_tok("DROPS", m, "drop")]))
        elif kind == "cm":
            items.append(("cannot", [_tok("ROLL", m, "cd"), _tok("CANNOT", m, "cw"), _tok("MOVE", m, "cm")]))
        elif kind == "lp":
            items.append(("loss", [_tok("LOSSES", m, "lw"), _tok("INT", m, "ln"), _tok("POINTS", m, "lp")]))
        else:
            toks = [_tok(t, m, g) for g, t in _GROUP_TYPES if m.start(g) >= 0]
            items.append(("double" if toks[0].type == "DOUBLES" else "win", toks))


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
    return [_tok(t, m, g) for g, t in _SCORE_TYPES if m.start(g) >= 0]


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
            tok = _tok("COMMENT", m, "c")
            tok.line = no
            items.append(("comment", [tok]))
            continue
        m = _FAST_MATCH.fullmatch(line)
        if m is not None:
            toks = [_tok("INT", m, "i"), _tok("POINTS", m, "p"), _tok("MATCH", m, "m")]
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
_MATCH_LINE = re.compile(r"^[ \t]*[0-9]+[ \t]+point[ \t]+match\b", re.M | re.I)
_TAG = re.compile(r';[ \t]*\[[ \t]*([^"\]]*?)[ \t]*"(.*)"[ \t]*\][ \t]*$')


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
_GAP = re.compile(r"[ \t]{2,}")

LEFT_CELL_GAP = 4          # a first cell at most this many columns after "N)" is the left one
LEFT_CELL_COLUMN = 6       # where left cells start in every known dialect
DEFAULT_THRESHOLD = 20     # left/right split when there is no score line
MARGIN_COLUMN = 2          # a result line starting at this column or before is at the margin, in no column
MAX_REPEAT = 15            # "13/11(2)": largest repeat count read
MAX_STEPS = 32             # more written steps than this in one cell is not a play
FAST = True               # read common rows without Lark (see _fast_row); False: Lark only (tests)
MAX_PROBLEMS = 25          # unreadable lines reported per game (or before the first game)


def looks_like_mat(text: str) -> bool:
    """True when the text has an ``N point match`` line or a ``Game N`` line (sniffing)."""
    head = text[:200_000]
    return bool(_MATCH_LINE.search(head) or _GAME_LINE.search(head))


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
_MOVEMENTS: dict[str, tuple[Step, ...]] = {}   # cache: movement text -> its steps
_PLAYS: dict[str, tuple[Step, ...]] = {}       # cache: a roll cell's play text (after "53:") -> its steps,
PLAYS_MAX = 50_000                             # emptied when it holds PLAYS_MAX (frozen Steps: shared safely)


def _movement(word: str, col: int) -> tuple[Step, ...]:
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
    chain: list[Step] = []
    for part in parts[1:]:
        if src == OFF and chain:
            raise BadCell(col, _('expected "off" only at the end of a move, found "{word}"').format(word=word))
        hit = part.endswith("*")
        dst = _point(part[:-1] if hit else part, False, col, word)
        chain.append(Step(src, dst, hit))
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


def read_play(text: str, column: int, notes: list | None = None) -> list[Step]:
    """The Step entries of the movements ``text`` (starting at ``column``): chains and ``(n)`` expanded.
    ``notes`` (when given) gets a (column, message) for every word read as typed by hand (``_typed``)."""
    steps: list[Step] = []
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
    return steps


# the dice of a roll cell's two digits (None: not two dice 1-6), for every two digits
_DICE: dict[str, tuple[int, int] | None] = {
    f"{a}{b}": ((a, b) if 1 <= a <= 6 and 1 <= b <= 6 else None) for a in range(10) for b in range(10)}


def _roll_action(side: int, loc: Loc, move: int | None, text: str, steps: list[Step] | None = None) -> Action:
    """The ROLL action of a fast row's roll cell (``text`` starts with the two dice digits)."""
    dt = text[:2]
    return Action(Kind.ROLL, side, loc, move, text, _DICE[dt], dt, loc, [] if steps is None else steps)


def cell_side(col: int, threshold: int, after_no: bool, nested: bool, no_col: int, no_end: int,
              followed: bool) -> int:
    """The side (0 left, 1 right) of a row's cell that starts at column ``col``: ``threshold`` is the
    left/right split of the score line; ``after_no`` when the cell follows an ``N)`` (at columns ``no_col`` to
    ``no_end``), ``nested`` when that ``N)`` is not the row's first item, ``followed`` when another cell
    follows this one on the row.  The one placement of both readers of rows (``_row`` and ``_row_fast``)."""
    if after_no and not nested:
        # the left cell when it starts close to "N)"; one indented further than usual is still the left one
        # when another cell follows it on the row (" 4)      Doubles => 2    Drops") or it starts before the
        # left/right split of the score line
        return 0 if (col - no_end <= LEFT_CELL_GAP or followed or col < threshold) else 1
    if after_no:                        # a second "N)" inside the row: it marks where the cell is
        return 0 if no_col < threshold else 1
    return 0 if col < threshold else 1


class _Reader:
    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.match = Match(path=path, notation="mat")
        self._game_no: int | None = None

    # -- top level -------------------------------------------------------------------

    def run(self) -> Match:
        text = self.text
        if not text.endswith("\n"):
            text += "\n"
        starts = [m.start() for m in _GAME_LINE.finditer(text)]
        first = starts[0] if starts else len(text)
        if first > 0:
            self._preamble(text[:first])
        line = 1 + text.count("\n", 0, first)
        for i, start in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else len(text)
            chunk = text[start:end]
            self._game(i + 1, chunk, line - 1)
            line += chunk.count("\n")
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

    def _error_problem(self, e: UnexpectedInput, line_text: str, line_no: int, context: str,
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

    def _parse_line(self, line_text: str, start: str) -> Any:
        return _parser().parse(line_text + "\n", start=start)

    # -- before the first game -----------------------------------------------------------

    def _preamble(self, chunk: str) -> None:
        try:
            items = (_fast_preamble(chunk) if FAST else None) or _parser().parse(chunk, start="preamble")
            for item in items:
                if item is not None:
                    self._preamble_item(item, 0)
            return
        except UnexpectedInput:
            pass
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
            try:
                item = self._parse_line(line, "preamble_line")
            except UnexpectedInput as e:
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
            if self.match.match_length is not None:
                self.match.problems.append(Problem(
                    loc, _('expected one "N point match" line, found a second one "{n} point match"').format(
                        n=first.value)))
                return
            self.match.match_length = _int(first)
            self.match.match_loc = loc
            return
        value = first.value
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
        if key not in self.match.tags:
            self.match.tags[key] = val
            self.match.tag_locs[key] = loc
        norm = key.casefold().replace(" ", "").replace("_", "")
        if norm in _VARIANT_KEYS and norm != "variation" and self.match.tag("Variation") is None:
            self.match.tags["Variation"] = val
            self.match.tag_locs["Variation"] = loc

    # -- one game --------------------------------------------------------------------------

    def _game(self, number: int, chunk: str, line_off: int) -> None:
        chunk = self._pasted_score(number, chunk, line_off)
        header_col = len(chunk) - len(chunk.lstrip(" \t")) + 1
        game = Game(number=number, loc=Loc(line_off + 1, header_col))
        if FAST and self._game_fast(game, chunk, line_off):
            self.match.games.append(game)
            self._finish(game, chunk, line_off)
            return
        game = Game(number=number, loc=Loc(line_off + 1, header_col))
        self.match.games.append(game)
        try:
            header, score, rows = _parser().parse(chunk, start="game")
        except UnexpectedInput:
            self._game_by_lines(game, chunk, line_off)
        else:
            game.written_number = _int(header[1])
            self._score(game, score, line_off)
            threshold = self._threshold(score)
            for items in rows:
                if items:
                    self._row(game, items, chunk, line_off, threshold)
        self._finish(game, chunk, line_off)

    def _pasted_score(self, number: int, chunk: str, line_off: int) -> str:
        """Rows typed by hand with score-line text in a cell (``  1) Ann : 3        12: 24/23 13/11``: the
        name pasted into the empty cell of the player who does not open) read with that cell empty (the
        text blanked out, columns kept) and a warning.  Only a player's name from the score line, followed
        by `` : N``, right after the move number."""
        lines = chunk.split("\n")
        k = 1
        while k < len(lines) and not lines[k].strip():
            k += 1
        m = _FAST_SCORE.fullmatch(lines[k] + "\n") if k < len(lines) else None
        if m is None:
            return chunk
        names = {n.strip().lower() for n in (m.group("n1"), m.group("n2")) if n and n.strip()}
        rows = "\n".join(lines[k + 1:]).lower()
        if not any(n in rows for n in names):     # nearly every game: no name in its rows
            return chunk
        changed = False
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
                changed = True
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
            changed = True
        return "\n".join(lines) if changed else chunk

    def _game_fast(self, game: Game, chunk: str, line_off: int) -> bool:
        """Read a game whose rows are all of the common kinds (see ``_fast_row``) without Lark's lexer;
        False (``game`` to be thrown away) at the first line that is not, so that Lark reads the game."""
        lines = chunk.split("\n")
        lines.pop()                          # the chunk ends with a newline
        m = _FAST_HEADER.match(lines[0])
        if m is None:
            return False
        game.written_number = int(lines[0].split()[1])
        k = 1
        n = len(lines)
        while k < n and not lines[k].strip():
            k += 1
        if k == n:
            return False
        score = _fast_score(lines[k] + "\n")
        if score is None:
            try:
                score = self._parse_line(lines[k], "score_line")
            except UnexpectedInput:
                return False
        self._score(game, score, line_off + k)
        threshold = self._threshold(score)
        row = self._row_fast
        for i in range(k + 1, n):
            if not row(game, lines[i] + "\n", line_off + i, threshold):
                return False
        return True

    def _row_fast(self, game: Game, src: str, line_off: int, threshold: int) -> bool:
        """``_row(game, _fast_row(src), ...)`` without the tokens: the cells of a row of the common kinds
        straight to Actions, by the same rules (the placement ``cell_side``, the cells of
        ``_cell``); False, with nothing done, when ``_fast_row`` would give None."""
        ms = []
        pos = 0
        match = _FAST_ITEM.match
        while True:
            m = match(src, pos)
            if m is None:
                break
            ms.append(m)
            pos = m.end()
        if _BLANK_TAIL.fullmatch(src, pos) is None:
            return False
        n = len(ms)
        if not n:
            return True
        line = 1 + line_off
        actions: list[Action] = []
        move: int | None = None
        roll, dice = Kind.ROLL, _DICE
        no_col = no_end = 0                 # columns of the "N)" right before the current cell, if any
        after_no = nested = False
        for k in range(n):
            m = ms[k]
            kind = m.lastgroup
            if kind == "no":
                nested = move is not None or bool(actions)
                a, b = m.span("no")
                move = int(src[a:b - 1])
                no_col, no_end, after_no = a + 1, b + 1, True
                continue
            first = _FIRST_GROUP.get(kind, kind)
            start = m.start(first)
            end = m.end()
            col = start + 1
            if after_no:
                side = cell_side(col, threshold, True, nested, no_col, no_end,
                                 k + 1 < n and ms[k + 1].lastgroup != "no")
                after_no = False
            else:           # cell_side's plain case inline: a call per cell costs this reader ~4 % (bench/)
                side = 0 if col < threshold else 1
            loc = Loc(line, col)
            text = src[start:end]
            if kind == "roll":
                if len(text) > 3:
                    play = text[3:]
                    steps: tuple[Step, ...] | list[Step] | None = _PLAYS.get(play)
                    if steps is None:
                        try:
                            steps = read_play(play, col + 3)
                        except BadCell as bad:
                            self._problem(game.problems, game.number, Loc(line, bad.column), bad.message)
                            return True             # skip the whole row
                        if len(_PLAYS) >= PLAYS_MAX:
                            _PLAYS.clear()
                        _PLAYS[play] = tuple(steps)
                    dt = text[:2]
                    action = Action(roll, side, loc, move, text, dice[dt], dt, loc, list(steps))
                else:
                    action = _roll_action(side, loc, move, text)
            elif kind == "dv":
                action = Action(Kind.DOUBLE, side, loc, move, text, value=int(m.group("dv")))
            elif kind == "cm":                # "64: Cannot Move"
                action = _roll_action(side, loc, move, text)
                action.cannot_move = True
            elif kind == "lp":                # "Losses 2 point"
                action = Action(Kind.RESIGN, side, loc, move, text, value=int(m.group("ln")))
            elif kind == "take":
                action = Action(Kind.TAKE, side, loc, move, text)
            elif kind == "drop":
                action = Action(Kind.DROP, side, loc, move, text)
            else:
                action = Action(Kind.WIN, side, loc, move, text, value=int(m.group("wn")),
                                and_match=kind == "wm")
            actions.append(action)
        game.actions.extend(actions)
        return True

    def _game_by_lines(self, game: Game, chunk: str, line_off: int) -> None:
        """Read a game that does not parse as a whole: one line at a time."""
        lines = chunk.split("\n")[:-1]
        sink = game.problems
        try:
            header = self._parse_line(lines[0], "game_header")
            game.written_number = _int(header[1])
        except UnexpectedInput as e:
            self._error_problem(e, lines[0], line_off + 1, "game_header", sink, game.number)
        threshold = DEFAULT_THRESHOLD
        k = 1                                # the score line: the first non-blank line
        while k < len(lines) and not lines[k].strip():
            k += 1
        first_row = k + 1
        if k == len(lines):
            self._problem(sink, game.number, Loc(line_off + 1, len(lines[0].rstrip()) + 1),
                          _('expected a score line like " Alice : 0     Bob : 0" after "Game N", '
                            "found the end of the text"))
        else:
            try:
                score = self._parse_line(lines[k], "score_line")
            except UnexpectedInput as e:
                self._error_problem(e, lines[k], line_off + k + 1, "score_line", sink, game.number)
                first_row = k    # no score line: the line may still be the first row
            else:
                self._score(game, score, line_off + k)
                threshold = self._threshold(score)
        for i in range(first_row, len(lines)):
            if len(sink) > MAX_PROBLEMS:
                break                        # reported as "too many": reading on would only cost time
            line = lines[i]
            if not line.strip():
                continue
            src = line + "\n"
            try:
                items = _parser().parse(src, start="row")
            except UnexpectedInput as e:
                if i != k:                   # an unreadable score line is reported already
                    self._error_problem(e, line, line_off + i + 1, "row", sink, game.number)
                continue
            if items:
                self._row(game, items, src, line_off + i, threshold)

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

    def _row(self, game: Game, items: list, src: str, line_off: int, threshold: int) -> None:
        """Turn one row's items (move-number tokens and cells) into Actions."""
        self._game_no = game.number
        actions: list[Action] = []
        move: int | None = None
        after_no: Token | None = None      # the "N)" right before the current cell, if any
        nested = False
        for k, item in enumerate(items):
            if not isinstance(item, tuple):  # MOVE_NO
                n = int(item.value[:-1])
                nested = move is not None or bool(actions)
                move = n
                after_no = item
                continue
            tag, toks = item
            first = toks[0]
            if after_no is None:
                side = cell_side(first.column, threshold, False, nested, 0, 0, False)
            else:
                side = cell_side(first.column, threshold, True, nested, after_no.column, after_no.end_column,
                                 k + 1 < len(items) and isinstance(items[k + 1], tuple))
            after_no = None
            try:
                action = self._cell(tag, toks, src, line_off, move)
            except BadCell as bad:
                self._problem(game.problems, game.number, Loc(first.line + line_off, bad.column), bad.message)
                return                      # skip the whole row
            action.player = side
            actions.append(action)
        game.actions.extend(actions)

    def _cell(self, tag: str, toks: list[Token], src: str, line_off: int, move: int | None) -> Action:
        first = toks[0]
        last = toks[-1]
        loc = Loc(first.line + line_off, first.column)
        text = src[first.start_pos:last.end_pos]
        if tag in ("roll", "unplayed", "cannot", "illegal"):
            action = Action(Kind.ROLL, 0, loc, move, text)
            action.dice_loc = loc
            value = first.value
            if first.type == "ROLL":
                dt = value[:2]
                action.dice_text = dt
                a, b = ord(dt[0]) - 48, ord(dt[1]) - 48
                if 1 <= a <= 6 and 1 <= b <= 6:
                    action.dice = (a, b)
                play = value[3:]
                if tag != "roll" and play.strip():
                    what = {"unplayed": "????", "cannot": "Cannot Move"}.get(tag, "Illegal play")
                    # TRANSLATORS: {what}: a notation keyword ("Cannot Move"); {found}: the text after it
                    raise BadCell(first.column + 3 + len(play) - len(play.lstrip()),
                                  _('expected "{what}" right after the dice, found "{found}"').format(
                                      what=what, found=play.strip()))
                if play:
                    notes: list = []
                    action.steps = read_play(play, first.column + 3, notes)
                    for col, msg in notes:       # hand-typed spellings: warnings, the play read as meant
                        self.match.problems.append(Problem(Loc(loc.line, col), msg, self._game_no, warning=True))
            if tag == "unplayed":
                action.unplayed = True
            elif tag == "cannot":
                action.cannot_move = True
            elif tag == "illegal":
                action.illegal_mark = toks[-1].value
            return action
        if tag == "double":
            return Action(Kind.DOUBLE, 0, loc, move, text, value=_int(toks[2]))
        if tag == "beaver":
            return Action(Kind.BEAVER, 0, loc, move, text, value=_int(toks[2]))
        if tag == "take":
            return Action(Kind.TAKE, 0, loc, move, text)
        if tag == "drop":
            return Action(Kind.DROP, 0, loc, move, text)
        if tag == "win":
            return Action(Kind.WIN, 0, loc, move, text, value=_int(toks[1]),
                          and_match=toks[-1].type == "AND_MATCH")
        if tag == "resign":
            value = _int(toks[1]) if len(toks) > 1 else None
            return Action(Kind.RESIGN, 0, loc, move, text, value=value)
        # "Losses N point"
        return Action(Kind.RESIGN, 0, loc, move, text, value=_int(toks[1]))

    def _finish(self, game: Game, chunk: str, line_off: int) -> None:
        acts = game.actions
        for i in range(len(acts) - 1):
            a, b = acts[i], acts[i + 1]
            if (a.kind is Kind.RESIGN and b.kind is Kind.WIN and a.player == b.player
                    and a.text[:6].lower() == "losses"):
                a.player = 1 - b.player
        for a in reversed(acts):         # (the results after the last roll)
            if a.kind is Kind.ROLL:
                break
            # "Wins N points" on a line of its own at the left margin, before any row's cells (a typist's
            # habit): in neither player's column; the replay credits the winner the game's end shows
            if a.kind is Kind.WIN and a.move is None and a.loc.column <= MARGIN_COLUMN:
                a.margin = True
        # the last non-blank line of the game's text
        body = chunk.rstrip()
        game.end_loc = Loc(line_off + 1 + body.count("\n"), 1)


def read(text: str, path: str = "") -> Match:
    """Read Jellyfish match text.  Never raises: what cannot be read becomes a Problem."""
    return guarded_read("mat", path, lambda: _Reader(normalise_text(text), path).run())


def _register() -> None:
    # the writer imports this module (comment_line): it is imported once this module is complete
    from .mat_writer import CANNOT_HOLD, result_losses, write
    register(Notation("mat", (".mat",), looks_like_mat, read, write, ambiguous_suffixes=(".txt",),
                      cannot_hold=CANNOT_HOLD, needs_replay=True, result_losses=result_losses, loose_sniff=True))


_register()
