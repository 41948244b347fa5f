"""Render replay results: compiler-style text, one JSON document, explanations with the board."""
from __future__ import annotations

from typing import Any, TextIO

from .. import __version__
from ..i18n import _, ngettext, pgettext, roll_text
from ..replay import ERROR, Finding, MatchReport
# the run's result (nardy_analyze.result, below the report), rendered here; its names stay importable from here
from ..result import INTERNAL_ERROR, RunCounts, RunResult, keep_rules_of  # noqa: F401
from ..rules import RULES
from ..safetext import json_safe, visible

JSON_SCHEMA_VERSION = 1


def unreadable_reason(path: str, message: str) -> str:
    """The message of an unreadable entry without its leading path."""
    return message[len(path) + 2:] if message.startswith(path + ": ") else message


def severity_word(severity: str) -> str:
    """A finding's severity as people read it (the JSON and SARIF reports keep the value itself)."""
    if severity == ERROR:
        return pgettext("severity", "error")
    if severity == "warning":
        return pgettext("severity", "warning")
    return severity


def player_word(number: int) -> str:
    """The name shown for a player the record does not name (``number``: 1 or 2)."""
    # TRANSLATORS: a player the record gives no name, {number} is 1 or 2
    return _("player {number}").format(number=number)


def context_words(f: Finding) -> list[str]:
    """Where in the record a finding is, for people: "game 2", "move 14", the player."""
    ctx = []
    if f.game is not None:
        # TRANSLATORS: where a finding is: the game's number (the record's own Game N)
        ctx.append(_("game {game}").format(game=f.game))
    if f.move is not None:
        # TRANSLATORS: where a finding is: the roll's number in the game (1 = the opening roll), as show --move
        # takes it ("12", or "12.1" for the first later part of a Gul bara turn)
        ctx.append(_("move {move}").format(move=f.address))
    if f.player:
        ctx.append(f.player)
    return ctx


def finding_line(f: Finding) -> str:
    where = f"{f.path}:{f.line}:{f.column}"
    ctx = context_words(f)
    tail = f" [{', '.join(ctx)}]" if ctx else ""
    sev = "" if f.severity == ERROR else f"{severity_word(f.severity)}: "
    return f"{where}: {f.rule}: {sev}{f.message}{tail}"


def dice_text(dice) -> str:
    """A roll as the reports write it: "31", or "3-1-2" for more than two numbers."""
    return roll_text(dice[0], dice[1]) if len(dice) == 2 else "-".join(map(str, dice))


def _roll_of(dice) -> str:
    """A roll written "31" (the analysis' column) as the current language writes it in prose."""
    dice = str(dice)
    return roll_text(dice[0], dice[1]) if len(dice) == 2 else "-".join(dice)


def explain_lines(f: Finding, report: MatchReport | None = None) -> list[str]:
    out = []
    if f.position is not None:
        # TRANSLATORS: the name shown for the other player when the record gives none
        opp_name = _("opponent")
        if report is not None and f.game is not None and f.side is not None:
            g = next((g for g in report.games if g.number == f.game), None)
            if g:
                opp_name = g.players[1 - f.side] or player_word(2 - f.side)
        if f.board_title:
            out.append(f.board_title + ":")
            # TRANSLATORS: the role of the player whose checkers are X in --explain's board
            role = _("declared winner")
        else:
            if f.dice:
                # TRANSLATORS: {dice}: the roll, e.g. 31
                out.append(_("position before the play to play {dice}:").format(dice=dice_text(f.dice)))
            else:
                out.append(_("position before the play:"))
            role = role_to_play()
        # TRANSLATORS: the name shown for the player on roll when the record gives none
        name = f.player or _("mover")
        if f.board_side is not None and report is not None:
            # drawn from another side than the cell's player (the winner's, for results)
            g = next((g for g in report.games if g.number == f.game), None)
            if g:
                names = [g.players[0] or player_word(1), g.players[1] or player_word(2)]
                name, opp_name = names[f.board_side], names[1 - f.board_side]
        from .board import diagram          # the board only when a finding's position is explained
        out += ["  " + ln for ln in diagram(f.position, name, opp_name, role, _rules(report).name)]
    if f.alternatives:
        out.append(_("legal plays include: {plays}").format(plays="; ".join(f.alternatives)))
    return ["    | " + ln for ln in out]


def role_to_play() -> str:
    """The role of the player on roll in a board's legend."""
    # TRANSLATORS: the role of the player on roll in a board's legend ("X = Anna (to play, own numbering)")
    return _("to play")


def grade_word(grade: str) -> str:
    """An analysed decision's grade as people read it ("doubtful", "bad", "very bad"; the CSV and JSON
    columns keep the value itself)."""
    words = {"doubtful": pgettext("decision grade", "doubtful"), "bad": pgettext("decision grade", "bad"),
             "very bad": pgettext("decision grade", "very bad")}
    return words.get(grade, grade)


def cube_action_word(action: str) -> str:
    """A cube action or answer of the analysis as people read it."""
    words = {"double": pgettext("cube action", "double"), "no double": pgettext("cube action", "no double"),
             "take": pgettext("cube action", "take"), "pass": pgettext("cube action", "pass"),
             "too good": pgettext("cube action", "too good"),
             "double, take": pgettext("cube action", "double, take"),
             "double, pass": pgettext("cube action", "double, pass")}
    return words.get(action, action)


def _grade(error: float | None, grade: str) -> str:
    if error is None:
        return ""
    if grade:
        # TRANSLATORS: the equity an analysed decision lost, and its grade ("bad")
        return _(", lost {error} ({grade})").format(error=f"{error:.3f}", grade=grade_word(grade))
    # TRANSLATORS: the equity an analysed decision lost
    return _(", lost {error}").format(error=f"{error:.3f}")


def analysis_lines(a: dict[str, Any]) -> list[str]:
    """``validate --analyse``: the engine's analysis of a finding's turn (``Finding.analysis``), as lines."""
    out = []
    for s in a.get("decisions", []):
        if s["kind"] == "checker":
            part = s.get("part")
            if part == "chain":
                # TRANSLATORS: a later part of a Gul bara turn: the chain's next double, {dice} its numbers
                # ("6-6-6-6"); {plies}: the engine's depth; {moves}: how many legal plays
                head = ngettext("analysis ({plies}-ply): doubles chain {dice} to play, {moves} legal play; "
                                "best plays:",
                                "analysis ({plies}-ply): doubles chain {dice} to play, {moves} legal plays; "
                                "best plays:", s["moves"])
            elif part == "handover":
                # TRANSLATORS: a later part of a Gul bara turn: the numbers handed over to the opponent,
                # {dice} ("4-4-4"); {plies}: the engine's depth; {moves}: how many legal plays
                head = ngettext("analysis ({plies}-ply): handover {dice} to play, {moves} legal play; "
                                "best plays:",
                                "analysis ({plies}-ply): handover {dice} to play, {moves} legal plays; "
                                "best plays:", s["moves"])
            else:
                # TRANSLATORS: {plies}: the engine's depth; {dice}: the roll; {moves}: how many legal plays
                head = ngettext("analysis ({plies}-ply): {dice} to play, {moves} legal play; best plays:",
                                "analysis ({plies}-ply): {dice} to play, {moves} legal plays; best plays:",
                                s["moves"])
            out.append(head.format(plies=a["plies"], dice=_roll_of(s["dice"]), moves=s["moves"]))
            top = s["plays"][0]["equity"] if s["plays"] else 0.0
            for i, p in enumerate(s["plays"], 1):
                diff = f"  ({p['equity'] - top:+.3f})" if i > 1 else ""
                out.append(f"  {i}. {p['play']:<24} {p['equity']:+.3f}{diff}")
            if s["equity_played"] is None:
                out.append("  " + _("played {play}: not a play of this roll (no equity)").format(play=s["played"]))
            else:
                fields = dict(play=s["played"], rank=s["rank"], replayed=s["replayed"],
                              equity=f"{s['equity_played']:+.3f}", lost=_grade(s["error"], s["grade"]))
                if s["replayed"] and s["replayed"] != s["played"].replace("*", ""):
                    if s["rank"]:
                        # TRANSLATORS: {lost}: ", lost 0.123 (bad)" or nothing
                        line = _("played {play}; the replay goes on from {replayed} (rank {rank}): {equity}{lost}")
                    else:
                        line = _("played {play}; the replay goes on from {replayed}: {equity}{lost}")
                elif s["rank"]:
                    # TRANSLATORS: {rank}: the play's place among the engine's; {lost}: ", lost 0.123 (bad)"
                    line = _("played {play} (rank {rank}): {equity}{lost}")
                else:
                    line = _("played {play}: {equity}{lost}")
                out.append("  " + line.format(**fields))
        else:
            nd, dt, dp = s["no_double"], s["double_take"], s["double_pass"]
            lost = _grade(s["error"], s["grade"]) if s["error"] else ""
            if s["kind"] == "double":
                out.append(_("cube decision ({plies}-ply): {action}{lost}; no double {nd}, double/take {dt}, "
                             "double/pass {dp}: best {best}").format(
                    plies=a["plies"], action=cube_action_word(s["action"]), lost=lost, nd=f"{nd:+.3f}",
                    dt=f"{dt:+.3f}", dp=f"{dp:+.3f}", best=cube_action_word(s["best"])))
            else:
                out.append(_("take decision ({plies}-ply): {action}{lost}; take {take}, pass {drop}: "
                             "best {best}").format(
                    plies=a["plies"], action=cube_action_word(s["action"]), lost=lost, take=f"{-dt:+.3f}",
                    drop=f"{-dp:+.3f}", best=cube_action_word(s["best"])))
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


def _dumps(item: Any, **kw: Any) -> str:
    import json              # (here, not at start-up: a text report needs none)
    return json.dumps(item, **kw)


class _Spool:
    """Rendered text kept for later, in memory up to SPOOL_MEMORY bytes and then on disk."""

    def __init__(self, folder: str | None = None) -> None:
        import tempfile          # (here, not at start-up: only the JSON and SARIF reports spool)
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
                    head, _sep, rest = line.partition(f": {f.rule}: ")
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
            # TRANSLATORS: --verbose's line of a record; {games}, {errors}, {warnings}: "3 game(s)"...
            self._records.write(_("{path}: record, {games}, {errors}, {warnings}").format(
                path=visible(r.path), games=games_count(len(r.games)), errors=errors_count(r.errors),
                warnings=warnings_count(r.warnings)) + "\n")

    def skipped(self, path: str, reason: str) -> None:
        super().skipped(path, reason)
        if self._skipped is not None:
            self._skipped.write(visible(_("{path}: skipped: {reason}").format(path=path, reason=reason)) + "\n")

    def unreadable(self, path: str, message: str) -> None:
        super().unreadable(path, message)
        self._unreadable.write(visible(_("{path}: unreadable: {reason}").format(
            path=path, reason=unreadable_reason(path, message))) + "\n")

    def finish(self) -> None:
        out, c = self.out, self.counts
        s = c.summary()
        if self.statistics:
            rows = c.rule_counts()
            width = max((len(r) for r, _s, _n in rows), default=0)
            for rule, severity, n in rows:
                out.write(f"{n:>7}  {rule:<{width}}  {severity_word(severity)}\n")
        for sp in (self._records, self._skipped, self._unreadable):
            if sp is not None:
                sp.copy_to(out)
        if self.statistics:
            verdict = errors_count(s["errors"])
        else:
            # TRANSLATORS: the summary's verdict when no error was found ("3 file(s), ...: no errors, ...")
            verdict = _("no errors") if not s["errors"] else errors_count(s["errors"])
        # TRANSLATORS: the summary line: "2 file(s), 3 game(s), 120 turn(s): no errors, 1 warning(s)"
        line = _("{files}, {games}, {turns}: {verdict}, {warnings}").format(
            files=files_count(s["files"]), games=games_count(s["games"]), turns=turns_count(s["turns"]),
            verdict=verdict, warnings=warnings_count(s["warnings"]))
        out.write((line if self.statistics else self._paint(line, "1")) + "\n")
        if c.skipped:
            kinds = ", ".join(c.skip_kinds)
            if self.verbose:
                text = ngettext("{n} file(s) skipped: {kinds}", "{n} file(s) skipped: {kinds}", c.skipped)
            else:
                text = ngettext("{n} file(s) skipped: {kinds} (--verbose lists them)",
                                "{n} file(s) skipped: {kinds} (--verbose lists them)", c.skipped)
            out.write(text.format(n=c.skipped, kinds=kinds) + "\n")
        if c.unreadable:
            out.write(ngettext("{n} path(s) could not be read", "{n} path(s) could not be read",
                               c.unreadable).format(n=c.unreadable) + "\n")
        if c.internal_errors:
            out.write(ngettext("{n} file(s) not fully checked: internal error (please report it)",
                               "{n} file(s) not fully checked: internal error (please report it)",
                               c.internal_errors).format(n=c.internal_errors) + "\n")


def files_count(n: int) -> str:
    return ngettext("{n} file(s)", "{n} file(s)", n).format(n=n)


def games_count(n: int) -> str:
    return ngettext("{n} game(s)", "{n} game(s)", n).format(n=n)


def turns_count(n: int) -> str:
    return ngettext("{n} turn(s)", "{n} turn(s)", n).format(n=n)


def errors_count(n: int) -> str:
    return ngettext("{n} error(s)", "{n} error(s)", n).format(n=n)


def warnings_count(n: int) -> str:
    return ngettext("{n} warning(s)", "{n} warning(s)", n).format(n=n)


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
                from ..engine.posid import position_id      # (only --explain with a position id)
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
            "properties": {"game": f.game, "move": f.move, "part": f.part, "row": f.row, "player": f.player},
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


def _skipped_text(reason: str) -> str:
    # TRANSLATORS: SARIF's notification of a file left out; {reason}: why
    return _("skipped: {reason}").format(reason=reason)


def _unreadable_text(reason: str) -> str:
    # TRANSLATORS: SARIF's notification of a path that could not be read; {reason}: why
    return _("unreadable: {reason}").format(reason=reason)


def to_sarif(run: RunResult) -> dict[str, Any]:
    """SARIF 2.1.0, for code-scanning tools: one run, the rule ids as the driver's rules."""
    notes = ([sarif_notification("note", p, _skipped_text(why)) for p, why in run.skipped]
             + [sarif_notification("error", p, _unreadable_text(unreadable_reason(p, m))) for p, m in run.unreadable]
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
        return json_safe(_dumps(self.skeleton(), ensure_ascii=False, indent=1))

    def skeleton(self) -> dict[str, Any]:
        raise NotImplementedError

    def add(self, name: str, item: dict[str, Any]) -> None:
        sp = self.spools[name]
        pad = " " * self.indent[name]
        text = json_safe(_dumps(item, ensure_ascii=False, indent=1))   # no raw newline or control character
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
        self.add("skipped", sarif_notification("note", path, _skipped_text(reason)))

    def unreadable(self, path: str, message: str) -> None:
        super().unreadable(path, message)
        self.add("unreadable", sarif_notification("error", path, _unreadable_text(unreadable_reason(path, message))))


def write_sarif(run: RunResult, out: TextIO) -> None:
    run.feed(SarifWriter(out))


def write_json(run: RunResult, out: TextIO, explain: bool = False) -> None:
    run.feed(JsonWriter(out, explain))
