#!/usr/bin/env python3
"""Size and opening time of the HTML replayer (``show FILE --as html``) and of the replayer data that
``validate --format html`` embeds.

    python3 bench/bench_replayer.py [--repeat N] [RECORD ...]

Pages measured (written with the command line into a temporary folder):

* 25 generated games of backgammon, of long nardy and of Gul bara
  (``generate --games 25 --seed 0``: random legal play, longer games than real ones);
* ``../shared/corpus/gnubg-selfplay/gnubg_1709.mat`` (27 games of a GNU Backgammon self-play match)
  when the shared corpus is there, and any RECORD given.

For each: the page's size, the time ``show --as html`` takes (wall, one run), and in Debian's headless
chromium (driven by Selenium, as the tests are) the median over N loads of the time from the start of
the navigation to the replayer's first board drawn (the script's ``performance.mark("replayer-ready")``)
and of one step (a right-arrow key event, the board and the "after" board redrawn; 200 steps timed in
the page).

``validate --format html``: the report of a 100-game archive (the first files of
``../shared/corpus/mutants`` up to 100 games, one planted error per file, so every file's game with
the error is embedded), its size and the share of the replayer (data and script); and the bound for
the same archive if every game had a finding (every game embedded).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")


def cli(*args: str) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "nardy_analyze", *args], cwd=ROOT, check=False,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def browser(profile: str):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--disable-extensions", "--proxy-server=127.0.0.1:9", f"--user-data-dir={profile}",
              "--window-size=1200,1000"):
        o.add_argument(a)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)


_STEPS = """
var n=arguments[0],t=performance.now();
for(var i=0;i<n;i++)document.dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowRight',bubbles:true}));
return (performance.now()-t)/n;
"""


def open_times(driver, page: Path, repeat: int) -> tuple[float, float, float]:
    """(median ms to the first board, median ms to the load event, ms per step)."""
    ready, load = [], []
    for _ in range(repeat):
        driver.get("about:blank")
        driver.get(page.as_uri())
        marks = driver.execute_script(
            "var m=performance.getEntriesByName('replayer-ready');"
            "var n=performance.getEntriesByType('navigation')[0];"
            "return [m.length?m[0].startTime:-1, n?n.loadEventEnd:-1];")
        ready.append(marks[0])
        load.append(marks[1])
    step = driver.execute_script(_STEPS, 200)
    return statistics.median(ready), statistics.median(load), step


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", nargs="*", type=Path)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-replayer-"))
    records: list[tuple[str, Path]] = []
    for v in ("backgammon", "long", "gulbara"):
        p = tmp / f"{v}-25.ngn"
        cli("generate", "--variant", v, "--games", "25", "--seed", "0", "-o", str(p))
        records.append((f"generated {v}, 25 games", p))
    real = CORPUS / "gnubg-selfplay" / "gnubg_1709.mat"
    if real.exists():
        records.append(("gnubg self-play match, 27 games", real))
    records += [(str(r), r) for r in a.records]

    driver = None
    try:
        driver = browser(str(tmp / "profile"))
    except Exception as e:                                    # noqa: BLE001
        print(f"(no browser timings: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})")
    print(f"{'record':<34} {'steps':>6} {'page KiB':>9} {'write s':>8} {'first board ms':>15} "
          f"{'load ms':>8} {'step ms':>8}")
    from nardy_analyze import notation
    from nardy_analyze.report.replayer import record_data

    for name, rec in records:
        page = tmp / (rec.stem + ".html")
        took = cli("show", str(rec), "--as", "html", "-o", str(page))
        m = notation.read_bytes(rec.read_bytes(), str(rec))
        frames = sum(len(g["f"]) for g in record_data(m)["games"])
        size = page.stat().st_size / 1024
        row = f"{name:<34} {frames:>6} {size:>9.0f} {took:>8.2f}"
        if driver is not None:
            first, load, step = open_times(driver, page, a.repeat)
            row += f" {first:>15.0f} {load:>8.0f} {step:>8.2f}"
        print(row)

    mutants = CORPUS / "mutants"
    if mutants.is_dir():
        files, games = [], 0
        for f in sorted(mutants.glob("*.mat")):
            m = notation.read_bytes(f.read_bytes(), str(f))
            files.append((f, m))
            games += len(m.games)
            if games >= 100:
                break
        report = tmp / "report.html"
        took = cli("validate", *[str(f) for f, _ in files], "--format", "html", "-o", str(report))
        text = report.read_text(encoding="utf-8")
        start = text.find('<script type="application/json"')
        replay = len(text[start:].encode()) if start >= 0 else 0
        whole = sum(len(json.dumps(record_data(m), ensure_ascii=False, separators=(",", ":")).encode())
                    for _, m in files)
        print(f"\nvalidate --format html of {len(files)} files, {games} games ({mutants}, one error each): "
              f"{report.stat().st_size / 1024:.0f} KiB, of which replayer data and script {replay / 1024:.0f} KiB; "
              f"{took:.2f} s")
        print(f"the same archive with every game embedded (every game with a finding): data "
              f"{whole / 1024:.0f} KiB")
    if driver is not None:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
