#!/usr/bin/env python3
"""One command line of several checkouts of nardy-analyze, run in turn many times: small differences in the
command's own time, on a shared machine.

    python3 bench/bench_alternate.py CHECKOUT [CHECKOUT ...] [--folder FOLDER] [--runs 25]
                                     [--command convert|validate] [--jobs 2]
    (default FOLDER: ../shared/corpus/bglab)

Each round runs ``python3 -m nardy_analyze convert --to sgf --force -j JOBS --out-dir NEW FILES...`` (or
``validate -j JOBS FILES...``) once in each checkout, in the order given, from the checkout's folder (so that
its own package is the one imported), writing into a new folder under the system's temporary folder (``TMPDIR``;
``/dev/shm`` measures the programs without a disk).  The files: every ``.mat``, ``.txt`` and ``.ngn`` file under
FOLDER, less those its ``GNUBG_CRASHES.list`` names (as ``bench_vs_gnubg.py``).  A checkout is a source tree
with its compiled parts built (``git archive COMMIT | tar -x -C DIR``, then the ``.so`` files of a built tree
copied in, or ``python3 setup.py build_ext --inplace`` there); its modules are compiled to bytecode first.

Printed per checkout: the wall clock's median, quartiles and least value; the CPU of the command's own process
and of its worker processes together (``getrusage``, read as the command ends: the command line is run through
a few lines that record them), medians.  Runs in turn put the noise of a shared machine on every checkout alike;
the quartiles show how much of it there was.
"""
from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_vs_gnubg import corpus_files  # noqa: E402  (the same files as the bench against GNU Backgammon)

# Run as ``python3 -c WRAPPER ARGS...``: the command line with its CPU, and its children's, written to $BENCH_LOG
# when it ends (the fast command line ends with os._exit; the other one through atexit).
WRAPPER = """
import atexit, os, resource, sys
def _record():
    if os.getpid() != _MAIN:
        return
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.environ["BENCH_LOG"], "w") as f:
        f.write("%.4f %.4f" % (me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime))
_MAIN = os.getpid()
_exit = os._exit
def _exit_recorded(code):
    _record()
    _exit(code)
os._exit = _exit_recorded
atexit.register(_record)
sys.argv = ["nardy-analyze"] + sys.argv[1:]
sys.path.insert(0, os.getcwd())
import runpy
runpy.run_module("nardy_analyze", run_name="__main__", alter_sys=True)
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkouts", nargs="+", metavar="CHECKOUT")
    ap.add_argument("--folder", default=str(ROOT.parent / "shared" / "corpus" / "bglab"))
    ap.add_argument("--runs", type=int, default=25)
    ap.add_argument("--command", choices=("convert", "validate"), default="convert")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    checkouts = [Path(c).resolve() for c in a.checkouts]
    for c in checkouts:
        if not (c / "nardy_analyze" / "__init__.py").exists():
            print(f"bench: {c} is no checkout of nardy-analyze", file=sys.stderr)
            return 2
        compileall.compile_dir(str(c / "nardy_analyze"), quiet=1)
    files = [str(f) for f in corpus_files(Path(a.folder))]
    if not files:
        print(f"bench: no .mat, .txt or .ngn files in {a.folder}", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="nardy-alternate-"))
    wall: dict[Path, list[float]] = {c: [] for c in checkouts}
    own: dict[Path, list[float]] = {c: [] for c in checkouts}
    workers: dict[Path, list[float]] = {c: [] for c in checkouts}
    log = tmp / "cpu.txt"
    env = dict(os.environ, BENCH_LOG=str(log))
    try:
        for k in range(a.runs):
            for i, c in enumerate(checkouts):
                out = tmp / f"out-{k}-{i}"
                args = (["convert", "--to", "sgf", "--force", "-j", str(a.jobs), "--out-dir", str(out)]
                        if a.command == "convert" else ["validate", "-j", str(a.jobs)])
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-c", WRAPPER, *args, *files], cwd=c, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                wall[c].append(time.perf_counter() - t0)
                me, kids = (float(x) for x in log.read_text().split())
                own[c].append(me)
                workers[c].append(kids)
                shutil.rmtree(out, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{a.folder}: {len(files)} files; {a.command} -j {a.jobs}; {a.runs} rounds, the checkouts in turn")
    for c in checkouts:
        q1, med, q3 = statistics.quantiles(wall[c], n=4)
        print(f"{str(c):<40} wall median {med:.3f} s (quartiles {q1:.3f}-{q3:.3f}, least {min(wall[c]):.3f}); "
              f"CPU: the command {statistics.median(own[c]):.3f} s, its workers {statistics.median(workers[c]):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
