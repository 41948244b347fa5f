"""The Russian documents keep in step with the English ones.

``README.ru.md`` answers ``README.md`` and ``docs/ru/rules.md`` answers ``docs/rules.md`` section by section:
before each Russian heading stands an HTML comment naming the English heading it renders, level and text,
``<!-- en: ## validate -->``. A heading added to (or renamed in) an English document without its Russian
counterpart fails here, naming the section, and so does a Russian anchor whose English heading is gone.

Sections of README.md that need no Russian counterpart (they are for the people who work on the code, not
for players or club directors): ``## Performance`` with its sub-sections (measurements, benchmark commands
and the history of the speed work; the Russian README points to them) and ``## Development``.

A Russian section without an anchor is allowed (README.ru.md has ``## rules``, which the English README covers
inside ``## validate``); it ends the anchored section before it.

Within a section the checks are concrete: the rule ids named in an English section are named in its Russian
counterpart; README's options (``--rule``, ``--by`` ...) and the command lines of its examples likewise; docs/rules.md's numbered rules and bulleted
decisions have as many items in Russian. Every rule id the tool has (``nardy_analyze.rules.RULES``) is
explained in docs/ru/rules.md and listed in the glossary (docs/ru/glossary.md: one table sorted by the
English term). The Russian documents hold no English sentences outside code (a run of six Latin words in a
row is taken for one) and none of the words the project keeps out of its documents (tests/test_docs.py).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import ROOT
from nardy_analyze.rules import RULES
from test_docs import _internal_words

README, README_RU = ROOT / "README.md", ROOT / "README.ru.md"
RULES_EN, RULES_RU = ROOT / "docs" / "rules.md", ROOT / "docs" / "ru" / "rules.md"
GLOSSARY = ROOT / "docs" / "ru" / "glossary.md"
RU_DOCS = [README_RU, *sorted((ROOT / "docs" / "ru").glob("*.md"))]
PAIRS = [(README, README_RU), (RULES_EN, RULES_RU)]

# English README sections (with their sub-sections) that are not for users: see the docstring
NOT_FOR_USERS = {"## Performance", "## Development"}

ANCHOR = re.compile(r"^<!-- en: (#{2,3} .+?) -->\s*$")
HEADING = re.compile(r"^(#{2,3}) (.+?)\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*[a-z]")
# Russian words for the same internal things the English check keeps out
INTERNAL_RU = re.compile(r"\b(сесси[яиюей]\w*|хелпер\w*|ишь?ю\w*|тикет\w*|сид(ы|ов|ам|ах)?)\b", re.I)
LATIN_RUN = 6   # this many Latin words in a row outside code is taken for an English sentence


def _lines_outside_code(text: str) -> list[tuple[int, str]]:
    out, fenced = [], False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append((n, line))
    return out


def _headings(text: str) -> list[str]:
    """The ``##``/``###`` headings of a document, outside code blocks, as ``'## text'``."""
    out = []
    for _, line in _lines_outside_code(text):
        m = HEADING.match(line)
        if m:
            out.append(f"{m.group(1)} {m.group(2)}")
    return out


def _english_sections(path: Path) -> dict[str, str]:
    """English heading -> the text of its section (up to the next heading of any level), in order;
    README's sections that are not for users left out."""
    sections: dict[str, str] = {}
    current, skipping, fenced = None, False, False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        m = None if fenced else HEADING.match(line)
        if m:
            key = f"{m.group(1)} {m.group(2)}"
            if m.group(1) == "##":
                skipping = path == README and key in NOT_FOR_USERS
            current = None if skipping else key
            if current:
                sections[current] = ""
            continue
        if current:
            sections[current] += line + "\n"
    return sections


def _russian_sections(path: Path) -> dict[str, str]:
    """English heading named by an anchor -> the text of the Russian section that follows it."""
    sections: dict[str, str] = {}
    current, fenced = None, False
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
        if fenced:
            if current:
                sections[current] += line + "\n"
            continue
        m = ANCHOR.match(line)
        if m:
            current = m.group(1)
            sections[current] = ""
            continue
        if HEADING.match(line):
            previous = lines[i - 1] if i else ""
            if not ANCHOR.match(previous):
                current = None
            continue
        if current:
            sections[current] += line + "\n"
    return sections


def _anchors(path: Path) -> list[tuple[int, str]]:
    return [(n, m.group(1)) for n, line in _lines_outside_code(path.read_text(encoding="utf-8"))
            if (m := ANCHOR.match(line))]


@pytest.mark.parametrize("english,russian", PAIRS, ids=lambda p: p.name)
def test_every_english_section_has_a_russian_counterpart(english, russian):
    anchors = [a for _, a in _anchors(russian)]
    missing = [h for h in _english_sections(english) if h not in anchors]
    assert missing == [], (
        f"{english.relative_to(ROOT)} has sections with no Russian counterpart in {russian.relative_to(ROOT)}: "
        + "; ".join(f"{h!r} (add its Russian section, preceded by the line '<!-- en: {h} -->')" for h in missing))


@pytest.mark.parametrize("english,russian", PAIRS, ids=lambda p: p.name)
def test_every_russian_anchor_names_an_english_section_in_order(english, russian):
    wanted = list(_english_sections(english))
    anchors = _anchors(russian)
    stale = [(n, a) for n, a in anchors if a not in wanted]
    assert stale == [], f"{russian.relative_to(ROOT)}: anchors naming no section of {english.name} (renamed?): {stale}"
    order = [a for _, a in anchors]
    assert order == [h for h in wanted if h in order], f"{russian.name}: sections out of the order of {english.name}"
    assert len(order) == len(set(order)), f"{russian.name}: a section anchored twice"


@pytest.mark.parametrize("russian", [README_RU, RULES_RU], ids=lambda p: p.name)
def test_each_anchor_stands_right_before_a_heading_of_its_level(russian):
    lines = russian.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        m = ANCHOR.match(line)
        if m:
            nxt = HEADING.match(lines[i + 1]) if i + 1 < len(lines) else None
            assert nxt and nxt.group(1) == m.group(1).split()[0], f"{russian.name}:{i + 1}: {line} is not followed " \
                f"by a {m.group(1).split()[0]} heading"


@pytest.mark.parametrize("english,russian", PAIRS, ids=lambda p: p.name)
def test_each_section_names_the_rule_ids_of_its_english_section(english, russian):
    en, ru = _english_sections(english), _russian_sections(russian)
    gaps = {}
    for heading, text in en.items():
        ids = {r for r in RULES if f"`{r}`" in text}
        lacking = sorted(r for r in ids if f"`{r}`" not in ru.get(heading, ""))
        if lacking:
            gaps[heading] = lacking
    assert gaps == {}, f"{russian.name}: rule ids of the English section missing from its Russian counterpart"


def test_each_readme_section_names_the_options_of_its_english_section():
    en, ru = _english_sections(README), _russian_sections(README_RU)
    gaps = {}
    for heading, text in en.items():
        lacking = sorted(set(OPTION.findall(text)) - set(OPTION.findall(ru.get(heading, ""))))
        if lacking:
            gaps[heading] = lacking
    assert gaps == {}, "README.ru.md: options of the English section missing from its Russian counterpart"


def _command_lines(text: str) -> set[str]:
    """The command lines shown in a section's code blocks (``$ nardy-analyze ...``, ``nardy-analyze ...``,
    ``python3 ...``, ``pip ...``), comments after ``#`` left out."""
    lines, fenced = set(), False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        cmd = line.removeprefix("$ ").split("  #")[0].strip()
        if fenced and re.match(r"(nardy-analyze|python3|pip) ", cmd):
            lines.add(cmd)
    return lines


def test_each_readme_section_shows_the_command_lines_of_its_english_section():
    en, ru = _english_sections(README), _russian_sections(README_RU)
    gaps = {h: sorted(_command_lines(t) - _command_lines(ru.get(h, ""))) for h, t in en.items()}
    assert {h: g for h, g in gaps.items() if g} == {}, "README.ru.md: examples of the English section missing"


def _items(text: str) -> tuple[int, int]:
    """(numbered items, bulleted items) at the start of a line, outside code."""
    lines = [line for _, line in _lines_outside_code(text)]
    return (sum(bool(re.match(r"\d+\. ", line)) for line in lines),
            sum(bool(re.match(r"- ", line)) for line in lines))


def test_each_rules_section_has_as_many_rules_and_decisions_in_russian():
    en, ru = _english_sections(RULES_EN), _russian_sections(RULES_RU)
    differ = {h: (_items(en[h]), _items(ru.get(h, ""))) for h in en if _items(en[h]) != _items(ru.get(h, ""))}
    assert differ == {}, "docs/ru/rules.md: (numbered, bulleted) items per section differ from docs/rules.md"


def test_the_rule_id_table_has_a_row_per_rule():
    ru = _russian_sections(RULES_RU).get("## Rule ids", "")
    rows = re.findall(r"^\| `([a-z-]+)` \|", ru, re.M)
    assert sorted(rows) == sorted(RULES)


@pytest.mark.parametrize("path", [RULES_RU, GLOSSARY], ids=lambda p: p.name)
def test_every_rule_id_of_the_tool_is_in_the_russian_rules_and_the_glossary(path):
    text = path.read_text(encoding="utf-8")
    assert [r for r in RULES if f"`{r}`" not in text] == []


def test_the_readmes_link_to_each_other():
    head = README.read_text(encoding="utf-8").splitlines()[:12]
    assert any("Документация на русском: [README.ru.md](README.ru.md)" in line for line in head)
    ru = README_RU.read_text(encoding="utf-8")
    assert "(README.md)" in "\n".join(ru.splitlines()[:12])
    assert "(docs/ru/rules.md)" in ru and "(docs/ru/glossary.md)" in ru


@pytest.mark.parametrize("path", RU_DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_links_of_the_russian_documents_lead_somewhere(path):
    text = "\n".join(line for _, line in _lines_outside_code(path.read_text(encoding="utf-8")))
    text = re.sub(r"`[^`\n]*`", "", text)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, _anchor = target.partition("#")
        if file and not (path.parent / file).exists():
            broken.append(target)
    assert broken == []


def _prose(text: str) -> str:
    """The text a reader reads as prose: no code blocks, code spans, HTML comments or link targets."""
    text = "\n".join(line for _, line in _lines_outside_code(text))
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"``.*?``|`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return text


def _latin_runs(text: str) -> list[str]:
    """Runs of LATIN_RUN or more Latin words in a row (in prose: punctuation other than a sentence's end
    or a table cell does not break a run)."""
    runs = []
    for chunk in re.split(r"[.;:!?|()\n«»—–]", _prose(text)):
        words = re.findall(r"[A-Za-zА-Яа-яЁё0-9]+(?:['’-][A-Za-zА-Яа-яЁё0-9]+)*", chunk)
        run: list[str] = []
        for w in words + ["я"]:
            if re.fullmatch(r"[A-Za-z][A-Za-z'’-]*", w):
                run.append(w)
                continue
            if len(run) >= LATIN_RUN:
                runs.append(" ".join(run))
            run = []
    return runs


def test_the_english_sentence_check_finds_english_sentences():
    english = "Read nardy and backgammon game records, replay every move through a strict rules engine."
    assert _latin_runs(english) == ["Read nardy and backgammon game records replay every move through a strict rules engine"]
    assert _latin_runs("Проверяет записи `nardy-analyze validate --format json --explain examples/` и GNU "
                       "Backgammon Position ID.") == []
    assert _latin_runs(README.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", RU_DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_russian_documents_hold_no_english_sentences(path):
    text = path.read_text(encoding="utf-8")
    assert _latin_runs(text) == []
    prose = _prose(text)
    latin = len(re.findall(r"\b[A-Za-z]{2,}\b", prose))
    cyrillic = len(re.findall(r"[А-Яа-яЁё]{2,}", prose))
    assert latin < 0.2 * (latin + cyrillic), f"{path.name}: {latin} Latin words against {cyrillic} Russian ones"


@pytest.mark.parametrize("path", RU_DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_internal_words_in_the_russian_documents(path):
    bad = [(n, line.strip()[:100]) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
           if _internal_words(line) or INTERNAL_RU.search(line)]
    assert bad == []


def _glossary_rows() -> list[list[str]]:
    rows = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    cells = [[c.strip() for c in re.split(r"(?<!\\)\|", row.strip()[1:-1])] for row in rows]
    return [c for c in cells[2:]]   # below the header and its rule


def test_the_glossary_is_one_sorted_table_of_four_filled_columns():
    text = GLOSSARY.read_text(encoding="utf-8")
    tables = re.findall(r"(?:^\|.*\n)+", text, re.M)
    assert len(tables) == 1, "the glossary is one table"
    rows = _glossary_rows()
    assert len(rows) >= 60
    assert all(len(r) == 4 and all(r) for r in rows), [r for r in rows if len(r) != 4 or not all(r)][:3]
    keys = [re.sub(r"[^a-z0-9 ]", "", r[0].lower()).strip() for r in rows]
    assert keys == sorted(keys), [(a, b) for a, b in zip(keys, keys[1:]) if a > b][:3]
    assert len(keys) == len(set(keys)), "an English term twice"


def test_the_glossary_has_the_players_words_and_the_variant_names():
    russian = " ".join(r[1] for r in _glossary_rows()).lower()
    for word in ("шашка", "бар", "дом", "выброс", "дубль", "марс", "кокс", "ставка", "дохажива", "голова",
                 "короткие нарды", "длинные нарды", "гюльбара", "ошибка", "предупреждение", "куб удвоения"):
        assert word in russian, word
    english = [r[0].lower() for r in _glossary_rows()]
    for term in ("backgammon (variant)", "long nardy", "gul bara", "handover", "head", "error", "warning"):
        assert any(e.startswith(term) for e in english), term
