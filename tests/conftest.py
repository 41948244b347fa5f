"""The quick suite and the full one.

A plain ``python3 -m pytest -q`` leaves out the tests marked ``slow`` (the shared corpus, GNU Backgammon,
the browser, many subprocesses); it still imports and exercises every module. ``NARDY_FULL=1`` runs
everything (``.ci/run`` does); an explicit ``-m`` expression (``-m slow``) is obeyed as written.
"""
from __future__ import annotations

import os


# whole files of slow tests (GNU Backgammon, the browser, the shared corpus, signals to many processes)
SLOW_FILES = {"test_corpus.py", "test_engine_corpus_gnubg.py", "test_gnubg_oracle.py", "test_convert_gnubg.py",
              "test_skill_gnubg.py", "test_stats_gnubg.py", "test_html_browser.py", "test_replayer_browser.py",
              "test_interrupt.py"}


def pytest_itemcollected(item):
    if item.path.name in SLOW_FILES:
        item.add_marker("slow")


def _full(config) -> bool:
    return os.environ.get("NARDY_FULL", "") not in ("", "0") or bool(config.getoption("markexpr", ""))


def pytest_collection_modifyitems(config, items):
    if _full(config):
        return
    keep, slow = [], []
    for item in items:
        (slow if item.get_closest_marker("slow") else keep).append(item)
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = keep


def pytest_report_header(config):
    if not _full(config):
        return "quick suite: tests marked slow are left out (NARDY_FULL=1 runs everything)"
