"""The runner's own worker processes (``runner._Forked``): forked once per run, fed tasks through pipes that are
never left to block either side, their results given back in the order of the files, whatever their size;
the same answers as the pool of ``concurrent.futures`` (``runner.FORK = False``, the pool of platforms that do
not fork) and as one process; none of them left behind.

Worker death, Ctrl-C and SIGTERM through the commands: tests/test_interrupt.py, tests/test_inputs.py
(a dying worker), tests/test_convert_fast.py (nothing half-written); a Ctrl-C while the workers fork, for both
pools: tests/test_runner_signals.py."""
from __future__ import annotations

import glob
import multiprocessing
import os
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

from nardy_analyze import runner
from nardy_analyze.inputs import RECORD, SKIPPED

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or multiprocessing.get_start_method() != "fork",
                                reason="the runner forks its workers on Linux only")


def _entry(i: int, size: int = 0, status: str = RECORD):
    return SimpleNamespace(path=f"f{i:05d}.mat", status=status, reason="r" * size)


def _load(entry, max_bytes):
    return entry.path


def _work(entry, match, factor):
    """A value as large as the entry asks (its reason's length times ``factor``): results larger than a pipe."""
    return (match, os.getpid(), "x" * (len(entry.reason) * factor))


def _run(entries, jobs, forked, monkeypatch, factor=1):
    monkeypatch.setattr(runner, "FORK", forked)
    return [(e.path, kind, value[0] if kind == "ok" else value)
            for e, kind, value in runner.map_records(entries, _work, (factor,), load=_load, jobs=jobs)]


def _children() -> set[int]:
    """The child processes of this one, ended or not, as long as they are not waited for (Linux's
    ``/proc/PID/task/TID/children``): other tests may leave some (a Dask cluster's resource tracker)."""
    out: set[int] = set()
    for name in glob.glob(f"/proc/{os.getpid()}/task/*/children"):
        try:
            with open(name, encoding="ascii") as f:
                out |= {int(x) for x in f.read().split()}
        except OSError:
            pass
    return out


@settings(max_examples=12, deadline=None)
@given(n=st.integers(0, 140), jobs=st.integers(2, 4), skipped=st.sets(st.integers(0, 139), max_size=20))
def test_every_entry_comes_back_in_order_from_either_pool(n, jobs, skipped):
    entries = [_entry(i, status=SKIPPED if i in skipped else RECORD) for i in range(n)]
    before = _children()
    with pytest.MonkeyPatch.context() as mp:
        one = _run(entries, 1, True, mp)
        forked = _run(entries, jobs, True, mp)
        futures = _run(entries, jobs, False, mp)
    assert forked == one == futures
    assert [p for p, _, _ in forked] == [e.path for e in entries]
    assert _children() <= before


def test_tasks_and_results_larger_than_a_pipe_neither_side_waiting_on_the_other(monkeypatch):
    """Each task carries entries of 40 KB and each result is 200 KB: a pipe holds 64 KB, so a worker writes its
    results while this process still has tasks to write to it; neither blocks the other."""
    entries = [_entry(i, size=40_000) for i in range(300)]
    before = _children()
    monkeypatch.setattr(runner, "CHUNK", 4)
    got = list(runner.map_records(entries, _work, (5,), load=_load, jobs=2))
    pids = set()
    for e, (entry, kind, value) in zip(entries, got):
        assert entry is e and kind == "ok"
        assert value[0] == e.path and len(value[2]) == 200_000
        pids.add(value[1])
    assert len(pids) == 2 and os.getpid() not in pids
    assert _children() <= before and not pids & _children()


def test_a_reader_that_stops_early_stops_the_workers(monkeypatch):
    entries = [_entry(i) for i in range(500)]
    before = _children()
    it = runner.map_records(entries, _work, (1,), load=_load, jobs=2)
    assert [next(it)[0].path for _ in range(3)] == [e.path for e in entries[:3]]
    assert len(_children() - before) == 2
    it.close()
    assert _children() <= before


def test_a_worker_killed_between_tasks_costs_no_file(monkeypatch):
    """A worker that dies while it waits for its next task (killed from outside): the pool is found broken at
    the next task given to it, and the files are read one at a time in fresh workers: every file is read."""
    entries = [_entry(i) for i in range(200)]
    before = _children()
    pool = runner._Forked(2, (_work, (1,), None, _load, None))
    try:
        first = pool.submit(entries[:3]).result()
        assert [v[1][0] for v in first] == [e.path for e in entries[:3]]
        victim = pool.workers[0].pid
        os.kill(victim, 9)
        with pytest.raises(runner.WorkerStopped, match="ended abruptly"):
            for _ in range(4):            # (one of them goes to the dead worker)
                pool.submit(entries[3:6]).result()
    finally:
        pool.stop(False)
    assert _children() <= before

