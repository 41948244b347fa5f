"""Convert records between notations: one reader and one writer per notation, the record model between.

    from nardy_analyze.convert import convert_paths
    run = convert_paths(["match.mat"], "sgf", out_dir="out")
    for o in run.outcomes: print(o.status, o.source, o.target, o.messages)

Every conversion is lossless or refused: a target notation's ``losses(match)`` names what it cannot hold
(file and game); with ``lossy=True`` the file is written anyway and the losses are listed as dropped.
A record that breaks the rules is converted as written, with a warning naming the first finding.
Files are written whole or not at all (:func:`nardy_analyze.fsio.write_atomically`); with ``out_dir``,
two inputs that would give the same output name are an error before anything is written.

Each record is read and replayed once: the warning and what the ``.mat`` and ``.sgf`` writers need from
the rules engine come from the same replay (:mod:`nardy_analyze.replay.normal`).  The files run over
:func:`nardy_analyze.runner.map_records` (``jobs`` worker processes, as ``validate``), each written by
the worker that converted it.
"""
from __future__ import annotations

import functools
import os
import sys
import time
from dataclasses import field, replace
from pathlib import Path
from typing import Callable, Iterable

from .shapes import dataclass
from . import notation
from .fsio import OutputError, exists, is_folder, sync_written, write_bytes_atomically
from .i18n import _, ngettext
from .record import Kind, Match, sent_by_fields

from .runner import Doing, default_jobs, map_records, prestart
from .inputs import (RECORD, UNREADABLE, SKIPPED as SKIP, Entry, InputError, Skip, SkipReason, found_in, judged,
                     load, read_bytes)

WRITTEN, REFUSED, FAILED, SKIPPED = "written", "refused", "failed", "skipped"


class ConvertError(Exception):
    """Arguments that cannot work (before anything is written)."""


@sent_by_fields
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
    unreadable: bool = False          # failed because the input could not be read at all
    unwritable: bool = False          # failed because the output could not be written (exit code 2)
    internal: bool = False            # failed by a bug of nardy-analyze: an internal error (exit code 2)


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
        if all(o.status == FAILED and o.unreadable for o in self.outcomes):
            return 2                  # no input could be read at all
        if any(o.unwritable or o.internal for o in self.outcomes):
            return 2                  # an output that cannot be written, as validate -o; an internal error
        done = [o for o in self.outcomes if o.status != SKIPPED]
        if not done:
            return 2
        return 0 if all(o.status == WRITTEN for o in done) else 1


@sent_by_fields
@dataclass(frozen=True, slots=True)
class _Input(Entry):
    """An input with the file its conversion is written to (``-``: standard output); ``fresh``: the target's
    folder was made by this run, so no file is there to replace (the worker does not look)."""

    target: str | None = None
    fresh: bool = False


def target_path(source: str, to: str, out_dir: str | None, root: str | None = None) -> str:
    """Where ``source`` goes: beside the source, or with ``out_dir`` ``DIR/NAME.<ext>``; a file found in
    the folder ``root`` goes to the same sub-folder of ``out_dir`` as it is in of ``root``.  The path is
    spelled as ``pathlib`` spells it (``str(Path(folder) / name)``); the folder is worked out once per
    folder of sources (:func:`_target_folder`), the name with pathlib's own stem rule."""
    ext = notation.suffixes_of(to)[0]
    if source == "-":
        return "-"
    head, name = os.path.split(source)
    i = name.rfind(".")
    stem = name[:i] if 0 < i < len(name) - 1 else name       # (pathlib's PurePath.stem)
    folder = _target_folder(head, out_dir, root, os.getcwd() if root is not None else "")
    if folder == ".":
        return stem + ext
    return folder + stem + ext if folder.endswith("/") else folder + "/" + stem + ext


@functools.lru_cache(maxsize=1024)
def _target_folder(head: str, out_dir: str | None, root: str | None, cwd: str) -> str:
    """The folder of :func:`target_path`'s result, as ``str(Path(...))`` spells it, for a source in the folder
    ``head`` (``os.path.split``'s head); ``cwd``: the working folder where ``os.path.relpath`` depends on it
    (with a ``root``), so that a folder worked out before a change of it is not given after."""
    if out_dir is None:
        return str(Path(head))
    folder = Path(out_dir)
    if root is not None:
        rel = os.path.relpath(head, root)
        if rel != os.curdir and not rel.startswith(os.pardir):
            folder = folder / rel
    return str(folder)


def _inside(path: str, folder: str) -> bool:
    cwd = os.getcwd()
    p, f = os.path.normpath(os.path.join(cwd, path)), _absolute(folder, cwd)     # (os.path.abspath)
    return p == f or p.startswith(f.rstrip(os.sep) + os.sep)


@functools.lru_cache(maxsize=64)
def _absolute(folder: str, cwd: str) -> str:
    """``os.path.abspath(folder)`` in the working folder ``cwd``, of a folder named on the command line (the same
    for every file found)."""
    return os.path.normpath(os.path.join(cwd, folder))


def _found(paths: Iterable[str], to: str, out_dir: str | None,
           judge_later: bool = False) -> list[tuple[Entry, str | None]]:
    """(entry, the folder named by the caller it was found in, else None) for every input of the shared
    discovery (:func:`nardy_analyze.inputs.discover`).  Skipped in a folder, so that converting it again
    converts the same files: without ``out_dir``, a file with the suffix the target notation is written
    with (``.sgf`` for ``sgf``: it would be its own output, or the output of an earlier run; a ``.txt``
    is still converted to ``.mat``); with ``out_dir``, a file inside ``out_dir``.  ``judge_later``: a file of
    an ambiguous suffix found in a folder is judged by its start when it is read (``inputs.discover``)."""
    written_as = notation.suffixes_of(to)[0]
    out: list[tuple[Entry, str | None]] = []
    for e, root in found_in(paths, judge_later):
        if root is not None:          # (found in the folder root, named by the caller)
            if e.status == RECORD:
                if out_dir is not None and _inside(e.path, out_dir) and not _inside(root, out_dir):
                    e = Entry(e.path, SKIP, inside_reason(), notation=e.notation)
                elif out_dir is None and os.path.splitext(e.path)[1].lower() == written_as:
                    e = Entry(e.path, SKIP, already_reason(to), notation=e.notation)
        out.append((e, root))
    return out


def inside_reason() -> SkipReason:
    """Why a file found in a folder is not converted: it is in the ``--out-dir`` folder."""
    return SkipReason(_("inside the --out-dir folder (an output, not an input)"), Skip.INSIDE)


def already_reason(to: str) -> SkipReason:
    """Why a file found in a folder is not converted: it has the target notation's suffix."""
    # TRANSLATORS: {notation}: the target notation's name (mat, sgf, ngn, json)
    return SkipReason(_("already {notation}, the target notation").format(notation=to), Skip.ALREADY)


def _plan(paths: Iterable[str], to: str, output: str | None, out_dir: str | None
          ) -> list[tuple[Entry, str | None]]:
    """(entry, target) for every input: records with their output file, skipped and unreadable entries
    with None; ConvertError when the outputs clash (before anything is written)."""
    notation.suffixes_of(to)                      # KeyError for an unknown notation
    if output is not None and out_dir is not None:
        raise ConvertError(_("use either -o FILE or --out-dir DIR, not both"))
    # the files of an ambiguous suffix found in folders are judged by their start as the workers read them,
    # except with -o (one input: it must be known whether each is a record) and where they take part in a
    # clash (below)
    found = _found(paths, to, out_dir, judge_later=output is None)
    files = [e for e, _ in found if e.status != SKIP]
    if output is not None:
        if len(files) != 1:
            raise ConvertError(ngettext("-o names one output file but there are {n} inputs; use --out-dir DIR",
                                        "-o names one output file but there are {n} inputs; use --out-dir DIR",
                                        len(files)).format(n=len(files)))
        return [(e, output if e.status == RECORD else None) for e, _ in found]
    if any(e.path == "-" for e in files if e.status == RECORD) and out_dir is not None:
        raise ConvertError(_("standard input has no name to write into --out-dir; use -o FILE or -o -"))
    # a skipped file (found in a folder, no game record) and an unreadable path have no target
    out = [(e, target_path(e.path, to, out_dir, root) if e.status == RECORD else None) for e, root in found]
    clashes, involved = _clashes(out)
    if any(out[i][0].judge for i in involved):
        # a file still to judge takes part in a clash: the files in clashes judged here (one that is no record
        # has no target), and the outputs checked again
        for i in involved:
            e, root = found[i]
            if e.judge:
                e = judged(e)
                out[i] = (e, target_path(e.path, to, out_dir, root) if e.status == RECORD else None)
        clashes, _involved = _clashes(out)
    if clashes:
        listed = "; ".join(clashes[:3])
        if len(clashes) > 3:
            # TRANSLATORS: {clashes}: the first three clashes (joined by "; "); {n}: how many more there are
            raise ConvertError(ngettext("{clashes}; and {n} more (nothing was written)",
                                        "{clashes}; and {n} more (nothing was written)",
                                        len(clashes) - 3).format(clashes=listed, n=len(clashes) - 3))
        raise ConvertError(_("{clashes} (nothing was written)").format(clashes=listed))
    return out


def _clashes(out: list[tuple[Entry, str | None]]) -> tuple[list[str], list[int]]:
    """The clashes of the outputs of ``out`` ((entry, target) pairs), as messages, and the indexes of the
    entries that take part in them."""
    seen: dict[str, int] = {}
    clashes: list[str] = []
    involved: list[int] = []
    cwd = os.getcwd()
    for i, (e, t) in enumerate(out):
        if t is None or t == "-":
            continue
        at = _absolute_path(t, cwd)
        key = os.path.normcase(at)
        first = seen.get(key)
        if first is not None:
            clashes.append(_("{first} and {second} would both be written to {target}").format(
                first=out[first][0].path, second=e.path, target=t))
            involved += (first, i)
        else:
            seen[key] = i
        if _absolute_path(e.path, cwd) == at:
            clashes.append(_("{path} would be overwritten by its own conversion; use --out-dir DIR or -o FILE").format(
                path=e.path))
            involved.append(i)
    return clashes, involved


def _absolute_path(path: str, cwd: str) -> str:
    """``os.path.abspath(path)`` with the working folder ``cwd`` asked once: ``path`` itself where it is already
    absolute and normal (no ``//``, no component that starts with a dot, no final ``/``), as most are when a
    shell or a folder's walk spells them; otherwise ``normpath`` works it out."""
    if os.sep == "/" and path.startswith("/") and "//" not in path and "/." not in path and not path.endswith("/"):
        return path
    return os.path.normpath(os.path.join(cwd, path))


def _cannot_be_read(path: str) -> str:
    return _("{path}: cannot be read").format(path=path)


def read_input(path: str) -> tuple[Match | None, str | None, str]:
    """(match, encoding, error) of one input file."""
    try:
        data = read_bytes(path)
    except InputError as e:
        return None, None, str(e)
    shown = "<stdin>" if path == "-" else path
    dec = notation.decode_detail(data)
    match = notation.read_text(dec.text, shown)
    match.encoding = dec.encoding
    return match, dec.encoding, ""


def first_finding(match: Match, report=None) -> str | None:
    """The first rule finding (error) of the record, as ``path:line:col: rule: message``; None if clean.
    ``report``: the record's replay (a MatchReport) when the caller has it already."""
    if report is None:
        from .analyze import validate_match     # (the replay: not imported before a command's workers start)

        report = validate_match(match)
    errors = [f for f in report.findings if f.severity == "error" and f.rule != "parse-error"]
    if not errors:
        return None
    f = min(errors, key=lambda f: (f.line, f.column))
    return f"{f.path}:{f.line}:{f.column}: {f.rule}: {f.message}"


def _normal(match: Match, exact: bool = True):
    return _replay_parts()[0](match, exact=exact)


def _replay_parts() -> tuple:
    """(``replay.normal.normalise``, ``judged.not_played_refusal``): the replay and the engine, imported at the
    first need (in a command's worker processes as they start, :func:`_warm_worker`; not by the command's own
    process, which only plans the run and reports it)."""
    global _NORMALISE
    if _NORMALISE is None:
        from .replay.normal import normalise     # (the replay and the engine: see above)
        from .judged import not_played_refusal

        _NORMALISE = (normalise, not_played_refusal)
    return _NORMALISE


_NORMALISE: tuple | None = None      # _replay_parts(), once imported


def _margin_results_placed(match: Match) -> Match:
    """``match`` with each ``Wins`` written at the left margin (in neither player's column, a hand-typed
    archive) given to the winner the replay credits, for a notation whose writer does not replay (JSON,
    .ngn): they have no "no column", and the column's guess (the left player) would become the record's word.
    The same record when there is no such result, or the game's end does not settle the winner."""
    if not any(a.kind is Kind.WIN and a.margin for g in match.games for a in g.actions):
        return match
    normal = _normal(match)
    games = []
    for g, ng in zip(match.games, normal.games):
        w = ng.report.winner
        if w in (0, 1) and any(a.kind is Kind.WIN and a.margin for a in g.actions):
            g = replace(g, actions=[replace(a, player=w, margin=False) if a.kind is Kind.WIN and a.margin else a
                                    for a in g.actions])
        games.append(g)
    return replace(match, games=games + match.games[len(games):])


def write_text(match: Match, to: str) -> str:
    """The text of ``match`` in notation ``to`` (library use): the record is replayed first when the
    notation's writer needs the normalised match (``needs_replay``); the writer's errors are raised."""
    writer = notation.get(to)
    if writer.write is None:
        raise ValueError(_("the {notation} notation has no writer").format(notation=to))
    if writer.needs_replay:
        return writer.write(match, _normal(match, writer.exact_routes))
    return writer.write(_margin_results_placed(match))


def convert_match(match: Match, to: str, *, lossy: bool = False, explicit: bool = True,
                  analyse: tuple[int, int] | None = None) -> tuple[Outcome, str | None]:
    """Convert one record read already: (outcome, text).  The outcome's target is not set and its status is
    WRITTEN when ``text`` is to be written; the record is replayed once, and a writer that needs the
    replay's view (:mod:`nardy_analyze.replay.normal`) gets it from that one replay.  A record with no game fails
    (with the reader's reasons, as ``validate`` reports them) whether it was named (``explicit``) or found
    in a folder: the folder walk has skipped what is no record already.  ``analyse``: ``(plies, threads)``
    to write GNU Backgammon's analysis properties (``--to sgf`` only; :func:`sgf_analysis`)."""
    writer = notation.get(to)
    shown, encoding = match.path, match.encoding
    if not match.games:   # as validate reports it (parse errors), whether named or found in a folder
        why = [f"{shown}:{p.loc}: {p.message}" for p in match.problems[:3]] or \
              [_("{path}: no game found").format(path=shown)]
        return Outcome(shown, None, FAILED, why, encoding=encoding), None
    refusal = _replay_parts()[1](match)
    if refusal is not None:   # a variant the engine does not play: refused, --lossy or not (nothing to drop)
        return Outcome(shown, None, FAILED, [refusal], encoding=encoding), None
    lost = writer.losses(match)
    lost = [f"{shown}: {x}" for x in lost]
    if lost and not lossy:
        return Outcome(shown, None, REFUSED, lost, encoding=encoding), None
    normal = None
    if writer.needs_replay:
        normal = _normal(match, writer.exact_routes)
        warning = first_finding(match, normal.report)
        # results the target, as GNU Backgammon reads it, would credit otherwise (docs/convert.md)
        unsaid = [f"{shown}: {x}" for x in writer.result_losses(normal)] if writer.result_losses else []
        if unsaid and not lossy:
            return Outcome(shown, None, REFUSED, lost + unsaid, encoding=encoding), None
        lost = lost + unsaid
    else:
        warning = first_finding(match)
    note = ignored_note(match)
    analysis = None
    if analyse is not None:
        analysis, why = sgf_analysis(match, *analyse)
        note = "; ".join(x for x in (note, why) if x) or None
    # (a writer's bug goes on up to the runner's error boundary: an internal error, exit code 2)
    if analysis is not None:
        text = writer.write(match, normal, analysis=analysis)
    else:
        text = writer.write(match, normal) if normal is not None else writer.write(_margin_results_placed(match))
    return Outcome(shown, None, WRITTEN, lost, warning, encoding, dropped=bool(lost), note=note), text


def sgf_analysis(match: Match, plies: int = 0, threads: int = 0) -> tuple[dict | None, str | None]:
    """The engine's analysis of ``match`` for the SGF writer (``convert --to sgf --analyse``): the
    properties per record cell, and a note when some or all of it could not be given (a variant without
    an engine: written without analysis)."""
    from .stats import skill      # (pandas and the engine: only with --analyse)

    analysis, res = skill.sgf_analysis(match, plies=plies, threads=threads)
    if res.notes:
        # TRANSLATORS: {reason}: why the engine gave no analysis (the analysis's own message)
        return None, _("{path}: no analysis written: {reason}").format(path=match.path,
                                                                       reason=res.notes[0].split(": ", 2)[-1])
    return analysis, None



def _finish(outcome: Outcome, text: str | None, target: str, force: bool, stdout=None,
            make_folder: bool = False, fresh: bool = False) -> Outcome:
    """Write ``text`` (when the conversion gave one) to ``target``: atomically, or to ``stdout`` for ``-``.
    ``make_folder``: the folder of ``target`` is made when it is missing (a sub-folder of ``--out-dir`` that
    only files judged as they were read go to: :func:`convert_paths` did not make it).  ``fresh``: the folder
    was made by this run (``fsio.write_bytes_atomically``'s ``absent``)."""
    if text is None:
        return outcome
    if target == "-":
        (stdout or sys.stdout).write(text)
        return outcome
    data = text.encode("utf-8")
    try:   # (synced to disk at the end of the run, all at once: convert_paths)
        write_bytes_atomically(target, data, force=force, sync=False, absent=fresh)
    except OutputError as e:
        why = str(e)
        folder = os.path.dirname(target)
        # (written again whether this process makes the folder or another worker made it since the first try)
        if make_folder and folder:
            try:
                os.makedirs(folder, exist_ok=True)
                write_bytes_atomically(target, data, force=force, sync=False)
                return outcome
            except OSError as e2:
                why = _("cannot create {folder}: {reason}").format(folder=folder, reason=e2.strerror or e2)
            except OutputError as e2:
                why = str(e2)
        outcome.status, outcome.messages, outcome.dropped = FAILED, [why], False
        outcome.unwritable = True
    return outcome


def _convert_entry(entry: Entry, match: Match, to: str, output: str | None, out_dir: str | None,
                   lossy: bool, analyse: tuple[int, int] | None = None) -> tuple[Outcome, str | None]:
    """One file's conversion, in a worker process (:func:`nardy_analyze.runner.map_records`): the file is
    written there; for standard output (``-o -``) the text comes back to the caller."""
    target = entry.target if isinstance(entry, _Input) and entry.target is not None else \
        output if output is not None else target_path(entry.path, to, out_dir)
    # a bug (in a replay, a losses check, a writer) goes on up to the runner's error boundary (an internal
    # error of this file, exit code 2; the other files go on)
    outcome, text = convert_match(match, to, lossy=lossy, explicit=entry.explicit, analyse=analyse)
    outcome.source, outcome.target = entry.path, target
    if outcome.status == SKIPPED:
        outcome.target = None
    if target == "-":
        return outcome, text
    # force: whether an output may be replaced was decided before the run (convert_paths)
    return _finish(outcome, text, target, True, make_folder=entry.judge,
                   fresh=isinstance(entry, _Input) and entry.fresh), None


_convert_entry.doing = Doing.CONVERTING      # (for the runner's internal-error message)


def ignored_note(match: Match) -> str | None:
    """One line naming what the reader ignored on purpose (gnubg's analysis and annotation properties in
    an SGF file: evaluations, move lists, luck, skill marks), or None."""
    if not match.ignored:
        return None
    n = sum(match.ignored.values())
    what = ", ".join(f"{k} {v}" for k, v in sorted(match.ignored.items(), key=lambda kv: (-kv[1], kv[0])))
    # TRANSLATORS: {what}: the SGF properties (interface names) and their counts: "A 40, LU 38"
    return ngettext("{path}: {n} analysis/annotation property ignored ({what}): the record keeps moves and "
                    "comments, not evaluations",
                    "{path}: {n} analysis/annotation properties ignored ({what}): the record keeps moves and "
                    "comments, not evaluations", n).format(path=match.path, n=n, what=what)


def convert_paths(paths: Iterable[str], to: str, output: str | None = None, out_dir: str | None = None,
                  force: bool = False, lossy: bool = False,
                  progress: Callable[[str, int, int], None] | None = None, stdout=None,
                  jobs: int | None = None, analyse: int | None = None) -> ConvertRun:
    """Convert every input to notation ``to``.  Raises ConvertError (nothing written) for clashing outputs.

    ``jobs``: worker processes (default: one per core when there are 32 files or more; 1 = in this
    process), as in ``validate``; outcomes come in the order of the inputs whatever the number.  Without
    ``force``, an input whose output file exists already fails before anything is read or written.
    ``analyse``: the search depth (plies, 0 = the network alone) of the analysis written into SGF files
    (``to`` must be ``sgf``; needs the analysis extra), None for none."""
    pool = _early_workers(paths, to, output, out_dir, lossy, jobs, analyse)
    finished = False
    try:
        run = _convert_all(paths, to, output, out_dir, force, lossy, progress, stdout, jobs, analyse, pool)
        finished = True
        return run
    finally:
        if pool is not None:            # (nothing left to do once the run's map_records has ended them)
            pool.stop(finished)


def _early_workers(paths: Iterable[str], to: str, output: str | None, out_dir: str | None, lossy: bool,
                   jobs: int | None, analyse: int | None):
    """The worker processes of a run that will have them (``jobs`` > 1, or no ``jobs`` and 32 files or more
    named), started before the run is planned (``runner.prestart``): as this process walks the inputs and
    checks their outputs, they import the replay, the writer and the readers the files' names call for.  None
    where their number is not known before the plan (no ``jobs`` and fewer paths: a folder may hold any number of
    files), with the analysis (its processes are arranged otherwise), and where workers are not forked."""
    if analyse is not None or not isinstance(paths, (list, tuple)) or "-" in paths:
        return None
    n = jobs if jobs is not None else default_jobs(len(paths))
    if n <= 1:
        return None
    return prestart(n, _convert_entry, (to, output, out_dir, lossy), load=load,
                    warm=functools.partial(_warm_worker, to, paths))


def _warm_worker(to: str, paths: list[str]) -> None:
    """What a worker started early imports while it waits for its first files (:func:`_early_workers`)."""
    _replay_parts()
    notation.get(to)
    notation.import_readers(paths)


def _convert_all(paths: Iterable[str], to: str, output: str | None, out_dir: str | None, force: bool, lossy: bool,
                 progress: Callable[[str, int, int], None] | None, stdout, jobs: int | None, analyse: int | None,
                 pool) -> ConvertRun:
    """:func:`convert_paths`, with the worker processes ``pool`` started early (None: none)."""
    work = _plan(paths, to, output, out_dir)
    if not force:   # a file still to judge whose output exists: judged now (no record: skipped, not failed)
        for i, (entry, target) in enumerate(work):
            if entry.judge and target is not None and target != "-" and os.path.exists(target):
                entry = judged(entry)
                work[i] = (entry, target if entry.status == RECORD else None)
    made: set[str] = set()             # the folders this run makes: nothing in them to replace
    if out_dir is not None:            # DIR and the sub-folders the inputs' folders mirror
        # (those of the records known here; a sub-folder only the files still to judge go to is made by the
        # worker that writes the first of them: _finish)
        folders = [out_dir] + sorted({os.path.dirname(t) for e, t in work
                                      if t is not None and t != "-" and not e.judge})
        made.update(f for f in folders if not os.path.isdir(f))
        for folder in folders:
            if os.path.isdir(folder):
                continue
            try:
                os.makedirs(folder, exist_ok=True)
            except OSError as e:
                raise ConvertError(_("cannot create {folder}: {reason}").format(folder=folder,
                                                                                reason=e.strerror or e)) from None
    run = ConvertRun(to)
    early: dict[int, Outcome] = {}     # outcomes known before any file is read
    todo: list[Entry] = []
    for i, (entry, target) in enumerate(work):
        if entry.status == UNREADABLE:
            early[i] = Outcome(entry.path, None, FAILED, [entry.reason or _cannot_be_read(entry.path)],
                               unreadable=True)
            continue
        if target is None:             # found in a folder and not converted (the reason says why)
            early[i] = Outcome(entry.path, None, SKIPPED, [entry.reason])
            continue
        # (a folder this run made has no file to replace: not looked at)
        fresh = target != "-" and bool(made) and os.path.dirname(target) in made
        if target != "-" and not force and not fresh and os.path.exists(target):
            shown = Path(target)       # as fsio.write_atomically says it
            why = is_folder(shown) if shown.is_dir() else exists(shown)
            early[i] = Outcome(entry.path, target, FAILED, [why])
        else:
            todo.append(_Input(entry.path, entry.status, entry.reason, entry.explicit, entry.notation,
                               entry.source, entry.judge, target, fresh))
    started = time.time()
    extra: tuple = ()
    if analyse is not None:            # the engine on every core in one process, on one per worker process
        procs = jobs if jobs is not None else default_jobs(len(todo))
        extra = ((analyse, 0 if procs == 1 else 1),)
    results = map_records(todo, _convert_entry, (to, output, out_dir, lossy) + extra, load=load, jobs=jobs,
                          progress=progress, pool=pool)
    try:
        for i, (entry, target) in enumerate(work):
            if i in early:
                run.outcomes.append(early[i])
                continue
            _entry, kind, value = next(results)
            if kind == "ok":
                outcome, text = value
                if text is not None:                   # -o -: the text is written here
                    outcome = _finish(outcome, text, "-", force, stdout)
            elif kind == UNREADABLE:
                outcome = Outcome(entry.path, None, FAILED, [value], unreadable=True)
            elif kind == SKIP:                         # a file judged by its start as it was read: no record
                outcome = Outcome(entry.path, None, SKIPPED, [value])
            else:                                      # INTERNAL_ERROR: a bug in a reader, the replay or a writer
                outcome = Outcome(entry.path, target, FAILED, [f"{entry.shown}: {value}"], internal=True)
            run.outcomes.append(outcome)
    except BaseException:
        # Ctrl-C or SIGTERM: the workers stopped first (closing the generator stops its pool), then what a
        # write cut short at any instant left behind (a worker process stopped in the middle of a write)
        results.close()
        _sweep_orphans([t for _, t in work if t is not None and t != "-"], started)
        raise
    # a worker process that stopped may leave its temporary file (any internal error: the check is cheap)
    if any(o.status == FAILED and not o.unreadable for o in run.outcomes):
        _sweep_orphans([t for _, t in work if t is not None and t != "-"], started)
    # the files written and their renames on disk when the command ends (one flush, not one per file)
    sync_written([o.target for o in run.outcomes if o.status == WRITTEN and o.target and o.target != "-"])
    return run


def _sweep_orphans(targets: list[str], since: float) -> None:
    """Remove the temporary files (``fsio.write_atomically``: ``.NAME.XXXX.tmp`` beside NAME) that a worker
    process killed in the middle of a write left for these targets during this run (mtime >= ``since``).
    When a worker dies, the pool stops every worker; the files they were writing are written again one
    at a time, but their first temporary files stay behind."""
    by_folder: dict[str, set[str]] = {}
    for t in targets:
        folder, name = os.path.split(t)
        by_folder.setdefault(folder or ".", set()).add(name)
    for folder, names in by_folder.items():
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for e in entries:
            n = e.name
            if not (n.startswith(".") and n.endswith(".tmp")):
                continue
            base = n[1:].rsplit(".", 2)[0]       # ".m6.sgf.xzvxotu6.tmp" -> "m6.sgf"
            if base in names:
                try:
                    if e.stat(follow_symlinks=False).st_mtime >= since - 1:
                        os.unlink(e.path)
                except OSError:
                    pass
