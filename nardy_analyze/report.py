"""Render replay results: compiler-style text, one JSON document, explanations with the board."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, TextIO

from .board import diagram
from .engine.posid import position_id
from .replay import ERROR, Finding, MatchReport

JSON_SCHEMA_VERSION = 1


@dataclass
class RunResult:
    """Everything one ``validate`` run produced."""

    reports: list[MatchReport] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)   # (path, why)
    skipped: list[str] = field(default_factory=list)

    @property
    def arg_errors(self) -> list[tuple[str, str]]:
        """(path, message): ``--rule`` options that do not apply to a record's variant."""
        return [(r.path, m) for r in self.reports for m in r.arg_errors]

    @property
    def findings(self) -> list[Finding]:
        return [f for r in self.reports for f in r.findings]

    def keep_rules(self, select: set[str] | None, ignore: set[str]) -> None:
        """Drop findings whose rule is not selected or is ignored (``--select`` / ``--ignore``)."""
        for r in self.reports:
            r.findings = [f for f in r.findings
                          if (select is None or f.rule in select) and f.rule not in ignore]

    def rule_counts(self) -> list[tuple[str, str, int]]:
        """(rule, severity, count), most frequent first: for ``--statistics``."""
        counts: dict[tuple[str, str], int] = {}
        for f in self.findings:
            counts[(f.rule, f.severity)] = counts.get((f.rule, f.severity), 0) + 1
        return sorted(((r, s, n) for (r, s), n in counts.items()), key=lambda t: (-t[2], t[0], t[1]))

    def summary(self) -> dict[str, int]:
        return {
            "files": len(self.reports),
            "games": sum(len(r.games) for r in self.reports),
            "turns": sum(r.turns for r in self.reports),
            "errors": sum(r.errors for r in self.reports),
            "warnings": sum(r.warnings for r in self.reports),
        }


def finding_line(f: Finding) -> str:
    where = f"{f.path}:{f.line}:{f.column}"
    ctx = []
    if f.game is not None:
        ctx.append(f"game {f.game}")
    if f.move is not None:
        ctx.append(f"move {f.move}")
    if f.player:
        ctx.append(f.player)
    tail = f" [{', '.join(ctx)}]" if ctx else ""
    sev = "" if f.severity == ERROR else f"{f.severity}: "
    return f"{where}: {f.rule}: {sev}{f.message}{tail}"


def explain_lines(f: Finding, report: MatchReport | None = None) -> list[str]:
    out = []
    if f.position is not None:
        opp_name = "opponent"
        if report is not None and f.game is not None and f.side is not None:
            g = next((g for g in report.games if g.number == f.game), None)
            if g:
                opp_name = g.players[1 - f.side] or f"player {2 - f.side}"
        if f.board_title:
            out.append(f.board_title + ":")
            role = "declared winner"
        else:
            dice = ""
            if f.dice:
                dice = f" to play {f.dice[0]}{f.dice[1]}" if len(f.dice) == 2 else f" to play {'-'.join(map(str, f.dice))}"
            out.append(f"position before the play{dice}:")
            role = "to play"
        name = f.player or "mover"
        if f.board_side is not None and report is not None:
            # drawn from another side than the cell's player (the winner's, for results)
            g = next((g for g in report.games if g.number == f.game), None)
            if g:
                names = [g.players[0] or "player 1", g.players[1] or "player 2"]
                name, opp_name = names[f.board_side], names[1 - f.board_side]
        out += ["  " + ln for ln in diagram(f.position, name, opp_name, role, _variant(report))]
    if f.alternatives:
        out.append("legal plays include: " + "; ".join(f.alternatives))
    return ["    | " + ln for ln in out]


def _variant(report: MatchReport | None) -> str:
    """The variant a report was judged under, as the engine names it (backgammon when unknown)."""
    from .engine import UnknownVariant, get_variant
    try:
        return get_variant(report.variant).name if report is not None else "backgammon"
    except UnknownVariant:
        return "backgammon"


def write_statistics(run: RunResult, out: TextIO) -> None:
    rows = run.rule_counts()
    width = max((len(r) for r, _, _ in rows), default=0)
    for rule, severity, n in rows:
        out.write(f"{n:>7}  {rule:<{width}}  {severity}\n")
    s = run.summary()
    out.write(f"{s['files']} file(s), {s['games']} game(s), {s['turns']} turn(s): {s['errors']} error(s), "
              f"{s['warnings']} warning(s)\n")


def write_text(run: RunResult, out: TextIO, explain: bool = False, color: bool = False) -> None:
    def paint(s: str, code: str) -> str:
        return f"\x1b[{code}m{s}\x1b[0m" if color else s

    for r in run.reports:
        for f in r.findings:
            line = finding_line(f)
            if color:
                head, _, rest = line.partition(f": {f.rule}: ")
                code = "31" if f.severity == ERROR else "33"
                line = f"{paint(head, '1')}: {paint(f.rule, code)}: {rest}"
            out.write(line + "\n")
            if explain:
                for ln in explain_lines(f, r):
                    out.write(ln + "\n")
    s = run.summary()
    verdict = "no errors" if not s["errors"] else f"{s['errors']} error(s)"
    out.write(paint(
        f"{s['files']} file(s), {s['games']} game(s), {s['turns']} turn(s): {verdict}, "
        f"{s['warnings']} warning(s)", "1") + "\n")


def to_json(run: RunResult, explain: bool = False) -> dict[str, Any]:
    findings = []
    for r in run.reports:
        for f in r.findings:
            d = f.as_dict()
            if explain and f.position is not None:
                d["position"] = {"mover": list(f.position[0]), "opponent": list(f.position[1])}
                if _variant(r) == "backgammon":
                    d["position"]["position_id"] = position_id(*f.position)
                d["alternatives"] = f.alternatives
            findings.append(d)
    return {
        "version": JSON_SCHEMA_VERSION,
        "summary": run.summary(),
        "files": [
            {"path": r.path, "notation": r.notation, "variant": r.variant, "games": len(r.games),
             "errors": r.errors, "warnings": r.warnings}
            for r in run.reports
        ],
        "findings": findings,
        "unreadable": [{"path": p, "message": m} for p, m in run.unreadable],
        "argument_errors": [{"path": p, "message": m} for p, m in run.arg_errors],
    }


def to_sarif(run: RunResult) -> dict[str, Any]:
    """SARIF 2.1.0, for code-scanning tools: one run, the rule ids as the driver's rules."""
    from . import __version__
    from .rules import RULES

    ids = list(RULES)
    results = []
    for r in run.reports:
        for f in r.findings:
            results.append({
                "ruleId": f.rule,
                "ruleIndex": ids.index(f.rule) if f.rule in RULES else -1,
                "level": "error" if f.severity == ERROR else "warning",
                "message": {"text": f.message},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": f.path},
                    "region": {"startLine": f.line, "startColumn": f.column},
                }}],
                "properties": {"game": f.game, "move": f.move, "player": f.player},
            })
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "nardy-analyze", "version": __version__,
                "rules": [{"id": k, "shortDescription": {"text": v}} for k, v in RULES.items()],
            }},
            "results": results,
        }],
    }


def write_sarif(run: RunResult, out: TextIO) -> None:
    json.dump(to_sarif(run), out, ensure_ascii=False, indent=1)
    out.write("\n")


def write_json(run: RunResult, out: TextIO, explain: bool = False) -> None:
    json.dump(to_json(run, explain), out, ensure_ascii=False, indent=1)
    out.write("\n")
