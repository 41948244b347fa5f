"""Long nardy (RULES.md section 2): the engine against a naive generator, and one scenario per rule."""
from __future__ import annotations

import random

import pytest

from helpers import side
from naive_long import KINDS, naive_legal, naive_plays, synthetic, walk_segments
from nardy_analyze.engine import get_variant, legal_results, generate
from nardy_analyze.engine.judge import judge
from nardy_analyze.engine.long import START, opp_point
from nardy_analyze.generate import generate_match

V = "long"
R = get_variant(V).rules
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def differential(variant: str, seed: int, games: int, synthetic_n: int) -> int:
    """Compare the engine with the naive generator; returns how many positions were compared."""
    rules = get_variant(variant).rules
    n = 0

    def check(spec, me, opp, after, steps, first_turn, dice):
        nonlocal n
        ours = set(generate(rules, me, opp, spec.numbers, None, spec.turn).plays)
        naive = naive_plays(me, opp, spec.numbers, gulbara=variant == "gulbara",
                            heads_left=spec.turn[0], heads_allowed=spec.turn[1])
        assert ours == naive, (spec, me, opp)
        if spec.kind == "roll":
            assert legal_results(variant, me, opp, dice, first_turn=first_turn) == naive
        n += 1

    walk_segments(rules, generate_match(variant, games, seed), check)
    rng = random.Random(seed)
    # first turns, every roll, for the first player and for the second (after any first play)
    for d in ROLLS:
        assert legal_results(variant, START, START, d, first_turn=True) == \
            naive_legal(variant, START, START, d, first_turn=True)
        n += 1
    for _ in range(200):
        first = rng.choice(sorted(legal_results(variant, START, START, rng.choice(ROLLS), first_turn=True)))
        opp = first[0]
        for d in ROLLS:
            for ft in (True, False):
                assert legal_results(variant, START, opp, d, first_turn=ft) == \
                    naive_legal(variant, START, opp, d, first_turn=ft), (opp, d, ft)
                n += 1
        if n > 4000 + games * 0:
            break
    for i in range(synthetic_n):
        kind = KINDS[i % len(KINDS)]
        me, opp = synthetic(rng, kind)
        d = rng.choice(ROLLS)
        ft = kind == "head" and rng.random() < 0.5
        assert legal_results(variant, me, opp, d, first_turn=ft) == naive_legal(variant, me, opp, d, ft), \
            (kind, me, opp, d, ft)
        n += 1
    return n


def test_differential_against_naive_generator():
    n = differential(V, seed=7, games=25, synthetic_n=2500)
    assert n >= 5000, n
