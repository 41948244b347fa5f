"""Statistics in flat memory (``nardy_analyze.stats.aggregate``): the players and match tables folded as the files
come, the game and match rows read back in chunks, the chunked writers, against the whole-frame code of
``nardy_analyze.stats`` (``players(games(...))``, ``matches(games(...))``, ``write_frame``), which stays the
reference: the same frames, the same bytes."""
from __future__ import annotations

import io
import pickle
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from helpers import ROOT
from nardy_analyze.stats import aggregate as ag
from nardy_analyze import stats, statsrun
from nardy_analyze.stats import frames, render
from nardy_analyze.inputs import discover
from nardy_analyze.analyze import map_records
from nardy_analyze.runner import combined
from nardy_analyze.cli import app
from nardy_analyze.generate import generate_match
from nardy_analyze.notation import get as notation

FIXTURES = ROOT / "tests" / "fixtures" / "selfplay"
runner = CliRunner()
KINDS = {"backgammon": ["single", "gammon", "backgammon", "resign", "drop", "timeout"],
         "long": ["single", "mars", "koks", "resign", "drop"]}
SPELLINGS = ["Anna Petrova", "anna  petrova,1650", "ANNA PETROVA", "Boris", "BORIS", "boris ,1702", "Vera",
             "vera", "Gleb"]


# ------------------------------------------------------------------------------------ synthetic files
@st.composite
def files(draw) -> list[stats.FileResult]:
    """Files of game rows as match_rows makes them (two rows per game, side 0 then 1), with names under
    several spellings, results, kinds, points, cube values, unfinished games, repeated game numbers."""
    out = []
    for f in range(draw(st.integers(0, 7))):
        path = f"dir/f{f}.mat"
        variant = draw(st.sampled_from(["backgammon", "long"]))
        mid = draw(st.sampled_from([path, "M-1", "M-2"]))
        date = draw(st.sampled_from([None, "2024-03-01", "2025-11-30"]))
        length = draw(st.sampled_from([0, 3, 5, 7]))
        res = stats.FileResult(path)
        res.problems = [f"{path}:1:1: parse-error: x"] * draw(st.integers(0, 1))
        res.arg_errors = ["--rule koks: not an option of backgammon"] * draw(st.integers(0, 1))
        score = [0, 0]
        number = 0
        for _ in range(draw(st.integers(0, 5))):
            number += draw(st.sampled_from([1, 1, 1, 0]))      # a repeated game number now and then
            names = draw(st.lists(st.sampled_from(SPELLINGS), min_size=2, max_size=2))
            winner = draw(st.sampled_from([0, 1, None]))
            kind = draw(st.sampled_from(KINDS[variant])) if winner is not None else None
            pts = draw(st.integers(1, 6)) if winner is not None else 0
            cube = draw(st.sampled_from([1, 2, 4]))
            for s in (0, 1):
                counters = draw(st.lists(st.integers(0, 40), min_size=21, max_size=21))
                result = None if winner is None else "win" if winner == s else "loss"
                c = counters
                c[2] = min(c[2], c[1])                            # doubles <= rolls
                res.rows.append((path, number, mid, variant, date, length, names[s], names[1 - s], s,
                                 score[s], score[1 - s], *c[:16], cube, result, kind,
                                 pts if winner == s else 0, draw(st.integers(0, 2)), *c[16:]))
            if winner is not None:
                score[winner] += pts
        out.append(res)
    return out


ALIASES = [{}, {"vera": "Boris"}, {"anna petrova": "Anna P."}, {"gleb": "vera", "boris": "Boris B."}]


def whole(results: list[stats.FileResult], aliases: dict[str, str]) -> pd.DataFrame:
    """The reference: every row in one frame, named as statsrun.scan names it."""
    return frames.game_frame([r for res in results for r in res.rows], dict(aliases))


def folded(results: list[stats.FileResult], by: str, aliases: dict[str, str], cuts: list[int]) -> ag.Aggregate:
    """The aggregate of the files' partials, folded in tasks of consecutive files cut at ``cuts``."""
    agg = ag.Aggregate(by, frozenset({by, "player"}), dict(aliases))
    parts = [ag.partial(r, frozenset({by, "player"})) for r in results]
    parts = pickle.loads(pickle.dumps(parts))            # as they come from the workers
    start = 0
    for end in sorted(set(cuts)) + [len(parts)]:
        if end > start:
            agg.add(ag.combine(parts[start:end]))
            start = end
    return agg


@settings(max_examples=30, deadline=None)
@given(results=files(), aliases=st.sampled_from(ALIASES), data=st.data())
def test_folded_tables_are_the_whole_frames_tables(results, aliases, data):
    """players, matches and the game rows from partials folded per task and in order are the tables of
    the whole frame: names normalised across files, the chi-square p-values, points against with
    repeated game numbers, unfinished games, match winners."""
    g = whole(results, aliases)
    cuts = data.draw(st.lists(st.integers(0, len(results)), max_size=4))
    rows = data.draw(st.integers(1, 9))
    with folded(results, "player", aliases, cuts) as agg:
        pd.testing.assert_frame_equal(agg.players(), statsrun.players(g))
        assert agg.problems == [p for r in results for p in r.problems]
        assert agg.arg_errors == [(r.path, m) for r in results for m in r.arg_errors]
    for by, expected in (("game", g), ("match", statsrun.matches(g))):
        with folded(results, by, aliases, cuts) as agg:
            chunks = list(agg.frames(rows))
            assert all(len(c) <= rows for c in chunks) and agg.rows == len(expected)
            pd.testing.assert_frame_equal(pd.concat(chunks, ignore_index=True), expected)
            for c in chunks:                                  # every chunk typed as the whole table
                assert list(c.dtypes) == list(expected.dtypes)
            for fmt in ("csv", "json"):
                a, b = io.StringIO(), io.StringIO()
                stats.write_frame(expected, fmt, a, by)
                stats.write_frames(iter(chunks), fmt, b, by)
                assert a.getvalue() == b.getvalue(), fmt


def test_display_names_is_the_frame_normalisation():
    g = pd.DataFrame({"player": ["anna ,1600", "Boris", "Anna", "boris"], "opponent": ["Boris", "anna ,1600", "boris", "Anna"]})
    shown = stats.display_names({"anna ,1600": 2, "Boris": 2, "Anna": 2, "boris": 2}, {})
    frames.unify_names(g, {})
    assert list(g["player"]) == [shown[n] for n in ["anna ,1600", "Boris", "Anna", "boris"]] == \
        ["anna", "Boris", "anna", "Boris"]


# ------------------------------------------------------------------------------------ real records
@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """Generated games of each variant, several files each, players under several spellings."""
    root = tmp_path_factory.mktemp("generated")
    for v, (variant, options) in enumerate([("backgammon", {}), ("long", {"koks": True}), ("gulbara", {})]):
        for i in range(4):
            names = (SPELLINGS[(i + v) % len(SPELLINGS)], SPELLINGS[(i + v + 3) % len(SPELLINGS)])
            match = generate_match(variant, 3, 100 * v + i, names, dict(options))
            (root / f"{variant}-{i}.ngn").write_text(notation("ngn").write(match), encoding="utf-8")
    return root


@pytest.mark.parametrize("jobs", [1, 2])
def test_real_records_folded_are_the_whole_frames(generated, jobs):
    paths = [str(FIXTURES), str(generated)]
    g = statsrun.games(paths, jobs=1)
    pd.testing.assert_frame_equal(statsrun.players(paths, jobs=jobs), statsrun.players(g))
    pd.testing.assert_frame_equal(statsrun.matches(paths, jobs=jobs), statsrun.matches(g))
    chunks = list(statsrun.iter_games(paths, rows=17, jobs=jobs))
    assert [len(c) for c in chunks[:-1]] == [17] * (len(chunks) - 1)
    pd.testing.assert_frame_equal(pd.concat(chunks, ignore_index=True), g)
    aliases = {"vera": "Boris"}
    pd.testing.assert_frame_equal(statsrun.players(paths, jobs=jobs, aliases=aliases),
                                  statsrun.players(statsrun.games(paths, jobs=1, aliases=aliases)))


def test_workers_fold_their_chunk_of_files():
    """With worker processes, each chunk's files come back as one partial (the last file of the chunk
    carries it); folded in order they are what one process gives file by file."""
    entries = list(discover([str(FIXTURES)] * 4))
    want = frozenset({"player"})
    args = ("backgammon", {}, want)
    pooled = list(map_records(entries, statsrun.partial_of, args, jobs=2, combine=ag.combine))
    single = list(map_records(entries, statsrun.partial_of, args, jobs=1, combine=ag.combine))
    assert [k for _, k, _ in pooled] == ["ok"] * len(entries)
    assert sum(v is None for _, _, v in pooled) >= len(entries) // 2       # chunks of up to 8 files
    assert all(v is not None for _, _, v in single)
    a, b = ag.Aggregate("player", want, {}), ag.Aggregate("player", want, {})
    for agg, results in ((a, pooled), (b, single)):
        for _, _, v in results:
            if v is not None:
                agg.add(v)
    assert a.names == b.names
    pd.testing.assert_frame_equal(a.players(), b.players())


def test_combined_folds_only_the_ok_results():
    results = [("ok", [1]), ("unreadable", "x"), ("ok", [2]), ("internal-error", "y"), ("ok", [3])]
    assert combined(results, lambda vs: sum(vs, [])) == [("ok", None), ("unreadable", "x"), ("ok", None),
                                                        ("internal-error", "y"), ("ok", [1, 2, 3])]
    assert combined(results, None) == results
    assert combined(results[:2], lambda vs: 1 / 0) == results[:2]         # one ok file: nothing to fold


def test_players_keep_no_game_rows(generated):
    """--by player: a file's partial holds the sums per name, not its rows; nothing is spooled."""
    res = stats.match_rows(notation("ngn").read((generated / "long-0.ngn").read_text(), "long-0.ngn"))
    part = ag.partial(res, frozenset({"player"}))
    assert part.rows == [] and part.matches == [] and len(part.players) == 2 and len(res.rows) == 6
    with statsrun.aggregate([str(generated)], "player", jobs=1) as agg:
        assert agg._spool is None
    with statsrun.aggregate([str(generated)], "game", jobs=1) as agg:
        assert agg.rows == 2 * 3 * 12 and agg.player_sums == {}


# ------------------------------------------------------------------------------------ writers
@pytest.fixture(scope="module")
def game_frame() -> pd.DataFrame:
    return statsrun.games([str(FIXTURES)], jobs=1)


def _chunks(df: pd.DataFrame, n: int) -> list[pd.DataFrame]:
    return [df.iloc[i:i + n].reset_index(drop=True) for i in range(0, len(df), n)] or [df]


@pytest.mark.parametrize("fmt", ["csv", "json", "markdown"])
@pytest.mark.parametrize("n", [1, 7, 100_000])
def test_chunked_text_is_the_whole_frames_text(game_frame, fmt, n):
    for by, df in (("game", game_frame), ("match", statsrun.matches(game_frame)), ("game", game_frame.iloc[:0])):
        a, b = io.StringIO(), io.StringIO()
        stats.write_frame(df, fmt, a, by)
        stats.write_frames(_chunks(df, n), fmt, b, by)
        assert a.getvalue() == b.getvalue()


def test_parquet_in_row_groups(game_frame):
    pq = pytest.importorskip("pyarrow.parquet")
    one, whole_file = io.BytesIO(), io.BytesIO()
    stats.write_frame(game_frame, "parquet", whole_file)
    stats.write_frames([game_frame], "parquet", one)
    assert one.getvalue() == whole_file.getvalue()            # one chunk: the file of the whole frame
    many = io.BytesIO()
    stats.write_frames(_chunks(game_frame, 50), "parquet", many)
    many.seek(0)
    assert pq.ParquetFile(many).metadata.num_row_groups == -(-len(game_frame) // 50)
    many.seek(0)
    pd.testing.assert_frame_equal(pd.read_parquet(many), pd.read_parquet(io.BytesIO(whole_file.getvalue())))


def test_terminal_table_of_many_rows_is_cut_with_a_note(monkeypatch, game_frame):
    monkeypatch.setattr(render, "TABLE_ROWS", 10)
    out = runner.invoke(app, ["stats", "--by", "game", "-j", "1", str(FIXTURES)])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert len(lines) == 1 + 10 + 1
    assert lines[-1] == f"(the first 10 of {len(game_frame):,} rows; --format csv, json, parquet or markdown " \
                        "gives every row)"
    a = io.StringIO()
    stats.write_table(game_frame.iloc[:10], "game", a)
    assert "\n".join(lines[:-1]) + "\n" == a.getvalue()
    # the other formats and the players table give every row
    out = runner.invoke(app, ["stats", "--by", "game", "-f", "csv", "-j", "1", str(FIXTURES)])
    assert len(out.output.splitlines()) == 1 + len(game_frame)
    out = runner.invoke(app, ["stats", "-j", "1", str(FIXTURES)])
    assert "rows;" not in out.output


def test_sort_and_plot_of_streamed_tables(tmp_path, game_frame):
    pytest.importorskip("matplotlib")
    out = runner.invoke(app, ["stats", "--by", "game", "-f", "csv", "--sort", "pips", "--plot",
                              str(tmp_path / "p.svg"), "-j", "1", str(FIXTURES)])
    assert out.exit_code == 0, out.output
    expected = io.StringIO()
    stats.write_frame(stats.sort_frame(game_frame, "pips"), "csv", expected)
    assert out.output == expected.getvalue()
    assert (tmp_path / "p.svg").stat().st_size > 1000
    out = runner.invoke(app, ["stats", "--by", "match", "--sort", "nope", "-j", "1", str(FIXTURES)])
    assert out.exit_code == 2 and "no column 'nope'" in out.output


def test_a_file_named_twice_counts_as_two_readings(tmp_path):
    """Each reading of a file is its own match: points against are the opponents' points in those games
    (before, a path read twice summed the points of both readings into each game)."""
    f = str(sorted(FIXTURES.glob("*.mat"))[0])
    once, twice = statsrun.players([f], jobs=1), statsrun.players([f, f], jobs=1)
    for col in ("games", "wins", "points_for", "points_against"):
        assert list(twice[col]) == [2 * x for x in once[col]]
    m = statsrun.matches([f, f], jobs=1)
    assert len(m) == 2 and list(m["games"]) == list(statsrun.matches([f], jobs=1)["games"]) * 2


def test_the_spool_is_removed(monkeypatch, tmp_path):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)
    spool = ag._Spool()
    spool.add([(1, "a")] * 5)
    spool.add([])
    spool.add([(2, "b")] * 3)
    assert [len(c) for c in spool.chunks(3)] == [3, 3, 2]
    assert [r for c in spool.chunks(100) for r in c] == [[1, "a"]] * 5 + [[2, "b"]] * 3
    odd = [("päth\n\"x\"", 1, None, True, "Анна")]
    spool.add(odd)
    assert [tuple(r) for c in spool.chunks(100) for r in c][-1] == odd[0]     # any text, None, booleans
    spool.close()
    assert list(tmp_path.iterdir()) == []
