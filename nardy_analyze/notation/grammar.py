"""Find the Lark grammars: ``grammars/*.lark`` in a source checkout, ``nardy_analyze/grammars`` once installed."""
from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path


@cache
def grammar_text(name: str) -> str:
    """The text of ``grammars/<name>.lark``."""
    fname = f"{name}.lark"
    try:
        res = resources.files("nardy_analyze.grammars") / fname
        if res.is_file():
            return res.read_text(encoding="utf-8")
    except ModuleNotFoundError:
        pass
    return (Path(__file__).resolve().parents[2] / "grammars" / fname).read_text(encoding="utf-8")
