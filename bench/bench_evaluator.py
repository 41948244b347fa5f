#!/usr/bin/env python3
"""The strength of a shipped long-game net: win rates with 95 % Wilson intervals and calibration.

    python3 bench/bench_evaluator.py --variant long [--net FILE] [--games 2000] [--seed 1]
        [--previous 3 | --vs net-0006000,net-0008000] [--calibration-games 200]
        [--only random,heuristic,previous,zero,calibration] [--lookahead all|N|off]

Opponents, each over ``--games`` games, sides alternated (games 2k and 2k + 1 share their dice, the players
swapped) and dice seeded: (a) random legal play, (b) the greedy one-ply heuristic
(nardy_analyze.evaluator.play.heuristic_score: pips, borne off, home, points held, the longest block and the
checkers behind it, the head; no lookahead), (c) up to ``--previous`` earlier checkpoints
(training/VARIANT/net-*.npz, evenly spread; ``--vs``: those named), (d) ``zero``: the same net at 0-ply.
The net plays as ``hint`` ranks (``--lookahead all``): a part of a roll that more parts follow (a Gul bara
chain, a handover) is judged by the position at the end of the roll, the rest played out by the net at 0-ply;
every other part (each long nardy roll) is judged at 0-ply.  Unfinished games (a mutual lock
past 1,200 rolls) are left out and counted.

Calibration: ``--calibration-games`` games of the net against itself; at the start of every roll the net's
win chance for the player on roll, in ten bins, against the share of those positions whose player won.
``baseline``: the heuristic's own score against random play.  The output is Markdown (docs/evaluator.md
quotes it); the time per hint (one roll's plays ranked) and per
game is printed too.
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nardy_analyze.engine import get_variant  # noqa: E402
from nardy_analyze.evaluator.analysis import hint, weights_path  # noqa: E402
from nardy_analyze.evaluator.match import play_series, wilson  # noqa: E402
from nardy_analyze.evaluator.net import Net, consistent, features  # noqa: E402
from nardy_analyze.evaluator.play import (heuristic_chooser, lookahead_chooser, net_chooser, play_game,  # noqa: E402
                                          random_chooser)
from nardy_analyze.evaluator.posid import NardyPosition  # noqa: E402


def row(name: str, s, took: float) -> str:
    lo, hi = s.wilson()
    rate = s.wins / max(s.games, 1)
    return (f"| {name} | {s.games} | {s.wins} | {rate:.1%} | {lo:.1%} – {hi:.1%} | "
            f"{s.points / max(s.games, 1):+.3f} | {s.unfinished} | {took:.0f} s |")


def _player(lookahead: str):
    """The chooser of a net with ``--lookahead``."""
    if lookahead == "off":
        return net_chooser
    width = None if lookahead == "all" else int(lookahead)
    return lambda net: lookahead_chooser(net, width=width)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", choices=("long", "gulbara"), default="long")
    ap.add_argument("--net", type=Path, help="the net to measure (default: the shipped one)")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--previous", type=int, default=3)
    ap.add_argument("--vs", help="the earlier checkpoints to play, by name (net-0006000,...), instead of --previous")
    ap.add_argument("--calibration-games", type=int, default=200)
    ap.add_argument("--only", default="baseline,random,heuristic,previous,zero,calibration,analyze")
    ap.add_argument("--lookahead", default="all",
                    help="how the net plays a part of a roll that more parts follow (a Gul bara chain, a handover): "
                         "'all' (default, as hint ranks: every play played out to the end of the roll), N (the N "
                         "best at 0-ply played out), 'off' (0-ply: judged as if the roll ended with the part)")
    args = ap.parse_args()
    only = set(args.only.split(","))
    rules = get_variant(args.variant).rules
    path = args.net or weights_path(rules)
    net = Net.load(path)
    print(f"net: {path.name}, {net.meta.get('games', '?')} training games; command: "
          f"`{net.meta.get('command', '?')}`\n")
    player = _player(args.lookahead)
    print(f"the net plays with lookahead {args.lookahead} (the earlier nets too)\n")
    me = player(net)
    print("| opponent | games | net wins | win rate | 95 % interval | points per game | unfinished | time |")
    print("|---|---:|---:|---:|---|---:|---:|---:|")
    if "baseline" in only:
        t = time.time()
        s = play_series(args.variant, (heuristic_chooser(), random_chooser(random.Random(args.seed))), args.games,
                        args.seed)
        print(row("(the heuristic itself against random legal play)", s, time.time() - t), flush=True)
    if "random" in only:
        t = time.time()
        s = play_series(args.variant, (me, random_chooser(random.Random(args.seed))), args.games, args.seed)
        print(row("random legal play", s, time.time() - t), flush=True)
    if "heuristic" in only:
        t = time.time()
        s = play_series(args.variant, (me, heuristic_chooser()), args.games, args.seed)
        print(row("greedy one-ply heuristic", s, time.time() - t), flush=True)
    if "previous" in only:
        folder = ROOT / "training" / args.variant
        nets = sorted(p for p in folder.glob("net-*.npz"))
        games = int(net.meta.get("games", 0) or 0)
        earlier = [p for p in nets if int(p.stem.split("-")[1]) < games]
        if args.vs:
            pick = [folder / f"{name.strip()}.npz" for name in args.vs.split(",") if name.strip()]
        elif earlier and args.previous:
            pick = [earlier[round(i * (len(earlier) - 1) / max(args.previous - 1, 1))]
                    for i in range(min(args.previous, len(earlier)))]
        else:
            pick = []
        if pick:
            for p in dict.fromkeys(pick):
                t = time.time()
                s = play_series(args.variant, (me, player(Net.load(p))), args.games, args.seed)
                print(row(f"checkpoint {p.stem}", s, time.time() - t), flush=True)
    if "zero" in only and args.lookahead != "off":
        t = time.time()
        s = play_series(args.variant, (me, net_chooser(net)), args.games, args.seed)
        print(row("the same net at 0-ply (no lookahead)", s, time.time() - t), flush=True)
    if "calibration" in only and args.calibration_games:
        t = time.time()
        preds, won = [], []
        for g in range(args.calibration_games):
            res = play_game(rules, (me, me), random.Random(f"cal:{args.seed}:{g}"), keep=True)
            if res.winner is None:
                continue
            x = np.concatenate([features(np.array([m[:24]]), np.array([o[:24]]), ft) for _p, m, o, ft in res.positions])
            p = consistent(net(x))[:, 0]
            preds.extend(p)
            won.extend(float(pl == res.winner) for pl, *_r in res.positions)
        preds, won = np.array(preds), np.array(won)
        print(f"\ncalibration: {args.calibration_games} self-play games, {len(preds)} positions "
              f"({time.time() - t:.0f} s)\n")
        print("| predicted win chance | positions | mean predicted | observed wins | 95 % interval |")
        print("|---|---:|---:|---:|---|")
        bins = np.minimum((preds * 10).astype(int), 9)
        for b in range(10):
            sel = bins == b
            n = int(sel.sum())
            if not n:
                continue
            lo, hi = wilson(float(won[sel].sum()), n)
            print(f"| {b / 10:.1f}–{(b + 1) / 10:.1f} | {n} | {preds[sel].mean():.3f} | {won[sel].mean():.3f} | "
                  f"{lo:.3f} – {hi:.3f} |")
    # time per hint: the plays of each of the 21 rolls from a middle-game position
    r = play_game(rules, (me, me), random.Random("hint-time"), keep=True)
    _pl, m, o, _ft = r.positions[len(r.positions) // 3]
    pos = NardyPosition(args.variant, m, o, 0, 10)
    t = time.perf_counter()
    n = 0
    for a in range(1, 7):
        for b in range(1, a + 1):
            hint(rules, pos, a, b, net)
            n += 1
    print(f"\ntime per hint (one roll's plays ranked, mean of 21 rolls): {(time.perf_counter() - t) / n * 1000:.1f} ms")
    if "analyze" in only:
        from nardy_analyze.generate import generate_match
        from nardy_analyze.stats.skill import analyse_match
        match = generate_match(args.variant, 1, args.seed)
        t = time.perf_counter()
        c0 = time.process_time()
        res = analyse_match(match, args.variant)
        print(f"time per analysed game (a generated game of {len(res.rows)} rolls, each with the 21 rolls for "
              f"luck): {time.perf_counter() - t:.1f} s ({time.process_time() - c0:.1f} s of CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
