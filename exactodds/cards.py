"""Ranks, their baccarat values, and shoes as compositions by rank."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from math import prod

from .errors import ExactOddsError


class Rank(enum.StrEnum):
    """A card rank, one character: ``A 2 … 9 T J Q K``.

    >>> Rank.KING.value, Rank.KING.points, Rank.parse("10")
    ('K', 0, <Rank.TEN: 'T'>)
    """

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def points(self) -> int:
        """The card's baccarat value: ace 1, 2-9 face value, ten and faces 0."""
        return RANK_POINTS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank, case-insensitive, with ``10`` accepted for ``T``."""
        key = text.strip().upper()
        if key == "10":
            key = "T"
        try:
            return cls(key)
        except ValueError:
            valid = " ".join(r.value for r in cls)
            raise ExactOddsError(f"unknown rank {text.strip()!r}: use one of {valid} (or 10)") from None


RANKS: tuple[Rank, ...] = tuple(Rank)
RANK_POINTS: dict[Rank, int] = {rank: min(i + 1, 10) % 10 for i, rank in enumerate(RANKS)}
#: The ranks worth each value 0..9 (value 0 holds T, J, Q and K).
VALUE_RANKS: tuple[tuple[Rank, ...], ...] = tuple(
    tuple(r for r in RANKS if RANK_POINTS[r] == v) for v in range(10)
)
CARDS_PER_RANK_PER_DECK = 4


def falling_factorial(n: int, k: int) -> int:
    """Return n(n-1)…(n-k+1), the number of ordered draws of k cards from n.

    >>> falling_factorial(416, 6)
    4998398275503360
    >>> falling_factorial(3, 5)
    0
    """
    return prod(range(n, n - k, -1)) if k <= n else 0


@dataclass(frozen=True)
class Shoe:
    """A finite shoe: how many cards of each rank it holds (order A, 2, …, 9, T, J, Q, K).

    >>> shoe = Shoe.standard(8)
    >>> shoe.size, shoe.count(Rank.KING), shoe.value_counts()[0]
    (416, 32, 128)
    >>> shoe.remove("7,7,K").size
    413
    """

    counts: tuple[int, ...]

    MIN_CARDS = 6

    def __post_init__(self) -> None:
        if len(self.counts) != len(RANKS):
            raise ExactOddsError(f"a shoe needs a count for each of the {len(RANKS)} ranks")
        for rank, n in zip(RANKS, self.counts):
            if isinstance(n, bool) or not isinstance(n, int):
                raise ExactOddsError(f"the count of {rank.value} must be a whole number, not {n!r}")
            if n < 0:
                raise ExactOddsError(f"the count of {rank.value} cannot be negative ({n})")
        if self.size < self.MIN_CARDS:
            raise ExactOddsError(
                f"a shoe needs at least {self.MIN_CARDS} cards to deal a coup; this one has {self.size}"
            )

    @classmethod
    def standard(cls, decks: int = 8) -> Shoe:
        """Return ``decks`` standard 52-card decks shuffled together."""
        if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
            raise ExactOddsError(f"the number of decks must be a whole number of at least 1, not {decks!r}")
        return cls((CARDS_PER_RANK_PER_DECK * decks,) * len(RANKS))

    @classmethod
    def from_counts(cls, counts: Mapping[str | Rank, int]) -> Shoe:
        """Build a shoe from counts per rank; ranks not named hold no cards.

        >>> Shoe.from_counts({"A": 2, "10": 3, "k": 1}).size
        6
        """
        by_rank = dict.fromkeys(RANKS, 0)
        for key, n in counts.items():
            rank = key if isinstance(key, Rank) else Rank.parse(str(key))
            by_rank[rank] += _whole_count(rank, n)
        return cls(tuple(by_rank[r] for r in RANKS))

    @classmethod
    def parse(cls, text: str) -> Shoe:
        """Read a composition such as ``"A=32,2=32,T=128"`` (ranks not listed hold 0).

        >>> Shoe.parse("A=1, 9=2, t=3").counts[:3], Shoe.parse("A=1,9=2,T=3").size
        ((1, 0, 0), 6)
        """
        counts: dict[str | Rank, int] = {}
        for item in _items(text):
            rank_text, sep, count_text = item.partition("=")
            if not sep:
                raise ExactOddsError(f"shoe entry {item!r} should look like RANK=COUNT, e.g. A=32")
            rank = Rank.parse(rank_text)
            if rank in counts:
                raise ExactOddsError(f"rank {rank.value} is listed twice in the shoe")
            counts[rank] = _parse_count(rank, count_text)
        return cls.from_counts(counts)

    @property
    def size(self) -> int:
        """The number of cards in the shoe."""
        return sum(self.counts)

    def count(self, rank: Rank) -> int:
        """The number of cards of ``rank`` in the shoe."""
        return self.counts[RANKS.index(rank)]

    def value_counts(self) -> tuple[int, ...]:
        """The number of cards of each baccarat value 0..9."""
        return tuple(sum(self.count(r) for r in ranks) for ranks in VALUE_RANKS)

    def as_dict(self) -> dict[str, int]:
        """Counts keyed by rank character, in rank order."""
        return {r.value: n for r, n in zip(RANKS, self.counts)}

    def orderings(self) -> int:
        """N(N-1)…(N-5): the ordered six-card draws every count is out of."""
        return falling_factorial(self.size, 6)

    def remove(self, cards: str | Iterable[str | Rank]) -> Shoe:
        """Return the shoe less the given cards (``"7,7,K"`` or an iterable of ranks).

        >>> Shoe.parse("A=3,2=6").remove("a,2,2").counts[:2]
        (2, 4)
        """
        items = _items(cards) if isinstance(cards, str) else list(cards)
        counts = list(self.counts)
        for item in items:
            rank = item if isinstance(item, Rank) else Rank.parse(str(item))
            i = RANKS.index(rank)
            if counts[i] == 0:
                removed = sum(1 for x in items if (x if isinstance(x, Rank) else Rank.parse(str(x))) == rank)
                raise ExactOddsError(
                    f"cannot remove {removed} × {rank.value}: the shoe holds only {self.counts[i]} of rank {rank.value}"
                )
            counts[i] -= 1
        try:
            return Shoe(tuple(counts))
        except ExactOddsError as err:
            raise ExactOddsError(f"after removing those cards: {err}") from None

    def describe(self) -> str:
        """A short description: ``8 decks`` for a standard shoe, else ``N cards``."""
        first = self.counts[0]
        if first % CARDS_PER_RANK_PER_DECK == 0 and all(n == first for n in self.counts):
            decks = first // CARDS_PER_RANK_PER_DECK
            return f"{decks} deck{'s' if decks != 1 else ''}"
        return f"{self.size:,} cards"


def _items(text: str) -> list[str]:
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


def _parse_count(rank: Rank, text: str) -> int:
    cleaned = text.strip()
    digits = cleaned[1:] if cleaned.startswith("-") else cleaned
    if not (digits.isascii() and digits.isdigit()):
        raise ExactOddsError(f"the count of {rank.value} must be a whole number, not {cleaned!r}")
    return _whole_count(rank, int(cleaned))


def _whole_count(rank: Rank, n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise ExactOddsError(f"the count of {rank.value} must be a whole number, not {n!r}")
    if n < 0:
        raise ExactOddsError(f"the count of {rank.value} cannot be negative ({n})")
    return n
