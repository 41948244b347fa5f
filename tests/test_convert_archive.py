"""``convert`` on real archives as a user runs it: a banner before the match header is converted like any
comment, a folder converted twice, ``--out-dir`` mirroring sub-folders, every input named, ratings split out
of the names, and the exit codes of outputs that cannot be written."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from helpers import ROOT
from roundtrip import actual, expected, first_difference
from nardy_analyze import notation
from nardy_analyze.notation import mat
from nardy_analyze.record import same_record
from nardy_analyze.convert import write_text

TARGETS = ("mat", "sgf", "json", "ngn")
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)

# a tournament archive's file: a boxed banner of free text before " N point match", with a line that looks
# like a header tag ("Date: ..."), one that starts with "[", indented lines, and ";" comments between
BANNER = """\
+------------------------------------------------------+
|        Spring Open 2024 - Main Flight - Round 3      |
|  Board 12                     Director: K. Petrov    |
+------------------------------------------------------+
Date: 2024-05-01
   [Board 12]   Round: 3
; a comment of the file
;    an indented one

 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 64: 24/14                   Resigns
      Wins 1 point

 Game 2
 Alice : 1                      Bob : 0
  1) 65: 24/13                   31: 8/5 6/5
  2)  Doubles => 2                Drops
      Wins 1 point
"""


def typer_run(*args: str) -> subprocess.CompletedProcess:
    """The same through the typer command line (what ``--help`` and unusual command lines go through)."""
    r = subprocess.run([sys.executable, "-c", "from nardy_analyze.cli import app; app(prog_name='nardy-analyze')",
                        *args], cwd=ROOT, capture_output=True, text=True)
    assert "Traceback" not in r.stderr, r.stderr
    return r


# ----------------------------------------------------------------------------- banners


def test_a_banner_is_kept_as_the_matchs_comments_in_file_order():
    m = mat.read(BANNER, "banner.mat")
    assert m.comments == [
        "+------------------------------------------------------+",
        "|        Spring Open 2024 - Main Flight - Round 3      |",
        "|  Board 12                     Director: K. Petrov    |",
        "+------------------------------------------------------+",
        "Date: 2024-05-01",
        "   [Board 12]   Round: 3",
        "a comment of the file",
        "   an indented one",
    ]
    assert m.tags == {}                               # "Date: ..." of a banner is text, not a tag
    assert [p.warning for p in m.problems] == [True]   # validate's one warning
    for to in TARGETS:
        assert notation.get(to).losses(m) == [], to


@pytest.mark.parametrize("to", TARGETS)
def test_a_banner_file_converts_to_every_target_and_back_the_same(tmp_path, to, cli):
    src = tmp_path / "banner.mat"
    src.write_text(BANNER, encoding="utf-8")
    r = cli.subprocess("convert", str(src), "--to", to, "-o", str(tmp_path / f"x.{to}"))
    assert r.returncode == 0, r.stderr
    assert r.stderr == f"1 written, 0 refused, 0 failed (to {to})\n"      # no refusal, no loss, no warning
    r = cli.subprocess("convert", str(src), "--to", to, "--lossy", "-o", str(tmp_path / f"y.{to}"))
    assert r.returncode == 0 and "dropped" not in r.stderr, r.stderr     # --lossy: nothing is really lost
    assert (tmp_path / f"y.{to}").read_bytes() == (tmp_path / f"x.{to}").read_bytes()
    original = notation.read_path(src)
    middle = notation.read_path(tmp_path / f"x.{to}")
    assert not middle.problems, middle.problems        # the banner is comments now, no warning left
    if to in ("json", "ngn"):                         # these keep the steps as written: the very record
        assert same_record(middle, original)
    else:                                             # the single-die steps of the replay
        assert first_difference(expected(original), actual(middle)) == "no difference"
    # and back to .mat: the same record as the original, apart from the notation's spelling
    back = tmp_path / "back.mat"
    r = cli.subprocess("convert", str(tmp_path / f"x.{to}"), "--to", "mat", "-o", str(back))
    assert r.returncode == 0, r.stderr
    again = notation.read_path(back)
    assert not again.problems and first_difference(expected(original), actual(again)) == "no difference"
    assert again.comments == original.comments


_HEADERS = re.compile(r"^[ \t]*(Game[ \t]+[0-9]+[ \t]*$|[0-9]+[ \t]+point[ \t]+match)", re.I)
_FREE_LINE = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=60).filter(
    lambda s: s.strip() and not s.lstrip().startswith(";") and not _HEADERS.match(s))


@settings(max_examples=80, deadline=None)
@given(st.lists(_FREE_LINE, min_size=1, max_size=6), st.lists(st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=40), max_size=3))
def test_any_banner_and_comments_come_back_from_every_target(banner, comments):
    """Any free text before the header and any ";" comment: kept in order through every notation and
    back to .mat (a comment .mat would read as a tag is written ";; text")."""
    text = "\n".join(banner) + "\n" + "".join(mat.comment_line(c) + "\n" for c in comments) + "\n" \
        + BANNER.split("\n\n", 1)[1]
    m = mat.read(text, "b.mat")
    assert m.comments == [b.rstrip() for b in banner] + [c.rstrip() for c in comments]
    for to in TARGETS:
        w = notation.get(to)
        assert w.losses(m) == [], to
        middle = notation.read_text(write_text(m, to), f"x.{to}")
        back = mat.read(write_text(middle, "mat"), "y.mat")
        assert middle.comments == m.comments and back.comments == m.comments, to
        assert not back.problems and back.tags == m.tags, to


def test_lossy_still_lists_text_that_is_really_lost(tmp_path, cli):
    src = tmp_path / "bad.mat"
    src.write_text(BANNER.replace("  1) 65: 24/13", "  1) 65: 24/13 #?!"), encoding="utf-8")
    r = cli.subprocess("convert", str(src), "--to", "sgf", "-o", str(tmp_path / "x.sgf"))
    line = BANNER.split("\n").index("  1) 65: 24/13                   31: 8/5 6/5") + 1
    assert r.returncode == 1 and f"unreadable text (line {line}) is not" in r.stderr, r.stderr
    assert "line 1)" not in r.stderr                   # the banner is not named among the losses
    r = cli.subprocess("convert", str(src), "--to", "sgf", "--lossy", "-o", str(tmp_path / "x.sgf"))
    assert r.returncode == 0 and "--lossy dropped:" in r.stderr and f"(line {line})" in r.stderr, r.stderr


# ----------------------------------------------------------------------------- folders


def _archive(root: Path) -> Path:
    """An archive of records in sub-folders, a banner file, a broken .mat, an empty .mat, a README."""
    games = root / "games"
    for i, sub in enumerate(("2023/spring", "2023/autumn", "2024", "")):
        folder = games / sub
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"m{i}.mat").write_text(BANNER.replace("Alice", f"Alice{i}"), encoding="utf-8")
    (games / "2024" / "m0.mat").write_text(BANNER, encoding="utf-8")      # the same name in another folder
    (games / "2024" / "broken.mat").write_text("garbage\n", encoding="utf-8")
    (games / "empty.mat").write_text("", encoding="utf-8")
    (games / "notes.txt").write_text("shopping list\n", encoding="utf-8")
    return games


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_converting_a_folder_twice_converts_the_same_files(tmp_path, cli):
    games = _archive(tmp_path)
    first = cli.subprocess("convert", str(games), "--to", "sgf")
    assert first.returncode == 1                       # the broken and the empty .mat fail (as validate says)
    last = first.stderr.splitlines()[-1]
    assert last == "5 written, 0 refused, 2 failed, 1 skipped (1 not a game record; --verbose lists them) (to sgf)"
    written = {k: v for k, v in _tree(games).items() if k.endswith(".sgf")}
    assert len(written) == 5
    # again: the .sgf files of the first run are not inputs; without --force the outputs exist
    again = cli.subprocess("convert", str(games), "--to", "sgf")
    assert again.returncode == 1 and "exists; use --force" in again.stderr
    assert again.stderr.splitlines()[-1] == ("0 written, 0 refused, 7 failed, 6 skipped (5 already sgf, "
                                             "1 not a game record; --verbose lists them) (to sgf)")
    forced = cli.subprocess("convert", str(games), "--to", "sgf", "--force")
    assert forced.returncode == 1 and "would be overwritten" not in forced.stderr
    assert forced.stderr.splitlines()[-1] == ("5 written, 0 refused, 2 failed, 6 skipped (5 already sgf, "
                                              "1 not a game record; --verbose lists them) (to sgf)")
    assert {k: v for k, v in _tree(games).items() if k.endswith(".sgf")} == written


def test_every_input_is_named(tmp_path, cli):
    games = _archive(tmp_path)
    (games / "m3.sgf").write_text(write_text(mat.read(BANNER, "x.mat"), "sgf"), encoding="utf-8")
    r = cli.subprocess("convert", str(games), "--to", "sgf", "--force", "-v")
    err = r.stderr
    for name in ("2023/spring/m0.mat", "2023/autumn/m1.mat", "2024/m0.mat", "2024/m2.mat", "m3.mat"):
        assert f"{games / name}: written to {games / name[:-4]}.sgf" in err, err
    assert f"{games / 'notes.txt'}: skipped: not a game record" in err
    assert f"{games / 'm3.sgf'}: skipped: already sgf" in err
    # broken and empty records found in a folder fail, named, with validate's reasons (not skipped)
    assert re.search(rf"^nardy-analyze: {re.escape(str(games / '2024' / 'broken.mat'))}:1:1: expected", err, re.M)
    assert re.search(rf"^nardy-analyze: {re.escape(str(games / 'empty.mat'))}:1:1: expected a game", err, re.M)
    assert err.splitlines()[-1] == ("5 written, 0 refused, 2 failed, 2 skipped (1 already sgf, "
                                    "1 not a game record) (to sgf)")
    v = cli.subprocess("validate", str(games))
    assert "broken.mat:1:1: parse-error" in v.stdout and "empty.mat:1:1: parse-error" in v.stdout


def test_out_dir_mirrors_the_sub_folders(tmp_path, cli):
    games = _archive(tmp_path)
    out = tmp_path / "out"
    r = cli.subprocess("convert", str(games), "--to", "json", "--out-dir", str(out), "-j", "2")
    assert r.returncode == 1, r.stderr                 # the broken and the empty .mat
    assert sorted(_tree(out)) == ["2023/autumn/m1.json", "2023/spring/m0.json", "2024/m0.json", "2024/m2.json",
                                  "m3.json"]
    assert json.loads((out / "2023" / "autumn" / "m1.json").read_text())["games"][0]["players"][0] == "Alice1"
    # a file named on the command line goes to DIR itself
    r = cli.subprocess("convert", str(games / "2024" / "m2.mat"), "--to", "ngn", "--out-dir", str(out))
    assert r.returncode == 0 and (out / "m2.ngn").exists()


def test_out_dir_inside_the_folder_is_not_read_again(tmp_path, cli):
    games = _archive(tmp_path)
    out = games / "converted"
    for _ in range(2):
        r = cli.subprocess("convert", str(games), "--to", "sgf", "--out-dir", str(out), "--force")
        assert r.returncode == 1 and "5 written, 0 refused, 2 failed" in r.stderr, r.stderr
    assert len(_tree(out)) == 5 and not (out / "converted").exists()
    # the .sgf files there are inputs of a conversion to another --out-dir; with --out-dir the target
    # notation's own files are converted (normalised) too
    r = cli.subprocess("convert", str(games), "--to", "mat", "--out-dir", str(tmp_path / "norm"))
    assert r.stderr.splitlines()[-1] == "10 written, 0 refused, 2 failed, 1 skipped (1 not a game record; " \
        "--verbose lists them) (to mat)", r.stderr
    assert (tmp_path / "norm" / "2024" / "m0.mat").exists() and (tmp_path / "norm" / "converted" / "m3.mat").exists()


def test_clashing_names_are_listed_briefly(tmp_path, cli):
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        d.mkdir()
        for i in range(10):
            (d / f"m{i}.mat").write_text(BANNER, encoding="utf-8")
    r = cli.subprocess("convert", str(a), *[str(p) for p in sorted(b.iterdir())], "--to", "sgf", "--out-dir",
            str(tmp_path / "out"))
    assert r.returncode == 2 and "and 7 more (nothing was written)" in r.stderr, r.stderr
    assert len(r.stderr) < 1000 and not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def _txt_archive(root: Path) -> Path:
    """Sub-folders of ``.txt`` files, judged by their start as they are read: one of records and a log, one of
    logs only, one of a record beside a ``.mat`` of the same name."""
    games = root / "txt"
    for sub in ("club", "logs", "pair"):
        (games / sub).mkdir(parents=True)
    for i in range(3):
        (games / "club" / f"m{i}.txt").write_text(BANNER.replace("Alice", f"Alice{i}"), encoding="utf-8")
    (games / "club" / "server.txt").write_text("12:00 INFO started\n" * 10, encoding="utf-8")
    (games / "logs" / "a.txt").write_text("12:00 INFO started\n", encoding="utf-8")
    (games / "logs" / "b.txt").write_text("", encoding="utf-8")
    (games / "pair" / "x.mat").write_text(BANNER, encoding="utf-8")
    (games / "pair" / "x.txt").write_text("shopping list\n", encoding="utf-8")
    return games


@pytest.mark.parametrize("jobs", [1, 2])
def test_txt_files_are_judged_where_they_are_read(tmp_path, jobs):
    """A ``.txt`` found in a folder is judged by its start where it is read (a worker process with ``-j 2``):
    a record is converted, any other file skipped with discovery's reason; ``--out-dir``'s sub-folders are
    made for the files written only (none for a folder of logs), and a ``.txt`` that is no record clashes
    with nothing.  The outcomes are those of a run that judged every file first."""
    from nardy_analyze import convert as conv, inputs
    from nardy_analyze.inputs import Skip, skip_kind
    games = _txt_archive(tmp_path)
    out = tmp_path / "out"
    run = conv.convert_paths([str(games)], "sgf", out_dir=str(out), jobs=jobs)
    by = {Path(o.source).relative_to(games).as_posix(): o for o in run.outcomes}
    assert {k: o.status for k, o in by.items()} == {
        "club/m0.txt": "written", "club/m1.txt": "written", "club/m2.txt": "written", "club/server.txt": "skipped",
        "logs/a.txt": "skipped", "logs/b.txt": "skipped", "pair/x.mat": "written", "pair/x.txt": "skipped"}
    assert by["logs/b.txt"].messages == ["not a game record: empty"]
    assert skip_kind(by["club/server.txt"].messages[0]) is Skip.RECORD     # (its kind crossed the processes)
    assert sorted(_tree(out)) == ["club/m0.sgf", "club/m1.sgf", "club/m2.sgf", "pair/x.sgf"]
    assert not (out / "logs").exists()
    # the same outcomes as a run that judges every file in this process before the work
    real = inputs.found_in
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(conv, "found_in", lambda paths, judge_later=False: real(paths, False))
        before = conv.convert_paths([str(games)], "sgf", out_dir=str(tmp_path / "out2"), jobs=jobs)
    assert [(o.source, o.status, o.messages, o.target and Path(o.target).relative_to(tmp_path / "out2"))
            for o in before.outcomes] == \
        [(o.source, o.status, o.messages, o.target and Path(o.target).relative_to(out)) for o in run.outcomes]
    # without --force an existing output fails, except for a file that is no record (skipped, as always)
    (games / "pair" / "x.sgf").write_text("old", encoding="utf-8")
    (games / "logs" / "a.sgf").write_text("old", encoding="utf-8")
    again = conv.convert_paths([str(games / "pair"), str(games / "logs")], "sgf", jobs=jobs)
    assert [(Path(o.source).name, o.status) for o in again.outcomes] == \
        [("x.mat", "failed"), ("x.sgf", "skipped"), ("x.txt", "skipped"), ("a.sgf", "skipped"), ("a.txt", "skipped"),
         ("b.txt", "skipped")]
    assert [o.messages[0] for o in again.outcomes if o.source.endswith(".txt")] == \
        ["not a game record: its start matches no known notation"] * 2 + ["not a game record: empty"]


def test_a_folder_another_worker_makes_meanwhile_is_written_into(tmp_path, monkeypatch):
    """Two worker processes writing the first files of a sub-folder only files judged as they are read go to:
    the write of one fails for want of the folder, the other makes it just then.  The first writes again into
    it, whoever made it (it was reported as failed when the folder was there by the time it looked)."""
    from nardy_analyze import convert as conv
    from nardy_analyze.fsio import OutputError
    target = tmp_path / "out" / "club" / "m2.sgf"
    real, calls = conv.write_bytes_atomically, []

    def racing(path, data, **kw):
        calls.append(path)
        if len(calls) == 1:                       # the folder is missing, and the other worker makes it now
            target.parent.mkdir(parents=True)
            raise OutputError(f"cannot write {path}: no such folder")
        return real(path, data, **kw)

    monkeypatch.setattr(conv, "write_bytes_atomically", racing)
    outcome = conv._finish(conv.Outcome(str(tmp_path / "m2.txt"), str(target), conv.WRITTEN, []), "(;)\n",
                           str(target), True, make_folder=True)
    assert outcome.status == conv.WRITTEN and target.read_text() == "(;)\n" and len(calls) == 2


def test_a_txt_record_beside_a_mat_of_its_name_clashes(tmp_path):
    """Two inputs for one output are an error before anything is written, a ``.txt`` judged by its start
    there and then: a record clashes, a file that is no record does not."""
    from nardy_analyze import convert as conv
    games = _txt_archive(tmp_path)
    (games / "pair" / "x.txt").write_text(BANNER, encoding="utf-8")
    with pytest.raises(conv.ConvertError, match="would both be written to"):
        conv.convert_paths([str(games / "pair")], "sgf", jobs=2)
    assert not (games / "pair" / "x.sgf").exists()
    (games / "pair" / "x.txt").write_text("shopping list\n", encoding="utf-8")
    run = conv.convert_paths([str(games / "pair")], "sgf", jobs=2)
    assert [o.status for o in run.outcomes] == ["written", "skipped"]


def test_a_large_txt_is_skipped_or_unreadable_by_its_start(tmp_path):
    """Over the size limit, a ``.txt`` that is no record is skipped as at any size (judged by its first
    64 KiB, the rest never read), and a record is unreadable with the limit and the option that raises it."""
    from nardy_analyze.analyze import validate_paths
    (tmp_path / "log.txt").write_text("12:00 INFO started\n" * 20_000, encoding="utf-8")
    (tmp_path / "big.txt").write_text(BANNER + "\n" * 400_000, encoding="utf-8")
    run = validate_paths([str(tmp_path)], jobs=1, max_bytes=100_000)
    assert run.skipped == [(str(tmp_path / "log.txt"), "not a game record: its start matches no known notation")]
    assert len(run.unreadable) == 1 and run.unreadable[0][0] == str(tmp_path / "big.txt")
    assert "--max-file-size" in run.unreadable[0][1] and not run.reports


# ----------------------------------------------------------------------------- exit codes of outputs


def test_an_output_that_cannot_be_written_exits_2_as_validate_does(tmp_path, cli):
    src = tmp_path / "m.mat"
    src.write_text(BANNER, encoding="utf-8")
    for runner in (cli.subprocess, typer_run):
        r = runner("convert", str(src), "--to", "sgf", "-o", "/nonexistent/a.sgf")
        assert r.returncode == 2 and "cannot write /nonexistent/a.sgf: the folder /nonexistent does not exist" \
            in r.stderr, r.stderr
        v = runner("validate", str(src), "-o", "/nonexistent/report.txt")
        assert v.returncode == 2 and "the folder /nonexistent does not exist" in v.stderr
    # a folder that takes no new file: the message says so, not "No such file or directory" alone
    v = cli.subprocess("validate", str(src), "-o", "/proc/version")
    assert v.returncode == 2 and "no file can be made in the folder /proc" in v.stderr, v.stderr
    v = cli.subprocess("validate", str(src), "-o", str(src / "x"))
    assert v.returncode == 2 and f"{src} is not a folder" in v.stderr, v.stderr
    # an input that exists already is still exit 1 (refusal-like: --force overwrites it)
    (tmp_path / "m.sgf").write_text("mine\n")
    r = cli.subprocess("convert", str(src), "--to", "sgf")
    assert r.returncode == 1 and "use --force" in r.stderr


# ----------------------------------------------------------------------------- ratings

RATED = (ROOT / "tests" / "fixtures" / "gnubg-sgf" / "ratings.mat")
GNUBG_RATED = (ROOT / "tests" / "fixtures" / "gnubg-sgf" / "ratings.sgf")   # gnubg's own save of RATED


def test_ratings_are_split_out_of_the_names():
    m = notation.read_path(RATED)
    assert m.games[0].players == ("hockeyfan", "bob") and m.games[0].ratings == ("1796", "1650")
    sgf = write_text(m, "sgf")
    assert "PW[hockeyfan]PB[bob]WR[1796]BR[1650]" in sgf and "," not in sgf.split("PW[", 1)[1].split("]")[0]
    doc = json.loads(write_text(m, "json"))
    assert doc["games"][0]["players"] == ["hockeyfan", "bob"] and doc["games"][0]["ratings"] == ["1796", "1650"]
    ngn = write_text(m, "ngn")
    assert 'Game 1 players "hockeyfan" "bob" ratings "1796" "1650" score 0-0' in ngn
    assert " hockeyfan,1796 : 0" in write_text(m, "mat")
    for to in TARGETS:
        back = notation.read_text(write_text(m, to), f"x.{to}")
        assert [(g.players, g.ratings) for g in back.games] == [(g.players, g.ratings) for g in m.games], to


@pytest.mark.slow
def test_gnubgs_sgf_ratings_are_read():
    ref = notation.read_path(RATED)
    m = notation.read_path(GNUBG_RATED)
    assert "WR" not in m.ignored and "BR" not in m.ignored
    assert [(g.players, g.ratings) for g in m.games] == [(g.players, g.ratings) for g in ref.games]
    # the SGF we wrote before (the rating inside PW) reads the same
    old = notation.read_text("(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[hockeyfan,1796]PB[bob]\n;W[31hefe])",
                             "old.sgf")
    assert old.games[0].players == ("hockeyfan", "bob") and old.games[0].ratings == ("1796", None)


@pytest.mark.parametrize("name,split", [("hockeyfan,1796", ("hockeyfan", "1796")),
                                        ("Ann Lee , 1650.25", ("Ann Lee", "1650.25")),
                                        ("Bob", ("Bob", None)), (",1500", (",1500", None)),
                                        ("Smith, John", ("Smith, John", None)), ("a,b,12", ("a,b", "12"))])
def test_which_names_hold_a_rating(name, split):
    from nardy_analyze.record import split_rating
    assert split_rating(name) == split


def test_json_ratings_are_checked():
    m = notation.read_path(RATED)
    doc = json.loads(write_text(m, "json"))
    doc["games"][0]["ratings"] = [1796, None]
    bad = notation.read_text(json.dumps(doc), "bad.json")
    assert any('"ratings"' in p.message for p in bad.problems + [p for g in bad.games for p in g.problems])


@pytest.mark.slow
@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (gnubg) is not installed")
def test_gnubg_reads_our_ratings(tmp_path, cli):
    """gnubg loads the SGF we write from a rated .mat and saves it with the same names and ratings."""
    ours = tmp_path / "ours.sgf"
    r = cli.subprocess("convert", str(RATED), "--to", "sgf", "-o", str(ours))
    assert r.returncode == 0, r.stderr
    script = tmp_path / "cmds"
    script.write_text(f"load match {ours}\nsave match {tmp_path / 'again.sgf'}\n")
    with open(script) as fh:
        subprocess.run([GNUBG, "-t", "-q"], stdin=fh, capture_output=True, timeout=120)
    text = (tmp_path / "again.sgf").read_text()
    assert "PW[hockeyfan]" in text and "PB[bob]" in text and "WR[1796]" in text and "BR[1650]" in text
    again = notation.read_path(tmp_path / "again.sgf")
    assert again.games[0].ratings == ("1796", "1650")


def test_a_jellyfish_txt_converts_to_mat_and_the_mat_is_not_read_again(tmp_path, cli):
    games = tmp_path / "games"
    games.mkdir()
    (games / "m.txt").write_text(BANNER, encoding="utf-8")
    (games / "n.mat").write_text(BANNER, encoding="utf-8")
    r = cli.subprocess("convert", str(games), "--to", "mat", "-v")
    assert r.returncode == 0 and f"{games / 'm.txt'}: written to {games / 'm.mat'}" in r.stderr, r.stderr
    assert f"{games / 'n.mat'}: skipped: already mat" in r.stderr
    r = cli.subprocess("convert", str(games), "--to", "mat", "--force")
    assert r.returncode == 0 and r.stderr.splitlines()[-1] == \
        "1 written, 0 refused, 0 failed, 2 skipped (2 already mat; --verbose lists them) (to mat)", r.stderr
    written, original = notation.read_path(games / "m.mat"), notation.read_path(games / "n.mat")
    assert first_difference(expected(original), actual(written)) == "no difference"


def test_nothing_to_convert_is_said(tmp_path, cli):
    (tmp_path / "only").mkdir()
    (tmp_path / "only" / "x.sgf").write_text(write_text(mat.read(BANNER, "x.mat"), "sgf"), encoding="utf-8")
    (tmp_path / "empty").mkdir()
    for folder, last in (("only", "0 written, 0 refused, 0 failed, 1 skipped (1 already sgf; --verbose lists them) "
                                  "(to sgf)"), ("empty", "0 written, 0 refused, 0 failed (to sgf)")):
        r = cli.subprocess("convert", str(tmp_path / folder), "--to", "sgf")
        assert r.returncode == 2 and f"no record to convert in {tmp_path / folder}" in r.stderr, r.stderr
        assert r.stderr.splitlines()[-1] == last
