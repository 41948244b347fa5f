"""``nardy_analyze.shapes.dataclass`` against the standard library's: the same class made both ways, for every
combination of the options the package uses (frozen, slots, eq, repr) and of fields with their flags
(``repr=False``, ``compare=False``, ``hash=...``, defaults, factories), and of methods the class defines itself,
behaves the same: repr, equality both ways and with other classes, hashability and the hash, frozen fields,
``replace``, ``fields`` and ``asdict``; and every dataclass of the package is one of these."""
from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re

import pytest
from hypothesis import given, settings, strategies as st

import nardy_analyze
from nardy_analyze import shapes


def _make(decorator, opts: dict, flags: list[dict], own: str):
    ns: dict = {"__annotations__": {}}
    for i, fl in enumerate(flags):
        name = f"f{i}"
        ns["__annotations__"][name] = "object"
        kw = {k: v for k, v in fl.items() if k in ("repr", "compare", "hash")}
        if fl.get("default"):
            kw["default"] = i
        if kw:
            ns[name] = dataclasses.field(**kw)
    if own == "repr":
        ns["__repr__"] = lambda self: "own"
    elif own == "eq":
        ns["__eq__"] = lambda self, other: True
    elif own == "hash":
        ns["__hash__"] = lambda self: 7
    elif own == "eq+hash":
        ns["__eq__"] = lambda self, other: True
        ns["__hash__"] = lambda self: 7
    cls = type("Shape", (), ns)
    cls.__qualname__ = "Shape"
    return decorator(cls, **opts)


def _shown(obj) -> str:
    """repr without the address of an object shown by ``object.__repr__`` (a class without a repr)."""
    return re.sub(r" at 0x[0-9a-f]+", "", repr(obj))


def _behaviour(cls, values: list, other_values: list):
    a, b, c = cls(*values), cls(*values), cls(*other_values)
    out = {"repr": _shown(a), "eq": (a == b, a == c, a != c, a == object(), a.__eq__(object())),
           "fields": [(f.name, f.repr, f.compare, f.hash) for f in dataclasses.fields(cls)],
           "asdict": dataclasses.asdict(a), "replace": _shown(dataclasses.replace(a)),
           "hash_attr": cls.__hash__ is None}
    try:
        out["hash"] = (hash(a) == hash(b), hash(a) if cls.__hash__ is not object.__hash__ else "id")
    except TypeError:
        out["hash"] = "unhashable"
    if values:
        try:
            setattr(a, "f0", "changed")
            out["set"] = _shown(a)
        except dataclasses.FrozenInstanceError:
            out["set"] = "frozen"
    return out


FLAGS = st.fixed_dictionaries({}, optional={"repr": st.booleans(), "compare": st.booleans(),
                                            "hash": st.sampled_from([None, True, False]), "default": st.booleans()})


@settings(max_examples=150, deadline=None)
@given(opts=st.fixed_dictionaries({}, optional={"frozen": st.booleans(), "slots": st.booleans(), "eq": st.booleans(),
                                                "repr": st.booleans(), "unsafe_hash": st.booleans()}),
       flags=st.lists(FLAGS, max_size=4), own=st.sampled_from(["", "repr", "eq", "hash", "eq+hash"]),
       values=st.lists(st.one_of(st.integers(-3, 3), st.text(max_size=3), st.tuples(st.integers(0, 2))),
                       min_size=4, max_size=4),
       other=st.lists(st.integers(-3, 3), min_size=4, max_size=4))
def test_a_class_made_by_either_decorator_behaves_the_same(opts, flags, own, values, other):
    # (fields with defaults after those without: the standard decorator's own rule)
    flags = sorted(flags, key=lambda f: bool(f.get("default")))
    n = len(flags)
    try:
        std = _make(dataclasses.dataclass, opts, flags, own)
    except TypeError as e:            # (unsafe_hash with a __hash__ of the class's own)
        with pytest.raises(TypeError, match=str(e)):
            _make(shapes.dataclass, opts, flags, own)
        return
    ours = _make(shapes.dataclass, opts, flags, own)
    assert _behaviour(ours, values[:n], other[:n]) == _behaviour(std, values[:n], other[:n])


def test_a_value_that_contains_itself_is_shown_as_the_standard_repr_shows_it():
    @shapes.dataclass
    class Node:
        items: list

    @dataclasses.dataclass
    class Node2:
        items: list

    a, b = Node([]), Node2([])
    a.items.append(a)
    b.items.append(b)
    assert repr(a) == repr(b).replace("Node2", "Node") == "test_a_value_that_contains_itself_is_shown_as_the_" \
        "standard_repr_shows_it.<locals>.Node(items=[...])"


def test_every_dataclass_of_the_package_is_made_by_shapes():
    """So that none of them pays the compiled methods at import: each has the shared ``__repr__`` (or its own, or
    none asked), and none a ``__repr__`` or ``__eq__`` compiled by ``dataclasses``."""
    found = 0
    for info in pkgutil.walk_packages(nardy_analyze.__path__, "nardy_analyze."):
        if info.name.endswith(("__main__", "fastcli")) or ".tests" in info.name:
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:          # an extra not installed (the analysis network)
            continue
        for obj in vars(module).values():
            if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == info.name:
                found += 1
                for name in ("__repr__", "__eq__"):
                    fn = obj.__dict__.get(name)
                    code = getattr(fn, "__code__", None)
                    assert code is None or code.co_filename != "<string>", (obj.__qualname__, name)
    assert found >= 40
