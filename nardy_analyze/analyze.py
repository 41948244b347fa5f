"""Library entry points: find record files, read them, choose the variant, replay.

    from nardy_analyze.analyze import validate_paths
    run = validate_paths(["match.mat"])
    for f in run.findings: print(f.rule, f.line, f.message)
"""
from __future__ import annotations

import os
import re
import sys
from typing import Any, Callable, Iterable, Iterator

from .engine import OPTIONS, UnknownVariant, Variant, all_option_names, get_variant, parse_option
from .notation import mat
from .record import Loc, Match, Problem
from .replay import WARNING, Finding, MatchReport, replay
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
    text = mat.decode(data)
    return mat.read(text, path)


def _norm(key: str) -> str:
    return key.casefold().replace(" ", "").replace("_", "").replace("-", "")


_TIME = re.compile(r"^(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?)?"
                   r"(?:\s*(?:/|per)\s*move)?$", re.I)


def parse_time_control(value: str) -> float | None | str:
    """Seconds per move from a ``TimeControl`` tag: ``120``, ``120s``, ``2m``, ``2:00``, ``120/move``;
    ``-``/``none``/empty: no limit (None).  Anything else: the text ``"?"`` (not understood)."""
    v = value.strip()
    if v.lower() in ("", "-", "none", "no", "off", "unlimited"):
        return None
    m = re.fullmatch(r"(\d+):([0-5]\d)(?:\s*(?:/|per)\s*move)?", v, re.I)
    if m:
        return int(m.group(1)) * 60 + int(m.group(2))
    m = _TIME.match(v)
    if m:
        n = float(m.group(1))
        if (m.group(2) or "s").lower().startswith("m"):
            n *= 60
        return int(n) if n == int(n) else n
    return "?"


def options_from_tags(match: Match, base: dict[str, Any], variant: str = "backgammon"
                      ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Rule options: the record's header tags where present, otherwise the caller's options.

    A tag names an option when its name, without case, spaces, ``_`` or ``-``, is the option's
    (``Crawford``, ``Jacoby``, ``CubeLimit``, ``Koks``, ``HeadException``, ``ChainFromTurn``...);
    ``Scoring`` and ``TimeControl`` (seconds per move) too.  Only options of ``variant`` are read.
    Returns (options, problems): a tag of one of the variant's options whose value cannot be read is
    a problem (tag name, message) and the option keeps its other value.
    """
    opts = dict(base)
    problems: list[tuple[str, str]] = []
    known = {_norm(k): k for k in OPTIONS.get(variant, {})}
    for tag, value in match.tags.items():
        n = _norm(tag)
        if n == "timecontrol" and "time_limit" in OPTIONS.get(variant, {}):
            t = parse_time_control(value)
            if t == "?":
                problems.append((tag, f"TimeControl {value!r} is not understood (seconds per move, e.g. "
                                      f"\"120\" or \"2:00\"): no time limit is checked"))
            else:
                opts["time_limit"] = t
            continue
        key = known.get(n)
        if key is None or key == "time_limit":
            continue
        try:
            opts[key] = parse_option(variant, key, value)
        except ValueError as e:
            if key in ("crawford", "jacoby") and value.strip().lower() not in _ON | _OFF:
                continue       # .mat headers: an unreadable Crawford/Jacoby value has always been ignored
            problems.append((tag, str(e)))
    return opts, problems


def variant_name(match: Match, default: str) -> tuple[str, str | None]:
    """The variant a record names (own notation ``Variant``, .mat ``Variation``), or ``default``; and the
    tag that named it."""
    for tag in ("Variant", "Variation"):
        value = match.tag(tag)
        if value and value.strip():
            return value, tag
    return default, None


def options_for(variant: str, options: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The caller's options (``--rule``) as they apply to ``variant``: unscoped keys and keys scoped to
    this variant (``long:koks``).  Returns (options, problems): an unscoped key the variant does not
    have is a problem (a message), since the record would not be judged as asked."""
    out: dict[str, Any] = {}
    problems: list[str] = []
    spec = OPTIONS.get(variant, {})
    for key, value in options.items():
        scope, sep, name = key.rpartition(":")
        if sep:
            if scope == variant:
                out[name] = value
            continue
        if key not in spec:
            problems.append(f"--rule {key}: the variant {variant} has no option {key!r} (its options: "
                            f"{', '.join(sorted(spec))}); the record is validated without it")
            continue
        out.setdefault(key, value)
    return out, problems


def variant_for(match: Match, default: str, options: dict[str, Any]) -> Variant:
    name, _ = variant_name(match, default)
    v = get_variant(name)
    opts, _ = options_for(v.name, options)
    opts, _ = options_from_tags(match, opts, v.name)
    return get_variant(v.name, opts)


def validate_match(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None) -> MatchReport:
    """Replay one record under the variant it names (``Variant`` / ``Variation`` tag, else ``variant``) with
    the options its tags set, else ``options`` (``--rule``)."""
    name, tag = variant_name(match, variant)
    try:
        v0 = get_variant(name)
    except UnknownVariant as e:
        rep = MatchReport(match.path, match.notation, str(name))
        key = next((k for k in match.tags if tag and k.casefold() == tag.casefold()), "")
        loc = match.tag_locs.get(key, Loc(1, 1))
        rep.findings.append(Finding("parse-error", str(e), match.path, loc.line, loc.column))
        return rep
    opts, arg_problems = options_for(v0.name, options or {})
    opts, tag_problems = options_from_tags(match, opts, v0.name)
    try:
        v = get_variant(v0.name, opts)
    except UnknownVariant as e:      # option values the rules object refuses
        rep = MatchReport(match.path, match.notation, v0.name)
        rep.findings.append(Finding("parse-error", str(e), match.path, 1, 1))
        return rep
    rep = replay(match, v)
    rep.arg_errors.extend(arg_problems)
    for tag_name, msg in tag_problems:
        loc = match.tag_locs.get(tag_name, Loc(1, 1))
        rep.findings.insert(0, Finding("parse-error", msg, match.path, loc.line, loc.column, WARNING))
    return rep


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


def parse_rule_options(variant: str | None, items: list[str]) -> dict[str, Any]:
    """``--rule`` items to options.  ``KEY=VALUE`` applies to every record whose variant has the option
    (``variant`` None: the key must be an option of some variant; the variant is chosen per record);
    ``VARIANT:KEY=VALUE`` only to records of that variant.  ValueError on an unknown key or bad value."""
    opts: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--rule takes KEY=VALUE, not {item!r}")
        key = key.strip()
        scope, colon, name = key.rpartition(":")
        if colon:
            v = get_variant(scope).name          # UnknownVariant (a ValueError) for a bad scope
            opts[f"{v}:{name.strip()}"] = parse_option(v, name.strip(), value)
        else:
            if variant is None and key not in all_option_names():
                raise ValueError(f"unknown rule option {key!r}; known: {', '.join(all_option_names())}")
            opts[key] = parse_option(variant if variant and key in OPTIONS.get(variant, {}) else None, key, value)
    return opts
