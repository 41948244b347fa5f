#!/usr/bin/env python3
"""What ``--engine dask`` costs and gains: validate and stats of a corpus, locally and on Dask.

    python3 bench/bench_dask.py [PATH ...]  [--repeat 3] [--jobs 2]     (default: ../shared/corpus)

Three ways, each timed as the command line a user runs (process start-up included), medians of
``--repeat`` runs, and each run's standard output compared with the local run's (it must be the same):

* ``local``      ``nardy-analyze validate -j N`` / ``stats -j N`` (worker processes of this machine);
* ``dask-local`` ``--engine dask -j N``: a LocalCluster of N worker processes started and stopped by the run;
* ``dask-sched`` ``--scheduler ADDRESS`` against a cluster started once by this script with
  ``dask scheduler`` and N ``dask worker --nthreads 1`` processes (started in another folder, with this
  checkout on PYTHONPATH, as a real cluster's workers would have nardy-analyze installed);

and, in this process with the cluster already connected (``cluster.connect``), the library calls alone:
``lib-local`` (``validate_paths(jobs=N)``, ``statsrun.scan(jobs=N)``) against ``lib-sched``
(``engine=...``): the per-run cost of Dask without any start-up.
The commands: ``validate --format json PATH`` and ``stats --by player -f csv PATH``.
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

COMMANDS = {"validate": ["validate", "--format", "json"], "stats": ["stats", "--by", "player", "-f", "csv"]}


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    return e


def run_cli(args: list[str]) -> tuple[float, bytes, int]:
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "nardy_analyze", *args], cwd=ROOT, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return time.perf_counter() - t0, p.stdout, p.returncode


def start_cluster(workers: int, tmp: str) -> tuple[str, list[subprocess.Popen]]:
    sched_file = os.path.join(tmp, "scheduler.json")
    procs = [subprocess.Popen(["dask", "scheduler", "--port", "0", "--no-dashboard", "--scheduler-file", sched_file],
                              cwd=tmp, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    for _ in range(200):
        if os.path.exists(sched_file) and os.path.getsize(sched_file):
            break
        time.sleep(0.1)
    import json

    with open(sched_file) as fh:
        address = json.load(fh)["address"]
    for _ in range(workers):
        procs.append(subprocess.Popen(["dask", "worker", address, "--nthreads", "1", "--no-dashboard",
                                       "--local-directory", tmp], cwd=tmp, env=env(),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    from distributed import Client

    with Client(address, timeout=30) as c:
        c.wait_for_workers(workers, timeout=60)
    return address, procs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", default=[str(ROOT.parent / "shared" / "corpus")])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2, help="worker processes / Dask workers (default 2)")
    a = ap.parse_args()
    paths = [os.path.abspath(p) for p in a.paths]
    for p in paths:
        if not os.path.exists(p):
            print(f"bench: {p} does not exist", file=sys.stderr)
            return 2
    j = ["-j", str(a.jobs)]
    rows: list[tuple[str, str, float, float, str]] = []
    with tempfile.TemporaryDirectory(prefix="bench-dask-") as tmp:
        address, procs = start_cluster(a.jobs, tmp)
        try:
            for name, cmd in COMMANDS.items():
                ways = {"local": [*cmd, *j], "dask-local": [*cmd, "--engine", "dask", *j],
                        "dask-sched": [*cmd, "--scheduler", address]}
                reference = None
                times: dict[str, list[float]] = {w: [] for w in ways}
                same = {w: True for w in ways}
                for _ in range(a.repeat):
                    for way, args in ways.items():       # interleaved: the machine's load hits all alike
                        dt, out, code = run_cli([*args, *paths])
                        if reference is None:
                            reference = (out, code)
                        same[way] &= (out, code) == reference
                        times[way].append(dt)
                base = statistics.median(times["local"])
                for way in ways:
                    m = statistics.median(times[way])
                    rows.append((name, way, m, m / base, "same" if same[way] else "DIFFERENT"))
            rows.extend(library(address, paths, a.jobs, a.repeat))
        finally:
            for p in reversed(procs):
                p.terminate()
            for p in procs:
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
    print(f"{'command':<9} {'way':<11} {'median s':>9} {'x local':>8}  output")
    for name, way, m, ratio, same in rows:
        print(f"{name:<9} {way:<11} {m:>9.2f} {ratio:>8.2f}  {same}")
    print(f"(medians of {a.repeat}; -j {a.jobs}; {os.cpu_count()} cores; paths: {' '.join(a.paths)})")
    return 0 if all(r[4] == "same" for r in rows) else 1


def library(address: str, paths: list[str], jobs: int, repeat: int):
    import io

    from nardy_analyze import statsrun as st
    from nardy_analyze.analyze import validate_paths
    from nardy_analyze.cluster import connect
    from nardy_analyze.report import write_json

    def text(run) -> str:
        fh = io.StringIO()
        write_json(run, fh)
        return fh.getvalue()

    out = []
    with connect(address) as engine:
        for name, local, remote, show in (
                ("validate", lambda: validate_paths(paths, jobs=jobs), lambda: validate_paths(paths, engine=engine),
                 text),
                ("stats", lambda: st.scan(paths, jobs=jobs), lambda: st.scan(paths, engine=engine),
                 lambda s: st.frame("player", s.games).to_csv())):
            tl, tr, same = [], [], True
            for _ in range(repeat):
                t0 = time.perf_counter()
                a = local()
                tl.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                b = remote()
                tr.append(time.perf_counter() - t0)
                same &= show(a) == show(b)
            base = statistics.median(tl)
            out.append((name, "lib-local", base, 1.0, "same"))
            out.append((name, "lib-sched", statistics.median(tr), statistics.median(tr) / base,
                        "same" if same else "DIFFERENT"))
    return out


if __name__ == "__main__":
    sys.exit(main())
