"""The reader and the replayer never raise, whatever the text (python-chess's fuzz/pgn.py idea)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from nardy_analyze.analyze import validate_match
from nardy_analyze.notation import mat
from nardy_analyze.report import RunResult, to_json

from helpers import ROOT

FIXTURES = sorted((ROOT / "tests" / "fixtures" / "selfplay").glob("*.mat"))
TEXTS = [p.read_bytes() for p in FIXTURES]
ALPHABET = b" \n:/*()0123456789?=>abcdefghijklmnopqrstuvwxyzBGDTWRL;[]\"\xfc\xff\x00\t\r"


def check(data: bytes) -> None:
    match = mat.read(mat.decode(data), "fuzz.mat")
    rep = validate_match(match)
    run = RunResult(reports=[rep])
    doc = to_json(run, explain=True)
    for f in doc["findings"]:
        assert f["line"] >= 1 and f["column"] >= 1
        assert f["rule"] and f["message"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TEXTS))), st.lists(
    st.tuples(st.floats(0, 1), st.integers(1, 12), st.binary(min_size=0, max_size=12)), min_size=1, max_size=6))
def test_mutated_records_never_raise(i, edits):
    data = bytearray(TEXTS[i])
    for where, cut, insert in edits:
        pos = int(where * len(data))
        data[pos:pos + cut] = insert
    check(bytes(data))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([bytes([b]) for b in ALPHABET]), max_size=400))
def test_random_text_never_raises(chars):
    check(b" 5 point match\n\n Game 1\n A : 0    B : 0\n" + b"".join(chars))
