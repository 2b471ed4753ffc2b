"""Conditions over a game's facts: the part of the bet notation every game shares.

A *fact* is something a game's deal settles (punto banco's ``winner`` or ``p1_rank``, Dragon
Tiger's ``dragon_rank``): a name, a meaning and the values it may take. A *condition* is a set
of facts, each with the values it allows; it holds when every fact has one of its values. A
condition is plain data (a tuple of ``(fact, values)`` pairs, hashable), read from a ``when``
table of a bets file by :func:`read_condition` against one game's vocabulary of facts, and never
evaluated as code. Each game says what its facts are and how a condition becomes a set of its
end states: punto banco in :mod:`exactodds.puntobanco.facts`, a game with a deal of its own in
:mod:`exactodds.chemindefer.dealt`.

>>> describe((("winner", ("banker",)), ("banker_total", (6, 7))))
'winner = banker, banker_total = 6 or 7'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .cards import RANKS
from .errors import ExactOddsError, shown

#: A condition as data: (fact name, allowed values) pairs, in the order written.
Condition = tuple[tuple[str, tuple[object, ...]], ...]

#: The ranks as conditions write them, ``A 2 … 9 T J Q K`` (the order of :data:`~exactodds.cards.RANKS`).
RANK_TEXT: tuple[str, ...] = tuple(rank.value for rank in RANKS)


def read_condition(
    when: Mapping[str, object],
    find: Callable[[str], Any],
    unknown: Callable[[str], str],
    normal: Callable[[Any, object], object],
    valid: Callable[[Any, object], bool],
) -> Condition:
    """Check a mapping of fact → value (or a list of values: any of them) against a vocabulary of facts.

    ``find`` gives a fact (with its ``meaning`` and ``values``) by name, ``unknown`` the message
    for a name it does not know, ``normal`` a value in its normal form, ``valid`` whether a value
    is one of the fact's.

    >>> class Margin:
    ...     meaning, values = "points the winner won by", tuple(range(10))
    >>> facts = {"margin": Margin()}
    >>> read_condition({"margin": [9, 9]}, facts.get, str, lambda f, v: v, lambda f, v: v in f.values)
    (('margin', (9,)),)
    """
    if not when:
        raise ExactOddsError("a condition needs at least one fact (or write otherwise = true)")
    out: list[tuple[str, tuple[object, ...]]] = []
    for name, raw in when.items():
        fact = find(name)
        if fact is None:
            raise ExactOddsError(unknown(name))
        values = raw if isinstance(raw, list | tuple) else [raw]
        if not values:
            raise ExactOddsError(f"fact {shown(name)!r} needs at least one value")
        checked: list[object] = []
        for value in values:
            value = normal(fact, value)
            if not valid(fact, value):
                allowed = ", ".join(value_text(v) for v in fact.values)
                raise ExactOddsError(
                    f"bad value {shown(value_text(value))} for fact {name!r} ({fact.meaning}): use one of {allowed}"
                )
            if value not in checked:
                checked.append(value)
        out.append((name, tuple(checked)))
    return tuple(out)


def rank_text(value: object) -> object:
    """A rank as ``A 2 … 9 T J Q K`` (``10`` or the numbers 2-10 too, any case); any other value as it is.

    >>> rank_text(10), rank_text("q"), rank_text("x")
    ('T', 'Q', 'x')
    """
    if isinstance(value, int) and not isinstance(value, bool) and 2 <= value <= 10:
        return RANK_TEXT[value - 1]
    if isinstance(value, str) and value.strip().upper() in (*RANK_TEXT, "10"):
        return "T" if value.strip() == "10" else value.strip().upper()
    return value


def value_text(value: object) -> str:
    """A fact's value as a bets file writes it: ``true``, ``"banker"``, ``9``.

    >>> value_text(True), value_text("banker"), value_text(9)
    ('true', '"banker"', '9')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def values_text(values: tuple[object, ...]) -> str:
    """A fact's values as ``exactodds facts`` lists them: ``true, false``, numbers, quoted words, ranks in short.

    >>> values_text((False, True)), values_text((0, 1, 2)), values_text(("dragon", "tie")), values_text(RANK_TEXT)
    ('true, false', '0, 1, 2', '"dragon", "tie"', '"A", "2" … "9", "T" … "K"')
    """
    if isinstance(values[0], bool):
        return "true, false"
    if isinstance(values[0], int):  # numbers (and "none" for a card that is not dealt)
        return ", ".join(map(str, values))
    if "K" in values:  # a rank: A 2 … 9 T J Q K (also 2-10 as numbers), or "none"
        return '"A", "2" … "9", "T" … "K"' + (', "none"' if "none" in values else "")
    return ", ".join(f'"{v}"' for v in values)


def describe(when: Condition) -> str:
    """The condition in words, e.g. ``winner = banker, banker_total = 6`` (``a or b`` for a choice)."""
    parts = []
    for name, values in when:
        shown = " or ".join(v if isinstance(v, str) else value_text(v) for v in values)
        parts.append(f"{name} = {shown}")
    return ", ".join(parts)
