"""What a request will cost, estimated from the request object before any of its work is done.

The unit is one bet priced on one shoe (punto banco's core bets: some 20 µs each on a 2-core
machine of 2026, a little less for the cheaper bets, more for a card walk). A server refuses at
once a request whose estimate is over what it could price in its time limit on a machine several
times faster (:data:`UNITS_PER_SECOND`): such a request would certainly be stopped at the limit,
and the time till then is taken from every other request. The estimate also tells heavy requests
from light ones (:data:`LIGHT`), which keep a worker of their own.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from ..errors import ExactOddsError
from ..games import DEFAULT, find_game
from ..inputs import BET, BETS_FILE, GAME, GIVEN, REMOVE

#: The units a request may cost per second of the server's time limit.
UNITS_PER_SECOND = 200_000
#: The units over which a request is heavy: it may not take the last free worker (cheap requests keep one).
LIGHT = 2_000
#: The estimate of a request whose cost the request does not say: a search (a solved game, the best sort, an
#: event's card walk), heavy but under any time limit's budget.
SEARCH = 2 * LIGHT


def _bets_priced(data: dict[str, Any]) -> int:
    """How many bets a request prices, read from it as it stands (its keys not yet checked): each id named, "all"
    as the game's every bet, each bet of a bets file's text as one; the game's default bets when none is named.

    >>> _bets_priced({"bets": ["all", "tie"]}) > _bets_priced({}) > 1
    True
    """
    name = DEFAULT.name
    if isinstance(data.get(GAME.key), str):
        try:
            name = find_game(data[GAME.key]).name
        except ExactOddsError:
            return 1  # refused when its work starts, with the words of the command line
    every, default = _bet_counts(name)
    if not every:
        return 1
    named, texts = data.get(BET.key), data.get(BETS_FILE.key)
    if isinstance(named, str):
        named = [named]
    count = sum(every if one == "all" else 1 for one in named) if isinstance(named, list) else 0
    for text in texts if isinstance(texts, list) else [texts]:
        count += text.count("[bets.") if isinstance(text, str) else 0
    return max(1, count or default)


@cache
def _bet_counts(name: str) -> tuple[int, int]:
    """The bets of game ``name`` under its default settings: every one, and its default ones (0, 0: it has none).

    Worked out once a game (a tenth of a millisecond each time: a request's estimate must cost far less than its
    work).
    """
    game = find_game(name)
    if not game.has("bets"):
        return 0, 0
    settings = game.settings_of({})
    return len(game.bets(settings)), len(game.default_bets(settings))


def odds_cost(data: dict[str, Any]) -> int:
    """The estimated cost of ``/odds``: its bets, on one shoe (a search when an event is given).

    >>> odds_cost({"bets": ["tie"]}), odds_cost({"bets": ["tie"], "given": "P1 = K"}) == SEARCH
    (1, True)
    """
    return SEARCH if data.get(GIVEN.key) is not None else _bets_priced(data)


def batch_cost(data: dict[str, Any]) -> int:
    """The estimated cost of ``/batch``: its shoes times its bets.

    >>> batch_cost({"shoes": [{"decks": 8}] * 1000, "bets": ["tie"]})
    1000
    """
    shoes = data.get("shoes")
    return (len(shoes) if isinstance(shoes, list) else 1) * _bets_priced(data)


#: The units of a line of a log reviewed: a coup priced for the bets wagered on it, a wager settled (some 0.3 ms).
REVIEW_LINE = 60


def review_cost(data: dict[str, Any]) -> int:
    r"""The estimated cost of ``/review``: the lines of its log.

    >>> review_cost({"log": "a\nb\n"}) == 2 * REVIEW_LINE
    True
    """
    log = data.get("log")
    lines = log.count("\n") + (not log.endswith("\n")) if isinstance(log, str) else 1
    return max(1, lines) * REVIEW_LINE


def search_cost(data: dict[str, Any]) -> int:
    """The estimated cost of a search (``/solve``, ``/edge-sort``, ``/design``): heavy, whatever it asks (a design
    bounds its own work before it starts, by its deck range and its grid: :meth:`exactodds.design.request.Order.cost`).
    """
    return SEARCH


def budget(seconds: float) -> int:
    """The most units a request may cost under a time limit of ``seconds``.

    >>> budget(30)
    6000000
    """
    return int(UNITS_PER_SECOND * seconds)


def check_cost(cost: Callable[[dict[str, Any]], int] | None, data: Any, seconds: float) -> int:
    """The estimated ``cost`` of a request object; refused at once when over the budget of ``seconds``.

    >>> check_cost(batch_cost, {"shoes": [{}] * 10_000, "bets": ["all"]}, 3)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: the request asks for about 860,000 bets priced on a shoe, more than this \
server does within its time limit of 3 s (600,000): ask for less (fewer shoes or bets), or start the server with a \
longer --time-limit
    """
    if cost is None or not isinstance(data, dict):
        return 0
    units = cost(data)
    most = budget(seconds)
    if units > most:
        raise ExactOddsError(f"the request asks for about {units:,} bets priced on a shoe, more than this server does"
                             f" within its time limit of {seconds:g} s ({most:,}): ask for less (fewer shoes or bets),"
                             " or start the server with a longer --time-limit")
    return units


#: The most units a request answered in the server itself may cost (some 2 ms of punto banco's bets).
QUICK_UNITS = 100
#: The CPU seconds a request of its kind must have taken, where it ran, to be answered in the server (at most a
#: two-hundredth of the time limit). CPU, not the clock: a machine busy with other work makes no request slow.
QUICK_SECONDS = 0.005
#: How many answers of a kind in a row, each quick, before the server answers that kind itself.
QUICK_RUNS = 3
#: How many slow answers in the server before a kind is left to the workers for good.
QUICK_STRIKES = 3
#: The largest body whose kind is learned (larger ones always go to a worker); the most kinds remembered.
QUICK_BODY, QUICK_KINDS = 4096, 512


class Quick:
    """The kinds of request that proved quick, which the server answers itself (no worker can stop that work at the
    time limit: only work that took a small share of it, :data:`QUICK_SECONDS`, each time it ran).

    A kind is the endpoint and the request object but for the cards dealt (``remove``): the same game, rules, bets
    and shoe size. After :data:`QUICK_RUNS` quick answers in a row (each timed where it ran), it is answered in the
    server; one slow answer sends it back to the workers (the server's first may be slow: the tables the workers had
    built), and after :data:`QUICK_STRIKES` slow answers in the server, for good.

    >>> quick = Quick(limit=30)
    >>> kind = quick.kind(1, {"decks": 8, "remove": "7"}, 7, 30)
    >>> for _ in range(QUICK_RUNS): quick.ran(kind, 0.001, here=False)
    >>> quick.proven(kind), quick.proven(quick.kind(1, {"decks": 8, "remove": "8,9"}, 7, 30))
    (True, True)
    >>> quick.ran(kind, 0.5, here=True); quick.proven(kind)
    False
    """

    def __init__(self, limit: float) -> None:
        self.bound = min(QUICK_SECONDS, limit / 200)
        self._runs: dict[str, int] = {}  # quick answers in a row, by kind
        self._strikes: dict[str, int] = {}  # slow answers in the server, by kind

    def kind(self, endpoint: int, data: Any, units: int, size: int) -> str | None:
        """The kind of a request (endpoint ``endpoint``'s, estimated at ``units``, its body ``size`` bytes), or None
        when it is never answered in the server (costly, of no estimate, or a large body)."""
        if not isinstance(data, dict) or not 0 < units <= QUICK_UNITS or size > QUICK_BODY:
            return None
        return f"{endpoint} " + json.dumps({k: v for k, v in data.items() if k != REMOVE.key}, sort_keys=True)

    def proven(self, kind: str | None) -> bool:
        """Whether the server answers requests of ``kind`` itself."""
        return kind is not None and self._runs.get(kind, 0) >= QUICK_RUNS

    def ran(self, kind: str | None, seconds: float, here: bool) -> None:
        """A request of ``kind`` was answered in ``seconds`` of CPU (``here``: by the server itself)."""
        if kind is None or self._strikes.get(kind, 0) >= QUICK_STRIKES:
            return
        if len(self._runs) >= QUICK_KINDS and kind not in self._runs:
            self._runs.clear()  # bounded: kinds seen once (a remove each time, a shoe each time) are forgotten
        if seconds <= self.bound:
            self._runs[kind] = self._runs.get(kind, 0) + 1
            return
        self._runs[kind] = 0
        if here:
            self._strikes[kind] = self._strikes.get(kind, 0) + 1
            if len(self._strikes) > QUICK_KINDS:
                self._strikes.clear()
