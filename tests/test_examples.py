"""The shipped examples: ``nardy-analyze validate examples/`` reports exactly the findings they promise.

Every ``.ngn`` example names the findings it must give in comments of a fixed form at its top::

    ; expect: 12:5 head-rule        (line:column rule-id; one line per finding)

A file with no ``expect:`` line must give no finding at all.  The Jellyfish and SGF examples keep their
expected findings here (comment lines would move the lines the README quotes).

A second, independent check: the games are legal where they claim to be.  ``engine_walk`` replays the
turns with the engine alone (the variant's turn driver and ``generate``; not the replayer), and the
first illegal play it meets must be the first play the expectations name (none for legal examples).
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from nardy_analyze import notation
from nardy_analyze.judged import variant_for
from nardy_analyze.engine import ROLLER, borne_off, generate
from nardy_analyze.record import Kind, Loc, Match

from helpers import EXAMPLES

EXPECT = re.compile(r"^expect:\s*([0-9]+):([0-9]+)\s+([a-z][a-z-]*)\s*$")
# Findings about the checker play (the position); the engine walk below must find the first of them.
PLAY_RULES = {"dice-mismatch", "no-checker", "blocked-point", "bar-first", "bear-off-early",
              "bear-off-inexact", "max-dice", "larger-die", "head-rule", "six-block", "home-move",
              "doubles-chain", "handover"}

MAT_EXPECTED = {
    "club-night.mat": [(17, 34, "dice-mismatch"), (35, 34, "bar-first"), (40, 2, "match-score"),
                       (43, 6, "max-dice")],
    "selfplay-7pt.mat": [],
    "site-dialect-11pt.mat": [],
    "baku-final-5pt.mat": [],               # players' names and comments in Cyrillic and Azerbaijani
    "yerevan-tbilisi-3pt.sgf": [],          # in Armenian and Georgian (tests/test_names_scripts.py)
}


def expectations(path: Path) -> list[tuple[int, int, str]]:
    if path.suffix in (".mat", ".sgf"):
        return MAT_EXPECTED[path.name]
    m = notation.read_path(path)
    out = []
    for c in m.comments:
        if c.startswith("expect"):
            hit = EXPECT.match(c)
            assert hit, f"{path}: malformed expectation {c!r}"
            out.append((int(hit.group(1)), int(hit.group(2)), hit.group(3)))
    return out


EXAMPLE_FILES = sorted(p for p in EXAMPLES.rglob("*") if p.suffix in (".mat", ".ngn", ".sgf"))
NGN_FILES = [p for p in EXAMPLE_FILES if p.suffix == ".ngn"]


def test_the_examples_the_issue_asks_for_are_there():
    names = {p.name for p in NGN_FILES}
    assert {"gulbara-chain-handover.ngn", "long-first-66.ngn", "nardy500-clock.ngn"} <= names
    promised = Counter(rule for p in NGN_FILES for _, _, rule in expectations(p))
    for rule in ("head-rule", "six-block", "home-move", "doubles-chain", "handover", "bear-off-inexact",
                 "result-mismatch", "time-limit"):
        assert promised[rule] >= 1, f"no example breaks {rule}"


def test_validate_examples_reports_exactly_the_promised_findings(cli):
    code, out, err = cli.subprocess("validate", "--format", "json", str(EXAMPLES))
    doc = json.loads(out)
    found: dict[str, list] = {}
    for f in doc["findings"]:
        found.setdefault(Path(f["path"]).name, []).append((f["line"], f["column"], f["rule"]))
    wrong = {}
    for path in EXAMPLE_FILES:
        want = sorted(expectations(path))
        got = sorted(found.get(path.name, []))
        if want != got:
            wrong[path.name] = {"expected": want, "reported": got}
    assert not wrong, json.dumps(wrong, indent=1)
    assert code == 1


# ----------------------------------------------------------------------------- the engine's own walk

def engine_walk(match: Match) -> list[tuple[Loc, str]]:
    """The first illegal play of each game, by the engine alone: ``[(loc, what)]``."""
    v = variant_for(match, "backgammon", {})
    rules = v.rules
    out: list[tuple[Loc, str]] = []
    for game in match.games:
        pos = list(rules.initial())
        rolled = [0, 0]
        rolls = 0
        bad = None
        for a in game.actions:
            if a.kind is not Kind.ROLL or bad:
                continue
            if a.dice is None:
                bad = (a.loc, "no dice")
                break
            p = a.player
            rolls += 1
            d1, d2 = max(a.dice), min(a.dice)
            driver = rules.turn_segments(d1, d2, rolled[p] == 0, rolls)
            rolled[p] += 1
            parts = [("roll", p, a.steps, a.loc)] + [(s.kind, s.player, s.steps, s.loc) for s in a.segments]
            while (spec := driver.next(pos[p], pos[1 - p])) is not None:
                q = p if spec.player == ROLLER else 1 - p
                if parts and parts[0][0] == spec.kind and parts[0][1] == q:
                    _, _, steps, loc = parts.pop(0)
                else:
                    steps, loc = [], a.loc          # a part left out: nothing played
                me, opp = pos[q], pos[1 - q]
                try:
                    for s in steps:
                        me, opp, _ = rules.apply(me, opp, s.src, s.dst)
                except Exception:
                    bad = (loc, f"{spec.kind}: a step cannot be made")
                    break
                ps = generate(rules, pos[q], pos[1 - q], spec.numbers, spec.turn)
                if (me, opp) not in ps.plays:
                    bad = (loc, f"{spec.kind} of {spec.numbers}: not a legal play")
                    break
                pos[q], pos[1 - q] = me, opp
                driver.played(tuple(d for _, _, d in ps.plays[(me, opp)]))
            if bad is None and parts:
                bad = (parts[0][3], f"{parts[0][0]}: a part no rule asks for")
            if bad is None and (borne_off(pos[0]) == 15 or borne_off(pos[1]) == 15):
                pass
        if bad:
            out.append(bad)
    return out


@pytest.mark.parametrize("path", NGN_FILES, ids=lambda p: p.name)
def test_examples_are_legal_up_to_their_planted_mistake(path):
    m = notation.read_path(path)
    assert not m.problems and not any(g.problems for g in m.games)
    play = sorted((line, col) for line, col, rule in expectations(path) if rule in PLAY_RULES)
    walk = engine_walk(m)
    if not play:
        assert walk == [], walk
    else:
        assert walk, "the engine finds every play legal"
        assert walk[0][0].line == play[0][0], (walk, play)
