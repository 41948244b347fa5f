"""``python3 -m nardy_analyze``: a plain ``validate`` or ``convert`` command line without importing typer.

Importing typer (and click) and building the command from its options is most of a command's start-up
(issue 10: ``convert --to sgf`` of a folder, side by side with GNU Backgammon).  :func:`run` reads the
command line itself when it is one of the common, unambiguous forms of these two commands, and runs
the command body (:mod:`nardy_analyze.commands`) the typer command runs; anything else (another command,
``--help``, ``--version``, an option it does not know, joined short options such as ``-j2``, an option
value that is not plainly valid, ``--``, text streams that are not UTF-8...) goes to the typer command
line (:func:`nardy_analyze.cli.run`), which then gives its own message.  So the two never disagree: the
fast path accepts only what typer would read the same way (tests/test_fastcli.py runs both on the same
command lines and compares the output, the messages and the exit codes).

After a command run here the process ends at once (``os._exit``, once the output is flushed): the
interpreter's clean-up of every module and object is skipped, as nothing is left to do.
"""
from __future__ import annotations

import errno
import gc
import os
import re
import sys
from pathlib import Path
from typing import Any

from . import GC_THRESHOLD, i18n
from .commands import body
from .commands.common import INTERRUPTED, Exit, stop_on_sigterm
from .options import COMMANDS, REQUIRED, Opt, defaults

# option spelling -> its entry in the one table of options (nardy_analyze.options), per command
_TABLES: dict[str, dict[str, Opt]] = {
    name: {flag: o for o in command.options for flag in o.flags} for name, command in COMMANDS.items()}
_NUMBER = re.compile(r"[0-9]{1,6}(?:\.[0-9]{1,6})?")


class _NotHere(Exception):
    """The command line is not one the fast path reads: typer reads it."""


def _value(o: Opt, text: str) -> Any:
    """The body's value of option ``o`` given as ``text``, when it is plainly valid (else typer reads it)."""
    if o.kind in ("str", "many"):
        return text
    if o.kind == "path":
        return Path(text)
    if o.kind == "choice" and text in o.choices:
        return text
    if o.kind == "int" and text.isascii() and text.isdigit() and len(text) <= 6 and int(text) >= o.min:
        return int(text)
    if o.kind == "float" and _NUMBER.fullmatch(text) and float(text) >= o.min:
        return float(text)
    raise _NotHere(text)


def parse(argv: list[str]) -> tuple[str, dict[str, Any]] | None:
    """(command, keyword arguments of its body in :mod:`nardy_analyze.commands`) for a command line the
    fast path reads, else None."""
    if not argv or argv[0] not in _TABLES:
        return None
    command = argv[0]
    table = _TABLES[command]
    kwargs: dict[str, Any] = {}
    paths: list[str] = []
    args = argv[1:]
    i = 0
    try:
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == "-" or not arg.startswith("-"):
                paths.append(arg)
                continue
            name, eq, text = arg.partition("=") if arg.startswith("--") else (arg, "", "")
            o = table.get(name)
            if o is None:
                return None                      # --help, --, -j2, -ev, an unknown option...
            if o.kind in ("flag", "switch"):
                if eq:
                    return None
                kwargs[o.param] = o.kind == "flag" or name == o.flags[0]     # a switch's second: --no-color
                continue
            if not eq:
                if i >= len(args):
                    return None                  # the value is missing
                text = args[i]
                i += 1
            if text.startswith("-") and text != "-":
                return None                      # a value that looks like an option
            if o.kind == "many":
                kwargs.setdefault(o.param, []).append(text)
            else:
                kwargs[o.param] = _value(o, text)
    except _NotHere:
        return None
    spec = COMMANDS[command]
    if not paths or any(o.default is REQUIRED and o.param not in kwargs for o in spec.options):
        return None                              # a required argument is missing
    kwargs[spec.argument] = paths
    return command, kwargs


def _utf8(stream) -> bool:
    enc = getattr(stream, "encoding", None) or ""
    return enc.lower().replace("-", "").replace("_", "") == "utf8"


def _escape_what_cannot_be_shown() -> None:
    """Standard output and error in an encoding that cannot show every character (a terminal in KOI8-R or
    Latin-1, ``PYTHONIOENCODING=ascii``): a character of a name or a comment that the encoding lacks is
    written as an escape (``\\u0531``), never a ``?`` and never a crash (docs/convert.md, "Encodings")."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and not _utf8(stream) and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def language(argv: list[str]) -> str | None:
    """The value of ``--lang X`` / ``--lang=X`` on the command line (the last one given, before any ``--``),
    else None."""
    lang = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif arg.startswith("--lang="):
            lang = arg[len("--lang="):]
    return lang


def run() -> None:
    """The ``nardy-analyze`` command line: the fast path when it applies, typer otherwise.

    The language comes first (``--lang``, else the environment: nardy_analyze.i18n), before any message
    and before typer and click are imported (their help headings are translated at import); a value that
    is not a language is left to typer, which rejects it (exit 2)."""
    _escape_what_cannot_be_shown()
    lang = language(sys.argv[1:])
    if lang in i18n.LANGUAGES:
        i18n.set_language(lang)
    run_fast()
    i18n.install()                        # click's and typer's messages from our catalog
    from .cli import run as typer_run     # (typer: imported only when the fast path declines)
    typer_run()


def run_fast() -> None:
    """Run the command line and end the process when the fast path reads it; return otherwise."""
    parsed = parse(sys.argv[1:]) if _utf8(sys.stdout) and _utf8(sys.stderr) else None
    if parsed is None:
        return
    gc.set_threshold(*GC_THRESHOLD)              # as cli.run and the worker processes
    stop_on_sigterm()
    command, kwargs = parsed
    kwargs.pop("lang", None)                     # (read by run(): the language is set already)
    try:
        body(command)(**{**defaults(COMMANDS[command]), **kwargs})
        code = 0
    except Exit as e:
        code = e.code
    except KeyboardInterrupt:                    # as the typer commands: exit 130, said on standard error
        code = 130
        try:
            sys.stderr.write(i18n._(INTERRUPTED) + "\n")
        except BaseException:
            pass
    except OSError as e:                         # as typer: a closed pipe ends the command quietly, exit 1
        if e.errno != errno.EPIPE:
            raise
        os._exit(1)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:                        # (a closed pipe): the interpreter's own way out
        sys.exit(code)
    os._exit(code)
