#!/usr/bin/env python3
"""What one position's checker play costs the analysis' engine, against GNU Backgammon's own network.

    python3 bench/bench_engine_cost.py [FOLDER] [--positions 400] [--repeat 3]
    (default FOLDER: ../shared/corpus/bglab; needs the analysis extra and gnubg-nn, a test extra)

The positions: the contact positions before a roll in the record files of FOLDER (every 40th file,
sorted by path, the replay's positions), shuffled with a fixed seed, the first ``--positions`` of them,
each with all 21 rolls, the cube centred, money play.

- **bgsage** (the engine of ``analyze``, Open Sage's network): its C++ batch call of the checker play at
  its "1ply" (our ``--plies 0``), on one thread, as ``analyze`` makes it (every legal play evaluated and
  returned, best first);
- **GNU Backgammon's network** (PyPI ``gnubg-nn``, gnubg's 0-ply evaluator): its best move of each roll,
  one call a roll (every legal play evaluated, the best returned).

The luck of every roll needs the best play of each of the 21 rolls of the position, at every depth, as
GNU Backgammon's luck analysis does: this is the work both programs do for every checker decision, and
the ratio printed bounds what ``analyze`` can reach against ``gnubg``'s ``analyse match`` per core
(bench/bench_analyze.py) with this engine, whatever is done around the network.  Every figure is the
median of ``--repeat`` runs.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def positions(folder: Path, n: int) -> list[list[int]]:
    """bgsage boards (26 points, the player on roll positive) of the contact positions before a roll."""
    from nardy_analyze import notation
    from nardy_analyze.replay.normal import normalise
    from nardy_analyze.record import Kind
    from nardy_analyze.stats.skill import board, is_race

    files = sorted(p for p in folder.rglob("*") if p.suffix in (".mat", ".txt"))[::40]
    out = []
    for f in files:
        normal = normalise(notation.read_bytes(f.read_bytes(), str(f)))
        for ng in normal.games:
            for na in ng.actions:
                st = na.state
                if st is None or na.action.kind is not Kind.ROLL or not st.legal:
                    continue
                p = na.action.player
                me, opp = st.before[p], st.before[1 - p]
                if not is_race(me, opp):
                    out.append(board(me, opp))
    random.Random(1).shuffle(out)
    return out[:n]


def gnubg_board(b: list[int]) -> list[list[int]]:
    """gnubg-nn's board (the opponent's 25 points, then the mover's; each from its own side, bar last)."""
    me, opp = [0] * 25, [0] * 25
    for i in range(1, 25):
        if b[i] > 0:
            me[i - 1] = b[i]
        elif b[i] < 0:
            opp[24 - i] = -b[i]
    me[24], opp[24] = max(b[25], 0), abs(b[0])
    return [opp, me]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "corpus" / "bglab"))
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    try:
        import bgbot_cpp
        import gnubg_nn
        from bgsage.weights import WeightConfigPair, default_weights
    except ImportError as e:
        print(f"bench: needs bgsage (pip install '.[analysis]') and gnubg-nn (pip install '.[test]'): {e}",
              file=sys.stderr)
        return 2
    boards = positions(Path(a.folder), a.positions)
    if not boards:
        print(f"bench: no contact position in {a.folder}", file=sys.stderr)
        return 2
    w = default_weights()
    if isinstance(w, WeightConfigPair):
        paths, hiddens = w.weight_args
        strategy = bgbot_cpp.create_strategy(getattr(w, "strategy_type", "pair"), paths, hiddens)
    else:
        strategy = bgbot_cpp.GamePlanStrategy(*w.weight_args)
    queries = [dict(board=b, die1=d1, die2=d2, cube_value=1, cube_owner=bgbot_cpp.CubeOwner.CENTERED)
               for b in boards for d1, d2 in ROLLS]
    theirs = [gnubg_board(b) for b in boards]

    def ours() -> tuple[float, int]:
        t = time.perf_counter()
        res = bgbot_cpp.batch_checker_play(queries, strategy, 5, 0.08, 1, jacoby=False)
        return time.perf_counter() - t, sum(len(r["moves"]) for r in res)

    def gnubg() -> float:
        t = time.perf_counter()
        for x in theirs:
            for d1, d2 in ROLLS:
                gnubg_nn.best_move(x, d1, d2)
        return time.perf_counter() - t

    t_ours, t_gnubg, plays = [], [], 0
    for _ in range(a.repeat):
        t, plays = ours()
        t_ours.append(t)
        t_gnubg.append(gnubg())
    plays_gnubg = sum(len(gnubg_nn.moves(x, d1, d2)) for x in theirs for d1, d2 in ROLLS)
    mo, mg = statistics.median(t_ours), statistics.median(t_gnubg)
    print(f"{len(boards)} contact positions x 21 rolls = {len(queries)} rolls; legal plays: {plays} (bgsage), "
          f"{plays_gnubg} (gnubg); median of {a.repeat}")
    print(f"bgsage, C++ batch, 1 thread      {mo:6.2f} s  {mo / len(queries) * 1e6:6.0f} us a roll  "
          f"{mo / plays * 1e6:5.1f} us a play")
    print(f"gnubg-nn best move, 1 thread     {mg:6.2f} s  {mg / len(queries) * 1e6:6.0f} us a roll  "
          f"{mg / plays_gnubg * 1e6:5.1f} us a play")
    print(f"bgsage / gnubg: {mo / mg:.1f} times the time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
