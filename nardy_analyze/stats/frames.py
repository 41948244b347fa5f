"""The frames: the statistics tables as typed pandas DataFrames, built from the tally's rows: per player per
game (:func:`game_frame`), per player (:func:`player_frame`, :func:`player_table`) and per match
(:func:`match_frame`); the players' names as they are grouped and shown (:func:`normalise_name`,
:func:`parse_aliases`, :func:`display_names`)."""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pandas as pd

from ..engine import level_words
from ..names import display_names, normalise_name, parse_aliases
from .columns import GAME_COLUMNS, MATCH_COLUMNS, PLAYER_COLUMNS, PLAYER_SUMS, RESULTS, kinds

__all__ = ["normalise_name", "parse_aliases", "display_names", "game_frame", "player_frame", "player_table",
           "match_frame", "typed", "unify_names", "sort_key"]   # the names' functions: nardy_analyze.names, one way for every command


def game_frame(rows: list[tuple], aliases: dict[str, str] | None = None) -> pd.DataFrame:
    cols = list(GAME_COLUMNS)
    df = pd.DataFrame.from_records(rows, columns=cols) if rows else pd.DataFrame({c: [] for c in cols})
    unify_names(df, aliases or {})
    return typed(df, GAME_COLUMNS, {"result": RESULTS, "kind": kinds()})


def unify_names(df: pd.DataFrame, aliases: dict[str, str]) -> None:
    """Normalise player and opponent in place: one display spelling per normalised key, aliases applied."""
    if df.empty:
        return
    # each distinct name once, in the order names first appear (player column, then opponent column)
    shown = display_names(Counter(pd.concat([df["player"], df["opponent"]]).astype(str)), aliases)
    for col in ("player", "opponent"):
        df[col] = df[col].astype(str).map(shown)


def typed(df: pd.DataFrame, spec: dict[str, tuple[str, str]], cats: dict[str, list[str]]) -> pd.DataFrame:
    for col, (dtype, _) in spec.items():
        if col in cats:
            df[col] = pd.Categorical(df[col], categories=cats[col])
        elif dtype == "category":
            df[col] = df[col].astype(str).astype("category")
        elif dtype.startswith("datetime"):
            df[col] = pd.to_datetime(df[col], errors="coerce").astype("datetime64[ns]")
        else:
            df[col] = df[col].astype(dtype)
    return df[list(spec)]


def _wilson(k: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    if n <= 0:
        return math.nan, math.nan
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def _chi2_sf_5(x: float) -> float:
    """P(X >= x) for a chi-square variable of 5 degrees of freedom, in closed form (odd degrees of
    freedom): erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) (1 + x/3).  Equal to scipy.stats.chi2.sf(x, 5) to
    within rounding (tests/test_stats.py compares them); it spares importing scipy.stats, which cost more
    than a second of every ``stats --by player`` run."""
    if x != x:
        return math.nan
    if x <= 0:
        return 1.0
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


def _dice_tests(faces):
    """Chi-square statistics and p-values of many rows of six face counts at once, against fair dice:
    the statistic of scipy.stats.chisquare (sum of (observed - expected)^2 / expected, expected the
    row's mean) and its p-value with 5 degrees of freedom."""
    total = faces.sum(axis=1)
    stat = np.full(len(faces), np.nan)
    pval = np.full(len(faces), np.nan)
    ok = total > 0
    if ok.any():
        obs = faces[ok]
        expected = obs.mean(axis=1, keepdims=True)
        st = ((obs - expected) ** 2 / expected).sum(axis=1)
        stat[ok] = st
        pval[ok] = [_chi2_sf_5(float(x)) for x in st]
    return stat, pval


def player_frame(g: pd.DataFrame) -> pd.DataFrame:
    """One row per player over the games of ``g`` (a frame of :data:`~.columns.GAME_COLUMNS`; columns:
    :data:`~.columns.PLAYER_COLUMNS`), sorted by games played."""
    if g.empty:
        return typed(pd.DataFrame({c: [] for c in PLAYER_COLUMNS}), PLAYER_COLUMNS, {})
    g = g.assign(
        finished=g["result"].notna(), wins=g["result"] == "win", losses=g["result"] == "loss",
        opp_points=g.groupby(["path", "game"], observed=True)["points"].transform("sum") - g["points"])
    kind = g["kind"].astype(object)
    second, third = level_words(2), level_words(3)     # gammons and mars; backgammons and koks
    won, lost = g["wins"], g["losses"]
    g = g.assign(
        gammons_won=won & kind.isin(second), gammons_lost=lost & kind.isin(second),
        backgammons_won=won & kind.isin(third), backgammons_lost=lost & kind.isin(third),
        mars_won=won & (kind == "mars"), mars_lost=lost & (kind == "mars"),
        koks_won=won & (kind == "koks"), koks_lost=lost & (kind == "koks"),
        resigned=lost & (kind == "resign"), dropped=lost & (kind == "drop"),
        draws=g["result"] == "draw", home_mars_won=won & (kind == "home-mars"),
        home_mars_lost=lost & (kind == "home-mars"), timed_out=lost & (kind == "timeout"))
    grouped = g.groupby("player", observed=True, sort=False)
    p = grouped[PLAYER_SUMS].sum()
    p["games"] = grouped.size()
    p["points_for"] = grouped["points"].sum()
    p["points_against"] = grouped["opp_points"].sum()
    p["max_cube"] = grouped["max_cube"].max()
    p["longest_chain"] = grouped["longest_chain"].max()
    return player_table(p.reset_index())


# The sums per player of players(), in the order of its group-by (the per-player counts of the aggregate


def player_table(p: pd.DataFrame) -> pd.DataFrame:
    """The players table from its sums (one row per player in the order players first appear: ``player``,
    PLAYER_SUMS, games, points_for, points_against, max_cube, longest_chain, all int64): the rates,
    intervals and tests, typed and sorted."""
    fin = p["finished"].where(p["finished"] > 0)
    p["win_rate"] = p["wins"] / fin
    p["points_per_game"] = (p["points_for"] - p["points_against"]) / fin
    p["doubles_rate"] = p["doubles"] / p["rolls"].where(p["rolls"] > 0)
    bands = [_wilson(k, n) for k, n in zip(p["doubles"], p["rolls"])]
    p["doubles_low"] = [b[0] for b in bands]
    p["doubles_high"] = [b[1] for b in bands]
    p["dice_chi2"], p["dice_p"] = _dice_tests(p[[f"die_{i}" for i in range(1, 7)]].to_numpy(dtype=float))
    p["hits_per_game"] = p["hits"] / p["games"]
    p["pips_per_roll"] = p["pips"] / p["rolls"].where(p["rolls"] > 0)
    p["illegal_per_100"] = 100 * p["illegal"] / p["turns"].where(p["turns"] > 0)
    p = typed(p, PLAYER_COLUMNS, {})
    return p.sort_values(["games", "player"], ascending=[False, True], key=sort_key).reset_index(drop=True)


def sort_key(s: pd.Series) -> pd.Series:
    return s.astype(str).str.casefold() if s.dtype == "category" or s.dtype == object else s


def match_frame(g: pd.DataFrame) -> pd.DataFrame:
    """One row per match of the games of ``g`` (a frame of :data:`~.columns.GAME_COLUMNS`; columns:
    :data:`~.columns.MATCH_COLUMNS`), in the order read."""
    if g.empty:
        return typed(pd.DataFrame({c: [] for c in MATCH_COLUMNS}), MATCH_COLUMNS, {})
    keys = ["path", "match"]

    def side(s: int) -> pd.DataFrame:
        rows = g[g["side"] == s].groupby(keys, observed=True, sort=False)
        return pd.DataFrame({
            "variant": rows["variant"].last(), "date": rows["date"].first(), "player": rows["player"].first(),
            "length": rows["length"].last(), "games": rows.size(),
            "final": rows["score"].last() + rows["points"].last(), "finished": rows["result"].last().notna()})

    first, second = side(0), side(1)
    illegal = g.groupby(keys, observed=True, sort=False)["illegal"].sum()
    m = first.merge(second, left_index=True, right_index=True, how="left", suffixes=("", "_2"))
    s1, s2 = m["final"].to_numpy(), m["final_2"].fillna(0).to_numpy()
    length = m["length"].to_numpy()
    match_play = length > 0
    complete = (match_play & (pd.Series(s1).combine(pd.Series(s2), max).to_numpy() >= length)) | \
        (~match_play & m["finished"].to_numpy(dtype=bool))
    name1, name2 = m["player"].astype(str).to_numpy(), m["player_2"].astype(str).to_numpy()
    winner = [a if x > y else b if y > x else None for a, b, x, y in zip(name1, name2, s1, s2)]
    winner = [w if (c or not mp) else None for w, c, mp in zip(winner, complete, match_play)]
    out = pd.DataFrame({
        "path": m.index.get_level_values(0).astype(str), "match": m.index.get_level_values(1).astype(str),
        "variant": m["variant"].astype(str).to_numpy(), "date": m["date"].to_numpy(), "player1": name1,
        "player2": name2, "length": length, "games": m["games"].to_numpy(), "score1": s1, "score2": s2,
        "winner": winner, "complete": complete, "illegal": illegal.reindex(m.index).to_numpy()})
    return typed(out, MATCH_COLUMNS, {})
