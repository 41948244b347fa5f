#!/usr/bin/env python3
"""Peak memory and time of ``validate``, ``stats`` and ``convert`` of a folder of many files as the input grows.

    python3 bench/bench_memory.py [--sizes 10,100,1000] [--formats text,json] [--jobs 2]
                                  [--stats player:csv,match:csv,game:csv,game:parquet] [--convert sgf,json]
                                  [--analyze decision:csv,decision:parquet,player:csv]
                                  [--source ../shared/corpus/gnubg-selfplay] [--tmp /tmp]
                                  [--code CHECKOUT]
    python3 bench/bench_memory.py --generate long:1000,long:10000,long:100000 [--code CHECKOUT]

For each size (MB) a folder under ``--tmp`` is filled with hard links (copies where links cannot be
made) of the source folder's records, in sub-folders of 100 files, until it holds that many MB: 10 MB
is about 1,000 files, 1 GB about 100,000.  Then, for each format, the command line
``python3 -m nardy_analyze validate -j JOBS [--format F -o REPORT] FOLDER`` runs on it (text to a file
through standard output; json and sarif with ``-o``, the atomic output of the streamed document), and for
each ``--stats BY:FORMAT`` ``python3 -m nardy_analyze stats -j JOBS --by BY --format FORMAT -o TABLE FOLDER``
(``--formats ''`` or ``--stats ''`` leaves one command out), and for each ``--analyze BY:FORMAT``
``python3 -m nardy_analyze analyze -j JOBS --by BY --format FORMAT -o TABLE FOLDER`` (the skill analysis:
slow, a few hundred decisions a second; use sizes of 0.01 to 1 MB, 1 to 100 files of gnubg's self-play), and for
each ``--convert TO`` ``python3 -m nardy_analyze convert -j JOBS --to TO --out-dir OUT FOLDER`` (into a new folder,
removed after; "games" is then the number of files written).
``--generate VARIANT:GAMES,...`` measures ``generate -o FILE`` instead (its games are written as they are made).
``--code CHECKOUT`` runs another checkout's
code (e.g. an earlier commit unpacked with ``git archive``) instead of this one.
The resident memory of the whole process tree (the command and its worker processes) is sampled
every 0.05 s from /proc: "peak RSS" is the largest sum seen; "CPU" is the user and system time of the
command and its worker processes (steadier than the wall time on a shared machine); "HWM sum" adds each process's own
high-water mark (VmHWM, so a peak between two samples is not missed; an upper bound, as the
processes' peaks need not coincide), and in brackets the command's own process's (where what grows with
the input would be kept, the workers' memory being that of one file).  The folders and reports are
removed at the end, also when the run is interrupted (nothing is written in the repository).

Before filling, the free space and inodes of ``--tmp`` are checked: hard links cost one inode per
file and no data; copies (another file system) cost the size.  1 GB takes about an hour of two
cores: run it on an idle machine.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _status(pid: int) -> dict[str, int]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            out[line.split(":")[0]] = int(line.split()[1])
    return out


def _tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo.extend(int(k) for k in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue
    return pids


def _fill(folder: Path, source: list[Path], mb: float) -> tuple[int, int, bool]:
    want = mb * 1e6
    size = files = copy = 0
    linked = True
    while size < want:
        sub = folder / f"copy{copy:05d}"
        sub.mkdir(parents=True)
        for f in source:
            dst = sub / f.name
            try:
                os.link(f, dst)
            except OSError:
                shutil.copyfile(f, dst)
                linked = False
            size += f.stat().st_size
            files += 1
            if size >= want:
                break
        copy += 1
    return files, size, linked


def _check_room(base: Path, source: list[Path], mb: float) -> None:
    per_file = sum(p.stat().st_size for p in source) / len(source)
    files = int(mb * 1e6 / per_file) + len(source)
    st = os.statvfs(base)
    probe = base / "probe"
    try:
        os.link(source[0], probe)
        probe.unlink()
        need = 0                                  # hard links: no data
    except OSError:
        need = int(mb * 1e6 * 1.1)
    need += int(mb * 1e6 * 0.1)                   # the JSON / SARIF report and its spools
    if st.f_bavail * st.f_frsize < need or st.f_favail < files * 1.05 + 1000:
        raise SystemExit(f"bench: not enough room in {base} for {mb:g} MB ({files} files): "
                         f"{st.f_bavail * st.f_frsize / 1e9:.1f} GB and {st.f_favail} inodes free, "
                         f"{need / 1e9:.1f} GB and {files} inodes needed")


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)      # the command and its workers, once waited for
    return r.ru_utime + r.ru_stime


def _run(cmd: list[str], stdout_path: Path, code: Path = ROOT) -> tuple[float, int, int, int, float]:
    """(seconds, peak RSS of the tree KiB, sum of the processes' high-water marks KiB, exit code, CPU seconds
    of the command and its worker processes)."""
    hwm: dict[int, int] = {}
    peak = 0
    cpu = _cpu()
    t0 = time.perf_counter()
    with open(stdout_path, "w") as out:
        proc = subprocess.Popen(cmd, cwd=code, stdout=out, stderr=subprocess.DEVNULL,
                                env={**os.environ, "PYTHONPATH": str(code)})
        while proc.poll() is None:
            total = 0
            for p in _tree(proc.pid):
                try:
                    s = _status(p)
                except OSError:
                    continue
                total += s.get("VmRSS", 0)
                hwm[p] = max(hwm.get(p, 0), s.get("VmHWM", 0))
            peak = max(peak, total)
            time.sleep(0.05)
    MAIN_HWM[0] = hwm.get(proc.pid, 0)
    return time.perf_counter() - t0, peak, sum(hwm.values()), proc.returncode, _cpu() - cpu


MAIN_HWM = [0]          # the command's own process's high-water mark in the last _run (KiB)


def _table_rows(fmt: str, table: Path) -> int | None:
    """Rows of a stats table written with -o (csv: lines after the header; parquet: its metadata)."""
    if not table.exists():
        return None
    if fmt == "parquet":
        import pyarrow.parquet as pq
        return pq.ParquetFile(table).metadata.num_rows
    with open(table, encoding="utf-8") as fh:
        return sum(1 for _ in fh) - 1


def _summary(fmt: str, report: Path) -> dict[str, int]:
    if fmt == "json":
        return json.loads(report.read_text(encoding="utf-8"))["summary"]
    if fmt == "sarif":
        doc = json.loads(report.read_text(encoding="utf-8"))
        return {"results": len(doc["runs"][0]["results"])}
    with open(report, encoding="utf-8") as fh:
        line = next((ln for ln in fh if " game(s), " in ln and " file(s), " in ln), "")
    parts = line.split()
    return {"files": int(parts[0]), "games": int(parts[2])} if line else {}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10,100,1000", help="input sizes in MB, comma-separated")
    ap.add_argument("--formats", default="text", help="validate: report formats, comma-separated: text, json, "
                                                       "sarif ('' for none)")
    ap.add_argument("--stats", default="", help="stats: BY:FORMAT, comma-separated, e.g. player:csv,game:parquet")
    ap.add_argument("--analyze", default="", help="analyze: BY:FORMAT, comma-separated, e.g. decision:csv")
    ap.add_argument("--convert", default="", help="convert: target notations, comma-separated, e.g. sgf,json")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--source", default=str(ROOT.parent / "shared" / "corpus" / "gnubg-selfplay"))
    ap.add_argument("--tmp", default=tempfile.gettempdir(), help="where the folders are made")
    ap.add_argument("--code", default=str(ROOT), help="the checkout whose code runs (default: this one)")
    ap.add_argument("--generate", default="", metavar="VARIANT:GAMES,...",
                    help="instead: 'generate --variant VARIANT -n GAMES -o FILE' for each, e.g. long:1000,long:10000 "
                         "(peak memory as the number of games grows)")
    a = ap.parse_args()
    code = Path(a.code).resolve()
    if a.generate:
        return _generate(a.generate, code, Path(a.tmp))
    source = sorted(p for p in Path(a.source).rglob("*.mat") if p.is_file())
    if not source:
        print(f"bench: no .mat files in {a.source}", file=sys.stderr)
        return 2
    cases = [("validate", f) for f in a.formats.split(",") if f] + \
        [("stats", c) for c in a.stats.split(",") if c] + [("analyze", c) for c in a.analyze.split(",") if c] + \
        [("convert", c) for c in a.convert.split(",") if c]
    base = Path(tempfile.mkdtemp(prefix="nardy-mem-", dir=a.tmp))
    print("| input | files | games (stats: rows) | command | time | CPU | MB/s | peak RSS, all processes | HWM sum "
          "(main process) "
          "| exit |")
    print("|---|---|---|---|---|---|---|---|---|---|", flush=True)
    try:
        for mb in (float(x) for x in a.sizes.split(",")):
            _check_room(base, source, mb)
            folder = base / f"{mb:g}MB"
            files, size, linked = _fill(folder, source, mb)
            for command, fmt in cases:
                cmd = [sys.executable, "-m", "nardy_analyze", command, "-j", str(a.jobs)]
                if command in ("stats", "analyze"):
                    by, _, fmt = fmt.partition(":")
                    fmt = fmt or "csv"
                    report = base / f"table.{fmt}"
                    dt, peak, hwm, code_, cpu = _run(cmd + ["--by", by, "--format", fmt, "-o", str(report), str(folder)],
                                                base / "stdout", code)
                    rows = _table_rows(fmt, report)
                    games = f"{rows:,} rows" if rows is not None else "-"
                    what = f"{command} --by {by} -f {fmt}"
                elif command == "convert":
                    out = base / "converted"
                    report = base / "stdout"
                    dt, peak, hwm, code_, cpu = _run(cmd + ["--to", fmt, "--out-dir", str(out), str(folder)],
                                                report, code)
                    games = f"{sum(1 for p in out.rglob('*') if p.is_file()):,} files" if out.exists() else "-"
                    what = f"convert --to {fmt}"
                    shutil.rmtree(out, ignore_errors=True)
                else:
                    report = base / f"report.{fmt}"
                    if fmt == "text":
                        dt, peak, hwm, code_, cpu = _run(cmd + [str(folder)], report, code)
                    else:
                        dt, peak, hwm, code_, cpu = _run(cmd + ["--format", fmt, "-o", str(report), str(folder)],
                                                    base / "stdout", code)
                    s = _summary(fmt, report) if report.exists() else {}
                    games = f"{s['games']:,}" if "games" in s else "-"
                    what = f"validate -f {fmt}"
                shown = f"{size / 1e6:.{1 if size >= 1e6 else 2}f} MB"
                print(f"| {shown}{'' if linked else ' (copies)'} | {files:,} | {games} | {what} | "
                      f"{dt:.1f} s | {cpu:.1f} s | {size / 1e6 / dt:.2f} | {peak / 1024:.0f} MiB | "
                      f"{hwm / 1024:.0f} MiB ({MAIN_HWM[0] / 1024:.0f} MiB) | "
                      f"{code_} |", flush=True)
                report.unlink(missing_ok=True)
            shutil.rmtree(folder, ignore_errors=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


def _generate(spec: str, code: Path, tmp: Path) -> int:
    """``generate`` of growing numbers of games: time, CPU, peak memory, the file's size."""
    base = Path(tempfile.mkdtemp(prefix="nardy-mem-", dir=tmp))
    print("| command | games | time | CPU | file | peak RSS | HWM | exit |")
    print("|---|---|---|---|---|---|---|---|", flush=True)
    try:
        for item in spec.split(","):
            variant, _, games = item.partition(":")
            out = base / "games.ngn"
            dt, peak, hwm, code_, cpu = _run([sys.executable, "-m", "nardy_analyze", "generate", "--variant",
                                             variant, "-n", games, "--seed", "7", "-o", str(out)],
                                            base / "stdout", code)
            size = out.stat().st_size if out.exists() else 0
            print(f"| generate --variant {variant} | {int(games):,} | {dt:.1f} s | {cpu:.1f} s | "
                  f"{size / 1e6:.1f} MB | {peak / 1024:.0f} MiB | {hwm / 1024:.0f} MiB | {code_} |", flush=True)
            out.unlink(missing_ok=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
