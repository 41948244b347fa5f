"""A fourth variant and a fifth notation, each from its own file and the base class alone, through the
commands: what adding one really touches.

``variant_race.Race`` is built on ``engine.Rules`` (no built-in variant under it) and
``notation_plain.NOTATION`` on ``notation.Notation``; each is registered here, at run time (``register``),
and neither the package nor any other file is edited for them.  They are then generated, written, read,
validated, converted, shown and counted through the command bodies (``commands.body``: what both command
lines run).  tests/test_layers.py checks that the two files use only the package's public names.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import ROOT
from nardy_analyze import notation
from nardy_analyze.commands import body
from nardy_analyze.commands.common import Exit
from nardy_analyze.engine import get_variant, register, unregister
from nardy_analyze.generate import generate_match
from nardy_analyze.options import COMMANDS, defaults

import notation_plain
from variant_race import Race


@pytest.fixture
def extended():
    register(Race)
    notation_plain.install()
    try:
        yield
    finally:
        notation.unregister(notation_plain.NAME)
        unregister(Race.name)


@pytest.fixture
def run(capsys):
    """The command's body as both command lines run it -> (exit code, standard output, standard error)."""
    def run(command: str, **kwargs) -> tuple[int, str, str]:
        capsys.readouterr()
        args = {**defaults(COMMANDS[command]), **kwargs} if command in COMMANDS else kwargs
        try:
            body(command)(**args)
            code = 0
        except Exit as e:
            code = e.code
        got = capsys.readouterr()
        return code, got.out, got.err
    return run


def _race_file(tmp_path: Path, games: int = 3) -> Path:
    path = tmp_path / "race.plain"
    path.write_text(notation.get("plain").write(generate_match("race", games, seed=11)), encoding="utf-8")
    return path


def test_the_variant_and_the_notation_are_known_only_once_registered(extended):
    assert get_variant("prace").name == "race" and get_variant("race").level_kinds == ("lurch", "sweep")
    assert notation.for_path("x.plain").name == "plain" and "plain" in notation.targets()
    assert notation.sniff("plain record\nVariant: race\n").name == "plain"
    unregister("race")
    with pytest.raises(ValueError):
        get_variant("race")
    register(Race)


def test_validate_reads_the_new_notation_and_judges_the_new_variant(extended, run, tmp_path):
    path = _race_file(tmp_path)
    code, out, err = run("validate", paths=[str(path)], format="json")
    assert code == 0, err
    doc = json.loads(out)
    [record] = doc["files"]
    assert (record["notation"], record["variant"], record["games"], record["errors"]) == ("plain", "race", 3, 0)
    assert doc["findings"] == [] and doc["summary"]["turns"] > 30
    # a wrong play is judged by the variant's own rules: the first roll played from an empty point (the
    # checkers start on 7-10)
    lines = path.read_text(encoding="utf-8").split("\n")
    i = next(i for i, ln in enumerate(lines) if ln[:2] == "1." and max(ln.split(" ")[2]) <= "5")
    move, player, dice, *_steps = lines[i].split(" ")
    high = int(max(dice))
    lines[i] = f"{move} {player} {dice} {high + 1}/1"
    path.write_text("\n".join(lines), encoding="utf-8")
    code, out, err = run("validate", paths=[str(path)], format="text")
    want = f"{path}:{i + 1}:1: no-checker: {high + 1}/1: no checker of the mover on point {high + 1}"
    assert code == 1 and want in out, out


def test_convert_writes_and_refuses_through_the_declarations(extended, run, tmp_path):
    src = _race_file(tmp_path)
    code, _, err = run("convert", paths=[str(src)], to="ngn", output=str(tmp_path / "race.ngn"))
    assert code == 0, err
    code, _, err = run("convert", paths=[str(tmp_path / "race.ngn")], to="plain", output=str(tmp_path / "back.plain"))
    assert code == 0, err
    assert (tmp_path / "back.plain").read_text(encoding="utf-8") == src.read_text(encoding="utf-8")
    # the variant says it has no GNU Backgammon form: .mat refuses it
    code, _, err = run("convert", paths=[str(src)], to="mat", output=str(tmp_path / "race.mat"))
    assert code == 1 and "has no mat form" in err and not (tmp_path / "race.mat").exists()
    # the notation says what it cannot hold (comments on moves, a drop): refused, or dropped with --lossy
    ngn = (tmp_path / "race.ngn").read_text(encoding="utf-8")
    assert "Game 1" in ngn
    commented = notation.read_text(ngn, "c.ngn")
    commented.games[0].actions[0].comments.append("a comment")
    (tmp_path / "c.json").write_text(notation.get("json").write(commented), encoding="utf-8")
    code, _, err = run("convert", paths=[str(tmp_path / "c.json")], to="plain", output=str(tmp_path / "c.plain"))
    assert code == 1 and "comments on moves cannot be written in plain" in err
    code, _, err = run("convert", paths=[str(tmp_path / "c.json")], to="plain", output=str(tmp_path / "c.plain"),
                       lossy=True)
    assert code == 0 and (tmp_path / "c.plain").exists()
    # --analyse needs a notation that declares it writes analysis
    code, _, err = run("convert", paths=[str(src)], to="plain", output=str(tmp_path / "a.plain"), analyse=True)
    assert code == 2 and "--to plain" in err


def test_the_standard_preset_speaks_of_every_variant(extended):
    """``standard`` is every option at its default, for a variant registered later too; another preset says
    nothing of it."""
    assert generate_match("race", 1, 1, options={"rules": "standard"}).tags["Rules"] == "standard"
    with pytest.raises(ValueError, match="--rules club"):
        generate_match("race", 1, 1, options={"rules": "club"})


def test_show_and_stats_take_them(extended, run, tmp_path):
    src = _race_file(tmp_path, games=2)
    code, out, err = run("show", path=str(src), game=1, move=3, as_="text", output=None)
    assert code == 0 and out.strip(), err
    from nardy_analyze import stats
    rows = stats.match_rows(notation.read_path(str(src)))
    assert len(rows.rows) == 2 * 2 and not rows.problems
    kinds = {r[list(stats.GAME_COLUMNS).index("kind")] for r in rows.rows}
    assert kinds <= {*Race.LEVEL_KINDS.values(), None}
    from nardy_analyze.stats.render import table_columns
    assert "lurches_won" in table_columns("player", ["race"])


def test_no_file_of_the_package_names_them():
    """Adding them edits nothing: the package's source never names the variant or the notation."""
    words = ("parallel race", "prace", '"race"', "plain record", '".plain"', '"lurch"', '"sweep"')
    for path in (ROOT / "nardy_analyze").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not any(w in text for w in words), path
