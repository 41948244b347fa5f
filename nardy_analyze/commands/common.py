"""What the command bodies share: their end (:class:`Exit`), their messages (:func:`echo`, :func:`fail`,
:func:`echo_messages`), the Dask engine of ``--engine``/``--scheduler`` (:func:`connect`,
:func:`run_job`), SIGTERM, and the output of a table (:func:`emit`).  Imports nothing of typer or click
(see :mod:`nardy_analyze.commands`)."""
from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path
from typing import Any, Callable, Optional

from ..fsio import Progress, write_atomically
from ..i18n import N_, _
from ..safetext import visible

# on standard error when Ctrl-C (SIGINT) stops a command (translated where it is written: _(INTERRUPTED))
INTERRUPTED = N_("nardy-analyze: interrupted")


def _terminate(signum, frame) -> None:
    try:
        sys.stderr.write(_("nardy-analyze: terminated") + "\n")
    except BaseException:                 # (stderr in the middle of a write, or closed)
        pass
    raise SystemExit(128 + signum)


def stop_on_sigterm() -> None:
    """SIGTERM (``kill``, ``timeout``) ends a command as Ctrl-C does, with exit code 143: the worker
    processes are stopped and an output file being written is removed, not left half-written."""
    try:
        signal.signal(signal.SIGTERM, _terminate)
    except (ValueError, OSError):         # not the main thread (a library caller): leave it alone
        pass


class Exit(Exception):
    """The end of a command, with its exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")       # what click.echo takes out of text not sent to a terminal


def echo(message: str, err: bool = False) -> None:
    """One line on standard output (``err``: standard error), flushed, as ``click.echo`` writes it (with
    control characters from the files shown as escapes, as :func:`nardy_analyze.cli` echoes them)."""
    out = visible(message, newlines=True) + "\n"
    f = sys.stderr if err else sys.stdout
    if "\033" in out and not f.isatty():
        out = _ANSI.sub("", out)
    f.write(out)
    f.flush()


Echo = Callable[..., Any]


def fail(msg: str, code: int = 2, echo: Echo = echo) -> None:
    """nardy-analyze: MSG on standard error, and the end of the command with exit ``code``."""
    echo(f"nardy-analyze: {msg}", err=True)
    raise Exit(code)


def connect(engine: Optional[str], scheduler: Optional[str], jobs: Optional[int], echo: Echo = echo):
    """None for the local engine, else a connected cluster.DaskEngine (exit 2 with the reason when it cannot
    be had: Dask not installed, scheduler unreachable, no worker)."""
    if engine is None:
        engine = "dask" if scheduler else "local"
    if engine == "local":
        if scheduler:
            fail(_("--scheduler needs --engine dask (the local engine has no scheduler)"), echo=echo)
        return None
    from ..cluster import ClusterError, connect as dask_connect     # (Dask's part: imported when asked for)
    try:
        return dask_connect(scheduler, jobs)
    except ClusterError as e:
        fail(str(e), echo=echo)


def cluster_failed(e: Exception, echo: Echo = echo) -> None:
    """A Dask cluster that failed during the run: exit 2 with the reason; anything else goes on up."""
    from ..cluster import ClusterError       # (Dask's part: imported when a run failed)

    if isinstance(e, ClusterError):
        fail(str(e), echo=echo)
    raise e


def progress_bar() -> Progress | None:
    """The progress bar of a command on a terminal (None elsewhere); the first run of a version that shows
    one says which core is in use (``cores.first_run_note``)."""
    bar = Progress.on_terminal()
    if bar is not None:
        bar.note = _first_run_note
    return bar


def _first_run_note() -> str | None:
    from ..cores import first_run_note    # (the readers and the engine: asked only when a bar is first shown)
    return first_run_note()


def run_job(job: Callable[..., Any], engine: Optional[str], scheduler: Optional[str], jobs: Optional[int],
            echo: Echo = echo, **kwargs: Any) -> Any:
    """``job(..., jobs=jobs, progress=..., engine=...)`` with a progress bar on a terminal and the engine of
    ``--engine``/``--scheduler`` (closed at the end); a cluster that fails ends the command (exit 2)."""
    cluster = connect(engine, scheduler, jobs, echo=echo)
    bar = progress_bar()
    try:
        return job(jobs=jobs, progress=bar.step if bar else None, engine=cluster, **kwargs)
    except Exception as e:
        cluster_failed(e, echo)
    finally:
        if bar:
            bar.close()
        if cluster is not None:
            cluster.close()


def echo_messages(run, lines: list[str], echo: Echo = echo) -> None:
    """What a run of stats or analyze says on standard error, in this order: the unreadable inputs, the
    findings and notes ``lines``, the wrong arguments, the internal errors."""
    for _, why in run.unreadable:
        echo(f"nardy-analyze: {why}", err=True)
    for line in lines:
        echo(line, err=True)
    for path, why in dict.fromkeys(run.arg_errors):
        echo(f"nardy-analyze: {path}: {why}", err=True)
    for path, why in run.internal_errors:
        echo(f"nardy-analyze: {path}: {why}", err=True)


def check_table_output(fmt: str, output: Optional[Path], plot: Optional[Path], echo: Echo = echo) -> None:
    """The output arguments of a table (stats, analyze): ``--plot`` names a .png or .svg, and parquet is
    not written to a terminal."""
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        fail(_("--plot: {plot}: the file name must end in .png or .svg").format(plot=plot), echo=echo)
    if fmt == "parquet" and output is None and sys.stdout.isatty():
        fail(_("--format parquet writes binary data: give -o FILE or redirect standard output"), echo=echo)


def emit(write: Callable[..., None], output: Optional[Path], binary: bool) -> None:
    """Run ``write(fh, color)`` into ``output`` (written whole or not at all), else into standard output
    (coloured on a terminal unless NO_COLOR is set)."""
    if output is not None:
        write_atomically(output, write, binary=binary)
    elif binary:
        write(sys.stdout.buffer)
        sys.stdout.buffer.flush()
    else:
        write(sys.stdout, bool(sys.stdout.isatty() and not os.environ.get("NO_COLOR")))


def run_exit_code(run) -> int:
    """The exit code of a run of stats or analyze: 2 when an input could not be read or an argument or
    a file was wrong, 1 when some text could not be parsed, else 0."""
    if run.unreadable or run.arg_errors or run.internal_errors:
        return 2
    return 1 if run.problems else 0


def analysis_depth(analyse: bool, plies: Optional[int], echo: Echo = echo, engine_needed: bool = True
                   ) -> Optional[int]:
    """The search depth of ``--analyse [--plies N]`` (None without --analyse); exit 2 when the options are
    wrong, or when the backgammon engine (the analysis extra) is missing and ``engine_needed`` (a command
    that can only analyse backgammon; ``validate`` says it per record instead, since long nardy and Gul bara
    are analysed by the evaluator shipped with the package)."""
    if not analyse:
        if plies is not None:
            fail(_("--plies goes with --analyse"), echo=echo)
        return None
    from ..stats.skill import INSTALL_HINT, engine_available   # (pandas and the engine: only with --analyse)

    if plies is not None and plies > 3:
        fail(_("--plies: at most 3, not {plies}").format(plies=plies), echo=echo)
    if engine_needed and not engine_available():
        # TRANSLATORS: {command} is the pip command line that installs the engine
        fail(_("--analyse needs the bgsage engine: {command}").format(command=install_command(INSTALL_HINT)),
             echo=echo)
    return plies or 0


def install_command(hint: str) -> str:
    """The ``pip install ...`` command line of an optional dependency's message ``hint`` (what follows its
    first ``": "``), to be put into a translated message."""
    return hint.partition(": ")[2] or hint
