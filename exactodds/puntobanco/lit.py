"""The shoe statistics of the lit-card games (Lightning and its kin): each coup's result with the *identity pattern*
of the cards a bet's multiplier reads.

A lit-card game lights some identities (rank and suit) of a virtual deck and gives each a random
multiplier; a bet's multiplier is the product over the lit cards of the hand that pays. Given the
cards of that hand, the expected multiplier depends on the law only through the hand's identity
pattern: how many distinct identities it holds and how many copies of each (a hand 7♠ 7♠ 2♦ is
the pattern (2, 1)). So each bet's exact return is a polynomial in the law whose coefficients
are the counts here: ordered six-card draws by (who won, pattern of the paying cards).

How they are counted. The tableau deals on values, so the walk (:func:`coup_multisets`, once
per tableau, shoe-free) lists every coup as (winner, the Player's values, the Banker's values)
with its number of orderings in values. A shoe then weights each: the cards of one value are
split between the paying hand (h positions) and the other used positions (o), and summed over
every way of giving those h + o positions distinct physical cards, grouped by how the h
positions share identities (:func:`value_patterns`). Positions of different values never share an
identity, so a coup's pattern is the union of its values' patterns and its weight their product;
the cards a coup draws but does not use (the six-card convention) multiply it by (N − u)_{6−u}.

Within one value, a way of filling the positions is a set partition of them into identity
classes and an injective choice of an identity per class: a class of size s on identity x is
drawn in (c_x)_s orderings. :func:`_filler` sums ∏ (c_x)_s over the injective choices by a
small recursion over the identities.

>>> from exactodds.cards import Shoe
>>> from exactodds.puntobanco.rules import PUNTO_BANCO
>>> counts = pattern_counts(Shoe.standard(1), PUNTO_BANCO.tableau)
>>> sum(counts.player.values()) + counts.ties + counts.banker_total == Shoe.standard(1).orderings()
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import product
from typing import NamedTuple

from ..cards import RANK_VALUES, Shoe, falling_factorial
from ..errors import ExactOddsError
from .rules import Tableau, deal_coup

#: The cards of a coup under the six-card convention.
DRAW = 6
#: A hand's identity pattern: the number of copies of each distinct identity it holds, largest first.
Pattern = tuple[int, ...]


class CoupShape(NamedTuple):
    """A coup at the level of values: who won, the Player's and the Banker's values (sorted), and its orderings."""

    winner: str
    player: tuple[int, ...]
    banker: tuple[int, ...]
    orderings: int


@cache
def coup_multisets(tableau: Tableau) -> tuple[CoupShape, ...]:
    """Every coup the tableau deals, as the multisets of values of each hand and the number of ordered value
    sequences (P1 B1 P2 B2, then the third cards) that give them; worked out once per tableau.

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> shapes = coup_multisets(PUNTO_BANCO.tableau)
    >>> sum(s.orderings * 10 ** (DRAW - len(s.player) - len(s.banker)) for s in shapes) == 10**DRAW
    True
    """
    found: Counter[tuple[str, tuple[int, ...], tuple[int, ...]]] = Counter()

    def record(player: tuple[int, ...], banker: tuple[int, ...], times: int) -> None:
        p_total, b_total = sum(player) % 10, sum(banker) % 10
        winner = "player" if p_total > b_total else "banker" if b_total > p_total else "tie"
        found[winner, tuple(sorted(player)), tuple(sorted(banker))] += times

    pairs = [(a, b) for a in range(10) for b in range(a, 10)]
    for (p1, p2), (b1, b2) in product(pairs, pairs):
        # Each hand's two cards in either order deal alike (the tableau reads totals): counted once, times 2 if
        # they differ. The fifth and sixth values are read only when a side draws.
        times = (1 + (p1 != p2)) * (1 + (b1 != b2))
        _, _, p_cards, b_cards = deal_coup((p1, b1, p2, b2, 0, 0), tableau)
        if (p_cards, b_cards) == (2, 2):
            record((p1, p2), (b1, b2), times)
            continue
        for x in range(10):
            _, _, p_cards, b_cards = deal_coup((p1, b1, p2, b2, x, 0), tableau)
            if (p_cards, b_cards) == (3, 3):
                for y in range(10):
                    record((p1, p2, x), (b1, b2, y), times)
            elif p_cards == 3:
                record((p1, p2, x), (b1, b2), times)
            else:
                record((p1, p2), (b1, b2, x), times)
    return tuple(CoupShape(w, p, b, n) for (w, p, b), n in sorted(found.items()))


@cache
def _partitions(held: int, other: int) -> tuple[tuple[tuple[tuple[int, int], ...], int], ...]:
    """The set partitions of ``held`` + ``other`` labelled positions, grouped by their classes: each class as
    (its size, how many of the held positions it has), sorted, with the number of set partitions of that kind.

    >>> _partitions(2, 0)
    ((((1, 1), (1, 1)), 1), (((2, 2),), 1))
    """
    kinds: Counter[tuple[tuple[int, int], ...]] = Counter()

    def place(i: int, blocks: list[list[int]]) -> None:
        if i == held + other:
            kinds[tuple(sorted((len(b), sum(1 for p in b if p < held)) for b in blocks))] += 1
            return
        for block in blocks:
            block.append(i)
            place(i + 1, blocks)
            block.pop()
        blocks.append([i])
        place(i + 1, blocks)
        blocks.pop()

    place(0, [])
    return tuple(sorted(kinds.items()))


#: A :func:`_filler`: a set partition's classes to the weights of each pattern of the held positions.
Filler = Callable[[tuple[tuple[int, int], ...]], dict[Pattern, int]]


def _filler(cards: Sequence[tuple[int, bool]]) -> Filler:
    """For one value's identities (each its count in the shoe and whether the virtual deck holds it): a function of a
    set partition's classes (each its size and how many held positions it has) giving Σ over injective choices of
    an identity per class of ∏ (c_x)_size, by the pattern the held positions make on identities of the deck."""

    @cache
    def fill(i: int, left: tuple[tuple[int, int], ...]) -> dict[Pattern, int]:
        # Identities i, i+1, … take the classes ``left`` (sorted), each class at most one identity.
        if not left:
            return {(): 1}
        if len(cards) - i < len(left):
            return {}
        out = Counter(fill(i + 1, left))  # identity i takes no class
        count, lit = cards[i]
        for k, block in enumerate(left):
            if block in left[:k]:
                continue  # classes alike: taken once, times how many there are
            ways = falling_factorial(count, block[0]) * left.count(block)
            if not ways:
                continue
            mark = (block[1],) if lit and block[1] else ()
            for pattern, weight in fill(i + 1, left[:k] + left[k + 1 :]).items():
                out[tuple(sorted(pattern + mark, reverse=True))] += ways * weight
        return dict(out)

    return lambda classes: fill(0, classes)


def value_patterns(cards: Sequence[tuple[int, bool]], held: int, other: int,
                   fill: Filler | None = None) -> dict[Pattern, int]:
    """The orderings of ``held`` + ``other`` positions given distinct cards of one value, by the identity pattern of
    the held positions (identities outside the virtual deck never light, so they leave no mark).

    ``cards``: each identity of that value, its count in the shoe and whether the virtual deck holds it (``fill``:
    its :func:`_filler`, to share its work between calls).

    >>> value_patterns([(2, True), (1, True)], 2, 0)  # two cards of identity a, one of b: ab, ba, then aa
    {(1, 1): 4, (2,): 2}
    """
    fill = fill or _filler(cards)
    out: Counter[Pattern] = Counter()
    for classes, ways in _partitions(held, other):
        for pattern, weight in fill(classes).items():
            out[pattern] += ways * weight
    return {p: n for p, n in out.items() if n}


class PatternCounts(NamedTuple):
    """A shoe's lit-card statistics: ordered six-card draws by the identity pattern of the paying cards.

    ``player``: Player wins, by the pattern of the Player's hand; ``banker``: Banker wins, by the Banker's;
    ``tie``: ties, by the pattern of both hands' cards; ``pair``: the Player's first two cards of one rank, by their
    pattern (the Banker's pair has the same counts: the deal's positions are exchangeable); then the plain totals.
    """

    player: dict[Pattern, int]
    banker: dict[Pattern, int]
    tie: dict[Pattern, int]
    pair: dict[Pattern, int]
    player_total: int
    banker_total: int
    ties: int
    orderings: int


def identities(shoe: Shoe, deck: Iterable[int] | None = None) -> tuple[tuple[tuple[int, bool], ...], ...]:
    """Per baccarat value, each identity (rank r, suit s: number 4r + s) of that value: its count in the shoe, and
    whether the virtual deck holds it (``deck``: identity numbers; ``None``: all 52).

    >>> identities(Shoe.standard(1))[1]
    ((1, True), (1, True), (1, True), (1, True))
    """
    if shoe.suits is None:
        raise ExactOddsError("a lit-card game lights cards by rank and suit: it needs a shoe known by suit"
                             " (--decks, or --shoe with suits such as 7S=8)")
    lit = set(range(52)) if deck is None else set(deck)
    by_value: list[list[tuple[int, bool]]] = [[] for _ in range(10)]
    for r, row in enumerate(shoe.suits):
        for s, count in enumerate(row):
            by_value[RANK_VALUES[r]].append((count, 4 * r + s in lit))
    return tuple(tuple(v) for v in by_value)


def _merge(parts: list[dict[Pattern, int]]) -> dict[Pattern, int]:
    """The patterns of a union of positions from its values' patterns: products of weights, patterns joined."""
    out: dict[Pattern, int] = {(): 1}
    for part in parts:
        step: Counter[Pattern] = Counter()
        for a, x in out.items():
            for b, y in part.items():
                step[tuple(sorted(a + b, reverse=True))] += x * y
        out = step
    return out


class _Term(NamedTuple):
    """A coup shape as a bet's statistics read it: the values of its paying cards (value, held positions, other used
    positions of that value), the other used values (value, positions), its used cards and its orderings."""

    held: tuple[tuple[int, int, int], ...]
    free: tuple[tuple[int, int], ...]
    used: int
    orderings: int


@cache
def _terms(tableau: Tableau) -> dict[str, tuple[_Term, ...]]:
    """The coups of :func:`coup_multisets` by winner, each as a :class:`_Term` of the bet it pays: the Player's hand
    on a Player win, the Banker's on a Banker win, both hands on a tie."""
    out: dict[str, list[_Term]] = {"player": [], "banker": [], "tie": []}
    for shape in coup_multisets(tableau):
        if shape.winner == "player":
            held, other = Counter(shape.player), Counter(shape.banker)
        elif shape.winner == "banker":
            held, other = Counter(shape.banker), Counter(shape.player)
        else:
            held, other = Counter(shape.player + shape.banker), Counter()
        paying = tuple((v, held[v], other[v]) for v in sorted(held))
        free = tuple((v, other[v]) for v in sorted(other) if v not in held)
        out[shape.winner].append(_Term(paying, free, len(shape.player) + len(shape.banker), shape.orderings))
    return {winner: tuple(terms) for winner, terms in out.items()}


def pattern_counts(shoe: Shoe, tableau: Tableau, deck: Iterable[int] | None = None) -> PatternCounts:
    """The lit-card statistics of ``shoe`` (see :class:`PatternCounts`), exact; ``deck`` as :func:`identities`."""
    cards = identities(shoe, deck)
    fills = [_filler(c) for c in cards]
    n = shoe.size
    tail = [falling_factorial(n - u, DRAW - u) if n >= u else 0 for u in range(DRAW + 1)]
    # (c_v)_k: the orderings of k positions of value v on cards of that value, whatever their identities.
    drawn = [[falling_factorial(sum(c for c, _ in cs), k) for k in range(DRAW + 1)] for cs in cards]
    tables: dict[tuple[int, int, int], dict[Pattern, int]] = {}

    def table(key: tuple[int, int, int]) -> dict[Pattern, int]:
        found = tables.get(key)
        if found is None:
            v, held, other = key
            found = tables[key] = value_patterns(cards[v], held, other, fills[v])
        return found

    counts: dict[str, dict[Pattern, int]] = {}
    for winner, terms in _terms(tableau).items():
        # The values the paying cards do not hold weigh a coup by a number alone: the coups of one kind of paying
        # cards are summed first, and each kind's patterns made once.
        scales: Counter[tuple[tuple[int, int, int], ...]] = Counter()
        for term in terms:
            scale = term.orderings * tail[term.used]
            for v, k in term.free:
                scale *= drawn[v][k]
            scales[term.held] += scale
        into: Counter[Pattern] = Counter()
        for held, scale in scales.items():
            if scale:
                for pattern, weight in _merge([table(key) for key in held]).items():
                    into[pattern] += scale * weight
        counts[winner] = {p: c for p, c in into.items() if c}
    # A pair: the first two cards of one side of one rank, the other four drawn freely; by the pair's pattern.
    pair: Counter[Pattern] = Counter()
    for r in range(len(RANK_VALUES)):
        start = _offset(r)
        for pattern, weight in value_patterns(cards[RANK_VALUES[r]][start : start + 4], 2, 0).items():
            pair[pattern] += weight * tail[2]
    return PatternCounts(counts["player"], counts["banker"], counts["tie"], {p: c for p, c in pair.items() if c},
                         sum(counts["player"].values()), sum(counts["banker"].values()), sum(counts["tie"].values()),
                         shoe.orderings())


def _offset(rank: int) -> int:
    """Where rank ``rank``'s four identities start among those of its value (:func:`identities`' order)."""
    value = RANK_VALUES[rank]
    return 4 * sum(1 for r in range(rank) if RANK_VALUES[r] == value)
