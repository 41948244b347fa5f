"""The findings of the engine and the replay in Russian (docs/i18n.md): every message of the rules engine
(engine/) and of the replay (replay/), the ``rules`` summaries.

Each test compares a run in English with the same run in Russian: the rule ids, lines, columns and JSON keys
are the same (they are the interface), every message of these modules is Russian (Cyrillic, and no English
word of the English message is left in it, other than what the record itself spells: players' names, cells
quoted from it, moves, keywords), and the plural forms agree with the numbers.
"""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys

import pytest

from helpers import CORPUS, EXAMPLES, ROOT
from nardy_analyze.analyze import validate_match
from nardy_analyze.engine import LongNardy, get_variant
from nardy_analyze.engine.backgammon import Backgammon
from nardy_analyze.generate import generate_match
from nardy_analyze.i18n import ngettext, set_language
from nardy_analyze.record import Kind, Step
from nardy_analyze.rules import RULES

MUTANTS = CORPUS / "mutants"
CYRILLIC = re.compile("[А-Яа-яЁё]")
WORD = re.compile(r"[A-Za-z][A-Za-z_']*")
# interface words a Russian message may hold: rule ids and option names, variant ids, notation keywords
INTERFACE = {"nardy500", "last_roll", "on", "off", "bar", "rule", "beaver", "Beaver", "chain", "handover",
             "long", "gulbara", "backgammon", "s"}
# parse-error findings of the replay (the others come from the readers, another part of the catalog)
OURS_PARSE = ("rolls twice in a row", "the set-up puts checkers", "is not written (the cell before the double",
              "the record marks this play")


def _words(text: str) -> set[str]:
    text = re.sub(r"'[^']*'", " ", text)            # a cell quoted from the record ('Wins 1 point')
    text = text.replace("(no move)", " ")
    return set(WORD.findall(text))


def _ours(rule: str, english: str) -> bool:
    return rule != "parse-error" or any(p in english for p in OURS_PARSE)


def check_pair(en: dict, ru: dict, record_text: str) -> None:
    """One finding in English and in Russian: the same interface, a Russian message."""
    assert en.keys() == ru.keys()
    for key in en:
        if key != "message":
            assert en[key] == ru[key], (key, en, ru)
    if not _ours(en["rule"], en["message"]):
        return
    msg = ru["message"]
    assert CYRILLIC.search(msg), msg
    record_words = set(WORD.findall(record_text))
    left = (_words(en["message"]) & _words(msg)) - INTERFACE - record_words
    assert not left, (left, en["message"], msg)
    assert not re.search(r"\b(the|and|but|could|played|with|written|point|game|checker)\b", msg), msg
    # every number of the English message is in the Russian one (fields inserted unchanged; "four 5s" is
    # "четыре пятёрки"; a roll "64" is written "6-4" in Russian prose: the digits are compared)
    numbers = re.findall(r"\d+", re.sub(r"\b\d+s\b", "", en["message"]))
    assert sorted("".join(numbers)) == sorted("".join(re.findall(r"\d+", msg))), (en["message"], msg)


def _validate_json(paths, lang: str) -> dict:
    env = dict(os.environ, NARDY_ANALYZE_LANG=lang, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "nardy_analyze", "validate", "--format", "json", *map(str, paths)],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def _compare_runs(paths) -> int:
    en, ru = _validate_json(paths, "en"), _validate_json(paths, "ru")
    assert en["summary"] == ru["summary"]
    assert len(en["findings"]) == len(ru["findings"])
    texts = {}
    n = 0
    for a, b in zip(en["findings"], ru["findings"]):
        path = a["path"]
        if path not in texts:
            texts[path] = (ROOT / path).read_text(encoding="utf-8", errors="replace") \
                if (ROOT / path).exists() else open(path, encoding="utf-8", errors="replace").read()
        check_pair(a, b, texts[path])
        n += _ours(a["rule"], a["message"])
    return n


@pytest.mark.slow
@pytest.mark.skipif(not MUTANTS.is_dir(), reason="the shared corpus (../shared/corpus/mutants) is not here")
def test_every_mutant_finding_in_russian():
    assert _compare_runs(sorted(MUTANTS.iterdir())) >= 100


def test_examples_in_russian():
    """The repository's examples: a finding of nearly every rule (head rule, six-block, Gul bara's chain and
    handover, the clock, the cube, results, the score)."""
    assert _compare_runs([EXAMPLES]) >= 15


def _planted(variant: str, seed: int):
    """Generated games of ``variant`` with errors planted: steps left out, a step made too long, a step from an
    empty point, a chain or handover part dropped (Gul bara)."""
    match = generate_match(variant, 3, seed, players=("Aysel", "Rashad"))
    rng = random.Random(seed)
    rolls = [a for g in match.games for a in g.actions if a.kind == Kind.ROLL and a.steps]
    for a in rng.sample(rolls, 6):
        how = rng.randrange(4)
        if how == 0:
            a.steps.pop()
        elif how == 1:
            s = a.steps[0]
            a.steps[0] = Step(s.src, max(s.dst - 7, 1), s.hit)
        elif how == 2:
            s = a.steps[0]
            a.steps[0] = Step(min(s.src + 1, 24), s.dst, s.hit)
        elif a.segments:
            a.segments.pop()
        else:
            a.steps.pop()
    return match


@pytest.mark.parametrize("variant,seed", [("long", 3), ("long", 8), ("gulbara", 5), ("gulbara", 12)])
def test_generated_games_with_errors_in_russian(variant, seed):
    findings = {}
    for lang in ("en", "ru"):
        set_language(lang)
        try:
            rep = validate_match(_planted(variant, seed), variant)
        finally:
            set_language(None)
        findings[lang] = [dict(rule=f.rule, line=f.line, column=f.column, severity=f.severity, game=f.game,
                               player=f.player, message=f.message) for f in rep.findings]
    assert len(findings["en"]) == len(findings["ru"]) >= 3
    assert {f["rule"] for f in findings["en"]} & {"max-dice", "dice-mismatch", "no-checker", "handover",
                                                   "doubles-chain", "blocked-point"}
    for a, b in zip(findings["en"], findings["ru"]):
        check_pair(a, b, "Aysel Rashad")


def test_plural_forms(russian):
    """Russian's three forms, for 1, 2, 5, 11 and 21 (the form of 1 again), through the engine's messages."""
    v = get_variant("long")
    forms = {n: LongNardy(home_mars=n).level_name(4, v.get) for n in (1, 2, 5, 11, 21)}
    assert forms[1].endswith(": 1 очко)") and forms[21].endswith(": 21 очко)")
    assert forms[2].endswith(": 2 очка)")
    assert forms[5].endswith(": 5 очков)") and forms[11].endswith(": 11 очков)")
    bg = Backgammon()
    for n, word in ((1, "шашка"), (2, "шашки"), (4, "шашки"), (5, "шашек"), (11, "шашек")):
        me = (1,) + (0,) * 11 + (n,) + (0,) * 12            # one checker on 1, n on 13
        problem = bg.step_problem(me, (0,) * 25, 1, 0, 1)
        rule, msg = problem.rule, bg.step_text(problem)
        assert rule == "bear-off-early"
        assert msg == f"выброс с пункта 1, когда вне дома ещё {n} {word}"
    assert ngettext("{n} checkers left ({where})", "{n} checkers left ({where})", 21).format(
        n=21, where="x") == "осталась 21 шашка (x)"


def test_plural_forms_english_unchanged():
    set_language("en")
    try:
        v = get_variant("long")
        assert LongNardy(home_mars=1).level_name(4, v.get) == "a home mars (the loser all home, none off: 1 point(s))"
        me = (1,) + (0,) * 11 + (2,) + (0,) * 12
        problem = Backgammon().step_problem(me, (0,) * 25, 1, 0, 1)
        assert (problem.rule, Backgammon().step_text(problem)) == (
            "bear-off-early", "bore off from 1 while 2 checker(s) are outside home")
    finally:
        set_language(None)


def _rules_output(lang: str) -> list[str]:
    env = dict(os.environ, NARDY_ANALYZE_LANG=lang, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "nardy_analyze", "rules"], capture_output=True, text=True,
                         env=env, cwd=ROOT, check=True)
    return out.stdout.splitlines()


def test_rules_command_in_russian():
    en, ru = _rules_output("en"), _rules_output("ru")
    assert len(en) == len(ru) == len(RULES)
    for rid, a, b in zip(RULES, en, ru):
        assert a.split()[0] == b.split()[0] == rid          # the ids stay
        assert RULES[rid] in a                                # English: the summary as written
        summary = b[len(rid):].strip()
        assert CYRILLIC.search(summary) and RULES[rid] not in b, b
        assert not re.search(r"\b(the|a|and|or|of|when|while)\b", summary.split("[")[0]), b
    six = next(line for line in ru if line.startswith("six-block"))
    assert six.endswith("[длинные нарды, гюльбара]")       # the variants by their names (English: the ids)
    assert next(x for x in en if x.startswith("six-block")).endswith("[long, gulbara]")
    clock = next(line for line in ru if line.startswith("time-limit"))
    assert "время по часам" in clock and "nardy500: 120 с" in clock
