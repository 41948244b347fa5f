#!/usr/bin/env python3
"""The long fuzz campaign of nardy-analyze: coverage-guided, for a set time, standard library only.

    python3 fuzz/campaign.py --seconds 600            # from the project root
    python3 fuzz/campaign.py --seconds 60 --seed 7 --corpus ../shared/corpus
    python3 fuzz/campaign.py --replay fuzz/failures/*.bin

Each input goes through every registered reader (``nardy_analyze.notation``), the validator, every
report format, and every 25th one through the command line on a folder (discovery included).  Every 10th
(``--twin``) is also converted to every notation with a writer, and its report and conversions are done
again by the pure-Python code (a process started with ``NARDY_ANALYZE_PURE=1``, once a minute and at the
end): the compiled core must give the same bytes.  An input breaks it when anything raises, when a report
is malformed, when the two codes disagree, or when one input takes longer than ``--slow`` seconds without
the tracer (a quadratic case is a bug).  Broken inputs are saved in ``--out``
(``fuzz/failures/`` by default) with the traceback, for a regression test in tests/test_fuzz.py.

Code paths are counted as distinct line-to-line arcs executed inside the ``nardy_analyze`` package
(a ``sys.settrace`` tracer, like coverage.py's branch mode); an input that reaches a new arc is kept
and mutated further (greybox fuzzing, as AFL and atheris do).  Seeds: the self-play fixtures, the
examples and, with ``--corpus``, every record file under the given folders.

Prints a status line every 15 s and, at the end, one summary line:
``fuzz: N inputs in T s (R/s), A distinct code paths (arcs), K inputs kept, F failures (D distinct), ...``
Exit code 0 when nothing broke, 1 otherwise.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import subprocess
import io
import json
import os
import random
import re
import resource
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nardy_analyze.analyze import validate_match
from nardy_analyze.convert import convert_match
from nardy_analyze.engine.compiled import PURE
from nardy_analyze.notation import decode, get, names
from nardy_analyze.report import (
    RunResult,
    to_json,
    to_sarif,
    write_statistics,
    write_text,
)

PACKAGE = str(ROOT / "nardy_analyze")
KEEP_BYTES = 40_000        # inputs kept for further mutation are at most this long (speed)

# ----------------------------------------------------------------------------- coverage (arcs)


class Arcs:
    """Distinct (file, from line, to line) arcs executed in the package, via sys.settrace.

    Speed: a function whose last ``COLD`` calls reached no new arc is not traced any more (it is
    "cold") until :meth:`rewarm`, which the campaign calls every minute.
    """

    COLD = 3000

    def __init__(self) -> None:
        self.seen: set[tuple[str, int, int]] = set()
        self.new = 0
        self.quiet: dict[object, int] = {}       # code object -> calls since its last new arc
        self.cold: set[object] = set()

    def rewarm(self) -> None:
        self.quiet.clear()
        self.cold.clear()

    def _global(self, frame, event, arg):
        code = frame.f_code
        if event != "call" or code in self.cold or not code.co_filename.startswith(PACKAGE):
            return None
        q = self.quiet.get(code, 0) + 1
        self.quiet[code] = q
        if q > self.COLD:
            self.cold.add(code)
        last = [-code.co_firstlineno]
        fname = code.co_filename
        seen = self.seen

        def local(frame, event, arg):
            if event == "line" or event == "return":
                line = frame.f_lineno if event == "line" else -code.co_firstlineno
                arc = (fname, last[0], line)
                if arc not in seen:
                    seen.add(arc)
                    self.new += 1
                    self.quiet[code] = 0
                last[0] = line
            return local

        return local

    def run(self, fn, *args):
        """Run fn(*args) traced; returns the number of new arcs it reached."""
        self.new = 0
        sys.settrace(self._global)
        try:
            fn(*args)
        finally:
            sys.settrace(None)
        return self.new


# ----------------------------------------------------------------------------- the target


class _Sink(io.StringIO):
    pass


def target(data: bytes) -> None:
    """Everything an input goes through; raises on any misbehaviour."""
    text = decode(data)
    for n in names():
        m = get(n).read(text, "fuzz.mat")
        for p in m.problems + [p for g in m.games for p in g.problems]:
            assert p.loc.line >= 1 and p.loc.column >= 1 and p.message, (n, p)
        if n == "mat":
            match = m
    rep = validate_match(match)
    run = RunResult(reports=[rep])
    doc = json.loads(json.dumps(to_json(run, explain=True)))
    for f in doc["findings"]:
        assert f["line"] >= 1 and f["column"] >= 1 and f["message"], f
        assert f["rule"] != "internal-error", f
    json.dumps(to_sarif(run))
    write_text(run, _Sink(), explain=True, verbose=True)
    write_statistics(run, _Sink())


def command_target(data: bytes, suffix: str) -> None:
    """The command line on a folder holding the input (discovery, loading, the error boundary)."""
    from typer.testing import CliRunner

    from nardy_analyze.cli import app

    with tempfile.TemporaryDirectory() as d:
        Path(d, "input" + suffix).write_bytes(data)
        for fmt in ("text", "json"):
            r = CliRunner().invoke(app, ["validate", "--format", fmt, "--explain", "--verbose", d])
            if r.exception is not None and not isinstance(r.exception, SystemExit):
                raise r.exception
            assert r.exit_code in (0, 1, 2), r.exit_code
            assert "Traceback" not in r.stdout + r.stderr
            if fmt == "json":
                s = json.loads(r.stdout)["summary"]
                assert s["files"] + s["skipped"] + s["unreadable"] == 1, s
                assert s["internal_errors"] == 0, r.stdout[-2000:]


def outputs(data: bytes) -> list[tuple[str, str]]:
    """(what, digest) of everything the input gives that the pure-Python code must give byte for byte: the
    JSON report of ``validate`` and, per notation with a writer, ``convert``'s outcome and text (lossy, so that
    what a notation cannot hold is dropped, not refused).  An exception is an output too (its type): the other
    code must raise the same."""
    def digest(fn) -> str:
        try:
            return hashlib.sha256(repr(fn()).encode("utf-8", "surrogatepass")).hexdigest()[:16]
        except Exception as e:                    # (the compiled run saves it as a failure of its own)
            return f"raised {type(e).__name__}"

    match = get("mat").read(decode(data), "fuzz.mat")
    out = [("validate", digest(lambda: json.dumps(to_json(RunResult(reports=[validate_match(match)]),
                                                          explain=True), sort_keys=True)))]
    for n in names():
        if get(n).write is not None:
            out.append((f"convert --to {n}", digest(lambda: _converted(match, n))))
    return out


def _converted(match, to: str) -> tuple:
    outcome, text = convert_match(match, to, lossy=True)
    return outcome.status, outcome.messages, outcome.warning, outcome.dropped, text


def twin_check(items: list[tuple[bytes, list[tuple[str, str]]]]) -> list[tuple[bytes, str]]:
    """The inputs of ``items`` (input, its outputs here) run again by the pure-Python code in a new process;
    (input, what differs) for each that the two codes do not give alike."""
    with tempfile.TemporaryDirectory() as d:
        batch = Path(d, "inputs.txt")
        batch.write_text("\n".join(base64.b64encode(data).decode() for data, _ in items))
        r = subprocess.run([sys.executable, __file__, "--twin-worker", str(batch)], capture_output=True,
                           text=True, env={**os.environ, "NARDY_ANALYZE_PURE": "1"})
    if r.returncode != 0:
        raise RuntimeError(f"the pure-Python twin process failed: {r.stderr[-2000:]}")
    pure = json.loads(r.stdout)
    if len(pure) != len(items):
        raise RuntimeError(f"the pure-Python twin process gave {len(pure)} answers for {len(items)} inputs")
    bad = []
    for (data, here), there in zip(items, pure):
        differ = [what for (what, a), (_w, b) in zip(here, there) if a != b]
        if differ or len(here) != len(there):
            bad.append((data, ", ".join(differ) or "a different number of outputs"))
    return bad


def _twin_worker(path: str) -> int:
    """``--twin-worker FILE``: the outputs of each input of FILE (base64, one a line), as JSON, by this process's
    code (the campaign starts it with ``NARDY_ANALYZE_PURE=1``)."""
    if not PURE:
        print("the twin worker must run with NARDY_ANALYZE_PURE=1", file=sys.stderr)
        return 2
    lines = Path(path).read_text().split("\n")          # (one a line, the empty input an empty line)
    json.dump([outputs(base64.b64decode(line)) for line in lines], sys.stdout)
    return 0


# ----------------------------------------------------------------------------- mutations

TOKENS = [b" Game 1\n", b" 5 point match\n", b" Alice : 0          Bob : 0\n", b"  1) ", b"31: 8/5 6/5",
          b"Doubles => 2", b"Takes", b"Drops", b"Wins 1 point", b"Wins 2 points and the match", b"Resigns",
          b"Losses 1 point", b"bar/22*", b"6/off", b"13/11(2)", b"????", b"Cannot Move", b"66: ", b"00: ",
          b"; [Crawford \"On\"]\n", b"; [Variation \"Backgammon\"]\n", b"; [Jacoby \"On\"]\n",
          b"; [CubeLimit \"1024\"]\n", b"99999999999999999999", b"\xef\xbb\xbf", b"\xff\xfe", b"\x00", b"\r",
          b"\t", b"*", b"/", b":", b")", b"\n\n", b"Move", b"=>"]


def mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    for _ in range(rng.choice((1, 1, 2, 3, 5))):
        data = _one(rng, data, pool)
    return data[:1_000_000]


def _one(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    op = rng.randrange(13)
    if op in (7, 11) and rng.random() < 0.8:      # the costly ones (long lines, many games): less often
        op = 5
    n = len(data)
    if op == 0:                                   # truncate at any byte
        return data[:rng.randint(0, n)]
    if op == 1 and n:                             # flip bits
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(n)] ^= 1 << rng.randrange(8)
        return bytes(b)
    lines = data.splitlines(keepends=True) or [b""]
    k = rng.randrange(len(lines))
    if op == 2 and len(lines) > 1:                # delete lines
        del lines[k:k + rng.randint(1, 4)]
    elif op == 3:                                 # duplicate lines
        lines[k:k] = lines[k:k + rng.randint(1, 4)]
    elif op == 4:                                 # swap lines
        j = rng.randrange(len(lines))
        lines[k], lines[j] = lines[j], lines[k]
    elif op == 5:                                 # insert a token of the notation
        pos = rng.randint(0, n)
        return data[:pos] + rng.choice(TOKENS) + data[pos:]
    elif op == 6 and n:                           # replace a byte range with random bytes
        pos = rng.randrange(n)
        return data[:pos] + rng.randbytes(rng.randint(0, 16)) + data[pos + rng.randint(0, 16):]
    elif op == 7:                                 # a long line
        lines[k] = lines[k].rstrip(b"\n") + rng.choice((b" 13/11", b"x", b" ", b"(2)")) * rng.randint(500, 20000) + b"\n"
    elif op == 8:                                 # huge or odd numbers
        digits = [i for i, c in enumerate(data) if 48 <= c <= 57]
        if digits:
            pos = rng.choice(digits)
            return data[:pos] + rng.choice((b"9" * 25, b"0" * 20, b"18446744073709551617", b"-3", b"7" * 3000)) + data[pos + 1:]
    elif op == 9:                                 # splice with another kept input
        other = rng.choice(pool)
        cut = rng.randint(0, n)
        return data[:cut] + other[rng.randint(0, len(other)):]
    elif op == 10:                                # random Unicode, in some encoding
        chars = "".join(chr(rng.choice((rng.randint(32, 126), rng.randint(0x80, 0x10FFFF) & ~0x800 | 0x100)))
                        for _ in range(rng.randint(1, 60)))
        enc = rng.choice(("utf-8", "utf-16", "cp1251", "latin-1"))
        pos = rng.randint(0, n)
        return data[:pos] + chars.encode(enc, errors="replace") + data[pos:]
    elif op == 11:                                # many empty games
        games = b"".join(b" Game %d\n Alice : 0   Bob : 0\n\n" % i for i in range(1, rng.randint(50, 1500)))
        return data + games
    else:                                         # a whole different encoding of the input
        try:
            return decode(data).encode(rng.choice(("utf-16", "utf-16-le", "utf-32", "cp1251")), errors="replace")
        except Exception:
            return data
    return b"".join(lines)


def seeds(corpus: list[str], most: int = 150) -> list[bytes]:
    files = sorted((ROOT / "tests" / "fixtures" / "selfplay").glob("*.mat")) + sorted((ROOT / "examples").glob("*.mat"))
    more: list[Path] = []
    for c in corpus:
        more += sorted(p for p in Path(c).rglob("*") if p.suffix in (".mat", ".txt") and p.is_file()
                       and not p.name.startswith((".", "expected")))
    if more:
        files += more[::max(1, len(more) // most)][:most]       # an even sample of at most `most` files
    out = []
    for p in files:
        data = p.read_bytes()
        out.append(data) if len(data) <= 4000 else None
        # small seeds run faster: the preamble with each of the first games on its own
        parts = re.split(rb"(?m)^(?=[ \t]*Game[ \t]+[0-9]+[ \t]*$)", data)
        for game in parts[1:4]:
            out.append(parts[0] + game)
    return out + [b"", bytes(range(256))]


# ----------------------------------------------------------------------------- the campaign


def signature(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = next((f"{os.path.relpath(f.filename, ROOT)}:{f.lineno}" for f in reversed(tb)
                  if f.filename.startswith(PACKAGE)), "?")
    return f"{type(exc).__name__} at {where}"


def save(out: Path, data: bytes, what: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    h = hashlib.sha1(data).hexdigest()[:16]
    p = out / f"{h}.bin"
    p.write_bytes(data)
    (out / f"{h}.txt").write_text(what)
    return p


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=300, help="how long to run (default 300)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock; printed)")
    ap.add_argument("--corpus", action="append", default=[], help="more seed records (a folder); repeatable")
    ap.add_argument("--max-seeds", type=int, default=150, help="files taken from --corpus, evenly (default 150)")
    ap.add_argument("--out", default=str(ROOT / "fuzz" / "failures"), help="where broken inputs are saved")
    ap.add_argument("--slow", type=float, default=10.0,
                    help="seconds one input may take, untraced (default 10)")
    ap.add_argument("--every", type=int, default=25, help="run the command line on every Nth input (default 25)")
    ap.add_argument("--twin", type=int, default=10,
                    help="check every Nth input against the pure-Python code (default 10; 0: never)")
    ap.add_argument("--replay", nargs="*", help="run these saved inputs once and report")
    ap.add_argument("--twin-worker", metavar="FILE", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.twin_worker:
        return _twin_worker(a.twin_worker)
    if PURE and a.twin:
        print("fuzz: NARDY_ANALYZE_PURE is set: no compiled core to check against its twin (--twin 0 to run "
              "without)", file=sys.stderr)
        return 2

    if a.replay is not None:
        bad = 0
        for f in a.replay:
            try:
                data = Path(f).read_bytes()
                target(data)
                command_target(data, ".mat")
                if a.twin:
                    for _data, differ in twin_check([(data, outputs(data))]):
                        raise AssertionError(f"the compiled and the pure-Python code differ: {differ}")
                print(f"ok: {f}")
            except Exception as e:
                bad += 1
                print(f"FAIL: {f}: {signature(e)}: {e!r}")
        return 1 if bad else 0

    seed = a.seed if a.seed is not None else int(time.time())
    rng = random.Random(seed)
    arcs = Arcs()
    pool = seeds(a.corpus, a.max_seeds)
    print(f"fuzz: seed {seed}, {len(pool)} seed inputs, {a.seconds:.0f} s", flush=True)
    for s in list(pool):                          # the seeds' own coverage first
        arcs.run(_safe, s)
    base = len(arcs.seen)
    failures: dict[str, Path] = {}
    n_fail = 0
    tried = 0
    commands = 0
    slowest = (0.0, 0)                            # untraced seconds, bytes of the slowest input
    slowest_input = b""
    slowest_traced = 0.0
    start = time.monotonic()
    next_status = start + 15
    next_rewarm = start + 60
    out = Path(a.out)
    twins: list[tuple[bytes, list[tuple[str, str]]]] = []     # inputs waiting for the pure-Python run
    twinned = 0
    next_twin = start + 60

    def check_twins() -> None:
        nonlocal n_fail, twinned
        if not twins:
            return
        twinned += len(twins)
        for data, differ in twin_check(twins):
            n_fail += 1
            sig = f"twin: the compiled and the pure-Python code differ: {differ}"
            if sig not in failures:
                failures[sig] = save(out, data, sig)
                print(f"FAIL {sig} -> {failures[sig]}", flush=True)
        twins.clear()

    while time.monotonic() - start < a.seconds:
        data = mutate(rng, rng.choice(pool), pool)
        tried += 1
        t0 = time.monotonic()
        try:
            if arcs.run(target, data):
                if len(data) <= KEEP_BYTES:
                    pool.append(data)
            if tried % a.every == 0:
                commands += 1
                command_target(data, rng.choice((".mat", ".txt")))
            if a.twin and tried % a.twin == 0 and len(data) <= KEEP_BYTES:
                got = outputs(data)
                raised = [what for what, d in got if d.startswith("raised ")]
                if raised:
                    raise AssertionError(f"{', '.join(raised)} raised")
                twins.append((data, got))
        except Exception as e:
            n_fail += 1
            sig = signature(e)
            if sig not in failures:
                failures[sig] = save(out, data, f"{sig}\n\n{traceback.format_exc()}")
                print(f"FAIL {sig}: {e!r} -> {failures[sig]}", flush=True)
        took = time.monotonic() - t0
        if took > slowest_traced or took > a.slow:   # tracing slows some code tenfold: time it untraced
            slowest_traced = max(slowest_traced, took)
            t1 = time.monotonic()
            try:
                target(data)
            except Exception:
                pass
            untraced = time.monotonic() - t1
            if untraced > slowest[0]:
                slowest = (untraced, len(data))
                slowest_input = data
            if untraced > a.slow:
                n_fail += 1
                sig = f"slow: {untraced:.1f} s (untraced) for {len(data)} bytes"
                failures[sig] = save(out, data, sig)
                print(f"FAIL {sig} -> {failures[sig]}", flush=True)
        now = time.monotonic()
        if now >= next_twin or len(twins) >= 500:
            next_twin = now + 60
            check_twins()
        if now >= next_rewarm:
            next_rewarm = now + 60
            arcs.rewarm()
        if now >= next_status:
            next_status = now + 15
            print(f"  {now - start:6.0f} s: {tried} inputs, {len(arcs.seen)} arcs (+{len(arcs.seen) - base} "
                  f"beyond the seeds), {len(pool)} kept, {n_fail} failures", flush=True)
    check_twins()
    elapsed = time.monotonic() - start
    if tried:
        out.mkdir(parents=True, exist_ok=True)
        (out / "slowest.bin").write_bytes(slowest_input)   # to profile; not a failure
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"fuzz: {tried} inputs in {elapsed:.0f} s ({tried / max(elapsed, 1e-9):.1f}/s), "
          f"{len(arcs.seen)} distinct code paths (arcs; {len(arcs.seen) - base} beyond the seeds), "
          f"{len(pool)} inputs kept, {commands} command-line runs, {twinned} checked against the pure-Python code, "
          f"{n_fail} failures ({len(failures)} distinct), "
          f"slowest input {slowest[0]:.2f} s ({slowest[1]} bytes), peak RSS {rss} MB, seed {seed}")
    return 1 if n_fail else 0


def _safe(data: bytes) -> None:
    try:
        target(data)
    except Exception:
        pass


if __name__ == "__main__":
    sys.exit(main())
