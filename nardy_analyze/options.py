"""The options of the ``validate`` and ``convert`` commands, declared once.

Both command lines read this table: :mod:`nardy_analyze.cli` builds the typer commands (their parsing and
``--help``) from it, and :mod:`nardy_analyze.fastcli` reads a plain command line of these two commands with
it, without importing typer.  Each entry names the parameter of the command body
(:mod:`nardy_analyze.commands`) it fills.  Plain data in plain classes (a dataclass or a named tuple costs 2-6 ms of start-up to build).
"""
from __future__ import annotations

from typing import Any, Optional

from .i18n import LANGUAGES, N_
from .notation import targets

FORMATS = ("text", "json", "sarif", "html")         # validate --format
TARGETS = targets()                                 # convert --to: the notations that declare a writer
ENGINES = ("local", "dask")                         # --engine
SEVERITIES = ("error", "warning")                   # --min-severity: the least severe finding reported

REQUIRED = ...                                      # an option without a default (convert --to)


class Opt:
    """One option.  ``kind``: ``flag`` (off by default, on when given), ``switch`` (``--x/--no-x``: None,
    True or False), ``str``, ``path`` (a file name, a :class:`pathlib.Path` for the body), ``many`` (a
    string, repeatable: a list), ``choice`` (one of ``choices``), ``int`` or ``float`` (at least ``min``)."""
    __slots__ = ("param", "flags", "kind", "default", "help", "metavar", "choices", "min", "enum", "shown")

    def __init__(self, param: str, flags: tuple[str, ...], kind: str, default: Any = None, help: str = "",
                 metavar: Optional[str] = None, choices: tuple[str, ...] = (), min: Optional[float] = None,
                 enum: str = "", shown: str = "") -> None:
        self.param, self.flags, self.kind, self.default, self.help = param, flags, kind, default, help
        self.metavar, self.choices, self.min = metavar, choices, min
        self.enum = enum                            # the name of the choice's type in the typer command
        self.shown = shown                          # a default --help shows though the option has none


class Command:
    """A command: the parameter that takes its paths (one or more), their metavar and help ("{suffixes}" is
    replaced by the record suffixes), its options and its help text.  The texts are marked (``N_``) and
    translated where the typer command is built (:mod:`nardy_analyze.cli`): this table is read before the
    language is chosen."""
    __slots__ = ("name", "argument", "metavar", "argument_help", "options", "doc")

    def __init__(self, name: str, argument: str, metavar: str, argument_help: str, options: tuple[Opt, ...],
                 doc: str) -> None:
        self.name, self.argument, self.metavar, self.argument_help = name, argument, metavar, argument_help
        self.options, self.doc = options, doc


ENGINE_HELP = N_("Where the files are read and replayed: local worker processes, or a Dask cluster (needs the "
                "'dask' extra): the one at --scheduler, else a LocalCluster of -j processes. Same output.")
SCHEDULER_HELP = N_("Address of a running Dask scheduler (tcp://HOST:8786); implies --engine dask. The workers "
                   "need the same nardy-analyze version and the files at the same absolute path.")
MIN_SEVERITY_HELP = N_("Report only findings of this severity or a higher one: error (warnings left out) or "
                       "warning (every finding, the default). Exit codes do not change.")
ALIAS_HELP = N_("Count NAME as CANONICAL (names are compared without case, blanks, underscores and a ',1673' "
                "rating suffix, the same way in every command). Repeatable.")
_JOBS_HELP = N_("Worker processes (default: one per core for 32+ files).")
LANG_HELP = N_("Language of the messages and --help: en or ru (default: the environment's LANGUAGE, "
               "LC_ALL, LC_MESSAGES or LANG; English when it names no other).")
# --lang: on every command (fastcli reads it first, before any message is made; the bodies do not take it)
LANG = Opt("lang", ("--lang",), "choice", enum="Lang", choices=LANGUAGES, help=LANG_HELP)
_PLIES_HELP = N_("With --analyse: search depth, counted as GNU Backgammon counts it (0 = the neural network alone, "
               "the default; 1-3 look that many rolls ahead).")

VALIDATE = Command(
    "validate", "paths", "PATH...",
    N_("Record files or folders (searched recursively for {suffixes} files; a .txt is read when it looks like a "
    "record); '-' reads standard input."),
    (
        Opt("format", ("--format", "-f"), "choice", "text", enum="Format", choices=FORMATS,
            help=N_("Report as text, one JSON document, SARIF 2.1.0, or one self-contained HTML page with the board "
                 "before every finding's play.")),
        Opt("explain", ("--explain", "-e"), "flag", False,
            help=N_("Show the board and the legal alternatives at each finding.")),
        Opt("variant", ("--variant",), "str", "backgammon",
            help=N_("Variant when the record does not name one (Variant / Variation tag): backgammon, long, "
                 "gulbara.")),
        Opt("rule", ("--rule",), "many", metavar="[VARIANT:]KEY=VALUE",
            help=N_("Rule option when the record's header does not set it (e.g. crawford=off, jacoby=on, "
                 "cube_limit=64, koks=on, gulbara:chain_from_turn=4). A KEY the record's variant does not have "
                 "is an error (exit 2); VARIANT: limits it to that variant. Repeatable.")),
        Opt("rules", ("--rules",), "str", metavar="NAME",
            help=N_("A named rule set, when the record has no Rules tag: standard, federation, federation-blitz, "
                 "nardy-app, sheshbesh, club, last-roll (docs/rules.md, Presets). --rule and the record's option "
                 "tags go over it.")),
        Opt("output", ("--output", "-o"), "path",
            help=N_("Write the report to this file (written whole or not at all).")),
        Opt("color", ("--color", "--no-color"), "switch",
            help=N_("Colour the text report (default: only on a terminal).")),
        Opt("jobs", ("--jobs", "-j"), "int", min=1, help=_JOBS_HELP),
        Opt("engine", ("--engine",), "choice", enum="Engine", choices=ENGINES,
            help=ENGINE_HELP, shown="local"),
        Opt("scheduler", ("--scheduler",), "str", metavar="ADDRESS", help=SCHEDULER_HELP),
        Opt("select", ("--select",), "many", metavar="RULE[,RULE...]",
            help=N_("Report only these rule ids (see 'nardy-analyze rules').")),
        Opt("ignore", ("--ignore",), "many", metavar="RULE[,RULE...]",
            help=N_("Do not report these rule ids.")),
        Opt("min_severity", ("--min-severity",), "choice", enum="Severity", choices=SEVERITIES,
            help=MIN_SEVERITY_HELP, shown="warning"),
        Opt("statistics", ("--statistics",), "flag", False,
            help=N_("Text report: count findings per rule instead of listing them.")),
        Opt("max_file_size", ("--max-file-size",), "float", 64, metavar="MIB", min=0.001,
            help=N_("Largest file read, in MiB; a larger one is reported as unreadable (exit 2) and the others "
                 "are still validated.")),
        Opt("verbose", ("--verbose", "-v"), "flag", False,
            help=N_("Text report: list every input: each record read and each file skipped, with the "
                    "reason.")),
        Opt("analyse", ("--analyse", "--analyze"), "flag", False,
            help=N_("Text and HTML reports: show the engine's analysis of each finding's position in a "
                 "backgammon record (best plays and their equities, the play's loss, the cube decision); "
                 "needs the 'analysis' extra.")),
        Opt("plies", ("--plies",), "int", min=0, metavar="N", help=_PLIES_HELP),
        LANG,
    ),
    N_("Validate transcripts: every move replayed against the rules.\n"
       "\n"
       "Every input is accounted for: a record (with its findings), a file skipped with the reason (a .txt that "
       "is no game record; counted in the summary, listed with --verbose) or a path that could not be read "
       "(listed, with the reason).\n"
       "\n"
       "Exit code 0 when no error was found; 1 when a record breaks a rule or cannot be parsed; 2 when "
       "something could not be read or checked (a path that cannot be read, an internal error: the other files "
       "are still validated and reported), when no record was found, or when the arguments or the output file "
       "are wrong."),
)

CONVERT = Command(
    "convert", "paths", "INPUT...",
    N_("Record files (.mat/.txt, .sgf, .json, .ngn) or folders (searched recursively; a folder's files with "
       "the --to notation's suffix are not converted again); '-' reads standard input."),
    (
        Opt("to", ("--to", "-t"), "choice", REQUIRED, enum="Target", choices=TARGETS,
            help=N_("Notation to write.")),
        Opt("output", ("--output", "-o"), "str", metavar="FILE",
            help=N_("Write the one input's conversion here ('-': standard output).")),
        Opt("out_dir", ("--out-dir", "-d"), "str", metavar="DIR",
            help=N_("Write each INPUT as DIR/NAME.<ext>, a file found in a folder in the same sub-folder of DIR "
                 "(created if missing). Default: beside each input.")),
        Opt("force", ("--force",), "flag", False, help=N_("Overwrite existing output files.")),
        Opt("lossy", ("--lossy",), "flag", False,
            help=N_("Convert even what the target cannot hold completely, and list what was dropped (default: "
                 "refuse such a file and say what would be lost).")),
        Opt("jobs", ("--jobs", "-j"), "int", min=1, help=_JOBS_HELP),
        Opt("verbose", ("--verbose", "-v"), "flag", False,
            help=N_("Also list every file written and every file skipped, with the reason.")),
        Opt("analyse", ("--analyse", "--analyze"), "flag", False,
            help=N_("With --to sgf: also write the engine's analysis of every checker play, cube decision and "
                 "roll as GNU Backgammon's analysis properties (gnubg opens it analysed); needs the "
                 "'analysis' extra.")),
        Opt("plies", ("--plies",), "int", min=0, metavar="N", help=_PLIES_HELP),
        LANG,
    ),
    N_("Convert records between notations: lossless, or refused with what would be lost.\n"
       "\n"
       "A record that breaks the rules is converted as written, with a warning naming the first finding.\n"
       "Every file is written whole or not at all. Exit code 0 when every input was written, 1 when one was\n"
       "refused or failed, 2 when the arguments are wrong, no input could be read or an output could not\n"
       "be written."),
)

COMMANDS = {c.name: c for c in (VALIDATE, CONVERT)}


def defaults(command: Command) -> dict[str, Any]:
    """Every option's parameter of the command's body with its default (a list for a repeatable one)."""
    return {o.param: [] if o.kind == "many" else o.default for o in command.options if o is not LANG}
