"""The skill analysis where people look: ``convert --to sgf --analyse`` (GNU Backgammon's analysis properties)
and ``validate --analyse`` (the analysis of each finding's turn in the text, JSON and HTML reports).

GNU Backgammon reading our analysed SGF back (``show statistics match`` against ``analyze --by player``) is
in tests/test_skill_gnubg.py (slow)."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nardy_analyze.cli import app
from nardy_analyze.generate import generate_match
from nardy_analyze.engine import variant_display
from nardy_analyze.notation import get as notation
from nardy_analyze.notation import sgf
from nardy_analyze.notation.sgf_analysis import CheckerAnalysis, CubeAnalysis
from nardy_analyze import statsrun
from nardy_analyze.stats import skill

bgsage = pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")

ROOT = Path(__file__).resolve().parents[1]
CLUB = ROOT / "examples" / "club-night.mat"        # a 5-point match with four findings
SELFPLAY = ROOT / "examples" / "selfplay-7pt.mat"


@pytest.fixture(scope="module")
def money_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("analysed") / "money.ngn"
    p.write_text(notation("ngn").write(generate_match("backgammon", 2, seed=23)))
    return p


def _convert(src: Path, out: Path, *extra: str):
    return CliRunner().invoke(app, ["convert", str(src), "--to", "sgf", "-o", str(out), "--force", *extra])


def _nodes(text: str) -> list[str]:
    return [n for n in text.split("\n;")[1:]]


def _net(letters: str) -> dict[str, int]:
    """The checkers a move's letters take from and put on each point (the same play by another route
    gives the same)."""
    net: dict[str, int] = {}
    for i in range(0, len(letters), 2):
        src, dst = letters[i], letters[i + 1]
        net[src] = net.get(src, 0) - 1
        net[dst] = net.get(dst, 0) + 1
    return {k: v for k, v in net.items() if v}


# ----------------------------------------------------------------------------------------- convert
@pytest.mark.parametrize("source", ["money", "match"])
def test_analysed_sgf_carries_the_analysis_of_every_decision(source, money_file, tmp_path):
    src = money_file if source == "money" else SELFPLAY
    out = tmp_path / "a.sgf"
    r = _convert(src, out, "--analyse")
    assert r.exit_code == 0, r.output
    text = out.read_text()
    plain = tmp_path / "p.sgf"
    assert _convert(src, plain).exit_code == 0
    # the record is the same: our reader reads the analysed file as the plain one (the analysis ignored)
    a, b = sgf.read(text, "a"), sgf.read(plain.read_text(), "b")
    assert [[(x.kind, x.player, x.dice, [(s.src, s.dst) for s in x.steps]) for x in g.actions] for g in a.games] == \
        [[(x.kind, x.player, x.dice, [(s.src, s.dst) for s in x.steps]) for x in g.actions] for g in b.games]
    assert a.ignored.get("A", 0) > 20 and a.ignored.get("LU", 0) == a.ignored["A"]
    run = statsrun.analyse([str(src)])
    d = run.decisions
    checker = d[d["kind"] == "checker"]
    moves = [n for n in _nodes(text) if re.match(r"[WB]\[\d\d[a-z]*\]", n)]
    assert len(moves) == len(checker) == a.ignored["A"]
    cube_nodes = sum(n.count("DA[") for n in _nodes(text))
    assert cube_nodes == (d["kind"] != "checker").sum()
    for node, (_, row) in zip(moves, checker.iterrows()):
        m = re.match(r"([WB])\[(\d\d)([a-z]*)\]", node)
        cand = re.search(r"A\[(\d+)\]((?:\[[^\]]*\])+)", node)
        lists = re.findall(r"\[([a-z]*) E ver 3 ([-\d. ]+) 0C 0 1 0\.000000 1\]", cand.group(2))
        played = int(cand.group(1))
        equities = [float(x.split()[5]) for _, x in lists]
        # the play made is the listed play at A's index; the best play first; the error as analysed
        assert _net(lists[played][0]) == _net(m.group(3))
        assert equities[0] == max(equities)
        assert equities[0] - equities[played] == pytest.approx(row["error"], abs=2e-6)
        assert float(re.search(r"LU\[([-\d.]+)\]", node).group(1)) == pytest.approx(row["luck"], abs=1e-5)
        assert (len(lists) > 1) == (not row["forced"])
        for _, x in lists:                           # five probabilities, then the equity
            p = [float(v) for v in x.split()[:5]]
            assert 0 <= p[2] <= p[1] <= p[0] <= 1 and 0 <= p[4] <= p[3] <= 1 - p[0] + 1e-6


def test_sgf_analysis_is_plain_data_keyed_by_the_record_cell():
    m = notation("mat").read(SELFPLAY.read_text(), str(SELFPLAY))
    analysis, res = skill.sgf_analysis(m)
    cells = {(a.loc.line, a.loc.column): a for g in m.games for a in g.actions}
    assert analysis and set(analysis) <= set(cells)
    for key, entry in analysis.items():
        kind = cells[key].kind.value
        if isinstance(entry, CheckerAnalysis):
            assert kind == "roll" and 0 <= entry.played < len(entry.candidates)
        else:
            assert isinstance(entry, CubeAnalysis) and kind in ("double", "take", "drop")
            assert len(entry.no_double) == len(entry.double_take) == 7
            assert 0 <= entry.no_double[6] <= 1          # match play: match-winning chances, as gnubg keeps them


def test_analysed_sgf_options_are_checked(money_file, tmp_path):
    r = CliRunner().invoke(app, ["convert", str(money_file), "--to", "mat", "-o", str(tmp_path / "x.mat"),
                                 "--analyse"])
    assert r.exit_code == 2 and "needs --to sgf" in r.output
    r = _convert(money_file, tmp_path / "y.sgf", "--plies", "1")
    assert r.exit_code == 2 and "--plies goes with --analyse" in r.output
    r = _convert(money_file, tmp_path / "y.sgf", "--analyse", "--plies", "4")
    assert r.exit_code == 2 and "at most 3" in r.output
    assert not (tmp_path / "x.mat").exists() and not (tmp_path / "y.sgf").exists()


def test_without_the_engine_analyse_says_how_to_install_it(money_file, tmp_path, monkeypatch):
    """Without bgsage, ``convert --analyse`` (backgammon only) refuses; ``validate --analyse`` validates and
    says it per backgammon record (the long games are analysed by the shipped evaluator)."""
    monkeypatch.setitem(sys.modules, "bgsage", None)        # import bgsage now raises ImportError
    r = CliRunner().invoke(app, ["convert", str(money_file), "--to", "sgf", "-o", str(tmp_path / "z.sgf"),
                                 "--analyse"])
    assert r.exit_code == 2, r.output
    assert "--analyse needs the bgsage engine: pip install 'nardy-analyze[analysis]'" in r.output
    assert "Traceback" not in r.output
    assert not (tmp_path / "z.sgf").exists()
    r = CliRunner().invoke(app, ["validate", str(CLUB), "--analyse"])
    assert r.exit_code == 1, r.output                        # the record's findings, as without --analyse
    assert f"{CLUB}: the analysis of backgammon needs the bgsage engine: pip install 'nardy-analyze[analysis]' " \
           "(no equities given)" in r.output
    assert "Traceback" not in r.output


# ----------------------------------------------------------------------------------------- validate
@pytest.fixture(scope="module")
def club_json():
    r = CliRunner().invoke(app, ["validate", str(CLUB), "--analyse", "-f", "json"])
    assert r.exit_code == 1, r.output
    return json.loads(r.stdout)


def test_validate_json_gives_each_findings_turn_its_analysis(club_json):
    findings = club_json["findings"]
    analysed = [f for f in findings if "analysis" in f]
    # every finding about a play has it; the score-line finding (no turn) has none
    assert [f["rule"] for f in analysed] == ["dice-mismatch", "bar-first", "max-dice"]
    assert all("analysis" not in f for f in findings if f["rule"] == "match-score")
    for f in analysed:
        a = f["analysis"]
        assert a["engine"] == "bgsage" and a["plies"] == 0
        chk = [s for s in a["decisions"] if s["kind"] == "checker"]
        assert len(chk) == 1
        s = chk[0]
        assert s["game"] == f["game"] and s["line"] == f["line"]
        eq = [p["equity"] for p in s["plays"]]
        assert eq == sorted(eq, reverse=True) and 1 <= len(eq) <= 5 and len(eq) <= s["moves"]
        if s["equity_played"] is not None:
            assert s["error"] == pytest.approx(s["equity_best"] - s["equity_played"], abs=1e-6)
            assert s["error"] >= 0 and s["equity_best"] == pytest.approx(eq[0], abs=1e-6)
        for c in a["decisions"]:
            if c["kind"] != "checker":
                assert c["kind"] == "double" and c["action"] == "no double" and c["error"] >= 0
    maxdice = analysed[2]["analysis"]["decisions"][-1]
    # the written play (the 6 only) is illegal; the replay goes on from 13/7 8/7, the engine's best
    assert maxdice["played"] == "13/7" and maxdice["replayed"] == "13/7 8/7" and maxdice["rank"] == 1
    assert maxdice["error"] == 0
    bar = analysed[1]["analysis"]["decisions"][-1]
    assert bar["moves"] == 1 and bar["equity_played"] is None     # 13/9 with a checker on the bar: no play


def test_validate_text_and_html_show_the_analysis(club_json, tmp_path):
    r = CliRunner().invoke(app, ["validate", str(CLUB), "--analyse"])
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    i = next(k for k, ln in enumerate(lines) if ": max-dice: " in ln)
    block = lines[i + 1:i + 9]
    assert block[0].startswith("    | cube decision (0-ply): no double; no double +")
    assert block[1] == "    | analysis (0-ply): 61 to play, 6 legal plays; best plays:"
    assert block[2].startswith("    |   1. 13/7 8/7 ")
    assert "    |   played 13/7; the replay goes on from 13/7 8/7 (rank 1): +" in block[7]
    assert r.stdout.count("| analysis (0-ply)") == 3
    # without --analyse: the plain report
    plain = CliRunner().invoke(app, ["validate", str(CLUB)])
    assert "| analysis" not in plain.stdout and plain.stdout.count("\n") == 5
    out = tmp_path / "r.html"
    r = CliRunner().invoke(app, ["validate", str(CLUB), "--analyse", "-f", "html", "-o", str(out)])
    assert r.exit_code == 1
    page = out.read_text()
    assert page.count('<pre class="analysis"') == 3
    assert "played 13/7; the replay goes on from 13/7 8/7 (rank 1)" in page


@pytest.mark.parametrize("variant", ["long", "gulbara"])
def test_validate_analyse_says_in_one_line_when_no_engine_exists(variant, tmp_path, monkeypatch):
    """A record of a variant without an evaluator (here: its net taken away) gets one note; with the shipped
    net there is none (tests/test_finding_analysis_long.py: the findings' analysis of the long games)."""
    from nardy_analyze.stats import skill_long
    p = tmp_path / f"{variant}.ngn"
    p.write_text(notation("ngn").write(generate_match(variant, 1, seed=3)))
    r = CliRunner().invoke(app, ["validate", str(p), "--analyse"])
    assert r.exit_code == 0, r.output
    assert "no analysis engine" not in r.stdout
    monkeypatch.setattr(skill_long, "available", lambda rules: False)
    r = CliRunner().invoke(app, ["validate", str(p), "--analyse"])
    assert r.exit_code == 0, r.output
    notes = [ln for ln in r.stdout.splitlines() if "no analysis engine" in ln]
    assert notes == [f"{p}: no analysis engine exists for {variant_display(variant)} (no equities given)"]
    r = CliRunner().invoke(app, ["validate", str(p), "--analyse", "-f", "json"])
    assert json.loads(r.stdout)["files"][0]["analysis_note"] == notes[0]


# ----------------------------------------------------------------------------------------- analyze --by decision
@pytest.fixture(scope="module")
def two_files(money_file):
    return [str(money_file), str(CLUB)]


@pytest.fixture(scope="module")
def whole(two_files):
    """``statsrun.analyse`` of the two files (the library's depth, 0: the command is given ``--plies 0``), the
    whole run the streamed outputs are compared with (computed once: the engine's evaluations take about
    a second; the tests read it or a copy of its table)."""
    return statsrun.analyse(two_files)


def test_decision_frames_come_a_file_at_a_time_in_input_order(two_files, whole, tmp_path):
    part = skill.Analysis()
    frames = list(statsrun.decision_frames(part, two_files))
    assert [str(f["path"].iloc[0]) for f in frames] == two_files
    assert all(f["path"].nunique() == 1 for f in frames)
    import pandas as pd
    joined = pd.concat(frames, ignore_index=True)
    assert joined.astype(str).equals(whole.decisions.astype(str))
    assert part.files == whole.files == 2 and part.problems == whole.problems and part.decisions.empty
    with pytest.raises(skill.NoRecords, match="no game records found"):
        next(statsrun.decision_frames(skill.Analysis(), [str(tmp_path)]))


@pytest.mark.parametrize("fmt", ["csv", "json", "markdown", "table"])
def test_streamed_decision_table_is_the_whole_tables_bytes(fmt, two_files, whole):
    """analyze --by decision writes a file's rows as soon as it is analysed, byte for byte as the table of
    the whole run (written by stats.write_frame) would be."""
    import io

    from nardy_analyze import stats as st

    r = CliRunner().invoke(app, ["analyze", *two_files, "--by", "decision", "-f", fmt, "--plies", "0"])
    assert r.exit_code == 0, r.output
    buf = io.StringIO()
    st.write_frame(whole.decisions.copy(), fmt, buf, columns=skill.TABLE_COLUMNS["decision"])
    assert r.stdout == buf.getvalue()


def test_streamed_parquet_reads_back_as_the_whole_table(two_files, whole, tmp_path):
    pytest.importorskip("pyarrow", reason="the parquet extra is not installed")
    import pandas as pd

    out = tmp_path / "d.parquet"
    r = CliRunner().invoke(app, ["analyze", *two_files, "--by", "decision", "-f", "parquet", "-o", str(out),
                                 "--plies", "0"])
    assert r.exit_code == 0, r.output
    back = pd.read_parquet(out)
    whole.decisions.copy().to_parquet(tmp_path / "whole.parquet", index=False)   # as the whole table is written
    expected = pd.read_parquet(tmp_path / "whole.parquet")
    assert back.astype(str).equals(expected.astype(str))
    assert list(back.dtypes.astype(str)) == list(expected.dtypes.astype(str))


def test_streamed_terminal_table_shows_the_first_rows_and_counts_them(whole):
    import io

    d = whole.decisions.copy()
    n = -(-1001 // len(d))                                   # enough copies for more than 1,000 rows
    buf = io.StringIO()
    total = skill.write_decisions(iter([d] * n), "table", buf, columns=skill.TABLE_COLUMNS["decision"])
    assert total == n * len(d) > 1000
    lines = buf.getvalue().splitlines()
    assert len(lines) == 1 + 1000 + 1                        # the header, 1,000 rows, the note
    assert lines[-1] == f"(the first 1,000 of {total:,} rows; --format csv, json, parquet or markdown gives every row)"


def test_streamed_decisions_with_no_record_write_nothing(tmp_path):
    r = CliRunner().invoke(app, ["analyze", str(tmp_path), "--by", "decision", "-f", "csv"])
    assert r.exit_code == 2 and r.stdout == ""
    assert "no game records found" in r.stderr
    out = tmp_path / "x.csv"
    r = CliRunner().invoke(app, ["analyze", str(tmp_path), "--by", "decision", "-f", "csv", "-o", str(out)])
    assert r.exit_code == 2 and not out.exists()
