"""Bad input never produces a traceback: a clear message with a location and the documented exit code."""
from __future__ import annotations

import json



GOOD = """ 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 62: 24/18 13/11             Doubles => 2
  3)  Drops
                                  Wins 1 point

 Game 2
 Alice : 0                      Bob : 1
  1) 43: 24/20 13/10             51: 13/8 6/5
"""


def findings(out: str):
    return json.loads(out)["findings"]


def test_good_record_exit_0(tmp_path, cli):
    f = tmp_path / "good.mat"
    f.write_text(GOOD)
    code, out, err = cli.subprocess("validate", str(f))
    assert code == 0, out + err
    assert "2 game(s)" in out and "no errors" in out


def test_empty_file(tmp_path, cli):
    f = tmp_path / "empty.mat"
    f.write_bytes(b"")
    code, out, _ = cli.subprocess("validate", str(f))
    assert code == 1
    assert f"{f}:1:1: parse-error:" in out


def test_binary_garbage(tmp_path, cli):
    f = tmp_path / "garbage.mat"
    f.write_bytes(bytes(range(256)) * 40)
    code, out, _ = cli.subprocess("validate", "--format", "json", str(f))
    assert code == 1
    fs = findings(out)
    assert fs and all(x["rule"] == "parse-error" for x in fs)
    assert all(x["line"] >= 1 and x["column"] >= 1 for x in fs)


def test_truncated_game_keeps_other_files(tmp_path, cli):
    bad = tmp_path / "a_truncated.mat"
    bad.write_text(GOOD + "  2) 6")   # the file stops inside a roll
    good = tmp_path / "b_good.mat"
    good.write_text(GOOD)
    code, out, _ = cli.subprocess("validate", "--format", "json", str(tmp_path))
    rep = json.loads(out)
    assert code == 1
    assert [f["games"] for f in rep["files"]] == [2, 2]
    bad_f = [f for f in rep["findings"] if f["path"].endswith("a_truncated.mat")]
    assert bad_f and bad_f[0]["rule"] == "parse-error" and bad_f[0]["line"] == 13 and bad_f[0]["game"] == 2
    assert not [f for f in rep["findings"] if f["path"].endswith("b_good.mat") and f["severity"] == "error"]


def test_missing_score_line(tmp_path, cli):
    text = GOOD.replace(" Alice : 0                      Bob : 1\n", "")
    f = tmp_path / "noscore.mat"
    f.write_text(text)
    code, out, _ = cli.subprocess("validate", str(f))
    assert code == 1
    assert f"{f}:11:" in out or f"{f}:12:" in out
    assert "parse-error" in out and "score line" in out


def test_one_megabyte_line(tmp_path, cli):
    f = tmp_path / "long.mat"
    f.write_text(GOOD.replace("  2) 62: 24/18 13/11", "  2) 62: 24/18 13/11" + " 13/11" * 200_000))
    code, out, _ = cli.subprocess("validate", "--format", "json", str(f))
    assert code == 1
    fs = findings(out)
    assert fs[0]["line"] == 6


def test_folder_with_no_records(tmp_path, cli):
    (tmp_path / "notes.md").write_text("# nothing here\n")
    code, out, err = cli.subprocess("validate", str(tmp_path))
    assert code == 2
    assert "no game records found" in err


def test_unreadable_path(tmp_path, cli):
    missing = tmp_path / "nope.mat"
    good = tmp_path / "good.mat"
    good.write_text(GOOD)
    code, out, err = cli.subprocess("validate", str(missing), str(good))
    assert code == 2
    assert "nope.mat: no such file or folder" in err
    assert "1 file(s), 2 game(s)" in out     # the readable file is still validated


def test_permission_denied(tmp_path, monkeypatch):
    """A file the OS refuses to open (simulated: CI runs as root, who may read anything; the records are
    opened with ``os.open``)."""
    import os

    from nardy_analyze import analyze

    f = tmp_path / "secret.mat"
    f.write_text(GOOD)
    real_open = os.open

    def refusing_open(path, *a, **k):
        if str(path) == str(f):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *a, **k)

    monkeypatch.setattr(os, "open", refusing_open)
    run_ = analyze.validate_paths([str(f)])
    assert run_.unreadable == [(str(f), f"{f}: cannot read: Permission denied")]
    assert run_.reports == []


def test_bad_arguments(cli):
    code, _, err = cli.subprocess("validate", "--variant", "chess", "x.mat")
    assert code == 2 and "unknown variant" in err
    code, _, err = cli.subprocess("validate", "--rule", "crawford", "x.mat")
    assert code == 2 and "KEY=VALUE" in err
    code, _, err = cli.subprocess("validate", "--rule", "nonsense=1", "x.mat")
    assert code == 2 and "unknown rule option" in err


def test_stdin(cli):
    code, out, _ = cli.subprocess("validate", "-", input=GOOD.encode())
    assert code == 0
    # the second game stops without a result: a warning, located in the text read from stdin
    assert "<stdin>:12:34: result-mismatch: warning: the game ends without a result" in out


def test_output_file_is_whole_or_absent(tmp_path, cli):
    f = tmp_path / "good.mat"
    f.write_text(GOOD)
    target = tmp_path / "report.json"
    code, _, _ = cli.subprocess("validate", "--format", "json", "-o", str(target), str(f))
    assert code == 0
    assert json.loads(target.read_text())["summary"]["games"] == 2
    code, _, err = cli.subprocess("validate", "-o", str(tmp_path / "no" / "such" / "dir.json"), str(f))
    assert code == 2 and "cannot write" in err
    assert not list((tmp_path).glob(".report.json.*"))
