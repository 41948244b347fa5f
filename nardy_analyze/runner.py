"""Running a per-file function over many records: the error boundary and the worker processes.

Every command that reads records (validate, convert, stats, analyze) runs its per-file work through
:func:`map_records` (by way of :func:`nardy_analyze.analyze.map_records`, which reads each file with
:func:`nardy_analyze.inputs.load`): each file inside :func:`guarded`, the error boundary (a file that
cannot be read is "unreadable", a bug on one file is that file's "internal-error", never an exception out
of the run), in this process, on a pool of worker processes, or on a Dask cluster (an engine object with a
``map_records`` method: :class:`nardy_analyze.cluster.DaskEngine`), the results in the order of the files.
The reader comes in as ``load`` and the cluster as ``engine``: this module imports neither, and
``cluster`` imports this module, not ``analyze`` (docs/architecture.md).
"""
from __future__ import annotations

import enum
import gc
import itertools
import os
import select
import signal
import sys
import time
from collections import deque
from typing import Any, Callable, Iterable, Iterator

from . import GC_THRESHOLD, __version__
from .fsio import HeldSignals
from .i18n import N_, _
from .inputs import INTERNAL_ERROR, RECORD, SKIPPED, UNREADABLE, InputError, NotARecord

Load = Callable[..., Any]      # load(entry, max_bytes) -> the record; InputError when it cannot be read


class Doing(enum.Enum):
    """What was being done to a file when an exception came out (a work function says its own with a
    ``doing`` attribute; validating by default): the message of the ``internal-error``, one sentence each,
    for the catalog."""

    VALIDATING = N_(
        "internal error in nardy-analyze {version} while validating this file: {error}; the file was not "
        "fully checked; please report this with the file")
    READING = N_(
        "internal error in nardy-analyze {version} while reading this file: {error}; the file was not "
        "fully checked; please report this with the file")
    CONVERTING = N_(
        "internal error in nardy-analyze {version} while converting this file: {error}; the file was not "
        "fully checked; please report this with the file")
    WORKER_STOPPED = N_(
        "internal error in nardy-analyze {version} while validating this file (the worker process stopped): "
        "{error}; the file was not fully checked; please report this with the file")
    DASK_WORKER_STOPPED = N_(
        "internal error in nardy-analyze {version} while validating this file (the Dask worker process "
        "stopped): {error}; the file was not fully checked; please report this with the file")


def internal_error_message(exc: BaseException, doing: Doing = Doing.VALIDATING) -> str:
    """The message of an ``internal-error`` finding: the exception, the version, what to do (``doing``: what
    was being done)."""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if len(text) > 300:
        text = text[:300] + "..."
    return _(doing.value).format(version=__version__, error=text)


def guarded(work: Callable[..., Any], entry: Any, args: tuple, max_bytes: int | None, load: Load
            ) -> tuple[str, Any]:
    """Run ``work(entry, load(entry, max_bytes), *args)`` for one entry, never raising: the per-file error
    boundary.

    Returns ("ok", value) | ("unreadable", message) | ("skipped", reason: a file judged by its start as it
    was read, ``inputs.Entry.judge``, that is no record) | ("internal-error", message).  This is the one place
    where an exception out of a reader, the engine, the replay or a writer becomes an internal error:
    readers turn bad input into problems of the file themselves (``notation.ReadError``), and nothing
    between them and here catches an exception that is not its own.
    """
    try:
        match = load(entry, max_bytes)
    except NotARecord as e:                    # a file judged by its start as it was read: not a record
        return SKIPPED, e.reason
    except InputError as e:
        return UNREADABLE, str(e)
    except Exception as e:                     # a bug in a reader
        return INTERNAL_ERROR, internal_error_message(e, Doing.READING)
    try:
        return "ok", work(entry, match, *args)
    except Exception as e:                     # a bug in a variant's engine, the replayer, a writer...
        # (what the work does, for the message: its ``doing`` attribute, a Doing)
        return INTERNAL_ERROR, internal_error_message(e, getattr(work, "doing", Doing.VALIDATING))


def map_records(entries: Iterable[Any], work: Callable[..., Any], args: tuple = (), *, load: Load,
                jobs: int | None = None,
                progress: Callable[[str, int, int], None] | None = None,
                max_bytes: int | None = None, total: int | None = None,
                engine: Any = None, combine: Callable[[list[Any]], Any] | None = None,
                chunk: int = 0, pool: Any = None) -> Iterator[tuple[Any, str, Any]]:
    """Run ``work(entry, load(entry, max_bytes), *args)`` on every RECORD entry; yield ``(entry, kind, value)`` for
    every entry, in the order of ``entries``.

    ``kind`` is ``"ok"`` (value: what ``work`` returned), ``"skipped"`` / ``"unreadable"`` (value: the
    reason) or ``"internal-error"`` (value: a message naming the exception and the version; ``work``
    or the reader raised).  Nothing raises out of one file: the other files are still processed.
    ``work`` must be a module-level function and its result picklable when ``jobs`` > 1.
    ``jobs``: worker processes (default: one per core, at most 8, when there are 32 records or more;
    1 = in this process).  A worker process that dies (killed, out of memory) costs only the file it
    was on: the files it had not finished are run again one at a time, and the one that kills its
    worker again gets an internal error.  ``progress(path, done, total)`` is called after each record.
    ``max_bytes``: the size limit of one file (default :data:`MAX_BYTES`); a larger one is unreadable.

    Memory: ``entries`` is read as the work goes (a generator such as :func:`discover` is never made
    a list, except when ``progress`` is given without ``total``, the number of records, and
    ``entries`` has no length), the worker processes get at most a few chunks of files ahead, and
    results are yielded as they come: a caller that does not keep them holds a few files' work at
    a time, however many files there are.
    ``engine``: None or ``"local"`` (this machine, as above), or an engine object such as a
    :class:`nardy_analyze.cluster.DaskEngine`, whose ``map_records(entries, work, args, tick, max_bytes,
    combine, load)`` maps the files elsewhere (in batches on the Dask workers), with the same error
    boundary and the same order (``cluster.ClusterError`` when the cluster cannot be used).
    ``combine(values)``: the values of the files one worker task ran (a chunk of files, a Dask batch)
    folded into one, in their order, on the worker (a partial aggregate: what crosses to this process
    is one value per task); the last "ok" entry of the task then carries it and the earlier ones None.
    Files run in this process (one job, standard input, the files retried after a worker died) keep
    their own values, so the caller folds whatever comes, in order, the same way.
    ``chunk``: the records of one worker task (default :data:`CHUNK`); 1 for work that takes seconds a
    file (the skill analysis), so that the progress moves a file at a time.
    ``pool``: worker processes started for this run before its entries were known (:func:`prestart`), used
    when the run has worker processes; the caller still ends them (``pool.stop``) whether or not it did.
    """
    if progress is not None and total is None and not isinstance(entries, (list, tuple)):
        entries = list(entries)
    if isinstance(entries, (list, tuple)):
        records = sum(e.status == RECORD for e in entries)
        head, rest = list(entries), iter(())
    else:                                   # look at no more than the first 32 records
        records, head, rest = 0, [], iter(entries)
        for e in rest:
            head.append(e)
            records += e.status == RECORD
            if records >= 32:
                break
    if total is None:
        total = records
    if jobs is None:
        jobs = default_jobs(records)
    if jobs > 1 and any(e.path == "-" for e in head):
        jobs = 1
    entries = itertools.chain(head, rest)
    del head
    done = 0

    def tick(e: Any) -> None:
        nonlocal done
        done += 1
        if progress:
            progress(e.path, done, max(total, done))

    if engine is not None and engine != "local":
        yield from engine.map_records(entries, work, args, tick, max_bytes, combine, load)
        return
    if jobs > 1 and records:
        yield from _map_pool(entries, work, args, jobs, tick, max_bytes, combine, load, chunk or CHUNK, pool)
        return
    for e in entries:
        if e.status != RECORD:
            yield e, e.status, e.reason
            continue
        kind, value = guarded(work, e, args, max_bytes, load)
        tick(e)
        yield e, kind, value


def default_jobs(records: int) -> int:
    """The worker processes of a run of ``records`` records without ``jobs``: one per core, at most 8, for 32
    records or more; else 1 (this process)."""
    return min(os.cpu_count() or 1, 8) if records >= 32 else 1


CHUNK = 32            # records per task sent to a worker process (at most): each task costs this process
                      # its entries and results serialised and a wake-up, taken from the workers' cores (8 a task
                      # cost 1,777 small files a sixth more time; 64 gave nothing more with the forked workers)
AHEAD = 4             # tasks waiting or running per worker process


def _worker_start(parent: int | None = None) -> None:
    """Set up a worker process of :func:`map_records`: a record makes tens of thousands of small objects,
    nearly none of them in reference cycles, and Python's default thresholds (700, 10, 10) would scan
    them over and over (and the whole inherited heap at each full collection): about a tenth of the
    work.  Cycles are still collected, less often.

    A worker never outlives the command: it ignores Ctrl-C (the command, which gets it too from the
    terminal, stops its workers itself, see :func:`_stop_pool`); SIGTERM ends it as an exception would
    (a file it was writing is removed, not left half-written); and on Linux the kernel sends it SIGTERM
    when ``parent``, the process that started it, ends in any way (``PR_SET_PDEATHSIG``), even killed."""
    gc.set_threshold(*GC_THRESHOLD)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)
    if parent is not None and sys.platform.startswith("linux"):
        prctl = _prctl()
        if prctl is not None:
            try:
                prctl(1, signal.SIGTERM)     # 1: PR_SET_PDEATHSIG
            except OSError:
                pass
        if os.getppid() != parent:      # the parent ended before the line above: end now
            os._exit(0)


_PRCTL: Any = None     # the C library's prctl (Linux), found once: in the parent before its workers fork


def _prctl() -> Any:
    """The C library's ``prctl`` function through ctypes, or None where it cannot be had.  Looked up in the
    process that starts the workers (:func:`_new_pool`): forked workers inherit it instead of each importing
    ctypes as it starts, when it has files waiting."""
    global _PRCTL
    if _PRCTL is None:
        try:
            import ctypes     # (Linux only, with worker processes)

            _PRCTL = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError, ImportError):
            _PRCTL = False
    return _PRCTL or None


_IN_TASK = False       # a worker process is working on files (not waiting for them, nor starting)


def _terminated(signum, frame) -> None:
    """SIGTERM in a worker: at once when it is not working on files; otherwise unwind first (a file being
    written is removed), ending within a second even if something catches the exception."""
    if not _IN_TASK:
        os._exit(128 + signum)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(1)
    raise SystemExit(128 + signum)


class _ForkSafe(HeldSignals):
    """Ctrl-C or SIGTERM held back while worker processes are being started, then delivered.

    A pool forks its workers inside ``submit``; Python runs the at-fork handlers of the modules loaded
    (``logging``'s among them) in the parent right after each fork, and an exception raised there is
    printed as "Exception ignored" and dropped: a Ctrl-C arriving in that instant would be lost and the
    command would run on to its end.  Here the signal only sets a flag, and is raised again once the
    workers are started, where the command's own handling of it (exit 130 or 143) applies."""


def _submit(pool, *args):
    """``pool.submit(*args)``, with the signals that may come while it starts a worker delivered after."""
    with _ForkSafe():
        return pool.submit(*args)


FORK = True           # worker processes forked by this module (:class:`_Forked`) where the platform forks
                      # (Linux); False, or another platform: concurrent.futures' pool (:class:`_Executor`)


class WorkerStopped(Exception):
    """A worker process stopped (killed, out of memory) before it gave the results of its tasks; the message
    says how it ended, where it is known."""


def prestart(jobs: int, work: Callable[..., Any], args: tuple = (), *, load: Load, max_bytes: int | None = None,
             combine: Callable[[list[Any]], Any] | None = None, warm: Callable[[], Any] | None = None):
    """``jobs`` worker processes for a :func:`map_records` run of ``work`` (the same ``work``, ``args``, ``load``,
    ``max_bytes`` and ``combine``), started before its entries are known: given as its ``pool``, they take its
    tasks.  Each runs ``warm()`` as it starts (what its work will import: the command's own process need not
    import it first), while the caller finds and plans the entries; an exception there is dropped (the work
    meets it again, in the file it concerns).

    The caller ends them with ``pool.stop(finished)`` in every case (a run that does not use them: too few
    records, an error before the run); after the run has ended them it does nothing.  None where workers are
    not forked here (``jobs`` of 1, another platform than Linux, :data:`FORK` False): the run starts its own."""
    if jobs <= 1 or not _forks():
        return None
    return _Forked(jobs, (work, args, max_bytes, load, combine), warm)


def _forks() -> bool:
    """Whether this module forks its worker processes itself (:class:`_Forked`): on Linux, unless :data:`FORK`
    is False."""
    return FORK and hasattr(os, "fork") and sys.platform.startswith("linux")


def _new_pool(jobs: int, task: tuple):
    """``jobs`` worker processes for the work ``task`` (``(work, args, max_bytes, load, combine)``): tasks are
    submitted as lists of entries (``pool.submit(recs)``), each gives a ticket whose ``result()`` is
    :func:`_guarded_chunk`'s list, or raises :class:`WorkerStopped`; ``pool.stop(finished)`` ends them."""
    if _forks():
        return _Forked(jobs, task)
    return _Executor(jobs, task)


class _Executor:
    """The worker processes of ``concurrent.futures`` (every platform): the tasks and their results pickled
    through its queues, by its threads."""

    def __init__(self, jobs: int, task: tuple):
        from concurrent.futures import ProcessPoolExecutor     # (only with worker processes: saves start-up)

        if sys.platform.startswith("linux"):
            _prctl()
        self.task = task
        self.pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start, initargs=(os.getpid(),))

    def submit(self, recs: list[Any]) -> "_Future":
        work, args, max_bytes, load, combine = self.task
        return _Future(_submit(self.pool, _guarded_chunk, work, recs, args, max_bytes, load, combine))

    def stop(self, finished: bool) -> None:
        _stop_pool(self.pool, finished)


class _Future:
    __slots__ = ("future",)

    def __init__(self, future) -> None:
        self.future = future

    def result(self) -> list[tuple[str, Any]]:
        from concurrent.futures.process import BrokenProcessPool    # (imported with the pool already)

        try:
            return self.future.result()
        except BrokenProcessPool:
            raise WorkerStopped(_("a worker process ended abruptly")) from None


_WAITING = object()     # a ticket's value before its results came
_SIZE = 8               # the length of a message, before it (little-endian): a task or a task's results


class _Ticket:
    __slots__ = ("pool", "value")

    def __init__(self, pool: "_Forked") -> None:
        self.pool, self.value = pool, _WAITING

    def result(self) -> list[tuple[str, Any]]:
        while self.value is _WAITING:
            self.pool.pump()
        return self.value


class _Worker:
    """A forked worker process and the two pipes to it: ``tasks`` (written here, without blocking: ``out``
    holds what is still to write) and ``results`` (read here into ``got`` until a whole message is in)."""

    __slots__ = ("pid", "tasks", "results", "out", "got", "waiting")

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid, self.tasks, self.results = pid, tasks, results
        self.out = bytearray()
        self.got = bytearray()
        self.waiting: deque[_Ticket] = deque()      # the tickets of its tasks, in the order it runs them


class _Forked:
    """Worker processes forked by this process, each reading its tasks (pickled lists of entries) from a pipe
    and writing their results to another: the work, its arguments and the reader cross once, at the fork.

    Nothing else is imported (``concurrent.futures.process`` and what it needs take a command about 17 ms
    before its first file) and no thread of this process carries the tasks: :meth:`pump` writes and reads the
    pipes when a result is waited for.  The pickled data is this command's own (the entries it found and the
    results its own workers made), never a file's.  A worker that stops before all its results came makes the
    pool broken (:class:`WorkerStopped`), as ``concurrent.futures``' does."""

    def __init__(self, jobs: int, task: tuple, warm: Callable[[], Any] | None = None):
        import pickle       # (the tasks and results between this command's own processes)

        self.pickle = pickle
        self.task = task
        self.warm = warm
        self.workers: list[_Worker] = []
        self.broken = ""             # how a worker that ended too soon ended (the pool is then broken)
        if sys.platform.startswith("linux"):
            _prctl()
        try:
            for _ in range(jobs):
                self._fork()
        except BaseException:
            self.stop(False)
            raise

    def _fork(self) -> None:
        """One more worker (in :attr:`workers` before a signal held while it forks is raised)."""
        parent = os.getpid()
        task_r, task_w = os.pipe()
        result_r, result_w = os.pipe()
        with _ForkSafe():       # (a Ctrl-C in the parent's at-fork handlers: delivered after)
            pid = os.fork()
            if pid == 0:        # the worker: never returns into the caller's code
                code = 1
                try:
                    for w in self.workers:       # (the pipes of the workers forked before it: theirs alone)
                        os.close(w.tasks)
                        os.close(w.results)
                    os.close(task_w)
                    os.close(result_r)
                    code = _forked_worker(parent, task_r, result_w, self.task, self.pickle, self.warm)
                finally:
                    os._exit(code)
            os.close(task_r)
            os.close(result_w)
            os.set_blocking(task_w, False)
            self.workers.append(_Worker(pid, task_w, result_r))

    def submit(self, recs: list[Any]) -> _Ticket:
        """A task of the entries ``recs``, given to the worker with the fewest tasks waiting."""
        if self.broken:
            raise WorkerStopped(self.broken)
        w = min(self.workers, key=lambda w: len(w.waiting))
        data = self.pickle.dumps(recs, self.pickle.HIGHEST_PROTOCOL)
        w.out += len(data).to_bytes(_SIZE, "little")
        w.out += data
        ticket = _Ticket(self)
        w.waiting.append(ticket)
        self._write(w)
        return ticket

    def _write(self, w: _Worker) -> None:
        try:
            n = os.write(w.tasks, w.out)
        except BlockingIOError:
            return
        except OSError:          # (the worker is gone: its pipe has no reader)
            self._lost(w)
        del w.out[:n]

    def pump(self) -> None:
        """Wait for the next thing a worker gives (a result, a task's bytes taken, its end) and take it."""
        if self.broken:
            raise WorkerStopped(self.broken)
        poll = select.poll()
        by_fd = {}
        for w in self.workers:
            if w.waiting:
                poll.register(w.results, select.POLLIN)
                by_fd[w.results] = w
                if w.out:
                    poll.register(w.tasks, select.POLLOUT)
                    by_fd[w.tasks] = w
        if not by_fd:
            raise RuntimeError("no task is waiting")
        for fd, _event in poll.poll():
            w = by_fd[fd]
            if fd == w.tasks:
                self._write(w)
                continue
            data = os.read(fd, 1 << 20)
            if not data:         # the worker ended with tasks of it waiting
                self._lost(w)
            got = w.got
            got += data
            while len(got) >= _SIZE:
                n = int.from_bytes(got[:_SIZE], "little")
                if len(got) < _SIZE + n:
                    break
                w.waiting.popleft().value = self.pickle.loads(got[_SIZE:_SIZE + n])
                del got[:_SIZE + n]

    def _lost(self, w: _Worker) -> None:
        """``w`` ended before giving all its results: the pool is broken, its workers are stopped."""
        status = None
        try:
            _pid, status = os.waitpid(w.pid, 0)
        except OSError:
            pass
        if status is None:
            self.broken = _("a worker process ended abruptly")
        elif os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            try:
                name = signal.Signals(sig).name
            except ValueError:
                name = str(sig)
            # TRANSLATORS: {signal}: the signal's name (SIGKILL, SIGSEGV) or number
            self.broken = _("a worker process ended abruptly (killed by {signal})").format(signal=name)
        else:
            # TRANSLATORS: {code}: the process's exit code
            self.broken = _("a worker process ended abruptly (exit code {code})").format(
                code=os.waitstatus_to_exitcode(status))
        self.stop(False)
        raise WorkerStopped(self.broken)

    def stop(self, finished: bool) -> None:
        """End the workers: after a complete run, each ends at the end of its pipe of tasks; otherwise they are
        sent SIGTERM (a file being written is removed), then SIGKILL after 3 s, and waited for."""
        workers, self.workers = self.workers, []
        for w in workers:
            for fd in (w.tasks, w.results):
                try:
                    os.close(fd)
                except OSError:
                    pass
        if not finished:
            for w in workers:
                _signal_pid(w.pid, signal.SIGTERM)
        for w in workers:
            if not finished and not _reaped(w.pid, 3.0):
                _signal_pid(w.pid, signal.SIGKILL)
            _reaped(w.pid, None)


def _signal_pid(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except OSError:
        pass


def _reaped(pid: int, timeout: float | None) -> bool:
    """Wait for the child ``pid`` to end (at most ``timeout`` seconds; None: as long as it takes); True when it
    has (or is no child of this process any more)."""
    end = None if timeout is None else time.monotonic() + timeout
    delay = 0.001
    while True:
        try:
            done, _status = os.waitpid(pid, 0 if end is None else os.WNOHANG)
        except ChildProcessError:
            return True
        except InterruptedError:
            continue
        if done:
            return True
        if time.monotonic() >= end:
            return False
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def _forked_worker(parent: int, tasks: int, results: int, task: tuple, pickle,
                   warm: Callable[[], Any] | None = None) -> int:
    """A forked worker's life: ``warm()`` first (:func:`prestart`), then each task read from ``tasks`` is run
    (:func:`_guarded_chunk`) and its results written to ``results``; the exit code once ``tasks`` ends (0)."""
    _worker_start(parent)
    if warm is not None:
        try:
            warm()
        except Exception:       # (met again by the work, as an error of the file it concerns)
            pass
    work, args, max_bytes, load, combine = task
    while True:
        head = _read_exactly(tasks, _SIZE)
        if head is None:
            return 0
        recs = pickle.loads(_read_exactly(tasks, int.from_bytes(head, "little")) or b"")
        data = pickle.dumps(_guarded_chunk(work, recs, args, max_bytes, load, combine), pickle.HIGHEST_PROTOCOL)
        view = memoryview(len(data).to_bytes(_SIZE, "little") + data)
        while view:
            view = view[os.write(results, view):]


def _read_exactly(fd: int, n: int) -> bytes | None:
    """``n`` bytes read from ``fd``; None at its end."""
    parts = []
    while n:
        b = os.read(fd, n)
        if not b:
            return None
        parts.append(b)
        n -= len(b)
    return b"".join(parts)


def _stop_pool(pool, finished: bool) -> None:
    """End a pool: after a complete run, let the workers finish and exit; otherwise (an interrupt, an
    error, a caller that stopped reading) cancel what is waiting and kill the workers at once, and wait
    for them to be gone: no worker process outlives the command."""
    if finished:
        pool.shutdown(wait=True, cancel_futures=True)
        return
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for end in ("terminate", "kill"):    # SIGTERM (a file being written is removed), then SIGKILL
        for p in procs:
            try:
                getattr(p, end)()
            except (OSError, ValueError, AttributeError):
                pass
        for p in procs:
            try:
                p.join(3)
            except (OSError, ValueError, AssertionError):
                pass
        procs = [p for p in procs if p.exitcode is None]
    pool.shutdown(wait=True, cancel_futures=True)     # the workers gone, its thread sees a broken pool and ends


def _guarded_chunk(work: Callable[..., Any], chunk: list[Any], args: tuple, max_bytes: int | None,
                   load: Load, combine: Callable[[list[Any]], Any] | None = None) -> list[tuple[str, Any]]:
    """A worker's task: a chunk of files, their values folded by ``combine`` (:func:`combined`).  Ended
    by SIGTERM (:func:`_terminated`), the worker ends here, once the files it was writing are removed
    (the pool would catch the exception and wait for more)."""
    global _IN_TASK
    _IN_TASK = True
    try:
        return combined([guarded(work, e, args, max_bytes, load) for e in chunk], combine)
    except SystemExit as e:
        os._exit(e.code if isinstance(e.code, int) else 1)
    finally:
        _IN_TASK = False


def combined(results: list[tuple[str, Any]], combine: Callable[[list[Any]], Any] | None) -> list[tuple[str, Any]]:
    """``results`` of one task with the values of its "ok" files folded by ``combine`` into the last one
    (the others None); unchanged without ``combine`` or with fewer than two "ok" files."""
    ok = [i for i, (kind, _) in enumerate(results) if kind == "ok"]
    if combine is None or len(ok) < 2:
        return results
    value = combine([results[i][1] for i in ok])
    out = list(results)
    for i in ok[:-1]:
        out[i] = ("ok", None)
    out[ok[-1]] = ("ok", value)
    return out


def _chunks(entries: Iterator[Any], jobs: int = 1, most: int = CHUNK) -> Iterator[tuple[list[Any], list[Any]]]:
    """(entries in order, the records among them for a worker): at most ``most`` records a chunk.
    Standard input (``-``) is read in this process, in its turn.

    The entries are read up to ``2 * most`` records ahead of the chunk being cut, so that the end of the
    input is seen coming: from there on the chunks get smaller (the records left shared out over
    ``2 * jobs`` chunks, down to one record), so that no worker process is left working on a long last
    chunk while the others wait for it."""
    look: deque = deque()                  # entries read and not yet in a chunk
    ahead = 0                              # worker records among them
    it = iter(entries)
    done = False
    while True:
        while not done and ahead < 2 * most:
            e = next(it, None)
            if e is None:
                done = True
                break
            look.append(e)
            ahead += e.status == RECORD and e.path != "-"
        if not look:
            return
        size = most if not done else max(1, min(most, -(-ahead // (2 * jobs))))
        batch: list[Any] = []
        recs: list[Any] = []
        while look and len(recs) < size:
            e = look.popleft()
            batch.append(e)
            if e.status == RECORD and e.path != "-":
                recs.append(e)
        ahead -= len(recs)
        if done and not ahead:             # the entries after the last record go with it
            batch.extend(look)
            look.clear()
        yield batch, recs


def _map_pool(entries: Iterator[Any], work, args, jobs, tick, max_bytes: int | None,
              combine: Callable[[list[Any]], Any] | None, load: Load, most: int = CHUNK, ready: Any = None
              ) -> Iterator[tuple[Any, str, Any]]:
    """The worker processes of :func:`map_records`: chunks of ``most`` records, at most AHEAD chunks per
    worker submitted and not yet yielded (a bounded window, whatever the number of files)."""
    task = (work, args, max_bytes, load, combine)
    if ready is None:
        pool = _new_pool(jobs, task)
    elif ready.task != task:
        raise ValueError("the workers started early were started for another work")
    else:
        pool, jobs = ready, len(ready.workers) or jobs
    chunks = _chunks(entries, jobs, most)
    window: deque = deque()                # (batch, ticket or None): in order
    finished = False
    drained = False            # every chunk taken from ``chunks``
    single = None              # after a worker died: one file at a time, a fresh worker after each death

    def lose() -> None:
        """A worker died: the pool is stopped, and the chunks given to it are run again one file at a time."""
        nonlocal pool, window
        pool.stop(False)
        pool = None
        window = deque((b, None) for b, _ in window)

    def fill() -> None:
        nonlocal drained
        while pool is not None and len(window) < jobs * AHEAD:
            nxt = next(chunks, None)
            if nxt is None:
                drained = True
                return
            batch, recs = nxt
            try:
                window.append((batch, pool.submit(recs) if recs else None))
            except WorkerStopped:
                window.append((batch, None))
                lose()

    try:
        fill()
        while window or pool is None:
            if window:
                batch, ticket = window.popleft()
            else:                              # the pool is gone: the rest one at a time
                nxt = next(chunks, None)
                if nxt is None:
                    break
                batch, ticket = nxt[0], None
            results: list[tuple[str, Any]] | None = None
            if ticket is not None:
                try:
                    results = ticket.result()
                except WorkerStopped:
                    lose()
            # the last results are in: the workers have nothing left to do, and end at the end of their tasks
            # even when the caller takes no item after the last one (a loop that counts its items)
            if results is not None and drained and not window and single is None:
                finished = True
            rit = iter(results) if results is not None else None
            for e in batch:
                if e.status != RECORD:
                    yield e, e.status, e.reason
                    continue
                if e.path == "-":
                    r = guarded(work, e, args, max_bytes, load)
                elif rit is not None:
                    r = next(rit)
                else:
                    try:
                        if single is None:
                            single = _new_pool(1, (work, args, max_bytes, load, None))
                        r = single.submit([e]).result()[0]
                    except WorkerStopped as exc:
                        r = (INTERNAL_ERROR, internal_error_message(exc, Doing.WORKER_STOPPED))
                        single.stop(False)
                        single = None
                tick(e)
                yield e, r[0], r[1]
            fill()
        finished = True
    finally:
        for ex in (pool, single):
            if ex is not None:
                ex.stop(finished)
