"""nardy-analyze: read nardy and backgammon game records, replay them through a strict rules engine."""
import os

__version__ = "0.1.0"

#: ``NARDY_ANALYZE_PURE`` set (read once, at import): the pure-Python code runs, and the compiled parts (the engine's
#: core ``engine/_core.c``, the readers' ``notation/_matrows.c``) are not loaded (``engine.compiled``)
PURE = os.environ.get("NARDY_ANALYZE_PURE", "").strip() not in ("", "0")

# Python's garbage collector thresholds for every process that reads records (the command line and the
# worker processes): a record makes tens of thousands of small objects, nearly none in reference cycles,
# and the default (700, 10, 10) would scan them over and over (analyze._worker_start, docs/architecture.md)
GC_THRESHOLD = (20_000, 20, 50)
