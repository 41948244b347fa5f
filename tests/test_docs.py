"""The documents speak to users: README, docs/ and every ``--help`` say what the tool does in words a user
knows, the rules the tool applies are in the repository (docs/rules.md), and the quick start is true."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from helpers import ROOT, cli
from nardy_analyze.rules import RULES

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "docs").rglob("*.json"))]
COMMANDS = ("validate", "convert", "stats", "show", "generate", "rules")
# words that mean nothing to a user: the project's own history and tools
INTERNAL = re.compile(r"(?-i:\bRULES\.md\b)|\bissues?\b|\bsessions?\b|\bhelpers?\b|\bseeds?\b", re.I)
# generate's option is named --seed and writes a Seed tag, and the test suite's shared module is named
# tests/helpers.py: the interface itself, not a word of prose
INTERFACE = re.compile(r"--seed\b|\[Seed \"|`Seed`|generate_match\(variant, games, seed,|\{variant\}:\{seed\}"
                       r"|`helpers\.cli`|tests/helpers\.py")


def _help(*args: str) -> str:
    r = cli.subprocess(*args, "--help", inherit=False, env={"COLUMNS": "200", "TERM": "dumb"})
    assert r.returncode == 0, r.stderr
    return r.stdout


def _internal_words(text: str) -> list[str]:
    return [m.group(0) for line in text.splitlines() for m in INTERNAL.finditer(INTERFACE.sub("", line))]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_internal_words_in_the_documents(path):
    text = path.read_text(encoding="utf-8")
    bad = [(n, line.strip()[:100]) for n, line in enumerate(text.splitlines(), 1) if _internal_words(line)]
    assert bad == []


@pytest.mark.parametrize("command", ("",) + COMMANDS)
def test_no_internal_words_in_the_help(command):
    text = _help(*([command] if command else []))
    assert _internal_words(text) == [], text


def test_the_check_finds_what_it_looks_for():
    assert _internal_words("the variant of seed 002 (RULES.md 3.1), issue 10, money sessions, our helpers") == \
        ["seed", "RULES.md", "issue", "sessions", "helpers"]
    assert _internal_words("`generate --seed 3` writes [Seed \"3\"]") == []


def test_the_code_cites_the_documents_of_the_repository():
    """Comments and docstrings cite docs/rules.md and the format pages of docs/, not the shared references
    outside the repository (``RULES.md 2.8``, ``FORMATS.md``), except where a shared one is named by its path
    (the rule ids it holds are ours: nardy_analyze/rules.py)."""
    cited = re.compile(r"\b(?:RULES|FORMATS|RU-TERMS|STYLE)\.md\b|\bRULES \d")
    bad = [(str(path.relative_to(ROOT)), n, line.strip()[:100])
           for path in sorted((ROOT / "nardy_analyze").rglob("*.py"))
           for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
           for m in cited.finditer(line) if f"shared/docs/{m.group(0)}" not in line]
    assert bad == []
    assert cited.search("oin 1, mars 2 (RULES.md 2.8)") and cited.search("# RULES 2.8: no cube")


def test_the_rules_the_tool_applies_are_in_the_repository():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in RULES:
        assert f"`{rule}`" in text, rule
    for section in ("### Common to every variant", "### Backgammon (short nardy), variant `backgammon`",
                    "### Long nardy, variant `long`", "### Gul bara, variant `gulbara`"):
        assert section in text
    # the variants and the rules of nardy apps by their names
    for words in ("Gul bara", "`nardy500`, the scoring of nardy apps", "The two-minute clock", "head rule",
                  "six-block rule", "Home freeze", "Handover", "doubles chain", "Crawford rule"):
        assert words.lower() in text.lower(), words
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Gul bara" in readme and "nardy500 scoring" in readme and "two-minute" in readme


def test_the_quick_start_is_true():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "nardy-analyze validate --explain examples/club-night.mat" in quick
    assert "four planted mistakes" in quick and "exits with status 1" in quick
    assert re.search(r"about \d+ minutes on an idle 2-core machine", quick)
    r = subprocess.run([sys.executable, "-m", "nardy_analyze", "validate", "--explain", "examples/club-night.mat"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 1 and r.stdout.splitlines()[-1].endswith(": 4 error(s), 0 warning(s)")


def test_show_help_lists_every_notation_and_stats_help_the_variant_form_of_rule():
    assert ".ngn" in _help("show") and ".sgf" in _help("show") and ".json" in _help("show")
    stats = _help("stats")
    assert "[VARIANT:]KEY=VALUE" in stats and "long:koks=on" in stats
    convert = _help("convert")
    assert "--verbose" in convert and "same sub-folder" in convert and "files with the --to notation's suffix are not converted again" in \
        " ".join(convert.split())
