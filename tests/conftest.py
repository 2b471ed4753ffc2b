"""Shared fixtures: exact distributions of standard shoes, computed once per test session."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from exactodds import Shoe, enumerate_coups
from exactodds.coup import CoupDistribution


@cache
def _standard(decks: int, remove: str = "") -> CoupDistribution:
    shoe = Shoe.standard(decks)
    return enumerate_coups(shoe.remove(remove) if remove else shoe)


@pytest.fixture(scope="session")
def standard_coups() -> Callable[..., CoupDistribution]:
    """``standard_coups(decks, remove="")``: the cached reference enumeration of a standard shoe."""
    return _standard


@pytest.fixture(scope="session")
def generated() -> dict[str, bytes]:
    """Every file of the tables folder, generated once for the whole test session."""
    from exactodds.tables import generate_tables

    return generate_tables()
