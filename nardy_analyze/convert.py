"""Convert records between notations: one reader and one writer per notation, the record model between.

    from nardy_analyze.convert import convert_paths
    run = convert_paths(["match.mat"], "sgf", out_dir="out")
    for o in run.outcomes: print(o.status, o.source, o.target, o.messages)

Every conversion is lossless or refused: a target notation's ``losses(match)`` names what it cannot hold
(file and game); with ``lossy=True`` the file is written anyway and the losses are listed as dropped.
A record that breaks the rules is converted as written, with a warning naming the first finding.
Files are written whole or not at all (:func:`nardy_analyze.fsio.write_atomically`); with ``out_dir``,
two inputs that would give the same output name are an error before anything is written.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from . import notation
from .fsio import OutputError, write_atomically
from .record import Match

WRITTEN, REFUSED, FAILED, SKIPPED = "written", "refused", "failed", "skipped"


class ConvertError(Exception):
    """Arguments that cannot work (before anything is written)."""


@dataclass(slots=True)
class Outcome:
    source: str
    target: str | None
    status: str                       # written, refused, failed, skipped (a folder's file that is no record)
    messages: list[str] = field(default_factory=list)   # refusals / failures: why; written + lossy: dropped
    warning: str | None = None        # the first rule finding of a record converted as written
    encoding: str | None = None       # how the input was decoded
    dropped: bool = False             # messages list what --lossy dropped
    note: str | None = None           # what the reader ignored on purpose (SGF analysis properties)


@dataclass(slots=True)
class ConvertRun:
    to: str
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def exit_code(self) -> int:
        if not self.outcomes:
            return 2
        if all(o.status == FAILED and o.encoding is None for o in self.outcomes):
            return 2                  # no input could be read at all
        done = [o for o in self.outcomes if o.status != SKIPPED]
        if not done:
            return 2
        return 0 if all(o.status == WRITTEN for o in done) else 1


def _inputs(paths: Iterable[str]) -> list[tuple[str, bool, str | None, bool]]:
    """(path, explicit, error, skipped) for every input, found by the shared discovery of every command
    (:func:`nardy_analyze.analyze.discover`): records, files skipped as no game record, unreadable paths."""
    from .analyze import SKIPPED as SKIP, UNREADABLE, discover

    out: list[tuple[str, bool, str | None, bool]] = []
    for e in discover(paths):
        if e.status == UNREADABLE:
            out.append((e.path, e.explicit, e.reason or f"{e.path}: cannot be read", False))
        else:
            out.append((e.path, e.explicit, None, e.status == SKIP))
    return out


def target_path(source: str, to: str, out_dir: str | None) -> str:
    """Where ``source`` goes: ``DIR/NAME.<ext>`` with ``out_dir``, else beside the source."""
    ext = notation.get(to).suffixes[0]
    if source == "-":
        return "-"
    stem = Path(source).stem
    folder = Path(out_dir) if out_dir is not None else Path(source).parent
    return str(folder / (stem + ext))


def plan(paths: Iterable[str], to: str, output: str | None = None, out_dir: str | None = None
         ) -> list[tuple[str, bool, str | None, str | None]]:
    """(source, explicit, error, target) for every input; ConvertError when the outputs clash."""
    notation.get(to)                              # KeyError for an unknown notation
    found = _inputs(paths)
    if output is not None and out_dir is not None:
        raise ConvertError("use either -o FILE or --out-dir DIR, not both")
    files = [(f, e, err) for f, e, err, skip in found if not skip]
    readable = [f for f in files if f[2] is None]
    if output is not None:
        if len(files) != 1:
            raise ConvertError(f"-o names one output file but there are {len(files)} inputs; use --out-dir DIR")
        return [(f, e, err, output) for f, e, err in files]
    if any(f == "-" for f, _, _ in readable) and out_dir is not None:
        raise ConvertError("standard input has no name to write into --out-dir; use -o FILE or -o -")
    # a skipped file (found in a folder, no game record) has neither an error nor a target
    out = [(f, e, err, None if skip or err is not None else target_path(f, to, out_dir))
           for f, e, err, skip in found]
    seen: dict[str, str] = {}
    clashes = []
    for f, _, err, t in out:
        if t is None or t == "-":
            continue
        key = os.path.normcase(os.path.abspath(t))
        if key in seen:
            clashes.append(f"{seen[key]} and {f} would both be written to {t}")
        else:
            seen[key] = f
        if os.path.abspath(f) == os.path.abspath(t):
            clashes.append(f"{f} would be overwritten by its own conversion; use --out-dir DIR or -o FILE")
    if clashes:
        raise ConvertError("; ".join(clashes) + " (nothing was written)")
    return out


def read_input(path: str) -> tuple[Match | None, str | None, str]:
    """(match, encoding, error) of one input file."""
    from .analyze import InputError, read_bytes

    try:
        data = read_bytes(path)
    except InputError as e:
        return None, None, str(e)
    shown = "<stdin>" if path == "-" else path
    dec = notation.decode_detail(data)
    match = notation.read_text(dec.text, shown)
    return match, dec.encoding, ""


def first_finding(match: Match) -> str | None:
    """The first rule finding (error) of the record, as ``path:line:col: rule: message``; None if clean."""
    from .analyze import validate_match

    rep = validate_match(match)
    errors = [f for f in rep.findings if f.severity == "error" and f.rule != "parse-error"]
    if not errors:
        return None
    f = min(errors, key=lambda f: (f.line, f.column))
    return f"{f.path}:{f.line}:{f.column}: {f.rule}: {f.message}"


def convert_one(source: str, target: str, to: str, *, force: bool = False, lossy: bool = False,
                explicit: bool = True, stdout=None) -> Outcome:
    writer = notation.get(to)
    match, encoding, error = read_input(source)
    if match is None:
        return Outcome(source, target, FAILED, [error])
    shown = match.path
    if not match.games and not explicit:   # a .txt in a folder that is not a record: not ours to convert
        return Outcome(source, target, SKIPPED, [], encoding=encoding)
    if not match.games:
        why = [f"{shown}:{p.loc}: {p.message}" for p in match.problems[:3]] or \
              [f"{shown}: no game found"]
        return Outcome(source, target, FAILED, why, encoding=encoding)
    note = ignored_note(match)
    lost = writer.losses(match) if writer.losses else []
    lost = [f"{shown}: {x}" for x in lost]
    if lost and not lossy:
        return Outcome(source, target, REFUSED, lost, encoding=encoding)
    warning = first_finding(match)
    try:
        text = writer.write(match)
    except Exception as exc:          # a writer bug must not take the other files down
        return Outcome(source, target, FAILED, [f"{shown}: cannot write {to}: {exc!r}"], warning, encoding)
    if target == "-":
        (stdout or sys.stdout).write(text)
    else:
        try:
            write_atomically(target, lambda fh: fh.write(text), force=force)
        except OutputError as e:
            return Outcome(source, target, FAILED, [str(e)], warning, encoding)
    return Outcome(source, target, WRITTEN, lost, warning, encoding, dropped=bool(lost), note=note)


def ignored_note(match: Match) -> str | None:
    """One line naming what the reader ignored on purpose (gnubg's analysis and annotation properties in
    an SGF file: evaluations, move lists, luck, skill marks), or None."""
    if not match.ignored:
        return None
    n = sum(match.ignored.values())
    what = ", ".join(f"{k} {v}" for k, v in sorted(match.ignored.items(), key=lambda kv: (-kv[1], kv[0])))
    return (f"{match.path}: {n} analysis/annotation propert{'y' if n == 1 else 'ies'} ignored ({what}): "
            "the record keeps moves and comments, not evaluations")


def convert_paths(paths: Iterable[str], to: str, output: str | None = None, out_dir: str | None = None,
                  force: bool = False, lossy: bool = False,
                  progress: Callable[[str, int, int], None] | None = None, stdout=None) -> ConvertRun:
    """Convert every input to notation ``to``.  Raises ConvertError (nothing written) for clashing outputs."""
    work = plan(paths, to, output, out_dir)
    if out_dir is not None and not os.path.isdir(out_dir):
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as e:
            raise ConvertError(f"cannot create {out_dir}: {e.strerror or e}") from None
    run = ConvertRun(to)
    for i, (source, explicit, error, target) in enumerate(work, start=1):
        if error is not None:
            run.outcomes.append(Outcome(source, None, FAILED, [error]))
        elif target is None:          # found in a folder and not a game record (analyze.discover says why)
            run.outcomes.append(Outcome(source, None, SKIPPED, []))
        else:
            run.outcomes.append(convert_one(source, target, to, force=force, lossy=lossy, explicit=explicit,
                                            stdout=stdout))
        if progress:
            progress(source, i, len(work))
    return run
