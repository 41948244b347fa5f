"""The record notations: one registry, one decoder, text in and :class:`~nardy_analyze.record.Match` out.

Every notation registers a :class:`Notation`: its name, file suffixes, a sniff of the first characters,
``read(text, path) -> Match`` (never raises: what it cannot read becomes a
:class:`~nardy_analyze.record.Problem` with a line and column) and, where the project writes it,
``write(match) -> str``.  Every command finds readers and writers here, never by importing a notation
module directly, so a new notation plugs in by registering itself (:func:`register`).

The built-in notations are declared in :data:`BUILTIN` (:class:`Builtin`: name, module, suffixes, place
among ``convert --to``'s choices): what a command needs before it reads anything (which files are records,
the ``--help`` texts) costs no import, and a notation's module (its Lark grammar included) is imported the
first time its reader or writer is asked for, or its sniff accepts a file (the sniffs a file of another
notation passes through are in :mod:`.sniffs`).  What a notation can write is data on its
:class:`Notation` (``cannot_hold``: the kinds of :data:`LOSS_KINDS` it cannot write; ``writes_analysis``),
never a flag or a list elsewhere: a notation registered from outside the package (``register``) is read,
sniffed, written and refused like a built-in one.
"""
from __future__ import annotations

import codecs
import math
import operator
import os
import re
from pathlib import Path
from typing import Any, Callable, Iterable, NamedTuple

from ..shapes import dataclass
from ..i18n import N_, _, ngettext
from ..record import Loc, Match, Problem, game_numbers
from . import sniffs

__all__ = ["Notation", "Builtin", "LOSS_KINDS", "common_losses", "register", "unregister", "targets", "get",
           "names", "for_path", "name_for_path", "sniff", "decode", "read_text", "read_bytes", "read_path",
           "record_suffixes", "DecodeResult", "normalise_text", "guarded_read", "ReadError"]


@dataclass(frozen=True)
class Notation:
    name: str                                   # "mat", "ngn", "sgf", "json"
    suffixes: tuple[str, ...]                   # lower case, with the dot: (".mat",)
    sniff: Callable[[str], bool]                # True when the start of a decoded text looks like this notation
    read: Callable[[str, str], Match]           # (text, path) -> Match; never raises
    write: Callable[[Match], str] | None = None  # Match -> text, where the project writes this notation
    ambiguous_suffixes: tuple[str, ...] = ()    # suffixes also used by other files (".txt"): sniffed first
    # Match -> what ``write`` cannot keep of it beyond ``cannot_hold`` (the notation's own checks), one message
    # per kind of loss and game; ``losses(match)`` is the whole list
    own_losses: Callable[[Match], list[str]] | None = None
    # The writer's interface: ``write(match)`` when ``needs_replay`` is False; ``write(match, normal)`` when it
    # is True, ``normal`` being the normalised match (:class:`.normal.NormalMatch`, plain data) that the caller
    # computes with the replay (``nardy_analyze.replay.normal.normalise``; ``nardy_analyze.convert.write_text``
    # does both): a notation never imports the replay.
    needs_replay: bool = False
    # the writer reads the state and route of a roll played exactly as written (one legal step per number,
    # in order); False: its written steps are all it needs (the replay tells no state of it, which is
    # quicker: ``normalise(..., exact=False)``)
    exact_routes: bool = True
    # NormalMatch -> what the notation, as GNU Backgammon reads it, cannot say of the record as the replay
    # reads it (a result gnubg would credit otherwise): one message per kind and game (needs_replay only)
    result_losses: Callable[[Any], list[str]] | None = None
    # what of a record the writer cannot hold: kinds of LOSS_KINDS (common_losses reports them);
    # ``own_losses`` above adds the notation's own checks after them
    cannot_hold: frozenset[str] = frozenset()
    # the writer takes GNU Backgammon's analysis properties (``write(match, normal, analysis=...)``):
    # ``convert --analyse`` needs such a target
    writes_analysis: bool = False
    # its sniff accepts loosely (Jellyfish match text: "Game N" lines): tried after every other notation's
    loose_sniff: bool = False

    def losses(self, match: Match) -> list[str]:
        """What writing ``match`` in this notation would lose, one message per kind of loss and game:
        :func:`common_losses` of its ``cannot_hold``, then its ``own_losses``; empty: lossless."""
        own = self.own_losses(match) if self.own_losses else []
        return common_losses(match, self.name, self.cannot_hold) + own


class Builtin(NamedTuple):
    """A built-in notation, declared without importing its module."""

    name: str
    module: str                          # its module in this package (it registers the Notation)
    suffixes: tuple[str, ...]
    ambiguous: tuple[str, ...] = ()      # suffixes other files use too (".txt"): sniffed
    target: int | None = None            # its place among ``convert --to``'s choices (None: not written)
    # its sniff in :mod:`.sniffs` (asked without importing the module), None: the module's own
    sniff: str | None = None
    loose: bool = False                  # its Notation's ``loose_sniff``


# The built-in notations, in the order they are tried.  Each module registers a Notation with the same name
# and suffixes (tests/test_convert_fast.py checks that they agree).
BUILTIN: tuple[Builtin, ...] = (
    Builtin("mat", "mat", (".mat",), (".txt",), target=1, loose=True),
    Builtin("ngn", "ngn", (".ngn",), target=4, sniff="looks_like_ngn"),
    Builtin("sgf", "sgf", (".sgf",), target=2, sniff="looks_like_sgf"),
    Builtin("json", "jsonfmt", (".json",), target=3, sniff="looks_like_json"),
)

_REGISTRY: dict[str, Notation] = {}
_BUILTIN_NAMES = frozenset(b.name for b in BUILTIN)


def register(notation: Notation) -> None:
    """Make ``notation`` known to every command: read (by its suffixes, or sniffed), written (``convert
    --to``), its losses refused or dropped."""
    _REGISTRY[notation.name] = notation
    _CHANGES[0] += 1


def unregister(name: str) -> None:
    """Forget a notation registered from outside the package (tests); a built-in one is imported again on
    its next use."""
    _REGISTRY.pop(name, None)
    _CHANGES[0] += 1


_CHANGES = [0]          # register and unregister calls so far (the tables below are worked out again after one)


def _import(name: str) -> None:
    """Import the module of the built-in notation ``name`` (it registers itself)."""
    for b in BUILTIN:
        if b.name == name:
            try:
                __import__(f"{__name__}.{b.module}")
            except ModuleNotFoundError as e:      # a notation module not written yet
                if e.name != f"{__name__}.{b.module}":
                    raise
            return


def get(name: str) -> Notation:
    """The notation ``name`` (its module is imported on first use); KeyError for an unknown name."""
    n = _REGISTRY.get(name)
    if n is None:
        _import(name)
        n = _REGISTRY.get(name)
    if n is None:
        raise KeyError(_("unknown notation {name}; known: {known}").format(name=repr(name), known=", ".join(names())))
    return n


def targets() -> tuple[str, ...]:
    """The notations ``convert --to`` writes: the built-in ones in their declared order (without importing
    them), then any other registered notation that has a writer."""
    out = [b.name for b in sorted((b for b in BUILTIN if b.target is not None), key=lambda b: b.target)]
    return tuple(out + [n.name for n in _REGISTRY.values() if n.write is not None and n.name not in out])


def _registry_key() -> tuple:
    """What the tables worked out from the registry depend on: the registry (the dict itself, kept with a table
    so that no other dict takes its identity) and the changes made to it through :func:`register` and
    :func:`unregister` (a notation imported or registered); they are worked out again when either changes."""
    return _REGISTRY, _CHANGES[0]


_TABLES: dict[str, tuple[tuple, Any]] = {}      # table name -> (the registry's key, the table)


def _table(name: str, make: Callable[[], Any]) -> Any:
    """The table ``name`` made by ``make`` from the registry as it is now (kept until the registry changes:
    every record file read asks for them)."""
    got = _TABLES.get(name)
    if got is not None and got[0][0] is _REGISTRY and got[0][1] == _CHANGES[0]:
        return got[1]
    table = make()
    _TABLES[name] = (_registry_key(), table)
    return table


def _declared() -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """(name, suffixes, ambiguous suffixes) of every notation, built in or registered, without importing."""
    return _table("declared", _make_declared)


def _make_declared() -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    out = [(b.name, b.suffixes, b.ambiguous) for b in BUILTIN]
    known = {n for n, _, _ in out}
    out += [(n.name, n.suffixes, n.ambiguous_suffixes) for n in _REGISTRY.values() if n.name not in known]
    return out


def names() -> list[str]:
    return [n for n, _, _ in _declared()]


def record_suffixes() -> tuple[str, ...]:
    """Every suffix a record file may have (for walking folders)."""
    return _table("record_suffixes", _make_record_suffixes)


def _make_record_suffixes() -> tuple[str, ...]:
    out: list[str] = []
    for _name, suffixes, ambiguous in _declared():
        for s in suffixes + ambiguous:
            if s not in out:
                out.append(s)
    return tuple(out)


def suffixes_of(name: str) -> tuple[str, ...]:
    """The file suffixes of the notation ``name``, the first being its writer's (``get(name).suffixes``), without
    importing its module; KeyError for an unknown name, as :func:`get`."""
    for known, suffixes, _ambiguous in _declared():
        if known == name:
            return suffixes
    return get(name).suffixes


def import_readers(paths: Iterable[str]) -> None:
    """Import the modules of the notations that may read the files ``paths`` by their names' suffixes (the one a
    suffix names, or those that tell a file of an ambiguous suffix by its start): a worker process started
    before its files are known does it while it waits (``runner.prestart``)."""
    suffixes = {os.path.splitext(p)[1].lower() for p in paths}
    for name, own, ambiguous in _declared():
        if suffixes.intersection(own) or suffixes.intersection(ambiguous):
            get(name)


def for_path(path: str) -> Notation | None:
    """The notation a file name's suffix names unambiguously (``.mat``, ``.sgf``...); None otherwise."""
    name = name_for_path(path)
    return get(name) if name is not None else None


def name_for_path(path: str) -> str | None:
    """The name of :func:`for_path`'s notation, without importing its module."""
    suffix = os.path.splitext(path)[1].lower()      # (as Path.suffix: "" or "." match no notation)
    return _table("by_suffix", _make_by_suffix).get(suffix)


def _make_by_suffix() -> dict[str, str]:
    out: dict[str, str] = {}
    for name, suffixes, _amb in _declared():
        for s in suffixes:
            out.setdefault(s, name)          # (the first notation that declares a suffix)
    return out


def _make_sniff_order() -> list[tuple[str, str | None]]:
    """(name, light sniff or None) of every notation, in the order :func:`sniff` asks them."""
    order = []                        # (name, loose, light sniff): as names() lists them
    for b in BUILTIN:
        n = _REGISTRY.get(b.name)
        order.append((b.name, b.loose, b.sniff) if n is None else (b.name, n.loose_sniff, None))
    order += [(n.name, n.loose_sniff, None) for n in _REGISTRY.values() if n.name not in _BUILTIN_NAMES]
    # a loose sniff (Jellyfish match text's "Game N" lines) only after every other notation's
    return [(name, light) for name, _loose, light in sorted(order, key=lambda x: x[1])]


def sniff(text: str) -> Notation | None:
    """The notation whose sniff accepts the start of ``text``; None when none does.  A built-in notation
    not imported yet is asked through its sniff in :mod:`.sniffs` (the same function its module registers),
    and imported only when it accepts the text: a ``.txt`` file of Jellyfish match text costs no import of
    the other notations' modules (the ``.ngn`` one brings Lark)."""
    head = text[:65536]
    for name, light in _table("sniff_order", _make_sniff_order):
        if light is not None:
            if getattr(sniffs, light)(head):
                return get(name)
            continue
        n = get(name)
        if n.sniff(head):
            return n
    return None


# ----------------------------------------------------------------------------- decoding

@dataclass(frozen=True)
class DecodeResult:
    text: str
    encoding: str          # "utf-8", "utf-8-sig", "utf-16", "cp1251", ...


_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def decode_detail(data: bytes) -> DecodeResult:
    """Bytes of a record file to text, and the encoding used.

    A byte-order mark decides (UTF-8, UTF-16, UTF-32); otherwise UTF-8 when the bytes are valid UTF-8;
    otherwise charset-normalizer's best guess among the legacy encodings real files use (Windows-1251 for
    Russian names, Latin-1 / Windows-1252 for Western ones), with Latin-1 as the last resort (it decodes
    any bytes).  Line ends become ``\\n``.
    """
    for bom, enc in _BOMS:
        if data.startswith(bom):
            try:
                return DecodeResult(normalise_text(data.decode(enc)), enc)
            except UnicodeDecodeError:
                break
    if _looks_utf16(data):
        enc = "utf-16-le" if data[1:2] == b"\0" else "utf-16-be"
        try:
            return DecodeResult(normalise_text(data.decode(enc)), enc)
        except UnicodeDecodeError:
            pass
    try:
        return DecodeResult(normalise_text(data.decode("utf-8")), "utf-8")
    except UnicodeDecodeError:
        pass
    enc = _guess_legacy(data)
    return DecodeResult(normalise_text(data.decode(enc, errors="replace")), enc)


def decode(data: bytes) -> str:
    return decode_detail(data).text


def _looks_utf16(data: bytes) -> bool:
    """UTF-16 without a BOM: NUL in every second byte of ASCII-heavy text."""
    head = data[:4096]
    if len(head) < 8 or b"\0" not in head:
        return False
    odd = head[1::2].count(0)
    even = head[0::2].count(0)
    half = len(head) // 2
    return odd > 0.4 * half and even < 0.05 * half or even > 0.4 * half and odd < 0.05 * half


_WORD = re.compile(rb"[A-Za-z\x80-\xff]+")
_HIGH = re.compile(rb"[\x80-\xff]")
# Russian letter frequencies (per 10,000 letters of ordinary text), for telling Windows-1251 from KOI8-R
_RU = dict(zip("оеаинтсрвлкмдпуяыьгзбчйхжшюцщэфъё",
               (1097, 845, 801, 735, 670, 626, 547, 473, 454, 440, 349, 321, 298, 281, 262, 201, 190, 174, 170,
                165, 159, 144, 121, 97, 94, 73, 64, 48, 36, 32, 26, 4, 4)))


def _cyrillic_score(data: bytes, enc: str) -> float | None:
    """How much the words with high bytes look like Russian words in ``enc``: None when a high byte is
    not a Cyrillic letter there; otherwise the letters' mean log-frequency, less a penalty for every word
    whose case is not Word, word or WORD."""
    total, n = 0.0, 0
    for w in _WORD.findall(data):
        if not _HIGH.search(w):
            continue
        try:
            text = w.decode(enc)
        except UnicodeDecodeError:
            return None
        if not all("\u0400" <= c <= "\u04ff" for c in text):
            return None
        if not (text.islower() or text.isupper() or (text[0].isupper() and text[1:].islower())):
            total -= 4.0
        if text[0].lower() in "ьъы":
            total -= 4.0
        for c in text.lower():
            total += math.log(_RU.get(c, 1) / 10000)
            n += 1
    return total / n if n else None


def _guess_legacy(data: bytes) -> str:
    """The legacy encoding of bytes that are not UTF-8 (docs/convert.md, "Encodings").

    Names are short, and a few non-ASCII bytes are too little for a statistical guess, so the words are
    looked at first: words made only of non-ASCII bytes (``Игрок``) and none mixing them with ASCII letters
    are Cyrillic: Windows-1251 or KOI8-R, whichever reads them as Russian-looking words (letter case,
    letter frequencies); a word that mixes non-ASCII bytes with ASCII letters (``Jürgen``) makes it Western:
    Windows-1252 (Latin-1) when every such byte is a letter there, else Windows-1250 when it is one
    there.  Anything else goes to charset-normalizer, Latin-1 being the last resort."""
    words = [w for w in _WORD.findall(data[:262144]) if _HIGH.search(w)]
    mixed = sum(1 for w in words if re.search(rb"[A-Za-z]", w))
    pure = sum(1 for w in words if len(w) >= 2 and not re.search(rb"[A-Za-z]", w))
    if pure and not mixed:
        scores = {enc: _cyrillic_score(data[:262144], enc) for enc in ("cp1251", "koi8_r")}
        good = {enc: v for enc, v in scores.items() if v is not None}
        if good:
            return max(good, key=lambda e: (good[e], e == "cp1251"))
    if mixed:
        for enc in ("cp1252", "latin_1", "cp1250"):
            try:
                if all(all(c.isalpha() for c in w.decode(enc) if ord(c) > 127) for w in words):
                    return enc
            except UnicodeDecodeError:
                continue
    try:
        from charset_normalizer import from_bytes     # only for the rare file that is not UTF-8 (start-up)
    except ImportError:                       # the dependency is declared; be robust anyway
        return "latin-1"
    best = from_bytes(data[:262144], cp_isolation=["cp1251", "cp1252", "latin_1", "koi8_r", "cp1250"]).best()
    if best is None or not best.encoding:
        return "latin-1"
    return best.encoding


def normalise_text(text: str) -> str:
    """Text as every reader takes it: without a byte order mark, lines ended by ``\\n`` alone."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


# ----------------------------------------------------------------------------- reading

class ReadError(Exception):
    """A reader's own exception for input it cannot read on: a problem of the file, at ``loc`` (line,
    column), with ``message`` (translated).  :func:`guarded_read` makes it the record's problem; any other
    exception out of a reader is a bug of the reader and goes on up, to the runner's error boundary
    (``runner.guarded``: an ``internal-error`` with the version, exit code 2)."""

    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


def guarded_read(name: str, path: str, run: Callable[[], Match]) -> Match:
    """``run()``, the reading of a record by the notation ``name``; a :class:`ReadError` it raises (input it
    cannot read on) is a Match with that one problem instead.  Any other exception is a bug of the reader
    and is not caught here: it reaches the runner's error boundary, which reports it as ``internal-error``
    (never as a problem of the file)."""
    try:
        return run()
    except ReadError as exc:
        match = Match(path=path, notation=name)
        match.problems.append(Problem(exc.loc, exc.message))
        return match


def read_text(text: str, path: str = "", notation: str | None = None) -> Match:
    """Read ``text`` with the named notation, or the one its suffix names, or the one its start looks like
    (Jellyfish match text when nothing else fits)."""
    n = get(notation) if notation else (for_path(path) or sniff(text) or get("mat"))
    return n.read(text, path)


def read_bytes(data: bytes, path: str = "", notation: str | None = None) -> Match:
    """Decode a file's bytes and read them with the matching reader."""
    return read_text(decode(data), path, notation)


def read_path(path: str | Path, notation: str | None = None) -> Match:
    """Read a record file.  An unreadable file gives a Match with one Problem, never an exception."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        match = Match(path=str(p), notation=notation or "unknown")
        # TRANSLATORS: {reason} is the system's reason (its own text)
        match.problems.append(Problem(Loc(1, 1), _("cannot read the file: {reason}").format(
            reason=exc.strerror or exc)))
        return match
    return read_bytes(data, str(p), notation)


# ----------------------------------------------------------------------------- messages

def quoted(text: str) -> str:
    """A piece of a record quoted in a message: ``"13/9*"`` (the language's quotation marks)."""
    # TRANSLATORS: a piece of the record (a word, a cell) quoted in a message; only the quotation marks change
    return _('"{text}"').format(text=text)


def either(names: list[str]) -> str:
    """``a, b or c`` (each item translated already): what a reader expected, one of several."""
    if len(names) == 1:
        return names[0]
    # TRANSLATORS: the last of a list of things a reader expected: "{items}" (joined by ", ") or "{last}"
    return _("{items} or {last}").format(items=", ".join(names[:-1]), last=names[-1])


def expected_found(expected: str, found: str) -> str:
    """The message of a text a reader cannot read: what it expected there, and what it found."""
    # TRANSLATORS: {expected}: what the reader expected at this place (e.g. 'a roll like "53:"'); {found}: the
    # text it found there, quoted, or "the end of the line"
    return _("expected {expected}, found {found}").format(expected=expected, found=found)


# ----------------------------------------------------------------------------- what a notation cannot hold

def _games(numbers: list[int]) -> str:
    """``game 3`` / ``games 1, 4``: the games a loss is in (the start of a message, before a colon)."""
    # TRANSLATORS: the games a loss of a conversion is in, before a colon: "games 1, 4: comments on moves ..."
    return ngettext("game {numbers}", "games {numbers}", len(numbers)).format(
        numbers=", ".join(map(str, numbers)))


# What a record may hold that a notation may be unable to write (``Notation.cannot_hold``), each checked by
# common_losses: clock times; comments on moves, on games, on the match; a variant other than those of GNU
# Backgammon's forms (``Rules.gnubg_notation``) and the parts of a turn played after the roll; a loss on time
# or a drawn game; tags given more than once; set-up positions; a resignation's level, acceptance or
# rejection.
LOSS_KINDS = ("clock", "action_comments", "game_comments", "match_comments", "other_variants", "timeouts",
              "repeated_tags", "setups", "resign_offers")


def _any_set(actions: list, name: str) -> bool:
    """Whether the attribute ``name`` of one of ``actions`` is true: the reference of the compiled twin
    (``notation/_matrows.c``: ``any_set``), which a question asked of every game's actions uses where it is built."""
    return any(map(operator.attrgetter(name), actions))


_ANY_SET: Callable[[list, str], bool] | None = None
_ANY_SET_TYPES: tuple[type, ...] = (list,)      # the types of actions _ANY_SET takes


def any_set(actions: list, name: str) -> bool:
    """:func:`_any_set`, compiled where the compiled parts are built and in use (looked up at the first call);
    ``actions`` of another type than a list or the compiled reader's packed actions are looked at in Python."""
    global _ANY_SET, _ANY_SET_TYPES
    if _ANY_SET is None:
        _ANY_SET = sniffs.compiled_part("any_set") or _any_set
        packed = sniffs.compiled_part("PackedActions")    # (the compiled .mat reader's games: packed actions)
        _ANY_SET_TYPES = (list,) if packed is None else (list, packed)
    if type(actions) not in _ANY_SET_TYPES:
        return _any_set(actions, name)
    return _ANY_SET(actions, name)


def _variant_losses(match: Match, target: str, shown: list[int]) -> list[str]:
    """The losses of kind ``other_variants``: a variant without GNU Backgammon's forms (``gnubg_notation``),
    Gul bara's turn parts played after the roll."""
    out: list[str] = []
    # the engine's one alias table (imported here: reading a record does not need it)
    from ..engine import rules_named
    tag = match.tag("Variant") or match.tag("Variation")
    rules = rules_named(tag)
    if (rules is None or not rules.gnubg_notation) and match.games:
        name = rules.display_title("gen") if rules is not None else (tag or "").strip().lower().replace(" ", "")
        # TRANSLATORS: {games}: "games 1, 2"; {variant}: the variant's name in the genitive ("у длинных
        # нард"); {target}: a notation (mat, sgf)
        out.append(_("{games}: {variant} has no {target} form").format(
            games=_games(game_numbers(match.games)), variant=name, target=target))
    seg = {}
    for g, n in zip(match.games, shown):
        if not any_set(g.actions, "segments"):      # (a game without parts: nearly all, looked at in C)
            continue
        for a in g.actions:
            for s in a.segments:
                seg.setdefault(s.kind, []).append(n)
    for kind, numbers in seg.items():
        games = _games(sorted(set(numbers)))
        if kind == "handover":
            out.append(_("{games}: a Gul bara handover (part of a turn played after the roll) has no {target} "
                         "form").format(games=games, target=target))
        else:
            out.append(_("{games}: a Gul bara doubles chain (part of a turn played after the roll) has no "
                         "{target} form").format(games=games, target=target))
    return out


def common_losses(match: Match, target: str, cannot_hold: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """What writing ``match`` as ``target`` would lose of the kinds ``cannot_hold`` (of :data:`LOSS_KINDS`):
    what the target cannot hold.

    Always a loss, whatever the target: text the reader could not read (it is not in the record)."""
    unknown = set(cannot_hold) - set(LOSS_KINDS)
    if unknown:
        raise ValueError(f"no such kind of loss: {', '.join(sorted(unknown))} (LOSS_KINDS)")
    out: list[str] = []
    shown = game_numbers(match.games)    # the games' numbers as every command gives them
    # a warning is text kept in the record another way (a banner before the match header: comments)
    unread = [p for p in match.problems if not p.warning] + [p for g in match.games for p in g.problems]
    if unread:
        lines = ", ".join(str(p.loc.line) for p in unread[:5]) + (" ..." if len(unread) > 5 else "")
        # TRANSLATORS: {lines} are line numbers of the input ("3, 8, 12 ...")
        out.append(_("unreadable text (line {lines}) is not in the record and cannot be written").format(lines=lines))
    if "other_variants" in cannot_hold:
        out += _variant_losses(match, target, shown)
    checks = []
    if "clock" in cannot_hold:
        checks.append((N_("{games}: clock times cannot be written in {target}"),
                       lambda a: a.clock is not None or a.clock_left is not None
                       or any(s.clock is not None or s.clock_left is not None for s in a.segments)))
    if "action_comments" in cannot_hold:
        checks.append((N_("{games}: comments on moves cannot be written in {target}"),
                       lambda a: bool(a.comments)))
    if "timeouts" in cannot_hold:
        checks.append((N_("{games}: a loss on time cannot be written in {target}"),
                       lambda a: a.kind.value == "timeout"))
        checks.append((N_("{games}: a drawn game cannot be written in {target}"),
                       lambda a: a.kind.value == "draw"))
    if "setups" in cannot_hold:
        checks.append((N_("{games}: a set-up position (board, player on roll, dice or cube set, not played) "
                          "cannot be written in {target}"),
                       lambda a: a.kind.value == "setup"))
    if "resign_offers" in cannot_hold:
        checks.append((N_("{games}: the level of a resignation (single, gammon, backgammon; written as its "
                          "points) cannot be written in {target}"),
                       lambda a: a.kind.value == "resign" and a.level is not None))
        checks.append((N_("{games}: a resignation's acceptance cannot be written in {target}"),
                       lambda a: a.kind.value == "accept"))
        checks.append((N_("{games}: a rejected resignation offer cannot be written in {target}"),
                       lambda a: a.kind.value == "reject"))
    for what, test in checks:
        numbers = [n for g, n in zip(match.games, shown) if any(test(a) for a in g.actions)]
        if numbers:
            out.append(_(what).format(games=_games(numbers), target=target))
    if "game_comments" in cannot_hold:
        numbers = [n for g, n in zip(match.games, shown) if g.comments]
        if numbers:
            out.append(_("{games}: game comments cannot be written in {target}").format(
                games=_games(numbers), target=target))
    if "repeated_tags" in cannot_hold and len(match.tag_items) > len(match.tags):
        seen: set[str] = set()
        again = sorted({k for k, _ in match.tag_items if k in seen or seen.add(k)})
        # TRANSLATORS: {tags}: the names of the tags (interface words, e.g. "Event, Round")
        out.append(_("repeated tags ({tags}) cannot be written in {target}: only the first is kept").format(
            tags=", ".join(again), target=target))
    if "match_comments" in cannot_hold and match.comments:
        out.append(_("the match's comments cannot be written in {target}").format(target=target))
    return out
