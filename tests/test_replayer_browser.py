"""The replayer page of ``show FILE --as html`` in a real browser: Debian's headless chromium, driven by
Selenium through Debian's chromedriver (no browser download, networking off).

Every step of a real 7-game match (a GNU Backgammon self-play match of the shared corpus when present,
else the repository's 7-point self-play match), of a generated long nardy game and of a generated Gul
bara game (chains and handovers) is reached with the keyboard; at each one the board element's
``data-game`` / ``data-move`` and ``data-position-id`` (and ``data-match-id``) must be those of ``show``
for that game and roll, and the checkers the page drew, point by point, those of ``show --as svg``.
Addresses open their position, with a click-free ``chromium --dump-dom`` too; the browser logs no error.

Skipped with the reason when chromium, chromedriver or Selenium is missing (``apt-get install chromium
chromium-driver``, ``pip install '.[test]'``).  ``NARDY_SCREENSHOT_DIR=/some/folder`` keeps the
screenshots for a look.
"""
from __future__ import annotations

import os
import re
import shutil
import time
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import CORPUS, EXAMPLES
from nardy_analyze import notation
from nardy_analyze.report import show as shows
from nardy_analyze.report import svg as svg_module
from nardy_analyze.cli import app
from nardy_analyze.engine import get_variant
from nardy_analyze.engine.posid import decode_position_id, position_id
from nardy_analyze.report.replayer import record_data

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
pytestmark = [
    pytest.mark.skipif(shutil.which(CHROMIUM) is None,
                       reason=f"chromium not installed ({CHROMIUM}; apt-get install -y chromium)"),
    pytest.mark.skipif(shutil.which(CHROMEDRIVER) is None,
                       reason=f"chromedriver not installed ({CHROMEDRIVER}; apt-get install -y chromium-driver)"),
]
selenium = pytest.importorskip("selenium", reason="selenium not installed (pip install '.[test]')")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--proxy-server=127.0.0.1:9"]
SELFPLAY_7 = CORPUS / "gnubg-selfplay" / "gnubg_1004.mat"     # 7 games


# ----------------------------------------------------------------------------- reading a drawn board

class _Svg(HTMLParser):
    """The elements of an SVG board: (tag, attributes, text)."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[list] = []

    def handle_starttag(self, tag, attrs):
        self.items.append([tag, dict(attrs), ""])

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        if self.items and self.items[-1][0] == "text":
            self.items[-1][2] += data


def svg_items(svg: str) -> list[list]:
    p = _Svg()
    p.feed(svg)
    return p.items


def drawn(svg: str) -> dict:
    """What a board shows, read from its drawing alone: for each point label (the numbering of the
    player to act) the checkers there and their colour, the checkers on the bar and borne off by colour.
    The board's geometry is svg_module.board_geometry()."""
    geo = svg_module.board_geometry()
    items = svg_items(svg)
    labels: dict[tuple[float, bool], int] = {}
    for tag, a, text in items:
        if tag == "text" and a.get("font-size") == "10" and text.strip().isdigit():
            y = float(a["y"])
            if y in (geo["bottom"] + 14, geo["top"] - 6):
                labels[(float(a["x"]), y > geo["h"] / 2)] = int(text)
    assert len(labels) == 24, labels
    columns: dict[tuple[float, bool], list] = {}
    bar: dict[str, int] = {}
    for tag, a, text in items:
        if tag == "circle" and a.get("r") == "12":
            x, y = float(a["cx"]), float(a["cy"])
            if x == geo["barx"]:
                continue
            c = columns.setdefault((x, y > geo["h"] / 2), [0, a["fill"]])
            c[0] += 1
            assert c[1] == a["fill"], "two colours on one point"
    for tag, a, text in items:
        if tag == "text" and a.get("font-size") == "11" and text.strip().isdigit():
            x, y = float(a["x"]), float(a["y"])
            if x == geo["barx"]:
                colour = "#fff" if a["fill"] == "#fff" else "#000"
                bar["dark" if colour == "#fff" else "light"] = int(text)
            else:
                columns[(x, y > geo["h"] / 2)][0] = int(text)
    points = {labels[k]: (n, "dark" if fill == "#222" else "light") for k, (n, fill) in columns.items()}
    offs = {}
    for tag, a, text in items:
        m = re.fullmatch(r"off (\d+)", text.strip()) if tag == "text" else None
        if m:
            offs["dark" if float(a["y"]) > geo["h"] / 2 else "light"] = int(m.group(1))
    return {"points": points, "bar": bar, "off": offs}


def by_player(board: dict, dark_player: int) -> dict:
    """``drawn`` with colours replaced by players (0/1)."""
    who = {"dark": dark_player, "light": 1 - dark_player}
    return {"points": {k: (n, who[c]) for k, (n, c) in board["points"].items()},
            "bar": {who[c]: n for c, n in board["bar"].items()},
            "off": {who[c]: n for c, n in board["off"].items()}}


# ----------------------------------------------------------------------------- the browser

@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    profile = tmp_path_factory.mktemp("chromium-profile")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in FLAGS + [f"--user-data-dir={profile}", "--window-size=1200,1000"]:
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def no_console_errors(driver) -> None:
    bad = [e for e in driver.get_log("browser") if e.get("level") in ("SEVERE", "WARNING")]
    assert not bad, bad


_STATE = """
var b=document.getElementById('rp-board');
return {game:b.getAttribute('data-game'), move:b.getAttribute('data-move'), step:b.getAttribute('data-step'),
 pid:b.getAttribute('data-position-id'), mid:b.getAttribute('data-match-id'),
 player:b.getAttribute('data-player'), svg:b.innerHTML, hash:location.hash,
 ready:document.documentElement.getAttribute('data-replayer')};
"""


def state(driver) -> dict:
    return driver.execute_script(_STATE)


def write_page(tmp: Path, record: Path) -> Path:
    out = tmp / (record.stem + ".html")
    r = CliRunner().invoke(app, ["show", str(record), "--as", "html", "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


# ----------------------------------------------------------------------------- records

def _generated(tmp: Path, variant: str, seed: int, players: tuple[str, str]) -> Path:
    out = tmp / f"{variant}-{seed}.ngn"
    r = CliRunner().invoke(app, ["generate", "--variant", variant, "--seed", str(seed), "--players",
                                 ",".join(players), "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("records")
    match7 = SELFPLAY_7 if SELFPLAY_7.exists() else EXAMPLES / "selfplay-7pt.mat"
    return {"match": match7, "long": _generated(tmp, "long", 1, ("Timur", "Dina")),
            "gulbara": _generated(tmp, "gulbara", 0, ("Aysel", "Rashad"))}


def read(path: Path):
    return notation.read_bytes(path.read_bytes(), str(path))


def _sides(frame: list) -> tuple:
    """A frame's board as (first player's side, second player's side), from its Position ID."""
    me, opp = decode_position_id(frame[3])
    return (me, opp) if frame[2] == 0 else (opp, me)


def expected_board(match, data: dict, gi: int, fi: int) -> tuple[dict, str, str]:
    """What the board of a frame must show: (the board by player, Position ID, Match ID or "").  A roll, a
    further part of a Gul bara turn (``show --move M.K``) and the final position are ``show``'s; any other
    action (a double, a take, a result) moves no checker: the board of the step after it."""
    g = data["games"][gi]
    fr = g["f"][fi]
    key = fr[0]
    if key:
        snap = shows.pick(match, g["n"], None if key == "end" else key)
        board = by_player(drawn(shows.as_svg(snap)), snap.player)
        if data["ids"] and key != "end":
            pid, mid = shows.as_gnubg(snap).split(":")
        else:
            pid, mid = position_id(*snap.pos), ""
        return board, pid, mid
    p = fr[2]
    sides = _sides(fr)
    if fr[1] != "roll":                   # (a roll whose dice cannot be read may move checkers)
        assert sides == _sides(g["f"][fi + 1]), (g["n"], fi, fr[1])
    rules = get_variant(data["variant"]).rules
    board = by_player(drawn(svg_module.svg_board((sides[p], sides[1 - p]), opp_point=rules.opp_point)), p)
    return board, fr[3], ""


def sweep(driver, page: Path, match) -> int:
    """Open the page at its first position, step to the last with the right arrow key, and compare each
    step with ``show``.  Returns the number of steps."""
    data = record_data(match)
    order = [(gi, fi) for gi, g in enumerate(data["games"]) for fi in range(len(g["f"]))]
    driver.get(page.as_uri())
    body = driver.find_element("tag name", "body")
    for n, (gi, fi) in enumerate(order):
        paused = n % 25 == 0
        if n:
            if paused:          # a step after a pause changes the address at once (the last change, the
                time.sleep(0.35)  # trailing one of the steps before, is then more than 150 ms old)
            body.send_keys(Keys.ARROW_RIGHT)
        s = state(driver)
        g = data["games"][gi]
        key = g["f"][fi][0]
        assert s["game"] == str(g["n"]) and s["step"] == str(fi), (n, s["game"], s["step"], gi, fi)
        assert s["move"] == (key or f"step{fi}")
        board, pid, mid = expected_board(match, data, gi, fi)
        assert s["pid"] == pid, (g["n"], key)
        assert (s["mid"] or "") == mid, (g["n"], key)
        # default view: the first player's checkers (dark) at the bottom, whoever is to act
        assert by_player(drawn(s["svg"]), 0) == board, (g["n"], key)
        address = f"#game={g['n']}&" + (f"move={key}" if key else f"step={fi}")
        if paused:
            assert s["hash"] == address
    # the steps stopped: the address is the last one's (the trailing change)
    WebDriverWait(driver, 3).until(lambda d: state(d)["hash"] == address)
    body.send_keys(Keys.ARROW_RIGHT)                   # past the end: stays on the last position
    assert state(driver)["step"] == str(len(data["games"][-1]["f"]) - 1)
    no_console_errors(driver)
    return len(order)


# ----------------------------------------------------------------------------- tests

@pytest.mark.parametrize("which", ["match", "long", "gulbara"])
def test_every_step_by_keyboard_is_what_show_shows(browser, records, tmp_path, which):
    rec = records[which]
    match = read(rec)
    page = write_page(tmp_path, rec)
    steps = sweep(browser, page, match)
    snaps = shows.snapshots(match)
    assert steps >= len(snaps)                        # every roll of every game and each final position
    if which == "match":
        assert len(match.games) == 7 or rec.name == "selfplay-7pt.mat"
    if which == "gulbara":
        parts = [f for g in record_data(match)["games"] for f in g["f"] if "." in f[0]]
        assert {f[1] for f in parts} == {"chain", "handover"}


def test_a_held_arrow_key_changes_the_address_a_few_times_and_ends_on_the_last_step(browser, records, tmp_path):
    """Stepping faster than the address may change (a held key): the page changes it at most once per
    150 ms, so that the browser never drops the calls (past about 100 in 10 s it does, with a warning), and
    the address ends on the position shown."""
    rec = records["match"]
    page = write_page(tmp_path, rec)
    browser.get(page.as_uri())
    browser.execute_script("window.__calls=0;var rs=history.replaceState.bind(history);"
                           "history.replaceState=function(a,b,c){window.__calls++;return rs(a,b,c);};")
    body = browser.find_element("tag name", "body")
    t0 = time.monotonic()
    for _ in range(120):
        body.send_keys(Keys.ARROW_RIGHT)
    took = time.monotonic() - t0
    s = state(browser)
    WebDriverWait(browser, 3).until(lambda d: state(d)["hash"] == f"#game={s['game']}&move={s['move']}"
                                    or state(d)["hash"] == f"#game={s['game']}&step={s['step']}")
    calls = browser.execute_script("return window.__calls")
    assert 1 <= calls <= took / 0.15 + 2, (calls, took)
    # an address set by someone else while a change of the page's own is pending (a link followed at once
    # after fast steps) is what the page then shows; the page does not write its own over it
    for _ in range(5):
        body.send_keys(Keys.ARROW_LEFT)
    # (the page busy for 0.3 s first: its pending change is due, and runs before the new address's hashchange)
    browser.execute_script("var t=Date.now();while(Date.now()-t<300){}location.hash='#game=1&move=3';")
    time.sleep(0.5)
    st = state(browser)
    assert (st["game"], st["move"], st["hash"]) == ("1", "3", "#game=1&move=3"), st["hash"]
    no_console_errors(browser)


def test_the_address_opens_its_position_and_follows_changes(browser, records, tmp_path):
    rec = records["match"]
    match = read(rec)
    page = write_page(tmp_path, rec)
    snaps = [s for s in shows.snapshots(match) if s.move is not None]
    picks = [snaps[0], snaps[len(snaps) // 3], snaps[-1]]
    for s in picks:
        browser.get(page.as_uri() + f"#game={s.game}&move={s.move}")
        st = state(browser)
        assert (st["game"], st["move"]) == (str(s.game), str(s.move))
        assert f"{st['pid']}:{st['mid']}" == shows.as_gnubg(s)
    # a link followed within the page (hashchange) and the end of a game
    g = picks[1].game
    browser.execute_script(f"location.hash='#game={g}&move=end'")
    st = state(browser)
    final = shows.pick(match, g)
    assert st["move"] == "end" and by_player(drawn(st["svg"]), 0) == by_player(drawn(shows.as_svg(final)),
                                                                                final.player)
    # clicking a move of the list
    browser.find_element("css selector", '#rp-moves li[data-i="3"]').click()
    assert state(browser)["step"] == "3"
    # the buttons
    browser.find_element("css selector", 'button[data-go="last"]').click()
    assert state(browser)["move"] == "end"
    browser.find_element("css selector", 'button[data-go="first"]').click()
    assert state(browser)["step"] == "0"
    browser.find_element("css selector", 'button[data-go="next"]').click()
    assert state(browser)["step"] == "1"
    no_console_errors(browser)


def test_view_of_the_player_to_act_is_shows_drawing(browser, records, tmp_path):
    """With the board turned to the player to act, the page draws exactly the elements of
    ``show --as svg`` (its title aside)."""
    rec = records["gulbara"]
    match = read(rec)
    page = write_page(tmp_path, rec)
    browser.get(page.as_uri() + "#game=1&move=1")
    browser.execute_script("var v=document.getElementById('rp-view');v.value='roll';"
                           "v.dispatchEvent(new Event('change'));")
    body = browser.find_element("tag name", "body")
    norm = [s for s in shows.snapshots(match) if s.move is not None][:25]
    for s in norm:
        # (a later part of a Gul bara turn is its own snapshot: move M.K, as the replayer's address says it)
        browser.execute_script(f"location.hash='#game={s.game}&move={s.address}'")
        st = state(browser)
        mine = [(t, {k: v for k, v in a.items() if k != "aria-label"}, x.strip()) for t, a, x in svg_items(st["svg"])]
        theirs = [(t, {k: v for k, v in a.items() if k != "aria-label"}, x.strip())
                  for t, a, x in svg_items(shows.as_svg(s))]

        def norm_num(items):
            out = []
            for t, a, x in items:
                out.append((t, {k: (float(v) if re.fullmatch(r"-?\d+(\.\d+)?", v) else
                                    " ".join(str(float(n)) for n in re.split(r"[ ,]", v))
                                    if k == "points" else v) for k, v in a.items()}, x))
            return out
        assert norm_num(mine) == norm_num(theirs), (s.game, s.address)
    body.send_keys(Keys.ARROW_RIGHT)
    no_console_errors(browser)


def test_dump_dom_of_an_address_shows_that_position(records, tmp_path):
    """``chromium --headless --dump-dom 'file:///...#game=G&move=M'``: the script runs on load, so the
    board of that position is in the DOM without a click."""
    rec = records["match"]
    match = read(rec)
    page = write_page(tmp_path, rec)
    s = [x for x in shows.snapshots(match) if x.move is not None and x.game == 2][7]
    profile = tmp_path / "profile"
    profile.mkdir()
    p = subprocess.run([CHROMIUM, *FLAGS[1:], "--headless", f"--user-data-dir={profile}", "--dump-dom",
                        page.as_uri() + f"#game={s.game}&move={s.move}"],
                       capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                       env={**os.environ, "HOME": str(tmp_path)})
    assert p.returncode == 0, p.stderr[-2000:]
    m = re.search(r'<div class="rp-board" id="rp-board"([^>]*)>(.*?)</div>', p.stdout, re.S)
    assert m, p.stdout[:2000]
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1)))
    assert (attrs["data-game"], attrs["data-move"]) == (str(s.game), str(s.move))
    assert f"{attrs['data-position-id']}:{attrs['data-match-id']}" == shows.as_gnubg(s)
    assert by_player(drawn(m.group(2)), 0) == by_player(drawn(shows.as_svg(s)), s.player)


# what sticks out past the window's right edge (none, when the page fits), for the failure's message
_OVERFLOW = """
var w = window.innerWidth, out = [];
document.querySelectorAll('body *').forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (r.right > w + 0.5 && !(e.parentElement && e.parentElement.closest('svg')))
    out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' right=' + Math.round(r.right)
             + ' ' + (e.textContent || '').trim().slice(0, 60));
});
return [document.documentElement.scrollWidth, w, out.slice(0, 8)];
"""


def _settled(driver, width: int) -> None:
    """Wait until the window has its new width and the page has been laid out at it (two frames)."""
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return window.innerWidth") == width)
    driver.execute_async_script("var done = arguments[0];"
                                "requestAnimationFrame(function () { requestAnimationFrame(done); });")


def assert_no_sideways_scroll(driver) -> None:
    scroll, inner, out = driver.execute_script(_OVERFLOW)
    assert scroll <= inner and not out, (scroll, inner, out)


def _shot(driver, name: str, width: int, height: int, tmp: Path) -> Path:
    driver.set_window_size(width, height)
    _settled(driver, width)
    out = tmp / name
    driver.save_screenshot(str(out))
    keep = os.environ.get("NARDY_SCREENSHOT_DIR")
    if keep:
        shutil.copyfile(out, Path(keep) / name)
    return out


def test_screenshots_of_a_gul_bara_handover_desktop_and_mobile(browser, tmp_path):
    """The shipped Gul bara example at the handover inside its chain (roll 2, part 3: Rashad plays the
    5 that Aysel could not), at desktop and at phone width: the board is whole on the screen, the page
    does not scroll sideways, and the board shows both colours of checkers and the one die handed over."""
    import numpy as np
    from PIL import Image

    # the record at a long path without a hyphen, as a checkout's folder can be: the page shows that path
    # (its title, the line of each step) and must wrap it at phone width rather than scroll sideways
    where = tmp_path / ("checkout" + "0123456789abcdef" * 3) / "examples"
    where.mkdir(parents=True)
    rec = where / "gulbara-chain-handover.ngn"
    shutil.copyfile(EXAMPLES / rec.name, rec)
    page = write_page(tmp_path, rec)
    browser.get(page.as_uri() + "#game=1&move=2.3")
    st = state(browser)
    assert st["move"] == "2.3" and "handover" in browser.find_element("id", "rp-status").text
    dice = [x.strip() for t, a, x in svg_items(st["svg"]) if t == "text" and a.get("font-size") == "16"]
    assert dice == ["5"]
    for name, w, h in (("replayer-desktop.png", 1200, 900), ("replayer-mobile.png", 390, 844)):
        shot = _shot(browser, name, w, h, tmp_path)
        img = np.asarray(Image.open(shot).convert("RGB"))
        frame = (img == np.array((0x6B, 0x4A, 0x2B), dtype=img.dtype)).all(axis=2)
        assert frame.sum() > 2000
        rows = np.nonzero(frame.any(axis=1))[0]
        assert rows[0] > 0 and rows[-1] < img.shape[0] - 1 or w > 1000     # desktop: board whole
        for colour in ((0x22, 0x22, 0x22), (0xF5, 0xF5, 0xF0)):
            assert (img == np.array(colour, dtype=img.dtype)).all(axis=2).sum() > 300
        widths = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth,"
                                        "document.getElementById('rp-board').getBoundingClientRect().right]")
        assert widths[2] <= widths[1], widths
        assert_no_sideways_scroll(browser)
    browser.set_window_size(1200, 1000)
    no_console_errors(browser)


@pytest.mark.parametrize("analyse", [False, True], ids=["plain", "analyse"])
def test_validate_report_fits_a_phone(browser, tmp_path, analyse):
    """``validate --format html`` at phone width (and, with the analysis' wide text under each finding, at a
    desktop's too): the finding boards shrink to the screen, long paths wrap and the analysis scrolls in its
    own box, so the page never scrolls sideways."""
    where = tmp_path / ("archive" + "0123456789abcdef" * 3)
    where.mkdir()
    for name in ("club-night.mat", "gulbara-chain-handover.ngn"):
        shutil.copyfile(EXAMPLES / name, where / name)
    out = tmp_path / "report.html"
    r = CliRunner().invoke(app, ["validate", str(where), "--format", "html", "-o", str(out),
                                 *(["--analyse"] if analyse else [])])
    assert r.exit_code == 1, r.output
    if analyse:
        assert 'class="analysis"' in out.read_text(encoding="utf-8")
    browser.get(out.as_uri())
    try:
        for width in ((1200, 390, 320) if analyse else (390, 320)):
            browser.set_window_size(width, 844)
            _settled(browser, width)
            assert_no_sideways_scroll(browser)
            boards = browser.execute_script("return Array.from(document.querySelectorAll('.board svg'))"
                                            ".map(function (s) { return s.getBoundingClientRect().width; })")
            assert boards and all(0 < b <= width for b in boards), boards
    finally:
        browser.set_window_size(1200, 1000)
    no_console_errors(browser)


def test_validate_report_links_each_finding_to_its_step(browser, tmp_path):
    """``validate --format html``: the replayer stays hidden until a finding's link is followed; then it
    shows that game at the step of the finding, with the finding marked, and the position is ``show``'s."""
    out = tmp_path / "report.html"
    r = CliRunner().invoke(app, ["validate", str(EXAMPLES), "--format", "html", "-o", str(out)])
    assert r.exit_code == 1, r.output
    browser.get(out.as_uri())
    assert not browser.find_element("id", "replayer").is_displayed()
    links = browser.find_elements("css selector", "a.replay")
    assert len(links) >= 10
    seen = 0
    for i in range(len(links)):
        link = browser.find_elements("css selector", "a.replay")[i]
        href = link.get_attribute("href").split("#", 1)[1]
        q = dict(kv.split("=") for kv in href.split("&"))
        finding = link.find_element("xpath", "./ancestor::div[contains(@class,'finding')]")
        rule = finding.find_element("css selector", ".rule").text
        where = finding.find_element("css selector", ".loc").text        # path:line:col
        path = where.rsplit(":", 2)[0]
        link.click()
        # (the hashchange that opens the replayer is a task of its own: wait for it on a loaded machine)
        WebDriverWait(browser, 10).until(lambda d: d.find_element("id", "replayer").is_displayed())
        st = state(browser)
        assert st["game"] == q["game"] and st["move"] == q.get("move", f"step{q.get('step')}")
        assert rule in browser.find_element("id", "rp-info").text
        if "move" in q and "." not in q["move"] and path.endswith(".mat"):
            snap = shows.pick(read(Path(path)), int(q["game"]), int(q["move"]))
            assert f"{st['pid']}:{st['mid']}" == shows.as_gnubg(snap)
            seen += 1
        browser.find_element("css selector", 'button[data-go="close"]').click()
        assert not browser.find_element("id", "replayer").is_displayed()
    assert seen >= 2
    no_console_errors(browser)


# ----------------------------------------------------------------------------- one numbering, one drawing

def _excerpt(tmp: Path) -> Path:
    """The excerpt of games 1, 2 and 6 of tests/test_numbering.py, written as it is there."""
    from test_numbering import EXCERPT

    path = tmp / "excerpt.mat"
    path.write_text(EXCERPT)
    return path


_BOX = """
var svg=arguments[0].querySelector('svg'),out={cube:null,cubetext:null,off:[],bottom:null};
var rects=svg.querySelectorAll('rect'),texts=svg.querySelectorAll('text');
for(var i=0;i<rects.length;i++){var r=rects[i];
  if(r.getAttribute('width')==='24'&&r.getAttribute('height')==='24'){var b=r.getBBox();
    out.cube=[b.x,b.y,b.width,b.height];out.cubetext=r.nextElementSibling.textContent;}}
for(i=0;i<texts.length;i++){var t=texts[i],s=t.textContent;
  if(/^\\S+ \\d+$/.test(s)&&t.getAttribute('font-size')==='10'&&+t.getAttribute('x')>400){var c=t.getBBox();
    out.off.push([c.x,c.y,c.width,c.height]);}
  if(s.charAt(0)==='\\u25cf')out.bottom=s.slice(2).split(' ')[0];}
return out;
"""


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_validate_report_findings_boards_and_replayer_are_one_drawing(browser, tmp_path):
    """The HTML report of an excerpt of games 1, 2 and 6: the replayer's findings list names the games
    1, 2 and 6 (as the findings above it do); for each finding, the replayer opened by its link draws
    the player to act at the bottom as the finding's board does, and the cube with the same value at the
    same place, clear of the "off" counts.  Screenshots of the replayer at the result finding and of that
    finding's card show a board each."""
    import numpy as np
    from PIL import Image

    rec = _excerpt(tmp_path)
    out = tmp_path / "report.html"
    r = CliRunner().invoke(app, ["validate", str(rec), "--format", "html", "-o", str(out)])
    assert r.exit_code == 1, r.output
    browser.set_window_size(1200, 1000)
    browser.get(out.as_uri())
    cards = browser.find_elements("css selector", "div.finding")
    games = []
    for k in range(len(cards)):
        card = browser.find_elements("css selector", "div.finding")[k]
        link = card.find_elements("css selector", "a.replay")
        if not link:
            continue
        href = link[0].get_attribute("href").split("#", 1)[1]
        q = dict(kv.split("=") for kv in href.split("&"))
        games.append(q["game"])
        boards = card.find_elements("css selector", "svg")
        mine = browser.execute_script(_BOX, card) if boards else None
        link[0].click()
        WebDriverWait(browser, 10).until(lambda d: d.find_element("id", "replayer").is_displayed())
        st = state(browser)
        assert st["game"] == q["game"]
        theirs = browser.execute_script(_BOX, browser.find_element("id", "rp-board"))
        for box in theirs["off"]:
            assert not _overlap(theirs["cube"], box), (theirs, q)
        if mine is not None:
            assert mine["cubetext"] == theirs["cubetext"], (mine, theirs, q)
            assert mine["cube"] == theirs["cube"], (mine, theirs, q)
            assert mine["bottom"] == theirs["bottom"], (mine, theirs, q)
            for box in mine["off"]:
                assert not _overlap(mine["cube"], box), (mine, q)
        finds = browser.find_element("id", "rp-finds").text
        listed = re.findall(r"\(line \d+, game (\d+)\)", finds)
        if k == len(cards) - 1:                  # the replayer at the result, then the finding's own card
            for name, where in (("report-result-replayer.png", "replayer"), ("report-result-card.png", None)):
                target = browser.find_element("id", where) if where else \
                    browser.find_elements("css selector", "div.finding")[k]
                browser.execute_script("arguments[0].scrollIntoView()", target)
                shot = _shot(browser, name, 1200, 1000, tmp_path)
                img = np.asarray(Image.open(shot).convert("RGB"))
                assert (img == np.array((0x6B, 0x4A, 0x2B), dtype=img.dtype)).all(axis=2).sum() > 2000
        browser.find_element("css selector", 'button[data-go="close"]').click()
    assert sorted(set(games)) == ["1", "2", "6"]
    # the findings list under the replayer: the games by their numbers, as the finding cards' links
    assert listed == games, (listed, games)
    no_console_errors(browser)


def test_an_address_past_the_games_end_or_to_no_game_says_so(browser, tmp_path):
    rec = _excerpt(tmp_path)
    page = write_page(tmp_path, rec)
    browser.get(page.as_uri() + "#game=6&move=999")
    st = state(browser)
    note = browser.find_element("id", "rp-note")
    assert st["game"] == "6" and st["move"] == "end"
    assert note.is_displayed() and "999" in note.text and "6" in note.text
    final = shows.pick(read(rec), 6)
    assert by_player(drawn(st["svg"]), 0) == by_player(drawn(shows.as_svg(final)), final.player)
    last = max(s.move for s in shows.snapshots(read(rec)) if s.game == 6 and s.move is not None)
    assert f"1-{last}" in note.text
    browser.execute_script("location.hash='#game=3&move=4'")       # no game 3 in an excerpt of 1, 2, 6
    st = state(browser)
    assert st["game"] == "1" and note.is_displayed() and "3" in note.text and "1" in note.text
    browser.execute_script("location.hash='#game=6&move=4'")
    st = state(browser)
    assert st["move"] == "4" and not browser.find_element("id", "rp-note").is_displayed()
    assert f"{st['pid']}:{st['mid']}" == shows.as_gnubg(shows.pick(read(rec), 6, 4))
    no_console_errors(browser)
