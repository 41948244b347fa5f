"""Atomic writes: the content and the rename synced to disk, the mode of a plain open(), the umask never
changed (a thread that creates a file meanwhile must not see a mask of 0)."""
from __future__ import annotations

import os
import threading

import pytest

from nardy_analyze import fsio
from nardy_analyze.fsio import OutputError, current_umask, write_atomically


def test_the_file_and_its_folder_are_synced_before_and_after_the_rename(tmp_path, monkeypatch):
    out = tmp_path / "out.txt"
    calls: list[tuple[str, object]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        calls.append(("fsync", os.path.realpath(f"/proc/self/fd/{fd}") if os.path.exists("/proc/self/fd")
                      else fd))
        real_fsync(fd)

    def replace(a, b):
        calls.append(("replace", str(b)))
        real_replace(a, b)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_atomically(out, lambda fh: fh.write("x"))
    assert out.read_text() == "x"
    kinds = [k for k, _ in calls]
    assert kinds == ["fsync", "replace", "fsync"]
    if os.path.exists("/proc/self/fd"):
        assert calls[0][1] != str(out) and os.path.dirname(str(calls[0][1])) == str(tmp_path)  # the temp file
        assert calls[2][1] == str(tmp_path)                                                     # the folder


def test_the_umask_is_read_without_being_changed(tmp_path, monkeypatch):
    def no_umask(mask):
        raise AssertionError("the process umask was changed")

    old = os.umask(0o027)
    os.umask(old)
    try:
        os.umask(0o027)
        if fsio._status_umask() is None:
            pytest.skip("this system does not report the umask without changing it")
        monkeypatch.setattr(os, "umask", no_umask)
        assert current_umask() == 0o027
        out = tmp_path / "new.txt"
        write_atomically(out, lambda fh: fh.write("x"))
        assert out.stat().st_mode & 0o777 == 0o640
    finally:
        monkeypatch.undo()
        os.umask(old)


def test_a_thread_creating_files_meanwhile_keeps_its_mask(tmp_path):
    """Many atomic writes while another thread creates plain files: every plain file has the mode the
    umask gives (a write that set the umask to 0 for a moment would leave one world-writable)."""
    expect = 0o666 & ~current_umask()
    stop = threading.Event()
    modes: list[int] = []

    def plain():
        i = 0
        while not stop.is_set():
            p = tmp_path / f"plain{i % 50}"
            with open(p, "w") as fh:
                fh.write("y")
            modes.append(os.stat(p).st_mode & 0o777)
            p.unlink()
            i += 1

    t = threading.Thread(target=plain)
    t.start()
    try:
        for i in range(200):
            write_atomically(tmp_path / f"atomic{i % 5}", lambda fh: fh.write("x"))
    finally:
        stop.set()
        t.join()
    assert modes and set(modes) == {expect}


def test_a_failed_write_leaves_nothing_and_the_old_file(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("old")

    def boom(fh):
        fh.write("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OutputError):
        write_atomically(out, boom)
    assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


@pytest.mark.parametrize("sig, exc", [("SIGINT", KeyboardInterrupt), ("SIGTERM", SystemExit)])
@pytest.mark.parametrize("writer", ["text", "bytes"])
def test_a_signal_as_the_temporary_file_is_made_leaves_no_temporary_file(tmp_path, monkeypatch, sig, exc, writer):
    """Ctrl-C (or SIGTERM, as a worker process turns it into SystemExit) arriving just as the system made the
    temporary file, before the writer had its descriptor: the file's name was chosen before, so it is removed
    and the signal goes on.  The old file stays as it was."""
    import signal

    real = fsio._create
    made = []

    def signalled(name, mode):
        fd = real(name, mode)
        os.close(fd)
        made.append(name)
        signal.raise_signal(getattr(signal, sig))
        return fd

    def to_exit(signum, frame):
        raise SystemExit(128 + signum)

    old = signal.signal(signal.SIGTERM, to_exit)
    try:
        monkeypatch.setattr(fsio, "_create", signalled)
        target = tmp_path / "out.txt"
        target.write_text("before")
        with pytest.raises(exc):
            if writer == "text":
                write_atomically(target, lambda fh: fh.write("after"))
            else:
                fsio.write_bytes_atomically(target, b"after")
    finally:
        signal.signal(signal.SIGTERM, old)
    assert made and not os.path.exists(made[0])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"] and target.read_text() == "before"
    assert signal.getsignal(signal.SIGTERM) is old


def test_the_bytes_writer_keeps_the_mode_of_the_file_it_replaces_and_gives_a_new_one_the_umask_s(tmp_path):
    old = tmp_path / "old.sgf"
    old.write_text("x")
    old.chmod(0o604)
    fsio.write_bytes_atomically(old, "é\n".encode())
    assert old.read_bytes() == "é\n".encode() and old.stat().st_mode & 0o777 == 0o604
    new = tmp_path / "new.sgf"
    fsio.write_bytes_atomically(new, b"y")
    assert new.read_bytes() == b"y" and new.stat().st_mode & 0o777 == 0o666 & ~current_umask()
    with pytest.raises(OutputError, match="exists"):
        fsio.write_bytes_atomically(new, b"z", force=False)
    with pytest.raises(OutputError):
        fsio.write_bytes_atomically(tmp_path, b"z")
    with pytest.raises(OutputError):
        fsio.write_bytes_atomically(tmp_path / "nowhere" / "x.sgf", b"z")
    assert new.read_bytes() == b"y"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.sgf", "old.sgf"]


def test_a_target_known_to_be_free_is_not_looked_at_and_the_rename_still_decides(tmp_path, monkeypatch):
    """``absent=True`` (a folder the same run made): no stat of the target; a file that appeared there all the
    same is replaced whole, a folder refuses the rename (an OutputError, nothing left behind)."""
    looked: list[str] = []
    real_stat = os.stat

    def stat(path, *a, **k):
        looked.append(os.fspath(path))
        return real_stat(path, *a, **k)

    monkeypatch.setattr(os, "stat", stat)
    fsio.write_bytes_atomically(tmp_path / "a.sgf", b"a", force=False, absent=True)
    assert (tmp_path / "a.sgf").read_bytes() == b"a" and looked == []
    fsio.write_bytes_atomically(tmp_path / "a.sgf", b"again", force=False, absent=True)
    assert (tmp_path / "a.sgf").read_bytes() == b"again" and looked == []
    (tmp_path / "d.sgf").mkdir()
    with pytest.raises(OutputError):
        fsio.write_bytes_atomically(tmp_path / "d.sgf", b"x", absent=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.sgf", "d.sgf"]
    fsio.write_bytes_atomically(tmp_path / "b.sgf", b"b")        # (without it: looked at first)
    assert looked == [str(tmp_path / "b.sgf")]


def test_convert_into_folders_it_makes_looks_at_no_target(tmp_path, monkeypatch):
    """convert --out-dir into a folder it makes (and the sub-folders that mirror the inputs') does not look for
    files to replace there; into a folder that exists, it does, and refuses to replace one without --force."""
    from nardy_analyze.convert import convert_paths
    from helpers import ROOT
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    game = (ROOT / "examples" / "club-night.mat").read_bytes()
    for name in ("a.mat", "b.mat", "sub/c.mat"):
        (src / name).write_bytes(game)
    looked: list[str] = []
    real_stat, real_exists = os.stat, os.path.exists
    out = tmp_path / "new" / "out"

    def stat(path, *a, **k):
        if os.fspath(path).startswith(str(tmp_path / "new")):
            looked.append(os.fspath(path))
        return real_stat(path, *a, **k)

    monkeypatch.setattr(os, "stat", stat)
    run = convert_paths([str(src)], "sgf", out_dir=str(out), jobs=1)
    assert [o.status for o in run.outcomes] == ["written"] * 3
    assert not [p for p in looked if p.endswith(".sgf")], looked
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*.sgf")) == ["a.sgf", "b.sgf", "sub/c.sgf"]
    # the folder exists now: each target is looked for, and an existing one is not replaced without --force
    looked.clear()
    run = convert_paths([str(src)], "sgf", out_dir=str(out), jobs=1)
    assert [o.status for o in run.outcomes] == ["failed"] * 3
    assert all("exists" in o.messages[0] for o in run.outcomes)
    assert len({p for p in looked if p.endswith(".sgf")}) == 3 and real_exists(out / "a.sgf")


def test_a_leftover_temporary_name_is_passed_by(tmp_path, monkeypatch):
    """A temporary file left by a process killed long ago with the same process number is not touched: the
    next name is taken."""
    import itertools
    monkeypatch.setattr(fsio, "_TEMP_SEQ", itertools.count())
    left = tmp_path / f".out.sgf.{os.getpid():x}-0.tmp"
    left.write_text("left")
    fsio.write_bytes_atomically(tmp_path / "out.sgf", b"new")
    assert left.read_text() == "left" and (tmp_path / "out.sgf").read_bytes() == b"new"


def test_convert_flushes_its_files_once_at_the_end(tmp_path, monkeypatch):
    """convert writes each file whole (a temporary file renamed) without a flush per file, and flushes what
    it wrote once, at the end of the run: on Unix one ``sync``; elsewhere each file and folder."""
    from nardy_analyze.convert import convert_paths
    from helpers import ROOT
    src = tmp_path / "in"
    src.mkdir()
    for name in ("a", "b", "c"):
        (src / f"{name}.mat").write_bytes((ROOT / "examples" / "club-night.mat").read_bytes())
    out = tmp_path / "out"
    calls: list[str] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(os.path.realpath(f"/proc/self/fd/{fd}")),
                                                 real_fsync(fd))[1])
    monkeypatch.setattr(os, "sync", lambda: calls.append("sync"), raising=False)
    monkeypatch.setattr(os, "replace", lambda a, b, real=os.replace: (calls.append("replace"), real(a, b))[1])
    run = convert_paths([str(src)], "sgf", out_dir=str(out), jobs=1)
    assert [o.status for o in run.outcomes] == ["written"] * 3
    assert calls == ["replace"] * 3 + ["sync"]
    assert sorted(p.name for p in out.iterdir()) == ["a.sgf", "b.sgf", "c.sgf"]
    # without sync (another system): each file, then each folder
    calls.clear()
    monkeypatch.delattr(os, "sync")
    fsio.sync_written([out / "a.sgf", out / "b.sgf"])
    assert calls == [str(out / "a.sgf"), str(out / "b.sgf"), str(out)]


def test_the_first_run_s_progress_line_says_which_core_is_in_use(tmp_path, monkeypatch, capsys):
    """The first progress bar shown after an install (of this version) names the core in use, once; later
    runs do not; a cache folder that cannot be written means no note (it would be said every time)."""
    from nardy_analyze import cores
    from nardy_analyze.commands.common import progress_bar
    monkeypatch.setenv("NARDY_ANALYZE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(fsio.sys.stderr, "isatty", lambda: True, raising=False)

    def shown() -> str:
        bar = progress_bar()
        assert bar is not None
        bar.start -= 1                                   # a run that lasts
        bar.step("a.mat", 1, 2)
        bar.step("b.mat", 2, 2)
        bar.close()
        return capsys.readouterr().err

    first = shown()
    assert f"({cores.in_use_text()})" in first and first.count(cores.in_use_text()) == 2   # both frames
    assert (tmp_path / "cache").iterdir()
    assert cores.in_use_text() not in shown()
    monkeypatch.setenv("NARDY_ANALYZE_CACHE", str(tmp_path / "file-not-folder" / "x"))
    (tmp_path / "file-not-folder").write_text("")
    assert cores.first_run_note() is None
