"""One truth in every command: the points (one count), the names (one normalisation), the labels, the
severity filter and the exit codes of the free-text notice, and the refusal of a variant the tool does not
play (``Backgammon +1``).  Records are written in the layout real files have (docs/mat-format.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

from helpers import ROOT
from nardy_analyze import statsrun
from nardy_analyze.commands.common import Exit
from nardy_analyze.names import normalise_name
from nardy_analyze.notation import read_text
from nardy_analyze.replay import replay
from nardy_analyze.engine import get_variant
from nardy_analyze.rules import RULES

CLUB = ROOT / "examples" / "club-night.mat"

GAME = """ 1 point match

 Game 1
 {a} : 0                      {b} : 0
  1) 31: 8/5 6/5                 64: 24/18 13/9
  2) 66: 24/18 24/18 13/7 13/7
      Wins 1 point
"""

BANNER = """BackgammonGalaxy tournament -- round 3
Played 2026-11-30, Kazan

"""

PLUS1 = """;App: PPNards
;Game type: Backgammon +1

""" + GAME


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


# the command line in a bare environment: PATH and LANGUAGE=en
BARE = dict(inherit=False, env={"LANGUAGE": "en"})


# ----------------------------------------------------------------------------------------------- points
def test_club_night_points_are_one_count_in_every_table():
    """club-night.mat: game 3's score line says 3-0 where the results give 2-0 (a planted match-score error):
    every table counts the points the games credit, 1 + 1 + 4 = 6 for Alice."""
    g = statsrun.games([str(CLUB)])
    p = statsrun.players([str(CLUB)])
    m = statsrun.matches([str(CLUB)])
    alice = p[p["player"] == "Alice"].iloc[0]
    assert int(alice["points_for"]) == 6
    assert (int(m["score1"].iloc[0]), int(m["score2"].iloc[0])) == (6, 0)
    assert int(g[g["player"] == "Alice"]["points"].sum()) == 6
    # each game's score is the points credited before it
    assert list(g[g["player"] == "Alice"]["score"]) == [0, 1, 2]
    rep = replay(read_text(CLUB.read_text(), str(CLUB)), get_variant("backgammon"))
    assert rep.final_score == (6, 0)
    assert [gr.score for gr in rep.games] == [(0, 0), (1, 0), (2, 0)]


def test_match_totals_equal_the_players_points(tmp_path):
    """On several records, the match table's final scores add up to the players' points (no excerpt)."""
    paths = [str(CLUB), str(ROOT / "tests" / "fixtures" / "selfplay")]
    p = statsrun.players(paths)
    m = statsrun.matches(paths)
    assert int(p["points_for"].sum()) == int(m["score1"].sum() + m["score2"].sum())


def test_an_excerpt_starts_from_its_first_score_line(tmp_path):
    text = GAME.replace(" 1 point match", " 7 point match").replace(": 0 ", ": 2 ", 1)
    path = write(tmp_path, "excerpt.mat", text)
    m = statsrun.matches([path])
    assert (int(m["score1"].iloc[0]), int(m["score2"].iloc[0])) == (3, 0)


def test_a_conceded_match_credits_what_the_winner_needed(tmp_path):
    """``Wins 3 points and the match`` after a resignation worth less (a site's match concession): the
    replay says 3 points are credited, and every table credits 3."""
    text = """ 5 point match

 Game 1
 Ann : 1                        Bob : 0
  1) 31: 8/5 6/5                 64: 24/18 13/9
  2) 66: 24/18 24/18 13/7 13/7    Losses 4 points
      Wins 4 points and the match
"""
    path = write(tmp_path, "conceded.mat", text)
    rep = replay(read_text(text, path), get_variant("backgammon"))
    conceded = [f for f in rep.findings if f.rule == "result-mismatch"]
    assert len(conceded) == 1 and conceded[0].severity == "warning" and "conceded" in conceded[0].message
    assert rep.games[0].credited == 4 and rep.final_score == (5, 0)
    m = statsrun.matches([path])
    assert (int(m["score1"].iloc[0]), m["winner"].iloc[0]) == (5, "Ann")


# ------------------------------------------------------------------------------------------------ names
@pytest.mark.parametrize("a, b", [("John Ohagan", "John OHagan"), ("Andreas_Humke", "Andreas Humke"),
                                  ("Andreas_Humke", " andreas  humke ,1673")])
def test_one_key_for_spellings_of_a_name(a, b):
    assert normalise_name(a) == normalise_name(b)


def test_stats_merges_spellings_across_files(tmp_path):
    one = write(tmp_path, "a.mat", GAME.format(a="John Ohagan", b="Andreas_Humke"))
    two = write(tmp_path, "b.mat", GAME.format(a="John OHagan", b="Andreas Humke"))
    p = statsrun.players([one, two])
    assert sorted(p["games"]) == [2, 2] and len(p) == 2


@pytest.mark.slow
def test_analyze_merges_names_as_stats_does_and_takes_alias(tmp_path, cli):
    from nardy_analyze.stats import skill
    if not skill.engine_available():
        pytest.skip("the analysis extra (bgsage) is not installed")
    one = write(tmp_path, "a.mat", GAME.format(a="John Ohagan", b="Andreas_Humke"))
    two = write(tmp_path, "b.mat", GAME.format(a="John OHagan", b="Andreas Humke"))
    r = cli.subprocess("analyze", one, two, "--format", "csv", **BARE)
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.strip().splitlines()) == 3          # header and two players
    r = cli.subprocess("analyze", one, two, "--format", "csv", "--alias", "andreas humke=Andreas H.", "--by",
                       "decision", **BARE)
    lines = r.stdout.strip().splitlines()
    at = lines[0].split(",").index("player")
    names = {line.split(",")[at] for line in lines[1:]}
    assert names == {"John Ohagan", "Andreas H."}
    # a record whose only finding is the banner notice: exit 0, the notice labelled as validate labels it
    banner = write(tmp_path, "banner.mat", BANNER + GAME.format(a="Ann", b="Bob"))
    r = cli.subprocess("analyze", banner, "--format", "csv", **BARE)
    assert r.returncode == 0 and f"{banner}:1:1: free-text: warning: " in r.stderr
    r = cli.subprocess("analyze", banner, "--format", "csv", "--min-severity", "error", **BARE)
    assert r.returncode == 0 and "free-text" not in r.stderr


# ---------------------------------------------------------------------------------- free-text, severity
def test_the_banner_notice_has_its_own_rule(tmp_path):
    assert "free-text" in RULES
    path = write(tmp_path, "banner.mat", BANNER + GAME.format(a="Ann", b="Bob"))
    rep = replay(read_text(Path(path).read_text(), path), get_variant("backgammon"))
    assert [(f.rule, f.severity, f.line) for f in rep.findings] == [("free-text", "warning", 1)]


def test_banner_only_record_exits_0_labelled_in_every_command(tmp_path, english):
    from nardy_analyze.commands.stats import stats as stats_cmd
    from nardy_analyze.commands.validate import validate

    path = write(tmp_path, "banner.mat", BANNER + GAME.format(a="Ann", b="Bob"))
    out: list[tuple[str, bool]] = []

    def echo(msg="", err=False, nl=True):
        out.append((str(msg), err))

    with pytest.raises(Exit) as e:
        stats_cmd([path], by="player", format="csv", output=None, alias=[], sort=None, variant="backgammon",
                  rule=[], plot=None, top=8, jobs=1, engine=None, scheduler=None, echo=echo)
    assert e.value.code == 0
    assert [m for m, err in out if err] == [f"{path}:1:1: free-text: warning: " + m.split("warning: ", 1)[1]
                                            for m, err in out if err and "free-text" in m]
    assert any("free-text: warning:" in m for m, err in out if err)
    out.clear()
    with pytest.raises(Exit) as e:
        stats_cmd([path], by="player", format="csv", output=None, alias=[], sort=None, variant="backgammon",
                  rule=[], plot=None, top=8, jobs=1, engine=None, scheduler=None, min_severity="error", echo=echo)
    assert e.value.code == 0 and not [m for m, err in out if err]


def test_stats_labels_warnings_in_russian(tmp_path, russian):
    from nardy_analyze.i18n import pgettext
    from nardy_analyze.stats.tally import problem_line

    line = problem_line("a.mat", 1, 1, "free-text", "x", warning=True)
    assert line == f"a.mat:1:1: free-text: {pgettext('severity', 'warning')}: x"
    assert "warning" not in line


@pytest.mark.parametrize("severity, rules", [("warning", ["free-text", "dice-mismatch"]), ("error", ["dice-mismatch"])])
def test_validate_min_severity(tmp_path, severity, rules, cli):
    bad = (BANNER + GAME.format(a="Ann", b="Bob")).replace("31: 8/5 6/5", "31: 8/4 6/5")
    path = write(tmp_path, "bad.mat", bad)
    import json
    r = cli.subprocess("validate", "--format", "json", "--min-severity", severity, path, **BARE)
    assert r.returncode == 1
    assert [f["rule"] for f in json.loads(r.stdout)["findings"]] == rules


def test_ignore_free_text_keeps_real_parse_errors(tmp_path, cli):
    text = (BANNER + GAME.format(a="Ann", b="Bob")).replace("  2) 66:", "  2) 6x:")
    path = write(tmp_path, "broken.mat", text)
    import json
    r = cli.subprocess("validate", "--format", "json", "--ignore", "free-text", path, **BARE)
    rules = [f["rule"] for f in json.loads(r.stdout)["findings"]]
    assert "parse-error" in rules and "free-text" not in rules and r.returncode == 1


# ------------------------------------------------------------------------------------------ Backgammon +1
@pytest.mark.parametrize("args", [["validate"], ["stats"], ["show"], ["show", "--as", "html", "-o", "{tmp}/p.html"],
                                  ["convert", "--to", "sgf", "-o", "{tmp}/p.sgf"],
                                  ["convert", "--to", "sgf", "--lossy", "-o", "{tmp}/p.sgf"],
                                  ["convert", "--to", "mat", "-o", "{tmp}/p.mat"]])
def test_backgammon_plus_one_is_refused_alike_everywhere(tmp_path, args, cli):
    path = write(tmp_path, "plus1.mat", PLUS1.format(a="Timur", b="Dina"))
    r = cli.subprocess(*[a.format(tmp=tmp_path) for a in args], path, **BARE)
    assert r.returncode == 1, (r.stdout, r.stderr)
    said = r.stdout + r.stderr
    assert f"{path}:2:1: parse-error: the record is of Backgammon +1, backgammon with 16 checkers" in said
    assert "nardy-analyze does not play it" in said
    assert not list(tmp_path.glob("p.*"))               # nothing written
    assert "Traceback" not in r.stderr


def test_show_min_severity_leaves_the_banner_notice_out_of_the_replayer(tmp_path, cli):
    path = write(tmp_path, "banner.mat", BANNER + GAME.format(a="Ann", b="Bob"))
    every, errors = tmp_path / "every.html", tmp_path / "errors.html"
    assert cli.subprocess("show", path, "--as", "html", "-o", str(every), **BARE).returncode == 0
    assert cli.subprocess("show", path, "--as", "html", "--min-severity", "error", "-o", str(errors),
                          **BARE).returncode == 0
    assert '"free-text"' in every.read_text(encoding="utf-8")
    assert '"free-text"' not in errors.read_text(encoding="utf-8")
    r = cli.subprocess("show", path, "--min-severity", "error", **BARE)
    assert r.returncode == 0 and "free text" not in r.stderr


# ------------------------------------------------------------------------------------------- interop
CONCEDED = """ 5 point match

 Game 1
 lasse : 0                       newbie : 1
  1) 52: 13/8 24/22              61: 13/7 8/7
  2)  Losses 4 point                                               Wins 4 point and the match
"""

BEFORE_ANY_MOVE = """ 16 point match

 Game 1
 narvman : 0                     lasse : 0
  1)  Losses 1 point              Wins 1 point
"""


@pytest.mark.parametrize("to", ["sgf", "mat"])
def test_convert_refuses_a_match_conceded_beyond_what_gnubg_reads(tmp_path, to, english):
    from nardy_analyze.convert import REFUSED, WRITTEN, convert_paths

    path = write(tmp_path, "conceded.txt", CONCEDED)
    m = statsrun.matches([path])
    assert (int(m["score1"].iloc[0]), int(m["score2"].iloc[0])) == (0, 5)      # ours: newbie wins the match
    run = convert_paths([path], to, out_dir=str(tmp_path / "out"))
    (o,) = run.outcomes
    assert o.status == REFUSED and not list(tmp_path.glob("out/*"))
    assert "game 1: the match was conceded for 4 point(s)" in o.messages[0]
    assert "at most 3 with the cube at 1" in o.messages[0]
    run = convert_paths([path], to, out_dir=str(tmp_path / "lossy"), lossy=True)
    assert run.outcomes[0].status == WRITTEN and run.outcomes[0].dropped


def test_convert_to_mat_refuses_a_result_before_any_move(tmp_path, english):
    from nardy_analyze.convert import REFUSED, WRITTEN, convert_paths

    path = write(tmp_path, "early.txt", BEFORE_ANY_MOVE)
    assert convert_paths([path], "sgf", out_dir=str(tmp_path / "sgf")).outcomes[0].status == WRITTEN
    (o,) = convert_paths([path], "mat", out_dir=str(tmp_path / "mat")).outcomes
    assert o.status == REFUSED
    assert "game 1: its result comes before any move" in o.messages[0]
