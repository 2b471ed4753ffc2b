"""The exhaustive walk: every ordering of the cards a coup can use, counted exactly.

Counting convention (docs/rules.md): every coup is counted over ordered
six-card draws, so a coup that uses k cards is weighted by the (N-k)(N-k-1)…(N-5)
orderings of the cards that follow it, and all counts share the denominator
N(N-1)(N-2)(N-3)(N-4)(N-5) of an N-card shoe.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import NamedTuple

from .cards import RANK_POINTS, RANKS, Shoe, falling_factorial
from .rules import STANDARD_TABLEAU, Tableau


class CoupState(NamedTuple):
    """How a coup ended: each side's final total and number of cards, and the pair flags.

    ``player_pair``/``banker_pair`` say whether that hand's first two cards share a rank;
    ``player_pair_suited``/``banker_pair_suited`` whether they are the same card, rank and
    suit (a "perfect pair"; it implies the pair flag). The suited flags are known only
    from a suited shoe; elsewhere they are False.

    >>> s = CoupState(8, 7, 3, 3, False, False)
    >>> s.winner, s.margin, s.natural, s.cards
    ('player', 1, False, 6)
    """

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int
    player_pair: bool
    banker_pair: bool
    player_pair_suited: bool = False
    banker_pair_suited: bool = False

    @property
    def winner(self) -> str:
        """``"player"``, ``"banker"`` or ``"tie"``."""
        if self.player_total > self.banker_total:
            return "player"
        if self.banker_total > self.player_total:
            return "banker"
        return "tie"

    @property
    def margin(self) -> int:
        """How many points the winner won by (0 on a tie)."""
        return abs(self.player_total - self.banker_total)

    @property
    def cards(self) -> int:
        """Cards dealt in the coup, 4 to 6."""
        return self.player_cards + self.banker_cards

    @property
    def natural(self) -> bool:
        """Whether the coup ended on a natural (either side's first two cards total 8 or 9)."""
        return self.player_natural or self.banker_natural

    @property
    def player_natural(self) -> bool:
        """Whether the Player's first two cards were a natural 8 or 9."""
        return self.player_cards == 2 and self.banker_cards == 2 and self.player_total >= 8

    @property
    def banker_natural(self) -> bool:
        """Whether the Banker's first two cards were a natural 8 or 9."""
        return self.player_cards == 2 and self.banker_cards == 2 and self.banker_total >= 8


#: Every state the tableau could in principle produce (a superset of the reachable ones);
#: a suited flag is only ever set together with its pair flag.
ALL_STATES: tuple[CoupState, ...] = tuple(
    CoupState(pt, bt, pn, bn, pp, bp, ps, bs)
    for pt, bt, pn, bn, pp, bp in itertools.product(
        range(10), range(10), (2, 3), (2, 3), (False, True), (False, True)
    )
    for ps in ((False, True) if pp else (False,))
    for bs in ((False, True) if bp else (False,))
)


def deal_coup(values: Sequence[int], tableau: Tableau = STANDARD_TABLEAU) -> tuple[int, int, int, int]:
    """Play one coup from card values in deal order; return (player total, banker total, player cards, banker cards).

    Cards 1 and 3 go to the Player, 2 and 4 to the Banker; third cards follow the tableau.

    >>> deal_coup([3, 4, 2, 2, 7, 9])   # Player 5 draws a 7 -> 2; Banker 6 draws on a 7 -> 5
    (2, 5, 3, 3)
    >>> deal_coup([9, 0, 9, 9, 1, 1])   # Banker natural 9 (Player 8 too): nobody draws
    (8, 9, 2, 2)
    """
    player = (values[0] + values[2]) % 10
    banker = (values[1] + values[3]) % 10
    if tableau.is_natural(player) or tableau.is_natural(banker):
        return player, banker, 2, 2
    player_cards, next_card, player_third = 2, 4, None
    if tableau.player_draws(player):
        player_third = values[4]
        player, player_cards, next_card = (player + player_third) % 10, 3, 5
    if tableau.banker_draws(banker, player_third):
        return player, (banker + values[next_card]) % 10, player_cards, 3
    return player, banker, player_cards, 2


@dataclass(frozen=True, eq=False)
class CoupDistribution:
    """Exact counts of ordered six-card draws by final coup state, for one shoe and tableau.

    >>> dist = enumerate_coups(Shoe.standard(1))
    >>> dist.count(lambda s: s.winner == "banker"), dist.total == dist.orderings
    (6737232640, True)
    """

    shoe: Shoe
    counts: Mapping[CoupState, int]

    @property
    def orderings(self) -> int:
        """N(N-1)…(N-5), the denominator of every probability."""
        return self.shoe.orderings()

    @property
    def total(self) -> int:
        """The sum of all counts (equal to ``orderings``)."""
        return sum(self.counts.values())

    def count(self, event: Callable[[CoupState], bool]) -> int:
        """The number of ordered six-card draws whose coup satisfies ``event``."""
        return sum(n for state, n in self.counts.items() if event(state))

    def probability(self, event: Callable[[CoupState], bool]) -> Fraction:
        """The exact probability of ``event``."""
        return Fraction(self.count(event), self.orderings)

    def items(self) -> Iterator[tuple[CoupState, int]]:
        """The (state, count) pairs in a fixed order."""
        return iter(sorted(self.counts.items()))


def _suited_sums(shoe: Shoe) -> tuple[list[int], list[int]] | None:
    """Per rank r, S(r) = Σ_s (c_rs)_2 and J(r) = Σ_{s≠t} (c_rs)_2 (c_rt)_2 + Σ_s (c_rs)_4 (None: rank-only shoe).

    S(r) counts the ordered pairs of distinct rank-r cards that are the same card (rank
    and suit); J(r) the ordered four-card selections of rank r whose 1st and 3rd cards
    are the same card and whose 2nd and 4th are too.
    """
    if shoe.suits is None:
        return None
    same, both = [], []
    for row in shoe.suits:
        pairs = [falling_factorial(c, 2) for c in row]
        s = sum(pairs)
        same.append(s)
        both.append(s * s - sum(p * p for p in pairs) + sum(falling_factorial(c, 4) for c in row))
    return same, both


def _suited_split(
    weight: int, r1: int, r2: int, r3: int, r4: int, full: Sequence[int], same: Sequence[int], both: Sequence[int]
) -> tuple[tuple[bool, bool, int], ...]:
    """Split the weight of ranks (r1, r2, r3, r4) by whether cards 1, 3 (and 2, 4) are the same card.

    The rest of the coup depends only on values, so the split is exact. Returns
    (player suited, banker suited, weight) parts that sum to ``weight``.
    """
    p, b = r1 == r3, r2 == r4
    if p and b and r1 == r2:
        c = full[r1]
        assert weight == falling_factorial(c, 4)
        one = same[r1] * (c - 2) * (c - 3)  # cards 1, 3 the same card (2 and 4 any)
        two = both[r1]
        return (
            (True, True, two),
            (True, False, one - two),
            (False, True, one - two),
            (False, False, weight - 2 * one + two),
        )
    if p and b:
        pr, br = falling_factorial(full[r1], 2), falling_factorial(full[r2], 2)
        base, rest = divmod(weight, pr * br)
        assert rest == 0, "suited split must be exact"
        ps, bs = same[r1], same[r2]
        return (
            (True, True, base * ps * bs),
            (True, False, base * ps * (br - bs)),
            (False, True, base * (pr - ps) * bs),
            (False, False, base * (pr - ps) * (br - bs)),
        )
    if p or b:
        r = r1 if p else r2
        base, rest = divmod(weight, falling_factorial(full[r], 2))
        assert rest == 0, "suited split must be exact"
        return (p, b, base * same[r]), (False, False, weight - base * same[r])
    return ((False, False, weight),)


def enumerate_coups(shoe: Shoe, tableau: Tableau = STANDARD_TABLEAU) -> CoupDistribution:
    """Walk every ordering of the cards a coup can use and count the final states exactly.

    This is the plain reference enumerator: the shoe is a distribution of counts that
    is dealt from card by card, each branch weighted by how many cards of that kind
    remain. The first four cards are dealt by rank (the pair bets need ranks); third
    cards only matter by value. On a suited shoe, the weight of each rank prefix is
    split exactly by whether each hand's two cards are the same card (rank and suit):
    of the (c_r)_2 ordered pairs of rank-r cards, S(r) = Σ_s (c_rs)_2 are.

    >>> dist = enumerate_coups(Shoe.parse("A=2,2=2,3=2"))
    >>> dist.total, sum(n for s, n in dist.items() if s.player_pair)
    (720, 144)
    >>> suited = enumerate_coups(Shoe.parse("AS=2,2H=2,3D=1,3C=1"))
    >>> sum(n for s, n in suited.items() if s.player_pair), sum(n for s, n in suited.items() if s.player_pair_suited)
    (144, 96)
    """
    counts = list(shoe.counts)
    full = tuple(shoe.counts)
    suited = _suited_sums(shoe)
    points = [RANK_POINTS[r] for r in RANKS]
    size = shoe.size
    # Stage 1: the first four cards by rank. Orderings that leave the same two-card
    # totals, pair flags and values removed continue identically, so merge them.
    prefixes: dict[tuple[int, int, bool, bool, bool, bool, tuple[int, ...]], int] = defaultdict(int)
    ranks = range(len(counts))
    for r1 in ranks:
        w1 = counts[r1]
        if not w1:
            continue
        counts[r1] -= 1
        for r2 in ranks:
            w2 = w1 * counts[r2]
            if not w2:
                continue
            counts[r2] -= 1
            for r3 in ranks:
                w3 = w2 * counts[r3]
                if not w3:
                    continue
                counts[r3] -= 1
                for r4 in ranks:
                    w4 = w3 * counts[r4]
                    if not w4:
                        continue
                    v1, v2, v3, v4 = points[r1], points[r2], points[r3], points[r4]
                    player, banker = (v1 + v3) % 10, (v2 + v4) % 10
                    ppair, bpair = r1 == r3, r2 == r4
                    used = tuple(sorted((v1, v2, v3, v4)))
                    if suited is None or not (ppair or bpair):
                        prefixes[(player, banker, ppair, bpair, False, False, used)] += w4
                        continue
                    for psuit, bsuit, part in _suited_split(w4, r1, r2, r3, r4, full, *suited):
                        if part:
                            prefixes[(player, banker, ppair, bpair, psuit, bsuit, used)] += part
                counts[r3] += 1
            counts[r2] += 1
        counts[r1] += 1

    # Stage 2: third cards by value, from what the first four left.
    full_values = shoe.value_counts()
    after4 = falling_factorial(size - 4, 2)  # orderings of cards 5-6 when the coup used 4
    after5 = size - 5  # orderings of card 6 when the coup used 5
    result: dict[CoupState, int] = defaultdict(int)
    for (player, banker, ppair, bpair, psuit, bsuit, used), weight in prefixes.items():
        flags = (ppair, bpair, psuit, bsuit)
        left = list(full_values)
        for v in used:
            left[v] -= 1
        if tableau.is_natural(player) or tableau.is_natural(banker):
            result[CoupState(player, banker, 2, 2, *flags)] += weight * after4
            continue
        if not tableau.player_draws(player):
            if not tableau.banker_draws(banker, None):
                result[CoupState(player, banker, 2, 2, *flags)] += weight * after4
                continue
            for v5 in range(10):
                if left[v5]:
                    state = CoupState(player, (banker + v5) % 10, 2, 3, *flags)
                    result[state] += weight * left[v5] * after5
            continue
        for v5 in range(10):
            w5 = weight * left[v5]
            if not w5:
                continue
            final_player = (player + v5) % 10
            if not tableau.banker_draws(banker, v5):
                result[CoupState(final_player, banker, 3, 2, *flags)] += w5 * after5
                continue
            left[v5] -= 1
            for v6 in range(10):
                if left[v6]:
                    state = CoupState(final_player, (banker + v6) % 10, 3, 3, *flags)
                    result[state] += w5 * left[v6]
            left[v5] += 1
    return CoupDistribution(shoe, MappingProxyType(dict(result)))
