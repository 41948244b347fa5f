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
from .notation import record_suffixes
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
                                      help="Record files or folders (searched recursively for "
                                           f"{', '.join(record_suffixes())} files; a .txt is read when "
                                           "it looks like a record); '-' reads standard input."),
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
    max_file_size: float = typer.Option(64, "--max-file-size", metavar="MIB", min=0.001,
                                        help="Largest file read, in MiB; a larger one is reported as "
                                             "unreadable (exit 2) and the others are still validated."),
    verbose: bool = typer.Option(False, "--verbose", "-v",
                                 help="Text report: list every input: each record read and each file "
                                      "skipped, with the reason."),
) -> None:
    """Validate transcripts: every move replayed against the rules.

    Every input is accounted for: a record (with its findings), a file skipped with the reason (a .txt that is no game record; counted in the summary, listed with --verbose) or a path that could not be read (listed, with the reason).

    Exit code 0 when no error was found; 1 when a record breaks a rule or cannot be parsed; 2 when something could not be read or checked (a path that cannot be read, an internal error: the other files are still validated and reported), when no record was found, or when the arguments or the output file are wrong.
    """
    try:
        variant = get_variant(variant).name
        options = parse_rule_options(None, rule)
    except (UnknownVariant, ValueError) as e:
        _fail(str(e))
    chosen = _rule_ids(select, "--select") if select else None
    ignored = _rule_ids(ignore, "--ignore")
    if output is not None and output.is_dir():      # say so before the work, not after it
        _fail(f"cannot write the report to {output}: it is a folder (-o takes a file name)")

    bar = Progress.on_terminal()
    progress = bar.step if bar else None
    try:
        run = validate_paths(paths, variant, options, progress=progress, jobs=jobs,
                             max_bytes=int(max_file_size * 1024 * 1024), events=False)
    finally:
        if bar:
            bar.close()
    if chosen is not None or ignored:
        run.keep_rules(chosen, ignored)
    for path, why in run.unreadable:
        typer.echo(f"nardy-analyze: {why}", err=True)
    for f in run.findings:
        if f.rule == "internal-error":
            typer.echo(f"nardy-analyze: {f.path}: {f.message}", err=True)
    for path, why in run.arg_errors:
        typer.echo(f"nardy-analyze: {path}: {why}", err=True)

    def render(fh, tty: bool = False) -> None:
        if format == Format.json:
            write_json(run, fh, explain)
        elif format == Format.sarif:
            write_sarif(run, fh)
        elif statistics:
            write_statistics(run, fh, verbose)
        else:
            use_color = color if color is not None else (tty and not os.environ.get("NO_COLOR"))
            write_text(run, fh, explain, bool(use_color), verbose)

    if output is None:
        render(sys.stdout, sys.stdout.isatty())
    else:
        try:
            write_atomically(output, render)
        except OutputError as e:
            _fail(str(e))

    if not run.complete or run.arg_errors:
        raise typer.Exit(2)
    if not run.reports:
        why = f" ({len(run.skipped)} file(s) skipped: not game records)" if run.skipped else ""
        _fail("no game records found in " + ", ".join(paths) + why)
    raise typer.Exit(1 if run.summary()["errors"] else 0)


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
