"""Values worked out once per object, found by the object's identity: no hashing of the object on a hot path."""

from __future__ import annotations

from collections.abc import Callable, Hashable
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
