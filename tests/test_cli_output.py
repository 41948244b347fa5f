"""The report formats: compiler-style text, the documented JSON schema, SARIF, and the rule list."""
from __future__ import annotations

import json
import re

from nardy_analyze.rules import CHECKED, RULES

from helpers import EXAMPLES, ROOT, SHARED

EXAMPLE = str(EXAMPLES / "club-night.mat")
LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<rule>[a-z-]+): (?P<msg>.+)$")


def test_text_is_compiler_style_and_matches_json(cli):
    code, out, _ = cli.subprocess("validate", EXAMPLE)
    assert code == 1
    lines = out.splitlines()
    found = [LINE.match(ln).groupdict() for ln in lines[:-1]]
    assert lines[-1] == "1 file(s), 3 game(s), 82 turn(s): 4 error(s), 0 warning(s)"
    code, js, _ = cli.subprocess("validate", "--format", "json", EXAMPLE)
    doc = json.loads(js)
    assert [(f["line"], f["column"], f["rule"]) for f in doc["findings"]] == \
        [(int(f["line"]), int(f["col"]), f["rule"]) for f in found]
    assert [f["rule"] for f in doc["findings"]] == ["dice-mismatch", "bar-first", "match-score", "max-dice"]


def test_json_schema_keys(cli):
    _, js, _ = cli.subprocess("validate", "--format", "json", str(EXAMPLES))
    doc = json.loads(js)
    assert set(doc["summary"]) >= {"files", "games", "turns", "errors", "warnings"}
    shipped = sorted(p for p in EXAMPLES.rglob("*") if p.suffix in (".mat", ".ngn", ".sgf"))
    assert doc["summary"]["files"] == len(doc["files"]) == len(shipped) >= 3
    for f in doc["files"]:
        assert set(f) >= {"path", "notation", "variant", "games", "errors", "warnings"}
        if f["path"].endswith((".mat", ".sgf")):
            assert f["notation"] == f["path"][-3:] and f["variant"] == "backgammon"
        else:
            assert f["notation"] == "ngn" and f["variant"] in ("backgammon", "long", "gulbara")
    for f in doc["findings"]:
        assert set(f) >= {"path", "line", "column", "game", "move", "player", "rule", "severity", "message"}
        assert f["rule"] in RULES and f["severity"] in ("error", "warning")
    # every key the schema document names is produced
    schema_doc = (ROOT / "docs" / "json-report.md").read_text()
    for key in ("summary.turns", "files[].variant", "findings[].player", "unreadable[]"):
        assert f"`{key}`" in schema_doc


def test_sarif(cli):
    code, out, _ = cli.subprocess("validate", "--format", "sarif", EXAMPLE)
    assert code == 1
    doc = json.loads(out)
    assert doc["version"] == "2.1.0"
    results = doc["runs"][0]["results"]
    rules = [r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]]
    assert [r["ruleId"] for r in results] == ["dice-mismatch", "bar-first", "match-score", "max-dice"]
    for r in results:
        assert rules[r["ruleIndex"]] == r["ruleId"]
        region = r["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1


def test_rules_command_lists_every_rule_id(cli):
    code, out, _ = cli.subprocess("rules")
    assert code == 0
    listed = [ln.split()[0] for ln in out.splitlines() if ln and not ln.startswith("*")]
    assert listed == list(RULES)
    docs = (ROOT / "docs" / "rules.md").read_text()
    for rid in RULES:
        assert f"`{rid}`" in docs, rid
    assert set(CHECKED) <= set(RULES)


def test_rule_ids_match_the_rules_reference():
    """Our ids are RULES.md's (the shared rules reference), when it is present, in its order, and the ids
    this tool adds (``rules.ADDED``: documented in docs/rules.md)."""
    from nardy_analyze.rules import ADDED

    ref = SHARED / "docs" / "RULES.md"
    if not ref.exists():
        import pytest

        pytest.skip("../shared/docs/RULES.md not present in this checkout")
    table = ref.read_text().split("## Rule ids", 1)[1]
    ids = re.findall(r"^\| `([a-z-]+)` \|", table, re.M)
    assert ids == [r for r in RULES if r not in ADDED]
    assert set(ADDED) <= set(RULES) and not set(ADDED) & set(ids)


def test_select_ignore_and_statistics(cli):
    code, out, _ = cli.subprocess("validate", "--select", "max-dice,bar-first", EXAMPLE)
    assert code == 1
    assert [LINE.match(ln)["rule"] for ln in out.splitlines()[:-1]] == ["bar-first", "max-dice"]
    code, out, _ = cli.subprocess("validate", "--ignore", "dice-mismatch", "--ignore", "bar-first,max-dice,match-score",
                       EXAMPLE)
    assert code == 0 and out.strip().endswith("no errors, 0 warning(s)")
    code, out, _ = cli.subprocess("validate", "--statistics", EXAMPLE)
    rows = [ln.split() for ln in out.splitlines()[:-1]]
    assert sorted((r[1], int(r[0])) for r in rows) == [("bar-first", 1), ("dice-mismatch", 1),
                                                       ("match-score", 1), ("max-dice", 1)]
    code, _, err = cli.subprocess("validate", "--select", "no-such-rule", EXAMPLE)
    assert code == 2 and "unknown rule id" in err


def test_clean_examples_have_no_findings(cli):
    code, js, _ = cli.subprocess("validate", "--format", "json", str(EXAMPLES / "selfplay-7pt.mat"),
                      str(EXAMPLES / "site-dialect-11pt.mat"))
    doc = json.loads(js)
    assert code == 0 and doc["findings"] == []
    assert [f["games"] for f in doc["files"]] == [4, 10]


def test_utf8_names_in_findings():
    from nardy_analyze.analyze import validate_match
    from nardy_analyze.notation import mat

    text = (EXAMPLES / "site-dialect-11pt.mat").read_text(encoding="utf-8")
    bad = text.replace("  2) 63: 24/18 18/15", "  2) 63: 24/18 18/14", 1)
    rep = validate_match(mat.read(bad, "x.mat"))
    assert [(f.rule, f.player) for f in rep.findings] == [("dice-mismatch", "Zoë Ivanova")]
