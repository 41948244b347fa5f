"""The bodies of the commands, one module each, without the command-line library.

:mod:`nardy_analyze.cli` declares the typer commands (their options and ``--help``) and, when one runs,
imports its module here and calls the function of the command's name with the values converted:
:mod:`.validate`, :mod:`.convert`, :mod:`.show`, :mod:`.stats`, :mod:`.analyze`, :mod:`.generate`,
:mod:`.rules`, :mod:`.hint`.  :mod:`.common` holds what they share (:class:`~.common.Exit`, ``echo``, ``fail``, the
Dask engine's connection, the messages of a run, the output of a table).  No module here imports typer
or click, so that :mod:`nardy_analyze.fastcli` runs a plain ``validate`` or ``convert`` command line
without importing them: that is most of the command's start-up.  The output, the messages and the exit
codes are the same either way (tests/test_fastcli.py runs both).

A command ends by raising :class:`~.common.Exit` with its exit code; ``echo`` writes one line as
``click.echo`` does (the default, :func:`~.common.echo`, is its equivalent for the streams
:mod:`nardy_analyze.fastcli` runs with).
"""
from __future__ import annotations

from importlib import import_module
from typing import Callable

NAMES = ("validate", "convert", "show", "stats", "analyze", "generate", "rules", "hint")


def body(name: str) -> Callable[..., None]:
    """The body of command ``name``: the function of that name in its module, imported now (a command
    imports only what it runs)."""
    if name not in NAMES:
        raise KeyError(name)
    return getattr(import_module(f"{__name__}.{name}"), name)
