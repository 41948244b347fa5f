"""The same behaviour in every command: warnings never change an exit code and carry the `warning:` label;
`stats --plot --top`; `generate --rule` checked as `validate --rule`; a match record that ends before anyone
reaches the match length; findings of a JSON record on the action's own line, and a number too long to
read a plain parse error; the long-nardy stats table naming mars and koks; a record that names no variant
and fits another far better says so."""
from __future__ import annotations

import json
import re

import pytest

from nardy_analyze import notation
from nardy_analyze.analyze import validate_match
from nardy_analyze.generate import generate_match

from helpers import EXAMPLES, ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "selfplay"
FIVE = FIXTURES / "selfplay_0103_5pt.mat"          # a complete 5-point match of GNU Backgammon self-play
BANNER = "+------------------------+\n|  Club Cup, round 2     |\n+------------------------+\n\n"


def cut_after_game_1(tmp_path):
    text = FIVE.read_text()
    path = tmp_path / "cut.mat"
    path.write_text(text[:text.index(" Game 2")])
    return path


# ------------------------------------------------------------------- warnings and exit codes
def test_a_match_cut_between_games_gets_a_warning(tmp_path):
    path = cut_after_game_1(tmp_path)
    rep = validate_match(notation.read_path(path))
    [f] = rep.findings
    assert (f.rule, f.severity, f.game) == ("match-score", "warning", 1)
    assert "ends at 1-0, before either player reaches the 5-point match" in f.message
    lines = path.read_text().split("\n")
    assert lines[f.line - 1].strip() == "Wins 1 point"                     # the last action of the record
    for full in sorted(FIXTURES.glob("*.mat")):                             # complete matches: nothing
        assert not [x for x in validate_match(notation.read_path(full)).findings if x.rule == "match-score"]


def test_a_match_cut_inside_a_game_keeps_its_one_warning(tmp_path):
    text = FIVE.read_text()
    cut = tmp_path / "mid.mat"
    cut.write_text(text[:text.index(" Game 2")] + text[text.index(" Game 2"):].split("\n  5)")[0] + "\n")
    rep = validate_match(notation.read_path(cut))
    assert [(f.rule, f.severity) for f in rep.findings] == [("result-mismatch", "warning")]


def test_the_rule_is_listed(cli):
    code, out, _ = cli.subprocess("rules")
    assert code == 0 and "before anyone reaches the match length" in out
    assert "ends before either player reaches the match length" in (ROOT / "docs" / "rules.md").read_text()


def test_warnings_never_change_an_exit_code(tmp_path, cli):
    pytest.importorskip("pandas")
    cut = cut_after_game_1(tmp_path)
    banner = tmp_path / "banner.mat"
    banner.write_text(BANNER + FIVE.read_text())
    for path in (cut, banner):
        code, out, _ = cli.subprocess("validate", str(path))
        assert code == 0 and ": warning: " in out and "1 warning(s)" in out, out
        code, out, err = cli.subprocess("stats", str(path))
        assert code == 0, err
        code, _, err = cli.subprocess("show", str(path), "--as", "gnubg")
        assert code == 0, err
    code, _, err = cli.subprocess("convert", str(cut), "--to", "sgf", "-o", str(tmp_path / "cut.sgf"))
    assert code == 0, err


def test_stats_labels_warnings_as_validate_does(tmp_path, cli):
    pytest.importorskip("pandas")
    folder = tmp_path / "cup"
    folder.mkdir()
    for f in sorted(FIXTURES.glob("*.mat"))[:3]:
        (folder / f.name).write_text(BANNER + f.read_text())
    code, out, _ = cli.subprocess("validate", str(folder))
    expected = sorted(ln for ln in out.splitlines() if ": warning: " in ln)
    assert code == 0 and len(expected) == 3
    code, _, err = cli.subprocess("stats", str(folder))
    assert code == 0
    assert sorted(ln for ln in err.splitlines() if ln) == expected       # the same lines, the same label


# ------------------------------------------------------------------- stats --plot --top
def test_plot_draws_top_players_only(tmp_path):
    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    from typer.testing import CliRunner

    from nardy_analyze.cli import app

    shown = {}
    for top in ("1", "2"):
        out = tmp_path / f"p{top}.svg"
        # in this process (a process of its own would import pandas and matplotlib again: seconds)
        r = CliRunner().invoke(app, ["stats", str(FIXTURES), "--plot", str(out), "--top", top,
                                     "-o", str(tmp_path / "x.csv"), "-f", "csv"])
        assert r.exit_code == 0, r.output
        assert "Traceback" not in r.output
        svg = out.read_text()
        shown[top] = {name for name in ("gnubg", "root") if f">{name}" in svg}
    assert shown == {"1": {"gnubg"}, "2": {"gnubg", "root"}}      # 51 games each: by name on a tie


# ------------------------------------------------------------------- generate --rule
@pytest.mark.parametrize("variant, rule", [("backgammon", "koks=on"), ("long", "crawford=on"),
                                           ("backgammon", "long:koks=on"), ("gulbara", "scoring=nardy500")])
def test_generate_refuses_an_option_the_variant_does_not_have(variant, rule, tmp_path, cli):
    code, out, err = cli.subprocess("generate", "--variant", variant, "--rule", rule, "-o", str(tmp_path / "g.ngn"))
    assert code == 2 and "has no option" in err or "an option of" in err, err
    assert not (tmp_path / "g.ngn").exists()
    with pytest.raises(ValueError):
        generate_match(variant, 1, 0, options={rule.split("=")[0]: True})
    # validate refuses the same key on a record of that variant
    rec = tmp_path / "r.ngn"
    cli.subprocess("generate", "--variant", variant, "-o", str(rec))
    if ":" not in rule:
        code, _, err = cli.subprocess("validate", str(rec), "--rule", rule)
        assert code == 2 and "has no option" in err


def test_generate_takes_the_variants_own_options(tmp_path, cli):
    for rule in ("koks=on", "long:koks=on"):
        code, out, err = cli.subprocess("generate", "--variant", "long", "--rule", rule)
        assert code == 0, err
        assert '[koks "on"]' in out and "long:koks" not in out
    code, out, _ = cli.subprocess("generate", "--variant", "backgammon", "--rule", "backgammon:crawford=off")
    assert code == 0 and '[crawford "off"]' in out


# ------------------------------------------------------------------- JSON records
def test_json_findings_point_at_the_actions_own_line(tmp_path, cli):
    out = tmp_path / "cn.json"
    code, _, err = cli.subprocess("convert", str(EXAMPLES / "club-night.mat"), "--to", "json", "-o", str(out))
    assert code == 0, err
    lines = out.read_text().split("\n")
    code, js, _ = cli.subprocess("validate", "--format", "json", str(out))
    findings = [f for f in json.loads(js)["findings"] if f["row"] is not None]
    assert len(findings) == 3
    for f in findings:
        assert lines[f["line"] - 1].strip() == '"type": "roll",'
        after = "\n".join(lines[f["line"]:f["line"] + 3])
        assert re.search(rf'"move": {f["row"]}\b', after), (f, after)   # the very action, row 9 of game 1...
    # every action of every record on a line of its own
    for src in sorted(FIXTURES.glob("*.mat"))[:3]:
        dst = tmp_path / (src.stem + ".json")
        cli.subprocess("convert", str(src), "--to", "json", "-o", str(dst))
        match = notation.read_path(dst)
        for g in match.games:
            rows = [a.loc.line for a in g.actions]
            assert rows == sorted(set(rows)), "two actions on one line"


@pytest.mark.parametrize("text, message", [
    ('{"format": "nardy-analyze-match", "version": 1, "match_length": 1%s}' % ("0" * 5000),
     "expected a number of at most"),
    ('{"format": "nardy-analyze-match", "games": %s1%s}' % ("[" * 100000, "]" * 100000), "nested too deeply"),
], ids=["5001-digits", "nested-100000-deep"])
def test_json_that_python_cannot_hold_is_a_plain_parse_error(tmp_path, text, message, cli):
    path = tmp_path / "big.json"
    path.write_text(text)
    code, out, err = cli.subprocess("validate", str(path))
    assert code == 1
    [line] = [ln for ln in out.splitlines() if "parse-error" in ln]
    assert message in line and "internal error" not in out + err
    if "digits" in message:
        assert line.startswith(f"{path}:1:{text.index('10000') + 1}: parse-error: ")


# ------------------------------------------------------------------- long nardy stats
def test_long_nardy_stats_table_names_mars_and_koks(tmp_path, cli):
    pytest.importorskip("pandas")
    from nardy_analyze import statsrun

    long = tmp_path / "long.ngn"
    cli.subprocess("generate", "--variant", "long", "--games", "30", "--seed", "3", "-o", str(long))
    code, out, _ = cli.subprocess("stats", str(long))
    header = out.splitlines()[0].split()
    assert code == 0 and {"mars_won", "mars_lost", "koks_won", "koks_lost"} <= set(header)
    assert not {"gammons_won", "backgammons_won"} & set(header)
    players = statsrun.players([str(long)])
    assert players["mars_won"].sum() > 0 and (players["mars_won"] == players["gammons_won"]).all()
    rows = {ln.split()[0]: ln.split() for ln in out.splitlines()[1:]}
    for _, p in players.iterrows():
        assert int(rows[p["player"]][header.index("mars_won")]) == p["mars_won"]
    code, out, _ = cli.subprocess("stats", str(FIXTURES))                   # backgammon: gammons
    assert "gammons_won" in out.splitlines()[0] and "mars_won" not in out
    code, out, _ = cli.subprocess("stats", str(FIXTURES), str(long))         # both: the common names
    assert "gammons_won" in out.splitlines()[0] and "mars_won" not in out


# ------------------------------------------------------------------- which variant
@pytest.mark.parametrize("variant", ["long", "gulbara"])
def test_a_record_naming_no_variant_gets_a_hint(tmp_path, variant, cli):
    code, out, _ = cli.subprocess("generate", "--variant", variant, "--games", "2", "--seed", "11")
    path = tmp_path / "untagged.ngn"
    path.write_text("".join(ln for ln in out.splitlines(True) if not ln.startswith("[Variant ")))
    code, out, _ = cli.subprocess("validate", str(path))
    lines = out.splitlines()
    assert code == 1
    assert f"--variant {variant}?" in lines[0] and "judged as backgammon" in lines[0]
    assert sum("--variant" in ln for ln in lines) == 1                # the first finding only
    code, out, _ = cli.subprocess("validate", "--variant", variant, str(path))
    assert code == 0
    tagged = tmp_path / "tagged.ngn"
    tagged.write_text(path.read_text().replace("[Seed ", '[Variant "backgammon"]\n[Seed ', 1))
    code, out, _ = cli.subprocess("validate", str(tagged))
    assert code == 1 and "--variant" not in out                      # named: judged as named, no hint


def test_no_hint_for_a_backgammon_record_with_slips(cli):
    code, out, _ = cli.subprocess("validate", str(EXAMPLES / "club-night.mat"))
    assert code == 1 and "--variant" not in out
