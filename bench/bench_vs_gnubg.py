#!/usr/bin/env python3
"""``validate`` side by side with GNU Backgammon's C reader, in the same run.

    python3 bench/bench_vs_gnubg.py [FOLDER] [--repeat 3] [--gnubg /usr/games/gnubg] [--convert]
                                    [--compare-with CHECKOUT]
                                    [--pure] [--python VENV/bin/python]
    (default FOLDER: ../shared/corpus/gnubg-selfplay)

The files: every ``.mat`` and ``.txt`` file under FOLDER, less those a ``GNUBG_CRASHES.list`` in FOLDER names
(GNU Backgammon's import crashes on them, which would end its run): both sides read the same files.

GNU Backgammon: ONE ``gnubg -t -q -c CMDS`` process whose command file does ``import mat F`` and
``save match /tmp/.../x.sgf`` for every ``.mat`` file of the folder (start-up included).
nardy-analyze: ``validate`` of the same files, as a library call in this process
(``validate_paths``, no start-up) and as the command line (``python3 -m nardy_analyze validate``,
start-up included), each with ``-j 2`` and ``-j 1``; with ``--convert`` also
``convert --to sgf --out-dir /tmp/...`` of the folder, into a new folder each run (the usual conversion of an
archive, not a replacement of earlier outputs; the folders are removed at the end).  Every figure is the median of ``--repeat``
runs, the runs interleaved so that the noise of a shared machine falls on all of them alike.

Both programs write under the system's temporary folder (``TMPDIR``, else /tmp), and its file system shows in
every figure that writes: GNU Backgammon's ``save match`` writes one file over and over (each time the old one is
truncated and freed), ``convert`` makes one new file per record.  On a disk mounted with online discard both
pay the disk for it; ``TMPDIR=/dev/shm`` (memory) measures the programs without it.  The file system used is
printed.

``--python`` also times the command lines under another interpreter: a virtual environment where
nardy-analyze is installed (``python -m venv V && V/bin/pip install .``), run from a temporary folder so that
the installed package is the one imported: a user's installation, without the start-up hooks of the
interpreter that runs the bench (an editable install's finder, a ``.pth`` file of the machine).  The start-up
of an empty interpreter (``python -c pass``) is printed for each interpreter used, so that every command line
figure can be read against it.

The ratio printed is throughput(nardy-analyze) / throughput(gnubg) = time(gnubg) / time(nardy):
1.0 is parity, 0.25 the floor we set ourselves.

nardy-analyze's modules are compiled to bytecode (``__pycache__``, as ``pip install`` does) before the runs,
so that the command line's start-up is an installed one's even where ``PYTHONDONTWRITEBYTECODE`` is set
(it is in the project's sandbox: every run would compile the package's source again, ~50 ms);
``--no-compile`` leaves that out.
"""
from __future__ import annotations

import argparse
import itertools
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nardy_analyze.analyze import validate_paths  # noqa: E402


def corpus_files(folder: Path) -> list[Path]:
    """The files of a bench: every ``.mat``, ``.txt`` and ``.ngn`` file under ``folder``, less those its
    ``GNUBG_CRASHES.list`` names (GNU Backgammon's import crashes on them: left out of both sides)."""
    files = sorted(f for f in folder.rglob("*") if f.suffix.lower() in (".mat", ".txt", ".ngn") and f.is_file())
    crashes = folder / "GNUBG_CRASHES.list"
    if crashes.exists():
        left_out = {(folder / line.strip()).resolve() for line in crashes.read_text().splitlines() if line.strip()}
        files = [f for f in files if f.resolve() not in left_out]
    return files


def _gnubg_commands(files: list[Path], out: Path) -> str:
    lines = []
    for f in files:
        lines.append(f'import mat "{f}"' if " " in str(f) else f"import mat {f}")
        lines.append(f"save match {out / 'x.sgf'}")
    return "\n".join(lines) + "\n"


def _file_system(path: Path) -> str:
    """The type of the file system ``path`` is on (``stat -f``), and its mount options where /proc says them."""
    try:
        kind = subprocess.run(["stat", "-f", "-c", "%T", str(path)], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "file system not known"
    try:
        mounts = [line.split() for line in Path("/proc/mounts").read_text().splitlines()]
        best = max((m for m in mounts if str(path.resolve()).startswith(m[1])), key=lambda m: len(m[1]))
        return f"{kind}, mounted {best[1]} with {best[3]}"
    except (OSError, ValueError, IndexError):
        return kind


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "corpus" / "gnubg-selfplay"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--gnubg", default="/usr/games/gnubg")
    ap.add_argument("--convert", action="store_true", help="also time 'convert --to sgf' of the folder")
    ap.add_argument("--compare-with", metavar="CHECKOUT", action="append", default=[],
                    help="also time the CLI of another checkout of nardy-analyze (e.g. an earlier commit "
                         "unpacked with 'git archive'), in the same run")
    ap.add_argument("--pure", action="store_true",
                    help="also time the command lines with the pure-Python core (NARDY_ANALYZE_PURE=1), in the "
                         "same run, beside the core this checkout loads (the compiled one where it is built)")
    ap.add_argument("--generated", metavar="VARIANT:GAMES",
                    help="instead of FOLDER: GAMES random legal games of VARIANT (long, gulbara, backgammon) made "
                         "by this checkout in 20 .ngn files; GNU Backgammon is left out (it reads no long nardy) "
                         "and --convert writes JSON")
    ap.add_argument("--python", metavar="EXE", action="append", default=[],
                    help="also time the command lines under this interpreter (a virtual environment where "
                         "nardy-analyze is installed), run from a temporary folder, in the same run")
    ap.add_argument("--no-compile", action="store_true",
                    help="do not compile nardy-analyze's modules to bytecode first")
    a = ap.parse_args()
    if not a.no_compile:
        import compileall
        for where in [ROOT] + [Path(p).resolve() for p in a.compare_with]:
            compileall.compile_dir(str(where / "nardy_analyze"), quiet=1)
    folder = Path(a.folder).resolve()
    convert_to = "sgf"
    if a.generated:
        from nardy_analyze.generate import generate_match
        from nardy_analyze.notation import ngn
        variant, _, games = a.generated.partition(":")
        folder = Path(tempfile.mkdtemp(prefix="nardy-bench-gen-"))
        for k in range(20):
            m = generate_match(variant, max(1, int(games) // 20), seed=k + 1)
            (folder / f"{variant}-{k + 1:02d}.ngn").write_text(ngn.write(m), encoding="utf-8")
        a.gnubg = ""
        convert_to = "json"
    files = corpus_files(folder)
    if not files:
        print(f"bench: no .mat (or .txt) files in {folder}", file=sys.stderr)
        return 2
    targets = [str(f) for f in files]
    gnubg = (shutil.which(a.gnubg) or (a.gnubg if Path(a.gnubg).exists() else None)) if a.gnubg else None
    size = sum(f.stat().st_size for f in files)

    tmp = Path(tempfile.mkdtemp(prefix="nardy-bench-"))
    cmds = tmp / "cmds.txt"
    cmds.write_text(_gnubg_commands(files, tmp))

    cpu: dict[str, list[float]] = {}

    def child_cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    def run_gnubg() -> float:
        t0 = time.perf_counter()
        subprocess.run([gnubg, "-t", "-q", "-c", str(cmds)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, check=False)
        return time.perf_counter() - t0

    def run_lib(jobs: int):
        def go() -> float:
            t0 = time.perf_counter()
            validate_paths(targets, jobs=jobs)
            return time.perf_counter() - t0
        return go

    def cli_env(where: Path | None, pure: bool) -> dict[str, str]:
        """The environment of a command line run: this checkout (or ``where``) first on the path; None: the
        interpreter's own installation (``--python``)."""
        env = {**os.environ, "NARDY_ANALYZE_PURE": "1" if pure else ""}
        if where is not None:
            env["PYTHONPATH"] = str(where)
        else:
            env.pop("PYTHONPATH", None)
        return env

    def run_cli(jobs: int, where: Path | None = ROOT, pure: bool = False, python: str = sys.executable):
        def go() -> float:
            t0 = time.perf_counter()
            subprocess.run([python, "-m", "nardy_analyze", "validate", "-j", str(jobs), "--statistics",
                            *targets], cwd=where or tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=False, env=cli_env(where, pure))
            return time.perf_counter() - t0
        return go

    runs = {}
    if gnubg:
        runs["gnubg import mat + save match (1 process)"] = run_gnubg
    else:
        if not a.generated:
            print(f"bench: {a.gnubg} not found: GNU Backgammon is left out", file=sys.stderr)
    runs["nardy-analyze validate, library, -j 2"] = run_lib(2)
    runs["nardy-analyze validate, library, -j 1"] = run_lib(1)
    runs["nardy-analyze validate, CLI, -j 2"] = run_cli(2)
    runs["nardy-analyze validate, CLI, -j 1"] = run_cli(1)

    runs_made = itertools.count()

    def run_convert(jobs: int | None, where: Path | None = ROOT, pure: bool = False, python: str = sys.executable):
        def go() -> float:
            # a new folder each run, none removed until the end: no deletion of a run's outputs (which a disk
            # mounted with online discard pays in the runs after it) falls in the time of another run
            out = tmp / f"out-{next(runs_made)}"
            t0 = time.perf_counter()
            j = ["-j", str(jobs)] if jobs else []        # (an earlier checkout may have no -j: None)
            subprocess.run([python, "-m", "nardy_analyze", "convert", "--to", convert_to, "--force", *j,
                            "--out-dir", str(out), *targets], cwd=where or tmp, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False, env=cli_env(where, pure))
            return time.perf_counter() - t0
        return go

    if a.convert:
        runs[f"nardy-analyze convert --to {convert_to}, CLI, -j 2"] = run_convert(2)
        runs[f"nardy-analyze convert --to {convert_to}, CLI, -j 1"] = run_convert(1)
    if a.pure:
        runs["pure-Python core: validate, CLI, -j 2"] = run_cli(2, pure=True)
        runs["pure-Python core: validate, CLI, -j 1"] = run_cli(1, pure=True)
        if a.convert:
            runs["pure-Python core: convert --to sgf, -j 2"] = run_convert(2, pure=True)
            runs["pure-Python core: convert --to sgf, -j 1"] = run_convert(1, pure=True)
    for other in a.compare_with:
        runs[f"{Path(other).name}: CLI, -j 2"] = run_cli(2, Path(other).resolve())
        runs[f"{Path(other).name}: CLI, -j 1"] = run_cli(1, Path(other).resolve())
        if a.convert:
            runs[f"{Path(other).name}: convert --to {convert_to}, CLI"] = run_convert(None, Path(other).resolve())
    pythons = [str(Path(p).absolute()) for p in a.python]
    for k, python in enumerate(pythons, 1):
        label = f"--python {k}" if len(pythons) > 1 else "--python"
        runs[f"{label}: validate, CLI, -j 2"] = run_cli(2, None, python=python)
        runs[f"{label}: validate, CLI, -j 1"] = run_cli(1, None, python=python)
        if a.convert:
            runs[f"{label}: convert --to {convert_to}, CLI, -j 2"] = run_convert(2, None, python=python)
            runs[f"{label}: convert --to {convert_to}, CLI, -j 1"] = run_convert(1, None, python=python)
    starts: dict[str, list[float]] = {p: [] for p in [sys.executable] + pythons}

    def start_up(python: str) -> float:
        t0 = time.perf_counter()
        subprocess.run([python, "-c", "pass"], cwd=tmp, env=cli_env(None, False), check=False)
        return time.perf_counter() - t0

    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(a.repeat):
        for name, fn in runs.items():
            c0 = child_cpu()
            times[name].append(fn())
            cpu.setdefault(name, []).append(child_cpu() - c0)
        for python in starts:
            starts[python] += [start_up(python) for _ in range(5)]
    shutil.rmtree(tmp, ignore_errors=True)

    s = validate_paths(targets, jobs=1).summary()
    if a.generated:
        shutil.rmtree(folder, ignore_errors=True)
        folder = Path(f"generated: {a.generated}")
    print(f"{folder}: {len(files)} files, {s['games']} games, {size / 1e6:.1f} MB; "
          f"median of {a.repeat}")
    print("ratio = throughput / GNU Backgammon's (wall clock); CPU: user+sys seconds of the processes "
          "started (not measurable for the library rows)")
    from nardy_analyze.engine import compiled
    print("core (rows without a prefix): " + ("compiled" if compiled.CoreRules is not None else "pure Python"))
    print(f"outputs written under {tmp.parent} ({_file_system(tmp.parent)})")
    for k, (python, ts) in enumerate(starts.items()):
        which = "this interpreter" if k == 0 else (f"--python {k}" if len(starts) > 2 else "--python")
        print(f"start-up of an empty interpreter ({which}, {python} -c pass): {statistics.median(ts) * 1000:.0f} ms")
    first = next(iter(runs))
    base = statistics.median(times[first]) if gnubg else None
    base_cpu = statistics.median(cpu[first]) if gnubg else None
    for name, ts in times.items():
        med = statistics.median(ts)
        ratio = f"  ratio {base / med:5.2f}" if base else ""
        c = statistics.median(cpu[name])
        cpu_txt = (f"  CPU {c:6.2f} s" + (f" (CPU ratio {base_cpu / c:5.2f})" if base_cpu and c > 0.01 else "")
                   if c > 0.01 else "")
        print(f"{name:<45} {med:7.2f} s  {s['games'] / med:8.0f} games/s{ratio}{cpu_txt}"
              f"   (runs: {', '.join(f'{t:.2f}' for t in ts)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
