"""Coup facts: the small vocabulary that conditions of bets and rule overrides are written in.

A condition is a set of facts about how a coup ended, each with the values it may take;
it holds when every fact has one of its values. Conditions are plain data (hashable
tuples), so rule sets can carry them, and bets files (see :mod:`exactodds.userdefs`)
are read into them. Nothing here is ever evaluated as code.

>>> when = condition({"winner": "banker", "banker_cards": 3, "banker_total": 7})
>>> describe(when)
'winner = banker, banker_cards = 3, banker_total = 7'
>>> from exactodds.coup import CoupState
>>> holds(when, CoupState(4, 7, 3, 3, False, False))
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .coup import CoupState
from .errors import ExactOddsError


@dataclass(frozen=True)
class Fact:
    """One fact about a finished coup: its name, what it means, the values it takes and how to read it."""

    name: str
    meaning: str
    values: tuple[object, ...]
    read: Callable[[CoupState], object]

    @property
    def kind(self) -> str:
        """``"bool"``, ``"int"`` or ``"text"``: what a value of this fact is written as."""
        first = self.values[0]
        return "bool" if isinstance(first, bool) else "int" if isinstance(first, int) else "text"


_TOTALS = tuple(range(10))
_BOOL = (False, True)

FACTS: dict[str, Fact] = {
    f.name: f
    for f in (
        Fact("winner", "who won: player, banker or tie", ("player", "banker", "tie"), lambda s: s.winner),
        Fact("player_total", "the Player's final total, 0-9", _TOTALS, lambda s: s.player_total),
        Fact("banker_total", "the Banker's final total, 0-9", _TOTALS, lambda s: s.banker_total),
        Fact(
            "winning_total",
            "the winning hand's final total (on a tie, the tied total), 0-9",
            _TOTALS,
            lambda s: s.banker_total if s.winner == "banker" else s.player_total,
        ),
        Fact("player_cards", "cards in the Player's hand, 2 or 3", (2, 3), lambda s: s.player_cards),
        Fact("banker_cards", "cards in the Banker's hand, 2 or 3", (2, 3), lambda s: s.banker_cards),
        Fact("cards", "cards dealt in the coup, 4, 5 or 6", (4, 5, 6), lambda s: s.cards),
        Fact("margin", "points the winner won by (0 on a tie), 0-9", _TOTALS, lambda s: s.margin),
        Fact("natural", "the coup ended on a natural (either hand 8 or 9 with two cards)", _BOOL, lambda s: s.natural),
        Fact("player_natural", "the Player's first two cards total 8 or 9", _BOOL, lambda s: s.player_natural),
        Fact("banker_natural", "the Banker's first two cards total 8 or 9", _BOOL, lambda s: s.banker_natural),
        Fact("player_pair", "the Player's first two cards share a rank", _BOOL, lambda s: s.player_pair),
        Fact("banker_pair", "the Banker's first two cards share a rank", _BOOL, lambda s: s.banker_pair),
        Fact(
            "player_suited_pair",
            "the Player's first two cards share rank and suit (needs a suited shoe)",
            _BOOL,
            lambda s: s.player_pair_suited,
        ),
        Fact(
            "banker_suited_pair",
            "the Banker's first two cards share rank and suit (needs a suited shoe)",
            _BOOL,
            lambda s: s.banker_pair_suited,
        ),
        Fact("pairs", "how many hands start with a pair, 0-2", (0, 1, 2), lambda s: s.player_pair + s.banker_pair),
        Fact(
            "suited_pairs",
            "how many hands start with a suited pair, 0-2 (needs a suited shoe)",
            (0, 1, 2),
            lambda s: s.player_pair_suited + s.banker_pair_suited,
        ),
    )
}

#: A condition as data: (fact name, allowed values) pairs, in the order written.
Condition = tuple[tuple[str, tuple[object, ...]], ...]


def condition(when: Mapping[str, object]) -> Condition:
    """Check a mapping of fact → value (or list of values, meaning any of them) and return it as a condition.

    >>> condition({"winner": ["player", "banker"], "margin": 9})
    (('winner', ('player', 'banker')), ('margin', (9,)))
    >>> condition({"colour": "red"})
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown fact 'colour': the facts are winner, player_total, ...
    """
    if not when:
        raise ExactOddsError("a condition needs at least one fact (or write otherwise = true)")
    out: list[tuple[str, tuple[object, ...]]] = []
    for name, raw in when.items():
        fact = FACTS.get(name)
        if fact is None:
            known = ", ".join(FACTS)
            raise ExactOddsError(f"unknown fact {name!r}: the facts are {known}")
        values = raw if isinstance(raw, list | tuple) else [raw]
        if not values:
            raise ExactOddsError(f"fact {name!r} needs at least one value")
        checked: list[object] = []
        for value in values:
            if not _valid(fact, value):
                allowed = ", ".join(_text(v) for v in fact.values)
                raise ExactOddsError(
                    f"bad value {_text(value)} for fact {name!r} ({fact.meaning}): use one of {allowed}"
                )
            if value not in checked:
                checked.append(value)
        out.append((name, tuple(checked)))
    return tuple(out)


def _valid(fact: Fact, value: object) -> bool:
    if fact.kind == "bool":
        return isinstance(value, bool)
    if fact.kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) and value in fact.values
    return isinstance(value, str) and value in fact.values


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def holds(when: Condition, state: CoupState) -> bool:
    """Whether every fact of the condition has one of its values in ``state``."""
    return all(FACTS[name].read(state) in values for name, values in when)


def predicate(when: Condition) -> Callable[[CoupState], bool]:
    """A fast predicate for ``when`` (the fact readers and value sets looked up once)."""
    checks = tuple((FACTS[name].read, frozenset(values)) for name, values in when)
    if len(checks) == 1:
        ((read, values),) = checks
        return lambda s: read(s) in values
    return lambda s: all(read(s) in values for read, values in checks)


def describe(when: Condition) -> str:
    """The condition in words, e.g. ``winner = banker, banker_total = 6`` (``a or b`` for a choice)."""
    parts = []
    for name, values in when:
        shown = " or ".join(v if isinstance(v, str) else _text(v) for v in values)
        parts.append(f"{name} = {shown}")
    return ", ".join(parts)


def needs_suits(when: Condition) -> bool:
    """Whether the condition reads a suited-pair fact."""
    return any(name in ("player_suited_pair", "banker_suited_pair", "suited_pairs") for name, _ in when)
