"""``nardy-analyze stats``: statistics per player, game or match, folded as the files come."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..engine import RuleSet, UnknownVariant, get_variant
from ..fsio import OutputError
from ..i18n import _
from ..stats import OptionalDependency, parse_aliases, plot as draw, sort_frame, table_columns, write_frame, \
    write_frames
from ..stats.aggregate import Aggregate
from ..statsrun import aggregate
from .common import Echo, Exit, check_table_output, echo, echo_messages, emit, fail, run_exit_code, run_job


def stats(paths: list[str], *, by: str, format: str, output: Optional[Path], alias: list[str],
          sort: Optional[str], variant: str, rule: list[str], plot: Optional[Path], top: int, rules: Optional[str] = None,
          jobs: Optional[int], engine: Optional[str], scheduler: Optional[str], min_severity: str = "warning",
          echo: Echo = echo) -> None:
    """``nardy-analyze stats`` (see the command's --help); raises :class:`~.common.Exit`."""
    try:
        variant = get_variant(variant).name
        options = RuleSet.from_command_line(rule, rules)       # per record's variant, as in validate
        aliases = parse_aliases(alias)
    except (UnknownVariant, ValueError) as e:
        fail(str(e), echo=echo)
    check_table_output(format, output, plot, echo)
    run = run_job(aggregate, engine, scheduler, jobs, echo, paths=paths, by=by, variant=variant, rules=options,
                  aliases=aliases, players=plot is not None)
    with run:
        _output(run, by, format, output, sort, plot, top, paths, echo, min_severity)


def _output(run: Aggregate, by: str, fmt: str, output: Optional[Path], sort: Optional[str],
            plot: Optional[Path], top: int, paths: list[str], echo: Echo, min_severity: str = "warning") -> None:
    """The messages, the table and the exit code of ``stats`` from its aggregate."""
    echo_messages(run, run.problems + (run.warnings if min_severity == "warning" else []), echo)
    if run.empty and not run.files:
        fail(_("no game records found in {paths}").format(paths=", ".join(paths)), echo=echo)
    # --by player is a small table; --by game and match are written as they are read back, a chunk at a
    # time, unless --sort needs every row
    table = run.players() if by == "player" else run.frame() if sort else None
    if sort:
        try:
            table = sort_frame(table, sort)
        except ValueError as e:
            fail(str(e), echo=echo)
    columns = table_columns(by, run.variants)            # the win levels as the variants name them

    def write(fh, color: bool = False) -> None:
        if table is not None:
            write_frame(table, fmt, fh, by, color, columns=columns)
        else:
            write_frames(run.frames(), fmt, fh, by, color, total=run.rows, columns=columns)

    try:
        if plot is not None:
            draw(table if by == "player" else run.players(), str(plot), top)
        emit(write, output, fmt == "parquet")
    except (OptionalDependency, OutputError, ValueError) as e:
        fail(str(e), echo=echo)
    raise Exit(run_exit_code(run))
