"""Differential tests: our legal plays against GNU Backgammon's move generator (PyPI gnubg-nn)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from nardy_analyze.engine import legal_results
from nardy_analyze.engine.backgammon import START

gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn (GNU Backgammon's move generator) is not installed")


def gnubg_results(mover, opponent, d1, d2):
    """Positions gnubg reaches, as (mover_after, opponent_after); the unchanged position if none."""
    keys = gnubg_nn.moves([list(opponent), list(mover)], d1, d2, 0)
    out = set()
    for k in keys:
        opp, me = gnubg_nn.boardfromkey(k)
        out.add((tuple(me), tuple(opp)))
    return out or {(tuple(mover), tuple(opponent))}


def agree(mover, opponent, d1, d2):
    ours = legal_results("backgammon", mover, opponent, (d1, d2))
    theirs = gnubg_results(mover, opponent, d1, d2)
    assert ours == theirs, (mover, opponent, d1, d2, ours ^ theirs)


def random_game_positions(seed: int, limit: int = 400):
    """Positions (mover, opponent, d1, d2) met in one game of random legal plays."""
    rng = random.Random(seed)
    me, opp = START, START
    for _ in range(limit):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        yield me, opp, d1, d2
        results = sorted(legal_results("backgammon", me, opp, (d1, d2)))
        me, opp = rng.choice(results)
        if sum(me) == 0:
            return
        me, opp = opp, me


def test_all_opening_rolls():
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            agree(START, START, d1, d2)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_games_agree_with_gnubg(seed):
    for me, opp, d1, d2 in random_game_positions(seed):
        agree(me, opp, d1, d2)


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_position_id_matches_gnubg(seed):
    from nardy_analyze.engine.posid import position_id

    for me, opp, _, _ in random_game_positions(seed):
        assert position_id(me, opp) == gnubg_nn.position_id([list(opp), list(me)])
