"""Statistics over any archive in flat memory: ``stats`` as the files come.

    from nardy_analyze.statsrun import aggregate       # the job over files (layer 5)
    with aggregate(["archive/"], by="player", jobs=2) as agg:
        table = agg.players()                    # one row per player, as statsrun.players(statsrun.games(...))
    with aggregate(["archive/"], by="game") as agg:
        for chunk in agg.frames(rows=50_000):    # the rows of statsrun.games(...), a chunk at a time
            ...

Each file's replay becomes a :class:`Partial` on the worker that read it: per player (the name as
written) the sums of the players table, the file's match row, and (``--by game``) its game rows; the
files of one worker task (a chunk of the local pool, a Dask batch) are folded into one partial there,
and this process folds the partials in the order of the files.  The players' counts are integers and
the rates, intervals and chi-square tests are computed once at the end from them, by the same code as
:func:`nardy_analyze.stats.frames.player_frame`, so the tables are byte for byte those of the whole frame.

A name's displayed spelling is its most frequent one over all the files (``stats.display_names``), known
only at the end: the game and match rows are therefore kept in a temporary file (``TMPDIR``) as they
come, with the names as written, and read back in chunks of ``rows`` rows once the last file is read,
their names mapped and typed with the categories of the whole table.  Memory holds the sums per name
as written, the set of paths (the categories of ``path``) and one chunk of rows; none of it grows with
the number of games.

This module folds (layer 4); :func:`nardy_analyze.statsrun.aggregate`, the job, runs each file's
:func:`partial` over the worker processes and adds the partials to an :class:`Aggregate`.
"""
from __future__ import annotations

import os
import json
import tempfile
from typing import Any, Iterator

import pandas as pd

from ..engine import level_words
from .columns import GAME_COLUMNS, MATCH_COLUMNS, PLAYER_SUMS, RESULTS, kinds
from .frames import display_names, game_frame, match_frame, player_frame, player_table, typed
from .tally import FileResult

__all__ = ["Aggregate", "Partial", "CHUNK_ROWS"]

CHUNK_ROWS = 16_384     # rows per chunk read back from the spool (and per Parquet row group)

_G = {c: i for i, c in enumerate(GAME_COLUMNS)}
_PATH, _GAME, _MATCH, _VARIANT, _DATE, _LENGTH = (_G[c] for c in ("path", "game", "match", "variant", "date",
                                                                  "length"))
_PLAYER, _OPPONENT, _SIDE, _SCORE = _G["player"], _G["opponent"], _G["side"], _G["score"]
_RESULT, _KIND, _POINTS, _ILLEGAL = _G["result"], _G["kind"], _G["points"], _G["illegal"]
_MAX_CUBE, _LONGEST = _G["max_cube"], _G["longest_chain"]
# the game columns summed as they are, in PLAYER_SUMS order (from "rolls" on)
_COPIED = [_G[c] for c in PLAYER_SUMS[PLAYER_SUMS.index("rolls"):]]
# per player: games, PLAYER_SUMS, points_for, points_against (sums), then max_cube, longest_chain (maxima)
_ACC_COLUMNS = ["games", *PLAYER_SUMS, "points_for", "points_against", "max_cube", "longest_chain"]
_SUMMED = len(_ACC_COLUMNS) - 2

# a match row as kept until the names are known: the players and the winner as written
_M_PATH, _M_MATCH, _M_VARIANT, _M_DATE, _M_P1, _M_P2, _M_LENGTH, _M_GAMES, _M_S1, _M_S2, _M_WINNER, \
    _M_COMPLETE, _M_ILLEGAL = range(13)


class Partial:
    """What some files contribute, in their order: their messages, each name as written with its
    occurrences (player and opponent columns), per name as written the players table's sums, the match
    rows (one per file with games) and, when asked for, the game rows.  Small and picklable."""

    __slots__ = ("problems", "warnings", "arg_errors", "names", "players", "matches", "rows", "variants")

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.warnings: list[str] = []
        self.arg_errors: list[tuple[str, str]] = []
        self.names: dict[str, int] = {}
        self.players: dict[str, list[int]] = {}
        self.matches: list[tuple] = []
        self.rows: list[tuple] = []
        self.variants: set[str] = set()        # the variants of the games (the table's level words)

    def __getstate__(self):
        return tuple(getattr(self, k) for k in self.__slots__)

    def __setstate__(self, state) -> None:
        for k, v in zip(self.__slots__, state):
            setattr(self, k, v)

    def merge(self, other: "Partial") -> "Partial":
        """Fold ``other`` (the files after these) into this one."""
        self.problems += other.problems
        self.warnings += other.warnings
        self.arg_errors += other.arg_errors
        _merge_counts(self.names, other.names)
        _merge_players(self.players, other.players)
        self.matches += other.matches
        self.rows += other.rows
        self.variants |= other.variants
        return self


def _merge_counts(into: dict[str, int], more: dict[str, int]) -> None:
    for k, n in more.items():
        into[k] = into.get(k, 0) + n


def _merge_players(into: dict[str, list[int]], more: dict[str, list[int]]) -> None:
    for name, acc in more.items():
        mine = into.get(name)
        if mine is None:
            into[name] = acc
            continue
        for i in range(_SUMMED):
            mine[i] += acc[i]
        for i in range(_SUMMED, len(mine)):
            if acc[i] > mine[i]:
                mine[i] = acc[i]


def combine(parts: list[Partial]) -> Partial:
    """The partials of consecutive files folded into one (on the worker that read them)."""
    first = parts[0]
    for p in parts[1:]:
        first.merge(p)
    return first


def _player_sums(rows: list[tuple]) -> dict[str, list[int]]:
    """Per name as written (player column, in order), the sums of ``players()`` over one file's rows."""
    totals: dict[int, int] = {}                    # game -> points of both sides (opp_points of players())
    for r in rows:
        totals[r[_GAME]] = totals.get(r[_GAME], 0) + r[_POINTS]
    out: dict[str, list[int]] = {}
    second, third = frozenset(level_words(2)), frozenset(level_words(3))   # gammons and mars; backgammons, koks
    for r in rows:
        result, kind = r[_RESULT], r[_KIND]
        won, lost = result == "win", result == "loss"
        values = [1, result is not None, won, lost,
                  won and kind in second, lost and kind in second,
                  won and kind in third, lost and kind in third,
                  won and kind == "mars", lost and kind == "mars", won and kind == "koks", lost and kind == "koks",
                  lost and kind == "resign", lost and kind == "drop",
                  result == "draw", won and kind == "home-mars", lost and kind == "home-mars",
                  lost and kind == "timeout",
                  *(r[i] for i in _COPIED),
                  r[_POINTS], totals[r[_GAME]] - r[_POINTS], r[_MAX_CUBE], r[_LONGEST]]
        acc = out.get(r[_PLAYER])
        if acc is None:
            out[r[_PLAYER]] = [int(v) for v in values]
            continue
        for i in range(_SUMMED):
            acc[i] += values[i]
        for i in range(_SUMMED, len(acc)):
            if values[i] > acc[i]:
                acc[i] = values[i]
    return out


def _match_row(rows: list[tuple]) -> tuple | None:
    """One file's row of ``matches()`` with the players and the winner as written (the file is one group
    of its (path, match) key: every row of a file has the file's path and match id)."""
    first = [r for r in rows if r[_SIDE] == 0]
    second = [r for r in rows if r[_SIDE] == 1]
    if not first:
        return None
    last1 = first[-1]
    date = next((r[_DATE] for r in first if r[_DATE] is not None), None)
    length = last1[_LENGTH]
    s1 = last1[_SCORE] + last1[_POINTS]
    s2 = second[-1][_SCORE] + second[-1][_POINTS] if second else 0
    name2 = second[0][_PLAYER] if second else None
    finished = any(r[_RESULT] is not None for r in first)
    match_play = length > 0
    complete = (match_play and max(s1, s2) >= length) or (not match_play and finished)
    winner = 0 if s1 > s2 else 1 if s2 > s1 else None
    if not (complete or not match_play):
        winner = None
    return (last1[_PATH], last1[_MATCH], last1[_VARIANT], date, first[0][_PLAYER], name2, length, len(first),
            s1, s2, winner, bool(complete), sum(r[_ILLEGAL] for r in rows))


def partial(res: FileResult, want: frozenset[str]) -> Partial:
    """One file's :class:`Partial` from its game rows: the players' sums (``"player"`` in ``want``), its
    match row (``"match"``), its game rows (``"game"``)."""
    p = Partial()
    p.problems, p.warnings = res.problems, res.warnings
    p.arg_errors = [(res.path, m) for m in res.arg_errors]
    rows = res.rows
    names = p.names
    for r in rows:                    # in the order of the player column, then the opponent column
        names[r[_PLAYER]] = names.get(r[_PLAYER], 0) + 1
    p.variants = {r[_VARIANT] for r in rows if r[_VARIANT] is not None}
    for r in rows:
        names[r[_OPPONENT]] = names.get(r[_OPPONENT], 0) + 1
    if "player" in want:
        p.players = _player_sums(rows)
    if "match" in want and rows:
        m = _match_row(rows)
        if m is not None:
            p.matches = [m]
    if "game" in want:
        p.rows = rows
    return p


class _Spool:
    """Rows kept on disk as they come (a temporary file, gone when closed), read back in chunks: one line of
    JSON per batch of rows (strings, integers, booleans and None go through unchanged; a row comes back
    as a list)."""

    def __init__(self) -> None:
        self.fh = tempfile.TemporaryFile(prefix="nardy-stats-")
        self.count = 0

    def add(self, rows: list[tuple]) -> None:
        if rows:
            self.fh.write(json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n")
            self.count += len(rows)

    def chunks(self, size: int) -> Iterator[list[list]]:
        """The rows in order, ``size`` at a time (the last chunk may be smaller; none when empty)."""
        self.fh.flush()
        self.fh.seek(0)
        buf: list = []
        for line in self.fh:
            buf.extend(json.loads(line))
            while len(buf) >= size:
                yield buf[:size]
                del buf[:size]
        if buf:
            yield buf
        self.fh.seek(0, os.SEEK_END)

    def close(self) -> None:
        self.fh.close()


class Aggregate:
    """What :func:`aggregate` read: the accounting of :class:`nardy_analyze.statsrun.Scan` (files, unreadable,
    problems, warnings, arg_errors, skipped, internal_errors) and the tables, built from the partials.
    Close it (or use it as a context manager) to remove its temporary file."""

    def __init__(self, by: str, want: frozenset[str], aliases: dict[str, str]) -> None:
        self.by, self.want, self.aliases = by, want, aliases
        self.files = 0
        self.unreadable: list[tuple[str, str]] = []
        self.problems: list[str] = []
        self.warnings: list[str] = []
        self.arg_errors: list[tuple[str, str]] = []
        self.skipped: list[str] = []
        self.internal_errors: list[tuple[str, str]] = []
        self.names: dict[str, int] = {}
        self.player_sums: dict[str, list[int]] = {}
        self.variants: set[str] = set()           # the variants of every game read
        self._spool = _Spool() if by in ("game", "match") else None
        # the values of the category columns known while reading (the names: once they are known)
        self._seen: dict[str, set] = {"path": set(), "match": set(), "variant": set()}
        self._match_names: tuple[set, set, set] = (set(), set(), set())    # player1, player2, winner as written
        self._shown: dict[str, str] | None = None

    def __enter__(self) -> "Aggregate":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._spool is not None:
            self._spool.close()

    # ---------------------------------------------------------------- reading
    def add(self, part: Partial) -> None:
        """Fold the partial of the next files in."""
        self.problems += part.problems
        self.warnings += part.warnings
        self.arg_errors += part.arg_errors
        _merge_counts(self.names, part.names)
        _merge_players(self.player_sums, part.players)
        self.variants |= part.variants
        seen = self._seen
        if self.by == "game" and part.rows:
            self._spool.add(part.rows)
            seen["path"].update(r[_PATH] for r in part.rows)
            seen["match"].update(r[_MATCH] for r in part.rows)
            seen["variant"].update(r[_VARIANT] for r in part.rows)
        elif self.by == "match" and part.matches:
            self._spool.add(part.matches)
            one, two, won = self._match_names
            for m in part.matches:
                seen["path"].add(m[_M_PATH])
                seen["match"].add(m[_M_MATCH])
                seen["variant"].add(m[_M_VARIANT])
                one.add(m[_M_P1])
                two.add(m[_M_P2])
                won.add(None if m[_M_WINNER] is None else m[_M_P1 + m[_M_WINNER]])

    # ---------------------------------------------------------------- results
    @property
    def shown(self) -> dict[str, str]:
        """{name as written: name shown} (``stats.display_names`` over every name read)."""
        if self._shown is None:
            self._shown = display_names(self.names, self.aliases)
        return self._shown

    @property
    def rows(self) -> int:
        """Rows of the ``--by`` table (game or match; players: one per name shown)."""
        if self._spool is not None:
            return self._spool.count
        return len(set(self.shown[n] for n in self.player_sums))

    @property
    def empty(self) -> bool:
        """No game was read."""
        return not self.names

    def players(self) -> pd.DataFrame:
        """The players table (``statsrun.players``), from the sums per name as written."""
        if "player" not in self.want:
            raise ValueError("this aggregate was made without the players' sums")
        if not self.player_sums:
            return player_frame(game_frame([]))
        shown = self.shown
        grouped: dict[str, list[int]] = {}           # by the name shown, in the order names first appear
        for name, acc in self.player_sums.items():
            _merge_players(grouped, {shown[name]: list(acc)})
        p = pd.DataFrame.from_records([(k, *v) for k, v in grouped.items()], columns=["player", *_ACC_COLUMNS])
        for c in _ACC_COLUMNS:
            p[c] = p[c].astype("int64")
        return player_table(p)

    def _categories(self) -> dict[str, Any]:
        """The categories of the whole table, as ``astype(str).astype("category")`` makes them of every row
        (sorted, and of the same dtype, also when empty)."""
        shown = self.shown

        def index(values: set) -> pd.Index:
            return pd.Index(pd.Series(sorted(values), dtype=object).astype(str))

        cats: dict[str, Any] = {c: index(v) for c, v in self._seen.items()}
        if self.by == "game":
            cats["player"] = cats["opponent"] = index(set(shown.values()))
            cats["result"], cats["kind"] = RESULTS, kinds()
        else:
            one, two, won = self._match_names
            cats["player1"] = index({shown[n] for n in one})
            cats["player2"] = index({shown[n] for n in two if n is not None})
            cats["winner"] = index({shown[n] for n in won if n is not None})
        return cats

    def frames(self, rows: int = CHUNK_ROWS) -> Iterator[pd.DataFrame]:
        """The ``--by game`` or ``--by match`` table in chunks of at most ``rows`` rows, in order, each typed
        as the whole table (the same columns, dtypes and categories; ``pd.concat`` of the chunks is the
        whole table).  An empty table is one empty chunk."""
        if self._spool is None:
            raise ValueError(f"no rows are kept for --by {self.by}")
        cats = self._categories()
        shown = self.shown
        spec = GAME_COLUMNS if self.by == "game" else MATCH_COLUMNS
        build = self._game_chunk if self.by == "game" else self._match_chunk
        any_rows = False
        for chunk in self._spool.chunks(rows):
            any_rows = True
            yield typed(build(chunk, shown), spec, cats)
        if not any_rows:
            yield (game_frame([]) if self.by == "game" else match_frame(game_frame([])))

    def frame(self) -> pd.DataFrame:
        """The whole ``--by game`` or ``--by match`` table (every row in memory)."""
        parts = list(self.frames())
        return parts[0] if len(parts) == 1 else pd.concat(parts, ignore_index=True)

    @staticmethod
    def _game_chunk(chunk: list[tuple], shown: dict[str, str]) -> pd.DataFrame:
        df = pd.DataFrame.from_records(chunk, columns=list(GAME_COLUMNS))
        for col in ("player", "opponent"):
            df[col] = df[col].map(shown)
        return df

    @staticmethod
    def _match_chunk(chunk: list[tuple], shown: dict[str, str]) -> pd.DataFrame:
        cols = list(zip(*chunk))
        one = [shown[n] for n in cols[_M_P1]]
        two = [shown[n] if n is not None else None for n in cols[_M_P2]]
        winner = [None if w is None else (a if w == 0 else b) for w, a, b in zip(cols[_M_WINNER], one, two)]
        return pd.DataFrame({
            "path": cols[_M_PATH], "match": cols[_M_MATCH], "variant": cols[_M_VARIANT], "date": cols[_M_DATE],
            "player1": one, "player2": two, "length": cols[_M_LENGTH], "games": cols[_M_GAMES],
            "score1": cols[_M_S1], "score2": cols[_M_S2], "winner": winner, "complete": cols[_M_COMPLETE],
            "illegal": cols[_M_ILLEGAL]})
