"""Properties of the play judge on positions from random games (hypothesis).

- every legal play, however it is spelled (order, combined moves), is judged legal and reaches its position;
- whatever is judged legal reaches a position among ``legal_results``;
- whatever is judged illegal names exactly one rule id of the checker-play rules.
"""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from nardy_analyze.engine.core import Dice
from nardy_analyze.engine import legal_results
from nardy_analyze.engine.backgammon import START, Backgammon
from nardy_analyze.engine.core import generate
from nardy_analyze.engine.judge import judge
from nardy_analyze.rules import CHECKED

R = Backgammon()
PLAY_RULES = {"dice-mismatch", "no-checker", "blocked-point", "bar-first", "bear-off-early",
              "bear-off-inexact", "max-dice", "larger-die"}


def positions(seed: int, limit: int = 120):
    rng = random.Random(seed)
    me, opp = START, START
    for _ in range(limit):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        yield rng, me, opp, max(d1, d2), min(d1, d2)
        me, opp = rng.choice(sorted(legal_results("backgammon", me, opp, (d1, d2))))
        if sum(me) == 0:
            return
        me, opp = opp, me


def combine(path, rng):
    """Spell a legal path differently: shuffle, and join a checker's consecutive steps into one."""
    steps = [(s, d) for s, d, _ in path]
    if len(steps) >= 2 and rng.random() < 0.5:
        (s1, d1), (s2, d2) = steps[0], steps[1]
        if d1 == s2 and d2 != 0:
            steps = [(s1, d2)] + steps[2:]
    rng.shuffle(steps)
    return steps


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_legal_plays_in_any_spelling_are_legal(seed):
    for rng, me, opp, d1, d2 in positions(seed):
        ps = generate(R, me, opp, Dice.roll(d1, d2).numbers)
        for pos, path in list(ps.plays.items())[:8]:
            v = judge(R, me, opp, Dice.roll(d1, d2), combine(path, rng))
            assert v.legal, (me, opp, d1, d2, path, v.problems)
            assert v.after[0] == pos[0]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_verdicts_agree_with_the_legal_set(seed):
    for rng, me, opp, d1, d2 in positions(seed):
        legal = legal_results("backgammon", me, opp, (d1, d2))
        ps = generate(R, me, opp, Dice.roll(d1, d2).numbers)
        path = list(rng.choice(list(ps.plays.values())))
        steps = [(s, d) for s, d, _ in path]
        # perturb: drop a step, move a destination, or add a step
        kind = rng.randrange(3)
        if kind == 0 and steps:
            steps.pop(rng.randrange(len(steps)))
        elif kind == 1 and steps:
            i = rng.randrange(len(steps))
            s, d = steps[i]
            steps[i] = (s, max(0, min(24, d + rng.choice((-2, -1, 1, 2)))))
        else:
            steps.append((rng.randint(1, 25), rng.randint(0, 24)))
        v = judge(R, me, opp, Dice.roll(d1, d2), steps)
        if v.legal:
            assert v.after in legal, (me, opp, d1, d2, steps)
        else:
            assert len(v.problems) == 1 and v.problems[0][0] in PLAY_RULES
            assert v.problems[0][0] in CHECKED
