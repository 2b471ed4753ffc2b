"""Batch pricing, for every game: one shoe per JSON line in, one ``odds --format json`` object per line out.

A line names its shoe (``counts``, ``decks``, ``shoe``, ``remove``) and may name its game
(``game``); the lines are priced in chunks, by the game's :meth:`~exactodds.game.Game.count_rows`
(punto banco's compiled batch prices a chunk at once), into plain integer rows that
:class:`~exactodds.present.odds_json.JsonLayout` writes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, cast

from .analysis import Analysis, require_suits
from .cards import RANKS, Rank, Shoe
from .errors import ExactOddsError, did_you_mean, shown
from .game import Game, Settings
from .games import DEFAULT
from .paytable import Bet

#: Keys that say a batch line's shoe.
SHOE_KEYS = ("counts", "decks", "shoe", "remove")
#: Keys a batch line may carry: its shoe's, and the game it names.
LINE_KEYS = ("game", *SHOE_KEYS)

#: What a batch knows of the games a line may name: a game's name (or alias) to the game, or ``None`` for the
#: batch's own game (an unknown name is an error, with the valid ones).
GameLookup = Callable[[str], Game | None]


def parse_shoe_line(text: str) -> Shoe:
    """Read one batch line: ``{"counts": {...}}``, ``{"decks": 8, "remove": "7,7,8"}`` or ``{"shoe": "A=32,…"}``.

    >>> parse_shoe_line('{"decks": 8, "remove": "7,7,8"}').size
    413
    >>> parse_shoe_line('{"counts": {"A": 3, "K": 3}}').size
    6
    """
    fast = _counts_line(text)
    if fast is not None:
        return fast
    return parse_line(text)[1]


def parse_line(text: str, games: GameLookup | None = None, decks: int = 8) -> tuple[Game | None, Shoe]:
    """Read one batch line with the game it names (``"game"``, read by ``games``; ``None``: the batch's own), whose
    usual decks a line without a shoe has (else ``decks``).

    >>> from exactodds.games import find_game
    >>> parse_line('{"game": "dragon-tiger", "remove": "K"}', find_game)[0].name
    'dragon-tiger'
    """
    data = load_json(text)
    if not isinstance(data, dict):
        raise ExactOddsError("each line must be a JSON object such as {\"decks\": 8}")
    _known_keys(data, LINE_KEYS)  # before the game is looked up
    game = data.get("game")
    if game is not None:
        if not isinstance(game, str):
            raise ExactOddsError('"game" must be a game\'s name, such as "dragon-tiger"')
        if games is None:
            raise ExactOddsError('"game" is not taken here: these shoes are of one game')
        named = games(game)
        return named, shoe_of(data, decks=decks if named is None else named.decks)
    return None, shoe_of(data, decks=decks)


@lru_cache(maxsize=1)
def _plain_decoder() -> json.JSONDecoder:
    """The decoder without the hook on repeated keys (objects made in C), made once."""
    return json.JSONDecoder(parse_constant=_no_constant)


@lru_cache(maxsize=1)
def _scanner() -> Callable[[str, int], tuple[Any, int]]:
    """The JSON scanner of Python's plain decoder (in C where there is one): a value read from an index, with its end.

    >>> _scanner()('{"a": 1} ', 0)
    ({'a': 1}, 8)
    """
    from json.scanner import make_scanner

    scan: Callable[[str, int], tuple[Any, int]] = make_scanner(cast(Any, json.JSONDecoder()))  # typeshed: its own type
    return scan


@lru_cache(maxsize=1)
def _decoder() -> json.JSONDecoder:
    """The strict decoder, made once (``json.loads`` with hooks makes one a call: a review reads a million lines)."""
    return json.JSONDecoder(object_pairs_hook=_no_repeated_keys, parse_constant=_no_constant)


def load_json(text: str | bytes) -> Any:
    """JSON read strictly, each refusal one :class:`ExactOddsError`: a key twice, NaN, a huge number, deep nesting.

    >>> load_json('{"decks": 8}')
    {'decks': 8}
    >>> load_json('{"decks": 8, "decks": 6}')
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: key 'decks' is given twice in one object
    >>> load_json('{"a": {"b": 1, "b": 2}}')
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: key 'b' is given twice in one object
    >>> load_json('{"at": "12:30", "note": "a:b"}')
    {'at': '12:30', 'note': 'a:b'}
    >>> load_json(b'\\xff\\xfe{\\x00}\\x00')
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: not valid JSON (not UTF-8 text)
    """
    try:
        if isinstance(text, bytes):  # UTF-8 only, as RFC 8259 says: json.loads would take UTF-16 and UTF-32 too
            text = text.decode("utf-8")
        data = _plain_decoder().decode(text)
        # A key given twice is found by the strict decoder's hook, which builds every object from a list of pairs. A
        # line with no more colons than its object has keys holds no key twice (every key is followed by a colon of
        # its own, nested ones too): only another line is read again with the hook.
        if not isinstance(data, dict) or text.count(":") != len(data):
            data = _decoder().decode(text)
    except json.JSONDecodeError as err:
        raise ExactOddsError(f"not valid JSON ({err.msg} at column {err.colno})") from None
    except ExactOddsError:
        raise
    except UnicodeDecodeError:
        raise ExactOddsError("not valid JSON (not UTF-8 text)") from None
    except ValueError:  # int() refuses a number of more than 4300 digits
        raise ExactOddsError("not valid JSON (a number has too many digits)") from None
    except RecursionError:
        raise ExactOddsError("not valid JSON (nested too deeply)") from None
    if "\\u" in text or not text.isascii():  # an escape (or a str decoded leniently) may hold a lone surrogate,
        # which no UTF-8 text (so no reply) can hold
        _no_lone_surrogate(data)
    return data


def _no_lone_surrogate(data: Any) -> None:
    """Refuse a string (key or value, at any depth) holding half of a UTF-16 surrogate pair (``"\\ud800"``)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ExactOddsError("not valid JSON (a string holds a lone surrogate, such as \\ud800, which is"
                                     " not a character)") from None


def shoe_of(data: dict[str, Any], keys: Sequence[str] = LINE_KEYS, decks: int = 8) -> Shoe:
    """The shoe a batch object describes (``counts``, ``decks``, ``shoe``, ``remove``; a standard shoe of ``decks``
    when it names none); keys not in ``keys`` are refused.

    >>> shoe_of({"decks": 1, "remove": ["K"]}).size
    51
    """
    _known_keys(data, keys)
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
        given = data.get("decks", decks)
        shoe = _standard(given) if type(given) is int else Shoe.standard(given)  # a bool or a float: its error
    remove = data.get("remove")
    if remove is None:
        return shoe
    if isinstance(remove, str):
        return shoe.remove(remove)
    if isinstance(remove, list) and all(isinstance(card, str) for card in remove):
        return shoe.remove(remove)
    raise ExactOddsError('"remove" must be a string such as "7,7,8" or a list of ranks')


@lru_cache(maxsize=8)
def _standard(decks: int) -> Shoe:
    """``Shoe.standard(decks)``, made once for each number of decks: a shoe is immutable, and a server reads
    ``"decks": 8`` request after request (a suited shoe checks its 52 counts as it is made)."""
    return Shoe.standard(decks)


def _known_keys(data: dict[str, Any], keys: Sequence[str]) -> None:
    """Refuse an object's first key (in sorted order) that is not one of ``keys``, named in at most 40 characters."""
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise ExactOddsError(f"unknown key {unknown[0][:40]!r}: {did_you_mean(unknown[0], keys)}a line may hold"
                             f" {', '.join(keys)}")


#: The names of each rank that Rank.parse reads, by name: the keys a ``{"counts": …}`` line takes fast.
_RANK_NAMES = {name: i for i, rank in enumerate(RANKS) for name in {rank.value, rank.value.lower()}} | {"10": 9}
_RANK_ORDER = tuple(rank.value for rank in RANKS)


def _counts_line(text: str) -> Shoe | None:
    """The shoe of a plain ``{"counts": {rank: integer, …}}`` line read at the C parser's speed, or ``None``.

    ``None`` sends the line to the full reader, which gives each error its message: so this
    returns a shoe only when that reader would return the same one. Python's plain JSON reader
    keeps the last of two equal keys; no key is lost here because every key-value pair of a
    JSON text writes one ``:`` outside strings, and the text has no more colons than the pairs
    kept (every key kept is a rank name or ``counts``, every value an integer, without colons).
    """
    try:  # the JSON scanner itself: json.loads' checks and whitespace matching cost as much again as the parse
        data, end = _scanner()(text, 0)
    except (StopIteration, ValueError, RecursionError):  # not JSON (or not at 0), a number of over 4300 digits
        return None
    if end != len(text) and text[end:].strip(" \t\n\r"):
        return None  # more after the object than JSON's whitespace (not str.isspace's): the full reader says what
    if type(data) is not dict or len(data) != 1 or type(counts := data.get("counts")) is not dict:
        return None
    if tuple(counts) == _RANK_ORDER:  # every rank once, by its name and in order (as batch and odds write them)
        left = list(counts.values())
        if set(map(type, left)) != {int} or min(left) < 0:
            return None
    else:
        left = [0] * len(RANKS)
        seen = 0
        for key, n in counts.items():
            i = _RANK_NAMES.get(key)
            if i is None or type(n) is not int or n < 0 or seen >> i & 1:
                return None  # an unknown rank, a count that is no whole number, or one rank under two names
            seen |= 1 << i
            left[i] = n
    if text.count(":") != 1 + len(counts):
        return None  # a key given twice (json.loads kept only its last value)
    if not Shoe.MIN_CARDS <= sum(left) <= Shoe.MAX_CARDS:
        return None  # too few or too many cards: the full reader gives the message
    return Shoe.of_checked_counts(tuple(left))  # every count checked above: an int ≥ 0


def _no_repeated_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object as a dict, refusing a key given twice (json.loads would keep the last silently)."""
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise ExactOddsError(f"key {shown(key)!r} is given twice in one object")
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
            raise ExactOddsError(f'rank {rank.value} is given twice in "counts" (as {shown(names[rank])!r} and'
                                 f' {shown(key)!r})')
        out[rank], names[rank] = n, key
    return out


@dataclass(frozen=True)
class GameLine:
    """A line that names another game than the batch's: its game and its shoe, priced by the caller."""

    game: Game
    shoe: Shoe


@dataclass(frozen=True)
class BadLine:
    """An input line that could not be read, with its 1-based line number."""

    line: int
    message: str


class PricedRow(NamedTuple):
    """One priced line: its shoe and the exact count of each outcome of every bet (side by side) out of ``orderings``.

    A named tuple (immutable, and made some 3× quicker than a frozen dataclass: one per line).

    >>> row = PricedRow(Shoe.standard(1), [1, 3], 4)
    >>> row.counts[0], row.orderings
    (1, 4)
    """

    shoe: Shoe
    counts: list[int]
    orderings: int


def price_rows(
    lines: Iterable[str | bytes],
    game: Game = DEFAULT,
    settings: Settings | None = None,
    bets: Sequence[str | Bet] | None = None,
    *,
    chunk: int = 2048,
    stop_at_bad: bool = False,
    games: GameLookup | None = None,
) -> Iterator[tuple[int, PricedRow | GameLine | BadLine]]:
    """Each non-blank line priced, in order, as a plain integer row (no :class:`Analysis` built): what ``batch``
    writes from. A line of another game (``games`` tells) is handed back as a :class:`GameLine`; a bad line as a
    :class:`BadLine`, the last one with ``stop_at_bad``.

    >>> [(n, r.counts[0], r.orderings) for n, r in price_rows(['{"decks": 1}'], bets=["tie"])]
    [(1, 1372227328, 14658134400)]
    """
    settings = game.settings_of({}) if settings is None else settings
    chosen = game.resolve(bets, settings, suits=False)
    pending: list[tuple[int, Shoe | GameLine | BadLine]] = []

    def flush() -> Iterator[tuple[int, PricedRow | GameLine | BadLine]]:
        shoes = [item for _, item in pending if isinstance(item, Shoe)]
        rows = iter(game.count_rows(shoes, chosen, settings) if shoes else ())
        for number, item in pending:
            if isinstance(item, Shoe):
                counts, orderings = next(rows)
                yield number, PricedRow(item, counts, orderings)
            else:
                yield number, item
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
                fast = _counts_line(text)  # a plain {"counts": …} line names no game
                named, shoe = (None, fast) if fast is not None else parse_line(text, games, game.decks)
                if named is not None:
                    pending.append((number, GameLine(named, shoe)))
                else:
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


def price_lines(
    lines: Iterable[str | bytes],
    game: Game = DEFAULT,
    settings: Settings | None = None,
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
    settings = game.settings_of({}) if settings is None else settings
    chosen = game.resolve(bets, settings, suits=False)
    for number, item in price_rows(lines, game, settings, chosen, chunk=chunk, stop_at_bad=stop_at_bad):
        assert not isinstance(item, GameLine)  # no line names a game without a lookup of the games
        yield number, item if isinstance(item, BadLine) else game.analysis_of(
            item.shoe, chosen, settings, item.counts, item.orderings)
