"""Which compiled parts are in use: the rules engine's core (``engine/_core.c``) and the ``.mat`` reader's
(``notation/_matrows.c``), each built by ``pip install .`` where a C compiler exists; the Python code, their
reference, runs where one is not built or ``NARDY_ANALYZE_PURE`` is set."""
from __future__ import annotations

from .engine import compiled
from .notation import mat


def in_use() -> tuple[bool, bool]:
    """(the compiled engine, the compiled ``.mat`` reader): whether each is in use."""
    return compiled.CoreRules is not None, mat.GAME_ACTIONS is not None
