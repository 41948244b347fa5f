"""The ``nardy-analyze`` command line (typer): the commands, their options and ``--help``, declared.

Each command's body is a module of :mod:`nardy_analyze.commands`, imported when the command runs (so that
``--help`` and a command's start-up do not pay for what they do not run); ``validate`` and ``convert`` are
declared from the one table of :mod:`nardy_analyze.options`, which :mod:`nardy_analyze.fastcli` reads too.

Every text here is translated when this module is imported: :func:`nardy_analyze.fastcli.run` chooses the
language (``--lang``, else the environment) and makes the catalog the text domain of click and typer
(:func:`nardy_analyze.i18n.install`) before it imports this module."""
from __future__ import annotations

import functools
import gc
import inspect
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from . import GC_THRESHOLD, __version__, i18n
from .commands import body
from .commands.common import INTERRUPTED, Exit, stop_on_sigterm
from .notation import record_suffixes     # (the notation modules themselves load when a command reads)
from .i18n import _
from .options import ALIAS_HELP, CONVERT, ENGINE_HELP, ENGINES, LANG, MIN_SEVERITY_HELP, REQUIRED, \
    SCHEDULER_HELP, SEVERITIES, VALIDATE, Command, Opt
from .safetext import visible
from .typertext import install as translate_typer

if i18n.language() != "en":
    translate_typer()        # typer's own copy of click: its usage errors and --help texts in the language

def _help_layout() -> str | None:
    """typer's boxed help (rich) on a terminal of 100 columns or more; below that, click's plain layout, in
    which every option and metavar stays whole on its line and the help wraps under it (the boxed table's
    four columns leave a narrow terminal a help column of a few words and cut long option names)."""
    import shutil   # (only here: the width of the terminal --help is drawn for)
    return "rich" if shutil.get_terminal_size((100, 24)).columns >= 100 else None


app = typer.Typer(
    add_completion=False,
    rich_markup_mode=_help_layout(),
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=_("Read nardy and backgammon game records, replay every move through a strict rules engine, "
         "and report what breaks the rules."),
)


def _enum(name: str, values: tuple[str, ...]) -> type[Enum]:
    """A str Enum of ``values`` (typer's way to a list of values and its ``--help``)."""
    return Enum(name, [(v, v) for v in values], type=str)


Engine = _enum("Engine", ENGINES)
Lang = _enum("Lang", LANG.choices)
Severity = _enum("Severity", SEVERITIES)


def _shown_default(text: str, value: str) -> str:
    """``text`` followed by the default --help shows for an option whose own default is None."""
    return text + " " + _("[default: {}]").format(value)


def _lang_option():
    """``--lang`` (every command): read and applied before this module was imported (nardy_analyze.fastcli);
    here it is declared for --help and checked (a value that is not a language: exit 2)."""
    return typer.Option(None, *LANG.flags, help=_(LANG.help))


def _echo(message: str, err: bool = False) -> None:
    """typer.echo, with control characters from the files shown as escapes (nardy_analyze.safetext)."""
    typer.echo(visible(message, newlines=True), err=err)


def _interruptible(command):
    """A command stopped by Ctrl-C (SIGINT) says so on standard error and exits 130 (its worker processes
    are stopped, its output file not written: see analyze.map_records and fsio.write_atomically)."""
    @functools.wraps(command)
    def run_command(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            typer.echo(_(INTERRUPTED), err=True)
            raise typer.Exit(130) from None

    return run_command


def _run(name: str, **values) -> None:
    """Run the body of command ``name`` (:mod:`nardy_analyze.commands`, its module imported now) with the
    values (an Enum as its value) and typer's echo; its Exit becomes typer's."""
    values = {k: v.value if isinstance(v, Enum) else v for k, v in values.items() if k != "lang"}
    try:
        body(name)(echo=_echo, **values)
    except Exit as e:
        raise typer.Exit(e.code) from None


def _version(value: bool) -> None:
    if value:
        # the core in use: compiled (engine/_core.c, notation/_matrows.c) or the Python code (not built,
        # NARDY_ANALYZE_PURE=1)
        from .cores import in_use_text   # (the engine and the reader, imported only here: --help's start-up)

        core = in_use_text()
        typer.echo(f"nardy-analyze {__version__} ({core})")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help=_("Print the version and exit.")),
         lang: Optional[Lang] = _lang_option()) -> None:
    pass


# the value's name in --help where the option table gives none (typer's own would be "<int range>", "<str>")
_METAVARS = {"variant": "VARIANT", "output": "FILE", "int": "N", "float": "X", "str": "TEXT", "path": "FILE"}


def _typer_option(o: Opt) -> tuple[object, object]:
    """(annotation, typer.Option) of an option of the table in :mod:`nardy_analyze.options`."""
    flags = ("/".join(o.flags),) if o.kind == "switch" else o.flags
    extra = {"metavar": o.metavar or _METAVARS.get(o.param) or _METAVARS.get(o.kind)}
    if extra["metavar"] is None:
        del extra["metavar"]
    if o.min is not None:
        extra["min"] = o.min
    text = _shown_default(_(o.help), o.shown) if o.shown else _(o.help)
    if o.kind == "choice":
        kind = _ENUMS.get(o.enum) or _ENUMS.setdefault(o.enum, _enum(o.enum, o.choices))
        annotation = kind if o.default is not None else Optional[kind]
        default = o.default if o.default in (None, REQUIRED) else kind(o.default)
        return annotation, typer.Option(default, *flags, help=text, **extra)
    if o.kind == "many":
        return list[str], typer.Option([], *flags, help=text, **extra)
    kind = {"flag": bool, "switch": bool, "str": str, "path": Path, "int": int, "float": float}[o.kind]
    return (kind if o.default is not None else Optional[kind]), typer.Option(o.default, *flags, help=text,
                                                                                **extra)


_ENUMS: dict[str, type[Enum]] = {"Engine": Engine, "Lang": Lang, "Severity": Severity}


def _declare(spec: Command) -> None:
    """Add the typer command of ``spec`` (its options from the table), running the body of the same name
    in :mod:`nardy_analyze.commands` with the values converted."""
    params = [inspect.Parameter(spec.argument, inspect.Parameter.KEYWORD_ONLY, annotation=list[str],
                                default=typer.Argument(..., metavar=spec.metavar, help=_(spec.argument_help).format(
                                    suffixes=", ".join(record_suffixes()))))]
    for o in spec.options:
        annotation, default = _typer_option(o)
        params.append(inspect.Parameter(o.param, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                                        default=default))

    def command(**kwargs) -> None:
        _run(spec.name, **kwargs)

    command.__signature__ = inspect.Signature(params)
    command.__annotations__ = {p.name: p.annotation for p in params}
    command.__name__ = command.__qualname__ = spec.name
    app.command(spec.name, help=_(spec.doc))(_interruptible(command))


_declare(VALIDATE)
_declare(CONVERT)


class ShowAs(str, Enum):
    text = "text"
    gnubg = "gnubg"
    xgid = "xgid"
    svg = "svg"
    html = "html"


@app.command(help=_(
    "Print the position before a move: diagram, GNU Backgammon Position/Match ID, XGID or SVG; or\n"
    "replay the whole record on a board in one HTML page (--as html)."))
@_interruptible
def show(
    path: str = typer.Argument(..., metavar="FILE",
                               help=_("A record (.mat/.txt, .sgf, .json, .ngn); '-' reads standard input.")),
    game: Optional[int] = typer.Option(None, "--game", "-g", metavar="N", min=1,
                                       help=_("Game number, as findings give it: the record's own Game N (the "
                                              "order in the file when games are unnumbered); default the last.")),
    move: Optional[str] = typer.Option(None, "--move", "-m", metavar="M[.K]",
                                       help=_("The position before the game's M-th roll (1 = the opening roll), "
                                            "as findings give it (move M); default: the game's final position.")
                                       + " " + _("M.K: the K-th later part of that roll's turn in Gul bara (a "
                                                 "chain double, a handover), as findings and the replayer give "
                                                 "it.")),
    as_: ShowAs = typer.Option(ShowAs.text, "--as", help=_("text diagram (with the IDs), gnubg "
                                                          "'PositionID:MatchID', XGID, an SVG board, or html: "
                                                          "one self-contained page that replays every game "
                                                          "(--game/--move: the position it opens at).")),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="FILE",
                                          help=_("Write to FILE (whole or not at all) instead of standard output.")),
    min_severity: Severity = typer.Option(Severity.warning, "--min-severity", help=_(MIN_SEVERITY_HELP)),
    analyse: bool = typer.Option(False, "--analyse", "--analyze",
                                 help=_("With --as html: the skill analysis on every step, as analyze makes it: "
                                        "each play and cube decision with its grade, the best plays with their "
                                        "equities, and the winning chances (match-winning chances in match play) "
                                        "over the game as a chart. Backgammon needs the 'analysis' extra; long "
                                        "nardy and Gul bara are analysed by the shipped evaluator.")),
    plies: Optional[int] = typer.Option(None, "--plies", metavar="N", min=0,
                                        help=_("With --analyse: search depth of backgammon's analysis, 0 (the "
                                               "neural network alone, the default) or 1 (analyze's default, about "
                                               "5 times slower).")),
    lang: Optional[Lang] = _lang_option(),
) -> None:
    _run("show", path=path, game=game, move=move, as_=as_, output=output, min_severity=min_severity,
         analyse=analyse, plies=plies)


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


@app.command(help=_(
    "Statistics per player, game or match: rolls, doubles, hits, pips, cube, results, points.\n"
    "\n"
    "Columns, dtypes and how resignations, drops and illegal plays count: docs/stats.md.\n"
    "\n"
    "Exit code 0 when every file was read whole, 1 when some text could not be parsed (the rest is\n"
    "counted), 2 when the arguments are wrong, a path cannot be read or no record was found."))
@_interruptible
def stats(
    paths: list[str] = typer.Argument(..., metavar="PATH...",
                                      help=_("Record files or folders (searched recursively for {suffixes} files); "
                                             "'-' reads standard input.").format(
                                          suffixes=", ".join(record_suffixes()))),
    by: By = typer.Option(By.player, "--by", "-b", help=_("One row per player, per player per game, or per match.")),
    format: StatsFormat = typer.Option(StatsFormat.table, "--format", "-f",
                                       help=_("A table (main columns; --by game and match: the first 1,000 rows), "
                                            "or every column and row as csv, json, parquet (needs the 'parquet' "
                                            "extra) or markdown.")),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="FILE",
                                          help=_("Write to this file (written whole or not at all).")),
    alias: list[str] = typer.Option([], "--alias", metavar="NAME=CANONICAL", help=_(ALIAS_HELP)),
    sort: Optional[str] = typer.Option(None, "--sort", metavar="COLUMN",
                                       help=_("Sort by COLUMN: numbers largest first, names A-Z (--by game and "
                                            "match: holds every row in memory).")),
    variant: str = typer.Option("backgammon", "--variant", metavar="VARIANT",
                                help=_("Variant when the record does not name one.")),
    rule: list[str] = typer.Option([], "--rule", metavar="[VARIANT:]KEY=VALUE",
                                   help=_("Rule option when the record's header does not set it, as in validate "
                                        "(e.g. jacoby=on, long:koks=on). A KEY the record's variant does not "
                                        "have is an error (exit 2); VARIANT: limits it to that variant. "
                                        "Repeatable.")),
    rules: Optional[str] = typer.Option(None, "--rules", metavar="NAME",
                                        help=_("A named rule set, as in validate (e.g. federation, club, "
                                             "last-roll; docs/rules.md, Presets).")),
    plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE.png|FILE.svg",
                                        help=_("Also draw, per player, the dice against fair dice, the doubles rate "
                                             "and points per game (needs the 'plot' extra).")),
    top: int = typer.Option(8, "--top", metavar="N", min=1, help=_("Players drawn by --plot (those with most games).")),
    min_severity: Severity = typer.Option(Severity.warning, "--min-severity", help=_(MIN_SEVERITY_HELP)),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", metavar="N", min=1,
                                       help=_("Worker processes (default: one per core for 32+ files).")),
    engine: Optional[Engine] = typer.Option(None, "--engine", help=_shown_default(_(ENGINE_HELP), "local")),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS", help=_(SCHEDULER_HELP)),
    lang: Optional[Lang] = _lang_option(),
) -> None:
    _run("stats", paths=paths, by=by, format=format, output=output, alias=alias, sort=sort, variant=variant,
         rule=rule, rules=rules, plot=plot, top=top, min_severity=min_severity, jobs=jobs, engine=engine,
         scheduler=scheduler)


class AnalyzeBy(str, Enum):
    decision = "decision"
    game = "game"
    match = "match"
    player = "player"


@app.command("analyze", help=_(
    "Skill analysis of records: the equity each checker play and cube decision lost, grades,\n"
    "luck, error rates and performance rating (needs the 'analysis' extra: the bgsage engine).\n"
    "\n"
    "Columns, units and how they compare with GNU Backgammon: docs/analysis.md.  Long nardy and Gul bara\n"
    "records are analysed by the evaluator shipped with the package (docs/evaluator.md), cubeless.\n"
    "\n"
    "Exit code 0 when every file was read whole, 1 when some text could not be parsed (the rest is\n"
    "analysed), 2 when the arguments are wrong, the engine is not installed, a path cannot be read or no\n"
    "record was found."))
@_interruptible
def analyze_cmd(
    paths: list[str] = typer.Argument(..., metavar="PATH...",
                                      help=_("Record files or folders (searched recursively for {suffixes} files); "
                                             "'-' reads standard input.").format(
                                          suffixes=", ".join(record_suffixes()))),
    by: AnalyzeBy = typer.Option(AnalyzeBy.player, "--by", "-b",
                                 help=_("One row per decision, or per player per game, per player per match, "
                                      "per player.")),
    format: StatsFormat = typer.Option(StatsFormat.table, "--format", "-f",
                                       help=_("A table (main columns), or every column as csv, json, parquet "
                                            "(needs the 'parquet' extra) or markdown.")),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="FILE",
                                          help=_("Write to this file (written whole or not at all).")),
    plies: int = typer.Option(1, "--plies", metavar="N", min=0, max=3,
                              help=_("Search depth, counted as GNU Backgammon counts it: 0 = the neural network "
                                   "alone (fast; gnubg's 0-ply), 1-3 look that many rolls ahead.")),
    thresholds: str = typer.Option("0.04,0.08,0.16", "--thresholds", metavar="D,B,VB",
                                   help=_("Equity lost above which a decision is doubtful, bad, very bad.")),
    variant: str = typer.Option("backgammon", "--variant", metavar="VARIANT",
                                help=_("Variant when the record does not name one.")),
    rule: list[str] = typer.Option([], "--rule", metavar="KEY=VALUE",
                                   help=_("Rule option when the record's header does not set it. Repeatable.")),
    alias: list[str] = typer.Option([], "--alias", metavar="NAME=CANONICAL", help=_(ALIAS_HELP)),
    min_severity: Severity = typer.Option(Severity.warning, "--min-severity", help=_(MIN_SEVERITY_HELP)),
    sort: Optional[str] = typer.Option(None, "--sort", metavar="COLUMN",
                                       help=_("Sort by COLUMN: numbers largest first, names A-Z.")),
    plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE.png|FILE.svg",
                                        help=_("Also draw the error rate and luck rate per player (needs the "
                                             "'plot' extra).")),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", metavar="N", min=1,
                                       help=_("Worker processes (default: one per core for 32+ files; with one "
                                            "process the engine uses every core).")),
    engine: Optional[Engine] = typer.Option(None, "--engine", help=_shown_default(_(ENGINE_HELP), "local")),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS", help=_(SCHEDULER_HELP)),
    lang: Optional[Lang] = _lang_option(),
) -> None:
    _run("analyze", paths=paths, by=by, format=format, output=output, plies=plies, thresholds=thresholds,
         variant=variant, rule=rule, alias=alias, min_severity=min_severity, sort=sort, plot=plot, jobs=jobs,
         engine=engine, scheduler=scheduler)


@app.command("generate", help=_(
    "Random legal games in the project's own notation (.ngn, docs/notation.md).\n"
    "\n"
    "Every play is chosen uniformly among the legal ones, the variant's whole turn logic included."))
@_interruptible
def generate_cmd(
    variant: str = typer.Option(..., "--variant", metavar="VARIANT", help=_("backgammon, long or gulbara.")),
    games: int = typer.Option(1, "--games", "-n", metavar="N", min=1, help=_("Number of games.")),
    seed: int = typer.Option(0, "--seed", metavar="N",
                             help=_("Start of the random choices: the same number gives the same bytes.")),
    players: str = typer.Option("White,Black", "--players", metavar="A,B", help=_("The two players' names.")),
    rule: list[str] = typer.Option([], "--rule", metavar="KEY=VALUE",
                                   help=_("Rule option, e.g. scoring=nardy500, koks=on, clock=840, increment=8. "
                                        "Repeatable.")),
    rules: Optional[str] = typer.Option(None, "--rules", metavar="NAME",
                                        help=_("A named rule set (docs/rules.md, Presets), written as the Rules tag; "
                                             "--rule goes over it.")),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="FILE",
                                          help=_("Write to this file (written whole or not at all).")),
    lang: Optional[Lang] = _lang_option(),
) -> None:
    _run("generate", variant=variant, games=games, seed=seed, players=players, rule=rule, rules=rules,
         output=output)


@app.command("hint", help=_(
    "The legal plays of a roll ranked by equity, with the chances of each result.\n"
    "\n"
    "Long nardy and Gul bara: the evaluator shipped with the package (docs/evaluator.md); backgammon: the\n"
    "analysis engine (the 'analysis' extra).  The position: a record (FILE with --game/--move, the dice of\n"
    "that roll), a position id (--id: LN-/GB- for the long games, a GNU Backgammon Position ID) or --json.\n"
    "Equity in points for the player on roll (oin 1, mars 2, koks 3 where counted), no cube.\n"
    "\n"
    "--jsonl: the bot protocol: one JSON request per line of standard input, one JSON answer per line, the\n"
    "process staying open until its input ends (docs/evaluator.md)."))
@_interruptible
def hint_cmd(
    path: Optional[str] = typer.Argument(None, metavar="[FILE]",
                                         help=_("A record (.mat/.txt, .sgf, .json, .ngn); '-' reads standard input.")),
    game: Optional[int] = typer.Option(None, "--game", "-g", metavar="N", min=1,
                                       help=_("Game number, as findings give it: the record's own Game N (the "
                                              "order in the file when games are unnumbered); default the last.")),
    move: Optional[str] = typer.Option(None, "--move", "-m", metavar="M[.K]",
                                       help=_("The game's M-th roll (1 = the opening roll; default 1).")
                                       + " " + _("M.K: the K-th later part of that roll's turn in Gul bara (a "
                                                 "chain double, a handover), as findings and the replayer give "
                                                 "it.")),
    id: Optional[str] = typer.Option(None, "--id", metavar="ID",
                                     help=_("A position id: LN-... or GB-... (docs/evaluator.md), or a GNU "
                                          "Backgammon Position ID with --variant backgammon.")),
    dice: Optional[str] = typer.Option(None, "--dice", "-d", metavar="D1-D2",
                                       help=_("The roll, e.g. 6-5 (a record's own roll by default; without dice "
                                            "a long-game position gets its value before the roll).")),
    json_text: Optional[str] = typer.Option(None, "--json", metavar="JSON",
                                            help=_("The position as one request of the bot protocol.")),
    variant: Optional[str] = typer.Option(None, "--variant", metavar="VARIANT",
                                          help=_("Variant of a request or record that names none (default: long "
                                               "for --id/--json/--jsonl, backgammon for a record).")),
    rule: list[str] = typer.Option([], "--rule", metavar="KEY=VALUE",
                                   help=_("Rule option, e.g. koks=on. Repeatable.")),
    as_json: bool = typer.Option(False, "--as-json", help=_("One JSON answer instead of the table.")),
    jsonl: bool = typer.Option(False, "--jsonl", help=_("The bot protocol on standard input and output.")),
    lang: Optional[Lang] = _lang_option(),
) -> None:
    _run("hint", path=path, game=game, move=move, id=id, dice=dice, json_text=json_text, variant=variant,
         rule=rule, as_json=as_json, jsonl=jsonl)


@app.command("rules", help=_("List the rule ids that findings name, with what each means."))
def rules_cmd(lang: Optional[Lang] = _lang_option()) -> None:
    _run("rules")


# Each command's help as paragraphs that the terminal wraps (a translation's own line breaks inside a
# paragraph would leave single words at line ends in the boxed layout), and its line in the main --help: the
# first paragraph, whole (click's plain layout would cut it at the terminal's width with "...").
for _info in app.registered_commands:
    if _info.help:
        _info.help = "\n\n".join(" ".join(p.split()) for p in _info.help.split("\n\n"))
    if _info.short_help is None and _info.help:
        _info.short_help = _info.help.split("\n\n")[0]


def run() -> None:
    """The typer app's entry (the console script and ``python3 -m nardy_analyze`` enter through
    :func:`nardy_analyze.fastcli.run`, which reads a plain validate/convert command line itself and comes
    here for the rest)."""
    gc.set_threshold(*GC_THRESHOLD)    # as the worker processes
    stop_on_sigterm()
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write(_(INTERRUPTED) + "\n")
        sys.exit(130)
