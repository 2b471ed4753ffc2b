"""How hard the randomised tests try: a quick default, and a ``slow`` profile that CI also runs.

``pytest`` alone (the README's test command) runs each property on a few examples, enough to
catch a broken path in about a minute; ``EXACTODDS_TESTS=slow pytest`` runs every property on
its full number of examples (and model B3's game tables), as CI does after the quick run.
The golden hash of the compiled table (``tests/test_compiled.py``) pins the table that those
full runs verified, so a change to it cannot pass the quick run unnoticed.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

#: The slow profile is told apart by its example budget (a public setting).
_SLOW_BUDGET = 1000
settings.register_profile("default", deadline=None)
settings.register_profile("slow", deadline=None, max_examples=_SLOW_BUDGET)
SLOW = os.environ.get("EXACTODDS_TESTS") == "slow"
if SLOW:
    settings.load_profile("slow")


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
