"""``nardy-analyze validate``: every move of every record replayed against the rules, and the report."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Optional

from ..analyze import iter_validate
from ..engine import RuleSet, UnknownVariant, get_variant
from ..fsio import OutputError, Progress, write_atomically
from ..i18n import _, ngettext
from ..inputs import SKIPPED, UNREADABLE
from ..report import INTERNAL_ERROR, JsonWriter, RunCounts, SarifWriter, TextWriter, Writer, keep_rules_of
from ..rules import RULES
from .common import Echo, Exit, analysis_depth, cluster_failed, connect, echo, fail, progress_bar


def rule_ids(items: list[str], option: str, echo: Echo = echo) -> set[str]:
    """The rule ids of ``--select`` or ``--ignore`` (comma-separated, repeatable); an unknown one ends the
    command (exit 2)."""
    ids = {x.strip() for item in items for x in item.split(",") if x.strip()}
    unknown = sorted(ids - set(RULES))
    if unknown:
        # TRANSLATORS: {option} is --select or --ignore, {ids} the rule ids (not translated)
        fail(_("{option}: unknown rule id(s) {ids}; 'nardy-analyze rules' lists them").format(
            option=option, ids=", ".join(unknown)), echo=echo)
    return ids


def validate(paths: list[str], *, format: str, explain: bool, variant: str, rule: list[str],
             output: Optional[Path], color: Optional[bool], jobs: Optional[int], engine: Optional[str],
             scheduler: Optional[str], select: list[str], ignore: list[str], statistics: bool,
             max_file_size: float, verbose: bool, rules: Optional[str] = None, analyse: bool = False,
             plies: Optional[int] = None, min_severity: Optional[str] = None, echo: Echo = echo) -> None:
    """``nardy-analyze validate``: every option of :data:`nardy_analyze.options.VALIDATE` (declared and
    defaulted there), converted; raises :class:`~nardy_analyze.commands.common.Exit`."""
    try:
        variant = get_variant(variant).name
        options = RuleSet.from_command_line(list(rule), rules)
    except (UnknownVariant, ValueError) as e:
        fail(str(e), echo=echo)
    chosen = rule_ids(list(select), "--select", echo) if select else None
    ignored = rule_ids(list(ignore), "--ignore", echo)
    if output is not None and output.is_dir():      # say so before the work, not after it
        fail(_("cannot write the report to {output}: it is a folder (-o takes a file name)").format(output=output),
             echo=echo)

    depth = analysis_depth(analyse, plies, echo, engine_needed=False)
    cluster = connect(engine, scheduler, jobs, echo=echo)
    bar = progress_bar()
    max_bytes = int(max_file_size * 1024 * 1024)
    tty = output is None and sys.stdout.isatty()
    use_color = bool(color if color is not None else (tty and not os.environ.get("NO_COLOR")))
    style = (format, explain, use_color, verbose, statistics, variant, options, depth)

    def run_into(fh, spool_dir: str | None = None) -> RunCounts:
        """Validate, writing the report as each file comes."""
        writer = _writer(fh, spool_dir, *style)
        results = iter_validate(paths, variant, options, progress=bar.step if bar else None, jobs=jobs,
                                max_bytes=max_bytes, engine=cluster, analyse=depth)
        return _report(writer, results, bar, chosen, ignored, echo, min_severity or "warning")

    try:
        if output is None:
            counts = run_into(sys.stdout)
            sys.stdout.flush()
        else:
            box: list[RunCounts] = []
            write_atomically(output, lambda fh: box.append(run_into(fh, str(output.parent))))
            counts = box[0]
    except OutputError as e:
        fail(str(e), echo=echo)
    except BrokenPipeError:                        # the reader went away (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise Exit(141)
    except Exception as e:
        cluster_failed(e, echo)
    finally:
        if bar:
            bar.close()
        if cluster is not None:
            cluster.close()
    _end(counts, paths, echo)


def _writer(fh, spool_dir: str | None, format: str, explain: bool, color: bool, verbose: bool,
            statistics: bool, variant: str, options: dict[str, Any], analyse: Optional[int] = None) -> Writer:
    """The report's writer of ``--format``."""
    if format == "html":
        from ..report.html import HtmlWriter        # (the HTML page's code: imported when it is asked for)
        return HtmlWriter(fh, spool_dir, variant, options, analyse)
    if format == "json":
        return JsonWriter(fh, explain, spool_dir)
    if format == "sarif":
        return SarifWriter(fh, spool_dir)
    return TextWriter(fh, explain, color, verbose, statistics, spool_dir)


def _report(writer: Writer, results, bar: Optional[Progress], chosen: Optional[set[str]], ignored: set[str],
            echo: Echo, min_severity: str = "warning") -> RunCounts:
    """Write each of ``results`` (:func:`nardy_analyze.analyze.iter_validate`) as it comes, the internal
    errors, wrong arguments and unreadable paths also on standard error; the counts of the report."""
    try:
        for kind, path, value in results:
            if bar and (kind == UNREADABLE or kind == "ok" and (value.findings or value.arg_errors)):
                bar.close()                    # clear the bar's line before anything is written
            if kind == "ok":
                if chosen is not None or ignored or min_severity != "warning":
                    keep_rules_of(value, chosen, ignored, min_severity)
                for f in value.findings:
                    if f.rule == INTERNAL_ERROR:
                        echo(f"nardy-analyze: {f.path}: {f.message}", err=True)
                for why in value.arg_errors:
                    echo(f"nardy-analyze: {path}: {why}", err=True)
                writer.report(value)
            elif kind == SKIPPED:
                writer.skipped(path, value)
            else:
                echo(f"nardy-analyze: {value}", err=True)
                writer.unreadable(path, value)
        if bar:
            bar.close()
        writer.close()
    finally:
        results.close()                        # (interrupted: the worker processes stop now)
        writer.discard()
    return writer.counts


def _end(counts: RunCounts, paths: list[str], echo: Echo) -> None:
    """The exit code of the run: 2 when something could not be read or checked, or no record was found;
    1 when a record breaks a rule or cannot be parsed; else 0."""
    if not counts.complete or counts.arg_errors:
        raise Exit(2)
    if not counts.files:
        where = ", ".join(paths)
        if counts.skipped:
            # TRANSLATORS: {kinds}: the kinds of files skipped ("not game records, archives (unpack ...)")
            fail(ngettext("no game records found in {paths} ({n} file(s) skipped: {kinds})",
                          "no game records found in {paths} ({n} file(s) skipped: {kinds})",
                          counts.skipped).format(paths=where, n=counts.skipped, kinds=", ".join(counts.skip_kinds)),
                 echo=echo)
        fail(_("no game records found in {paths}").format(paths=where), echo=echo)
    raise Exit(1 if counts.errors else 0)
