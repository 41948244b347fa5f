"""The ``nardy-analyze`` command line (typer): thin wrappers over :mod:`nardy_analyze.analyze`."""
from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from . import __version__
from .analyze import parse_rule_options, validate_paths
from .engine import UnknownVariant, get_variant
from .fsio import OutputError, Progress, write_atomically
from .report import write_json, write_sarif, write_statistics, write_text

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Read nardy and backgammon game records, replay every move through a strict rules engine, "
         "and report what breaks the rules.",
)


class Format(str, Enum):
    text = "text"
    json = "json"
    sarif = "sarif"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"nardy-analyze {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit.")) -> None:
    pass


def _fail(msg: str, code: int = 2) -> None:
    typer.echo(f"nardy-analyze: {msg}", err=True)
    raise typer.Exit(code)


@app.command()
def validate(
    paths: list[str] = typer.Argument(..., metavar="PATH...",
                                      help="Record files or folders (searched recursively for .mat/.txt); "
                                           "'-' reads standard input."),
    format: Format = typer.Option(Format.text, "--format", "-f", help="Report as text, one JSON document, or SARIF 2.1.0."),
    explain: bool = typer.Option(False, "--explain", "-e",
                                 help="Show the board and the legal alternatives at each finding."),
    variant: str = typer.Option("backgammon", "--variant",
                                help="Variant when the record does not name one (Variant / Variation tag): "
                                     "backgammon, long, gulbara."),
    rule: list[str] = typer.Option([], "--rule", metavar="[VARIANT:]KEY=VALUE",
                                   help="Rule option when the record's header does not set it "
                                        "(e.g. crawford=off, jacoby=on, cube_limit=64, koks=on, "
                                        "gulbara:chain_from_turn=4). A KEY the record's variant does not have "
                                        "is an error (exit 2); VARIANT: limits it to that variant. Repeatable."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write the report to this file (written whole or not at all)."),
    color: Optional[bool] = typer.Option(None, "--color/--no-color",
                                         help="Colour the text report (default: only on a terminal)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1,
                                       help="Worker processes (default: one per core for 32+ files)."),
    select: list[str] = typer.Option([], "--select", metavar="RULE[,RULE...]",
                                     help="Report only these rule ids (see 'nardy-analyze rules')."),
    ignore: list[str] = typer.Option([], "--ignore", metavar="RULE[,RULE...]",
                                     help="Do not report these rule ids."),
    statistics: bool = typer.Option(False, "--statistics",
                                    help="Text report: count findings per rule instead of listing them."),
) -> None:
    """Validate transcripts: every move replayed against the rules.

    Exit code 0 when no error was found, 1 when a record breaks a rule or cannot be parsed,
    2 when the arguments are wrong or no input could be read.
    """
    try:
        variant = get_variant(variant).name
        options = parse_rule_options(None, rule)
    except (UnknownVariant, ValueError) as e:
        _fail(str(e))
    chosen = _rule_ids(select, "--select") if select else None
    ignored = _rule_ids(ignore, "--ignore")

    bar = Progress.on_terminal()
    progress = bar.step if bar else None
    try:
        run = validate_paths(paths, variant, options, progress=progress, jobs=jobs)
    finally:
        if bar:
            bar.close()
    if chosen is not None or ignored:
        run.keep_rules(chosen, ignored)
    for path, why in run.unreadable:
        typer.echo(f"nardy-analyze: {why}", err=True)
    for path, why in run.arg_errors:
        typer.echo(f"nardy-analyze: {path}: {why}", err=True)

    def render(fh, tty: bool = False) -> None:
        if format == Format.json:
            write_json(run, fh, explain)
        elif format == Format.sarif:
            write_sarif(run, fh)
        elif statistics:
            write_statistics(run, fh)
        else:
            use_color = color if color is not None else (tty and not os.environ.get("NO_COLOR"))
            write_text(run, fh, explain, bool(use_color))

    if output is None:
        render(sys.stdout, sys.stdout.isatty())
    else:
        try:
            write_atomically(output, render)
        except OutputError as e:
            _fail(str(e))

    if run.unreadable or run.arg_errors:
        raise typer.Exit(2)
    if not run.reports:
        _fail("no game records found in " + ", ".join(paths))
    raise typer.Exit(1 if run.summary()["errors"] else 0)


class By(str, Enum):
    player = "player"
    game = "game"
    match = "match"


class StatsFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"
    parquet = "parquet"
    markdown = "markdown"


@app.command()
def stats(
    paths: list[str] = typer.Argument(..., metavar="PATH...",
                                      help="Record files or folders (searched recursively for .mat/.txt); "
                                           "'-' reads standard input."),
    by: By = typer.Option(By.player, "--by", "-b", help="One row per player, per player per game, or per match."),
    format: StatsFormat = typer.Option(StatsFormat.table, "--format", "-f",
                                       help="A table (main columns), or every column as csv, json, parquet "
                                            "(needs the 'parquet' extra) or markdown."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write to this file (written whole or not at all)."),
    alias: list[str] = typer.Option([], "--alias", metavar="NAME=CANONICAL",
                                    help="Count NAME as CANONICAL (names are compared without case, blanks and "
                                         "a ',1673' rating suffix). Repeatable."),
    sort: Optional[str] = typer.Option(None, "--sort", metavar="COLUMN",
                                       help="Sort by COLUMN: numbers largest first, names A-Z."),
    variant: str = typer.Option("backgammon", "--variant", help="Variant when the record does not name one."),
    rule: list[str] = typer.Option([], "--rule", metavar="KEY=VALUE",
                                   help="Rule option when the record's header does not set it. Repeatable."),
    plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE.png|FILE.svg",
                                        help="Also draw, per player, the dice against fair dice, the doubles rate "
                                             "and points per game (needs the 'plot' extra)."),
    top: int = typer.Option(8, "--top", min=1, help="Players drawn by --plot (those with most games)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1,
                                       help="Worker processes (default: one per core for 32+ files)."),
) -> None:
    """Statistics per player, game or match: rolls, doubles, hits, pips, cube, results, points.

    Columns, dtypes and how resignations, drops and illegal plays count: docs/stats.md.

    Exit code 0 when every file was read whole, 1 when some text could not be parsed (the rest is
    counted), 2 when the arguments are wrong, a path cannot be read or no record was found.
    """
    from . import stats as st

    try:
        variant = get_variant(variant).name
        options = parse_rule_options(None, rule)       # per record's variant, as in validate
        aliases = st.parse_aliases(alias)
    except (UnknownVariant, ValueError) as e:
        _fail(str(e))
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        _fail(f"--plot: {plot}: the file name must end in .png or .svg")
    if format == StatsFormat.parquet and output is None and sys.stdout.isatty():
        _fail("--format parquet writes binary data: give -o FILE or redirect standard output")
    bar = Progress.on_terminal()
    try:
        run = st.scan(paths, variant=variant, rules=options, aliases=aliases, jobs=jobs,
                      progress=bar.step if bar else None)
    finally:
        if bar:
            bar.close()
    for _, why in run.unreadable:
        typer.echo(f"nardy-analyze: {why}", err=True)
    for line in run.problems + run.warnings:
        typer.echo(line, err=True)
    for path, why in dict.fromkeys(run.arg_errors):
        typer.echo(f"nardy-analyze: {path}: {why}", err=True)
    if run.games.empty and not run.files:
        _fail("no game records found in " + ", ".join(paths))
    table = st.frame(by.value, run.games)
    if sort:
        try:
            table = st.sort_frame(table, sort)
        except ValueError as e:
            _fail(str(e))
    fmt = format.value
    binary = fmt == "parquet"
    try:
        if plot is not None:
            st.plot(table if by == By.player else st.players(run.games), str(plot))
        if output is None:
            if binary:
                st.write_frame(table, fmt, sys.stdout.buffer, by.value)
                sys.stdout.buffer.flush()
            else:
                tty = sys.stdout.isatty()
                st.write_frame(table, fmt, sys.stdout, by.value, bool(tty and not os.environ.get("NO_COLOR")))
        else:
            write_atomically(output, lambda fh: st.write_frame(table, fmt, fh, by.value), binary=binary)
    except (st.OptionalDependency, OutputError, ValueError) as e:
        _fail(str(e))
    if run.unreadable or run.arg_errors:
        raise typer.Exit(2)
    raise typer.Exit(1 if run.problems else 0)


def _rule_ids(items: list[str], option: str) -> set[str]:
    from .rules import RULES

    ids = {x.strip() for item in items for x in item.split(",") if x.strip()}
    unknown = sorted(ids - set(RULES))
    if unknown:
        _fail(f"{option}: unknown rule id(s) {', '.join(unknown)}; 'nardy-analyze rules' lists them")
    return ids


@app.command("rules")
def rules_cmd() -> None:
    """List the rule ids that findings name, with what each means."""
    from .rules import CHECKED, RULES, VARIANTS

    width = max(map(len, RULES))
    for rid, text in RULES.items():
        mark = " " if rid in CHECKED else "*"
        where = f" [{VARIANTS[rid]}]" if rid in VARIANTS else ""
        typer.echo(f"{rid:<{width}} {mark} {text}{where}")
    if any(r not in CHECKED for r in RULES):
        typer.echo("\n* planned: not checked yet")


def run() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("nardy-analyze: interrupted\n")
        sys.exit(130)
