"""``validate --format html``: one self-contained page for a tournament director.

A summary, then per file every finding with its location, rule, message and, where the replay knows it,
the SVG board before the play (or the final position, for result findings) and the legal plays.  No
external files: styles and boards are inline, so the page can be mailed or archived, and it reads
without its script.

Each finding in a game also links to the replayer (:mod:`nardy_analyze.report.replayer`) embedded in the page:
the games that have findings are kept as the replayer's data (re-read from the file once it is
validated), and ``#file=K&game=G&move=M`` opens the board at that step, to go through the game from
there.  Games without findings are left out, so the page grows with the findings, not with the archive.
"""
from __future__ import annotations

from ..safetext import markup as escape      # control characters from the files shown as escapes
from typing import TextIO

from ..engine import rules_named, variant_display
from ..i18n import _, language, ngettext, pgettext, roll_text
from . import analysis_lines, context_words, player_word, severity_word
from ..inputs import RECORD, Entry, InputError, load
from ..engine.posid import position_id
from ..replay import ERROR, Finding, MatchReport
from ..result import RunResult
from . import Writer
from .svg import svg_board
from . import replayer

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Noto Sans,Noto Sans Armenian,Noto Sans Georgian,DejaVu Sans,Sylfaen,sans-serif;margin:2em;max-width:70em;color:#222;overflow-wrap:anywhere}
h1{font-size:1.5em} h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}
.summary td,.summary th{padding:.2em .8em;text-align:left}
.finding{border:1px solid #ddd;border-left:6px solid #c33;margin:1em 0;padding:.6em 1em;border-radius:4px}
.finding.warning{border-left-color:#d90}
.loc{font-family:ui-monospace,Menlo,Consolas,DejaVu Sans Mono,Noto Sans Mono,monospace;color:#555} .rule{font-weight:bold;font-family:ui-monospace,Menlo,Consolas,DejaVu Sans Mono,Noto Sans Mono,monospace}
.msg{margin:.3em 0} .board{margin:.5em 0} .board svg{max-width:100%;height:auto}
@media (max-width:600px){body{margin:.6em}} .alts{font-family:ui-monospace,Menlo,Consolas,DejaVu Sans Mono,Noto Sans Mono,monospace;font-size:.9em;color:#333}
.clean{color:#282}
.rp-head{font-size:1.15em;font-weight:bold;margin-top:1em;border-bottom:1px solid #ccc}
.replay{margin-left:.5em;font-size:.9em}
"""


def _names(report: MatchReport, f: Finding) -> tuple[str, str]:
    g = next((g for g in report.games if g.number == f.game), None)
    players = g.players if g else ("", "")
    side = f.board_side if f.board_side is not None else f.side
    if side is None:
        # TRANSLATORS: the names shown for the players when the record gives none
        return f.player or _("mover"), _("opponent")
    names = [players[0] or player_word(1), players[1] or player_word(2)]
    return names[side], names[1 - side]


def _cube(f: Finding, frame: list | None) -> tuple[int, int | None]:
    """The cube of a finding's board, (value, owner: 0 the player drawn at the bottom, 1 the other, None
    centred): the replayer's step of the finding where the page has it (the same facts as the replayer
    below), else the cube the replay had at the finding."""
    cube, owner = (frame[5], None if frame[6] < 0 else frame[6]) if frame is not None else (f.cube, f.owner)
    side = f.board_side if f.board_side is not None else f.side
    if owner is None or side is None:
        return cube or 1, None
    return cube or 1, 0 if owner == side else 1


def _finding(report: MatchReport, f: Finding, link: str | None = None, frame: list | None = None) -> str:
    cls = "finding" if f.severity == ERROR else "finding warning"
    ctx = ", ".join(context_words(f))
    replay = escape(_("replay the game from here"))
    parts = [f'<div class="{cls}">',
             f'<div><span class="loc">{escape(f.path)}:{f.line}:{f.column}</span> '
             f'<span class="rule">{escape(f.rule)}</span> {escape(severity_word(f.severity))}'
             f'{" &middot; " + escape(ctx) if ctx else ""}</div>',
             f'<div class="msg">{escape(f.message)}'
             + (f' <a class="replay" href="#{escape(link)}">{replay}</a>' if link else "")
             + '</div>']
    if f.position is not None:
        mover, opp = _names(report, f)
        if f.board_title:
            title = f.board_title
        elif f.dice:
            # TRANSLATORS: the title of a finding's board; {player}: who is on roll, {dice}: the roll ("31")
            title = _("position before the play, {player} to play {dice}").format(
                player=mover, dice=roll_text(*f.dice) if len(f.dice) == 2 else "-".join(map(str, f.dice)))
        else:
            title = _("position before the play")
        rules = rules_named(report.variant) or rules_named(None)
        # TRANSLATORS: {id}: GNU Backgammon's Position ID, as gnubg names it
        pid = (" &middot; " + escape(_("gnubg Position ID {id}")).replace(
            "{id}", f"<code>{position_id(*f.position)}</code>") if rules.position_id else "")
        parts.append(f'<div class="board"><div>{escape(title)}{pid}</div>')
        cube, owner = _cube(f, frame)
        parts.append(svg_board(f.position, f.dice if not f.board_title else None, (mover, opp), title,
                               cube, owner, opp_point=rules.opp_point, show_cube=rules.board_cube,
                               role=_("(numbering, declared winner)") if f.board_title else None))
        parts.append("</div>")
    if f.alternatives:
        parts.append('<div class="alts">' + escape(_("legal plays include: {plays}").format(
            plays="; ".join(f.alternatives))) + "</div>")
    if f.analysis is not None:
        parts.append(_analysis(f.analysis))
    parts.append("</div>")
    return "\n".join(parts)


def _analysis(a: dict) -> str:
    """``validate --analyse``: the engine's analysis of the finding's turn, as the text report's lines."""
    style = "font-size:.9em;background:#f6f6f6;padding:.4em .6em;overflow-x:auto;max-width:100%"
    return f'<pre class="analysis" style="{style}">' + escape("\n".join(analysis_lines(a))) + "</pre>"


class HtmlWriter(Writer):
    """The page, streamed like the other reports (``report.Writer``): each file's section is rendered as
    it comes into a spool (memory up to 1 MiB, then a temporary file); the summary, which opens the page,
    is written at the end from the running counts, then the unreadable paths and the sections."""

    def __init__(self, out: TextIO, spool_dir: str | None = None, variant: str = "backgammon",
                 options: dict | None = None, analyse: int | None = None) -> None:
        super().__init__(out, spool_dir)
        self._unread = self._spool()
        self._sections = self._spool()
        self._data = self._spool()           # the replayer's records, comma-separated JSON
        self._records = 0
        self.variant, self.options = variant, options
        # validate --analyse: the replayer's games analysed too, at --plies but never deeper than analyze's
        # default level (a whole game each; the findings' own analysis keeps --plies)
        self.analyse = None if analyse is None else min(analyse, replayer.MAX_PLIES)

    def _replay(self, r: MatchReport) -> dict | None:
        """The replayer's data of the games of ``r`` that have findings (None: no finding in a game, the
        record came from standard input, or it cannot be read or replayed again: no links then)."""
        wanted = {f.game for f in r.findings if f.game is not None}
        if not wanted or r.path == "<stdin>":
            return None
        try:
            match = load(Entry(r.path, RECORD, explicit=True))
            data = replayer.record_data(match, self.variant, self.options, report=r, games=wanted)
        except InputError:
            return None
        except Exception:                    # noqa: BLE001 -- never lose the report for its links
            return None
        if self.analyse is not None and data["games"]:
            try:
                replayer.add_analysis(data, match, self.variant, self.options, self.analyse)
            except Exception:                # noqa: BLE001 -- nor its links for the analysis of their games
                data.pop("analysis", None)
                for g in data["games"]:
                    g.pop("a", None)
                    g.pop("w", None)
        return data

    def report(self, r: MatchReport) -> None:
        super().report(r)
        sp = self._sections
        n = len(r.games)
        # TRANSLATORS: after a file's name in the HTML report; {variant}: the variant's name (nominative)
        about = ngettext("({variant}, {n} game)", "({variant}, {n} games)", n).format(
            variant=variant_display(r.variant), n=n)
        sp.write(f"<h2>{escape(r.path)} <small>{escape(about)}</small></h2>\n")
        if not r.findings:
            clean = escape(_("no findings"))
            sp.write(f'<p class="clean">{clean}</p>\n')
        if r.analysis_note:
            sp.write(f'<p class="analysis">{escape(r.analysis_note)}</p>\n')
        data = self._replay(r)
        links: list[str | None] = [None] * len(r.findings)
        frames: list[list | None] = [None] * len(r.findings)
        if data is not None and data["games"]:
            self._records += 1
            k = self._records
            self._data.write(("," if k > 1 else "") + replayer.script_json(data) + "\n")
            games = {g["n"]: g for g in data["games"]}
            for j, f in enumerate(r.findings):
                g = games.get(f.game) if f.game is not None else None
                if g is not None:
                    i = replayer.finding_frame(g["f"], f)
                    links[j], frames[j] = f"file={k}&{replayer.step_address(g, i)}", g["f"][i]
        for f, link, frame in zip(r.findings, links, frames):
            sp.write(_finding(r, f, link, frame) + "\n")

    def unreadable(self, path: str, message: str) -> None:
        super().unreadable(path, message)
        self._unread.write(f'<div class="finding"><span class="loc">{escape(path)}</span> {escape(message)}</div>\n')

    def finish(self) -> None:
        s, out = self.counts.summary(), self.out
        title, h1 = escape(_("nardy-analyze report")), escape(_("nardy-analyze validation report"))
        heads = [escape(h) for h in (pgettext("summary table", "files"), pgettext("summary table", "games"),
                                     pgettext("summary table", "turns"), pgettext("summary table", "errors"),
                                     pgettext("summary table", "warnings"))]
        out.write(f"<!DOCTYPE html>\n<html lang=\"{escape(language())}\"><head><meta charset=\"utf-8\">"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                  f"<title>{title}</title>"
                  f"<style>{_CSS}{replayer.CSS if self._records else ''}</style></head><body>\n"
                  f"<h1>{h1}</h1>\n")
        out.write('<table class="summary"><tr>' + "".join(f"<th>{h}</th>" for h in heads) +
                  f'</tr><tr><td>{s["files"]}</td><td>{s["games"]}</td><td>{s["turns"]}</td>'
                  f'<td>{s["errors"]}</td><td>{s["warnings"]}</td></tr></table>\n')
        if self._records:
            # TRANSLATORS: the heading of the replayer in the HTML report, and its button that hides it
            replay, close = escape(_("Replay")), escape(_("close"))
            out.write(f'<div class="rp" id="replayer" hidden><div class="rp-head">{replay} '
                      f'<button type="button" data-go="close">{close}</button></div>\n'
                      + replayer.body() + "</div>\n")
        self._unread.copy_to(out)
        self._sections.copy_to(out)
        if self._records:
            head, tail = replayer.script_block([], multi=True).split('"files":[]', 1)
            out.write(head + '"files":[')
            self._data.copy_to(out)
            out.write("]" + tail)
        out.write("</body></html>\n")


def write_html(run: RunResult, out: TextIO) -> None:
    run.feed(HtmlWriter(out))
