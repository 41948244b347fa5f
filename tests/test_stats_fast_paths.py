"""The short cuts of the statistics' per-turn figures (issue 10) give what the plain definitions give:
forced turns against the engine's full list of legal plays, closed points and primes against
``rules.closed`` asked point by point, the roll's turn spec the replay hands over against the one the
turn driver gives; on every turn of real and generated records, and on random positions."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from helpers import ROOT
from nardy_analyze import stats, statsrun
from nardy_analyze.stats import frames, tally
from nardy_analyze import notation
from nardy_analyze.engine import Rules, generate, get_variant
from nardy_analyze.replay import Events, ReplayVisitor, replay

FIXTURES = ROOT / "tests" / "fixtures" / "selfplay"
VARIANTS = ("backgammon", "long", "gulbara")


class Rows(ReplayVisitor):
    wants = Events.TURNS | Events.ENDS

    def __init__(self):
        self.turns = []

    def turn(self, row):
        self.turns.append(row)

    def game_end(self, end):
        pass


def _rows(match, variant):
    rows = Rows()
    replay(match, variant, visitor=rows)
    return rows.turns


def _records():
    """(variant, turn rows) of the self-play fixtures and of generated games of every variant."""
    out = []
    bg = get_variant("backgammon")
    for path in sorted(FIXTURES.glob("*.mat"))[:6]:
        out.append((bg, _rows(notation.read_path(path), bg)))
    gen = pytest.importorskip("nardy_analyze.generate")
    for name in VARIANTS:
        v = get_variant(name)
        out.append((v, _rows(gen.generate_match(name, 6, seed=11), v)))
    return out


@pytest.fixture(scope="module")
def records():
    return _records()


def _plain_blocks(rules, me, opp):
    """The definition of stats' prime and shutout, point by point through ``rules.closed``."""
    closed = [rules.closed(me, q) for q in range(1, 25)]
    prime, run = False, 0
    for q in range(1, 25):
        run = run + 1 if closed[q - 1] else 0
        if run >= 6 and any(opp[q:25]):
            prime = True
            break
    shutout = bool(rules.has_bar and opp[24]) and all(closed[18:24])
    return prime, shutout


def test_forced_is_at_most_one_legal_play_on_every_turn(records):
    turns = forced = 0
    for v, rows in records:
        for t in rows:
            if t.dice is None or t.spec is None:
                continue
            m, o = t.before
            numbers = tuple(t.spec.numbers)
            expected = len(generate(v.rules, m, o, numbers, t.spec.turn).plays) <= 1
            assert tally._forced(v.rules, m, o, numbers, t.spec.turn) == expected, (v.name, t.game, t.line)
            turns += 1
            forced += expected
    assert turns > 1000 and 0 < forced < turns     # both answers were checked


def test_replay_hands_over_the_turn_drivers_spec(records):
    """The spec in a turn row is the one the tally would ask the turn driver for."""
    for v, rows in records:
        rolled: set = set()
        roll_no: dict = {}
        for t in rows:
            if t.dice is None:
                continue
            first = (t.game, t.side) not in rolled
            rolled.add((t.game, t.side))
            roll_no[t.game] = roll_no.get(t.game, 0) + 1
            if t.spec is None:
                continue
            d1, d2 = t.dice
            spec = v.rules.turn_segments(d1, d2, first, roll_no[t.game]).next(*t.before)
            assert (spec.kind, spec.player, tuple(spec.numbers), spec.turn) == \
                (t.spec.kind, t.spec.player, tuple(t.spec.numbers), t.spec.turn)


def test_blocks_agree_with_closed_point_by_point(records):
    for v, rows in records:
        fast = tally._closed_flags(v.rules)
        for t in rows:
            for me, opp in (t.after, t.before, t.after[::-1]):
                assert fast(me) == bytes(b"1"[0] if v.rules.closed(me, q) else b"0"[0] for q in range(1, 25))
                assert tally._blocks(v.rules, me, opp, fast) == _plain_blocks(v.rules, me, opp)


def _side(draw, bar: bool):
    """A side of 15 checkers or fewer (some borne off) spread over 24 points (and the bar)."""
    counts = [0] * 25
    for _ in range(draw(st.integers(0, 15))):
        counts[draw(st.integers(0, 24 if bar else 23))] += 1
    return tuple(counts)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), name=st.sampled_from(VARIANTS))
def test_blocks_on_random_positions(data, name):
    rules = get_variant(name).rules
    bar = rules.has_bar
    me, opp = _side(data.draw, bar), _side(data.draw, bar)
    assert tally._blocks(rules, me, opp, tally._closed_flags(rules)) == _plain_blocks(rules, me, opp)


class _OtherRules(Rules):
    """A rules object of a class with no short cut of its own: ``Rules.closed_flags``'s default asks its
    closed points one by one."""

    has_bar = True

    def __init__(self):
        self.inner = get_variant("backgammon").rules

    def closed(self, side, q):
        return self.inner.closed(side, q)


def test_unknown_rules_class_is_asked_point_by_point():
    rules = _OtherRules()
    me = (0,) * 12 + (2,) * 6 + (0,) * 6 + (0,)
    opp = (1,) + (0,) * 23 + (1,)
    assert tally._closed_flags(rules)(me) == tally._closed_flags(rules.inner)(me)
    assert tally._blocks(rules, me, opp) == _plain_blocks(rules, me, opp) == (True, False)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), name=st.sampled_from(VARIANTS), d1=st.integers(1, 6), d2=st.integers(1, 6))
def test_forced_on_random_positions(data, name, d1, d2):
    """Random positions (blocked ones too): the walk and the engine's list of plays agree."""
    rules = get_variant(name).rules
    bar = rules.has_bar
    me, opp = _side(data.draw, bar), _side(data.draw, bar)
    if name != "backgammon":        # nardy: the two sides never share a point
        opp = tuple(0 if me[(i + 12) % 24] else c for i, c in enumerate(opp[:24])) + (0,)
    else:
        opp = tuple(0 if i < 24 and me[23 - i] else c for i, c in enumerate(opp))
    numbers = (d1,) * 4 if d1 == d2 else (d1, d2)
    turn = rules.start_turn(me, opp, False, (d1, d2))
    expected = len(generate(rules, me, opp, numbers, turn).plays) <= 1
    assert tally._forced(rules, me, opp, numbers, turn) == expected


def _bg_side(draw, low: int, high: int, bar: int, total: int):
    """A backgammon side: ``bar`` checkers on the bar and up to ``total`` more on points ``low``..``high``."""
    counts = [0] * 25
    counts[24] = bar
    for _ in range(draw(st.integers(0, total))):
        counts[draw(st.integers(low, high)) - 1] += 1
    return counts


@settings(max_examples=600, deadline=None)
@given(data=st.data(), d1=st.integers(1, 6), d2=st.integers(1, 6), shape=st.sampled_from(["any", "home", "bar"]))
def test_backgammon_short_cuts_agree_with_the_list_of_plays(data, d1, d2, shape):
    """``Backgammon.roll_forced`` (what stats asks before walking the plays) is None or what the engine's
    full list of legal plays says, in races, bear-offs, contact and with checkers on the bar."""
    rules = get_variant("backgammon").rules
    if shape == "home":                     # every checker of the mover home: bear-offs
        me = _bg_side(data.draw, 1, 6, 0, 15)
    elif shape == "bar":
        me = _bg_side(data.draw, 1, 24, data.draw(st.integers(1, 5)), 10)
    else:
        me = _bg_side(data.draw, 1, 24, 0, 15)
    opp = _bg_side(data.draw, 1, 24, data.draw(st.integers(0, 1)), 15 - sum(me[:24]) // 2)
    for i in range(24):                     # the two sides never share a point
        if me[23 - i]:
            opp[i] = 0
    me, opp = tuple(me), tuple(opp)
    numbers = (d1,) * 4 if d1 == d2 else (d1, d2)
    quick = rules.roll_forced(me, opp, numbers)
    expected = len(generate(rules, me, opp, numbers).plays) <= 1
    assert quick is None or quick == expected, (me, opp, numbers)
    assert tally._forced(rules, me, opp, numbers, None) == expected


def test_turn_rows_are_turn_rows(records):
    """The replay builds its rows without the named tuple's ``__new__``: they are TurnRows all the same."""
    from nardy_analyze.events import TurnRow

    for _, rows in records:
        for t in rows:
            assert type(t) is TurnRow and len(t) == len(TurnRow._fields)
            assert t == TurnRow(*t) and t.game == t[0] and t.spec is t[TurnRow._fields.index("spec")]
            assert t.move is t[TurnRow._fields.index("move")]
            assert t.crawford is t[-1] and t.score == t[-2]


def _plain_names(df, aliases):
    """The display names as stats computed them before (row by row): the definition of ``stats.frames.unify_names``."""
    from collections import Counter

    import pandas as pd

    raw = pd.concat([df["player"], df["opponent"]]).astype(str)
    from nardy_analyze import names

    spelled = raw.map(names.spelling)                  # blanks collapsed, the rating suffix removed
    keys = raw.map(stats.normalise_name)               # case, blanks and underscores aside
    counts = Counter(zip(keys, spelled))
    display = {}
    for (key, spelling), n in sorted(counts.items(), key=lambda kv: -kv[1]):
        display.setdefault(key, spelling)
    alias = {k: aliases.get(k, v) for k, v in display.items()}
    for k, v in list(alias.items()):
        target = stats.normalise_name(v)
        if k in aliases and target in display and target not in aliases:
            alias[k] = display[target]
    return {col: df[col].astype(str).map(lambda n: alias[stats.normalise_name(n)]).tolist()
            for col in ("player", "opponent")}


_SPELLINGS = ["Alice", "alice", " ALICE ", "Alice,1673", "alice , 1500", "Bob", "bob", "Bob  Smith", "bob smith",
              "Robert", "Carol,12", "carol"]


@settings(max_examples=200, deadline=None)
@given(pairs=st.lists(st.tuples(st.sampled_from(_SPELLINGS), st.sampled_from(_SPELLINGS)), min_size=1,
                      max_size=30),
       alias=st.lists(st.tuples(st.sampled_from(_SPELLINGS), st.sampled_from(["Bob", "Alice Smith", "carol", "Zed"])),
                      max_size=3))
def test_names_once_per_distinct_name_as_row_by_row(pairs, alias):
    """``stats.frames.unify_names`` looks at each distinct name once; it gives what the row-by-row code gave (the most
    frequent spelling, ties to the one seen first, aliases)."""
    import pandas as pd

    aliases = {stats.normalise_name(k): v for k, v in alias}
    df = pd.DataFrame({"player": [a for a, _ in pairs], "opponent": [b for _, b in pairs]})
    expected = _plain_names(df, aliases)
    frames.unify_names(df, aliases)
    assert {col: df[col].tolist() for col in ("player", "opponent")} == expected


def test_scan_hands_the_frozen_objects_back(tmp_path):
    """``statsrun.scan`` freezes what is alive while it replays (gc.freeze, for its worker processes) and
    unfreezes it at the end, also when reading fails."""
    import gc

    before = gc.get_freeze_count()
    run = statsrun.scan([str(p) for p in sorted(FIXTURES.glob("*.mat"))[:2]], jobs=1)
    assert run.files == 2 and len(run.games) > 0
    assert gc.get_freeze_count() == before == 0
    bad = tmp_path / "bad.mat"
    bad.write_bytes(b"\xff\xfe not a record")
    statsrun.scan([str(bad)], jobs=1)
    assert gc.get_freeze_count() == 0


_TABLE_NAMES = st.sampled_from(["lasse", "Llabba", "Иван Петров", "ÿüé", "a b", " lead", "trail ", "张伟", "e\u0301",
                                "x" * 40, "", "[red]no markup[/red]", "tab\there", "😀", "O'Brien"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_TABLE_NAMES, st.integers(0, 10**6), st.floats(0, 1, allow_nan=False),
                          st.integers(-50, 50)), min_size=0, max_size=12),
       st.sampled_from([None, 40, 80, 1000]))
def test_the_plain_table_is_the_table_rich_draws(rows, width):
    """The stats table written directly (``render._plain_table``: not a terminal, no colour) is, byte for byte,
    the one rich draws, for names of every script and width (wide, combining, markup, blanks at the ends, a
    tab), numbers of every size, no rows, and tables wider than the page (then rich draws it)."""
    import io
    import pandas as pd
    from nardy_analyze.stats import render
    df = pd.DataFrame(rows, columns=["player", "games", "win_rate", "points_for"]).astype(
        {"games": "int64", "win_rate": "float64", "points_for": "int64"})
    out = []
    for plain in (True, False):
        fh = io.StringIO()
        saved, render.PLAIN_TABLES = render.PLAIN_TABLES, plain
        try:
            render.write_table(df, "player", fh, width=width)
        finally:
            render.PLAIN_TABLES = saved
        out.append(fh.getvalue())
    assert out[0] == out[1]
