"""Every label of the SVG board stays on the board, in every language and at every size the board is drawn.

The board of ``show --as svg`` and of the HTML report (``svg.svg_board``) and the board the replayer's script
draws (the same layout in JavaScript, run here by node) are measured with the font itself (DejaVu Sans, by
Pillow's FreeType): every ``<text>`` of every off count 0-15 of either side, the names of the players (long
Latin, Cyrillic and Georgian names, with and without the "to play" role), the point numbers, the dice and the
cube, at the sizes the pages show the board (the full 460 px, a phone's 320 px, the replayer's small
"after" board).  A label that leaves the board fails, whatever its language's words are."""
from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from nardy_analyze.engine import get_variant
from nardy_analyze.i18n import LANGUAGES, set_language
from nardy_analyze.report import replayer
from nardy_analyze.report.svg import board_geometry, svg_board

ImageFont = pytest.importorskip("PIL.ImageFont", reason="Pillow measures the text (the 'test' extra)")
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
if not FONT.exists():
    pytest.skip("the DejaVu Sans font is not installed (fonts-dejavu-core)", allow_module_level=True)

W, H = board_geometry()["w"], board_geometry()["h"]
# the widths the pages draw the board at: show --as svg and the replayer on a screen, on a phone, and the
# replayer's small "after" board (60% of the board's column, 70% on a narrow screen)
WIDTHS = (460, 320, 276, 322, 224)
NAMES = [("Alice", "Bob"),
         ("Александра Константиновна Вишневецкая", "Ш" * 40),
         ("W" * 40, "Maximilian Alexander von Württemberg-Hohenzollern"),
         ("ნინო ბერიძე-ჯავახიშვილი ქუთაისიდან", "Ərdoğan Məmmədov-Əliyev")]
TEXT = re.compile(r'<text ([^>]*)>(.*?)</text>', re.S)
ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def _sides(off_me: int, off_opp: int):
    """A legal position with ``off_me`` and ``off_opp`` checkers borne off (the rest on point 1)."""
    me = [0] * 25
    opp = [0] * 25
    me[0] = 15 - off_me
    opp[0] = 15 - off_opp
    return tuple(me), tuple(opp)


def _overflow(svg: str, width: int) -> list[str]:
    """The labels of ``svg`` (drawn ``width`` px wide) that leave the board, measured with the font."""
    scale = width / W
    bad = []
    for attrs, body in TEXT.findall(svg):
        a = dict(ATTR.findall(attrs))
        text = html.unescape(body)
        size = float(a["font-size"]) * scale
        font = ImageFont.truetype(str(FONT), size)
        w = font.getlength(text)
        ascent, descent = font.getmetrics()
        x, y = float(a["x"]) * scale, float(a["y"]) * scale
        left = x - w / 2 if a.get("text-anchor") == "middle" else x
        if left < 0 or left + w > width or y - ascent < -0.5 or y > H * scale:
            bad.append(f"{text!r} at {width} px: x {left:.1f}..{left + w:.1f} of {width}")
    return bad


def _cases():
    for off_me in range(16):
        yield _sides(off_me, 15 - off_me), NAMES[off_me % len(NAMES)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_label_of_the_svg_board_stays_on_the_board(lang):
    set_language(lang)
    try:
        bad = []
        for pos, names in _cases():
            for cube, owner in ((1, None), (64, 0), (2, 1)):
                svg = svg_board(pos, dice=(6, 4), names=names, title="t", cube=cube, owner=owner)
                assert svg.count("<text") >= 28
                for width in WIDTHS:
                    bad += _overflow(svg, width)
        assert not bad, bad
    finally:
        set_language(None)


def _script_boards(lang: str) -> list[str]:
    """The replayer's script (in ``lang``) drawing every case's board, run by node."""
    set_language(lang)
    try:
        js = replayer.script()
        geom = board_geometry()
    finally:
        set_language(None)
    start = js.index("function esc(")
    funcs = js[start:js.index("\n", start)] + "\n" + js[js.index("function sidesOf"):js.index("function rec(){")]
    opp = [get_variant("backgammon").rules.opp_point(p) for p in range(1, 25)]
    cases = [[list(pos[0]), list(pos[1]), list(names)] for pos, names in _cases()]
    program = (f"var G={json.dumps(geom)};\n{funcs}\nvar out=[];\n"
               f"var cases={json.dumps(cases, ensure_ascii=False)};\n"
               f"cases.forEach(function(c){{[0,1].forEach(function(b){{\n"
               f"  out.push(board({{opp:{json.dumps(opp)},cube:true}},[c[0],c[1]],b,0,\"64\",2,b,c[2],\"t\"));"
               "});});\n"
               "process.stdout.write(JSON.stringify(out));\n")
    r = subprocess.run(["node", "-e", program], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs the replayer's script")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_label_of_the_replayer_board_stays_on_the_board(lang):
    boards = _script_boards(lang)
    assert len(boards) == 32
    bad = []
    for svg in boards:
        assert svg.count("<text") >= 28
        for width in WIDTHS:
            bad += _overflow(svg, width)
    assert not bad, bad
    if lang == "ru":                      # the words are the catalog's, whole: a number is never cut
        assert any(">выбр 15</text>" in svg for svg in boards)


def test_a_label_too_long_for_the_board_is_made_smaller_then_shortened():
    from nardy_analyze.report.svg import fit_label
    text, size = fit_label("\u0436" * 120, " (x)", 11, 200)
    assert size == 7 and text.endswith("\u2026 (x)") and 0 < text.count("\u0436") < 120
    set_language("ru")
    try:
        svg = svg_board(_sides(15, 15), names=("Ш" * 40, "Bob"), title="t")
    finally:
        set_language(None)
    assert re.search(r'font-size="[0-9.]+" fill="#fff" text-anchor="middle">выбр 15</text>', svg)
    assert not re.search(r'font-size="10" fill="#fff" text-anchor="middle">выбр 15</text>', svg)   # smaller
    attrs = [a for a, b in TEXT.findall(svg) if "(нумерация, ходит)" in b][0]
    assert float(dict(ATTR.findall(attrs))["font-size"]) < 11
