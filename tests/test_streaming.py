"""``validate`` streams (issue 10, memory): each file's report is written as it comes and then
dropped, the worker processes get a bounded window of files, the documents are those of the in-memory
renderers byte for byte, and ``-o`` is still written whole or not at all.

Memory is checked by counting the live report objects (``gc``), not by timing or RSS: the RSS at
10 MB, 100 MB and 1 GB of input is measured by ``bench/bench_memory.py``.
"""
from __future__ import annotations

import gc
import io
import json
import multiprocessing
import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from helpers import EXAMPLES, ROOT

from nardy_analyze import inputs
from nardy_analyze import analyze, report, runner
from nardy_analyze.inputs import RECORD, SKIPPED, Entry
from nardy_analyze.analyze import iter_validate, map_records, validate_paths
from nardy_analyze.generate import generate_match
from nardy_analyze.report.html import HtmlWriter
from nardy_analyze.notation import get as notation
from nardy_analyze.replay import MatchReport
from nardy_analyze.report import (
    JsonWriter,
    SarifWriter,
    TextWriter,
    to_json,
    to_sarif,
    write_text,
)

BAD = (EXAMPLES / "club-night.mat").read_bytes()          # 4 findings
GOOD = (ROOT / "tests" / "fixtures" / "selfplay" / "selfplay_0101_1pt.mat").read_bytes()


def many_files(root: Path, n: int) -> Path:
    """``n`` generated records (three variants, distinct seeds) in sub-folders of 10, every 7th a copy
    of a record with findings, and a .txt that is not a record in each sub-folder."""
    variants = ("backgammon", "long", "gulbara")
    for i in range(n):
        sub = root / f"part{i // 10:03d}"
        sub.mkdir(parents=True, exist_ok=True)
        if i % 10 == 0:
            (sub / "notes.txt").write_text("the club's shopping list\n", encoding="utf-8")
        if i % 7 == 3:
            (sub / f"bad{i:04d}.mat").write_bytes(BAD)
            continue
        m = generate_match(variants[i % 3], 1, i, ("Aysel", "Timur"))
        (sub / f"gen{i:04d}.ngn").write_text(notation("ngn").write(m), encoding="utf-8")
    return root


def live_reports() -> int:
    gc.collect()
    return sum(type(o) is MatchReport for o in gc.get_objects())


def make_writer(fmt: str, out: io.StringIO):
    if fmt == "html":
        return HtmlWriter(out)
    if fmt == "json":
        return JsonWriter(out, explain=True)
    if fmt == "sarif":
        return SarifWriter(out)
    return TextWriter(out, explain=True, verbose=True)


def feed(writer, kind: str, path: str, value) -> None:
    if kind == "ok":
        writer.report(value)
    elif kind == SKIPPED:
        writer.skipped(path, value)
    else:
        writer.unreadable(path, value)


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "html"])
def test_a_streamed_run_keeps_no_report(tmp_path, monkeypatch, fmt):
    """However many files, at most a couple of reports are alive at any time of a streamed run (the
    spools on disk from the first byte, as they are past SPOOL_MEMORY)."""
    monkeypatch.setattr(report, "SPOOL_MEMORY", 1)
    folder = many_files(tmp_path / "in", 60)
    before = live_reports()
    out = io.StringIO()
    writer = make_writer(fmt, out)
    alive, seen = [], 0
    for kind, path, value in iter_validate([str(folder)], jobs=1):
        feed(writer, kind, path, value)
        seen += kind == "ok"
        if seen % 10 == 5:
            alive.append(live_reports() - before)
    del value
    writer.close()
    assert seen == 60
    assert max(alive) <= 3, alive                    # the one in hand and the generators' own
    # what was streamed is what the in-memory renderer writes from the whole run
    run = validate_paths([str(folder)], jobs=1)
    assert live_reports() - before >= 60             # (the counting does see kept reports)
    whole = io.StringIO()
    run.feed(make_writer(fmt, whole))
    assert out.getvalue() == whole.getvalue()
    if fmt == "html":
        page = out.getvalue()
        assert page.count("<h2>") == 60 and page.count('class="finding"') == 4 * 9
        assert "<td>60</td>" in page.split("</table>")[0]
    elif fmt != "text":
        doc = json.loads(out.getvalue())
        if fmt == "json":
            assert doc == json.loads(json.dumps(to_json(run, explain=True)))
            assert doc["summary"]["files"] == 60 and doc["summary"]["skipped"] == 6
        else:
            assert doc == json.loads(json.dumps(to_sarif(run)))
            assert len(doc["runs"][0]["results"]) == 4 * 9


class _Counted:
    """The entries of a folder, counting how many the consumer has pulled so far."""

    def __init__(self, entries):
        self._it = iter(entries)
        self.pulled = 0

    def __iter__(self):
        return self

    def __next__(self):
        e = next(self._it)
        self.pulled += 1
        return e


def test_the_worker_window_is_bounded(tmp_path):
    """With worker processes, the entries are read a bounded window ahead of the results (not all
    submitted at once, as Executor.map does)."""
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("worker start-up by fork keeps this test short")
    for i in range(400):
        (tmp_path / f"g{i:04d}.mat").write_bytes(GOOD)
    entries = _Counted(inputs.discover([str(tmp_path)]))
    it = map_records(entries, analyze._validate_one, ("backgammon", None), jobs=2)
    first = next(it)
    assert first[1] == "ok" and first[0].path.endswith("g0000.mat")
    window = 2 * runner.AHEAD * runner.CHUNK
    assert entries.pulled <= window + 2 * runner.CHUNK + 32, entries.pulled
    n = 1
    for _entry, kind, _value in it:
        assert kind == "ok"
        n += 1
        if n == 200:
            assert entries.pulled <= 200 + window + 2 * runner.CHUNK, entries.pulled
    assert n == 400 and entries.pulled == 400


def test_one_process_reads_entries_as_it_goes(tmp_path):
    for i in range(100):
        (tmp_path / f"g{i:03d}.mat").write_bytes(GOOD)
    entries = _Counted(inputs.discover([str(tmp_path)]))
    it = map_records(entries, lambda e, m: len(m.games), jobs=1)
    next(it)
    assert entries.pulled <= 32                       # the look-ahead that chooses the number of workers
    assert sum(1 for _ in it) == 99


def test_standard_input_among_many_files_is_read_in_this_process(tmp_path, monkeypatch):
    """``-`` after 40 files (workers chosen) is still read, in its turn, from this process's input."""
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("fork start method")
    for i in range(40):
        (tmp_path / f"g{i:03d}.mat").write_bytes(GOOD)

    class In:
        buffer = io.BytesIO(BAD)

    monkeypatch.setattr(inputs.sys, "stdin", In)
    paths = [str(tmp_path / f"g{i:03d}.mat") for i in range(20)] + ["-"] + \
        [str(tmp_path / f"g{i:03d}.mat") for i in range(20, 40)]
    got = [(path, kind, value) for kind, path, value in iter_validate(paths, jobs=2)]
    assert [p for p, _, _ in got] == [os.path.join(str(tmp_path), f"g{i:03d}.mat") for i in range(20)] + \
        ["<stdin>"] + [os.path.join(str(tmp_path), f"g{i:03d}.mat") for i in range(20, 40)]
    assert got[20][2].errors == 4 and all(not v.findings for _, _, v in got[:20] + got[21:])


def test_progress_total_is_known_before_the_first_file(tmp_path):
    """The total is every file to read, known before the first: the 12 records and the two ``.txt`` files
    (one per sub-folder), which are judged by their start as they are read and then skipped."""
    many_files(tmp_path, 12)
    calls = []
    kinds = []
    for kind, _path, _value in iter_validate([str(tmp_path)], jobs=1,
                                              progress=lambda p, d, t: calls.append((d, t))):
        kinds.append(kind)
    assert [d for d, _ in calls] == list(range(1, 15)) and {t for _, t in calls} == {14}
    assert kinds.count("skipped") == 2 and kinds.count("ok") == 12


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_output_file_is_whole_or_untouched_when_the_run_fails(tmp_path, monkeypatch, fmt, cli):
    """The report is written as the files come into a temporary file beside -o; a failure half-way
    (here: the disk fills up after a few files) leaves the old file as it was and no temporary file."""
    folder = many_files(tmp_path / "in", 20)
    target = tmp_path / "out" / "report.txt"
    target.parent.mkdir()
    target.write_text("the old report\n")
    cls = {"text": TextWriter, "json": JsonWriter, "sarif": SarifWriter}[fmt]
    real = cls.report
    calls = 0

    def failing(self, r):
        nonlocal calls
        calls += 1
        if calls == 5:
            raise OSError(28, "No space left on device")
        return real(self, r)

    monkeypatch.setattr(cls, "report", failing)
    code, out, err = cli("validate", "-f", fmt, "-o", target, folder)
    assert code == 2 and "No space left on device" in err and str(target) in err
    assert "Traceback" not in err
    assert target.read_text() == "the old report\n"
    assert os.listdir(target.parent) == ["report.txt"]
    monkeypatch.setattr(cls, "report", real)
    code, out, err = cli("validate", "-f", fmt, "-o", target, folder)
    assert code == 1 and out == ""
    text = target.read_text()
    assert "the old report" not in text
    code, direct, _ = cli("validate", "-f", fmt, folder)
    assert text == direct


def test_a_file_over_the_limit_in_a_folder_of_many(tmp_path, cli):
    """One file over --max-file-size among many: one clear message naming the limit and the option
    (stderr, the report's unreadable list), every other file validated, exit 2."""
    folder = many_files(tmp_path / "in", 20)
    big = folder / "part000" / "huge.mat"
    big.write_bytes(GOOD * 200)
    limit = len(GOOD) * 20 / (1024 * 1024)
    code, out, err = cli("validate", "--max-file-size", f"{limit:.4f}", "-f", "json", folder)
    assert code == 2
    doc = json.loads(out)
    assert doc["summary"]["files"] == 20 and doc["summary"]["unreadable"] == 1
    (u,) = doc["unreadable"]
    assert u["path"] == str(big)
    limit_bytes = int(float(f"{limit:.4f}") * 1024 * 1024)
    assert f"larger than the limit of {limit_bytes / (1024 * 1024):g} MiB per file" in u["message"]
    assert "--max-file-size MIB raises it" in u["message"]
    assert err.count("--max-file-size") == 1 and str(big) in err
    code, out, err = cli("validate", "--max-file-size", "1", folder)
    assert code == 1 and "unreadable" not in out and "--max-file-size" not in err


def test_streamed_documents_of_an_empty_run(tmp_path):
    """No file at all: the lists are written empty, as json.dump writes them."""
    run = validate_paths([str(tmp_path / "missing.mat")])
    for fmt in ("json", "sarif"):
        out = io.StringIO()
        run.feed(make_writer(fmt, out))
        doc = to_json(run, explain=True) if fmt == "json" else to_sarif(run)
        assert out.getvalue() == json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    out = io.StringIO()
    write_text(run, out)
    assert out.getvalue().endswith("0 file(s), 0 game(s), 0 turn(s): no errors, 0 warning(s)\n"
                                   "1 path(s) could not be read\n")


def test_spools_larger_than_memory_go_to_disk(monkeypatch):
    """A spool past SPOOL_MEMORY rolls over to a temporary file, and is copied back whole."""
    monkeypatch.setattr(report, "SPOOL_MEMORY", 64)
    sp = report._Spool()
    text = "".join(f"line {i}: ünïcödé ✓\n" for i in range(1000))
    sp.write(text)
    assert sp.fh._rolled
    out = io.StringIO()
    sp.copy_to(out)
    sp.close()
    assert out.getvalue() == text


def test_the_records_entries_are_not_made_a_list(tmp_path, monkeypatch):
    """validate_paths' discovery is a generator, read as the work goes (not ``list(discover(...))``)."""
    many_files(tmp_path, 40)
    seen = []
    real = analyze.map_records

    def spy(entries, *a, **k):
        seen.append(type(entries))
        return real(entries, *a, **k)

    monkeypatch.setattr(analyze, "map_records", spy)
    assert len(validate_paths([str(tmp_path)], jobs=1).reports) == 40
    assert seen and all(t not in (list, tuple) for t in seen)
    assert sum(isinstance(e, Entry) and e.status == RECORD for e in inputs.discover([str(tmp_path)])) == 40


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_findings_are_written_before_the_run_ends(tmp_path, monkeypatch, fmt, cli):
    """The text report of the first file is on standard output while the last file is validated; a JSON
    document's findings are in its spool by then (the document is written whole at the end)."""
    (tmp_path / "a-bad.mat").write_bytes(BAD)
    (tmp_path / "z-last.mat").write_bytes(GOOD)
    seen = []
    real = analyze.validate_match

    def spy(match, *a, **k):
        if match.path.endswith("z-last.mat"):
            sys.stdout.flush()
            seen.append(sys.stdout.buffer.getvalue().decode() if hasattr(sys.stdout.buffer, "getvalue") else None)
        return real(match, *a, **k)

    monkeypatch.setattr(analyze, "validate_match", spy)
    code, out, _ = cli("validate", "-f", fmt, "-j", "1", tmp_path)
    assert code == 1 and len(seen) == 1 and seen[0] is not None
    if fmt == "text":
        assert "a-bad.mat:" in seen[0] and "dice-mismatch" in seen[0] and "file(s)" not in seen[0]
        assert out.startswith(seen[0])
    else:
        assert seen[0] == "" and json.loads(out)["summary"]["errors"] == 4


@settings(max_examples=200, deadline=None)
@given(kinds=st.lists(st.sampled_from([RECORD, RECORD, RECORD, SKIPPED, "stdin"]), max_size=120),
       jobs=st.integers(1, 4))
def test_chunks_keep_every_entry_in_order_and_shrink_at_the_end(kinds, jobs):
    """The worker tasks (``runner._chunks``): every entry once, in order; each task at most CHUNK records
    (standard input never goes to a worker); the last tasks of a run small, so that no worker is left
    with a long last task while the others wait (issue 10)."""
    entries = [Entry("-", RECORD, explicit=True) if k == "stdin" else Entry(f"f{i}.mat", k)
               for i, k in enumerate(kinds)]
    chunks = list(runner._chunks(iter(entries), jobs))
    assert [e for batch, _ in chunks for e in batch] == entries
    for batch, recs in chunks:
        assert recs == [e for e in batch if e.status == RECORD and e.path != "-"]
        assert len(recs) <= runner.CHUNK
        assert batch                                   # no empty task
    sizes = [len(recs) for _, recs in chunks if recs]
    workers = sum(e.status == RECORD and e.path != "-" for e in entries)
    assert sum(sizes) == workers
    if workers >= 2 * runner.CHUNK:
        assert sizes[-1] == 1                            # the run ends on one-record tasks
        tail = sizes[-(2 * jobs):]
        assert sum(tail) <= 2 * runner.CHUNK            # the last rounds are at most two chunks' work
    # sizes never grow again once they shrink
    assert all(a >= b for a, b in zip(sizes, sizes[1:]))


def _filled(cls, rng):
    """An instance of the dataclass ``cls`` with a value of its own type, not the default, in every field."""
    import dataclasses
    values = {}
    for f in dataclasses.fields(cls):
        kind = str(f.type)
        if "list" in kind:
            values[f.name] = [f"{f.name}-{rng.randrange(100)}"]
        elif "tuple" in kind:
            values[f.name] = (rng.randrange(1, 9), rng.randrange(1, 9))
        elif "bool" in kind:
            values[f.name] = True
        elif "dict" in kind:
            values[f.name] = {"k": rng.randrange(100)}
        elif "int" in kind:
            values[f.name] = rng.randrange(1, 10_000)
        else:
            values[f.name] = f"{f.name}-{rng.randrange(100)}"
    return cls(**values)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_what_crosses_to_and_from_the_workers_comes_back_whole(seed):
    """The tasks and results the worker processes send (entries, convert's inputs and outcomes, reports with
    their games and findings) are rebuilt from their fields' values (``record.sent_by_fields``): each comes back
    equal, of its own class, with every field, set to something other than its default, carried."""
    import copy
    import dataclasses
    import io
    import random
    from multiprocessing.reduction import ForkingPickler        # (what the process pool sends them with)
    from nardy_analyze.convert import Outcome, _Input
    from nardy_analyze.events import Finding, GameReport
    from nardy_analyze.inputs import Entry
    rng = random.Random(seed)
    rep = _filled(MatchReport, rng)
    rep.games = [_filled(GameReport, rng) for _ in range(2)]
    rep.findings = [_filled(Finding, rng) for _ in range(3)]
    for obj in (_filled(Entry, rng), _filled(_Input, rng), _filled(Outcome, rng), rep):
        buf = io.BytesIO()
        ForkingPickler(buf).dump(obj)
        back = ForkingPickler.loads(buf.getvalue())
        assert type(back) is type(obj) and back == obj
        for f in dataclasses.fields(obj):
            assert getattr(back, f.name) == getattr(obj, f.name) != f.default, (type(obj).__name__, f.name)
        assert copy.copy(obj) == obj and copy.deepcopy(obj) == obj
    assert type(back.games[0]) is GameReport and back.findings[2] == rep.findings[2]
