"""The project's JSON record format: one match per document, everything the record model holds
(``docs/json-format.md``; JSON Schema ``docs/schema/match.schema.json``).

Lossless for every variant: tags in order (repeats too), comments, clock times, Gul bara turn parts,
resignation cells and unplayed rolls are all kept; points are in the acting player's own numbering
(``25`` = bar, ``0`` = off), as in the record model.  Reading checks the document's structure and
reports what does not fit with the JSON line and column; it never raises.
"""
from __future__ import annotations

import json
import re
import sys
from typing import Any

from ..engine import DEFAULT_VARIANT, canonical_name
from ..engine.compiled import PURE
from ..i18n import N_, _
from . import Notation, guarded_read, register
from ..record import CENTRED, LEVELS, Action, Game, Kind, Loc, Match, Problem, Segment, Setup, Step
from .sniffs import JSON_FORMAT, looks_like_json

__all__ = ["read", "write", "to_document", "FORMAT", "VERSION"]

FORMAT = JSON_FORMAT
VERSION = 1


_ROLL, _DOUBLE, _WIN, _RESIGN = Kind.ROLL, Kind.DOUBLE, Kind.WIN, Kind.RESIGN
_TYPE = {k: k.value for k in Kind}


def _steps(steps: list[Step]) -> list[list]:
    return [[s.src, s.dst, True] if s.hit else [s.src, s.dst] for s in steps]


def _action(a: Action, steps=_steps) -> dict[str, Any]:
    k = a.kind
    d: dict[str, Any] = {"type": _TYPE[k], "player": a.player}
    if a.move is not None:
        d["move"] = a.move
    if k is _ROLL:
        if a.dice is not None:
            d["dice"] = list(a.dice)
        elif a.dice_text:
            d["dice_text"] = a.dice_text
        d["steps"] = steps(a.steps)
        if a.unplayed:
            d["unplayed"] = True
        if a.cannot_move:
            d["cannot_move"] = True
        if a.illegal_mark:
            d["illegal_mark"] = a.illegal_mark
        if a.segments:
            d["segments"] = [_segment(s, steps) for s in a.segments]
    if a.kind in (Kind.DOUBLE, Kind.BEAVER, Kind.WIN, Kind.RESIGN):
        if a.value is not None:
            d["value"] = a.value
    if a.kind is Kind.RESIGN and a.level in LEVELS:
        d["level"] = LEVELS[a.level]
    if a.kind is Kind.SETUP:
        s = a.setup or Setup()
        sd: dict[str, Any] = {}
        if s.checkers is not None:
            sd["checkers"] = [list(s.checkers[0]), list(s.checkers[1])]
        if s.dice is not None:
            sd["dice"] = list(s.dice)
        if s.cube is not None:
            sd["cube"] = s.cube
        if s.owner is not None:
            sd["owner"] = "centre" if s.owner == CENTRED else s.owner
        d["setup"] = sd
    if a.kind is Kind.WIN and a.and_match:
        d["and_match"] = True
    if a.kind is Kind.RESIGN and a.text[:6].lower() == "losses":
        d["spelling"] = "losses"
    if a.clock is not None:
        d["clock"] = a.clock
    if a.clock_left is not None:
        d["clock_left"] = a.clock_left
    if a.comments:
        d["comments"] = list(a.comments)
    return d


def _segment(s, steps=_steps) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": s.kind, "player": s.player, "dice": list(s.dice), "steps": steps(s.steps)}
    if s.clock is not None:
        d["clock"] = s.clock
    if s.clock_left is not None:
        d["clock_left"] = s.clock_left
    return d


def to_document(match: Match) -> dict[str, Any]:
    """The document of ``match`` (plain JSON values: what ``json.loads`` of the written text gives)."""
    return _to_document(match, _steps)


def _to_document(match: Match, steps) -> dict[str, Any]:
    """:func:`to_document`, each action's steps given by ``steps(the Step objects)``: ``_steps`` (lists), or
    for the writer ``list`` (the Step objects themselves, each written as its list: :func:`dumps`)."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    variant = match.tag("Variant") or match.tag("Variation")
    doc["variant"] = _variant_name(variant)
    doc["match_length"] = match.match_length
    doc["tags"] = [[k, v] for k, v in (match.tag_items or list(match.tags.items()))]
    if match.comments:
        doc["comments"] = list(match.comments)
    games = []
    for g in match.games:
        gd: dict[str, Any] = {"number": g.written_number if g.written_number is not None else g.number,
                              "players": list(g.players)}
        if g.ratings != (None, None):
            gd["ratings"] = list(g.ratings)
        if g.score is not None:
            gd["score"] = list(g.score)
        if g.comments:
            gd["comments"] = list(g.comments)
        gd["actions"] = [_action(a, steps) for a in g.actions]
        games.append(gd)
    doc["games"] = games
    return doc


def _variant_name(tag: str | None) -> str:
    """The engine's name of the variant ``tag`` names (the engine's alias table); an unknown name as written
    (lower case, no spaces)."""
    return canonical_name(tag) or tag.strip().lower().replace(" ", "")


def write(match: Match) -> str:
    """The document of ``match``: exactly ``json.dumps(to_document(match), ensure_ascii=False, indent=1)``
    and a newline (written by :func:`dumps`, the steps as the record's Step objects: no list made per step)."""
    return dumps(_to_document(match, list)) + "\n"


def _step_row(s: Any) -> list:
    """A Step as the document holds it (the json module's ``default``)."""
    if type(s) is Step:
        return [s.src, s.dst, True] if s.hit else [s.src, s.dst]
    raise TypeError(f"Object of type {type(s).__name__} is not JSON serializable")


def dumps(doc: Any) -> str:
    """``json.dumps(doc, ensure_ascii=False, indent=1)``, a :class:`Step` written as ``[src, dst]`` (``[src,
    dst, true]`` when it hits): by the compiled writer where it is built (``notation/_matrows.c``:
    ``json_indent``), else by :func:`_dumps`, several times faster than the json module's indenting encoder,
    which is pure Python; a document of other types by the json module."""
    if _JSON_INDENT is not None:
        try:
            return _JSON_INDENT(doc)
        except (TypeError, ValueError):      # a type it does not write, a str it cannot encode: Python's way
            pass
    try:
        return _dumps(doc)
    except _Other:
        return json.dumps(doc, ensure_ascii=False, indent=1, default=_step_row)


try:        # the compiled twin of _dumps (notation/_matrows.c: json_indent)
    if PURE:
        raise ImportError("NARDY_ANALYZE_PURE is set")
    from ._matrows import json_indent as _JSON_INDENT, json_configure as _json_configure
    _json_configure(Step)
except ImportError:                  # not built (no C compiler at install) or turned off
    _JSON_INDENT = None


class _Other(Exception):
    """A value _dumps leaves to the json module."""


_STR = json.encoder.encode_basestring          # the C encoder where there is one; ensure_ascii=False
_INDENTS = ["\n" + " " * n for n in range(64)]


def _float(x: float) -> str:
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    return float.__repr__(x)


def _dumps(doc: Any) -> str:
    """``json.dumps(doc, ensure_ascii=False, indent=1)`` for documents of dicts with str keys, lists, tuples,
    str, int, float, bool and None (anything else raises _Other)."""
    # the items of lists and of dicts are written by the same few lines twice, inline: a call per item
    # would cost more than the writing itself (convert --to json of a large archive)
    out: list[str] = []
    add = out.append

    def value(o: Any, level: int) -> None:
        if level > 60:
            raise _Other
        t = type(o)
        if t is str:
            add(_STR(o))
        elif t is int:
            add(int.__repr__(o))
        elif t is list or t is tuple:
            if not o:
                add("[]")
                return
            inner = _INDENTS[level + 1]
            sep = "," + inner
            add("[")
            add(inner)
            first = True
            for v in o:
                if not first:
                    add(sep)
                first = False
                tv = type(v)
                if tv is int:
                    add(int.__repr__(v))
                elif tv is str:
                    add(_STR(v))
                else:
                    value(v, level + 1)
            add(_INDENTS[level])
            add("]")
        elif t is dict:
            if not o:
                add("{}")
                return
            inner = _INDENTS[level + 1]
            sep = "," + inner
            add("{")
            add(inner)
            first = True
            for k, v in o.items():
                if type(k) is not str:
                    raise _Other
                if not first:
                    add(sep)
                first = False
                add(_STR(k))
                add(": ")
                tv = type(v)
                if tv is int:
                    add(int.__repr__(v))
                elif tv is str:
                    add(_STR(v))
                else:
                    value(v, level + 1)
            add(_INDENTS[level])
            add("}")
        elif o is None:
            add("null")
        elif o is True:
            add("true")
        elif o is False:
            add("false")
        elif t is float:
            add(_float(o))
        elif t is Step:
            value([o.src, o.dst, True] if o.hit else [o.src, o.dst], level)
        else:
            raise _Other

    value(doc, 0)
    return "".join(out)


# ----------------------------------------------------------------------------- reader


# The json module's own messages (Python's, in English), said in the current language; the rest of a
# message after one of these patterns (a character, an escape) is kept as Python gives it.
_JSON_MESSAGES = {
    "Expecting value": N_("Expecting value"),
    "Extra data": N_("Extra data"),
    "Expecting property name enclosed in double quotes": N_("Expecting property name enclosed in double quotes"),
    "Expecting ':' delimiter": N_("Expecting ':' delimiter"),
    "Expecting ',' delimiter": N_("Expecting ',' delimiter"),
    "Unterminated string starting at": N_("Unterminated string starting at"),
    "Invalid \\uXXXX escape": N_("Invalid \\uXXXX escape"),
}
_JSON_CONTROL = re.compile(r"Invalid control character (.+) at")
_JSON_ESCAPE = re.compile(r"Invalid \\escape: (.+)")


def _json_message(msg: str) -> str:
    """The json module's message ``msg`` in the current language (as it is when it is not one it knows)."""
    if msg in _JSON_MESSAGES:
        return _(_JSON_MESSAGES[msg])
    m = _JSON_CONTROL.fullmatch(msg)
    if m:
        # TRANSLATORS: Python's json message; {char}: the character, as Python writes it ('\x01'); the position
        # follows in the message's location (line:column), not after "at"
        return _("Invalid control character {char} at").format(char=m.group(1))
    m = _JSON_ESCAPE.fullmatch(msg)
    if m:
        return _("Invalid \\escape: {escape}").format(escape=m.group(1))
    return msg


class _Bad(Exception):
    pass


class _Reader:
    """Builds a Match from a parsed document; locations point at the JSON text where possible."""

    def __init__(self, text: str, path: str) -> None:
        self.text, self.path = text, path
        self.match = Match(path=path, notation="json")
        self.where = Loc(1, 1)
        self._cursor = 0

    def loc_of(self, needle: str) -> Loc:
        """The location of the next occurrence of ``needle`` in the text (documents are read in order): each
        call moves past the occurrence it found, so that each action gets its own."""
        i = self.text.find(needle, self._cursor)
        if i < 0:
            return self.where
        self._cursor = i + len(needle)
        line = self.text.count("\n", 0, i) + 1
        col = i - (self.text.rfind("\n", 0, i) + 1) + 1
        self.where = Loc(line, col)
        return self.where

    def _long_number(self) -> Problem:
        """The parse error for a number too long to read, at the number."""
        limit = getattr(sys, "get_int_max_str_digits", lambda: 4300)() or 4300
        m = re.search(r"\d{%d,}" % (limit + 1), self.text)
        if m is None:
            return Problem(Loc(1, 1), _("expected JSON: a number too long to read"))
        i = m.start()
        line = self.text.count("\n", 0, i) + 1
        col = i - (self.text.rfind("\n", 0, i) + 1) + 1
        return Problem(Loc(line, col), _("expected a number of at most {limit} digits, found one of {n} digits").format(
            limit=limit, n=m.end() - m.start()))

    def fail(self, msg: str) -> None:
        raise _Bad(msg)

    def run(self) -> Match:
        try:
            doc = json.loads(self.text)
        except json.JSONDecodeError as e:
            # TRANSLATORS: {error}: what Python's json module says is wrong (translated where it can be)
            self.match.problems.append(Problem(Loc(e.lineno, e.colno), _("expected JSON: {error}").format(
                error=_json_message(e.msg))))
            return self.match
        except ValueError:        # an integer longer than Python converts (sys.get_int_max_str_digits)
            self.match.problems.append(self._long_number())
            return self.match
        except RecursionError:    # arrays or objects nested thousands deep
            self.match.problems.append(Problem(Loc(1, 1), _("expected JSON: arrays or objects nested too deeply "
                                                            "for a match document")))
            return self.match
        try:
            self.document(doc)
        except _Bad as e:
            self.match.problems.append(Problem(self.where, str(e)))
        return self.match

    def document(self, doc: Any) -> None:
        m = self.match
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            self.fail(_('expected a JSON object with "format": "{format}"').format(format=FORMAT))
        if doc.get("version") != VERSION:
            self.fail(_("expected version {version}, found {found}").format(version=VERSION,
                                                                             found=repr(doc.get("version"))))
        length = doc.get("match_length")
        if length is not None and (not isinstance(length, int) or isinstance(length, bool) or length < 0):
            self.loc_of('"match_length"')
            self.fail(_("expected match_length to be null or a whole number >= 0, found {found}").format(
                found=repr(length)))
        m.match_length = length
        for item in doc.get("tags", []):
            loc = self.loc_of('"tags"') if not m.tag_items else self.where
            if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)):
                self.fail(_('expected a tag as ["Key", "Value"], found {found}').format(found=repr(item)))
            m.tag_items.append((item[0], item[1]))
            m.tags.setdefault(item[0], item[1])
            m.tag_locs.setdefault(item[0], loc)
        m.comments.extend(self.strings(doc.get("comments", []), "comments"))
        games = doc.get("games")
        if not isinstance(games, list):
            self.fail(_('expected "games": a list of games'))
        for n, gd in enumerate(games, start=1):
            self.game(n, gd)

    def strings(self, value: Any, what: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            self.fail(_('expected "{key}" to be a list of strings').format(key=what))
        return list(value)

    def game(self, n: int, gd: Any) -> None:
        loc = self.loc_of('"players"')
        if not isinstance(gd, dict):
            self.fail(_("expected game {n} to be an object").format(n=n))
        players = gd.get("players")
        if not (isinstance(players, list) and len(players) == 2 and all(isinstance(x, str) for x in players)):
            self.fail(_('expected "players" of game {n}: two names').format(n=n))
        g = Game(number=n, loc=loc, players=(players[0], players[1]))
        ratings = gd.get("ratings")
        if ratings is not None:
            if not (isinstance(ratings, list) and len(ratings) == 2
                    and all(x is None or isinstance(x, str) for x in ratings)):
                self.fail(_('expected "ratings" of game {n}: two ratings, each a string or null').format(n=n))
            g.ratings = (ratings[0], ratings[1])
        num = gd.get("number")
        if isinstance(num, int) and not isinstance(num, bool):
            g.written_number = num
        score = gd.get("score")
        if score is not None:
            if not (isinstance(score, list) and len(score) == 2 and all(self.is_int(x) for x in score)):
                self.fail(_('expected "score" of game {n}: two whole numbers').format(n=n))
            g.score, g.score_loc = (score[0], score[1]), loc
        g.comments.extend(self.strings(gd.get("comments", []), "comments"))
        actions = gd.get("actions")
        if not isinstance(actions, list):
            self.fail(_('expected "actions" of game {n}: a list').format(n=n))
        for ad in actions:
            g.actions.append(self.action(n, ad))
        g.end_loc = self.where
        self.match.games.append(g)

    @staticmethod
    def is_int(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    def steps(self, value: Any) -> list[Step]:
        out = []
        if not isinstance(value, list):
            self.fail(_('expected "steps": a list of [from, to] or [from, to, true]'))
        for s in value:
            if not (isinstance(s, list) and len(s) in (2, 3) and self.is_int(s[0]) and self.is_int(s[1])
                    and 0 <= s[0] <= 25 and 0 <= s[1] <= 25 and (len(s) == 2 or isinstance(s[2], bool))):
                self.fail(_("expected a step [from, to] with points 0..25 (25 = bar, 0 = off), found {found}").format(
                    found=repr(s)))
            out.append(Step(s[0], s[1], len(s) == 3 and s[2]))
        return out

    def setup(self, sd: Any) -> Setup:
        if not isinstance(sd, dict):
            self.fail(_("expected a setup object, found {found}").format(found=repr(sd)))
        s = Setup()
        ch = sd.get("checkers")
        if ch is not None:
            if not (isinstance(ch, list) and len(ch) == 2 and all(
                    isinstance(side, list) and len(side) == 25 and all(self.is_int(n) and 0 <= n <= 15 for n in side)
                    and sum(side) <= 15 for side in ch)):
                self.fail(_("expected setup checkers: two lists of 25 counts 0..15, at most 15 checkers a side"))
            s.checkers = (tuple(ch[0]), tuple(ch[1]))
        dice = sd.get("dice")
        if dice is not None:
            if not (isinstance(dice, list) and len(dice) == 2 and all(self.is_int(d) and 1 <= d <= 6 for d in dice)):
                self.fail(_("expected setup dice: two numbers 1..6, found {found}").format(found=repr(dice)))
            s.dice = (dice[0], dice[1])
        cube = sd.get("cube")
        if cube is not None:
            if not self.is_int(cube) or cube < 1:
                self.fail(_("expected setup cube: a whole number >= 1, found {found}").format(found=repr(cube)))
            s.cube = cube
        owner = sd.get("owner")
        if owner is not None:
            if owner not in (0, 1, "centre") or isinstance(owner, bool):
                self.fail(_("expected setup owner: 0, 1 or \"centre\", found {found}").format(found=repr(owner)))
            s.owner = CENTRED if owner == "centre" else owner
        return s

    def roll(self, a: Action, ad: dict, loc: Loc) -> None:
        """The fields of a roll action: dice, steps, marks, the further parts of the turn, its text."""
        dice = ad.get("dice")
        if dice is not None:
            if not (isinstance(dice, list) and len(dice) == 2 and all(self.is_int(d) and 1 <= d <= 6 for d in dice)):
                self.fail(_("expected dice: two numbers 1..6, found {found}").format(found=repr(dice)))
            a.dice = (dice[0], dice[1])
            a.dice_text = f"{dice[0]}{dice[1]}"
        else:
            a.dice_text = str(ad.get("dice_text", ""))
        a.dice_loc = loc
        a.steps = self.steps(ad.get("steps", []))
        a.unplayed = ad.get("unplayed") is True
        a.cannot_move = ad.get("cannot_move") is True
        mark = ad.get("illegal_mark")
        if mark is not None:
            if not isinstance(mark, str) or not mark.strip() or "\n" in mark:
                self.fail(_("expected illegal_mark: the exporter's mark as written, found {found}").format(
                    found=repr(mark)))
            a.illegal_mark = mark
        for sd in ad.get("segments", []):
            if not isinstance(sd, dict) or sd.get("kind") not in ("chain", "handover") \
                    or sd.get("player") not in (0, 1):
                self.fail(_("expected a segment with kind chain/handover and player 0/1, found {found}").format(
                    found=repr(sd)))
            dice = sd.get("dice", [])
            if not (isinstance(dice, list) and all(self.is_int(d) and 1 <= d <= 6 for d in dice)):
                self.fail(_("expected segment dice: numbers 1..6, found {found}").format(found=repr(dice)))
            seg = Segment(sd["kind"], sd["player"], tuple(dice), self.steps(sd.get("steps", [])), loc)
            seg.clock, seg.clock_left = self.clock(sd, "clock"), self.clock(sd, "clock_left")
            a.segments.append(seg)
        text = f"{a.dice_text}: " + ("????" if a.unplayed else a.illegal_mark or
                                     " ".join(f"{s.src}/{s.dst}" for s in a.steps))
        a.text = text.strip()

    def action(self, n: int, ad: Any) -> Action:
        loc = self.loc_of('"type"')
        if not isinstance(ad, dict):
            self.fail(_("expected an action object in game {n}").format(n=n))
        try:
            kind = Kind(ad.get("type"))
        except ValueError:
            self.fail(_("expected an action type ({types}), found {found}").format(
                types=", ".join(k.value for k in Kind), found=repr(ad.get("type"))))
        player = ad.get("player")
        if player not in (0, 1) or isinstance(player, bool):
            self.fail(_("expected player 0 or 1, found {found}").format(found=repr(player)))
        move = ad.get("move")
        a = Action(kind, player, loc, move if self.is_int(move) else None)
        if kind is Kind.ROLL:
            self.roll(a, ad, loc)
        value = ad.get("value")
        if value is not None:
            if not self.is_int(value) or value < 0:
                self.fail(_("expected value: a whole number >= 0, found {found}").format(found=repr(value)))
            a.value = value
        if kind is Kind.RESIGN and ad.get("level") is not None:
            level = {v: k for k, v in LEVELS.items()}.get(ad.get("level"))
            if level is None:
                self.fail(_("expected level: single, gammon or backgammon, found {found}").format(
                    found=repr(ad.get("level"))))
            a.level = level
        if kind is Kind.SETUP:
            a.setup = self.setup(ad.get("setup"))
            a.text = "setup"
        if kind is Kind.DOUBLE:
            a.text = f"Doubles => {value}"
        elif kind is Kind.BEAVER:
            a.text = f"Beavers => {value}"
        elif kind in (Kind.ACCEPT, Kind.REJECT):
            a.text = kind.value.capitalize() + "s"
        elif kind is Kind.TAKE:
            a.text = "Takes"
        elif kind is Kind.DROP:
            a.text = "Drops"
        elif kind is Kind.WIN:
            a.and_match = ad.get("and_match") is True
            a.text = f"Wins {value} points" + (" and the match" if a.and_match else "")
        elif kind is Kind.RESIGN:
            a.text = ("Losses" if ad.get("spelling") == "losses" else "Resigns") + \
                (f" {value} points" if value is not None else "")
        elif kind is Kind.TIMEOUT:
            a.text = "Timeout"
        elif kind is Kind.DRAW:
            a.text = "Draw"
        a.clock, a.clock_left = self.clock(ad, "clock"), self.clock(ad, "clock_left")
        a.comments.extend(self.strings(ad.get("comments", []), "comments"))
        return a

    def clock(self, d: dict, key: str) -> float | None:
        """``clock``: seconds the action took (>= 0); ``clock_left``: the player's clock after it (seconds,
        negative when the flag has fallen)."""
        clock = d.get(key)
        if clock is None:
            return None
        if not isinstance(clock, (int, float)) or isinstance(clock, bool) or (key == "clock" and clock < 0):
            if key == "clock":
                self.fail(_("expected {key}: seconds >= 0, found {found}").format(key=key, found=repr(clock)))
            self.fail(_("expected {key}: seconds, found {found}").format(key=key, found=repr(clock)))
        return float(clock)


def read(text: str, path: str = "") -> Match:
    """Read one JSON match document.  Never raises: what does not fit becomes a Problem."""
    return guarded_read("json", path, lambda: _with_variant(_Reader(text, path).run(), text))


def _with_variant(m: Match, text: str) -> Match:
    """``m`` with the document's variant as its ``Variant`` tag, when its tags do not name one."""
    variant = _variant_of(text)
    if variant and canonical_name(variant) != DEFAULT_VARIANT and not (m.tag("Variation") or m.tag("Variant")):
        m.tags["Variant"] = variant         # the document's variant (it was not among the tags)
    return m


def _variant_of(text: str) -> str | None:
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return doc.get("variant") if isinstance(doc, dict) and isinstance(doc.get("variant"), str) else None


register(Notation("json", (".json",), looks_like_json, read, write))
