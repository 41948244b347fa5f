#!/usr/bin/env python3
"""``analyze`` throughput against GNU Backgammon's ``analyse match`` at 0 plies, in the same run.

    python3 bench/bench_analyze.py [FOLDER] [--files N] [--repeat 1] [--gnubg /usr/games/gnubg] [--dask]
    (default FOLDER: ../shared/corpus/bglab; the first N records, sorted by path, of every 15th file)

GNU Backgammon: ONE ``gnubg -t -q -p`` process that, for every file, imports it and runs ``analyse match``
with checker play, cube and luck analysed at 0 plies (one thread: gnubg's analysis of a match is serial).
nardy-analyze: ``statsrun.analyse(files, plies=0)`` in this process, with ``jobs=1`` (bgsage on one thread),
with one process and bgsage on every core (``jobs=None`` for fewer than 32 files), and with ``jobs=2``
worker processes; with ``--dask`` also on a Dask LocalCluster of 1 and 2 worker processes (the scaling
figure; the cluster's start-up is not timed).  Every figure is the median of ``--repeat`` runs.

The ratio printed is throughput(nardy-analyze) / throughput(gnubg) = time(gnubg) / time(nardy); positions
per second count every decision row (checker plays, cube decisions).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from nardy_analyze import statsrun  # noqa: E402
from nardy_analyze.stats import skill  # noqa: E402
from skill_vs_gnubg import records  # noqa: E402

GNUBG = r'''
import gnubg, json
for c in ["set analysis chequerplay evaluation plies 0", "set analysis cubedecision evaluation plies 0",
          "set analysis luckanalysis plies 0", "set analysis threads 1"]:
    gnubg.command(c)
for f in json.loads(%(files)r):
    gnubg.command('import mat "%%s"' %% f)
    gnubg.command("analyse match")
'''


def time_gnubg(files: list[str], gnubg: str) -> float:
    import json

    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "a.py")
        with open(script, "w") as fh:
            fh.write(GNUBG % {"files": json.dumps(files)})
        t = time.perf_counter()
        subprocess.run([gnubg, "-t", "-q", "-p", script], capture_output=True, stdin=subprocess.DEVNULL, check=True)
        return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "corpus" / "bglab"))
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--every", type=int, default=15)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--gnubg", default="/usr/games/gnubg")
    ap.add_argument("--dask", action="store_true")
    ap.add_argument("--plies", type=int, default=0, help="our depth (analyze's default is 1)")
    ap.add_argument("--only", choices=["all", "j2"], default="all",
                    help="j2: only gnubg and analyze -j 2 (both cores), the figure of the comparison")
    a = ap.parse_args()
    files = records([a.folder], a.every, a.files)
    runs: dict[str, list[float]] = {"gnubg analyse match (0-ply)": []}
    rows = 0
    ways = {"analyze -j 1 (one thread)": dict(jobs=1),
            "analyze, 1 process, bgsage on every core": dict(jobs=None),
            "analyze -j 2 (processes)": dict(jobs=2)}
    if a.only == "j2":
        ways = {"analyze -j 2 (processes)": dict(jobs=2)}
    engines = {}
    if a.dask:
        from nardy_analyze.cluster import connect

        for n in (1, 2):
            engines[n] = connect(None, jobs=n)
            ways[f"analyze on Dask, {n} worker(s)"] = dict(engine=engines[n])
    for name in ways:
        runs[name] = []
    for _ in range(a.repeat):
        runs["gnubg analyse match (0-ply)"].append(time_gnubg(files, a.gnubg))
        for name, kw in ways.items():
            t = time.perf_counter()
            run = statsrun.analyse(files, plies=a.plies, **kw)
            runs[name].append(time.perf_counter() - t)
            rows = len(run.decisions)
    for e in engines.values():
        e.close()
    base = statistics.median(runs["gnubg analyse match (0-ply)"])
    print(f"{len(files)} files, {rows} decisions; {os.cpu_count()} cores; median of {a.repeat}; "
          f"ours at --plies {a.plies}")
    for name, ts in runs.items():
        t = statistics.median(ts)
        print(f"{name:<45} {t:8.2f} s  {rows / t:8.0f} decisions/s  ratio {base / t:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
