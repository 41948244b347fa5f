"""The compiled core of the engine (``engine/_core.c``, built by ``pip install .`` where a C compiler exists).

Each variant's rules object fills the core's plain description of its rules (``Rules.core_spec``) and keeps
the core object as ``Rules.core``; ``generate``, ``Rules.play_exact`` and ``Rules.forced`` hand their work to
it and fall back to the Python code, which stays the reference (tests/test_core_twin.py holds the two
equal).  ``NARDY_ANALYZE_PURE=1`` in the environment (read once, at import) selects the pure-Python engine;
so does a build without the core.
"""
from __future__ import annotations

from .. import PURE      # (``NARDY_ANALYZE_PURE``, read once in the package: the compiled parts not loaded)

try:
    if PURE:
        raise ImportError("NARDY_ANALYZE_PURE is set")
    from ._core import CoreRules
except ImportError:        # not built (no C compiler at install) or turned off
    CoreRules = None

def make(spec: dict | None):
    """The core object for a rules object's ``core_spec()`` (None: the variant is not one the core plays, or
    the core is not in use)."""
    if spec is None or CoreRules is None:
        return None
    return CoreRules(**spec)
