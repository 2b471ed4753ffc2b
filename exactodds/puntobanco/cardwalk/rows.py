"""The rows of a card walk: numpy arrays of dealt cards, one entry per row, with their facts read on demand.

The card walk (:mod:`exactodds.puntobanco.cardwalk.walk`) decides which rows to deal and what they weigh;
this module reads what happened on each row: the coup's end (by the tableau's deal table),
the pair flags and every card fact of :data:`~exactodds.puntobanco.facts.CARD_FACTS`, as codes (indices
into the fact's values), and whether a condition holds.

>>> import numpy as np
>>> rows = CardRows({"c0": (np.array([8]), np.array([2])), "c1": (np.array([12]), np.array([0])),
...                  "c2": (np.array([8]), np.array([1])), "c3": (np.array([0]), np.array([0]))}, None, False)
>>> rows.fact("nines").tolist(), rows.fact("nine_of_diamonds").tolist(), rows.p2.tolist(), rows.b2.tolist()
([2], [1], [8], [1])
>>> rows.fact("face_cards").tolist()  # the K
[1]

A walk that split its rows by which cards are the very same card (:mod:`exactodds.puntobanco.cardwalk.same`)
gives each row its pattern: pattern 0 is the four cards all one card.

>>> kings = {f"c{i}": (np.array([12, 12]), np.array([0, 0])) for i in range(4)}
>>> rows = CardRows(kings, None, False, same=np.array([0, 1]))
>>> rows.fact("first_four_same_card").tolist(), [f.tolist() for f in rows.flags[2:]]
([1, 0], [[True, True], [True, False]])
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ...cards import RANK_VALUES
from ...errors import ExactOddsError
from ...notation import Condition
from ..coup import ALL_STATES, encode_state
from ..facts import CARD_FACTS, FACTS, POKER_HANDS, states_where
from ..rules import Tableau, deal_index, deal_table
from .same import BANKER_SAME, PATTERNS, PLAYER_SAME

#: A card as the rows read it: its rank's index into RANKS and its suit's into SUITS (``None``: not written).
Card = tuple[int, "int | None"]

#: Hearts and diamonds, as indices into SUITS (S H D C).
RED = (1, 2)
#: The index of rank 9 in RANKS.
NINE = 8
#: The index of the jack in RANKS: J, Q and K are the face cards.
FACES = 10


class CardRows:
    """The rows of a card walk with their facts read on demand (numpy arrays, one entry per row)."""

    def __init__(
        self,
        cards: dict[str, tuple[Any, Any]],
        tableau: Tableau,
        game: bool,
        merged: tuple[Any, Any, tuple[Any, ...]] | None = None,
        same: Any = None,
    ) -> None:
        import numpy as np

        self.np = np
        self.game = game
        # Which of the first four cards are the very same card (an index into cardsame.PATTERNS per row), when the
        # walk split its rows by it: the cards' kinds then need not tell every card apart.
        self.same = same
        # Per position, the rank and suit codes of the rows' cards (None: merged away, see cardwalk._walk_the_deal).
        self.rank: list[Any] = [cards[f"c{i}"][0] if f"c{i}" in cards else None for i in range(6)]
        self.suit: list[Any] = [cards[f"c{i}"][1] if f"c{i}" in cards else None for i in range(6)]
        values = np.array(RANK_VALUES)
        self.value: list[Any] = [None if r is None else values[r] for r in self.rank]
        self.cache: dict[str, Any] = {}
        if merged is None:
            self.p2 = (self.value[0] + self.value[2]) % 10
            self.b2 = (self.value[1] + self.value[3]) % 10
            pp = self.rank[0] == self.rank[2]
            bp = self.rank[1] == self.rank[3]
            if same is None:
                ps = pp & (self.suit[0] == self.suit[2]) & (self.suit[0] >= 0)
                bs = bp & (self.suit[1] == self.suit[3]) & (self.suit[1] >= 0)
            else:
                ps, bs = np.array(PLAYER_SAME)[same], np.array(BANKER_SAME)[same]
            self.flags: tuple[Any, ...] = (pp, bp, ps, bs)
        else:
            self.p2, self.b2, self.flags = merged  # the first four cards' totals and pair flags, without the cards
        self.rows = self.p2.shape[0]
        if game:
            end = _deal_array(tableau)[deal_index(self.p2, self.b2, self.value[4], self.value[5])]
            self.pt, self.bt, self.pn, self.bn = end.T

    def holds(self, when: Condition) -> Any:
        """The rows where every fact of ``when`` has one of its values."""
        np = self.np
        out = np.ones(self.rows, dtype=bool)
        plain = tuple((name, values) for name, values in when if name in FACTS)
        if plain:
            out &= self._states(states_where(plain)) if self.game else self._pairs(plain)
        for name, values in when:
            if name in CARD_FACTS:
                codes = self.fact(name)
                wanted = [CARD_FACTS[name].values.index(v) for v in values]
                out &= np.isin(codes, wanted)
        return out

    def _states(self, mask: int) -> Any:
        """The rows whose coup state is in the bit set ``mask`` (over ALL_STATES)."""
        pp, bp, ps, bs = self.flags
        code = encode_state(self.pt, self.bt, self.pn, self.bn, pp.astype(int), bp.astype(int))
        return _state_lookup(mask)[code * 4 + 2 * ps + bs]

    def _pairs(self, plain: Condition) -> Any:
        """The rows where the pair facts of ``plain`` hold (read off the first four cards: no deal needed)."""
        np = self.np
        pp, bp, ps, bs = (f.astype(int) for f in self.flags)
        codes = {"player_pair": pp, "banker_pair": bp, "pairs": pp + bp,
                 "player_suited_pair": ps, "banker_suited_pair": bs, "suited_pairs": ps + bs}  # fmt: skip
        out = np.ones(self.rows, dtype=bool)
        for name, values in plain:
            out &= np.isin(codes[name], list(values))
        return out

    def fact(self, name: str) -> Any:
        """The codes (indices into the fact's values) of a card fact on every row."""
        if name not in self.cache:
            self.cache[name] = self._read(name)
        return self.cache[name]

    def _read(self, name: str) -> Any:
        np = self.np
        fact = CARD_FACTS[name]
        none = len(fact.values) - 1
        if name[:2] in ("p1", "b1", "p2", "b2", "p3", "b3") and name[2] == "_":
            pos, what = name[:2], name[3:]
            if pos in ("p1", "b1", "p2", "b2"):
                i = ("p1", "b1", "p2", "b2").index(pos)
                dealt = np.ones(self.rows, dtype=bool)
            elif pos == "p3":
                i, dealt = 4, self.pn == 3
            else:  # the Banker's third card is the fifth card when the Player stood, else the sixth
                i, dealt = 5, self.bn == 3
            rank, suit, value = self.rank[i], self.suit[i], self.value[i]
            if pos == "b3":
                five = self.pn == 2
                rank = np.where(five, self.rank[4], rank)
                suit = np.where(five, self.suit[4], suit)
                value = np.where(five, self.value[4], value)
            code = {"rank": rank, "value": value, "suit": suit, "colour": 1 - np.isin(suit, RED)}[what]
            return np.where(dealt, code, none) if pos in ("p3", "b3") else code
        if name == "player_initial_total":
            return self.p2
        if name == "banker_initial_total":
            return self.b2
        if name == "first_four_same_card":  # one block: the pattern of four times the very same card
            return (self.same == 0).astype(int)
        ranks = np.stack(self.rank[:4])
        if name == "face_cards":
            return (ranks >= FACES).sum(axis=0)
        suits = np.stack(self.suit[:4])
        nines = (ranks == NINE).sum(axis=0)
        if name == "nines":
            return nines
        if name == "nines_suited":
            spread = np.where(ranks == NINE, suits, -1)
            top = spread.max(axis=0)
            low = np.where(ranks == NINE, suits, 9).min(axis=0)
            return ((nines >= 2) & (top == low)).astype(int)
        if name == "nine_of_diamonds":
            return ((ranks == NINE) & (suits == 2)).any(axis=0).astype(int)
        if name == "first_four_colour":
            red = np.isin(suits, RED).sum(axis=0)
            return np.where(red == 4, 0, np.where(red == 0, 1, 2))
        hand, pair = _poker(np, ranks, suits)
        return hand if name == "first_four_poker" else pair


def dealt_rows(player: Sequence[Card], banker: Sequence[Card]) -> CardRows:
    """One coup as dealt (two or three cards a hand), as a card walk's single row: every fact read as the walk reads it.

    The hands' cards take the deal's positions (P1 B1 P2 B2, then the Player's third, then the Banker's), and the
    coup's end is the hands' own, not the tableau's: a coup dealt against the tableau is read as it was dealt.

    >>> rows = dealt_rows([(8, 2), (8, 1), (3, 0)], [(12, 0), (0, 0)])
    >>> rows.fact("nines").tolist(), rows.fact("p3_rank").tolist(), rows.pt.tolist(), rows.flags[0].tolist()
    ([2], [3], [2], [True])
    """
    import numpy as np

    drawn = [*player[2:], *banker[2:]]
    order = [player[0], banker[0], player[1], banker[1], *drawn] + [(0, None)] * (2 - len(drawn))
    cards = {f"c{i}": (np.array([rank]), np.array([-1 if suit is None else suit])) for i, (rank, suit) in
             enumerate(order)}
    first = order[:4]
    # Which opening cards are the very same card (rank and suit): known only where all four are written with suits.
    same = None if any(suit is None for _, suit in first) else np.array([_pattern(first)])
    rows = CardRows(cards, None, False, same=same)  # type: ignore[arg-type]
    values = [RANK_VALUES[rank] for rank, _ in player], [RANK_VALUES[rank] for rank, _ in banker]
    rows.game = True
    rows.pt, rows.bt = np.array([sum(values[0]) % 10]), np.array([sum(values[1]) % 10])
    rows.pn, rows.bn = np.array([len(player)]), np.array([len(banker)])
    return rows


def _pattern(cards: Sequence[Card]) -> int:
    """The index into PATTERNS of which of four cards are the very same card: each labelled by its first sighting."""
    seen: list[Card] = []
    labels = []
    for card in cards:
        if card not in seen:
            seen.append(card)
        labels.append(seen.index(card))
    return PATTERNS.index(tuple(labels))


def dealt_outcome(whens: Sequence[Condition | None], first_match: bool, rows: CardRows, bet_id: str = "bet") -> int:
    """The index of the outcome that settles a one-row :func:`dealt_rows`, by the card walk's rules: the first that
    holds with ``first_match``, else the only one (two that hold are an error), else the otherwise outcome (``None``).

    >>> from exactodds.puntobanco.facts import condition
    >>> red = [condition({"p1_colour": "red", "p2_colour": "red"}), None]
    >>> dealt_outcome(red, False, dealt_rows([(0, 1), (4, 2)], [(5, 0), (6, 3)])), dealt_outcome(
    ...     red, False, dealt_rows([(0, 1), (4, 0)], [(5, 0), (6, 3)]))
    (0, 1)
    """
    found = None
    for index, when in enumerate(whens):
        if when is None or not bool(rows.holds(when)[0]):
            continue
        if first_match:
            return index
        if found is not None:
            raise ExactOddsError(f"bet {bet_id}: two outcomes settle this coup (they overlap)")
        found = index
    if found is None:
        found = next((i for i, when in enumerate(whens) if when is None), None)
        if found is None:
            raise ExactOddsError(f"bet {bet_id}: no outcome settles this coup; add an otherwise outcome")
    return found


def _poker(np: Any, ranks: Any, suits: Any) -> tuple[Any, Any]:
    """The poker value of four cards (an index into POKER_HANDS) and the rank of a lone pair (13: none)."""
    order = np.sort(ranks, axis=0)
    same = order[1:] == order[:-1]  # three adjacent equalities of the sorted ranks
    matches = same.sum(axis=0)
    flush = (suits == suits[0]).all(axis=0)
    distinct = matches == 0
    low = distinct & (order[3] - order[0] == 3)  # A low: A-2-3-4 … T-J-Q-K
    royal = distinct & (order[0] == 0) & (order[1] == 10) & (order[2] == 11) & (order[3] == 12)  # A-J-Q-K
    straight = low | royal
    four = same.all(axis=0)
    three = (same[0] & same[1]) | (same[1] & same[2])
    two_pair = same[0] & same[2] & ~same[1]
    hand = np.full(ranks.shape[1], POKER_HANDS.index("high-card"))
    for name, test in (
        ("pair", matches == 1),
        ("two-pair", two_pair),
        ("straight", straight),
        ("flush", flush),
        ("three-of-a-kind", three & ~four),
        ("straight-flush", straight & flush),
        ("four-of-a-kind", four),
        ("mini-royal", royal & flush),
    ):
        hand = np.where(test, POKER_HANDS.index(name), hand)
    pair_rank = np.where(same[0], order[0], np.where(same[1], order[1], order[2]))
    pair = np.where(hand == POKER_HANDS.index("pair"), pair_rank, 13)
    return hand, pair


@lru_cache(maxsize=64)
def _state_lookup(mask: int) -> Any:
    """For every state code and suited flags (code · 4 + 2 ps + bs), whether the state is in ``mask``; read-only.

    Made once per condition: a walk in blocks asks for it once per block.
    """
    import numpy as np

    lookup = np.zeros(1600 * 4, dtype=bool)
    for i, s in enumerate(ALL_STATES):
        if mask >> i & 1:
            code = encode_state(
                s.player_total, s.banker_total, s.player_cards, s.banker_cards, s.player_pair, s.banker_pair
            )
            lookup[code * 4 + 2 * s.player_pair_suited + s.banker_pair_suited] = True
    lookup.flags.writeable = False
    return lookup


@lru_cache(maxsize=8)
def _deal_array(tableau: Tableau) -> Any:
    """:func:`~exactodds.puntobanco.rules.deal_table` as a read-only numpy array (made once per tableau)."""
    import numpy as np

    table = np.array(deal_table(tableau))
    table.flags.writeable = False
    return table
