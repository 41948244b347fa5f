"""`nardy_analyze.stats` and `nardy-analyze stats`: the turn rows of the replay, the frames, their properties
and the command line (every --format gives the numbers of the API)."""
from __future__ import annotations

import io
import json
import math
import pickle
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from helpers import CORPUS, ROOT
from nardy_analyze.replay import telling as telling_mod
from nardy_analyze import stats, statsrun
from nardy_analyze.stats import columns, frames
from nardy_analyze import notation
from nardy_analyze.inputs import read_bytes
from nardy_analyze.analyze import validate_paths
from nardy_analyze.cli import app
from nardy_analyze.engine import get_variant
from nardy_analyze.events import TurnRow
from nardy_analyze.replay import Events, ReportBuilder, replay

FIXTURES = ROOT / "tests" / "fixtures" / "selfplay"
MUTANTS = CORPUS / "mutants"
needs_corpus = pytest.mark.skipif(not CORPUS.exists(), reason=f"shared corpus not present: {CORPUS}")
runner = CliRunner()


@pytest.fixture(scope="module")
def fixture_games() -> pd.DataFrame:
    return statsrun.games([str(FIXTURES)], jobs=1)


def record(text: str, tmp_path: Path, name: str = "m.mat") -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


class Rows(ReportBuilder):
    wants = Events.TURNS | Events.ENDS

    def __init__(self):
        super().__init__()
        self.turns: list[TurnRow] = []
        self.ends = []

    def turn(self, row):
        self.turns.append(row)

    def game_end(self, end):
        self.ends.append(end)


# --------------------------------------------------------------------------------------- replay rows
@settings(max_examples=200, deadline=None)
@given(faces=st.lists(st.lists(st.integers(0, 5000), min_size=6, max_size=6), min_size=1, max_size=8))
def test_dice_test_is_scipys_chisquare(faces):
    """dice_chi2 / dice_p (closed form, 5 degrees of freedom) against scipy.stats.chisquare, the oracle."""
    import numpy as np
    from scipy.stats import chisquare

    arr = np.array(faces, dtype=float)
    stat, pval = frames._dice_tests(arr)
    for row, s_, p_ in zip(arr, stat, pval):
        if row.sum() == 0:
            assert math.isnan(s_) and math.isnan(p_)
            continue
        ref = chisquare(row)
        assert math.isclose(s_, ref.statistic, rel_tol=1e-12, abs_tol=1e-12)
        assert math.isclose(p_, ref.pvalue, rel_tol=1e-9, abs_tol=1e-15), (row, p_, ref.pvalue)


def test_validate_builds_no_turn_rows(monkeypatch):
    """Without a visitor that wants them, the replay constructs nothing for statistics."""
    def boom(*a, **k):
        raise AssertionError("a TurnRow was built during validate")

    monkeypatch.setattr(telling_mod, "TurnRow", boom)
    monkeypatch.setattr(telling_mod, "GameEnd", boom)
    run = validate_paths([str(FIXTURES)], jobs=1)
    assert run.reports and not [f for f in run.findings if f.severity == "error"]


def test_one_row_per_turn_with_positions_that_follow():
    path = FIXTURES / "selfplay_0103_5pt.mat"
    match = notation.read_bytes(read_bytes(str(path)), str(path))
    rows = Rows()
    rep = replay(match, get_variant("backgammon"), visitor=rows)
    assert [e.game for e in rows.ends] == [g.number for g in match.games]
    for g in match.games:
        turns = [t for t in rows.turns if t.game == g.number]
        assert [t.turn for t in turns] == list(range(1, len(turns) + 1))
        rolls = [t for t in turns if t.dice is not None]
        assert len(rolls) == rep.games[g.number - 1].turns
        for a, b in zip(turns, turns[1:]):
            if a.dice is not None and b.dice is not None and b.side != a.side:
                assert b.before == (a.after[1], a.after[0])   # the next turn starts where this one ended


@needs_corpus
def test_resync_rows_follow_the_position_the_replay_goes_on_from():
    """bear-off-early-005.mat, game 9: the winner bears off exactly 15 checkers (the old events gave 16)."""
    g = statsrun.games(str(MUTANTS / "bear-off-early-005.mat"))
    g9 = g[g["game"] == 9].set_index("side")
    assert g9["borne_off"].max() == 15
    assert (g9["borne_off"] <= 15).all()
    assert g9.loc[g9["result"] == "win", "borne_off"].item() == 15
    assert g9["illegal"].sum() >= 1      # the illegal play still gets its row, marked


@needs_corpus
def test_no_side_bears_off_more_than_fifteen_in_the_bear_off_mutants():
    files = sorted(str(f) for f in MUTANTS.glob("bear-off-*.mat"))
    assert len(files) >= 5
    g = statsrun.games(files)
    assert len(g) > 50
    assert (g["borne_off"] <= 15).all() and (g["hits"] >= 0).all() and (g["pips"] >= 0).all()
    assert g.loc[g["result"] == "win", "borne_off"].ge(0).all()


def test_worker_results_are_small(fixture_games):
    """What a worker process sends back per game is a couple of plain rows, not event objects."""
    path = str(FIXTURES / "selfplay_0106_11pt.mat")
    from nardy_analyze.inputs import discover, load

    entry = next(discover([path]))
    res = statsrun.rows_of(entry, load(entry), "backgammon", {})
    assert len(res.rows) == 2 * 10
    assert len(pickle.dumps(res)) < 600 * len(res.rows)


# --------------------------------------------------------------------------------------- columns
def test_columns_and_dtypes(fixture_games):
    g = fixture_games
    assert list(g.columns) == list(stats.GAME_COLUMNS)
    for col, (dtype, _) in stats.GAME_COLUMNS.items():
        assert str(g[col].dtype) == dtype, col
    assert set(g["result"].dropna()) <= {"win", "loss"}
    assert set(g["kind"].dropna()) <= set(columns.kinds())
    p = statsrun.players(g)
    assert list(p.columns) == list(stats.PLAYER_COLUMNS)
    for col, (dtype, _) in stats.PLAYER_COLUMNS.items():
        assert str(p[col].dtype) == dtype, col
    m = statsrun.matches(g)
    assert list(m.columns) == list(stats.MATCH_COLUMNS)
    for col, (dtype, _) in stats.MATCH_COLUMNS.items():
        assert str(m[col].dtype) == dtype, col


def test_documented_columns_are_in_docs():
    text = (ROOT / "docs" / "stats.md").read_text()
    for table in (stats.GAME_COLUMNS, stats.PLAYER_COLUMNS, stats.MATCH_COLUMNS):
        for col, (dtype, _) in table.items():
            assert f"`{col}`" in text, col


def test_a_hand_checked_game(tmp_path):
    text = """ 3 point match

 Game 1
 Alice : 0                  Bob : 0
  1) 31: 24/21 6/5           64: 8/4* 24/18
  2) 52: bar/20 13/11        21: 13/11 11/10
  3)  Doubles => 2            Drops
      Wins 1 point
"""
    g = statsrun.games(record(text, tmp_path), jobs=1).set_index("player")
    a, b = g.loc["Alice"], g.loc["Bob"]
    assert (a.rolls, a.doubles, b.rolls, b.doubles) == (2, 0, 2, 0)
    assert [a[f"die_{i}"] for i in range(1, 7)] == [1, 1, 1, 0, 1, 0]
    assert [b[f"die_{i}"] for i in range(1, 7)] == [1, 1, 0, 1, 0, 1]
    assert (a.pips, b.pips) == (4 + 7, 10 + 3)       # the hit checker's way back is not Alice's move
    assert (b.hits, a.hit, a.hits, b.hit) == (1, 1, 0, 0)
    assert (a.cube_offered, b.cube_dropped, b.cube_taken, a.max_cube) == (1, 1, 0, 1)
    assert (a.result, a.kind, a.points, b.result, b.points) == ("win", "drop", 1, "loss", 0)
    assert (a.turns, b.turns, a.illegal, b.illegal, a.borne_off) == (3, 2, 0, 0, 0)


def test_names_are_normalised_and_aliased(tmp_path):
    def rec(p1, p2):
        return f""" 1 point match

 Game 1
 {p1} : 0                  {p2} : 0
  1) 31: 8/5 6/5             64: 24/18 13/9
  2)  Doubles => 2            Drops
      Wins 1 point
"""
    files = [record(rec("Alice,1673", "bob"), tmp_path, "a.mat"), record(rec(" alice ", "Bob"), tmp_path, "b.mat"),
             record(rec("ALICE", "Robert"), tmp_path, "c.mat")]
    p = statsrun.players(files, jobs=1)
    # one person under three spellings; ties keep the spelling seen first
    assert list(map(str, p["player"])) == ["Alice", "bob", "Robert"]
    assert p["games"].tolist() == [3, 2, 1]
    p = statsrun.players(files, aliases=["Robert=Bob"], jobs=1)
    assert list(map(str, p["player"])) == ["Alice", "bob"] and p["games"].tolist() == [3, 3]
    p = statsrun.players(files, aliases=["alice = Alice Smith", "ROBERT=Bobby"], jobs=1)
    assert sorted(map(str, p["player"])) == ["Alice Smith", "Bobby", "bob"]
    p = statsrun.players(files, aliases={"ALICE,1500": "A. Smith"}, jobs=1)
    assert "A. Smith" in set(map(str, p["player"])) and p["games"].tolist()[0] == 3
    with pytest.raises(ValueError):
        stats.parse_aliases(["nobody"])


# --------------------------------------------------------------------------------------- properties
def game_keys(g: pd.DataFrame) -> list[tuple[str, int]]:
    return sorted(set(zip(g["path"].astype(str), g["game"])))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_properties_over_any_set_of_games(fixture_games, data):
    g = fixture_games
    keys = game_keys(g)
    chosen = set(data.draw(st.lists(st.sampled_from(keys), min_size=1, max_size=40, unique=True)))
    sub = g[[k in chosen for k in zip(g["path"].astype(str), g["game"])]].reset_index(drop=True)
    p = statsrun.players(sub)
    # points for equal points against over any set of whole games
    assert p["points_for"].sum() == p["points_against"].sum() == sub["points"].sum()
    assert (sub["doubles"] <= sub["rolls"]).all() and (p["doubles"] <= p["rolls"]).all()
    assert (p["wins"].sum() == p["losses"].sum())
    # per-player totals are the sums of their game rows
    for row in p.itertuples(index=False):
        mine = sub[sub["player"] == row.player]
        assert row.games == len(mine)
        for col in ("rolls", "doubles", "hits", "hit", "pips", "borne_off", "cube_offered", "cube_taken",
                    "cube_dropped", "illegal", "turns", "primes", "shutouts", "forced", "points"):
            assert getattr(row, "points_for" if col == "points" else col) == mine[col].sum(), col
        assert row.max_cube == mine["max_cube"].max()
        assert sum(getattr(row, f"die_{i}") for i in range(1, 7)) == 2 * row.rolls
        assert row.hits == sub[sub["opponent"] == row.player]["hit"].sum() or len(p) > 2


def check_final_scores(g: pd.DataFrame) -> None:
    """The per-match final score is the last score line plus the last result; every score line is the
    previous one plus that game's result."""
    m = statsrun.matches(g).set_index("path")
    for path, rows in g.groupby("path", observed=True):
        match = notation.read_bytes(read_bytes(str(path)), str(path))
        first = rows[rows["side"] == 0].set_index("game")
        second = rows[rows["side"] == 1].set_index("game")
        last = match.games[-1]
        if last.score is not None:
            n = last.number
            assert m.loc[path, "score1"] == last.score[0] + first.loc[n, "points"]
            assert m.loc[path, "score2"] == last.score[1] + second.loc[n, "points"]
        for a, b in zip(match.games, match.games[1:]):
            if a.score is not None and b.score is not None and not a.broken:
                assert b.score[0] == a.score[0] + first.loc[a.number, "points"], (path, b.number)
                assert b.score[1] == a.score[1] + second.loc[a.number, "points"], (path, b.number)


def test_final_score_is_last_score_line_plus_last_result(fixture_games):
    check_final_scores(fixture_games)
    m = statsrun.matches(fixture_games)
    assert m["complete"].all() and (m[["score1", "score2"]].max(axis=1) >= m["length"]).all()


@pytest.mark.slow
@needs_corpus
def test_final_scores_on_real_archives():
    """Site records (Backgammon Studio, one player's archive in the bglab corpus) and gnubg self-play."""
    files = sorted((CORPUS / "bglab" / "data-raw" / "Llabba").rglob("*.txt"))[:30]
    files += sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))[:30]
    g = statsrun.games([str(f) for f in files])
    check_final_scores(g)
    p = statsrun.players(g)
    assert p["points_for"].sum() == p["points_against"].sum()


# --------------------------------------------------------------------------------------- command line
def read_back(fmt: str, out: Path) -> pd.DataFrame:
    if fmt == "csv":
        return pd.read_csv(out)
    if fmt == "json":
        return pd.DataFrame(json.loads(out.read_text()))
    if fmt == "parquet":
        return pd.read_parquet(out)
    lines = [ln for ln in out.read_text().splitlines() if ln.strip()]
    if fmt == "markdown":
        rows = [[c.strip() for c in ln.strip().strip("|").split(" | ")] for ln in lines]
        head, body = rows[0], rows[2:]
    else:                                # table: columns separated by runs of blanks, no blank in a cell
        rows = [ln.split() for ln in lines]
        head, body = rows[0], rows[1:]
    return pd.read_csv(io.StringIO("\n".join(",".join(r) for r in [head, *body])))


def same_numbers(api: pd.DataFrame, back: pd.DataFrame, fmt: str) -> None:
    assert len(api) == len(back), fmt
    for col in back.columns:
        a, b = api[col], back[col]
        if pd.api.types.is_numeric_dtype(a) and a.dtype != bool:
            for x, y in zip(a, b):
                assert (pd.isna(x) and pd.isna(y)) or math.isclose(float(x), float(y), rel_tol=1e-5), (fmt, col)
        elif str(a.dtype).startswith("datetime"):
            assert list(a.dt.strftime("%Y-%m-%d")) == [str(y)[:10] for y in b], (fmt, col)
        else:
            assert [str(x) for x in a.astype(object).where(a.notna(), "")] == \
                   ["" if pd.isna(y) else str(y) for y in b], (fmt, col)


@pytest.mark.parametrize("by", ["player", "game", "match"])
@pytest.mark.parametrize("fmt", ["csv", "json", "parquet", "markdown", "table"])
def test_every_format_gives_the_numbers_of_the_api(tmp_path, fixture_games, fmt, by, cli):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"out.{fmt}"
    r = cli("stats", str(FIXTURES), "--by", by, "--format", fmt, "-o", str(out), "-j", "1")
    assert r.exit_code == 0, r.output
    api = statsrun.frame(by, fixture_games)
    back = read_back(fmt, out)
    if fmt == "table":
        cols = [c for c in stats.TABLE_COLUMNS[by] if c not in ("path", "match")]
        back = back[[c for c in cols if c in back.columns]]
        assert list(back.columns) == cols or by != "match"
    else:
        assert list(back.columns) == list(api.columns)
    same_numbers(api[list(back.columns)], back, fmt)


def test_stdout_csv_and_sort(fixture_games, cli):
    r = cli("stats", str(FIXTURES), "--by", "game", "-f", "csv", "--sort", "hits", "-j", "1")
    assert r.exit_code == 0
    back = pd.read_csv(io.StringIO(r.stdout))
    assert list(back["hits"]) == sorted(fixture_games["hits"], reverse=True)
    r = cli("stats", str(FIXTURES), "--sort", "nonsense")
    assert r.exit_code == 2 and "no column 'nonsense'" in r.output


def test_bad_files_are_reported_and_the_others_counted(tmp_path, cli):
    bad = tmp_path / "bad.mat"
    bad.write_text("hello\nworld\n")
    good = FIXTURES / "selfplay_0101_1pt.mat"
    r = cli("stats", str(bad), str(good), "-f", "csv")
    assert r.exit_code == 1 and "bad.mat:1:1: parse-error" in r.output
    assert "Traceback" not in r.output
    assert "gnubg" in r.stdout and "root" in r.stdout      # the readable file is still counted
    r = cli("stats", str(tmp_path / "missing.mat"), str(good), "-f", "csv")
    assert r.exit_code == 2 and "missing.mat: no such file or folder" in r.output
    assert "gnubg" in r.stdout and "root" in r.stdout
    out = tmp_path / "o.csv"
    out.write_text("old")
    r = cli("stats", str(tmp_path / "nothing-here"), "-o", str(out), "-f", "csv")
    assert r.exit_code == 2 and out.read_text() == "old"


def test_rule_options_apply_per_record_variant(tmp_path, cli):
    r = cli("stats", str(FIXTURES / "selfplay_0101_1pt.mat"), "--rule", "koks=on", "-f", "csv")
    assert r.exit_code == 2 and "no option 'koks'" in r.output
    r = cli("stats", str(FIXTURES / "selfplay_0101_1pt.mat"), "--rule", "long:koks=on", "-f", "csv")
    assert r.exit_code == 0, r.output


def test_standard_input(fixture_games):
    data = (FIXTURES / "selfplay_0103_5pt.mat").read_text()
    r = runner.invoke(app, ["stats", "-", "--by", "game", "-f", "csv"], input=data)
    assert r.exit_code == 0, r.output
    back = pd.read_csv(io.StringIO(r.stdout))
    assert set(back["path"]) == {"<stdin>"}
    mine = fixture_games[fixture_games["path"].astype(str).str.endswith("selfplay_0103_5pt.mat")]
    assert back["hits"].tolist() == mine["hits"].tolist() and back["points"].tolist() == mine["points"].tolist()


def test_bad_arguments(cli):
    assert cli("stats", str(FIXTURES), "--alias", "noequals").exit_code == 2
    assert cli("stats", str(FIXTURES), "--variant", "chess").exit_code == 2
    assert cli("stats", str(FIXTURES), "--rule", "crawford=maybe").exit_code == 2
    r = cli("stats", str(FIXTURES), "--plot", "x.gif")
    assert r.exit_code == 2 and ".png or .svg" in r.output


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_plot(tmp_path, suffix, cli):
    pytest.importorskip("matplotlib")
    out = tmp_path / f"p.{suffix}"
    r = cli("stats", str(FIXTURES), "--plot", str(out), "-f", "csv", "-o", str(tmp_path / "x.csv"))
    assert r.exit_code == 0, r.output
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == "png" else b"<svg" in data[:2000]
    if suffix == "svg":
        text = data.decode()
        assert ">gnubg" in text and ">root" in text        # names as text elements, not only paths


def test_plot_without_matplotlib_says_which_extra(tmp_path, monkeypatch, cli):
    import builtins

    real = builtins.__import__

    def fake(name, *a, **k):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake)
    r = cli("stats", str(FIXTURES), "--plot", str(tmp_path / "p.png"), "-o", str(tmp_path / "x.csv"), "-f", "csv")
    assert r.exit_code == 2 and "pip install 'nardy-analyze[plot]'" in r.output
    assert not (tmp_path / "p.png").exists()


@pytest.mark.slow
@needs_corpus
def test_an_archive_of_the_bglab_corpus_names_its_players(tmp_path, cli):
    """One player's folder of the bglab archive (79 Backgammon Studio matches): the owner first, with a
    record; the whole archive is timed in bench/bench_stats.py."""
    out = tmp_path / "p.csv"
    r = cli("stats", str(CORPUS / "bglab" / "data-raw" / "Llabba"), "--by", "player", "-f", "csv", "-o", str(out))
    assert r.exit_code == 0, r.output
    p = pd.read_csv(out)
    top = p.iloc[0]
    assert top["player"] == "Llabba" and top["games"] > 500 and top["wins"] > 0
    # the owner's opponents, plus one match of two other players kept in the folder
    assert p["games"].iloc[1:].sum() == top["games"] + 2 * 8
    assert p["points_for"].sum() == p["points_against"].sum()
    assert (p["wins"] + p["losses"] == p["finished"]).all()
    assert (p["finished"] <= p["games"]).all()
