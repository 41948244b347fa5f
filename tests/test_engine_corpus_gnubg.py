"""Differential test on real positions: our legal plays against GNU Backgammon's move generator (gnubg-nn).

Every record of the shared corpus's ``gnubg-selfplay/`` and ``bglab/`` folders is walked roll by roll
with our engine (``record_walk``: ``mat.read`` + ``judge(...).after``); for each distinct
(mover, opponent, dice) met before a roll, ``legal_results`` must equal the set of positions gnubg-nn
generates.  As a by-product, the position the record's own play reaches must be one of gnubg's legal
positions (both folders are legal throughout by GNU Backgammon's verdict, README of the corpus).

The same comparison runs on the self-play fixtures in ``tests/fixtures/selfplay`` so that the
differential also runs in a clone without ``../shared``.

Our generator is the slow side (about 0.1 ms per position for gnubg-nn, 0.1-0.2 ms for the
engine's ``generate`` plus the walk); the corpus run is split over the available cores (at most 2).
"""
from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from helpers import CORPUS, ROOT
from nardy_analyze.engine import legal_results
from nardy_analyze.record import Kind
from record_walk import file_rolls, gnubg_nn_results, read_match

gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn (GNU Backgammon's move generator) is not installed")

FIXTURES = ROOT / "tests" / "fixtures" / "selfplay"
MIN_CORPUS_POSITIONS = 10_000
WORKERS = max(1, min(2, os.cpu_count() or 1))


def record_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in (".mat", ".txt"))


def _unplayed_before_end(path: Path, roll) -> bool:
    """A roll with nothing played right before a resignation or at the end of the record: not a play
    (docs/rules.md, backgammon rule 10; the corpus's VERDICTS.tsv does not count it as illegal either)."""
    if roll.action.steps:
        return False
    game = read_match(path).games[roll.game - 1]
    nxt = game.actions[roll.index + 1] if roll.index + 1 < len(game.actions) else None
    return nxt is None or nxt.kind in (Kind.WIN, Kind.RESIGN)


def check_files(paths: list[Path]) -> dict:
    """Walk ``paths``; compare every position not met before in this call.  Picklable result."""
    seen: set[bytes] = set()
    mismatches, not_legal = [], []
    n_rolls = 0
    t_ours = t_gnubg = 0.0
    for path, r in file_rolls(paths):
        n_rolls += 1
        key = r.key
        if key in seen:
            continue
        seen.add(key)
        t0 = time.perf_counter()
        ours = legal_results("backgammon", r.mover, r.opponent, (r.d1, r.d2))
        t1 = time.perf_counter()
        theirs = gnubg_nn_results(gnubg_nn, r.mover, r.opponent, r.d1, r.d2)
        t2 = time.perf_counter()
        t_ours += t1 - t0
        t_gnubg += t2 - t1
        where = f"{path} game {r.game} line {r.action.loc.line} ({r.action.text!r})"
        if ours != theirs:
            mismatches.append((where, r.mover, r.opponent, r.d1, r.d2,
                               sorted(ours - theirs)[:3], sorted(theirs - ours)[:3]))
        if r.verdict.after not in theirs and not _unplayed_before_end(path, r):
            not_legal.append((where, r.verdict.problems))
    return {"keys": seen, "rolls": n_rolls, "mismatches": mismatches, "not_legal": not_legal,
            "t_ours": t_ours, "t_gnubg": t_gnubg}


def check_parallel(paths: list[Path]) -> dict:
    if WORKERS == 1 or len(paths) < 8:
        return check_files(paths)
    chunks = [paths[i::WORKERS] for i in range(WORKERS)]
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=WORKERS, mp_context=ctx) as pool:
        parts = list(pool.map(check_files, chunks))
    out = {"keys": set(), "rolls": 0, "mismatches": [], "not_legal": [], "t_ours": 0.0, "t_gnubg": 0.0}
    for part in parts:
        out["keys"] |= part["keys"]
        for k in ("rolls", "t_ours", "t_gnubg"):
            out[k] += part[k]
        out["mismatches"] += part["mismatches"]
        out["not_legal"] += part["not_legal"]
    return out


def explain(res: dict) -> str:
    lines = []
    for where, me, opp, d1, d2, only_ours, only_theirs in res["mismatches"][:5]:
        lines.append(f"{where}: dice {d1}{d2}\n  mover={me}\n  opponent={opp}\n"
                     f"  only ours: {only_ours}\n  only gnubg: {only_theirs}")
    for where, problems in res["not_legal"][:5]:
        lines.append(f"{where}: the recorded play reaches a position gnubg does not generate; judge says {problems}")
    return "\n".join(lines)


def test_fixture_positions_agree_with_gnubg_nn():
    files = record_files(FIXTURES)
    assert len(files) >= 12, files
    res = check_files(files)
    assert not res["mismatches"] and not res["not_legal"], explain(res)
    assert len(res["keys"]) >= 2_000, len(res["keys"])


def test_corpus_positions_agree_with_gnubg_nn(record_property):
    if not CORPUS.exists():
        pytest.skip(f"shared corpus not present: {CORPUS}")
    selfplay = record_files(CORPUS / "gnubg-selfplay")
    bglab = record_files(CORPUS / "bglab")
    assert len(selfplay) >= 100 and len(bglab) >= 1_777, (len(selfplay), len(bglab))
    t = time.perf_counter()
    res_self = check_parallel(selfplay)
    res_bglab = check_parallel(bglab)
    elapsed = time.perf_counter() - t
    for res in (res_self, res_bglab):
        assert not res["mismatches"], f"{len(res['mismatches'])} position(s) differ from gnubg:\n" + explain(res)
        assert not res["not_legal"], f"{len(res['not_legal'])} recorded play(s):\n" + explain(res)
    distinct = len(res_self["keys"] | res_bglab["keys"])
    record_property("distinct_positions", distinct)
    record_property("rolls", res_self["rolls"] + res_bglab["rolls"])
    record_property("seconds", round(elapsed, 1))
    record_property("seconds_ours", round(res_self["t_ours"] + res_bglab["t_ours"], 1))
    record_property("seconds_gnubg_nn", round(res_self["t_gnubg"] + res_bglab["t_gnubg"], 1))
    # Both folders contribute: the walk must not silently stop early in either.
    assert len(res_self["keys"]) >= 30_000 and len(res_bglab["keys"]) >= 150_000, \
        (len(res_self["keys"]), len(res_bglab["keys"]))
    assert distinct >= MIN_CORPUS_POSITIONS, distinct
