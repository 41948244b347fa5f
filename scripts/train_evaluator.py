#!/usr/bin/env python3
"""Train the long-game evaluator by self-play: ``--variant long|gulbara --games N --seed S [--resume CKPT]``.

TD(lambda) as TD-Gammon, with the lambda-returns of each finished game computed backwards from its result
and the game's positions taken as one batch (cross-entropy on the five sigmoid outputs, Adam); or, with
``--targets expect``, TD(0) with the expectation over the dice: each position's target is the average over
the 21 rolls of the position after the whole turn (Gul bara's chains and handovers included) as the net
plays it, the net's evaluation there or the result where the turn ends the game (about 21 times the work
of a position, less noise: the game's own roll is one of 21).  Both sides
play the net at 0-ply (the play whose position the net likes best), which is the policy being learnt.

Deterministic for a seed: the starting weights come from ``--seed``, the dice of game ``g`` from
``random.Random("SEED:g")``, and numpy runs on one thread; so training N games at once or in chunks
(``--resume`` the last checkpoint) gives the same weights.  Every ``--every`` games a checkpoint
(``ckpt.npz``: exact weights and the optimiser's state, to resume from; ``net-GAMES.npz``: the weights in
float32, for benches against earlier nets) and one line of ``log.jsonl``: the games, the time, and the
strength against the greedy one-ply heuristic over ``--bench-games`` games with alternating sides.
``--init NET`` starts from the weights of a net file (a ``net-GAMES.npz`` or a checkpoint; float32 weights are
widened to float64 exactly) with a fresh optimiser at ``--lr``, counting its games on from the net's (game
``g``'s dice stay ``random.Random("SEED:g")``): a fine-tuning run at another rate, written to its own ``--out``
folder and resumed from there with ``--resume`` as any run.  On ``--resume``, ``--lr``, ``--lam`` and
``--targets`` default to the checkpoint's (else 0.002, 0.7 and lambda).
``--ship`` writes the last net into the package (nardy_analyze/evaluator/weights/VARIANT.npz), named with
the command and the games that made it (a fine-tuned net: its starting net's command, then its own); with
``--init NET`` and ``--games`` no more than the net's, the net as it is.
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import shlex  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nardy_analyze.engine import CHECKERS, borne_off, get_variant  # noqa: E402
from nardy_analyze.evaluator.net import Net, features, flip  # noqa: E402
from nardy_analyze.evaluator.play import heuristic_chooser, in_step, net_chooser, play_game, roll_steps  # noqa: E402

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]          # 21 rolls, high die first
ROLL_WEIGHT = np.array([1.0 if a == b else 2.0 for a, b in ROLLS]) / 36.0
from nardy_analyze.evaluator.match import play_series  # noqa: E402


def targets(result, kept, pred: np.ndarray, lam: float) -> np.ndarray:
    """The lambda-returns of a finished game's positions (each from its own mover's view)."""
    w, level = result.winner, result.level
    T = len(kept)
    out = np.empty((T, 5))
    g = None
    for t in range(T - 1, -1, -1):
        mover = kept[t][0]
        if mover == w:
            z = np.array([1.0, level >= 2, level >= 3, 0, 0], dtype=float)
        else:
            z = np.array([0, 0, 0, level >= 2, level >= 3], dtype=float)
        if t == T - 1:
            g = z
        else:
            nxt_mover = kept[t + 1][0]
            v_next = pred[t + 1]
            gn = g
            if nxt_mover != mover:
                v_next = flip(v_next[None])[0]
                gn = flip(g[None])[0]
            g = (1 - lam) * v_next + lam * gn
        out[t] = g
    return out


def _turn(rules, me, opp, d1: int, d2: int, first_me: bool, first_opp: bool, roll_number: int):
    """One whole turn of the roll ``d1-d2`` from the roller's position (``me``, ``opp``), every part with more
    than one legal play chosen by the caller (a generator: yields a ``Choice``, takes the index played;
    Gul bara's chains and handovers included); returns (roller's side, opponent's side) after it."""
    steps = roll_steps(rules, rules.turn_segments(d1, d2, first_me, roll_number), 0, [me, opp], first_opp)
    try:
        _q, choice = next(steps)
        while True:
            _q, choice = steps.send((yield choice))
    except StopIteration as end:
        return end.value[0], end.value[1]


def expected_targets(net: Net, rules, result_rules, kept, chooser) -> np.ndarray:
    """TD(0) with the expectation over the dice: the target of each position at the start of a roll (its
    mover's view) is the average, with the rolls' weights, over the 21 rolls of the position after the
    whole turn (every part played as the net at 0-ply plays it): the net's evaluation with the opponent
    on roll, flipped, or the result itself when the turn ends the game."""
    gens, owner = [], []
    for t, (_pl, me, opp, first) in enumerate(kept):
        for r, (a, b) in enumerate(ROLLS):
            gens.append(_turn(rules, me, opp, a, b, first, t == 0, t + 1))
            owner.append((t, r))
    ends = in_step(gens, lambda pending: dict(zip(pending, chooser.batch(list(pending.values())))))
    rows, vals = [], np.empty((len(gens), 5))
    for i, (m, o) in enumerate(ends):
        if borne_off(m) == CHECKERS or borne_off(o) == CHECKERS:
            won = borne_off(m) == CHECKERS
            lvl = result_rules.win_level(m, o) if won else result_rules.win_level(o, m)
            z = [1.0, lvl >= 2, lvl >= 3, 0, 0]
            vals[i] = z if won else [0, 0, 0, z[1], z[2]]
        else:
            rows.append(i)
    if rows:
        first_opp = np.array([owner[i][0] == 0 for i in rows], dtype=np.float64)
        x = features(np.array([ends[i][1][:24] for i in rows]), np.array([ends[i][0][:24] for i in rows]), first_opp)
        vals[rows] = flip(net(x))
    return (vals.reshape(len(kept), len(ROLLS), 5) * ROLL_WEIGHT[None, :, None]).sum(axis=1)


class Adam:
    def __init__(self, params, lr: float, state=None):
        self.lr, self.b1, self.b2, self.eps = lr, 0.9, 0.999, 1e-8
        if state is None:
            self.m = [np.zeros_like(p) for p in params]
            self.v = [np.zeros_like(p) for p in params]
            self.t = 0
        else:
            self.m, self.v, self.t = state

    def step(self, params, grads):
        self.t += 1
        c1, c2 = 1 - self.b1 ** self.t, 1 - self.b2 ** self.t
        for p, g, m, v in zip(params, grads, self.m, self.v):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            p -= self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)


def train_step(net: Net, opt: Adam, x: np.ndarray, y: np.ndarray) -> float:
    h, p = net.forward(x)
    d = (p - y) / len(x)                         # cross-entropy through the sigmoid
    gw2 = h.T @ d
    gb2 = d.sum(axis=0)
    dh = (d @ net.w2.T) * (1 - h * h)
    gw1 = x.T @ dh
    gb1 = dh.sum(axis=0)
    opt.step(net.params(), [gw1, gb1, gw2, gb2])
    return float(np.mean((p - y) ** 2))


def save_ckpt(path: Path, net: Net, opt: Adam, games: int, args) -> None:
    arrays = {f"m{i}": m for i, m in enumerate(opt.m)} | {f"v{i}": v for i, v in enumerate(opt.v)}
    net.meta.update(games=str(games), adam_t=str(opt.t), variant=args.variant, seed=str(args.seed),
                    lam=str(args.lam), lr=str(args.lr), targets=args.targets, hidden=str(net.hidden))
    tmp = path.with_suffix(".tmp.npz")
    net.save(tmp, exact=True, **arrays)
    os.replace(tmp, path)


def load_ckpt(path: Path):
    net = Net.load(path)
    with np.load(path, allow_pickle=False) as z:
        m = [z[f"m{i}"] for i in range(4)]
        v = [z[f"v{i}"] for i in range(4)]
    return net, (m, v, int(net.meta["adam_t"])), int(net.meta["games"])


def recipe(meta: dict, variant: str, games: int, every: int, seed: int, lam: float) -> str:
    """The command that makes the net of ``meta`` at ``games`` games: one run, or for a fine-tuned net (``--init``)
    the command of its starting net, then its own."""
    cmd = f"scripts/train_evaluator.py --variant {variant} --games {games} --seed {meta.get('seed', seed)} "
    if meta.get("targets", "lambda") != "lambda":
        cmd += f"--targets {meta['targets']} "
    if "init" in meta:
        return (f"{meta['base']} && {cmd}--init {meta['init']} --lam {meta.get('lam', lam)} --lr {meta.get('lr')} "
                f"--every {every} --out {meta['out']}")
    return (cmd + f"--hidden {meta.get('hidden', 80)} --lam {meta.get('lam', lam)} --lr {meta.get('lr', 2e-3)} "
            f"--every {every}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", choices=("long", "gulbara"), required=True)
    ap.add_argument("--games", type=int, required=True, help="train until this many games in all")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--resume", type=Path, help="a checkpoint (ckpt.npz) to continue from")
    ap.add_argument("--init", type=Path, help="start from this net's weights with a fresh optimiser (fine-tuning)")
    ap.add_argument("--out", type=Path, help="the folder of checkpoints and log (default training/VARIANT)")
    ap.add_argument("--every", type=int, default=1000, help="games between checkpoints")
    ap.add_argument("--hidden", type=int, default=80)
    ap.add_argument("--lam", type=float, help="TD(lambda)'s lambda (default: the checkpoint's on --resume, else 0.7)")
    ap.add_argument("--targets", choices=("lambda", "expect"),
                    help="lambda: TD(lambda) returns of the game played; expect: TD(0) with the expectation over "
                         "the 21 rolls (default: the checkpoint's on --resume, else lambda)")
    ap.add_argument("--lr", type=float, help="Adam's learning rate (default: the checkpoint's on --resume, else 0.002)")
    ap.add_argument("--bench-games", type=int, default=200, help="games against the heuristic per checkpoint")
    ap.add_argument("--ship", action="store_true", help="write the last net into the package")
    args = ap.parse_args(argv)
    out = args.out or ROOT / "training" / args.variant
    if args.lam is None and not args.resume:
        args.lam = 0.7
    try:
        out_name = str(out.resolve().relative_to(ROOT))
    except ValueError:
        out_name = str(out)
    out.mkdir(parents=True, exist_ok=True)
    rules = get_variant(args.variant).rules
    args.targets = args.targets if args.resume else (args.targets or "lambda")
    result_rules = get_variant(args.variant, {"koks": True}).rules
    if args.resume and args.init:
        ap.error("--resume and --init exclude each other")
    if args.resume:
        net, state, done = load_ckpt(args.resume)
        if args.lr is None:
            args.lr = float(net.meta.get("lr", 2e-3))
        if args.targets is None:
            args.targets = net.meta.get("targets", "lambda")
        if args.lam is None:
            args.lam = float(net.meta.get("lam", 0.7))
        opt = Adam(net.params(), args.lr, state)
    elif args.init:
        net = Net.load(args.init)
        net.w1, net.b1, net.w2, net.b2 = (np.asarray(a, dtype=np.float64) for a in net.params())
        done = int(net.meta.get("games", 0) or 0)
        if args.lr is None:
            args.lr = 2e-3
        opt = Adam(net.params(), args.lr)
        # the command that made the starting net, then this run's: what --ship names (no training:
        # the net as it is, e.g. to ship a net-GAMES.npz)
        if done < args.games:
            net.meta.update(base=recipe(net.meta, args.variant, done, args.every, args.seed, args.lam),
                            init=str(args.init), init_games=str(done), out=out_name)
    else:
        if args.lr is None:
            args.lr = 2e-3
        net = Net.new(args.hidden, np.random.default_rng(args.seed))
        opt = Adam(net.params(), args.lr)
        done = 0
        net.save(out / "net-0000000.npz")          # the untrained net: the first of the earlier nets
    cmd = "scripts/train_evaluator.py " + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    if done < args.games:
        net.meta["command"] = (net.meta.get("command", "") + " && " if net.meta.get("command") else "") + cmd
    chooser = net_chooser(net, koks=False)
    t0 = time.time()
    seg_games = seg_pos = 0
    loss_sum = 0.0
    while done < args.games:
        rng = random.Random(f"{args.seed}:{done}")
        res = play_game(rules, (chooser, chooser), rng, keep=True, result_rules=result_rules)
        done += 1
        if res.winner is not None and res.positions:
            kept = res.positions
            x = np.concatenate([features(np.array([m[:24]]), np.array([o[:24]]), ft) for _p, m, o, ft in kept])
            if args.targets == "expect":
                y = expected_targets(net, rules, result_rules, kept, chooser)
            else:
                y = targets(res, kept, net(x), args.lam)
            loss_sum += train_step(net, opt, x, y) * len(x)
            seg_pos += len(x)
        seg_games += 1
        if done % args.every == 0 or done == args.games:
            took = time.time() - t0
            save_ckpt(out / "ckpt.npz", net, opt, done, args)
            net.save(out / f"net-{done:07d}.npz")
            s = play_series(args.variant, (net_chooser(net), heuristic_chooser()), args.bench_games, seed=12345)
            line = dict(games=done, seconds=round(took, 1), games_per_s=round(seg_games / max(took, 1e-9), 2),
                        positions=seg_pos, mse=round(loss_sum / max(seg_pos, 1), 5),
                        vs_heuristic=dict(games=s.games, wins=s.wins, points=s.points,
                                          win_rate=round(s.wins / max(s.games, 1), 4),
                                          ci95=[round(v, 4) for v in s.wilson()]))
            with open(out / "log.jsonl", "a") as fh:
                fh.write(json.dumps(line) + "\n")
            print(json.dumps(line), flush=True)
            t0 = time.time()
            seg_games = seg_pos = 0
            loss_sum = 0.0
    if args.ship:
        ship = ROOT / "nardy_analyze" / "evaluator" / "weights" / f"{args.variant}.npz"
        ship.parent.mkdir(parents=True, exist_ok=True)
        net.meta.update(games=str(done), variant=args.variant, history=net.meta.get("command", ""),
                        command=recipe(net.meta, args.variant, done, args.every, args.seed, args.lam))
        for k in ("adam_t",):
            net.meta.pop(k, None)
        net.save(ship)
        print(f"shipped {ship} ({done} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
