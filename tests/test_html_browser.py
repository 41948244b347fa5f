"""The HTML report of ``validate --format html`` opened in a real browser (Debian's headless chromium).

Chromium loads the page from a file with networking off, dumps the DOM it built and takes a screenshot of
the whole page.  The DOM must hold one SVG board per finding that has a position, each with the checkers
the page drew and no reference to anything outside the page (links within the page, ``#file=...``, open
its replayer, which stays hidden and draws nothing until one is followed: tests/test_replayer_browser.py);
the screenshot must show those boards:
one block of board frame colour per board, with light and dark checkers in it.  Skipped when chromium is
not installed (``apt-get install -y chromium``).

Set ``NARDY_SCREENSHOT=/path/to/file.png`` to keep the screenshot for a look.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import EXAMPLES
from nardy_analyze.cli import app

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
pytestmark = pytest.mark.skipif(shutil.which(CHROMIUM) is None,
                                reason=f"chromium not installed ({CHROMIUM}; apt-get install -y chromium)")

FRAME, FIELD, DARK, LIGHT = (0x6B, 0x4A, 0x2B), (0xE9, 0xD8, 0xB4), (0x22, 0x22, 0x22), (0xF5, 0xF5, 0xF0)
WIDTH = 1000


def chromium(tmp: Path, page: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp / "chromium-profile"
    profile.mkdir(exist_ok=True)
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
           "--hide-scrollbars", "--proxy-server=127.0.0.1:9", f"--user-data-dir={profile}", *args,
           page.as_uri()]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                          env={**os.environ, "HOME": str(tmp)})


class Dom(HTMLParser):
    """SVG boards (with their circles) and every attribute that could load something from outside."""

    def __init__(self) -> None:
        super().__init__()
        self.boards: list[int] = []
        self.inside = False
        self.outside_refs: list[tuple[str, str, str]] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag == "svg":
            self.boards.append(0)
            self.inside = True
        elif tag == "circle" and self.inside:
            self.boards[-1] += 1
        for k, v in attrs:
            if k in ("src", "href", "xlink:href", "srcset", "data", "action", "poster") and \
                    not (k == "href" and tag == "a" and v and v.startswith("#")) or \
                    (v and "url(" in v) or (k == "style" and v and "@import" in v):
                self.outside_refs.append((tag, k, v or ""))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == "svg":
            self.inside = False

    def handle_endtag(self, tag):
        if tag == "svg":
            self.inside = False


def parse(text: str) -> Dom:
    d = Dom()
    d.feed(text)
    return d


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("html")
    out = tmp / "report.html"
    r = CliRunner().invoke(app, ["validate", str(EXAMPLES), "--format", "html", "-o", str(out)])
    assert r.exit_code == 1 and out.exists(), r.output      # the examples hold rule breaks on purpose
    return tmp, out


def test_chromium_builds_the_boards_in_the_dom(report):
    tmp, page = report
    p = chromium(tmp, page, "--dump-dom")
    assert p.returncode == 0, p.stderr[-2000:]
    dom, source = parse(p.stdout), parse(page.read_text(encoding="utf-8"))
    assert len(source.boards) >= 5
    assert dom.boards == source.boards                   # every board, every checker, as the page wrote it
    assert all(n > 0 for n in dom.boards)
    assert sum(dom.boards) > 100
    assert not dom.outside_refs and not source.outside_refs
    assert not {"link", "img", "iframe", "object", "embed"} & (dom.tags | source.tags)
    # the replayer's own script and its data, inline (outside_refs: no src)
    assert source.tags >= {"script"} and page.read_text(encoding="utf-8").count("<script") == 2


def _rows_with(pixels, colour, at_least: int) -> list[int]:
    """The rows of the image (an array height x width x RGB) with at least ``at_least`` pixels of ``colour``."""
    import numpy as np

    hits = (pixels == np.array(colour, dtype=pixels.dtype)).all(axis=2).sum(axis=1)
    return [int(y) for y in np.nonzero(hits >= at_least)[0]]


def _blocks(rows: list[int]) -> int:
    return sum(1 for i, y in enumerate(rows) if i == 0 or y != rows[i - 1] + 1)


def test_chromium_screenshot_shows_every_board_with_checkers(report):
    import numpy as np
    from PIL import Image

    tmp, page = report
    boards = parse(page.read_text(encoding="utf-8")).boards
    shot = tmp / "report.png"
    # tall enough for the whole page: the boards are 350 px high, the page has little else
    height = 600 + 450 * len(boards) + 120 * page.read_text(encoding="utf-8").count('class="finding')
    p = chromium(tmp, page, f"--window-size={WIDTH},{height}", f"--screenshot={shot}")
    assert p.returncode == 0 and shot.exists(), p.stderr[-2000:]
    if os.environ.get("NARDY_SCREENSHOT"):
        shutil.copyfile(shot, os.environ["NARDY_SCREENSHOT"])
    img = np.asarray(Image.open(shot).convert("RGB"))
    assert img.shape[1] == WIDTH
    # a board is a block of consecutive rows where the frame colour shows (its edges run down every row
    # of the board, text and margins lie between boards); the field, and checkers of both colours, show
    frame_rows = _rows_with(img, FRAME, 8)
    assert _blocks(frame_rows) == len(boards), (_blocks(frame_rows), len(boards))
    assert frame_rows[-1] < img.shape[0] - 5              # the last board is whole on the screenshot
    assert len(_rows_with(img, FIELD, 100)) > 200 * len(boards)
    assert len(_rows_with(img, DARK, 12)) > 20 and len(_rows_with(img, LIGHT, 12)) > 20
