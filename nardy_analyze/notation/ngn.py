"""The project's own notation (``.ngn``): reader and writer.  The specification is ``docs/notation.md``.

The grammar ``grammars/ngn.lark`` (Lark, LALR, contextual lexer) reads the text as a flat list of lines;
this module puts the lines together (tags, games, the cells of each move line, the chain and handover
lines that continue a roll).  The text is read one logical line at a time: the common lines (move numbers
with rolls and plays, chain and handover parts, double, take, drop, wins) are cut by the grammar's own
terminals without Lark's parser (``_fast_line``: the same tokens and items), any other line is parsed by
Lark, so an unreadable line costs only that line: it becomes a :class:`Problem` with its line and column
("expected X, found Y") and the other lines and games are still read.  Nothing here checks the rules:
steps are kept as written.

The writer is the reader's mirror: ``read(write(m))`` is the same record as ``m``
(:func:`nardy_analyze.record.same_record`) and ``write(read(write(m))) == write(m)``.
"""
from __future__ import annotations

import re
from decimal import Decimal
from functools import cache
from typing import Iterable, Iterator

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedInput

from ..engine.posid import decode_position_id, position_id
from ..record import BAR, CENTRED, LEVELS, OFF, Action, Game, Kind, Loc, Match, Problem, Segment, Setup, Step
from ..i18n import N_, _
from . import Notation, either, expected_found, guarded_read, normalise_text, quoted, register
from .grammar import error_place, grammar_text
from . import mat
from .mat import DICE_OF, MAX_REPEAT, BadCell, read_play
from .sniffs import looks_like_ngn

__all__ = ["read", "write", "looks_like_ngn", "SIDES", "MATCH_LENGTH_TAG"]

SIDES = ("W", "B")                 # player 0 (tag White), player 1 (tag Black)
MATCH_LENGTH_TAG = "MatchLength"   # read into Match.match_length, not kept in Match.tags
MAX_PROBLEMS = 50                  # unreadable lines reported per file


# ----------------------------------------------------------------------------- parser

class _Build(Transformer):
    """Runs inside the LALR parser: every rule becomes ``(name, children)``."""

    def __default__(self, data, children, meta):
        if data.startswith("_"):         # inlined rules: the parse-tree builder splices their children
            return Tree(data, children, meta)
        return (data, children)

    def start(self, ch: list) -> list:
        return ch

    def line(self, ch: list):
        return ch[0] if ch else None


@cache
def _parser() -> Lark:
    """The parser, built on first use (writing needs none); Lark keeps the grammar's analysis in the
    temporary folder (``cache=True``), keyed by the grammar's text: faster start-up."""
    return Lark(
        grammar_text("ngn"),
        parser="lalr",
        lexer="contextual",
        start=["start", "line"],
        transformer=_Build(),
        maybe_placeholders=False,
        cache=True,
    )


# ----------------------------------------------------------------------------- text helpers

_TAG = re.compile(r'\[[ \t]*(.*?)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]$', re.S)
_ESC = re.compile(r"\\(.)", re.S)
_FOLD = re.compile(r"[ \t]*\n[ \t]*")
_UNESC = {"n": "\n", "r": "\r", "t": "\t"}


def _unescape(s: str) -> str:
    if "\\" not in s:
        return s
    return _ESC.sub(lambda m: _UNESC.get(m.group(1), m.group(1)), s)


def _quote(s: str) -> str:
    return '"' + (s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                  .replace("\r", "\\r")) + '"'


def _brace(s: str) -> str:
    return "{ " + (s.replace("\\", "\\\\").replace("}", "\\}").replace("\n", "\\n")
                   .replace("\r", "\\r")) + " }"


def _comment_text(tok: Token) -> str:
    if tok.type == "LINE_COMMENT":
        return tok.value[1:].strip()
    inner = tok.value[1:-1]
    if "\n" in inner:                    # a comment written over several lines: one space per line break
        inner = _FOLD.sub(" ", inner)
    if inner.startswith(" "):
        inner = inner[1:]
    if inner.endswith(" "):
        inner = inner[:-1]
    return _unescape(inner)


def _clock_seconds(tok: Token) -> float:
    body = tok.value[1:-1]
    if body.endswith("s"):
        return float(body[:-1])
    minutes, _sep, seconds = body.partition(":")
    return int(minutes) * 60 + float(seconds) if "." in seconds else float(int(minutes) * 60 + int(seconds))


def _clock_left_seconds(tok: Token) -> float:
    """``(clk 0:13:02)``, ``(clk 13:02)``, ``(clk -0:03)`` -> seconds (negative: the flag has fallen)."""
    body = tok.value[1:-1].split(None, 1)[1].strip()
    sign = -1 if body.startswith("-") else 1
    n = 0.0
    for part in body.lstrip("-").split(":"):
        n = n * 60 + float(part)
    n *= sign
    return float(int(n)) if n == int(n) else n


def _clock_left_text(seconds: float) -> str:
    sign = "-" if seconds < 0 else ""
    x = abs(seconds)
    whole = int(x)
    frac = x - whole
    h, m, s = whole // 3600, whole // 60 % 60, whole % 60
    tail = format(Decimal(repr(float(frac))), "f")[1:] if frac else ""
    return f"(clk {sign}{h}:{m:02d}:{s:02d}{tail})"


def _clock_text(seconds: float) -> str:
    if seconds == int(seconds) and seconds >= 0:
        s = int(seconds)
        return f"({s // 60}:{s % 60:02d})"
    return f"({format(Decimal(repr(float(seconds))), 'f')}s)"


# ----------------------------------------------------------------------------- messages

_NAMES = {
    "TAG": N_('a tag like [Event "Club night"]'),
    "GAME": '"Game N"',
    "PLAYERS": '"players"',
    "RATINGS": '"ratings"',
    "SCORE": '"score"',
    "NAME": N_('a quoted name like "Alice"'),
    "SCORE_PAIR": N_('a score like "2-1"'),
    "INT": N_("a number"),
    "MOVE_NO": N_('a move number like "12."'),
    "MOVE_NO_B": N_('a move number like "12..."'),
    "SIDE": N_('"W" or "B"'),
    "ROLL": N_('a roll like "64:"'),
    "PART": N_('the numbers played, like "44:" or "3:"'),
    "CHAIN": '"chain"',
    "HANDOVER": '"handover"',
    "DOUBLE": '"double N"',
    "TAKE": '"take"',
    "DROP": '"drop"',
    "RESIGN": '"resign"',
    "LEVEL": N_('"single", "gammon" or "backgammon"'),
    "BEAVER": '"beaver N"',
    "ACCEPT": '"accept"',
    "REJECT": '"reject"',
    "SETUP": '"setup"',
    "POSITION": '"position ID"',
    "POSID": N_('a GNU Backgammon Position ID like "4HPwATDgc/ABMA"'),
    "DICE_WORD": '"dice 31"',
    "CUBE_WORD": '"cube 2"',
    "OWNER": N_('"owner W", "owner B" or "owner centre"'),
    "CENTRE": '"centre"',
    "WINS": '"wins N"',
    "MATCH": '"match"',
    "TIMEOUT": '"timeout"',
    "CLOCK": N_('a clock time like "(1:05)"'),
    "CLOCK_LEFT": N_('the clock after the move like "(clk 0:13:02)"'),
    "DRAW": '"draw"',
    "COMMENT": N_('a comment "{...}"'),
    "LINE_COMMENT": N_('a comment "; ..."'),
    "_NL": N_("the end of the line"),
    "$END": N_("the end of the text"),
}
_LINE_START = N_('a line starting with a tag [Key "Value"], "Game N", a move number like "12." or "12...", '
                 '"W"/"B", "chain", "handover" or a comment')
_CELL = N_('a cell: a roll like "64:", "double N", "beaver N", "take", "drop", "resign", "accept", "reject", '
           '"wins N", "timeout" or "setup"')
_IN_PLAY = N_('a move like "24/18", "bar/21*" or "6/off", a clock time like "(1:05)", a comment or the next cell')
_NAMED = set(_NAMES.values())
# the names above that are one quoted keyword: quoted in the language's quotation marks, not translated
_KEYWORD = re.compile(r'"([^"]*)"')


def _name(text: str) -> str:
    """One of the names of ``_NAMES`` in the current language: a quoted keyword alone is only re-quoted."""
    m = _KEYWORD.fullmatch(text)
    return quoted(m.group(1)) if m else _(text)


_STEPISH = re.compile(r"(?:bar|[0-9]+)/", re.I)


def _expected_text(expected: set[str], found: str = "") -> str:
    expected = {t for t in expected if t not in ("COMMENT", "LINE_COMMENT") or len(expected) <= 2}
    if "TAG" in expected and "GAME" in expected:
        return _(_LINE_START)
    if "CLOCK" in expected and _STEPISH.match(found):
        return _(_IN_PLAY)               # an unreadable movement ends the play token before it
    if "CLOCK" in expected and "ROLL" in expected:
        return _('a clock time like "(1:05)", a comment or the next cell')
    if "ROLL" in expected and "TAKE" in expected:
        return _(_CELL)
    # sorted by the English names (the order of the message does not depend on the language); a terminal
    # without a name of its own: its grammar name (an interface word), as Lark gives it
    names = sorted({_NAMES.get(t, t) for t in expected if t not in ("CLOCK", "CLOCK_LEFT", "$END")})
    if not names:
        return _("the end of the line")
    names = [_name(n) if n in _NAMED else n for n in names]
    if len(names) > 6:
        names = names[:6] + ["..."]
    return either(names)


def _found_text(line: str, col: int) -> str:
    rest = line[col - 1:].strip()
    if not rest:
        return _("the end of the line")
    word = rest.split()[0]
    if len(word) > 40:
        word = word[:40] + "..."
    return quoted(word)


# ----------------------------------------------------------------------------- reader

class _Reader:
    """Reads one text.  ``tokenize=False`` parses the whole text with Lark first, as the reader did before
    its line reader (the tests compare both ways)."""

    def __init__(self, text: str, path: str, tokenize: bool = True) -> None:
        self.text = text
        self.tokenize = tokenize
        self.match = Match(path=path, notation="ngn")
        self.game: Game | None = None
        self.last_line = 0                 # last non-blank line of the current game
        self.src = text                    # the text the current tokens' positions refer to
        self.off = 0                       # line offset of the current tokens

    def run(self) -> Match:
        text = self.text
        if not text.endswith("\n"):
            text += "\n"
        if self.tokenize:
            self._by_lines(text, fast=True)
        else:
            try:
                items = _parser().parse(text, start="start")
            except UnexpectedInput:
                self._by_lines(text)
            else:
                self.src, self.off = text, 0
                for item in items:
                    self._item(item)
        self._close_game()
        return self.match

    def _by_lines(self, text: str, fast: bool = False) -> None:
        """Read the text one logical line at a time (a line, or the lines a ``{`` comment spans): each line
        the line reader takes (``fast``: :func:`_fast_line`) is read without Lark, any other is parsed by
        Lark alone (rule ``line``), so an unreadable line costs only that line.  Inside a game, a run of
        plain move lines goes to the compiled reader where it is in use (``mat.NGN_ACTIONS``: the same
        Actions, made in one call; it stops at the first line it does not read, which is read here)."""
        lines = text.split("\n")[:-1]
        starts: list[int] = []              # (fast) where each line starts in the text
        compiled = mat.NGN_ACTIONS if fast else None
        read_to = 0                         # (compiled) the lines before this index are read
        if fast:
            at = 0
            for line in lines:
                starts.append(at)
                at += len(line) + 1
            lexers = _line_lexers()
        for no, count in _logical_lines(lines):
            if no <= read_to:               # (a line of the run the compiled reader read: no comment opens on it)
                continue
            if compiled is not None and count == 1 and self.game is not None:
                read_to, last = compiled(lines, no - 1, self.game.actions)
                if last:
                    self.last_line = last
                if read_to >= no:
                    continue
            if fast and count == 1:
                a = starts[no - 1]
                item = _fast_line(text, a, a + len(lines[no - 1]), no, lexers)
                if item is not None:
                    if item:
                        self.src, self.off = text, 0
                        self._item(item)
                    continue
            chunk = lines[no - 1: no - 1 + count]
            if not any(x.strip() for x in chunk):
                continue
            src = "\n".join(chunk) + "\n"
            try:
                item = _parser().parse(src, start="line")
            except UnexpectedInput as e:
                at = getattr(e, "line", 1)
                at = at - 1 if isinstance(at, int) and 1 <= at <= count else 0
                self._error(e, chunk[at], no + at)
                continue
            if item is not None:
                self.src, self.off = src, no - 1
                self._item(item)

    # -- problems ---------------------------------------------------------------------

    def _sink(self) -> list[Problem]:
        return self.game.problems if self.game is not None else self.match.problems

    def _problem(self, loc: Loc, message: str) -> None:
        total = len(self.match.problems) + sum(len(g.problems) for g in self.match.games)
        if total < MAX_PROBLEMS:
            self._sink().append(Problem(loc, message, self.game.number if self.game else None))
        elif total == MAX_PROBLEMS:
            self._sink().append(Problem(loc, _("too many unreadable lines; the rest are not reported"),
                                        self.game.number if self.game else None))

    def _error(self, e: UnexpectedInput, line: str, no: int) -> None:
        col, expected = error_place(e, line)
        if self.game is not None:
            self.last_line = no
        if line[col - 1: col] == "{":
            self._problem(Loc(no, col), _('expected a "}}" to close the comment that starts here, found none').format())
            return
        found = line[col - 1:].strip()
        self._problem(Loc(no, col), expected_found(_expected_text(expected, found), _found_text(line, col)))

    def _loc(self, tok: Token) -> Loc:
        return Loc(tok.line + self.off, tok.column)

    # -- lines ------------------------------------------------------------------------

    def _item(self, item: tuple) -> None:
        kind, ch = item
        first = ch[0]
        line_no = first.line + self.off if isinstance(first, Token) else self._first_tok(ch).line + self.off
        if self.game is not None and kind != "game_line":
            self.last_line = line_no
        try:
            getattr(self, "_" + kind)(ch)
        except BadCell as bad:
            self._problem(Loc(line_no, bad.column), bad.message)

    @staticmethod
    def _first_tok(ch: list) -> Token:
        for c in ch:
            if isinstance(c, Token):
                return c
            return _Reader._first_tok(c[1])
        raise ValueError("empty item")

    def _notes(self, toks: list) -> list[str]:
        return [_comment_text(t) for t in toks if isinstance(t, Token) and t.type in ("COMMENT", "LINE_COMMENT")]

    def _comment_sink(self) -> list[str]:
        if self.game is None:
            return self.match.comments
        if self.game.actions:
            return self.game.actions[-1].comments
        return self.game.comments

    def _note_line(self, ch: list) -> None:
        self._comment_sink().extend(self._notes(ch))

    def _tag_line(self, ch: list) -> None:
        tok = ch[0]
        loc = self._loc(tok)
        if self.game is not None:
            raise BadCell(tok.column, _("expected a move line, a comment or \"Game N\", found a tag; "
                                        "tags go before the first game"))
        m = _TAG.match(tok.value)
        key, value = m.group(1), _unescape(m.group(2))
        seen = self.match.tag_locs.get(key)
        if seen is not None:
            raise BadCell(tok.column, _('expected each tag once, found a second "{tag}" tag (the first is at '
                                        "line {line})").format(tag=key, line=seen.line))
        if key == MATCH_LENGTH_TAG:
            if not value.strip().isdigit():
                raise BadCell(tok.column, _('expected a whole number of points in the MatchLength tag '
                                            '(0 for money play), found "{value}"').format(value=value))
            self.match.match_length = int(value)
            self.match.match_loc = loc
        else:
            self.match.tags[key] = value
        self.match.tag_locs[key] = loc
        self.match.comments.extend(self._notes(ch[1:]))

    def _game_line(self, ch: list) -> None:
        self._close_game()
        tok = ch[0]
        game = Game(number=len(self.match.games) + 1, loc=self._loc(tok))
        game.players = (self.match.tags.get("White", ""), self.match.tags.get("Black", ""))
        for c in ch[1:]:
            if isinstance(c, Token):
                if c.type == "INT":
                    game.written_number = int(c.value)
                continue
            what, toks = c
            if what == "players":
                game.players = (_unescape(toks[1].value[1:-1]), _unescape(toks[2].value[1:-1]))
            elif what == "ratings":           # "" for a player without a rating
                r0, r1 = (_unescape(t.value[1:-1]) for t in toks[1:3])
                game.ratings = (r0 or None, r1 or None)
            elif what == "score":
                a, _sep, b = toks[1].value.partition("-")
                game.score = (int(a), int(b))
                game.score_loc = self._loc(toks[1])
        game.comments.extend(self._notes(ch))
        self.match.games.append(game)
        self.game = game
        self.last_line = tok.line + self.off

    def _close_game(self) -> None:
        if self.game is not None:
            self.game.end_loc = Loc(self.last_line, 1)

    def _need_game(self, tok: Token) -> Game:
        if self.game is None:
            raise BadCell(tok.column, _('expected a line "Game N" before the first move, found "{found}"').format(
                found=tok.value))
        return self.game

    def _moves_line(self, ch: list) -> None:
        game = self._need_game(ch[0])
        move = int(ch[0].value[:-1])
        actions = [self._cell(cell, side, move) for side, cell in enumerate(ch[1:])]
        game.actions.extend(actions)

    def _moves_line_b(self, ch: list) -> None:
        game = self._need_game(ch[0])
        move = int(ch[0].value[:-3])
        game.actions.append(self._cell(ch[1], 1, move))

    def _side_line(self, ch: list) -> None:
        game = self._need_game(ch[0])
        game.actions.append(self._cell(ch[1], SIDES.index(ch[0].value), None))

    def _cont_line(self, ch: list) -> None:
        first = self._first_tok(ch)
        game = self._need_game(first)
        if not game.actions or game.actions[-1].kind is not Kind.ROLL:
            raise BadCell(first.column, _('expected a roll on the line before "{word}" '
                                          "(a chain or handover line continues a roll)").format(word=first.value))
        action = game.actions[-1]
        part = Action(Kind.ROLL, action.player, action.loc)    # the line's parts, added whole or not at all
        for seg in ch:
            self._segment(part, seg)
        for attr, typ in (("clock", "CLOCK"), ("clock_left", "CLOCK_LEFT")):
            if getattr(part, attr) is not None and getattr(action, attr) is not None:
                clock = next(t for _, toks in ch for t in toks if t.type == typ)
                raise BadCell(clock.column, _("expected one clock time per action, found a second one {clock}").format(
                    clock=clock.value))
            if getattr(part, attr) is not None:
                setattr(action, attr, getattr(part, attr))
        action.segments.extend(part.segments)
        action.comments.extend(part.comments)

    # -- cells ------------------------------------------------------------------------

    def _cell(self, cell: tuple, player: int, move: int | None) -> Action:
        kind, ch = cell
        first = ch[0]
        loc = Loc(first.line + self.off, first.column)
        if kind == "roll" and len(ch) == 1:  # nearly every cell: a roll alone (no part, clock or comment)
            action = Action(Kind.ROLL, player, loc, move, first.value, dice_loc=loc)
            self._roll(action, first)
            return action
        main = [t for t in ch if isinstance(t, Token) and t.type not in ("CLOCK", "CLOCK_LEFT", "COMMENT",
                                                                            "LINE_COMMENT")]
        text = self.src[first.start_pos:main[-1].end_pos]
        if kind == "roll":
            action = Action(Kind.ROLL, player, loc, move, text, dice_loc=loc)
            self._roll(action, first)
        elif kind == "setup":
            action = Action(Kind.SETUP, player, loc, move, text, setup=Setup())
            for c in ch:
                if isinstance(c, tuple):
                    self._setup_item(action, c)
            self._extras(action, ch)
            return action
        else:
            action = Action(_KINDS[kind], player, loc, move, text)
            ints = [t for t in main if t.type == "INT"]
            if ints:
                action.value = int(ints[0].value)
            action.and_match = any(t.type == "MATCH" for t in main)
            level = next((t for t in main if t.type == "LEVEL"), None)
            if level is not None:
                action.level = _LEVEL_OF[level.value.lower()]
        self._extras(action, ch)
        for c in ch:
            if isinstance(c, tuple):
                self._segment(action, c)
        return action

    @staticmethod
    def _roll(action: Action, tok: Token) -> None:
        """The dice and the play of a roll cell's token ``tok`` ("64: 24/18 13/9", "??: ????", "66: cannot move")."""
        value = tok.value
        dt = value[:2]
        if dt != "??":
            action.dice_text = dt
            action.dice = DICE_OF[dt]
        rest = value[3:]
        body = rest.strip()
        if not body:
            return
        if body == "????":
            action.unplayed = True
        elif body[:7].lower() == "illegal":
            action.illegal_mark = body
        elif body[:6].lower() == "cannot":
            action.cannot_move = True
        else:
            action.steps = read_play(rest, tok.column + 3)

    def _setup_item(self, action: Action, item: tuple) -> None:
        what, toks = item
        word, val = toks[0], toks[1]
        s = action.setup
        field = {"setup_position": "checkers", "setup_dice": "dice", "setup_cube": "cube",
                 "setup_owner": "owner"}[what]
        if getattr(s, field) is not None:
            raise BadCell(word.column, _('expected "{word}" once in a setup, found it again').format(word=word.value))
        if field == "checkers":
            sides = decode_position_id(val.value)
            if sides is None:
                raise BadCell(val.column, _('expected a GNU Backgammon Position ID (14 characters, at most 15 '
                                            'checkers a side), found "{found}"').format(found=val.value))
            me, opp = sides
            s.checkers = (me, opp) if action.player == 0 else (opp, me)
        elif field == "dice":
            if len(val.value) != 2 or not all("1" <= c <= "6" for c in val.value):
                raise BadCell(val.column, _('expected two dice 1-6 after "dice", found "{found}"').format(
                    found=val.value))
            s.dice = (int(val.value[0]), int(val.value[1]))
        elif field == "cube":
            n = int(val.value)
            if n < 1:
                raise BadCell(val.column, _('expected a cube value 1, 2, 4, ... after "cube", found "{found}"').format(
                    found=val.value))
            s.cube = n
        else:
            s.owner = CENTRED if val.type == "CENTRE" else SIDES.index(val.value)

    def _extras(self, action: Action, ch: list, timed: "Action | Segment | None" = None) -> None:
        """Clock times and comments of a cell (or a chain/handover part): the comments are the action's; the
        clock times go to ``timed`` (a handover's own clock: its player's time), else to the action."""
        timed = action if timed is None else timed
        for t in ch:
            if not isinstance(t, Token):
                continue
            if t.type in ("CLOCK", "CLOCK_LEFT"):
                attr = "clock" if t.type == "CLOCK" else "clock_left"
                if getattr(timed, attr) is not None:
                    raise BadCell(t.column, _("expected one clock time per action, found a second one {clock}").format(
                        clock=t.value))
                setattr(timed, attr, _clock_seconds(t) if t.type == "CLOCK" else _clock_left_seconds(t))
            elif t.type in ("COMMENT", "LINE_COMMENT"):
                action.comments.append(_comment_text(t))

    def _segment(self, action: Action, seg: tuple) -> None:
        kind, ch = seg
        player = action.player if kind == "chain" else 1 - action.player
        part = None
        for t in ch:
            if t.type == "SIDE":
                player = SIDES.index(t.value)
            elif t.type == "PART":
                part = t
        digits, _sep, rest = part.value.partition(":")
        if any(not "1" <= d <= "6" for d in digits):
            raise BadCell(part.column, _('expected numbers 1..6 after "{word}", found "{found}"').format(
                word=kind, found=digits + ":"))
        dice = tuple(int(d) for d in digits)
        if kind == "chain" and len(dice) == 2 and dice[0] == dice[1]:
            dice = dice * 2
        steps = read_play(rest, part.column + len(digits) + 1) if rest.strip() else []
        segment = Segment(kind, player, dice, steps, self._loc(ch[0]), self.src[ch[0].start_pos:part.end_pos])
        action.segments.append(segment)
        # a handover's clock times are its player's (the opponent's); a chain part's are the roller's
        self._extras(action, ch, segment if kind == "handover" else None)


def _logical_lines(lines: list[str]) -> list[tuple[int, int]]:
    """(first line number, number of lines) of each logical line: a line whose ``{`` comment is not
    closed on it goes on to the line that closes it (a comment that never closes does not)."""
    out: list[tuple[int, int]] = []
    start = None
    in_brace = False
    for i, line in enumerate(lines):
        if start is None:
            if "{" not in line:             # (nearly every line: no comment can open on it)
                out.append((i + 1, 1))
                continue
            start = i
        in_quote = in_bracket = False
        k = 0
        while k < len(line):
            c = line[k]
            if in_bracket and not in_quote:     # a tag's name may hold "{" or ";"
                if c == "]":
                    in_bracket = False
                elif c == '"':
                    in_quote = True
            elif in_brace:
                if c == "\\":
                    k += 1
                elif c == "}":
                    in_brace = False
            elif in_quote:
                if c == "\\":
                    k += 1
                elif c == '"':
                    in_quote = False
            elif c == '"':
                in_quote = True
            elif c == "[":
                in_bracket = True
            elif c == "{":
                in_brace = True
            elif c == ";":
                break
            k += 1
        if not in_brace:
            out.append((start + 1, i - start + 1))
            start = None
    if start is not None:                 # an unclosed comment: its lines are read one by one
        out.extend((j + 1, 1) for j in range(start, len(lines)))
    return out


# ----------------------------------------------------------------------------- the line reader
#
# Nearly every line of a record is a move line, a side line or a chain/handover line made only of rolls with
# their plays, chain and handover parts, "double N", "take", "drop" and "wins N [match]": no comment, clock,
# setup or other cell.  Such a line is cut here by the grammar's own terminals (their regular expressions
# taken from the parser: the grammar stays their one definition) into the very tokens and items Lark's parser
# gives, without its parser machinery; any other line, and any line this does not take as a whole, is
# Lark's (``_Reader._by_lines``).  tests/test_ngn.py compares the two ways on generated records of every
# variant and on altered lines.

_LINE_TERMINALS = ("MOVE_NO_B", "MOVE_NO", "SIDE", "CHAIN", "HANDOVER", "ROLL", "PART", "DOUBLE", "TAKE",
                   "DROP", "WINS", "INT", "MATCH", "GAME", "PLAYERS", "RATINGS", "NAME", "SCORE", "SCORE_PAIR")
_BLANKS = re.compile(r"[ \t]*")


@cache
def _line_lexers() -> dict[str, "re.Pattern[str]"]:
    """The grammar's terminals that the line reader uses, by name, as the parser's lexer compiles them;
    and under "" the commonest lines in one expression: a move number and one or two rolls, or one chain
    or handover part (a roll's play never ends where another roll could start, so the expression's match
    is the tokens' one by one)."""
    terms = {t.name: t for t in _parser().terminals}
    rx = {name: terms[name].pattern.to_regexp() for name in _LINE_TERMINALS}
    lexers = {name: re.compile(x) for name, x in rx.items()}
    lexers[""] = re.compile(
        rf"[ \t]*(?:(?:(?P<no>{rx['MOVE_NO']})|(?P<nob>{rx['MOVE_NO_B']}))[ \t]*(?P<r1>{rx['ROLL']})"
        rf"(?:[ \t]*(?P<r2>{rx['ROLL']}))?"
        rf"|(?:(?P<chain>{rx['CHAIN']})|(?P<handover>{rx['HANDOVER']}))(?:[ \t]*(?P<side>{rx['SIDE']}))?"
        rf"[ \t]*(?P<part>{rx['PART']}))[ \t]*")
    return lexers


def _fast_line(text: str, a: int, b: int, no: int, lexers: dict) -> tuple | None:
    """The item of the line ``text[a:b]`` (line ``no``) as Lark's parser gives it; ``()`` for a blank line;
    None when the line is not one of the common kinds (then Lark reads it)."""
    m = lexers[""].fullmatch(text, a, b)
    if m is not None and not (m.start("nob") >= 0 and m.start("r2") >= 0):   # "12..." has one cell only
        def at(group: str, name: str) -> Token:
            i, j = m.span(group)
            return Token(name, text[i:j], i, no, i - a + 1, no, j - a + 1, j)
        if m.start("part") >= 0:
            word = "chain" if m.start("chain") >= 0 else "handover"
            ch = [at(word, word.upper())]
            if m.start("side") >= 0:
                ch.append(at("side", "SIDE"))
            ch.append(at("part", "PART"))
            return ("cont_line", [(word, ch)])
        if m.start("nob") >= 0:
            return ("moves_line_b", [at("nob", "MOVE_NO_B"), ("roll", [at("r1", "ROLL")])])
        if m.start("r2") >= 0:
            return ("moves_line", [at("no", "MOVE_NO"), ("roll", [at("r1", "ROLL")]), ("roll", [at("r2", "ROLL")])])
        return ("moves_line", [at("no", "MOVE_NO"), ("roll", [at("r1", "ROLL")])])
    pos = _BLANKS.match(text, a).end()
    if pos == b:
        return ()

    def tok(name: str):
        nonlocal pos
        m = lexers[name].match(text, pos)
        if m is None:
            return None
        end = m.end()
        t = Token(name, m.group(), pos, no, pos - a + 1, no, end - a + 1, end)
        pos = _BLANKS.match(text, end).end()
        return t

    def segments() -> list | None:
        out = []
        while True:
            word = tok("CHAIN") or tok("HANDOVER")
            if word is None:
                return out
            kind = "chain" if word.type == "CHAIN" else "handover"
            side = tok("SIDE")
            part = tok("PART")
            if part is None:
                return None
            out.append((kind, [word, side, part] if side is not None else [word, part]))

    def cell() -> tuple | None:
        roll = tok("ROLL")
        if roll is not None:
            segs = segments()
            return None if segs is None else ("roll", [roll, *segs])
        t = tok("DOUBLE")
        if t is not None:
            value = tok("INT")
            return None if value is None else ("double", [t, value])
        t = tok("TAKE") or tok("DROP")
        if t is not None:
            return (t.type.lower(), [t])
        t = tok("WINS")
        if t is not None:
            ch = [t]
            for name in ("INT", "MATCH"):
                x = tok(name)
                if x is not None:
                    ch.append(x)
            return ("wins", ch)
        return None

    head = tok("GAME")
    if head is not None:        # "Game N players "A" "B" ratings "1" "2" score A-B" (a comment: Lark's)
        ch = [head]
        number = tok("INT")
        if number is not None:
            ch.append(number)
        for rule, name in (("players", "PLAYERS"), ("ratings", "RATINGS")):
            word = tok(name)
            if word is not None:
                first = tok("NAME")
                second = tok("NAME") if first is not None else None
                if second is None:
                    return None
                ch.append((rule, [word, first, second]))
        word = tok("SCORE")
        if word is not None:
            pair = tok("SCORE_PAIR")
            if pair is None:
                return None
            ch.append(("score", [word, pair]))
        return ("game_line", ch) if pos == b else None
    head = tok("MOVE_NO_B")
    if head is not None:
        kind, cells = "moves_line_b", 1
    else:
        head = tok("MOVE_NO")
        if head is not None:
            kind, cells = "moves_line", 2
        else:
            head = tok("SIDE")
            if head is None:
                segs = segments()
                return ("cont_line", segs) if segs and pos == b else None
            kind, cells = "side_line", 1
    ch = [head]
    while len(ch) <= cells and pos < b:
        c = cell()
        if c is None:
            return None
        ch.append(c)
    return (kind, ch) if len(ch) > 1 and pos == b else None


_KINDS = {"double": Kind.DOUBLE, "take": Kind.TAKE, "drop": Kind.DROP, "resign": Kind.RESIGN,
          "wins": Kind.WIN, "timeout": Kind.TIMEOUT, "beaver": Kind.BEAVER, "accept": Kind.ACCEPT,
          "reject": Kind.REJECT, "draw": Kind.DRAW}
_LEVEL_OF = {v: k for k, v in LEVELS.items()}


def read(text: str, path: str = "") -> Match:
    """Read the project's own notation.  Never raises: what cannot be read becomes a Problem."""
    return guarded_read("ngn", path, lambda: _Reader(normalise_text(text), path).run())


# ----------------------------------------------------------------------------- writer

_FIRST_AFTER_LENGTH = ("Scoring", "TimeControl", "Result")


def _point(p: int, is_src: bool) -> str:
    if is_src and p == BAR:
        return "bar"
    if not is_src and p == OFF:
        return "off"
    return str(p)


def _steps_text(steps: list[Step]) -> str:
    """Steps in the written order, runs of the same step as ``24/21(2)``."""
    out: list[str] = []
    i = 0
    while i < len(steps):
        s = steps[i]
        n = 1
        while i + n < len(steps) and steps[i + n] == s and n < MAX_REPEAT:
            n += 1
        word = f"{_point(s.src, True)}/{_point(s.dst, False)}{'*' if s.hit else ''}"
        out.append(word if n == 1 else f"{word}({n})")
        i += n
    return " ".join(out)


def _extras_text(action: Action) -> str:
    parts = []
    if action.clock is not None:
        parts.append(_clock_text(action.clock))
    if action.clock_left is not None:
        parts.append(_clock_left_text(action.clock_left))
    parts.extend(_brace(c) for c in action.comments)
    return " ".join(parts)


def _cell_text(a: Action) -> str:
    if a.kind is Kind.ROLL:
        dt = a.dice_text or (f"{a.dice[0]}{a.dice[1]}" if a.dice else "??")
        body = f"{dt}:"
        if a.unplayed:
            body += " ????"
        elif a.illegal_mark:
            body += " " + a.illegal_mark
        elif a.cannot_move:
            body += " cannot move"
        elif a.steps:
            body += " " + _steps_text(a.steps)
    elif a.kind is Kind.DOUBLE:
        body = f"double {a.value if a.value is not None else ''}".rstrip()
    elif a.kind is Kind.WIN:
        body = "wins" + (f" {a.value}" if a.value is not None else "") + (" match" if a.and_match else "")
    elif a.kind is Kind.BEAVER:
        body = f"beaver {a.value if a.value is not None else ''}".rstrip()
    elif a.kind in (Kind.ACCEPT, Kind.REJECT, Kind.DRAW):
        body = a.kind.value
    elif a.kind is Kind.SETUP:
        body = "setup"
        s = a.setup
        if s is not None and s.checkers is not None:
            p = a.player
            body += f" position {position_id(s.checkers[p], s.checkers[1 - p])}"
        if s is not None and s.dice is not None:
            body += f" dice {s.dice[0]}{s.dice[1]}"
        if s is not None and s.cube is not None:
            body += f" cube {s.cube}"
        if s is not None and s.owner is not None:
            body += " owner " + ("centre" if s.owner == CENTRED else SIDES[s.owner])
    elif a.kind is Kind.RESIGN:
        body = "resign" + (f" {LEVELS[a.level]}" if a.level in LEVELS else "") + \
            (f" {a.value}" if a.value is not None else "")
    else:
        body = {Kind.TAKE: "take", Kind.DROP: "drop", Kind.RESIGN: "resign", Kind.TIMEOUT: "timeout"}[a.kind]
        if a.value is not None and a.kind in (Kind.RESIGN, Kind.TIMEOUT):
            body += f" {a.value}"
    extras = _extras_text(a)
    return body + (" " + extras if extras else "")


def _segment_lines(a: Action, indent: str) -> list[str]:
    lines = []
    for seg in a.segments:
        dice = seg.dice
        if seg.kind == "chain" and len(dice) == 4 and len(set(dice)) == 1:
            digits = f"{dice[0]}{dice[0]}"
        else:
            digits = "".join(str(d) for d in dice)
        if seg.kind == "chain":
            who = "" if seg.player == a.player else SIDES[seg.player] + " "
        else:
            who = SIDES[seg.player] + " "
        play = _steps_text(seg.steps)
        clocks = ([_clock_text(seg.clock)] if seg.clock is not None else []) + \
            ([_clock_left_text(seg.clock_left)] if seg.clock_left is not None else [])
        lines.append(f"{indent}{seg.kind} {who}{digits}:" + (" " + play if play else "")
                     + "".join(" " + c for c in clocks))
    return lines


def _writable_tag(key: str) -> bool:
    """Whether ``key`` can be an .ngn tag's name (``[Key "value"]``): not empty, no blank at either end, no quote,
    bracket or line break."""
    return bool(key) and key == key.strip() and not any(c in key for c in '"[]\n\r')


def _write_tags(match: Match, out: list[str]) -> None:
    """The header's tag lines; a tag whose name cannot be written is left out (:func:`own_losses` says so: a
    conversion refused, or with ``--lossy`` told what it dropped)."""
    items = list(match.tags.items())
    if match.match_length is not None:
        at = next((i for i, (k, _) in enumerate(items) if k in _FIRST_AFTER_LENGTH), len(items))
        items.insert(at, (MATCH_LENGTH_TAG, str(match.match_length)))
    for key, value in items:
        if _writable_tag(key):
            out.append(f"[{key} {_quote(value)}]")


def own_losses(match: Match) -> list[str]:
    """What an .ngn file cannot hold of ``match`` beyond its ``cannot_hold``: a tag whose name has a quote, a
    bracket, a line break or a blank at either end (a damaged header line read as a tag: ``; [Eve; [Round "3"]``)."""
    return [_("tag name {tag} cannot be written in .ngn (no quotes, brackets, line breaks or blanks at either end)"
              ).format(tag=repr(key)) for key in match.tags if not _writable_tag(key)]


def write(match: Match) -> str:
    """The record as .ngn text (canonical layout: one move line per move number, W's cell first)."""
    return "".join(iter_write(match))


def iter_write(match: Match, games: Iterable[Game] | None = None) -> Iterator[str]:
    """:func:`write`'s text in pieces (the tags and comments, then one piece per game): ``games`` (default
    ``match.games``) may be a generator, so that a long series is written as it is made, in flat memory.
    The pieces joined are ``write(match)`` for a match with those games."""
    pending = 0                         # blank lines not written yet (none is written at the end)
    for part in _parts(match, match.games if games is None else games):
        buf = []
        for line in part:
            if not line:
                pending += 1
                continue
            if pending:
                buf.append("\n" * pending)
                pending = 0
            buf.append(line)
            buf.append("\n")
        if buf:
            yield "".join(buf)


def _parts(match: Match, games: Iterable[Game]) -> Iterator[list[str]]:
    """The lines of the record: the tags and comments, then each game's (each followed by a blank line)."""
    out: list[str] = []
    _write_tags(match, out)
    if out:
        out.append("")
    for c in match.comments:
        out.append(_brace(c))
    if match.comments:
        out.append("")
    yield out
    default_players = (match.tags.get("White", ""), match.tags.get("Black", ""))
    for game in games:
        out = []
        head = "Game" if game.written_number is None else f"Game {game.written_number}"
        if tuple(game.players) != default_players:
            head += f" players {_quote(game.players[0])} {_quote(game.players[1])}"
        if game.ratings != (None, None):
            head += f" ratings {_quote(game.ratings[0] or '')} {_quote(game.ratings[1] or '')}"
        if game.score is not None:
            head += f" score {game.score[0]}-{game.score[1]}"
        out.append(head)
        for c in game.comments:
            out.append(_brace(c))
        acts = game.actions
        i = 0
        while i < len(acts):
            a = acts[i]
            if a.move is None:
                out.append(f"{SIDES[a.player]} {_cell_text(a)}")
                indent = "  "
            elif a.player == 0:
                line = f"{a.move}. {_cell_text(a)}"
                nxt = acts[i + 1] if i + 1 < len(acts) else None
                if (not a.segments and nxt is not None and nxt.player == 1 and nxt.move == a.move):
                    line += "  " + _cell_text(nxt)
                    i += 1
                    a = nxt
                out.append(line)
                indent = " " * (len(str(a.move)) + 2)
            else:
                out.append(f"{a.move}... {_cell_text(a)}")
                indent = " " * (len(str(a.move)) + 2)
            out.extend(_segment_lines(a, indent))
            i += 1
        out.append("")
        yield out


register(Notation("ngn", (".ngn",), looks_like_ngn, read, write, own_losses=own_losses,
                  cannot_hold=frozenset({"repeated_tags"})))
