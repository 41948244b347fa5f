"""The compiled core (engine/_core.c) against its Python twin, for the three variants.

Every function of the core is held equal to the Python code it stands in for, on random positions: game
positions reached by random legal play (Python's own generation) and arbitrary boards (every checker
count, bear-offs, the bar, long nardy's six-point blocks), with every turn state of the head rule and
the lists of numbers a turn driver asks for (a roll, a double, a Gul bara handover or chain).  The
Python code is the reference: ``generate_py``, ``exact_steps``, ``walk_forced``, the rules' own
``single_steps``, ``apply``, ``step_problem`` and ``block_after``.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from nardy_analyze.engine.core import Dice
from nardy_analyze.engine import compiled, get_variant
from nardy_analyze.engine.core import BAR, OFF, closed_flags_py, exact_steps, generate, generate_py, walk_forced

from nardy_analyze.stats.tally import _counts as tally_counts

from helpers import ROOT

VARIANTS = ("backgammon", "long", "gulbara")
TURNS = (None, (0, 1), (1, 1), (0, 2), (1, 2), (2, 2))

needs_core = pytest.mark.skipif(compiled.CoreRules is None,
                                reason="the compiled core is not built here (python3 setup.py build_ext "
                                       "--inplace) or NARDY_ANALYZE_PURE is set")


def _rules(variant: str):
    rules = get_variant(variant).rules
    assert rules.core is not None, variant
    return rules


def _board(rules, rng: random.Random):
    """An arbitrary position: each side's checkers (up to 15) spread on points the other side does not hold
    (the bar too where the variant has one), weighted toward home now and then (bear-offs)."""
    me, opp = [0] * 25, [0] * 25
    home_only = rng.random() < 0.3
    span = 6 if home_only else 24
    for side, other, mine in ((me, opp, True), (opp, me, False)):
        for _ in range(rng.randint(0, 15)):
            if rules.has_bar and rng.random() < 0.08:
                side[24] += 1
                continue
            p = rng.randint(1, span if mine else 24)
            q = rules.opp_point(p)                       # the same point in the other side's numbering
            if other[q - 1]:
                continue
            side[p - 1] += 1
    return tuple(me), tuple(opp)


def _block_board(rng: random.Random):
    """A long nardy position with a run of held points (blocks of five, six or seven, the opponent behind or
    past them), where the six-block rule decides."""
    me, opp = [0] * 25, [0] * 25
    start = rng.randint(1, 24)
    length = rng.randint(4, 7)
    for k in range(length):
        me[(start + k - 1) % 24] += 1
    for p in rng.sample(range(1, 25), rng.randint(0, 4)):
        if not me[p - 1]:
            me[p - 1] += rng.randint(1, 2)
    free = [q for q in range(1, 25) if not me[(q + 11) % 24]]        # opponent's points the mover leaves free
    for q in rng.sample(free, min(len(free), rng.randint(1, 4))):
        opp[q - 1] += rng.randint(1, 3)
    while sum(me) > 15:
        i = max(range(24), key=lambda j: me[j])
        me[i] -= 1
    return tuple(me), tuple(opp)


def _game_positions(rules, rng: random.Random, limit: int):
    """Positions of a game played at random with the Python generator (mover first), with the turn state."""
    me, opp = rules.initial()
    first = [True, True]
    side = 0
    for _ in range(limit):
        d1, d2 = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)
        turn = rules.start_turn(me, opp, first[side], (d1, d2))
        yield me, opp, (d1, d2), turn
        plays = sorted(generate_py(rules, me, opp, Dice.roll(d1, d2).numbers, turn).plays)
        me, opp = rng.choice(plays)
        first[side] = False
        if sum(me) == 0:
            return
        me, opp = opp, me
        side = 1 - side


def _positions(rules, rng: random.Random, n: int = 40):
    out = [(me, opp, dice, turn) for me, opp, dice, turn in _game_positions(rules, rng, n)]
    for _ in range(n):
        me, opp = _block_board(rng) if not rules.has_bar and rng.random() < 0.4 else _board(rules, rng)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        out.append((me, opp, (d1, d2), rng.choice(TURNS)))
    return out


def _number_lists(rng: random.Random, dice):
    d1, d2 = dice
    lists = [(d1, d2) if d1 != d2 else (d1,) * 4]
    k = rng.randint(1, 3)
    lists.append(tuple(rng.randint(1, 6) for _ in range(k)))        # a handover's numbers
    lists.append(())
    return lists


@needs_core
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_single_steps_apply_and_step_checks_are_the_python_ones(variant, seed):
    rules = _rules(variant)
    core = rules.core
    rng = random.Random(seed)
    for me, opp, _, turn in _positions(rules, rng):
        for die in range(1, 7):
            steps = list(rules.single_steps(me, opp, die, turn))
            assert core.single_steps(me, opp, die, turn) == steps, (me, opp, die, turn)
            for src, dst in steps:
                assert core.apply(me, opp, src, dst) == rules.apply(me, opp, src, dst)
        generic = closed_flags_py(rules)          # closed(side, q) point by point
        for side in (me, opp):
            assert core.closed_flags(side) == generic(side) == rules.closed_flags()(side)
            assert core.counts(side) == tally_counts(side)              # the statistics' pips and checkers
        for src in range(1, 26 if rules.has_bar else 25):
            for die in range(1, 7):
                dst = (25 - die if src == BAR else src - die)
                dst = OFF if dst < 0 else dst
                py = rules.step_problem(me, opp, src, dst, die, turn) is None
                assert core.step_ok(me, opp, src, dst, die, turn) == py, (me, opp, src, dst, die, turn)
                if not rules.has_bar and me[src - 1] and dst != OFF:
                    assert core.block_after(me, opp, src, dst) == rules.block_after(me, opp, src, dst)


@needs_core
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_generate_gives_the_python_plays_in_the_python_order(variant, seed):
    rules = _rules(variant)
    rng = random.Random(seed)
    checked = 0
    for me, opp, dice, turn in _positions(rules, rng, 30):
        for numbers in _number_lists(rng, dice):
            fast = generate(rules, me, opp, numbers, turn)
            slow = generate_py(rules, me, opp, numbers, turn)
            assert list(fast.plays.items()) == list(slow.plays.items()), (me, opp, numbers, turn)
            assert (fast.dice, fast.max_dice, fast.larger_only) == (slow.dice, slow.max_dice, slow.larger_only)
            count = rules.core.count_plays(me, opp, numbers, turn)
            assert count == len(slow.plays)
            assert rules.core.forced(me, opp, numbers, turn) == (count <= 1), (me, opp, numbers, turn)
            assert rules.forced(me, opp, numbers, turn) == walk_forced(rules, me, opp, numbers, turn)
            checked += 1
    assert checked >= 60


def _written_plays(rules, rng, me, opp, numbers, turn):
    """Written plays to try: legal ones shuffled, with a step changed, and random steps."""
    out = []
    for path in list(generate_py(rules, me, opp, numbers, turn).plays.values())[:4]:
        steps = [(s, d) for s, d, _ in path]
        out.append(list(steps))
        rng.shuffle(steps)
        out.append(steps)
        if steps:
            bad = list(steps)
            i = rng.randrange(len(bad))
            s, d = bad[i]
            bad[i] = (s, max(0, d - rng.choice([-1, 1, 2, 6])))
            out.append(bad)
    out.append([(rng.choice([25, 24, 13, 8, 6, 5, 4, 3, 2, 1, 0, 26]), rng.choice([0, 1, 3, 5, 20, 24, -1]))
                for _ in numbers])
    out.append([(s, max(0, s - d)) for s, d in zip(rng.sample(range(1, 26), len(numbers)), numbers)])
    return out


@needs_core
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_play_exact_is_the_generic_walk(variant, seed):
    rules = _rules(variant)
    rng = random.Random(seed)
    played = 0
    for me, opp, dice, turn in _positions(rules, rng, 30):
        for numbers in _number_lists(rng, dice)[:2]:
            for steps in _written_plays(rules, rng, me, opp, numbers, turn):
                for bear_off in (True, False):
                    fast = rules.core.play_exact(me, opp, numbers, steps, turn, bear_off)
                    slow = exact_steps(rules, me, opp, numbers, steps, turn, bear_off)
                    assert fast == slow, (me, opp, numbers, steps, turn, bear_off)
                    assert rules.play_exact(me, opp, numbers, steps, turn, bear_off) == slow
                    played += fast is not None
    assert played


@needs_core
def test_odd_input_goes_to_the_python_code():
    """What the core does not take (a number outside 1-6, a count outside a byte, a side of another
    length, more than six numbers) is a ValueError, and the engine's entries then run the Python code."""
    rules = _rules("backgammon")
    me, opp = rules.initial()
    core = rules.core
    for bad in ((me, opp, (7, 1)), (me[:24], opp, (6, 1)), (me, opp, (1,) * 7),
                ((300,) + me[1:], opp, (6, 1))):
        with pytest.raises(ValueError):
            core.generate(*bad)
    with pytest.raises(ValueError):
        core.play_exact(me, opp, (6, 1), [("a", 1)])
    seven = generate(rules, me, opp, (1,) * 7)
    assert list(seven.plays.items()) == list(generate_py(rules, me, opp, (1,) * 7).plays.items())
    assert rules.play_exact(me, opp, (6, 1), [(13, 7), (8, 7)]) == exact_steps(rules, me, opp, (6, 1),
                                                                               [(13, 7), (8, 7)], None)


@needs_core
def test_a_subclass_that_changes_a_step_rule_runs_on_python():
    from nardy_analyze.engine.long import LongNardy

    class NoBlock(LongNardy):
        def block_after(self, me, opp, src, dst):
            return None

    assert NoBlock().core is None
    assert LongNardy().core is not None


@needs_core
def test_rules_with_their_core_pickle_and_the_copy_makes_its_own():
    import pickle
    rules = _rules("gulbara")
    copy = pickle.loads(pickle.dumps(rules))
    assert copy.core is not None and repr(copy.core) == repr(rules.core)


@pytest.mark.parametrize("pure, word", [("1", "pure-Python core"),
                                        pytest.param("", "compiled core", marks=needs_core)])
def test_the_version_says_which_core_is_in_use(pure, word):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NARDY_ANALYZE_PURE": pure, "LANGUAGE": "en", "LC_ALL": "C.UTF-8"}
    out = subprocess.run([sys.executable, "-m", "nardy_analyze", "--version"], capture_output=True, text=True,
                         env=env, cwd=ROOT / "tests")
    assert out.returncode == 0, out.stderr
    assert word in out.stdout


def _build(tmp_path, env_extra):
    """``setup.py build_ext --inplace`` in a copy of the checkout's build files: (exit code, stderr, the
    built modules)."""
    import shutil
    tree = tmp_path / "tree"
    for rel in ("setup.py", "pyproject.toml", "README.md"):
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, tree / rel)
    shutil.copytree(ROOT / "nardy_analyze", tree / "nardy_analyze",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    shutil.copytree(ROOT / "grammars", tree / "grammars")
    out = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree, capture_output=True,
                         text=True, env={**os.environ, **env_extra}, timeout=300)
    return out.returncode, out.stderr, sorted((tree / "nardy_analyze" / "engine").glob("_core*"))


@pytest.mark.slow
def test_a_build_without_a_working_compiler_still_installs(tmp_path):
    code, err, built = _build(tmp_path, {"CC": "false"})
    assert code == 0, err
    assert "the compiled core was not built" in err
    assert [p.name for p in built] == ["_core.c"]


@pytest.mark.slow
def test_the_build_makes_the_core(tmp_path):
    code, err, built = _build(tmp_path, {})
    assert code == 0, err
    assert any(p.suffix in (".so", ".pyd") for p in built), built


def _sparse_board(rules, rng: random.Random):
    """A position with few checkers that can move (an end game, checkers on the bar, a blocked side): where a
    roll often has one play or none, and the plays that use every number are few."""
    me, opp = [0] * 25, [0] * 25
    for _ in range(rng.randint(1, 4)):
        p = rng.randint(1, rng.choice((6, 12, 24)))
        me[p - 1] += 1
    if rules.has_bar and rng.random() < 0.3:
        me[24] += rng.randint(1, 2)
    for _ in range(rng.randint(0, 12)):
        q = rng.randint(1, 24)
        if not me[rules.opp_point(q) - 1]:
            opp[q - 1] += rng.randint(1, 3)
    while sum(opp) > 15:
        i = max(range(24), key=lambda j: opp[j])
        opp[i] -= 1
    return tuple(me), tuple(opp)


@needs_core
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_forced_is_at_most_one_legal_play(variant, seed):
    """``CoreRules.forced`` (two plays that use every number and end apart settle it, else the plays are
    counted) is ``count_plays(...) <= 1`` and the Python walk's answer, on end games, blocked sides, the bar,
    doubles, handovers' numbers and no number at all, with every turn state."""
    rules = _rules(variant)
    rng = random.Random(seed)
    seen = set()
    for k in range(60):
        me, opp = _sparse_board(rules, rng) if k % 2 else _board(rules, rng)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        turn = rng.choice(TURNS)
        for numbers in _number_lists(rng, (d1, d2)):
            want = rules.core.count_plays(me, opp, numbers, turn) <= 1
            assert rules.core.forced(me, opp, numbers, turn) == want, (me, opp, numbers, turn)
            assert walk_forced(rules, me, opp, numbers, turn) == want, (me, opp, numbers, turn)
            seen.add(want)
    assert seen == {True, False}
