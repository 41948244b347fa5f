"""Short files in legacy encodings: a few bytes of names decide the encoding (docs/convert.md,
"Encodings").  Every name of 3 to 20 letters, alone in a short ``.mat`` (one name per file, in either
column), comes back exactly in every encoding the README lists, and in KOI8-R, Windows-1252 and
Windows-1250; ``convert --to json`` writes it as it was.
"""
from __future__ import annotations

import json

import pytest

from nardy_analyze import notation
from nardy_analyze.notation import decode_detail

# one name per number of letters, 3 to 20 (spaces not counted)
RUSSIAN = ["Оля", "Иван", "Ирина", "Андрей", "Дмитрий", "Светлана", "Александр", "Константин", "Крестовский",
           "Ярослав Орлов", "Эльвира Зуевна", "Преображенский", "Лев Щербаковский", "Ефим Щербаковский",
           "Лев Преображенский", "Анна Преображенская", "Игорь Преображенский", "Марина Преображенская"]
WESTERN = ["Zoë", "Jörg", "Søren", "Müller", "Günther", "François", "José Muñoz", "Hélène Dubé", "Zoë Ångström",
           "Jürgen Ørsted", "Gaëlle Lefèvre", "Björn Borgström", "Raphaëlle Bézier", "Françoise Dorléac",
           "Sébastien Loëb Çaël", "Jean-Rémy Hébertçon", "Ragnar Ólafsdóttirr", "Ólafur Ragnarsdóttir",
           "Ærøskøbing Østerbølle"]
CENTRAL = ["Łukasz", "Wałęsa", "Paweł Żółć", "Dvořák Łuk", "Ščepán Łoś"]



def letters(name: str) -> int:
    return sum(c.isalpha() for c in name)


assert sorted(map(letters, RUSSIAN)) == list(range(3, 21))
assert sorted(set(map(letters, WESTERN))) == list(range(3, 21))

RECORD = """\
 1 point match

 Game 1
 {a} : 0                      {b} : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 64: 24/14                   Resigns
      Wins 1 point
"""


def text_of(name: str, left: bool) -> str:
    return RECORD.format(a=name, b="Bob") if left else RECORD.format(a="Ann", b=name)


def players(data: bytes) -> tuple[str, str]:
    m = notation.read_bytes(data, "short.mat")
    return m.games[0].players


def cases(names, encodings):
    return [(n, e, left) for e in encodings for n in names for left in (True, False)]


@pytest.mark.parametrize("name,encoding,left", cases(RUSSIAN, ["cp1251", "koi8_r", "utf-8", "utf-8-sig", "utf-16"]))
def test_russian_names(name, encoding, left):
    data = text_of(name, left).encode(encoding)
    got = players(data)
    assert got == ((name, "Bob") if left else ("Ann", name)), (decode_detail(data).encoding, got)
    if encoding in ("cp1251", "koi8_r"):
        assert decode_detail(data).encoding == encoding


@pytest.mark.parametrize("name,encoding,left", cases(WESTERN, ["latin-1", "cp1252", "utf-8"]))
def test_western_names(name, encoding, left):
    data = text_of(name, left).encode(encoding)
    assert players(data) == ((name, "Bob") if left else ("Ann", name)), decode_detail(data).encoding


@pytest.mark.parametrize("name", CENTRAL)
def test_central_european_names(name):
    data = text_of(name, True).encode("cp1250")
    assert players(data) == (name, "Bob"), decode_detail(data).encoding


def test_two_russian_names_one_per_line_and_convert_to_json(tmp_path):
    from typer.testing import CliRunner
    from nardy_analyze.cli import app
    src = tmp_path / "ru.mat"
    for enc in ("cp1251", "koi8_r"):
        src.write_bytes(RECORD.format(a="Игрок", b="Соперник").encode(enc))
        out = tmp_path / "ru.json"
        r = CliRunner().invoke(app, ["convert", str(src), "--to", "json", "-o", str(out), "--force"])
        assert r.exit_code == 0, r.output
        doc = json.loads(out.read_text(encoding="utf-8"))
        assert "Игрок" in json.dumps(doc, ensure_ascii=False) and "Соперник" in json.dumps(doc, ensure_ascii=False)


def test_text_that_is_plainly_western_is_never_read_as_cyrillic():
    # a word mixing ASCII letters and accented ones is Western, whatever else the file holds
    data = RECORD.format(a="Jürgen", b="Bob").encode("latin-1")
    assert decode_detail(data).encoding in ("cp1252", "latin_1")


def test_russian_names_in_a_short_ngn_file():
    ngn = '[White "Игрок"]\n[Black "Соперник"]\n[Variant "long"]\n\nGame 1\n1. 63: 24/18 24/21  52: 24/19 24/22\n'
    for enc in ("cp1251", "koi8_r"):
        m = notation.read_bytes(ngn.encode(enc), "short.ngn")
        assert (m.tags["White"], m.tags["Black"]) == ("Игрок", "Соперник"), enc
