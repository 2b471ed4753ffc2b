"""Linear counts: tags per rank, true-count thresholds, and count systems per bet.

Definitions (the counting literature's): the *running count* is the sum of the tags of
every card seen since the shuffle (it starts at 0); the *cards remaining* are the cards
not yet seen (the cards still in the shoe, plus any burned face down); *decks remaining*
is cards remaining / 52, and the *true count* is running count / decks remaining.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from ..cards import RANKS
from ..errors import ExactOddsError, shown
from ..exact import fraction_text, parse_fraction

#: The largest tag, in absolute value (keeps every running count far inside int64).
MAX_TAG = 1_000_000
#: Cards in one deck: the unit of "decks remaining".
DECK = 52

T = TypeVar("T")


def parse_tags(text: str) -> tuple[int, ...]:
    """Read tags per rank: 13 integers (A,2,…,9,T,J,Q,K) or 10 (A,2,…,9, then one for T/J/Q/K).

    >>> parse_tags("0,0,0,-1,-1,-1,-1,2,2,0")
    (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0)
    """
    parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
    # ASCII digits only: int() would also read other scripts' digits ("٢") and underscores ("1_0").
    if not all(re.fullmatch(r"[+-]?[0-9]{1,100}", p, re.ASCII) for p in parts):
        raise ExactOddsError(f"malformed tags {shown(text)!r}: write whole numbers (digits 0-9) separated by commas")
    tags = [int(p) for p in parts]
    if len(tags) == 10:
        tags += [tags[-1]] * 3
    if len(tags) != len(RANKS):
        raise ExactOddsError(
            f"tags need 13 values (A,2,…,9,T,J,Q,K) or 10 (A,2,…,9,T/J/Q/K), not {len(parts)}: {shown(text)!r}"
        )
    return tuple(tags)


def tags_text(tags: Sequence[int]) -> str:
    """Tags in the ``--tags`` format: 10 values when T, J, Q and K share a tag, else 13.

    >>> tags_text((1, 1, -2, -2, -2, -1, -1, -2, 4, 1, 1, 1, 1))
    '1,1,-2,-2,-2,-1,-1,-2,4,1'
    """
    tags = list(tags)
    if len(set(tags[9:])) == 1:
        tags = tags[:10]
    return ",".join(str(t) for t in tags)


def parse_threshold(text: str) -> Fraction:
    """Read a true-count threshold exactly: ``4``, ``-1.5``, ``7/2``.

    >>> parse_threshold("3.5")
    Fraction(7, 2)
    """
    try:
        return parse_fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ExactOddsError(f"malformed threshold {shown(text)!r}: write a number such as 4 or 3.5") from None


@dataclass(frozen=True)
class CountSystem:
    """A linear count: a tag per rank (A,2,…,9,T,J,Q,K) and a true-count threshold to bet at.

    >>> c = CountSystem(parse_tags("0,0,0,-1,-1,-1,-1,2,2,0"), Fraction(4))
    >>> c.text(), c.balanced
    ('0,0,0,-1,-1,-1,-1,2,2,0 >= 4', True)
    """

    tags: tuple[int, ...]
    threshold: Fraction

    def __post_init__(self) -> None:
        if len(self.tags) != len(RANKS):
            raise ExactOddsError(f"a count needs a tag for each of the {len(RANKS)} ranks, not {len(self.tags)}")
        for tag in self.tags:
            # numbers.Integral takes Python and numpy integers alike; bool is refused on purpose.
            if isinstance(tag, bool) or not isinstance(tag, numbers.Integral) or abs(tag) > MAX_TAG:
                raise ExactOddsError(f"a tag must be a whole number from -{MAX_TAG:,} to {MAX_TAG:,}, not"
                                     f" {shown(repr(tag))}")

    @property
    def balanced(self) -> bool:
        """Whether a 52-card deck counts to zero."""
        return sum(self.tags) == 0

    def text(self) -> str:
        """Tags and threshold as one line."""
        return f"{tags_text(self.tags)} >= {fraction_text(self.threshold)}"


def _per_bet(items: Iterable[str], bet_ids: Sequence[str], what: str, parse: Callable[[str], T]) -> dict[str, T]:
    """``[BET=]VALUE`` items: a bare value applies to every bet, ``BET=VALUE`` to one (whatever the order).

    A value given twice (two bare ones, or two for one bet) is refused rather than silently replaced.
    """
    bare: list[T] = []
    out: dict[str, T] = {}
    for item in items:
        head, sep, tail = item.partition("=")
        if sep:
            key = head.strip()  # an id, matched exactly (spaces around "=" are the list's)
            if key not in bet_ids:
                raise ExactOddsError(
                    f"{what} for bet {head.strip()!r}, which is not simulated: bets are {', '.join(bet_ids)}"
                )
            if key in out:
                raise ExactOddsError(f"{what} given twice for bet {key}: give one per bet")
            out[key] = parse(tail)
        else:
            if bare:
                raise ExactOddsError(f"{what} given twice for every bet: give one (or BET=… for one bet)")
            bare.append(parse(item))
    if bare:
        out = {bet_id: out.get(bet_id, bare[0]) for bet_id in bet_ids}
    return out


def count_systems(bet_ids: Sequence[str], tags: Iterable[str], thresholds: Iterable[str]) -> dict[str, CountSystem]:
    """Count systems per bet from ``[BET=]TAGS`` and ``[BET=]THRESHOLD`` texts (a bare one applies to all bets).

    >>> count_systems(["dragon-7"], ["0,0,0,-1,-1,-1,-1,2,2,0"], ["4"])["dragon-7"].threshold
    Fraction(4, 1)
    """
    tags_by_bet = _per_bet(tags, bet_ids, "tags", parse_tags)
    thresholds_by_bet = _per_bet(thresholds, bet_ids, "a threshold", parse_threshold)
    if thresholds_by_bet and not tags_by_bet:
        raise ExactOddsError("a threshold needs a count: give --tags too")
    if not tags_by_bet:
        return {}
    for bet_id in bet_ids:
        if bet_id not in tags_by_bet:
            raise ExactOddsError(f"the count needs tags for every bet: none for {bet_id}")
        if bet_id not in thresholds_by_bet:
            raise ExactOddsError(f"the count needs a true-count threshold for every bet: none for {bet_id}")
    return {b: CountSystem(tags_by_bet[b], thresholds_by_bet[b]) for b in bet_ids}
