"""Check that two checkouts' replays tell the same events on a corpus: every finding (with its --explain
data), game report, action state, turn row and game end of every record.

    python3 scripts/same_replay_events.py OTHER_CHECKOUT [--other .] [--corpus ../shared/corpus]

Quicker than scripts/same_outputs.py (no command line, no writers) and closer to the replay: run it
after a change inside replay/ or the engine.  Each checkout runs in its own process (``PYTHONPATH``);
a checkout from before the replay's visitor (``replay(..., trace=True, observer=...)``), or from before
visitors declared their events (``wants``), is read through that older interface.  Prints the count of records and one digest per checkout; exit 1 when they differ.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

_DUMP = r'''
import hashlib, pickle, sys
from nardy_analyze.inputs import RECORD, discover, load, variant_for
from nardy_analyze import replay as R


def state(s):
    parts = None if s.parts is None else [(p.kind, p.player, p.numbers, p.line, p.column, p.text, p.before,
                                           p.after) for p in s.parts]
    return (s.index, s.cube, s.owner, s.before, s.after, s.legal, s.exact, parts)


class Told:
    def __init__(self):
        self.turns, self.ends, self.states = [], [], []

    def turn(self, r):
        self.turns.append(tuple(r[:10]) + (r.action.loc.line if r.action else None, repr(r.spec)))

    def game_end(self, e):
        self.ends.append(repr(e))

    def action_state(self, s):
        self.states.append(state(s))


if hasattr(R, "ReportBuilder"):       # visitors declare the events they want; replay() gives result()
    class Visitor(Told, R.ReportBuilder):
        wants = R.Events.STATES | R.Events.TURNS | R.Events.ENDS

        def __init__(self):
            R.ReportBuilder.__init__(self)
            Told.__init__(self)
elif hasattr(R, "ReplayVisitor"):
    class Visitor(Told, R.ReplayVisitor):
        pass
digest, n = hashlib.sha256(), 0
for e in discover([sys.argv[1]]):
    if e.status != RECORD:
        continue
    try:
        m = load(e)
        v = variant_for(m, "backgammon", {})
    except Exception as exc:
        digest.update(repr(("unread", e.path, type(exc).__name__)).encode())
        continue
    if hasattr(R, "ReplayVisitor"):
        told = Visitor()
        rep = R.replay(m, v, visitor=told)
    else:
        told = Told()
        rep = R.replay(m, v, trace=True, observer=told)
        told.states = [state(s) for g in rep.games for s in (g.states or [])]
    findings = [(tuple(f.as_dict().items()), f.position, f.dice, tuple(f.alternatives), f.board_title,
                 f.board_side) for f in rep.findings]
    games = [(g.number, g.players, g.turns, g.winner, g.points, g.how, g.crawford) for g in rep.games]
    digest.update(pickle.dumps((e.path, findings, games, told.states, told.turns, told.ends)))
    n += 1
print(n, digest.hexdigest())
'''


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before", help="the other checkout (e.g. unpacked with git archive)")
    ap.add_argument("--other", default=".", help="this checkout (default: the current folder)")
    ap.add_argument("--corpus", default="../shared/corpus")
    a = ap.parse_args()
    out = []
    for code in (a.before, a.other):
        r = subprocess.run([sys.executable, "-c", _DUMP, str(Path(a.corpus).resolve())], capture_output=True,
                           text=True, cwd="/", env={**os.environ, "PYTHONPATH": str(Path(code).resolve())})
        if r.returncode:
            print(f"{code}: {r.stderr.strip()}", file=sys.stderr)
            return 2
        out.append(r.stdout.strip())
        print(f"{code}: {out[-1]}")
    return 0 if out[0] == out[1] else 1


if __name__ == "__main__":
    sys.exit(main())
