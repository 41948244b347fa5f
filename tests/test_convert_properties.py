"""Property tests: random legal backgammon matches (the engine's own plays, random dice, cube actions,
resignations) survive mat -> sgf -> mat, mat -> json -> mat and sgf -> json -> sgf unchanged."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from roundtrip import actual, expected, first_difference
from nardy_analyze.engine.core import Dice
from nardy_analyze import notation
from nardy_analyze.engine import get_variant
from nardy_analyze.engine.core import generate
from nardy_analyze.record import Action, Game, Kind, Loc, Match, Step
from nardy_analyze.convert import write_text

RULES = get_variant("backgammon").rules


def random_match(seed: int, length: int, games: int) -> Match:
    rnd = random.Random(seed)
    m = Match(path="gen.mat", notation="mat", match_length=length)
    m.tag_items = [("Site", "Generated"), ("Seed", str(seed))]
    m.tags = dict(m.tag_items)
    score = [0, 0]
    line = 1
    for number in range(1, games + 1):
        if length and max(score) >= length:
            break
        g = Game(number=number, loc=Loc(line, 1), written_number=number, players=("Ann Ö", "Борис"),
                 score=(score[0], score[1]))
        pos = list(RULES.initial())
        p = rnd.randint(0, 1)
        cube, owner, turns = 1, None, 0
        crawford = length and length - 1 in score
        while True:
            line += 1
            if (not crawford and turns > 2 and owner in (None, p) and rnd.random() < 0.04
                    and (not length or cube < 2 * length)):
                g.actions.append(Action(Kind.DOUBLE, p, Loc(line, 6), value=cube * 2, text="Doubles"))
                if rnd.random() < 0.3:
                    g.actions.append(Action(Kind.DROP, 1 - p, Loc(line, 30), text="Drops"))
                    g.actions.append(Action(Kind.WIN, p, Loc(line + 1, 6), value=cube, text="Wins"))
                    score[p] += cube
                    break
                g.actions.append(Action(Kind.TAKE, 1 - p, Loc(line, 30), text="Takes"))
                cube, owner = cube * 2, 1 - p
            d1, d2 = rnd.randint(1, 6), rnd.randint(1, 6)
            if turns == 0:
                while d1 == d2:
                    d1, d2 = rnd.randint(1, 6), rnd.randint(1, 6)
            ps = generate(RULES, pos[p], pos[1 - p], Dice.roll(max(d1, d2), min(d1, d2)).numbers)
            after, path = rnd.choice(list(ps.plays.items()))
            steps = [Step(s, d) for s, d, _ in path]
            if steps and rnd.random() < 0.3 and len(steps) >= 2 and steps[0].dst == steps[1].src:
                steps = [Step(steps[0].src, steps[1].dst)] + steps[2:]     # a combined move
            g.actions.append(Action(Kind.ROLL, p, Loc(line, 6), dice=(d1, d2), dice_text=f"{d1}{d2}",
                                    steps=steps, text=f"{d1}{d2}:"))
            pos[p], pos[1 - p] = after
            turns += 1
            if sum(pos[p]) == 0:
                pts = cube * RULES.win_level(pos[p], pos[1 - p])
                g.actions.append(Action(Kind.WIN, p, Loc(line + 1, 6), value=pts, text="Wins"))
                score[p] += pts
                break
            if turns > 30 and rnd.random() < 0.05:
                level = rnd.randint(1, RULES.max_level(pos[p], pos[1 - p]))
                g.actions.append(Action(Kind.RESIGN, 1 - p, Loc(line + 1, 6), value=cube * level,
                                        text="Losses"))
                g.actions.append(Action(Kind.WIN, p, Loc(line + 1, 40), value=cube * level, text="Wins"))
                score[p] += cube * level
                break
            p = 1 - p
        m.games.append(g)
        line += 2
    return m


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.sampled_from([0, 1, 3, 5, 7]), games=st.integers(1, 3))
def test_generated_matches_survive_every_notation(seed, length, games):
    m = notation.read_text(write_text(random_match(seed, length, games), "mat"), "gen.mat")
    assert not m.problems and not any(g.problems for g in m.games)
    want = expected(m)
    for via in ("sgf", "json"):
        middle = notation.read_text(write_text(m, via), "x." + via)
        back = notation.read_text(write_text(middle, "mat"), "y.mat")
        got = actual(back)
        assert got == want, (via, first_difference(want, got))
    s1 = write_text(m, "sgf")
    via_json = notation.read_text(write_text(notation.read_text(s1, "a.sgf"), "json"), "b.json")
    assert write_text(via_json, "sgf") == s1
