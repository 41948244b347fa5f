#!/usr/bin/env python3
"""Peak memory and time of ``validate`` of a folder as the input grows (issue 10).

    python3 bench/bench_memory.py [--sizes 10,100] [--jobs 2] [--source ../shared/corpus/gnubg-selfplay]

For each size (MB) a folder under /tmp is filled with copies (hard links where possible) of the
source folder's records, in sub-folders of 100 files, until it holds that many MB; then the command
line ``python3 -m nardy_analyze validate --statistics -j JOBS FOLDER`` runs on it.  The resident
memory of the whole process tree (the command and its worker processes, summed) is sampled every
0.1 s from /proc; the peak is printed with the time, MB/s and games/s.  The folders are removed at
the end (nothing is written in the repository).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tree_rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants, KiB (Linux /proc)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
                    break
            for task in Path(f"/proc/{p}/task").iterdir():
                kids = (task / "children").read_text().split()
                todo.extend(int(k) for k in kids)
        except (OSError, ValueError):
            continue
    return total


def _fill(folder: Path, source: list[Path], mb: float) -> tuple[int, int]:
    want = mb * 1e6
    size = files = copy = 0
    while size < want:
        sub = folder / f"copy{copy:05d}"
        sub.mkdir(parents=True)
        for f in source:
            dst = sub / f.name
            try:
                os.link(f, dst)
            except OSError:
                shutil.copyfile(f, dst)
            size += f.stat().st_size
            files += 1
            if size >= want:
                break
        copy += 1
    return files, size


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10,100", help="input sizes in MB, comma-separated")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--source", default=str(ROOT.parent / "shared" / "corpus" / "gnubg-selfplay"))
    a = ap.parse_args()
    source = sorted(p for p in Path(a.source).rglob("*.mat") if p.is_file())
    if not source:
        print(f"bench: no .mat files in {a.source}", file=sys.stderr)
        return 2
    base = Path(tempfile.mkdtemp(prefix="nardy-mem-"))
    try:
        for mb in (float(x) for x in a.sizes.split(",")):
            folder = base / f"{mb:g}MB"
            files, size = _fill(folder, source, mb)
            cmd = [sys.executable, "-m", "nardy_analyze", "validate", "--statistics", "-j", str(a.jobs),
                   str(folder)]
            t0 = time.perf_counter()
            proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            peak = 0
            while proc.poll() is None:
                peak = max(peak, _tree_rss_kib(proc.pid))
                time.sleep(0.1)
            out = proc.stdout.read() if proc.stdout else ""
            dt = time.perf_counter() - t0
            summary = next((ln for ln in out.splitlines() if " game(s), " in ln), "").strip()
            games = int(summary.split(" game(s)")[0].split()[-1]) if summary else 0
            print(f"{size / 1e6:8.1f} MB  {files:7d} files  {games:8d} games  {dt:8.1f} s  "
                  f"{size / 1e6 / dt:6.2f} MB/s  {games / dt:6.0f} games/s  peak RSS (all processes) "
                  f"{peak / 1024:6.0f} MiB   exit {proc.returncode}", flush=True)
            shutil.rmtree(folder, ignore_errors=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
