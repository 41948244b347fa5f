"""``validate --analyse`` on long nardy and Gul bara records: each finding's decision from the shipped
evaluator, the same data as ``hint`` gives for that position and roll (or that part of a Gul bara turn), in
the text, JSON, SARIF and HTML reports, and in Russian."""
from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from nardy_analyze.analyze import validate_match
from nardy_analyze.cli import app
from nardy_analyze.engine import get_variant
from nardy_analyze.evaluator.analysis import hint, hint_part, load_net
from nardy_analyze.evaluator.posid import NardyPosition
from nardy_analyze.finding_analysis import annotate
from nardy_analyze.generate import generate_match
from nardy_analyze.i18n import set_language
from nardy_analyze.notation import get as notation
from nardy_analyze.record import Kind, Step
from nardy_analyze.report import analysis_lines
from nardy_analyze.stats import skill_long

pytest.importorskip("pandas", reason="the analysis needs pandas")

LONG_GAMES = ("long", "gulbara")
KEYS = {"game", "line", "side", "kind", "dice", "plays", "played", "replayed", "rank", "moves", "equity_played",
        "equity_best", "error", "grade", "luck"}        # backgammon's keys (docs/json-report.md)


def _planted(variant: str, seed: int, n: int = 5):
    """A generated game of ``variant`` with illegal plays planted: a step left out, a step made too long, a
    step from the wrong point, a chain or handover part dropped (Gul bara)."""
    match = generate_match(variant, 1, seed, players=("Aysel", "Rashad"))
    rng = random.Random(seed)
    rolls = [a for g in match.games for a in g.actions if a.kind == Kind.ROLL and a.steps]
    for a in rng.sample(rolls, n):
        how = rng.randrange(4)
        if how == 0 or how == 3 and not a.segments:
            a.steps.pop()
        elif how == 1:
            s = a.steps[0]
            a.steps[0] = Step(s.src, max(s.dst - 7, 1), s.hit)
        elif how == 2:
            s = a.steps[0]
            a.steps[0] = Step(min(s.src + 1, 24), s.dst, s.hit)
        else:
            a.segments.pop()
    return match


def _analysed(variant: str, seed: int):
    match = _planted(variant, seed)
    return match, annotate(match, validate_match(match, variant), variant, None)


CASES = [("long", 3), ("long", 8), ("gulbara", 5), ("gulbara", 12)]


@pytest.mark.parametrize("variant,seed", CASES)
def test_each_roll_findings_analysis_is_the_evaluators_hint(variant, seed):
    """The analysis of a finding about a roll: the legal plays of that roll in the finding's position, with
    the equities and the best play ``hint`` gives, the play made ranked among them when it is legal."""
    rules = get_variant(variant).rules
    net = load_net(rules)
    _m, rep = _analysed(variant, seed)
    errors = [f for f in rep.findings if f.severity == "error" and f.move is not None]
    assert len(errors) >= 3 and rep.analysis_note is None
    rolls = [f for f in errors if not f.part and f.position is not None and f.dice is not None
             and len(f.dice) == 2]
    assert rolls
    for f in rolls:
        assert f.analysis["engine"] == "evaluator" and f.analysis["plies"] == 0
        (d,) = f.analysis["decisions"]
        assert set(d) == KEYS and d["kind"] == "checker" and d["side"] == f.side and d["game"] == f.game
        me, opp = f.position
        got = hint(rules, NardyPosition(variant, me, opp, f.side, f.move - 1), f.dice[0], f.dice[1], net)
        assert d["moves"] == len(got)
        assert d["dice"] == f"{max(f.dice)}{min(f.dice)}"
        assert [p["play"] for p in d["plays"]] == [p.play for p in got[:5]]
        assert [p["equity"] for p in d["plays"]] == [round(p.equity, 6) for p in got[:5]]
        assert d["equity_best"] == round(got[0].equity, 6)
        if d["rank"] is not None:        # the play made, or the legal play the replay went on from
            p = got[d["rank"] - 1]
            assert d["replayed"] == p.play and d["equity_played"] == round(p.equity, 6)
            assert d["error"] == pytest.approx(got[0].equity - p.equity, abs=2e-6) and d["error"] >= 0
        else:
            assert d["equity_played"] is None and d["error"] is None


def test_the_play_the_replay_went_on_from_is_ranked():
    """A play written illegally that the plays after it put back on a legal reading: analysed as that play
    (its rank, equity and loss), as backgammon's findings are."""
    went_on = []
    for variant, seed in CASES:
        _m, rep = _analysed(variant, seed)
        went_on += [f.analysis["decisions"][0] for f in rep.findings
                    if f.analysis and "the replay goes on from there" in f.message]
    assert len(went_on) >= 3
    for d in went_on:
        assert d["rank"] and d["replayed"] and d["replayed"] != d["played"] and d["grade"] is not None


def _hint_of(path, f, variant):
    """What ``hint`` gives for the finding's move (``M`` or ``M.K``) of the record at ``path``."""
    from nardy_analyze.commands.hint import _from_record, answer
    return answer(_from_record(str(path), f.game, f.address, variant, {}))


@pytest.mark.parametrize("variant,seed", CASES + [("gulbara", 21), ("gulbara", 30)])
def test_each_findings_analysis_is_what_hint_gives_for_its_move(variant, seed, tmp_path):
    """``hint FILE --move M`` (``M.K``: a chain double, a handover of a Gul bara turn) on the record written
    out: the same legal plays in the same order with the same equities as the finding's analysis."""
    _same_as_hint(variant, seed, tmp_path, at_least=3)


@settings(max_examples=6, deadline=None)
@given(variant=st.sampled_from(LONG_GAMES), seed=st.integers(0, 10**6))
def test_any_planted_records_findings_are_analysed_as_hint_ranks_them(variant, seed):
    with tempfile.TemporaryDirectory() as d:
        _same_as_hint(variant, seed, Path(d), at_least=1)


def _same_as_hint(variant, seed, tmp_path, at_least):
    match = _planted(variant, seed)
    path = tmp_path / "g.ngn"
    path.write_text(notation("ngn").write(match))
    ours = notation("ngn").read(path.read_text(), str(path))
    rep = annotate(ours, validate_match(ours, variant), variant, None)
    analysed = [f for f in rep.findings if f.analysis]
    assert len(analysed) >= at_least
    for f in analysed:
        (d,) = f.analysis["decisions"]
        ans = _hint_of(path, f, variant)
        assert len(ans["plays"]) == d["moves"], (f.address, f.message)
        assert [p["play"] for p in ans["plays"][:5]] == [p["play"] for p in d["plays"]], f.address
        assert [p["equity"] for p in ans["plays"][:5]] == pytest.approx([p["equity"] for p in d["plays"]],
                                                                        abs=6e-5)
        if f.part:
            assert ans["part"] in ("chain", "handover") and d["dice"] == "".join(map(str, ans["numbers"]))
        if d["rank"] is not None:
            if d["rank"] <= len(d["plays"]):
                assert d["equity_played"] == d["plays"][d["rank"] - 1]["equity"]
            assert d["error"] == pytest.approx(d["equity_best"] - d["equity_played"], abs=2e-6)


def test_a_later_part_of_a_gul_bara_turn_is_analysed_as_its_own_decision():
    """A finding about a chain double or a handover (``part``): one decision, the part's player's, with the
    numbers of the part; a chain or handover left out that the replay filled in is ranked as that play."""
    parts = []
    for seed in (12, 21, 30):
        _m, rep = _analysed("gulbara", seed)
        parts += [f for f in rep.findings if f.part and f.analysis]
    assert len(parts) >= 3
    for f in parts:
        (d,) = f.analysis["decisions"]
        assert d["side"] == f.side and d["dice"] == "".join(map(str, sorted(f.dice, reverse=True)))
        assert d["moves"] >= 1 and len(d["plays"]) == min(d["moves"], 5)
        eqs = [p["equity"] for p in d["plays"]]
        assert eqs == sorted(eqs, reverse=True) and eqs[0] == d["equity_best"]


@pytest.mark.parametrize("variant", LONG_GAMES)
def test_a_legal_but_bad_play_is_no_finding(variant):
    """A roll played with the evaluator's worst legal play (the game cut after it): no finding about it (the
    cut game's missing result is a warning at that roll, whose analysis ranks the play last)."""
    rules = get_variant(variant).rules
    net = load_net(rules)
    match = generate_match(variant, 1, 7)
    game = match.games[0]
    rolls = [a for a in game.actions if a.kind == Kind.ROLL]
    from nardy_analyze.replay import replay
    from nardy_analyze.stats.skill import _Collect
    col = _Collect()
    replay(match, get_variant(variant), visitor=col)
    turns = [t for t in col.turns if t.dice is not None]
    for n, (a, t) in enumerate(zip(rolls, turns)):
        if n < 4 or t.dice[0] == t.dice[1] or a.segments:
            continue
        got = hint(rules, NardyPosition(variant, *t.before, t.side, n), *t.dice, net)
        if len(got) > 2 and got[-1].equity < got[0].equity - 0.05:
            break
    worst = got[-1]
    a.steps[:] = [Step(int(x), 0 if y == "off" else int(y), False)
                  for x, y in (w.split("/") for w in worst.play.split())]
    game.actions[:] = game.actions[:game.actions.index(a) + 1]
    rep = annotate(match, validate_match(match, variant), variant, None)
    assert not [f for f in rep.findings if f.severity == "error"], [f.message for f in rep.findings]
    # only the warning that the cut game has no result (at its last roll, whose analysis shows the loss)
    assert [f.rule for f in rep.findings] == ["result-mismatch"] and rep.findings[0].severity == "warning"
    d = rep.findings[0].analysis["decisions"][0]
    assert d["rank"] == d["moves"] == len(got) and d["error"] > 0.05 and d["played"] == worst.play


@pytest.mark.parametrize("variant,seed", [("long", 3), ("gulbara", 12)])
def test_text_json_sarif_and_html_give_the_same_analysis(variant, seed, tmp_path):
    match, rep = _analysed(variant, seed)
    p = tmp_path / f"{variant}.ngn"
    p.write_text(notation("ngn").write(match))
    ours = notation("ngn").read(p.read_text(), str(p))
    rep = annotate(ours, validate_match(ours, variant), variant, None)
    expected = [(f.line, f.column, f.rule, f.analysis) for f in rep.findings]
    assert sum(a is not None for *_x, a in expected) >= 3
    r = CliRunner().invoke(app, ["validate", str(p), "--variant", variant, "--analyse", "-f", "json"])
    doc = json.loads(r.stdout)
    assert "analysis_note" not in doc["files"][0]
    got = [(f["line"], f["column"], f["rule"], f.get("analysis")) for f in doc["findings"]]
    assert got == expected
    # the text report: each analysed finding followed by the lines of its analysis
    r = CliRunner().invoke(app, ["validate", str(p), "--variant", variant, "--analyse"])
    text = r.stdout
    for f in rep.findings:
        if f.analysis:
            block = "\n".join("    | " + ln for ln in analysis_lines(f.analysis))
            assert block in text
    assert "no analysis engine" not in text
    # SARIF: the same findings, whether analysed or not (the format carries no analysis, as for backgammon)
    r = CliRunner().invoke(app, ["validate", str(p), "--variant", variant, "--analyse", "-f", "sarif"])
    results = json.loads(r.stdout)["runs"][0]["results"]
    plain = CliRunner().invoke(app, ["validate", str(p), "--variant", variant, "-f", "sarif"])
    assert results == json.loads(plain.stdout)["runs"][0]["results"]
    assert [(x["region"]["startLine"], x["region"]["startColumn"]) for x in
            (res["locations"][0]["physicalLocation"] for res in results)] == [(f.line, f.column) for f in
                                                                             rep.findings]
    page = tmp_path / "r.html"
    r = CliRunner().invoke(app, ["validate", str(p), "--variant", variant, "--analyse", "-f", "html",
                                 "-o", str(page)])
    html = page.read_text() if page.exists() else r.stdout
    assert html.count('<pre class="analysis"') == sum(a is not None for *_x, a in expected)


def test_the_analysis_lines_in_russian():
    """A roll's and a later part's analysis read in Russian (the players' words: цепочка дублей,
    дохаживание), the plays and figures as in English."""
    found = {}
    for seed in (3, 12, 21, 30):
        _m, rep = _analysed("gulbara", seed)
        for f in rep.findings:
            if f.analysis:
                d = f.analysis["decisions"][0]
                found.setdefault(d.get("part", "roll"), f)
    assert set(found) == {"roll", "chain", "handover"}
    words = {"roll": "бросок", "chain": "цепочка дублей", "handover": "дохаживание"}
    for part, f in found.items():
        en = analysis_lines(f.analysis)
        set_language("ru")
        try:
            ru = analysis_lines(f.analysis)
        finally:
            set_language(None)
        assert len(ru) == len(en)
        assert ru[0].startswith("анализ (0-ply): " + words[part]) and "лучшие ходы" in ru[0], ru[0]
        assert ru[1:-1] == en[1:-1]                      # the plays and their equities
        assert ru[-1].lstrip().startswith("сыграно "), ru[-1]


def test_without_a_shipped_net_one_note_says_so(monkeypatch):
    monkeypatch.setattr(skill_long, "available", lambda rules: False)
    match, _rep = _analysed("long", 3)
    rep = annotate(match, validate_match(match, "long"), "long", None)
    assert rep.analysis_note and not any(f.analysis for f in rep.findings)


def test_without_the_backgammon_engine_the_long_games_are_still_analysed(monkeypatch, tmp_path):
    """``validate --analyse`` without the analysis extra (bgsage): a long nardy record's findings are still
    analysed by the shipped evaluator, a backgammon record gets one note naming the extra, and the
    command runs (only a command that can analyse nothing but backgammon, ``convert --analyse``, refuses)."""
    from nardy_analyze.notation import get as notation
    from nardy_analyze.stats import skill
    from helpers import cli

    monkeypatch.setattr(skill, "engine_available", lambda: False)
    long_path = tmp_path / "long.ngn"
    long_path.write_text(notation("ngn").write(_planted("long", 3)), encoding="utf-8")
    club = Path(__file__).resolve().parents[1] / "examples" / "club-night.mat"
    r = cli("validate", str(long_path), str(club), "--analyse", "-f", "json", "-j", "1")
    assert r.exit_code == 1, r.output
    files = {f["path"]: f for f in json.loads(r.stdout)["files"]}
    assert "analysis_note" not in files[str(long_path)]
    assert files[str(club)]["analysis_note"] == (
        f"{club}: the analysis of backgammon needs the bgsage engine: pip install 'nardy-analyze[analysis]' "
        "(no equities given)")
    findings = json.loads(r.stdout)["findings"]
    assert any(f.get("analysis") for f in findings if f["path"] == str(long_path))
    assert not any(f.get("analysis") for f in findings if f["path"] == str(club))
    r = cli("convert", str(club), "--to", "sgf", "--analyse", "-o", str(tmp_path / "c.sgf"))
    assert r.exit_code == 2 and "bgsage" in r.output
