"""``validate --format html``: one self-contained page for a tournament director.

A summary, then per file every finding with its location, rule, message and, where the replay knows it,
the SVG board before the play (or the final position, for result findings) and the legal plays.  No
scripts, no external files: styles and boards are inline, so the page can be mailed or archived.
"""
from __future__ import annotations

from .safetext import markup as escape      # control characters from the files shown as escapes
from typing import TextIO

from .engine.posid import position_id
from .replay import ERROR, Finding, MatchReport
from .report import RunResult, Writer
from .show import svg_board

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:70em;color:#222}
h1{font-size:1.5em} h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}
.summary td,.summary th{padding:.2em .8em;text-align:left}
.finding{border:1px solid #ddd;border-left:6px solid #c33;margin:1em 0;padding:.6em 1em;border-radius:4px}
.finding.warning{border-left-color:#d90}
.loc{font-family:monospace;color:#555} .rule{font-weight:bold;font-family:monospace}
.msg{margin:.3em 0} .board{margin:.5em 0} .alts{font-family:monospace;font-size:.9em;color:#333}
.clean{color:#282}
"""


def _names(report: MatchReport, f: Finding) -> tuple[str, str]:
    g = next((g for g in report.games if g.number == f.game), None)
    players = g.players if g else ("", "")
    side = f.board_side if f.board_side is not None else f.side
    if side is None:
        return f.player or "mover", "opponent"
    names = [players[0] or "player 1", players[1] or "player 2"]
    return names[side], names[1 - side]


def _finding(report: MatchReport, f: Finding) -> str:
    cls = "finding" if f.severity == ERROR else "finding warning"
    ctx = ", ".join(x for x in (f"game {f.game}" if f.game is not None else "",
                                f"move {f.move}" if f.move is not None else "", f.player or "") if x)
    parts = [f'<div class="{cls}">',
             f'<div><span class="loc">{escape(f.path)}:{f.line}:{f.column}</span> '
             f'<span class="rule">{escape(f.rule)}</span> {escape(f.severity)}'
             f'{" &middot; " + escape(ctx) if ctx else ""}</div>',
             f'<div class="msg">{escape(f.message)}</div>']
    if f.position is not None:
        mover, opp = _names(report, f)
        title = f.board_title or (f"position before the play, {mover} to play "
                                  f"{''.join(map(str, f.dice))}" if f.dice else "position before the play")
        bg = report.variant == "backgammon"
        pid = f" &middot; gnubg Position ID <code>{position_id(*f.position)}</code>" if bg else ""
        parts.append(f'<div class="board"><div>{escape(title)}{pid}</div>')
        parts.append(svg_board(f.position, f.dice if not f.board_title else None, (mover, opp), title,
                               opp_point=None if bg else (lambda p: (p + 11) % 24 + 1), show_cube=bg))
        parts.append("</div>")
    if f.alternatives:
        parts.append('<div class="alts">legal plays include: ' + escape("; ".join(f.alternatives)) + "</div>")
    parts.append("</div>")
    return "\n".join(parts)


class HtmlWriter(Writer):
    """The page, streamed like the other reports (``report.Writer``): each file's section is rendered as
    it comes into a spool (memory up to 1 MiB, then a temporary file); the summary, which opens the page,
    is written at the end from the running counts, then the unreadable paths and the sections."""

    def __init__(self, out: TextIO, spool_dir: str | None = None) -> None:
        super().__init__(out, spool_dir)
        self._unread = self._spool()
        self._sections = self._spool()

    def report(self, r: MatchReport) -> None:
        super().report(r)
        sp = self._sections
        sp.write(f"<h2>{escape(r.path)} <small>({escape(r.variant)}, {len(r.games)} game{'' if len(r.games) == 1 else 's'})</small></h2>\n")
        if not r.findings:
            sp.write('<p class="clean">no findings</p>\n')
        for f in r.findings:
            sp.write(_finding(r, f) + "\n")

    def unreadable(self, path: str, message: str) -> None:
        super().unreadable(path, message)
        self._unread.write(f'<div class="finding"><span class="loc">{escape(path)}</span> {escape(message)}</div>\n')

    def finish(self) -> None:
        s, out = self.counts.summary(), self.out
        out.write("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                  "<title>nardy-analyze report</title>"
                  f"<style>{_CSS}</style></head><body>\n<h1>nardy-analyze validation report</h1>\n")
        out.write('<table class="summary"><tr><th>files</th><th>games</th><th>turns</th><th>errors</th>'
                  f'<th>warnings</th></tr><tr><td>{s["files"]}</td><td>{s["games"]}</td><td>{s["turns"]}</td>'
                  f'<td>{s["errors"]}</td><td>{s["warnings"]}</td></tr></table>\n')
        self._unread.copy_to(out)
        self._sections.copy_to(out)
        out.write("</body></html>\n")


def write_html(run: RunResult, out: TextIO) -> None:
    run.feed(HtmlWriter(out))
