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
import os
import re
import sys
from pathlib import Path
from typing import Any

from . import GC_THRESHOLD

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

# option -> (parameter, kind); kind: "flag" (True), "noflag" (False), "str", "many" (repeatable), or a
# converter name below.  Exactly the options of the typer commands in nardy_analyze.cli.
_VALIDATE: dict[str, tuple[str, str]] = {
    "--format": ("format", "format"), "-f": ("format", "format"),
    "--explain": ("explain", "flag"), "-e": ("explain", "flag"),
    "--variant": ("variant", "str"),
    "--rule": ("rule", "many"),
    "--output": ("output", "path"), "-o": ("output", "path"),
    "--color": ("color", "flag"), "--no-color": ("color", "noflag"),
    "--jobs": ("jobs", "jobs"), "-j": ("jobs", "jobs"),
    "--engine": ("engine", "engine"),
    "--scheduler": ("scheduler", "str"),
    "--select": ("select", "many"),
    "--ignore": ("ignore", "many"),
    "--statistics": ("statistics", "flag"),
    "--max-file-size": ("max_file_size", "size"),
    "--verbose": ("verbose", "flag"), "-v": ("verbose", "flag"),
}
_CONVERT: dict[str, tuple[str, str]] = {
    "--to": ("to", "target"), "-t": ("to", "target"),
    "--output": ("output", "str"), "-o": ("output", "str"),
    "--out-dir": ("out_dir", "str"), "-d": ("out_dir", "str"),
    "--force": ("force", "flag"),
    "--lossy": ("lossy", "flag"),
    "--jobs": ("jobs", "jobs"), "-j": ("jobs", "jobs"),
    "--verbose": ("verbose", "flag"), "-v": ("verbose", "flag"),
}
_NUMBER = re.compile(r"[0-9]{1,6}(?:\.[0-9]{1,6})?")


class _NotHere(Exception):
    """The command line is not one the fast path reads: typer reads it."""


def _value(kind: str, text: str) -> Any:
    from .commands import ENGINES, FORMATS, TARGETS

    if kind == "str" or kind == "many":
        return text
    if kind == "path":
        return Path(text)
    if kind == "format" and text in FORMATS or kind == "target" and text in TARGETS \
            or kind == "engine" and text in ENGINES:
        return text
    if kind == "jobs" and text.isascii() and text.isdigit() and len(text) <= 6 and int(text) >= 1:
        return int(text)
    if kind == "size" and _NUMBER.fullmatch(text) and float(text) >= 0.001:
        return float(text)
    raise _NotHere(text)


def parse(argv: list[str]) -> tuple[str, dict[str, Any]] | None:
    """(command, keyword arguments of its body in :mod:`nardy_analyze.commands`) for a command line the
    fast path reads, else None."""
    if not argv or argv[0] not in ("validate", "convert"):
        return None
    command = argv[0]
    table = _VALIDATE if command == "validate" else _CONVERT
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
            spec = table.get(name)
            if spec is None:
                return None                      # --help, --, -j2, -ev, an unknown option...
            param, kind = spec
            if kind in ("flag", "noflag"):
                if eq:
                    return None
                kwargs[param] = kind == "flag"
                continue
            if not eq:
                if i >= len(args):
                    return None                  # the value is missing
                text = args[i]
                i += 1
            if text.startswith("-") and text != "-":
                return None                      # a value that looks like an option
            if kind == "many":
                kwargs.setdefault(param, []).append(text)
            else:
                kwargs[param] = _value(kind, text)
    except _NotHere:
        return None
    if not paths or command == "convert" and "to" not in kwargs:
        return None                              # a required argument is missing
    kwargs["paths"] = paths
    return command, kwargs


def _utf8(stream) -> bool:
    enc = getattr(stream, "encoding", None) or ""
    return enc.lower().replace("-", "").replace("_", "") == "utf8"


def run() -> None:
    """The ``nardy-analyze`` command line: the fast path when it applies, typer otherwise."""
    run_fast()
    from .cli import run as typer_run
    typer_run()


def run_fast() -> None:
    """Run the command line and end the process when the fast path reads it; return otherwise.  (Also
    the first thing :func:`nardy_analyze.cli.run` does: typer is imported by then, but building the
    command from its options and the interpreter's clean-up are still saved.)"""
    parsed = parse(sys.argv[1:]) if _utf8(sys.stdout) and _utf8(sys.stderr) else None
    if parsed is None:
        return
    import gc

    from . import commands

    gc.set_threshold(*GC_THRESHOLD)              # as cli.run and the worker processes
    stop_on_sigterm()
    command, kwargs = parsed
    body = commands.validate if command == "validate" else commands.convert
    try:
        body(**kwargs)
        code = 0
    except commands.Exit as e:
        code = e.code
    except KeyboardInterrupt:                    # as the typer commands: exit 130, said on standard error
        code = 130
        try:
            sys.stderr.write(INTERRUPTED + "\n")
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
