"""nardy-analyze: read nardy and backgammon game records, replay them through a strict rules engine."""
__version__ = "0.1.0"
