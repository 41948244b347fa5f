"""Exact bear-off databases, computed by the project and cached in the user's cache folder.

* **One-sided** (:class:`OneSided`): every position of up to 15 checkers on the six home points (54,264),
  each with the distribution of the number of rolls it needs to bear off every checker, and, for positions
  of 15 checkers, the distribution of the rolls it needs to bear off its first checker (for gammons) -- as
  GNU Backgammon's one-sided database ``gnubg_os0.bd`` holds them.  Each distribution is that of the play
  which minimises the expected number of rolls (of all rolls to bear off; of rolls to the first checker
  off for the gammon distribution), as gnubg builds its database.  The win chance of the player on roll in
  a race of two such positions is then ``sum_i P(me = i) * P(opponent >= i)``; his gammon chance, when the
  opponent has borne off none, ``sum_i P(me = i) * P(opponent's first checker >= i)``.
* **Two-sided** (:class:`TwoSided`): the exact cubeless win chance of the player on roll for every pair of
  positions of up to 6 checkers a side (924 x 924), each side playing to maximise its win chance.

Build times and sizes (2-core machine, numpy): ``python3 scripts/build_bearoff.py`` builds both again and
prints them; docs/analysis.md gives the figures.  The files go to ``$XDG_CACHE_HOME/nardy-analyze`` (default
``~/.cache/nardy-analyze``; ``NARDY_ANALYZE_CACHE`` names another folder), written atomically; a missing or
unreadable cache is built again at first use.
"""
from __future__ import annotations

import os
import tempfile
from functools import lru_cache

import numpy as np

from ..fsio import cache_dir

POINTS = 6
MAX_ROLLS = 32                 # gnubg keeps 32 entries per distribution
VERSION = 2
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]     # 21 rolls, high die first
WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in ROLLS])


# ------------------------------------------------------------------------------------------ positions
def positions(max_checkers: int) -> np.ndarray:
    """Every position of at most ``max_checkers`` checkers on points 1..6 (rows: checkers on point 1..6),
    in a fixed order, the empty position first."""
    def spread(points: int, left: int):
        if points == 0:
            yield ()
            return
        for k in range(left + 1):
            for rest in spread(points - 1, left - k):
                yield (k,) + rest

    out = list(spread(POINTS, max_checkers))
    out.sort(key=lambda c: (sum(c), c[::-1]))
    return np.array(out, dtype=np.int8)


def single_die_moves(pos: tuple[int, ...], die: int) -> list[tuple[int, ...]]:
    """The positions after playing one die in a bear-off (no contact): a checker moves ``die`` points down,
    off from the point of the die, or off from the highest point when the die is larger than it."""
    out = []
    high = max((i + 1 for i in range(POINTS) if pos[i]), default=0)
    if not high:
        return out
    for p in range(1, POINTS + 1):
        if not pos[p - 1]:
            continue
        if p > die:
            q = list(pos)
            q[p - 1] -= 1
            q[p - 1 - die] += 1
            out.append(tuple(q))
        elif p == die or p == high:
            q = list(pos)
            q[p - 1] -= 1
            out.append(tuple(q))
    return out


def _successors(pos: np.ndarray, index: dict) -> np.ndarray:
    """[position, die-1, k] -> index of the position after one die (-1: none; the empty position has
    itself, so that dice left over once every checker is off change nothing)."""
    succ = -np.ones((len(pos), 6, POINTS), dtype=np.int64)
    for i, p in enumerate(map(tuple, pos)):
        for d in range(1, 7):
            nxt = single_die_moves(p, d) or ([p] if not any(p) else [])
            for k, q in enumerate(nxt):
                succ[i, d - 1, k] = index[q]
    return succ


def _policy(pos: np.ndarray, succ: np.ndarray, done: np.ndarray) -> np.ndarray:
    """For each position and roll, the position reached by the play that minimises the expected number of
    rolls until a position of ``done`` (True where nothing more is needed).  [position, roll] -> index."""
    n = len(pos)
    pips = pos.astype(np.int64) @ np.arange(1, POINTS + 1)
    exp = np.zeros(n)
    big = 1e9
    # best[k][i, d]: after playing die d k times from i, (expected rolls, final position)
    m_val = [np.full((n, 6), big) for _ in range(4)]
    m_arg = [np.zeros((n, 6), dtype=np.int64) for _ in range(4)]
    target = np.zeros((n, len(ROLLS)), dtype=np.int64)
    order = np.argsort(pips, kind="stable")
    bounds = np.searchsorted(pips[order], np.arange(pips.max() + 2))
    ext_v = [np.append(v, np.full((1, 6), big), axis=0) for v in m_val]    # (index -1 -> big)
    exp_ext = np.append(exp, big)
    for layer in range(pips.max() + 1):
        ids = order[bounds[layer]:bounds[layer + 1]]
        if not len(ids):
            continue
        s = succ[ids]                                   # [m, 6, K]
        # one die: the best child's expected rolls (children have fewer pips: already known)
        v = exp_ext[s]                                  # [m, 6, K]
        k = v.argmin(axis=2)
        child = np.take_along_axis(s, k[..., None], 2)[..., 0]
        m_val[0][ids] = np.take_along_axis(v, k[..., None], 2)[..., 0]
        m_arg[0][ids] = child
        # the same die two, three, four times (doubles)
        for level in range(1, 4):
            prev_v, prev_a = ext_v[level - 1], m_arg[level - 1]
            dies = np.arange(6)[None, :, None]
            v2 = prev_v[s, dies]                            # [m, 6, K]
            k2 = v2.argmin(axis=2)
            ch = np.take_along_axis(s, k2[..., None], 2)[..., 0]
            m_val[level][ids] = np.take_along_axis(v2, k2[..., None], 2)[..., 0]
            m_arg[level][ids] = prev_a[np.where(ch < 0, 0, ch), np.arange(6)[None, :]]
        for level in range(4):
            ext_v[level][ids] = m_val[level][ids]
        # every roll
        total = np.zeros(len(ids))
        for r, (a, b) in enumerate(ROLLS):
            if a == b:
                val, arg = m_val[3][ids, a - 1], m_arg[3][ids, a - 1]
            else:
                va = ext_v[0][succ[ids, a - 1], b - 1]          # a first, then b
                vb = ext_v[0][succ[ids, b - 1], a - 1]
                both = np.concatenate([va, vb], axis=1)
                kk = both.argmin(axis=1)
                kids = np.concatenate([succ[ids, a - 1], succ[ids, b - 1]], axis=1)
                dies = np.concatenate([np.full(POINTS, b - 1), np.full(POINTS, a - 1)])
                ch = kids[np.arange(len(ids)), kk]
                val = both[np.arange(len(ids)), kk]
                arg = m_arg[0][ch, dies[kk]]
            target[ids, r] = arg
            total += WEIGHTS[r] * val
        here = done[ids]
        exp[ids] = np.where(here, 0.0, 1.0 + total / 36.0)
        exp_ext[ids] = exp[ids]
        # a position that needs nothing more is its own best child (so that dice left over change nothing)
        for level in range(4):
            m_val[level][ids] = np.where(here[:, None], 0.0, m_val[level][ids])
            ext_v[level][ids] = m_val[level][ids]
            m_arg[level][ids] = np.where(here[:, None], ids[:, None], m_arg[level][ids])
        target[ids] = np.where(here[:, None], ids[:, None], target[ids])
    return target


def _distribution(pos: np.ndarray, target: np.ndarray, done: np.ndarray) -> np.ndarray:
    """[position, n] = P(n rolls are needed) under the policy ``target``."""
    n = len(pos)
    pips = pos.astype(np.int64) @ np.arange(1, POINTS + 1)
    dist = np.zeros((n, MAX_ROLLS))
    order = np.argsort(pips, kind="stable")
    bounds = np.searchsorted(pips[order], np.arange(pips.max() + 2))
    for layer in range(pips.max() + 1):
        ids = order[bounds[layer]:bounds[layer + 1]]
        if not len(ids):
            continue
        nxt = (dist[target[ids]] * WEIGHTS[None, :, None]).sum(axis=1) / 36.0     # [m, MAX_ROLLS]
        shifted = np.zeros_like(nxt)
        shifted[:, 1:] = nxt[:, :-1]
        shifted[:, -1] += nxt[:, -1]
        dist[ids] = np.where(done[ids][:, None], np.eye(1, MAX_ROLLS)[0][None, :], shifted)
    return dist


def build_one_sided(max_checkers: int = 15) -> dict[str, np.ndarray]:
    pos = positions(max_checkers)
    index = {tuple(p): i for i, p in enumerate(pos.tolist())}
    succ = _successors(pos, index)
    empty = pos.sum(axis=1) == 0
    off = _distribution(pos, _policy(pos, succ, empty), empty)
    started = pos.sum(axis=1) < max_checkers          # a checker is off: the first-checker count is 0
    gammon = _distribution(pos, _policy(pos, succ, started), started)
    return dict(positions=pos, off=off, gammon=gammon)


def reach(pos: np.ndarray, succ: np.ndarray) -> list[list[np.ndarray]]:
    """[position][roll] -> every position a legal play of the roll reaches (both dice played when possible:
    in a bear-off a die can always be played while a checker is left)."""
    out = []
    for i in range(len(pos)):
        per = []
        for a, b in ROLLS:
            if a == b:
                cur = {i}
                for _ in range(4):
                    cur = {int(q) for c in cur for q in succ[c, a - 1] if q >= 0}
            else:
                cur = set()
                for x, y in ((a, b), (b, a)):
                    for c in succ[i, x - 1]:
                        if c >= 0:
                            cur.update(int(q) for q in succ[c, y - 1] if q >= 0)
            per.append(np.array(sorted(cur), dtype=np.int64))
        out.append(per)
    return out


def build_two_sided(max_checkers: int = 6) -> dict[str, np.ndarray]:
    """P[a, b]: the exact cubeless chance that the player on roll with ``a`` wins against ``b``."""
    pos = positions(max_checkers)
    index = {tuple(p): i for i, p in enumerate(pos.tolist())}
    succ = _successors(pos, index)
    n = len(pos)
    pips = pos.astype(np.int64) @ np.arange(1, POINTS + 1)
    reached = reach(pos, succ)
    kmax = max(len(r) for per in reached for r in per)
    pad = np.full((n, len(ROLLS), kmax), n, dtype=np.int64)       # n: a dummy column worth -inf
    for i, per in enumerate(reached):
        for r, arr in enumerate(per):
            pad[i, r, :len(arr)] = arr
    p = np.zeros((n, n + 1))
    p[:, n] = np.inf                  # 1 - inf = -inf: never the best
    p[0, :n] = 1.0                    # on roll with nothing left: won already (not reached in play)
    a_idx, b_idx = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    tot = (pips[:, None] + pips[None, :]).ravel()
    a_idx, b_idx = a_idx.ravel(), b_idx.ravel()
    order = np.argsort(tot, kind="stable")
    bounds = np.searchsorted(tot[order], np.arange(tot.max() + 2))
    for layer in range(1, tot.max() + 1):
        sel = order[bounds[layer]:bounds[layer + 1]]
        a, b = a_idx[sel], b_idx[sel]
        live = (a != 0) & (b != 0)
        a, b = a[live], b[live]
        if not len(a):
            continue
        acc = np.zeros(len(a))
        for r in range(len(ROLLS)):
            kids = pad[a, r]                                   # [m, K]
            acc += WEIGHTS[r] * (1.0 - p[b[:, None], kids]).max(axis=1)
        p[a, b] = acc / 36.0
    p[1:, 0] = 0.0                    # the opponent is off: lost (not reached in play)
    return dict(positions=pos, win=p[:, :n].astype(np.float64))


# ------------------------------------------------------------------------------------------ cache
def _load_or_build(name: str, build, **kw) -> dict[str, np.ndarray]:
    folder = cache_dir()
    path = folder / f"{name}-v{VERSION}.npz"
    try:
        with np.load(path) as z:
            return {k: z[k] for k in z.files}
    except (OSError, ValueError, KeyError, EOFError):
        pass
    data = build(**kw)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".npz.tmp")
        with os.fdopen(fd, "wb") as fh:
            np.savez_compressed(fh, **data)
        os.replace(tmp, path)
    except OSError:
        pass                              # a read-only cache: built again next time
    return data


def _tail(dist: np.ndarray) -> np.ndarray:
    below = np.concatenate([np.zeros((len(dist), 1)), np.cumsum(dist, axis=1)[:, :-1]], axis=1)
    return np.clip(1.0 - below, 0.0, 1.0)


class OneSided:
    """The one-sided database (see the module's doc)."""

    def __init__(self, data: dict[str, np.ndarray]) -> None:
        self.positions = data["positions"]
        self.off = data["off"].astype(np.float64)
        self.gammon = data["gammon"].astype(np.float64)
        self.index = {tuple(p): i for i, p in enumerate(self.positions.tolist())}
        self.max_checkers = int(self.positions.sum(axis=1).max())
        # P(rolls >= i): the tail sums, for the race formula
        # (1 - the sum below i: a certainty stays exactly 1)
        self.off_tail = _tail(self.off)
        self.gammon_tail = _tail(self.gammon)

    def mean_rolls(self, home: tuple[int, ...]) -> float:
        return float(self.off[self.index[tuple(home)]] @ np.arange(MAX_ROLLS))

    def probabilities(self, me: tuple[int, ...], opp: tuple[int, ...], me_off_none: bool,
                      opp_off_none: bool) -> tuple[float, float, float, float, float]:
        """gnubg's five outputs of the race ``me`` (on roll) against ``opp``: win, gammon win, backgammon
        win, gammon loss, backgammon loss (the home boards as checker counts on points 1..6;
        ``*_off_none``: that side has borne off no checker, so it can lose a gammon)."""
        i, j = self.index[tuple(me)], self.index[tuple(opp)]
        win = min(1.0, float(self.off[i] @ self.off_tail[j]))
        gw = min(win, float(self.off[i] @ self.gammon_tail[j])) if opp_off_none else 0.0
        # the opponent bears off in j rolls (he rolls second: my first checker needs more than j rolls)
        gl = min(1.0 - win, float(self.off[j][:-1] @ self.gammon_tail[i][1:])) if me_off_none else 0.0
        return (win, gw, 0.0, gl, 0.0)


class TwoSided:
    def __init__(self, data: dict[str, np.ndarray]) -> None:
        self.positions = data["positions"]
        self.win = data["win"]
        self.index = {tuple(p): i for i, p in enumerate(self.positions.tolist())}
        self.max_checkers = int(self.positions.sum(axis=1).max())

    def win_chance(self, me: tuple[int, ...], opp: tuple[int, ...]) -> float | None:
        i, j = self.index.get(tuple(me)), self.index.get(tuple(opp))
        if i is None or j is None:
            return None
        return float(self.win[i, j])


@lru_cache(maxsize=None)
def one_sided() -> OneSided:
    return OneSided(_load_or_build("bearoff-os15", build_one_sided, max_checkers=15))


@lru_cache(maxsize=None)
def two_sided() -> TwoSided:
    return TwoSided(_load_or_build("bearoff-ts6", build_two_sided, max_checkers=6))


def home(side: tuple[int, ...]) -> tuple[int, ...] | None:
    """A side of the rules engine (points 1..24 in its owner's numbering, [24] the bar) as its home board
    (checkers on points 1..6), or None when a checker is outside it."""
    if any(side[6:]):
        return None
    return tuple(int(x) for x in side[:6])


def race_probabilities(me: tuple[int, ...], opp: tuple[int, ...], checkers: int = 15
                       ) -> tuple[float, float, float, float, float] | None:
    """The cubeless outputs of a bear-off, ``me`` on roll (home boards, points 1..6), exact when both sides
    have at most 6 checkers (two-sided database), else from the one-sided database; None when a side is
    not entirely home.  ``checkers``: the checkers each side started with (gammons)."""
    if sum(me) == 0:
        return (1.0, 0.0, 0.0, 0.0, 0.0)
    if sum(opp) == 0:
        return (0.0, 0.0, 0.0, 0.0, 0.0)
    if sum(me) <= 6 and sum(opp) <= 6:
        return (two_sided().win_chance(me, opp), 0.0, 0.0, 0.0, 0.0)
    return one_sided().probabilities(me, opp, sum(me) == checkers, sum(opp) == checkers)
