"""The long-game evaluator's network: the inputs of a position and a small multilayer perceptron, numpy only.

A position is evaluated for the player on roll, before the roll.  The outputs are five chances, each the
probability of a result of the game (not conditional on one another):

    0 win   1 win with mars (or better)   2 win with koks   3 lose with mars (or worse)   4 lose with koks

and the equity in points of the variant's scoring (oin 1, mars 2, koks 3, the last only where the rules
count koks) is ``2 win - 1 + win_mars - lose_mars (+ win_koks - lose_koks)``.

The inputs (``features``; docs/evaluator.md gives the reasoning), for the player on roll and then the
opponent, each side in its own numbering:

* each point 1..24: four units, ``n >= 1``, ``n >= 2``, ``n >= 3`` and ``(n - 3) / 4`` above three
  (TD-Gammon's encoding: in the long games one checker already holds a point, so the first unit says who
  blocks it);
* borne off / 15, pip count / 360, checkers on the head / 15, checkers in home / 15 (in Gul bara the frozen
  home: a checker there only waits to bear off), all home (bear-off allowed), checkers outside home / 15;
* the blocks: the longest run of the side's points along the opponent's route / 6, whether it is 6 or more
  long (a legal six-block has an opposing checker past it), and the opponent's checkers still behind it
  (they must pass it) / 15;
* and one unit: the player on roll still has the first turn (the head rule's first-turn exception).

Gul bara's chains and handovers happen inside one roll, so a position between turns has no chain state:
the variant has its own net (the same inputs) trained on its own games.
"""
from __future__ import annotations


import numpy as np

N_OUT = 5
PER_SIDE = 24 * 4 + 6 + 3
N_IN = 2 * PER_SIDE + 1

_PIPS = np.arange(1, 25, dtype=np.float64)
_IDX = np.arange(24)
# the mover's point indices (0-based) in the order the opponent passes them: the opponent's points 24..1 are
# the mover's points 12..1, 24..13 (long nardy's tracks are half a board apart)
ROUTE = np.array(list(range(11, -1, -1)) + list(range(23, 11, -1)))
# the opponent's point indices in the same order (their own numbering: 24..1)
OPP_ROUTE = np.arange(23, -1, -1)


def _side_features(x: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The inputs of one side ``x`` (k, 24) against ``other`` (k, 24), both in their own numbering."""
    k = x.shape[0]
    out = np.empty((k, PER_SIDE))
    out[:, 0:24] = x >= 1
    out[:, 24:48] = x >= 2
    out[:, 48:72] = x >= 3
    out[:, 72:96] = np.maximum(x - 3, 0) / 4.0
    on = x.sum(axis=1)
    outside = x[:, 6:].sum(axis=1)
    out[:, 96] = (15 - on) / 15.0
    out[:, 97] = (x @ _PIPS) / 360.0
    out[:, 98] = x[:, 23] / 15.0
    out[:, 99] = x[:, :6].sum(axis=1) / 15.0
    out[:, 100] = outside == 0
    out[:, 101] = outside / 15.0
    # the longest run of x's points along the other side's route, and the other's checkers behind its end
    occ = x[:, ROUTE] > 0                               # (k, 24) in the order the other side meets them
    last_gap = np.maximum.accumulate(np.where(occ, -1, _IDX), axis=1)
    run = _IDX - last_gap                               # the run ending at each route index
    best_end = run.argmax(axis=1)
    best = run[np.arange(k), best_end].astype(np.float64)
    theirs = other[:, OPP_ROUTE]                        # the other side's checkers along their own route
    before = np.cumsum(theirs, axis=1)                  # checkers at route index <= i
    start = best_end - best + 1                         # the run's first route index
    idx = np.clip(start - 1, 0, 23).astype(np.int64)
    behind = np.where(start > 0, before[np.arange(k), idx], 0) * (best > 0)
    out[:, 102] = np.minimum(best, 8) / 6.0
    out[:, 103] = best >= 6
    out[:, 104] = behind / 15.0
    return out


def features(mover: np.ndarray, opponent: np.ndarray, first_turn) -> np.ndarray:
    """The inputs of positions: ``mover`` and ``opponent`` (k, 24) counts in their own numbering (the player
    on roll first), ``first_turn`` a bool or (k,) array (the player on roll still has the first turn)."""
    mover = np.asarray(mover, dtype=np.float64)
    opponent = np.asarray(opponent, dtype=np.float64)
    k = mover.shape[0]
    out = np.empty((k, N_IN))
    out[:, :PER_SIDE] = _side_features(mover, opponent)
    out[:, PER_SIDE:2 * PER_SIDE] = _side_features(opponent, mover)
    out[:, -1] = first_turn
    return out


def flip(p: np.ndarray) -> np.ndarray:
    """The chances from the other player's view (``p`` (k, 5))."""
    return np.stack([1.0 - p[:, 0], p[:, 3], p[:, 4], p[:, 1], p[:, 2]], axis=1)


def equity(p: np.ndarray, koks: bool) -> np.ndarray:
    """Equity in points (oin 1, mars 2, koks 3 where ``koks``) of chances ``p`` (k, 5)."""
    e = 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3]
    if koks:
        e = e + p[:, 2] - p[:, 4]
    return e


def consistent(p: np.ndarray) -> np.ndarray:
    """The chances made consistent: mars at most the win (the loss), koks at most mars."""
    q = np.clip(p, 0.0, 1.0).copy()
    q[:, 1] = np.minimum(q[:, 1], q[:, 0])
    q[:, 2] = np.minimum(q[:, 2], q[:, 1])
    q[:, 3] = np.minimum(q[:, 3], 1.0 - q[:, 0])
    q[:, 4] = np.minimum(q[:, 4], q[:, 3])
    return q


class Net:
    """One hidden layer of ``tanh`` units and five sigmoid outputs."""

    def __init__(self, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, meta: dict | None = None):
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2
        self.meta = dict(meta or {})

    @classmethod
    def new(cls, hidden: int, rng: np.random.Generator) -> "Net":
        w1 = rng.normal(0.0, 1.0 / np.sqrt(N_IN), (N_IN, hidden))
        w2 = rng.normal(0.0, 1.0 / np.sqrt(hidden), (hidden, N_OUT))
        return cls(w1, np.zeros(hidden), w2, np.zeros(N_OUT))

    @property
    def hidden(self) -> int:
        return self.w1.shape[1]

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.tanh(x @ self.w1 + self.b1)
        return h, 1.0 / (1.0 + np.exp(-(h @ self.w2 + self.b2)))

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.forward(x)[1]

    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2]

    def save(self, path, exact: bool = False, **arrays) -> None:
        """Write the weights (float32, or float64 when ``exact``: a checkpoint to resume from) and ``meta``
        to ``path`` (.npz); ``arrays``: more arrays to keep (a trainer's state)."""
        dt = np.float64 if exact else np.float32
        np.savez_compressed(path, **{n: a.astype(dt) for n, a in zip(("w1", "b1", "w2", "b2"), self.params())},
                            meta=np.array(list(self.meta.items()), dtype=str).reshape(-1, 2), **arrays)

    @classmethod
    def load(cls, path) -> "Net":
        with np.load(path, allow_pickle=False) as z:
            meta = {str(k): str(v) for k, v in z["meta"]} if "meta" in z.files else {}
            return cls(*(z[n].astype(np.float64) for n in ("w1", "b1", "w2", "b2")), meta=meta)
