"""The compiled core of the engine (``engine/_core.c``, built by ``pip install .`` where a C compiler exists).

Each variant's rules object fills the core's plain description of its rules (``Rules.core_spec``) and keeps
the core object as ``Rules.core``; ``generate``, ``Rules.play_exact`` and ``Rules.forced`` hand their work to
it and fall back to the Python code, which stays the reference (tests/test_core_twin.py holds the two
equal).  ``NARDY_ANALYZE_PURE=1`` in the environment (read once, at import) selects the pure-Python engine;
so does a build without the core.
"""
from __future__ import annotations

import dataclasses

from .. import PURE      # (``NARDY_ANALYZE_PURE``, read once in the package: the compiled parts not loaded)

try:
    if PURE:
        raise ImportError("NARDY_ANALYZE_PURE is set")
    from ._core import CoreRules, maker as _maker, use_packed as _use_packed
except ImportError:        # not built (no C compiler at install) or turned off
    CoreRules = _maker = _use_packed = None


def use_packed(api) -> bool:
    """Let the core's batch read the packed actions of the compiled .mat reader (``api``: its ``PACKED_API``
    capsule, ``_packed.h``).  True once given: the reader then keeps its games' actions packed.  False where the
    core is not in use: the reader then makes lists, which the Python replay reads."""
    if _use_packed is None:
        return False
    _use_packed(api)
    return True


def maker(cls):
    """A callable that makes ``cls(*args, **kwargs)`` as the dataclass's generated ``__init__`` would, without
    running it (the core fills each slot: the value given, else the field's default, else a call of its default
    factory): for the few objects the replay and the readers make per game.  ``cls`` itself where the core is
    not in use or ``cls`` is not a slotted dataclass whose ``__init__`` is the generated one (no
    ``__post_init__``, every field an ``__init__`` argument, none keyword-only).  tests/test_speed_paths.py
    holds the objects made both ways equal."""
    spec = field_spec(cls) if _maker is not None else None
    return cls if spec is None else _maker(cls, spec)


def field_spec(cls) -> list[tuple[str, int, object]] | None:
    """The fields of ``cls`` as the core's Shape fills them (``_slots.h``): ``(name, 0, None)`` required, ``(name,
    1, default)``, ``(name, 2, factory)``, in order; None where ``cls`` is not a slotted dataclass whose
    ``__init__`` only fills its fields (a ``__post_init__``, a field outside ``__init__``, a keyword-only one)."""
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__") \
            or not cls.__dataclass_params__.init or "__slots__" not in cls.__dict__:
        return None
    spec: list[tuple[str, int, object]] = []
    for f in dataclasses.fields(cls):
        if not f.init or getattr(f, "kw_only", False) or f._field_type is not dataclasses._FIELD:
            return None
        if f.default is not dataclasses.MISSING:
            spec.append((f.name, 1, f.default))
        elif f.default_factory is not dataclasses.MISSING:
            spec.append((f.name, 2, f.default_factory))
        else:
            spec.append((f.name, 0, None))
    return spec

def make(spec: dict | None):
    """The core object for a rules object's ``core_spec()`` (None: the variant is not one the core plays, or
    the core is not in use)."""
    if spec is None or CoreRules is None:
        return None
    return CoreRules(**spec)
