"""Archives and compressed files: never read as records, never passed over in silence.  Found in a folder,
each is skipped and said to be an archive, with what to do; named on the command line, it cannot be read
as a record (exit 2) and the message says so, in every command that reads records."""
from __future__ import annotations

import gzip
import io
import json
import tarfile
import zipfile

import pytest

from helpers import EXAMPLES
from nardy_analyze.inputs import RECORD, SKIPPED, UNREADABLE, Skip, archive_reason, discover, skip_kind

RECORD_TEXT = (EXAMPLES / "club-night.mat").read_bytes()


def archive_folder(root):
    """One record and the same record in a zip, a tar.gz and a .mat.gz, as a download leaves them."""
    (root / "club-night.mat").write_bytes(RECORD_TEXT)
    with zipfile.ZipFile(root / "games.zip", "w") as z:
        z.writestr("club-night.mat", RECORD_TEXT)
    with tarfile.open(root / "games.tar.gz", "w:gz") as t:
        info = tarfile.TarInfo("club-night.mat")
        info.size = len(RECORD_TEXT)
        t.addfile(info, io.BytesIO(RECORD_TEXT))
    (root / "night.mat.gz").write_bytes(gzip.compress(RECORD_TEXT))
    return root


def test_a_folders_archives_are_skipped_as_archives(tmp_path):
    archive_folder(tmp_path)
    got = {e.path.rsplit("/", 1)[1]: (e.status, e.reason) for e in discover([str(tmp_path)])}
    assert got["club-night.mat"][0] == RECORD
    for name in ("games.zip", "games.tar.gz", "night.mat.gz"):
        status, reason = got[name]
        assert status == SKIPPED and skip_kind(reason) is Skip.ARCHIVE, (name, reason)
    assert "(zip)" in got["games.zip"][1] and "(tar.gz)" in got["games.tar.gz"][1]
    assert "zcat night.mat.gz" in got["night.mat.gz"][1]        # what to do with a compressed record
    assert archive_reason("notes.txt") is None and archive_reason("x.mat") is None


def test_a_named_archive_cannot_be_read_and_says_why(tmp_path):
    archive_folder(tmp_path)
    [e] = discover([str(tmp_path / "games.zip")])
    assert e.status == UNREADABLE and e.reason.startswith(f"{tmp_path / 'games.zip'}: ")
    assert e.reason == f"{tmp_path / 'games.zip'}: {archive_reason('games.zip')}"


def test_validate_says_so_in_the_summary_and_with_verbose(tmp_path, english, cli):
    archive_folder(tmp_path)
    code, out, _ = cli("validate", tmp_path)
    assert code == 1                                   # club-night.mat breaks rules; the archives change nothing
    assert out.splitlines()[-1] == \
        "3 file(s) skipped: archives (unpack them to read the records inside) (--verbose lists them)"
    code, out, _ = cli("validate", "--verbose", tmp_path)
    said = [ln for ln in out.splitlines() if ": skipped: " in ln]
    assert len(said) == 3 and all("records inside" in ln for ln in said), said
    code, out, _ = cli("validate", "--format", "json", tmp_path)
    rep = json.loads(out)
    assert rep["summary"]["skipped"] == 3
    code, out, err = cli("validate", tmp_path / "games.zip")
    assert code == 2 and "parse-error" not in out
    assert f"{tmp_path / 'games.zip'}: an archive (zip)" in err


def test_only_archives_in_a_folder(tmp_path, english, cli):
    archive_folder(tmp_path)
    (tmp_path / "club-night.mat").unlink()
    code, _, err = cli("validate", tmp_path)
    assert code == 2
    assert "(3 file(s) skipped: archives (unpack them to read the records inside))" in err


def test_convert_counts_archives_apart(tmp_path, english, cli):
    archive_folder(tmp_path / "in") if (tmp_path / "in").mkdir() is None else None
    code, _, err = cli("convert", "--to", "sgf", "--out-dir", tmp_path / "out", tmp_path / "in")
    assert "3 archives (unpack them to convert the records inside)" in err.splitlines()[-1]


def test_stats_says_each_archive(tmp_path, english, cli):
    pytest.importorskip("pandas")
    archive_folder(tmp_path)
    code, out, err = cli("stats", tmp_path)
    assert code == 0
    lines = [ln for ln in err.splitlines() if ": skipped: " in ln]
    assert sorted(ln.split(": skipped: ")[0].rsplit("/", 1)[1] for ln in lines) == \
        ["games.tar.gz", "games.zip", "night.mat.gz"]
