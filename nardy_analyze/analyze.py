"""Library entry points: account for the inputs, read them, choose the variant, replay (the inputs in
:mod:`nardy_analyze.inputs`).

    from nardy_analyze.analyze import validate_paths
    run = validate_paths(["match.mat"])
    for f in run.findings: print(f.rule, f.line, f.message)

Every command that reads records uses :func:`discover`, :func:`load` and :func:`map_records`
(docs/architecture.md, "Inputs").
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

from .engine import UnknownVariant, get_variant, variant_display, variant_names
from .i18n import ngettext
from .inputs import RECORD, SKIPPED, UNREADABLE, Entry, discover, load
from .judged import choose_variant, variant_name
from .record import Match
from .replay import WARNING, Finding, MatchReport, replay
from . import runner
from .report import INTERNAL_ERROR, RunResult


def validate_match(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None) -> MatchReport:
    """Replay one record under the variant it names (``Variant`` / ``Variation`` tag, else ``variant``) with
    the options its tags set, else ``options`` (``--rule``).  (``validate`` adds :func:`hint_variant`.)"""
    choice = choose_variant(match, variant, options)
    if choice.variant is None:
        rep = MatchReport(match.path, match.notation, choice.name)
        loc, msg = choice.error
        rep.findings.append(Finding("parse-error", msg, match.path, loc.line, loc.column))
        return rep
    rep = replay(match, choice.variant)
    rep.arg_errors.extend(choice.arg_errors)
    for loc, msg in choice.tag_problems:
        rep.findings.insert(0, Finding("parse-error", msg, match.path, loc.line, loc.column, WARNING))
    return rep


def hint_variant(match: Match, variant: str, options: dict[str, Any] | None, rep: MatchReport) -> MatchReport:
    """``rep`` of :func:`validate_match` (``match``, ``variant``, ``options``), for a record that names no
    variant and was judged with errors under ``variant``: when its plays fit another variant far better
    (at most a quarter of the errors: none, for a record with one to three), its first error says so and
    names the option (``--variant long?``).  The record is still judged as it was.  One more replay per
    other variant, for such records only."""
    rule_errors = sum(f.severity != WARNING and f.rule != "parse-error" for f in rep.findings)
    if not rule_errors or variant_name(match, variant)[1] is not None:
        return rep
    try:
        judged = get_variant(rep.variant)
    except UnknownVariant:
        return rep
    best: tuple[int, str] | None = None
    for name in variant_names():
        if name == judged.name:
            continue
        other = choose_variant(match, name, options)
        if other.variant is None:
            continue
        errors = sum(f.severity != WARNING and f.rule != "parse-error"
                     for f in replay(match, other.variant).findings)
        if errors * 4 <= rule_errors and (best is None or errors < best[0]):
            best = (errors, other.variant.name)
    if best is None:
        return rep
    first = next(f for f in rep.findings if f.severity != WARNING)
    # TRANSLATORS: added to a finding's message; {judged}: a variant's name (nominative: "judged as long
    # nardy"), {better}: a variant's name in the dative ("fit long nardy"), {option}: what --variant takes
    # (interface: long, gulbara); {n}: the errors under {better}, {m}: under {judged}
    first.message += ngettext(" (the record names no variant and was judged as {judged}; its plays fit {better} "
                              "far better: {n} error instead of {m}; --variant {option}?)",
                              " (the record names no variant and was judged as {judged}; its plays fit {better} "
                              "far better: {n} errors instead of {m}; --variant {option}?)", best[0]).format(
        judged=judged.rules.display_title(), better=variant_display(best[1], "dat"), option=best[1], n=best[0],
        m=rule_errors)
    return rep


def map_records(entries: Iterable[Entry], work: Callable[..., Any], args: tuple = (), *,
                jobs: int | None = None,
                progress: Callable[[str, int, int], None] | None = None,
                max_bytes: int | None = None, total: int | None = None,
                engine: Any = None, combine: Callable[[list[Any]], Any] | None = None, chunk: int = 0
                ) -> Iterator[tuple[Entry, str, Any]]:
    """:func:`nardy_analyze.runner.map_records` over records read by :func:`load` (every command reads
    through it; see there for ``jobs``, ``progress``, ``max_bytes``, ``total``, ``combine`` and ``chunk``).
    ``engine``: None or ``"local"`` (this machine), a :class:`nardy_analyze.cluster.DaskEngine`, or
    ``"dask"``: a LocalCluster of ``jobs`` processes started for this run (``cluster.ClusterError`` when
    the cluster cannot be used)."""
    if engine == "dask":
        from .cluster import connect     # (Dask's part: imported when asked for)

        with connect(None, jobs) as eng:
            yield from runner.map_records(entries, work, args, load=load, jobs=jobs, progress=progress,
                                          max_bytes=max_bytes, total=total, engine=eng, combine=combine,
                                          chunk=chunk)
        return
    yield from runner.map_records(entries, work, args, load=load, jobs=jobs, progress=progress,
                                  max_bytes=max_bytes, total=total, engine=engine, combine=combine, chunk=chunk)


def _validate_one(entry: Entry, match: Match, variant: str, options: dict[str, Any] | None) -> MatchReport:
    return hint_variant(match, variant, options, validate_match(match, variant, options))


def _validate_analysed(entry: Entry, match: Match, variant: str, options: dict[str, Any] | None,
                       plies: int) -> MatchReport:
    """:func:`_validate_one` with the engine's analysis of each finding's position (``validate --analyse``)."""
    from .finding_analysis import annotate    # (pandas and the engine: only with --analyse)

    return annotate(match, _validate_one(entry, match, variant, options), variant, options, plies)


def count_records(paths: Iterable[str]) -> int:
    """How many records :func:`discover` finds (a walk of the folders, for a progress bar's total), counting
    the files still to judge by their start (``Entry.judge``) as the runs do: the progress counts them too."""
    return sum(e.status == RECORD for e in discover(paths, judge_later=True))


def iter_validate(paths: Iterable[str], variant: str = "backgammon", options: dict[str, Any] | None = None,
                  progress: Callable[[str, int, int], None] | None = None, jobs: int | None = None,
                  *, max_bytes: int | None = None, engine: Any = None,
                  analyse: int | None = None) -> Iterator[tuple[str, str, Any]]:
    """Validate files and folders, yielding each input as it is done, in the order of :func:`discover`:
    ``("ok", path, MatchReport)`` for a record (a file whose reading or replay failed inside
    nardy-analyze, a bug, is a report with one ``internal-error`` finding), ``("skipped", path, reason)``
    or ``("unreadable", path, message)``.  Nothing of the run is kept here: memory stays flat however
    many files there are (see :func:`map_records`).  Arguments as :func:`validate_paths`; ``analyse``:
    the search depth of the engine's analysis of each finding's position (``validate --analyse``), None
    for none.
    """
    paths = list(paths)
    total = count_records(paths) if progress is not None else None
    work, args = (_validate_one, (variant, options)) if analyse is None else \
        (_validate_analysed, (variant, options, analyse))
    # (a file of an ambiguous suffix found in a folder is judged by its start where it is read: a worker)
    for entry, kind, value in map_records(discover(paths, judge_later=True), work, args, jobs=jobs,
                                          progress=progress, max_bytes=max_bytes, total=total,
                                          engine=engine):
        if kind == "ok":
            yield "ok", entry.shown, value
        elif kind in (SKIPPED, UNREADABLE):
            yield kind, entry.shown, value
        else:
            rep = MatchReport(entry.shown, entry.notation or "unknown", variant)
            rep.findings.append(Finding(INTERNAL_ERROR, value, entry.shown, 1, 1))
            yield "ok", entry.shown, rep


def validate_paths(paths: Iterable[str], variant: str = "backgammon", options: dict[str, Any] | None = None,
                   progress: Callable[[str, int, int], None] | None = None, jobs: int | None = None,
                   *, max_bytes: int | None = None, engine: Any = None) -> RunResult:
    """Validate files and folders: every input accounted for (see :func:`discover`).

    Records are in ``run.reports``; ``run.skipped`` and ``run.unreadable`` hold ``(path, reason)``.
    A file whose reading or replay fails inside nardy-analyze (a bug) is a report with one
    ``internal-error`` finding naming the file and the version; the other files are still validated.
    ``progress(path, done, total)`` is called after each file.
    ``jobs``: worker processes (default: one per core when there are many files; 1 = in this process).
    Results come in the order of the files, whatever the number of workers.
    ``max_bytes``: size limit of one file (default :data:`MAX_BYTES`, option ``--max-file-size``).
    ``engine``: where the files are mapped (see :func:`map_records`; ``--engine dask``).
    The result keeps every report: for a large archive use :func:`iter_validate` with a streaming
    writer of :mod:`nardy_analyze.report` (as the command line does).
    """
    run = RunResult()
    for kind, path, value in iter_validate(paths, variant, options, progress, jobs, max_bytes=max_bytes,
                                          engine=engine):
        if kind == "ok":
            run.reports.append(value)
        elif kind == SKIPPED:
            run.skipped.append((path, value))
        else:
            run.unreadable.append((path, value))
    return run
