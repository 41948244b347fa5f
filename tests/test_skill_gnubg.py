"""``analyze`` against GNU Backgammon's own 0-ply ``analyse match`` on a handful of real records (the full
figures: docs/analysis.md, ``scripts/skill_vs_gnubg.py``).  Skipped without gnubg, bgsage or the corpus."""
from __future__ import annotations

import os

import pytest

pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")
pytest.importorskip("scipy", reason="scipy is not installed")

from helpers import CORPUS, ROOT, load_script

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")

pytestmark = [
    pytest.mark.skipif(not os.access(GNUBG, os.X_OK), reason="GNU Backgammon is not installed"),
    pytest.mark.skipif(not (CORPUS / "bglab").is_dir(), reason="the shared corpus (../shared/corpus) is absent"),
]


def _script():
    return load_script("scripts/skill_vs_gnubg.py")


def test_human_matches_agree_with_gnubg():
    s = _script()
    files = s.records([str(CORPUS / "bglab")], every=400, limit=3)
    assert len(files) == 3
    res = s.compare(files, GNUBG, jobs=1, gnubg_plies=0)
    assert res["compared"] > 150
    # the same best play in most unforced positions, the same equity lost within a few hundredths
    assert res["same_best"] / res["compared"] > 0.7
    assert res["mean_abs_error_diff"] < 0.03
    # the luck of each roll ranks alike
    assert res["luck_spearman_per_roll"] > 0.85
    # error rates of the same order as gnubg's, per player
    for _, _, theirs, ours in res["rows"]:
        assert abs(ours["luck_rate"] - theirs["luck_rate"]) < 10
        assert ours["error_rate"] < 3 * theirs["error_rate"] + 5


def test_gnubg_self_play_has_few_errors():
    s = _script()
    files = s.records([str(CORPUS / "gnubg-selfplay")], every=50, limit=2)
    res = s.compare(files, GNUBG, jobs=1, gnubg_plies=0)
    for _, _, theirs, ours in res["rows"]:
        assert theirs["checker_error_rate"] == pytest.approx(0, abs=1e-9)    # gnubg finds none of its own
        assert ours["checker_error_rate"] < 6


# ----------------------------------------------------------------------------------------- analysed SGF
def test_gnubg_reads_our_analysed_sgf_with_our_statistics():
    """``convert --to sgf --analyse``: GNU Backgammon loads the file with the analysis shown and computes,
    from our properties, the statistics ``analyze --by match`` gives (scripts/analysed_sgf_vs_gnubg.py):
    the same counts of moves, unforced moves, cube decisions, doubles, takes and passes; the same error
    totals and luck to gnubg's display (0.001); the same rates to its display (0.1 mEMG); the cube error
    rate within 0.3 (in match play the cube equities go through gnubg's match equity table and back)."""
    mod = load_script("scripts/analysed_sgf_vs_gnubg.py")
    files = [str(ROOT / "examples" / "selfplay-7pt.mat")] + _script().records([str(CORPUS / "bglab")], every=700,
                                                                              limit=2)
    res = mod.compare(files, GNUBG)
    assert res["players"] == 6
    for _, _, row in res["rows"]:
        for label, (theirs, ours) in row.items():
            if ": " not in label:                                   # a count
                assert theirs == ours, label
            elif "total" in label:
                assert theirs == pytest.approx(ours, abs=0.0006), label
            elif "Cube" in label or "cube" in label.split(":")[0]:
                assert theirs == pytest.approx(ours, abs=0.3), label
            elif label.startswith("overall"):
                assert theirs == pytest.approx(ours, abs=0.15), label
            else:
                assert theirs == pytest.approx(ours, abs=0.051), label
