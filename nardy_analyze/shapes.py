"""``dataclass`` as the package declares its classes: the standard library's decorator, with the same result, less
its cost at import.

Python 3.11's ``dataclasses`` compiles each generated method of each class from source as the class is made
(``exec``): some 35 classes made at every command's start cost it about 13 ms, a third of its imports.
``__init__`` (and a frozen class's ``__setattr__``/``__delattr__``) still come from there; ``__repr__``,
``__eq__`` and the ``__hash__`` that goes with ``eq`` are the same three functions for every class here, which read
the class's fields once (their ``repr``, ``compare`` and ``hash`` flags, in order) and give what the generated
ones give: ``Name(a=1, b='x')`` (``...`` for a value that contains itself), equality of two objects of the same
class by their compared fields (``NotImplemented`` for another class), ``hash`` of the hashed fields of a
frozen class, no ``__hash__`` (unhashable) for a class with ``eq`` that is not frozen; a method the class defines
itself is kept, as the decorator keeps it.  ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass``
see a dataclass as before.  tests/test_shapes.py holds both decorators' classes to the same behaviour.
"""
from __future__ import annotations

import dataclasses
import operator
import reprlib
from typing import Any, Callable

__all__ = ["dataclass"]


def dataclass(cls: type | None = None, /, *, repr: bool = True, eq: bool = True, **kwargs: Any):
    """``dataclasses.dataclass(cls, repr=..., eq=..., **kwargs)``, its ``__repr__``, ``__eq__`` and ``__hash__``
    not compiled for the class (see the module).  ``order`` goes to the standard decorator whole (no class
    here asks for it)."""
    def wrap(c: type) -> type:
        if kwargs.get("order"):
            return dataclasses.dataclass(c, repr=repr, eq=eq, **kwargs)
        own = c.__dict__
        explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
        own_repr, own_eq = "__repr__" in own, "__eq__" in own
        unsafe_hash = kwargs.get("unsafe_hash", False)
        if unsafe_hash and explicit_hash:
            raise TypeError(f"Cannot overwrite attribute __hash__ in class {c.__name__}")
        made = dataclasses.dataclass(c, repr=False, eq=False, **{k: v for k, v in kwargs.items() if k != "unsafe_hash"})
        if repr and not own_repr:
            made.__repr__ = _repr
        if eq and not own_eq:
            made.__eq__ = _eq
        # (the standard decorator's rule: a hash of the fields where asked, or for eq with frozen; none for eq
        # without frozen; a __hash__ of the class's own kept)
        if unsafe_hash or eq and kwargs.get("frozen") and not explicit_hash:
            made.__hash__ = _hash
        elif eq and not explicit_hash:
            made.__hash__ = None
        return made

    return wrap if cls is None else wrap(cls)


_SHOWN: dict[type, tuple[str, ...]] = {}                       # class -> the names its repr shows
_COMPARED: dict[type, Callable[[Any], tuple]] = {}             # class -> its compared fields' values, as a tuple
_HASHED: dict[type, Callable[[Any], tuple]] = {}               # class -> its hashed fields' values, as a tuple


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple]:
    if not names:
        return lambda o: ()
    if len(names) == 1:
        get = operator.attrgetter(names[0])
        return lambda o: (get(o),)
    return operator.attrgetter(*names)


@reprlib.recursive_repr()
def _repr(self) -> str:
    cls = self.__class__
    names = _SHOWN.get(cls)
    if names is None:
        names = _SHOWN[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.repr)
    return f"{cls.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"


def _eq(self, other) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    get = _COMPARED.get(self.__class__)
    if get is None:
        get = _COMPARED[self.__class__] = _getter(tuple(f.name for f in dataclasses.fields(self) if f.compare))
    return get(self) == get(other)


def _hash(self) -> int:
    get = _HASHED.get(self.__class__)
    if get is None:
        get = _HASHED[self.__class__] = _getter(tuple(
            f.name for f in dataclasses.fields(self) if (f.compare if f.hash is None else f.hash)))
    return hash(get(self))
