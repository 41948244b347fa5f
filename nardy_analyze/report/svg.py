"""The SVG board: one position drawn from the mover's side (``show --as svg``, the HTML report's boards),
and its geometry for the HTML replayer's script, which draws the same board (``board_geometry``)."""
from __future__ import annotations

from ..engine.core import Pos, borne_off
from ..i18n import _
from ..safetext import markup as escape      # control characters visible: XML allows none of them
from ..safetext import visible

__all__ = ["svg_board", "board_geometry"]

_W, _H = 460, 350
_PW, _MARGIN, _BAR = 30, 20, 40                      # point width, frame, bar width
_TOP, _BOTTOM, _PH = 30, _H - 30, 105                # the field's edges and a point's height
# the centre of an owned cube (the owner's side), clear of the "off N" labels at the field's corners
_CUBE_LOW, _CUBE_HIGH = _BOTTOM - 40, _TOP + 40


# Advance widths (thousandths of an em) of DejaVu Sans, the widest of the fonts the board names, for the
# characters the labels use; any other character counts as a whole em.  Labels are laid out by these widths
# (:func:`text_width`), so a longer word in another language makes its label smaller, never pushes it off
# the board; tests/test_board_labels.py measures every label with the font itself.
_WIDTH_CHARS = (" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"
                "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдежзийклмнопрстуфхцчшщъыьэюяЁё●○…–—·«»")
_WIDTHS = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636,
    636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295,
    295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838,
    500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521,
    392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, 684, 686, 686, 610, 781, 632, 1077, 641, 748, 748,
    710, 752, 863, 752, 787, 752, 603, 698, 611, 609, 861, 685, 776, 686, 1069, 1094, 833, 882, 686, 698, 1080,
    695, 613, 617, 589, 525, 691, 615, 901, 532, 650, 650, 604, 639, 754, 654, 612, 654, 635, 550, 583, 592,
    855, 592, 681, 591, 915, 942, 707, 790, 589, 549, 842, 602, 632, 615, 873, 873, 1000, 500, 1000, 318, 612,
    612,
)
_EM = dict(zip(_WIDTH_CHARS, _WIDTHS))
_SAFETY = 1.08            # room for a browser's font wider than DejaVu Sans
_MIN_SIZE = 7.0           # the smallest font size a label is shrunk to (then a name is shortened)


def text_width(text: str, size: float) -> float:
    """The width of ``text`` at font size ``size`` (DejaVu Sans metrics; unknown characters one em)."""
    return sum(_EM.get(c, 1000) for c in text) * size / 1000


def fit_size(text: str, size: float, room: float) -> float:
    """The font size, at most ``size``, at which ``text`` fits ``room`` (with a margin for other fonts);
    never below the smallest size (:func:`fit_label` shortens a text that still does not fit)."""
    w = text_width(text, size) * _SAFETY
    if w <= room:
        return size
    return max(_MIN_SIZE, int(size * room / w * 4) / 4)        # quarter points: stable, short markup


def fit_label(name: str, rest: str, size: float, room: float) -> tuple[str, float]:
    """(``name`` + ``rest``, font size) fitting ``room``: smaller type first, then ``name`` shortened
    with an ellipsis (``rest``, the label's fixed words, is kept)."""
    text = name + rest
    fs = fit_size(text, size, room)
    while text_width(text, fs) * _SAFETY > room and name:
        name = name[:-1]
        text = name.rstrip() + "\u2026" + rest
    return text, fs


def _x_of(p: int) -> float:
    """Left edge of point p (the bottom side's numbering): 1..12 bottom right to left, 13..24 top left to
    right."""
    i = 12 - p if p <= 12 else p - 13            # column 0..11 from the left
    return _MARGIN + i * _PW + (_BAR if i >= 6 else 0)


def board_geometry() -> dict:
    """Where :func:`svg_board` puts everything, for a script that draws the same board (the HTML
    replayer, :mod:`nardy_analyze.report.replayer`): the size, each point's left edge (index p - 1, the bottom
    side's numbering), the centres of the five checker places up from the bottom edge and down from the
    top edge, the bar's centre and the right margin (off counts and cube)."""
    return {"w": _W, "h": _H, "pw": _PW, "margin": _MARGIN, "bar": _BAR, "top": _TOP, "bottom": _BOTTOM,
            "ph": _PH, "x": [_x_of(p) for p in range(1, 25)],
            "up": [_BOTTOM - 13 - 26 * k for k in range(5)], "down": [_TOP + 13 + 26 * k for k in range(5)],
            "barx": _MARGIN + 6 * _PW + _BAR / 2, "right": _MARGIN + 12 * _PW + _BAR,
            # the labels' layout (the script lays them out as svg_board does): the off counts centred in the
            # right margin, the names along the frame; the widths of the characters
            "cubelow": _CUBE_LOW, "cubehigh": _CUBE_HIGH,
            "offx": _OFF_X, "offroom": _OFF_ROOM, "nameroom": _NAME_ROOM, "safety": _SAFETY, "minsize": _MIN_SIZE,
            "wchars": _WIDTH_CHARS, "widths": list(_WIDTHS)}


_OFF_X = _MARGIN + 12 * _PW + _BAR + (_W - (_MARGIN + 12 * _PW + _BAR)) / 2   # the off counts' centre
_OFF_ROOM = _W - (_MARGIN + 12 * _PW + _BAR) - 4                               # their width, 2 px each side
_NAME_ROOM = _W - 2 * _MARGIN                                                   # a name line's width


def svg_board(pos: Pos, dice: tuple[int, ...] | None = None, names: tuple[str, str] = ("", ""),
              title: str = "", cube: int = 1, owner: int | None = None, opp_point=None,
              show_cube: bool = True, role: str | None = None) -> str:
    """An SVG backgammon board of ``pos`` = (mover, opponent) from the mover's side: the mover's checkers
    dark and moving 24 -> 1 (counter-clockwise, home bottom right), the opponent's light; point numbers
    in the mover's numbering.  ``owner`` 0 = the mover, 1 = the opponent.  ``opp_point(p)`` is the
    opponent's own number for the mover's point p (default backgammon's 25 - p; in long nardy both sides
    run the same way: ((p + 11) mod 24) + 1).  ``role``: the legend after the mover's name (default
    "(numbering, to play)"; a game's final position: "(numbering, rolled last)")."""
    me, opp = pos
    other = opp_point or (lambda p: 25 - p)
    pw, margin, bar = _PW, _MARGIN, _BAR
    top, bottom, ph = _TOP, _BOTTOM, _PH
    aria = escape(title or _("backgammon position"))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {_H}" width="{_W}" height="{_H}" '
           f'role="img" aria-label="{aria}" font-family="system-ui,-apple-system,Segoe UI,Noto Sans,Noto Sans Armenian,Noto Sans Georgian,DejaVu Sans,Sylfaen,sans-serif">',
           f'<rect x="0" y="0" width="{_W}" height="{_H}" fill="#6b4a2b"/>',
           f'<rect x="{margin}" y="{top}" width="{12 * pw + bar}" height="{bottom - top}" fill="#e9d8b4"/>',
           f'<rect x="{margin + 6 * pw}" y="{top}" width="{bar}" height="{bottom - top}" fill="#5a3d22"/>']
    x_of = _x_of

    for p in range(1, 25):
        x = x_of(p)
        up = p <= 12
        colour = "#a33" if p % 2 else "#335"
        if up:
            pts = f"{x},{bottom} {x + pw},{bottom} {x + pw / 2},{bottom - ph}"
            ny = bottom + 14
        else:
            pts = f"{x},{top} {x + pw},{top} {x + pw / 2},{top + ph}"
            ny = top - 6
        out.append(f'<polygon points="{pts}" fill="{colour}"/>')
        out.append(f'<text x="{x + pw / 2}" y="{ny}" font-size="10" fill="#fff" text-anchor="middle">{p}</text>')
        n, dark = (me[p - 1], True) if me[p - 1] else (opp[other(p) - 1], False)
        for k in range(min(n, 5)):
            cy = bottom - 13 - 26 * k if up else top + 13 + 26 * k
            out.append(f'<circle cx="{x + pw / 2}" cy="{cy}" r="12" fill="{"#222" if dark else "#f5f5f0"}" '
                       f'stroke="#000" stroke-width="1"/>')
        if n > 5:
            cy = bottom - 13 - 26 * 4 if up else top + 13 + 26 * 4
            out.append(f'<text x="{x + pw / 2}" y="{cy + 4}" font-size="11" text-anchor="middle" '
                       f'fill="{"#fff" if dark else "#000"}">{n}</text>')
    cx = margin + 6 * pw + bar / 2
    for n, dark, cy in ((me[24], True, top + 60), (opp[24], False, bottom - 60)):
        if n:
            out.append(f'<circle cx="{cx}" cy="{cy}" r="12" fill="{"#222" if dark else "#f5f5f0"}" stroke="#000"/>')
            out.append(f'<text x="{cx}" y="{cy + 4}" font-size="11" text-anchor="middle" '
                       f'fill="{"#fff" if dark else "#000"}">{n}</text>')
    right = margin + 12 * pw + bar
    # TRANSLATORS: the board's label of the checkers one side has borne off (keep it short: a few letters)
    off = _("off {n}")
    for n, y in ((borne_off(me), bottom - 4), (borne_off(opp), top + 12)):
        text = off.format(n=n)
        out.append(f'<text x="{_OFF_X:g}" y="{y}" font-size="{fit_size(text, 10, _OFF_ROOM):g}" fill="#fff" '
                   f'text-anchor="middle">{escape(text)}</text>')
    if dice:
        for i, d in enumerate(dice):
            x = margin + 9 * pw + bar - 17 * len(dice) + 4 + 34 * i
            out.append(f'<rect x="{x}" y="{_H / 2 - 13}" width="26" height="26" rx="4" fill="#fff" stroke="#000"/>')
            out.append(f'<text x="{x + 13}" y="{_H / 2 + 6}" font-size="16" text-anchor="middle">{d}</text>')
    if show_cube:
        cy = {None: _H / 2, 0: _CUBE_LOW, 1: _CUBE_HIGH}[owner]
        out.append(f'<rect x="{right + 6}" y="{cy - 12}" width="24" height="24" fill="#fff" stroke="#000"/>')
        out.append(f'<text x="{right + 18}" y="{cy + 5}" font-size="12" text-anchor="middle">'
                   f'{cube if cube > 1 else 64}</text>')
    if names[0] or names[1]:
        # TRANSLATORS: after the bottom player's name on the board: the point numbers are that player's
        role = _("(numbering, to play)") if role is None else role
        for mark, name, rest, y in (("\u25cf ", names[0], " " + role, _H - 6), ("\u25cb ", names[1], "", 14)):
            text, fs = fit_label(mark + visible(name)[:40], rest, 11, _NAME_ROOM)
            marked = escape(text).replace("\u25cf", "&#9679;").replace("\u25cb", "&#9675;")
            out.append(f'<text x="{margin}" y="{y}" font-size="{fs:g}" fill="#fff">{marked}</text>')
    out.append("</svg>")
    return "\n".join(out)
