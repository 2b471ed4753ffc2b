"""The objects a request sends, read into what the commands work on: the shoe, the rules, the bets, the options.

A request is the JSON form of a command's options: the shoe as a batch object (``counts``,
``decks``, ``shoe``, ``remove``, read by :func:`exactodds.batch.shoe_of`), the rules by name
(``rules``) or as the *text* of a rules file (``rules_toml``), the bets by id (``bets``) and as
the text of a bets file (``bets_toml``), ``player_5``, ``precision`` and the rest. Each key is
declared once, in :data:`KEYS`, with its JSON schema: the check of unknown keys and the OpenAPI
schema both read it. A text is read by the same parser as a file, with the same bound; no key is
ever a path, and nothing here opens a file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..batch import SHOE_KEYS, shoe_of
from ..cards import Shoe, parse_deck_range
from ..design.countability import DEFAULT_CUT_CARD
from ..design.request import DEFAULT_TOP, MAX_TOP
from ..errors import ExactOddsError
from ..lab.plan import MIN_CUT_CARD
from ..puntobanco.events import Bet
from ..puntobanco.rules import PUNTO_BANCO, RuleSet, find_rules
from ..puntobanco.userdefs import MAX_FILE_BYTES, choose_bets, parse_bets, parse_rules
from ..rebate import BASES, Rebate

_TEXT = {"type": "string"}
#: A pay as the command line takes it: a text, exactly, or a whole number (a JSON decimal would be a float).
_PAY = {"oneOf": [_TEXT, {"type": "integer"}]}

#: Every key a request may hold: its JSON schema and what it means (the ``description`` of the OpenAPI schema).
KEYS: dict[str, tuple[dict[str, Any], str]] = {
    "counts": ({"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
               'The shoe by rank, e.g. {"A": 32, "2": 32, …} (unlisted ranks hold 0).'),
    "decks": ({"type": "integer", "minimum": 1}, "Standard 52-card decks (default 8)."),
    "shoe": (_TEXT, 'Explicit counts as text, e.g. "A=32,2=32,…".'),
    "remove": ({"oneOf": [_TEXT, {"type": "array", "items": _TEXT}]}, 'Cards already seen, e.g. "7,7,8,K".'),
    "rules": (_TEXT, "A rule set by name (default punto-banco; see `exactodds rules`)."),
    "rules_toml": (_TEXT, "The text of a rules file (TOML), instead of rules: read as a --rules-file is."),
    "player_5": (_TEXT, "The Player's option on 5: draw, stand, best, or a probability of drawing such as 9/11."),
    "bets": ({"type": "array", "items": _TEXT}, 'Bet ids (default the core bets; ["all"]: every bet).'),
    "bets_toml": (_TEXT, "The text of a bets file (TOML): its bets, as a --bets-file adds them."),
    "given": (_TEXT, 'An event about the dealt cards, e.g. "P1 in 6789 and B1 = K": conditional odds.'),
    "fields": ({"oneOf": [_TEXT, {"type": "array", "items": _TEXT}]},
               "Only these keys of the object, as batch --fields (e.g. \"ev,count\")."),
    "rebate": (_TEXT, "A rebate on the turnover (0.8%, 0.008 or 1/125): each EV also with it, as --rebate."),
    "rebate_basis": ({"enum": ["standard", "total-stake", "non-refund", "losing-only"]},
                     "What the rebate is paid on (default standard), as --rebate-basis."),
    "precision": ({"type": "integer", "minimum": 0}, "Decimal places of the decimals."),
    "shoes": ({"type": "array", "maxItems": 10_000, "items": {"type": "object"}},
              "The shoes to price, each a batch object such as {\"decks\": 8, \"remove\": \"7,7,8\"}."),
    "game": (_TEXT, "The game to solve (default chemin-de-fer)."),
    "model": ({"enum": ["A1", "B2", "B3"]}, "What each side sees (default B2): A1 infinite deck, B2, B3."),
    "commission": (_TEXT, "The commission on the Banker's wins: 5%, 0.05 or 1/20 (default 0)."),
    "cards": ({"type": "integer", "minimum": 1, "maximum": 6}, "Known cards in deal order, 1 (P1) to 6."),
    "high": (_TEXT, "The ranks that are High, e.g. 6789 (default 6789)."),
    "best_sort": ({"type": "boolean"}, "Search every split of the values for the largest edge, instead of high."),
    "command": (_TEXT, 'One line typed to the tracker, e.g. "P 2 3 9 B 3 4" (see `exactodds track`).'),
    "bet": (_TEXT, "The one bet designed: an id of the catalog or of bets_toml."),
    "edge": (_TEXT, 'The house edge wanted: a band "LOW:HIGH" ("5%:6%", "0.05:0.06"), or one edge X with solve.'),
    "free": ({"type": "array", "items": _TEXT},
             "The outcomes whose pays are searched (at most 4; default every winning outcome)."),
    "step": (_PAY, 'The pays\' grid step: a whole number, or a text such as "1/2" or "0.5" (default 1).'),
    "min_pay": (_PAY, "The lowest pay searched, as step (default 1)."),
    "max_pay": (_PAY, "The highest pay searched, as step (default 1000, at most 1,000,000)."),
    "monotone": ({"type": "boolean"}, "Keep the free outcomes' pays in the order of their pays in the bet."),
    "top": ({"type": "integer", "minimum": 1, "maximum": MAX_TOP}, f"Pay tables listed (default {DEFAULT_TOP})."),
    "solve": (_TEXT, "The outcome whose pay is solved exactly for the one edge of edge, the others fixed."),
    "cut_card": ({"type": "integer", "minimum": MIN_CUT_CARD},
                 f"The cut card's place, in cards from the end, for the countability figure (default"
                 f" {DEFAULT_CUT_CARD})."),
}

#: ``decks`` where a range of standard decks is taken too (``POST /design``, as ``design --decks LOW:HIGH``).
DECK_RANGE = ({"oneOf": [KEYS["decks"][0], {"type": "string", "pattern": "^[0-9]+:[0-9]+$"}]},
              'Standard 52-card decks (default 8), or a range "LOW:HIGH": the shoe holds HIGH decks, and each table'
              " shows its edge at every count of the range.")

#: The keys of a rebate, as the command line's ``--rebate`` and ``--rebate-basis``.
REBATE_KEYS = ("rebate", "rebate_basis")

#: The keys that choose the rules and the bets, as the command line's rules options do.
RULES_KEYS = ("rules", "rules_toml", "player_5", "bets", "bets_toml")

#: The most shoes one ``/batch`` request may send.
MAX_SHOES = 10_000


@dataclass(frozen=True)
class Setup:
    """A request's shoe, rules and bets, as the command line's options give them (``bets`` None: the default)."""

    shoe: Shoe
    rules: RuleSet
    bets: tuple[str | Bet, ...] | None = None


def check_keys(data: Any, allowed: Sequence[str], what: str) -> dict[str, Any]:
    """``data`` as a JSON object holding only ``allowed`` keys; anything else is one error naming what it may hold.

    >>> check_keys({"decks": 8}, ["decks"], "the body of POST /odds")
    {'decks': 8}
    >>> check_keys([], ["decks"], "the body of POST /odds")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: the body of POST /odds must be a JSON object such as {"decks": 8}
    """
    if not isinstance(data, dict):
        raise ExactOddsError(f'{what} must be a JSON object such as {{"decks": 8}}')
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ExactOddsError(f"unknown key {unknown[0][:40]!r}: {what} may hold {', '.join(allowed)}")
    return data


def text(data: dict[str, Any], key: str) -> str | None:
    """The string under ``key`` (``None`` when absent); any other JSON value is one error."""
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ExactOddsError(f'"{key}" must be a string')
    return value


def whole(data: dict[str, Any], key: str, low: int, high: int | None, default: int | None = None) -> int:
    """The whole number under ``key`` from ``low`` to ``high`` (``None``: no bound above; ``default`` when absent;
    none: the key is required).

    >>> whole({"precision": 4}, "precision", 0, 60)
    4
    """
    value = data.get(key, default)
    what = f"a whole number from {low} to {high}" if high is not None else f"a whole number of at least {low}"
    if value is None:
        raise ExactOddsError(f'"{key}" is required: {what}')
    if type(value) is not int or value < low or (high is not None and value > high):
        shown = repr(value) if len(repr(value)) <= 30 else repr(value)[:30] + "…"
        raise ExactOddsError(f'"{key}" must be {what}, not {shown}')
    return value


def flag(data: dict[str, Any], key: str) -> bool:
    """The boolean under ``key`` (false when absent); any other JSON value is one error."""
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ExactOddsError(f'"{key}" must be true or false')
    return value


def number_text(data: dict[str, Any], key: str, default: str) -> str:
    """The number under ``key`` as the command line's text: a text as it is, a whole number in digits (``default``
    when absent); a JSON decimal is refused, as Python reads it to a float, which is not the number written.

    >>> number_text({"step": "1/2"}, "step", "1"), number_text({"step": 2}, "step", "1"), number_text({}, "step", "1")
    ('1/2', '2', '1')
    """
    value = data.get(key, default)
    if isinstance(value, str):
        return value
    if type(value) is int:
        return str(value)
    raise ExactOddsError(f'"{key}" must be a whole number or a text such as "1/2" or "0.5" (a JSON decimal is read as'
                         " a float, not exactly)")


def words(data: dict[str, Any], key: str) -> list[str] | None:
    """The list of strings under ``key`` (``None`` when absent)."""
    value = data.get(key)
    if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise ExactOddsError(f'"{key}" must be a list of strings')
    return value


def toml_text(data: dict[str, Any], key: str) -> str | None:
    """The TOML text under ``key``, held to the bound of a file
    (:data:`~exactodds.puntobanco.userdefs.MAX_FILE_BYTES`)."""
    value = text(data, key)
    if value is not None and len(value.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise ExactOddsError(f'"{key}" is larger than {MAX_FILE_BYTES:,} bytes, the most a bets or rules file may be')
    return value


def deck_range(data: dict[str, Any]) -> tuple[dict[str, Any], tuple[int, int] | None]:
    """``data`` with ``decks`` a range ``"LOW:HIGH"`` read as the command line's ``--decks LOW:HIGH``: the shoe's keys
    with HIGH decks, and the range (``None`` when ``decks`` is not a range).

    >>> deck_range({"decks": "6:8", "remove": "K"})
    ({'decks': 8, 'remove': 'K'}, (6, 8))
    """
    decks = data.get("decks")
    if not isinstance(decks, str) or ":" not in decks:
        return data, None
    low, high = parse_deck_range(decks)
    return {**data, "decks": high}, (low, high)


def rules_and_bets(data: dict[str, Any]) -> tuple[RuleSet, tuple[str | Bet, ...] | None]:
    """The rules and bets :data:`RULES_KEYS` describe, checked in the command line's order (rules, Player's 5,
    bets file, bet ids).

    >>> rules, bets = rules_and_bets({"rules": "ez", "bets": ["tie"]})
    >>> rules.name, bets
    ('ez', ('tie',))
    """
    name, rules_text = text(data, "rules"), toml_text(data, "rules_toml")
    if name is not None and rules_text is not None:
        raise ExactOddsError("give either rules or rules_toml, not both (a rules file may name its base)")
    rules = parse_rules(rules_text, "rules_toml") if rules_text is not None else find_rules(name or PUNTO_BANCO.name)
    player_five = text(data, "player_5")
    if player_five is not None:
        rules = rules.with_player_five(player_five)
    bets_text = toml_text(data, "bets_toml")
    file_bets = parse_bets(bets_text, "bets_toml") if bets_text is not None else ()
    ids = words(data, "bets")
    bets = choose_bets(ids, file_bets) if ids is not None else file_bets
    return rules, bets or None


def rebate_of(data: dict[str, Any]) -> Rebate | None:
    """The rebate of ``rebate`` and ``rebate_basis`` (``None`` without a rate), as ``--rebate`` gives it.

    >>> rebate_of({"rebate": "1/125", "rebate_basis": "losing-only"}).text()
    'rebate 0.8% (losing-only basis)'
    """
    rate, basis = text(data, "rebate"), text(data, "rebate_basis")
    if rate is None:
        if basis is not None:
            raise ExactOddsError("rebate_basis says what a rebate is paid on: give the rate with rebate")
        return None
    return Rebate.parse(rate, basis or BASES[0])


def setup(data: dict[str, Any]) -> Setup:
    """The shoe (the batch keys of ``data``), rules and bets of a request whose keys are already checked.

    >>> setup({"decks": 1, "remove": "K", "bets": ["tie"]}).shoe.size
    51
    """
    rules, bets = rules_and_bets(data)
    return Setup(shoe_of({k: v for k, v in data.items() if k in SHOE_KEYS}), rules, bets)
