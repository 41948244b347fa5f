#!/usr/bin/env python3
"""Time the own notation's writer and reader on generated games: games and kilobytes per second.

    python3 bench/bench_ngn.py [--games N] [--seed S] [VARIANT ...]
    (default: 100 games of each of backgammon, long, gulbara)

One process; wall time and CPU time (the machine may be shared).  The games are generated first
(not timed), then written to .ngn text and read back; the round trip is checked.  The reading is timed
twice: by the reader (its line reader, Lark for the lines it does not take) and by Lark alone (the whole
text parsed by the grammar first, as the reader did before its line reader), with the same record.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nardy_analyze.generate import generate_match  # noqa: E402
from nardy_analyze.notation import ngn, normalise_text  # noqa: E402
from nardy_analyze.record import same_record  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variants", nargs="*", default=["backgammon", "long", "gulbara"])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    warm = "Game 1\n1. 31: 8/5 6/5 {x}\n"          # the parser and the line reader built before any timing
    ngn.read(warm, "")
    ngn._Reader(warm, "", tokenize=False).run()
    for v in a.variants:
        match = generate_match(v, a.games, a.seed)
        w0, c0 = time.perf_counter(), time.process_time()
        text = ngn.write(match)
        w1, c1 = time.perf_counter(), time.process_time()
        back = ngn.read(text, "bench.ngn")
        w2, c2 = time.perf_counter(), time.process_time()
        lark = ngn._Reader(normalise_text(text), "bench.ngn", tokenize=False).run()
        w3, c3 = time.perf_counter(), time.process_time()
        assert same_record(match, back) and not back.problems and lark == back
        kb = len(text.encode()) / 1024
        print(f"{v:<11} {a.games} games, {kb:.0f} KiB: write {a.games / (w1 - w0):8.0f} games/s "
              f"({kb / (w1 - w0):6.0f} KiB/s, cpu {c1 - c0:.2f} s); read {a.games / (w2 - w1):6.0f} games/s "
              f"({kb / (w2 - w1):5.0f} KiB/s, cpu {c2 - c1:.2f} s); Lark alone {a.games / (w3 - w2):6.0f} games/s "
              f"(cpu {c3 - c2:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
