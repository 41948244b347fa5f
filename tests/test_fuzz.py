"""The standing fuzz campaign's in-suite part (issue 6): no reader, no command raises on any input.

Hypothesis, bounded (``max_examples``, no deadline; about 30-60 s for the whole file): random bytes;
real records (the shared corpus when present, else the self-play fixtures) with lines deleted,
duplicated or swapped, truncated at any byte, bytes flipped; random Unicode; huge numbers and long
lines; thousands of empty games; through every registered reader and through every command that
reads records, in every output format (``analyze``, whose engine takes about a second a record, in the
full suite only).  The long campaign outside the suite is ``fuzz/campaign.py``
(see fuzz/README.md); an input that breaks either becomes a test in ``REGRESSIONS`` below.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from functools import cache
from pathlib import Path

import pytest
from helpers import CORPUS, ROOT, load_script
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from nardy_analyze.inputs import discover, load
from nardy_analyze.analyze import validate_match, validate_paths
from nardy_analyze.cli import app
from nardy_analyze.notation import decode, get, mat, names
from nardy_analyze.result import RunResult
from nardy_analyze.report import (
    to_json,
    to_sarif,
    write_statistics,
    write_text,
)

FIXTURES = sorted((ROOT / "tests" / "fixtures" / "selfplay").glob("*.mat"))
TEXTS = [p.read_bytes() for p in FIXTURES]
ALPHABET = b" \n:/*()0123456789?=>abcdefghijklmnopqrstuvwxyzBGDTWRL;[]\"\xfc\xff\x00\t\r"
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def corpus_files() -> list[Path]:
    """Real records to mutate: every 20th file of the shared corpus (a fixed sample), else the fixtures."""
    if CORPUS.is_dir():
        files = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".mat", ".txt") and p.is_file()
                       and not p.name.startswith((".", "expected")))
        if files:
            return files[::20]
    return FIXTURES


SEEDS = corpus_files()


@cache
def seed_bytes(i: int) -> bytes:
    return SEEDS[i].read_bytes()


def check_match(match, path: str) -> None:
    assert match.path == path
    for p in match.problems + [p for g in match.games for p in g.problems]:
        assert p.loc.line >= 1 and p.loc.column >= 1 and p.message


def check(data: bytes, name: str = "fuzz.mat") -> None:
    """Every reader reads it; the validator replays it; every report renders it."""
    text = decode(data)
    for n in names():
        check_match(get(n).read(text, name), name)
    match = mat.read(text, name)
    rep = validate_match(match)
    run = RunResult(reports=[rep])
    doc = json.loads(json.dumps(to_json(run, explain=True)))
    for f in doc["findings"]:
        assert f["line"] >= 1 and f["column"] >= 1
        assert f["rule"] and f["message"] and f["rule"] != "internal-error"
    json.dumps(to_sarif(run))

    class Sink:
        def write(self, s: str) -> None:
            pass

    write_text(run, Sink(), explain=True, verbose=True)
    write_statistics(run, Sink())


# ----------------------------------------------------------------------------- mutations of real records

def mutate_lines(data: bytes, ops: list[tuple[str, float, float]]) -> bytes:
    lines = data.splitlines(keepends=True) or [b""]
    for op, a, b in ops:
        i, j = int(a * len(lines)) % len(lines), int(b * len(lines)) % len(lines)
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines)


LINE_OPS = st.lists(st.tuples(st.sampled_from(["delete", "duplicate", "swap"]), st.floats(0, 1), st.floats(0, 1)),
                    min_size=1, max_size=8)


@settings(max_examples=60, **SETTINGS)
@given(st.integers(0, 10**6), LINE_OPS)
def test_real_records_with_lines_deleted_duplicated_swapped(i, ops):
    check(mutate_lines(seed_bytes(i % len(SEEDS)), ops))


@settings(max_examples=60, **SETTINGS)
@given(st.integers(0, 10**6), st.floats(0, 1))
def test_real_records_truncated_at_any_byte(i, where):
    data = seed_bytes(i % len(SEEDS))
    check(data[:int(where * len(data))])


@settings(max_examples=60, **SETTINGS)
@given(st.integers(0, 10**6), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 7)), min_size=1, max_size=16))
def test_real_records_with_bytes_flipped(i, flips):
    data = bytearray(seed_bytes(i % len(SEEDS)))
    for where, bit in flips:
        if data:
            data[int(where * (len(data) - 1))] ^= 1 << bit
    check(bytes(data))


@settings(max_examples=60, **SETTINGS)
@given(st.sampled_from(range(len(TEXTS))), st.lists(
    st.tuples(st.floats(0, 1), st.integers(1, 12), st.binary(min_size=0, max_size=12)), min_size=1, max_size=6))
def test_mutated_records_never_raise(i, edits):
    data = bytearray(TEXTS[i])
    for where, cut, insert in edits:
        pos = int(where * len(data))
        data[pos:pos + cut] = insert
    check(bytes(data))


# ----------------------------------------------------------------------------- made-up input

@settings(max_examples=200, **SETTINGS)
@given(st.binary(max_size=3000))
def test_random_bytes(data):
    check(data)


@settings(max_examples=60, **SETTINGS)
@given(st.lists(st.sampled_from([bytes([b]) for b in ALPHABET]), max_size=400))
def test_random_text_never_raises(chars):
    check(b" 5 point match\n\n Game 1\n A : 0    B : 0\n" + b"".join(chars))


@settings(max_examples=60, **SETTINGS)
@given(st.text(max_size=600), st.sampled_from(["utf-8", "utf-16", "utf-16-le", "utf-32", "cp1251"]))
def test_random_unicode_in_any_encoding(text, encoding):
    framed = f"; [Player 1 \"{text[:40]}\"]\n 3 point match\n\n Game 1\n {text[:20]} : 0   B : 0\n  1) 31: {text}\n"
    check(framed.encode(encoding, errors="replace"))


NUMBER = re.compile(rb"[0-9]+")


@settings(max_examples=40, **SETTINGS)
@given(st.integers(0, 10**6), st.lists(st.tuples(st.floats(0, 1), st.sampled_from(
    [b"9" * 30, b"0" * 25 + b"1", b"18446744073709551617", b"-1", b"7" * 5000])), min_size=1, max_size=6))
def test_huge_numbers(i, subs):
    data = seed_bytes(i % len(SEEDS))
    spans = [m.span() for m in NUMBER.finditer(data)]
    for where, big in sorted(subs, reverse=True):
        if spans:
            a, b = spans[int(where * (len(spans) - 1))]
            data = data[:a] + big + data[b:]
            spans = [m.span() for m in NUMBER.finditer(data)]
    check(data)


@settings(max_examples=12, **SETTINGS)
@given(st.integers(0, 10**6), st.floats(0, 1), st.sampled_from([b" 13/11", b"x", b"  ", b"\t", b"Game 1 "]),
       st.integers(20_000, 150_000))
def test_long_lines(i, where, piece, repeat):
    lines = seed_bytes(i % len(SEEDS)).splitlines(keepends=True) or [b""]
    k = int(where * (len(lines) - 1))
    lines[k] = lines[k].rstrip(b"\n") + piece * (repeat // len(piece)) + b"\n"
    check(b"".join(lines))


@settings(max_examples=3, **SETTINGS)
@given(st.integers(1000, 4000), st.sampled_from([b" A : 0   B : 0\n", b"", b" A : 0   B : 0\n  1)\n"]))
def test_thousands_of_empty_games(n, body):
    data = b" 5 point match\n\n" + b"".join(b" Game %d\n" % k + body + b"\n" for k in range(1, n + 1))
    match = mat.read(decode(data), "many.mat")
    assert len(match.games) == n
    check(data)


# ----------------------------------------------------------------------------- every command

# Every command that reads records, with the argument lists it is fuzzed with ({} = the input file).
# A new command that reads records adds its lines here (test_every_command_is_fuzzed says so).
FUZZ_COMMANDS = {
    "validate": [["validate", "{}"], ["validate", "--format", "json", "{}"], ["validate", "--format", "sarif", "{}"],
                 ["validate", "--explain", "--verbose", "{}"], ["validate", "--statistics", "{}"],
                 ["validate", "--format", "html", "{}"]],
    "convert": [["convert", "--to", "json", "--lossy", "--force", "{}"], ["convert", "--to", "sgf", "--force", "{}"],
                ["convert", "--to", "ngn", "--force", "{}"], ["convert", "--to", "mat", "--lossy", "--force", "{}"]],
    "stats": [["stats", "{}"], ["stats", "--by", "game", "--format", "csv", "{}"],
              ["stats", "--by", "match", "--format", "json", "{}"]],
    "show": [["show", "{}"], ["show", "--as", "svg", "{}"], ["show", "--as", "xgid", "--move", "3", "{}"],
             ["show", "--as", "gnubg", "--game", "2", "{}"], ["show", "--as", "html", "{}"]],
    "analyze": [["analyze", "{}"], ["analyze", "--by", "decision", "--format", "csv", "{}"]],
    "hint": [["hint", "{}"], ["hint", "--game", "1", "--move", "2", "--as-json", "{}"]],
}
NOT_READING = {"rules", "generate"}     # generate reads no record


def test_every_command_is_fuzzed():
    import typer.main

    commands = set(typer.main.get_command(app).commands)
    missing = commands - set(FUZZ_COMMANDS) - NOT_READING
    assert not missing, f"add fuzz argument lists for {sorted(missing)} to FUZZ_COMMANDS"


def run_command(args: list[str], path: str) -> None:
    result = CliRunner().invoke(app, [a.replace("{}", path) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.stdout[-500:])
    assert "Traceback" not in result.stdout + result.stderr


def fuzz_command(i, ops, cut, suffix, command, variant) -> None:
    """A seed record damaged by ``ops`` (and cut short when ``cut`` < 0.3) through one of ``command``'s
    argument lists, named on the command line and found in a folder."""
    data = mutate_lines(seed_bytes(i % len(SEEDS)), ops)
    data = data[:max(1, int(cut * len(data)))] if cut < 0.3 else data
    lists = FUZZ_COMMANDS[command]
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "input" + suffix)
        Path(f).write_bytes(data)
        run_command(lists[variant % len(lists)], f)     # the file named on the command line
        run_command(lists[variant % len(lists)], d)     # and found in a folder


# analyze evaluates every decision of the record with the engine (about a second a record, some 40 times
# the other commands): it has a test of its own, in the full suite (conftest SLOW_TESTS)
@settings(max_examples=25, **SETTINGS)
@given(st.integers(0, 10**6), LINE_OPS, st.floats(0, 1), st.sampled_from([".mat", ".txt"]),
       st.sampled_from(sorted(set(FUZZ_COMMANDS) - {"analyze"})), st.integers(0, 4))
def test_commands_never_raise(i, ops, cut, suffix, command, variant):
    fuzz_command(i, ops, cut, suffix, command, variant)


@settings(max_examples=25, **SETTINGS)
@given(st.integers(0, 10**6), LINE_OPS, st.floats(0, 1), st.sampled_from([".mat", ".txt"]), st.integers(0, 4))
def test_analyze_never_raises(i, ops, cut, suffix, variant):
    fuzz_command(i, ops, cut, suffix, "analyze", variant)


@settings(max_examples=25, **SETTINGS)
@given(st.binary(max_size=2000), st.sampled_from([".mat", ".txt"]))
def test_discovery_and_load_on_random_files(data, suffix):
    with tempfile.TemporaryDirectory() as d:
        Path(d, "x" + suffix).write_bytes(data)
        entries = list(discover([d]))
        assert len(entries) == 1
        e = entries[0]
        if suffix == ".mat":
            assert e.status == "record"
        if e.status == "record":
            check_match(load(e), e.path)
        run = validate_paths([d])
        assert len(run.reports) + len(run.skipped) + len(run.unreadable) == 1


# ----------------------------------------------------------------------------- regressions

# Inputs that broke a reader or a command, found by the fuzzers: (name, bytes).
REGRESSIONS: list[tuple[str, bytes]] = [
    ("the five files of issue 6: empty", b""),
    ("NUL bytes", b" 1 point match\n\0\0 Game 1\n"),
    ("UTF-16 without BOM", " 1 point match\n\n Game 1\n A : 0   B : 0\n".encode("utf-16-le")),
]


@pytest.mark.parametrize("name,data", REGRESSIONS, ids=[n for n, _ in REGRESSIONS])
def test_regressions(name, data):
    check(data)


# ----------------------------------------------------------------------------- the compiled core and its twin

def test_damaged_records_give_the_pure_python_code_s_bytes():
    """The campaign's twin check, bounded: 40 damaged records (its own mutations, a fixed seed) reported and
    converted to every notation here and by a process running the pure-Python code; every output alike."""
    campaign = load_script("fuzz/campaign.py", "fuzz_campaign")
    if campaign.PURE:
        pytest.skip("NARDY_ANALYZE_PURE is set: this process runs the pure-Python code itself")
    import random
    rng = random.Random(20261206)
    pool = [seed_bytes(i) for i in range(min(len(SEEDS), 8))]
    items = []
    while len(items) < 40:
        data = campaign.mutate(rng, rng.choice(pool), pool)
        if len(data) <= campaign.KEEP_BYTES:
            items.append((data, campaign.outputs(data)))
    items.insert(3, (b"", campaign.outputs(b"")))      # (an empty input among them: its line is kept, empty)
    assert all(not d.startswith("raised") for _data, out in items for _w, d in out)
    assert campaign.twin_check(items) == []
    # (and a difference is found: one output said otherwise here)
    data, out = items[0]
    assert campaign.twin_check([(data, [(out[0][0], "0" * 16)] + out[1:])]) == [(data, out[0][0])]


def test_a_tag_name_ngn_cannot_write_is_a_loss_not_an_internal_error():
    """Found by the campaign: a damaged header line read as a tag whose name holds a bracket (``; [Eve; [CubeLimit
    "1024"]``) ended ``convert --to ngn`` in an internal error (the writer raised).  It is a loss: refused, and
    with ``--lossy`` the tag is left out and the rest written."""
    from nardy_analyze.convert import REFUSED, WRITTEN, convert_match
    text = (b'; [Event "Club"]\n; [Eve; [CubeLimit "1024"]\n; [Round "3"]\n\n 1 point match\n\n Game 1\n'
            b' Ann : 0    Bob : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n')
    match = get("mat").read(decode(text), "t.mat")
    assert list(match.tags) == ["Event", "Eve; [CubeLimit", "Round"]
    outcome, out = convert_match(match, "ngn")
    assert outcome.status == REFUSED and out is None
    assert any("'Eve; [CubeLimit'" in m and ".ngn" in m for m in outcome.messages), outcome.messages
    outcome, out = convert_match(match, "ngn", lossy=True)
    assert outcome.status == WRITTEN and outcome.dropped
    assert '[Event "Club"]' in out and '[Round "3"]' in out and "CubeLimit" not in out
    back = get("ngn").read(out, "t.ngn")
    assert dict(back.tags).get("Round") == "3" and not back.problems
