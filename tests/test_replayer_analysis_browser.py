"""The analysis in the replayer (``show FILE --as html --analyse``) in a real browser: Debian's headless
chromium through Selenium, as tests/test_replayer_browser.py drives it.

Stepping through a game with the keyboard, the chart's marker stands at each step (it moves right at every
step, and its dot is at the step's chance), the caption gives that chance, and a graded step shows its
grade; the best plays open on request, the play made marked; a click on the chart goes to that step; at
desktop and at phone width (390 px) nothing sticks out sideways.  Backgammon (a 5-point match, bgsage) and
Gul bara (the shipped evaluator).  ``NARDY_SCREENSHOT_DIR=/some/folder`` keeps the screenshots for a look.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import EXAMPLES
from nardy_analyze.cli import app
from nardy_analyze.stats import skill

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which(CHROMIUM) is None,
                       reason=f"chromium not installed ({CHROMIUM}; apt-get install -y chromium)"),
    pytest.mark.skipif(shutil.which(CHROMEDRIVER) is None,
                       reason=f"chromedriver not installed ({CHROMEDRIVER}; apt-get install -y chromium-driver)"),
]
selenium = pytest.importorskip("selenium", reason="selenium not installed (pip install '.[test]')")

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

# the browser (a module fixture) and its console check, as the replayer's own browser tests set them up
from test_replayer_browser import browser, no_console_errors  # noqa: E402,F401
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

GRADES = {"doubtful": 1, "bad": 2, "very bad": 3}


def analysed_page(tmp: Path, record: Path) -> tuple[Path, dict]:
    out = tmp / (record.stem + ".html")
    r = CliRunner().invoke(app, ["show", str(record), "--as", "html", "--analyse", "-o", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(re.search(r'<script type="application/json" id="rp-data">(.*?)</script>', out.read_text(),
                                re.S).group(1))
    return out, data["files"][0]


_STATE = """
var m=document.getElementById('rp-mark'),d=document.getElementById('rp-dot'),b=document.getElementById('rp-board');
var an=document.getElementById('rp-an');
return {step:b.getAttribute('data-step'), game:b.getAttribute('data-game'), mark:m&&m.getAttribute('data-step'),
 x:m&&+m.getAttribute('x1'), dotx:d&&+d.getAttribute('cx'), doty:d&&+d.getAttribute('cy'),
 dotshown:d&&d.style.display!=='none', cap:document.getElementById('rp-chartcap').textContent,
 an:an.hidden?'':an.textContent, grades:Array.from(an.querySelectorAll('.gr')).map(function(e){return e.className;}),
 listmarks:document.querySelectorAll('#rp-moves .gr').length};
"""

# the chart's geometry in the page's script (CW, CH, CL, CR, CT, CB)
W, H, L, R, T, B = 460, 110, 38, 8, 8, 16


def chance_at(w: list, i: int):
    for k in range(i, -1, -1):
        if w[k] is not None:
            return w[k]
    return None


def walk_game(driver, game: dict) -> int:
    """Step through ``game`` (the page open at its first step) with the right arrow: the marker follows.
    Returns the graded steps seen."""
    body = driver.find_element("tag name", "body")
    n, last_x, graded = len(game["f"]), -1.0, 0
    for i in range(n):
        if i:
            body.send_keys(Keys.ARROW_RIGHT)
        s = driver.execute_script(_STATE)
        assert s["step"] == str(i) and s["mark"] == str(i), (i, s["step"], s["mark"])
        assert s["x"] > last_x and s["dotx"] == pytest.approx(s["x"])          # the marker moved right
        assert s["x"] == pytest.approx(L + i * (W - L - R) / (n - 1), abs=0.06)
        last_x = s["x"]
        v = chance_at(game["w"], i)
        if v is not None:
            assert s["dotshown"] and s["doty"] == pytest.approx(T + (1 - v) * (H - T - B), abs=0.06)
            assert f"{100 * v:.1f}%" in s["cap"]
        marks = game["a"][i] or []
        worst = max((GRADES.get(e["g"], 0) for e in marks), default=0)
        if worst:
            graded += 1
            assert f"gr g{worst}" in s["grades"], (i, s["grades"])
            assert any(e["g"] in s["an"] for e in marks if e["g"])
        if marks:
            assert s["an"], i
    return graded


def test_the_marker_follows_the_steps_and_the_grades_show(browser, tmp_path):
    rec = EXAMPLES / ("baku-final-5pt.mat" if skill.engine_available() else "tbilisi-gulbara.ngn")
    page, data = analysed_page(tmp_path, rec)
    gi = 1 if len(data["games"]) > 1 else 0
    game = data["games"][gi]
    browser.get(page.as_uri() + f"#game={game['n']}&step=0")
    graded = walk_game(browser, game)
    assert graded > 0
    assert browser.execute_script(_STATE)["listmarks"] == sum(
        1 for a in game["a"] if a and any(e["g"] for e in a))                  # the list marks each graded step
    no_console_errors(browser)


def _first_graded_roll(game: dict, after: int = 0) -> int:
    return next(i for i, a in enumerate(game["a"]) if i >= after and a and any(e["k"] == "c" and e["g"] for e in a))


def test_best_plays_on_request_and_the_chart_goes_to_a_step(browser, tmp_path):
    page, data = analysed_page(tmp_path, EXAMPLES / "tbilisi-gulbara.ngn")
    game = data["games"][0]
    i = _first_graded_roll(game)
    browser.get(page.as_uri() + f"#game={game['n']}&step={i}")
    assert not browser.find_elements("css selector", "#rp-an table")
    browser.find_element("css selector", 'button[data-go="plays"]').click()
    rows = browser.find_elements("css selector", "#rp-an table tr")
    e = next(x for x in game["a"][i] if x["k"] == "c")
    assert len(rows) == 1 + len(e["p"]) + (0 if e["r"] and e["r"] <= len(e["p"]) else 1)
    played = browser.find_elements("css selector", "#rp-an tr.played")
    text = e["p"][e["r"] - 1][0] if e["r"] and e["r"] <= len(e["p"]) else e.get("x") or e["m"]
    assert len(played) == 1 and text in played[0].text
    # the panel stays open while stepping, and closes on request
    browser.find_element("tag name", "body").send_keys(Keys.ARROW_RIGHT)
    browser.find_element("tag name", "body").send_keys(Keys.ARROW_LEFT)
    assert browser.find_elements("css selector", "#rp-an table")
    browser.find_element("css selector", 'button[data-go="plays"]').click()
    assert not browser.find_elements("css selector", "#rp-an table")
    # a click on the chart goes to the step under it
    svg = browser.find_element("css selector", "#rp-chart svg")
    n = len(game["f"])
    for k in (0, n // 2, n - 1):
        x = (L + k * (W - L - R) / (n - 1)) * svg.rect["width"] / W
        ActionChains(browser).move_to_element_with_offset(svg, x - svg.rect["width"] / 2, 0).click().perform()
        WebDriverWait(browser, 10).until(lambda d: d.execute_script(_STATE)["step"] == str(k))
        assert browser.execute_script(_STATE)["mark"] == str(k)
    no_console_errors(browser)


def _settled(driver, width: int) -> None:
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return window.innerWidth") == width)
    driver.execute_async_script("var done = arguments[0];"
                                "requestAnimationFrame(function () { requestAnimationFrame(done); });")


_OVERFLOW = """
var w = window.innerWidth, out = [];
document.querySelectorAll('body *').forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (r.right > w + 0.5 && !(e.parentElement && e.parentElement.closest('svg')))
    out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' right=' + Math.round(r.right));
});
return [document.documentElement.scrollWidth, w, out.slice(0, 8)];
"""


@pytest.mark.parametrize("which", ["baku-final-5pt.mat", "tbilisi-gulbara.ngn"])
def test_screenshots_at_desktop_and_phone_width(browser, tmp_path, which):
    """At a graded play with the best plays open: the chart (its line and marker) is drawn, the page does
    not scroll sideways at 390 px, and the chart and the panel fit the screen."""
    import numpy as np
    from PIL import Image

    if which.endswith(".mat") and not skill.engine_available():
        pytest.skip("the analysis extra (bgsage) is not installed")
    page, data = analysed_page(tmp_path, EXAMPLES / which)
    game = data["games"][-1]
    i = _first_graded_roll(game, 2)
    try:
        for name, w, h in (("desktop", 1200, 1100), ("phone", 390, 1700)):
            browser.set_window_size(w, h)
            _settled(browser, w)
            browser.get(page.as_uri() + f"#game={game['n']}&step={i}")
            browser.find_element("css selector", 'button[data-go="plays"]').click()
            scroll, inner, out = browser.execute_script(_OVERFLOW)
            assert scroll <= inner and not out, (name, scroll, inner, out)
            box = browser.execute_script(
                "var r=document.querySelector('#rp-chart svg').getBoundingClientRect(),"
                "a=document.getElementById('rp-an').getBoundingClientRect();"
                "return [r.left,r.right,r.top,r.height,a.right,window.innerWidth,window.devicePixelRatio,"
                "+document.getElementById('rp-mark').getAttribute('x1')];")
            left, right, top, height, an_right, inner, ratio, mark = box
            assert 0 <= left and right <= inner and height > 40 and an_right <= inner, (name, box)
            shot = tmp_path / f"replayer-analysis-{Path(which).stem}-{name}.png"
            browser.save_screenshot(str(shot))
            keep = os.environ.get("NARDY_SCREENSHOT_DIR")
            if keep:
                shutil.copyfile(shot, Path(keep) / shot.name)
            img = np.asarray(Image.open(shot).convert("RGB")).astype(int)
            scale = (right - left) / W * ratio
            chart = img[int(top * ratio):int(top * ratio + height * ratio), int(left * ratio):int(right * ratio)]

            blue = (np.abs(chart - np.array((0x2F, 0x55, 0x97))).sum(axis=2) < 60)
            red = (chart[:, :, 0] > 150) & (chart[:, :, 1] < 120) & (chart[:, :, 2] < 120)
            assert blue.sum() > 40, name                                       # the line of the chances
            x = int(mark * scale)                                              # the marker: a red upright line
            column = red[:, max(0, x - 2):x + 3].any(axis=1).sum()
            assert column > 0.6 * (H - T - B) * scale, (name, column)
    finally:
        browser.set_window_size(1200, 1000)
    no_console_errors(browser)
