"""Interrupts: a command stopped by a signal sent to it alone (not to its process group, as `timeout -s INT`
or `kill` do) stops its worker processes, says so on standard error, exits 130 (SIGINT) or 143
(SIGTERM), and leaves no output file, whole or partial.  Each command runs in a process group of its
own (a new session), and the signal goes to the parent process only."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from helpers import ROOT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")

FIXTURES = ROOT / "tests" / "fixtures" / "selfplay"


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            st = _stat(int(d))
            if st is not None and int(st[1]) == pid:
                out.append(int(d))
    return out


def alive(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[0] != "Z"


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    """18,000 real records: enough for two workers to be busy for several seconds on an idle machine (the
    compiled reader and replay validate 7,200 of them in about a second with both)."""
    folder = tmp_path_factory.mktemp("many")
    for i in range(1500):
        for f in FIXTURES.glob("*.mat"):
            shutil.copy(f, folder / f"c{i:03d}_{f.name}")
    return folder


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(args: list[str], sig: int, delay: float, tmp_path) -> tuple[int | None, str, list[int]]:
    """Run the command in a new process group, wait for its two workers, wait ``delay``, send ``sig`` to
    the parent alone; (exit code, standard error, workers still alive 3 s after the parent ended)."""
    err_path = tmp_path / f"err{time.monotonic_ns()}.txt"
    with open(err_path, "w") as err:
        # SIGINT back to its default in the command: a suite run as a background job of a non-interactive
        # shell (`pytest &`) hands its children SIGINT ignored, and Python then keeps it ignored, as it should
        p = subprocess.Popen([sys.executable, "-m", "nardy_analyze", *args], cwd=ROOT, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=err, env={**os.environ, "PYTHONPATH": str(ROOT)},
                             preexec_fn=_default_sigint)
    try:
        kids: list[int] = []
        t0 = time.monotonic()
        while len(kids) < 2 and time.monotonic() - t0 < 60 and p.poll() is None:
            kids = children(p.pid)
            time.sleep(0.01)
        assert len(kids) == 2, "the command did not start its two workers"
        time.sleep(delay)
        kids = sorted(set(kids) | set(children(p.pid)))
        assert p.poll() is None, "the command ended before the signal: give it more files"
        os.kill(p.pid, sig)                          # the parent alone
        code = p.wait(timeout=60)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and any(alive(k) for k in kids):
            time.sleep(0.05)
        return code, err_path.read_text(), [k for k in kids if alive(k)]
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)          # whatever is left of the group (nothing, if all is well)
        except OSError:
            pass
        p.wait()


def no_temp_files(folder) -> bool:
    return not [p for p in os.listdir(folder) if p.endswith(".tmp")]


@pytest.mark.parametrize("sig, code, said", [(signal.SIGINT, 130, "nardy-analyze: interrupted"),
                                             (signal.SIGTERM, 143, "nardy-analyze: terminated")])
@pytest.mark.parametrize("delay", [0.0, 0.4, 1.0])
def test_validate_stops_its_workers(many, tmp_path, sig, code, said, delay):
    out = tmp_path / "report.json"
    got, err, left = interrupt(["validate", str(many), "-j", "2", "--format", "json", "-o", str(out)],
                               sig, delay, tmp_path)
    assert left == [], f"worker processes outlived the command: {left}"
    assert got == code, err
    assert said in err and "Traceback" not in err, err
    assert not out.exists() and no_temp_files(tmp_path)          # no -o, whole or partial


def test_stats_stops_its_workers(many, tmp_path):
    pytest.importorskip("pandas")
    out = tmp_path / "stats.csv"
    got, err, left = interrupt(["stats", str(many), "-j", "2", "-f", "csv", "-o", str(out)], signal.SIGINT, 0.5,
                               tmp_path)
    assert left == [] and got == 130 and "nardy-analyze: interrupted" in err and "Traceback" not in err, err
    assert not out.exists() and no_temp_files(tmp_path)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_convert_leaves_no_half_written_file(many, tmp_path, sig):
    out_dir = tmp_path / "out"
    got, err, left = interrupt(["convert", str(many), "--to", "sgf", "-j", "2", "--out-dir", str(out_dir)],
                               sig, 0.8, tmp_path)
    assert left == [] and got == 128 + sig and "Traceback" not in err, err
    assert out_dir.exists() and no_temp_files(out_dir)             # files written whole, or not at all
    for f in out_dir.iterdir():
        assert f.read_text().rstrip().endswith(")")               # each SGF written is whole


def test_workers_end_when_the_command_is_killed(many, tmp_path):
    """SIGKILL leaves the command no chance to stop anything: the kernel ends its workers (Linux)."""
    _, _, left = interrupt(["validate", str(many), "-j", "2"], signal.SIGKILL, 0.5, tmp_path)
    assert left == [], f"worker processes outlived the command: {left}"


def _engine():
    pytest.importorskip("pandas")
    from nardy_analyze.stats import skill
    if not skill.engine_available():
        pytest.skip("the analysis extra (bgsage) is not installed")


def test_analyze_stops_its_workers(many, tmp_path):
    _engine()
    out = tmp_path / "decisions.csv"
    got, err, left = interrupt(["analyze", str(many), "-j", "2", "--by", "game", "-f", "csv", "-o", str(out)],
                               signal.SIGINT, 0.5, tmp_path)
    assert left == [] and got == 130, err
    assert "nardy-analyze: interrupted" in err and "Traceback" not in err, err
    assert not out.exists() and no_temp_files(tmp_path)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_analyze_shows_its_progress_a_file_at_a_time(tmp_path, jobs):
    """On a terminal, analyze's progress line moves a file at a time, with worker processes too (one file a
    worker task: a file takes seconds to analyse)."""
    _engine()
    import pty
    for i in range(3):
        for f in sorted(FIXTURES.glob("*_1pt.mat")):
            shutil.copy(f, tmp_path / f"r{i}_{f.name}")
    total = len(list(tmp_path.glob("*.mat")))
    master, slave = pty.openpty()
    # the bar from the first file on (a quick machine analyses these files in less than the bar's usual delay)
    run = ("import sys; from nardy_analyze import fsio; fsio.Progress.DELAY = 0; "
           "from nardy_analyze.fastcli import run; sys.argv[0] = 'nardy-analyze'; run()")
    p = subprocess.Popen([sys.executable, "-c", run, "analyze", str(tmp_path), "-j", jobs,
                          "-f", "csv"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=slave,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert p.wait(timeout=600) == 0
    text = b"".join(chunks).decode("utf-8", "replace")
    import re
    counts = {int(m.group(1)) for m in re.finditer(rf"\] (\d+)/{total} files", text)}
    assert counts and max(counts) == total, text[-500:]
    assert len(counts) >= 2, text[-500:]           # more than the last tick: it moved file by file


def test_convert_removes_a_temporary_file_cut_off_as_it_is_made(tmp_path, monkeypatch):
    """The narrowest window of an atomic write: the signal lands just as the system made the temporary
    file, before the writer had its descriptor; the writer chose its name before and removes it, and the
    command stops with the files before it written whole."""
    from nardy_analyze import convert, fsio

    real = fsio._create
    calls = []

    def cut_off(name, mode):
        fd = real(name, mode)
        calls.append(name)
        if len(calls) == 3:                 # the third file's write: the "signal" arrives here
            os.close(fd)
            raise KeyboardInterrupt
        return fd

    monkeypatch.setattr(fsio, "_create", cut_off)
    files = sorted(FIXTURES.glob("*.mat"))[:5]
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        convert.convert_paths([str(f) for f in files], "sgf", out_dir=str(out), jobs=1)
    assert len(calls) == 3 and os.path.exists(calls[-1]) is False
    assert no_temp_files(out) and len(list(out.iterdir())) == 2     # the two written whole, nothing else
