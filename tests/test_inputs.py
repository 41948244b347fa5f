"""Every input accounted for (issue 6): each file of a folder is a record, a finding, skipped or
unreadable, in the text, JSON and SARIF reports, and the counts add up to the files in the folder.

The folders are built by the tests.  Unreadable entries are real where the system allows it (a
dangling link, a link loop, a FIFO, a folder that vanishes during the walk); "permission denied" is
simulated by refusing ``open`` in-process, because the tests run as root, who may read any file.
"""
from __future__ import annotations

import builtins
import json
import multiprocessing
import os
import shutil
import threading
from pathlib import Path

import pytest
from helpers import ROOT

from nardy_analyze import inputs
from nardy_analyze import __version__, analyze, runner
from nardy_analyze.inputs import RECORD, SKIPPED, UNREADABLE, discover, load
from nardy_analyze.analyze import map_records, validate_paths
from nardy_analyze.notation import mat, record_suffixes
from nardy_analyze.report import to_sarif

GOOD = (ROOT / "tests" / "fixtures" / "selfplay" / "selfplay_0101_1pt.mat").read_bytes()
SECRET = "secret.mat"


def build_hostile_folder(root: Path) -> dict[str, str]:
    """The folder of the issue; returns {name: how it must be accounted for}."""
    want = {}

    def put(name: str, data: bytes, how: str) -> None:
        (root / name).write_bytes(data)
        want[name] = how

    put("empty.mat", b"", "record")
    put("binary.mat", bytes(range(256)) * 16, "record")
    put("nul.mat", GOOD[:200] + b"\0" * 64 + GOOD[200:], "record")
    put("utf16.mat", GOOD.decode().encode("utf-16"), "record")
    damaged = bytearray(GOOD)
    damaged[0:12] = b"\xff\xfe\x00\x9a junk\x01\x02"     # the header's first bytes damaged
    put("damaged.mat", bytes(damaged), "record")
    put("good.mat", GOOD, "record")
    put("record.txt", GOOD, "record")                     # a .txt that is a record
    put("README.txt", b"Records of the club's autumn cup.\nAsk Bob for the rest.\n", "skipped")
    put(SECRET, GOOD, "unreadable")                        # refused by the simulated system
    os.symlink("nowhere.mat", root / "dangling.mat")
    want["dangling.mat"] = "unreadable"
    os.symlink("loop2.mat", root / "loop1.mat")           # a loop of file links
    os.symlink("loop1.mat", root / "loop2.mat")
    want["loop1.mat"] = want["loop2.mat"] = "unreadable"
    os.symlink("..", root / "up")                          # a link back up: a folder loop
    want["up"] = "skipped"
    os.mkfifo(root / "pipe.mat")                           # opening it would block: never opened
    want["pipe.mat"] = "unreadable"
    # not record names: not part of the inventory
    (root / "notes.md").write_text("# notes\n")
    (root / "expected.tsv").write_text("file\tline\n")
    return want


@pytest.fixture
def refuse_secret(monkeypatch):
    """The system refuses to open any file named secret.mat (permission denied), by ``open`` or ``os.open`` (the
    sniffing of a file's start and the reading of a record)."""
    def refusing(real):
        def refusing_open(path, *a, **k):
            if os.path.basename(str(path)) == SECRET:
                raise PermissionError(13, "Permission denied", str(path))
            return real(path, *a, **k)
        return refusing_open

    monkeypatch.setattr(builtins, "open", refusing(builtins.open))
    monkeypatch.setattr(os, "open", refusing(os.open))


def inventory_names(root: Path) -> set[str]:
    """Everything in the folder whose name has a record suffix, and every link to a folder."""
    names = set()
    for n in os.listdir(root):
        p = root / n
        if os.path.splitext(n)[1].lower() in record_suffixes() or p.is_symlink() and p.is_dir():
            names.add(n)
    return names


def test_every_file_accounted_for_in_json(tmp_path, refuse_secret, cli):
    want = build_hostile_folder(tmp_path)
    assert inventory_names(tmp_path) == set(want)
    code, out, err = cli("validate", "--format", "json", tmp_path)
    rep = json.loads(out)
    got = {}
    for f in rep["files"]:
        got[os.path.basename(f["path"])] = "record"
    for s in rep["skipped"]:
        got[os.path.basename(s["path"])] = "skipped"
        assert s["reason"]
    for u in rep["unreadable"]:
        got[os.path.basename(u["path"])] = "unreadable"
        assert u["reason"] and u["message"].startswith(u["path"])
    assert got == want
    s = rep["summary"]
    assert s["files"] + s["skipped"] + s["unreadable"] == len(want)
    assert (s["files"], s["skipped"], s["unreadable"]) == (7, 2, 5)
    # the five files the issue found missing are each reported with a finding
    for name in ("empty.mat", "binary.mat", "nul.mat"):
        assert any(f["path"].endswith(name) and f["rule"] == "parse-error" for f in rep["findings"]), name
    # the damaged header line is text before the "N point match" line: the free-text notice
    assert any(f["path"].endswith("damaged.mat") and f["rule"] == "free-text" for f in rep["findings"])
    files = {os.path.basename(f["path"]): f for f in rep["files"]}
    assert files["utf16.mat"]["games"] == 1 and files["utf16.mat"]["errors"] == 0
    reasons = {os.path.basename(u["path"]): u["reason"] for u in rep["unreadable"]}
    assert reasons["dangling.mat"].startswith("broken symbolic link")
    assert reasons["loop1.mat"] == "symbolic link loop"
    assert reasons["pipe.mat"].startswith("a FIFO")
    assert reasons[SECRET] == "cannot read: Permission denied"
    assert code == 2                                    # something could not be read
    assert "Traceback" not in out + err
    for name in ("dangling.mat", "loop1.mat", "pipe.mat", SECRET):
        assert name in err                              # and it is said on standard error too


def test_every_file_accounted_for_in_text(tmp_path, refuse_secret, cli):
    want = build_hostile_folder(tmp_path)
    code, out, _ = cli("validate", tmp_path)
    assert code == 2
    lines = out.splitlines()
    assert "\n7 file(s), " in out
    assert "2 file(s) skipped: not game records, links to folders (--verbose lists them)" in lines
    assert "5 path(s) could not be read" in lines
    for name, how in want.items():
        if how == "unreadable":
            assert any(ln.startswith(f"{tmp_path / name}: unreadable: ") for ln in lines), name
    code, out, _ = cli("validate", "--verbose", tmp_path)
    lines = out.splitlines()
    for name, how in want.items():     # each file once, as what it is
        said = [ln for ln in lines if ln.startswith(f"{tmp_path / name}: ")]
        assert len(said) == 1 and said[0].startswith(f"{tmp_path / name}: {how}"), (name, said)
    assert "2 file(s) skipped: not game records, links to folders" in lines


def test_sarif_notes_skipped_and_unreadable(tmp_path, refuse_secret):
    want = build_hostile_folder(tmp_path)
    run = validate_paths([str(tmp_path)])
    inv = to_sarif(run)["runs"][0]["invocations"][0]
    assert inv["executionSuccessful"] is False
    notes = {os.path.basename(n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]): n["level"]
             for n in inv["toolExecutionNotifications"]}
    assert notes == {n: ("note" if h == "skipped" else "error") for n, h in want.items() if h != "record"}


def test_skips_do_not_change_the_exit_code(tmp_path, cli):
    (tmp_path / "good.mat").write_bytes(GOOD)
    (tmp_path / "README.txt").write_text("not a record\n")
    (tmp_path / "VERDICTS.tsv").write_text("path\tgame\n")
    (tmp_path / "GNUBG_CRASHES.list").write_text("x.mat\n")
    code, out, _ = cli("validate", tmp_path)
    assert code == 0
    assert out.splitlines()[-1] == "1 file(s) skipped: not game records (--verbose lists them)"
    (tmp_path / "bad.mat").write_bytes(GOOD.replace(b"Game 1", b"Gxme 1"))
    code, out, _ = cli("validate", "--format", "json", tmp_path)
    assert code == 1 and json.loads(out)["summary"]["skipped"] == 1


def test_only_skipped_files_is_no_record_found(tmp_path, cli):
    (tmp_path / "README.txt").write_text("not a record\n")
    code, out, err = cli("validate", tmp_path)
    assert code == 2
    assert "no game records found" in err and "1 file(s) skipped" in err


def test_a_record_suffix_is_always_read_and_txt_is_sniffed(tmp_path):
    (tmp_path / "notes.mat").write_text("Shopping list: milk, bread\n")
    (tmp_path / "notes.txt").write_text("Shopping list: milk, bread\n")
    (tmp_path / "blank.txt").write_text("\n\n")
    (tmp_path / "utf16.txt").write_bytes(GOOD.decode().encode("utf-16-le"))     # no BOM
    entries = {os.path.basename(e.path): e for e in discover([str(tmp_path)])}
    assert entries["notes.mat"].status == RECORD and entries["notes.mat"].notation == "mat"
    assert entries["notes.txt"].status == SKIPPED and entries["notes.txt"].reason.startswith("not a game record")
    assert entries["blank.txt"].status == SKIPPED
    assert entries["utf16.txt"].status == RECORD and entries["utf16.txt"].notation == "mat"
    assert len(load(entries["utf16.txt"]).games) == 1
    # named on the command line, a .txt is read whatever it holds
    run = validate_paths([str(tmp_path / "notes.txt")])
    assert len(run.reports) == 1 and run.reports[0].findings[0].rule == "parse-error"


def test_a_txt_log_is_judged_by_its_start_never_parsed(tmp_path, monkeypatch):
    log = tmp_path / "server.txt"
    log.write_text("".join(f"2026-11-30 12:00:{i % 60:02d} INFO request {i} took {i % 97} ms\n"
                           for i in range(100_000)))
    (tmp_path / "game.mat").write_bytes(GOOD)
    read = []
    real = inputs.read_text
    monkeypatch.setattr(inputs, "read_text", lambda text, path, n=None: read.append(path) or real(text, path, n))
    opened = []                    # the sizes asked of the log's file (read with the system's calls)
    fds = set()
    real_open, real_read = os.open, os.read

    def watching_open(path, flags, *a, **k):
        fd = real_open(path, flags, *a, **k)
        if str(path) == str(log):
            fds.add(fd)
        else:                          # (a number the log's file had, given again)
            fds.discard(fd)
        return fd

    def watching_read(fd, n):
        if fd in fds:
            opened.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(os, "open", watching_open)
    monkeypatch.setattr(os, "read", watching_read)
    run = validate_paths([str(tmp_path)])
    assert [os.path.basename(p) for p in read] == ["game.mat"]
    assert run.skipped == [(str(log), "not a game record: its start matches no known notation")]
    assert opened == [inputs.SNIFF_BYTES]          # only its first 64 KiB were read


def test_a_small_record_is_read_with_one_system_call_each_time(tmp_path, monkeypatch):
    """A regular file's read that gives less than asked is its end: a ``.txt`` record found in a folder is
    opened once and read with one ``read`` (none to find the end), which both judges its start and reads it
    whole; named on the command line (read as a record whatever it holds), the same."""
    txt = tmp_path / "match.txt"
    txt.write_bytes(GOOD)
    reads: list[int] = []
    opens: list[str] = []
    fds = set()
    real_open, real_read = os.open, os.read

    def watching_open(path, flags, *a, **k):
        fd = real_open(path, flags, *a, **k)
        if str(path) == str(txt):
            opens.append(str(path))
        (fds.add if str(path) == str(txt) else fds.discard)(fd)
        return fd

    def watching_read(fd, n):
        data = real_read(fd, n)
        if fd in fds:
            reads.append(len(data))
        return data

    monkeypatch.setattr(os, "open", watching_open)
    monkeypatch.setattr(os, "read", watching_read)
    run = validate_paths([str(tmp_path)], jobs=1)
    assert [r.path for r in run.reports] == [str(txt)]
    assert run.reports[0].games                    # read whole: its games are there
    assert reads == [len(GOOD)] and len(opens) == 1  # one open, one read: judged and read at once
    reads.clear()
    opens.clear()
    run = validate_paths([str(txt)], jobs=1)
    assert run.reports[0].games and run.reports[0].findings == []
    assert reads == [len(GOOD)] and len(opens) == 1


def test_hidden_files_and_folders(tmp_path):
    (tmp_path / ".draft.mat").write_bytes(GOOD)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.mat").write_bytes(GOOD)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.mat").write_bytes(GOOD)
    run = validate_paths([str(tmp_path)])
    assert [r.path for r in run.reports] == [str(tmp_path / "sub" / "a.mat")]
    assert run.skipped == [(str(tmp_path / ".draft.mat"), "hidden file")]


def test_folder_vanishing_mid_walk(tmp_path):
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / f"{sub}.mat").write_bytes(GOOD)
    walk = discover([str(tmp_path)])
    first = next(walk)
    assert first.path == str(tmp_path / "a" / "a.mat")
    shutil.rmtree(tmp_path / "b")                   # removed after the walk listed it, before it got there
    rest = list(walk)
    assert [(e.path, e.status) for e in rest] == [(str(tmp_path / "b"), UNREADABLE)]
    assert "vanished" in rest[0].reason


def test_file_vanishing_before_it_is_read(tmp_path):
    (tmp_path / "a.mat").write_bytes(GOOD)
    (tmp_path / "b.mat").write_bytes(GOOD)
    entries = list(discover([str(tmp_path)]))
    os.unlink(tmp_path / "b.mat")
    results = list(map_records(entries, lambda e, m: len(m.games)))
    assert [(os.path.basename(e.path), k) for e, k, _ in results] == [("a.mat", "ok"), ("b.mat", "unreadable")]
    assert results[1][2] == f"{tmp_path / 'b.mat'}: no such file or folder"


def test_missing_path_and_explicit_fifo(tmp_path):
    """A FIFO named by the caller is read (``validate <(zcat x.mat.gz)``); one found in a folder is not."""
    fifo = tmp_path / "stream.mat"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "wb") as fh:
            fh.write(GOOD)

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    run = validate_paths([str(fifo), str(tmp_path / "missing.mat")])
    t.join(10)
    assert [len(r.games) for r in run.reports] == [1]
    assert run.unreadable == [(str(tmp_path / "missing.mat"), f"{tmp_path / 'missing.mat'}: no such file or folder")]


# ----------------------------------------------------------------------------- the per-file error boundary

def _boom(match, variant="backgammon", options=None):
    if match.path.endswith("boom.mat"):
        raise RuntimeError("injected failure in a variant's engine")
    return REAL_VALIDATE(match, variant, options)


def _die(match, variant="backgammon", options=None):
    if match.path.endswith("boom.mat"):
        os._exit(3)                                  # the worker process dies (as if killed)
    return REAL_VALIDATE(match, variant, options)


REAL_VALIDATE = analyze.validate_match


def _folder_with_boom(root: Path, n: int = 6) -> None:
    for i in range(n):
        (root / f"f{i}.mat").write_bytes(GOOD)
    (root / "boom.mat").write_bytes(GOOD)


@pytest.mark.parametrize("jobs", [1, 2])
def test_internal_error_is_a_finding_and_the_run_goes_on(tmp_path, monkeypatch, jobs):
    if jobs > 1 and multiprocessing.get_start_method() != "fork":
        pytest.skip("the injected failure reaches the workers by fork only")
    _folder_with_boom(tmp_path)
    monkeypatch.setattr(analyze, "validate_match", _boom)
    run = validate_paths([str(tmp_path)], jobs=jobs)
    assert len(run.reports) == 7
    bad = [r for r in run.reports if r.path.endswith("boom.mat")][0]
    assert [(f.rule, f.path, f.line, f.column) for f in bad.findings] == [
        ("internal-error", str(tmp_path / "boom.mat"), 1, 1)]
    msg = bad.findings[0].message
    assert f"nardy-analyze {__version__}" in msg and "RuntimeError: injected failure" in msg
    assert all(len(r.games) == 1 and not r.findings for r in run.reports if r is not bad)
    assert run.summary()["internal_errors"] == 1 and not run.complete


def test_internal_error_through_the_command(tmp_path, monkeypatch, cli):
    _folder_with_boom(tmp_path, 2)
    monkeypatch.setattr(analyze, "validate_match", _boom)
    code, out, err = cli("validate", "--format", "json", "--select", "max-dice", tmp_path)
    assert code == 2                                 # not everything could be checked
    rep = json.loads(out)
    assert [f["rule"] for f in rep["findings"]] == ["internal-error"]   # never filtered out by --select
    assert rep["summary"]["internal_errors"] == 1 and rep["summary"]["files"] == 3
    assert "boom.mat" in err and __version__ in err
    code, out, err = cli("validate", tmp_path)
    assert code == 2 and "1 file(s) not fully checked: internal error" in out
    sarif = to_sarif(validate_paths([str(tmp_path)]))["runs"][0]
    assert not sarif["results"]
    note = sarif["invocations"][0]["toolExecutionNotifications"][0]
    assert note["level"] == "error" and note["message"]["text"].startswith("internal-error: ")


@pytest.mark.parametrize("forked", [True, False], ids=["forked-by-runner", "concurrent-futures"])
def test_a_dying_worker_costs_only_its_file(tmp_path, monkeypatch, forked):
    """Both pools of worker processes (the runner's own forked workers, concurrent.futures' on platforms that
    do not fork): the file that kills its worker is that file's internal error, every other file is read."""
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the injected failure reaches the workers by fork only")
    _folder_with_boom(tmp_path, 10)
    monkeypatch.setattr(analyze, "validate_match", _die)
    monkeypatch.setattr(runner, "FORK", forked)
    run = validate_paths([str(tmp_path)], jobs=2)
    assert len(run.reports) == 11
    bad = [r for r in run.reports if r.path.endswith("boom.mat")][0]
    assert [f.rule for f in bad.findings] == ["internal-error"]
    assert "worker process stopped" in bad.findings[0].message
    if forked:      # how it ended, as the runner saw it
        assert "(exit code 3)" in bad.findings[0].message
    assert sum(len(r.games) for r in run.reports) == 10


# ----------------------------------------------------------------------------- output, reader bounds

def test_output_to_a_folder_is_a_clear_error(tmp_path, cli):
    (tmp_path / "good.mat").write_bytes(GOOD)
    out_dir = tmp_path / "reports"
    out_dir.mkdir()
    code, out, err = cli("validate", "-o", out_dir, tmp_path / "good.mat")
    assert code == 2
    assert "it is a folder" in err and "Traceback" not in err
    assert list(out_dir.iterdir()) == []


def test_line_by_line_fallback_stops_after_max_problems(monkeypatch):
    calls = []
    real, unexpected = mat.grammar()

    class Counting:
        def parse(self, text, start):
            calls.append(start)
            return real.parse(text, start=start)

    monkeypatch.setattr(mat, "grammar", lambda: (Counting(), unexpected))
    junk = "".join(f"  {i}) ?? junk {i}\n" for i in range(20_000))
    m = mat.read(" 1 point match\n\n Game 1\n A : 0   B : 0\n" + junk, "x.mat")
    assert len(m.games[0].problems) == mat.MAX_PROBLEMS + 1
    assert len(calls) < 3 * mat.MAX_PROBLEMS
    calls.clear()
    m = mat.read("junk line\n" * 20_000 + " Game 1\n", "y.mat")
    assert len(m.problems) == mat.MAX_PROBLEMS + 1
    assert len(calls) < 3 * mat.MAX_PROBLEMS


def test_unlistable_subfolder(tmp_path, monkeypatch):
    """A sub-folder the system refuses to list (simulated: root may list anything)."""
    (tmp_path / "a.mat").write_bytes(GOOD)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "b.mat").write_bytes(GOOD)
    real = os.scandir

    def scandir(path):
        if os.path.basename(str(path)) == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(inputs.os, "scandir", scandir)
    run = validate_paths([str(tmp_path)])
    assert [r.path for r in run.reports] == [str(tmp_path / "a.mat")]
    assert run.unreadable == [(str(tmp_path / "locked"), f"{tmp_path / 'locked'}: cannot read: Permission denied")]


def test_nothing_from_the_input_is_evaluated():
    """Hostile input stays harmless: the package has no eval/exec/pickle/marshal/yaml loading of anything it reads.
    The one pickle is the runner's pipes between the command and the worker processes it forked (the entries
    it found, the results its own workers made): never a file's bytes."""
    import re

    pattern = re.compile(r"\b(eval|exec)\(|\bpickle\b|\bmarshal\b|\bshelve\b|yaml\.(unsafe_)?load\b|__import__\(")
    allowed = {("notation/__init__.py", "__import__("),   # imports the registry's own modules by name
               ("runner.py", "pickle")}                   # the worker processes' pipes (runner._Forked)
    for path in sorted((ROOT / "nardy_analyze").rglob("*.py")):
        rel = path.relative_to(ROOT / "nardy_analyze").as_posix()
        for m in pattern.finditer(path.read_text()):
            assert (rel, m.group(0)) in allowed, f"{rel}: {m.group(0)}"


def _every_skip(tmp_path):
    """A folder with one input of each kind of skip: not a record, hidden, a link to a folder, an archive."""
    (tmp_path / "notes.txt").write_text("just some notes\n")
    (tmp_path / ".draft.mat").write_bytes(GOOD)
    (tmp_path / "games.zip").write_bytes(b"PK\x03\x04")
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.mat").write_bytes(GOOD)
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    return {"notes.txt": inputs.Skip.RECORD, ".draft.mat": inputs.Skip.HIDDEN, "games.zip": inputs.Skip.ARCHIVE,
            "link": inputs.Skip.LINK}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_skip_carries_its_kind_in_any_language(tmp_path, lang):
    """The kind of a skipped input is decided where it is skipped and travels with its reason (through a
    worker process too), never read back from the text: the same kinds in English and in Russian."""
    import pickle

    from nardy_analyze.i18n import set_language
    from nardy_analyze.result import RunCounts

    want = _every_skip(tmp_path)
    set_language(lang)
    try:
        skipped = {os.path.basename(e.path): e.reason for e in discover([str(tmp_path)]) if e.status == SKIPPED}
        assert {k: inputs.skip_kind(r) for k, r in skipped.items()} == want
        for r in skipped.values():
            back = pickle.loads(pickle.dumps(r))
            assert back == r and inputs.skip_kind(back) is inputs.skip_kind(r)
        counts = RunCounts()
        for r in skipped.values():
            counts.add_skipped(r)
        assert set(counts.skip_counts) == set(want.values())
        assert inputs.skip_kind(str(skipped["notes.txt"])) is None      # plain text has no kind
    finally:
        set_language("en")
