#!/usr/bin/env python3
"""Start-up of the command line: a one-file ``validate`` and ``--help``, start to end, in fresh processes.

    python3 bench/bench_startup.py [--repeat 21] [--compare-with CHECKOUT ...]

Times ``python3 -m nardy_analyze validate examples/club-night.mat`` (the fast path: no typer), ``validate
--help`` and ``stats --help`` (the typer app), and ``python3 -c pass`` (a bare interpreter) for this
checkout and each ``--compare-with`` checkout, the runs interleaved so that the noise of a shared machine
falls on all of them alike; prints the medians (wall and CPU seconds) and each checkout's ratio to this one
(on a loaded machine the CPU figures are the ones to compare).  The
modules are compiled to bytecode first, as ``pip install`` does.
"""
from __future__ import annotations

import argparse
import compileall
import os
import resource
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


def _time(cwd: Path, args: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run: the CPU time (user + system) of the process is what a loaded
    machine changes least."""
    env = {**os.environ, "PYTHONPATH": str(cwd), "NO_COLOR": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--compare-with", metavar="CHECKOUT", action="append", default=[])
    a = ap.parse_args()
    trees = [ROOT] + [Path(p).resolve() for p in a.compare_with]
    for t in trees:
        compileall.compile_dir(str(t / "nardy_analyze"), quiet=1)
    times: dict[tuple[str, Path], list[tuple[float, float]]] = {}
    for _ in range(a.repeat):
        times.setdefault(("python3 -c pass", ROOT), []).append(_time(ROOT, ["-c", "pass"]))
        for name, args in RUNS.items():
            for t in trees:
                times.setdefault((name, t), []).append(_time(t, args))
    print(f"medians of {a.repeat} interleaved runs: wall / CPU seconds")

    def med(key, i):
        return statistics.median(t[i] for t in times[key])

    base = ("python3 -c pass", ROOT)
    print(f"{'python3 -c pass':<22} {med(base, 0):.3f} / {med(base, 1):.3f}")
    for name in RUNS:
        row = f"{name:<22} {med((name, ROOT), 0):.3f} / {med((name, ROOT), 1):.3f} (this checkout)"
        for t in trees[1:]:
            row += (f"  {med((name, t), 0):.3f} / {med((name, t), 1):.3f} ({t}; this/that wall "
                    f"{med((name, ROOT), 0) / med((name, t), 0):.2f}, CPU {med((name, ROOT), 1) / med((name, t), 1):.2f})")
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
