"""Frozen records: frozen dataclasses whose ``__repr__``, ``__eq__`` and ``__hash__`` are shared, not made per class.

Python 3.11 makes each method of a dataclass by compiling its text when the class is made, some
0.2 ms a method: a frozen dataclass cost every start-up about 1.5 ms, and the classes that every
command makes (the shoe, the bets, the rules, the games, the figures) some 30 ms in all. :func:`record`
makes the same frozen dataclass (its ``__init__``, its frozen ``__setattr__`` and ``__delattr__``,
its fields, :func:`dataclasses.replace` and :func:`dataclasses.fields` as ever) with three methods
that are written once here instead: each reads the class's fields on its first call and keeps them.
They return what the dataclass's own would (``Name(field=value, ...)`` of the fields shown, the
fields compared as one tuple between two objects of the very same class, the hash of the hashed
fields' tuple), as ``tests/test_records.py`` checks against dataclasses made the usual way. Where
Python compiles the frozen ``__setattr__`` and ``__delattr__`` of each class from text, one exec
each (3.11 and 3.12), a record's are closures made here instead (:func:`_frozen_methods`), the same
code as the compiled ones: that leaves its ``__init__`` the one method compiled per class.

A record keeps an ``__eq__``, ``__hash__`` or ``__repr__`` that its class defines, as a dataclass does; a
subclass made a record again has its own fields, one that is not has its base's. Only the classes that every
start-up makes need to be records: elsewhere a plain ``@dataclass(frozen=True)`` is the same thing.

>>> @record
... class Point:
...     x: int
...     y: int = 0
>>> Point(1), Point(1) == Point(1, 0), hash(Point(1)) == hash((1, 0))
(Point(x=1, y=0), True, True)
>>> Point(1).x = 2
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'x'
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, TypeVar, dataclass_transform, overload

_C = TypeVar("_C", bound=type)

#: What each record class's methods read, made on first use: (the names ``__repr__`` shows, the getter of the
#: compared fields' tuple, the getter of the hashed fields' tuple), by class.
_PLANS: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]], Callable[[Any], tuple[Any, ...]]]] = {}


def _getter(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of these attributes of an object (a tuple even of one name, or of none)."""
    if not names:
        return lambda _: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return attrgetter(*names)


def _plan(cls: type) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]], Callable[[Any], tuple[Any, ...]]]:
    found = _PLANS.get(cls)
    if found is None:
        fields = dataclasses.fields(cls)
        shown = tuple(f.name for f in fields if f.repr)
        compared = _getter([f.name for f in fields if f.compare])
        hashed = _getter([f.name for f in fields if (f.compare if f.hash is None else f.hash)])
        found = _PLANS[cls] = (shown, compared, hashed)
    return found


@recursive_repr()
def _repr(self: Any) -> str:
    shown = _plan(self.__class__)[0]
    return f"{self.__class__.__qualname__}({', '.join(f'{name}={getattr(self, name)!r}' for name in shown)})"


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        compared = _plan(self.__class__)[1]
        return compared(self) == compared(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(_plan(self.__class__)[2](self))


def _frozen_methods(cls: type, fields: list[dataclasses.Field[Any]], globals: Any = None) -> tuple[Any, Any]:
    """The frozen ``__setattr__`` and ``__delattr__`` of ``cls``, as closures: the methods that Python 3.11 and 3.12
    compile from text for each frozen dataclass (``dataclasses._frozen_get_del_attr``), with the same body.

    >>> @record
    ... class Point:
    ...     x: int
    >>> Point.__setattr__.__qualname__, Point.__delattr__.__code__.co_filename == __file__
    ('Point.__setattr__', True)
    """
    names = tuple(f.name for f in fields)
    frozen_error = dataclasses.FrozenInstanceError

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise frozen_error(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)  # type: ignore[arg-type]

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise frozen_error(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)  # type: ignore[arg-type]

    return __setattr__, __delattr__


#: Python's maker of a frozen dataclass's two methods, where it is the one of 3.11 and 3.12 (taking the class, its
#: fields and the globals, returning the two functions); ``None`` elsewhere (3.13 makes every method of a class in
#: one exec): a record is then made exactly as a frozen dataclass is.
_COMPILED_FROZEN = getattr(dataclasses, "_frozen_get_del_attr", None) if sys.version_info[:2] in ((3, 11), (3, 12)) \
    else None


def _dataclass(cls: _C, kw_only: bool) -> None:
    """Make ``cls`` a frozen dataclass (its ``__repr__`` and ``__eq__`` left to :func:`record`), its frozen methods
    closures (:func:`_frozen_methods`) where Python would compile them from text."""
    make = dataclasses.dataclass(frozen=True, repr=False, eq=False, kw_only=kw_only)
    if _COMPILED_FROZEN is None:
        make(cls)
        return
    # Only for the making of this one class; another thread making a frozen dataclass meanwhile gets the same methods.
    dataclasses._frozen_get_del_attr = _frozen_methods  # type: ignore[attr-defined]
    try:
        make(cls)
    finally:
        dataclasses._frozen_get_del_attr = _COMPILED_FROZEN  # type: ignore[attr-defined]


@overload
def record(cls: _C, /) -> _C: ...


@overload
def record(*, eq: bool = True, kw_only: bool = False) -> Callable[[_C], _C]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: _C | None = None, /, *, eq: bool = True, kw_only: bool = False) -> _C | Callable[[_C], _C]:
    """``cls`` as ``@dataclass(frozen=True, eq=eq, kw_only=kw_only)`` makes it, its ``__repr__``, ``__eq__`` and
    ``__hash__`` the shared ones (``eq=False``: compared and hashed by identity, as a dataclass is)."""

    def make(cls: _C) -> _C:
        own = cls.__dict__
        # As a dataclass decides: a __hash__ of the class's own is kept, but not the None that Python sets when the
        # class defines __eq__ alone.
        own_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
        _dataclass(cls, kw_only)  # the same class, made one
        shared = {"__repr__": _repr, **({"__eq__": _eq} if eq else {})}
        for name, method in shared.items():
            if name not in own:
                setattr(cls, name, method)
        if eq and not own_hash:
            cls.__hash__ = _hash  # type: ignore[assignment]
        return cls

    return make if cls is None else make(cls)
