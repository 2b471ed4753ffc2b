"""What a request will cost, estimated from the request object before any of its work is done.

The unit is one bet priced on one shoe (punto banco's core bets: some 20 µs each on a 2-core
machine of 2026, a little less for the cheaper bets, more for a card walk). A server refuses at
once a request whose estimate is over what it could price in its time limit on a machine several
times faster (:data:`UNITS_PER_SECOND`): such a request would certainly be stopped at the limit,
and the time till then is taken from every other request. The estimate also tells heavy requests
from light ones (:data:`LIGHT`), which keep a worker of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ExactOddsError
from ..games import DEFAULT, find_game
from ..inputs import BET, BETS_FILE, GAME, GIVEN

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
    game = DEFAULT
    if isinstance(data.get(GAME.key), str):
        try:
            game = find_game(data[GAME.key])
        except ExactOddsError:
            return 1  # refused when its work starts, with the words of the command line
    if not game.has("bets"):
        return 1
    named, texts = data.get(BET.key), data.get(BETS_FILE.key)
    if isinstance(named, str):
        named = [named]
    every = len(game.bets(game.settings_of({})))
    count = sum(every if one == "all" else 1 for one in named) if isinstance(named, list) else 0
    for text in texts if isinstance(texts, list) else [texts]:
        count += text.count("[bets.") if isinstance(text, str) else 0
    if count == 0:
        count = len(game.default_bets(game.settings_of({})))
    return max(1, count)


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
