"""The Russian a tournament director reads: scans of the catalog (with its parts) and of the tool's Russian output.

- no variant named in Latin letters in a Russian sentence (the catalog, and the output over examples/ and
  generated long nardy and Gul bara games): the name is the Russian one, declined as the sentence needs;
- a player's name from a record never stands where Russian would decline it (after a preposition, or as
  the object of a noun or verb that governs the dative or genitive), and no past-tense verb next to a name
  gives the player a gender;
- every plural entry gives the right form for 1, 2, 5, 11, 21, 22, 25 and 111, and a number outside the
  entry's count is never followed by a declined noun;
- rolls in sentences are written 6-4.
"""
from __future__ import annotations

import gettext
import html as htmlmod
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import catalogs  # noqa: E402

sys.path.pop(0)

from nardy_analyze import i18n  # noqa: E402
from nardy_analyze.engine import VARIANTS, variant_display, variant_title  # noqa: E402
from nardy_analyze.engine.core import CASES  # noqa: E402

RU = ROOT / "nardy_analyze" / "locale" / "ru" / "LC_MESSAGES" / "nardy_analyze.po"
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def catalog():
    return catalogs.read(RU)


def _entries(catalog):
    """(msgid, context, [Russian forms]) of every translated entry."""
    for m in catalog:
        if not m.id or not m.string:
            continue
        forms = list(m.string) if isinstance(m.string, (tuple, list)) else [m.string]
        yield (m.id if isinstance(m.id, str) else m.id[0]), m.context, forms


# -- variant names ---------------------------------------------------------------------------------------

# A variant's Latin name is allowed in a Russian text only where it is an interface (what an option takes,
# followed by its Russian name in brackets or listed as the values of the Variant tag), a value of a JSON
# file's field (the "level" of a resignation), or part of a product's name (GNU Backgammon).
LATIN = re.compile(r"(?i)(?<![\w:/.`-])(backgammon|long nardy|long|gulbara|gul bara|short nardy)(?![\w:=`-])")
ALLOWED = [
    re.compile(r"GNU Backgammon"),                                          # the program's name
    re.compile(r"backgammon \(короткие нарды\), long \(длинные нарды\) или gulbara \(гюльбара\)"),  # --variant
    re.compile(r"Variation\): backgammon, long, gulbara"),                  # the Variant tag's values
    re.compile(r"single, gammon или backgammon"),                           # JSON "level" values
    re.compile(r"«single», «gammon» или «backgammon»"),                     # the same, quoted
    re.compile(r"--variant (backgammon|long|gulbara)\b"),                  # an option as it is typed
]


def _latin_variant_names(text: str) -> list[str]:
    for allowed in ALLOWED:
        text = allowed.sub(" ", text)
    return [m.group(0) for m in LATIN.finditer(text)]


def test_no_variant_is_named_in_latin_letters_in_the_catalog(catalog):
    bad = [(mid[:70], form[:120]) for mid, _, forms in _entries(catalog) for form in forms
           if _latin_variant_names(form)]
    assert not bad, bad


def test_variant_names_are_declined_in_every_case():
    i18n.set_language("ru")
    try:
        forms = {v: {c: variant_display(v, c) for c in CASES} for v in VARIANTS}
    finally:
        i18n.set_language(None)
    assert forms["long"] == {"nom": "длинные нарды", "gen": "длинных нард", "dat": "длинным нардам",
                             "acc": "длинные нарды", "ins": "длинными нардами", "prep": "длинных нардах"}
    assert forms["backgammon"]["dat"] == "коротким нардам" and forms["backgammon"]["gen"] == "коротких нард"
    assert forms["gulbara"] == {"nom": "гюльбара", "gen": "гюльбары", "dat": "гюльбаре", "acc": "гюльбару",
                                "ins": "гюльбарой", "prep": "гюльбаре"}
    # English: one name in every case; unknown names as they are
    assert {variant_display("long", c) for c in CASES} == {"long nardy"}
    assert variant_title("hypergammon", "gen") == "hypergammon"


# -- names from records ----------------------------------------------------------------------------------

# fields that hold a player's name as the record writes it (it cannot be declined)
NAME_FIELDS = r"player|roller|winner|loser|other|doubler|mover|opponent|owner|offer"
PREPOSITIONS = r"у|к|ко|от|для|с|со|за|о|об|обо|по|без|при|перед|над|под|из|до|против|кроме|после|вместо|около|у"
# nouns and verbs that govern the genitive or dative of what follows ("победа Рашида", "отдано Рашиду")
GOVERNING = (r"победа|победителем|победителя|поражение|очередь|бросок|броска|броску|ход|хода|сторона|шашка|шашки|"
             r"часы|время|отдано|отдан|отдана|отдаёт|положен|положено|передано|досталась|достаётся|принадлежит|"
             r"дохаживание|куб")
OBLIQUE = re.compile(rf"(?i)(?<![\w-])({PREPOSITIONS}|{GOVERNING})\s+\{{({NAME_FIELDS})\}}")
START_DATIVE = re.compile(rf"^\{{({NAME_FIELDS})\}}\s+(положен|положено|нужно|надо|следует|достаётся)")
GENDERED = re.compile(rf"(?i)(\{{({NAME_FIELDS})\}}\s+(\w+л|\w+ла|\w+лся|\w+лась)\b)|"
                      rf"(\b(\w+л|\w+ла|\w+лся|\w+лась|должен|должна|был|была)\s+\{{({NAME_FIELDS})\}})")
# Justified exceptions: (msgid, why)
NAME_ALLOWED = {
}


def test_no_name_from_a_record_stands_in_an_oblique_case(catalog):
    bad = []
    for mid, _, forms in _entries(catalog):
        if mid in NAME_ALLOWED:
            continue
        for form in forms:
            for m in OBLIQUE.finditer(form):
                bad.append((m.group(0), form[:140]))
            m = START_DATIVE.search(form)
            if m:
                bad.append((m.group(0), form[:140]))
    assert not bad, bad


def test_no_verb_gives_a_player_a_gender(catalog):
    bad = [(m.group(0), form[:140]) for mid, _, forms in _entries(catalog) for form in forms
           for m in GENDERED.finditer(form) if mid not in NAME_ALLOWED]
    assert not bad, bad


def test_the_scan_finds_what_it_must():
    assert OBLIQUE.search("партия засчитана как победа {winner}")
    assert OBLIQUE.search("но у {roller} остались")
    assert OBLIQUE.search("дохаживание отдано {other}")
    assert START_DATIVE.search("{player} положен последний бросок")
    assert GENDERED.search("выиграл {player}: 2")
    assert not OBLIQUE.search("победа игрока {winner}") and not OBLIQUE.search("у игрока {roller} остались")
    assert not GENDERED.search("{player} выигрывает 2 очка")


# -- plurals ---------------------------------------------------------------------------------------------

NUMBERS = (1, 2, 5, 11, 21, 22, 25, 111)
# a countable noun's three forms (one, few, many) as the messages use them
NOUNS = [
    ("партия", "партии", "партий"), ("файл", "файла", "файлов"), ("ошибка", "ошибки", "ошибок"),
    ("ход", "хода", "ходов"), ("очко", "очка", "очков"), ("шашка", "шашки", "шашек"),
    ("бросок", "броска", "бросков"), ("пункт", "пункта", "пунктов"), ("пипс", "пипса", "пипсов"),
    ("предупреждение", "предупреждения", "предупреждений"), ("строка", "строки", "строк"),
    ("столбец", "столбца", "столбцов"), ("замечание", "замечания", "замечаний"), ("кость", "кости", "костей"),
    ("секунда", "секунды", "секунд"), ("запись", "записи", "записей"), ("матч", "матча", "матчей"),
    ("игрок", "игрока", "игроков"), ("решение", "решения", "решений"), ("число", "числа", "чисел"),
    ("дубль", "дубля", "дублей"), ("строку", "строки", "строк"), ("разрешённый ход", "разрешённых хода",
                                                                  "разрешённых ходов"),
]
FORM_OF = {}
for _forms in NOUNS:
    for _k, _w in enumerate(_forms):
        FORM_OF.setdefault(_w.split()[0], set()).add((_forms, _k))


def _ru_plural():
    """The catalog's plural rule (its Plural-Forms header)."""
    return gettext.c2py(catalogs.read(RU).plural_expr)


def _expected(n: int) -> int:
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def test_the_plural_rule_picks_the_russian_form_for_every_number():
    rule = _ru_plural()
    assert [rule(n) for n in NUMBERS] == [_expected(n) for n in NUMBERS] == [0, 1, 2, 2, 0, 1, 2, 2]


GENITIVE = {"из", "до", "от", "без", "для", "у", "около", "кроме", "с"}   # they put a counted noun in the genitive
ORDINAL = {"dice", "roll", "value", "cube", "length", "point", "move", "game", "line", "number", "higher", "die",
           "start", "first", "last", "score", "numbers", "seconds", "took", "left", "limit", "control", "double",
           "plies"}


def _agreement_problems(forms, rule) -> list:
    """What is wrong with the plural entry ``forms`` (see the test below)."""
    bad = []
    fields = set(re.findall(r"\{(\w+)\}", " ".join(forms)))
    counted = {f for f in fields
               if len({w for form in forms for w in re.findall(rf"\{{{f}\}} (\w+)", form)}) > 1}
    if len(counted) > 1:
        bad.append(("more than one number declines its noun", forms[0]))
    for field in fields - counted - ORDINAL - set(NAME_FIELDS.split("|")):
        for form in forms:
            for w in re.findall(rf"\{{{field}\}} (\w+)", form):
                if w in FORM_OF:
                    bad.append((f"{{{field}}} {w}: a number that is not the entry's count, before a declined noun",
                                form))
    for field in counted:
        for n in NUMBERS:
            form = forms[rule(n)]
            for before, w in re.findall(rf"(\w*)\s*\{{{field}\}} (\w+)", form):
                for nouns, _ in FORM_OF.get(w, ()):
                    if before.lower() in GENITIVE:     # "из 1 пункта", "из 2 пунктов", "из 21 пункта"
                        want = nouns[1] if _expected(n) == 0 else nouns[2]
                    else:
                        want = nouns[_expected(n)]
                    if w != want.split()[0] and w not in {x.split()[0] for x in nouns if x == w} - {w}:
                        bad.append((n, f"{before} {n} {w}, not {want}", form))
    return bad


def test_every_plural_entry_declines_its_noun_for_1_2_5_11_21_22_25_111(catalog):
    """Each plural entry: the noun after the counted number takes the form the number needs (the form the
    rule chooses for 1, 2, 5, 11, 21, 22, 25, 111; the genitive after "из", "до"...), and no other number
    field is followed by a declined noun (its number would not agree: "334 пипсов за 44 броска")."""
    rule = _ru_plural()
    bad = []
    for mid, _, forms in _entries(catalog):
        if len(forms) == 3:
            bad += [(b[0], b[1], b[2][:110]) if len(b) == 3 else (b[0], b[1][:110]) for b in
                    _agreement_problems(forms, rule)]
    assert not bad, "\n".join(map(str, bad))


def test_the_agreement_check_finds_what_it_must():
    rule = _ru_plural()
    assert _agreement_problems(["{pips} пипсов за {n} бросок", "{pips} пипсов за {n} броска",
                                "{pips} пипсов за {n} бросков"], rule)
    assert _agreement_problems(["{n} ошибка", "{n} ошибок", "{n} ошибок"], rule)
    assert _agreement_problems(["блок из {n} пункта", "блок из {n} пункта", "блок из {n} пунктов"], rule)
    assert not _agreement_problems(["блок из {n} пункта", "блок из {n} пунктов", "блок из {n} пунктов"], rule)
    assert not _agreement_problems(["{n} ошибка", "{n} ошибки", "{n} ошибок"], rule)


def test_numbers_in_plain_messages_are_not_followed_by_a_declined_noun(catalog):
    """A message without plural forms never writes "{n} ошибок": its number could be 1."""
    bad = []
    for mid, _, forms in _entries(catalog):
        if len(forms) != 1 or "{" not in forms[0]:
            continue
        for field, w in re.findall(r"\{(\w+)\} (\w+)", forms[0]):
            if w in FORM_OF and field not in ORDINAL | set(NAME_FIELDS.split("|")):
                bad.append((field, w, forms[0][:100]))
    assert not bad, bad


# -- rolls -----------------------------------------------------------------------------------------------

def test_rolls_in_russian_prose_are_written_with_a_hyphen():
    i18n.set_language("ru")
    try:
        assert i18n.roll_text(6, 4) == "6-4"
    finally:
        i18n.set_language(None)
    assert i18n.roll_text(6, 4) == "64"           # English, as gnubg writes it


# -- outputs ---------------------------------------------------------------------------------------------

def _visible(text: str) -> str:
    """The text a person reads: scripts, tags and paths taken away."""
    text = re.sub(r"(?s)<script.*?</script>", " ", text)
    text = re.sub(r"(?s)<style.*?</style>", " ", text)
    text = re.sub(r'(?s)<[^>]*>', " ", text)
    text = htmlmod.unescape(text)
    return re.sub(r"\S*[/\\]\S*|\S+\.(ngn|mat|sgf|json|txt)\b", " ", text)


def _records(tmp_path):
    from nardy_analyze.notation import get as notation
    from nardy_analyze.generate import generate_match
    out = [p for p in sorted(EXAMPLES.iterdir()) if p.is_file()]
    for variant in ("long", "gulbara"):
        p = tmp_path / f"generated-{variant}.ngn"
        p.write_text(notation("ngn").write(generate_match(variant, 2, seed=7)), encoding="utf-8")
        out.append(p)
    return out


@pytest.mark.slow
def test_no_variant_is_named_in_latin_letters_in_the_russian_output(tmp_path):
    """validate (text, --explain, HTML), show (text, svg, html), stats, convert, analyze and rules over examples/ and
    generated long nardy and Gul bara games, in Russian: no Latin variant name in what a person reads."""
    from typer.testing import CliRunner

    from nardy_analyze.cli import app

    runner = CliRunner()
    bad = []
    i18n.set_language("ru")
    try:
        _scan_outputs(runner, app, tmp_path, bad)
    finally:
        i18n.set_language(None)
    assert not bad, sorted(set(bad))


def _scan_outputs(runner, app, tmp_path, bad):
    seen = []
    for p in _records(tmp_path):
        commands = [["validate", str(p), "--explain"], ["validate", str(p), "-f", "html"],
                    ["show", str(p)], ["show", str(p), "--as", "svg"], ["show", str(p), "--as", "html"],
                    ["show", str(p), "--as", "gnubg"], ["stats", str(p), "--by", "game", "-f", "markdown"],
                    ["convert", str(p), "--to", "mat", "-o", str(tmp_path / "out.mat")],
                    ["analyze", str(p)]]
        for args in commands:
            r = runner.invoke(app, args)
            assert r.exception is None or isinstance(r.exception, SystemExit), (args, r.exception)
            text = _visible(r.output)
            seen.append(r.output)
            for name in _latin_variant_names(text):
                bad.append((args[0], p.name, name))
    r = runner.invoke(app, ["rules"])
    bad += [("rules", "", name) for name in _latin_variant_names(_visible(r.output))]
    assert sum(bool(re.search("[а-яё]", out)) for out in seen) > len(seen) * 3 // 4     # the outputs are Russian
