"""Property tests on generated games (``nardy_analyze.generate``): random legal games replay with no
finding, and single planted changes are flagged at the changed action (or segment) with the right rule
and nothing before it.

The suite replays a few dozen games per variant; ``python3 bench/bench_generated.py --games 1000`` runs
the same check on 1,000 games per variant (see docs/architecture.md for the figure).
"""
from __future__ import annotations

import copy
import random

import pytest

from nardy_analyze.engine.core import Dice
from nardy_analyze import analyze
from nardy_analyze.engine import get_variant
from nardy_analyze.engine.judge import judge
from nardy_analyze.generate import generate_match
from nardy_analyze.record import Kind, Loc, Segment, Step
from nardy_analyze.replay import ERROR
from nardy_analyze.replay.turns import walk_turn, written_parts

VARIANTS = ("backgammon", "long", "gulbara")
GAMES = {"backgammon": 40, "long": 40, "gulbara": 60}


_MATCHES: dict = {}


def gen(v):
    """(variant, its generated match), made once per test session."""
    if v not in _MATCHES:
        _MATCHES[v] = generate_match(v, GAMES[v], seed=2026)
    return v, _MATCHES[v]


ALL = pytest.mark.parametrize("variant", VARIANTS)
LONG_GAMES = pytest.mark.parametrize("variant", ["long", "gulbara"])
GUL_BARA = pytest.mark.parametrize("variant", ["gulbara"])


def first_errors(match):
    rep = analyze.validate_match(match)
    return [f for f in rep.findings if f.severity == ERROR]


@ALL
def test_generated_games_replay_with_no_finding(variant):
    generated = gen(variant)
    v, m = generated
    rep = analyze.validate_match(m)
    assert rep.variant == v
    assert rep.findings == []
    assert all(g.winner is not None for g in rep.games)
    assert sum(g.turns for g in rep.games) > 10 * len(m.games)


def trace(match, variant):
    """Every written part of every turn with the position before it: (game, action, part index (0 =
    the roll, i = segment i-1), outcome).  The games are legal, so these are the replay's positions."""
    rules = get_variant(variant).rules
    out = []
    for gi, g in enumerate(match.games):
        pos = list(rules.initial())
        rolled, rolls = [0, 0], 0
        for ai, a in enumerate(g.actions):
            if a.kind != Kind.ROLL:
                continue
            rolls += 1
            first = rolled[a.player] == 0
            rolled[a.player] += 1
            parts = written_parts(a)
            for o in walk_turn(rules, pos, a.player, max(a.dice), min(a.dice), parts, first, rolls):
                assert o.legal, o.problems
                if o.part is not None:
                    out.append((gi, ai, parts.index(o.part), o))
    return out


def one_game(m, gi):
    """A copy of ``m`` holding only its game ``gi`` (from 0-0), to change freely."""
    mm = copy.copy(m)
    mm.tags = dict(m.tags)
    mm.games = [copy.deepcopy(m.games[gi])]
    mm.games[0].score = (0, 0)
    return mm


def part_of(action, k):
    return action if k == 0 else action.segments[k - 1]


def part_loc(action, k):
    return action.loc if k == 0 else action.segments[k - 1].loc


def check_first(m, loc, rules_ok):
    found = first_errors(m)
    assert found, "the planted change was not flagged"
    f = found[0]
    assert (f.line, f.column) == (loc.line, loc.column), (f.rule, f.line, f.message)
    assert f.rule in rules_ok, (f.rule, f.message)


_TRACES: dict = {}


def _mutants(generated, pick, limit=12, seed=0):
    v, m = generated
    rng = random.Random(seed)
    if v not in _TRACES:
        _TRACES[v] = trace(m, v)
    cands = [t for t in _TRACES[v] if pick(v, m, t)]
    rng.shuffle(cands)
    return v, m, cands[:limit]


@ALL
def test_a_step_moved_by_one_point(variant):
    generated = gen(variant)
    v, m, cands = _mutants(generated, lambda v, m, t: any(s.dst != 0 and s.src != 25
                                                           for s in part_of(m.games[t[0]].actions[t[1]], t[2]).steps))
    rules = get_variant(v).rules
    checked = 0
    for gi, ai, k, o in cands:
        mm = one_game(m, gi)
        a = mm.games[0].actions[ai]
        part = part_of(a, k)
        i = next(i for i, s in enumerate(part.steps) if s.dst != 0 and s.src != 25)
        s = part.steps[i]
        nd = s.dst - 1 if s.dst > 1 else s.dst + 1
        part.steps[i] = Step(s.src, nd)
        me, opp = o.before
        st = [(x.src, x.dst) for x in part.steps]
        verdict = judge(rules, me, opp, Dice.of(o.spec.numbers), st, turn=o.spec.turn)
        if verdict.legal:
            continue              # another legal play (it may change what follows; not this test's point)
        expected = {verdict.problems[0][0]} | ({"handover"} if verdict.problems[0][0] in ("max-dice", "larger-die")
                                               else set())
        check_first(mm, part_loc(a, k), expected)
        checked += 1
    assert checked >= 3


@ALL
def test_a_step_dropped(variant):
    generated = gen(variant)
    v, m, cands = _mutants(generated, lambda v, m, t: t[3].verdict is not None
                           and len(part_of(m.games[t[0]].actions[t[1]], t[2]).steps) >= 1)
    counts = []
    for gi, ai, k, o in cands:
        mm = one_game(m, gi)
        a = mm.games[0].actions[ai]
        part = part_of(a, k)
        part.steps.pop()          # the last step: no later step depends on it
        check_first(mm, part_loc(a, k), {"max-dice"})
        counts.append(len(first_errors(mm)))
    # and the replay goes on sensibly: the look-ahead puts it back on the game's course, so one slip
    # gives one finding (a few may give two or three where the slip really changes what follows)
    assert sum(n == 1 for n in counts) >= len(counts) - 2, counts


def _head_pick(v, m, t):
    gi, ai, k, o = t
    if v == "backgammon" or o.spec is None or o.spec.kind != "roll" or o.spec.turn != (0, 1):
        return False
    part = part_of(m.games[gi].actions[ai], k)
    heads = [s for s in part.steps if s.src == 24]
    me, opp = o.before
    rules = get_variant(v).rules
    others = [s for s in part.steps if s.src != 24 and s.dst != 0 and me[23] >= 2
              and not rules.closed(opp, 24 - (s.src - s.dst))]
    return len(heads) == 1 and others


@LONG_GAMES
def test_a_second_checker_off_the_head(variant):
    generated = gen(variant)
    v, m, cands = _mutants(generated, _head_pick)
    assert cands
    rules = get_variant(v).rules
    for gi, ai, k, o in cands:
        mm = one_game(m, gi)
        a = mm.games[0].actions[ai]
        part = part_of(a, k)
        me, opp = o.before
        i = next(i for i, s in enumerate(part.steps) if s.src != 24 and s.dst != 0
                 and not rules.closed(opp, 24 - (s.src - s.dst)))
        d = part.steps[i].src - part.steps[i].dst
        part.steps[i] = Step(24, 24 - d)
        check_first(mm, part_loc(a, k), {"head-rule"})


def _home_pick(v, m, t):
    gi, ai, k, o = t
    if v != "gulbara" or o.spec is None:
        return False
    part = part_of(m.games[gi].actions[ai], k)
    me, _ = o.before
    return any(me[p - 1] and any(p - (s.src - s.dst) >= 1 and s.dst != 0 for s in part.steps)
               for p in range(1, 7))


@GUL_BARA
def test_a_move_inside_the_gulbara_home(variant):
    generated = gen(variant)
    v, m, cands = _mutants(generated, _home_pick)
    assert cands
    for gi, ai, k, o in cands:
        mm = one_game(m, gi)
        a = mm.games[0].actions[ai]
        part = part_of(a, k)
        me, _ = o.before
        p, i = next((p, i) for p in range(6, 0, -1) if me[p - 1]
                    for i, s in enumerate(part.steps) if s.dst != 0 and p - (s.src - s.dst) >= 1)
        d = part.steps[i].src - part.steps[i].dst
        part.steps[i] = Step(p, p - d)
        check_first(mm, part_loc(a, k), {"home-move"})


def _chains(m):
    for gi, g in enumerate(m.games):
        for ai, a in enumerate(g.actions):
            if a.kind == Kind.ROLL and any(s.kind == "chain" for s in a.segments):
                yield gi, ai


@GUL_BARA
def test_a_chain_cut_short(variant):
    generated = gen(variant)
    v, m = generated
    cands = list(_chains(m))[:12]
    assert cands
    for gi, ai in cands:
        mm = one_game(m, gi)
        a = mm.games[0].actions[ai]
        last = max(i for i, s in enumerate(a.segments) if s.kind == "chain")
        a.segments = a.segments[:last]
        loc = a.segments[-1].loc if a.segments else a.loc
        check_first(mm, loc, {"doubles-chain"})


@GUL_BARA
def test_a_chain_continued_past_6_6(variant):
    generated = gen(variant)
    v, m = generated
    done = 0
    for gi, g in enumerate(m.games):
        for ai, a in enumerate(g.actions):
            if a.kind != Kind.ROLL or not (a.dice == (6, 6) or any(s.kind == "chain" and s.dice[0] == 6
                                                                     for s in a.segments)):
                continue              # the chain must reach 6-6 in the record
            mm = one_game(m, gi)
            b = mm.games[0].actions[ai]
            last = b.segments[-1].loc if b.segments else b.loc
            loc = Loc(last.line, last.column + 40)
            b.segments.append(Segment("chain", b.player, (6, 6, 6, 6), [], loc, "66:"))
            check_first(mm, loc, {"doubles-chain"})
            done += 1
            if done >= 10:
                return
    assert done


@GUL_BARA
def test_a_handover_played_by_the_wrong_side(variant):
    generated = gen(variant)
    v, m = generated
    done = 0
    for gi, g in enumerate(m.games):
        for ai, a in enumerate(g.actions):
            for si, s in enumerate(a.segments):
                if s.kind != "handover":
                    continue
                mm = one_game(m, gi)
                seg = mm.games[0].actions[ai].segments[si]
                seg.player = 1 - seg.player
                check_first(mm, seg.loc, {"handover"})
                done += 1
                if done >= 10:
                    return
    assert done


@ALL
def test_a_clock_time_over_the_limit(variant):
    generated = gen(variant)
    v, m = generated
    rng = random.Random(3)
    for _ in range(8):
        gi = rng.randrange(len(m.games))
        mm = one_game(m, gi)
        mm.tags["TimeControl"] = "120"
        acts = [a for a in mm.games[0].actions if a.kind == Kind.ROLL]
        for a in acts:
            a.clock = float(rng.randint(1, 120))
        bad = rng.choice(acts)
        bad.clock = 120.5
        check_first(mm, bad.loc, {"time-limit"})
