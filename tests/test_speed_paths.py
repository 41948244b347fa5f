"""The fast paths of issue 10 give exactly what the general code gives.

- the .mat reader's row items (``mat.row_items``, regular expressions for the common rows) against the
  Lark grammar's (``mat.lark_items``): the same items for every row it takes, the same Actions built from
  them, the same ``Match`` for whole records (corpus and examples); the score line's regular expression
  (``mat._fast_score``) and the preamble's (``mat._fast_preamble``) against the grammar;
- the judge's check of the recorded play (``judge.as_written``) against the judge without it, and
  ``Backgammon.play_exact`` against the generic ``core.exact_steps``;
- the replay's plainly legal turn (``turns.quick_turn``) against ``turns.walk_turn``, on random plays and
  on whole records (the replay with and without it gives the same report);
- ``--max-file-size``: a file over the limit is one clear error naming the limit and the option.
"""
from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings, strategies as st

from nardy_analyze.engine.core import Dice
from nardy_analyze.engine import get_variant, legal_results
from nardy_analyze.engine import judge as judge_mod
from nardy_analyze.engine.core import exact_steps, generate
from nardy_analyze.notation import sgf as sgf_mod
from nardy_analyze.notation import mat
from nardy_analyze.record import Action, Kind, Loc

from helpers import CORPUS, ROOT

# The property tests of the reader's regular expressions compare only the inputs the fast path takes (it
# declines the rest, which Lark reads); each counts what it compared and asks for a floor of its 300
# examples (about a third of what a run compares: 70-90 rows, ~150 score lines, 100-140 preambles).


def _read_both(text: str, path: str):
    """The record read with the row reader and with Lark alone."""
    from nardy_analyze.notation import normalise_text
    text = normalise_text(text)
    return mat._Reader(text, path).run(), mat._Reader(text, path, tokenize=False).run()


def _records():
    files = sorted((ROOT / "examples").glob("*.mat")) + sorted((ROOT / "tests" / "fixtures").rglob("*.mat"))
    if CORPUS.is_dir():
        files += sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))[:20]
        files += sorted((CORPUS / "mutants").rglob("*.mat"))
        files += sorted((CORPUS / "bglab").rglob("*.txt"))[::30]
    return files


def test_fast_rows_read_records_as_the_grammar_does():
    files = _records()
    assert files
    for f in files:
        text = mat.decode(f.read_bytes())
        fast, slow = _read_both(text, str(f))
        assert fast == slow, f


def _lark_row(src: str):
    """The row's items as Lark reads it, None when the grammar does not read it."""
    tree, error = mat.parse(src, "row")
    return None if tree is None else mat.lark_items(tree, src)


def _shape(items):
    """Tokens as comparable tuples: (type, value, start, end, column, end_column, line)."""
    return [(t.type, t.value, t.start_pos, t.end_pos, t.column, t.end_column, t.line) for t in items]


_CELLS = ["53: 8/3 6/3", "65:", "44: bar/21(2) 13/9*/5", "61: 13/7*/6", "31: 6/5 8/5", "62: 6/off 2/off",
          "Doubles => 2", "Double => 4", "doubles=>2", "Takes", "Take", "Drops", "Wins 1 point",
          "Wins 2 points and the match", "wins 3 Points and wins the match", "12)", "7)", "1)", "00: 8/3",
          "53: 8/3 6/3x", "64: Cannot Move", "61: ????", "????", "Resigns", "Losses 2 point", "53: 8/3/",
          "Doubles =>", "Wins 2", "53:8/3", "7x: 1/2", "Illegal play (1;2)", "Beavers", "123456)", "1234567)",
          "13/9", "53: 26/21", "53: 8/3(16)", "Wins 1234567 points", "63: cannot move", "63: Cannot  Move",
          "63: 8/5 Cannot Move", "Cannot Move", "63: Cannot Moves", "63:Cannot Move", "losses 12 Points",
          "Losses 1 points and the match", "Losses", "Losses 2", "00: Cannot Move", "Resigns 2 points",
          "00: ????", "61: ???", "???", "?????", "61:  ????", "61:\t????", "61: ????x", "61: ??", "61: 8/3 ????",
          "????61: 8/3", "61: ?????"]


def test_fast_row_takes_only_what_the_grammar_reads_the_same_way():
    compared = []

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from(_CELLS), st.sampled_from([" ", "  ", "\t", "          ", ""])),
                    max_size=5),
           st.sampled_from(["", " ", "   ", "\t"]), st.sampled_from(["", " ", "  "]))
    def check(cells, lead, trail):
        src = lead + "".join(c + gap for c, gap in cells).rstrip(" \t") + trail + "\n"
        fast = mat.row_items(src)
        if fast is None:
            return                          # Lark reads it: nothing to compare
        slow = _lark_row(src)
        assert slow is not None, src
        assert fast == slow, src
        compared.append(src)

    check()
    assert len(compared) >= 25, len(compared)   # the rows the fast path took, each compared


def _positions(variant: str, seed: int, limit: int = 200):
    v = get_variant(variant)
    rng = random.Random(seed)
    me, opp = v.rules.initial()
    first = [True, True]
    side = 0
    for _ in range(limit):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        turn = v.rules.start_turn(me, opp, first[side], (max(d1, d2), min(d1, d2)))
        yield v.rules, rng, me, opp, max(d1, d2), min(d1, d2), turn
        legal = sorted(legal_results(v, me, opp, (d1, d2), first_turn=first[side]))
        me, opp = rng.choice(legal)
        first[side] = False
        if sum(me) == 0:
            return
        me, opp = opp, me
        side = 1 - side


@pytest.mark.parametrize("variant", ["backgammon", "long"])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_recorded_play_checked_first_gives_the_same_verdict(variant, seed):
    for rules, rng, me, opp, d1, d2, turn in _positions(variant, seed):
        ps = generate(rules, me, opp, Dice.roll(d1, d2).numbers, turn)
        paths = [list(p) for p in list(ps.plays.values())[:4]]
        # also plays that are not legal: one step per number, at random
        numbers = [d1] * 4 if d1 == d2 else [d1, d2]
        paths.append([(s, s - d, d) for s in rng.sample(range(1, 26), len(numbers))
                      for d in [numbers.pop()] if s - d >= 1])
        for path in paths:
            steps = [(s, d) for s, d, _ in path]
            rng.shuffle(steps)
            fast = judge_mod.judge(rules, me, opp, Dice.roll(d1, d2), steps, turn=turn)
            original = judge_mod.as_written
            judge_mod.as_written = lambda *a: None
            try:
                slow = judge_mod.judge(rules, me, opp, Dice.roll(d1, d2), steps, turn=turn)
            finally:
                judge_mod.as_written = original
            assert fast == slow, (me, opp, d1, d2, steps)


def test_the_recorded_play_is_walked_only_where_each_step_has_one_way():
    """``as_written`` hands the walk to the rules exactly when there is one written step per number and the
    numbers are none, one or two, or three or four alike (otherwise the general search decides)."""
    import itertools

    class Walk:
        def play_exact(self, me, opp, numbers, steps, turn, bear_off):
            return ("walked", numbers)

    for n in range(6):
        for numbers in itertools.product(range(1, 7), repeat=n):
            one_way = n <= 2 or (n <= 4 and len(set(numbers)) == 1)
            steps = [(24, 24 - d) for d in numbers]
            got = judge_mod.as_written(Walk(), (), (), numbers, steps, None)
            assert (got is not None) == one_way, numbers
            assert judge_mod.as_written(Walk(), (), (), numbers, steps + [(6, 5)], None) is None
            if n:
                assert judge_mod.as_written(Walk(), (), (), numbers, steps[1:], None) is None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_route_of_the_recorded_play_is_the_same_with_the_check_first(seed):
    for rules, rng, me, opp, d1, d2, turn in _positions("backgammon", seed):
        ps = generate(rules, me, opp, Dice.roll(d1, d2).numbers, turn)
        for after, path in list(ps.plays.items())[:3]:
            steps = [(s, d) for s, d, _ in path]
            rng.shuffle(steps)
            fast = judge_mod.route(rules, me, opp, Dice.roll(d1, d2), steps, after, turn)
            original = judge_mod.as_written
            judge_mod.as_written = lambda *a: None
            try:
                slow = judge_mod.route(rules, me, opp, Dice.roll(d1, d2), steps, after, turn)
            finally:
                judge_mod.as_written = original
            assert fast == slow, (me, opp, d1, d2, steps)


def test_a_file_over_the_size_limit_names_the_limit_and_the_option(tmp_path, cli):
    src = ROOT / "examples" / "selfplay-7pt.mat"
    big = tmp_path / "big.mat"
    big.write_bytes(src.read_bytes() * 20)
    small = tmp_path / "small.mat"
    small.write_bytes(src.read_bytes())
    limit_mib = (len(src.read_bytes()) * 2) / (1024 * 1024)
    r = cli.subprocess("validate", "--max-file-size", f"{limit_mib:.4f}", str(big), str(small))
    assert r.returncode == 2
    assert "big.mat" in r.stderr and "--max-file-size" in r.stderr and "larger than the limit of" in r.stderr
    assert "small.mat" not in r.stderr
    assert "1 file(s)" in r.stdout                 # the other file is still validated
    r = cli.subprocess("validate", "--max-file-size", "64", str(big))
    assert "--max-file-size" not in r.stderr


# -- the .mat rows straight to actions, the score line ------------------------------------------------------

def _game():
    from nardy_analyze.record import Game, Loc
    return Game(number=1, loc=Loc(1, 1))


def _actions(items, threshold: int, line_off: int):
    """The Actions and problems one row's items build."""
    reader = mat._Reader("", "x.mat")
    game = _game()
    reader._build_rows(game, [items], line_off, threshold)
    return game.actions, game.problems, reader.match.problems


def _both_ways(src: str, threshold: int, line_off: int) -> bool:
    """The row ``src`` through the row reader and through Lark gives the same Actions and problems; False
    when the row reader leaves the row to Lark."""
    fast = mat.row_items(src)
    if fast is None:
        return False
    slow = _lark_row(src)
    assert slow is not None, src
    assert _actions(fast, threshold, line_off) == _actions(slow, threshold, line_off), src
    return True


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_CELLS), st.sampled_from([" ", "  ", "\t", "          ", ""])),
                max_size=5),
       st.sampled_from(["", " ", "   ", "\t", "  12)  ", " 3) "]), st.sampled_from(["", " ", "  "]),
       st.integers(1, 40), st.integers(0, 500))
def test_row_reader_and_lark_build_the_same_actions(cells, lead, trail, threshold, line_off):
    src = lead + "".join(c + gap for c, gap in cells).rstrip(" \t") + trail + "\n"
    if not _both_ways(src, threshold, line_off):
        # left to Lark: the reader's items are Lark's (None: the grammar does not read the row)
        assert mat._Reader("", "x.mat")._read_row(src[:-1])[0] == _lark_row(src), src


def test_row_reader_and_lark_build_the_same_actions_on_corpus_rows():
    """Every numbered or result row of the records (examples, fixtures, a sample of the corpus): where the
    row reader takes it, Lark gives the same items and so the same Actions."""
    taken = 0
    for f in _records():
        for line in mat.decode(f.read_bytes()).replace("\r", "\n").split("\n"):
            taken += _both_ways(line + "\n", 20, 0)      # tags, score lines...: left to Lark
    assert taken > 1000, taken


_NAMES = ["Alice", "gnubg", "Bob Smith", "x", "Player 1,1673", "a:b", " ", "", "9", "12 34", "é ü", "A" * 99,
          "A" * 100, "A" * 101, "N\tM", "  Lead", "Trail  "]


def test_fast_score_line_is_the_grammar_s():
    compared = []

    @settings(max_examples=300, deadline=None)
    @given(st.sampled_from(_NAMES), st.sampled_from(_NAMES),
           st.sampled_from(["0", "5", "12", "123456", "1234567", "x"]),
           st.sampled_from(["0", "7", "999999"]), st.sampled_from(["", " ", "\t", "   "]),
           st.sampled_from([" : ", ":", " :", ": ", "  :  ", "::"]), st.sampled_from(["", " ", "          ", "\t"]))
    def check(n1, n2, s1, s2, lead, colon, gap):
        src = f"{lead}{n1}{colon}{s1}{gap}{n2}{colon}{s2}\n"
        fast = mat._fast_score(src)
        slow, _error = mat.parse(src, "score_line")
        if fast is None:
            return                          # Lark reads it (or reports it): nothing to compare
        assert slow is not None, src
        assert _shape(fast) == _shape(slow), src
        compared.append(src)

    check()
    assert len(compared) >= 50, len(compared)   # the score lines the fast path took, each compared


# -- Backgammon.play_exact, turns.quick_turn ------------------------------------------------------------------

def _plays(rules, rng, me, opp, d1, d2, turn):
    """Written plays to try from a position: legal ones shuffled, legal ones with a step changed, random
    steps (bear-offs and the bar among them)."""
    ps = generate(rules, me, opp, Dice.roll(d1, d2).numbers, turn)
    out = []
    for path in list(ps.plays.values())[:4]:
        steps = [(s, d) for s, d, _ in path]
        rng.shuffle(steps)
        out.append(steps)
        if steps:
            bad = list(steps)
            i = rng.randrange(len(bad))
            s, d = bad[i]
            bad[i] = (s, max(0, d - rng.choice([-1, 1, 2, 6])))
            out.append(bad)
    numbers = [d1] * 4 if d1 == d2 else [d1, d2]
    out.append([(rng.choice([25, 24, 13, 8, 6, 5, 4, 3, 2, 1, 0, 26]), rng.choice([0, 1, 3, 5, 20, 24, -1]))
                for _ in numbers])
    out.append([(s, max(0, s - d)) for s, d in zip(rng.sample(range(1, 26), len(numbers)), numbers)])
    return out


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_backgammon_play_exact_is_the_generic_walk(seed):
    for rules, rng, me, opp, d1, d2, turn in _positions("backgammon", seed, 120):
        full = (d1,) * 4 if d1 == d2 else (d1, d2)
        for steps in _plays(rules, rng, me, opp, d1, d2, turn):
            for bear_off in (True, False):
                fast = rules.play_exact(me, opp, full, steps, turn, bear_off)
                slow = exact_steps(rules, me, opp, full, steps, turn, bear_off)
                assert fast == slow, (me, opp, d1, d2, steps, bear_off)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_backgammon_hit_flags_are_what_apply_says(seed):
    """judge.with_hits' short cut: the hit flags of a legal play, walked with apply step by step."""
    checked = hits = 0
    for rules, rng, me, opp, d1, d2, turn in _positions("backgammon", seed, 120):
        for path in list(generate(rules, me, opp, Dice.roll(d1, d2).numbers, turn).plays.values())[:6]:
            m, o, slow = me, opp, []
            for s, d, _ in path:
                m, o, hit = rules.apply(m, o, s, d)
                slow.append((s, d, bool(hit)))
            assert rules.hit_flags(me, opp, [(s, d) for s, d, _ in path]) == tuple(slow), (me, opp, path)
            checked += 1
            hits += sum(h for _, _, h in slow)
    assert checked and hits                     # plays with hits were among those compared


def _action(d1, d2, steps, hits=None):
    from nardy_analyze.record import Action, Kind, Loc, Step
    a = Action(Kind.ROLL, 0, Loc(1, 1), 1, "")
    a.dice = (d1, d2)
    a.steps = [Step(s, d, bool(h)) for (s, d), h in zip(steps, hits or [False] * len(steps))]
    return a


@pytest.mark.parametrize("variant", ["backgammon", "long", "gulbara"])
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_quick_turn_is_what_walk_turn_gives(variant, seed):
    from nardy_analyze.replay.telling import roll_spec
    from nardy_analyze.replay.turns import quick_turn, walk_turn, written_parts
    taken = 0
    for rules, rng, me, opp, d1, d2, turn in _positions(variant, seed, 120):
        first = rng.random() < 0.2
        plays = _plays(rules, rng, me, opp, d1, d2, rules.start_turn(me, opp, first, (d1, d2))) + [[]]
        for steps in plays:
            a = _action(d1, d2, steps, [rng.random() < 0.1 for _ in steps])
            quick = quick_turn(rules, me, opp, a, d1, d2, first, 3)
            if quick is None:
                continue
            taken += 1
            pos = [me, opp]
            outs = list(walk_turn(rules, pos, 0, d1, d2, written_parts(a), first, 3))
            assert len(outs) == 1 and not outs[0].problems, (me, opp, d1, d2, steps)
            assert tuple(pos) == quick, (me, opp, d1, d2, steps)
            # the driver's part is the plain roll's (the turn rows' spec)
            assert outs[0].spec == roll_spec(d1, d2, rules.start_turn(me, opp, first, (d1, d2)))
    assert taken


def _report_dicts(reports):
    return [([f.as_dict() for f in r.findings], [(g.turns, g.winner, g.points, g.how) for g in r.games])
            for r in reports]


def test_replay_with_and_without_the_quick_turn_gives_the_same_reports(monkeypatch):
    from nardy_analyze.replay import game as game_mod, resync as resync_mod
    from nardy_analyze.inputs import discover, load
    from nardy_analyze.analyze import validate_match
    files = [f for f in _records() if f.suffix in (".mat", ".txt")]
    files += sorted((ROOT / "tests" / "fixtures").rglob("*.ngn")) + sorted((ROOT / "examples").glob("*.ngn"))
    matches = [load(e) for e in discover([str(f) for f in files])]
    fast = _report_dicts(validate_match(m) for m in matches)
    monkeypatch.setattr(game_mod, "quick_turn", lambda *a: None)       # the replay
    monkeypatch.setattr(game_mod, "BATCH", False)                      # (the compiled core's batch too)
    monkeypatch.setattr(resync_mod, "quick_turn", lambda *a: None)     # its look-ahead
    slow = _report_dicts(validate_match(m) for m in matches)
    assert fast == slow


_PREAMBLE_LINES = ['; [EventDate "2026.11.30"]', "; [Player 1 \"A B\"]  ", ";", "  ; comment", " 1 point match",
                   "7 Point Match", "13 points match  ", "\t5\tpoint\tmatch", "", "   ", "\t", "7 point matches",
                   "7point match", "1234567 point match", "free text", "Game 1", "; [x", "0 point match"]


def test_fast_preamble_is_the_grammar_s():
    compared = []

    def shape(items):
        return [None if i is None else (i[0], [(t.type, t.value, t.line, t.column) for t in i[1]])
                for i in items]

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(_PREAMBLE_LINES), max_size=6))
    def check(lines):
        chunk = "".join(line + "\n" for line in lines)
        fast = mat._fast_preamble(chunk)
        if fast is None:
            return                          # Lark reads it
        slow, _error = mat.parse(chunk, "preamble")
        assert shape(fast) == shape(slow), chunk
        compared.append(chunk)

    check()
    assert len(compared) >= 35, len(compared)   # the preambles the fast path took, each compared


def test_plain_preamble_reads_as_the_token_path():
    """``_Reader._plain_preamble`` (the tags read without tokens) gives the Match the token path gives
    (``_fast_preamble`` + ``_preamble_item``; Lark where that declines), and takes the same preambles."""
    compared = []

    def read(chunk: str, plain: bool):
        r = mat._Reader("", "x.mat")
        if not plain:
            r._plain_preamble = lambda chunk: False
        r._preamble(chunk)
        return r.match

    lines = _PREAMBLE_LINES + ['; [Site "BackgammonGalaxy"]', ";; [not a tag]", '; [Player 1 Elo "3,00/0"]  ',
                               "\t; [Unrated \"Off\"]", "; [broken", ";Game type: Backgammon +1", "; [Variation \"x\"]",
                               "3 point match", " 5 points match ", ";\t[Crawford \"On\"]"]

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(lines), max_size=8))
    def check(ls):
        chunk = "".join(line + "\n" for line in ls)
        assert read(chunk, True) == read(chunk, False), chunk
        taken = mat._Reader("", "x.mat")._plain_preamble(chunk)
        assert taken == (mat._fast_preamble(chunk) is not None), chunk
        compared.append(taken)

    check()
    assert sum(compared) >= 50


_TAG_PIECES = ["; [", ";[", ";", ";;", " ", "\t", "[", "]", '"', "Key", "Player 1", "Variation", "GameType", "é",
               "ſ", "\r", "x", "3", "1234567", "points", "Point", "match", "MATCH", "poinTS", " point ", "\x0b", "  "]


@pytest.mark.skipif(mat.MAT_TAGS is None, reason="the compiled reader is not built (or NARDY_ANALYZE_PURE is set)")
def test_compiled_tags_read_as_the_python_preamble():
    """The text before the first game read by the compiled reader (``MAT_TAGS``: header tags, ``N point match``
    lines, blank lines) is the Match the Python reader makes of it (tags, their order and places, the match
    length, a second length line's problem), and it leaves every other text to the Python reader."""
    taken = []

    def read(chunk: str, compiled: bool):
        tags = mat.MAT_TAGS
        try:
            if not compiled:
                mat.MAT_TAGS = None
            r = mat._Reader("", "x.mat")
            r._preamble(chunk)
        finally:
            mat.MAT_TAGS = tags
        return r.match

    line = st.one_of(st.sampled_from(_PREAMBLE_LINES + ['; [Player 1 Elo "3,00/0"]  ', "\t; [Unrated \"Off\"]",
                                                        '; [Game Type "Long"]', '; [Variation "x"]', "3 point match",
                                                        '; [ K "v"] ] ', '; [K "a"b"]', '; [K ""]', '; [K "]',
                                                        '; [ "v"]', "007 point match", " 5 POINTS MATCH\t"]),
                     st.lists(st.sampled_from(_TAG_PIECES), max_size=8).map("".join))

    @settings(max_examples=600, deadline=None)
    @given(st.lists(line, max_size=8))
    def check(ls):
        chunk = "".join(x + "\n" for x in ls)
        got = mat.MAT_TAGS(chunk)
        assert read(chunk, True) == read(chunk, False), chunk
        if got is not None:
            taken.append(chunk)
            m = read(chunk, False)
            assert [k for k, _v in got[0]] == [k for k, _v in m.tag_items], chunk

    check()
    # (the share the compiled reader takes varies with the examples drawn: 40-80 of 600; the texts below are
    # taken whatever is drawn)
    assert len(taken) >= 20, len(taken)
    fixed = ["", "\n", "; [EventDate \"2026.11.30\"]\n", " 1 point match\n", "7 Point Match\n\n",
             "; [Player 1 \"A B\"]  \n; [Variation \"x\"]\n\n 5 POINTS MATCH\t\n",
             "\t; [Unrated \"Off\"]\n13 points match  \n\t5\tpoint\tmatch\n", "; [K \"a\"b\"]\n; [K \"\"]\n",
             "007 point match\n   \n"]
    for chunk in fixed:
        assert mat.MAT_TAGS(chunk) is not None, chunk
        assert read(chunk, True) == read(chunk, False), chunk


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["\n", " ", "\t", "Game", "game", "GAME", "Gam", "e", " 1", "12", "3", "x", ";",
                                 "Game 1", "Game  7 ", "\tGame\t2\t", "é", ":", "point match", "\r"]),
                max_size=20))
def test_game_lines_are_found_as_the_multiline_search_finds_them(pieces):
    """``mat._game_starts`` (the ``Game N`` lines found from the word "Game") gives the starts the reference
    search with "^" and "$" in MULTILINE mode gives, and the sniff the same answer."""
    text = "".join(pieces)
    reference = [m.start() for m in mat._GAME_LINE.finditer(text)]
    assert mat._game_starts(text) == reference
    assert mat._game_starts(text, first=True) == reference[:1]


def _target_reference(source: str, ext: str, out_dir: str | None, root: str | None) -> str:
    """``convert.target_path`` as pathlib spells it, one file at a time (the reference)."""
    import os
    from pathlib import Path
    stem = Path(source).stem
    if out_dir is None:
        return str(Path(source).parent / (stem + ext))
    folder = Path(out_dir)
    if root is not None:
        rel = os.path.relpath(os.path.dirname(source), root)
        if rel != os.curdir and not rel.startswith(os.pardir):
            folder = folder / rel
    return str(folder / (stem + ext))


_PART = st.sampled_from(["a", "b.c", ".", "..", "x.mat", ".hidden", "a.", "..b", "a..b", "ü.txt", "", "n m.MAT"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PART, min_size=1, max_size=4), st.booleans(), st.sampled_from([None, "out", "out/", "./o//p", "/tmp/x", "."]),
       st.integers(0, 3), st.sampled_from(["sgf", "mat", "json", "ngn"]))
def test_target_path_spells_the_paths_as_pathlib(parts, absolute, out_dir, cut, to):
    """The output paths of ``convert`` (worked out once per folder) are the paths pathlib gives, for any
    spelling of the source, the --out-dir folder and the folder named on the command line."""
    from nardy_analyze import convert, notation
    name = parts[-1] if parts[-1] not in ("", ".", "..") else "f.mat"
    source = ("/" if absolute else "") + "/".join(parts[:-1] + [name])
    root = None
    if out_dir is not None and len(parts) > 1:
        root = ("/" if absolute else "") + "/".join(parts[:min(cut, len(parts) - 1)]) or None
        if root is None or root == "/" or not os.path.dirname(source):
            root = None
    ext = notation.get(to).suffixes[0]
    assert convert.target_path(source, to, out_dir, root) == _target_reference(source, ext, out_dir, root)


_SCORE_NAMES = st.sampled_from(["Alice", "Bob (1500)", "Ann Lee 2", "x", "", "  Bob  ", "Ю. Петров (1702.5)", "A:B",
                                "hockeyfan,1796", "\xa0Nbsp\xa0", "Tab\tName", "L" * 100, "M" * 101, "12", "a\x0bb"])
_HEADERS = st.sampled_from([" Game 1", "Game 12", "\t Game  3 \t", " Game 1234567", " Game", " game 1", " Game 1 x",
                            " Game\xa01"])
_ROWS = ["  1) 31: 8/5 6/5                   42: 24/20 13/11",
         "  2) 64: 24/18 13/9                 Doubles => 2",
         "  3)  Takes                         55: 13/8(2) 6/1*(2)",
         "  4) 62: bar/23 13/7                 ",
         "      Wins 2 points",
         "  5) {pasted} : 3        12: 24/23 13/11",
         "  6) 21: 13/11 6/5   ю              ",
         "",
         " \x0b ",
         "  7) 66: 8/2(4)                     Resigns",
         "  8)                                Losses 1 point",
         "                                    Wins 1 point"]


@settings(max_examples=400, deadline=None)
@given(_HEADERS, _SCORE_NAMES, _SCORE_NAMES, st.integers(0, 9999999), st.integers(0, 99), st.integers(0, 12),
       st.lists(st.sampled_from(_ROWS), min_size=0, max_size=6), st.integers(0, 3), st.integers(0, 2),
       st.sampled_from(["", ":", " : 3", "\t"]))
def test_the_common_game_is_read_as_the_score_line_and_rows_read_it(header, n1, n2, s1, s2, pad, rows, paste, blanks,
                                                                     tail):
    """A game read in one call of the compiled reader (``MAT_GAME``: the header, the score line, the rows) is
    the game the Python reader reads line by line (the reference): players, ratings, scores and their place,
    the left/right split of the rows, the results, the last line, and the games it leaves to the Python reader
    (names pasted in rows, score lines ``_FAST_SCORE`` does not take, headers of other forms, rows it does not
    read, any white space the Python reader strips; a name pasted in another case).  ``paste``: 0 no name of
    the score line in the rows, 1 one as written, 2 in capitals, 3 with its case swapped."""
    score = f" {n1} : {s1}" + " " * pad + f"{n2} : {s2}" + tail
    name = (n1 or n2 or "Zed").strip() if paste else "Zed"
    name = name.upper() if paste == 2 else name.swapcase() if paste == 3 else name
    text = "; [Site \"x\"]\n\n 5 point match\n\n" + header + "\n" + "\n" * blanks + score + "\n" + \
        "\n".join(r.replace("{pasted}", name) for r in rows) + "\n Game 2\n A : 0  B : 0\n"
    fast = mat._Reader(text, "x.mat").run()
    whole = mat.MAT_GAME
    try:
        mat.MAT_GAME = None
        slow = mat._Reader(text, "x.mat").run()
    finally:
        mat.MAT_GAME = whole
    assert fast == slow
    assert fast == mat._Reader(text, "x.mat", tokenize=False).run()


_JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=True),
                       st.text(max_size=12), st.builds(__import__("nardy_analyze.record", fromlist=["Step"]).Step,
                                                       st.integers(0, 25), st.integers(0, 25), st.booleans()))
_JSON_DOC = st.recursive(_JSON_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(st.text(max_size=6), inner, max_size=5)), max_leaves=30)


@settings(max_examples=500, deadline=None)
@given(_JSON_DOC)
def test_the_json_writer_writes_what_the_json_module_writes(doc):
    """The JSON notation's text (``jsonfmt.dumps``: the compiled ``json_indent`` where it is built, the Python
    ``_dumps`` otherwise) is ``json.dumps(doc, ensure_ascii=False, indent=1)`` for every document, a Step being
    its list: strings with quotes, controls and any character, big integers, NaN and the infinities, empty
    containers, tuples."""
    import json
    from nardy_analyze.notation import jsonfmt
    want = json.dumps(doc, ensure_ascii=False, indent=1, default=jsonfmt._step_row)
    assert jsonfmt.dumps(doc) == want
    assert jsonfmt._dumps(doc) == want


def test_the_json_writer_leaves_other_types_to_the_json_module():
    """A document the compiled writer does not take (an int subclass, a key that is not a str, a lone
    surrogate) is written as the json module writes it."""
    import enum
    import json
    from nardy_analyze.notation import jsonfmt

    class N(enum.IntEnum):
        A = 3
    for doc in ({"a": N.A}, {1: "x"}, ["\ud800"], {"deep": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}):
        assert jsonfmt.dumps(doc) == json.dumps(doc, ensure_ascii=False, indent=1)


def test_target_path_follows_the_working_folder(tmp_path, monkeypatch):
    """The output folders ``convert`` keeps per source folder are not given again after a change of the working
    folder, where the path relative to the folder named on the command line depends on it (a library caller
    that moves between two conversions)."""
    from nardy_analyze import convert
    for where in (tmp_path / "one", tmp_path / "one" / "two"):
        where.mkdir(exist_ok=True)
        monkeypatch.chdir(where)
        source = str(tmp_path / "one" / "two" / "x.mat")
        for root in ("two", str(tmp_path / "one"), "."):
            assert convert.target_path(source, "sgf", "out", root) == _target_reference(source, ".sgf", "out", root)
        assert convert._inside(str(where / "out" / "y.mat"), "out")


_KIND_LIST = list(Kind)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from([(), None, 0, 1, "", "x", [], [1]])), max_size=30),
       st.sampled_from(["segments", "comments", "unplayed"]))
def test_any_set_is_the_python_scan(items, name):
    """``notation.any_set`` (compiled where built) says what its Python twin and the plain scan say: whether the
    attribute ``name`` of one of the actions is true, for real (slotted) Actions and a stand-in class alike; a
    missing attribute is an AttributeError in both."""
    from types import SimpleNamespace
    import nardy_analyze.notation as notation_mod
    acts = []
    for k, (real, value) in enumerate(items):
        if real:
            a = Action(Kind.ROLL, k % 2, Loc(k + 1, 1), "x")
            object.__setattr__(a, name, value) if name != "segments" or value is not None else None
            acts.append(a)
        else:
            acts.append(SimpleNamespace(**{name: value}))
    want = any(bool(getattr(a, name)) for a in acts)
    assert notation_mod.any_set(acts, name) == notation_mod._any_set(acts, name) == want
    assert notation_mod.any_set(tuple(acts), name) == want            # (not a list: the Python twin)
    if acts:
        with pytest.raises(AttributeError):
            notation_mod.any_set(acts + [SimpleNamespace()], "no_such_field") if not want else \
                notation_mod.any_set([SimpleNamespace()] + acts, "no_such_field")
        with pytest.raises(AttributeError):
            notation_mod._any_set([SimpleNamespace()] + acts, "no_such_field")


def test_any_set_is_compiled_where_the_core_is():
    """Where the compiled parts are built and in use, the scan is the compiled one (else the benefit is gone
    unseen)."""
    import nardy_analyze.notation as notation_mod
    notation_mod.any_set([], "segments")
    compiled = sgf_mod.kinds_in is not sgf_mod._kinds_in
    assert (notation_mod._ANY_SET is not notation_mod._any_set) == compiled


@pytest.mark.skipif(sgf_mod.kinds_in is sgf_mod._kinds_in, reason="the compiled twin is not built (or NARDY_ANALYZE_PURE is set)")
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_KIND_LIST), max_size=40), st.lists(st.sampled_from(_KIND_LIST), max_size=6),
       st.integers(-3, 45))
def test_kinds_in_is_the_python_scan(actions, kinds, stop):
    """``notation.kinds_in`` (compiled) gives the mask of its Python twin, which is the plain scan: bit k set when
    ``kinds[k]`` is the kind of one of ``actions[:stop]`` (all of them when ``stop`` < 0)."""
    from types import SimpleNamespace
    # real Actions (slotted: the compiled scan reads the slot) and a stand-in class (read as an attribute)
    acts = [Action(k, i % 2, Loc(i + 1, 1), "x") if i % 3 else SimpleNamespace(kind=k) for i, k in enumerate(actions)]
    kinds = tuple(dict.fromkeys(kinds))
    seen = acts if stop < 0 else acts[:stop]
    want = sum(1 << j for j, k in enumerate(kinds) if any(a.kind is k for a in seen))
    assert sgf_mod.kinds_in(acts, kinds, stop) == sgf_mod._kinds_in(acts, kinds, stop) == want


@settings(max_examples=500, deadline=None)
@given(st.booleans(), st.lists(st.sampled_from(["a", "b c", ".", "..", ".x", "y.", "", "ß", "..."]), max_size=6),
       st.booleans(), st.sampled_from(["/", "/work", "/work/sub dir", "/a/../b"]))
def test_the_clash_check_s_absolute_path_is_abspath(absolute, parts, trailing, cwd):
    """``convert._absolute_path`` (a normal absolute path as it is, else ``normpath``) gives what
    ``os.path.abspath`` gives in the working folder ``cwd``, for any path."""
    from nardy_analyze.convert import _absolute_path

    path = ("/" if absolute else "") + "/".join(parts) + ("/" if trailing and parts else "")
    if not path:
        return
    assert _absolute_path(path, cwd) == os.path.normpath(os.path.join(cwd, path))


_NGN_PIECES = ["\n", " ", "\t", "[", "]", '"', "Event", "1", "12", "1234567", ".", "..", "...", ":", "??", "64", "?",
               "Game", "GAME", "gAmE", "game", "players", "Ratings", "SCORE", "scores", "score_", "score!", "_", "x",
               "ſcore", "ratıngs", "İ", "Ж", "é", ")", ";", "\r", "/", "—"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_NGN_PIECES), max_size=24))
def test_the_ngn_sniff_s_compiled_scan_is_its_expressions(pieces):
    """``_matrows.ngn_lines`` (the compiled scan of the .ngn sniff's lines) answers as the sniff's regular
    expressions do (tags, numbered moves, ``Game N players`` lines, in any case, among other text, with the
    characters that Python's case-insensitive match takes for ASCII letters too); so does ``looks_like_ngn``."""
    from nardy_analyze.notation import sniffs

    text = "".join(pieces)
    want = sniffs.ngn_by_expressions(text)
    assert sniffs.looks_like_ngn(text) == want
    try:
        from nardy_analyze.notation._matrows import ngn_lines
    except ImportError:
        return
    assert ngn_lines(text) is want, text


def test_the_ngn_sniff_s_compiled_scan_is_sure_of_real_records():
    """The compiled scan says what the expressions say of every record of the examples and the fixtures."""
    pytest.importorskip("nardy_analyze.notation._matrows", reason="the compiled reader is not built")
    from nardy_analyze import PURE
    from nardy_analyze.notation import sniffs
    from nardy_analyze.notation._matrows import ngn_lines

    if PURE:
        pytest.skip("NARDY_ANALYZE_PURE is set")
    files = [f for f in sorted((ROOT / "examples").iterdir()) + sorted((ROOT / "tests" / "fixtures").rglob("*"))
             if f.is_file() and f.suffix in (".mat", ".txt", ".ngn", ".sgf")]
    assert len(files) > 20
    ngn = 0
    for f in files:
        head = f.read_text(encoding="utf-8", errors="replace")[:65536]
        got = ngn_lines(head)
        assert got is sniffs.ngn_by_expressions(head), f
        ngn += got
    assert ngn >= 3


_TAG_TEXT = st.text(alphabet=st.sampled_from(list("aZ :\\]\"[é Ю1.")), max_size=8)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_TAG_TEXT, _TAG_TEXT), max_size=6), st.lists(_TAG_TEXT, max_size=3))
def test_the_sgf_root_writes_every_tag_as_escaping_each_one_writes_it(items, comments):
    """The first game's ``NT`` property (all the record's tags, in order) is each tag escaped one by one
    (``_escape``, ``:`` in a name as ``\\:``) whether or not a tag has anything to escape; and the root's tag
    properties (``EV``, ``DT``...) read the tags as :meth:`Match.tag` reads each (``Match.tag_values``)."""
    from nardy_analyze.record import Match
    m = Match(path="x.mat", notation="mat", tag_items=list(items), comments=list(comments))
    for k, v in items:
        m.tags.setdefault(k, v)
    esc = sgf_mod._escape
    want = ("NT" + "".join(f"[{esc(k).replace(':', chr(92) + ':')}:{esc(v)}]" for k, v in items)) if items else ""
    want += ("NC" + "".join(f"[{esc(c)}]" for c in comments)) if comments else ""
    assert sgf_mod._MatchProps(m, {}).first == want
    keys = tuple(k for k, _v in items) + ("Event", "eventdate", "Round", "SITE", "")
    assert m.tag_values(keys) == [m.tag(k) for k in keys]


def _maker_classes():
    from nardy_analyze.events import ActionState, GameReport
    from nardy_analyze.notation.normal import NormalAction, NormalGame
    from nardy_analyze.record import Game
    from nardy_analyze.replay.state import GameState
    return [GameState, GameReport, Game, Loc, NormalGame, NormalAction, ActionState]


def _field_values(obj) -> list:
    from dataclasses import fields
    return [getattr(obj, f.name) for f in fields(obj)]


_MAKER_VALUES = st.one_of(st.none(), st.integers(-3, 3), st.text(max_size=3), st.booleans(),
                          st.tuples(st.integers(0, 3), st.integers(0, 3)))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 6), st.data())
def test_an_object_made_without_its_init_is_the_one_its_init_makes(which, data):
    """``engine.compiled.maker(cls)`` (the core filling each slot) makes what ``cls(...)`` makes, for every class
    the replay and the readers make that way: each field its argument (positional or by keyword), else its
    default, else a new value of its default factory (never one shared between two objects); and a call the
    class refuses (a missing, unknown or repeated argument, too many) is refused with the class's own error."""
    from dataclasses import MISSING, fields
    from nardy_analyze.engine.compiled import CoreRules, maker
    cls = _maker_classes()[which]
    make = maker(cls)
    if CoreRules is not None:
        assert make is not cls
    fs = fields(cls)
    required = [f for f in fs if f.default is MISSING and f.default_factory is MISSING]
    given_n = data.draw(st.integers(len(required), len(fs)))
    values = [data.draw(_MAKER_VALUES) for _ in range(given_n)]
    positional = data.draw(st.integers(0, given_n))
    args, kwargs = values[:positional], {f.name: v for f, v in zip(fs[positional:given_n], values[positional:])}
    a, b = make(*args, **kwargs), cls(*args, **kwargs)
    assert type(a) is cls and _field_values(a) == _field_values(b)
    c = make(*args, **kwargs)
    for f in fs:                      # a default factory's value is new for each object
        if f.default_factory is not MISSING and f.name not in kwargs and fs.index(f) >= positional:
            assert getattr(a, f.name) is not getattr(c, f.name)
    bad = data.draw(st.sampled_from(["missing", "unknown", "repeated", "too many"]))
    if bad == "missing" and required:
        call_args, call_kw = [], {}
    elif bad == "unknown":
        call_args, call_kw = args, {**kwargs, "no_such_field": 1}
    elif bad == "repeated" and args:
        call_args, call_kw = args, {**kwargs, fs[0].name: 1}
    else:
        call_args, call_kw = [None] * (len(fs) + 1), {}
    with pytest.raises(TypeError) as made:
        make(*call_args, **call_kw)
    with pytest.raises(TypeError) as called:
        cls(*call_args, **call_kw)
    assert str(made.value) == str(called.value)


def test_a_class_the_core_cannot_make_is_called():
    """A class that is no slotted dataclass, or whose ``__init__`` does more than fill its fields
    (``__post_init__``, a field outside ``__init__``, a keyword-only one), is made by calling it: ``maker``
    gives the class itself."""
    from dataclasses import dataclass, field
    from nardy_analyze.engine.compiled import maker

    @dataclass
    class NoSlots:
        x: int = 0

    @dataclass(slots=True)
    class Post:
        x: int = 0

        def __post_init__(self):
            self.x += 1

    @dataclass(slots=True)
    class NotInit:
        x: int = 0
        y: int = field(default=0, init=False)

    @dataclass(slots=True, kw_only=True)
    class KwOnly:
        x: int = 0

    class Plain:
        __slots__ = ("x",)

    for cls in (NoSlots, Post, NotInit, KwOnly, Plain):
        assert maker(cls) is cls
    assert Post().x == 1
