"""The fast paths of issue 10 give exactly what the general code gives.

- the .mat reader's regular expression for common rows (``mat._fast_row``) against the Lark grammar:
  the same tokens for every row it takes, the same ``Match`` for whole records (corpus and examples);
- the judge's check of the recorded play (``judge._exact``) against the judge without it;
- ``--max-file-size``: a file over the limit is one clear error naming the limit and the option.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from lark.exceptions import UnexpectedInput

from nardy_analyze.engine import get_variant, legal_results
from nardy_analyze.engine import judge as judge_mod
from nardy_analyze.engine.core import generate
from nardy_analyze.notation import mat

from helpers import CORPUS, ROOT


def run_cli(*args):
    import os
    import subprocess
    import sys
    p = subprocess.run([sys.executable, "-m", "nardy_analyze", *args], capture_output=True, text=True,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Traceback" not in p.stdout + p.stderr
    return p


def _read_both(text: str, path: str, monkeypatch):
    monkeypatch.setattr(mat, "FAST", True)
    fast = mat.read(text, path)
    monkeypatch.setattr(mat, "FAST", False)
    slow = mat.read(text, path)
    return fast, slow


def _records():
    files = sorted((ROOT / "examples").glob("*.mat")) + sorted((ROOT / "tests" / "fixtures").rglob("*.mat"))
    if CORPUS.is_dir():
        files += sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))[:20]
        files += sorted((CORPUS / "mutants").rglob("*.mat"))
        files += sorted((CORPUS / "bglab").rglob("*.txt"))[::30]
    return files


def test_fast_rows_read_records_as_the_grammar_does(monkeypatch):
    files = _records()
    assert files
    for f in files:
        text = mat.decode(f.read_bytes())
        fast, slow = _read_both(text, str(f), monkeypatch)
        assert fast == slow, f


def _lark_row(src: str):
    try:
        return mat.PARSER.parse(src, start="row")
    except UnexpectedInput:
        return None


def _shape(items):
    """Items as comparable tuples: (tag, [(type, value, start, end, column, end_column)])."""
    def tok(t):
        return (t.type, t.value, t.start_pos, t.end_pos, t.column, t.end_column, t.line)
    return [tok(i) if not isinstance(i, tuple) else (i[0], [tok(t) for t in i[1]]) for i in items]


_CELLS = ["53: 8/3 6/3", "65:", "44: bar/21(2) 13/9*/5", "61: 13/7*/6", "31: 6/5 8/5", "62: 6/off 2/off",
          "Doubles => 2", "Double => 4", "doubles=>2", "Takes", "Take", "Drops", "Wins 1 point",
          "Wins 2 points and the match", "wins 3 Points and wins the match", "12)", "7)", "1)", "00: 8/3",
          "53: 8/3 6/3x", "64: Cannot Move", "61: ????", "????", "Resigns", "Losses 2 point", "53: 8/3/",
          "Doubles =>", "Wins 2", "53:8/3", "7x: 1/2", "Illegal play (1;2)", "Beavers", "123456)", "1234567)",
          "13/9", "53: 26/21", "53: 8/3(16)", "Wins 1234567 points"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_CELLS), st.sampled_from([" ", "  ", "\t", "          ", ""])),
                max_size=5),
       st.sampled_from(["", " ", "   ", "\t"]), st.sampled_from(["", " ", "  "]))
def test_fast_row_takes_only_what_the_grammar_reads_the_same_way(cells, lead, trail):
    src = lead + "".join(c + gap for c, gap in cells).rstrip(" \t") + trail + "\n"
    fast = mat._fast_row(src)
    if fast is None:
        return                              # Lark reads it: nothing to compare
    slow = _lark_row(src)
    assert slow is not None, src
    assert _shape(fast) == _shape(slow), src


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
        ps = generate(rules, me, opp, d1, d2, turn)
        paths = [list(p) for p in list(ps.plays.values())[:4]]
        # also plays that are not legal: one step per number, at random
        numbers = [d1] * 4 if d1 == d2 else [d1, d2]
        paths.append([(s, s - d, d) for s in rng.sample(range(1, 26), len(numbers))
                      for d in [numbers.pop()] if s - d >= 1])
        for path in paths:
            steps = [(s, d) for s, d, _ in path]
            rng.shuffle(steps)
            fast = judge_mod.judge(rules, me, opp, d1, d2, steps, turn=turn)
            original = judge_mod._exact
            judge_mod._exact = lambda *a: None
            try:
                slow = judge_mod.judge(rules, me, opp, d1, d2, steps, turn=turn)
            finally:
                judge_mod._exact = original
            assert fast == slow, (me, opp, d1, d2, steps)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_route_of_the_recorded_play_is_the_same_with_the_check_first(seed):
    for rules, rng, me, opp, d1, d2, turn in _positions("backgammon", seed):
        ps = generate(rules, me, opp, d1, d2, turn)
        for after, path in list(ps.plays.items())[:3]:
            steps = [(s, d) for s, d, _ in path]
            rng.shuffle(steps)
            fast = judge_mod.route(rules, me, opp, d1, d2, steps, after, turn)
            original = judge_mod._exact
            judge_mod._exact = lambda *a: None
            try:
                slow = judge_mod.route(rules, me, opp, d1, d2, steps, after, turn)
            finally:
                judge_mod._exact = original
            assert fast == slow, (me, opp, d1, d2, steps)


def test_a_file_over_the_size_limit_names_the_limit_and_the_option(tmp_path):
    src = ROOT / "examples" / "selfplay-7pt.mat"
    big = tmp_path / "big.mat"
    big.write_bytes(src.read_bytes() * 20)
    small = tmp_path / "small.mat"
    small.write_bytes(src.read_bytes())
    limit_mib = (len(src.read_bytes()) * 2) / (1024 * 1024)
    r = run_cli("validate", "--max-file-size", f"{limit_mib:.4f}", str(big), str(small))
    assert r.returncode == 2
    assert "big.mat" in r.stderr and "--max-file-size" in r.stderr and "larger than the limit of" in r.stderr
    assert "small.mat" not in r.stderr
    assert "1 file(s)" in r.stdout                 # the other file is still validated
    r = run_cli("validate", "--max-file-size", "64", str(big))
    assert "--max-file-size" not in r.stderr
