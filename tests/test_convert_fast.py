"""``convert`` made fast (issue 10) keeps what it writes: one replay per record, files over worker processes
(``-j``), notation modules loaded on demand, the JSON writer's own encoder.  No timings here (bench/)."""
from __future__ import annotations

import ast
import json
import math
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from helpers import CORPUS, ROOT, child_pids
from nardy_analyze import analyze, notation; from nardy_analyze.replay import normal
from nardy_analyze.convert import FAILED, SKIPPED, WRITTEN, convert_paths
from nardy_analyze.notation import jsonfmt
from nardy_analyze.convert import write_text

GOOD = (ROOT / "tests" / "test_convert.py").read_text(encoding="utf-8").split('GOOD = """', 1)[1].split('"""', 1)[0]
TARGETS = ("mat", "sgf", "json", "ngn")


def _fork_only() -> None:
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the injected failure reaches the workers by fork only")


def _inputs(root: Path, copies: int = 6) -> list[str]:
    """Inputs of every kind of outcome: a folder (with a sub-folder) of clean records, one that breaks the
    rules (a warning), a .txt that is no record (skipped); and, named, a record with clock times (refused
    by .mat; named, so that it is converted whatever the target) and a file with no game (failed)."""
    src = root / "in"
    (src / "sub").mkdir(parents=True)
    for i in range(copies):
        (src / ("sub" if i % 2 else ".") / f"m{i}.mat").write_text(
            GOOD.replace("Alice", f"Alice{i}"), encoding="utf-8")
    (src / "bad.mat").write_text(GOOD.replace("42: 8/4 6/4", "42: 8/4 6/3"), encoding="utf-8")
    m = notation.read_text(GOOD, "c.mat")
    m.games[0].actions[0].clock = 12.5
    (root / "clock.json").write_text(write_text(m, "json"), encoding="utf-8")
    (src / "notes.txt").write_text("shopping list\n", encoding="utf-8")
    (root / "empty.mat").write_text("nothing here\n", encoding="utf-8")
    return [str(src), str(root / "clock.json"), str(root / "empty.mat")]


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its path relative to it (``--out-dir`` mirrors sub-folders)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _view(run) -> list[tuple]:
    return [(o.source, o.target and Path(o.target).name, o.status, o.messages, o.warning, o.dropped)
            for o in run.outcomes]


# ----------------------------------------------------------------------------- -j 2 = -j 1


@pytest.mark.parametrize("to", TARGETS)
def test_jobs_two_and_one_write_the_same_files_and_outcomes(tmp_path, to):
    src = _inputs(tmp_path)
    runs = {}
    for jobs in (1, 2):
        runs[jobs] = convert_paths(src, to, out_dir=str(tmp_path / f"j{jobs}"), jobs=jobs, lossy=True)
    assert _view(runs[1]) == _view(runs[2])
    assert _files(tmp_path / "j1") == _files(tmp_path / "j2")
    statuses = [o.status for o in runs[1].outcomes]
    assert statuses.count(WRITTEN) == 8 and statuses.count(FAILED) == 1 and statuses.count(SKIPPED) == 1
    assert len(_files(tmp_path / "j1")) == 8


def test_the_workers_start_before_the_run_is_planned_and_end_with_it(tmp_path, monkeypatch):
    """With worker processes, they are started before the inputs are walked and the outputs checked (they
    import the replay and the writer meanwhile), and none is left after the run."""
    _fork_only()
    from nardy_analyze import convert

    src = _inputs(tmp_path)
    before = child_pids()
    during = []
    real = convert._plan
    monkeypatch.setattr(convert, "_plan", lambda *a: (during.append(child_pids() - before), real(*a))[1])
    run = convert_paths(src, "sgf", out_dir=str(tmp_path / "out"), jobs=2)
    assert [len(d) for d in during] == [2]
    assert [o.status for o in run.outcomes].count(WRITTEN) == 8
    assert child_pids() <= before


@pytest.mark.parametrize("stop", [KeyboardInterrupt, "clash"])
def test_a_run_stopped_while_it_is_planned_leaves_no_worker_and_no_file(tmp_path, monkeypatch, stop):
    _fork_only()
    from nardy_analyze import convert

    before = child_pids()
    if stop == "clash":        # two named files written to one output: refused before anything is written
        for d in ("a", "b"):
            (tmp_path / d).mkdir()
            (tmp_path / d / "m.mat").write_text(GOOD, encoding="utf-8")
        paths = [str(tmp_path / "a" / "m.mat"), str(tmp_path / "b" / "m.mat")]
        with pytest.raises(convert.ConvertError, match="nothing was written"):
            convert_paths(paths, "sgf", output=None, out_dir=str(tmp_path / "out"), jobs=2)
    else:
        src = _inputs(tmp_path)

        def interrupted(*a):
            assert len(child_pids() - before) == 2
            raise KeyboardInterrupt

        monkeypatch.setattr(convert, "_plan", interrupted)
        with pytest.raises(KeyboardInterrupt):
            convert_paths(src, "sgf", out_dir=str(tmp_path / "out"), jobs=2)
    assert child_pids() <= before
    assert not (tmp_path / "out").exists() or not _files(tmp_path / "out")


@pytest.mark.slow
def test_the_command_process_plans_and_reports_without_the_replay(tmp_path):
    """``convert -j 2``: the command's own process walks the inputs, plans the outputs and reports; only its
    workers import the replay, the engine and the writer."""
    src = _inputs(tmp_path)
    code = ("import sys\n"
            "from nardy_analyze.commands import body\n"
            "from nardy_analyze.commands.common import Exit\n"
            "from nardy_analyze.fastcli import parse\n"
            "from nardy_analyze.options import COMMANDS, defaults\n"
            "command, kwargs = parse(sys.argv[1:])\n"
            "try:\n"
            "    body(command)(**{**defaults(COMMANDS[command]), **kwargs})\n"
            "except Exit:\n"
            "    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('nardy_analyze')), file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-c", code, "convert", *src, "--to", "sgf", "-j", "2", "--out-dir",
                        str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True)
    mods = set(ast.literal_eval(r.stderr.strip().splitlines()[-1]))
    assert len(_files(tmp_path / "out")) == 8, r.stderr
    assert "nardy_analyze.convert" in mods
    assert not mods & {"nardy_analyze.replay", "nardy_analyze.engine", "nardy_analyze.notation.sgf",
                       "nardy_analyze.notation.mat"}, mods


@pytest.mark.slow
def test_jobs_two_and_one_through_the_command(tmp_path):
    src = _inputs(tmp_path)
    out = {}
    for jobs in ("1", "2"):
        r = subprocess.run([sys.executable, "-m", "nardy_analyze", "convert", *src, "--to", "mat", "-j", jobs,
                            "--out-dir", str(tmp_path / f"j{jobs}")], cwd=ROOT, capture_output=True, text=True)
        out[jobs] = (r.returncode, r.stdout, r.stderr.replace(str(tmp_path / f"j{jobs}"), "OUT"))
    assert out["1"] == out["2"]
    code, _, err = out["1"]
    assert code == 1 and "Traceback" not in err
    assert err.splitlines()[-1] == \
        "7 written, 1 refused, 1 failed, 1 skipped (1 not a game record; --verbose lists them) (to mat)"
    assert "refused" in err and "clock times" in err and "warning:" in err
    assert _files(tmp_path / "j1") == _files(tmp_path / "j2")


@pytest.mark.slow
def test_jobs_two_and_one_on_the_corpus(tmp_path):
    folder = CORPUS / "gnubg-selfplay"
    if not folder.exists():
        pytest.skip(f"shared corpus not present: {folder}")
    files = sorted(str(p) for p in folder.glob("*.mat"))[:40]
    for to in ("sgf", "mat"):
        runs = [convert_paths(files, to, out_dir=str(tmp_path / f"{to}{j}"), jobs=j) for j in (1, 2)]
        assert _view(runs[0]) == _view(runs[1]) and runs[0].count(WRITTEN) == 40
        assert _files(tmp_path / f"{to}1") == _files(tmp_path / f"{to}2")


# ----------------------------------------------------------------------------- failures in a worker


def _write_failing_on(names: dict[str, str]):
    """The real SGF notation whose writer raises (``"raise"``) or kills its process (``"die"``) on the
    records whose first player is named in ``names``."""
    real = notation.get("sgf")

    def write(match, normal):
        what = names.get(match.games[0].players[0])
        if what == "raise":
            raise RuntimeError("disk on fire")
        if what == "die":
            os._exit(9)
        return real.write(match, normal)

    return notation.Notation(real.name, real.suffixes, real.sniff, real.read, write,
                             real.ambiguous_suffixes, real.losses, real.needs_replay)


@pytest.mark.parametrize("how", ["raise", "die"])
def test_a_failure_in_one_worker_leaves_nothing_half_written(tmp_path, monkeypatch, how):
    _fork_only()
    src = _inputs(tmp_path, copies=10)
    clean = convert_paths(src, "sgf", out_dir=str(tmp_path / "clean"), jobs=1)
    monkeypatch.setitem(notation._REGISTRY, "sgf", _write_failing_on({"Alice3": how}))
    run = convert_paths(src, "sgf", out_dir=str(tmp_path / "out"), jobs=2)
    bad = [o for o in run.outcomes if o.source.endswith("m3.mat")]
    assert [o.status for o in bad] == [FAILED]
    assert ("disk on fire" if how == "raise" else "worker process stopped") in bad[0].messages[0]
    written = _files(tmp_path / "out")
    assert "sub/m3.sgf" not in written and not [n for n in written if n.endswith(".tmp")]
    want = _files(tmp_path / "clean")
    del want["sub/m3.sgf"]
    assert written == want                           # every other file whole, as a clean run writes it
    others = [(a.source, a.status) for a, b in zip(clean.outcomes, run.outcomes) if b is not bad[0]]
    assert others == [(b.source, b.status) for b in run.outcomes if b is not bad[0]]
    assert bad[0].internal and run.exit_code == 2    # a bug of nardy-analyze: an internal error, exit code 2


def test_existing_outputs_fail_before_the_run_and_the_others_are_written(tmp_path):
    src = _inputs(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "m2.sgf").write_text("mine\n", encoding="utf-8")     # m2.mat is at the top of the folder
    run = convert_paths(src, "sgf", out_dir=str(out), jobs=2)
    kept = [o for o in run.outcomes if o.source.endswith("m2.mat")][0]
    assert kept.status == FAILED and kept.messages == [f"{out / 'm2.sgf'} exists; use --force to overwrite it"]
    assert (out / "m2.sgf").read_text(encoding="utf-8") == "mine\n"
    assert run.count(WRITTEN) == 7 and run.exit_code == 1
    run = convert_paths(src, "sgf", out_dir=str(out), jobs=2, force=True)
    assert run.count(WRITTEN) == 8 and (out / "m2.sgf").read_text(encoding="utf-8").startswith("(;FF[4]GM[6]")


# ----------------------------------------------------------------------------- one replay per record


@pytest.mark.parametrize("to", TARGETS)
def test_each_record_is_replayed_once(tmp_path, monkeypatch, to):
    src = _inputs(tmp_path)
    calls = []
    real = normal.replay

    def counting(match, *args, **kwargs):
        calls.append(match.path)
        return real(match, *args, **kwargs)

    monkeypatch.setattr(normal, "replay", counting)
    monkeypatch.setattr(analyze, "replay", counting)
    run = convert_paths(src, to, out_dir=str(tmp_path / "out"), jobs=1, lossy=True)
    converted = [o.source for o in run.outcomes if o.status == WRITTEN]
    assert sorted(calls) == sorted(converted) and len(calls) == 8


def test_the_warning_is_the_first_finding_of_validate(tmp_path):
    src = _inputs(tmp_path)
    bad = str(Path(src[0]) / "bad.mat")
    rep = analyze.validate_paths([bad]).reports[0]
    first = min((f for f in rep.findings if f.severity == "error"), key=lambda f: (f.line, f.column))
    for to in TARGETS:
        run = convert_paths([bad], to, out_dir=str(tmp_path / to))
        assert run.outcomes[0].warning == f"{first.path}:{first.line}:{first.column}: {first.rule}: {first.message}"


# ----------------------------------------------------------------------------- the registry loads on demand


def test_the_builtin_table_says_what_the_modules_register():
    for b in notation.BUILTIN:                   # every module imported (each registers itself)
        notation.get(b.name)
    assert notation.names()[:len(notation.BUILTIN)] == [b.name for b in notation.BUILTIN]
    from nardy_analyze.notation import sniffs
    for b in notation.BUILTIN:
        n = notation.get(b.name)
        assert sys.modules[f"nardy_analyze.notation.{b.module}"]
        assert (n.name, n.suffixes, n.ambiguous_suffixes) == (b.name, b.suffixes, b.ambiguous)
        assert (b.target is not None) == (n.write is not None)     # a --to choice has a writer
        assert n.loose_sniff == b.loose
        if b.sniff is not None:          # the sniff asked without the module is the one the module registers
            assert n.sniff is getattr(sniffs, b.sniff)
    assert notation.targets()[:4] == TARGETS
    assert notation.record_suffixes() == (".mat", ".txt", ".ngn", ".sgf", ".json")
    with pytest.raises(KeyError, match="known: mat, ngn, sgf, json"):
        notation.get("pdf")


def _imported(*args: str, cwd: Path = ROOT) -> set[str]:
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "nardy_analyze", *args], cwd=cwd,
                       capture_output=True, text=True)
    assert "Traceback" not in r.stderr, r.stderr
    return {line.split("|")[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}


HEAVY = {"pandas", "matplotlib", "scipy", "nardy_analyze.stats"}


def test_help_imports_no_reader_engine_or_table_library():
    mods = _imported("--help")
    ours = {m for m in mods if m.startswith("nardy_analyze")}
    assert ours <= {"nardy_analyze", "nardy_analyze.cli", "nardy_analyze.fsio", "nardy_analyze.notation",
                    "nardy_analyze.notation.sniffs",      # (three regular expressions, no reader)
                    "nardy_analyze.record", "nardy_analyze.__main__", "nardy_analyze.fastcli",
                    "nardy_analyze.shapes",               # (the dataclass decorator the record model uses)
                    # the table of options and the command bodies' common part (no reader, no engine)
                    "nardy_analyze.options", "nardy_analyze.commands", "nardy_analyze.commands.common",
                    "nardy_analyze.safetext",
                    # the messages' language (the standard library's gettext only), typer's messages in it
                    "nardy_analyze.i18n", "nardy_analyze.typertext"}, ours
    assert not mods & (HEAVY | {"lark"})


def test_a_txt_file_of_match_text_is_sniffed_without_the_other_notations_modules(tmp_path):
    """A ``.txt`` file (its suffix does not say its notation) is sniffed by the other notations' light sniffs:
    validating Jellyfish match text imports neither the ``.ngn`` module (nor Lark), nor the SGF or JSON one;
    files of those notations named ``.txt`` are still read as what they are."""
    src = tmp_path / "m.txt"        # (every row of it the compiled or regular-expression rows: no Lark)
    src.write_bytes((ROOT / "examples" / "club-night.mat").read_bytes())
    mods = _imported("validate", str(src))
    assert "nardy_analyze.notation.mat" in mods
    assert not mods & {"lark", "nardy_analyze.notation.ngn", "nardy_analyze.notation.sgf",
                       "nardy_analyze.notation.jsonfmt"}
    match = notation.read_text(GOOD, "m.mat")
    for to in ("ngn", "sgf", "json"):
        text = write_text(match, to)
        other = tmp_path / f"as-{to}.txt"
        other.write_text(text, encoding="utf-8")
        r = subprocess.run([sys.executable, "-m", "nardy_analyze", "validate", "--format", "json", str(other)],
                           cwd=ROOT, capture_output=True, text=True)
        assert json.loads(r.stdout)["files"][0]["notation"] == to, r.stdout[:500]


def test_convert_imports_only_the_notations_it_uses(tmp_path):
    src = tmp_path / "m.mat"
    src.write_text(GOOD, encoding="utf-8")
    mods = _imported("convert", str(src), "--to", "sgf", "-o", str(tmp_path / "m.sgf"))
    assert {"nardy_analyze.notation.mat", "nardy_analyze.notation.sgf"} <= mods
    assert not mods & (HEAVY | {"nardy_analyze.notation.ngn", "nardy_analyze.notation.jsonfmt", "rich.markdown",
                                "nardy_analyze.notation.sgf_analysis"})      # (the analysis's: --analyse alone)
    assert (tmp_path / "m.sgf").read_text(encoding="utf-8").startswith("(;FF[4]GM[6]")


def test_the_readers_and_writers_start_without_importlib_resources():
    """The grammars are read as files beside the package: ``importlib.resources`` (and the ``tempfile``,
    ``shutil``, compression modules it imports) stays off every command's start.  Looked at without the site
    hooks (``-S``: a machine's ``.pth`` files may import it themselves)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import nardy_analyze.fastcli, nardy_analyze.convert, "
            "nardy_analyze.notation.sgf, nardy_analyze.notation.mat; "
            "print(sorted(m for m in ('importlib.resources', 'tempfile', 'shutil') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-S", "-c", code, str(ROOT)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr


def test_grammars_are_found_installed_and_in_a_checkout(tmp_path, monkeypatch):
    from nardy_analyze.notation import grammar
    text = (ROOT / "grammars" / "mat.lark").read_text(encoding="utf-8")
    grammar.grammar_text.cache_clear()
    assert grammar.grammar_text("mat") == text                      # this checkout: grammars/ at the top
    installed = tmp_path / "site" / "nardy_analyze"
    (installed / "notation").mkdir(parents=True)
    (installed / "grammars").mkdir()
    (installed / "grammars" / "mat.lark").write_text("installed", encoding="utf-8")
    monkeypatch.setattr(grammar, "__file__", str(installed / "notation" / "grammar.py"))
    grammar.grammar_text.cache_clear()
    try:
        assert grammar.grammar_text("mat") == "installed"           # an installation: the package's grammars/
        with pytest.raises(FileNotFoundError, match="sgf.lark"):
            grammar.grammar_text("sgf")
    finally:
        grammar.grammar_text.cache_clear()


def test_common_mat_records_are_read_and_converted_without_lark(tmp_path):
    """Lark is loaded only for text the fast rows do not take (start-up): a record of common rows (a roll
    never played, "64: ????", among them) is validated and converted without it; a row of another kind
    ("64: Illegal play") loads it and reads as before."""
    common = GOOD.replace("64: ????", "64: 24/20 13/11")
    src = tmp_path / "m.mat"
    src.write_text(common, encoding="utf-8")
    for args in (["validate", str(src)], ["convert", str(src), "--to", "sgf", "-o", str(tmp_path / "m.sgf")]):
        mods = _imported(*args)
        assert "nardy_analyze.notation.mat" in mods
        assert "lark" not in mods, args
    code = ("import sys; from nardy_analyze.notation import mat; "
            "m = mat.read(sys.stdin.read(), 'x.mat'); "
            "print('lark' in sys.modules, len(m.games), [str(p.loc) + ' ' + p.message for g in m.games "
            "for p in g.problems])")

    def read(text: str) -> str:
        r = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 0, r.stderr
        return r.stdout.strip()

    assert read(common) == "False 2 []"
    assert read(GOOD) == "False 2 []"
    assert read(GOOD.replace("64: ????", "64: Illegal play")) == "True 2 []"
    out = read(common.replace("Doubles => 2", "Doubles => two"))
    assert out.startswith("True 2 ['10:45 ")              # the grammar's message, where it was
    assert "expected the cube value" in out and '"two"' in out


def test_mat_grammar_is_built_once_on_first_use():
    from nardy_analyze.notation import mat

    parser, unexpected = mat.grammar()
    assert mat.grammar()[0] is parser            # built once, then kept
    from lark.exceptions import UnexpectedInput
    assert unexpected is UnexpectedInput
    tree, error = mat.parse("  1) junk!\n", "row")
    assert tree is None and isinstance(error, UnexpectedInput)
    assert not hasattr(mat, "PARSER")            # no module attribute made at run time


# ----------------------------------------------------------------------------- the JSON writer's encoder

_scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
            | st.text())
_json_like = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                          | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(_json_like)
def test_json_encoder_writes_what_json_dumps_writes(doc):
    assert jsonfmt._dumps(doc) == json.dumps(doc, ensure_ascii=False, indent=1)


def test_json_encoder_edge_values():
    for doc in ({}, [], {"a": []}, [{}], -0.0, math.inf, -math.inf, "\u2028\x00\"\\é", {"k": (1, [2, (3,)])}):
        assert jsonfmt._dumps(doc) == json.dumps(doc, ensure_ascii=False, indent=1)
    deep: list = []
    cur = deep
    for _ in range(100):                       # deeper than the encoder goes: the json module writes it
        cur.append([])
        cur = cur[0]
    with pytest.raises(jsonfmt._Other):
        jsonfmt._dumps(deep)
    for doc in ({1: 2}, {"x": {3}}):           # what only the json module knows (or refuses)
        with pytest.raises(jsonfmt._Other):
            jsonfmt._dumps(doc)


def test_orphan_temporary_files_of_a_killed_worker_are_swept(tmp_path):
    """A worker killed while writing leaves its ``.NAME.XXXX.tmp``; the run removes those of its own
    targets (and nothing else: not another name's, not an older one)."""
    import time as _time

    from nardy_analyze.convert import _sweep_orphans

    since = _time.time()
    orphan = tmp_path / ".m6.sgf.ab12cd_3.tmp"
    orphan.write_text("")
    other = tmp_path / ".notours.sgf.zz99.tmp"
    other.write_text("")
    old = tmp_path / ".m7.sgf.old0.tmp"
    old.write_text("")
    os.utime(old, (since - 3600, since - 3600))
    keep = tmp_path / "m6.sgf"
    keep.write_text("(;)")
    _sweep_orphans([str(tmp_path / "m6.sgf"), str(tmp_path / "m7.sgf")], since)
    assert not orphan.exists() and other.exists() and old.exists() and keep.read_text() == "(;)"
