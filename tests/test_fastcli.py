"""``python3 -m nardy_analyze`` reads a plain ``validate`` / ``convert`` command line without typer
(:mod:`nardy_analyze.fastcli`, issue 10: start-up).  What it accepts, it must run exactly as the typer command
line does: the same output, messages, files and exit code; everything else goes to typer.  No timings here
(bench/)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from helpers import CORPUS, EXAMPLES, ROOT
from nardy_analyze import fastcli

# the typer command line itself (cli.run tries the fast path first)
TYPER = "import sys; from nardy_analyze.cli import app; sys.argv[0] = 'nardy-analyze'; app()"
FAST = "import sys; from nardy_analyze.fastcli import run; sys.argv[0] = 'nardy-analyze'; run()"


def _run(code: str, args: list[str], cwd: Path, stdin: str | None = None) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    if "--scheduler" in args:               # an unreachable scheduler: 1 s to give up, not Dask's 10 s
        env["NARDY_ANALYZE_DASK_TIMEOUT"] = "1"
    r = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True,
                       input=stdin, env=env)
    return r.returncode, r.stdout, r.stderr


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _same(tmp_path: Path, args: list[str], setup=None, stdin: str | None = None) -> tuple[int, str, str]:
    """Run ``args`` through typer and through the fast path, each in a fresh copy of the same folder;
    assert the same exit code, output, messages and files."""
    results = []
    for name, code in (("typer", TYPER), ("fast", FAST)):
        work = tmp_path / name
        work.mkdir(parents=True)
        shutil.copytree(EXAMPLES, work / "examples")
        if setup:
            setup(work)
        got = _run(code, args, work, stdin)
        results.append((got, _tree(work)))
    (typer_out, typer_files), (fast_out, fast_files) = results
    assert fast_out == typer_out, args
    assert fast_files == typer_files, args
    return fast_out


def _bad_record(work: Path) -> None:
    text = (work / "examples" / "club-night.mat").read_text(encoding="utf-8")
    (work / "bad.mat").write_text(text.replace("Wins", "Winz", 1), encoding="utf-8")
    (work / "notes.txt").write_text("no record here\n", encoding="utf-8")


@pytest.mark.parametrize("args", [
    ["validate", "examples"],
    ["validate", "examples", "--statistics", "-j", "2"],
    ["validate", "-f", "json", "--explain", "examples", "bad.mat"],
    ["validate", "--format=sarif", "examples/club-night.mat", "missing.mat"],
    ["validate", "-v", "--select", "result-mismatch,parse-error", ".", "-j", "1"],
    ["validate", "--ignore", "result-mismatch", "--rule", "crawford=off", "--no-color", "bad.mat"],
    ["validate", "--rule", "nosuch=1", "bad.mat"],
    ["validate", "--select", "no-such-rule", "bad.mat"],
    ["validate", "--variant", "long", "--max-file-size", "0.001", "examples"],
    ["validate", "-o", "report.html", "--format", "html", "examples"],
    ["validate", "-o", "examples", "examples"],
    ["validate", "notes.txt"],
    ["validate", "--scheduler", "tcp://127.0.0.1:1", "examples"],
    ["convert", "--to", "sgf", "examples"],
    ["convert", "examples", "-t", "json", "--out-dir", "out", "-j", "2"],
    ["convert", "--to=mat", "-d", "out", "examples", "bad.mat", "notes.txt", "missing.mat"],
    ["convert", "--to", "ngn", "-o", "-", "examples/club-night.mat"],
    ["convert", "--to", "mat", "examples"],
    ["convert", "--to", "sgf", "-o", "one.sgf", "examples"],
    ["convert", "--to", "mat", "--lossy", "--force", "-d", "out", "examples"],
])
@pytest.mark.slow
def test_fast_path_runs_as_typer_does(tmp_path, args):
    assert fastcli.parse(args) is not None, args          # these are read by the fast path
    _same(tmp_path, args, _bad_record)


@pytest.mark.parametrize("args", [
    ["validate", "-j", "0", "examples"],
    ["validate", "-j2", "examples"],
    ["validate", "--format", "JSON", "examples"],
    ["validate", "--max-file-size", "0", "examples"],
    ["validate", "--help"],
    ["validate"],
    ["validate", "--", "examples"],
    ["validate", "--explain=yes", "examples"],
    ["validate", "-ev", "examples"],
    ["validate", "--frmat", "json", "examples"],
    ["validate", "--rule", "-x", "examples"],
    ["convert", "examples"],
    ["convert", "--to", "pdf", "examples"],
    ["convert", "--to"],
    ["rules"],
    ["--version"],
    [],
])
@pytest.mark.slow
def test_what_the_fast_path_does_not_read_goes_to_typer(tmp_path, args):
    assert fastcli.parse(args) is None, args
    code, out, err = _run("import runpy, sys; sys.argv[0] = 'nardy-analyze'; "
                          "runpy.run_module('nardy_analyze', run_name='__main__')", args, tmp_path)
    typer = _run(TYPER, args, tmp_path)
    assert (code, out, err) == typer


def test_the_console_script_takes_the_fast_path_too(tmp_path):
    """``nardy-analyze`` (``cli.run``) runs what the fast path reads through it (typer is imported by then,
    the option parsing and the interpreter's clean-up are saved) and the rest through typer."""
    text = (EXAMPLES / "club-night.mat").read_text(encoding="utf-8")
    script = "import sys; from nardy_analyze.cli import run; sys.argv[0] = 'nardy-analyze'; run()"
    for args in (["validate", "-"], ["validate", "-j0", "-"], ["convert", "--to", "sgf", "-o", "-", "-"]):
        assert _run(script, args, tmp_path, text) == _run(TYPER, args, tmp_path, text)


def test_the_fast_path_imports_neither_typer_nor_click(tmp_path):
    src = tmp_path / "m.mat"
    shutil.copy(EXAMPLES / "club-night.mat", src)
    for args in (["validate", str(src)], ["convert", "--to", "sgf", "-o", str(tmp_path / "m.sgf"), str(src)]):
        r = subprocess.run([sys.executable, "-X", "importtime", "-m", "nardy_analyze", *args], cwd=ROOT,
                           capture_output=True, text=True)
        mods = {line.split("|")[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
        assert "nardy_analyze.commands" in mods
        assert not mods & {"typer", "click", "rich"}, args
    assert (tmp_path / "m.sgf").read_text(encoding="utf-8").startswith("(;FF[4]GM[6]")


def test_standard_input_and_output(tmp_path):
    text = (EXAMPLES / "club-night.mat").read_text(encoding="utf-8")
    for args in (["validate", "-"], ["convert", "--to", "sgf", "-o", "-", "-"]):
        assert fastcli.parse(args) is not None
        _same(tmp_path / args[0], args, stdin=text)


@pytest.mark.slow
@pytest.mark.skipif(not (CORPUS / "mutants").is_dir(), reason="the shared corpus (../shared/corpus) is absent")
def test_the_mutants_corpus_through_both(tmp_path):
    def setup(work: Path) -> None:
        shutil.copytree(CORPUS / "mutants", work / "mutants")
    _same(tmp_path / "v", ["validate", "-f", "json", "mutants"], setup)
    _same(tmp_path / "c", ["convert", "--to", "sgf", "-d", "out", "-j", "2", "mutants"], setup)


_OPTION_WORDS = ["--format", "-f", "json", "text", "--explain", "-e", "--rule", "crawford=off", "-j", "2", "0",
                 "--jobs=1", "--to", "-t", "sgf", "mat", "-o", "-", "--out-dir", "out", "--force", "--lossy",
                 "--statistics", "--max-file-size", "1.5", "-v", "--verbose", "--no-color", "--color",
                 "--select", "--ignore", "x.mat", "--", "-x", "--to=json", "--format=html", "--engine",
                 "local", "dask", "--help", "-h"]


@settings(max_examples=300, deadline=None)
@example(command="validate", words=["json", "-o", "json"])      # a path value (typer makes it a Path)
@given(command=st.sampled_from(["validate", "convert"]), words=st.lists(st.sampled_from(_OPTION_WORDS),
                                                                         max_size=8))
def test_what_the_fast_path_reads_click_reads_the_same_way(command, words):
    """Every command line the fast path takes, click parses to the same parameters (the typer command's
    own parser, without running it)."""
    parsed = fastcli.parse([command, *words])
    if parsed is None:
        return
    from nardy_analyze.cli import app
    from typer.main import get_command

    cmd = get_command(app).commands[command]
    ctx = cmd.make_context(command, list(words), resilient_parsing=False)
    params = dict(ctx.params)
    name, kwargs = parsed
    assert name == command
    for key, value in kwargs.items():
        got = params[key]
        if hasattr(got, "value"):                         # an Enum
            got = got.value
        if isinstance(got, tuple):
            got = list(got)
        if isinstance(value, Path):                       # typer turns click's string into a Path for the body
            got = Path(got)
        assert got == value, (key, words)
    for key, value in params.items():                     # what the fast path leaves out is the default
        if key not in kwargs:
            assert getattr(value, "value", value) in (None, False, [], (), "backgammon", 64, "text"), \
                (key, value, words)


@pytest.mark.parametrize("command", ["validate", "convert"])
def test_the_fast_path_knows_every_option_of_the_typer_command(command):
    """The fast path reads exactly the typer command's options (each spelling), with the same parameter
    names: both are built from the one table of nardy_analyze.options."""
    from nardy_analyze.cli import app
    from typer.main import get_command

    cmd = get_command(app).commands[command]
    typer_opts = {}
    for p in cmd.params:
        if p.param_type_name != "option":
            continue
        for spelling in (*p.opts, *p.secondary_opts):
            if spelling not in ("--help", "-h"):
                typer_opts[spelling] = p.name
    assert {k: o.param for k, o in fastcli._TABLES[command].items()} == typer_opts
