"""``nardy-analyze convert``: records converted between notations, losslessly or refused with what would
be lost."""
from __future__ import annotations

from typing import Optional

from ..convert import FAILED, REFUSED, SKIPPED, WRITTEN, ConvertError, ConvertRun, convert_paths
from .. import notation
from ..inputs import Skip, skip_kind
from ..i18n import _, ngettext
from .common import Echo, Exit, analysis_depth, echo, fail, progress_bar


def convert(paths: list[str], *, to: str, output: Optional[str], out_dir: Optional[str], force: bool,
            lossy: bool, jobs: Optional[int], verbose: bool, analyse: bool = False, plies: Optional[int] = None,
            echo: Echo = echo) -> None:
    """``nardy-analyze convert``: every option of :data:`nardy_analyze.options.CONVERT` (declared and
    defaulted there), converted; raises :class:`~nardy_analyze.commands.common.Exit`."""
    depth = analysis_depth(analyse, plies, echo)
    if depth is not None and not (to in notation.names() and notation.get(to).writes_analysis):
        fail(_("--analyse writes GNU Backgammon's analysis properties: it needs --to sgf, not --to {to}").format(
            to=to), echo=echo)
    bar = progress_bar()
    try:
        run = convert_paths(paths, to, output, out_dir, force, lossy,
                            progress=bar.step if bar else None, jobs=jobs, analyse=depth)
    except ConvertError as e:
        fail(str(e), echo=echo)
    finally:
        if bar:
            bar.close()
    for o in run.outcomes:
        if o.note:
            echo(_("note: {note}").format(note=o.note), err=True)
        if o.warning:
            echo(_("warning: {warning} (converted as written)").format(warning=o.warning), err=True)
        if o.status == REFUSED:
            echo("nardy-analyze: " + _("refused {source}: {to} cannot hold everything; use --lossy to drop it:")
                 .format(source=o.source, to=to), err=True)
            for m in o.messages:
                echo(f"  {m}", err=True)
        elif o.status == FAILED:
            for m in o.messages:
                echo(f"nardy-analyze: {m}", err=True)
        elif o.dropped:
            echo(_("{source}: --lossy dropped:").format(source=o.source), err=True)
            for m in o.messages:
                echo(f"  {m}", err=True)
        if verbose and o.status == WRITTEN:
            echo(_("{source}: written to {target}").format(
                source=o.source, target="<stdout>" if o.target == "-" else o.target), err=True)
        elif verbose and o.status == SKIPPED:
            echo(_("{source}: skipped: {reason}").format(
                source=o.source, reason=o.messages[0] if o.messages else _("not a game record")), err=True)
    if all(o.status == SKIPPED for o in run.outcomes):          # none at all, or every one skipped
        echo("nardy-analyze: " + _("no record to convert in {paths}").format(paths=", ".join(paths)), err=True)
    echo(summary(run, to, verbose), err=True)
    raise Exit(run.exit_code)


def summary(run: ConvertRun, to: str, verbose: bool) -> str:
    """The last line: ``3 written, 0 refused, 0 failed, 2 skipped (1 already sgf, 1 not a game record;
    --verbose lists them) (to sgf)`` (the files skipped, counted by why, only when there are any)."""
    counts = dict(written=run.count(WRITTEN), refused=run.count(REFUSED), failed=run.count(FAILED), to=to)
    kinds: dict[str, int] = {}                # why -> files, in the order first met
    for o in run.outcomes:
        if o.status == SKIPPED:
            why = skip_kind(o.messages[0]) if o.messages else None
            kind = why.value if why in (Skip.ALREADY, Skip.INSIDE, Skip.ARCHIVE) else "other"
            kinds[kind] = kinds.get(kind, 0) + 1
    if not kinds:
        return _("{written} written, {refused} refused, {failed} failed (to {to})").format(**counts)
    if kinds.get("other") == 1:               # (as it always was: "1 not a game record" comes last)
        kinds["other"] = kinds.pop("other")
    text = {"already": lambda n: _("{n} already {to}").format(n=n, to=to),
            "inside": lambda n: _("{n} inside --out-dir").format(n=n),
            # TRANSLATORS: a kind of skipped files in convert's summary ("2 archives (unpack them ...)")
            "archive": lambda n: ngettext("{n} archive (unpack it to convert the records inside)",
                                          "{n} archives (unpack them to convert the records inside)", n).format(n=n),
            "other": lambda n: ngettext("{n} not a game record", "{n} not game records", n).format(n=n)}
    skipped = ", ".join(text[k](n) for k, n in kinds.items())
    n = sum(kinds.values())
    if verbose:
        return _("{written} written, {refused} refused, {failed} failed, {n} skipped ({kinds}) (to {to})").format(
            n=n, kinds=skipped, **counts)
    return _("{written} written, {refused} refused, {failed} failed, {n} skipped ({kinds}; --verbose lists them) "
             "(to {to})").format(n=n, kinds=skipped, **counts)
