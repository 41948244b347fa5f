"""``nardy-analyze convert``: round trips over the corpus, refusals, --lossy, encodings, atomic writes."""
from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from helpers import CORPUS, ROOT, cli
from roundtrip import actual, expected, first_difference
from nardy_analyze import notation
from nardy_analyze.convert import FAILED, convert_paths
from nardy_analyze.record import Kind, Segment
from nardy_analyze.convert import write_text

SCHEMA = json.loads((ROOT / "docs" / "schema" / "match.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

GOOD = """; [Site "Club"]
; [EventDate "2026.11.30"]
; a comment line

 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 62: 24/18 13/11             Doubles => 2
  3)  Drops
                                  Wins 1 point

 Game 2
 Alice : 0                      Bob : 1
  1) 43: 24/20 13/10             61: 13/7 8/7
  2) 55: 13/3(2)                 64: ????
  3)  Losses 1 point             Wins 1 point
"""


def write_doc(text: str) -> dict:
    doc = json.loads(text)
    VALIDATOR.validate(doc)
    return doc


def round_trip(match, via: str):
    """match -> via -> mat, read back; JSON documents validated against the schema."""
    text = write_text(match, via)
    if via == "json":
        write_doc(text)
    middle = notation.read_text(text, "x." + via)
    assert not middle.problems and not any(g.problems for g in middle.games), middle.problems
    back = notation.read_text(write_text(middle, "mat"), "y.mat")
    assert not back.problems and not any(g.problems for g in back.games)
    return middle, back


# ----------------------------------------------------------------------------- round trips


def corpus_files() -> list[Path]:
    if not CORPUS.exists():
        pytest.skip(f"shared corpus not present: {CORPUS}")
    return sorted((CORPUS / "gnubg-selfplay").glob("*.mat")) + sorted((CORPUS / "bglab").rglob("*.txt"))


@pytest.mark.slow
def test_whole_corpus_round_trips_mat_sgf_mat_json_mat_ngn_mat():
    """Every game of the shared corpus, gnubg-selfplay (100 files, 823 games) and bglab (1,777 files,
    5,008 games): mat -> sgf -> mat, mat -> json -> mat and mat -> ngn -> mat keep dice, plays (the same
    single-die steps, so the same positions), cube actions, results, names, match length, tags and
    comments; the JSON middle record is the original as read; every JSON document validates against the
    schema; no target reports a loss.  In memory through the library (``corpus_roundtrip.check_file``), one
    replay per record, in a pool of two processes (about a minute on two cores)."""
    import multiprocessing

    from corpus_roundtrip import check_file

    files = [str(f) for f in corpus_files()]
    assert len(files) == 100 + 1777
    with multiprocessing.get_context("fork").Pool(2) as pool:
        results = pool.map(check_file, files, chunksize=8)
    failures = [x for _, _, _, fails in results for x in fails]
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:20])
    games = sum(r[1] for r in results)
    assert games == 823 + 5008
    assert sum(r[2] for r in results) == 266_089        # actions (rolls, cube actions, results)


@pytest.mark.slow
def test_selfplay_mat_is_written_byte_for_byte_as_gnubg_wrote_it():
    if not CORPUS.exists():
        pytest.skip(f"shared corpus not present: {CORPUS}")
    files = sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))
    assert len(files) == 100
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert write_text(notation.read_text(text, str(f)), "mat") == text, f.name


def test_small_record_through_every_notation():
    m = notation.read_text(GOOD, "good.mat")
    assert m.comments == ["a comment line"]
    for via in ("sgf", "json", "ngn"):
        _, back = round_trip(m, via)
        sp = via != "ngn"
        assert actual(back, sp) == expected(m, sp), first_difference(expected(m, sp), actual(back, sp))
    assert not any(g.problems for g in m.games)
    # the combined moves 13/3(2) come back as single-die steps from the replay
    text = write_text(m, "mat")
    assert "55: 13/8 8/3 13/8 8/3" in text
    assert "????" in text and "Losses 1 point" in text


def test_sgf_keeps_what_gnubg_has_no_property_for():
    m = notation.read_text(GOOD, "good.mat")
    m.games[1].actions[0].clock = 12.5
    m.games[1].actions[0].comments.append("opening [a] \\ note")
    m.games[0].comments.append("first game")
    text = write_text(m, "sgf")
    assert "NK[12.5]" in text and "C[opening [a\\] \\\\ note]" in text
    back = notation.read_text(text, "x.sgf")
    assert back.games[1].actions[0].clock == 12.5
    assert back.games[1].actions[0].comments == ["opening [a] \\ note"]
    assert back.games[0].comments == ["first game"]
    assert back.tag_items == m.tag_items and back.comments == m.comments


def test_gnubg_style_sgf_without_private_properties():
    text = ("(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:3][game:0][ws:0][bs:0]PW[Ann]PB[Ben]"
            "DT[2026-11-30]EV[Open]RU[Crawford]RE[W+1]\n;W[31hefe]\n;B[double]\n;W[drop])\n")
    m = notation.read_text(text, "g.sgf")
    assert not m.problems and m.match_length == 3
    assert m.tag_items == [("EventDate", "2026.11.30"), ("Event", "Open")]
    kinds = [(a.kind, a.player) for a in m.games[0].actions]
    assert kinds == [(Kind.ROLL, 0), (Kind.DOUBLE, 1), (Kind.DROP, 0), (Kind.WIN, 1)] or \
        kinds[-1] == (Kind.WIN, 0)
    assert m.games[0].actions[0].steps[0].src == 8 and m.games[0].actions[1].value == 2


@pytest.mark.parametrize("text,where", [
    ("(;FF[4]GM[6]\n;W[31hefe", "2:3"),
    ("(;FF[4]GM[6]\n;W[31hefe]", "2:11"),
    ("(;FF[4]GM[6]\n;W[3xhefe])", "2:"),
    ("(;FF[4]GM[6]\n;W[31h!fe])", "2:"),
    ("not sgf at all", "1:1"),
])
def test_bad_sgf_is_a_located_problem(tmp_path, text, where):
    p = tmp_path / "bad.sgf"
    p.write_text(text, encoding="utf-8")
    m = notation.read_path(p)
    probs = m.problems + [q for g in m.games for q in g.problems]
    assert probs and str(probs[0].loc).startswith(where), probs
    r = cli("validate", str(p))
    assert r.exit_code == 1 and "bad.sgf:" in r.stdout


@pytest.mark.parametrize("doc", ['{"format": "nardy-analyze-match", "version": 1, "games": [{"players": ["a"]}]}',
                                 '{"format": "other"}', "[1, 2", '{"format": "nardy-analyze-match", "version": 1, '
                                 '"match_length": 1, "tags": [], "games": [{"number": 1, "players": ["a", "b"], '
                                 '"actions": [{"type": "roll", "player": 2}]}]}'])
def test_bad_json_is_a_problem_not_a_traceback(doc):
    m = notation.read_text(doc, "bad.json")
    assert m.problems and m.problems[0].loc.line >= 1


@pytest.mark.parametrize("variant", ["long", "gulbara", "backgammon"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_games_own_notation_json_own(variant, seed):
    """Generated long nardy and Gul bara games (chains, handovers): ngn -> json -> ngn is the same record
    and the same text; the JSON document validates against the schema."""
    from nardy_analyze.generate import generate_match
    from nardy_analyze.record import same_record

    text = notation.get("ngn").write(generate_match(variant, 3, seed, ("Тимур", "Dina Ö")))
    own = notation.read_text(text, "g.ngn")
    assert not own.problems and not any(g.problems for g in own.games)
    doc = write_text(own, "json")
    assert write_doc(doc)["variant"] == variant
    back = notation.read_text(doc, "g.json")
    assert same_record(own, back)
    assert write_text(back, "ngn") == text
    if variant != "backgammon":
        assert any("has no mat form" in x for x in notation.get("mat").losses(own))
        assert any("has no sgf form" in x for x in notation.get("sgf").losses(own))


# ----------------------------------------------------------------------------- command line


def test_convert_out_dir_mirrors_the_folders_and_writes_a_summary(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.mat").write_text(GOOD, encoding="utf-8")
    (tmp_path / "a" / "deep").mkdir()
    (tmp_path / "a" / "deep" / "two.txt").write_text(GOOD, encoding="utf-8")
    out = tmp_path / "out"
    r = cli("convert", str(tmp_path / "a"), "--to", "sgf", "--out-dir", str(out))
    assert r.exit_code == 0, r.output
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*.sgf")) == ["deep/two.sgf", "one.sgf"]
    assert "2 written, 0 refused, 0 failed" in r.stderr
    # existing files are kept without --force; overwritten with it
    r = cli("convert", str(tmp_path / "a"), "--to", "sgf", "--out-dir", str(out))
    assert r.exit_code == 1 and "use --force" in r.stderr and "0 written, 0 refused, 2 failed" in r.stderr
    r = cli("convert", str(tmp_path / "a"), "--to", "sgf", "--out-dir", str(out), "--force")
    assert r.exit_code == 0


def test_convert_skips_files_in_folders_that_are_not_records(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "notes.txt").write_text("shopping list\n", encoding="utf-8")
    (tmp_path / "in" / "m.mat").write_text(GOOD, encoding="utf-8")
    r = cli("convert", str(tmp_path / "in"), "--to", "json", "--out-dir", str(tmp_path / "out"))
    assert r.exit_code == 0 and "1 written, 0 refused, 0 failed, 1 skipped" in r.stderr
    r = cli("convert", str(tmp_path / "in" / "notes.txt"), "--to", "json", "-o", str(tmp_path / "n.json"))
    assert r.exit_code == 1 and "notes.txt" in r.stderr


def test_convert_same_output_name_is_an_error_before_anything_is_written(tmp_path):
    for d in ("x", "y"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "m.mat").write_text(GOOD, encoding="utf-8")
    out = tmp_path / "out"
    r = cli("convert", str(tmp_path / "x"), str(tmp_path / "y" / "m.mat"), "--to", "json", "--out-dir", str(out))
    assert r.exit_code == 2 and "would both be written to" in r.stderr
    assert not out.exists() or not any(out.iterdir())


def test_convert_stdin_to_stdout_and_arguments():
    r = cli("convert", "-", "--to", "json", "-o", "-", input=GOOD.encode())
    assert r.exit_code == 0
    doc = write_doc(r.stdout)
    assert doc["games"][0]["players"] == ["Alice", "Bob"]
    r = cli("convert", "-", "--to", "json", "--out-dir", "x", input=GOOD.encode())
    assert r.exit_code == 2
    r = cli("convert", "missing.mat", "--to", "sgf", "-o", "-")
    assert r.exit_code == 2 and "no such file" in r.stderr


def test_convert_a_record_that_breaks_the_rules_warns_and_keeps_it(tmp_path):
    bad = GOOD.replace("42: 8/4 6/4", "42: 8/4 6/3")
    src = tmp_path / "bad.mat"
    src.write_text(bad, encoding="utf-8")
    r = cli("convert", str(src), "--to", "json", "-o", str(tmp_path / "bad.json"))
    assert r.exit_code == 0
    assert "warning:" in r.stderr and "bad.mat:9:" in r.stderr and "converted as written" in r.stderr
    doc = write_doc((tmp_path / "bad.json").read_text(encoding="utf-8"))
    assert doc["games"][0]["actions"][1]["steps"] == [[8, 4], [6, 3]]
    # and the illegal play is kept as written in .mat and .sgf too
    for to in ("mat", "sgf"):
        r = cli("convert", str(src), "--to", to, "-o", str(tmp_path / f"bad2.{to}"))
        assert r.exit_code == 0
    again = notation.read_path(tmp_path / "bad2.sgf")
    assert [(s.src, s.dst) for s in again.games[0].actions[1].steps] == [(8, 4), (6, 3)]


# ----------------------------------------------------------------------------- refusals and --lossy


def refusal(tmp_path, match_edit, to: str, words: list[str], name="r.json"):
    """Write GOOD as JSON with ``match_edit`` applied; converting it to ``to`` is refused naming ``words``;
    --lossy writes it and lists the same loss as dropped."""
    m = notation.read_text(GOOD, "r.mat")
    match_edit(m)
    src = tmp_path / name
    src.write_text(write_text(m, "json"), encoding="utf-8")
    out = tmp_path / f"out.{to}"
    r = cli("convert", str(src), "--to", to, "-o", str(out))
    assert r.exit_code == 1 and not out.exists(), r.output
    assert "refused" in r.stderr and str(src) in r.stderr and "0 written, 1 refused" in r.stderr
    for w in words:
        assert w in r.stderr, (w, r.stderr)
    r = cli("convert", str(src), "--to", to, "-o", str(out), "--lossy")
    assert r.exit_code == 0 and out.exists()
    assert "--lossy dropped" in r.stderr
    for w in words:
        assert w in r.stderr
    return notation.read_path(out)


def test_refuse_clock_times_in_mat(tmp_path):
    def edit(m):
        m.games[1].actions[2].clock = 31.0
    back = refusal(tmp_path, edit, "mat", ["game 2", "clock times"])
    assert all(a.clock is None for g in back.games for a in g.actions)


def test_clock_times_survive_sgf_and_json(tmp_path):
    m = notation.read_text(GOOD, "r.mat")
    m.games[1].actions[2].clock = 31.0
    src = tmp_path / "c.json"
    src.write_text(write_text(m, "json"), encoding="utf-8")
    for to in ("sgf", "json"):
        r = cli("convert", str(src), "--to", to, "-o", str(tmp_path / f"c2.{to}"))
        assert r.exit_code == 0, r.stderr
        assert notation.read_path(tmp_path / f"c2.{to}").games[1].actions[2].clock == 31.0


def test_refuse_comments_on_moves_in_mat(tmp_path):
    def edit(m):
        m.games[0].actions[0].comments.append("nice")
    refusal(tmp_path, edit, "mat", ["game 1", "comments on moves"])


def test_refuse_long_nardy_in_mat_and_sgf(tmp_path):
    def edit(m):
        m.tags["Variation"] = "Long Nardy"
        m.tag_items.append(("Variation", "Long Nardy"))
    for to in ("mat", "sgf"):
        refusal(tmp_path, edit, to, ["games 1, 2", "long nardy has no"], name=f"long_{to}.json")


def test_refuse_gul_bara_handover_in_mat_and_sgf(tmp_path):
    def edit(m):
        m.games[0].actions[0].segments.append(Segment("handover", 1, (3,), []))
    for to in ("mat", "sgf"):
        back = refusal(tmp_path, edit, to, ["game 1", "Gul bara handover"], name=f"gb_{to}.json")
        assert not any(a.segments for g in back.games for a in g.actions)


def test_handover_survives_json(tmp_path):
    m = notation.read_text(GOOD, "r.mat")
    m.games[0].actions[0].segments.append(Segment("handover", 1, (3,), []))
    back = notation.read_text(write_text(m, "json"), "x.json")
    seg = back.games[0].actions[0].segments
    assert [(s.kind, s.player, s.dice) for s in seg] == [("handover", 1, (3,))]


def test_refuse_unreadable_text_for_every_target(tmp_path):
    src = tmp_path / "u.mat"
    src.write_text(GOOD.replace("  2) 62: 24/18 13/11", "  2) 62: 24/18 13/1x"), encoding="utf-8")
    for to in ("mat", "sgf", "json"):
        out = tmp_path / f"u_out.{to}"
        r = cli("convert", str(src), "--to", to, "-o", str(out))
        assert r.exit_code == 1 and "unreadable text (line 10)" in r.stderr and not out.exists()


# ----------------------------------------------------------------------------- encodings

NAMES = {"utf-8": ("Jürgen Ørsted", "Алексей"), "utf-8-sig": ("Jürgen", "Алексей Ёлкин"),
         "utf-16": ("Jürgen", "Алексей"), "latin-1": ("Jürgen Müller", "François"),
         "cp1251": ("Алексей Иванов", "Дмитрий Сергеевич")}


@pytest.mark.parametrize("encoding", sorted(NAMES))
def test_names_exact_through_validate_and_convert(tmp_path, encoding):
    a, b = NAMES[encoding]
    text = GOOD.replace("Alice", a).replace("Bob", b)
    src = tmp_path / "enc.mat"
    src.write_bytes(text.replace("\n", "\r\n" if encoding == "utf-16" else "\n").encode(encoding))
    # validate names both players exactly (one illegal play each, planted in a copy)
    bad = tmp_path / "enc_bad.mat"
    bad.write_bytes(text.replace("31: 8/5 6/5", "31: 8/5 6/4").replace("42: 8/4 6/4", "42: 8/4 6/3")
                    .encode(encoding))
    r = cli("validate", str(bad), "--format", "json")
    rep = json.loads(r.stdout)
    assert {f["player"] for f in rep["findings"] if f["rule"] == "dice-mismatch"} == {a, b}, rep["findings"]
    for to in ("json", "sgf", "mat"):
        out = tmp_path / f"enc_out.{to}"
        r = cli("convert", str(src), "--to", to, "-o", str(out), "--force")
        assert r.exit_code == 0, r.stderr
        raw = out.read_bytes()
        raw.decode("utf-8")                      # always written as UTF-8 (no BOM)
        assert not raw.startswith(b"\xef\xbb\xbf")
        back = notation.read_path(out)
        assert [g.players for g in back.games] == [(a, b), (a, b)], (to, back.games[0].players)


# ----------------------------------------------------------------------------- atomic writes


def test_failure_half_way_leaves_no_file_and_the_old_file_intact(tmp_path, monkeypatch):
    src = tmp_path / "m.mat"
    src.write_text(GOOD, encoding="utf-8")
    old = tmp_path / "m.sgf"
    old.write_text("old content", encoding="utf-8")
    new = tmp_path / "new.sgf"

    def broken_replace(a, b):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    for target in (old, new):
        run = convert_paths([str(src)], "sgf", output=str(target), force=True)
        assert [o.status for o in run.outcomes] == [FAILED]
        assert "No space left" in run.outcomes[0].messages[0]
    assert old.read_text(encoding="utf-8") == "old content"
    assert not new.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.mat", "m.sgf"]     # no temporary file left


def test_writer_raising_half_way_writes_nothing(tmp_path, monkeypatch):
    src = tmp_path / "m.mat"
    src.write_text(GOOD, encoding="utf-8")
    from nardy_analyze.notation import sgf

    def boom(match):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(notation, "_REGISTRY", {**notation._REGISTRY,
                                                "sgf": notation.Notation("sgf", (".sgf",), sgf.looks_like_sgf,
                                                                         sgf.read, boom, own_losses=sgf.own_losses,
                                                                         cannot_hold=frozenset({"other_variants"}))})
    run = convert_paths([str(src)], "sgf", out_dir=str(tmp_path / "o"))
    assert run.outcomes[0].status == FAILED and "disk on fire" in run.outcomes[0].messages[0]
    assert run.outcomes[0].internal and run.exit_code == 2          # a bug: an internal error, exit code 2
    assert not any((tmp_path / "o").iterdir())


def test_split_schema_check_agrees_with_the_whole_schema():
    """``corpus_roundtrip.schema_errors`` (the schema checked part by part, memoised) finds every fault the
    whole-document validator finds, and none it does not."""
    import copy

    from corpus_roundtrip import schema_errors

    doc = write_doc(write_text(notation.read_text(GOOD, "g.mat"), "json"))
    assert schema_errors(doc) == []
    ri = next(i for i, a in enumerate(doc["games"][0]["actions"]) if a["type"] == "roll" and a["steps"])

    def roll(d):
        return d["games"][0]["actions"][ri]
    edits = [lambda d: roll(d)["steps"][0].__setitem__(0, 26), lambda d: roll(d).__setitem__("move", "x"),
             lambda d: roll(d).pop("steps"), lambda d: roll(d).__setitem__("player", 2),
             lambda d: roll(d).__setitem__("type", "double"), lambda d: roll(d)["steps"].append([1]),
             lambda d: roll(d)["steps"][0].append("yes"), lambda d: roll(d).__setitem__("dice", [7, 1]),
             lambda d: d["games"][0].__setitem__("number", "1"), lambda d: d["games"][0]["actions"].append(5),
             lambda d: d.__setitem__("extra", 1), lambda d: d["games"][1]["actions"][0].__setitem__("clock", "x"),
             lambda d: roll(d).__setitem__("move", 3)]
    for i, edit in enumerate(edits):
        d = copy.deepcopy(doc)
        edit(d)
        assert bool(schema_errors(d)) == bool(list(VALIDATOR.iter_errors(d))) == (i < len(edits) - 1), i
