"""Batch pricing: one shoe per JSON line in, one ``odds --format json`` object per line out."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from .analysis import Analysis, analyze_many, resolve_bets
from .bets import Bet
from .cards import Shoe
from .errors import ExactOddsError
from .rules import PUNTO_BANCO, RuleSet

#: Keys a batch line may carry.
LINE_KEYS = ("counts", "decks", "shoe", "remove")


def parse_shoe_line(text: str) -> Shoe:
    """Read one batch line: ``{"counts": {...}}``, ``{"decks": 8, "remove": "7,7,8"}`` or ``{"shoe": "A=32,…"}``.

    >>> parse_shoe_line('{"decks": 8, "remove": "7,7,8"}').size
    413
    >>> parse_shoe_line('{"counts": {"A": 3, "K": 3}}').size
    6
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ExactOddsError(f"not valid JSON ({err.msg} at column {err.colno})") from None
    except ValueError:  # int() refuses a number of more than 4300 digits
        raise ExactOddsError("not valid JSON (a number has too many digits)") from None
    if not isinstance(data, dict):
        raise ExactOddsError("each line must be a JSON object such as {\"decks\": 8}")
    unknown = sorted(set(data) - set(LINE_KEYS))
    if unknown:
        raise ExactOddsError(f"unknown key {unknown[0]!r}: a line may hold {', '.join(LINE_KEYS)}")
    given = [k for k in ("counts", "decks", "shoe") if k in data]
    if len(given) > 1:
        raise ExactOddsError(f"give one of counts, decks or shoe, not {' and '.join(given)}")
    if "counts" in data:
        if not isinstance(data["counts"], dict):
            raise ExactOddsError('"counts" must be an object of rank: count, e.g. {"A": 32}')
        shoe = Shoe.from_counts(data["counts"])
    elif "shoe" in data:
        if not isinstance(data["shoe"], str):
            raise ExactOddsError('"shoe" must be a string such as "A=32,2=32"')
        shoe = Shoe.parse(data["shoe"])
    else:
        shoe = Shoe.standard(data.get("decks", 8))
    remove = data.get("remove")
    if remove is None:
        return shoe
    if isinstance(remove, str):
        return shoe.remove(remove)
    if isinstance(remove, list) and all(isinstance(card, str) for card in remove):
        return shoe.remove(remove)
    raise ExactOddsError('"remove" must be a string such as "7,7,8" or a list of ranks')


@dataclass(frozen=True)
class BadLine:
    """An input line that could not be read, with its 1-based line number."""

    line: int
    message: str


def price_lines(
    lines: Iterable[str],
    rules: RuleSet = PUNTO_BANCO,
    bets: Sequence[str | Bet] | None = None,
    *,
    chunk: int = 2048,
) -> Iterator[tuple[int, Analysis | BadLine]]:
    """Price every non-blank line, in order, in batches; yield (line number, analysis or bad line).

    >>> results = list(price_lines(['{"decks": 1}', '', '{"decks": 0}'], bets=["tie"]))
    >>> [(n, type(r).__name__) for n, r in results]
    [(1, 'Analysis'), (3, 'BadLine')]
    """
    chosen = resolve_bets(rules, bets)
    pending: list[tuple[int, Shoe | BadLine]] = []

    def flush() -> Iterator[tuple[int, Analysis | BadLine]]:
        shoes = [item for _, item in pending if isinstance(item, Shoe)]
        priced = iter(analyze_many(shoes, rules, chosen))
        for number, item in pending:
            yield number, next(priced) if isinstance(item, Shoe) else item
        pending.clear()

    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            pending.append((number, parse_shoe_line(text)))
        except ExactOddsError as err:
            pending.append((number, BadLine(number, str(err))))
        if len(pending) >= chunk:
            yield from flush()
    yield from flush()
