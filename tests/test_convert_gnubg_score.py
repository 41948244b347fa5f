"""GNU Backgammon reads every record ``convert`` writes from the shared corpus with the final match score
of our own reading (slow: the whole corpus, gnubg in two processes).

Every record of ``../shared/corpus/gnubg-selfplay`` (100) and ``../shared/corpus/bglab`` (1,777, less the
3 files whose empty player name crashes gnubg 1.07 itself, GNUBG_CRASHES.list) is converted to ``.sgf``
and to ``.mat``; gnubg loads each file written and its final score (the last game's score plus the points
it credits) must be ours (``statsrun.matches``: the one count of points, docs/stats.md).  In match play a
score past the match length is compared as the length: gnubg credits the whole stake of a game that ends
the match where the sites, and our reading, credit the points the winner needed (``Wins 3 points and the
match`` for a gammon at cube 2 from 3-away); either way the match is won by the same player.

What a notation, as gnubg reads it, cannot say is refused with the reason (``notation.normal.
gnubg_result_losses``): a match conceded for more points than gnubg's largest resignation gives, and (.mat)
a result written before the game's first move.  A record whose written result the rules reject (a
``result-mismatch`` error) is converted as written with a warning: gnubg reads the written result, we
credit the rules' one (docs/stats.md), so those files are counted apart.
"""
from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from gnubg_run import GNUBG, gnubg_dump
from helpers import CORPUS
from nardy_analyze import statsrun
from nardy_analyze.convert import REFUSED, WRITTEN, convert_paths

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which(GNUBG) is None, reason=f"GNU Backgammon not installed ({GNUBG})")]

# the figures of the whole corpus (README of the corpus: 100 + 1,777 files)
EXPECTED = {
    "files": 1874,                         # 100 self-play + 1,774 bglab files gnubg can read
    # refused: 4 matches conceded for more than a backgammon at the cube; .mat also 2 results before any move
    # rules-reject: the 7 bglab games whose written result the rules reject (corpus README)
    "sgf": {"same": 1863, "refused": 4, "rules-reject": 7},
    "mat": {"same": 1861, "refused": 6, "rules-reject": 7},
}


def _final(dump: dict) -> tuple[int, int] | None:
    if "error" in dump or not dump.get("games"):
        return None
    info = dump["games"][-1]["info"]
    score = [info["score-X"], info["score-O"]]
    if info.get("winner") in ("X", "O"):
        score["XO".index(info["winner"])] += info["points-won"]
    return score[0], score[1]


def _capped(score, length: int):
    return score if score is None or not length else tuple(min(x, length) for x in score)


def corpus_files() -> list[Path]:
    selfplay, bglab = CORPUS / "gnubg-selfplay", CORPUS / "bglab"
    if not selfplay.exists() or not bglab.exists():
        pytest.skip(f"shared corpus not present: {CORPUS}")
    crash = set((bglab / "GNUBG_CRASHES.list").read_text(encoding="utf-8").split())
    files = sorted(selfplay.glob("*.mat")) + [f for f in sorted(bglab.rglob("*.txt"))
                                                if str(f.relative_to(bglab)) not in crash]
    assert len({f.stem for f in files}) == len(files)
    return files


def test_gnubg_ends_every_converted_record_with_our_score(tmp_path):
    files = corpus_files()
    assert len(files) == EXPECTED["files"]
    m = statsrun.matches([str(f) for f in files], jobs=2)
    ours = {Path(p).stem: ((int(a), int(b)), int(n)) for p, a, b, n in
            zip(m["path"], m["score1"], m["score2"], m["length"])}
    assert len(ours) == len(files)
    jobs: dict[str, list] = {}
    refused: dict[str, dict[str, list[str]]] = {}
    warned: dict[str, set[str]] = {}
    for to, load in (("sgf", "load match"), ("mat", "import mat")):
        out = tmp_path / to
        run = convert_paths([str(f) for f in files], to, out_dir=str(out), jobs=2)
        assert {o.status for o in run.outcomes} <= {WRITTEN, REFUSED}, [o.messages for o in run.outcomes
                                                                      if o.status not in (WRITTEN, REFUSED)]
        refused[to] = {Path(o.source).stem: o.messages for o in run.outcomes if o.status == REFUSED}
        warned[to] = {Path(o.source).stem for o in run.outcomes
                      if o.status == WRITTEN and o.warning and ": result-mismatch: " in o.warning}
        for why in refused[to].values():       # refused only for what gnubg would read otherwise
            assert all("GNU Backgammon" in w for w in why), why
        jobs[to] = [(f.stem, f'{load} "{out / (f.stem + "." + to)}"', None) for f in files
                    if f.stem not in refused[to]]
    with ThreadPoolExecutor(2) as pool:           # two gnubg processes side by side
        dumps = dict(zip(jobs, pool.map(lambda k: gnubg_dump(tmp_path, jobs[k], k), jobs)))
    figures = {}
    for to in ("sgf", "mat"):
        same, differ = 0, []
        for f in files:
            if f.stem in refused[to] or f.stem in warned[to]:
                continue
            score, length = ours[f.stem]
            theirs = _final(dumps[to][f.stem])
            if _capped(theirs, length) == _capped(score, length):
                same += 1
            else:
                differ.append((f.name, theirs, score))
        assert differ == [], (to, differ[:10])
        figures[to] = {"same": same, "refused": len(refused[to]), "rules-reject": len(warned[to])}
        assert same + len(refused[to]) + len(warned[to]) == len(files)
    assert figures == {k: EXPECTED[k] for k in ("sgf", "mat")}
