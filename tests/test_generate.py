"""The random legal game generator (nardy_analyze.generate): determinism, legality re-checked
independently (the naive long-nardy generator; GNU Backgammon's move generator for backgammon),
results and match scores."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_long import naive_plays, walk_segments

from nardy_analyze.engine.core import Dice
from nardy_analyze.engine import generate, get_variant
from nardy_analyze.engine.judge import judge
from nardy_analyze.engine.long import START
from nardy_analyze.generate import _play_segment, generate_match
from nardy_analyze.record import Kind
from nardy_analyze.replay import replay

VARIANTS = ("backgammon", "long", "gulbara")


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_seed_same_output(variant):
    a = generate_match(variant, 4, seed=123)
    b = generate_match(variant, 4, seed=123)
    c = generate_match(variant, 4, seed=124)
    assert a == b
    assert a != c
    assert a.tags["Variant"] == get_variant(variant).name and a.tags["Seed"] == "123"


def final_positions(variant, match):
    """Replay each game's single-die steps (no rules: the record as written) to its final position."""
    rules = get_variant(variant).rules
    out = []
    for g in match.games:
        pos = list(rules.initial())
        for a in g.actions:
            if a.kind != Kind.ROLL:
                continue
            for player, steps in [(a.player, a.steps)] + [(s.player, s.steps) for s in a.segments]:
                for s in steps:
                    me, opp, hit = rules.apply(pos[player], pos[1 - player], s.src, s.dst)
                    assert hit == s.hit
                    pos[player], pos[1 - player] = me, opp
        out.append(pos)
    return out


def independent_level(variant, winner, loser, koks=False):
    off = 15 - sum(loser)
    if off:
        return 1
    if variant == "backgammon":
        # a loser's checker on the bar or in the winner's home (the loser's 19-24)
        return 3 if loser[24] or any(loser[p - 1] for p in range(19, 25)) else 2
    return 3 if koks and any(loser[p - 1] for p in range(13, 19)) else 2


@pytest.mark.parametrize("variant,options", [("backgammon", None), ("long", None), ("gulbara", None),
                                             ("long", {"koks": True}), ("backgammon", {"scoring": "nardy500"})])
def test_results_and_scores(variant, options):
    m = generate_match(variant, 12, seed=5, players=("Ann", "Bob"), options=options)
    assert len(m.games) == 12
    score = [0, 0]
    for g, (p0, p1) in zip(m.games, final_positions(variant, m)):
        assert g.players == ("Ann", "Bob")
        assert g.score == tuple(score)
        end = g.actions[-1]
        assert end.kind == Kind.WIN
        w = end.player
        pos = (p0, p1)
        cube = 1
        for a, b in zip(g.actions, g.actions[1:]):
            if a.kind == Kind.DOUBLE:
                assert a.value == 2 * cube and b.kind in (Kind.TAKE, Kind.DROP) and b.player != a.player
                if b.kind == Kind.TAKE:
                    cube *= 2
        if g.actions[-2].kind == Kind.DROP:
            assert g.actions[-3].player == w and end.value == cube
        else:
            assert sum(pos[w]) == 0 and sum(pos[1 - w]) > 0
            level = independent_level(variant, pos[w], pos[1 - w], koks=bool(options and options.get("koks")))
            stake = 500 if options and options.get("scoring") == "nardy500" else 1
            assert end.value == level * stake * cube
        score[w] += end.value
        # the players alternate, one roll each
        rolls = [a for a in g.actions if a.kind == Kind.ROLL]
        assert all(x.player != y.player for x, y in zip(rolls, rolls[1:]))
        if variant == "backgammon":
            assert rolls[0].dice[0] != rolls[0].dice[1]
    cube_on = get_variant(variant, options).opt("cube") and not (options and options.get("scoring") == "nardy500")
    doubles = sum(1 for g in m.games for a in g.actions if a.kind == Kind.DOUBLE)
    assert (doubles > 0) == bool(cube_on)


@pytest.mark.parametrize("options", [None, {"jacoby": True}, {"cube": False}, {"scoring": "nardy500"},
                                     {"cube_limit": 2}])
def test_generated_backgammon_validates_with_no_finding(options):
    """The backgammon replayer (independent of the generator) accepts every generated game: plays, cube
    actions, results and scores."""
    v = get_variant("backgammon", options)
    m = generate_match("backgammon", 25, seed=17, options=options)
    rep = replay(m, v)
    assert rep.findings == []
    assert sum(1 for g in rep.games if g.winner is not None) == 25


@pytest.mark.parametrize("variant", ["long", "gulbara"])
def test_every_generated_play_is_legal_by_the_naive_generator(variant):
    rules = get_variant(variant).rules
    m = generate_match(variant, 8, seed=99)
    seen = Counter()

    def check(spec, me, opp, after, steps, first_turn, dice):
        naive = naive_plays(me, opp, spec.numbers, gulbara=variant == "gulbara",
                            heads_left=spec.turn[0], heads_allowed=spec.turn[1])
        assert after in naive, (spec, me, opp, steps)
        # single-die steps, each one a number of the segment
        nums = list(spec.numbers)
        for s in steps:
            d = s.src - s.dst if s.dst else min(n for n in nums if n >= s.src)
            nums.remove(d)
        seen[spec.kind] += 1

    walk_segments(rules, m, check)
    assert seen["roll"] > 100
    if variant == "gulbara":
        assert seen["chain"] > 0 and seen["handover"] > 0


def test_every_generated_backgammon_play_is_legal_by_gnubg():
    gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn (GNU Backgammon's move generator) is not installed")
    rules = get_variant("backgammon").rules
    m = generate_match("backgammon", 6, seed=3)
    n = 0
    for g in m.games:
        pos = list(rules.initial())
        for a in g.actions:
            if a.kind != Kind.ROLL:
                continue
            p = a.player
            me, opp = pos[p], pos[1 - p]
            for s in a.steps:
                me, opp, _ = rules.apply(me, opp, s.src, s.dst)
            keys = gnubg_nn.moves([list(pos[1 - p]), list(pos[p])], a.dice[0], a.dice[1], 0)
            legal = {tuple(tuple(x) for x in reversed(gnubg_nn.boardfromkey(k))) for k in keys} or \
                {(pos[p], pos[1 - p])}
            assert (me, opp) in legal
            pos[p], pos[1 - p] = me, opp
            n += 1
    assert n > 100


def test_gulbara_segments_are_recorded_only_with_steps():
    m = generate_match("gulbara", 10, seed=8)
    segs = [s for g in m.games for a in g.actions if a.kind == Kind.ROLL for s in a.segments]
    assert segs and all(s.steps for s in segs)
    assert {s.kind for s in segs} == {"chain", "handover"}
    for g in m.games:
        for a in g.actions:
            for s in a.segments:
                assert s.player == (a.player if s.kind == "chain" else 1 - a.player)


def test_uniform_choice_among_results():
    """The first-turn 3-3 of long nardy has two legal results: each is picked about half the time."""
    rules = get_variant("long").rules
    turn = rules.start_turn(START, START, True, (3, 3))
    rng = random.Random(1)
    c = Counter(_play_segment(rules, START, START, (3, 3, 3, 3), turn, rng)[0] for _ in range(2000))
    assert len(c) == 2 and all(800 < n < 1200 for n in c.values())


def test_other_options_reach_the_rules():
    m = generate_match("gulbara", 3, seed=1, options={"chain_from_turn": 4})
    assert m.tags["chain_from_turn"] == "4"
    for g in m.games:
        rolls = [a for a in g.actions if a.kind == Kind.ROLL]
        for a in rolls[:3]:
            assert all(s.kind != "chain" for s in a.segments)


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=2**31), st.sampled_from(["long", "gulbara"]))
def test_judge_accepts_every_generated_segment_and_reports_its_numbers(seed, variant):
    """judge() with the driver's numbers and turn state accepts each generated play, reaches the same
    position and reports the numbers it used (what the driver needs for the handover); a step moved one
    point further is refused unless it reaches a legal position all the same."""
    rules = get_variant(variant).rules
    m = generate_match(variant, 1, seed)

    def check(spec, me, opp, after, steps, first_turn, dice):
        written = [(s.src, s.dst) for s in steps]
        v = judge(rules, me, opp, Dice.of(spec.numbers), written, turn=spec.turn)
        assert v.legal, (v.problems, spec, me, opp, written)
        assert v.after == after
        if variant == "gulbara":
            used = sorted(s.src - s.dst if s.dst else s.src for s in steps)
            assert sorted(v.used) == used
        if steps and steps[0].dst > 1:
            bad = [(steps[0].src, steps[0].dst - 1)] + written[1:]
            moved = list(me)
            for src, dst in bad:
                moved[src - 1] -= 1
                if dst:
                    moved[dst - 1] += 1
            legal = naive_plays(me, opp, spec.numbers, gulbara=variant == "gulbara",
                                heads_left=spec.turn[0], heads_allowed=spec.turn[1])
            # refused, unless it happens to reach a legal position (6/1 5/off = 6/off 5/1 with 6-4)
            assert judge(rules, me, opp, Dice.of(spec.numbers), bad, turn=spec.turn).legal == \
                ((tuple(moved), opp) in legal)

    walk_segments(rules, m, check)


def test_gulbara_turn_structure_independently():
    """Each Gul bara roll as recorded follows Gul bara's rules 1-2 (docs/rules.md), checked without the turn driver: a plain
    roll has at most one handover, by the opponent, of the numbers the roller left; a double d (chains on)
    runs d, d+1, ..., 6 in order, each double's handover holding the numbers its roller part left."""
    m = generate_match("gulbara", 30, seed=4)
    chains = handovers = 0
    for g in m.games:
        for a in (x for x in g.actions if x.kind == Kind.ROLL):
            d1, d2 = a.dice
            opp = 1 - a.player
            if d1 != d2:
                assert all(s.kind == "handover" and s.player == opp for s in a.segments)
                assert len(a.segments) <= 1
                if a.segments:
                    left = [d1, d2]
                    for st_ in a.steps:
                        left.remove(st_.src - st_.dst if st_.dst else st_.src)
                    assert sorted(a.segments[0].dice) == sorted(left)
                    handovers += 1
                continue
            expect = d1
            roller_steps = len(a.steps)
            for s in a.segments:
                x = s.dice[0]
                assert set(s.dice) == {x}
                if s.kind == "chain":
                    assert s.player == a.player and len(s.dice) == 4 and expect < x <= 6
                    expect, roller_steps = x, len(s.steps)
                    chains += 1
                else:
                    assert s.kind == "handover" and s.player == opp
                    if x != expect:       # the roller could play nothing of the double x
                        assert expect < x <= 6
                        expect, roller_steps = x, 0
                    assert len(s.dice) == 4 - roller_steps and len(s.steps) <= len(s.dice)
                    handovers += 1
    assert chains > 20 and handovers > 20


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=2**31),
       st.sampled_from([("long", None), ("long", {"head_exception": "conditional"}), ("gulbara", None),
                        ("gulbara", {"chain_from_turn": 4}), ("gulbara", {"head_exception": "conditional"})]))
def test_generated_segments_agree_with_the_naive_generator(seed, case):
    variant, options = case
    rules = get_variant(variant, options).rules
    m = generate_match(variant, 1, seed, options=options)

    def check(spec, me, opp, after, steps, first_turn, dice):
        naive = naive_plays(me, opp, spec.numbers, gulbara=variant == "gulbara",
                            heads_left=spec.turn[0], heads_allowed=spec.turn[1])
        assert after in naive
        assert set(generate(rules, me, opp, spec.numbers, spec.turn).plays) == naive

    walk_segments(rules, m, check)


def test_a_preset_that_sets_nothing_for_the_variant_is_refused():
    """generate --rules NAME --variant V: a Rules tag claims the preset's rules; a preset without rules for V
    (federation and Gul bara) is an argument error, never a tag nobody's rules stand behind."""
    from nardy_analyze.engine.presets import PRESETS
    from nardy_analyze.generate import generate_match as make
    from nardy_analyze.engine import RuleSet

    for preset in PRESETS.values():
        for variant in ("backgammon", "long", "gulbara"):
            options = RuleSet.from_command_line([], preset.name, variant)
            if preset.covers(variant):
                assert make(variant, 1, 1, options=options).tags["Rules"] == preset.name
            else:
                with pytest.raises(ValueError, match="--rules " + preset.name):
                    make(variant, 1, 1, options=options)


def test_generate_stream_makes_the_games_generate_match_makes_and_writes_them_alike():
    """The games made one at a time (``generate_stream``, what the command writes as they come) are
    generate_match's, and the .ngn text written in pieces is ``write``'s."""
    from nardy_analyze.generate import generate_match, generate_stream
    from nardy_analyze.notation import ngn
    for variant in ("backgammon", "long", "gulbara"):
        whole = generate_match(variant, 6, seed=11)
        match, made = generate_stream(variant, 6, seed=11)
        assert match.games == []
        pieces = list(ngn.iter_write(match, made))
        assert len(pieces) == 7                       # the tags, then one piece per game
        assert "".join(pieces) == ngn.write(whole)
    empty = generate_match("long", 0, seed=1)
    assert "".join(ngn.iter_write(empty)) == ngn.write(empty)
