#!/usr/bin/env python3
"""Time ``generate_match`` (random legal games) per variant: games and rolls per second.

    python3 bench/bench_generate.py [--games N] [--seed S] [--repeat R] [VARIANT ...]
    (default: 200 games of each of backgammon, long, gulbara)

One process (wall time and CPU time: the machine may be shared), the library code path of ``nardy-analyze generate`` without writing a notation.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nardy_analyze.generate import generate_match  # noqa: E402
from nardy_analyze.record import Kind  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variants", nargs="*", default=["backgammon", "long", "gulbara"])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    from nardy_analyze.engine import compiled
    print("core: " + ("compiled" if compiled.CoreRules is not None else "pure Python (NARDY_ANALYZE_PURE=1 or "
                      "not built)"))
    for v in a.variants:
        best = cpu = None
        for _ in range(a.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            m = generate_match(v, a.games, a.seed)
            dt, dc = time.perf_counter() - t0, time.process_time() - c0
            best = dt if best is None else min(best, dt)
            cpu = dc if cpu is None else min(cpu, dc)
        rolls = sum(1 for g in m.games for x in g.actions if x.kind == Kind.ROLL)
        segs = sum(len(x.segments) for g in m.games for x in g.actions)
        print(f"{v:<11} games {a.games}  rolls {rolls}  extra segments {segs}  time {best:.2f} s  cpu {cpu:.2f} s "
              f"(best of {a.repeat})  games/s {a.games / best:.1f} (per cpu s {a.games / cpu:.1f})  "
              f"rolls/s {rolls / best:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
