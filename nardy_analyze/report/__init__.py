"""Render replay results: compiler-style text, one JSON document, explanations with the board."""
from __future__ import annotations

import json
import tempfile
from typing import Any, TextIO

from .. import __version__
from .board import diagram
from ..engine.posid import position_id
from ..replay import ERROR, Finding, MatchReport
# the run's result (nardy_analyze.result, below the report), rendered here; its names stay importable from here
from ..result import INTERNAL_ERROR, RunCounts, RunResult, keep_rules_of  # noqa: F401
from ..rules import RULES
from ..safetext import json_safe, visible

JSON_SCHEMA_VERSION = 1


def unreadable_reason(path: str, message: str) -> str:
    """The message of an unreadable entry without its leading path."""
    return message[len(path) + 2:] if message.startswith(path + ": ") else message


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
        out += ["  " + ln for ln in diagram(f.position, name, opp_name, role, _rules(report).name)]
    if f.alternatives:
        out.append("legal plays include: " + "; ".join(f.alternatives))
    return ["    | " + ln for ln in out]


def _grade(error: float | None, grade: str) -> str:
    if error is None:
        return ""
    return f", lost {error:.3f}" + (f" ({grade})" if grade else "")


def analysis_lines(a: dict[str, Any]) -> list[str]:
    """``validate --analyse``: the engine's analysis of a finding's turn (``Finding.analysis``), as lines."""
    out = []
    for s in a.get("decisions", []):
        if s["kind"] == "checker":
            out.append(f"analysis ({a['plies']}-ply): {s['dice']} to play, {s['moves']} legal play"
                       f"{'' if s['moves'] == 1 else 's'}; best plays:")
            top = s["plays"][0]["equity"] if s["plays"] else 0.0
            for i, p in enumerate(s["plays"], 1):
                diff = f"  ({p['equity'] - top:+.3f})" if i > 1 else ""
                out.append(f"  {i}. {p['play']:<24} {p['equity']:+.3f}{diff}")
            if s["equity_played"] is None:
                out.append(f"  played {s['played']}: not a play of this roll (no equity)")
            else:
                rank = f" (rank {s['rank']})" if s["rank"] else ""
                value = f"{rank}: {s['equity_played']:+.3f}{_grade(s['error'], s['grade'])}"
                if s["replayed"] and s["replayed"] != s["played"].replace("*", ""):
                    out.append(f"  played {s['played']}; the replay goes on from {s['replayed']}{value}")
                else:
                    out.append(f"  played {s['played']}{value}")
        else:
            nd, dt, dp = s["no_double"], s["double_take"], s["double_pass"]
            lost = _grade(s["error"], s["grade"]) if s["error"] else ""
            if s["kind"] == "double":
                out.append(f"cube decision ({a['plies']}-ply): {s['action']}{lost}; no double {nd:+.3f}, "
                           f"double/take {dt:+.3f}, double/pass {dp:+.3f}: best {s['best']}")
            else:
                out.append(f"take decision ({a['plies']}-ply): {s['action']}{lost}; take {-dt:+.3f}, pass "
                           f"{-dp:+.3f}: best {s['best']}")
    return out


def _rules(report: MatchReport | None):
    """The rules object of the variant a report was judged under (the default variant's when unknown)."""
    from ..engine import rules_named       # the engine only when a finding's position is explained
    return (rules_named(report.variant) if report is not None else None) or rules_named(None)


# ----------------------------------------------------------------------------- streaming writers
#
# A Writer renders a run as its inputs come: ``report(r)`` for each record read, ``skipped(path, reason)``,
# ``unreadable(path, message)``, then ``close()``.  It keeps running counts (:class:`RunCounts`) and, for
# the parts of the document that come later than their turn (the inventory after the findings, the
# summary before the lists of a JSON document), spools of rendered text: in memory up to SPOOL_MEMORY
# bytes each, then in an anonymous temporary file.  So the memory of a run does not grow with the
# number of files or findings, and the bytes written are those of the in-memory renderers of earlier
# versions (write_text(run) is this writer fed with a RunResult).

SPOOL_MEMORY = 1 << 20


class _Spool:
    """Rendered text kept for later, in memory up to SPOOL_MEMORY bytes and then on disk."""

    def __init__(self, folder: str | None = None) -> None:
        self.fh = tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY, mode="w+b", dir=folder)
        self.items = 0

    def write(self, text: str) -> None:
        self.fh.write(text.encode("utf-8"))

    def copy_to(self, out: TextIO) -> None:
        self.fh.seek(0)
        for line in self.fh:                 # whole lines: never a split UTF-8 sequence
            out.write(line.decode("utf-8"))

    def close(self) -> None:
        self.fh.close()


class Writer:
    """Base of the streaming writers (see above).  ``spool_dir``: where spools larger than
    SPOOL_MEMORY go (default: the system's temporary folder)."""

    def __init__(self, out: TextIO, spool_dir: str | None = None) -> None:
        self.out = out
        self.spool_dir = spool_dir
        self.counts = RunCounts()
        self._spools: list[_Spool] = []

    def _spool(self) -> _Spool:
        sp = _Spool(self.spool_dir)
        self._spools.append(sp)
        return sp

    def report(self, r: MatchReport) -> None:
        self.counts.add_report(r)

    def skipped(self, path: str, reason: str) -> None:
        self.counts.add_skipped(reason)

    def unreadable(self, path: str, message: str) -> None:
        self.counts.add_unreadable()

    def close(self) -> None:
        try:
            self.finish()
        finally:
            self.discard()

    def finish(self) -> None:
        raise NotImplementedError

    def discard(self) -> None:
        """Free the spools (done by close(); call it when a run is abandoned)."""
        for sp in self._spools:
            sp.close()
        self._spools = []


class TextWriter(Writer):
    """The compiler-style text report: each finding as its file comes (``path:line:col: rule: message``),
    then the inventory lines, the summary line and the counts of skipped and unreadable inputs.
    ``statistics``: a count per rule instead of the findings (``--statistics``)."""

    def __init__(self, out: TextIO, explain: bool = False, color: bool = False, verbose: bool = False,
                 statistics: bool = False, spool_dir: str | None = None) -> None:
        super().__init__(out, spool_dir)
        self.explain, self.color, self.verbose, self.statistics = explain, color, verbose, statistics
        self._records = self._spool() if verbose else None
        self._skipped = self._spool() if verbose else None
        self._unreadable = self._spool()

    def _paint(self, s: str, code: str) -> str:
        return f"\x1b[{code}m{s}\x1b[0m" if self.color else s

    def report(self, r: MatchReport) -> None:
        super().report(r)
        if not self.statistics:
            out = self.out
            for f in r.findings:
                line = visible(finding_line(f))       # names and echoed text from the file: no raw controls
                if self.color:
                    head, _, rest = line.partition(f": {f.rule}: ")
                    code = "31" if f.severity == ERROR else "33"
                    line = f"{self._paint(head, '1')}: {self._paint(f.rule, code)}: {rest}"
                out.write(line + "\n")
                if self.explain:
                    for ln in explain_lines(f, r):
                        out.write(visible(ln) + "\n")
                if f.analysis is not None:
                    for ln in analysis_lines(f.analysis):
                        out.write(visible("    | " + ln) + "\n")
            if r.analysis_note:
                out.write(visible(r.analysis_note) + "\n")
        if self._records is not None:
            self._records.write(f"{visible(r.path)}: record, {len(r.games)} game(s), {r.errors} error(s), "
                                f"{r.warnings} warning(s)\n")

    def skipped(self, path: str, reason: str) -> None:
        super().skipped(path, reason)
        if self._skipped is not None:
            self._skipped.write(visible(f"{path}: skipped: {reason}") + "\n")

    def unreadable(self, path: str, message: str) -> None:
        super().unreadable(path, message)
        self._unreadable.write(visible(f"{path}: unreadable: {unreadable_reason(path, message)}") + "\n")

    def finish(self) -> None:
        out, c = self.out, self.counts
        s = c.summary()
        if self.statistics:
            rows = c.rule_counts()
            width = max((len(r) for r, _, _ in rows), default=0)
            for rule, severity, n in rows:
                out.write(f"{n:>7}  {rule:<{width}}  {severity}\n")
        for sp in (self._records, self._skipped, self._unreadable):
            if sp is not None:
                sp.copy_to(out)
        if self.statistics:
            out.write(f"{s['files']} file(s), {s['games']} game(s), {s['turns']} turn(s): {s['errors']} "
                      f"error(s), {s['warnings']} warning(s)\n")
        else:
            verdict = "no errors" if not s["errors"] else f"{s['errors']} error(s)"
            out.write(self._paint(
                f"{s['files']} file(s), {s['games']} game(s), {s['turns']} turn(s): {verdict}, "
                f"{s['warnings']} warning(s)", "1") + "\n")
        if c.skipped:
            hint = "" if self.verbose else " (--verbose lists them)"
            out.write(f"{c.skipped} file(s) skipped: {', '.join(c.skip_kinds)}{hint}\n")
        if c.unreadable:
            out.write(f"{c.unreadable} path(s) could not be read\n")
        if c.internal_errors:
            out.write(f"{c.internal_errors} file(s) not fully checked: internal error (please report it)\n")


def write_statistics(run: RunResult, out: TextIO, verbose: bool = False) -> None:
    run.feed(TextWriter(out, verbose=verbose, statistics=True))


def write_text(run: RunResult, out: TextIO, explain: bool = False, color: bool = False,
               verbose: bool = False) -> None:
    run.feed(TextWriter(out, explain, color, verbose))


# ----------------------------------------------------------------------------- JSON and SARIF
#
# The parts of the documents, one input at a time: the in-memory to_json / to_sarif and the streaming
# JsonWriter / SarifWriter are built from the same functions.

def json_file(r: MatchReport) -> dict[str, Any]:
    d = {"path": r.path, "notation": r.notation, "variant": r.variant, "games": len(r.games),
         "errors": r.errors, "warnings": r.warnings}
    if r.analysis_note:
        d["analysis_note"] = r.analysis_note
    return d


def json_findings(r: MatchReport, explain: bool = False) -> list[dict[str, Any]]:
    out = []
    for f in r.findings:
        d = f.as_dict()
        if explain and f.position is not None:
            d["position"] = {"mover": list(f.position[0]), "opponent": list(f.position[1])}
            if _rules(r).position_id:
                d["position"]["position_id"] = position_id(*f.position)
            d["alternatives"] = f.alternatives
        if f.analysis is not None:
            d["analysis"] = f.analysis
        out.append(d)
    return out


def json_skipped(path: str, reason: str) -> dict[str, Any]:
    return {"path": path, "reason": reason}


def json_unreadable(path: str, message: str) -> dict[str, Any]:
    return {"path": path, "message": message, "reason": unreadable_reason(path, message)}


def json_arg_errors(r: MatchReport) -> list[dict[str, Any]]:
    return [{"path": r.path, "message": m} for m in r.arg_errors]


def to_json(run: RunResult, explain: bool = False) -> dict[str, Any]:
    return {
        "version": JSON_SCHEMA_VERSION,
        "summary": run.summary(),
        "files": [json_file(r) for r in run.reports],
        "findings": [d for r in run.reports for d in json_findings(r, explain)],
        "skipped": [json_skipped(p, why) for p, why in run.skipped],
        "unreadable": [json_unreadable(p, m) for p, m in run.unreadable],
        "argument_errors": [d for r in run.reports for d in json_arg_errors(r)],
    }


def sarif_results(r: MatchReport) -> list[dict[str, Any]]:
    out = []
    for f in r.findings:
        if f.rule == INTERNAL_ERROR:          # not a rule of the game: a tool execution notification
            continue
        out.append({
            "ruleId": f.rule,
            "ruleIndex": _rule_index(f.rule) if f.rule in RULES else -1,
            "level": "error" if f.severity == ERROR else "warning",
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": f.path},
                "region": {"startLine": f.line, "startColumn": f.column},
            }}],
            "properties": {"game": f.game, "move": f.move, "player": f.player},
        })
    return out


_RULE_INDEX: dict[str, int] = {}


def _rule_index(rule: str) -> int:
    if not _RULE_INDEX:
        _RULE_INDEX.update((r, i) for i, r in enumerate(RULES))
    return _RULE_INDEX[rule]


def sarif_notification(level: str, path: str, text: str) -> dict[str, Any]:
    return {"level": level, "message": {"text": text},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": path}}}]}


def _sarif_internal(r: MatchReport) -> list[dict[str, Any]]:
    return [sarif_notification("error", f.path, f"internal-error: {f.message}")
            for f in r.findings if f.rule == INTERNAL_ERROR]


def _sarif_skeleton(results: Any, complete: bool, notifications: Any) -> dict[str, Any]:
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "nardy-analyze", "version": __version__,
                "rules": [{"id": k, "shortDescription": {"text": v}} for k, v in RULES.items()],
            }},
            "results": results,
            "invocations": [{
                "executionSuccessful": complete,
                "toolExecutionNotifications": notifications,
            }],
        }],
    }


def to_sarif(run: RunResult) -> dict[str, Any]:
    """SARIF 2.1.0, for code-scanning tools: one run, the rule ids as the driver's rules."""
    notes = ([sarif_notification("note", p, f"skipped: {why}") for p, why in run.skipped]
             + [sarif_notification("error", p, f"unreadable: {unreadable_reason(p, m)}") for p, m in run.unreadable]
             + [n for r in run.reports for n in _sarif_internal(r)])
    return _sarif_skeleton([x for r in run.reports for x in sarif_results(r)], run.complete, notes)


class _DocumentWriter(Writer):
    """A JSON document written as ``json.dump(doc, out, ensure_ascii=False, indent=1)`` would write it,
    with its long lists filled as the inputs come: each list is made of spools of rendered items (one
    or more, in order), put in place of a marker in the rendered skeleton when the document closes."""

    MARK = "\ue000"

    def __init__(self, out: TextIO, lists: dict[str, tuple[str, ...]], spool_dir: str | None = None) -> None:
        super().__init__(out, spool_dir)
        self.lists = lists                                   # list in the document -> its spools, in order
        self.spools = {name: self._spool() for names in lists.values() for name in names}
        self.indent: dict[str, int] = {}                     # list or spool -> the indent of its items
        for line in self._render().splitlines():             # the depth of each list in the document
            for mark, names in lists.items():
                if f'"{self.marker(mark)}"' in line:
                    self.indent[mark] = len(line) - len(line.lstrip(" ")) + 1
                    self.indent.update(dict.fromkeys(names, self.indent[mark]))

    def marker(self, name: str) -> str:
        return f"{self.MARK}{name}{self.MARK}"

    def _render(self) -> str:
        return json_safe(json.dumps(self.skeleton(), ensure_ascii=False, indent=1))

    def skeleton(self) -> dict[str, Any]:
        raise NotImplementedError

    def add(self, name: str, item: dict[str, Any]) -> None:
        sp = self.spools[name]
        pad = " " * self.indent[name]
        text = json_safe(json.dumps(item, ensure_ascii=False, indent=1))   # no raw newline or control character
        sp.write((",\n" if sp.items else "") + pad + text.replace("\n", "\n" + pad))
        sp.items += 1

    def finish(self) -> None:
        text, out = self._render(), self.out
        pos = 0
        while True:
            i = text.find(f'"{self.MARK}', pos)
            if i < 0:
                break
            j = text.index(f'{self.MARK}"', i + 2)
            mark = text[i + 2:j]
            out.write(text[pos:i])
            full = [self.spools[n] for n in self.lists[mark] if self.spools[n].items]
            if full:
                out.write("[\n")
                for k, sp in enumerate(full):
                    if k:
                        out.write(",\n")
                    sp.copy_to(out)
                out.write("\n" + " " * (self.indent[mark] - 1) + "]")
            else:
                out.write("[]")
            pos = j + 2
        out.write(text[pos:] + "\n")


class JsonWriter(_DocumentWriter):
    """The JSON report (docs/json-report.md), streamed."""

    def __init__(self, out: TextIO, explain: bool = False, spool_dir: str | None = None) -> None:
        self.explain = explain
        super().__init__(out, {name: (name,) for name in ("files", "findings", "skipped", "unreadable",
                                                          "argument_errors")}, spool_dir)

    def skeleton(self) -> dict[str, Any]:
        return {"version": JSON_SCHEMA_VERSION, "summary": self.counts.summary(),
                **{name: self.marker(name) for name in self.lists}}

    def report(self, r: MatchReport) -> None:
        super().report(r)
        self.add("files", json_file(r))
        for d in json_findings(r, self.explain):
            self.add("findings", d)
        for d in json_arg_errors(r):
            self.add("argument_errors", d)

    def skipped(self, path: str, reason: str) -> None:
        super().skipped(path, reason)
        self.add("skipped", json_skipped(path, reason))

    def unreadable(self, path: str, message: str) -> None:
        super().unreadable(path, message)
        self.add("unreadable", json_unreadable(path, message))


class SarifWriter(_DocumentWriter):
    """The SARIF 2.1.0 report, streamed (notifications: skipped, then unreadable, then internal errors)."""

    def __init__(self, out: TextIO, spool_dir: str | None = None) -> None:
        super().__init__(out, {"results": ("results",), "notifications": ("skipped", "unreadable", "internal")},
                         spool_dir)

    def skeleton(self) -> dict[str, Any]:
        return _sarif_skeleton(self.marker("results"), self.counts.complete, self.marker("notifications"))

    def report(self, r: MatchReport) -> None:
        super().report(r)
        for d in sarif_results(r):
            self.add("results", d)
        for d in _sarif_internal(r):
            self.add("internal", d)

    def skipped(self, path: str, reason: str) -> None:
        super().skipped(path, reason)
        self.add("skipped", sarif_notification("note", path, f"skipped: {reason}"))

    def unreadable(self, path: str, message: str) -> None:
        super().unreadable(path, message)
        self.add("unreadable", sarif_notification("error", path, f"unreadable: {unreadable_reason(path, message)}"))


def write_sarif(run: RunResult, out: TextIO) -> None:
    run.feed(SarifWriter(out))


def write_json(run: RunResult, out: TextIO, explain: bool = False) -> None:
    run.feed(JsonWriter(out, explain))
