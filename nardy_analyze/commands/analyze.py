"""``nardy-analyze analyze``: the skill analysis of backgammon records (the 'analysis' extra)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..engine import UnknownVariant, get_variant
from ..fsio import OutputError
from ..inputs import parse_rule_options
from ..stats import OptionalDependency, skill, sort_frame, write_frame
from ..statsrun import analyse
from .common import Echo, Exit, check_table_output, echo, echo_messages, emit, fail, run_exit_code, run_job


def analyze(paths: list[str], *, by: str, format: str, output: Optional[Path], plies: int, thresholds: str,
            variant: str, rule: list[str], sort: Optional[str], plot: Optional[Path], jobs: Optional[int],
            engine: Optional[str], scheduler: Optional[str], echo: Echo = echo) -> None:
    """``nardy-analyze analyze`` (see the command's --help); raises :class:`~.common.Exit`."""
    if not skill.engine_available():
        fail(skill.INSTALL_HINT, echo=echo)
    try:
        variant = get_variant(variant).name
        options = parse_rule_options(None, rule)
        levels = tuple(float(x) for x in thresholds.split(","))
        if len(levels) != 3 or not 0 <= levels[0] <= levels[1] <= levels[2]:
            raise ValueError
    except (UnknownVariant, ValueError) as e:
        fail(str(e) if str(e) else f"--thresholds takes three increasing numbers, not {thresholds!r}", echo=echo)
    check_table_output(format, output, plot, echo)
    run = run_job(analyse, engine, scheduler, jobs, echo, paths=paths, variant=variant, rules=options,
                  plies=plies, thresholds=levels)
    echo_messages(run, run.problems + run.notes, echo)
    if not run.files:
        fail("no game records found in " + ", ".join(paths), echo=echo)
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
