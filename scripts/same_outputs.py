#!/usr/bin/env python3
"""Check that two checkouts of nardy-analyze give the same outputs, byte for byte, on a corpus.

    git archive bb43755 | (mkdir -p /tmp/before && tar -x -C /tmp/before)
    python3 scripts/same_outputs.py /tmp/before [--other .] [--corpus ../shared/corpus] [--jobs N]
                                    [--only convert,validate,stats,show,help,generate,analyze]
                                    [--pure before|other]

    python3 scripts/same_outputs.py . --pure other      # the compiled core against the pure-Python engine

Runs, with each checkout: ``convert --to T`` for every target (mat, sgf, json, ngn) of the whole corpus
(the files written beside the inputs), of each of its sub-folders with ``--out-dir``, and of each
sub-folder with ``--lossy``; ``validate`` in every format (text, json, sarif, html), with
``--statistics`` and with ``--explain -v``; ``stats`` in every ``--by`` (player, game, match) and every
format (table, csv, json, markdown to standard output, parquet with ``-o``), of the whole corpus, of
and of generated games (all and each variant) (``--generated`` files of 7 games per variant,
written by this checkout's generator with players under several spellings of the same names, so that
the names are normalised across files), and with ``--alias``, ``--sort``, ``-j 1`` and a file named
twice; ``validate`` in every format and ``convert`` to every target of the generated games too;
``show`` in every ``--as`` (final position, and game 1 before its third roll) of a sample of the corpus'
files and of the generated ones; every command's ``--help``; with ``generate``, 200 and 20 games of each generated variant; with
``analyze``, two ``.mat`` files of each corpus folder and one generated file per variant at ``--plies 0``.
Compares standard output, standard error, the exit code and every file in the tree afterwards.
Prints the differences (none: exit 0).

Each run works in a scratch folder where ``../shared/corpus`` is a fresh copy of the corpus, so the
paths in the messages are the same for both checkouts and nothing is written in the real corpus; the
command runs as ``python3 -m nardy_analyze`` from there with ``PYTHONPATH`` set to the checkout (run
from the checkout's own root, ``-m`` would load the package of the current folder whatever
``PYTHONPATH`` says).  Takes a few minutes per checkout for the shared corpus.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ("sgf", "mat", "json", "ngn")
FORMATS = ("text", "json", "sarif", "html")
STATS_FORMATS = ("table", "csv", "json", "markdown", "parquet")
SHOW_AS = ("text", "gnubg", "xgid", "svg", "html")
COMMANDS = ("validate", "convert", "show", "stats", "analyze", "generate", "rules")
# generated inputs: variant, rule options, and the players' spellings (cycled over the files)
GENERATED = (("backgammon", {}), ("backgammon", {"scoring": "nardy500"}), ("long", {}),
             ("long", {"koks": True}), ("gulbara", {}))
SPELLINGS = (("Anna Petrova", "Boris"), ("anna  petrova,1650", "BORIS"), ("Anna Petrova", "Vera"),
             ("Boris", "vera ,1702"), ("ANNA PETROVA", "Vera"))


def _generate(folder: Path, files: int) -> None:
    """``files`` files of 7 games per variant of GENERATED, with this checkout's generator."""
    sys.path.insert(0, str(ROOT))
    from nardy_analyze.generate import generate_match
    from nardy_analyze.notation import get as notation

    for v, (variant, options) in enumerate(GENERATED):
        sub = folder / f"{variant}-{v}"
        sub.mkdir(parents=True)
        for i in range(files):
            names = SPELLINGS[i % len(SPELLINGS)]
            match = generate_match(variant, 7, 1000 * v + i, names, dict(options))
            (sub / f"g{i:03d}.ngn").write_text(notation("ngn").write(match), encoding="utf-8")


def _tree(root: Path) -> dict[str, str]:
    if not root.is_dir():
        return {}
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _runs(corpus: Path, jobs: list[str], only: set[str], generated: Path | None = None
          ) -> list[tuple[str, list[str], str]]:
    """(name, arguments, the folder whose files are compared afterwards: "corpus" or "out")."""
    subs = sorted(p.name for p in corpus.iterdir() if p.is_dir() and not p.name.startswith("."))
    runs = []
    if "convert" in only:
        for t in TARGETS:
            runs.append((f"convert-{t}", ["convert", "--to", t, *jobs, "../shared/corpus"], "corpus"))
            for s in subs:
                runs.append((f"convert-{t}-{s}", ["convert", "--to", t, *jobs, "--out-dir", "../out",
                                                  f"../shared/corpus/{s}"], "out"))
                runs.append((f"convert-{t}-{s}-lossy", ["convert", "--to", t, "--lossy", *jobs,
                                                        f"../shared/corpus/{s}"], "corpus"))
    if "convert" in only and generated is not None:
        for t in TARGETS:
            for g in sorted(generated.iterdir()):
                runs.append((f"convert-{t}-generated-{g.name}", ["convert", "--to", t, *jobs, "--out-dir", "../out",
                                                                 f"../shared/generated/{g.name}"], "out"))
    if "validate" in only and generated is not None:
        for f in FORMATS:
            runs.append((f"validate-{f}-generated", ["validate", "-f", f, *jobs, "../shared/generated"], ""))
    if "show" in only:
        files = [str(p) for s in subs for p in sorted((corpus / s).rglob("*"))[:40:8] if p.is_file()
                 and p.suffix in (".mat", ".sgf", ".json", ".ngn", ".txt")]
        if generated is not None:
            files += [str(p) for g in sorted(generated.iterdir()) for p in sorted(g.iterdir())[:2]]
        for i, path in enumerate(files):
            rel = "../shared/" + str(Path(path).relative_to(corpus.parent if path.startswith(str(corpus))
                                                            else generated.parent))
            for how in SHOW_AS:
                runs.append((f"show-{i}-{how}", ["show", "--as", how, rel], ""))
                runs.append((f"show-{i}-{how}-g1m3", ["show", "--as", how, "-g", "1", "-m", "3", rel], ""))
    if "generate" in only:
        for variant, options in GENERATED:
            rules = [x for k, v in options.items() for x in ("--rule", f"{k}={'on' if v is True else v}")]
            tag = "-".join([variant, *options])
            runs.append((f"generate-{tag}", ["generate", "--variant", variant, "-n", "200", "--seed", "7",
                                             *rules, "-o", f"../out/{tag}.ngn"], "out"))
            runs.append((f"generate-{tag}-stdout", ["generate", "--variant", variant, "-n", "20", "--seed", "11",
                                                    *rules], ""))
    if "analyze" in only:
        files = [str(p.relative_to(corpus.parent)) for s in subs for p in sorted((corpus / s).rglob("*.mat"))[:2]]
        if generated is not None:
            files += [str(p.relative_to(generated.parent)) for g in sorted(generated.iterdir())
                      for p in sorted(g.iterdir())[:1]]
        for i, path in enumerate(files):
            runs.append((f"analyze-{i}", ["analyze", "--plies", "0", "-f", "csv", "-j", "1", "../shared/" + path], ""))
    if "help" in only:
        runs.append(("help", ["--help"], ""))
        for c in COMMANDS:
            runs.append((f"help-{c}", [c, "--help"], ""))
    if "validate" in only:
        for f in FORMATS:
            runs.append((f"validate-{f}", ["validate", "-f", f, *jobs, "../shared/corpus"], ""))
        runs.append(("validate-statistics", ["validate", "--statistics", *jobs, "../shared/corpus"], ""))
        runs.append(("validate-explain", ["validate", "--explain", "-v", *jobs, "../shared/corpus"], ""))
    if "stats" in only:
        inputs = [("corpus", "../shared/corpus")]
        if generated is not None:
            inputs.append(("generated", "../shared/generated"))
            inputs += [(f"generated-{g.name}", f"../shared/generated/{g.name}") for g in sorted(generated.iterdir())]
        for name, path in inputs:
            for by in ("player", "game", "match"):
                for f in STATS_FORMATS:
                    out = ["-o", "../out/table.parquet"] if f == "parquet" else []
                    runs.append((f"stats-{name}-{by}-{f}", ["stats", "--by", by, "-f", f, *out, *jobs, path],
                                 "out" if out else ""))
        for by in ("player", "game", "match"):
            runs.append((f"stats-corpus-{by}-j1", ["stats", "--by", by, "-f", "csv", "-j", "1", "../shared/corpus"],
                         ""))
            one = "../shared/corpus/gnubg-selfplay/gnubg_1909.mat"
            runs.append((f"stats-file-named-twice-{by}", ["stats", "--by", by, "-f", "csv", *jobs, one, one], ""))
            if generated is None:
                continue
            runs.append((f"stats-generated-{by}-alias-sort", [
                "stats", "--by", by, "-f", "csv", "--alias", "vera=Boris", "--alias", "anna petrova=Anna P.",
                "--sort", "points" if by == "game" else "games" if by == "player" else "score1", *jobs,
                "../shared/generated"], ""))
    return runs


def run_all(code: Path, corpus: Path, jobs: list[str], scratch: Path, only: set[str],
            generated: Path | None = None, pure: bool = False) -> dict[str, tuple]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    env.pop("NARDY_ANALYZE_PURE", None)
    if pure:
        env["NARDY_ANALYZE_PURE"] = "1"
    out: dict[str, tuple] = {}
    for name, args, compare in _runs(corpus, jobs, only, generated):
        shutil.rmtree(scratch, ignore_errors=True)
        (scratch / "wt").mkdir(parents=True)
        (scratch / "out").mkdir()
        if compare or name.startswith("convert"):
            shutil.copytree(corpus, scratch / "shared" / "corpus", symlinks=True)
        else:                      # nothing is written beside the inputs: a link to them will do
            (scratch / "shared").mkdir()
            os.symlink(corpus, scratch / "shared" / "corpus")
        if generated is not None:
            os.symlink(generated, scratch / "shared" / "generated")
        r = subprocess.run([sys.executable, "-m", "nardy_analyze", *args], cwd=scratch / "wt",
                           capture_output=True, env=env)
        files = _tree(scratch / ("shared/corpus" if compare == "corpus" else "out")) if compare else {}
        out[name] = (r.returncode, r.stdout, r.stderr, files)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before", help="the other checkout (e.g. unpacked with git archive)")
    ap.add_argument("--other", default=str(ROOT), help="the checkout compared with it (default: this one)")
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--jobs", "-j", help="-j for every command (default: the command's default)")
    ap.add_argument("--only", default="convert,validate,stats,show,help",
                    help="the commands compared (comma-separated; help: every command's --help; also "
                         "generate and analyze)")
    ap.add_argument("--pure", choices=("before", "other"),
                    help="run that side with NARDY_ANALYZE_PURE=1 (the pure-Python engine): with the same "
                         "checkout on both sides, the compiled core against its Python reference")
    ap.add_argument("--generated", type=int, default=40,
                    help="generated files of 7 games per variant for stats (0: none)")
    a = ap.parse_args()
    corpus = Path(a.corpus).resolve()
    jobs = ["-j", a.jobs] if a.jobs else []
    only = set(a.only.split(","))
    scratch = Path(tempfile.mkdtemp(prefix="nardy-same-"))
    generated = None
    try:
        if only & {"stats", "convert", "validate", "show", "analyze"} and a.generated:
            generated = scratch / "generated"
            _generate(generated, a.generated)
        results = [run_all(Path(c).resolve(), corpus, jobs, scratch / "run", only, generated, a.pure == side)
                   for c, side in ((a.before, "before"), (a.other, "other"))]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    before, after = results
    bad = 0
    for name in before:
        b, o = before[name], after[name]
        what = [w for w, x, y in zip(("exit code", "standard output", "standard error", "files"), b, o) if x != y]
        if what:
            bad += 1
            print(f"DIFFERENT {name}: {', '.join(what)}")
            if b[3] != o[3]:
                changed = sorted(k for k in set(b[3]) | set(o[3]) if b[3].get(k) != o[3].get(k))
                print("  files: " + ", ".join(changed[:10]) + (" ..." if len(changed) > 10 else ""))
        else:
            print(f"same      {name}: exit {b[0]}, {len(b[1])} bytes out, {len(b[2])} bytes err, {len(b[3])} files")
    print(f"{len(before) - bad} of {len(before)} runs the same")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
