"""``nardy-analyze analyze``: the skill analysis of backgammon records (the 'analysis' extra)."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

from ..engine import RuleSet, UnknownVariant, get_variant
from ..fsio import OutputError, write_atomically
from ..stats import OptionalDependency, skill, sort_frame, write_frame
from ..statsrun import alias_table, analyse, decision_frames
from ..i18n import _
from .common import Echo, Exit, check_table_output, cluster_failed, connect, echo, echo_messages, emit, fail, \
    install_command, progress_bar, run_exit_code, run_job


def analyze(paths: list[str], *, by: str, format: str, output: Optional[Path], plies: int, thresholds: str,
            variant: str, rule: list[str], sort: Optional[str], plot: Optional[Path], jobs: Optional[int],
            engine: Optional[str], scheduler: Optional[str], alias: Optional[list[str]] = None,
            min_severity: str = "warning", echo: Echo = echo) -> None:
    """``nardy-analyze analyze`` (see the command's --help); raises :class:`~.common.Exit`."""
    if not skill.engine_available():
        # TRANSLATORS: {command} is the pip command line that installs the engine
        fail(_("analyze needs the bgsage engine: {command}").format(command=install_command(skill.INSTALL_HINT)),
             echo=echo)
    try:
        variant = get_variant(variant).name
        options = RuleSet.from_command_line(rule)
        aliases = alias_table(alias or [])
        levels = tuple(float(x) for x in thresholds.split(","))
        if len(levels) != 3 or not 0 <= levels[0] <= levels[1] <= levels[2]:
            raise ValueError
    except (UnknownVariant, ValueError) as e:
        fail(str(e) if str(e) else _("--thresholds takes three increasing numbers, not {thresholds!r}").format(
            thresholds=thresholds), echo=echo)
    check_table_output(format, output, plot, echo)
    if by == "decision" and not sort and plot is None:    # the table a file at a time: flat memory
        _decisions(paths, format, output, engine, scheduler, jobs, echo, min_severity, dict(
            variant=variant, rules=options, plies=plies, jobs=jobs, thresholds=levels, aliases=aliases))
    run = run_job(analyse, engine, scheduler, jobs, echo, paths=paths, variant=variant, rules=options,
                  plies=plies, thresholds=levels, aliases=aliases)
    echo_messages(run, _messages(run, min_severity), echo)
    if not run.files:
        fail(_("no game records found in {paths}").format(paths=", ".join(paths)), echo=echo)
    table = run.summary(by)
    if sort:
        try:
            table = sort_frame(table, sort)
        except ValueError as e:
            fail(str(e), echo=echo)
    cols = skill.TABLE_COLUMNS[by]
    try:
        if plot is not None:
            skill.plot(run.summary("player"), str(plot))
        emit(lambda fh, color=False: write_frame(table, format, fh, color=color, columns=cols), output,
             format == "parquet")
    except (OptionalDependency, OutputError, ValueError) as e:
        fail(str(e), echo=echo)
    raise Exit(run_exit_code(run))


def _messages(run: skill.Analysis, min_severity: str) -> list[str]:
    """What ``analyze`` says of its records on standard error: the text it could not read, the warnings
    (labelled as validate labels them; left out by ``--min-severity error``) and the notes."""
    return run.problems + (run.warnings if min_severity == "warning" else []) + run.notes


def _decisions(paths: list[str], fmt: str, output: Optional[Path], engine: Optional[str],
               scheduler: Optional[str], jobs: Optional[int], echo: Echo, min_severity: str, options: dict) -> None:
    """``analyze --by decision`` (without --sort or --plot): each file's decisions are written as soon as
    it is analysed, in the order of the inputs (``statsrun.decision_frames``), so memory does not grow with
    the archive; the table format shows the first rows once every file is done.  Raises Exit."""
    cluster = connect(engine, scheduler, jobs, echo=echo)
    run = skill.Analysis()
    tty = output is None and sys.stdout.isatty()
    bar = None if tty and fmt != "table" else progress_bar()     # (rows on the terminal show it)
    cols = skill.TABLE_COLUMNS["decision"]
    frames = decision_frames(run, paths, progress=bar.step if bar else None, engine=cluster, **options)
    color = bool(tty and not os.environ.get("NO_COLOR"))
    try:
        try:
            if output is None:
                fh = sys.stdout.buffer if fmt == "parquet" else sys.stdout
                skill.write_decisions(frames, fmt, fh, color=color, columns=cols, before=bar.close if bar else None)
                fh.flush()
            else:
                write_atomically(output, lambda fh: skill.write_decisions(frames, fmt, fh, columns=cols),
                                 binary=fmt == "parquet")
        finally:
            frames.close()
            if bar:
                bar.close()
            if cluster is not None:
                cluster.close()
    except skill.NoRecords as e:
        echo_messages(run, _messages(run, min_severity), echo)
        fail(str(e), echo=echo)
    except (OptionalDependency, OutputError, ValueError) as e:
        fail(str(e), echo=echo)
    except Exit:
        raise
    except Exception as e:
        cluster_failed(e, echo)
    echo_messages(run, _messages(run, min_severity), echo)
    raise Exit(run_exit_code(run))
