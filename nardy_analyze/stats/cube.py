"""Cubeful equities from cubeless probabilities: Janowski's cube model, in money and match play.

The model (docs/analysis.md, "The cube model"):

* The five cubeless outputs of a position with its player on roll (win, gammon win, backgammon win, gammon
  loss, backgammon loss; gammons include backgammons, as GNU Backgammon counts) give the value of a win and
  of a loss at each cube value: in money play the points (normalised to the cube), in match play the
  match-winning chance after the game through the match equity table (:mod:`.met`, Kazaross XG2).
* **Dead cube**: the cubeless value, ``p * win + (1 - p) * loss``, linear in the win chance ``p`` (the
  gammon rates of the wins and the losses held fixed).
* **Live cube**: piecewise linear in ``p`` between the position's extremes (``p = 0``: every game lost,
  ``p = 1``: every game won) through the points where the cube changes hands: the player's **cash point**
  (the opponent's take point when the player doubles: above it the player cashes, worth winning the cube's
  value) when the cube is his to turn, and his **take point** (below it the opponent cashes) when it is the
  opponent's.  Each of these points is solved at the next cube value (after a take) from the same model,
  recursively, until the cube is dead (in match play: the player who would double already wins the match
  with the cube's value; in money play after six redoubles).
* **Cubeful** = ``x * live + (1 - x) * dead``, ``x`` the cube efficiency (Janowski's cube life index), as
  GNU Backgammon's 0-ply: 0.68 in contact, in a race ``0.55 + 0.00125 * pips`` of the player on roll held
  between 0.6 and 0.7.

A value never leaves what the position allows: every value is an average of outcomes the position can
reach, so a certain win (``p = 1``) is worth exactly what it wins, at any cube, score and owner.

Crawford: no double in the Crawford game (the cube is dead).  Post-Crawford: the leader's cube is dead (he
wins the match with any win); the trailer's double is live, and the leader's free drop follows from the
table.  Money play: the Jacoby rule (gammons do not count with the cube centred) and beavers (a doubled
player whose take is worth more than nothing redoubles at once, keeping the cube) as the record's rules say.
"""
from __future__ import annotations

from functools import lru_cache

from ..shapes import dataclass
from .met import after

CENTRED, PLAYER, OPPONENT = "centered", "player", "opponent"
MAX_MONEY_LEVELS = 6
CONTACT_X = 0.68


def cube_efficiency(race: bool, pips: int = 0) -> float:
    """Janowski's ``x`` as GNU Backgammon's 0-ply takes it: 0.68 in contact; in a race (no contact)
    ``0.55 + 0.00125 * pips`` (the player on roll's pip count), held between 0.6 and 0.7."""
    if not race:
        return CONTACT_X
    return min(0.7, max(0.6, 0.55 + 0.00125 * pips))


@dataclass(frozen=True)
class Stakes:
    """What a game is played for.  Money play: ``length`` 0 (``jacoby``, ``beaver`` as the rules say).
    Match play: ``away``/``opp_away`` (points each still needs, the player on roll first) and ``crawford``
    (this is the Crawford game); post-Crawford is a score with a player 1 away outside the Crawford game."""

    length: int = 0
    away: int = 0
    opp_away: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False

    @property
    def money(self) -> bool:
        return self.length == 0

    @property
    def post(self) -> bool:
        """A score with a player 1 away comes after the Crawford game (when this game is it or later)."""
        return min(self.away, self.opp_away) == 1

    def value(self, points: int) -> float:
        """The worth of the player on roll winning ``points`` (negative: losing them): money points, or
        the match-winning chance after the game."""
        if self.money:
            return float(points)
        if points >= 0:
            return after(self.away - points, self.opp_away, self.post)
        return after(self.away, self.opp_away + points, self.post)

    def can_double(self, side: str, cube: int) -> bool:
        """Whether ``side`` (PLAYER or OPPONENT) has a live double at ``cube``: never in the Crawford game; in
        match play not when that side wins the match with the cube's value already (a dead cube)."""
        if self.money:
            return cube < 2 ** MAX_MONEY_LEVELS
        if self.crawford:
            return False
        need = self.away if side == PLAYER else self.opp_away
        return need > cube

    def flipped(self) -> "Stakes":
        return Stakes(self.length, self.opp_away, self.away, self.crawford, self.jacoby, self.beaver)


def _ratios(probs) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """(single, gammon, backgammon) shares of the wins and of the losses."""
    win, gw, bw, gl, bl = (max(0.0, min(1.0, float(v))) for v in probs)
    if win > 0:
        w = (max(win - gw, 0.0) / win, max(gw - bw, 0.0) / win, min(bw, win) / win)
    else:
        w = (1.0, 0.0, 0.0)
    lose = 1.0 - win
    if lose > 0:
        l_ = (max(lose - gl, 0.0) / lose, max(gl - bl, 0.0) / lose, min(bl, lose) / lose)
    else:
        l_ = (1.0, 0.0, 0.0)
    return w, l_


class Model:
    """The cube model of one position's gammon rates at one score (see the module's doc)."""

    def __init__(self, stakes: Stakes, probs, x: float, ratios=None) -> None:
        self.s = stakes
        self.x = x
        self.p = max(0.0, min(1.0, float(probs[0])))
        self.w, self.l = ratios if ratios is not None else _ratios(probs)
        self._knots: dict = {}
        self._worth: dict = {}         # (cube, centred, sign) -> win_value / loss_value, computed once

    def win_value(self, cube: int, centred: bool) -> float:
        """The worth of a win (average over its single, gammon, backgammon) at ``cube``."""
        key = (cube, centred, 1)
        v = self._worth.get(key)
        if v is None:
            if centred and self.s.jacoby and self.s.money:
                v = self.s.value(cube)
            else:
                v = sum(r * self.s.value(cube * k) for r, k in zip(self.w, (1, 2, 3)))
            self._worth[key] = v
        return v

    def loss_value(self, cube: int, centred: bool) -> float:
        key = (cube, centred, -1)
        v = self._worth.get(key)
        if v is None:
            if centred and self.s.jacoby and self.s.money:
                v = self.s.value(-cube)
            else:
                v = sum(r * self.s.value(-cube * k) for r, k in zip(self.l, (1, 2, 3)))
            self._worth[key] = v
        return v

    def dead(self, p: float, cube: int, owner: str) -> float:
        c = owner == CENTRED
        return p * self.win_value(cube, c) + (1.0 - p) * self.loss_value(cube, c)

    def knots(self, cube: int, owner: str) -> tuple[tuple[float, float], ...]:
        """The live cube's value as (p, value) knots, increasing in p."""
        key = (cube, owner)
        if key in self._knots:
            return self._knots[key]
        c = owner == CENTRED
        lo, hi = self.loss_value(cube, c), self.win_value(cube, c)
        pts = [(0.0, lo)]
        if owner in (CENTRED, OPPONENT) and self.s.can_double(OPPONENT, cube):
            # my take point: where taking (I own 2*cube) is worth what passing (losing cube) is
            tp = self._solve(2 * cube, PLAYER, self.s.value(-cube))
            if tp is not None:
                pts.append((tp, self.s.value(-cube)))
        if owner in (CENTRED, PLAYER) and self.s.can_double(PLAYER, cube):
            # my cash point: the opponent's take point when I double
            cp = self._solve(2 * cube, OPPONENT, self.s.value(cube))
            if cp is not None and cp > pts[-1][0]:
                pts.append((cp, self.s.value(cube)))
        pts.append((1.0, hi))
        # keep the knots increasing in p (a cash point below the take point would not be reached)
        out = [pts[0]]
        for q in pts[1:]:
            if q[0] > out[-1][0] or q[0] == 1.0:
                out.append(q if q[0] > out[-1][0] else (out[-1][0], q[1]))
        self._knots[key] = tuple(out)
        return self._knots[key]

    def live(self, p: float, cube: int, owner: str) -> float:
        k = self.knots(cube, owner)
        for (p0, v0), (p1, v1) in zip(k, k[1:]):
            if p <= p1:
                return v0 if p1 == p0 else v0 + (v1 - v0) * (p - p0) / (p1 - p0)
        return k[-1][1]

    def cubeful(self, p: float, cube: int, owner: str) -> float:
        return self.x * self.live(p, cube, owner) + (1.0 - self.x) * self.dead(p, cube, owner)

    def _solve(self, cube: int, owner: str, target: float) -> float | None:
        """The p at which the cubeful value at (``cube``, ``owner``) equals ``target`` (it increases with
        p: piecewise linear, solved on its segments); None when it never does."""
        k = self.knots(cube, owner)
        xs = sorted({q[0] for q in k})
        prev_p, prev_v = 0.0, self.cubeful(0.0, cube, owner)
        if prev_v >= target:
            return 0.0
        for q in xs[1:]:
            v = self.cubeful(q, cube, owner)
            if v >= target:
                return prev_p + (q - prev_p) * (target - prev_v) / (v - prev_v) if v != prev_v else q
            prev_p, prev_v = q, v
        return None

    # -- what the analysis reads ----------------------------------------------------------------------
    def normalise(self, v: float, cube: int) -> float:
        """Money: points per unit of ``cube``; match: EMG at ``cube`` (+1 = winning ``cube`` points)."""
        if self.s.money:
            return v / cube
        w, l_ = self.s.value(cube), self.s.value(-cube)
        return (2.0 * v - (w + l_)) / (w - l_) if w != l_ else 0.0

    def equity(self, cube: int, owner: str, p: float | None = None) -> float:
        """The cubeful equity (normalised) of the player on roll before his roll (win chance ``p``, by
        default the position's)."""
        return self.normalise(self.cubeful(self.p if p is None else p, cube, owner), cube)

    def decision(self, cube: int, owner: str, p: float | None = None) -> tuple[float, float, float]:
        """No double, double/take, double/pass (the doubler's view, normalised to ``cube``)."""
        p = self.p if p is None else p
        nd = self.equity(cube, owner, p)
        dt = self.normalise(self.cubeful(p, 2 * cube, OPPONENT), cube)
        dp = self.normalise(self.s.value(cube), cube)
        if self.s.money and self.s.beaver and dt < 0:
            dt = 2.0 * dt                      # the taker beavers: 4 x cube, his cube
        return nd, dt, dp


@lru_cache(maxsize=65536)
def _model(stakes: Stakes, ratios: tuple, x: float) -> Model:
    """The model of a score and of gammon shares (its cash and take points do not depend on the win
    chance: one model serves every position with the same shares, as most bear-offs have)."""
    return Model(stakes, (0.5, 0, 0, 0, 0), x, ratios)


def _key(probs) -> tuple[float, tuple]:
    p = max(0.0, min(1.0, float(probs[0])))
    w, l_ = _ratios(probs)
    return p, (tuple(round(v, 12) for v in w), tuple(round(v, 12) for v in l_))


def cubeful_equity(probs, stakes: Stakes, cube: int, owner: str, x: float) -> float:
    """The cubeful equity of the player on roll (normalised to ``cube``; EMG in match play)."""
    p, ratios = _key(probs)
    return _model(stakes, ratios, round(x, 9)).equity(cube, owner, p)


def cube_decision(probs, stakes: Stakes, cube: int, owner: str, x: float) -> tuple[float, float, float]:
    """``(nd, dt, dp)`` of the player on roll (see :meth:`Model.decision`)."""
    p, ratios = _key(probs)
    return _model(stakes, ratios, round(x, 9)).decision(cube, owner, p)


def invert(probs) -> tuple[float, float, float, float, float]:
    """The same outputs from the other player's view."""
    win, gw, bw, gl, bl = probs
    return (1.0 - win, gl, bl, gw, bw)


def swap_owner(owner: str) -> str:
    return {CENTRED: CENTRED, PLAYER: OPPONENT, OPPONENT: PLAYER}[owner]


def after_move_equity(probs_opp_on_roll, stakes: Stakes, cube: int, owner: str, x: float) -> float:
    """The cubeful equity of a play from the mover's view: minus the opponent's, on roll after it
    (``owner`` from the mover's view; ``stakes`` the mover's)."""
    return -cubeful_equity(probs_opp_on_roll, stakes.flipped(), cube, swap_owner(owner), x)
