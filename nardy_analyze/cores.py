"""Which compiled parts are in use: the rules engine's core (``engine/_core.c``) and the ``.mat`` and
``.ngn`` readers' (``notation/_matrows.c``), each built by ``pip install .`` where a C compiler exists; the Python code, their
reference, runs where one is not built or ``NARDY_ANALYZE_PURE`` is set."""
from __future__ import annotations

from . import __version__
from .engine import compiled
from .fsio import cache_dir
from .i18n import _
from .notation import mat


def in_use() -> tuple[bool, bool]:
    """(the compiled engine, the compiled ``.mat`` and ``.ngn`` readers): whether each is in use."""
    return compiled.CoreRules is not None, mat.GAME_ACTIONS is not None


def in_use_text() -> str:
    """Which core is in use, as ``--version`` says it."""
    built = in_use()
    return _("compiled core") if all(built) else _("pure-Python core") if not any(built) else \
        _("compiled core: the engine only") if built[0] else _("compiled core: the readers only")


def first_run_note() -> str | None:
    """Which core is in use, said by the progress line of the first run of this version that shows one (a
    mark is left in the cache folder: :func:`nardy_analyze.fsio.cache_dir`); None on later runs, or where
    the mark cannot be written (it would be said on every run)."""
    mark = cache_dir() / f"first-run-{__version__}"
    if mark.exists():
        return None
    text = in_use_text()
    try:
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.write_text(text + "\n", encoding="utf-8")
    except OSError:
        return None
    return text
