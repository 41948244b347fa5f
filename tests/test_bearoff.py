"""The bear-off databases against an independent brute-force solver written here (its own move generator
and recursion), on random positions; the cube model's bounds."""
from __future__ import annotations

import random
from functools import lru_cache

import pytest

from nardy_analyze.stats import bearoff

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


# --------------------------------------------------------------------------------- the brute force
def _one_die(pos: tuple, d: int) -> set:
    """Every position after one die, written from the rules: move a checker d pips towards home; bear off
    exactly, or from the highest point when the die is larger than every checker's point."""
    out = set()
    pts = [i for i in range(6) if pos[i]]            # 0-based: point i+1
    if not pts:
        return {pos}
    for i in pts:
        lst = list(pos)
        lst[i] -= 1
        if i + 1 > d:
            lst[i - d] += 1
        elif not (i + 1 == d or i == max(pts)):
            continue
        out.add(tuple(lst))
    return out


def _plays(pos: tuple, roll: tuple) -> set:
    a, b = roll
    seqs = [(a,) * 4] if a == b else [(a, b), (b, a)]
    out = set()
    for seq in seqs:
        cur = {pos}
        for d in seq:
            cur = {q for p in cur for q in _one_die(p, d)}
        out |= cur
    return out


@lru_cache(maxsize=None)
def _win(me: tuple, opp: tuple) -> float:
    """Exact chance that the player on roll wins (both play to win)."""
    if not any(me):
        return 1.0
    total = 0.0
    for roll in ROLLS:
        w = 1 if roll[0] == roll[1] else 2
        total += w * max(1.0 if not any(q) else 1.0 - _win(opp, q) for q in _plays(me, roll))
    return total / 36


@lru_cache(maxsize=None)
def _rolls(pos: tuple) -> tuple[float, tuple]:
    """(expected rolls, distribution) to bear off, each roll played to minimise the expected rolls."""
    if not any(pos):
        return 0.0, (1.0,) + (0.0,) * 31
    mean = 1.0
    dist = [0.0] * 32
    for roll in ROLLS:
        w = (1 if roll[0] == roll[1] else 2) / 36
        best = min(_plays(pos, roll), key=lambda q: (_rolls(q)[0], q))
        m, dq = _rolls(best)
        mean += w * m
        for i in range(31):
            dist[i + 1] += w * dq[i]
    return mean, tuple(dist)


def _random_pos(rng, n: int) -> tuple:
    pos = [0] * 6
    for _ in range(n):
        pos[rng.randrange(6)] += 1
    return tuple(pos)


# --------------------------------------------------------------------------------- the tests
@pytest.fixture(scope="module")
def small_two():
    return bearoff.TwoSided(bearoff.build_two_sided(4))


@pytest.fixture(scope="module")
def small_one():
    return bearoff.OneSided(bearoff.build_one_sided(5))


def test_positions_counts():
    assert len(bearoff.positions(15)) == 54264
    assert len(bearoff.positions(6)) == 924


def test_two_sided_equals_brute_force(small_two):
    rng = random.Random(32)
    for _ in range(60):
        me, opp = _random_pos(rng, rng.randint(1, 4)), _random_pos(rng, rng.randint(1, 4))
        assert small_two.win_chance(me, opp) == pytest.approx(_win(me, opp), abs=1e-12), (me, opp)


def test_best_plays_equal_brute_force(small_two):
    """The play the database prefers (the highest win chance after it) is the brute force's best play."""
    rng = random.Random(7)
    checked = 0
    for _ in range(80):
        me, opp = _random_pos(rng, rng.randint(2, 4)), _random_pos(rng, rng.randint(1, 4))
        roll = rng.choice(ROLLS)
        plays = sorted(_plays(me, roll))
        if len(plays) < 2:
            continue
        ours = max(plays, key=lambda q: 1.0 if not any(q) else 1.0 - small_two.win_chance(opp, q))
        brute = max(plays, key=lambda q: 1.0 if not any(q) else 1.0 - _win(opp, q))
        v = lambda q: 1.0 if not any(q) else 1.0 - _win(opp, q)      # noqa: E731
        assert v(ours) == pytest.approx(v(brute), abs=1e-12)
        checked += 1
    assert checked > 30


def test_one_sided_equals_brute_force(small_one):
    rng = random.Random(5)
    for _ in range(40):
        pos = _random_pos(rng, rng.randint(1, 5))
        mean, dist = _rolls(pos)
        assert small_one.mean_rolls(pos) == pytest.approx(mean, abs=1e-5), pos
        assert list(small_one.off[small_one.index[pos]]) == pytest.approx(list(dist), abs=1e-6)


def test_one_sided_race_formula(small_one):
    """Win chance from two distributions: sum_i P(me = i) P(opponent >= i); a sure thing is exactly 1."""
    assert small_one.probabilities((1, 0, 0, 0, 0, 0), (5, 0, 0, 0, 0, 0), False, False)[0] == 1.0
    p = small_one.probabilities((0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 1), False, False)[0]
    assert p == pytest.approx(27 / 36 + 9 / 36 * 9 / 36)


def test_full_databases_contain_the_small_ones(small_one, small_two):
    """The cached 15-checker and 6-checker databases agree with the small builds on their positions (the
    same positions' plays never leave the small set)."""
    one, two = bearoff.one_sided(), bearoff.two_sided()
    assert len(one.positions) == 54264 and len(two.positions) == 924
    rng = random.Random(3)
    for _ in range(50):
        a, b = _random_pos(rng, rng.randint(1, 4)), _random_pos(rng, rng.randint(1, 4))
        assert two.win_chance(a, b) == pytest.approx(small_two.win_chance(a, b), abs=1e-12)
        assert one.mean_rolls(a) == pytest.approx(small_one.mean_rolls(a), abs=1e-5)
    # gammons: 15 checkers on the 6-point against one checker left: no gammon either way
    full = (0, 0, 0, 0, 0, 15)
    w, gw, _bw, gl, _bl = bearoff.race_probabilities((1, 0, 0, 0, 0, 0), full)
    assert (w, gw, gl) == (1.0, 1.0, 0.0)
    w, gw, _bw, gl, _bl = bearoff.race_probabilities(full, (0, 0, 0, 0, 0, 1))
    # the opponent's one checker on his 6-point is off in one roll (27 of 36) or two: lost; gammoned unless
    # a checker is off first.  15 checkers on the 6-point bear one off in one roll with a 6 (11 rolls),
    # 5-1, 4-2 (2 each), 3-3 or 2-2: 17 of 36
    one = bearoff.one_sided()
    g = one.gammon[one.index[full]]
    assert g[1] == pytest.approx(17 / 36, abs=1e-12)
    assert w == 0.0 and gl == pytest.approx(27 / 36 * g[2:].sum() + 9 / 36 * g[3:].sum(), abs=1e-9)


def test_the_analysis_plays_the_brute_force_best_play():
    """The analysis of a bear-off (stats.skill, every legal play of the rules engine valued from the
    databases and the cube model) picks a play whose exact win chance is the brute force's best."""
    pytest.importorskip("pandas")
    from nardy_analyze.engine import get_variant
    from nardy_analyze.stats import cube as cm
    from nardy_analyze.stats import skill

    rules = get_variant("backgammon").rules
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        me, opp = _random_pos(rng, rng.randint(2, 4)), _random_pos(rng, rng.randint(1, 3))
        roll = rng.choice(ROLLS)
        side = lambda h: tuple(h) + (0,) * 19                        # noqa: E731
        res = skill._bearoff_plays(rules, side(me), side(opp), roll, cm.Stakes(), 1, cm.CENTRED)
        best_board = res.moves[0].board
        ours = tuple(best_board[1:7])
        values = {q: (1.0 if not any(q) else 1.0 - _win(opp, q)) for q in _plays(me, roll)}
        assert ours in values
        assert values[ours] == pytest.approx(max(values.values()), abs=1e-12), (me, opp, roll)
        # and its win chance is the brute force's
        assert res.moves[0].probs.win == pytest.approx(values[ours], abs=1e-12)
        checked += len(values) > 1
    assert checked > 20
