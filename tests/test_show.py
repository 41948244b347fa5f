"""``nardy-analyze show``: positions before a move as text, GNU Backgammon IDs, XGID and SVG.

Position IDs and Match IDs are checked against GNU Backgammon itself: gnubg imports each record and
steps through it (``gnubg.navigate``), reporting ``positionid()`` / ``matchid()`` after every record,
which is the state before the next roll, dice included.  At the start of a game gnubg shows the position
before the opening roll without dice; there every field but the dice is compared.
"""
from __future__ import annotations

import re

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gnubg_run import GNUBG
from helpers import CORPUS, ROOT
from nardy_analyze import notation; from nardy_analyze.report import show
from nardy_analyze.cli import app
from nardy_analyze.fsio import current_umask
from nardy_analyze.engine.posid import decode_match_id, match_id
from nardy_analyze.engine import variant_display

FIXTURES = sorted((ROOT / "tests" / "fixtures" / "selfplay").glob("*.mat"))

SCRIPT = r'''
import gnubg, json
files = json.loads(%(files)r)
out = {}
for f in files:
    gnubg.command('import mat "%%s"' %% f)
    m = gnubg.match(analysis=0, boards=0)
    seq = []
    for k, g in enumerate(m["games"]):
        gnubg.navigate()
        if k:
            gnubg.navigate(game=k)
        game = [(gnubg.positionid(), gnubg.matchid())]
        for _ in g["game"]:
            gnubg.navigate(next=1)
            game.append((gnubg.positionid(), gnubg.matchid()))
        seq.append(game)
    out[f] = seq
with open(%(out)r, "w") as fh:
    json.dump(out, fh)
'''


def gnubg_ids(tmp: Path, files: list[Path]) -> dict:
    script, out = tmp / "ids.py", tmp / "ids.json"
    script.write_text(SCRIPT % {"files": json.dumps([str(f) for f in files]), "out": str(out)})
    p = subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=600,
                       stdin=subprocess.DEVNULL)
    assert out.exists(), p.stderr[-2000:]
    return json.loads(out.read_text())


def before_moves(games: list) -> list[tuple[str, dict]]:
    """gnubg's states before each roll: the game start, and every state with dice while playing."""
    out = []
    for game in games:
        for i, (pid, mid) in enumerate(game):
            f = decode_match_id(mid)
            if i == 0 or (f["state"] == 1 and f["die1"] and not f["doubled"] and not f["resigned"]):
                out.append((pid, f))
    return out


def check_file(path: Path, games: list) -> int:
    theirs = before_moves(games)
    match = notation.read_path(path)
    ours = [s for s in show.snapshots(match) if s.move is not None]
    assert len(ours) == len(theirs), (path.name, len(ours), len(theirs))
    for s, (pid, f) in zip(ours, theirs):
        gid = show.as_gnubg(s)
        mine = decode_match_id(gid.split(":")[1])
        where = (path.name, s.game, s.move)
        assert gid.split(":")[0] == pid, where
        if f["die1"] == 0:                       # gnubg's game start: no dice yet
            mine["die1"] = mine["die2"] = 0
            assert s.move == 1, where
        assert mine == f, (where, mine, f)
    return len(ours)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which(GNUBG) is None, reason=f"GNU Backgammon not installed ({GNUBG})")
def test_position_and_match_ids_equal_gnubg(tmp_path):
    files = list(FIXTURES)
    if CORPUS.exists():
        files += sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))
    ids = gnubg_ids(tmp_path, files)
    n = sum(check_file(f, ids[str(f)]) for f in files)
    assert n > 1000


def test_match_id_round_trip_and_known_value():
    mid = match_id(cube=4, owner=1, on_roll=1, crawford=False, dice=(5, 2), length=7, score=(3, 4))
    f = decode_match_id(mid)
    assert (f["cube_log"], f["owner"], f["on_roll"], f["die1"], f["die2"], f["length"], f["score0"],
            f["score1"]) == (2, 1, 1, 5, 2, 7, 3, 4)
    # gnubg's Match ID of a 5-point match, 0-0, before the opening roll (from gnubg 1.07)
    assert match_id(length=5, dice=(0, 0)) == "MAGgAAAAAAAE"


def test_show_cli_formats():
    path = str(FIXTURES[2])
    r = CliRunner().invoke(app, ["show", path, "--game", "1", "--move", "1"])
    assert r.exit_code == 0 and "Position ID: 4HPwATDgc/ABMA" in r.stdout and "XGID=" in r.stdout
    r = CliRunner().invoke(app, ["show", path, "--game", "1", "--move", "1", "--as", "gnubg"])
    assert r.stdout.strip().startswith("4HPwATDgc/ABMA:")
    r = CliRunner().invoke(app, ["show", path, "--game", "1", "--move", "1", "--as", "xgid"])
    assert r.stdout.strip() == "XGID=-b----E-C---eE---c-e----B-:0:0:1:" + r.stdout.strip().split(":")[4] + \
        ":0:0:0:5:10"
    r = CliRunner().invoke(app, ["show", path, "--game", "1", "--move", "1", "--as", "svg"])
    assert r.exit_code == 0 and r.stdout.startswith("<svg") and r.stdout.count("<circle") == 30
    r = CliRunner().invoke(app, ["show", path, "--game", "99"])
    assert r.exit_code == 2 and "there is no game 99" in r.stderr
    r = CliRunner().invoke(app, ["show", path, "--game", "1", "--move", "999"])
    assert r.exit_code == 2 and "not 999" in r.stderr


def test_validate_html_report_is_self_contained_with_a_board_per_play_finding(tmp_path):
    from nardy_analyze.analyze import validate_paths

    out = tmp_path / "report.html"
    r = CliRunner().invoke(app, ["validate", str(ROOT / "examples"), "--format", "html", "-o", str(out)])
    assert r.exit_code == 1
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    # the replayer's script and data inline, nothing loaded from elsewhere
    assert page.count("<script") == 2 and "<script src" not in page
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in page and "<link" not in page
    run = validate_paths([str(ROOT / "examples")])
    from html import escape
    for f in run.findings:
        assert escape(f.message) in page, f.message
    # every finding of a game links to the replayer at that game (one record = one file=K)
    links = re.findall(r'<a class="replay" href="#file=(\d+)&amp;game=(\d+)&amp;(move|step)=([\w.]+)"', page)
    in_games = [f for f in run.findings if f.game is not None]
    assert len(links) == len(in_games)
    assert [int(g) for _, g, _, _ in links] == [f.game for f in in_games]
    with_board = [f for f in run.findings if f.position is not None]
    static = re.sub(r"<script.*?</script>", "", page, flags=re.S)      # the page without the replayer
    assert with_board and static.count("<svg") == len(with_board)
    # each record's heading names its variant and number of games, in the right grammatical number
    for rep in run.reports:
        n = len(rep.games)
        assert f"({variant_display(rep.variant)}, {n} game{'' if n == 1 else 's'})</small>" in page
    assert any(len(rep.games) == 1 for rep in run.reports) and "1 games)" not in page
    assert (out.stat().st_mode & 0o777) == 0o666 & ~current_umask()


XGID_SCRIPT = r'''
import gnubg, json
ids = json.loads(%(ids)r)
out = []
for x in ids:
    gnubg.command("set xgid " + x)
    out.append((gnubg.positionid(), gnubg.matchid()))
with open(%(out)r, "w") as fh:
    json.dump(out, fh)
'''


def relative(pid: str, f: dict) -> tuple:
    """Match ID fields seen from the player on roll (gnubg may number the players of an XGID either way)."""
    me = f["on_roll"]
    owner = "centre" if f["owner"] == 3 else ("roller" if f["owner"] == me else "other")
    score = (f[f"score{me}"], f[f"score{1 - me}"])
    return pid, f["cube_log"], owner, tuple(sorted((f["die1"], f["die2"]))), score, f["length"], f["crawford"]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which(GNUBG) is None, reason=f"GNU Backgammon not installed ({GNUBG})")
def test_xgid_read_by_gnubg_gives_our_position(tmp_path):
    """gnubg's ``set xgid`` on our XGIDs gives the same position, cube, dice, score and match length."""
    snaps = [s for f in FIXTURES for s in show.snapshots(notation.read_path(f)) if s.move is not None][::7]
    xgids = [show.as_xgid(s) for s in snaps]
    script, out = tmp_path / "xg.py", tmp_path / "xg.json"
    script.write_text(XGID_SCRIPT % {"ids": json.dumps(xgids), "out": str(out)})
    p = subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=600,
                       stdin=subprocess.DEVNULL)
    assert out.exists(), p.stderr[-2000:]
    theirs = json.loads(out.read_text())
    assert len(theirs) == len(snaps) > 100
    for s, x, (pid, mid) in zip(snaps, xgids, theirs):
        ours = show.as_gnubg(s).split(":")
        assert relative(pid, decode_match_id(mid)) == relative(ours[0], decode_match_id(ours[1])), (x, s.game, s.move)


def test_show_long_nardy_and_gul_bara_boards(tmp_path):
    from nardy_analyze.generate import generate_match

    for variant in ("long", "gulbara"):
        src = tmp_path / f"{variant}.ngn"
        src.write_text(notation.get("ngn").write(generate_match(variant, 1, 7, ("Timur", "Dina"))),
                       encoding="utf-8")
        r = CliRunner().invoke(app, ["show", str(src), "--move", "5"])
        assert r.exit_code == 0 and "O runs the same way round" in r.stdout and "Position ID" not in r.stdout
        snap = show.pick(notation.read_path(src), 1, 5)
        me, opp = snap.pos
        svg = show.as_svg(snap)
        # every checker on the board is drawn once (up to five per point; more as a count)
        drawn = sum(min(n, 5) for n in me[:24]) + sum(min(n, 5) for n in opp[:24])
        assert svg.count("<circle") == drawn
        for fmt in ("gnubg", "xgid"):
            r = CliRunner().invoke(app, ["show", str(src), "--move", "5", "--as", fmt])
            assert r.exit_code == 2 and "backgammon positions only" in r.stderr


BGLAB = CORPUS / "bglab"


def _smaller_first(text: str) -> str:
    """A Jellyfish record with every roll written smaller die first (``16: 13/7 8/7``), as some sites and
    exporters write them."""
    import re

    return re.sub(r"(?<=[ )])([1-6])([1-6]):", lambda m: f"{min(m[1], m[2])}{max(m[1], m[2])}:", text)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which(GNUBG) is None, reason=f"GNU Backgammon not installed ({GNUBG})")
def test_ids_equal_gnubg_on_real_records(tmp_path):
    """Real records (25 of bglab), as they are and with the rolls written smaller die first: every Position
    ID and Match ID before a roll is what gnubg shows after ``import mat`` (gnubg shows the larger die
    first, whatever the order written)."""
    if not BGLAB.exists():
        pytest.skip(f"shared corpus not present: {BGLAB}")
    crash = set((BGLAB / "GNUBG_CRASHES.list").read_text(encoding="utf-8").split("\n"))
    real = [f for f in sorted(BGLAB.rglob("*.txt")) if str(f.relative_to(BGLAB)) not in crash][::70][:25]
    assert len(real) == 25
    files = []
    for i, f in enumerate(real):
        swapped = tmp_path / f"smaller-first-{i:02d}.txt"
        swapped.write_text(_smaller_first(f.read_text(encoding="utf-8")), encoding="utf-8")
        assert swapped.read_text() != f.read_text()
        files += [f, swapped]
    ids = gnubg_ids(tmp_path, files)
    n = sum(check_file(f, ids[str(f)]) for f in files)
    assert n > 3000
