"""The rendering of a statistics table (and of the skill analysis' tables): a terminal table (rich), CSV,
JSON, Parquet (the 'parquet' extra) or markdown, of a whole frame (:func:`write_frame`) or of a table
that comes a chunk at a time (:func:`write_frames`); the columns a terminal shows and ``--sort``."""
from __future__ import annotations

import unicodedata
from typing import Any, Iterable, Sequence

import pandas as pd

from ..engine import get_variant, rules_named, variant_display
from ..i18n import language, ngettext
from ..safetext import visible
from .frames import sort_key
from .headings import headings, value_words

FORMATS = ("table", "csv", "json", "parquet", "markdown")
# The columns a terminal table shows (machine formats and markdown carry every column).
TABLE_COLUMNS: dict[str, list[str]] = {
    "player": ["player", "games", "wins", "win_rate", "points_for", "points_against", "doubles_rate", "dice_p",
               "hits_per_game", "pips_per_roll", "gammons_won", "gammons_lost", "backgammons_won",
               "backgammons_lost", "cube_offered", "cube_taken", "cube_dropped", "illegal_per_100"],
    "game": ["path", "game", "player", "opponent", "rolls", "doubles", "hits", "hit", "pips", "borne_off",
             "max_cube", "result", "kind", "points", "illegal"],
    "match": ["match", "date", "player1", "player2", "length", "games", "score1", "score2", "winner", "illegal"],
}


def table_columns(by: str, games: pd.DataFrame | Iterable[str] | None = None) -> list[str]:
    """The columns the terminal table of ``--by`` shows.  The per-player table names the columns of the
    win levels as the variants of ``games`` (a frame of :func:`games`, or the names of the variants read)
    name them: ``mars_won``... ``koks_lost`` when every game is of a variant whose levels are mars and koks
    (long nardy, Gul bara), ``gammons_won``... otherwise (where ``gammons_won`` counts gammons and mars
    alike)."""
    cols = TABLE_COLUMNS[by]
    if isinstance(games, pd.DataFrame):
        games = games["variant"].dropna().unique() if "variant" in games else None
    variants = set() if games is None else {str(v) for v in games}
    if by != "player" or not variants:
        return cols
    kinds = {get_variant(v).level_columns for v in variants}
    if len(kinds) != 1:
        return cols
    second, third = kinds.pop()
    rename = {"gammons_won": f"{second}_won", "gammons_lost": f"{second}_lost",
              "backgammons_won": f"{third}_won", "backgammons_lost": f"{third}_lost"}
    return [rename.get(c, c) for c in cols]


class OptionalDependency(RuntimeError):
    """A feature needs a package installed only with an extra; the message says which."""


def sort_frame(df: pd.DataFrame, column: str) -> pd.DataFrame:
    """Sort by ``column``: numbers and dates largest first, names alphabetically (ValueError if unknown)."""
    if column not in df.columns:
        raise ValueError(f"--sort: no column {column!r}; columns: {', '.join(df.columns)}")
    s = df[column]
    text = s.dtype == "category" or s.dtype == object or s.dtype == bool
    return df.sort_values(column, ascending=text, key=sort_key, kind="stable", na_position="last") \
        .reset_index(drop=True)


def cell(value: Any) -> str:
    """A value as text tables show it: integers as they are, floats to 6 significant digits, dates as
    YYYY-MM-DD, missing values empty."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    if isinstance(value, pd.Timestamp):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _words(cols: Sequence[str]) -> list[dict[str, str] | None]:
    """Per column, the words its values are shown as (None: the values as they are)."""
    words = value_words()
    return [words.get(c) for c in cols]


def write_markdown(df: pd.DataFrame, fh, header: bool = True) -> None:
    """``df`` as a markdown table for people: the headings and the word values in the current language
    (English: the column names and values as CSV writes them)."""
    def esc(t: str) -> str:
        return visible(t).replace("|", "\\|")

    cols = list(df.columns)
    if header:
        names = headings()
        fh.write("| " + " | ".join(esc(names.get(c, c)) for c in cols) + " |\n")
        fh.write("|" + "|".join("---:" if pd.api.types.is_numeric_dtype(df[c]) and df[c].dtype != bool else "---"
                                for c in cols) + "|\n")
    shown = [_column_cells(df, c, w) for c, w in zip(cols, _words(cols))]
    for i in range(len(df)):
        fh.write("| " + " | ".join(esc(col[i]) for col in shown) + " |\n")


def _shown(text: str, words: dict[str, str] | None) -> str:
    return words.get(text, text) if words else text


def _column_cells(df: pd.DataFrame, c: str, words: dict[str, str] | None) -> list[str]:
    """The cells of column ``c`` as people read them; a result kind in the variant's own word where it
    has one (long nardy's single win: an oin), when the frame says each row's variant."""
    if c == "variant" and language() != "en":     # the variant's name for people (English: as CSV writes it)
        return [variant_display(cell(v)) for v in df[c]]
    shown = [_shown(cell(v), words) for v in df[c]]
    if c == "kind" and words and "variant" in df.columns:
        for i, (v, variant) in enumerate(zip(df[c], df["variant"])):
            rules = rules_named(str(variant))
            own = rules.kind_word(cell(v)) if rules is not None else None
            if own:
                shown[i] = own
    return shown


PLAIN_TABLES = True     # False: every table drawn by rich (the tests compare the two)


def _plain_table(headings: list[str], columns: list[list[str]], right: list[bool], width: int) -> str | None:
    """The table rich draws with ``box=None, show_edge=False, pad_edge=False`` and no style, written directly
    (rich takes seconds for the thousand rows of an archive's players): each column as wide as its widest cell
    (the heading included), a cell padded with spaces to it (numbers on the right), two spaces between
    columns, every line as wide as the table.  None where rich must draw it: a table wider than ``width`` (it
    wraps), no row or no column, a cell with a character whose width on the screen is not one (wide, combining,
    a control) or with white space at an end or inside other than spaces."""
    if not PLAIN_TABLES or not columns or not columns[0]:
        return None
    widths = []
    for head, cells in zip(headings, columns):
        for text in (head, *cells):
            if not text.isprintable() or (text and (text[0] == " " or text[-1] == " ")) or \
                    (not text.isascii() and any(unicodedata.east_asian_width(ch) in "WF" or
                                                unicodedata.combining(ch) for ch in text)):
                return None
        widths.append(max(len(head), *map(len, cells)))
    if sum(widths) + 2 * (len(widths) - 1) > width:
        return None
    lines = ["  ".join(text.rjust(w) if r else text.ljust(w) for text, w, r in zip(row, widths, right))
             for row in (headings, *zip(*columns))]
    return "\n".join(lines) + "\n"


def write_table(df: pd.DataFrame, by: str, fh, color: bool = False, width: int | None = None,
                columns: Sequence[str] | None = None, total: int | None = None) -> None:
    """The main columns of ``df`` (``columns``, default TABLE_COLUMNS[by]) aligned by rich; colour only
    when asked.  On a terminal the columns that do not fit its width are left out, with a note saying how
    to see them.  ``total``: the rows of the whole table when ``df`` is only its first rows (a note says
    so)."""
    # (rich: only the terminal table needs it)
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    tty = getattr(fh, "isatty", lambda: False)()
    console = Console(file=fh, force_terminal=color, no_color=not color, highlight=False,
                      width=width or (None if tty else 1000))
    cols = [c for c in (columns or TABLE_COLUMNS[by]) if c in df.columns]
    words = dict(zip(cols, _words(cols)))
    # names from the files: no raw controls
    cells = {c: [visible(t) for t in _column_cells(df, c, words[c])] for c in cols}
    names = headings()
    shown, used = [], 0
    for c in cols:
        w = max([len(names.get(c, c)), *map(len, cells[c])]) + 2
        if shown and used + w > console.width:
            break
        shown.append(c)
        used += w
    right = [pd.api.types.is_numeric_dtype(df[c]) and df[c].dtype != bool for c in shown]
    plain = None if tty or color else _plain_table([names.get(c, c) for c in shown], [cells[c] for c in shown],
                                                   right, console.width)
    if plain is not None:
        fh.write(plain)
    else:
        t = Table(box=None, show_edge=False, pad_edge=False, header_style="bold")
        for c, numeric in zip(shown, right):
            t.add_column(names.get(c, c), justify="right" if numeric else "left", no_wrap=numeric)
        for row in zip(*(cells[c] for c in shown)):
            t.add_row(*map(Text, row))          # Text: a name is never read as rich markup ("[red]")
        console.print(t)
    if len(shown) < len(cols):
        hidden = len(cols) - len(shown)
        # TRANSLATORS: {columns}: the columns left out, each its heading and then its name as --columns and
        # --sort take it ("сбито чужих (hits)"; English: the name only)
        note = ngettext("({n} more column(s) do not fit this terminal: {columns}; --format csv or markdown "
                        "shows every column)",
                        "({n} more column(s) do not fit this terminal: {columns}; --format csv or markdown "
                        "shows every column)", hidden)
        left = [c if names.get(c, c) == c else f"{names[c]} ({c})" for c in cols[len(shown):]]
        console.print(note.format(n=hidden, columns=", ".join(left)), style="dim")
    if total is not None and total > len(df):
        note = ngettext("(the first {shown} of {total} rows; --format csv, json, parquet or markdown gives every "
                        "row)",
                        "(the first {shown} of {total} rows; --format csv, json, parquet or markdown gives every "
                        "row)", total)
        console.print(note.format(shown=f"{len(df):,}", total=f"{total:,}"), style="dim")


def write_frame(df: pd.DataFrame, fmt: str, fh, by: str = "player", color: bool = False,
                width: int | None = None, columns: Sequence[str] | None = None) -> None:
    """Write ``df`` as ``fmt`` to ``fh`` (text; binary for parquet); ``columns``: those of the table
    format (default :func:`table_columns` of ``by``)."""
    if fmt == "csv":
        df.to_csv(fh, index=False, date_format="%Y-%m-%d", lineterminator="\n")
    elif fmt == "json":
        fh.write(df.to_json(orient="records", date_format="iso", date_unit="s", force_ascii=False, indent=1))
        fh.write("\n")
    elif fmt == "markdown":
        write_markdown(df, fh)
    elif fmt == "parquet":
        try:
            import pyarrow  # noqa: F401  (the 'parquet' extra)
        except ImportError:
            raise OptionalDependency("--format parquet needs pyarrow: pip install 'nardy-analyze[parquet]'") \
                from None
        df.to_parquet(fh, index=False)
    else:
        write_table(df, by, fh, color, width, columns)


# Rows of a --by game or --by match table on a terminal (the other formats give every row).
TABLE_ROWS = 1000


def write_frames(frames: Iterable[pd.DataFrame], fmt: str, fh, by: str = "game", color: bool = False,
                 width: int | None = None, total: int | None = None,
                 columns: Sequence[str] | None = None) -> None:
    """Write the chunks of one table (:func:`iter_frames`: the same columns and dtypes, at least one
    frame) as :func:`write_frame` writes their concatenation, a chunk at a time: csv, json and markdown
    byte for byte the same; parquet one row group per chunk (one chunk: the same file); the terminal
    table at most :data:`TABLE_ROWS` rows, with a note giving ``total``, the rows of the whole table."""
    it = iter(frames)
    if fmt == "csv":
        for i, df in enumerate(it):
            df.to_csv(fh, index=False, header=i == 0, date_format="%Y-%m-%d", lineterminator="\n")
    elif fmt == "json":
        empty, n = None, 0
        for df in it:
            if df.empty:
                empty = df
                continue
            text = df.to_json(orient="records", date_format="iso", date_unit="s", force_ascii=False, indent=1)
            fh.write("[\n" if n == 0 else ",\n")
            fh.write(text[2:-2])                     # the records, without "[\n" and "\n]"
            n += 1
        if n:
            fh.write("\n]\n")
        else:
            write_frame(empty, fmt, fh, by)
    elif fmt == "markdown":
        for i, df in enumerate(it):
            write_markdown(df, fh, header=i == 0)
    elif fmt == "parquet":
        try:
            # (the 'parquet' extra)
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise OptionalDependency("--format parquet needs pyarrow: pip install 'nardy-analyze[parquet]'") \
                from None
        writer = None
        try:
            for df in it:
                table = pa.Table.from_pandas(df, preserve_index=False)
                if writer is None:
                    writer = pq.ParquetWriter(fh, table.schema, compression="snappy")
                writer.write_table(table)
        finally:
            if writer is not None:
                writer.close()
    else:
        head, n = [], 0
        for df in it:                                # read no further than the rows shown
            head.append(df.iloc[:TABLE_ROWS - n])
            n += len(head[-1])
            if n >= TABLE_ROWS:
                break
        shown = head[0] if len(head) == 1 else pd.concat(head, ignore_index=True)
        write_table(shown, by, fh, color, width, columns, total)
