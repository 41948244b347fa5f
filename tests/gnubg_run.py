"""Drive GNU Backgammon (the binary) in one process over many files: load each, dump the match as gnubg
understood it (``gnubg.match(analysis=0, boards=1)``), optionally save it again.

``gnubg_dump(tmp, jobs)`` takes ``jobs`` = [(key, load command, save command or None)] and returns
{key: dump}; a dump is {"X", "O", "length", "games": [{"info", "actions": [...]}]} with every action
gnubg kept (move, double, take, drop, resign), its player, dice, steps and the Position ID before it.
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")

SCRIPT = r'''
import gnubg, json
jobs = json.loads(%(jobs)r)
out = {}
for key, load, save in jobs:
    try:
        gnubg.command(load)
        m = gnubg.match(analysis=0, boards=1)
    except Exception as e:
        out[key] = {"error": repr(e)}
        continue
    if save:
        gnubg.command(save)
    games = []
    for g in m["games"]:
        acts = []
        for x in g["game"]:
            a = {"action": x["action"], "player": x.get("player")}
            if "dice" in x:
                a["dice"] = sorted(x["dice"])
            if "move" in x:
                a["move"] = sorted([list(s) for s in x["move"]])
            if "board" in x:
                a["board"] = x["board"]
            acts.append(a)
        games.append({"info": g["info"], "actions": acts})
    out[key] = {"X": m["match-info"]["X"]["name"], "O": m["match-info"]["O"]["name"],
                "length": m["match-info"]["match-length"], "games": games}
with open(%(out)r, "w") as fh:
    json.dump(out, fh)
'''


def gnubg_dump(tmp: Path, jobs: list[tuple[str, str, str | None]], name: str = "dump") -> dict:
    out = str(tmp / f"{name}.json")
    script = str(tmp / f"{name}.py")
    with open(script, "w") as fh:
        fh.write(SCRIPT % {"jobs": json.dumps(jobs), "out": out})
    p = subprocess.run([GNUBG, "-t", "-q", "-p", script], capture_output=True, text=True, timeout=600,
                       stdin=subprocess.DEVNULL)
    assert os.path.exists(out), f"gnubg wrote nothing (exit {p.returncode}): {p.stderr[-2000:]} {p.stdout[-2000:]}"
    with open(out) as fh:
        return json.load(fh)
