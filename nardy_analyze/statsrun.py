"""The statistics and the skill analysis of files: the jobs that read and replay records over the worker
processes (or a Dask cluster) and fold what each file gives into the tables of :mod:`nardy_analyze.stats`.

    from nardy_analyze import statsrun
    g = statsrun.games(["matches/"])           # one row per player per game
    p = statsrun.players(g)                    # one row per player (also accepts paths)
    m = statsrun.matches(g)                    # one row per match
    p = statsrun.players(["matches/"])         # from paths: folded as the files come, in flat memory
    for chunk in statsrun.iter_games(["matches/"], rows=50_000): ...   # the rows of games(), in chunks
    run = statsrun.analyse(["matches/"])       # the skill analysis: one row per decision

A job of layer 5 (as :mod:`nardy_analyze.analyze`): the modules of :mod:`nardy_analyze.stats` (layer 4)
compute what one file gives (:mod:`~nardy_analyze.stats.tally`, :mod:`~nardy_analyze.stats.aggregate`'s
partial tables, :mod:`~nardy_analyze.stats.skill`'s per-file analysis) and build the tables
(:mod:`~nardy_analyze.stats.frames`); this module runs them over the files with
:func:`nardy_analyze.analyze.map_records`.
"""
from __future__ import annotations

import gc
from collections import Counter
import os
from dataclasses import field
from typing import Any, Callable, Iterable, Iterator, Sequence

import pandas as pd

from .shapes import dataclass
from .analyze import map_records
from .i18n import _
from .engine import RuleSet
from .inputs import SKIPPED, UNREADABLE, Entry, Skip, discover, skip_kind
from .record import Match
from .runner import default_jobs
from .stats import skill
from .stats.aggregate import Aggregate, Partial, combine, partial
from .stats.columns import GAME_COLUMNS, MATCH_COLUMNS, PLAYER_COLUMNS, returns_doc
from .names import NameBook, display_names, normalise_name, parse_aliases
from .stats.frames import game_frame, match_frame, player_frame
from .stats.tally import FileResult, match_rows

__all__ = ["scan", "Scan", "games", "players", "matches", "frame", "iter_games", "iter_frames", "aggregate",
           "decision_frames",
           "analyse", "decisions"]


@dataclass
class Scan:
    """Everything a run read: the game rows and what could not be read."""

    games: pd.DataFrame
    files: int = 0                                        # record files read
    unreadable: list[tuple[str, str]] = field(default_factory=list)   # (path, message)
    problems: list[str] = field(default_factory=list)     # parse problems, "path:line:col: parse-error: ..."
    warnings: list[str] = field(default_factory=list)     # "...: parse-error: warning: ..." (exit code unchanged)
    arg_errors: list[tuple[str, str]] = field(default_factory=list)   # (path, --rule the variant lacks)
    skipped: list[str] = field(default_factory=list)      # files in folders that are not records
    internal_errors: list[tuple[str, str]] = field(default_factory=list)  # (path, message): nardy-analyze failed


def rule_options(variant: str, rules: RuleSet | dict[str, Any] | Sequence[str] | None) -> RuleSet:
    """The rule set of ``rules``: a RuleSet, a flat options dict, ``["crawford=off", ...]`` or None."""
    if rules is None or isinstance(rules, (RuleSet, dict)):
        return RuleSet.of(rules)
    return RuleSet.from_command_line(list(rules))


def scan(paths: Iterable[str] | str, variant: str = "backgammon", rules: dict[str, Any] | Sequence[str] | None = None,
         aliases: dict[str, str] | Sequence[str] | None = None, jobs: int | None = None,
         progress: Callable[[str, int, int], None] | None = None, engine: Any = None) -> Scan:
    """Read and replay ``paths`` (files and folders, as ``validate``); game rows plus what failed.

    ``variant``: the variant of records whose header names none; ``rules``: rule options (dict, or
    ``["crawford=off", ...]``) for records whose header does not set them; ``aliases``: ``{name: canonical}``
    or ``["name=canonical", ...]``; ``jobs``: worker processes (default: one per core from 32 files on);
    ``progress(path, done, total)`` after each file; ``engine``: None / ``"local"``, or a
    :class:`nardy_analyze.cluster.DaskEngine` / ``"dask"``: the files are replayed on the Dask workers,
    with the same result.

    Every row is kept: for archives of any size, :func:`players` and :func:`matches` of paths and
    :func:`iter_games` fold the files as they come (:mod:`nardy_analyze.stats.aggregate`)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    options = rule_options(variant, rules)
    out = Scan(pd.DataFrame())
    rows: list[tuple] = []
    entries = list(discover(paths, judge_later=True))
    results = map_records(entries, rows_of, (variant, options), jobs=jobs, progress=progress, engine=engine)
    # Everything alive before the scan (pandas and numpy make most of it) goes to the garbage collector's
    # permanent generation while the files are replayed: the collections of this process and of the worker
    # processes it forks do not walk it over and over, nor copy a worker's inherited pages to do so
    # (gc.freeze, as the gc docs advise before a fork); it is handed back at the end.
    gc.freeze()
    try:
        for entry, kind, value in results:
            if kind == "ok":
                out.files += 1
                rows.extend(value.rows)
                out.problems.extend(value.problems)
                out.warnings.extend(value.warnings)
                out.arg_errors.extend((value.path, m) for m in value.arg_errors)
            elif kind == UNREADABLE:
                out.unreadable.append((entry.path, value))
            elif kind == SKIPPED:
                out.skipped.append(entry.path)
                if skip_kind(value) is Skip.ARCHIVE:
                    out.warnings.append(_skipped_note(entry.path, value))
            else:                  # internal-error: a bug in nardy-analyze on this file; the others go on
                out.internal_errors.append((entry.shown, value))
    finally:
        getattr(results, "close", lambda: None)()     # (interrupted: the worker processes stop now)
        gc.unfreeze()
    if isinstance(aliases, dict):
        aliases = {normalise_name(k): " ".join(str(v).split()) for k, v in aliases.items()}
    elif aliases is not None:
        aliases = parse_aliases(aliases)
    out.games = game_frame(rows, aliases)
    return out


def _skipped_note(path: str, reason: str) -> str:
    """What stats and analyze say of an archive found in a folder (the other skipped files, not records by
    their start or hidden, go unsaid there, as they are counted in validate's summary)."""
    return _("{path}: skipped: {reason}").format(path=path, reason=reason)


def rows_of(entry: Entry, match: Match, variant: str, options: dict[str, Any] | None) -> FileResult:
    """The per-file work of :func:`scan` (run by ``analyze.map_records``, in worker processes too)."""
    return match_rows(match, variant, options)


# ----------------------------------------------------------------------------------------- public API
def games(paths: Iterable[str] | str, **options: Any) -> pd.DataFrame:
    """One row per player per game (columns: :data:`GAME_COLUMNS`).  Options: those of :func:`scan`.
    Files that cannot be read are left out (use :func:`scan` to see them)."""
    return scan(paths, **options).games


def _source(source: pd.DataFrame | Iterable[str] | str, options: dict[str, Any]) -> pd.DataFrame:
    if isinstance(source, pd.DataFrame):
        return source
    return games(source, **options)


def players(source: pd.DataFrame | Iterable[str] | str, **options: Any) -> pd.DataFrame:
    """One row per player over all the games (columns: :data:`PLAYER_COLUMNS`), sorted by games played.

    ``source`` is a frame from :func:`games` or paths (then ``options`` are those of :func:`scan`, and the
    files are folded into the table as they come, without keeping their rows: the same table in flat
    memory, :mod:`nardy_analyze.stats.aggregate`)."""
    if isinstance(source, pd.DataFrame):
        return player_frame(source)
    with aggregate(source, "player", **options) as agg:
        return agg.players()


def matches(source: pd.DataFrame | Iterable[str] | str, **options: Any) -> pd.DataFrame:
    """One row per match (columns: :data:`MATCH_COLUMNS`), in the order read.

    ``source`` is a frame from :func:`games` or paths (then ``options`` are those of :func:`scan`; the
    files are folded as they come, one match row each, :mod:`nardy_analyze.stats.aggregate`)."""
    if isinstance(source, pd.DataFrame):
        return match_frame(source)
    with aggregate(source, "match", **options) as agg:
        return agg.frame()



def iter_frames(by: str, paths: Iterable[str] | str, rows: int = 16_384, **options: Any) -> Iterator[pd.DataFrame]:
    """The table of ``--by game`` or ``--by match`` of ``paths`` as an iterator of frames of at most ``rows``
    rows each, in order, each typed as the whole table (same columns, dtypes and categories:
    ``pd.concat(list(iter_frames(...)), ignore_index=True)`` is :func:`games` / :func:`matches`), without
    ever holding every row: the files are folded as they come and the rows wait in a temporary file.
    The first frame comes once the last file is read (a name's displayed spelling is its most frequent
    one over every file).  ``options``: those of :func:`scan`."""
    if by not in ("game", "match"):
        raise ValueError(_("iter_frames: by must be game or match, not {by!r} (players: players(paths))").format(
            by=by))
    with aggregate(paths, by, **options) as agg:
        yield from agg.frames(rows)


def iter_games(paths: Iterable[str] | str, rows: int = 16_384, **options: Any) -> Iterator[pd.DataFrame]:
    """:func:`games` as an iterator of frames of at most ``rows`` rows (:func:`iter_frames`)."""
    return iter_frames("game", paths, rows, **options)


def frame(by: str, source: pd.DataFrame | Iterable[str] | str, **options: Any) -> pd.DataFrame:
    """``frame("player" | "game" | "match", ...)``: the table of ``--by``."""
    return {"game": lambda s, **o: _source(s, o), "player": players, "match": matches}[by](source, **options)


def partial_of(entry: Entry, match: Match, variant: str, options: dict[str, Any] | None,
                want: frozenset[str]) -> Partial:
    """The per-file work of :func:`aggregate` (run by ``analyze.map_records``, in worker processes too)."""
    return partial(match_rows(match, variant, options), want)


def alias_table(aliases: dict[str, str] | Sequence[str] | None) -> dict[str, str]:
    """{normalised name: canonical} of ``aliases`` (``{"name": "canonical"}`` or ``["name=canonical"]``);
    ValueError on a malformed item."""
    if isinstance(aliases, dict):
        return {normalise_name(k): " ".join(str(v).split()) for k, v in aliases.items()}
    return parse_aliases(aliases or [])


def _named(df: pd.DataFrame, shown: Callable[[str], str], columns: Sequence[str]) -> None:
    """The name columns of ``df`` as shown (in place, kept categorical)."""
    for col in columns:
        if col in df.columns and len(df):
            df[col] = df[col].astype(str).map(shown).astype("category")


def aggregate(paths: Iterable[str] | str, by: str = "player", variant: str = "backgammon",
              rules: dict[str, Any] | Sequence[str] | None = None,
              aliases: dict[str, str] | Sequence[str] | None = None, jobs: int | None = None,
              progress: Callable[[str, int, int], None] | None = None, engine: Any = None,
              players: bool = False) -> Aggregate:
    """Read and replay ``paths`` as :func:`scan` does, folding each file into the
    ``by`` table as it comes (``"player"``, ``"match"``, ``"game"``); ``players``: keep the players' sums
    too (for ``--plot``).  The options are those of ``scan``; ``engine`` a Dask engine folds each batch
    on its worker.  Returns an :class:`Aggregate` (close it when done: ``--by game`` and ``match`` keep
    their rows in a temporary file)."""
    if by not in ("player", "game", "match"):
        raise ValueError(_("by must be player, game or match, not {by!r}").format(by=by))
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    options = rule_options(variant, rules)
    aliases = alias_table(aliases)
    want = frozenset({by} | ({"player"} if players else set()))
    agg = Aggregate(by, want, aliases)
    entries = discover(paths, judge_later=True)
    if progress is not None or (engine is not None and engine != "local"):
        entries = list(entries)
    try:
        results = map_records(entries, partial_of, (variant, options, want), jobs=jobs, progress=progress,
                              engine=engine, combine=combine)
        gc.freeze()                 # as in scan: the objects alive before the files are replayed
        try:
            for entry, kind, value in results:
                if kind == "ok":
                    agg.files += 1
                    if value is not None:
                        agg.add(value)
                elif kind == UNREADABLE:
                    agg.unreadable.append((entry.path, value))
                elif kind == SKIPPED:
                    agg.skipped.append(entry.path)
                    if skip_kind(value) is Skip.ARCHIVE:
                        agg.warnings.append(_skipped_note(entry.path, value))
                else:
                    agg.internal_errors.append((entry.shown, value))
        finally:
            gc.unfreeze()
    except BaseException:
        agg.close()
        raise
    return agg


def _files(out: skill.Analysis, paths: Iterable[str] | str, variant: str = "backgammon",
           rules: dict[str, Any] | Sequence[str] | None = None, plies: int = 0, jobs: int | None = None,
           thresholds: Sequence[float] = skill.THRESHOLDS, batch: int = 4096,
           progress: Callable[[str, int, int], None] | None = None, engine: Any = None
           ) -> Iterator[skill.FileAnalysis]:
    """Each record's analysis, in the order of the inputs, as it is done; ``out`` gets everything else of
    the run (files, notes, problems, unreadable inputs, arguments and internal errors)."""
    skill.require_engine()
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    options = rule_options(variant, rules)
    entries = list(discover(paths, judge_later=True))
    records = sum(e.status == "record" for e in entries)
    procs = jobs if jobs is not None else default_jobs(records)
    threads = 1 if procs > 1 or (engine is not None and engine != "local") else (jobs or 0)
    cfg = skill.Config(plies=plies, threads=threads, batch=batch, thresholds=tuple(thresholds))
    # a file takes seconds: one file a worker task, the progress moving a file at a time
    for entry, kind, value in map_records(entries, skill.analyse_file, (variant, options, cfg), jobs=procs,
                                          progress=progress, engine=engine, chunk=1):
        if kind == "ok":
            out.files += 1
            out.problems.extend(value.problems)
            out.warnings.extend(value.warnings)
            out.notes.extend(value.notes)
            out.arg_errors.extend((value.path, m) for m in value.arg_errors)
            yield value
        elif kind == UNREADABLE:
            out.unreadable.append((entry.path, value))
        elif kind == SKIPPED:
            if skip_kind(value) is Skip.ARCHIVE:
                out.notes.append(_skipped_note(entry.path, value))
        else:
            out.internal_errors.append((entry.shown, value))


_RESULT_COLUMNS = ["path", "match", "game", "player", "opponent", "result"]


def analyse(paths: Iterable[str] | str, variant: str = "backgammon",
            rules: dict[str, Any] | Sequence[str] | None = None, plies: int = 0, jobs: int | None = None,
            thresholds: Sequence[float] = skill.THRESHOLDS, batch: int = 4096,
            progress: Callable[[str, int, int], None] | None = None, engine: Any = None,
            aliases: dict[str, str] | Sequence[str] | None = None) -> skill.Analysis:
    """Read, replay and analyse ``paths`` (files and folders, as ``validate``).

    ``aliases``: as for :func:`scan`; the players' names are grouped as ``stats`` groups them
    (:mod:`nardy_analyze.names`).
    ``plies``: the search depth in GNU Backgammon's count (0 = the network alone); ``jobs``: worker
    processes (default: one per core from 32 files on; with one process, bgsage uses every core);
    ``engine``: None / ``"local"``, or a Dask engine (``nardy_analyze.cluster``) for archives.
    Raises :class:`~nardy_analyze.stats.skill.EngineMissing` when bgsage is not installed.  The decision
    table of the whole run is kept (about 0.5 KB per decision): :func:`decision_frames` gives it a file at
    a time."""
    table = alias_table(aliases)
    out = skill.Analysis(pd.DataFrame(), pd.DataFrame())
    rows: list[tuple] = []
    results: list[tuple] = []
    for value in _files(out, paths, variant, rules, plies, jobs, thresholds, batch, progress, engine):
        rows.extend(value.rows)
        results.extend(value.results)
    out.decisions = skill.decision_frame(rows)
    out.results = pd.DataFrame.from_records(results, columns=_RESULT_COLUMNS) if results else \
        pd.DataFrame({c: [] for c in _RESULT_COLUMNS})
    # the names grouped and shown as stats groups and shows them (nardy_analyze.names)
    raw = Counter(str(n) for df in (out.decisions, out.results) for c in ("player", "opponent") if c in df
                  for n in df[c])
    shown = display_names(raw, table)
    _named(out.decisions, shown.__getitem__, ("player", "opponent"))
    _named(out.results, shown.__getitem__, ("player", "opponent"))
    return out


def decision_frames(run: skill.Analysis, paths: Iterable[str] | str, **options: Any) -> Iterator[pd.DataFrame]:
    """The decision table (:data:`~nardy_analyze.stats.skill.DECISION_COLUMNS`) a file at a time, in the
    order of the inputs, as each file is analysed: memory stays flat however many files there are.
    ``run`` (an empty :class:`~nardy_analyze.stats.skill.Analysis`) gets the rest of the run as it goes (its
    ``decisions`` and ``results`` stay empty); ``options``: those of :func:`analyse`.  At least one frame
    (an empty one for a run without a decision); raises :class:`~nardy_analyze.stats.skill.NoRecords`
    before any frame when no record was found."""
    paths = [os.fspath(paths)] if isinstance(paths, (str, os.PathLike)) else [os.fspath(p) for p in paths]
    yielded = False
    book = NameBook(alias_table(options.pop("aliases", None)))   # the first spelling met is shown
    for value in _files(run, paths, **options):
        if value.rows:
            yielded = True
            frame = skill.decision_frame(value.rows)
            _named(frame, book, ("player", "opponent"))
            yield frame
    if not run.files:
        raise skill.NoRecords(_("no game records found in {paths}").format(paths=", ".join(paths)))
    if not yielded:
        yield skill.decision_frame([])


def decisions(paths: Iterable[str] | str, **options: Any) -> pd.DataFrame:
    """One row per decision (columns: :data:`DECISION_COLUMNS`); options: those of :func:`analyse`."""
    return analyse(paths, **options).decisions


# Every output column, with its dtype and meaning, in help() of the functions that return it.
games.__doc__ = (games.__doc__ or "") + returns_doc(GAME_COLUMNS, "one row per player per game")
players.__doc__ = (players.__doc__ or "") + returns_doc(PLAYER_COLUMNS, "one row per player")
matches.__doc__ = (matches.__doc__ or "") + returns_doc(MATCH_COLUMNS, "one row per match")
