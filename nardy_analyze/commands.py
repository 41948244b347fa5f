"""The bodies of the ``validate`` and ``convert`` commands, without the command-line library.

:mod:`nardy_analyze.options` declares the options of these two commands once; :mod:`nardy_analyze.cli`
builds the typer commands (parsing, ``--help``) from that table and calls :func:`validate` or
:func:`convert` here with the values converted.  The module imports
nothing of typer or click, so that :mod:`nardy_analyze.fastcli` can run a plain ``validate`` or ``convert``
command line (the common case of scripts and batch jobs) without importing them: that is most of the
command's start-up.  The output, the messages and the exit codes are the same either way
(tests/test_fastcli.py runs both).

A command ends by raising :class:`Exit` with its exit code; ``echo`` writes one line as ``click.echo``
does (the default, :func:`echo`, is its equivalent for the streams :mod:`nardy_analyze.fastcli` runs with).
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, Optional

from .fsio import OutputError, Progress, write_atomically
from .safetext import visible

INTERRUPTED = "nardy-analyze: interrupted"       # on standard error when Ctrl-C (SIGINT) stops a command


def _terminate(signum, frame) -> None:
    try:
        sys.stderr.write("nardy-analyze: terminated\n")
    except BaseException:                 # (stderr in the middle of a write, or closed)
        pass
    raise SystemExit(128 + signum)


def stop_on_sigterm() -> None:
    """SIGTERM (``kill``, ``timeout``) ends a command as Ctrl-C does, with exit code 143: the worker
    processes are stopped and an output file being written is removed, not left half-written."""
    import signal

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
    echo(f"nardy-analyze: {msg}", err=True)
    raise Exit(code)


def connect(engine: Optional[str], scheduler: Optional[str], jobs: Optional[int], echo: Echo = echo):
    """None for the local engine, else a connected cluster.DaskEngine (exit 2 with the reason when it cannot
    be had: Dask not installed, scheduler unreachable, no worker)."""
    if engine is None:
        engine = "dask" if scheduler else "local"
    if engine == "local":
        if scheduler:
            fail("--scheduler needs --engine dask (the local engine has no scheduler)", echo=echo)
        return None
    from .cluster import ClusterError, connect as dask_connect
    try:
        return dask_connect(scheduler, jobs)
    except ClusterError as e:
        fail(str(e), echo=echo)


def cluster_failed(e: Exception, echo: Echo = echo) -> None:
    """A Dask cluster that failed during the run: exit 2 with the reason; anything else goes on up."""
    from .cluster import ClusterError

    if isinstance(e, ClusterError):
        fail(str(e), echo=echo)
    raise e


def rule_ids(items: list[str], option: str, echo: Echo = echo) -> set[str]:
    from .rules import RULES

    ids = {x.strip() for item in items for x in item.split(",") if x.strip()}
    unknown = sorted(ids - set(RULES))
    if unknown:
        fail(f"{option}: unknown rule id(s) {', '.join(unknown)}; 'nardy-analyze rules' lists them", echo=echo)
    return ids


def analysis_depth(analyse: bool, plies: Optional[int], echo: Echo = echo) -> Optional[int]:
    """The search depth of ``--analyse [--plies N]`` (None without --analyse); exit 2 when the engine (the
    analysis extra) is missing or the options are wrong."""
    if not analyse:
        if plies is not None:
            fail("--plies goes with --analyse", echo=echo)
        return None
    from .stats.skill import INSTALL_HINT, engine_available

    if plies is not None and plies > 3:
        fail(f"--plies: at most 3, not {plies}", echo=echo)
    if not engine_available():
        fail(INSTALL_HINT.replace("analyze needs", "--analyse needs"), echo=echo)
    return plies or 0


def validate(paths: list[str], *, format: str, explain: bool, variant: str, rule: list[str],
             output: Optional[Path], color: Optional[bool], jobs: Optional[int], engine: Optional[str],
             scheduler: Optional[str], select: list[str], ignore: list[str], statistics: bool,
             max_file_size: float, verbose: bool, analyse: bool = False, plies: Optional[int] = None,
             echo: Echo = echo) -> None:
    """``nardy-analyze validate``: every option of :data:`nardy_analyze.options.VALIDATE` (declared and
    defaulted there), converted; raises :class:`Exit`."""
    from .inputs import SKIPPED, UNREADABLE, parse_rule_options
    from .analyze import iter_validate
    from .engine import UnknownVariant, get_variant
    from .report import INTERNAL_ERROR, JsonWriter, RunCounts, SarifWriter, TextWriter, Writer, keep_rules_of

    try:
        variant = get_variant(variant).name
        options = parse_rule_options(None, list(rule))
    except (UnknownVariant, ValueError) as e:
        fail(str(e), echo=echo)
    chosen = rule_ids(list(select), "--select", echo) if select else None
    ignored = rule_ids(list(ignore), "--ignore", echo)
    if output is not None and output.is_dir():      # say so before the work, not after it
        fail(f"cannot write the report to {output}: it is a folder (-o takes a file name)", echo=echo)

    depth = analysis_depth(analyse, plies, echo)
    cluster = connect(engine, scheduler, jobs, echo=echo)
    bar = Progress.on_terminal()
    progress = bar.step if bar else None
    max_bytes = int(max_file_size * 1024 * 1024)
    tty = output is None and sys.stdout.isatty()
    use_color = bool(color if color is not None else (tty and not os.environ.get("NO_COLOR")))

    def run_into(fh, spool_dir: str | None = None) -> RunCounts:
        """Validate, writing the report as each file comes."""
        if format == "html":
            from .report.html import HtmlWriter
            writer: Writer = HtmlWriter(fh, spool_dir, variant, options)
        elif format == "json":
            writer = JsonWriter(fh, explain, spool_dir)
        elif format == "sarif":
            writer = SarifWriter(fh, spool_dir)
        else:
            writer = TextWriter(fh, explain, use_color, verbose, statistics, spool_dir)
        results = iter_validate(paths, variant, options, progress=progress, jobs=jobs, max_bytes=max_bytes,
                                engine=cluster, analyse=depth)
        try:
            for kind, path, value in results:
                if bar and (kind == UNREADABLE or kind == "ok" and (value.findings or value.arg_errors)):
                    bar.close()                    # clear the bar's line before anything is written
                if kind == "ok":
                    if chosen is not None or ignored:
                        keep_rules_of(value, chosen, ignored)
                    for f in value.findings:
                        if f.rule == INTERNAL_ERROR:
                            echo(f"nardy-analyze: {f.path}: {f.message}", err=True)
                    for why in value.arg_errors:
                        echo(f"nardy-analyze: {path}: {why}", err=True)
                    writer.report(value)
                elif kind == SKIPPED:
                    writer.skipped(path, value)
                else:
                    echo(f"nardy-analyze: {value}", err=True)
                    writer.unreadable(path, value)
            if bar:
                bar.close()
            writer.close()
        finally:
            results.close()                        # (interrupted: the worker processes stop now)
            writer.discard()
        return writer.counts

    try:
        if output is None:
            counts = run_into(sys.stdout)
            sys.stdout.flush()
        else:
            box: list[RunCounts] = []
            write_atomically(output, lambda fh: box.append(run_into(fh, str(output.parent))))
            counts = box[0]
    except OutputError as e:
        fail(str(e), echo=echo)
    except BrokenPipeError:                        # the reader went away (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise Exit(141)
    except Exception as e:
        cluster_failed(e, echo)
    finally:
        if bar:
            bar.close()
        if cluster is not None:
            cluster.close()

    if not counts.complete or counts.arg_errors:
        raise Exit(2)
    if not counts.files:
        why = f" ({counts.skipped} file(s) skipped: not game records)" if counts.skipped else ""
        fail("no game records found in " + ", ".join(paths) + why, echo=echo)
    raise Exit(1 if counts.errors else 0)


def convert(paths: list[str], *, to: str, output: Optional[str], out_dir: Optional[str], force: bool,
            lossy: bool, jobs: Optional[int], verbose: bool, analyse: bool = False, plies: Optional[int] = None,
            echo: Echo = echo) -> None:
    """``nardy-analyze convert``: every option of :data:`nardy_analyze.options.CONVERT` (declared and
    defaulted there), converted; raises :class:`Exit`."""
    from .convert import FAILED, REFUSED, SKIPPED, WRITTEN, ConvertError, convert_paths, skipped_summary

    depth = analysis_depth(analyse, plies, echo)
    if depth is not None and to != "sgf":
        fail(f"--analyse writes GNU Backgammon's analysis properties: it needs --to sgf, not --to {to}", echo=echo)
    bar = Progress.on_terminal()
    try:
        run = convert_paths(paths, to, output, out_dir, force, lossy,
                            progress=bar.step if bar else None, jobs=jobs, analyse=depth)
    except ConvertError as e:
        fail(str(e), echo=echo)
    finally:
        if bar:
            bar.close()
    for o in run.outcomes:
        if o.note:
            echo(f"note: {o.note}", err=True)
        if o.warning:
            echo(f"warning: {o.warning} (converted as written)", err=True)
        if o.status == REFUSED:
            echo(f"nardy-analyze: refused {o.source}: {to} cannot hold everything; use --lossy to "
                 "drop it:", err=True)
            for m in o.messages:
                echo(f"  {m}", err=True)
        elif o.status == FAILED:
            for m in o.messages:
                echo(f"nardy-analyze: {m}", err=True)
        elif o.dropped:
            echo(f"{o.source}: --lossy dropped:", err=True)
            for m in o.messages:
                echo(f"  {m}", err=True)
        if verbose and o.status == WRITTEN:
            echo(f"{o.source}: written to {'<stdout>' if o.target == '-' else o.target}", err=True)
        elif verbose and o.status == SKIPPED:
            echo(f"{o.source}: skipped: {o.messages[0] if o.messages else 'not a game record'}", err=True)
    skipped = skipped_summary(run)
    if all(o.status == SKIPPED for o in run.outcomes):          # none at all, or every one skipped
        echo(f"nardy-analyze: no record to convert in {', '.join(paths)}", err=True)
    echo(f"{run.count(WRITTEN)} written, {run.count(REFUSED)} refused, {run.count(FAILED)} failed"
         + (f", {skipped}" + ("" if verbose else "; --verbose lists them") + ")" if skipped else "")
         + f" (to {to})", err=True)
    raise Exit(run.exit_code)
