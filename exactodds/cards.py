"""Ranks, suits, their baccarat values, and shoes as compositions by rank (and, optionally, by suit).

A shoe is always known by rank (13 counts). It may also be known by suit: then it holds
a count for every rank and suit (a "suited" shoe), which the bets on suited pairs need.
A standard N-deck shoe is suited; a shoe typed by rank only (``A=32,…``) is not.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping, Sequence
from math import prod
from typing import Any

from .errors import ExactOddsError, shown
from .records import record


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
            # "7 7 8": ranks written with spaces, where a list of cards takes commas.
            hint = "; separate cards with commas, e.g. 7,7,8" if len(key.split()) > 1 else ""
            raise ExactOddsError(f"unknown rank {shown(text.strip())!r}: use one of {valid} (or 10){hint}") from None


class Suit(enum.StrEnum):
    """A card suit, one character: ``S H D C`` (spades, hearts, diamonds, clubs).

    >>> Suit.parse("h"), [s.value for s in SUITS]
    (<Suit.HEARTS: 'H'>, ['S', 'H', 'D', 'C'])
    """

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter, case-insensitive."""
        key = text.strip().upper()
        try:
            return cls(key)
        except ValueError:
            raise ExactOddsError(f"unknown suit {text.strip()!r}: use one of S, H, D, C") from None


def parse_card(text: str) -> tuple[Rank, Suit | None]:
    """Read a card: a rank (``7``, ``10``, ``k``) or a rank and a suit letter (``7h``, ``10S``, ``KD``).

    >>> parse_card("10s"), parse_card("q")
    ((<Rank.TEN: 'T'>, <Suit.SPADES: 'S'>), (<Rank.QUEEN: 'Q'>, None))
    """
    known = _CARDS.get(text)
    if known is not None:
        return known
    key = text.strip().upper()
    if len(key) >= 2 and key[-1] in "SHDC":
        return Rank.parse(key[:-1]), Suit(key[-1])
    if len(key) >= 2 and key[-1].isalpha() and key[:-1] in _RANK_TEXTS:
        raise ExactOddsError(f"unknown suit {text.strip()[-1]!r} in card {text.strip()!r}: use one of S, H, D, C")
    return Rank.parse(key), None


RANKS: tuple[Rank, ...] = tuple(Rank)
_RANK_TEXTS = frozenset([*(r.value for r in Rank), "10"])
SUITS: tuple[Suit, ...] = tuple(Suit)
#: Every card as it is usually written (``7``, ``t``, ``10``, ``7h``, ``KD``), read once: a list of 60 cards is read
#: by lookups (a server reads one on most requests); anything else takes the parser. Made from the members as they
#: are (parsing each of its 171 texts cost every start-up half a millisecond).
_CARDS: dict[str, tuple[Rank, Suit | None]] = {
    text: (rank, suit)
    for word, rank in {**{r.value: r for r in RANKS}, "10": Rank.TEN}.items()
    for mark, suit in (("", None), *((m, s) for s in SUITS for m in (s.value, s.value.lower())))
    for text in {word + mark, word.lower() + mark}
}
#: The texts :func:`parse_card` reads by lookup.
CARD_TEXTS: frozenset[str] = frozenset(_CARDS)
#: THE rank → baccarat value table, by rank index (A, 2, …, 9, T, J, Q, K): ace 1, 2-9 face value,
#: ten and faces 0. Every other view of card values (below, and in the vectorised kernels) is made from it.
RANK_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
RANK_POINTS: dict[Rank, int] = dict(zip(RANKS, RANK_VALUES))
#: The indices of the ranks worth 0 (T, J, Q, K): the only value held by more than one rank.
ZERO_RANKS: tuple[int, ...] = tuple(i for i, v in enumerate(RANK_VALUES) if v == 0)
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


def falling_row(c: Any, k: int = 6) -> list[Any]:
    """Return [(c)_0, (c)_1, …, (c)_k]: the ordered draws of 0, 1, …, k cards from c cards of one kind.

    THE falling-factorial row of every weight of a value multiset (the compiled kernel, the lab).
    ``c`` is a whole number ≥ 0 (a Python int or float) or a numpy array of them, taken
    elementwise: the product c(c-1)…(c-j+1) meets the factor 0 as soon as j exceeds c,
    so the row needs no clipping and every entry is an exact integer.

    >>> falling_row(4), falling_row(416, 2)
    ([1, 4, 12, 24, 24, 0, 0], [1, 416, 172640])
    """
    row = [c * 0 + 1]
    for j in range(k):
        row.append(row[-1] * (c - j))
    return row


def pair_sums(counts: Sequence[Any]) -> tuple[Any, Any]:
    """Return (P2, P22) for cards of one class split into kinds holding ``counts`` cards each.

    P2 = Σ_r (c_r)_2 is the ordered pairs of cards of one kind; P22 = Σ_{r≠s} (c_r)_2 (c_s)_2
    + Σ_r (c_r)_4 the ordered four-card draws whose 1st and 3rd cards are of one kind and whose
    2nd and 4th are too. The compiled table uses it on the four 0-valued ranks (pairs among the
    tens and faces), the reference walk on the four suits of a rank (suited pairs). Entries may
    be numpy arrays (many shoes, elementwise).

    >>> pair_sums([32, 32, 32, 32]), pair_sums([2, 0])
    ((3968, 15260928), (2, 0))
    """
    pairs = [c * (c - 1) for c in counts]
    p2 = sum(pairs)
    # (c)_4 = (c)_2 (c - 2)(c - 3); the square of P2 counts the pairs of two kinds r ≠ s and r = s alike.
    p22 = p2 * p2 - sum(p * p for p in pairs) + sum(p * (c - 2) * (c - 3) for p, c in zip(pairs, counts))
    return p2, p22


@record
class Shoe:
    """A finite shoe: how many cards of each rank it holds (order A, 2, …, 9, T, J, Q, K).

    ``suits``, when not ``None``, breaks every rank down by suit (S, H, D, C): a
    13 × 4 tuple whose rows sum to ``counts``. ``None`` means the shoe is known
    only by rank, which is all that every bet but the suited ones needs.

    >>> shoe = Shoe.standard(8)
    >>> shoe.size, shoe.count(Rank.KING), shoe.value_counts()[0], shoe.suited
    (416, 32, 128, True)
    >>> shoe.remove("7,7,K").size, shoe.remove("7h,7s").suited, shoe.remove("7").suited
    (413, True, False)
    """

    counts: tuple[int, ...]
    suits: tuple[tuple[int, ...], ...] | None = None

    MIN_CARDS = 6
    MAX_CARDS = 10**100  # far beyond any real shoe; bigger counts have too many digits to print

    def __post_init__(self) -> None:
        if len(self.counts) != len(RANKS):
            raise ExactOddsError(f"a shoe needs a count for each of the {len(RANKS)} ranks")
        for rank, n in zip(RANKS, self.counts):
            if isinstance(n, bool) or not isinstance(n, int):
                raise ExactOddsError(f"the count of {rank.value} must be a whole number, not {shown(repr(n))}")
            if n < 0:
                raise ExactOddsError(f"the count of {rank.value} cannot be negative ({shown(n)})")
        if self.suits is not None:
            if len(self.suits) != len(RANKS) or any(len(row) != len(SUITS) for row in self.suits):
                raise ExactOddsError(f"a suited shoe needs a count for each of the {len(RANKS)} × {len(SUITS)} cards")
            for rank, row, n in zip(RANKS, self.suits, self.counts):
                for suit, k in zip(SUITS, row):
                    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                        raise ExactOddsError(
                            f"the count of {rank.value}{suit.value} must be a whole number ≥ 0, not {shown(repr(k))}"
                        )
                if sum(row) != n:
                    raise ExactOddsError(
                        f"the suits of {rank.value} add up to {sum(row)}, but the shoe holds {n} of that rank"
                    )
        if self.size > self.MAX_CARDS:
            raise ExactOddsError("a shoe can hold at most 10^100 cards; this one holds more")
        if self.size < self.MIN_CARDS:
            raise ExactOddsError(
                f"a shoe needs at least {self.MIN_CARDS} cards to deal a coup; this one has {self.size}"
            )

    @classmethod
    def of_checked_counts(cls, counts: tuple[int, ...]) -> Shoe:
        """A shoe known by rank from 13 counts its caller has checked are ints ≥ 0 (a reader's fast path).

        Only the size is checked here (the bounds of ``__post_init__``); a bad count is the
        caller's error, so readers use it after their own checks and ``Shoe(counts)`` otherwise.

        >>> Shoe.of_checked_counts((4,) * 13) == Shoe((4,) * 13)
        True
        """
        size = sum(counts)
        if len(counts) != len(RANKS) or not cls.MIN_CARDS <= size <= cls.MAX_CARDS:
            return cls(counts)  # the full check, and its message
        shoe = object.__new__(cls)
        object.__setattr__(shoe, "counts", counts)
        object.__setattr__(shoe, "suits", None)
        return shoe

    @classmethod
    def standard(cls, decks: int = 8) -> Shoe:
        """Return ``decks`` standard 52-card decks shuffled together (a suited shoe: ``decks`` of each card)."""
        if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
            raise ExactOddsError(f"the number of decks must be a whole number of at least 1, not {shown(repr(decks))}")
        return cls((CARDS_PER_RANK_PER_DECK * decks,) * len(RANKS), ((decks,) * len(SUITS),) * len(RANKS))

    @classmethod
    def from_counts(cls, counts: Mapping[str | Rank, int]) -> Shoe:
        """Build a shoe known only by rank from counts per rank; ranks not named hold no cards.

        >>> Shoe.from_counts({"A": 2, "10": 3, "k": 1}).size
        6
        """
        by_rank = dict.fromkeys(RANKS, 0)
        for key, n in counts.items():
            rank = key if isinstance(key, Rank) else Rank.parse(str(key))
            by_rank[rank] += _whole_count(rank, n)
        return cls(tuple(by_rank[r] for r in RANKS))

    @classmethod
    def from_card_counts(cls, counts: Mapping[tuple[Rank, Suit], int]) -> Shoe:
        """Build a suited shoe from counts per (rank, suit); cards not named hold none.

        >>> Shoe.from_card_counts({(Rank.ACE, Suit.SPADES): 4, (Rank.TWO, Suit.HEARTS): 2}).counts[:2]
        (4, 2)
        """
        grid = [[0] * len(SUITS) for _ in RANKS]
        for (rank, suit), n in counts.items():
            grid[RANKS.index(rank)][SUITS.index(suit)] += _whole_count(rank, n, suit)
        return cls(tuple(sum(row) for row in grid), tuple(tuple(row) for row in grid))

    @classmethod
    def parse(cls, text: str) -> Shoe:
        """Read a composition by rank (``"A=32,2=32,T=128"``) or by card (``"AS=8,AH=8,10C=8"``).

        Unlisted ranks (cards) hold 0. Counts by card make a suited shoe; the two forms
        cannot be mixed in one composition.

        >>> Shoe.parse("A=1, 9=2, t=3").counts[:3], Shoe.parse("A=1,9=2,T=3").size
        ((1, 0, 0), 6)
        >>> suited = Shoe.parse("AS=2,AH=2,10d=2")
        >>> suited.suited, suited.count(Rank.TEN), suited.card_count(Rank.ACE, Suit.HEARTS)
        (True, 2, 2)
        """
        by_rank: dict[str | Rank, int] = {}
        by_card: dict[tuple[Rank, Suit], int] = {}
        for item in _items(text, "the shoe"):
            key_text, sep, count_text = item.partition("=")
            if not sep:
                raise ExactOddsError(
                    f"shoe entry {shown(item)!r} should look like RANK=COUNT or CARD=COUNT, e.g. A=32 or AS=8"
                )
            rank, suit = parse_card(key_text)
            if suit is None:
                if rank in by_rank:
                    raise ExactOddsError(f"rank {rank.value} is listed twice in the shoe")
                by_rank[rank] = _parse_count(rank, count_text)
            else:
                if (rank, suit) in by_card:
                    raise ExactOddsError(f"card {rank.value}{suit.value} is listed twice in the shoe")
                by_card[(rank, suit)] = _parse_count(rank, count_text, suit)
            if by_rank and by_card:
                raise ExactOddsError(
                    "a shoe is given either by rank (A=32) or by card with its suit (AS=8), not both in one list"
                )
        if by_card:
            return cls.from_card_counts(by_card)
        return cls.from_counts(by_rank)

    @property
    def size(self) -> int:
        """The number of cards in the shoe."""
        return sum(self.counts)

    @property
    def suited(self) -> bool:
        """Whether the shoe is known by suit as well as by rank."""
        return self.suits is not None

    def count(self, rank: Rank) -> int:
        """The number of cards of ``rank`` in the shoe."""
        return self.counts[RANKS.index(rank)]

    def card_count(self, rank: Rank, suit: Suit) -> int:
        """The number of cards of ``rank`` and ``suit`` (a suited shoe only)."""
        if self.suits is None:
            raise ExactOddsError("this shoe is known only by rank, not by suit")
        return self.suits[RANKS.index(rank)][SUITS.index(suit)]

    def value_counts(self) -> tuple[int, ...]:
        """The number of cards of each baccarat value 0..9."""
        return tuple(sum(self.count(r) for r in ranks) for ranks in VALUE_RANKS)

    def as_dict(self) -> dict[str, int]:
        """Counts keyed by rank character, in rank order."""
        return {r.value: n for r, n in zip(RANKS, self.counts)}

    def suits_dict(self) -> dict[str, int] | None:
        """Counts keyed by card (``AS``, ``AH``, …, ``KC``), or ``None`` for a shoe known only by rank."""
        if self.suits is None:
            return None
        return {f"{r.value}{s.value}": n for r, row in zip(RANKS, self.suits) for s, n in zip(SUITS, row)}

    def without_suits(self) -> Shoe:
        """The same shoe known only by rank."""
        return Shoe(self.counts) if self.suits is not None else self

    def orderings(self) -> int:
        """N(N-1)…(N-5): the ordered six-card draws every count is out of."""
        return falling_factorial(self.size, 6)

    def remove(self, cards: str | Iterable[str | Rank]) -> Shoe:
        """Return the shoe less the given cards (``"7,7,K"``, ``"7h,7s"`` or an iterable of ranks).

        A card with its suit (``7h``) is removed exactly, from a suited shoe. A card given
        by rank only (``7``) leaves a shoe known only by rank: which suit left is unknown.

        >>> Shoe.parse("A=3,2=6").remove("a,2,2").counts[:2]
        (2, 4)
        >>> Shoe.standard(1).remove("7h").card_count(Rank.SEVEN, Suit.HEARTS)
        0
        """
        items = _items(cards, "the list of cards") if isinstance(cards, str) else list(cards)
        parsed = [(item, None) if isinstance(item, Rank) else parse_card(str(item)) for item in items]
        counts = list(self.counts)
        grid = [list(row) for row in self.suits] if self.suits is not None else None
        by_rank_only = False
        for rank, suit in parsed:
            i = RANKS.index(rank)
            if suit is not None:
                if grid is None:
                    raise ExactOddsError(
                        f"cannot remove {rank.value}{suit.value}: this shoe is known only by rank; remove {rank.value}"
                    )
                j = SUITS.index(suit)
                if grid[i][j] == 0:
                    removed = sum(1 for r, s in parsed if (r, s) == (rank, suit))
                    held = self.suits[i][j] if self.suits is not None else 0
                    raise ExactOddsError(
                        f"cannot remove {removed} × {rank.value}{suit.value}: the shoe holds only {held} of that card"
                    )
                grid[i][j] -= 1
            else:
                by_rank_only = True
            if counts[i] == 0:
                removed = sum(1 for r, _ in parsed if r == rank)
                raise ExactOddsError(
                    f"cannot remove {removed} × {rank.value}: the shoe holds only {self.counts[i]} of rank {rank.value}"
                )
            counts[i] -= 1
        suits = None if grid is None or by_rank_only else tuple(tuple(row) for row in grid)
        try:
            return Shoe(tuple(counts), suits)
        except ExactOddsError as err:
            raise ExactOddsError(f"after removing those cards: {err}") from None

    def describe(self) -> str:
        """A short description: ``8 decks`` for a standard shoe, else ``N cards``.

        >>> Shoe.standard(8).describe(), Shoe.parse("AS=8,2S=8,3S=8").describe()
        ('8 decks', '24 cards')
        """
        first = self.counts[0]
        suits_even = self.suits is None or all(k * CARDS_PER_RANK_PER_DECK == first for row in self.suits for k in row)
        if first % CARDS_PER_RANK_PER_DECK == 0 and all(n == first for n in self.counts) and suits_even:
            decks = first // CARDS_PER_RANK_PER_DECK
            return f"{decks} deck{'s' if decks != 1 else ''}"
        return f"{self.size:,} cards"


def parse_deck_range(text: str) -> tuple[int, int]:
    """A range of standard decks ``LOW:HIGH`` (ASCII digits, 1 <= LOW <= HIGH; spaces around them ignored, as
    around every number), as ``--decks`` and a request's ``"decks"`` take it.

    >>> parse_deck_range("1:8"), parse_deck_range(" 6 : 8 ")
    ((1, 8), (6, 8))
    """
    found = re.fullmatch(r"\s*([0-9]{1,100})\s*:\s*([0-9]{1,100})\s*", text, re.ASCII)
    low, high = (int(found.group(1)), int(found.group(2))) if found else (0, 0)
    if not 1 <= low <= high:
        raise ExactOddsError(f"{shown(text)!r} is not a range of decks LOW:HIGH with 1 <= LOW <= HIGH")
    return low, high


def _items(text: str, what: str = "the list") -> list[str]:
    """The entries of a list of cards or counts: split at commas (or semicolons), spaces around them ignored.

    An empty entry (two commas, or one at an end) is refused rather than skipped: one rule for
    ``--shoe`` and ``--remove``, and a list that was cut short is not read as whole.

    >>> _items(" A= 6 , K=2 ")
    ['A= 6', 'K=2']
    >>> _items("A=6,")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: the list 'A=6,' has an empty entry (two commas, or one at an end): remove it
    """
    parts = [part.strip() for part in text.replace(";", ",").split(",")]
    if parts == [""]:
        return []
    if "" in parts:
        raise ExactOddsError(f"{what} {shown(text)!r} has an empty entry (two commas, or one at an end): remove it")
    return parts


def _parse_count(rank: Rank, text: str, suit: Suit | None = None) -> int:
    cleaned = text.strip()
    digits = cleaned[1:] if cleaned.startswith("-") else cleaned
    name = rank.value + (suit.value if suit is not None else "")
    if not (digits.isascii() and digits.isdigit()):
        # "A=4 2=4": entries written with spaces, where a shoe's counts take commas.
        hint = "; separate the counts with commas, e.g. A=4,2=4" if "=" in cleaned or len(cleaned.split()) > 1 else ""
        raise ExactOddsError(f"the count of {name} must be a whole number, not {shown(cleaned)!r}{hint}")
    if len(digits.lstrip("0")) > 101:  # more than 10^100 (and more digits than int() reads)
        raise ExactOddsError(f"the count of {name} is too large: a shoe can hold at most 10^100 cards")
    return _whole_count(rank, int(cleaned), suit)


def _whole_count(rank: Rank, n: object, suit: Suit | None = None) -> int:
    name = rank.value + (suit.value if suit is not None else "")
    if isinstance(n, bool) or not isinstance(n, int):
        raise ExactOddsError(f"the count of {name} must be a whole number, not {shown(repr(n))}")
    if n < 0:
        raise ExactOddsError(f"the count of {name} cannot be negative ({shown(n)})")
    return n
