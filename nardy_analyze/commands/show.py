"""``nardy-analyze show``: the position before a move (diagram, GNU Backgammon IDs, XGID, SVG), or the
whole record replayed on a board in one HTML page."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..fsio import OutputError, write_atomically
from ..i18n import _
from ..inputs import RECORD, UNREADABLE, Entry, load
from ..judged import not_played_refusal
from ..record import Match
from ..report import show as shows
from ..runner import guarded
from ..safetext import visible
from .common import Echo, echo, fail

RENDER = {"text": shows.as_text, "gnubg": shows.as_gnubg, "xgid": shows.as_xgid, "svg": shows.as_svg}


def show(path: str, *, game: Optional[int], move: Optional[int | str], as_: str, output: Optional[Path],
         min_severity: str = "warning", analyse: bool = False, plies: Optional[int] = None,
         echo: Echo = echo) -> None:
    """``nardy-analyze show``: ``as_`` is text, gnubg, xgid, svg or html (see the command's --help);
    ``analyse`` (html only): the skill analysis on the steps, at ``plies`` (0 or 1; default 0)."""
    if analyse and as_ != "html":
        fail(_("--analyse goes with --as html"), echo=echo)
    if plies is not None and not analyse:
        fail(_("--plies goes with --analyse"), echo=echo)
    if plies is not None:
        from ..report.replayer import MAX_PLIES     # (the replayer page's code: imported when it is asked for)

        if plies > MAX_PLIES:
            # TRANSLATORS: {most}: the deepest level the HTML replayer analyses at (1)
            fail(_("--plies: the replayer analyses at {most} at most (analyze's default level), not {plies}")
                 .format(most=MAX_PLIES, plies=plies), echo=echo)
    depth = (plies or 0) if analyse else None
    if isinstance(move, str):          # "M" or "M.K" (a later part of a Gul bara turn), written as findings give it
        try:
            m, k = shows.parse_move(move)
        except ValueError as e:
            fail(str(e), echo=echo)
        move = m if k is None else f"{m}.{k}"
    if output is not None and output.is_dir():
        fail(_("cannot write to {output}: it is a folder (-o takes a file name)").format(output=output), echo=echo)
    # the record read and its position drawn inside the runner's error boundary, as every command reads
    # records: a bug in a reader, the engine or the replay is an internal error (exit 2), not a traceback
    kind, value = guarded(_render, Entry(path, RECORD, explicit=True), (game, move, as_, min_severity, depth),
                          None, load)
    if kind == UNREADABLE:
        fail(value, echo=echo)
    if kind != "ok":
        fail(f"{'<stdin>' if path == '-' else path}: {value}", echo=echo)
    match, text, refusal, code = value
    if refusal is not None and code == 1:     # a variant not played: that alone is said
        fail(refusal, code=code, echo=echo)
    problems = match.problems + [q for g in match.games for q in g.problems]
    for p in [q for q in problems if min_severity != "error" or not q.warning][:1]:
        # TRANSLATORS: the first problem met reading the record: its file, line:column and message
        echo(_("warning: {path}:{loc}: {message}").format(path=match.path, loc=p.loc, message=p.message), err=True)
    if refusal is not None:
        fail(refusal, code=code, echo=echo)
    _emit(text, output, echo)


def _render(entry: Entry, match: Match, game: Optional[int], move: Optional[int | str], as_: str,
            min_severity: str = "warning", analyse: Optional[int] = None
            ) -> tuple[Match, str | None, str | None, int]:
    """(the record, what ``show --as AS_`` prints, None, 0) or (the record, None, why not, exit code): a
    variant the engine does not play is refused as every command refuses it (exit 1); a position that is
    not in the record, or that cannot be drawn so, is a refusal with exit 2."""
    refusal = not_played_refusal(match)
    if refusal is not None:
        return match, None, refusal, 1
    if as_ == "html":
        from ..report.replayer import page    # (the replayer page's code: imported when it is asked for)

        if game is not None or move is not None:
            try:
                shows.pick(match, game, move)
            except LookupError as e:
                return match, None, f"{match.path}: {e}", 2
        if analyse is None:
            return match, page(match, start=(game, move), min_severity=min_severity), None, 0
        from ..stats.skill import EngineMissing    # (pandas and the engine: only with --analyse)

        try:
            return match, page(match, start=(game, move), min_severity=min_severity, analyse=analyse), None, 0
        except EngineMissing as e:                  # a backgammon record without the analysis extra
            return match, None, str(e), 2
    try:
        snap = shows.pick(match, game, move)
    except LookupError as e:
        return match, None, f"{match.path}: {e}", 2
    try:
        return match, RENDER[as_](snap), None, 0
    except shows.NotBackgammon as e:
        return match, None, f"{match.path}: {e}", 2


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
