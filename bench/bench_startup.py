#!/usr/bin/env python3
"""Start-up of the command line: a one-file ``validate`` and ``--help``, start to end, in fresh processes.

    python3 bench/bench_startup.py [--repeat 21] [--compare-with CHECKOUT ...]

Times ``python3 -m nardy_analyze validate examples/club-night.mat`` (the fast path: no typer), ``validate
--help`` and ``stats --help`` (the typer app), and ``python3 -c pass`` (a bare interpreter) for this
checkout and each ``--compare-with`` checkout, the runs interleaved so that the noise of a shared machine
falls on all of them alike; prints the medians (wall seconds) and each checkout's ratio to this one.  The
modules are compiled to bytecode first, as ``pip install`` does.
"""
from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = {
    "validate one file": ["-m", "nardy_analyze", "validate", "examples/club-night.mat"],
    "validate --help": ["-m", "nardy_analyze", "validate", "--help"],
    "stats --help": ["-m", "nardy_analyze", "stats", "--help"],
}


def _time(cwd: Path, args: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(cwd), "NO_COLOR": "1"}
    t0 = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--compare-with", metavar="CHECKOUT", action="append", default=[])
    a = ap.parse_args()
    trees = [ROOT] + [Path(p).resolve() for p in a.compare_with]
    for t in trees:
        compileall.compile_dir(str(t / "nardy_analyze"), quiet=1)
    times: dict[tuple[str, Path], list[float]] = {}
    for _ in range(a.repeat):
        times.setdefault(("python3 -c pass", ROOT), []).append(_time(ROOT, ["-c", "pass"]))
        for name, args in RUNS.items():
            for t in trees:
                times.setdefault((name, t), []).append(_time(t, args))
    print(f"medians of {a.repeat} interleaved runs, wall seconds")
    print(f"{'python3 -c pass':<22} {statistics.median(times['python3 -c pass', ROOT]):.3f}")
    for name in RUNS:
        mine = statistics.median(times[name, ROOT])
        row = f"{name:<22} {mine:.3f} (this checkout)"
        for t in trees[1:]:
            other = statistics.median(times[name, t])
            row += f"  {other:.3f} ({t}; this/that {mine / other:.2f})"
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
