"""nardy-analyze: read nardy and backgammon game records, replay them through a strict rules engine."""
__version__ = "0.1.0"

# Python's garbage collector thresholds for every process that reads records (the command line and the
# worker processes): a record makes tens of thousands of small objects, nearly none in reference cycles,
# and the default (700, 10, 10) would scan them over and over (analyze._worker_start, docs/architecture.md)
GC_THRESHOLD = (20_000, 20, 50)
