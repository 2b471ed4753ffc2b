"""Shared fixtures: exact distributions of standard shoes, computed once per test session."""

from __future__ import annotations

import gc
import os
import pickle
import signal
from collections.abc import Callable
from functools import cache
from typing import TypeVar

import pytest

from exactodds import Shoe, enumerate_coups
from exactodds.puntobanco.coup import CoupDistribution

T = TypeVar("T")


def pytest_configure(config: pytest.Config) -> None:
    """Run the tests with Ctrl-C as a terminal delivers it, however pytest itself was started.

    A command started in the background by a shell without job control (``pytest &``, a script's
    ``( … ) &``) has SIGINT ignored, and an ignored signal stays ignored in every process it starts,
    through ``exec``: Python then installs no handler, and the tests that send SIGINT to a child
    (start-up, a tracker reading a pipe, a simulation, the server) would see it do nothing. The
    default handler is put back here, in the test process and each xdist worker, before any child
    is started.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Leave what collection made (the modules, some 4,000 items and their doctests) out of the garbage collector's
    full passes: see :func:`pytest_runtest_teardown`."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the last test of a file (its fixtures torn down), leave what is still alive out of the full passes.

    What a worker keeps for the whole run (the session's caches: reference enumerations, compiled tables, imported
    libraries) grows to hundreds of megabytes, and each full pass of the collector walked all of it again: some
    7 seconds of CPU in a quick run on two workers, against about 1.5 with this (timed by ``gc.callbacks``). A cycle
    left over from a file and still uncollected when it ends is then never freed: the workers' peak memory stayed
    within 3% of what it was (``ru_maxrss``). Freezing changes no threshold of the collector (the start-up tests of
    tests/test_cli.py count its passes and read its thresholds).
    """
    if nextitem is None or nextitem.path != item.path:
        gc.freeze()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Outside the slow profile, deselect the tests and cases marked ``slow`` (``tests/profiles.py`` says which)."""
    from profiles import is_slow

    if is_slow():
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]


@cache
def _standard(decks: int, remove: str = "") -> CoupDistribution:
    shoe = Shoe.standard(decks)
    return enumerate_coups(shoe.remove(remove) if remove else shoe)


@pytest.fixture(scope="session")
def standard_coups() -> Callable[..., CoupDistribution]:
    """``standard_coups(decks, remove="")``: the cached reference enumeration of a standard shoe."""
    return _standard


@pytest.fixture(scope="session")
def once_per_run(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, Callable[[], T]], T]:
    """``once_per_run(name, make)``: ``make()``, made by the first worker of the run that needs it, read by the others.

    Each worker of a distributed run is a process of its own, which makes a session's or a module's
    fixture for itself: what takes seconds to make (the tables, a module's reports) is made once, and
    pickled for the other worker in the run's temporary folder (new for each run).
    """

    def once(name: str, make: Callable[[], T]) -> T:
        if not os.environ.get("PYTEST_XDIST_WORKER"):
            return make()
        import fcntl

        shared = tmp_path_factory.getbasetemp().parent / f"{name}.pickle"
        with shared.with_suffix(".lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if shared.exists():
                return pickle.loads(shared.read_bytes())  # written by this run's other worker
            value = make()
            shared.write_bytes(pickle.dumps(value))
            return value

    return once


@pytest.fixture(scope="session")
def generated(once_per_run: Callable[..., dict[str, bytes]]) -> dict[str, bytes]:
    """Every file of the tables folder, generated once for the whole test session."""
    from profiles import is_slow

    from exactodds.tables import generate_tables

    def generate() -> dict[str, bytes]:
        # The finite-shoe chemin de fer solutions (32 of them) take some twelve seconds: the quick run
        # leaves them to the slow profile (see QUICK_SKIPPED_TABLES); tests/test_games.py checks the solver.
        return generate_tables() if is_slow() else generate_tables(game_models=("A1",))

    return once_per_run("generated-tables", generate)


#: The committed table files the quick test run does not generate (the slow profile does).
QUICK_SKIPPED_TABLES = tuple(f"games/chemin-de-fer-{m}.{ext}" for m in ("b2", "b3") for ext in ("md", "csv", "json"))
