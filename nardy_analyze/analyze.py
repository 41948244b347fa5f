"""Library entry points: find record files, read them, choose the variant, replay.

    from nardy_analyze.analyze import validate_paths
    run = validate_paths(["match.mat"])
    for f in run.findings: print(f.rule, f.line, f.message)
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, Iterable, Iterator

from .engine import UnknownVariant, Variant, get_variant, parse_option
from .notation import mat
from .record import Loc, Match, Problem
from .replay import Finding, MatchReport, replay
from .report import RunResult

RECORD_SUFFIXES = (".mat", ".txt")
MAX_BYTES = 64 * 1024 * 1024

# Header tags that set rule options: tag name (case/space-insensitive) -> (option, value parser)
_ON = {"on", "yes", "true", "1"}
_OFF = {"off", "no", "false", "0"}


class InputError(Exception):
    """A path that cannot be read at all (missing, unreadable, not a file)."""


def discover(paths: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """Yield (path, explicit) for each record file; folders are walked recursively in sorted order.

    Files named on the command line are always read (``explicit``); files found in folders only when
    their suffix is .mat or .txt.  Raises InputError for a path that does not exist.
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
    """Decode and read a record with the notation its suffix names or its start looks like (.mat otherwise)."""
    from . import notation
    return notation.read_bytes(data, path)


def options_from_tags(match: Match, base: dict[str, Any]) -> dict[str, Any]:
    """Rule options: the record's header tags where present, otherwise the caller's options."""
    opts = dict(base)
    craw = (match.tag("Crawford") or "").strip().lower()
    if craw in _ON:
        opts["crawford"] = True
    elif craw in _OFF:
        opts["crawford"] = False
    jac = (match.tag("Jacoby") or "").strip().lower()
    if jac in _ON:
        opts["jacoby"] = True
    elif jac in _OFF:
        opts["jacoby"] = False
    lim = (match.tag("CubeLimit") or "").strip()
    if lim.isdigit():
        opts["cube_limit"] = int(lim)
    return opts


def variant_for(match: Match, default: str, options: dict[str, Any]) -> Variant:
    name = match.tag("Variation") or default
    return get_variant(name, options_from_tags(match, options))


def validate_match(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None) -> MatchReport:
    try:
        v = variant_for(match, variant, options or {})
    except UnknownVariant as e:
        rep = MatchReport(match.path, match.notation, str(match.tag("Variation") or variant))
        loc = match.tag_locs.get(next((k for k in match.tags if k.lower() == "variation"), ""), Loc(1, 1))
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
    if not explicit and not match.games and not mat.looks_like_mat(mat.decode(data[:4096])):
        return "skipped", path
    if not match.games and not match.problems:
        match.problems.append(Problem(Loc(1, 1), "no game found: expected a Jellyfish match "
                                      "(\"N point match\" and \"Game 1\" headers)"))
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
