"""``nardy-analyze convert``: records converted between notations, losslessly or refused with what would
be lost."""
from __future__ import annotations

from typing import Optional

from ..convert import FAILED, REFUSED, SKIPPED, WRITTEN, ConvertError, convert_paths, skipped_summary
from ..fsio import Progress
from .common import Echo, Exit, analysis_depth, echo, fail


def convert(paths: list[str], *, to: str, output: Optional[str], out_dir: Optional[str], force: bool,
            lossy: bool, jobs: Optional[int], verbose: bool, analyse: bool = False, plies: Optional[int] = None,
            echo: Echo = echo) -> None:
    """``nardy-analyze convert``: every option of :data:`nardy_analyze.options.CONVERT` (declared and
    defaulted there), converted; raises :class:`~nardy_analyze.commands.common.Exit`."""
    depth = analysis_depth(analyse, plies, echo)
    if depth is not None and to != "sgf":
        fail(f"--analyse writes GNU Backgammon's analysis properties: it needs --to sgf, not --to {to}", echo=echo)
    bar = Progress.on_terminal()
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
            echo(f"note: {o.note}", err=True)
        if o.warning:
            echo(f"warning: {o.warning} (converted as written)", err=True)
        if o.status == REFUSED:
            echo(f"nardy-analyze: refused {o.source}: {to} cannot hold everything; use --lossy to "
                 "drop it:", err=True)
            for m in o.messages:
                echo(f"  {m}", err=True)
        elif o.status == FAILED:
            for m in o.messages:
                echo(f"nardy-analyze: {m}", err=True)
        elif o.dropped:
            echo(f"{o.source}: --lossy dropped:", err=True)
            for m in o.messages:
                echo(f"  {m}", err=True)
        if verbose and o.status == WRITTEN:
            echo(f"{o.source}: written to {'<stdout>' if o.target == '-' else o.target}", err=True)
        elif verbose and o.status == SKIPPED:
            echo(f"{o.source}: skipped: {o.messages[0] if o.messages else 'not a game record'}", err=True)
    skipped = skipped_summary(run)
    if all(o.status == SKIPPED for o in run.outcomes):          # none at all, or every one skipped
        echo(f"nardy-analyze: no record to convert in {', '.join(paths)}", err=True)
    echo(f"{run.count(WRITTEN)} written, {run.count(REFUSED)} refused, {run.count(FAILED)} failed"
         + (f", {skipped}" + ("" if verbose else "; --verbose lists them") + ")" if skipped else "")
         + f" (to {to})", err=True)
    raise Exit(run.exit_code)
