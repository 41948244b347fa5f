"""Library entry points: find record files, read them, choose the variant, replay.

    from nardy_analyze.analyze import validate_paths
    run = validate_paths(["match.mat"])
    for f in run.findings: print(f.rule, f.line, f.message)
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, Iterable, Iterator

from . import notation
from .engine import OPTIONS, UnknownVariant, Variant, get_variant, parse_option
from .record import Loc, Match, Problem
from .replay import Finding, MatchReport, replay
from .report import RunResult

RECORD_SUFFIXES = (".mat", ".txt", ".ngn")   # the suffixes of the registered notations (checked in tests)
MAX_BYTES = 64 * 1024 * 1024


class InputError(Exception):
    """A path that cannot be read at all (missing, unreadable, not a file)."""


def discover(paths: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """Yield (path, explicit) for each record file; folders are walked recursively in sorted order.

    Files named on the command line are always read (``explicit``); files found in folders only when
    their suffix is one a notation registers (.mat, .txt, .ngn).  Raises InputError for a path that does not exist.
    """
    for p in paths:
        if p == "-":
            yield p, True
            continue
        if os.path.isdir(p):
            for d, dirs, files in os.walk(p):
                dirs[:] = sorted(x for x in dirs if not x.startswith("."))
                for f in sorted(files):
                    if f.lower().endswith(RECORD_SUFFIXES) and not f.startswith("."):
                        yield os.path.join(d, f), False
        elif os.path.exists(p):
            yield p, True
        else:
            raise InputError(f"{p}: no such file or folder")


def read_bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read(MAX_BYTES + 1)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder") from None
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}") from None
    if len(data) > MAX_BYTES:
        raise InputError(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MiB; not a game record")
    return data


def parse_record(data: bytes, path: str) -> Match:
    """Decode and read a record with the notation its suffix names, else the one its text looks like
    (Jellyfish match text when none fits)."""
    return notation.read_bytes(data, path)


class TagError(ValueError):
    """A header tag that names a rule option with a value the option does not take."""

    def __init__(self, tag: str, message: str) -> None:
        super().__init__(message)
        self.tag = tag


def _norm(name: str) -> str:
    return name.casefold().replace(" ", "").replace("_", "").replace("-", "")


# Tags whose name is not the option's: TimeControl "120" = seconds per move
_TAG_ALIASES = {"timecontrol": "time_limit"}


def options_from_tags(match: Match, base: dict[str, Any], variant: str = "backgammon",
                      strict: bool = False) -> dict[str, Any]:
    """Rule options: the record's header tags where present, otherwise the caller's options.

    A tag names an option when its name is the option's without case, blanks, ``_`` or ``-``
    (``Crawford``, ``CubeLimit``, ``HeadException``, ``ChainFromTurn``, ``Koks``, ``Scoring``) or is
    ``TimeControl`` (seconds per move, ``"120"`` or ``"2:00"``).  A value the option does not take is
    ignored, or raises :class:`TagError` with ``strict`` (the project's own notation).
    """
    opts = dict(base)
    spec = OPTIONS.get(variant, {})
    keys = {_norm(k): k for k in spec}
    keys.update((k, v) for k, v in _TAG_ALIASES.items() if v in spec)
    for name, value in match.tags.items():
        key = keys.get(_norm(name))
        if key is None:
            continue
        text = value.strip()
        if key == "time_limit" and ":" in text:
            m, _, sec = text.partition(":")
            text = str(int(m) * 60 + int(sec)) if m.isdigit() and sec.isdigit() else text
        try:
            opts[key] = parse_option(variant, key, text)
        except ValueError as e:
            if strict:
                raise TagError(name, f"tag {name} \"{value}\": {e}") from None
    return opts


def variant_for(match: Match, default: str, options: dict[str, Any]) -> Variant:
    name = match.tag("Variant") or match.tag("Variation") or default
    base = get_variant(name)
    return get_variant(name, options_from_tags(match, options, base.name, strict=match.notation == "ngn"))


def validate_match(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None) -> MatchReport:
    try:
        v = variant_for(match, variant, options or {})
    except (UnknownVariant, TagError) as e:
        rep = MatchReport(match.path, match.notation,
                          str(match.tag("Variant") or match.tag("Variation") or variant))
        names = (e.tag.lower(),) if isinstance(e, TagError) else ("variant", "variation")
        loc = match.tag_locs.get(next((k for k in match.tags if k.lower() in names), ""), Loc(1, 1))
        rep.findings.append(Finding("parse-error", str(e), match.path, loc.line, loc.column))
        return rep
    return replay(match, v)


def _validate_file(path: str, explicit: bool, variant: str, options: dict[str, Any] | None,
                   data: bytes | None = None) -> tuple[str, Any]:
    """One file: ("report", MatchReport) | ("unreadable", message) | ("skipped", path)."""
    if data is None:
        try:
            data = read_bytes(path)
        except InputError as e:
            return "unreadable", str(e)
    shown = "<stdin>" if path == "-" else path
    match = parse_record(data, shown)
    if not explicit and not match.games and notation.sniff(notation.decode(data[:4096])) is None:
        return "skipped", path
    if not match.games and not match.problems:
        if match.notation == "ngn":
            why = 'no game found: expected a line "Game N" followed by the moves (docs/notation.md)'
        else:
            why = 'no game found: expected a Jellyfish match ("N point match" and "Game 1" headers)'
        match.problems.append(Problem(Loc(1, 1), why))
    return "report", validate_match(match, variant, options)


def _validate_star(args):
    return _validate_file(*args)


def validate_paths(paths: Iterable[str], variant: str = "backgammon", options: dict[str, Any] | None = None,
                   progress: Callable[[str, int, int], None] | None = None, jobs: int | None = None) -> RunResult:
    """Validate files and folders.  Paths that cannot be read are listed in ``run.unreadable``.

    ``progress(path, done, total)`` is called after each file.
    ``jobs``: worker processes (default: one per core when there are many files; 1 = in this process).
    Results come in the order of the files, whatever the number of workers.
    """
    run = RunResult()
    files: list[tuple[str, bool]] = []
    for p in paths:
        try:
            files.extend(discover([p]))
        except InputError as e:
            run.unreadable.append((p, str(e)))
    if jobs is None:
        jobs = min(os.cpu_count() or 1, 8) if len(files) >= 32 else 1
    work = [(path, explicit, variant, options) for path, explicit in files]
    if jobs > 1 and not any(p == "-" for p, _ in files):
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = pool.map(_validate_star, work, chunksize=8)
            for i, ((path, _), result) in enumerate(zip(files, results), start=1):
                _collect(run, path, result)
                if progress:
                    progress(path, i, len(files))
    else:
        for i, item in enumerate(work, start=1):
            _collect(run, item[0], _validate_file(*item))
            if progress:
                progress(item[0], i, len(files))
    return run


def _collect(run: RunResult, path: str, result: tuple[str, Any]) -> None:
    kind, value = result
    if kind == "report":
        run.reports.append(value)
    elif kind == "unreadable":
        run.unreadable.append((path, value))
    else:
        run.skipped.append(path)


def parse_rule_options(variant: str, items: list[str]) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--rule takes KEY=VALUE, not {item!r}")
        opts[key.strip()] = parse_option(variant, key.strip(), value)
    return opts
