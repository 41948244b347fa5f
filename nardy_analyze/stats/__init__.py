"""Statistics on game records as tidy pandas DataFrames: per player per game, per player, per match.

    from nardy_analyze import stats
    g = stats.games(["matches/"])              # one row per player per game
    p = stats.players(g)                       # one row per player (also accepts paths)
    m = stats.matches(g)                       # one row per match
    p = stats.players(["matches/"])            # from paths: folded as the files come, in flat memory
    for chunk in stats.iter_games(["matches/"], rows=50_000): ...   # the rows of games(), in chunks

Every figure comes from the replay through the rules engine (:func:`nardy_analyze.replay.replay` with a
visitor): the turn rows it reports are taken from the position the replay really goes on from, so a
record with an illegal play still gets its rows (with ``illegal`` > 0) and never counts a checker twice.
The columns, their dtypes and the decisions behind them are documented in ``docs/stats.md`` and in
:data:`GAME_COLUMNS`, :data:`PLAYER_COLUMNS` and :data:`MATCH_COLUMNS`.

The package, by job:

- :mod:`.columns`: the columns of the three tables, their dtypes and meanings;
- :mod:`.tally`: what one record gives (:func:`match_rows`: its rows, summed from the replay's turn rows);
- :mod:`.frames`: the typed tables built from the rows, and the players' names;
- :mod:`.aggregate`: the same tables folded file by file in flat memory;
- :mod:`.render`: a table as text, CSV, JSON, Parquet or markdown; :mod:`.plots`: ``--plot``;
- :mod:`.skill`: the skill analysis (``analyze``).

Reading and replaying files over the worker processes is a job (layer 5): :func:`scan`, :func:`games`,
:func:`players`, :func:`matches`, :func:`frame`, :func:`iter_frames`, :func:`iter_games` and the skill
analysis of paths (:func:`analyse`, :func:`decisions`) live in :mod:`nardy_analyze.statsrun`.  This
package's ``__init__`` is the library's face for statistics (layer 5, docs/architecture.md): it re-exports
them, imported when first asked for (:func:`__getattr__`); its modules are layer 4 and import no job.
"""
from __future__ import annotations

from typing import Any

from .columns import GAME_COLUMNS, MATCH_COLUMNS, PLAYER_COLUMNS, PLAYER_SUMS
from .frames import display_names, normalise_name, parse_aliases
from .plots import plot
from .render import (FORMATS, TABLE_COLUMNS, TABLE_ROWS, OptionalDependency, cell, sort_frame, table_columns,
                     write_frame, write_frames, write_markdown, write_table)
from .tally import FileResult, match_rows

__all__ = ["games", "players", "matches", "frame", "iter_games", "iter_frames", "scan", "Scan", "analyse", "decisions", "decision_frames",
           "match_rows",
           "plot", "write_frame", "write_frames", "display_names",
           "GAME_COLUMNS", "PLAYER_COLUMNS", "MATCH_COLUMNS", "normalise_name", "parse_aliases",
           "PLAYER_SUMS", "FileResult", "FORMATS", "TABLE_COLUMNS", "TABLE_ROWS", "OptionalDependency", "cell",
           "sort_frame", "table_columns", "write_markdown", "write_table"]

_JOBS = ("scan", "Scan", "games", "players", "matches", "frame", "iter_frames", "iter_games", "analyse", "decisions",
         "decision_frames")


def __getattr__(name: str) -> Any:
    """The jobs over files (:data:`_JOBS`), re-exported from :mod:`nardy_analyze.statsrun` when first asked
    for."""
    if name in _JOBS:
        from .. import statsrun     # (the same layer, 5; it imports this package's modules: a cycle at start-up)

        value = getattr(statsrun, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
