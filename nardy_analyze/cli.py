"""The ``nardy-analyze`` command line (typer): thin wrappers over :mod:`nardy_analyze.analyze`."""
from __future__ import annotations

import inspect
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from . import GC_THRESHOLD, __version__
from .fsio import OutputError, Progress, write_atomically
from .notation import record_suffixes     # (the notation modules themselves load when a command reads)
from .options import CONVERT, ENGINE_HELP, ENGINES, REQUIRED, SCHEDULER_HELP, VALIDATE, Command, Opt

# The readers, the engine and the reports are imported inside the commands that use them, so that
# --help and a command's start-up do not pay for what they do not run.

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Read nardy and backgammon game records, replay every move through a strict rules engine, "
         "and report what breaks the rules.",
)


def _enum(name: str, values: tuple[str, ...]) -> type[Enum]:
    """A str Enum of ``values`` (typer's way to a list of values and its ``--help``)."""
    return Enum(name, [(v, v) for v in values], type=str)


Engine = _enum("Engine", ENGINES)


def _connect(engine: Optional[Engine], scheduler: Optional[str], jobs: Optional[int]):
    """None for the local engine, else a connected cluster.DaskEngine (exit 2 with the reason when it cannot
    be had: Dask not installed, scheduler unreachable, no worker)."""
    from . import commands

    return _typer_exit(commands.connect, engine.value if engine is not None else None, scheduler, jobs)


def _echo(message: str, err: bool = False) -> None:
    """typer.echo, with control characters from the files shown as escapes (nardy_analyze.safetext)."""
    from .safetext import visible

    typer.echo(visible(message, newlines=True), err=err)


def _echo_messages(run, lines: list[str]) -> None:
    """What a run of stats or analyze says on standard error, in this order: the unreadable inputs, the
    findings and notes ``lines``, the wrong arguments, the internal errors (control characters escaped)."""
    for _, why in run.unreadable:
        _echo(f"nardy-analyze: {why}", err=True)
    for line in lines:
        _echo(line, err=True)
    for path, why in dict.fromkeys(run.arg_errors):
        _echo(f"nardy-analyze: {path}: {why}", err=True)
    for path, why in run.internal_errors:
        _echo(f"nardy-analyze: {path}: {why}", err=True)


def _interruptible(command):
    """A command stopped by Ctrl-C (SIGINT) says so on standard error and exits 130 (its worker processes
    are stopped, its output file not written: see analyze.map_records and fsio.write_atomically)."""
    import functools

    @functools.wraps(command)
    def run_command(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            from .commands import INTERRUPTED

            typer.echo(INTERRUPTED, err=True)
            raise typer.Exit(130) from None

    return run_command


def _typer_exit(body, *args, **kwargs):
    """Run a command body of :mod:`nardy_analyze.commands` with typer's echo; its Exit becomes typer's."""
    from .commands import Exit

    try:
        return body(*args, echo=_echo, **kwargs)
    except Exit as e:
        raise typer.Exit(e.code) from None


def _version(value: bool) -> None:
    if value:
        typer.echo(f"nardy-analyze {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit.")) -> None:
    pass


def _fail(msg: str, code: int = 2) -> None:
    """nardy-analyze: MSG on standard error, exit ``code`` (:func:`nardy_analyze.commands.fail`)."""
    from . import commands

    _typer_exit(commands.fail, msg, code)


def _typer_option(o: Opt) -> tuple[object, object]:
    """(annotation, typer.Option) of an option of the table in :mod:`nardy_analyze.options`."""
    flags = ("/".join(o.flags),) if o.kind == "switch" else o.flags
    extra = {"metavar": o.metavar} if o.metavar else {}
    if o.min is not None:
        extra["min"] = o.min
    if o.kind == "choice":
        kind = _ENUMS.get(o.enum) or _ENUMS.setdefault(o.enum, _enum(o.enum, o.choices))
        annotation = kind if o.default is not None else Optional[kind]
        default = o.default if o.default in (None, REQUIRED) else kind(o.default)
        return annotation, typer.Option(default, *flags, help=o.help, **extra)
    if o.kind == "many":
        return list[str], typer.Option([], *flags, help=o.help, **extra)
    kind = {"flag": bool, "switch": bool, "str": str, "path": Path, "int": int, "float": float}[o.kind]
    return (kind if o.default is not None else Optional[kind]), typer.Option(o.default, *flags, help=o.help,
                                                                                **extra)


_ENUMS: dict[str, type[Enum]] = {"Engine": Engine}


def _declare(spec: Command) -> None:
    """Add the typer command of ``spec`` (its options from the table), running the body of the same name
    in :mod:`nardy_analyze.commands` with the values converted."""
    params = [inspect.Parameter(spec.argument, inspect.Parameter.KEYWORD_ONLY, annotation=list[str],
                                default=typer.Argument(..., metavar=spec.metavar, help=spec.argument_help.format(
                                    suffixes=", ".join(record_suffixes()))))]
    for o in spec.options:
        annotation, default = _typer_option(o)
        params.append(inspect.Parameter(o.param, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                                        default=default))

    def command(**kwargs) -> None:
        from . import commands

        values = {k: v.value if isinstance(v, Enum) else v for k, v in kwargs.items()}
        _typer_exit(getattr(commands, spec.name), **values)

    command.__signature__ = inspect.Signature(params)
    command.__annotations__ = {p.name: p.annotation for p in params}
    command.__doc__ = spec.doc
    command.__name__ = command.__qualname__ = spec.name
    app.command(spec.name)(_interruptible(command))


_declare(VALIDATE)
_declare(CONVERT)


class ShowAs(str, Enum):
    text = "text"
    gnubg = "gnubg"
    xgid = "xgid"
    svg = "svg"
    html = "html"


@app.command()
@_interruptible
def show(
    path: str = typer.Argument(..., metavar="FILE",
                               help="A record (.mat/.txt, .sgf, .json, .ngn); '-' reads standard input."),
    game: Optional[int] = typer.Option(None, "--game", "-g", min=1, help="Game number (order in the file; default the last)."),
    move: Optional[int] = typer.Option(None, "--move", "-m", min=1,
                                       help="The position before the game's M-th roll (1 = the opening roll); "
                                            "default: the game's final position."),
    as_: ShowAs = typer.Option(ShowAs.text, "--as", help="text diagram (with the IDs), gnubg "
                                                          "'PositionID:MatchID', XGID, an SVG board, or html: "
                                                          "one self-contained page that replays every game "
                                                          "(--game/--move: the position it opens at)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="FILE",
                                          help="Write to FILE (whole or not at all) instead of standard output."),
) -> None:
    """Print the position before a move: diagram, GNU Backgammon Position/Match ID, XGID or SVG; or
    replay the whole record on a board in one HTML page (--as html)."""
    from . import notation
    from .report import show as shows
    from .inputs import InputError, read_bytes

    if output is not None and output.is_dir():
        _fail(f"cannot write to {output}: it is a folder (-o takes a file name)")
    try:
        data = read_bytes(path)
    except InputError as e:
        _fail(str(e))
    match = notation.read_bytes(data, "<stdin>" if path == "-" else path)
    for p in (match.problems + [q for g in match.games for q in g.problems])[:1]:
        _echo(f"warning: {match.path}:{p.loc}: {p.message}", err=True)

    def emit(text: str) -> None:
        from .safetext import visible

        text = visible(text, newlines=True)
        if output is None:
            typer.echo(text, nl=not text.endswith("\n"))
            return
        try:
            write_atomically(output, lambda fh: fh.write(text if text.endswith("\n") else text + "\n"))
        except OutputError as e:
            _fail(str(e))

    if as_ == ShowAs.html:
        from .report.replayer import page

        if game is not None or move is not None:
            try:
                shows.pick(match, game, move)
            except LookupError as e:
                _fail(f"{match.path}: {e}")
        emit(page(match, start=(game, move)))
        return
    try:
        snap = shows.pick(match, game, move)
    except LookupError as e:
        _fail(f"{match.path}: {e}")
    render = {ShowAs.text: shows.as_text, ShowAs.gnubg: shows.as_gnubg, ShowAs.xgid: shows.as_xgid,
              ShowAs.svg: shows.as_svg}[as_]
    try:
        text = render(snap)
    except shows.NotBackgammon as e:
        _fail(f"{match.path}: {e}")
    emit(text)


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
@_interruptible
def stats(
    paths: list[str] = typer.Argument(..., metavar="PATH...",
                                      help="Record files or folders (searched recursively for "
                                           f"{', '.join(record_suffixes())} files); '-' reads standard input."),
    by: By = typer.Option(By.player, "--by", "-b", help="One row per player, per player per game, or per match."),
    format: StatsFormat = typer.Option(StatsFormat.table, "--format", "-f",
                                       help="A table (main columns; --by game and match: the first 1,000 rows), "
                                            "or every column and row as csv, json, parquet (needs the 'parquet' "
                                            "extra) or markdown."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write to this file (written whole or not at all)."),
    alias: list[str] = typer.Option([], "--alias", metavar="NAME=CANONICAL",
                                    help="Count NAME as CANONICAL (names are compared without case, blanks and "
                                         "a ',1673' rating suffix). Repeatable."),
    sort: Optional[str] = typer.Option(None, "--sort", metavar="COLUMN",
                                       help="Sort by COLUMN: numbers largest first, names A-Z (--by game and "
                                            "match: holds every row in memory)."),
    variant: str = typer.Option("backgammon", "--variant", help="Variant when the record does not name one."),
    rule: list[str] = typer.Option([], "--rule", metavar="[VARIANT:]KEY=VALUE",
                                   help="Rule option when the record's header does not set it, as in validate "
                                        "(e.g. jacoby=on, long:koks=on). A KEY the record's variant does not "
                                        "have is an error (exit 2); VARIANT: limits it to that variant. "
                                        "Repeatable."),
    plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE.png|FILE.svg",
                                        help="Also draw, per player, the dice against fair dice, the doubles rate "
                                             "and points per game (needs the 'plot' extra)."),
    top: int = typer.Option(8, "--top", min=1, help="Players drawn by --plot (those with most games)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1,
                                       help="Worker processes (default: one per core for 32+ files)."),
    engine: Optional[Engine] = typer.Option(None, "--engine", help=ENGINE_HELP + " [default: local]"),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP),
) -> None:
    """Statistics per player, game or match: rolls, doubles, hits, pips, cube, results, points.

    Columns, dtypes and how resignations, drops and illegal plays count: docs/stats.md.

    Exit code 0 when every file was read whole, 1 when some text could not be parsed (the rest is
    counted), 2 when the arguments are wrong, a path cannot be read or no record was found.
    """
    from . import stats as st
    from .inputs import parse_rule_options
    from .engine import UnknownVariant, get_variant

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
    from .stats.aggregate import aggregate

    cluster = _connect(engine, scheduler, jobs)
    bar = Progress.on_terminal()
    try:
        run = aggregate(paths, by.value, variant=variant, rules=options, aliases=aliases, jobs=jobs,
                        progress=bar.step if bar else None, engine=cluster, players=plot is not None)
    except Exception as e:
        _cluster_failed(e)
    finally:
        if bar:
            bar.close()
        if cluster is not None:
            cluster.close()
    with run:
        _stats_output(run, by.value, format.value, output, sort, plot, top, paths)


def _stats_output(run, by: str, fmt: str, output: Optional[Path], sort: Optional[str], plot: Optional[Path],
                  top: int, paths: list[str]) -> None:
    """The messages, the table and the exit code of ``stats`` from its aggregate (nardy_analyze.stats.aggregate)."""
    from . import stats as st

    _echo_messages(run, run.problems + run.warnings)
    if run.empty and not run.files:
        _fail("no game records found in " + ", ".join(paths))
    # --by player is a small table; --by game and match are written as they are read back, a chunk at a
    # time, unless --sort needs every row
    table = run.players() if by == "player" else run.frame() if sort else None
    if sort:
        try:
            table = st.sort_frame(table, sort)
        except ValueError as e:
            _fail(str(e))
    binary = fmt == "parquet"
    columns = st.table_columns(by, run.variants)            # the win levels as the variants name them

    def write(fh, color: bool = False) -> None:
        if table is not None:
            st.write_frame(table, fmt, fh, by, color, columns=columns)
        else:
            st.write_frames(run.frames(), fmt, fh, by, color, total=run.rows, columns=columns)

    try:
        if plot is not None:
            st.plot(table if by == "player" else run.players(), str(plot), top)
        if output is None:
            if binary:
                write(sys.stdout.buffer)
                sys.stdout.buffer.flush()
            else:
                tty = sys.stdout.isatty()
                write(sys.stdout, bool(tty and not os.environ.get("NO_COLOR")))
        else:
            write_atomically(output, write, binary=binary)
    except (st.OptionalDependency, OutputError, ValueError) as e:
        _fail(str(e))
    if run.unreadable or run.arg_errors or run.internal_errors:
        raise typer.Exit(2)
    raise typer.Exit(1 if run.problems else 0)


class AnalyzeBy(str, Enum):
    decision = "decision"
    game = "game"
    match = "match"
    player = "player"


@app.command("analyze")
def analyze_cmd(
    paths: list[str] = typer.Argument(..., metavar="PATH...",
                                      help="Record files or folders (searched recursively for "
                                           f"{', '.join(record_suffixes())} files); '-' reads standard input."),
    by: AnalyzeBy = typer.Option(AnalyzeBy.player, "--by", "-b",
                                 help="One row per decision, or per player per game, per player per match, "
                                      "per player."),
    format: StatsFormat = typer.Option(StatsFormat.table, "--format", "-f",
                                       help="A table (main columns), or every column as csv, json, parquet "
                                            "(needs the 'parquet' extra) or markdown."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write to this file (written whole or not at all)."),
    plies: int = typer.Option(0, "--plies", min=0, max=3,
                              help="Search depth, counted as GNU Backgammon counts it: 0 = the neural network "
                                   "alone (fast; gnubg's 0-ply), 1-3 look that many rolls ahead."),
    thresholds: str = typer.Option("0.04,0.08,0.16", "--thresholds", metavar="D,B,VB",
                                   help="Equity lost above which a decision is doubtful, bad, very bad."),
    variant: str = typer.Option("backgammon", "--variant", help="Variant when the record does not name one."),
    rule: list[str] = typer.Option([], "--rule", metavar="KEY=VALUE",
                                   help="Rule option when the record's header does not set it. Repeatable."),
    sort: Optional[str] = typer.Option(None, "--sort", metavar="COLUMN",
                                       help="Sort by COLUMN: numbers largest first, names A-Z."),
    plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE.png|FILE.svg",
                                        help="Also draw the error rate and luck rate per player (needs the "
                                             "'plot' extra)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1,
                                       help="Worker processes (default: one per core for 32+ files; with one "
                                            "process the engine uses every core)."),
    engine: Optional[Engine] = typer.Option(None, "--engine", help=ENGINE_HELP + " [default: local]"),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP),
) -> None:
    """Skill analysis of backgammon records: the equity each checker play and cube decision lost, grades,
    luck, error rates and performance rating (needs the 'analysis' extra: the bgsage engine).

    Columns, units and how they compare with GNU Backgammon: docs/analysis.md.  Long nardy and Gul bara
    have no engine: one line per record says so, with the dice luck that needs none.

    Exit code 0 when every file was read whole, 1 when some text could not be parsed (the rest is
    analysed), 2 when the arguments are wrong, the engine is not installed, a path cannot be read or no
    record was found.
    """
    from .stats import skill
    from . import stats as st
    from .inputs import parse_rule_options
    from .engine import UnknownVariant, get_variant

    if not skill.engine_available():
        _fail(skill.INSTALL_HINT)
    try:
        variant = get_variant(variant).name
        options = parse_rule_options(None, rule)
        levels = tuple(float(x) for x in thresholds.split(","))
        if len(levels) != 3 or not 0 <= levels[0] <= levels[1] <= levels[2]:
            raise ValueError
    except (UnknownVariant, ValueError) as e:
        _fail(str(e) if str(e) else f"--thresholds takes three increasing numbers, not {thresholds!r}")
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        _fail(f"--plot: {plot}: the file name must end in .png or .svg")
    if format == StatsFormat.parquet and output is None and sys.stdout.isatty():
        _fail("--format parquet writes binary data: give -o FILE or redirect standard output")
    cluster = _connect(engine, scheduler, jobs)
    if by == AnalyzeBy.decision and not sort and plot is None:    # the table a file at a time: flat memory
        _analyze_decisions(paths, format.value, output, cluster, dict(
            variant=variant, rules=options, plies=plies, jobs=jobs, thresholds=levels, engine=cluster))
    bar = Progress.on_terminal()
    try:
        run = skill.analyse(paths, variant=variant, rules=options, plies=plies, jobs=jobs, thresholds=levels,
                            progress=bar.step if bar else None, engine=cluster)
    except Exception as e:
        _cluster_failed(e)
    finally:
        if bar:
            bar.close()
        if cluster is not None:
            cluster.close()
    _echo_messages(run, run.problems + run.notes)
    if not run.files:
        _fail("no game records found in " + ", ".join(paths))
    table = run.summary(by.value)
    if sort:
        try:
            table = st.sort_frame(table, sort)
        except ValueError as e:
            _fail(str(e))
    fmt = format.value
    binary = fmt == "parquet"
    cols = skill.TABLE_COLUMNS[by.value]
    try:
        if plot is not None:
            skill.plot(run.summary("player"), str(plot))
        if output is None:
            if binary:
                st.write_frame(table, fmt, sys.stdout.buffer, columns=cols)
                sys.stdout.buffer.flush()
            else:
                tty = sys.stdout.isatty()
                st.write_frame(table, fmt, sys.stdout, color=bool(tty and not os.environ.get("NO_COLOR")),
                               columns=cols)
        else:
            write_atomically(output, lambda fh: st.write_frame(table, fmt, fh, columns=cols), binary=binary)
    except (st.OptionalDependency, OutputError, ValueError) as e:
        _fail(str(e))
    if run.unreadable or run.arg_errors or run.internal_errors:
        raise typer.Exit(2)
    raise typer.Exit(1 if run.problems else 0)


def _analyze_decisions(paths: list[str], fmt: str, output: Optional[Path], cluster, options: dict) -> None:
    """``analyze --by decision`` (without --sort or --plot): each file's decisions are written as soon as
    it is analysed, in the order of the inputs (``skill.decision_frames``), so memory does not grow with
    the archive; the table format shows the first rows once every file is done.  Raises typer.Exit."""
    from .stats import skill
    from . import stats as st

    run = skill.Analysis()
    tty = output is None and sys.stdout.isatty()
    bar = None if tty and fmt != "table" else Progress.on_terminal()     # (rows on the terminal show it)
    cols = skill.TABLE_COLUMNS["decision"]
    frames = skill.decision_frames(run, paths, progress=bar.step if bar else None, **options)
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
        _echo_messages(run, run.problems + run.notes)
        _fail(str(e))
    except (st.OptionalDependency, OutputError, ValueError) as e:
        _fail(str(e))
    except typer.Exit:
        raise
    except Exception as e:
        _cluster_failed(e)
    _echo_messages(run, run.problems + run.notes)
    if run.unreadable or run.arg_errors or run.internal_errors:
        raise typer.Exit(2)
    raise typer.Exit(1 if run.problems else 0)


def _cluster_failed(e: Exception) -> None:
    """A Dask cluster that failed during the run: exit 2 with the reason; anything else goes on up."""
    from . import commands

    _typer_exit(commands.cluster_failed, e)


@app.command("generate")
@_interruptible
def generate_cmd(
    variant: str = typer.Option(..., "--variant", help="backgammon, long or gulbara."),
    games: int = typer.Option(1, "--games", "-n", min=1, help="Number of games."),
    seed: int = typer.Option(0, "--seed", help="Start of the random choices: the same number gives the same bytes."),
    players: str = typer.Option("White,Black", "--players", metavar="A,B", help="The two players' names."),
    rule: list[str] = typer.Option([], "--rule", metavar="KEY=VALUE",
                                   help="Rule option, e.g. scoring=nardy500, koks=on. Repeatable."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write to this file (written whole or not at all)."),
) -> None:
    """Random legal games in the project's own notation (.ngn, docs/notation.md).

    Every play is chosen uniformly among the legal ones, the variant's whole turn logic included.
    """
    from .inputs import parse_rule_options
    from .engine import UnknownVariant, get_variant
    from .generate import generate_match
    from .notation import get as notation

    names = [x.strip() for x in players.split(",")]
    if len(names) != 2 or not all(names):
        _fail(f"--players takes two names separated by a comma, not {players!r}")
    try:
        name = get_variant(variant).name
        options = parse_rule_options(name, rule)
        match = generate_match(name, games, seed, (names[0], names[1]), options)
    except (UnknownVariant, ValueError) as e:
        _fail(str(e))
    tags = {k: v for k, v in match.tags.items() if k in ("Event", "Site")}
    tags.update(White=names[0], Black=names[1])
    tags.update(match.tags)
    match.tags = tags
    text = notation("ngn").write(match)
    if output is None:
        sys.stdout.write(text)
        return
    try:
        write_atomically(output, lambda fh: fh.write(text))
    except OutputError as e:
        _fail(str(e))


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
    """The typer app's entry (the console script and ``python3 -m nardy_analyze`` enter through
    :func:`nardy_analyze.fastcli.run`, which reads a plain validate/convert command line itself and comes
    here for the rest)."""
    import gc

    from .commands import stop_on_sigterm

    gc.set_threshold(*GC_THRESHOLD)    # as the worker processes
    stop_on_sigterm()
    try:
        app()
    except KeyboardInterrupt:
        from .commands import INTERRUPTED

        sys.stderr.write(INTERRUPTED + "\n")
        sys.exit(130)
