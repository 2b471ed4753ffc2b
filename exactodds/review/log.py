"""A table's log read record by record: one JSON object a line, or CSV with the same fields, each record checked and
named by its line number.

The records (docs/review.md):

- a shoe starts: ``{"shoe": "T7-0412", "decks": 8, "rules": "ez"}``, the shoe keys of ``batch`` (``decks``,
  ``counts``, ``remove``: ``shoe`` is the id here), a rule set, and a ``table`` it is dealt at (default: its id);
- cards out of play, in order: ``{"shoe": …, "burn": ["5S", "KD"]}`` (seen cards: they leave the shoe);
- a coup: ``{"shoe": …, "coup": 1, "player": ["2S", "3H", "9D"], "banker": ["3C", "4D"]}``;
- a wager: ``{"shoe": …, "coup": 1, "who": "seat-3", "bet": "dragon-7", "stake": "25", "net": "-25"}``, ``net``
  what the casino paid (+) or took (−), exact (a whole number or a decimal, as text or an integer);
- a shoe ends: ``{"shoe": …, "end": true}`` (else at the end of the log, or when its id starts again).

Cards are written with or without suits (``7h``, ``KD``, ``10``, ``T``): in a list, or in a text split on spaces or
commas. A CSV log has a header naming these fields; an empty cell is an absent field, and a cell of cards is a text.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

from ..batch import SHOE_KEYS, load_json, shoe_of
from ..cards import CARD_TEXTS, Shoe, parse_card
from ..errors import ExactOddsError, shown
from ..exact import parse_percent

#: The most characters of a log line read (a shoe's whole log is many lines, each short).
MAX_LINE = 10_000
#: The shoe keys of ``batch`` a shoe's start takes (``shoe`` is the shoe's id here, so its cards are given by the
#: others).
CARD_KEYS = tuple(key for key in SHOE_KEYS if key != "shoe")
#: The fields of each kind of record (``shoe`` in every one), as a CSV log's header names them.
START_KEYS = ("shoe", "table", "rules", *CARD_KEYS)
FIELDS = (*START_KEYS, "burn", "coup", "player", "banker", "who", "bet", "stake", "net", "end")


class Start(NamedTuple):
    """A shoe starts: its id, the table, its cards, and the rule set named (``None``: the review's)."""

    line: int
    shoe: str
    table: str
    cards: Shoe
    rules: str | None


class Burn(NamedTuple):
    """Cards out of play, seen, in order."""

    line: int
    shoe: str
    cards: tuple[str, ...]


class Dealt(NamedTuple):
    """A coup as dealt: its number in the shoe, the Player's cards and the Banker's, each in deal order."""

    line: int
    shoe: str
    coup: int
    player: tuple[str, ...]
    banker: tuple[str, ...]


class Wager(NamedTuple):
    """A wager on a coup: who, the bet's id, the stake, and the net the casino paid (+) or took (−)."""

    line: int
    shoe: str
    coup: int
    who: str
    bet: str
    stake: Fraction
    net: Fraction


class End(NamedTuple):
    """A shoe ends."""

    line: int
    shoe: str


Record = Start | Burn | Dealt | Wager | End


class BadRecord(NamedTuple):
    """A line that is no record, with why."""

    line: int
    error: str


def records(lines: Iterable[str], *, csv_log: bool | None = None) -> Iterator[Record | BadRecord]:
    """The records of a log's lines, in order, a bad line as a :class:`BadRecord` (``csv_log``: ``None`` reads CSV
    when the first line that is not blank does not open a JSON object).

    >>> [type(r).__name__ for r in records(['{"shoe": "a", "decks": 1}', '{"shoe": "a", "end": true}'])]
    ['Start', 'End']
    """
    first, chained = peek(lines)
    if csv_log is None:
        csv_log = is_csv(first)
    if csv_log:
        yield from _csv_records(chained)
        return
    yield from numbered_records(enumerate(chained, 1))


def numbered_records(lines: Iterable[tuple[int, str]]) -> Iterator[Record | BadRecord]:
    """The records of a JSON-lines log's lines given with their numbers (a worker of a review reads its share).

    >>> [r.line for r in numbered_records([(7, '{"shoe": "a", "end": true}'), (9, "[]")])]
    [7, 9]
    """
    for number, text in lines:
        if not text or text.isspace():
            continue
        try:
            if len(text) > MAX_LINE:
                raise ExactOddsError(f"a line of a log holds at most {MAX_LINE:,} characters")
            data = load_json(text)
            if not isinstance(data, dict):
                raise ExactOddsError("a line of a log is one JSON object")
            yield record(number, data)
        except ExactOddsError as err:
            yield BadRecord(number, str(err))


def peek(lines: Iterable[str]) -> tuple[str, Iterator[str]]:
    """A log's first line that is not blank (``""``: none), and every line still to read, that one included.

    >>> first, lines = peek(["", '{"shoe": "a"}', "x"])
    >>> first, list(lines)
    ('{"shoe": "a"}', ['', '{"shoe": "a"}', 'x'])
    """
    rest = iter(lines)
    head: list[str] = []
    for text in rest:
        head.append(text)
        if text.strip():
            break
    return next((t for t in head if t.strip()), ""), _chain(head, rest)


def is_csv(first: str) -> bool:
    """Whether a log whose first line that is not blank is ``first`` is CSV (that line opens no JSON object)."""
    return bool(first) and not first.lstrip().startswith("{")


def _chain(head: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from head
    yield from rest


def _csv_records(lines: Iterable[str]) -> Iterator[Record | BadRecord]:
    """The records of a CSV log: a header of :data:`FIELDS`, then a record a row (empty cells absent)."""
    header: list[str] | None = None
    for row_number, row in enumerate(_rows(lines), 1):
        if isinstance(row, str):
            yield BadRecord(row_number, row if header is not None else f"{row}: a CSV log starts with its header")
            if header is None:
                return
            continue
        if header is None:
            header = [name.strip() for name in row]
            unknown = [name for name in header if name not in FIELDS]
            if unknown:
                yield BadRecord(row_number, f"unknown column {shown(unknown[0], 40)!r}: a CSV log's columns are"
                                f" {', '.join(FIELDS)}")
                return
            continue
        if not any(cell.strip() for cell in row):
            continue
        try:
            if len(row) > len(header):
                raise ExactOddsError(f"this row has {len(row)} cells; the header names {len(header)}")
            data: dict[str, Any] = {k: v for k, v in zip(header, row) if v.strip()}
            if "coup" in data:
                data["coup"] = _whole(data["coup"], "coup")
            if "decks" in data:
                data["decks"] = _whole(data["decks"], "decks")
            if "end" in data:
                data["end"] = data["end"].strip().lower() in ("true", "1", "yes")
            yield record(row_number, data)
        except ExactOddsError as err:
            yield BadRecord(row_number, str(err))


def _rows(lines: Iterable[str]) -> Iterator[list[str] | str]:
    """The rows of CSV text given line by line (a row is one line: a log's cells hold no line break); a line too long
    or that CSV cannot read is its error instead."""
    for text in lines:
        if len(text) > MAX_LINE:
            yield f"a line of a log holds at most {MAX_LINE:,} characters"
            continue
        try:
            yield next(csv.reader([text.rstrip("\r\n")]), [])
        except csv.Error as err:
            yield f"not a row of CSV ({err})"


def _whole(text: str, name: str) -> int:
    if not text.strip().isdigit():
        raise ExactOddsError(f'"{name}" is a whole number, not {shown(text.strip(), 20)!r}')
    return int(text)


def record(line: int, data: dict[str, Any]) -> Record:
    """The record one object of a log describes (its kind told by its keys), checked.

    >>> record(3, {"shoe": "a", "coup": 1, "who": "x", "bet": "tie", "stake": "10", "net": 80}).net
    Fraction(80, 1)
    """
    shoe = data.get("shoe")
    if not isinstance(shoe, str) or not shoe.strip():
        raise ExactOddsError('every record names its shoe: "shoe": "T7-0412"')
    if "end" in data:
        _only(data, ("shoe", "end"), "the end of a shoe")
        return End(line, shoe)
    if "burn" in data:
        _only(data, ("shoe", "burn"), "a burn")
        return Burn(line, shoe, _cards(data["burn"], "burn"))
    if "bet" in data or "who" in data:
        _only(data, ("shoe", "coup", "who", "bet", "stake", "net"), "a wager")
        who, bet = data.get("who"), data.get("bet")
        if not isinstance(who, str) or not who.strip():
            raise ExactOddsError('a wager names who placed it: "who": "seat-3"')
        if not isinstance(bet, str) or not bet.strip():
            raise ExactOddsError('a wager names its bet by id: "bet": "dragon-7"')
        stake = _money(data.get("stake"), "stake")
        if stake.numerator <= 0:
            raise ExactOddsError(f"a stake is more than 0, not {shown(data.get('stake'), 20)}")
        return Wager(line, shoe, _coup(data), who, bet.strip(), stake, _money(data.get("net"), "net"))
    if "coup" in data:
        _only(data, ("shoe", "coup", "player", "banker"), "a coup")
        return Dealt(line, shoe, _coup(data), _cards(data.get("player"), "player"), _cards(data.get("banker"),
                                                                                        "banker"))
    _only(data, START_KEYS, "the start of a shoe")
    table = data.get("table", shoe)
    rules = data.get("rules")
    if not isinstance(table, str) or (rules is not None and not isinstance(rules, str)):
        raise ExactOddsError('"table" and "rules" are names, such as "T7" and "ez"')
    return Start(line, shoe, table, shoe_of({k: v for k, v in data.items() if k in CARD_KEYS}, CARD_KEYS), rules)


def _only(data: dict[str, Any], keys: tuple[str, ...], what: str) -> None:
    if data.keys() <= _allowed(keys):
        return
    unknown = sorted(set(data) - set(keys))
    raise ExactOddsError(f"unknown key {shown(unknown[0], 40)!r} in {what}: it holds {', '.join(keys)}")


@lru_cache(maxsize=16)
def _allowed(keys: tuple[str, ...]) -> frozenset[str]:
    """The keys of a kind of record as a set, made once (a log's every line is checked against one)."""
    return frozenset(keys)


def _coup(data: dict[str, Any]) -> int:
    coup = data.get("coup")
    if isinstance(coup, bool) or not isinstance(coup, int) or coup < 1:
        raise ExactOddsError(f'"coup" is the coup\'s number in its shoe, 1, 2, …, not {shown(repr(coup), 20)}')
    return coup


def _money(value: Any, name: str) -> Fraction:
    """An amount, exactly: a whole number, or a decimal written as text (a JSON decimal would be read as a float)."""
    if type(value) is str:  # the usual case first
        amount = _amount(value)
        if amount is not None:
            return amount
    if isinstance(value, bool) or value is None or isinstance(value, float):
        raise ExactOddsError(f'"{name}" is an amount written exactly: an integer, or a decimal as text ("12.5"), not'
                             f" {shown(repr(value), 20)}")
    if isinstance(value, int):
        return Fraction(value)
    amount = _amount(value) if isinstance(value, str) else None
    if amount is None:
        raise ExactOddsError(f'"{name}" is an amount such as "25" or "-12.5", not {shown(repr(value), 20)}')
    return amount


@lru_cache(maxsize=4096)
def _amount(text: str) -> Fraction | None:
    """An amount written as text, exactly, or ``None`` (a log's stakes and nets are a few amounts, each read once)."""
    if "%" in text or "/" in text:
        return None
    try:
        return parse_percent(text.strip())
    except (ValueError, ZeroDivisionError):
        return None


def _cards(value: Any, name: str) -> tuple[str, ...]:
    """Cards as a list of texts, or one text split on spaces or commas; each read as a card (its suit, if written)."""
    if isinstance(value, str):
        items = value.replace(",", " ").split()
    elif isinstance(value, list) and all(isinstance(card, str) for card in value):
        items = value
    else:
        raise ExactOddsError(f'"{name}" is a list of cards such as ["2S", "3H", "9D"]')
    if not items or len(items) > 64:
        raise ExactOddsError(f'"{name}" holds 1 to 64 cards, not {len(items)}')
    return tuple([_CARD_TEXT.get(item) or _card_text(item) for item in items])


def _card_text(text: str) -> str:
    """A card as the review writes it: its rank's letter, then its suit's if written (``10h`` → ``TH``)."""
    rank, suit = parse_card(text)
    return rank.value + (suit.value if suit is not None else "")


#: Every card as it is usually written, already in the review's form: a log's cards are read by lookups.
_CARD_TEXT = {text: _card_text(text) for text in CARD_TEXTS}
