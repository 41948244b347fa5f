"""GNU Backgammon as the judge of what ``convert`` writes (skipped when gnubg is not installed).

On the shared corpus's 100 gnubg self-play matches (823 games), in two gnubg processes:

1. gnubg imports every original ``.mat`` (its reading is the reference) and saves it as ``.sgf``;
2. we convert each original to ``.sgf`` and to ``.sgf`` -> ``.mat``, and gnubg's own ``.sgf`` to ``.mat``;
3. gnubg loads our ``.sgf``, imports our ``.mat`` files, and must read exactly the reference match:
   players, match length, per game the result (winner, points, resigned, scores) and every action
   (move, double, take, drop, resign) with its player, dice, steps and the Position ID before it.
"""
from __future__ import annotations

import shutil

import pytest

from gnubg_run import GNUBG, gnubg_dump
from helpers import CORPUS
from nardy_analyze.convert import WRITTEN, convert_paths

pytestmark = pytest.mark.skipif(shutil.which(GNUBG) is None,
                                reason=f"GNU Backgammon not installed ({GNUBG}; apt-get install -y gnubg)")

SELFPLAY = CORPUS / "gnubg-selfplay"


def same_match(ours: dict, ref: dict, where: str) -> None:
    assert "error" not in ours, (where, ours)
    assert (ours["X"], ours["O"], ours["length"]) == (ref["X"], ref["O"], ref["length"]), where
    assert len(ours["games"]) == len(ref["games"]), where
    for n, (g, r) in enumerate(zip(ours["games"], ref["games"]), start=1):
        assert g["info"] == r["info"], (where, n, g["info"], r["info"])
        assert len(g["actions"]) == len(r["actions"]), (where, n)
        for i, (a, b) in enumerate(zip(g["actions"], r["actions"])):
            assert a == b, (where, f"game {n} action {i}", a, b)


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    if not SELFPLAY.exists():
        pytest.skip(f"shared corpus not present: {SELFPLAY}")
    tmp = tmp_path_factory.mktemp("gnubg_judge")
    files = sorted(SELFPLAY.glob("*.mat"))
    assert len(files) == 100
    gsgf = tmp / "gnubg_sgf"
    gsgf.mkdir()
    ref = gnubg_dump(tmp, [(f.stem, f'import mat "{f}"', f'save match "{gsgf / (f.stem + ".sgf")}"')
                           for f in files], "reference")
    sgf, sgf_mat, g_mat = tmp / "sgf", tmp / "sgf_mat", tmp / "gnubg_sgf_mat"
    for src, to, out in ((files, "sgf", sgf), ([sgf], "mat", sgf_mat), ([gsgf], "mat", g_mat)):
        run = convert_paths([str(p) for p in src], to, out_dir=str(out))
        assert [o for o in run.outcomes if o.status != WRITTEN] == []
        assert run.count(WRITTEN) == 100
    jobs = []
    for f in files:
        jobs.append(("sgf/" + f.stem, f'load match "{sgf / (f.stem + ".sgf")}"', None))
        jobs.append(("sgf_mat/" + f.stem, f'import mat "{sgf_mat / (f.stem + ".mat")}"', None))
        jobs.append(("gnubg_sgf_mat/" + f.stem, f'import mat "{g_mat / (f.stem + ".mat")}"', None))
    return files, ref, gnubg_dump(tmp, jobs, "ours")


@pytest.mark.parametrize("kind", ["sgf", "sgf_mat", "gnubg_sgf_mat"])
def test_gnubg_reads_our_files_as_the_original(judged, kind):
    files, ref, ours = judged
    actions = 0
    for f in files:
        same_match(ours[f"{kind}/{f.stem}"], ref[f.stem], f"{kind}/{f.name}")
        actions += sum(len(g["actions"]) for g in ref[f.stem]["games"])
    assert sum(len(ref[f.stem]["games"]) for f in files) == 823
    assert actions > 30000

