"""Small builders shared by the tests."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
EXAMPLES = ROOT / "examples"


def load_script(relpath: str, name: str | None = None):
    """A script of the repository (``scripts/x.py``, ``fuzz/campaign.py``: no module of the package) loaded as a
    module, under ``name`` (default: its file's stem)."""
    import importlib.util

    path = ROOT / relpath
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def child_pids() -> set[int]:
    """The child processes of this one, ended or not, as long as they are not waited for (Linux's
    ``/proc/PID/task/TID/children``): other tests may leave some (a Dask cluster's resource tracker), so a test
    compares the set before and after."""
    import os

    out: set[int] = set()
    for name in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
        try:
            out |= {int(x) for x in name.read_text(encoding="ascii").split()}
        except OSError:
            pass
    return out


def side(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    """A side from {point: checkers} in its own numbering (25 or 'bar' via ``bar``)."""
    s = [0] * 25
    for p, n in points.items():
        s[24 if p == 25 else p - 1] += n
    s[24] += bar
    assert sum(s) <= 15, s
    return tuple(s)


def mirror(point: int) -> int:
    """The opponent's number for the mover's point (backgammon): 25 - p."""
    return 25 - point


def unfinished_match(f) -> bool:
    """The warning for a match record that ends, every game complete, before anyone reaches the match
    length (tests/test_consistency.py tests it)."""
    return f.rule == "match-score" and f.severity == "warning" and "before either player reaches" in f.message


def without_unfinished_match(rep):
    """``rep`` without that warning: for tests of other rules on short hand-written excerpts of matches."""
    rep.findings = [f for f in rep.findings if not unfinished_match(f)]
    return rep


# -- the command line, as the tests run it (the ``cli`` fixture of tests/conftest.py) ---------------------------

class CliResult(tuple):
    """What a run of the command line gave: ``exit_code``, ``stdout``, ``stderr`` and ``output`` (what the
    user sees: in process, the two interleaved as written; from a process, stdout then stderr);
    ``returncode`` is ``exit_code``.  A tuple ``(exit_code, stdout, stderr)``: it unpacks and indexes so."""

    def __new__(cls, exit_code: int, stdout: str, stderr: str, output: str | None = None) -> "CliResult":
        self = super().__new__(cls, (exit_code, stdout, stderr))
        self.output = stdout + stderr if output is None else output
        return self

    exit_code = property(lambda self: self[0])
    returncode = exit_code
    stdout = property(lambda self: self[1])
    stderr = property(lambda self: self[2])

    def __repr__(self) -> str:
        return f"CliResult(exit_code={self[0]}, stdout={self[1][-2000:]!r}, stderr={self[2][-2000:]!r})"


class Cli:
    """The command line.  ``cli(*args)`` runs it in this process (typer's ``CliRunner``, the typer app that
    both entry points reach), ``cli.subprocess(*args)`` as a user runs it (``python -m nardy_analyze`` in a
    process of its own, the fast path included).  Arguments are made text (paths welcome).  Either way a
    traceback in the output, or an exception escaping the command (in process), fails the test: bad input
    and failures inside are messages and exit codes."""

    def __call__(self, *args, input: str | bytes | None = None, env: dict[str, str | None] | None = None,
                 encoding: str = "utf-8", errors: str = "replace", check: bool = True) -> CliResult:
        """``env``: variables set while it runs; the output decoded as ``encoding`` (``errors="strict"``:
        bytes that are not fail the test)."""
        from typer.testing import CliRunner

        from nardy_analyze.cli import app

        r = CliRunner(env=env).invoke(app, [str(a) for a in args], input=input, catch_exceptions=not check)
        text = [b.decode(encoding, errors).replace("\r\n", "\n")
                for b in (r.stdout_bytes, r.stderr_bytes, r.output_bytes)]
        result = CliResult(r.exit_code, *text)
        if check:
            assert "Traceback" not in result.output, result.output
        return result

    def subprocess(self, *args, input: str | bytes | None = None, cwd: Path | str = ROOT,
                   env: dict[str, str] | None = None, inherit: bool = True, timeout: float = 300,
                   encoding: str = "utf-8", errors: str = "replace", check: bool = True) -> CliResult:
        """``env``: variables set over the test's environment (``inherit``) or over a bare one (``PATH`` only);
        ``PYTHONPATH`` is this checkout.  The output decoded as ``encoding`` (``errors="strict"``: bytes that
        are not fail the test)."""
        import os
        import subprocess
        import sys

        base = dict(os.environ) if inherit else {"PATH": "/usr/bin:/bin"}
        full = {**base, "PYTHONPATH": str(ROOT), **(env or {})}
        data = input.encode("utf-8") if isinstance(input, str) else input
        p = subprocess.run([sys.executable, "-m", "nardy_analyze", *map(str, args)], input=data, cwd=cwd,
                           env=full, capture_output=True, timeout=timeout)
        result = CliResult(p.returncode, p.stdout.decode(encoding, errors), p.stderr.decode(encoding, errors))
        if check:
            assert "Traceback" not in result.output, result.output
        return result


cli = Cli()
