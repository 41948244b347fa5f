"""The compiled paths of reading and replaying against their Python references.

* ``notation/_matrows.c`` (``mat.MAT_GAME``, ``mat.GAME_ACTIONS``): a whole common ``.mat`` game (its
  header, score line and rows), or a game's common rows, read and built into Actions in one call, else None
  (then the Python reader reads the game).  With them and without them, every record reads to the same
  Match: real records, and games made of random rows of every kind, well formed and not.
* ``CoreRules.quick_rolls`` (``replay.game.BATCH``): a run of plainly legal rolls replayed in one call (in
  Gul bara, turns of several parts too: chains and handovers).  With it and without it, the replay gives the
  same findings and reports: real records, generated games of every variant, and the same games with their
  plays changed at random (illegal plays, combined moves, plays that stop short, hit marks on the way, a
  turn's chain and handover parts left out, reordered, given to the other side or other numbers).

Skipped (with the reason) where the compiled core is not in use; the pure-Python suite runs the references.
"""
from __future__ import annotations

import copy
import dataclasses
import random

import pytest
from hypothesis import given, settings, strategies as st

from nardy_analyze.analyze import validate_match
from nardy_analyze.engine import compiled
from nardy_analyze.generate import generate_match
from nardy_analyze.notation import mat, normalise_text
from nardy_analyze.notation import sgf as sgf_mod
from nardy_analyze.record import Kind, Step
from nardy_analyze.replay import game as game_mod
from nardy_analyze.replay.visitor import Events, ReplayVisitor

from helpers import CORPUS, ROOT

needs_rows = pytest.mark.skipif(mat.GAME_ACTIONS is None, reason="the compiled .mat row reader is not in use "
                                "(not built, or NARDY_ANALYZE_PURE is set)")
needs_core = pytest.mark.skipif(compiled.CoreRules is None, reason="the compiled core is not in use (not built, "
                                "or NARDY_ANALYZE_PURE is set)")


def _read(text: str, path: str, compiled_rows: bool):
    """The record read with the compiled readers (a whole common game, ``MAT_GAME``; the rows of any other,
    ``GAME_ACTIONS``) or with the Python reader alone."""
    saved = mat.GAME_ACTIONS, mat.MAT_GAME
    try:
        if not compiled_rows:
            mat.GAME_ACTIONS = mat.MAT_GAME = None
        return mat._Reader(normalise_text(text), path).run()
    finally:
        mat.GAME_ACTIONS, mat.MAT_GAME = saved


class _Counting:
    """``MAT_GAME`` and ``GAME_ACTIONS`` replaced by wrappers that note, per call, whether the compiled reader
    read the game (or its rows); restored on exit."""

    def __init__(self) -> None:
        self.counted: list[bool] = []

    def __enter__(self):
        self.saved = mat.GAME_ACTIONS, mat.MAT_GAME
        whole, rows = mat.MAT_GAME, mat.GAME_ACTIONS

        def game(*args):
            r = whole(*args)
            if r is not None:
                self.counted.append(True)
            return r

        def actions(*args):
            r = rows(*args)
            self.counted.append(r is not None)
            return r
        mat.MAT_GAME, mat.GAME_ACTIONS = game, actions
        return self

    def __exit__(self, *exc) -> None:
        mat.GAME_ACTIONS, mat.MAT_GAME = self.saved


def _records():
    files = sorted((ROOT / "examples").glob("*.mat")) + sorted((ROOT / "tests" / "fixtures").rglob("*.mat"))
    if CORPUS.is_dir():
        files += sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))[::4]
        files += sorted((CORPUS / "mutants").rglob("*.mat"))
        files += sorted((CORPUS / "bglab").rglob("*.txt"))[::12]
    return files


@needs_rows
def test_compiled_rows_read_every_record_as_the_python_reader():
    files = _records()
    assert len(files) >= 15          # (the project's own; the shared corpus adds hundreds where it is)
    taken = 0
    with _Counting() as c:
        for f in files:
            text = mat.decode(f.read_bytes())
            fast = _read(text, str(f), True)
            slow = _read(text, str(f), False)
            assert fast == slow, f
            taken += len(fast.games)
    assert taken > 50
    assert sum(c.counted) > 0.9 * len(c.counted)       # nearly every game read by the compiled reader


# cells the compiled reader reads: plain and odd plays (repeat counts, chains, hits, bear-offs), cube and result
# cells, and plays whose words it must leave to the Python reader (a point past 25, "off" in the middle, a
# repeat count out of range, too many steps: the row is skipped with a message)
_GOOD = ["53: 8/3 6/3", "65:", "44: bar/21(2) 13/9*/5", "61: 13/7*/6", "31: 6/5 8/5", "62: 6/off 2/off",
         "66: 24/18(4)", "55: 13/3*(2)", "21: Bar/23 6/5", "43: 25/21 24/21", "42: 008/004 006/004",
         "11: 6/5*/4*/3*/2*", "53: 8/3*(2)", "53: 6/OFF 3/Off", "00: 8/3", "64: Cannot Move", "63: cannot move",
         "63: Cannot  Move", "Doubles => 2", "Double => 4", "doubles=>2", "Takes", "Take", "Drops",
         "Wins 1 point", "Wins 2 points and the match", "wins 3 Points and wins the match",
         "Wins 1 point  and   the  match", "losses 12 Points", "Losses 2 point", "00: Cannot Move",
         "53: 26/21", "53: 8/3(16)", "53: 8/3(0)", "53: 0/5/3", "53: 8/off/3", "66: 24/18(9) 13/7(9)",
         "53: 0/off", "53: 25/off", "53: 8/26", "53: 27/26"]
# cells it leaves to the Python reader (Lark, or nothing reads them)
_ODD = ["53: 8/3 6/3,", "53: 13/8*6/3", "61: ????", "????", "Resigns", "53: 8/3/", "Doubles =>", "Wins 2",
        "53:8/3", "7x: 1/2", "Illegal play (1;2)", "Beavers", "123456)", "1234567)", "13/9", "Wins 1234567 points",
        "63: 8/5 Cannot Move", "Cannot Move", "63: Cannot Moves", "63:Cannot Move", "53: 8/3 6/3x",
        "Losses 1 points and the match", "Losses", "Losses 2", "Resigns 2 points", "53: 8/3 ü", "Takes\r",
        "Wins 1 points and the matchx"]
_CELL = st.one_of(st.sampled_from(_GOOD), st.sampled_from(_GOOD), st.sampled_from(_GOOD), st.sampled_from(_ODD))
_GAPS = [" ", "  ", "\t", "    ", "          ", ""]
_ROW = st.tuples(st.sampled_from(["", " ", "  1) ", " 12)  ", "\t", "  3)", "  4)    ", "  5)     ", " 7)  ",
                                  "      ", "123456) "]),
                 st.lists(st.tuples(_CELL, st.sampled_from(_GAPS)), max_size=4),
                 st.sampled_from(["", " ", "  "]))
_SCORES = [" Alice : 0     Bob : 0", "  White : 3                        Black : 5", " A : 0 B : 0", "A:1 B:2"]


@needs_rows
def test_compiled_rows_read_random_rows_as_the_python_reader():
    counting = _Counting()

    @settings(max_examples=400, deadline=None)
    @given(st.lists(_ROW, min_size=1, max_size=5), st.sampled_from(_SCORES))
    def check(rows, score):
        lines = ["1 point match", "", " Game 1", score]
        for lead, cells, trail in rows:
            lines.append(lead + "".join(c + gap for c, gap in cells).rstrip(" \t") + trail)
        text = "\n".join(lines) + "\n"
        with counting:
            fast = _read(text, "x.mat", True)
        assert fast == _read(text, "x.mat", False), text

    check()
    assert sum(counting.counted) >= 60, len(counting.counted)    # games the compiled reader read, compared


@needs_rows
def test_compiled_rows_place_cells_as_the_python_reader():
    """Every lead (move numbers at several gaps), gap and score line (thresholds from 7 to 22) with one and two
    cells: the left/right placement of each cell (``mat.cell_side``) is the Python reader's."""
    leads = ["", " ", "  1) ", " 12)  ", "  3)", "  4)   ", "  4)    ", "  5)     ", "      ", "123456) ",
             "  7) 8) "]
    cells = ["53: 8/3 6/3", "Doubles => 2", "Takes", "Wins 1 point", "64: Cannot Move"]
    compared = 0
    for cell in _GOOD + _ODD:            # every cell on its own, at both sides
        for row in ("  1) " + cell, "  1)                             " + cell, cell):
            text = "\n".join(["1 point match", "", " Game 1", _SCORES[0], row]) + "\n"
            assert _read(text, "x.mat", True) == _read(text, "x.mat", False), text
    for score in _SCORES:                # a second "N)" inside the row, at every column from 2 to 30
        for first in ("53: 8/3 6/3", "  1) 53: 8/3 6/3", ""):
            for pad in range(1, 20):
                row = first + " " * pad + "2) 64: 6/2 5/2"
                text = "\n".join(["1 point match", "", " Game 1", score, row]) + "\n"
                assert _read(text, "x.mat", True) == _read(text, "x.mat", False), text
        for lead in leads:
            for gap in _GAPS:
                for a in cells:
                    for b in [None] + cells:
                        row = lead + a + ("" if b is None else gap + b)
                        text = "\n".join(["1 point match", "", " Game 1", score, row]) + "\n"
                        assert _read(text, "x.mat", True) == _read(text, "x.mat", False), text
                        compared += 1
    assert compared > 5000


# -- the replay's batch ----------------------------------------------------------------------------------------

def _reports(matches):
    out = []
    for m in matches:
        r = validate_match(m)
        out.append(([f.as_dict() for f in r.findings], [(g.turns, g.winner, g.points, g.how) for g in r.games]))
    return out


def _both(matches, monkeypatch):
    fast = _reports(matches)
    with monkeypatch.context() as mp:
        mp.setattr(game_mod, "BATCH", False)
        slow = _reports(matches)
    return fast, slow


@needs_core
@pytest.mark.parametrize("limit", ["8", str(2 ** 31 - 1), str(2 ** 31), str(2 ** 63), "9" * 30])
def test_a_cube_limit_of_any_size_is_replayed_as_the_python_replay(limit, monkeypatch):
    """A ``CubeLimit`` tag too large for the core's integers (a C long, 32 bits on some platforms) leaves the
    cube's actions to the Python handlers: the same report as without the batch, never an internal error."""
    text = (ROOT / "examples" / "club-night.mat").read_text(encoding="utf-8")
    text = f'; [CubeLimit "{limit}"]\n' + text
    match = mat.read(text, "limit.mat")
    fast, slow = _both([match], monkeypatch)
    assert fast == slow
    assert not any(f["rule"] == "internal-error" for f in fast[0][0])


@needs_core
@pytest.mark.parametrize("factor", [1, 2 ** 28, 2 ** 40, 10 ** 30])
def test_a_cube_of_any_size_is_replayed_as_the_python_replay(factor, monkeypatch):
    """A double written with a value too large for the core's integers (and the doubles after it) is replayed
    as without the batch: the Python handlers take the cube from there, never an internal error."""
    import re
    text = (ROOT / "examples" / "club-night.mat").read_text(encoding="utf-8")
    text = re.sub(r"Doubles => (\d+)", lambda m: f"Doubles => {int(m.group(1)) * factor}", text)
    fast, slow = _both([mat.read(text, "cube.mat")], monkeypatch)
    assert fast == slow
    assert not any(f["rule"] == "internal-error" for f in fast[0][0])


@needs_core
def test_batch_replays_real_records_as_the_python_replay(monkeypatch):
    from nardy_analyze.inputs import discover, load
    files = [f for f in _records() if f.suffix in (".mat", ".txt")]
    files += sorted((ROOT / "tests" / "fixtures").rglob("*.ngn")) + sorted((ROOT / "examples").glob("*.ngn"))
    matches = [load(e) for e in discover([str(f) for f in files])]
    fast, slow = _both(matches, monkeypatch)
    assert fast == slow
    assert sum(len(f) for f, _ in fast) >= 5           # findings were among those compared


def _mutate(match, rng: random.Random, rate: float):
    """The match with some plays changed: steps dropped, joined into combined moves, reordered, moved by a
    point, marked as hits, or a play written as nothing; a turn's further parts (Gul bara) left out, one of
    them left out, put out of order, given to the other side or other numbers, or written twice."""
    m = copy.deepcopy(match)
    for g in m.games:
        for a in g.actions:
            if a.kind is not Kind.ROLL or not a.steps or rng.random() > rate:
                continue
            if a.segments and rng.random() < 0.3:      # Gul bara: the chain and handovers changed
                segs = list(a.segments)
                how = rng.randrange(6)
                k = rng.randrange(len(segs))
                if how == 0:
                    segs = []                          # left out
                elif how == 1:
                    segs.pop(k)                        # one left out
                elif how == 2 and len(segs) > 1:
                    segs[k], segs[-1] = segs[-1], segs[k]   # out of order
                elif how == 3:
                    segs[k] = dataclasses.replace(segs[k], player=1 - segs[k].player)   # the other side's
                elif how == 4:
                    d = rng.randint(1, 6)
                    segs[k] = dataclasses.replace(segs[k], dice=(d,) * len(segs[k].dice or (d,)))  # other numbers
                else:
                    segs.insert(k, copy.deepcopy(segs[k]))  # written twice
                a.segments = segs
                continue
            steps = list(a.steps)
            how = rng.randrange(6)
            if how == 0:
                steps.pop(rng.randrange(len(steps)))
            elif how == 1 and len(steps) >= 2 and steps[0].dst == steps[1].src:
                steps[0:2] = [Step(steps[0].src, steps[1].dst, steps[1].hit)]
            elif how == 2:
                rng.shuffle(steps)
            elif how == 3:
                k = rng.randrange(len(steps))
                s = steps[k]
                steps[k] = Step(s.src, max(0, min(24, s.dst + rng.choice((-1, 1)))), s.hit)
            elif how == 4:
                k = rng.randrange(len(steps))
                steps[k] = Step(steps[k].src, steps[k].dst, True)
            else:
                steps = []
            a.steps = steps
    return m


_GENERATED: dict = {}


def _generated(variant: str):
    if variant not in _GENERATED:
        _GENERATED[variant] = generate_match(variant, 12, seed=31)
    return _GENERATED[variant]


@needs_core
@pytest.mark.parametrize("variant", ["backgammon", "long", "gulbara"])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), rate=st.sampled_from([0.0, 0.02, 0.1, 0.4]))
def test_batch_replays_generated_and_changed_games_as_the_python_replay(variant, seed, rate):
    m = _mutate(_generated(variant), random.Random(seed), rate)
    with pytest.MonkeyPatch.context() as mp:
        fast, slow = _both([m], mp)
    assert fast == slow


def _mutate_cube(match, rng: random.Random, rate: float, length: int):
    """The match (played to ``length``, 0: money) with some cube actions changed: given to the other player,
    written twice, left out, their value changed or left out, a double written as a take or the other way,
    and doubles put before rolls (the doubler's own, the opening one)."""
    m = copy.deepcopy(match)
    m.match_length = length
    for g in m.games:
        out = []
        for a in g.actions:
            if a.kind in (Kind.DOUBLE, Kind.TAKE, Kind.DROP) and rng.random() < rate:
                how = rng.randrange(6)
                if how == 0:
                    a = dataclasses.replace(a, player=1 - a.player)
                elif how == 1:
                    out.append(copy.deepcopy(a))
                elif how == 2:
                    continue
                elif how == 3 and a.kind is Kind.DOUBLE:
                    a = dataclasses.replace(a, value=rng.choice([None, 1, 3, (a.value or 2) * 2]))
                elif how == 4:
                    a = dataclasses.replace(a, kind=Kind.TAKE if a.kind is Kind.DOUBLE else Kind.DOUBLE,
                                            value=None if a.kind is Kind.DOUBLE else rng.choice([None, 2, 4]))
            elif a.kind is Kind.ROLL and rng.random() < rate / 3:
                out.append(dataclasses.replace(a, kind=Kind.DOUBLE, player=rng.randrange(2), value=None, dice=None,
                                               dice_text="", steps=[], text="Doubles"))
            out.append(a)
        g.actions = out
    return m


def _full_reports(matches, options):
    out = []
    for m in matches:
        r = validate_match(m, "backgammon", options)
        out.append(([f.as_dict() for f in r.findings], [dataclasses.astuple(g) for g in r.games]))
    return out


@needs_core
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), rate=st.sampled_from([0.0, 0.1, 0.3, 0.7]), length=st.sampled_from([0, 5, 11]),
       limit=st.sampled_from([None, 2, 4, 64]))
def test_batch_takes_the_cube_s_plain_actions_as_the_python_replay(seed, rate, length, limit):
    """Without an observer the batch takes the plain doubles and takes too (``game.taken_cube``): the reports
    (findings with their cube and owner, each game's result and points) are the Python replay's, on generated
    money and match games with cube actions changed, under cube limits."""
    m = _mutate_cube(_generated("backgammon"), random.Random(seed), rate, length)
    options = {"cube_limit": limit} if limit else None
    fast = _full_reports([m], options)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(game_mod, "BATCH", False)
        slow = _full_reports([m], options)
    assert fast == slow


@needs_core
def test_the_batch_takes_cube_actions():
    """The batch does take them: a game's doubles and takes are not handed to Python one by one."""
    from nardy_analyze.replay import cube as cube_mod
    m = _generated("backgammon")
    doubles = sum(a.kind is Kind.DOUBLE for g in m.games for a in g.actions)
    assert doubles >= 10
    seen = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(game_mod.HANDLERS, Kind.DOUBLE, lambda *args: seen.append(args) or cube_mod.on_double(*args))
        validate_match(m)
    assert len(seen) < doubles / 4, (len(seen), doubles)


@needs_core
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), rate=st.sampled_from([0.0, 0.1, 0.3, 0.7]), length=st.sampled_from([0, 5, 11]),
       limit=st.sampled_from([None, 2, 4, 64]))
def test_a_sparse_observer_is_told_the_python_replay_s_with_the_cube_in_the_batch(seed, rate, length, limit):
    """With a sparse observer (the SGF writer's view) the batch takes the plain doubles and takes too: the states
    told (each roll's cube, owner, boards and move number), the game ends and the findings are the Python
    replay's, on generated money and match games with cube actions changed, under cube limits; so is the SGF
    text."""
    from nardy_analyze.judged import variant_for
    from nardy_analyze.replay import replay
    from nardy_analyze.replay.normal import normalise
    m = _mutate_cube(_generated("backgammon"), random.Random(seed), rate, length)
    options = {"cube_limit": limit} if limit else {}

    def seen(batch: bool):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(game_mod, "BATCH", batch)
            v = _Plays()
            replay(m, variant_for(m, "backgammon", options), visitor=v)
            return v.seen, sgf_mod.write(m, normalise(m, "backgammon", options, exact=False))
    assert seen(True) == seen(False)


@needs_core
def test_the_batch_takes_cube_actions_with_a_sparse_observer():
    """The SGF writer's view does not hand the plain doubles and takes to Python one by one either."""
    from nardy_analyze.replay import cube as cube_mod
    from nardy_analyze.replay.normal import normalise
    m = _generated("backgammon")
    doubles = sum(a.kind is Kind.DOUBLE for g in m.games for a in g.actions)
    seen = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(game_mod.HANDLERS, Kind.DOUBLE, lambda *args: seen.append(args) or cube_mod.on_double(*args))
        normalise(m, exact=False)
    assert doubles >= 10 and len(seen) < doubles / 4, (len(seen), doubles)


@needs_core
def test_batch_takes_the_combined_moves_and_partial_plays_it_can():
    """The batch's own ways (``judge``'s split of combined moves, a legal play that cannot use every number)
    are taken on real records: the turns left to Python are few."""
    from nardy_analyze.inputs import discover, load
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus is not here")
    files = sorted((CORPUS / "bglab").rglob("*.txt"))[::40]
    walked = []
    orig = game_mod.walk

    def counting(st, i, a, *rest):
        walked.append(a)
        return orig(st, i, a, *rest)

    game_mod.walk = counting
    try:
        reports = [validate_match(load(e)) for e in discover([str(f) for f in files])]
    finally:
        game_mod.walk = orig
    turns = sum(g.turns for r in reports for g in r.games)
    assert turns > 1000
    # (the games' last rolls included: CoreRules.one_roll; only an illegal play is walked)
    assert len(walked) < 0.002 * turns, (len(walked), turns)


def _combined_last_rolls(match):
    """``match`` with each game's last roll written with its steps joined where they chain (``6/3 3/off`` as
    ``6/off``): a play the judge must split, which bears off the last checker."""
    m = copy.deepcopy(match)
    joined = 0
    for g in m.games:
        last = next((a for a in reversed(g.actions) if a.kind is Kind.ROLL and a.steps), None)
        if last is None:
            continue
        steps = list(last.steps)
        for k in range(len(steps) - 1):
            if steps[k].dst == steps[k + 1].src:
                steps[k:k + 2] = [Step(steps[k].src, steps[k + 1].dst, steps[k + 1].hit)]
                last.steps = steps
                joined += 1
                break
    return m, joined


@needs_core
@pytest.mark.parametrize("variant", ["backgammon", "long"])
def test_the_games_last_rolls_are_taken_by_the_core(variant):
    """A game's last roll (the roller bears off the last checker), in backgammon written as a combined move too,
    is played by the core (``CoreRules.one_roll``), not walked (nor is any other turn but the players' first),
    with the same report and the same events as the Python replay."""
    m, joined = _combined_last_rolls(generate_match(variant, 60, seed=17))
    assert joined >= (8 if variant == "backgammon" else 0)    # (long nardy's generated last plays: not joined)
    rep, walked = _walked_turns(validate_match, m)
    assert not walked, [a.text for a in walked]
    with pytest.MonkeyPatch.context() as mp:
        fast, slow = _both([m], mp)
    assert fast == slow
    assert _observed_plays(m, variant, True) == _observed_plays(m, variant, False)
    assert [g.how for g in rep.games].count("bearoff") >= max(joined, 10)


def _walked_turns(run, m):
    """``run(m)`` and the roll actions it left to the Python walk (players' first turns aside)."""
    walked = []
    orig = game_mod.walk

    def counting(st, i, a, nxt, p, d1, d2, first_turn):
        if not first_turn:
            walked.append(a)
        return orig(st, i, a, nxt, p, d1, d2, first_turn)

    game_mod.walk = counting
    try:
        return run(m), walked
    finally:
        game_mod.walk = orig


@needs_core
def test_batch_takes_gul_bara_turns_of_several_parts():
    """Gul bara's chains and handovers (GulBaraTurn's driver in the core): on generated games, the turns left
    to Python are the players' first turns (the head exception) and those that end the game; the turns taken
    include doubles with their chains and handovers, and plays that leave numbers to hand over."""
    m = generate_match("gulbara", 40, seed=7)
    rep, walked = _walked_turns(validate_match, m)
    several = [a for g in m.games for a in g.actions if a.kind is Kind.ROLL and a.segments]
    chained = [a for a in several if any(s.kind == "chain" for s in a.segments)]
    assert len(several) > 300 and len(chained) > 50
    # the game's last turn (a side bears off its last checker) too: CoreRules.one_gul_roll
    assert not walked, (len(walked), sum(g.turns for g in rep.games))


def _told(m, tmp_path, name: str):
    """What the observed replay gives: the record converted (the writers read the replay's action states) and
    the statistics of its turns and games (the turn rows)."""
    from nardy_analyze import statsrun
    from nardy_analyze.convert import convert_match
    texts = {to: convert_match(m, to, lossy=True)[1] for to in ("json", "ngn", "sgf")}
    path = tmp_path / f"{name}.json"
    path.write_text(texts["json"], encoding="utf-8")
    frames = [statsrun.games([str(path)]).to_csv(), statsrun.players([str(path)]).to_csv()]
    return texts, frames


@needs_core
@pytest.mark.parametrize("variant", ["backgammon", "long", "gulbara"])
def test_batch_tells_the_observer_what_the_python_replay_tells(variant, tmp_path):
    """Convert and stats (an observer of every action) give the same outputs with the batch and without it,
    on generated games and the same games with plays changed."""
    for seed, rate in ((1, 0.0), (2, 0.05), (3, 0.3)):
        m = _mutate(_generated(variant), random.Random(seed), rate)
        fast = _told(m, tmp_path, f"{variant}{seed}")
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(game_mod, "BATCH", False)
            slow = _told(m, tmp_path, f"{variant}{seed}")
        assert fast == slow, (variant, seed)
        assert all(fast[0].values())


class _Everything(ReplayVisitor):
    """Every costly event of a replay: the action states and the turn rows (what convert, show and stats read)."""

    wants = Events.STATES | Events.TURNS | Events.ENDS

    def __init__(self) -> None:
        self.seen: list = []

    def action_state(self, state) -> None:
        # (route: the batch hands over the route it found, the Python replay leaves it to normal.py)
        self.seen.append(("state", dataclasses.replace(state, route=None)))

    def turn(self, row) -> None:
        self.seen.append(("turn", tuple(row)))

    def game_end(self, end) -> None:
        self.seen.append(("end", end))

    def finding(self, finding) -> None:
        self.seen.append(("finding", finding.as_dict()))


def _observed(m, batch: bool) -> list:
    from nardy_analyze.judged import variant_for
    from nardy_analyze.replay import replay
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(game_mod, "BATCH", batch)
        v = _Everything()
        replay(m, variant_for(m, "gulbara", {}), visitor=v)
    return v.seen


@needs_core
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), rate=st.sampled_from([0.0, 0.05, 0.2, 0.5]),
       chain=st.sampled_from([None, 4]))
def test_batch_tells_gul_bara_turns_of_several_parts_as_walk_does(seed, rate, chain):
    """With an observer, the batch's Gul bara turns of several parts give the events the Python walk gives:
    every action state (the board before and after, each written part with its numbers and the board
    after it), every turn row (the roller's part as the turn driver asks for it) and every finding, on
    generated games and the same games with plays and parts changed (chains from the first roll, and from
    the fourth)."""
    m = _mutate(_gul_generated(chain), random.Random(seed), rate)
    fast, slow = _observed(m, True), _observed(m, False)
    assert fast == slow
    several = [s for kind, s in fast if kind == "state" and s.parts]
    assert several or rate >= 0.5


_GUL: dict = {}


def _gul_generated(chain):
    if chain not in _GUL:
        _GUL[chain] = generate_match("gulbara", 8, seed=5,
                                     options={"chain_from_turn": chain} if chain is not None else None)
    return _GUL[chain]


@needs_core
def test_batch_takes_gul_bara_turns_of_several_parts_with_an_observer():
    """With an observer (convert, show, stats), the turns the batch takes include Gul bara's turns of several
    parts: on generated games, only the players' first turns and the turns that end a game are walked."""
    from nardy_analyze.replay.normal import normalise
    m = generate_match("gulbara", 40, seed=7)
    normal, walked = _walked_turns(normalise, m)
    parts = [na for g in normal.games for na in g.actions if na.state is not None and na.state.parts]
    assert len(parts) > 300
    assert len(walked) <= len(m.games), len(walked)


@needs_rows
def test_compiled_rows_make_actions_as_their_class_does():
    """The Actions the compiled reader makes by filling their slots are whole (every field set, defaults
    the class's own) and each has lists of its own, as ``Action(...)`` gives."""
    import dataclasses
    from nardy_analyze.record import Action
    text = "1 point match\n\n Game 1\n Alice : 0     Bob : 0\n  1)                             31: 8/5 6/5\n" \
           "  2) 64: 24/18 13/9                Doubles => 2\n  3)  Takes                       Wins 1 point\n"
    m = _read(text, "x.mat", True)
    acts = m.games[0].actions
    assert len(acts) == 5
    for a in acts:
        for f in dataclasses.fields(Action):
            getattr(a, f.name)                   # set (an unset slot raises)
    assert acts == _read(text, "x.mat", False).games[0].actions
    a, b = acts[0], acts[1]
    assert a.segments == [] and a.segments is not b.segments and a.comments is not b.comments
    a.comments.append("x")
    assert b.comments == [] and Action(Kind.ROLL, 0, a.loc).comments == []


def test_a_dataclass_with_another_default_factory_is_made_by_its_class():
    import dataclasses

    @dataclasses.dataclass(slots=True)
    class Other:
        a: int
        b: dict = dataclasses.field(default_factory=dict)

    assert mat._field_shapes(Other) is None
    assert mat._field_shapes(mat.Loc) == [("line", 0, None), ("column", 0, None)]


@needs_core
@pytest.mark.parametrize("variant", ["backgammon", "long"])
def test_batch_routes_are_the_judge_s(variant):
    """The route the batch gives a roll is ``judge.route``'s: for an exact roll its written steps with their
    hits (``judge.with_hits``), for a combined move or a partial play the single steps judge.route finds
    (generated games with plays changed, and real records)."""
    from nardy_analyze.engine import Dice, get_variant
    from nardy_analyze.engine.judge import route, with_hits
    from nardy_analyze.inputs import discover, load
    from nardy_analyze.replay.normal import normalise
    matches = [_mutate(_generated(variant), random.Random(seed), rate) for seed, rate in ((5, 0.05), (6, 0.3))]
    if variant == "backgammon":
        matches += [load(e) for e in discover([str(f) for f in _records() if f.suffix in (".mat", ".txt")])]
    rules = get_variant(variant).rules
    exact = routed = 0
    for m in matches:
        if not m.games:
            continue
        for game in normalise(m, variant).games:
            for na in game.actions:
                st = na.state
                if st is None or st.route is None:
                    continue
                a = na.action
                p = a.player
                steps = [(s.src, s.dst) for s in a.steps]
                if st.exact:
                    assert st.route == with_hits(rules, st.before[p], st.before[1 - p], steps)
                    exact += 1
                else:
                    dice = Dice.roll(max(a.dice), min(a.dice))
                    assert st.route == route(rules, st.before[p], st.before[1 - p], dice, steps,
                                             (st.after[p], st.after[1 - p])), (m.path, a.loc)
                    routed += 1
    # (backgammon: the generated games alone route about 90 rolls, the shared corpus's records a hundred more)
    floor = (100 if CORPUS.is_dir() else 50) if variant == "backgammon" else 5
    assert exact > 200 and routed > floor, (exact, routed)


# -- a sparse observer (the SGF writer's view) and the compiled SGF roll nodes --------------------------------

class _Plays(_Everything):
    """What a sparse observer gets (``Events.PLAYS``, no turn rows: the batch traces only the rolls not played
    exactly as written): the states of the other actions and rolls, the game ends and the findings."""

    wants = Events.PLAYS | Events.ENDS


def _observed_plays(m, variant: str, batch: bool) -> list:
    from nardy_analyze.judged import variant_for
    from nardy_analyze.replay import replay
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(game_mod, "BATCH", batch)
        v = _Plays()
        replay(m, variant_for(m, variant, {}), visitor=v)
    return v.seen


@needs_core
@pytest.mark.parametrize("variant", ["backgammon", "long", "gulbara"])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), rate=st.sampled_from([0.0, 0.05, 0.2, 0.5]))
def test_batch_tells_a_sparse_observer_what_the_python_replay_tells(variant, seed, rate):
    """A sparse observer gets the same action states (the board before and after each, the parts of a Gul bara
    turn), game ends and findings from the batch as from the Python replay, on generated games and the same
    games with plays (and Gul bara's parts) changed; the exact rolls skipped are the same ones."""
    base = _gul_generated(4) if variant == "gulbara" and seed % 2 else _generated(variant)
    m = _mutate(base, random.Random(seed), rate)
    fast, slow = _observed_plays(m, variant, True), _observed_plays(m, variant, False)
    assert fast == slow
    told = [s for kind, s in fast if kind == "state" and m.games[0].actions]
    rolls = sum(a.kind is Kind.ROLL for g in m.games for a in g.actions)
    assert 0 < len(told) < rolls + sum(len(g.actions) for g in m.games)


class _PlaysByGame(_Plays):
    """:class:`_Plays` with a mark where each game begins."""

    def begin_game(self, game) -> None:
        self.seen.append(("begin", None))


class _Routes(_PlaysByGame):
    """A sparse observer that takes the routes of the rolls played without a finding in one part
    (``Events.ROUTES``, the SGF writer's view): their routes, by game (``told``), in place of their states."""

    wants = Events.PLAYS | Events.ROUTES | Events.ENDS

    def __init__(self) -> None:
        super().__init__()
        self.told: list[dict] = []

    def begin_game(self, game) -> None:
        super().begin_game(game)
        self.routes = {}
        self.told.append(self.routes)


def _observed_by(cls, m, variant: str, batch: bool):
    from nardy_analyze.judged import variant_for
    from nardy_analyze.replay import replay
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(game_mod, "BATCH", batch)
        v = cls()
        replay(m, variant_for(m, variant, {}), visitor=v)
    return v


@needs_core
@pytest.mark.parametrize("variant", ["backgammon", "long", "gulbara"])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), rate=st.sampled_from([0.0, 0.05, 0.2, 0.5]))
def test_batch_gives_a_routes_observer_what_the_python_replay_gives(variant, seed, rate):
    """An observer that takes routes (``Events.ROUTES``) gets the same routes (index -> route), action states,
    game ends and findings from the batch, which puts the routes it finds in the observer's dict itself, as from
    the Python replay; on generated games and the same games with plays (and Gul bara's parts) changed.  Each
    route is ``judge.route``'s for the sides the full view gives the roll, each roll routed is one the full view
    has legal, in one part and not exact, and the states told are the sparse observer's less the routed rolls'."""
    from nardy_analyze.engine import Dice
    from nardy_analyze.engine.judge import route as judge_route
    from nardy_analyze.judged import variant_for
    from nardy_analyze.replay.normal import normalise
    base = _gul_generated(4) if variant == "gulbara" and seed % 2 else _generated(variant)
    m = _mutate(base, random.Random(seed), rate)
    fast, slow = _observed_by(_Routes, m, variant, True), _observed_by(_Routes, m, variant, False)
    assert fast.seen == slow.seen and fast.told == slow.told
    assert len(fast.told) == len(m.games)
    rules = variant_for(m, variant, {}).rules
    full = normalise(m, variant)
    for routes, fg in zip(fast.told, full.games, strict=True):
        for k, r in routes.items():
            a, st_ = fg.actions[k].action, fg.actions[k].state
            assert a.kind is Kind.ROLL and st_.legal and not st_.exact and st_.parts is None, (variant, a.loc)
            p = a.player
            assert r == judge_route(rules, st_.before[p], st_.before[1 - p], Dice.roll(max(a.dice), min(a.dice)),
                                    [(s.src, s.dst) for s in a.steps], (st_.after[p], st_.after[1 - p]))
    # the sparse observer's events (without routes) less the states of the routed rolls
    plays = _observed_by(_PlaysByGame, m, variant, False).seen
    game, kept = -1, []
    for kind, x in plays:
        game += kind == "begin"
        if not (kind == "state" and x.index in fast.told[game]):
            kept.append((kind, x))
    assert fast.seen == kept


@pytest.mark.parametrize("variant", ["backgammon", "long", "gulbara"])
def test_the_sparse_view_is_the_full_view_less_the_exact_rolls(variant):
    """``normalise(exact=False)`` (the SGF writer's view) gives every action the state and route of the full
    view, except the rolls played exactly as written, which have neither (their written steps are their
    route), the doubles and takes (the writer needs no state of them), and the other rolls played without a
    finding in one part, which have the full view's route and no state (``Events.ROUTES``); on generated games
    and the same games with plays changed, with the batch and without it."""
    from nardy_analyze.replay.normal import normalise
    for seed, rate in ((11, 0.0), (12, 0.1), (13, 0.4)):
        m = _mutate(_generated(variant), random.Random(seed), rate)
        for batch in ((True, False) if compiled.CoreRules is not None else (False,)):
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(game_mod, "BATCH", batch)
                sparse, full = normalise(m, variant, exact=False), normalise(m, variant, exact=True)
            skipped = routed = 0
            for sg, fg in zip(sparse.games, full.games, strict=True):
                assert len(sg.actions) == len(fg.actions) == len(sg.game.actions)
                assert [na for na in sg.actions if na.state is not None] == sg.stated()
                for s, f in zip(sg.actions, fg.actions):
                    assert s.action is f.action
                    if s.state is None and f.state is not None:
                        if f.action.kind in (Kind.DOUBLE, Kind.TAKE) or f.state.exact and f.state.legal:
                            assert s.route is None
                            skipped += 1
                        else:            # told by its route alone: a roll played without a finding in one part
                            a = f.action
                            assert a.kind is Kind.ROLL and f.state.legal and f.state.parts is None \
                                and not a.unplayed and not a.illegal_mark and not a.segments, \
                                (variant, seed, batch, a.loc)
                            assert s.route == f.route, (variant, seed, batch, a.loc)
                            routed += 1
                    else:
                        assert (s.state, s.route) == (f.state, f.route), (variant, seed, batch, f.action.loc)
            assert skipped > 50 and routed > 5, (variant, seed, skipped, routed)


needs_sgf_rolls = pytest.mark.skipif(sgf_mod._SGF_ROLLS is None, reason="the compiled SGF roll nodes are not in use "
                                     "(not built, or NARDY_ANALYZE_PURE is set)")


def _sgf_both(m, monkeypatch) -> tuple[str, str]:
    from nardy_analyze.replay.normal import normalise
    normal = normalise(m, exact=False)
    fast = sgf_mod.write(m, normal)
    with monkeypatch.context() as mp:
        mp.setattr(sgf_mod, "_SGF_ROLLS", None)
        slow = sgf_mod.write(m, normal)
    return fast, slow


@needs_sgf_rolls
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), rate=st.sampled_from([0.0, 0.05, 0.3, 0.8]),
       marks=st.sampled_from([0.0, 0.1, 0.5]))
def test_compiled_sgf_roll_nodes_are_the_python_writer_s(seed, rate, marks):
    """The SGF text with the compiled roll nodes (``_matrows.sgf_rolls``) is the Python writer's: generated
    games with plays changed (illegal, combined, reordered, points off the board), rolls carrying what the
    compiled nodes leave to Python (comments, clock times, an unplayed roll, dice written otherwise), and cube
    actions and wins with comments or clock times."""
    rng = random.Random(seed)
    m = _mutate(_generated("backgammon"), rng, rate)
    for g in m.games:
        for a in g.actions:
            if rng.random() >= marks:
                continue
            how = rng.randrange(6) if a.kind is Kind.ROLL else rng.randrange(3)
            if how == 0:
                a.comments = ["a note ] here"]
            elif how == 1:
                a.clock = 3.5
            elif how == 2:
                a.clock_left = 61.0
            elif how == 3:
                a.unplayed = True
            elif how == 4:
                a.dice = list(a.dice)
            elif a.steps:
                a.steps = [Step(30, 2, False)] + list(a.steps)[1:]
    with pytest.MonkeyPatch.context() as mp:
        fast, slow = _sgf_both(m, mp)
    assert fast == slow


@needs_sgf_rolls
def test_compiled_sgf_roll_nodes_on_real_records(monkeypatch):
    """The same on the real records of the corpus (or the fixtures where it is not there)."""
    from nardy_analyze.inputs import discover, load
    files = [f for f in _records() if f.suffix in (".mat", ".txt")]
    written = 0
    for e in discover([str(f) for f in files]):
        m = load(e)
        if not m.games:
            continue
        fast, slow = _sgf_both(m, monkeypatch)
        assert fast == slow, m.path
        written += fast.count(";W[") + fast.count(";B[")
    assert written > 1000


def _first_turns(m):
    """The roll actions that are each player's first turn in its game."""
    out = []
    for g in m.games:
        seen = set()
        for a in g.actions:
            if a.kind is Kind.ROLL and a.player not in seen:
                seen.add(a.player)
                out.append(a)
    return out


@needs_core
@pytest.mark.parametrize("variant, exception", [("long", "standard"), ("long", "six-four"), ("long", "any-double"),
                                                ("long", "conditional"), ("gulbara", "standard"),
                                                ("gulbara", "any-double"), ("gulbara", "conditional")])
def test_batch_takes_first_turns_with_their_head_allowance(variant, exception):
    """Long nardy's and Gul bara's first turns (a 6-6, 4-4 or 3-3 lets two checkers leave the head, in Gul bara
    across the chain too; the ``head_exception`` option changes which doubles) are taken by the core with the
    allowance of the option, with the same reports and events as the Python replay, on generated games and the
    same games with plays changed (a third checker off the head, a second one without the double...);
    ``conditional`` (the generator decides) stays Python's."""
    options = {"head_exception": exception}
    base = generate_match(variant, 150, seed=23, options=options)
    firsts = _first_turns(base)
    doubles = [a for a in firsts if a.dice[0] == a.dice[1] and sum(s.src == 24 for s in a.steps) == 2]
    assert len(doubles) >= 5, len(doubles)
    m = _mutate(base, random.Random(5), 0.3)
    from nardy_analyze.judged import variant_for
    from nardy_analyze.replay import replay

    def reports_and_events(batch: bool):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(game_mod, "BATCH", batch)
            out = []
            for x in (base, m):
                r = validate_match(x, variant, options)
                v = _Everything()
                replay(x, variant_for(x, variant, options), visitor=v)
                out.append(([f.as_dict() for f in r.findings], [(g.turns, g.winner, g.points, g.how) for g in r.games],
                            v.seen))
            return out
    assert reports_and_events(True) == reports_and_events(False)
    # the first turns the Python code still plays: none but illegal ones, except under "conditional"
    python_firsts = 0
    orig = game_mod.on_roll

    def counting(st, a, nxt, i):
        nonlocal python_firsts
        python_firsts += a.kind is Kind.ROLL and st.rolled[a.player] == 0
        return orig(st, a, nxt, i)
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(game_mod.HANDLERS, Kind.ROLL, counting)
        validate_match(base, variant, options)
    if exception == "conditional":
        assert python_firsts >= len(firsts) - len(base.games)      # (the game's opening roll aside)
    else:
        # (left to Python: in Gul bara an opening double, which may start a chain, and an illegal play)
        assert python_firsts <= len(base.games) // 5, (python_firsts, len(firsts))


@needs_core
@pytest.mark.parametrize("variant", ["backgammon", "long", "gulbara"])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), rate=st.sampled_from([0.0, 0.05, 0.3]))
def test_the_core_s_route_of_a_roll_is_the_judge_s(variant, seed, rate):
    """``CoreRules.route`` (``replay.game.route_of``'s compiled path) gives the route ``judge.route`` gives from the
    boards before and after each roll of generated and changed games, legal or not, wherever it gives one; and it
    gives one for nearly every roll played as the replay played it."""
    from nardy_analyze.engine import valid_dice
    from nardy_analyze.engine.core import Dice
    from nardy_analyze.engine.judge import route as judge_route
    from nardy_analyze.judged import variant_for
    from nardy_analyze.replay.normal import normalise

    m = _mutate(_generated(variant), random.Random(seed), rate)
    rules = variant_for(m, variant, {}).rules
    asked = answered = 0
    for ng in normalise(m, variant).games:
        for na in ng.actions:
            a, s = na.action, na.state
            if s is None or a.kind is not Kind.ROLL or a.segments or a.unplayed or a.illegal_mark \
                    or a.dice is None or not valid_dice(a.dice):
                continue
            p = a.player
            for after in (s.after, s.before):        # (the board before: a play that does not reach it)
                got = rules.core.route(a, s.before[p], s.before[1 - p], after[p], after[1 - p])
                d1, d2 = max(a.dice), min(a.dice)
                want = judge_route(rules, s.before[p], s.before[1 - p], Dice.roll(d1, d2),
                                   [(x.src, x.dst) for x in a.steps], (after[p], after[1 - p]))
                if got is not None:
                    assert got == tuple(tuple(x) for x in want), (a.text, got, want)
                if after is s.after and s.legal:
                    asked += 1
                    answered += got is not None
    assert asked > 50
    if rate == 0.0:
        assert answered >= 0.95 * asked, (answered, asked)
