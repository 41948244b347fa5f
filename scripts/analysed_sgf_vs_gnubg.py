#!/usr/bin/env python3
"""GNU Backgammon's ``show statistics match`` on our analysed SGF against ``analyze --by match`` (docs/analysis.md).

    python3 scripts/analysed_sgf_vs_gnubg.py [FOLDER_OR_FILE ...] [--every N] [--limit N] [--plies N] [--gnubg PATH]

Each record (``.mat`` / ``.txt`` files of the folders, sorted by path, every N-th; or the files named) is
converted with ``nardy-analyze convert --to sgf --analyse``; ONE ``gnubg -t -q`` process loads every SGF
file (``load match``) and prints ``show statistics match``, which gnubg computes from the analysis
properties we wrote.  Printed: per match and player, gnubg's figures and ours (``statsrun.analyse``), and the
largest differences over all of them: counts (moves, unforced moves, cube decisions, close or actual
cube decisions, doubles, takes, passes) must be equal, totals agree to gnubg's 3 decimals and rates to
its 1 decimal (the cube error rate of match play a little less: the cube equities go through gnubg's
match equity table and back).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# (gnubg's section, its row label, our column or a function of (summary row, decisions of the player),
#  gnubg's sign: errors are printed negative)
COUNTS = [
    ("checker", "Total moves", "checker_decisions"),
    ("checker", "Unforced moves", "unforced_checker"),
    ("cube", "Total cube decisions", lambda o, d: int((d["kind"] != "checker").sum())),
    ("cube", "Close or actual cube decisions", "cube_decisions"),
    ("cube", "Doubles", lambda o, d: int((d["play"] == "double").sum())),
    ("cube", "Takes", lambda o, d: int((d["play"] == "take").sum())),
    ("cube", "Passes", lambda o, d: int((d["play"] == "pass").sum())),
]
FIGURES = [
    ("checker", "Error total EMG (MWC)", "checker_error", -1),
    ("checker", "Error rate mEMG (MWC)", "checker_error_rate", -1),
    ("cube", "Error total EMG (MWC)", "cube_error", -1),
    ("cube", "Error rate mEMG (MWC)", "cube_error_rate", -1),
    ("overall", "Error total EMG (MWC)", "error", -1),
    ("overall", "Error rate mEMG (MWC)", "error_rate", -1),
    ("luck", "Luck total EMG (MWC)", "luck", 1),
    ("luck", "Luck rate mEMG (MWC)", "luck_rate", 1),
]


def records(paths: list[str], every: int, limit: int | None) -> list[str]:
    files: list[str] = []
    for p in paths:
        if os.path.isfile(p):
            files.append(os.path.abspath(p))
            continue
        from skill_vs_gnubg import records as folder_records     # leaves out the files gnubg crashes on

        files.extend(folder_records([p], every, None))
    return files[:limit] if limit else files


def convert(files: list[str], folder: str, plies: int = 0) -> list[str]:
    """Our analysed SGF of each file (``convert --to sgf --analyse``), in ``folder``."""
    out = []
    for i, f in enumerate(files):
        o = os.path.join(folder, f"m{i}.sgf")
        cmd = [sys.executable, "-m", "nardy_analyze", "convert", f, "--to", "sgf", "--analyse", "-o", o, "--force"]
        if plies:
            cmd += ["--plies", str(plies)]
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{f}: convert failed: {r.stderr}")
        out.append(o)
    return out


def gnubg_statistics(files: list[str], gnubg: str = "/usr/games/gnubg") -> list[dict[str, dict[str, list[float]]]]:
    """``show statistics match`` of each SGF file as GNU Backgammon loads it (one process): per file,
    {section (checker, luck, cube, overall): {row label: [W's number, B's number]}}."""
    commands = "".join(f'load match "{f}"\nshow statistics match\n' for f in files)
    out = subprocess.run([gnubg, "-t", "-q"], input=commands, capture_output=True, text=True, timeout=3600).stdout
    parts = out.split("Chequerplay statistics")[1:]
    if len(parts) != len(files):
        raise RuntimeError(f"gnubg printed {len(parts)} statistics for {len(files)} files:\n{out[-2000:]}")
    stats = []
    for part in parts:
        section, table = "checker", {}
        for line in part.splitlines():
            head = line.strip()
            if head in ("Luck statistics", "Cube statistics", "Overall statistics"):
                section = head.split()[0].lower()
                continue
            m = re.match(r"(\S.*?)\s{2,}(\S.*)$", line)
            if not m:
                continue
            values = m.group(2)
            while True:                 # "-7.0 ( -0.117%)", "2 (-0.196 ( -3.196%))": a column's first number
                shorter = re.sub(r"\([^()]*\)", "", values)
                if shorter == values:
                    break
                values = shorter
            cells = values.split()
            try:
                nums = [float(x) for x in cells]       # (a rate over no decision: "nan")
            except ValueError:
                continue                               # a rating, a word
            if len(nums) == 2:
                table.setdefault(section, {})[m.group(1)] = nums
        stats.append(table)
    return stats


def compare(files: list[str], gnubg: str = "/usr/games/gnubg", plies: int = 0) -> dict:
    """Rows (file, player, {label: (gnubg's, ours)}) and the largest absolute difference of each figure."""
    from nardy_analyze import statsrun
    from nardy_analyze.stats import skill

    with tempfile.TemporaryDirectory() as tmp:
        theirs = gnubg_statistics(convert(files, tmp, plies), gnubg)
    rows, worst, missing = [], {}, []
    for f, t in zip(files, theirs):
        run = statsrun.analyse([f], plies=plies)
        ours, d = run.summary("match"), run.decisions
        for side in (0, 1):                          # gnubg's columns: W (side 0), then B
            mine = d[d["side"] == side]
            if mine.empty:                               # a match whose one side made no decision
                missing.append(f"{f}: side {side} has no decision")
                continue
            name = str(mine["player"].iloc[0])
            o = ours[ours["player"] == name].iloc[0]
            row = {}
            for section, label, col in COUNTS:
                row[f"{label}"] = (t[section][label][side], col(o, mine) if callable(col) else int(o[col]))
            for section, label, col, sign in FIGURES:
                if col == "cube_error_rate" and not o["cube_decisions"]:
                    continue                             # a rate over no decision
                if label not in t.get(section, {}):
                    missing.append(f"{f} / {name}: gnubg printed no {section} {label!r}")
                    continue
                row[f"{section}: {label}"] = (sign * t[section][label][side], float(o[col]))
            for k, (a, b) in row.items():
                if a != a and b != b:                    # both NaN: a rate over no decision
                    continue
                worst[k] = max(worst.get(k, 0.0), abs(a - b))
            rows.append((f, name, row))
    return {"rows": rows, "worst": worst, "files": len(files), "players": len(rows), "missing": missing}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", default=[str(ROOT.parent / "shared" / "corpus" / "bglab")])
    ap.add_argument("--every", type=int, default=100)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--plies", type=int, default=0)
    ap.add_argument("--gnubg", default=os.environ.get("GNUBG", "/usr/games/gnubg"))
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "scripts"))
    files = records(args.paths, args.every, args.limit)
    res = compare(files, args.gnubg, args.plies)
    for f, name, row in res["rows"]:
        print(f"{os.path.basename(f)} / {name}: " + ", ".join(
            f"{k.split(': ')[-1] if ': ' not in k else k}={a:g}/{b:.4g}" for k, (a, b) in row.items()
            if "rate" in k))
    print(f"\n{res['files']} matches, {res['players']} match-players: largest |gnubg - ours|")
    for k, v in res["worst"].items():
        print(f"  {k:<45} {v:.4f}")
    for m in res["missing"]:
        print(m)


if __name__ == "__main__":
    main()
