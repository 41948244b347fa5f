"""Notation-neutral record model: Match -> Game -> Action.

A record is what a file *says*, not what the rules make of it: nothing here
checks legality.  Readers (``nardy_analyze.notation``) build these objects and
keep the line and column of every piece so that findings can point at text;
the replayer (``nardy_analyze.replay``) walks them through the engine.

Point numbers are always in the acting player's own numbering
(24 = farthest point, 1 = deepest point of home), with ``BAR`` (25) and
``OFF`` (0) as in docs/rules.md.
"""
from __future__ import annotations

import re
import operator
from dataclasses import field, fields
from functools import lru_cache
from enum import Enum

from .shapes import dataclass

BAR = 25
OFF = 0
CENTRED = -1      # Setup.owner: the cube in the middle
LEVELS = {1: "single", 2: "gammon", 3: "backgammon"}   # Action.level of a resignation


@dataclass(slots=True, unsafe_hash=True)
class Loc:
    """A place in the source text: 1-based line and column.

    A value: equal and hashed by its line and column, and never changed once made.  (Not a frozen
    dataclass: a reader makes one per cell of a record, and a frozen class's constructor costs three
    times as much.)"""

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Step:
    """One written movement ``src/dst`` (possibly spanning several dice, e.g. ``13/6`` for 61).

    ``hit`` is the ``*`` marker as written (a hint, not a rule).
    """

    src: int
    dst: int
    hit: bool = False


class Kind(str, Enum):
    ROLL = "roll"          # a roll and the play written after it (possibly nothing)
    DOUBLE = "double"      # "Doubles => N"
    TAKE = "take"          # "Takes"
    DROP = "drop"          # "Drops"
    WIN = "win"            # "Wins N point(s) [and the match]"
    RESIGN = "resign"      # "Resigns" / "Losses N point(s)": the actor gives up
    TIMEOUT = "timeout"    # the actor ran out of time on the clock (nardy500 time control): the game ends
    BEAVER = "beaver"      # "Beavers => N": the doubled player takes and at once redoubles to N, keeping the
                           # cube (money play, option beaver); a beaver of a beaver is a raccoon
    ACCEPT = "accept"      # accepts the opponent's resignation offer (the RESIGN action just before)
    REJECT = "reject"      # rejects it: the game goes on
    DRAW = "draw"          # the game is drawn (the last-roll draw of long nardy, option last_roll): no points
    SETUP = "setup"        # a set-up (gnubg "set board/dice/cube/turn"; SGF AE/AB/AW, PL, DI, CV, CP):
                           # Action.setup says what it sets; Action.player is the player on roll after it


@dataclass(slots=True)
class Setup:
    """What a SETUP action sets; a field left ``None`` keeps what was there.

    ``checkers``: the whole board, ``(first player's side, second player's side)``, each 25 counts in that
    player's own numbering as the engine's sides are (index ``p - 1`` = point ``p``, index 24 = the bar;
    borne off = 15 - the sum).  ``dice``: the dice of the roll the player on roll is about to play.
    ``cube``: the cube value; ``owner``: 0/1 or :data:`CENTRED`.
    """

    checkers: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    dice: tuple[int, int] | None = None
    cube: int | None = None
    owner: int | None = None


@dataclass(slots=True)
class Segment:
    """A further part of one turn after the roller's own play of the roll (Gul bara, docs/rules.md rules 1-2).

    ``kind`` is ``"chain"`` (the roller plays the next double of a doubles chain: ``dice`` holds its
    four numbers) or ``"handover"`` (the opponent plays numbers the previous part could not use:
    ``dice`` holds those numbers).  ``player`` is who played it (0/1, as ``Action.player``).
    """

    kind: str
    player: int
    dice: tuple[int, ...]
    steps: list["Step"] = field(default_factory=list)
    loc: "Loc | None" = None
    text: str = ""
    # a handover's clock: the seconds its player (the opponent) spent on it, and their clock after it
    clock: float | None = None
    clock_left: float | None = None


@dataclass(slots=True)
class Action:
    """One cell of a record: something one player did.

    ``player`` is 0 for the first player named on the game's score line, 1 for the second.
    """

    kind: Kind
    player: int
    loc: Loc
    move: int | None = None          # the move number of the row, when the row has one
    text: str = ""                   # the cell as written, for messages
    # ROLL
    dice: tuple[int, int] | None = None   # as written (high-low or low-high); None when unknown
    dice_text: str = ""              # e.g. "53", "00", "7x" (kept to report bad dice)
    dice_loc: Loc | None = None
    steps: list[Step] = field(default_factory=list)
    unplayed: bool = False           # "????": the roll was never played
    cannot_move: bool = False        # "Cannot Move" written
    illegal_mark: str = ""           # an exporter's mark that the play was illegal and is not given,
                                     # as written (Snowie: "Illegal play (25;0;1;...)")
    # DOUBLE: the cube value offered;  WIN / RESIGN: the points
    value: int | None = None
    and_match: bool = False
    # Seconds the action took on the clock, where the notation records it (time-limit rule)
    clock: float | None = None
    # The acting player's clock after the action (seconds left, the increment added), where written
    clock_left: float | None = None
    # ROLL in Gul bara: what followed the roller's play within the same turn (chain doubles, handovers)
    segments: list[Segment] = field(default_factory=list)
    # Free-text comments attached to this action, as written (kept for lossless conversion)
    comments: list[str] = field(default_factory=list)
    # RESIGN: the level offered, 1 single, 2 gammon, 3 backgammon (LEVELS), where the record says it
    level: int | None = None
    # WIN: written at the left margin, in neither player's column (a hand-typed archive): ``player`` is the
    # column's guess (0), and the replay credits the winner the game's end shows (a drop, a bear-off)
    margin: bool = False
    # SETUP: what the set-up sets
    setup: Setup | None = None


@dataclass(slots=True)
class Problem:
    """A place where the text could not be read."""

    loc: Loc
    message: str
    game: int | None = None
    warning: bool = False            # text that is no record but harms nothing (free text before the
                                     # match header): reported as a warning, not an error
    rule: str = "parse-error"        # the rule id it is reported under (free-text: text kept as comments)


@dataclass(slots=True)
class Game:
    number: int                      # 1-based order of the game in the file (not the written number)
    loc: Loc                         # the "Game N" header
    written_number: int | None = None
    players: tuple[str, str] = ("", "")
    score: tuple[int, int] | None = None   # the score line at the start of the game
    score_loc: Loc | None = None
    actions: list[Action] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # text not readable inside this game
    end_loc: Loc | None = None       # last line of the game's text
    comments: list[str] = field(default_factory=list)      # comments before the first action
    # the players' ratings as written ("1796", "1650.5"), None where the record gives none: the ",1796" of
    # a Jellyfish name, SGF's WR/BR (the name itself never holds the rating)
    ratings: tuple[str | None, str | None] = (None, None)

    @property
    def broken(self) -> bool:
        return bool(self.problems)


@dataclass(slots=True)
class Match:
    path: str
    notation: str
    tags: dict[str, str] = field(default_factory=dict)     # header tags, keys as written (the first of repeats)
    tag_items: list[tuple[str, str]] = field(default_factory=list)  # every tag in file order, repeats too
    tag_locs: dict[str, Loc] = field(default_factory=dict)
    match_length: int | None = None  # 0 = money session; None = not stated
    match_loc: Loc | None = None
    games: list[Game] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # problems outside any game
    comments: list[str] = field(default_factory=list)      # free comments before the first game
    # What the reader read and deliberately does not keep (SGF analysis and annotation properties):
    # property name -> how many; reported as a note by convert (docs/convert.md)
    ignored: dict[str, int] = field(default_factory=dict)
    # how the file's bytes were decoded ("utf-8", "cp1251"...; set by inputs.load), not part of the record
    encoding: str | None = field(default=None, compare=False)

    def tag(self, key: str, default: str | None = None) -> str | None:
        """Header tag by case-insensitive key (``CubeLimit`` = ``Cubelimit``)."""
        tags = self.tags
        if not tags:
            return default
        name = _firsts(tuple(tags)).get(_FOLDS.get(key) or _fold(key))
        return default if name is None else tags[name]

    def tag_values(self, keys: tuple[str, ...]) -> list[str | None]:
        """:meth:`tag` of each of ``keys`` (None where there is no such tag), the record's tag names looked at once."""
        tags = self.tags
        if not tags:
            return [None] * len(keys)
        firsts = _firsts(tuple(tags))
        names = [firsts.get(_FOLDS.get(key) or _fold(key)) for key in keys]
        return [None if name is None else tags[name] for name in names]


# a tag name as Match.tag compares it, by name: the few names records use, folded once (cleared when large)
_FOLDS: dict[str, str] = {}


@lru_cache(maxsize=1024)
def _firsts(keys: tuple[str, ...]) -> dict[str, str]:
    """The tag names of a record, in order -> the first of them by folded name (records of one archive share
    them).  The dict is shared: read it, never change it."""
    first: dict[str, str] = {}
    for name in keys:
        first.setdefault(_FOLDS.get(name) or _fold(name), name)
    return first


def _fold(name: str) -> str:
    if len(_FOLDS) >= 4096:
        _FOLDS.clear()
    f = _FOLDS[name] = name.casefold().replace(" ", "")
    return f


# ----------------------------------------------------------------------------- sent between processes

def sent_by_fields(cls):
    """Class decorator for a dataclass sent between processes (the worker processes' tasks and results, a Dask
    cluster's): a copy is made of its fields' values, in their order, in one tuple, and rebuilt by calling the
    class with them, instead of the dataclass's own state of a list and a field at a time: about half the time
    on each side.  Every field must be one ``__init__`` takes (checked here); a subclass with fields of its own
    is decorated too, or it would be rebuilt as this class."""
    names = tuple(f.name for f in fields(cls))
    if any(not f.init for f in fields(cls)) or len(names) < 2:
        raise TypeError(f"{cls.__name__}: sent_by_fields needs two fields or more, all of them __init__'s")
    values = operator.attrgetter(*names)

    def __reduce__(self):
        return cls, values(self)

    cls.__reduce__ = __reduce__
    return cls


# ----------------------------------------------------------------------------- game numbers

def game_numbers(games: list[Game]) -> list[int]:
    """The number of each of ``games`` as every command shows and accepts it: the record's own
    ``Game N`` when every game has one and no two share it (an excerpt of games 1, 2 and 6 keeps 1, 2
    and 6), else the 1-based order in the file for all of them (docs/json-report.md, "Numbering")."""
    written = [g.written_number for g in games]
    if written and None not in written and len(set(written)) == len(written):
        return written  # type: ignore[return-value]
    return [g.number for g in games]


# ----------------------------------------------------------------------------- record equality

def record_dict(obj) -> object:
    """A plain, comparable form of a record (Match, Game, Action, Segment, Step, Setup) without what only
    says where the text was or how it was spelt: ``Loc`` fields, ``Action.text``/``Segment.text``,
    ``Match.path``/``notation``/``tag_locs`` and the reading problems.

    Two records with equal ``record_dict`` are the same record: same tags (in order), match length,
    comments, games, players, scores, rolls, steps as written, cube actions, clock times and results.
    """
    if isinstance(obj, Match):
        return {"tags": list(obj.tags.items()), "match_length": obj.match_length,
                "comments": list(obj.comments), "games": [record_dict(g) for g in obj.games]}
    if isinstance(obj, Game):
        return {"number": obj.number, "written_number": obj.written_number, "players": tuple(obj.players),
                "ratings": tuple(obj.ratings),
                "score": obj.score, "comments": list(obj.comments),
                "actions": [record_dict(a) for a in obj.actions]}
    if isinstance(obj, Action):
        return {"kind": obj.kind.value, "player": obj.player, "move": obj.move,
                "dice": obj.dice, "dice_text": obj.dice_text, "steps": [record_dict(s) for s in obj.steps],
                "unplayed": obj.unplayed, "cannot_move": obj.cannot_move, "illegal_mark": obj.illegal_mark,
                "value": obj.value,
                "and_match": obj.and_match, "clock": obj.clock, "clock_left": obj.clock_left,
                "segments": [record_dict(s) for s in obj.segments], "comments": list(obj.comments),
                "level": obj.level,
                "setup": record_dict(obj.setup or Setup()) if obj.kind is Kind.SETUP else None}
    if isinstance(obj, Setup):
        return {"checkers": obj.checkers, "dice": obj.dice, "cube": obj.cube, "owner": obj.owner}
    if isinstance(obj, Segment):
        return {"kind": obj.kind, "player": obj.player, "dice": tuple(obj.dice),
                "steps": [record_dict(s) for s in obj.steps], "clock": obj.clock, "clock_left": obj.clock_left}
    if isinstance(obj, Step):
        return (obj.src, obj.dst, obj.hit)
    raise TypeError(f"not a record object: {type(obj).__name__}")


_RATING = None


def split_rating(name: str) -> tuple[str, str | None]:
    """``"hockeyfan,1796"`` -> ``("hockeyfan", "1796")``: a name with a trailing ``,RATING`` (a number,
    with decimals or not, as Jellyfish files and sites write it) and the rating; else (name, None)."""
    global _RATING
    if "," not in name:
        return name, None
    if _RATING is None:
        _RATING = re.compile(r"(.*?\S)[ \t]*,[ \t]*([0-9]+(?:\.[0-9]+)?)")
    m = _RATING.fullmatch(name)
    return (m.group(1), m.group(2)) if m else (name, None)


def same_record(a: "Match | Game | Action", b: "Match | Game | Action") -> bool:
    """True when ``a`` and ``b`` are the same record, ignoring where and how the text was written
    (see :func:`record_dict`)."""
    return record_dict(a) == record_dict(b)
