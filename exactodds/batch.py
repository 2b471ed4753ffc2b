"""Batch pricing: one shoe per JSON line in, one ``odds --format json`` object per line out."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .analysis import Analysis, analyze_many, require_suits, resolve_bets
from .bets import Bet
from .cards import Rank, Shoe
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
        data = json.loads(text, object_pairs_hook=_no_repeated_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise ExactOddsError(f"not valid JSON ({err.msg} at column {err.colno})") from None
    except ExactOddsError:
        raise
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
        shoe = Shoe.from_counts(_counts_by_rank(data["counts"]))
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


def _no_repeated_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object as a dict, refusing a key given twice (json.loads would keep the last silently)."""
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise ExactOddsError(f"key {key!r} is given twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> None:
    """Refuse NaN and Infinity, which Python's json reads although JSON has no such numbers."""
    raise ExactOddsError(f"not valid JSON ({name} is not a JSON number)")


def _counts_by_rank(counts: dict[str, Any]) -> dict[str | Rank, Any]:
    """The counts of a line keyed by rank, refusing one rank under two names ("A" and "a", "10" and "T")."""
    out: dict[str | Rank, Any] = {}
    names: dict[Rank, str] = {}
    for key, n in counts.items():
        rank = Rank.parse(key)
        if rank in out:
            raise ExactOddsError(f'rank {rank.value} is given twice in "counts" (as {names[rank]!r} and {key!r})')
        out[rank], names[rank] = n, key
    return out


@dataclass(frozen=True)
class BadLine:
    """An input line that could not be read, with its 1-based line number."""

    line: int
    message: str


def price_lines(
    lines: Iterable[str | bytes],
    rules: RuleSet = PUNTO_BANCO,
    bets: Sequence[str | Bet] | None = None,
    *,
    chunk: int = 2048,
    stop_at_bad: bool = False,
) -> Iterator[tuple[int, Analysis | BadLine]]:
    """Price every non-blank line, in order, in batches; yield (line number, analysis or bad line).

    Lines given as bytes are decoded one by one, so a line that is not UTF-8 is one bad
    line, not the end of the run. With ``stop_at_bad`` the first bad line is yielded
    right after the results of every line before it, and nothing more is read.

    >>> results = list(price_lines(['{"decks": 1}', '', '{"decks": 0}'], bets=["tie"]))
    >>> [(n, type(r).__name__) for n, r in results]
    [(1, 'Analysis'), (3, 'BadLine')]
    >>> [type(r).__name__ for n, r in price_lines([b'{"decks": 1}', b'\\xff', b'{"decks": 2}'], stop_at_bad=True)]
    ['Analysis', 'BadLine']
    """
    chosen = resolve_bets(rules, bets)
    pending: list[tuple[int, Shoe | BadLine]] = []

    def flush() -> Iterator[tuple[int, Analysis | BadLine]]:
        shoes = [item for _, item in pending if isinstance(item, Shoe)]
        priced = iter(analyze_many(shoes, rules, chosen))
        for number, item in pending:
            yield number, next(priced) if isinstance(item, Shoe) else item
        pending.clear()

    for number, raw in enumerate(lines, start=1):
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError:
            pending.append((number, BadLine(number, "not UTF-8 text")))
        else:
            if not text.strip():
                continue
            try:
                shoe = parse_shoe_line(text)
                require_suits(shoe, chosen)  # a bet on suited pairs and a line known by rank only: that line
                pending.append((number, shoe))
            except ExactOddsError as err:
                pending.append((number, BadLine(number, str(err))))
        if stop_at_bad and isinstance(pending[-1][1], BadLine):
            yield from flush()
            return
        if len(pending) >= chunk:
            yield from flush()
    yield from flush()
