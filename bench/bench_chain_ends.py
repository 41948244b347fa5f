#!/usr/bin/env python3
"""Gul bara: delete every chain or handover line of generated games, one at a time, and count where the
first finding falls and how many findings each deletion gives.

    python3 bench/bench_chain_ends.py [--games N] [--seed S]
    (default: games generated with the seeds 0..149, one game each, written as .ngn text)

For every chain/handover line of every game (the generator writes only parts with steps), the record
without that line is validated; the first finding must be at the line before it (where the turn then
stops) with rule ``doubles-chain`` or ``handover`` (tests/test_chain_ends.py checks a sample with
hypothesis).  Prints the deletions, how many were found at the right place, and how many gave exactly
one finding.  Exit code 1 when any deletion is not found at its place.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nardy_analyze.analyze import validate_match  # noqa: E402
from nardy_analyze.generate import generate_match  # noqa: E402
from nardy_analyze.notation import get, read_text  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=0, help="the first seed")
    a = ap.parse_args()
    total = placed = single = 0
    for seed in range(a.seed, a.seed + a.games):
        m = generate_match("gulbara", 1, seed, ("Aysel", "Rashad"))
        m.tags = {"White": "Aysel", "Black": "Rashad", **m.tags}
        lines = get("ngn").write(m).splitlines(keepends=True)
        for i, ln in enumerate(lines):
            if not ln.lstrip().startswith(("chain ", "handover ")):
                continue
            text = "".join(lines[:i] + lines[i + 1:])
            fs = sorted(validate_match(read_text(text, "x.ngn", "ngn")).findings, key=lambda f: (f.line, f.column))
            total += 1
            if fs and fs[0].line == i and fs[0].rule in ("doubles-chain", "handover"):
                placed += 1
            else:
                print(f"seed {seed}, line {i + 1}: " + (f"{fs[0].line} {fs[0].rule}" if fs else "no finding"))
            single += len(fs) == 1
    print(f"{total} deletions: first finding where the turn stops {placed}, exactly one finding {single}")
    return 0 if placed == total else 1


if __name__ == "__main__":
    sys.exit(main())
