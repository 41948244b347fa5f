"""The messages of reading and conversion in Russian (--lang ru, NARDY_ANALYZE_LANG=ru): the notations'
parse errors and warnings, the inputs' file and folder messages, convert's refusals and losses; the same
places (path, line, column, rule id) in every language, and today's English without a language."""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nardy_analyze import analyze, convert, inputs, notation
from nardy_analyze.commands.convert import summary
from nardy_analyze.engine import RuleSet, ruleset
from nardy_analyze.fsio import OutputError, write_atomically
from nardy_analyze.generate import generate_match
from nardy_analyze.i18n import set_language
from nardy_analyze.notation import mat
from nardy_analyze.record import Kind

from helpers import CORPUS, ROOT

CYRILLIC = re.compile("[а-яё]", re.I)
# English words of a sentence; what is inside «» (a piece of the record, a keyword), paths and the
# interface words (option names, JSON keys) do not count
ENGLISH = re.compile(r"\b(expected|found|the|line|lines|cannot|read|not|game|games|written|file|folder|"
                     r"record|found|none|kept|comments?|points?|move|roll|cell|number|text|end|like|or|and|"
                     r"has|no|is|are|an|in|of|to|as)\b")


def english_left(message: str, *keep: str) -> list[str]:
    """English words left in a translated ``message`` (quoted pieces and the ``keep`` texts left out)."""
    text = re.sub(r"«[^»]*»", "", message)
    for k in keep:
        text = text.replace(k, "")
    text = re.sub(r"\S*/\S*", "", text)           # paths, movements
    text = re.sub(r"(--|-)[a-z][a-z-]*", "", text)  # options
    return ENGLISH.findall(text)


def russian_message(message: str, *keep: str) -> None:
    assert CYRILLIC.search(message), message
    assert not english_left(message, *keep), (english_left(message, *keep), message)


# ----------------------------------------------------------------------------- broken records, each notation

MAT_HEAD = " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
BROKEN = {
    # a movement that is no movement, a cube action without its value, a repeat count too large
    "movement.mat": MAT_HEAD + "  1) 31: 8/5 6/x5                  42: 8/4 6/4\n",
    "double.mat": MAT_HEAD + "  1) 31: 8/5 6/5                   42: 8/4 6/4\n  2)  Doubles =>\n",
    "repeat.mat": MAT_HEAD + "  1) 66: 13/7(20)\n",
    "second-length.mat": " 3 point match\n 5 point match\n\n Game 1\n Alice : 0    Bob : 0\n  1) 31: 8/5 6/5\n",
    "no-score.mat": " 3 point match\n\n Game 1\n",
    "no-game.mat": " 3 point match\n",
    "after-cannot.mat": MAT_HEAD + "  1) 31: Cannot Move 8/5\n",
    "bad-point.mat": MAT_HEAD + "  1) 31: 8/5 6/off/3\n",
    "tag.mat": "; [Event \"x\n 3 point match\n\n Game 1\n Alice : 0    Bob : 0\n  1) 31: 8/5 6/5\n",
    "token.ngn": '[Event "x"]\nGame 1\n1. 31: 8/5 6/5 foo\n',
    "twice.ngn": '[Event "x"]\n[Event "y"]\nGame 1\n1. 31: 8/5 6/5\n',
    "late-tag.ngn": 'Game 1\n1. 31: 8/5 6/5\n[Event "x"]\n',
    "length.ngn": '[MatchLength "seven"]\nGame 1\n1. 31: 8/5 6/5\n',
    "comment.ngn": 'Game 1\n1. 31: 8/5 6/5 {never closed\n',
    "setup.ngn": 'Game 1\nW setup dice 71\n',
    "no-game.ngn": '1. 31: 8/5 6/5\n',
    "chain.ngn": 'Game 1\n  chain 55: 8/3\n',
    "open.sgf": "(;FF[4]GM[6];W[31hefe",
    "gm.sgf": "(;FF[4]GM[1]PW[A]PB[B];W[31hefe])",
    "move.sgf": "(;FF[4]GM[6]PW[A]PB[B];W[31h])",
    "step.sgf": "(;FF[4]GM[6]PW[A]PB[B];W[31h!ef])",
    "setup.sgf": "(;FF[4]GM[6]PW[A]PB[B];PL[X]DI[99])",
    "none.sgf": "just some text",
    "syntax.json": '{"format": "nardy-analyze-match", "version": 1, "games": [',
    "version.json": '{"format": "nardy-analyze-match", "version": 7, "games": []}',
    "step.json": json.dumps({"format": "nardy-analyze-match", "version": 1, "games": [
        {"players": ["A", "B"], "actions": [{"type": "roll", "player": 0, "dice": [3, 1], "steps": [[8, 99]]}]}]}),
    "dice.json": json.dumps({"format": "nardy-analyze-match", "version": 1, "games": [
        {"players": ["A", "B"], "actions": [{"type": "roll", "player": 0, "dice": [7, 1]}]}]}),
    "control.json": '{"format": "nardy-analyze-match", "version": 1, "games": ["a\x01b"]}',
    "type.json": json.dumps({"format": "nardy-analyze-match", "version": 1, "games": [
        {"players": ["A", "B"], "actions": [{"type": "dance", "player": 0}]}]}),
}


def _write(folder: Path, files: dict[str, str]) -> list[str]:
    paths = []
    for name, text in files.items():
        p = folder / name
        p.write_text(text, encoding="utf-8")
        paths.append(str(p))
    return paths


def _parse_findings(paths: list[str]) -> list:
    run = analyze.validate_paths(paths, jobs=1)
    return [f for r in run.reports for f in r.findings if f.rule == "parse-error"]


def test_parse_errors_of_every_notation_are_russian_at_the_same_places(tmp_path):
    paths = _write(tmp_path, BROKEN)
    set_language("en")
    try:
        en = _parse_findings(paths)
    finally:
        set_language(None)
    set_language("ru")
    try:
        ru = _parse_findings(paths)
    finally:
        set_language(None)
    assert {Path(f.path).name for f in en} == set(BROKEN)           # every broken file has its parse error
    assert [(f.path, f.line, f.column, f.rule, f.severity) for f in ru] == \
        [(f.path, f.line, f.column, f.rule, f.severity) for f in en]
    for e, r in zip(en, ru):
        assert e.message.startswith(("expected", "too many", "unreadable", "a comma", "internal")) or \
            " expected " in e.message or "expected" in e.message, e.message
        assert e.message != r.message
        # the grammar's terminal names and the keywords of the notations stay as they are; JSON keys too
        types = "(" + ", ".join(k.value for k in Kind) + ")"      # the JSON format's values
        russian_message(r.message, "Doubles => N", "a:y", "kind:W|B...", "Key", "Value", "[from, to]", types)


def test_parse_errors_read_from_the_environment_on_the_command_line(tmp_path):
    paths = _write(tmp_path, {k: BROKEN[k] for k in ("movement.mat", "token.ngn", "open.sgf", "syntax.json")})
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    ru = subprocess.run([sys.executable, "-m", "nardy_analyze", "validate", *paths], cwd=ROOT, capture_output=True,
                        text=True, env=dict(env, NARDY_ANALYZE_LANG="ru"))
    en = subprocess.run([sys.executable, "-m", "nardy_analyze", "validate", *paths], cwd=ROOT, capture_output=True,
                        text=True, env=env)
    assert ru.returncode == en.returncode == 1
    place = re.compile(r"^(\S+:\d+:\d+: parse-error): (.*?)(?: \[(?:game|партия) \d+\])?$")
    ru_lines = [place.match(x) for x in ru.stdout.splitlines() if ": parse-error: " in x]
    en_lines = [place.match(x) for x in en.stdout.splitlines() if ": parse-error: " in x]
    assert len(ru_lines) == len(en_lines) == 4
    assert [m.group(1) for m in ru_lines] == [m.group(1) for m in en_lines]
    assert [m.group(2) for m in en_lines] == [
        'expected a move like "13/9", "bar/22*" or "6/off", or the next cell, found "6/x5"',
        'expected a clock time like "(1:05)", a comment or the next cell, found "foo"',
        'expected a property value "[...]" closed by "]", found "[31hefe"',
        "expected JSON: Expecting value",
    ]
    assert [m.group(2) for m in ru_lines] == [
        "ожидалось: ход вида «13/9», «bar/22*» или «6/off» либо следующая ячейка; найдено: «6/x5»",
        "ожидалось: время по часам вида «(1:05)», комментарий или следующая ячейка; найдено: «foo»",
        "ожидалось: значение свойства «[...]», закрытое «]»; найдено: «[31hefe»",
        "ожидался JSON: нужно значение",
    ]


def test_an_example_broken_in_every_row_is_russian_row_by_row(russian):
    text = (ROOT / "examples" / "club-night.mat").read_text(encoding="utf-8")
    lines = text.split("\n")
    rows = [i for i, x in enumerate(lines) if re.match(r"\s*\d+\)\s+\d\d:", x)]
    rng = random.Random(7)
    broken = list(lines)
    for i in rng.sample(rows, min(6, len(rows))):
        broken[i] = re.sub(r"(\d+)/(\d+)", r"\1/x\2", broken[i], count=1)
    match = mat.read("\n".join(broken), "club.mat")
    problems = match.problems + [p for g in match.games for p in g.problems]
    assert problems
    for p in problems:
        russian_message(p.message)


def test_hand_typed_and_dialect_warnings_are_russian(russian):
    text = (" free text of the archive\n 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
            "  1) 31: 8/5, 6/5                  42: 13/9*8/6\n")
    match = mat.read(text, "w.mat")
    warnings = [p for p in match.problems if p.warning]
    assert len(warnings) == 3
    assert warnings[0].message == ("1 строка произвольного текста перед строкой «N point match» (строка 1) — не "
                                   "текст матча: сохранена как комментарий")
    assert "запятая после «8/5»" in warnings[1].message
    assert "нет пробела после «*»" in warnings[2].message and "13/9* 8/6" in warnings[2].message
    pasted = " 1 point match\n\n Game 1\n Ann : 0                        Bob : 0\n  1) Ann : 0        42: 13/9 13/11\n"
    w = [p for p in mat.read(pasted, "p.mat").problems if p.warning]
    assert w and "текст строки счёта «Ann : 0»" in w[0].message


@pytest.mark.parametrize("n, form", [(1, "строка"), (2, "строки"), (5, "строк"), (11, "строк"), (21, "строка"),
                                     (22, "строки")])
def test_a_count_of_lines_takes_the_russian_plural(russian, n, form):
    text = "".join(f" free text {i}\n" for i in range(n)) + " 1 point match\n\n Game 1\n A : 0    B : 0\n"
    w = [p for p in mat.read(text, "f.mat").problems if p.warning]
    assert w[0].message.startswith(f"{n} {form} произвольного текста"), w[0].message
    assert ("(строка 1)" if n == 1 else f"(строки 1-{n})") in w[0].message


def test_the_english_messages_are_unchanged_without_a_language(english, tmp_path):
    w = [p for p in mat.read(" free\n more\n 1 point match\n\n Game 1\n A : 0    B : 0\n", "f.mat").problems]
    assert w[0].message == ('2 line(s) of free text before the "N point match" line (lines 1-2) are not match '
                            "text: kept as comments")
    m = mat.read(MAT_HEAD + "  1) 66: 13/7(20)\n", "r.mat")
    assert m.games[0].problems[0].message == 'expected a repeat count 1..15, found "13/7(20)"'
    assert notation.read_text(BROKEN["gm.sgf"], "g.sgf").games[0].problems[0].message == \
        "expected GM[6] (backgammon) on the root node, found GM[1]"
    entries = list(inputs.discover([str(tmp_path / "missing.mat")]))
    assert entries[0].reason == f"{tmp_path / 'missing.mat'}: no such file or folder"


# ----------------------------------------------------------------------------- conversion

def test_convert_refuses_a_gul_bara_match_for_mat_and_sgf_in_russian(russian):
    match = generate_match("gulbara", 2, 3)
    for to in ("mat", "sgf"):
        outcome, text = convert.convert_match(match, to)
        assert outcome.status == convert.REFUSED and text is None
        assert outcome.messages[0] == f"<generated>: партии 1, 2: в формате {to} нет записи гюльбары"
        assert any("у дохаживания гюльбары" in m for m in outcome.messages)
        assert not any("Gul bara" in m or "gulbara" in m for m in outcome.messages)
        assert any("у цепочки дублей гюльбары" in m for m in outcome.messages)
        for m in outcome.messages:
            russian_message(m, "Gul bara", "<generated>")
        lossy, text = convert.convert_match(match, to, lossy=True)
        assert lossy.status == convert.WRITTEN and lossy.dropped and lossy.messages == outcome.messages
        assert text                                   # the record is written, in its notation's keywords


def test_a_long_game_to_mat_and_the_losses_of_one_game_in_russian(russian):
    match = generate_match("long", 1, 5)
    outcome, _ = convert.convert_match(match, "mat")
    assert outcome.status == convert.REFUSED
    [message] = outcome.messages          # (the variant's name declined: "записи длинных нард")
    assert message == "<generated>: партия 1: в формате mat нет записи длинных нард"


def test_clock_times_and_comments_lost_in_mat_in_russian(russian):
    match = notation.read_path(ROOT / "examples" / "federation-clock.ngn")
    outcome, _ = convert.convert_match(match, "mat")
    assert outcome.status == convert.REFUSED
    assert any("время по часам нельзя записать в mat" in m for m in outcome.messages), outcome.messages
    for m in outcome.messages:
        russian_message(m, "long", "Gul bara")


def test_the_english_refusal_is_unchanged(english):
    outcome, _ = convert.convert_match(generate_match("gulbara", 1, 3), "mat")
    assert outcome.messages[0] == "<generated>: game 1: Gul bara has no mat form"
    assert outcome.messages[1] == ("<generated>: game 1: a Gul bara handover (part of a turn played after the roll) "
                                   "has no mat form")


def test_convert_summary_and_plan_errors_in_russian(russian, tmp_path):
    for name in ("a.sgf", "b.sgf"):
        (tmp_path / name).write_text("(;FF[4]GM[6]PW[A]PB[B];W[31hefe])", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("a shopping list\n", encoding="utf-8")
    run = convert.convert_paths([str(tmp_path)], "sgf", jobs=1)
    assert summary(run, "sgf", False) == ("записано: 0, отклонено: 0, с ошибкой: 0, пропущено: 3 (2 уже в sgf, 1 не "
                                          "запись партии; их перечисляет --verbose) (в sgf)")
    assert [o.messages for o in run.outcomes if o.status == convert.SKIPPED] == [
        ["уже в нотации sgf, в которую преобразуются записи"]] * 2 + [
        ["не запись партии: начало файла не подходит ни к одной известной нотации"]]
    with pytest.raises(convert.ConvertError) as e:
        convert.convert_paths([str(tmp_path / "a.sgf"), str(tmp_path / "b.sgf")], "mat", output="x.mat")
    assert str(e.value) == "-o называет один выходной файл, а входных 2; используйте --out-dir DIR"
    with pytest.raises(convert.ConvertError) as e:
        convert.convert_paths(["-"], "mat", output="x.mat", out_dir="d")
    assert str(e.value) == "укажите -o FILE или --out-dir DIR, но не оба сразу"


def test_convert_summary_in_english_is_unchanged(english, tmp_path):
    (tmp_path / "a.sgf").write_text("(;FF[4]GM[6]PW[A]PB[B];W[31hefe])", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("a shopping list\n", encoding="utf-8")
    run = convert.convert_paths([str(tmp_path)], "sgf", jobs=1)
    assert summary(run, "sgf", True) == "0 written, 0 refused, 0 failed, 2 skipped (1 already sgf, 1 not a game record) (to sgf)"


def test_ignored_sgf_properties_take_the_plural(russian):
    for n, form in ((1, "свойство анализа или пометок пропущено"), (3, "свойства анализа или пометок пропущены"),
                    (5, "свойств анализа или пометок пропущено")):
        match = notation.read_text("(;FF[4]GM[6]PW[A]PB[B];W[31hefe]" + "LU[0.1]" * n + ")", "a.sgf")
        assert match.ignored == {"LU": n}
        assert convert.ignored_note(match).startswith(f"a.sgf: {n} {form} (LU {n})")


# ----------------------------------------------------------------------------- files, folders, encodings

def test_file_and_folder_messages_in_russian(russian, tmp_path):
    missing = tmp_path / "missing.mat"
    [entry] = inputs.discover([str(missing)])
    assert entry.status == inputs.UNREADABLE and entry.reason == f"{missing}: нет такого файла или папки"
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "readme.txt").write_text("nothing to see\n", encoding="utf-8")
    (folder / "empty.txt").write_text("", encoding="utf-8")
    (folder / ".hidden.mat").write_text(" 1 point match\n", encoding="utf-8")
    reasons = {Path(e.path).name: e.reason for e in inputs.discover([str(folder)])}
    assert reasons == {".hidden.mat": "скрытый файл", "empty.txt": "не запись партии: пустой файл",
                       "readme.txt": "не запись партии: начало файла не подходит ни к одной известной нотации"}
    with pytest.raises(inputs.InputError) as e:
        inputs.read_input(inputs.Entry(str(folder), inputs.RECORD, explicit=True))
    assert str(e.value) == f"{folder}: это папка"
    big = tmp_path / "big.mat"
    big.write_bytes(b" " * (3 * 1024 * 1024 // 2))
    with pytest.raises(inputs.InputError) as e:
        inputs.read_input(inputs.Entry(str(big), inputs.RECORD, explicit=True), max_bytes=1024 * 1024)
    assert str(e.value) == f"{big}: 1.5 МиБ, больше предела 1 МиБ на файл; предел повышает --max-file-size MIB"
    match = notation.read_path(missing)
    russian_message(match.problems[0].message, "No such file or directory")
    with pytest.raises(OutputError) as e:
        write_atomically(folder, lambda fh: fh.write("x"))
    assert str(e.value) == f"не удаётся записать {folder}: это папка"
    with pytest.raises(OutputError) as e:
        write_atomically(tmp_path / "nowhere" / "x.mat", lambda fh: fh.write("x"))
    assert str(e.value) == f"не удаётся записать {tmp_path / 'nowhere' / 'x.mat'}: папки {tmp_path / 'nowhere'} не существует"


def test_undecodable_bytes_give_russian_parse_errors(russian, tmp_path):
    p = tmp_path / "bytes.mat"
    p.write_bytes(b"\xff\xfe\x00\xd8\x81\x82 garbage \x00\x01")
    entry = next(inputs.discover([str(p)]))
    match = inputs.load(entry)
    assert match.problems
    for problem in match.problems:
        russian_message(problem.message)
    empty = tmp_path / "nothing.json"
    empty.write_text("  \n", encoding="utf-8")
    m = inputs.load(next(inputs.discover([str(empty)])))
    assert m.problems[0].message == "ожидался JSON: нужно значение"


def test_rule_options_and_tags_in_russian(russian):
    with pytest.raises(ValueError) as e:
        RuleSet.from_command_line(["koks"])
    assert str(e.value) == "--rule принимает KEY=VALUE, а не 'koks'"
    with pytest.raises(ValueError) as e:
        generate_match("backgammon", 1, 1, options={"koks": True})
    assert str(e.value).startswith("--rule koks: у коротких нард нет опции 'koks' (их опции: ")
    assert not str(e.value).endswith("без неё")
    match = mat.read('; [TimeControl "soon"]\n 1 point match\n\n Game 1\n A : 0   B : 0\n', "t.mat")
    _, problems = ruleset.from_tags(match.tags, {}, "long")
    assert problems == [("TimeControl", "TimeControl 'soon' не понят (нужны секунды на ход, например «120» или "
                                        "«2:00», или часы с добавкой, например «840+8»): время не проверяется")]


def test_the_variant_hint_takes_the_plural(russian):
    # a long-nardy game read as backgammon: the first error names the variant its plays fit
    match = generate_match("long", 1, 2)
    match.tags.pop("Variant")
    rep = analyze.hint_variant(match, "backgammon", None, analyze.validate_match(match, "backgammon"))
    first = next(f for f in rep.findings if f.severity == "error")
    assert "(вариант в записи не назван, и она проверена как короткие нарды; её ходы гораздо лучше подходят к " \
           "длинным нардам: 0 ошибок вместо" in first.message and "--variant long?)" in first.message


# ----------------------------------------------------------------------------- the shared corpus

BGLAB = CORPUS / "bglab"


def _break(text: str, how: int, rng: random.Random) -> str:
    """One of several damages a real record suffers: a bad movement, free text before the match line, a
    hand-typed comma, a cube action without its value, a score line lost."""
    lines = text.split("\n")
    rows = [i for i, x in enumerate(lines) if re.match(r"\s*\d+\)\s+\d\d:\s+\S+/", x)]
    if how == 0 and rows:
        i = rng.choice(rows)
        lines[i] = re.sub(r"(\d+)/(\d+)", r"\1/x\2", lines[i], count=1)
    elif how == 1:
        lines.insert(0, "Archive of the club, exported by hand")
    elif how == 2 and rows:
        i = rng.choice(rows)
        lines[i] = re.sub(r"(\d+/\d+\*?) ", r"\1, ", lines[i], count=1)
    elif how == 3 and rows:
        i = rng.choice(rows)
        lines[i] = lines[i].rstrip() + "   Doubles =>"
    else:
        k = next((i for i, x in enumerate(lines) if re.match(r"\s*Game \d+", x)), None)
        if k is not None:
            lines[k + 1] = " ??? lost score line ???"
    return "\n".join(lines)


@pytest.mark.skipif(not BGLAB.is_dir(), reason="the shared corpus (../shared/corpus/bglab) is not here")
def test_damaged_records_of_the_bglab_corpus_give_russian_parse_errors_and_warnings(tmp_path):
    files = sorted(BGLAB.rglob("*.txt"))
    rng = random.Random(18)
    sample = rng.sample(files, 30)
    for n, src in enumerate(sample):
        text = src.read_bytes().decode("utf-8", errors="replace")
        (tmp_path / f"{n:02d}-{src.name}").write_text(_break(text, n % 5, rng), encoding="utf-8")
    for n, src in enumerate(sample[:5]):       # as they are: no parse error in either language
        (tmp_path / f"clean-{n}-{src.name}").write_bytes(src.read_bytes())
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}

    def run(lang: str | None) -> dict:
        r = subprocess.run([sys.executable, "-m", "nardy_analyze", "validate", str(tmp_path), "--format", "json",
                            "-j", "1"], cwd=ROOT, capture_output=True, text=True,
                           env=dict(env, NARDY_ANALYZE_LANG=lang) if lang else env)
        assert r.returncode in (0, 1), r.stderr
        return json.loads(r.stdout)

    ru, en = run("ru"), run(None)
    parse = [f for f in ru["findings"] if f["rule"] == "parse-error"]
    assert len({f["path"] for f in parse}) >= 20          # nearly every damaged file has one
    assert not [f for f in parse if "clean-" in f["path"]]
    assert any(f["severity"] == "warning" for f in parse)
    for f in parse:
        russian_message(f["message"], "Doubles => N")
    assert [(f["path"], f["line"], f["column"], f["rule"], f["severity"]) for f in ru["findings"]] == \
        [(f["path"], f["line"], f["column"], f["rule"], f["severity"]) for f in en["findings"]]
    assert all(not CYRILLIC.search(f["message"]) for f in en["findings"])
