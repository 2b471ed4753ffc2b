"""Records (:func:`exactodds.records.record`) behave as the frozen dataclasses they stand for: the same ``repr``,
equality and hash as a class made by ``@dataclass(frozen=True)`` from the same body, whatever its fields' options."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import FrozenInstanceError, dataclass, field
from fractions import Fraction
from typing import Any

import pytest

from exactodds.records import record


def _twins(body: dict[str, Any], **options: Any) -> tuple[type, type]:
    """The same class body made a frozen dataclass and a record (``options``: ``eq``, ``kw_only``)."""
    made = []
    for decorate in (dataclass(frozen=True, **options), record(**options)):
        namespace = {key: dataclasses.field(**value) if key != "__annotations__" and isinstance(value, dict) else value
                     for key, value in body.items()}
        made.append(decorate(type("Sample", (), {"__module__": __name__, **namespace})))
    return made[0], made[1]


BODIES = {
    "plain": {"__annotations__": {"a": "int", "b": "str"}, "b": "x"},
    "no fields": {"__annotations__": {}},
    "one field": {"__annotations__": {"a": "Fraction"}},
    "hidden, uncompared, hashed": {
        "__annotations__": {"a": "int", "b": "int", "c": "int", "d": "int", "e": "int"},
        "b": {"default": 2, "repr": False}, "c": {"default": 3, "compare": False},
        "d": {"default": 4, "hash": False}, "e": {"default": 5, "compare": False, "hash": True},
    },
}


@pytest.mark.parametrize("name", BODIES)
def test_a_record_prints_compares_and_hashes_as_a_frozen_dataclass(name: str) -> None:
    dc, rec = _twins(BODIES[name])
    fields = [f.name for f in dataclasses.fields(dc) if f.init]
    for values in ([1, 2, 3, 4, 5], [1, 9, 9, 4, 5], [1, 2, 3, 8, 5], [Fraction(1, 3), 2, 3, 4, 6]):
        kwargs = dict(zip(fields, values))
        a, b = dc(**kwargs), rec(**kwargs)
        assert repr(a) == repr(b)
        assert hash(a) == hash(b)
        for other in ([1, 2, 3, 4, 5], [1, 9, 9, 4, 5], [1, 2, 3, 8, 5]):
            other_kwargs = dict(zip(fields, other))
            assert (a == dc(**other_kwargs)) == (b == rec(**other_kwargs))
        assert (a == 1) is (b == 1) is False and a.__eq__(1) is b.__eq__(1) is NotImplemented
        assert [f.name for f in dataclasses.fields(a)] == [f.name for f in dataclasses.fields(b)]
        assert dataclasses.replace(b, **kwargs) == b
        with pytest.raises(FrozenInstanceError):
            b.a = 0  # type: ignore[attr-defined]


def test_records_without_equality_and_keyword_only_are_as_dataclasses() -> None:
    dc, rec = _twins({"__annotations__": {"a": "int"}}, eq=False, kw_only=True)
    a, b = dc(a=1), rec(a=1)
    assert repr(a) == repr(b) == "Sample(a=1)"
    assert b != rec(a=1) and b == b and hash(b) == object.__hash__(b)  # by identity
    with pytest.raises(TypeError):
        rec(1)


def test_subclasses_of_a_record_and_a_recursive_one() -> None:
    @record
    class Base:
        a: int

    class Same(Base):  # not made again: the fields of the base
        pass

    @record
    class More(Base):
        b: int = 0

    assert repr(Same(1)) == "test_subclasses_of_a_record_and_a_recursive_one.<locals>.Same(a=1)"
    assert Same(1) != Base(1) and Same(1) == Same(1) and hash(Same(1)) == hash((1,))
    assert repr(More(1, 2)).endswith("More(a=1, b=2)") and More(1, 2) == More(1, 2) != More(1, 3)

    @record
    class Box:
        items: list[Any] = field(default_factory=list, hash=False)

    box = Box()
    box.items.append(box)
    assert repr(box) == "test_subclasses_of_a_record_and_a_recursive_one.<locals>.Box(items=[...])"


def test_a_record_keeps_its_own_methods_and_pickles() -> None:
    @record
    class Own:
        a: int

        def __repr__(self) -> str:
            return "mine"

        def __eq__(self, other: object) -> bool:
            return True

    assert repr(Own(1)) == "mine" and Own(1) == Own(2) and hash(Own(1)) == hash((1,))
    from exactodds.cards import Shoe

    shoe = Shoe.standard(8)
    assert pickle.loads(pickle.dumps(shoe)) == shoe and hash(pickle.loads(pickle.dumps(shoe))) == hash(shoe)
