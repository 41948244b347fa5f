"""Readers of the record notations: text in, :class:`nardy_analyze.record.Match` out.

Every reader has ``read(text, path) -> Match`` and never raises on any input; what it cannot read
becomes a :class:`nardy_analyze.record.Problem` with a line and column.
"""
from __future__ import annotations

from pathlib import Path

from ..record import Loc, Match, Problem
from . import mat

__all__ = ["read_bytes", "read_path", "read_text", "mat"]


def read_text(text: str, path: str = "") -> Match:
    """Read ``text`` with the reader of its notation.

    Only the Jellyfish .mat reader exists so far, so every text goes to it (``mat.looks_like_mat``
    is there for sniffing once other notations plug in here).
    """
    return mat.read(text, path)


def read_bytes(data: bytes, path: str = "") -> Match:
    """Decode a file's bytes and read them with the matching reader."""
    return read_text(mat.decode(data), path)


def read_path(path: str | Path) -> Match:
    """Read a record file.  An unreadable file gives a Match with one Problem, never an exception."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        match = Match(path=str(p), notation="mat")
        match.problems.append(Problem(Loc(1, 1), f"cannot read the file: {exc.strerror or exc}"))
        return match
    return read_bytes(data, str(p))
