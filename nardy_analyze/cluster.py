"""``--engine dask``: the per-file work of ``validate`` and ``stats`` on a Dask cluster.

    from nardy_analyze.cluster import connect
    with connect("tcp://10.0.0.5:8786") as engine:        # or connect(None, jobs=2): a LocalCluster
        run = validate_paths(["archive/"], engine=engine)

The files are discovered on this machine (``inputs.discover``, exactly as locally); the record files
are cut into batches and ``client.map`` runs the same per-file error boundary as the local path
(``runner.guarded``) on the workers; the results come back in the order of the files, a bounded
number of batches ahead.  ``stats`` folds each batch's files into one partial aggregate on the worker
(per player, the match rows, the game rows of ``--by game``; ``stats.Partial``), and this machine
combines the partials in the order of the files, as it does the local workers' chunks: the output is
the same, byte for byte.

The workers read the files themselves: every record must be at the same absolute path on every worker
(one machine, or a shared file system); the path shown in reports is the one given, as locally.
Standard input (``-``) is read and checked on this machine.  The workers need the same version of
nardy-analyze installed (it is checked before any work).

The messages made on the workers (the findings) are in the language of this machine's command: it goes
with every task (a worker may be another machine, with another locale).

Dask is an optional dependency (the ``dask`` extra); without it :func:`connect` raises
:class:`ClusterError` naming ``pip install 'nardy-analyze[dask]'``.
"""
from __future__ import annotations

import dataclasses
import logging
import math
import os
from collections import deque
from typing import Any, Callable, Iterable, Iterator

from . import __version__, i18n
from .i18n import _
from .report import INTERNAL_ERROR
from .inputs import RECORD
from .runner import Doing, Load, combined, guarded, internal_error_message

INSTALL_HINT = "pip install 'nardy-analyze[dask]'"
CONNECT_TIMEOUT = 10.0          # seconds to reach the scheduler and to see a first worker
MAX_BATCH = 16                  # files per task at most
AHEAD = 4                       # batches in flight per worker thread


class ClusterError(Exception):
    """The cluster cannot be used or failed: Dask missing, scheduler unreachable, no worker, workers
    without nardy-analyze or without the files.  The message says what to do."""


def _modules():
    """dask.distributed."""
    try:
        import dask                 # noqa: F401
        import distributed          # (the 'dask' extra: imported when asked for)
    except ImportError as e:
        raise ClusterError(_("--engine dask needs Dask (dask.distributed), which cannot be imported here "
                             "({error}); install it with: {command}").format(error=e, command=INSTALL_HINT)) from None
    return distributed


def _timeout() -> float:
    """The connect timeout: :data:`CONNECT_TIMEOUT`, or ``NARDY_ANALYZE_DASK_TIMEOUT`` seconds."""
    try:
        return float(os.environ.get("NARDY_ANALYZE_DASK_TIMEOUT", CONNECT_TIMEOUT))
    except ValueError:
        return CONNECT_TIMEOUT


def _worker_probe(paths: list[str]) -> tuple[str, list[bool]]:
    """Run on every worker: the nardy-analyze version there and which of ``paths`` it can see."""
    from nardy_analyze import __version__ as v     # (the version installed on the worker, read there)
    return v, [os.path.exists(p) for p in paths]


class DaskEngine:
    """A connected Dask client (and the LocalCluster it started, if any).  A context manager."""

    def __init__(self, client, cluster=None, address: str = "") -> None:
        self.client = client
        self.cluster = cluster
        self.address = address

    def __enter__(self) -> "DaskEngine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()

    @property
    def threads(self) -> int:
        """Worker threads on the cluster now (at least 1)."""
        try:
            workers = self.client.scheduler_info(n_workers=-1)["workers"]
        except TypeError:             # older distributed: no n_workers argument
            workers = self.client.scheduler_info()["workers"]
        return max(1, sum(w.get("nthreads", 1) for w in workers.values()))

    def map_records(self, entries: Iterable, work: Callable[..., Any], args: tuple,
                    tick: Callable[[Any], None], max_bytes: int | None,
                    combine: Callable[[list[Any]], Any] | None, load: Load) -> Iterator[tuple[Any, str, Any]]:
        """``runner.map_records`` on this cluster (it calls this for ``engine=`` a DaskEngine): the records
        in batches on the workers, each file inside the same error boundary, the results in order;
        ``combine``: each batch's values folded into one on its worker (``stats``: a partial aggregate)."""
        return iter(Mapping(self, list(entries), work, args, tick, max_bytes, combine, load))

    def check(self, paths: list[str]) -> None:
        """ClusterError unless every worker runs this version of nardy-analyze and sees ``paths``."""
        try:
            info = self.client.run(_worker_probe, paths)
        except Exception as e:
            raise ClusterError(_("the Dask workers at {address} cannot run nardy-analyze ({error}); install "
                                 "nardy-analyze {version} on every worker").format(
                address=self.address, error=f"{type(e).__name__}: {e}", version=__version__)) from None
        for worker, (version, seen) in sorted(info.items()):
            if version != __version__:
                raise ClusterError(_("the Dask worker {worker} runs nardy-analyze {version}, this is {ours}: "
                                     "install the same version on every worker").format(
                    worker=worker, version=version, ours=__version__))
            missing = [p for p, ok in zip(paths, seen) if not ok]
            if missing:
                raise ClusterError(_("the Dask worker {worker} cannot see {path}: --engine dask needs the files at "
                                     "the same absolute path on every worker (a shared file system)").format(
                    worker=worker, path=missing[0]))


def connect(scheduler: str | None = None, jobs: int | None = None) -> DaskEngine:
    """A :class:`DaskEngine`: connected to the scheduler at ``scheduler`` (``tcp://host:8786``, ``host:8786``),
    or, when it is None, to a new LocalCluster of ``jobs`` worker processes (default: one per core, at most 8)
    of one thread each on this machine.  ClusterError when Dask is missing or the scheduler cannot be
    reached within :data:`CONNECT_TIMEOUT` seconds (``NARDY_ANALYZE_DASK_TIMEOUT`` changes it).
    """
    distributed = _modules()
    timeout = _timeout()
    for name in ("distributed", "distributed.client", "distributed.comm", "distributed.core",
                 "distributed.worker", "distributed.nanny", "distributed.scheduler"):
        logging.getLogger(name).setLevel(logging.CRITICAL)     # failures are reported by us, once
    if scheduler is None:
        n = jobs or min(os.cpu_count() or 1, 8)
        try:
            cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                               dashboard_address=":0", silence_logs=logging.CRITICAL)
        except Exception as e:
            raise ClusterError(_("cannot start a local Dask cluster of {n} worker processes ({error})").format(
                n=n, error=f"{type(e).__name__}: {e}")) from None
        try:
            client = distributed.Client(cluster, timeout=timeout)
        except Exception as e:
            cluster.close()
            raise ClusterError(_("cannot connect to the local Dask cluster ({error})").format(
                error=f"{type(e).__name__}: {e}")) from None
        return DaskEngine(client, cluster, cluster.scheduler_address)
    address = scheduler.strip()
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except Exception as e:
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ClusterError(_("cannot reach the Dask scheduler at {scheduler} within {timeout} s ({error}); is "
                             "'dask scheduler' running there, and is the address (tcp://HOST:PORT) right?").format(
            scheduler=scheduler, timeout=f"{timeout:g}", error=why)) from None
    engine = DaskEngine(client, None, address)
    try:
        client.wait_for_workers(1, timeout=timeout)
    except Exception:
        engine.close()
        raise ClusterError(_("the Dask scheduler at {scheduler} has no worker (waited {timeout} s): start one "
                             "with 'dask worker {address}' where nardy-analyze {version} is installed").format(
            scheduler=scheduler, timeout=f"{timeout:g}", address=address, version=__version__)) from None
    return engine


# ----------------------------------------------------------------------------------------- worker side

def _run_batch(batch: list, work: Callable[..., Any], args: tuple, max_bytes: int | None, load: Load,
               combine: Callable[[list[Any]], Any] | None = None, lang: str | None = None
               ) -> list[tuple[str, Any]]:
    """On a worker: the per-file error boundary of the local path over a batch of entries, in order; with
    ``combine``, the batch's values folded into one there (``runner.combined``: a partial aggregate); the
    messages in ``lang``, the language of the command that sent the batch (None: the worker's own)."""
    if lang is not None and os.environ.get(i18n.ENV) != lang:
        i18n.set_language(lang)
    return combined([guarded(work, e, args, max_bytes, load) for e in batch], combine)


# ----------------------------------------------------------------------------------------- client side

def _units(entries: list, threads: int) -> list[tuple[bool, list]]:
    """The records cut into units in their order: (True, batch) for a batch of at most :data:`MAX_BATCH`
    files run on the workers (at least four batches per worker thread when there are enough files), and
    (False, [entry]) for standard input, which is read and run here."""
    records = [e for e in entries if e.status == RECORD]
    remote = sum(e.path != "-" for e in records)
    size = max(1, min(MAX_BATCH, math.ceil(remote / (threads * 4)))) if remote else 1
    units: list[tuple[bool, list]] = []
    for e in records:
        if e.path == "-":
            units.append((False, [e]))
        elif units and units[-1][0] and len(units[-1][1]) < size:
            units[-1][1].append(e)
        else:
            units.append((True, [e]))
    return units


def _killed(exc: BaseException) -> bool:
    return type(exc).__name__ == "KilledWorker"


def _wire(e):
    """The entry as a worker reads it: by its absolute path (the worker's folder may be another)."""
    source = os.path.abspath(e.path)
    return e if source == e.path else dataclasses.replace(e, source=source)


class Mapping:
    """The results of one ``map_records`` run on the cluster.  Iterate it for ``(entry, kind, value)`` in
    the order of the entries; with ``combine``, each batch's values come folded into one on its worker
    (see ``runner.map_records``)."""

    def __init__(self, engine: DaskEngine, entries: list, work: Callable[..., Any], args: tuple,
                 tick: Callable[[Any], None], max_bytes: int | None,
                 combine: Callable[[list[Any]], Any] | None, load: Load) -> None:
        self.engine, self.entries, self.work, self.args = engine, entries, work, args
        self.tick, self.max_bytes, self.combine, self.load = tick, max_bytes, combine, load

    def _fail(self, exc: BaseException) -> ClusterError:
        return ClusterError(_("the Dask cluster at {address} failed: {error}").format(
            address=self.engine.address, error=f"{type(exc).__name__}: {exc}"))

    def __iter__(self) -> Iterator[tuple[Any, str, Any]]:
        client = self.engine.client
        remote = [e for e in self.entries if e.status == RECORD and e.path != "-"]
        threads = 1
        if remote:
            self.engine.check([os.path.abspath(remote[0].path)])
            threads = self.engine.threads
        units = _units(self.entries, threads)
        lang = i18n.language()            # (the workers' messages: in this command's language)
        window = max(2, AHEAD * threads)
        pending: dict[int, Any] = {}      # unit index -> future of its results
        nxt = 0                           # next unit to submit
        cur = 0                           # next unit to consume

        def submit() -> None:
            nonlocal nxt
            while nxt < len(units) and len(pending) < window:
                on_workers, batch = units[nxt]
                if on_workers:
                    pending[nxt] = client.submit(_run_batch, [_wire(e) for e in batch], self.work, self.args,
                                                 self.max_bytes, self.load, self.combine, lang, pure=False)
                nxt += 1

        queue: deque = deque()            # results of the current unit, in order
        for e in self.entries:
            if e.status != RECORD:
                yield e, e.status, e.reason
                continue
            if not queue:
                submit()
                on_workers, batch = units[cur]
                if on_workers:
                    out = self._gather(batch, pending.pop(cur), lang)
                else:
                    out = [guarded(self.work, batch[0], self.args, self.max_bytes, self.load)]
                queue.extend(out)
                cur += 1
                submit()
            kind, value = queue.popleft()
            self.tick(e)
            yield e, kind, value

    def _gather(self, batch: list, future, lang: str | None = None) -> list[tuple[str, Any]]:
        try:
            return future.result()
        except Exception as exc:
            if not _killed(exc):
                raise self._fail(exc) from None
        # a worker died on this batch (killed, out of memory) again and again: one file at a time
        out: list[tuple[str, Any]] = []
        for e in batch:
            f = self.engine.client.submit(_run_batch, [_wire(e)], self.work, self.args, self.max_bytes,
                                          self.load, None, lang, pure=False, retries=0)
            try:
                out.extend(f.result())
            except Exception as exc:
                if not _killed(exc):
                    raise self._fail(exc) from None
                out.append((INTERNAL_ERROR, internal_error_message(
                    exc, Doing.DASK_WORKER_STOPPED)))
        return out
