"""A run's result: the findings of every input, the inputs skipped and unreadable, and the running counts.

The runner and the commands build it, the report renders it; it sits below both (docs/architecture.md,
"The layers").
"""
from __future__ import annotations

from dataclasses import field
from typing import Any

from .shapes import dataclass
from . import inputs
from .inputs import INTERNAL_ERROR
from .i18n import _, ngettext
from .replay import ERROR, WARNING, Finding, MatchReport

__all__ = ["INTERNAL_ERROR", "RunCounts", "RunResult", "keep_rules_of", "skip_kind"]


def keep_rules_of(report: MatchReport, select: set[str] | None, ignore: set[str],
                  min_severity: str = "warning") -> None:
    """Drop a report's findings whose rule is not selected or is ignored (``--select`` / ``--ignore``), or
    whose severity is below ``min_severity`` (``--min-severity error``: warnings left out); an
    ``internal-error`` is always kept."""
    errors_only = min_severity == "error"
    if select is None and not ignore and not errors_only:
        return
    report.findings = [f for f in report.findings if f.rule == INTERNAL_ERROR
                       or (select is None or f.rule in select) and f.rule not in ignore
                       and not (errors_only and f.severity != "error")]


class RunCounts:
    """The running totals of a run: what the summary, ``--statistics`` and the exit code need, and
    nothing that grows with the number of files or findings (a count per rule and per kind of skip)."""

    def __init__(self) -> None:
        self.files = self.games = self.turns = self.errors = self.warnings = 0
        self.skipped = self.unreadable = self.internal_errors = self.arg_errors = 0
        self.rules: dict[tuple[str, str], int] = {}
        self.skip_counts: dict[inputs.Skip | str, int] = {}   # kind of skip (inputs.Skip, or the reason) -> files

    def add_report(self, r: MatchReport) -> None:
        self.files += 1
        self.games += len(r.games)
        self.turns += r.turns
        self.arg_errors += len(r.arg_errors)
        for f in r.findings:
            if f.severity == ERROR:
                self.errors += 1
            elif f.severity == WARNING:
                self.warnings += 1
            if f.rule == INTERNAL_ERROR:
                self.internal_errors += 1
            key = (f.rule, f.severity)
            self.rules[key] = self.rules.get(key, 0) + 1

    def add_skipped(self, reason: str) -> None:
        self.skipped += 1
        k: inputs.Skip | str | None = inputs.skip_kind(reason)
        k = k if k in SKIP_KINDS else reason
        self.skip_counts[k] = self.skip_counts.get(k, 0) + 1

    @property
    def skip_kinds(self) -> list[str]:
        """The kinds of the files skipped, in the order met, each worded for its count ("not a game
        record" for one file, "not game records" for several)."""
        return [skip_kind_text(k, n) for k, n in self.skip_counts.items()]

    def add_unreadable(self) -> None:
        self.unreadable += 1

    def summary(self) -> dict[str, int]:
        return {"files": self.files, "games": self.games, "turns": self.turns, "errors": self.errors,
                "warnings": self.warnings, "skipped": self.skipped, "unreadable": self.unreadable,
                "internal_errors": self.internal_errors}

    def rule_counts(self) -> list[tuple[str, str, int]]:
        """(rule, severity, count), most frequent first: for ``--statistics``."""
        return sorted(((r, s, n) for (r, s), n in self.rules.items()), key=lambda t: (-t[2], t[0], t[1]))

    @property
    def complete(self) -> bool:
        """True when every input was read and checked (nothing unreadable, no internal error)."""
        return not self.unreadable and not self.internal_errors


@dataclass
class RunResult:
    """Everything one ``validate`` run produced, kept in memory: every input is in exactly one of the
    three lists.  (The command line does not keep it: it streams each file's report, see :class:`Writer`.)"""

    reports: list[MatchReport] = field(default_factory=list)          # records read (with their findings)
    unreadable: list[tuple[str, str]] = field(default_factory=list)   # (path, message naming the path)
    skipped: list[tuple[str, str]] = field(default_factory=list)      # (path, reason)

    @property
    def arg_errors(self) -> list[tuple[str, str]]:
        """(path, message): ``--rule`` options that do not apply to a record's variant."""
        return [(r.path, m) for r in self.reports for m in r.arg_errors]

    @property
    def findings(self) -> list[Finding]:
        return [f for r in self.reports for f in r.findings]

    def counts(self) -> RunCounts:
        c = RunCounts()
        for r in self.reports:
            c.add_report(r)
        for _, why in self.skipped:
            c.add_skipped(why)
        for _ in self.unreadable:
            c.add_unreadable()
        return c

    def rule_counts(self) -> list[tuple[str, str, int]]:
        """(rule, severity, count), most frequent first: for ``--statistics``."""
        return self.counts().rule_counts()

    def summary(self) -> dict[str, int]:
        return self.counts().summary()

    @property
    def internal_errors(self) -> int:
        return sum(f.rule == INTERNAL_ERROR for f in self.findings)

    @property
    def complete(self) -> bool:
        """True when every input was read and checked (nothing unreadable, no internal error)."""
        return not self.unreadable and not self.internal_errors

    def feed(self, writer: Any) -> Any:
        """Give every input of the run to a streaming writer (``report.Writer``: ``report``, ``skipped``,
        ``unreadable``, ``close``) and close it (the writers group the inputs by kind, so the order of the
        kinds does not matter); returns the writer."""
        for r in self.reports:
            writer.report(r)
        for p, why in self.skipped:
            writer.skipped(p, why)
        for p, msg in self.unreadable:
            writer.unreadable(p, msg)
        writer.close()
        return writer


SKIP_KINDS = (inputs.Skip.RECORD, inputs.Skip.HIDDEN, inputs.Skip.LINK, inputs.Skip.ARCHIVE)


def skip_kind_text(kind: inputs.Skip | str, n: int = 2) -> str:
    """A kind of skipped input (:data:`SKIP_KINDS`, else the reason itself) worded for ``n`` files, for the
    summary: English words it one way ("1 file(s) skipped: not game records"), Russian by the count ("1 файл
    пропущен: не запись партии", "2 файла пропущено: не записи партий")."""
    if kind is inputs.Skip.RECORD:
        # TRANSLATORS: a kind of skipped files in the summary, for {n} such files (English: one form)
        return ngettext("not game records", "not game records", n)
    if kind is inputs.Skip.HIDDEN:
        return ngettext("hidden files", "hidden files", n)
    if kind is inputs.Skip.LINK:
        return ngettext("links to folders", "links to folders", n)
    if kind is inputs.Skip.ARCHIVE:
        # TRANSLATORS: a kind of skipped files in the summary ("2 file(s) skipped: archives (unpack ...)")
        return ngettext("archives (unpack them to read the records inside)",
                        "archives (unpack them to read the records inside)", n)
    return kind


def skip_kind(reason: str) -> str:
    """The kind of a skipped input, for the summary, worded for several files."""
    kind = inputs.skip_kind(reason)
    return skip_kind_text(kind if kind in SKIP_KINDS else reason)
