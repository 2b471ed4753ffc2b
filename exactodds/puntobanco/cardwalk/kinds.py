"""The kinds of card a card walk deals: the coarsest partition of the shoe a bet's conditions need.

A fact on one position tells apart only the cards its values name (``p3_rank = "K"``: kings
and the rest; ``b1_colour``: red and black); pairs and poker hands read whole ranks (and
suits), the count of nines only nines, the deal values. The first four cards are dealt by
one partition and cards 5 and 6 by a coarser one (:func:`partitions`); a kind is a key, a
count in the shoe and one card that stands for it (:func:`kinds`).

>>> from exactodds.puntobanco.facts import condition
>>> first, late, game = partitions([condition({"p3_rank": "K", "p3_suit": "S"}), None])
>>> len(kinds(Shoe.standard(8), first)[0]), len(kinds(Shoe.standard(8), late)[0])
(22, 22)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...cards import RANK_VALUES, Shoe
from ...notation import Condition
from ..facts import CARD_FACTS, CARD_POSITIONS
from .rows import NINE, RED

#: The positions of cards 5 and 6 (the third cards).
LATE = ("p3", "b3")
_PAIR_FACTS = {"player_pair", "banker_pair", "pairs"}
_SUITED_FACTS = {"player_suited_pair", "banker_suited_pair", "suited_pairs"}


@dataclass(frozen=True)
class Partition:
    """How a walk tells cards apart: whole attributes (rank, value, nine, suit, colour) and tests of one attribute.

    A test ``("rank", {12})`` splits the kings from the rest; a card's kind is its whole
    attributes and the answers to the tests. Each attribute is read by the finest one asked
    for: the rank tells the value, the value tells a nine (only the nine is worth 9).

    >>> p = Partition(frozenset({"value"}), (("rank", frozenset({12})), ("suit", frozenset({0}))))
    >>> p.kind(12, 0), p.kind(11, 0), p.kind(11, 2), p.kind(8, 1)
    ((100, -1, True, True), (100, -1, False, True), (100, -1, False, False), (109, -1, False, False))
    """

    #: The attributes read whole.
    attrs: frozenset[str]
    #: (attribute, the codes it is tested for): the codes as the card facts' ``_rank``, ``_value``, … number them.
    tests: tuple[tuple[str, frozenset[int]], ...] = ()
    #: Whether the walk must know which of the first four cards are the very same card (rank and suit): it then
    #: splits each row of kinds by that pattern (:mod:`exactodds.puntobanco.cardwalk.same`), not the kinds into cards.
    identity: bool = False

    @property
    def suited(self) -> bool:
        """Whether telling the cards apart needs their suits."""
        return (
            self.identity
            or bool(self.attrs & {"suit", "colour"})
            or any(what in ("suit", "colour") for what, _ in self.tests)
        )

    def kind(self, rank: int, suit: int | None) -> tuple[object, ...]:
        """The kind of the card ``rank`` (an index into RANKS) of ``suit`` (an index into SUITS, or None)."""
        attrs = self.attrs
        if "rank" in attrs:
            left = rank
        elif "value" in attrs:
            left = RANK_VALUES[rank] + 100
        else:
            left = (rank == NINE) + 200 if "nine" in attrs else -1
        right = -1 if suit is None else suit if "suit" in attrs else (suit in RED) + 10 if "colour" in attrs else -1
        return (left, right, *(_code(what, rank, suit) in codes for what, codes in self.tests))


def _code(what: str, rank: int, suit: int | None) -> int:
    """The code of a card's ``what`` (rank, value, suit or colour), as the card facts number their values."""
    if what == "rank":
        return rank
    if what == "value":
        return RANK_VALUES[rank]
    if suit is None:
        return -1
    return suit if what == "suit" else int(suit not in RED)  # colour: red, black


def partitions(whens: Sequence[Condition | None]) -> tuple[Partition, Partition, bool]:
    """(the partition of the first four cards, that of cards 5 and 6, whether the deal is needed).

    The first four cards' partition refines the later one (it holds its attributes and
    tests), so what the first four took of each later kind is known. The pair facts are
    facts of the first four cards: alone they need no deal, only ranks (for a suited pair,
    which cards are the very same card: a suited pair is a pair, whatever the kinds say).

    >>> from exactodds.puntobanco.facts import condition
    >>> first, late, game = partitions([condition({"banker_initial_total": 3, "p3_rank": "8"}), None])
    >>> sorted(first.attrs), first.tests, sorted(late.attrs), game
    (['value'], (('rank', frozenset({7})),), ['value'], True)
    >>> first, late, game = partitions([condition({"suited_pairs": 1, "face_cards": 4}), None])
    >>> sorted(first.attrs), first.tests, first.identity, game
    ([], (('rank', frozenset({10, 11, 12})),), True, False)
    """
    attrs: set[str] = set()
    late: set[str] = set()
    tests: set[tuple[str, frozenset[int]]] = set()
    late_tests: set[tuple[str, frozenset[int]]] = set()
    game = identity = False
    for when in whens:
        for name, values in when or ():
            card = CARD_FACTS.get(name)
            if card is None:  # how the coup ended: the deal, but a pair needs only ranks, a suited pair identity
                if name in _PAIR_FACTS:
                    attrs.add("rank")
                elif name in _SUITED_FACTS:
                    identity = True
                else:
                    game = True
            elif name[:2] in CARD_POSITIONS and name[2] == "_":  # one card: which of the values named it has
                codes = frozenset(card.values.index(v) for v in values if v != "none")
                test = (name[3:], codes)
                tests.add(test)
                if name[:2] in LATE:
                    game = True
                    late_tests.add(test)
            else:
                attrs |= card.needs - {"identity"}
                tests |= set(card.tests)
                identity = identity or "identity" in card.needs
                game = game or card.game
    if game:
        attrs.add("value")
        late.add("value")
    first = Partition(frozenset(attrs), tuple(sorted(tests, key=_test_order)), identity)
    return first, Partition(frozenset(late), tuple(sorted(late_tests, key=_test_order))), game


def _test_order(test: tuple[str, frozenset[int]]) -> tuple[str, list[int]]:
    return test[0], sorted(test[1])


def kinds(shoe: Shoe, partition: Partition) -> tuple[list[tuple[object, ...]], list[int], list[tuple[int, int]]]:
    """The kinds of ``shoe`` under ``partition``: their keys, counts and a representative (rank, suit or −1) of each."""
    counts: dict[tuple[object, ...], int] = {}
    example: dict[tuple[object, ...], tuple[int, int]] = {}
    for r, s, n in _cells(shoe):
        key = partition.kind(r, s)
        counts[key] = counts.get(key, 0) + n
        example.setdefault(key, (r, -1 if s is None else s))
    keys = [k for k in counts if counts[k]]
    return keys, [counts[k] for k in keys], [example[k] for k in keys]


def kind_cards(shoe: Shoe, partition: Partition, keys: Sequence[tuple[object, ...]]) -> list[list[int]]:
    """For each kind of ``keys``, how many of each card (rank and suit) of the shoe it holds (the cards held).

    >>> p = Partition(frozenset(), (("rank", frozenset({12})),))
    >>> kind_cards(Shoe.parse("KS=2,KH=1,AS=3"), p, [p.kind(12, 0), p.kind(0, 0)])
    [[2, 1], [3]]
    """
    out: dict[tuple[object, ...], list[int]] = {key: [] for key in keys}
    for r, s, n in _cells(shoe):
        if n:
            out[partition.kind(r, s)].append(n)
    return [out[key] for key in keys]


def _cells(shoe: Shoe) -> list[tuple[int, int | None, int]]:
    """The shoe's cards as (rank, suit or None, count): by rank and suit on a suited shoe, else by rank."""
    if shoe.suits is not None:
        return [(r, s, shoe.suits[r][s]) for r in range(13) for s in range(4)]
    return [(r, None, shoe.counts[r]) for r in range(13)]
