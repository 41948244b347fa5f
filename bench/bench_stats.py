#!/usr/bin/env python3
"""``stats --by player`` side by side with ``validate`` on the same input, in the same run (the goal:
stats within 2 x the time of validate).

    python3 bench/bench_stats.py [PATH ...] [--repeat 3] [--jobs 2] [--by player]
                                 [--compare-with CHECKOUT] [--library]
    (default PATH: the whole shared corpus, ../shared/corpus)

Both are run as the command line, start-up included, in fresh processes:
``python3 -m nardy_analyze validate -j J --statistics PATH...`` and
``python3 -m nardy_analyze stats --by BY -j J --format csv PATH...`` (output to /dev/null).
The runs are interleaved (validate, stats, validate, stats, ...) so the noise of a shared machine falls
on both alike; every figure is the median of ``--repeat`` runs.  Wall-clock seconds and CPU seconds
(user + sys of the processes started, worker processes included) are printed, and the ratios
stats / validate of both: on a loaded machine the CPU ratio is the steadier one.

``--compare-with CHECKOUT`` also times the same two commands of another checkout (e.g. an earlier commit
unpacked with ``git archive``) in the same run.  ``--library`` also times ``statsrun.scan`` + ``statsrun.frame``
and ``validate_paths`` in this process (no start-up), with the split between the replay and the tables,
and the peak resident memory.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _cli(where: Path, args: list[str]):
    def go() -> tuple[float, float]:
        c0 = _child_cpu()
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "nardy_analyze", *args], cwd=where, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, check=False,
                           env={**os.environ, "PYTHONPATH": str(where)})
        wall = time.perf_counter() - t0
        if p.returncode not in (0, 1):
            print(f"bench: {' '.join(args[:3])} ... in {where} exited with {p.returncode}", file=sys.stderr)
        return wall, _child_cpu() - c0
    return go


def _library(paths: list[str], by: str, jobs: int) -> None:
    from nardy_analyze import statsrun
    from nardy_analyze.analyze import validate_paths

    t0 = time.perf_counter()
    run = statsrun.scan(paths, jobs=jobs)
    t1 = time.perf_counter()
    table = statsrun.frame(by, run.games)
    t2 = time.perf_counter()
    v = validate_paths(paths, jobs=jobs)
    t3 = time.perf_counter()
    games = len(run.games) // 2
    peak_mb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    print(f"library, -j {jobs}: files {run.files}  games {games}  --by {by}: {len(table)} rows  "
          f"unreadable {len(run.unreadable)}  parse problems {len(run.problems)}")
    print(f"  stats    {t2 - t0:6.2f} s (replay {t1 - t0:.2f} s, tables {t2 - t1:.2f} s)  "
          f"games/s {games / (t2 - t0):.0f}  peak RSS {peak_mb:.0f} MiB")
    print(f"  validate {t3 - t2:6.2f} s  games/s {v.summary()['games'] / (t3 - t2):.0f}  "
          f"ratio stats/validate {(t2 - t0) / (t3 - t2):.2f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", default=[str(ROOT.parent / "shared" / "corpus")])
    ap.add_argument("--by", choices=["player", "game", "match"], default="player")
    ap.add_argument("--jobs", "-j", type=int, default=2, help="worker processes of both commands (default 2)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each command (the median is printed)")
    ap.add_argument("--compare-with", metavar="CHECKOUT", action="append", default=[],
                    help="also time another checkout's commands in the same run")
    ap.add_argument("--library", action="store_true", help="also time the library calls in this process")
    a = ap.parse_args()
    for p in a.paths:
        if not Path(p).exists():
            print(f"bench: {p} does not exist", file=sys.stderr)
            return 2
    paths = [str(Path(p).resolve()) for p in a.paths]
    j = str(a.jobs)
    runs: dict[str, object] = {}
    for where, label in [(ROOT, "")] + [(Path(c).resolve(), f"{Path(c).name}: ") for c in a.compare_with]:
        runs[f"{label}validate -j {j} --statistics"] = _cli(where, ["validate", "-j", j, "--statistics", *paths])
        runs[f"{label}stats --by {a.by} -j {j}"] = _cli(where, ["stats", "--by", a.by, "-j", j, "--format", "csv",
                                                             *paths])
    wall: dict[str, list[float]] = {k: [] for k in runs}
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(a.repeat):
        for name, fn in runs.items():
            w, c = fn()
            wall[name].append(w)
            cpu[name].append(c)
    print(f"{' '.join(a.paths)}: median of {a.repeat} runs, interleaved; CLI, start-up included")
    names = list(runs)
    for name in names:
        print(f"{name:<48} wall {statistics.median(wall[name]):7.2f} s  CPU {statistics.median(cpu[name]):7.2f} s"
              f"   (wall runs: {', '.join(f'{t:.2f}' for t in wall[name])}; "
              f"CPU runs: {', '.join(f'{t:.2f}' for t in cpu[name])})")
    for i in range(0, len(names), 2):
        v, s = names[i], names[i + 1]
        label = v.split(": ")[0] + ": " if ": " in v else ""
        print(f"{label}ratio stats / validate: wall {statistics.median(wall[s]) / statistics.median(wall[v]):.2f}  "
              f"CPU {statistics.median(cpu[s]) / statistics.median(cpu[v]):.2f}  (goal: at most 2)")
    if a.library:
        _library(paths, a.by, a.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
