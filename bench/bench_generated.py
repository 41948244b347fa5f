#!/usr/bin/env python3
"""Validate generated games per variant: games per second, and the property check on many games.

    python3 bench/bench_generated.py [--games N] [--seed S] [VARIANT ...]
    (default: 1000 games of each of backgammon, long, gulbara)

Generates ``N`` random legal games of each variant (``nardy_analyze.generate.generate_match``), then
validates them in-process (``analyze.validate_match``: the variant from the record's ``Variant`` tag, the
replayer with its turn driver and look-ahead), and prints the time, games and turns per second and the
number of findings, which must be 0 (the suite checks a few dozen games per variant; this runs the
1,000).  Exit code 1 when any finding is reported.  One process; wall and CPU time (shared machines).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nardy_analyze.analyze import validate_match  # noqa: E402
from nardy_analyze.generate import generate_match  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variants", nargs="*", default=["backgammon", "long", "gulbara"])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    bad = 0
    for v in a.variants:
        m = generate_match(v, a.games, a.seed)
        t0, c0 = time.perf_counter(), time.process_time()
        rep = validate_match(m)
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        n = len(rep.findings)
        bad += n
        print(f"{v:<11} games {len(rep.games)}  turns {rep.turns}  findings {n}  time {dt:.2f} s  cpu {dc:.2f} s  "
              f"games/s {len(rep.games) / dt:.1f} (per cpu s {len(rep.games) / dc:.1f})  turns/s {rep.turns / dt:.0f}")
        for f in rep.findings[:5]:
            print(f"    game {f.game} line {f.line}: {f.rule}: {f.message}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
