#!/usr/bin/env python3
"""The compiled core's functions against their Python twins: microseconds per call, per variant.

    python3 bench/bench_core.py [--positions N] [--repeat R] [VARIANT ...]
    (default: 300 positions of a random game of each of backgammon, long, gulbara; best of 3)

For each variant, the positions of one random game (the Python generator's plays, a fixed seed), and per
position: ``generate`` (the compiled core) against ``generate_py`` (the Python reference), the count of the
plays (``forced``) against ``walk_forced``, and the exact play of the first legal play against
``exact_steps``; the rules' ``forced`` (backgammon: its short cuts first) with and without the core; and the
rules' ``closed_flags`` (the mover's side) with and without the core (without: the variant's own
``bytes.translate`` where it has one, else ``closed`` asked point by point).
CPU time of this process (``time.process_time``), the best of ``--repeat`` rounds: on a
shared machine the wall clock says little.  Needs the core built (``python3 setup.py build_ext --inplace``).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nardy_analyze.engine import compiled, get_variant  # noqa: E402
from nardy_analyze.engine.core import Dice, exact_steps, generate, generate_py, walk_forced  # noqa: E402


def positions(rules, n: int, seed: int):
    rng = random.Random(seed)
    me, opp = rules.initial()
    first = [True, True]
    side = 0
    out = []
    for _ in range(n):
        d1, d2 = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)
        turn = rules.start_turn(me, opp, first[side], (d1, d2))
        numbers = Dice.roll(d1, d2).numbers
        plays = generate_py(rules, me, opp, numbers, turn).plays
        path = next(iter(plays.values()))
        out.append((me, opp, numbers, turn, [(s, d) for s, d, _ in path]))
        me, opp = sorted(plays)[rng.randrange(len(plays))]
        first[side] = False
        if not sum(me):
            me, opp = rules.initial()
            first = [True, True]
        me, opp = opp, me
        side = 1 - side
    return out


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variants", nargs="*", default=["backgammon", "long", "gulbara"])
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if compiled.CoreRules is None:
        print("bench: the compiled core is not in use (not built, or NARDY_ANALYZE_PURE is set)", file=sys.stderr)
        return 2
    print(f"{'variant':<11} {'function':<12} {'core us':>8} {'Python us':>10} {'ratio':>6}")
    for name in a.variants:
        rules = get_variant(name).rules
        core = rules.core
        pos = positions(rules, a.positions, a.seed)
        n = len(pos)
        pairs = {
            "generate": (lambda: [generate(rules, m, o, num, t) for m, o, num, t, _ in pos],
                         lambda: [generate_py(rules, m, o, num, t) for m, o, num, t, _ in pos]),
            "forced": (lambda: [core.count_plays(m, o, num, t) <= 1 for m, o, num, t, _ in pos],
                       lambda: [walk_forced(rules, m, o, num, t) for m, o, num, t, _ in pos]),
            "play_exact": (lambda: [core.play_exact(m, o, num, st, t, True) for m, o, num, t, st in pos],
                           lambda: [exact_steps(rules, m, o, num, st, t, True) for m, o, num, t, st in pos]),
        }
        pure = type(rules).__new__(type(rules))          # the same rules without their core
        pure.__dict__.update({k: v for k, v in rules.__dict__.items() if k != "core"})
        pure.core = None
        pairs["rules.forced"] = (lambda: [rules.forced(m, o, num, t) for m, o, num, t, _ in pos],
                                 lambda: [pure.forced(m, o, num, t) for m, o, num, t, _ in pos])
        flags, pure_flags = rules.closed_flags(), pure.closed_flags()    # the pure one: the variant's override
        pairs["closed_flags"] = (lambda: [flags(m) for m, _, _, _, _ in pos],
                                 lambda: [pure_flags(m) for m, _, _, _, _ in pos])
        for fname, (fast, slow) in pairs.items():
            f, s = best(fast, a.repeat) / n * 1e6, best(slow, a.repeat) / n * 1e6
            print(f"{name:<11} {fname:<12} {f:8.1f} {s:10.1f} {s / f:6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
