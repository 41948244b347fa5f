"""`nardy_analyze.stats.games` against GNU Backgammon's own reading of the same files.

gnubg (``gnubg -t -q -p script.py``) imports each record with ``import mat`` and dumps
``gnubg.match(analysis=0, boards=1)``.  From that dump alone (no code of this project) the test derives,
per game and player: rolls, doubles, checkers borne off (steps to 0), the cube (doubles offered, taken,
dropped; the highest value), the result and points (gnubg's ``info``), the kind (resigned / dropped / points over cube: single, gammon,
backgammon), and hits: each of gnubg's plays is replayed on gnubg's board of that roll and the resulting
position must be one gnubg-nn's move generator (PyPI ``gnubg-nn``) lists for the dice; a step that lands
on a lone opposing checker is a hit.

On the shared corpus (``../shared/corpus/gnubg-selfplay``, 100 matches) every row must agree; the
fixtures in tests/fixtures/selfplay are checked the same way so the test runs without the corpus.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import CORPUS, ROOT
from nardy_analyze import statsrun

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn (GNU Backgammon's move generator) is not installed")
pytestmark = pytest.mark.skipif(shutil.which(GNUBG) is None,
                                reason=f"GNU Backgammon not installed ({GNUBG}; apt-get install -y gnubg)")

FIELDS = ("rolls", "doubles", "hits", "result", "points", "borne_off", "max_cube", "kind", "cube_offered",
          "cube_taken", "cube_dropped")

SCRIPT = r'''
import gnubg, json
files = json.loads(%(files)r)
out = {}
for f in files:
    gnubg.command('import mat "%%s"' %% f)
    m = gnubg.match(analysis=0, boards=1)
    games = []
    for g in m["games"]:
        acts = []
        for x in g["game"]:
            a = {"action": x["action"], "player": x["player"]}
            if x["action"] == "move":
                a["dice"] = list(x["dice"])
                a["steps"] = [list(s) for s in x["move"]]
                a["board"] = x["board"]
            acts.append(a)
        games.append({"info": g["info"], "actions": acts})
    out[f] = {"X": m["match-info"]["X"]["name"], "O": m["match-info"]["O"]["name"], "games": games}
with open(%(out)r, "w") as fh:
    json.dump(out, fh)
'''


def gnubg_reading(tmp: Path, files: list[Path]) -> dict:
    out, script = str(tmp / "gnubg.json"), str(tmp / "dump.py")
    with open(script, "w") as fh:
        fh.write(SCRIPT % {"files": json.dumps([str(f) for f in files]), "out": out})
    p = subprocess.run([GNUBG, "-t", "-q", "-p", script], capture_output=True, text=True, timeout=600,
                       stdin=subprocess.DEVNULL)
    assert os.path.exists(out), f"gnubg wrote nothing (exit {p.returncode}): {p.stderr[-2000:]}"
    with open(out) as fh:
        return json.load(fh)


def play_hits(board_id: str, dice: list[int], steps: list[list[int]]) -> tuple[int, int]:
    """(hits, checkers borne off) of gnubg's play, replayed on gnubg's board; the result must be a
    position gnubg-nn generates for these dice."""
    opp, me = (list(s) for s in gnubg_nn.boardfromid(board_id))
    before = [list(opp), list(me)]
    hits = off = 0
    for src, dst in steps:                        # 1-based points of the mover, 25 = bar, 0 = off
        me[src - 1] -= 1
        if dst <= 0:
            off += 1
            continue
        if opp[24 - dst] == 1:                    # the opponent's point 25 - dst
            opp[24 - dst] = 0
            opp[24] += 1
            hits += 1
        assert opp[24 - dst] == 0, (board_id, dice, steps)
        me[dst - 1] += 1
    legal = {k if isinstance(k, str) else k[0] for k in gnubg_nn.moves(before, dice[0], dice[1], 0)}
    if legal:
        assert gnubg_nn.key_of_board([opp, me]) in legal, (board_id, dice, steps)
    return hits, off


def expected_rows(reading: dict) -> dict[tuple[int, int], dict]:
    """{(game, side): {field: value}} from gnubg's dump."""
    side = {"X": 0, "O": 1}
    rows: dict[tuple[int, int], dict] = {}
    for number, g in enumerate(reading["games"], start=1):
        r = {s: dict(rolls=0, doubles=0, hits=0, borne_off=0, cube_offered=0, cube_taken=0, cube_dropped=0)
             for s in (0, 1)}
        cube, last = 1, None
        for a in g["actions"]:
            s = side[a["player"]]
            if a["action"] == "move":
                r[s]["rolls"] += 1
                r[s]["doubles"] += a["dice"][0] == a["dice"][1]
                hits, off = play_hits(a["board"], a["dice"], a["steps"])
                r[s]["hits"] += hits
                r[s]["borne_off"] += off
            elif a["action"] == "double":
                r[s]["cube_offered"] += 1
            elif a["action"] == "take":
                r[s]["cube_taken"] += 1
                cube *= 2
            elif a["action"] == "drop":
                r[s]["cube_dropped"] += 1
            last = a["action"]
        info = g["info"]
        w = side[info["winner"]]
        if info["resigned"]:
            kind = "resign"
        elif last == "drop":
            kind = "drop"
        else:
            kind = {1: "single", 2: "gammon", 3: "backgammon"}[info["points-won"] // cube]
        for s in (0, 1):
            rows[(number, s)] = dict(r[s], result="win" if s == w else "loss",
                                     points=info["points-won"] if s == w else 0, max_cube=cube, kind=kind)
    return rows


def compare(files: list[Path], tmp: Path) -> tuple[int, int, list[str]]:
    """(rows compared, rows agreeing on every field, first disagreements)."""
    reading = gnubg_reading(tmp, files)
    g = statsrun.games([str(f) for f in files], jobs=1)
    n = agree = 0
    bad: list[str] = []
    for f in files:
        theirs = expected_rows(reading[str(f)])
        mine = g[g["path"] == str(f)]
        assert len(mine) == len(theirs) > 0, f
        for row in mine.itertuples(index=False):
            exp = theirs[(row.game, row.side)]
            got = {k: getattr(row, k) for k in FIELDS}
            n += 1
            if got == exp:
                agree += 1
            elif len(bad) < 10:
                bad.append(f"{f.name} game {row.game} side {row.side}: "
                           + ", ".join(f"{k} ours {got[k]!r} gnubg {exp[k]!r}" for k in FIELDS if got[k] != exp[k]))
    return n, agree, bad


def test_fixtures_agree_with_gnubg(tmp_path):
    files = sorted((ROOT / "tests" / "fixtures" / "selfplay").glob("*.mat"))
    n, agree, bad = compare(files, tmp_path)
    assert n > 100 and agree == n, bad


def test_corpus_selfplay_agrees_with_gnubg(tmp_path):
    """Every row of the 100 gnubg self-play matches (823 games) of the shared corpus."""
    if not CORPUS.exists():
        pytest.skip(f"shared corpus not present: {CORPUS}")
    files = sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))
    assert len(files) >= 100
    n, agree, bad = compare(files, tmp_path)
    print(f"gnubg agreement: {agree}/{n} rows on {len(files)} files")
    assert agree == n, bad
