"""``nardy-analyze show``: the position before a move (diagram, GNU Backgammon IDs, XGID, SVG), or the
whole record replayed on a board in one HTML page."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from .. import notation
from ..fsio import OutputError, write_atomically
from ..i18n import _
from ..inputs import InputError, read_bytes
from ..record import Match
from ..report import show as shows
from ..safetext import visible
from .common import Echo, echo, fail

RENDER = {"text": shows.as_text, "gnubg": shows.as_gnubg, "xgid": shows.as_xgid, "svg": shows.as_svg}


def show(path: str, *, game: Optional[int], move: Optional[int | str], as_: str, output: Optional[Path],
         echo: Echo = echo) -> None:
    """``nardy-analyze show``: ``as_`` is text, gnubg, xgid, svg or html (see the command's --help)."""
    if isinstance(move, str):          # "M" or "M.K" (a later part of a Gul bara turn), written as findings give it
        try:
            m, k = shows.parse_move(move)
        except ValueError as e:
            fail(str(e), echo=echo)
        move = m if k is None else f"{m}.{k}"
    if output is not None and output.is_dir():
        fail(_("cannot write to {output}: it is a folder (-o takes a file name)").format(output=output), echo=echo)
    try:
        data = read_bytes(path)
    except InputError as e:
        fail(str(e), echo=echo)
    match = notation.read_bytes(data, "<stdin>" if path == "-" else path)
    for p in (match.problems + [q for g in match.games for q in g.problems])[:1]:
        # TRANSLATORS: the first problem met reading the record: its file, line:column and message
        echo(_("warning: {path}:{loc}: {message}").format(path=match.path, loc=p.loc, message=p.message), err=True)
    _emit(_text(match, game, move, as_, echo), output, echo)


def _text(match: Match, game: Optional[int], move: Optional[int | str], as_: str, echo: Echo) -> str:
    """What ``show --as AS_`` prints; a position that is not in the record ends the command (exit 2)."""
    if as_ == "html":
        from ..report.replayer import page    # (the replayer page's code: imported when it is asked for)

        if game is not None or move is not None:
            try:
                shows.pick(match, game, move)
            except LookupError as e:
                fail(f"{match.path}: {e}", echo=echo)
        return page(match, start=(game, move))
    try:
        snap = shows.pick(match, game, move)
    except LookupError as e:
        fail(f"{match.path}: {e}", echo=echo)
    try:
        return RENDER[as_](snap)
    except shows.NotBackgammon as e:
        fail(f"{match.path}: {e}", echo=echo)


def _emit(text: str, output: Optional[Path], echo: Echo) -> None:
    """``text`` (control characters shown as escapes) on standard output, or into ``output``, ending with
    one line break."""
    text = visible(text, newlines=True)
    if output is None:
        echo(text[:-1] if text.endswith("\n") else text)
        return
    try:
        write_atomically(output, lambda fh: fh.write(text if text.endswith("\n") else text + "\n"))
    except OutputError as e:
        fail(str(e), echo=echo)
