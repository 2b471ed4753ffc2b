"""How hard the randomised tests try: a quick default, and a ``slow`` profile that CI also runs.

``pytest`` alone (the README's test command) runs each property on a few examples, enough to
catch a broken path in about a minute; ``EXACTODDS_TESTS=slow pytest`` runs every property on
its full number of examples (and model B3's game tables), as CI does after the quick run.
The golden hash of the compiled table (``tests/test_compiled.py``) pins the table that those
full runs verified, so a change to it cannot pass the quick run unnoticed.

The same split holds for tests that cost a second or more of CPU: a test marked :data:`slow`, or
a case of one, runs under the slow profile only (``tests/conftest.py`` deselects it otherwise).
Two kinds are marked: the cases of a sweep past its first ones (every game, every format, every
shoe of a brute force: :func:`sweep`), and an end-to-end run whose path a cheaper test of the
default run already takes (a whole report in every format, a server under load, a browser).
Nothing is lost in CI, which runs both profiles; the default run stays a few minutes of CPU.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

#: The slow profile is told apart by its example budget (a public setting).
_SLOW_BUDGET = 1000
settings.register_profile("default", deadline=None)
settings.register_profile("slow", deadline=None, max_examples=_SLOW_BUDGET)
SLOW = os.environ.get("EXACTODDS_TESTS") == "slow"
if SLOW:
    settings.load_profile("slow")


#: A test, or a case of one (``pytest.param(..., marks=slow)``), that only the slow profile runs.
slow = pytest.mark.slow


def is_slow() -> bool:
    """Whether the slow profile is on (by the environment or by ``--hypothesis-profile=slow``)."""
    return SLOW or settings().max_examples >= _SLOW_BUDGET


def examples(full: int, quick: int | None = None) -> settings:
    """Hypothesis settings with ``full`` examples under the slow profile, else ``quick`` (default full / 10, ≥ 3)."""
    few = quick if quick is not None else max(3, full // 10)
    return settings(
        max_examples=full if is_slow() else few,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


def slow_cases(*cases: object) -> list:
    """``cases`` under the slow profile, none in the quick run: the sweep past a test's representative cases."""
    return list(cases) if is_slow() else []


def sweep(cases: Iterable[Any], quick: int = 1, *, unpack: bool = False) -> list[Any]:
    """``cases`` for ``parametrize``, all but the first ``quick`` of them marked :data:`slow`.

    A case is a value, a ``pytest.param`` (its id and marks are kept) or, with ``unpack``
    (several argument names), a tuple of values.
    """
    marked = []
    for index, case in enumerate(cases):
        if index < quick:
            marked.append(case)
        elif isinstance(case, type(pytest.param(None))):
            marked.append(pytest.param(*case.values, marks=[*case.marks, slow], id=case.id))
        else:
            marked.append(pytest.param(*(case if unpack else (case,)), marks=slow))
    return marked
