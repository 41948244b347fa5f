"""The runner's own worker processes (``runner._Forked``): forked once per run, fed tasks through pipes that are
never left to block either side, their results given back in the order of the files, whatever their size;
the same answers as the pool of ``concurrent.futures`` (``runner.FORK = False``, the pool of platforms that do
not fork) and as one process; none of them left behind.

Worker death, Ctrl-C and SIGTERM through the commands: tests/test_interrupt.py, tests/test_inputs.py
(a dying worker), tests/test_convert_fast.py (nothing half-written); a Ctrl-C while the workers fork, for both
pools: tests/test_runner_signals.py."""
from __future__ import annotations

import multiprocessing
import os
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

from helpers import child_pids
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


@settings(max_examples=12, deadline=None)
@given(n=st.integers(0, 140), jobs=st.integers(2, 4), skipped=st.sets(st.integers(0, 139), max_size=20))
def test_every_entry_comes_back_in_order_from_either_pool(n, jobs, skipped):
    entries = [_entry(i, status=SKIPPED if i in skipped else RECORD) for i in range(n)]
    before = child_pids()
    with pytest.MonkeyPatch.context() as mp:
        one = _run(entries, 1, True, mp)
        forked = _run(entries, jobs, True, mp)
        futures = _run(entries, jobs, False, mp)
    assert forked == one == futures
    assert [p for p, _, _ in forked] == [e.path for e in entries]
    assert child_pids() <= before


def test_tasks_and_results_larger_than_a_pipe_neither_side_waiting_on_the_other(monkeypatch):
    """Each task carries entries of 40 KB and each result is 200 KB: a pipe holds 64 KB, so a worker writes its
    results while this process still has tasks to write to it; neither blocks the other."""
    entries = [_entry(i, size=40_000) for i in range(300)]
    before = child_pids()
    monkeypatch.setattr(runner, "CHUNK", 4)
    got = list(runner.map_records(entries, _work, (5,), load=_load, jobs=2))
    pids = set()
    for e, (entry, kind, value) in zip(entries, got):
        assert entry is e and kind == "ok"
        assert value[0] == e.path and len(value[2]) == 200_000
        pids.add(value[1])
    assert len(pids) == 2 and os.getpid() not in pids
    assert child_pids() <= before and not pids & child_pids()


def test_a_reader_that_stops_early_stops_the_workers(monkeypatch):
    entries = [_entry(i) for i in range(500)]
    before = child_pids()
    it = runner.map_records(entries, _work, (1,), load=_load, jobs=2)
    assert [next(it)[0].path for _ in range(3)] == [e.path for e in entries[:3]]
    assert len(child_pids() - before) == 2
    it.close()
    assert child_pids() <= before


@pytest.mark.parametrize("forked", [True, False])
def test_a_reader_that_takes_every_item_but_not_the_end_lets_the_workers_end_by_themselves(forked, monkeypatch):
    """A caller that counts its items (``convert``: one per input, by ``next``) never asks for the one after
    the last; once the last results are in, the workers have nothing left to do: they are let end at the end
    of their tasks (``stop(True)``), not sent SIGTERM and waited for with a timeout."""
    monkeypatch.setattr(runner, "FORK", forked)
    stops: list[bool] = []
    for cls in (runner._Forked, runner._Executor):
        real = cls.stop
        monkeypatch.setattr(cls, "stop", lambda self, finished, real=real: (stops.append(finished),
                                                                              real(self, finished))[1])
    signals: list[int] = []
    real_signal = runner._signal_pid
    monkeypatch.setattr(runner, "_signal_pid", lambda pid, sig: (signals.append(sig), real_signal(pid, sig))[1])
    entries = [_entry(i) for i in range(150)]
    before = child_pids()
    it = runner.map_records(entries, _work, (1,), load=_load, jobs=2)
    assert [next(it)[0].path for _ in entries] == [e.path for e in entries]
    it.close()                    # (as a generator left after its last item is, when it is dropped)
    assert stops == [True]
    assert signals == []
    assert child_pids() <= before


def test_a_worker_killed_between_tasks_costs_no_file(monkeypatch):
    """A worker that dies while it waits for its next task (killed from outside): the pool is found broken at
    the next task given to it, and the files are read one at a time in fresh workers: every file is read."""
    entries = [_entry(i) for i in range(200)]
    before = child_pids()
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
    assert child_pids() <= before



def _warm_here(folder: str) -> None:
    """A worker's start (``runner.prestart``'s ``warm``): it leaves a file named by its process id."""
    with open(os.path.join(folder, str(os.getpid())), "w", encoding="ascii") as f:
        f.write("warm")


def _warm_failing() -> None:
    raise ImportError("a module the work needs is broken")


def test_workers_started_early_warm_up_then_take_the_run(tmp_path, monkeypatch):
    """``prestart``: the workers exist before the entries are known, each runs its warm-up as it starts, and the
    run given them as its ``pool`` runs in them (no other worker is forked): the same answers as one process."""
    entries = [_entry(i) for i in range(150)]
    before = child_pids()
    forked = []
    real = runner._Forked._fork
    monkeypatch.setattr(runner._Forked, "_fork", lambda self: (forked.append(1), real(self))[1])
    pool = runner.prestart(2, _work, (1,), load=_load, warm=lambda: _warm_here(str(tmp_path)))
    try:
        assert len(child_pids() - before) == 2 and len(forked) == 2
        got = list(runner.map_records(entries, _work, (1,), load=_load, jobs=2, pool=pool))
    finally:
        pool.stop(True)
    assert [(e.path, kind, value[0]) for e, kind, value in got] == [(e.path, "ok", e.path) for e in entries]
    pids = {value[1] for _e, _kind, value in got}
    assert pids == {int(p.name) for p in tmp_path.iterdir()} and len(pids) == 2
    assert len(forked) == 2                       # the run forked none of its own
    assert child_pids() <= before


def test_workers_started_early_and_not_used_are_ended(monkeypatch):
    """A run that turns out to need no worker (fewer records than the default asks for, jobs 1) leaves the workers
    started early alone; the caller's ``stop`` ends them, and a second ``stop`` does nothing."""
    before = child_pids()
    pool = runner.prestart(2, _work, (1,), load=_load)
    assert len(child_pids() - before) == 2
    got = list(runner.map_records([_entry(i) for i in range(5)], _work, (1,), load=_load, pool=pool))
    assert [value[1] for _e, _kind, value in got] == [os.getpid()] * 5       # in this process
    pool.stop(True)
    pool.stop(False)
    assert child_pids() <= before


def test_a_failing_warm_up_is_met_again_by_the_work_alone(monkeypatch):
    """An exception in the warm-up does not end the worker: its work runs (and meets any real error itself)."""
    before = child_pids()
    pool = runner.prestart(2, _work, (1,), load=_load, warm=_warm_failing)
    try:
        got = list(runner.map_records([_entry(i) for i in range(40)], _work, (1,), load=_load, jobs=2, pool=pool))
    finally:
        pool.stop(True)
    assert [kind for _e, kind, _v in got] == ["ok"] * 40
    assert child_pids() <= before


def test_workers_started_for_another_work_are_refused(monkeypatch):
    before = child_pids()
    pool = runner.prestart(2, _work, (2,), load=_load)
    try:
        with pytest.raises(ValueError, match="another work"):
            list(runner.map_records([_entry(i) for i in range(40)], _work, (1,), load=_load, jobs=2, pool=pool))
    finally:
        pool.stop(False)
    assert child_pids() <= before


def test_no_workers_are_started_early_where_they_are_not_forked(monkeypatch):
    monkeypatch.setattr(runner, "FORK", False)
    assert runner.prestart(2, _work, (1,), load=_load) is None
    monkeypatch.setattr(runner, "FORK", True)
    assert runner.prestart(1, _work, (1,), load=_load) is None
