"""The command line's layout: cli.py declares the commands, each body is a module of nardy_analyze.commands
imported when its command runs; the stats modules (layer 4) do not import the jobs that run the pool."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from nardy_analyze import commands, stats, statsrun
from nardy_analyze.cli import app
from nardy_analyze.stats import skill

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "nardy_analyze"


def test_every_declared_command_has_its_body_in_a_module_of_its_own():
    declared = set(typer.main.get_group(app).commands)
    assert declared == set(commands.NAMES)
    for name in commands.NAMES:
        body = commands.body(name)
        assert body.__module__ == f"nardy_analyze.commands.{name}" and body.__name__ == name
    with pytest.raises(KeyError):
        commands.body("common")


def test_cli_imports_no_command_body_until_one_runs():
    code = ("import sys, nardy_analyze.cli; "
            "print(sorted(m for m in sys.modules if m.startswith('nardy_analyze.commands.')))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "['nardy_analyze.commands.common']"


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module imported, inside a function) of every import of ``path``, resolved to absolute names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    if path.name == "__init__.py":
        package = package.rsplit(".", 1)[0] + ".__init__"
    inner = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
             for n in ast.walk(f) if n is not f}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            names = [f"{mod}.{a.name}" for a in node.names] if not node.module else [mod]
            out += [(n, id(node) in inner) for n in names]
        elif isinstance(node, ast.Import):
            out += [(a.name, id(node) in inner) for a in node.names]
    return out


JOBS = ("nardy_analyze.analyze", "nardy_analyze.runner", "nardy_analyze.cluster", "nardy_analyze.statsrun",
        "nardy_analyze.commands", "nardy_analyze.cli", "nardy_analyze.fastcli", "nardy_analyze.convert")


@pytest.mark.parametrize("path", sorted((PKG / "stats").glob("*.py")), ids=lambda p: p.name)
def test_the_stats_modules_do_not_import_the_jobs(path):
    """None of them, the package's ``__init__`` included, at module level or inside a function."""
    for mod, inside in _imports(path):
        assert not mod.startswith(JOBS), (path.name, mod, inside)


def test_the_jobs_over_files_are_statsruns_where_the_docs_show_them():
    jobs = ("scan", "Scan", "games", "players", "matches", "frame", "iter_frames", "iter_games", "analyse",
            "decisions", "decision_frames")
    assert set(jobs) <= set(statsrun.__all__) and all(callable(getattr(statsrun, name)) for name in jobs)
    assert not [name for name in jobs if hasattr(stats, name)]  # the layer-4 package hands out no job
    assert not hasattr(skill, "analyse")                         # a layer-4 module: no job over files
    with pytest.raises(AttributeError):
        stats.no_such_name
