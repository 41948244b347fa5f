"""Instructions executed by ``validate`` and ``convert``, counted by Valgrind, for two checkouts side by side.

    python3 bench/bench_instructions.py [FOLDER] --compare-with CHECKOUT [--one-file]
    (default FOLDER: ../shared/corpus/gnubg-selfplay)

Wall-clock medians on a shared or virtual machine move by 10-30 % from one run to the next, which hides a
change of a few per cent.  The number of machine instructions a run executes does not move: Valgrind's
``callgrind`` counts them (``I refs``) for one process, with ``PYTHONHASHSEED=0`` so that the run is the
same each time.  This script counts them for ``validate -j 1 --statistics FOLDER`` and ``convert --to sgf
-j 1 --out-dir TMP FOLDER`` (one process, start-up included) of this checkout and of ``CHECKOUT`` (for
instance ``git archive COMMIT | (mkdir -p /tmp/old && tar -x -C /tmp/old)``), and with ``--one-file`` a
one-file ``validate`` (the start-up) and a bare ``python3 -c pass``.  Both checkouts are compiled to
bytecode first.  Each count takes 50-100 times the run's own time (about a minute for gnubg-selfplay).

Instructions are not time (a cache miss costs more than an addition), but for the same interpreter on
the same input their ratio follows the ratio of the CPU times closely, without the noise.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def count(args: list[str], where: Path) -> int:
    """The instructions of ``python -m nardy_analyze ARGS`` run from the checkout ``where``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(where)}
        # sys.executable, not "python3": a shim script (pyenv) would be counted instead of the interpreter
        p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                            *args], cwd=where, env=env, capture_output=True, text=True, check=False)
        m = re.search(r"I\s+refs:\s+([\d,]+)", p.stderr)
        if not m:
            sys.exit(f"valgrind gave no count for {' '.join(args)}:\n{p.stderr[-2000:]}")
        return int(m.group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "corpus" / "gnubg-selfplay"))
    ap.add_argument("--compare-with", metavar="CHECKOUT", required=True)
    ap.add_argument("--one-file", action="store_true", help="also a one-file validate and a bare interpreter")
    a = ap.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed (apt-get install -y valgrind)")
    folder = Path(a.folder).resolve()
    other = Path(a.compare_with).resolve()
    trees = {"this checkout": ROOT, other.name: other}
    for where in trees.values():
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(where / "nardy_analyze")], check=True)
    runs: dict[str, list[str]] = {"validate -j 1": ["validate", "-j", "1", "--statistics", str(folder)]}
    with tempfile.TemporaryDirectory() as tmp:
        runs["convert --to sgf -j 1"] = ["convert", "--to", "sgf", "-j", "1", "--out-dir", "OUT", str(folder)]
        if a.one_file:
            first = min(folder.rglob("*.mat"))
            runs["validate, one file"] = ["validate", str(first)]
        print(f"{folder}; instructions (millions), PYTHONHASHSEED=0")
        for name, args in runs.items():
            counts = []
            for i, where in enumerate(trees.values()):
                out = Path(tmp) / f"out{i}"
                shutil.rmtree(out, ignore_errors=True)
                counts.append(count(["-m", "nardy_analyze", *[str(out) if x == "OUT" else x for x in args]],
                                    where))
            this, base = counts
            print(f"{name:28} this checkout {this / 1e6:9.1f}   {other.name} {base / 1e6:9.1f}   "
                  f"{(this / base - 1) * 100:+6.1f} %")
        if a.one_file:
            print(f"{'python3 -c pass':28} {count(['-c', 'pass'], ROOT) / 1e6:9.1f}")


if __name__ == "__main__":
    main()
