"""Players' names and comments in any script come out of every output exactly (docs/convert.md, "Names in
any script").

The records are the shipped examples: a backgammon ``.mat`` match of a Cyrillic and an Azerbaijani
player (``baku-final-5pt.mat``), an ``.sgf`` match of an Armenian and a Georgian player with comments in
both scripts (``yerevan-tbilisi-3pt.sgf``), and ``.ngn`` records of long nardy (Azerbaijani and Cyrillic)
and Gul bara (Georgian and Turkish), with comments.  For each: ``validate`` in every ``--format`` (on a
copy with a planted illegal play of each player, so that the findings name both), ``convert`` to every
target and back, ``stats`` in every ``--format``, ``show`` in every ``--as``.  Everywhere the names are
exactly as written (the tool does not normalise them: a name typed with combining characters stays so),
the bytes are UTF-8, there is no U+FFFD, no name with letters replaced by ``?``, and no mojibake: every
non-ASCII character of an output is one of the record or one the tool writes for an all-ASCII twin of
the record (the same record with ASCII names and comments).  The stats table stays aligned with wide and
combining characters; ``stats`` groups a name typed composed (NFC) and decomposed (NFD) as one player.
A terminal whose encoding lacks a character gets an escape (``\\u0531``), never a crash.

GNU Backgammon (slow): it reads the ``.mat`` and ``.sgf`` we write with these names, cutting a name at 31
bytes of UTF-8 (its limit).  The browser's rendering (fonts, no tofu): tests/test_names_browser.py.
"""
from __future__ import annotations

import copy
import csv
import io
import json
import os
import re
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from helpers import EXAMPLES
from nardy_analyze import notation
from nardy_analyze.convert import write_text
from nardy_analyze.record import Kind, Match, same_record
from nardy_analyze.safetext import markup

NAMES = {
    "baku-final-5pt.mat": ("Алексей Смирнов", "Rəşad Məmmədov"),
    "yerevan-tbilisi-3pt.sgf": ("Արամ Պետրոսյան", "გიორგი ბერიძე"),
    "ganja-long-nardy.ngn": ("Aygün Əliyeva", "Алексей Смирнов"),
    "tbilisi-gulbara.ngn": ("გიორგი ბერიძე", "Çağrı Yılmaz"),
}
# one comment of each record: (where it is, the text)
COMMENT = {
    "baku-final-5pt.mat": ("match", "Oyunu Aygün Əliyeva qeyd edib — записала Айгюн Алиева."),
    "yerevan-tbilisi-3pt.sgf": ("action", "კარგი სვლა"),
    "ganja-long-nardy.ngn": ("action", "Aygün uzun düşündü; Айгюн долго думала"),
    "tbilisi-gulbara.ngn": ("action", "ჯაჭვი! Zincir devam ediyor"),
}
RECORDS = sorted(NAMES)
TARGETS = ("mat", "sgf", "json", "ngn")
ALL_NAMES = sorted({n for pair in NAMES.values() for n in pair})


# ----------------------------------------------------------------------------- helpers

def read(path: Path) -> Match:
    m = notation.read_path(path)
    assert m.games and not m.problems, (path, m.problems)
    return m


def actions(m: Match):
    for g in m.games:
        for a in g.actions:
            yield a
            yield from a.segments


def texts(m: Match) -> list[str]:
    """Every text of the record a person wrote: players, tag values, comments at every level."""
    out = [p for g in m.games for p in g.players] + list(m.tags.values()) + list(m.comments)
    out += [c for g in m.games for c in g.comments]
    out += [c for a in actions(m) for c in getattr(a, "comments", [])]
    return out


def comments(m: Match) -> dict[str, list[str]]:
    return {"match": list(m.comments), "game": [c for g in m.games for c in g.comments],
            "action": [c for a in actions(m) for c in getattr(a, "comments", [])]}


def recode(m: Match, f) -> Match:
    """A copy of ``m`` with every text a person wrote passed through ``f``."""
    m = copy.deepcopy(m)
    m.tags = {k: f(v) for k, v in m.tags.items()}
    m.tag_items = [(k, f(v)) for k, v in m.tag_items]
    m.comments = [f(c) for c in m.comments]
    for g in m.games:
        g.players = tuple(f(p) for p in g.players)
        g.comments = [f(c) for c in g.comments]
    for a in actions(m):
        if getattr(a, "comments", None):
            a.comments = [f(c) for c in a.comments]
    return m


def ascii_twin(m: Match) -> Match:
    """The record with ASCII texts (each non-ASCII letter an 'x'): what the tool writes of its own."""
    return recode(m, lambda s: "".join(c if c.isascii() else "x" for c in s))


def plant(m: Match) -> Match:
    """A copy of ``m`` with an illegal play of each player in game 1 (dice that no step of the play
    fits), so that the findings name both players."""
    m = copy.deepcopy(m)
    done = set()
    rolls = [a for a in m.games[0].actions if a.kind is Kind.ROLL]
    for a in rolls[2:]:                       # (not the opening: early, no bear-off with a larger die)
        if a.player not in done and len(a.steps) >= 2 and not a.segments and a.dice[0] != a.dice[1]:
            pips = [s.src - s.dst for s in a.steps]
            a.dice = next((d1, d2) for d1 in range(1, 7) for d2 in range(d1 + 1, 7)
                          if not {d1, d2} & (set(a.dice) | set(pips)) and d1 + d2 != sum(pips))
            a.dice_text = f"{a.dice[0]}{a.dice[1]}"
            done.add(a.player)
        if len(done) == 2:
            return m
    raise AssertionError("no play to plant an error in")


def own_notation(name: str) -> str:
    return notation.for_path(name).name


def write_record(m: Match, path: Path) -> Path:
    path.write_text(write_text(m, own_notation(path.name)), encoding="utf-8")
    return path


def non_ascii(text: str) -> set[str]:
    return {c for c in text if not c.isascii()}


def assert_clean(out: str, record: Match, twin_out: str) -> None:
    """No replacement character, no letters turned into '?', no mojibake: every non-ASCII character of
    ``out`` is in the record's texts or in what the tool writes for the ASCII twin."""
    assert "\ufffd" not in out
    allowed = set().union(*map(non_ascii, texts(record))) | non_ascii(twin_out)
    stray = non_ascii(out) - allowed
    assert not stray, sorted(stray)
    for t in texts(record):
        damaged = "".join("?" if not c.isascii() else c for c in t)
        assert damaged == t or damaged not in out, damaged


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """{record: (path of the copy with planted errors, its ASCII twin's path, the record)}"""
    tmp = tmp_path_factory.mktemp("planted")
    out = {}
    for name in RECORDS:
        bad = plant(read(EXAMPLES / name))
        twin = ascii_twin(bad)
        (tmp / "twin").mkdir(exist_ok=True)
        out[name] = (write_record(bad, tmp / name), write_record(twin, tmp / "twin" / name), bad)
    return out


# ----------------------------------------------------------------------------- the records

@pytest.mark.parametrize("name", RECORDS)
def test_the_examples_hold_the_names_and_are_legal(name, cli):
    m = read(EXAMPLES / name)
    assert {g.players for g in m.games} == {NAMES[name]}
    where, text = COMMENT[name]
    assert text in comments(m)[where]
    assert all(unicodedata.is_normalized("NFC", t) for t in texts(m))     # as people type them
    code, out, _ = cli("validate", "--format", "json", str(EXAMPLES / name), errors="strict")
    assert code == 0 and json.loads(out)["summary"]["errors"] == 0


# ----------------------------------------------------------------------------- validate

@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "html"])
@pytest.mark.parametrize("name", RECORDS)
def test_validate_names_the_players_exactly(planted, name, fmt, cli):
    bad, twin, record = planted[name]
    code, out, err = cli("validate", "--explain", "--format", fmt, str(bad), errors="strict")
    assert code == 1, out + err
    _, twin_out, _ = cli("validate", "--explain", "--format", fmt, str(twin), errors="strict")
    assert_clean(out, record, twin_out)
    names = NAMES[name]
    if fmt == "text":
        for p in names:
            assert re.search(rf"\[game 1, (move \d+, )?{re.escape(p)}\]", out), p
        assert any(f"X = {p} " in out for p in names)
    elif fmt in ("json", "sarif"):
        strings = set()

        def walk(x):
            if isinstance(x, str):
                strings.add(x)
            elif isinstance(x, dict):
                [walk(v) for v in x.values()]
            elif isinstance(x, list):
                [walk(v) for v in x]
        walk(json.loads(out))
        assert set(names) <= strings
        for p in names:
            assert p in out                                   # written as UTF-8, not as \u escapes
        if fmt == "json":
            assert {f["player"] for f in json.loads(out)["findings"]} == set(names)
    else:
        for p in names:
            assert f", {markup(p)}" in out                    # the finding's line
            assert json.dumps(p, ensure_ascii=False) in out    # the replayer's data
        where, text = COMMENT[name]
        if where != "match":                                  # the replayer shows game and move comments
            assert json.dumps(text, ensure_ascii=False) in out


def test_text_output_on_terminals_without_those_letters(planted, cli):
    """A terminal in Latin-1 or KOI8-R: a letter it lacks is an escape (``\\u0259``); what it has is
    written in its encoding; never a crash, never a '?'."""
    bad, _, _ = planted["baku-final-5pt.mat"]
    for enc in ("latin-1", "koi8_r"):
        env = {"PYTHONIOENCODING": enc}

        def shown(name: str) -> str:
            return name.encode(enc, "backslashreplace").decode(enc)
        strict = dict(env=env, encoding=enc, errors="strict")
        code, out, err = cli.subprocess("validate", "--explain", str(bad), **strict)
        assert code == 1, err
        for p in NAMES["baku-final-5pt.mat"]:
            assert f", {shown(p)}]" in out and f"= {shown(p)} (" in out
        code, out, err = cli.subprocess("stats", str(EXAMPLES / "yerevan-tbilisi-3pt.sgf"), **strict)
        assert code == 0 and all(shown(p) in out for p in NAMES["yerevan-tbilisi-3pt.sgf"]), err
        code, out, err = cli.subprocess("show", str(EXAMPLES / "ganja-long-nardy.ngn"), **strict)
        assert code == 0 and all(f"= {shown(p)}" in out for p in NAMES["ganja-long-nardy.ngn"]), err
        assert "?" not in out


# ----------------------------------------------------------------------------- convert

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", RECORDS)
def test_convert_keeps_the_names_and_comments(tmp_path, name, target, cli):
    src = EXAMPLES / name
    orig = read(src)
    out = tmp_path / f"out.{target}"
    losses = notation.get(target).losses(orig)
    if any(f"has no {target} form" in x for x in losses):   # long nardy, Gul bara in .mat, .sgf: refused
        assert own_notation(name) == "ngn" and target in ("mat", "sgf")
        code, _, err = cli("convert", str(src), "--to", target, "-o", str(out), errors="strict")
        assert code == 1 and f"has no {target} form" in err and not out.exists(), err
        return
    lossy = bool(losses)
    assert lossy == (target == "mat" and bool(comments(orig)["game"] + comments(orig)["action"])), losses
    if lossy:       # .mat holds no comment on a game or a move: refused, named, nothing written
        code, _, err = cli("convert", str(src), "--to", "mat", "-o", str(out), errors="strict")
        assert code != 0 and "comments" in err and not out.exists(), err
    code, _, err = cli("convert", str(src), "--to", target, "-o", str(out), *(["--lossy"] if lossy else []),
                       errors="strict")
    assert code == 0, err
    data = out.read_bytes()
    assert not data.startswith(b"\xef\xbb\xbf")
    text = data.decode("utf-8")
    for p in NAMES[name]:
        assert p in text                                     # as UTF-8 text, not escaped
    back = read(out)
    assert [g.players for g in back.games] == [g.players for g in orig.games]
    assert [v for v in back.tags.values() if not v.isascii()] == [v for v in orig.tags.values() if not v.isascii()]
    if lossy:
        assert comments(back) == {**comments(orig), "game": [], "action": []}
        return
    assert comments(back) == comments(orig)
    if own_notation(name) != "mat" or target != "sgf":      # (.mat -> .sgf: steps spelt as single dice)
        assert same_record(back, orig)
    # and back to the record's own notation: the same file, byte for byte
    again = tmp_path / f"again{src.suffix}"
    code, _, err = cli("convert", str(out), "--to", own_notation(name), "-o", str(again), errors="strict")
    assert code == 0, err
    assert again.read_bytes() == src.read_bytes()


def test_names_are_kept_as_written_not_normalised(tmp_path, cli):
    """A name typed decomposed (``s`` + combining cedilla, as macOS file names and some keyboards give
    it) is written back decomposed by every target: a conversion changes no character."""
    orig = read(EXAMPLES / "baku-final-5pt.mat")
    nfd = recode(orig, lambda s: unicodedata.normalize("NFD", s))
    assert [g.players for g in nfd.games] != [g.players for g in orig.games]
    src = write_record(nfd, tmp_path / "nfd.mat")
    for target in TARGETS:
        out = tmp_path / f"nfd-out.{target}"
        code, _, err = cli("convert", str(src), "--to", target, "-o", str(out), errors="strict")
        assert code == 0, err
        back = read(out)
        assert [g.players for g in back.games] == [g.players for g in nfd.games]
        assert back.comments == nfd.comments and back.tags == nfd.tags
    code, out, _ = cli("validate", "--format", "json", str(src), errors="strict")
    assert code == 0


# ----------------------------------------------------------------------------- stats

@pytest.mark.parametrize("fmt", ["table", "csv", "json", "markdown", "parquet"])
def test_stats_shows_the_names_exactly(tmp_path, fmt, cli):
    paths = [str(EXAMPLES / n) for n in RECORDS]
    out = tmp_path / f"stats.{fmt}"
    code, _, err = cli("stats", "--format", fmt, "-o", str(out), *paths, errors="strict")
    assert code == 0, err
    if fmt == "parquet":
        import pandas as pd
        players = set(pd.read_parquet(out)["player"].astype(str))
    else:
        text = out.read_text(encoding="utf-8")
        if fmt == "csv":
            players = {row["player"] for row in csv.DictReader(io.StringIO(text))}
        elif fmt == "json":
            players = {row["player"] for row in json.loads(text)}
        elif fmt == "markdown":
            players = {line.split("|")[1].strip() for line in text.splitlines()[2:]}
        else:
            players = {line[:line.index("  ")] for line in text.splitlines()[1:] if line.strip()}
        assert "\ufffd" not in text
    assert players == set(ALL_NAMES)


def _table_columns(line: str, name: str) -> list[int]:
    """The display columns (terminal cells) at which the tokens after ``name`` end on a row of the table."""
    from rich.cells import cell_len

    rest_at = line.index(name) + len(name)
    return [cell_len(line[:rest_at + m.end()]) for m in re.finditer(r"\S+", line[rest_at:])]


def test_stats_table_stays_aligned_with_wide_and_combining_letters(tmp_path, cli):
    """The terminal table aligns by terminal cells: a wide letter takes two, a combining mark none."""
    base = read(EXAMPLES / "baku-final-5pt.mat")
    pairs = [("王小明", unicodedata.normalize("NFD", "Zoë Ångström")),          # wide; combining marks
             ("Արամ Պետրոսյան", "გიორგი ბერიძე"), ("Ann", "Алексей Смирнов")]
    paths = []
    for i, (a, b) in enumerate(pairs):
        m = recode(base, lambda s, a=a, b=b: {base.games[0].players[0]: a, base.games[0].players[1]: b}.get(s, s))
        paths.append(str(write_record(m, tmp_path / f"m{i}.mat")))
    code, out, err = cli("stats", "--format", "table", *paths, errors="strict")
    assert code == 0, err
    rows = out.splitlines()[1:]
    names = [n for pair in pairs for n in pair]
    assert len(rows) == len(names)
    columns = [_table_columns(row, next(n for n in names if row.startswith(n))) for row in rows]
    assert len({tuple(c) for c in columns}) == 1, columns


def test_stats_groups_composed_and_decomposed_spellings_as_one_player(tmp_path, cli):
    orig = read(EXAMPLES / "baku-final-5pt.mat")
    nfd = recode(orig, lambda s: unicodedata.normalize("NFD", s))
    a = write_record(orig, tmp_path / "a.mat")
    b = write_record(nfd, tmp_path / "b.mat")
    c = write_record(orig, tmp_path / "c.mat")
    code, out, err = cli("stats", "--format", "json", str(b), str(a), str(c), errors="strict")
    assert code == 0, err
    rows = {r["player"]: r["games"] for r in json.loads(out)}
    games = len(orig.games)
    assert rows == {p: 3 * games for p in NAMES["baku-final-5pt.mat"]}     # shown as the more frequent NFC
    code, out, err = cli("stats", "--format", "json", str(b), str(a), errors="strict")
    assert {r["player"] for r in json.loads(out)} == {unicodedata.normalize("NFD", p)       # equal: the first
                                                     for p in NAMES["baku-final-5pt.mat"]}


# ----------------------------------------------------------------------------- show

@pytest.mark.parametrize("as_", ["text", "gnubg", "xgid", "svg", "html"])
@pytest.mark.parametrize("name", RECORDS)
def test_show_names_the_players_exactly(tmp_path, name, as_, cli):
    src = EXAMPLES / name
    record = read(src)
    twin = write_record(ascii_twin(record), tmp_path / name)
    args = ["--game", "1", "--move", "3", "--as", as_]
    code, out, err = cli("show", str(src), *args, errors="strict")
    tcode, twin_out, twin_err = cli("show", str(twin), *args, errors="strict")
    assert code == tcode
    assert_clean(out + err, record, twin_out + twin_err)
    names = NAMES[name]
    if as_ in ("gnubg", "xgid"):
        if code == 0:                       # backgammon: the IDs, which hold no names
            assert out == twin_out and out.isascii()
        else:                               # long nardy, Gul bara: refused with the reason
            assert code == 2 and "backgammon positions only" in err
        return
    assert code == 0, err
    if as_ == "text":
        assert f"X = {names[0]} " in out and f"O = {names[1]}" in out or \
            f"X = {names[1]} " in out and f"O = {names[0]}" in out
        assert all(f"{p} " in out.split("score ", 1)[1] for p in names)
    elif as_ == "svg":
        svg = ET.fromstring(out)
        shown = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text") if t.text]
        for p in names:
            assert any(s.startswith(("\u25cf " + p, "\u25cb " + p)) for s in shown), (p, shown)
    else:
        for p in names:
            assert json.dumps(p, ensure_ascii=False) in out and markup(p) in out
        where, text = COMMENT[name]
        if where != "match":
            assert json.dumps(text, ensure_ascii=False) in out


# ----------------------------------------------------------------------------- GNU Backgammon

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")


def gnubg_name(name: str) -> str:
    """The name GNU Backgammon keeps: at most 31 bytes of UTF-8 (it cuts longer names, even inside a
    letter; these names are cut between letters)."""
    return name.encode("utf-8")[:31].decode("utf-8")


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(GNUBG), reason=f"GNU Backgammon not installed ({GNUBG})")
def test_gnubg_reads_the_names_we_write(tmp_path, cli):
    from gnubg_run import gnubg_dump

    jobs, want = [], {}
    for name in ("baku-final-5pt.mat", "yerevan-tbilisi-3pt.sgf"):
        src = EXAMPLES / name
        m = read(src)
        for target in ("mat", "sgf"):
            out = tmp_path / f"{src.stem}.{target}"
            code, _, err = cli("convert", str(src), "--to", target, "-o", str(out), "--lossy", errors="strict")
            assert code == 0, err
            load = f'import mat "{out}"' if target == "mat" else f'load match "{out}"'
            jobs.append((out.name, load, None))
            want[out.name] = (NAMES[name], m.match_length, len(m.games))
    got = gnubg_dump(tmp_path, jobs)
    for key, (names, length, games) in want.items():
        g = got[key]
        assert "error" not in g, g
        assert (g["X"], g["O"]) == tuple(map(gnubg_name, names)), key
        assert (g["length"], len(g["games"])) == (length, games), key
    # the Georgian name is longer than 31 bytes: the one GNU Backgammon shortens
    assert gnubg_name("გიორგი ბერიძე") == "გიორგი ბერი"
