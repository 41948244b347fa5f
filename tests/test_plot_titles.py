"""The panels of ``stats --plot`` keep their titles apart in every language: a long title wraps within its
panel and never runs into the next one (measured on the drawn figure)."""
from __future__ import annotations

import pytest

from helpers import ROOT
from nardy_analyze.i18n import LANGUAGES, set_language

EXAMPLES = ROOT / "examples"


def _drawn_titles(lang: str, tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from nardy_analyze import stats, statsrun

    set_language(lang)
    boxes = []
    real_close = plt.close

    def keep(fig=None):
        renderer = fig.canvas.get_renderer()
        for ax in fig.axes:
            if ax.get_title():
                boxes.append((ax.get_title(), ax.title.get_window_extent(renderer), fig.bbox))
        real_close(fig)

    plt.close = keep
    try:
        stats.plot(statsrun.players([str(EXAMPLES)]), str(tmp_path / "p.png"))
    finally:
        plt.close = real_close
        set_language(None)
    return boxes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_panel_titles_never_touch(lang, tmp_path):
    boxes = sorted(_drawn_titles(lang, tmp_path), key=lambda b: b[1].x0)
    assert len(boxes) == 3, [b[0] for b in boxes]
    for (_, left, fig), (_, right, _) in zip(boxes, boxes[1:]):
        assert right.x0 - left.x1 >= 12, (lang, [b[0] for b in boxes], left, right)     # pixels apart
    for text, box, fig in boxes:
        assert box.x0 >= 0 and box.x1 <= fig.x1, text
