"""Statistics on game records as tidy pandas DataFrames: the columns, one record's rows, the tables built from
rows, their rendering and plots, and the skill analysis of one record (layer 4, docs/architecture.md).

    from nardy_analyze import stats, statsrun
    rows = stats.match_rows(match)             # what one record gives: its rows (a replay through the engine)
    g = statsrun.games(["matches/"])           # the jobs over files: one row per player per game
    p = statsrun.players(g)                    # one row per player (also accepts paths)
    stats.write_frame(p, "csv", sys.stdout)    # rendered

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

Reading and replaying files over the worker processes is a job (layer 5): ``scan``, ``games``,
``players``, ``matches``, ``frame``, ``iter_frames``, ``iter_games`` and the skill analysis of paths
(``analyse``, ``decisions``, ``decision_frames``) are :mod:`nardy_analyze.statsrun`'s.  This package, its
``__init__`` included, imports no job: the layers' arrows all point down.
"""
from __future__ import annotations

from .columns import GAME_COLUMNS, MATCH_COLUMNS, PLAYER_COLUMNS, PLAYER_SUMS
from .frames import display_names, normalise_name, parse_aliases
from .plots import plot
from .render import (FORMATS, TABLE_COLUMNS, TABLE_ROWS, OptionalDependency, cell, sort_frame, table_columns,
                     write_frame, write_frames, write_markdown, write_table)
from .tally import FileResult, match_rows

__all__ = ["match_rows", "plot", "write_frame", "write_frames", "display_names",
           "GAME_COLUMNS", "PLAYER_COLUMNS", "MATCH_COLUMNS", "normalise_name", "parse_aliases",
           "PLAYER_SUMS", "FileResult", "FORMATS", "TABLE_COLUMNS", "TABLE_ROWS", "OptionalDependency", "cell",
           "sort_frame", "table_columns", "write_markdown", "write_table"]
