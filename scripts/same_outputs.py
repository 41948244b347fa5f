#!/usr/bin/env python3
"""Check that two checkouts of nardy-analyze give the same outputs, byte for byte, on a corpus.

    git archive bb43755 | (mkdir -p /tmp/before && tar -x -C /tmp/before)
    python3 scripts/same_outputs.py /tmp/before [--other .] [--corpus ../shared/corpus] [--jobs N]

Runs, with each checkout: ``convert --to T`` for every target (mat, sgf, json, ngn) of the whole corpus
(the files written beside the inputs), of each of its sub-folders with ``--out-dir``, and of each
sub-folder with ``--lossy``; ``validate`` in every format (text, json, sarif, html), with
``--statistics`` and with ``--explain -v``.  Compares standard output, standard error, the exit code and
every file in the tree afterwards.  Prints the differences (none: exit 0).

Each run works in a scratch folder where ``../shared/corpus`` is a fresh copy of the corpus, so the
paths in the messages are the same for both checkouts and nothing is written in the real corpus; the
command runs as ``python3 -m nardy_analyze`` from there with ``PYTHONPATH`` set to the checkout (run
from the checkout's own root, ``-m`` would load the package of the current folder whatever
``PYTHONPATH`` says).  Takes a few minutes per checkout for the shared corpus.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ("sgf", "mat", "json", "ngn")
FORMATS = ("text", "json", "sarif", "html")


def _tree(root: Path) -> dict[str, str]:
    if not root.is_dir():
        return {}
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _runs(corpus: Path, jobs: list[str]) -> list[tuple[str, list[str], str]]:
    """(name, arguments, the folder whose files are compared afterwards: "corpus" or "out")."""
    subs = sorted(p.name for p in corpus.iterdir() if p.is_dir() and not p.name.startswith("."))
    runs = []
    for t in TARGETS:
        runs.append((f"convert-{t}", ["convert", "--to", t, *jobs, "../shared/corpus"], "corpus"))
        for s in subs:
            runs.append((f"convert-{t}-{s}", ["convert", "--to", t, *jobs, "--out-dir", "../out",
                                              f"../shared/corpus/{s}"], "out"))
            runs.append((f"convert-{t}-{s}-lossy", ["convert", "--to", t, "--lossy", *jobs,
                                                    f"../shared/corpus/{s}"], "corpus"))
    for f in FORMATS:
        runs.append((f"validate-{f}", ["validate", "-f", f, *jobs, "../shared/corpus"], ""))
    runs.append(("validate-statistics", ["validate", "--statistics", *jobs, "../shared/corpus"], ""))
    runs.append(("validate-explain", ["validate", "--explain", "-v", *jobs, "../shared/corpus"], ""))
    return runs


def run_all(code: Path, corpus: Path, jobs: list[str], scratch: Path) -> dict[str, tuple]:
    out: dict[str, tuple] = {}
    for name, args, compare in _runs(corpus, jobs):
        shutil.rmtree(scratch, ignore_errors=True)
        (scratch / "wt").mkdir(parents=True)
        shutil.copytree(corpus, scratch / "shared" / "corpus", symlinks=True)
        r = subprocess.run([sys.executable, "-m", "nardy_analyze", *args], cwd=scratch / "wt",
                           capture_output=True, env={**os.environ, "PYTHONPATH": str(code)})
        files = _tree(scratch / ("shared/corpus" if compare == "corpus" else "out")) if compare else {}
        out[name] = (r.returncode, r.stdout, r.stderr, files)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before", help="the other checkout (e.g. unpacked with git archive)")
    ap.add_argument("--other", default=str(ROOT), help="the checkout compared with it (default: this one)")
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--jobs", "-j", help="-j for every command (default: the command's default)")
    a = ap.parse_args()
    corpus = Path(a.corpus).resolve()
    jobs = ["-j", a.jobs] if a.jobs else []
    scratch = Path(tempfile.mkdtemp(prefix="nardy-same-"))
    try:
        results = [run_all(Path(c).resolve(), corpus, jobs, scratch / "run") for c in (a.before, a.other)]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    before, after = results
    bad = 0
    for name in before:
        b, o = before[name], after[name]
        what = [w for w, x, y in zip(("exit code", "standard output", "standard error", "files"), b, o) if x != y]
        if what:
            bad += 1
            print(f"DIFFERENT {name}: {', '.join(what)}")
            if b[3] != o[3]:
                changed = sorted(k for k in set(b[3]) | set(o[3]) if b[3].get(k) != o[3].get(k))
                print("  files: " + ", ".join(changed[:10]) + (" ..." if len(changed) > 10 else ""))
        else:
            print(f"same      {name}: exit {b[0]}, {len(b[1])} bytes out, {len(b[2])} bytes err, {len(b[3])} files")
    print(f"{len(before) - bad} of {len(before)} runs the same")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
