#!/usr/bin/env python3
"""``analyze`` throughput against GNU Backgammon's ``analyse match`` at 0 plies, in the same run.

    python3 bench/bench_analyze.py [FOLDER] [--files N] [--repeat 1] [--gnubg /usr/games/gnubg] [--dask]
                                   [--plies 0,1] [--only all|j2] [--compare-with CHECKOUT]
    (default FOLDER: ../shared/corpus/bglab; the first N records, sorted by path, of every 15th file)

GNU Backgammon: ONE ``gnubg -t -q -p`` process that, for every file, imports it and runs ``analyse match``
with checker play, cube and luck analysed at 0 plies (one thread: gnubg's analysis of a match is serial).
nardy-analyze: ``statsrun.analyse(files, plies=0)`` in this process, with ``jobs=1`` (bgsage on one thread),
with one process and bgsage on every core (``jobs=None`` for fewer than 32 files), and with ``jobs=2``
worker processes; with ``--dask`` also on a Dask LocalCluster of 1 and 2 worker processes (the scaling
figure; the cluster's start-up is not timed).  Every figure is the median of ``--repeat`` runs.
``--plies 0,1`` times ours at each depth listed, against the same gnubg run; ``--compare-with CHECKOUT``
times another checkout's ``analyze`` the same way in the same run (before / after a change).  Each of our runs starts in
a fresh process (no cache of an earlier run: ``analyze`` keeps its engine's answers per process).

The ratio printed is throughput(nardy-analyze) / throughput(gnubg) = time(gnubg) / time(nardy) (wall); the
per-core ratio is the same with CPU seconds (user + system of every process, start-up included), which
a machine shared with other work disturbs less than the wall time; decisions per second count every
decision row (checker plays, cube decisions).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

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


def time_gnubg(files: list[str], gnubg: str) -> tuple[float, float]:
    """gnubg's analysis of ``files``: (wall seconds, CPU seconds)."""
    import json

    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "a.py")
        with open(script, "w") as fh:
            fh.write(GNUBG % {"files": json.dumps(files)})
        t, c = time.perf_counter(), _children_cpu()
        subprocess.run([gnubg, "-t", "-q", "-p", script], capture_output=True, stdin=subprocess.DEVNULL, check=True)
        return time.perf_counter() - t, _children_cpu() - c


def _children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes and theirs."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


OURS = r'''
import json, sys, time
sys.path.insert(0, %(root)r)
from nardy_analyze import statsrun
kw = json.loads(%(kw)r)
engine = None
if "dask" in kw:
    from nardy_analyze.cluster import connect
    engine = connect(None, jobs=kw.pop("dask"))
    kw["engine"] = engine
t = time.perf_counter()
run = statsrun.analyse(json.loads(%(files)r), plies=%(plies)d, **kw)
print(json.dumps([time.perf_counter() - t, len(run.decisions)]))
if engine is not None:
    engine.close()
'''


def time_ours(files: list[str], plies: int, kw: dict, root: str = str(ROOT)) -> tuple[float, float, int]:
    """Our analysis of ``files`` in a fresh process: (wall seconds, CPU seconds of the process and its
    workers, start-up included, decision rows)."""
    import json

    code = OURS % {"root": root, "kw": json.dumps(kw), "files": json.dumps(files), "plies": plies}
    c = _children_cpu()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         stdin=subprocess.DEVNULL)
    t, n = json.loads(out.stdout.strip().splitlines()[-1])
    return t, _children_cpu() - c, n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "corpus" / "bglab"))
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--every", type=int, default=15)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--gnubg", default="/usr/games/gnubg")
    ap.add_argument("--dask", action="store_true")
    ap.add_argument("--plies", default="0", help="our depths, comma-separated (analyze's default is 1)")
    ap.add_argument("--only", choices=["all", "j2"], default="all",
                    help="j2: only gnubg and analyze -j 2 (both cores), the figure of the comparison")
    ap.add_argument("--compare-with", metavar="CHECKOUT", help="also time this checkout's analyze")
    a = ap.parse_args()
    files = records([a.folder], a.every, a.files)
    plies = [int(p) for p in str(a.plies).split(",")]
    runs: dict[str, list[float]] = {"gnubg analyse match (0-ply)": []}
    cpu: dict[str, list[float]] = {"gnubg analyse match (0-ply)": []}
    rows = {}
    ways = {"analyze -j 1 (one thread)": dict(jobs=1),
            "analyze, 1 process, bgsage on every core": dict(jobs=None),
            "analyze -j 2 (processes)": dict(jobs=2)}
    if a.only == "j2":
        ways = {"analyze -j 2 (processes)": dict(jobs=2)}
    if a.dask:
        ways.update({f"analyze on Dask, {n} worker(s)": dict(dask=n) for n in (1, 2)})
    roots = {"": str(ROOT)}
    if a.compare_with:
        roots[f" [{a.compare_with}]"] = str(Path(a.compare_with).resolve())
    names = {(p, name, r): f"{name}, --plies {p}{r}" for r in roots for p in plies for name in ways}
    for key in names.values():
        runs[key] = []
        cpu[key] = []
    for _ in range(a.repeat):
        t, c = time_gnubg(files, a.gnubg)
        runs["gnubg analyse match (0-ply)"].append(t)
        cpu["gnubg analyse match (0-ply)"].append(c)
        for (p, name, r), key in names.items():
            t, c, n = time_ours(files, p, ways[name], roots[r])
            runs[key].append(t)
            cpu[key].append(c)
            rows[p] = n
    base = statistics.median(runs["gnubg analyse match (0-ply)"])
    base_cpu = statistics.median(cpu["gnubg analyse match (0-ply)"])
    print(f"{len(files)} files, decisions {rows}; {os.cpu_count()} cores; median of {a.repeat}; load average "
          f"{os.getloadavg()[0]:.1f} at the end")
    print(f"{'':<58} {'wall':>8}    {'decisions/s':>11}  {'ratio':>5}   {'CPU':>8}  {'per-core ratio':>14}")
    for name, ts in runs.items():
        t, c = statistics.median(ts), statistics.median(cpu[name])
        n = next((rows[p] for (p, w, r), k in names.items() if k == name), max(rows.values()))
        print(f"{name:<58} {t:8.2f} s  {n / t:11.0f}  {base / t:5.2f}   {c:8.2f} s  {base_cpu / c:14.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
