"""The quicker start-up paths (issue 30) give exactly what the plain ones gave: a record's frozen methods made as
closures behave as a frozen dataclass's compiled ones, and the coup facts' sets of states, made from bytes and (the
winner) from the totals' sets, are those read state by state."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import FrozenInstanceError, dataclass

import pytest

from exactodds import records
from exactodds.puntobanco import facts
from exactodds.puntobanco.coup import ALL_STATES, suited_twins, twin_shifts
from exactodds.records import record


def _frozen_twins() -> tuple[type, type]:
    """One class body made a frozen dataclass and a record."""
    made = []
    for decorate in (dataclass(frozen=True), record):
        made.append(decorate(type("Sample", (), {"__module__": __name__, "__annotations__": {"a": "int", "b": "int"},
                                                 "b": 2})))
    return made[0], made[1]


def _error(action: object) -> tuple[type, str] | None:
    try:
        action()  # type: ignore[operator]
    except Exception as err:  # noqa: BLE001 - the error itself is compared
        return type(err), str(err)
    return None


def test_a_records_frozen_methods_act_as_a_frozen_dataclasss() -> None:
    dc, rec = _frozen_twins()
    for cls in (dc, rec):
        assert cls.__setattr__.__qualname__ == "Sample.__setattr__"
        assert cls.__delattr__.__qualname__ == "Sample.__delattr__"
    a, b = dc(1), rec(1)
    for name in ("a", "b", "c"):
        assert _error(lambda obj=a, n=name: setattr(obj, n, 5)) == _error(lambda obj=b, n=name: setattr(obj, n, 5))
        assert _error(lambda obj=a, n=name: delattr(obj, n)) == _error(lambda obj=b, n=name: delattr(obj, n))
    assert _error(lambda: setattr(b, "a", 0))[0] is FrozenInstanceError  # type: ignore[index]

    # A plain subclass: its own attributes may be set and deleted, its fields not, as a dataclass's.
    plain_dc, plain_rec = type("Plain", (dc,), {}), type("Plain", (rec,), {})
    x, y = plain_dc(1), plain_rec(1)
    for obj in (x, y):
        obj.extra = 3
        assert obj.extra == 3
        del obj.extra
    assert _error(lambda: setattr(x, "a", 0)) == _error(lambda: setattr(y, "a", 0))
    assert _error(lambda: delattr(x, "b")) == _error(lambda: delattr(y, "b"))


def test_a_record_stays_a_frozen_dataclass_for_dataclasses() -> None:
    @record
    class Base:
        a: int

    @dataclass(frozen=True)
    class Child(Base):  # a frozen dataclass may only extend a frozen one
        b: int = 0

    child = Child(1, 2)
    assert Base.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert dataclasses.replace(child, b=3) == Child(1, 3)
    with pytest.raises(FrozenInstanceError):
        child.b = 4  # type: ignore[misc]
    with pytest.raises(TypeError):

        @dataclass
        class Thawed(Base):  # nor a plain one a frozen one
            c: int = 0


def test_dataclasses_own_frozen_methods_are_put_back() -> None:
    @record
    class Made:
        a: int

    if records._COMPILED_FROZEN is not None:
        assert dataclasses._frozen_get_del_attr is records._COMPILED_FROZEN  # type: ignore[attr-defined]

    @dataclass(frozen=True)
    class Plain:
        a: int

    assert Plain.__setattr__.__code__.co_filename != records.__file__
    assert Made.__setattr__.__code__.co_filename == records.__file__ or records._COMPILED_FROZEN is None


def test_every_facts_sets_of_states_are_those_read_state_by_state() -> None:
    facts.fact_masks.cache_clear()
    try:
        masks = facts.fact_masks()
        for name, fact in facts.FACTS.items():
            assert list(masks[name]) == list(fact.values)
            read = [fact.read(state) for state in ALL_STATES]
            for value in fact.values:
                held = [type(got) is type(value) and got == value for got in read]
                assert masks[name][value] == facts.mask_of(held), (name, value)
    finally:
        facts.fact_masks.cache_clear()


def test_a_set_of_states_from_its_members() -> None:
    rng = random.Random(30)
    for size in (0, 1, 2, 7, 64, len(ALL_STATES)):
        members = [rng.choice((0, 1, True, False, None, "x", "", 2.5)) for _ in range(size)]
        assert facts.mask_of(members) == sum(1 << i for i, member in enumerate(members) if member)


def test_the_twins_sets_by_shift() -> None:
    by_shift: dict[int, int] = {}
    for suited, twin in suited_twins():
        assert ALL_STATES[twin] == ALL_STATES[suited]._replace(player_pair_suited=False, banker_pair_suited=False)
        by_shift[suited - twin] = by_shift.get(suited - twin, 0) | 1 << twin
    assert twin_shifts() == tuple(sorted(by_shift.items()))
    suited = [i for i, s in enumerate(ALL_STATES) if s.player_pair_suited or s.banker_pair_suited]
    assert sorted(s for s, _ in suited_twins()) == suited
