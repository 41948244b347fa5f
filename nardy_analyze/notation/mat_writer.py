"""Writer of Jellyfish match text (``.mat``) in GNU Backgammon's own layout (``export match mat``).

The layout, measured on files gnubg 1.07 writes: tags as ``; [Key "Value"]``, a blank line,
`` N point match``, then per game `` Game N``, the score line (the left part padded to 31 columns), and
rows ``%3d) `` + left cell + right cell, the left cell padded to 27 columns plus a space (a longer cell
pushes the right one further), cube actions and results written with a leading space; a roll's
movements one die per step (bar 25, off 0, hits ``*``), each followed by a space except after the
fourth; a result alone on its own unnumbered row.  A file gnubg wrote comes out byte for byte as it was.

Movements come from the replay (:mod:`nardy_analyze.replay.normal`): a combined move such as ``61: 13/6`` is
written as the single-die steps the rules allow, hits where the engine hits.  A play that breaks the
rules is written as it was written.  What this notation cannot hold (clock times, comments on actions,
Gul bara turn parts, variants other than backgammon: :data:`CANNOT_HOLD`) is listed by ``common_losses``;
the caller refuses or drops it, never this writer silently.
"""
from __future__ import annotations

from .normal import NormalAction, NormalMatch, gnubg_result_losses
from ..record import BAR, OFF, Kind, Match
from ..i18n import _
from .mat import CANNOT_HOLD, comment_line

__all__ = ["write", "CANNOT_HOLD"]


def _pt(p: int) -> str:
    return "25" if p == BAR else "0" if p == OFF else str(p)


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _cell(na: NormalAction) -> str:
    a = na.action
    k = a.kind
    if k is Kind.ROLL:
        dice = f"{a.dice[0]}{a.dice[1]}" if a.dice is not None else a.dice_text
        if a.unplayed:
            return f"{dice}: ????" if dice else "????"
        if a.illegal_mark:               # the exporter's mark, never the play the replay went on from
            return f"{dice}: {a.illegal_mark}" if dice else a.illegal_mark
        if na.route is not None:
            steps = [f"{_pt(s)}/{_pt(d)}{'*' if h else ''}" for s, d, h in na.route]
        else:
            steps = [f"{_pt(s.src)}/{_pt(s.dst)}{'*' if s.hit else ''}" for s in a.steps]
        text = f"{dice}: " + "".join(s + " " for s in steps)
        return text[:-1] if len(steps) >= 4 else text
    if k is Kind.DOUBLE:
        return f" Doubles => {a.value}"
    if k is Kind.BEAVER:                 # as gnubg exports a beaver (a raccoon too)
        return f" Beavers => {a.value}"
    if k is Kind.TAKE:
        return " Takes"
    if k is Kind.DROP:
        return " Drops"
    if k is Kind.WIN:
        return f" Wins {_points(a.value or 0)}" + (" and the match" if a.and_match else "")
    if k is Kind.RESIGN:
        if a.text[:6].lower() == "losses" and a.value is not None:
            return f" Losses {_points(a.value)}"
        value = a.value
        if value is None and a.level is not None and na.state is not None:
            value = a.level * na.state.cube      # the level's points (the level itself is refused by losses)
        return " Resigns" + (f" {_points(value)}" if value is not None else "")
    # TRANSLATORS: {kind}: the kind of action (an interface word of the JSON format: "timeout", "draw")
    raise ValueError(_("no .mat form for {kind}").format(kind=k.value))


def write(match: Match, normal: NormalMatch) -> str:
    """Match text of ``match``; ``normal``: the replay's view of it (:mod:`.normal`), computed by the caller."""
    norm = normal
    out: list[str] = []
    items = match.tag_items or list(match.tags.items())
    for key, value in items:
        out.append(f'; [{key} "{value}"]')
    for c in match.comments:
        out.append(comment_line(c))
    if out:
        out.append("")
    if match.match_length is not None:
        out.append(f" {match.match_length} point match")
        out.append("")
    for ng in norm.games:
        g = ng.game
        out.append(f" Game {g.written_number if g.written_number is not None else g.number}")
        s0, s1 = g.score if g.score is not None else (0, 0)
        p0, p1 = (name if rating is None else f"{name},{rating}" for name, rating in zip(g.players, g.ratings))
        out.append(f"{' ' + p0 + ' : ' + str(s0):<31} {p1} : {s1}")
        rows: list[list] = []          # [number or None, left cell or None, right cell or None]
        number = 0
        acts = ng.actions
        for i, na in enumerate(acts):
            a = na.action
            # no .mat form: refused by losses(), dropped with --lossy (a rejected offer as a whole)
            if a.kind in (Kind.TIMEOUT, Kind.SETUP, Kind.ACCEPT, Kind.REJECT, Kind.DRAW):
                continue
            if a.kind is Kind.RESIGN and i + 1 < len(acts) and acts[i + 1].action.kind is Kind.REJECT:
                continue
            cell = _cell(na)
            result = a.kind in (Kind.WIN, Kind.RESIGN, Kind.TIMEOUT)
            side = a.player
            if a.kind is Kind.WIN and a.margin and ng.report.winner in (0, 1):
                side = ng.report.winner      # written in neither column: in the winner's, as the replay credits it
            if side == 1 and rows and rows[-1][2] is None:
                rows[-1][2] = cell + " " if result and rows[-1][0] is not None else cell
                continue
            if result:
                row = [None, None, None]
            else:
                number += 1
                row = [number, None, None]
            row[1 + (side == 1)] = cell
            rows.append(row)
        for no, left, right in rows:
            if no is None:
                line = "     " + (left if left is not None else " " * 28 + right)
                if left is not None and right is not None:
                    line = "     " + f"{left:<27} " + right
            else:
                line = f"{no:3d}) " + f"{left or '':<27} " + (right or "")
            out.append(line)
        out.append("")
    return "\n".join(out) + "\n"


def result_losses(normal: NormalMatch) -> list[str]:
    """The results of ``normal`` that GNU Backgammon would read otherwise from a .mat (notation.normal)."""
    return gnubg_result_losses(normal, "mat", before_any_move=True)
