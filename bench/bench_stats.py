#!/usr/bin/env python3
"""Time ``stats`` on a corpus and report games per second and peak memory.

    python3 bench/bench_stats.py [PATH ...]          (default: ../shared/corpus/bglab)
    python3 bench/bench_stats.py --jobs 1 --by match ../shared/corpus/gnubg-selfplay

Runs the library as ``nardy-analyze stats --by BY`` does (read, replay with the statistics observer in the
worker processes, build the frame), without the process start-up.  Peak resident memory is the largest of
this process and its worker processes (``resource.getrusage``).  For comparison it also times ``validate``
on the same paths unless ``--no-validate``.
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nardy_analyze import stats  # noqa: E402
from nardy_analyze.analyze import validate_paths  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", default=[str(ROOT.parent / "shared" / "corpus" / "bglab")])
    ap.add_argument("--by", choices=["player", "game", "match"], default="player")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: as the CLI)")
    ap.add_argument("--no-validate", action="store_true", help="do not time validate for comparison")
    a = ap.parse_args()
    for p in a.paths:
        if not Path(p).exists():
            print(f"bench: {p} does not exist", file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    run = stats.scan(a.paths, jobs=a.jobs)
    t1 = time.perf_counter()
    table = stats.frame(a.by, run.games)
    t2 = time.perf_counter()
    games = len(run.games) // 2
    peak_mb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    print(f"files {run.files}  games {games}  rows {len(run.games)}  --by {a.by}: {len(table)} rows  "
          f"unreadable {len(run.unreadable)}  parse problems {len(run.problems)}")
    print(f"stats    jobs {a.jobs or 'auto'}  time {t2 - t0:.2f} s (replay {t1 - t0:.2f} s, tables {t2 - t1:.2f} s)  "
          f"games/s {games / (t2 - t0):.0f}  peak RSS {peak_mb:.0f} MiB")
    if not a.no_validate:
        t0 = time.perf_counter()
        v = validate_paths(a.paths, jobs=a.jobs)
        dt = time.perf_counter() - t0
        print(f"validate jobs {a.jobs or 'auto'}  time {dt:.2f} s  games/s {v.summary()['games'] / dt:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
