"""Safe output: control characters from a record never reach a terminal, a text report, HTML or SVG raw
(they are shown as escapes); JSON and SARIF carry them JSON-escaped, exactly; the record keeps them."""
from __future__ import annotations

import json
import unicodedata
import xml.dom.minidom
from html.parser import HTMLParser

import pytest
from hypothesis import given, strategies as st

from nardy_analyze.safetext import json_safe, markup, visible

from helpers import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "selfplay" / "selfplay_0103_5pt.mat"
# clears the screen, retitles the terminal, rings the bell, a C1 CSI, turns the text round
HOSTILE = "Bob\x1b[2J\x1b]0;owned\x07\x9b31m\u202e[red]x"
SHOWN = r"Bob\x1b[2J\x1b]0;owned\x07\x9b31m\u202e[red]x"


def raw_controls(text: str) -> list[str]:
    """Characters a terminal acts on (every Cc but the line break and the tab, and the bidirectional
    controls)."""
    return [c for c in text if c not in "\n\t" and (unicodedata.category(c) == "Cc" or "\u202a" <= c <= "\u202e"
                                              or "\u2066" <= c <= "\u2069")]


@pytest.fixture()
def hostile(tmp_path):
    """A real record whose first player is named HOSTILE, with an illegal play of theirs (so the name is
    in a finding) and a line that cannot be read (echoed in the parse error)."""
    text = FIXTURE.read_text().replace("gnubg", HOSTILE)
    assert "  1) 32: 24/21 13/11 " in text
    text = text.replace("  1) 32: 24/21 13/11 ", "  1) 31: 24/21 13/11 ", 1)
    path = tmp_path / "hostile.mat"
    path.write_text(text, encoding="utf-8")
    bad = tmp_path / "badline.mat"
    lines = text.split("\n")
    i = lines.index(" Game 2")
    lines.insert(i + 3, " 99) zz\x1b[31mRED\x07\x08 line")
    bad.write_text("\n".join(lines), encoding="utf-8")
    return path, bad


def test_text_report_and_messages_escape(hostile, cli):
    path, bad = hostile
    code, out, err = cli.subprocess("validate", "--explain", "-v", str(path), str(bad))
    assert code == 1
    assert not raw_controls(out + err), raw_controls(out + err)
    assert SHOWN in out                                          # the name, visible
    assert r'zz\x1b[31mRED\x07\x08 line' in out                   # the bad line echoed, visible
    code, out, err = cli.subprocess("validate", "--statistics", "--color", str(bad))
    assert not raw_controls(out.replace("\x1b[", "")), out         # only our own colour codes


def test_json_and_sarif_keep_the_name_exactly(hostile, cli):
    path, bad = hostile
    code, out, _ = cli.subprocess("validate", "--format", "json", "--explain", str(path), str(bad))
    assert not raw_controls(out)
    doc = json.loads(out)
    assert HOSTILE in {f["player"] for f in doc["findings"]}
    assert any("zz\x1b[31mRED\x07\x08 line" in f["message"] for f in doc["findings"])
    code, out, _ = cli.subprocess("validate", "--format", "sarif", str(path), str(bad))
    assert not raw_controls(out)
    doc = json.loads(out)
    assert HOSTILE in {r["properties"]["player"] for r in doc["runs"][0]["results"]}


def test_html_report_shows_escapes(hostile, tmp_path, cli):
    path, bad = hostile
    out_file = tmp_path / "r.html"
    code, _, _ = cli.subprocess("validate", "--format", "html", "-o", str(out_file), str(path), str(bad))
    assert code == 1
    page = out_file.read_text(encoding="utf-8")
    assert not raw_controls(page)
    texts: list[str] = []

    class P(HTMLParser):
        def handle_data(self, data):
            texts.append(data)

    P().feed(page)
    assert any(SHOWN in t for t in texts)


def test_svg_is_valid_xml(hostile, cli):
    path, _ = hostile
    for move in ("1", "5"):
        code, out, err = cli.subprocess("show", str(path), "--game", "1", "--move", move, "--as", "svg")
        assert code == 0, err
        doc = xml.dom.minidom.parseString(out)          # raises on a character XML does not allow
        assert SHOWN[:20] in "".join(n.data for n in _text_nodes(doc))


def _text_nodes(node):
    for c in node.childNodes:
        if c.nodeType == c.TEXT_NODE:
            yield c
        yield from _text_nodes(c)


def test_show_text_and_warning(hostile, cli):
    path, bad = hostile
    for f in (path, bad):
        code, out, err = cli.subprocess("show", str(f), "--game", "1", "--move", "3")
        assert code == 0
        assert not raw_controls(out + err) and SHOWN in out


@pytest.mark.parametrize("fmt", ["table", "markdown"])
def test_stats_table_escapes(hostile, fmt, cli):
    pytest.importorskip("pandas")
    path, bad = hostile
    code, out, err = cli.subprocess("stats", "-f", fmt, str(path), str(bad))
    assert code == 1                                              # the unreadable line of badline.mat
    assert not raw_controls(out + err), raw_controls(out + err)
    assert SHOWN in out                                           # "[red]" is not read as rich markup
    assert r'zz\x1b[31mRED\x07\x08 line' in err


def test_convert_messages_escape_and_record_keeps_the_name(hostile, tmp_path, cli):
    path, _ = hostile
    named = tmp_path / "cup\x1b[2J\x07.mat"                 # a file name is text from outside too
    named.write_bytes(path.read_bytes())
    code, out, err = cli.subprocess("convert", str(named), "--to", "ngn", "--out-dir", str(tmp_path / "o"))
    assert code == 0, err
    assert not raw_controls(out + err)
    assert r"cup\x1b[2J\x07.mat:7:6: dice-mismatch" in err    # the warning naming the first finding
    written = (tmp_path / "o" / "cup\x1b[2J\x07.ngn").read_text(encoding="utf-8")
    assert HOSTILE in written                        # the record keeps what it held
    code, out, err = cli.subprocess("validate", str(named), "--format", "text")
    assert code == 1 and not raw_controls(out + err) and r"cup\x1b[2J\x07.mat:7:6:" in out


@given(st.text())
def test_visible_leaves_nothing_raw_and_json_safe_is_the_same_value(text):
    assert not raw_controls(visible(text)) and "\n" not in visible(text)
    assert visible(text).count("\t") == text.count("\t")        # white space, left as it is
    assert visible(text, newlines=True).count("\n") == text.count("\n")
    if not raw_controls(text) and not {"\n", "\ufffe", "\uffff"} & set(text):
        assert visible(text) == text                 # printable text (any script) is left alone
    dumped = json_safe(json.dumps(text, ensure_ascii=False))
    assert json.loads(dumped) == text and not raw_controls(dumped)
    xml.dom.minidom.parseString(f"<a>{markup(text)}</a>")
