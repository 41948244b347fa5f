#!/usr/bin/env python3
"""Time ``validate`` on a corpus and report games per second and peak memory.

    python3 bench/bench_validate.py [PATH ...]      (default: ../shared/corpus)
    python3 bench/bench_validate.py --repeat 3 ../shared/corpus/bglab

Runs the library (the same code path as the command line, without the process start-up); peak
resident memory is the largest of this process and its worker processes (``resource.getrusage``).
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nardy_analyze.analyze import validate_paths  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", default=[str(ROOT.parent / "shared" / "corpus")])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: as the CLI)")
    a = ap.parse_args()
    for p in a.paths:
        if not Path(p).exists():
            print(f"bench: {p} does not exist", file=sys.stderr)
            return 2
    best = None
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        run = validate_paths(a.paths, jobs=a.jobs)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    s = run.summary()
    peak_mb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    print(f"files {s['files']}  games {s['games']}  turns {s['turns']}  errors {s['errors']}  "
          f"warnings {s['warnings']}")
    print(f"jobs {a.jobs or 'auto'}  time {best:.2f} s (best of {a.repeat})  games/s {s['games'] / best:.0f}  "
          f"turns/s {s['turns'] / best:.0f}  peak RSS {peak_mb:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
