#!/usr/bin/env python3
"""Build the bear-off databases again (nardy_analyze.stats.bearoff) and print their sizes and build times.

    python3 scripts/build_bearoff.py

They go to the user's cache folder (``$NARDY_ANALYZE_CACHE``, else ``$XDG_CACHE_HOME/nardy-analyze``, else
``~/.cache/nardy-analyze``), where the analysis otherwise builds them at first use.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nardy_analyze.stats import bearoff  # noqa: E402


def main() -> int:
    for name, build, kw in (("bearoff-os15", bearoff.build_one_sided, dict(max_checkers=15)),
                            ("bearoff-ts6", bearoff.build_two_sided, dict(max_checkers=6))):
        path = bearoff.cache_dir() / f"{name}-v{bearoff.VERSION}.npz"
        if path.exists():
            path.unlink()
        t = time.perf_counter()
        bearoff._load_or_build(name, build, **kw)
        print(f"{path}: {path.stat().st_size / 1e6:.1f} MB, built in {time.perf_counter() - t:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
