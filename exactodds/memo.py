"""Values worked out once per object, found by the object's identity: no hashing of the object on a hot path."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from operator import is_
from typing import Generic, TypeVar

V = TypeVar("V")


class IdentityCache(Generic[V]):
    """A value per object, found by ``id()`` (with an optional extra key); each entry holds its object, so its id
    cannot be reused while the entry lives, and the cache is emptied when it reaches ``limit`` entries.

    >>> cache: IdentityCache[int] = IdentityCache(2)
    >>> bet = ("dragon-7",)
    >>> cache.get(bet, lambda: 40), cache.get(bet, lambda: 41)
    (40, 40)
    """

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._entries: dict[Hashable, tuple[object, V]] = {}

    def get(self, obj: object, make: Callable[[], V], extra: Hashable = None) -> V:
        """``obj``'s value (under ``extra``), made by ``make()`` the first time."""
        key = id(obj) if extra is None else (id(obj), extra)
        found = self._entries.get(key)
        if found is not None and found[0] is obj:
            return found[1]
        value = make()
        if len(self._entries) >= self._limit:
            self._entries.clear()
        self._entries[key] = (obj, value)
        return value  # not read back from the dict: another thread (the HTTP server's) may have cleared it

    def get_all(self, objects: tuple[object, ...], make: Callable[[], V], extra: Hashable = None) -> V:
        """The value of these objects together (under ``extra``), found by their ids as :meth:`get` finds one's.

        >>> cache: IdentityCache[str] = IdentityCache(2)
        >>> rules, bet = ("ez",), ("dragon-7",)
        >>> cache.get_all((rules, bet), lambda: "made"), cache.get_all((rules, bet), lambda: "again")
        ('made', 'made')
        """
        key = (*map(id, objects), extra)
        found = self._entries.get(key)
        if found is not None and all(map(is_, found[0], objects)):  # type: ignore[call-overload]  # found[0]: a tuple
            return found[1]
        value = make()
        if len(self._entries) >= self._limit:
            self._entries.clear()
        self._entries[key] = (objects, value)
        return value
