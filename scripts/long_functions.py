"""The longest classes and functions of a source tree (lines from ``def``/``class`` to the end of its body).

    python3 scripts/long_functions.py [ROOT] [--top N] [--over LINES] [--only PATH_PART ...]

ROOT defaults to ``nardy_analyze`` of this checkout; ``--only`` keeps the files whose path contains one of
the given parts (``replay/``, ``engine/judge.py``).  Nested functions count within their parent and on
their own.  A maintenance aid: the project keeps functions under about 80 lines.
"""
from __future__ import annotations

import argparse
import ast
from pathlib import Path


def spans(root: Path):
    """(lines, kind, "path:line name") of every class and function under ``root``."""
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                kind = "class" if isinstance(node, ast.ClassDef) else "def"
                where = f"{path.relative_to(root.parent)}:{node.lineno} {node.name}"
                yield node.end_lineno - node.lineno + 1, kind, where


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root", nargs="?", default=str(Path(__file__).resolve().parent.parent / "nardy_analyze"))
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--over", type=int, default=0, help="only those longer than this many lines")
    ap.add_argument("--only", nargs="*", default=[])
    args = ap.parse_args()
    rows = [r for r in spans(Path(args.root)) if r[0] > args.over
            and (not args.only or any(o in r[2] for o in args.only))]
    for kind in ("class", "def"):
        print(f"{'classes' if kind == 'class' else 'functions'}:")
        for n, _, where in sorted((r for r in rows if r[1] == kind), reverse=True)[:args.top]:
            print(f"  {n:5d}  {where}")


if __name__ == "__main__":
    main()
