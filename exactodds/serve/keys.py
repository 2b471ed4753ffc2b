"""A request object read by the one declaration of the inputs: its keys checked, each read by its input's kind into
the plain value the command line's option gives, and the setup built by the command line's builder.

A request is the JSON form of a command's options: the shoe as a batch object (``counts``,
``decks``, ``shoe``, ``remove``, read by :func:`exactodds.batch.shoe_of`), the game and its
settings by the keys of their inputs (``game``, ``tie_pays``, ``rules``), a file's *text*
(``rules_toml``, ``bets_toml``), the bets by id (``bets``). A text is read by the same parser as
a file, with the same bound; no key is ever a path, and nothing here opens a file.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..batch import SHOE_KEYS, shoe_of
from ..errors import ExactOddsError, did_you_mean
from ..game import Capability, Game
from ..games import DEFAULT
from ..inputs import BET, BETS_FILE, COUNTS, DECKS, GAME, REMOVE, SHOE_TEXT, Input
from ..request import Setup, Toml, choose_game, deck_range, read_setup, settings_inputs

#: The inputs that describe a shoe in a request: a batch object's keys.
SHOE_INPUTS = (COUNTS, DECKS, SHOE_TEXT, REMOVE)
#: The inputs that choose the game, its settings and the bets: every game's settings, each once.
GAME_INPUTS = (GAME, *settings_inputs(), BET, BETS_FILE)


def check_keys(data: Any, allowed: Sequence[str], what: str) -> dict[str, Any]:
    """``data`` as a JSON object holding only ``allowed`` keys; anything else is one error naming what it may hold.

    >>> check_keys({"decks": 8}, ["decks"], "the body of POST /odds")
    {'decks': 8}
    >>> check_keys({"deck": 8}, ["decks", "shoe"], "the body of POST /odds")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown key 'deck': did you mean decks? the body of POST /odds may hold decks, shoe
    >>> check_keys([], ["decks"], "the body of POST /odds")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: the body of POST /odds must be a JSON object such as {"decks": 8}
    """
    if not isinstance(data, dict):
        raise ExactOddsError(f'{what} must be a JSON object such as {{"decks": 8}}')
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ExactOddsError(f"unknown key {unknown[0][:40]!r}: {did_you_mean(unknown[0], allowed)}{what} may hold"
                             f" {', '.join(allowed)}")
    return data


def values_of(data: dict[str, Any], inputs: Sequence[Input]) -> dict[str, Any]:
    """The value of each input's key (``None`` when absent), read by its kind; a file's text with its key as its name.

    >>> from exactodds.inputs import PRECISION
    >>> values_of({"precision": 4, "bets_toml": "x"}, [PRECISION, BETS_FILE])
    {'precision': 4, 'bets-file': (Toml(text='x', where='bets_toml'),)}
    """
    out: dict[str, Any] = {}
    for one in inputs:
        value = one.read(data)
        if one.kind == "file" and value is not None:
            value = (Toml(value, one.key),) if one.multiple else Toml(value, one.key)
        out[one.name] = value
    return out


def value(data: dict[str, Any], one: Input, default: Any = None) -> Any:
    """The value of one input's key, read by its kind (``default`` when absent)."""
    found = one.read(data)
    return default if found is None else found


def required(data: dict[str, Any], one: Input, example: str) -> Any:
    """The value of an input the request must give; its absence is one error with an ``example``."""
    found = one.read(data)
    if found is None:
        raise ExactOddsError(f'"{one.key}" is required: {example}')
    return found


def request_setup(
    data: dict[str, Any], *, need: Capability | None = "bets", default: Game = DEFAULT, tool: str = "",
    shoe: bool = True, decks_range: bool = False,
) -> tuple[Setup, tuple[int, int] | None]:
    """The setup of a request (its keys already checked), built as the command line's is; with ``decks_range``,
    ``decks`` may be a range ``"LOW:HIGH"`` (the shoe then holds HIGH decks), returned beside it."""
    values = values_of(data, GAME_INPUTS)
    values.update((one.name, data.get(one.key)) for one in SHOE_INPUTS)  # (said or not: the shoe is built below)
    span = deck_range(data.get(DECKS.key)) if decks_range else None
    shoe_data = {k: v for k, v in data.items() if k in SHOE_KEYS}
    if span is not None:
        shoe_data[DECKS.key] = span[1]
    game = choose_game(values[GAME.name], default)

    def built(usual: int) -> Any:
        return shoe_of(shoe_data, decks=usual)

    setup = read_setup(values, default=game, need=need, tool=tool, shoe=shoe, shoe_of=built if shoe else None)
    return setup, span
