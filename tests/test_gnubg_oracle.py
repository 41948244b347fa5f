"""GNU Backgammon (the binary) as a second oracle on the self-play fixtures.

A Python script run inside gnubg (``gnubg -t -q -p script.py``) imports each fixture with
``import mat FILE`` and dumps ``gnubg.match(analysis=0, boards=1)``: per game the result
(winner, points, resigned, scores) and per roll the player, the dice, gnubg's reading of the play as
single steps and the Position ID before the roll, decoded in gnubg with ``gnubg.positionfromid``
(``(opponent, player on roll)``, each 25 points in its owner's numbering, index 24 = bar).

Compared with this checkout:

- games: as many as gnubg read; each game's winner, points, scores and resigned-or-not as our replay
  (``validate_paths``) reports them;
- every roll, walked with our engine (``record_walk``): same player, same dice, the same position
  before the roll as gnubg's, and gnubg's steps applied with our rules reach our position after the
  roll (so the final position of every game agrees too).

Skipped when gnubg is not installed (CI installs it: Debian package ``gnubg``).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import CORPUS, ROOT
from nardy_analyze.analyze import validate_paths
from record_walk import RULES, read_match, rolls

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
FIXTURES = ROOT / "tests" / "fixtures" / "selfplay"
FILES = sorted(FIXTURES.glob("*.mat"))

pytestmark = pytest.mark.skipif(shutil.which(GNUBG) is None,
                                reason=f"GNU Backgammon not installed ({GNUBG}; apt-get install -y gnubg)")

SCRIPT = r'''
import gnubg, json
files = json.loads(%(files)r)
out = {}
for f in files:
    gnubg.command('import mat "%%s"' %% f)
    m = gnubg.match(analysis=0, boards=1)
    games = []
    for g in m["games"]:
        rolls = []
        for x in g["game"]:
            if x["action"] != "move":
                continue
            opp, me = gnubg.positionfromid(x["board"])
            rolls.append({"player": x["player"], "dice": list(x["dice"]),
                          "steps": [list(s) for s in x["move"]],
                          "mover": list(me), "opponent": list(opp)})
        games.append({"info": g["info"], "rolls": rolls})
    out[f] = {"X": m["match-info"]["X"]["name"], "O": m["match-info"]["O"]["name"],
              "length": m["match-info"]["match-length"], "games": games}
with open(%(out)r, "w") as fh:
    json.dump(out, fh)
'''


def gnubg_reading(tmp: Path, files: list[Path]) -> dict:
    """{file: gnubg's reading} for ``files``, from one gnubg run."""
    out = str(tmp / "gnubg.json")
    script = str(tmp / "dump.py")
    with open(script, "w") as fh:
        fh.write(SCRIPT % {"files": json.dumps([str(f) for f in files]), "out": out})
    p = subprocess.run([GNUBG, "-t", "-q", "-p", script], capture_output=True, text=True, timeout=300,
                       stdin=subprocess.DEVNULL)
    assert os.path.exists(out), f"gnubg wrote nothing (exit {p.returncode}): {p.stderr[-2000:]} {p.stdout[-2000:]}"
    with open(out) as fh:
        return json.load(fh)


@pytest.fixture(scope="module")
def reading(tmp_path_factory):
    return gnubg_reading(tmp_path_factory.mktemp("gnubg"), FILES)


def test_gnubg_reads_every_fixture(reading):
    assert sorted(reading) == [str(f) for f in FILES] and len(FILES) >= 12


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_game_results_agree(reading, path):
    check_results(reading[str(path)], path)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_positions_agree_roll_by_roll(reading, path):
    check_positions(reading[str(path)], path)


def test_corpus_selfplay_agrees_with_gnubg(tmp_path):
    """The same on the shared corpus's 100 gnubg self-play matches (823 games), when present."""
    if not CORPUS.exists():
        pytest.skip(f"shared corpus not present: {CORPUS}")
    files = sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))
    assert len(files) >= 100
    reading = gnubg_reading(tmp_path, files)
    assert sorted(reading) == [str(f) for f in files]
    for path in files:
        check_results(reading[str(path)], path)
        check_positions(reading[str(path)], path)


def check_results(theirs: dict, path: Path) -> None:
    run = validate_paths([str(path)])
    assert not [f for f in run.findings if f.severity == "error"], run.findings[:3]
    (rep,) = run.reports
    match = read_match(path)
    assert match.match_length == theirs["length"]
    assert len(rep.games) == len(theirs["games"]) == len(match.games) > 0
    side = {"X": 0, "O": 1}     # X is the first player named on the score line: the left column
    for game, ours, g in zip(match.games, rep.games, theirs["games"]):
        info = g["info"]
        where = f"{path.name} game {game.number}"
        assert game.players == (theirs["X"], theirs["O"]), (where, game.players)
        assert game.score == (info["score-X"], info["score-O"]), where
        assert (ours.winner, ours.points) == (side[info["winner"]], info["points-won"]), (where, ours, info)
        assert (ours.how == "resign") == bool(info["resigned"]), (where, ours.how, info)


def check_positions(reading: dict, path: Path) -> None:
    theirs = reading["games"]
    ours = list(rolls(read_match(path)))
    n = 0
    for number, g in enumerate(theirs, start=1):
        mine = [r for r in ours if r.game == number]
        assert len(mine) == len(g["rolls"]), (path.name, number, len(mine), len(g["rolls"]))
        for r, t in zip(mine, g["rolls"]):
            where = f"{path.name} game {number} line {r.action.loc.line} {r.action.text!r}"
            assert r.action.player == {"X": 0, "O": 1}[t["player"]], where
            assert (r.d1, r.d2) == tuple(sorted(t["dice"], reverse=True)), where
            assert (r.mover, r.opponent) == (tuple(t["mover"]), tuple(t["opponent"])), where
            me, opp = r.mover, r.opponent
            for src, dst in t["steps"]:                        # gnubg's reading of the play
                me, opp, _ = RULES.apply(me, opp, src, dst)
            assert (me, opp) == r.verdict.after, where
            assert not r.verdict.problems, where
            n += 1
    assert n == len(ours) > 0
