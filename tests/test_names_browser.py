"""Names in Cyrillic, Azerbaijani, Armenian, Georgian and Turkish drawn by a real browser without tofu
(docs/convert.md, "Names in any script"): Debian's headless chromium, driven by Selenium through Debian's
chromedriver, as tests/test_replayer_browser.py.

Pages: ``show --as svg`` of each example with such names, ``show --as html`` (the replayer) and
``validate --format html`` (the report, on copies with an illegal play of each player, and its replayer
opened from a finding).  Every element that shows a non-ASCII letter is checked: each letter drawn in
that element's computed font (the page's font stack) must not be the browser's missing-glyph box, which
is what an unassigned code point (U+0378) draws in the same font; two unassigned code points drawing the
same image shows that this reference is the box.  The page's text holds the names exactly.

Skipped with the reason when chromium, chromedriver, Selenium or fontconfig is missing, or when no
installed font has these letters (``apt-get install fonts-dejavu-core``; ``.ci/run`` installs it).
``NARDY_SCREENSHOT_DIR=/some/folder`` keeps screenshots for a look.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import EXAMPLES
from test_names_scripts import NAMES, RECORDS, plant, read, write_record

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
LETTERS = {"Armenian": "Ա", "Georgian": "ა", "Cyrillic": "Ж", "Azerbaijani": "ə"}


def _fonts_missing() -> str | None:
    if shutil.which("fc-list") is None:
        return "fontconfig's fc-list is not installed"
    for script, letter in LETTERS.items():
        found = subprocess.run(["fc-list", f":charset={ord(letter):x}", "family"], capture_output=True,
                               text=True).stdout.strip()
        if not found:
            return f"no installed font has {script} letters (apt-get install -y fonts-dejavu-core)"
    return None


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which(CHROMIUM) is None,
                       reason=f"chromium not installed ({CHROMIUM}; apt-get install -y chromium)"),
    pytest.mark.skipif(shutil.which(CHROMEDRIVER) is None,
                       reason=f"chromedriver not installed ({CHROMEDRIVER}; apt-get install -y chromium-driver)"),
    pytest.mark.skipif(_fonts_missing() is not None, reason=_fonts_missing() or ""),
]
selenium = pytest.importorskip("selenium", reason="selenium not installed (pip install '.[test]')")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--proxy-server=127.0.0.1:9"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    profile = tmp_path_factory.mktemp("chromium-profile")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in FLAGS + [f"--user-data-dir={profile}", "--window-size=1200,1000"]:
        opts.add_argument(a)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


# Every rendered element with non-ASCII letters in its own text; each letter drawn on a canvas in the
# element's computed font, against the missing-glyph box (an unassigned code point in the same font).
_TOFU = r"""
function draw(font, ch) {
  var c = document.createElementNS('http://www.w3.org/1999/xhtml', 'canvas'); c.width = 90; c.height = 90;
  var x = c.getContext('2d'); x.font = font; x.fillStyle = '#000'; x.textBaseline = 'middle';
  x.fillText(ch, 10, 45); return c.toDataURL();
}
var out = [], skip = {HEAD: 1, SCRIPT: 1, STYLE: 1, TITLE: 1, META: 1};
var all = document.querySelectorAll('*');
for (var i = 0; i < all.length; i++) {
  var el = all[i], own = '';
  if (skip[el.tagName.toUpperCase()] || el.closest('head')) continue;
  for (var k = 0; k < el.childNodes.length; k++) if (el.childNodes[k].nodeType === 3) own += el.childNodes[k].data;
  var letters = Array.from(new Set(Array.from(own).filter(function (c) { return c.charCodeAt(0) > 127 && /\p{L}/u.test(c); })));
  if (!letters.length) continue;
  var st = getComputedStyle(el);
  if (st.display === 'none' && el.tagName.toUpperCase() !== 'OPTION') continue;
  var font = '48px ' + st.fontFamily, box = draw(font, '\u0378');
  out.push({tag: el.tagName, family: st.fontFamily, text: own.slice(0, 60),
            boxIsBox: box === draw(font, '\u0379'),
            tofu: letters.filter(function (c) { return draw(font, c) === box; })});
}
return out;
"""


def check_no_tofu(driver, names: tuple[str, ...], shot: str) -> list[dict]:
    found = driver.execute_script(_TOFU)
    assert found, "no element shows the names"
    for el in found:
        assert el["boxIsBox"], el
        assert not el["tofu"], el                      # a letter drawn as the missing-glyph box
    text = driver.execute_script("return document.documentElement.textContent")
    for n in names:
        assert n in text, n
    if os.environ.get("NARDY_SCREENSHOT_DIR"):
        driver.save_screenshot(str(Path(os.environ["NARDY_SCREENSHOT_DIR"]) / f"{shot}.png"))
    return found


@pytest.mark.parametrize("name", RECORDS)
def test_svg_board_draws_the_names(browser, tmp_path, name, cli):
    out = tmp_path / "board.svg"
    code, _, err = cli("show", str(EXAMPLES / name), "--game", "1", "--move", "3", "--as", "svg", "-o", str(out),
                       errors="strict")
    assert code == 0, err
    browser.get(out.as_uri())
    found = check_no_tofu(browser, NAMES[name], f"names-svg-{Path(name).stem}")
    shown = " ".join(el["text"] for el in found if el["tag"].lower() == "text")
    assert all(n in shown for n in NAMES[name])
    assert all("Noto Sans Armenian" in el["family"] for el in found)       # the board's font stack


@pytest.mark.parametrize("name", RECORDS)
def test_replayer_page_draws_the_names(browser, tmp_path, name, cli):
    out = tmp_path / "replay.html"
    code, _, err = cli("show", str(EXAMPLES / name), "--as", "html", "-o", str(out), errors="strict")
    assert code == 0, err
    browser.get(out.as_uri())
    found = check_no_tofu(browser, NAMES[name], f"names-replayer-{Path(name).stem}")
    tags = {el["tag"].lower() for el in found}
    assert {"text", "li", "option"} <= tags, tags             # the board, the list of moves, the game menu


def test_validate_report_and_its_replayer_draw_the_names(browser, tmp_path, cli):
    paths = [str(write_record(plant(read(EXAMPLES / n)), tmp_path / n)) for n in RECORDS]
    out = tmp_path / "report.html"
    code, _, err = cli("validate", "--format", "html", "-o", str(out), *paths, errors="strict")
    assert code == 1, err
    browser.get(out.as_uri())
    every = tuple(n for name in RECORDS for n in NAMES[name])
    check_no_tofu(browser, every, "names-report")
    links = browser.find_elements("css selector", "a.replay")
    assert links
    links[0].click()
    WebDriverWait(browser, 10).until(lambda d: d.find_element("id", "replayer").is_displayed())
    found = check_no_tofu(browser, NAMES[RECORDS[0]], "names-report-replayer")
    assert any(el["tag"].lower() == "text" for el in found)          # the replayer's board


LIBERATION = Path("/usr/share/fonts/truetype/liberation")


@pytest.mark.skipif(not LIBERATION.is_dir(), reason=f"{LIBERATION} not installed (Debian fonts-liberation)")
def test_the_check_sees_tofu_when_no_font_has_the_letters(tmp_path, cli):
    """The check can fail: a browser that may use only the Liberation fonts (Latin, Cyrillic; no Armenian,
    no Georgian, no ə) draws the Armenian and Georgian names of the board as boxes, and the check says so."""
    conf = tmp_path / "fonts.conf"
    conf.write_text(f'<?xml version="1.0"?>\n<fontconfig><dir>{LIBERATION}</dir>'
                    f'<cachedir>{tmp_path / "cache"}</cachedir></fontconfig>\n')
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in FLAGS + [f"--user-data-dir={tmp_path / 'profile'}", "--window-size=800,600"]:
        opts.add_argument(a)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER, env=env), options=opts)
    try:
        out = tmp_path / "board.svg"
        code, _, err = cli("show", str(EXAMPLES / "yerevan-tbilisi-3pt.sgf"), "--as", "svg", "-o", str(out),
                           errors="strict")
        assert code == 0, err
        driver.get(out.as_uri())
        found = driver.execute_script(_TOFU)
    finally:
        driver.quit()
    tofu = {c for el in found for c in el["tofu"]}
    assert all(el["boxIsBox"] for el in found)
    assert set("Արամ Պետրոսյան".replace(" ", "")) | set("გიორგი ბერიძე".replace(" ", "")) <= tofu
