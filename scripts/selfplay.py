#!/usr/bin/env python3
"""Make test fixtures: GNU Backgammon plays itself and exports the matches as Jellyfish .mat.

    python3 scripts/selfplay.py OUT_DIR [--count 10] [--seed 1]

Needs /usr/games/gnubg (Debian package ``gnubg``).  Each match uses 0-ply play (fast), its own
random seed and a match length from the list below; every fourth match is played without the cube.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
LENGTHS = (1, 3, 5, 7, 9, 11)


def script(out: str, seed: int, length: int, cube: bool) -> str:
    lines = []
    for p in (0, 1):
        lines += [f"set player {p} gnubg",
                  f"set player {p} chequerplay evaluation plies 0",
                  f"set player {p} cubedecision evaluation plies 0"]
    lines += [f"set cube use {'on' if cube else 'off'}", f"set seed {seed}",
              f"new match {length}", f"export match mat {out}", "quit"]
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if not shutil.which(GNUBG):
        print(f"selfplay: {GNUBG} not found (apt-get install -y gnubg)", file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    for i in range(a.count):
        seed = a.seed + i
        length = LENGTHS[i % len(LENGTHS)]
        cube = i % 4 != 3
        target = os.path.join(a.out, f"selfplay_{seed:04d}_{length}pt{'' if cube else '_nocube'}.mat")
        with tempfile.TemporaryDirectory() as tmp:
            tmp_out = os.path.join(tmp, "m.mat")
            subprocess.run([GNUBG, "-t", "-q", "-r"], input=script(tmp_out, seed, length, cube),
                           text=True, capture_output=True, timeout=600, check=False)
            if not os.path.exists(tmp_out):
                print(f"selfplay: gnubg wrote nothing for seed {seed}", file=sys.stderr)
                return 1
            shutil.move(tmp_out, target)
        print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
