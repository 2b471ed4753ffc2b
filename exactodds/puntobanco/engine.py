"""The exhaustive walk: every ordering of the cards a coup can use, counted exactly.

Counting convention (docs/rules.md): every coup is counted over ordered
six-card draws, so a coup that uses k cards is weighted by the (N-k)(N-k-1)…(N-5)
orderings of the cards that follow it, and all counts share the denominator
N(N-1)(N-2)(N-3)(N-4)(N-5) of an N-card shoe.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..cards import RANK_POINTS, RANKS, ZERO_RANKS, Shoe, falling_factorial, pair_sums
from .coup import CoupDistribution, CoupState
from .rules import STANDARD_TABLEAU, Tableau, deal_index, deal_table

if TYPE_CHECKING:  # an event given is parsed by its caller: the module loads with --given only
    from .given import Given


def _suited_sums(shoe: Shoe) -> tuple[list[int], list[int]] | None:
    """Per rank r, S(r) = Σ_s (c_rs)_2 and J(r) = Σ_{s≠t} (c_rs)_2 (c_rt)_2 + Σ_s (c_rs)_4 (None: rank-only shoe).

    S(r) counts the ordered pairs of distinct rank-r cards that are the same card (rank
    and suit); J(r) the ordered four-card selections of rank r whose 1st and 3rd cards
    are the same card and whose 2nd and 4th are too.
    """
    if shoe.suits is None:
        return None
    sums = [pair_sums(row) for row in shoe.suits]  # the kinds of rank r are its suits
    return [s for s, _ in sums], [j for _, j in sums]


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


def coup_endings(
    table: Sequence[tuple[int, int, int, int]], player: int, banker: int, left: Sequence[int], size: int
) -> list[tuple[tuple[int, int, int, int], int]]:
    """How a coup with these two-card totals ends, and in how many orderings of cards 5 and 6 each way.

    ``left`` holds the cards of each value left after the first four. A coup that stops at
    four or five cards is weighted by the orderings of the cards after it, as the counting
    convention asks, so the counts sum to (size − 4)(size − 5).
    """
    start = deal_index(player, banker, 0, 0)
    first = table[start]
    if first[2] + first[3] == 4:
        return [(first, (size - 4) * (size - 5))]
    out: list[tuple[tuple[int, int, int, int], int]] = []
    counts = list(left)
    for v5 in range(10):
        c5 = counts[v5]
        if not c5:
            continue
        ending = table[start + deal_index(0, 0, v5, 0)]
        if ending[2] + ending[3] == 5:
            out.append((ending, c5 * (size - 5)))
            continue
        counts[v5] -= 1
        for v6 in range(10):
            if counts[v6]:
                out.append((table[start + deal_index(0, 0, v5, v6)], c5 * counts[v6]))
        counts[v5] += 1
    return out


def best_for_player(
    draws: Sequence[tuple[int, int, int, int]],
    stands: Sequence[tuple[int, int, int, int]],
    banker: int,
    left: Sequence[int],
    size: int,
) -> Sequence[tuple[int, int, int, int]]:
    """The deal table the Player's holder picks on 5, seeing the four cards: the one better for the Player bet.

    The Player bet wins 1, pushes on a tie and loses 1, so the holder compares the exact
    number of orderings won less those lost under each choice; on equal terms he draws
    (the mini table's rule).
    """

    def score(table: Sequence[tuple[int, int, int, int]]) -> int:
        return sum(n * ((pt > bt) - (bt > pt)) for (pt, bt, _, _), n in coup_endings(table, 5, banker, left, size))

    return stands if score(stands) > score(draws) else draws


def _first_four(
    shoe: Shoe, allowed: Sequence[Sequence[int]], keep_zeros: bool
) -> dict[tuple[int, int, bool, bool, bool, bool, tuple[int, ...], tuple[int, ...]], int]:
    """Stage 1 of the walk: the first four cards by rank (each position from its ``allowed`` ranks), merged.

    Orderings that leave the same two-card totals, pair flags and values removed continue
    identically, so they are merged; with ``keep_zeros`` the zero-valued ranks used are kept
    in the key too (an event on cards 5 or 6 that tells T, J, Q, K apart needs them).
    """
    counts = list(shoe.counts)
    full = tuple(shoe.counts)
    suited = _suited_sums(shoe)
    points = [RANK_POINTS[r] for r in RANKS]
    prefixes: dict[tuple[int, int, bool, bool, bool, bool, tuple[int, ...], tuple[int, ...]], int] = defaultdict(int)
    for r1 in allowed[0]:
        w1 = counts[r1]
        if not w1:
            continue
        counts[r1] -= 1
        for r2 in allowed[1]:
            w2 = w1 * counts[r2]
            if not w2:
                continue
            counts[r2] -= 1
            for r3 in allowed[2]:
                w3 = w2 * counts[r3]
                if not w3:
                    continue
                counts[r3] -= 1
                for r4 in allowed[3]:
                    w4 = w3 * counts[r4]
                    if not w4:
                        continue
                    v1, v2, v3, v4 = points[r1], points[r2], points[r3], points[r4]
                    player, banker = (v1 + v3) % 10, (v2 + v4) % 10
                    ppair, bpair = r1 == r3, r2 == r4
                    used = tuple(sorted((v1, v2, v3, v4)))
                    zeros = tuple(sorted(r for r in (r1, r2, r3, r4) if points[r] == 0)) if keep_zeros else ()
                    if suited is None or not (ppair or bpair):
                        prefixes[(player, banker, ppair, bpair, False, False, used, zeros)] += w4
                        continue
                    for psuit, bsuit, part in _suited_split(w4, r1, r2, r3, r4, full, *suited):
                        if part:
                            prefixes[(player, banker, ppair, bpair, psuit, bsuit, used, zeros)] += part
                counts[r3] += 1
            counts[r2] += 1
        counts[r1] += 1
    return prefixes


def enumerate_coups(
    shoe: Shoe, tableau: Tableau = STANDARD_TABLEAU, *, player_five_best: bool = False, given: Given | None = None
) -> CoupDistribution:
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

    With ``given``, only the ordered six-card draws in which that event about the dealt
    cards happens are counted (:func:`enumerate_given`).
    """
    if given is not None:
        return enumerate_given(shoe, tableau, given, player_five_best=player_five_best)
    size = shoe.size
    # Stage 1: the first four cards by rank, merged (see _first_four).
    everything = [range(len(RANKS))] * 4
    prefixes = _first_four(shoe, everything, keep_zeros=False)

    # Stage 2: cards 5 and 6 by value, from what the first four left. How the coup ends is
    # read from the deal table (the one deal, see rules.deal_table).
    finals = deal_table(tableau)
    if player_five_best:  # the big table: the Player's holder sees the four cards and draws or stands on 5
        draws = deal_table(tableau.with_player_five(True))
        stands = deal_table(tableau.with_player_five(False))
        chosen: dict[tuple[int, tuple[int, ...]], Sequence[tuple[int, int, int, int]]] = {}
    full_values = shoe.value_counts()
    result: dict[CoupState, int] = defaultdict(int)
    for (player, banker, ppair, bpair, psuit, bsuit, used, _), weight in prefixes.items():
        flags = (ppair, bpair, psuit, bsuit)
        left = list(full_values)
        for v in used:
            left[v] -= 1
        table: Sequence[tuple[int, int, int, int]] = finals
        if player_five_best and player == 5:
            key = (banker, used)
            if key not in chosen:
                chosen[key] = best_for_player(draws, stands, banker, left, size)
            table = chosen[key]
        for (pt, bt, pn, bn), n in coup_endings(table, player, banker, left, size):
            result[CoupState(pt, bt, pn, bn, *flags)] += weight * n
    return CoupDistribution(shoe, MappingProxyType(dict(result)))



def _splits_zeros(allowed: frozenset[int]) -> bool:
    """Whether a position's allowed ranks hold some of the zero-valued ranks (T, J, Q, K) but not all."""
    inside = sum(z in allowed for z in ZERO_RANKS)
    return 0 < inside < len(ZERO_RANKS)


def _given_endings(
    table: Sequence[tuple[int, int, int, int]], player: int, banker: int, kinds: Sequence[tuple[int, int, bool, bool]]
) -> list[tuple[tuple[int, int, int, int], int]]:
    """:func:`coup_endings` counting only the orderings whose fifth and sixth cards are allowed by the event.

    ``kinds`` holds, per kind of card left (a value, or a zero-valued rank when the event
    tells them apart), its value, its count, and whether it may be the fifth and the sixth
    card. The fifth and sixth cards of the draw are restricted even when the coup does
    not deal them (they are still positions of the counted six-card draw).
    """
    start = deal_index(player, banker, 0, 0)
    first = table[start]
    sixth = sum(c for _, c, _, ok6 in kinds if ok6)  # cards allowed sixth, before the fifth is taken
    if first[2] + first[3] == 4:
        n = sum(c * (sixth - ok6) for _, c, ok5, ok6 in kinds if ok5)
        return [(first, n)] if n else []
    out: list[tuple[tuple[int, int, int, int], int]] = []
    for i, (v5, c5, ok5, ok65) in enumerate(kinds):
        if not (ok5 and c5):
            continue
        ending = table[start + deal_index(0, 0, v5, 0)]
        if ending[2] + ending[3] == 5:
            if sixth - ok65:
                out.append((ending, c5 * (sixth - ok65)))
            continue
        for j, (v6, c6, _, ok6) in enumerate(kinds):
            c = c6 - (i == j)
            if ok6 and c:
                out.append((table[start + deal_index(0, 0, v5, v6)], c5 * c))
    return out


def enumerate_given(
    shoe: Shoe, tableau: Tableau, given: Given, *, player_five_best: bool = False
) -> CoupDistribution:
    """The reference walk over only the ordered six-card draws in which ``given`` happens (their total is its count).

    Cards 1-4 are dealt by rank, so each position keeps only its allowed ranks. Cards 5
    and 6 are dealt by value; an event on them that allows some of T, J, Q, K but not all
    needs the zero-valued ranks the first four used, so only then are they kept in the
    prefix key and cards 5 and 6 dealt by those ranks. The holder's choice on 5 (the big
    table) is made from the four cards alone, as without an event.

    >>> from exactodds.puntobanco.given import Given
    >>> shoe = Shoe.parse("A=2,2=2,T=1,K=1")
    >>> enumerate_given(shoe, STANDARD_TABLEAU, Given.parse("P3 = K")).total  # K fifth: 5! orderings
    120
    """
    full = tuple(shoe.counts)
    size = shoe.size
    split = _splits_zeros(given.allowed[4]) or _splits_zeros(given.allowed[5])
    prefixes = _first_four(shoe, [sorted(a) for a in given.allowed[:4]], keep_zeros=split)

    finals = deal_table(tableau)
    if player_five_best:
        draws = deal_table(tableau.with_player_five(True))
        stands = deal_table(tableau.with_player_five(False))
        chosen: dict[tuple[int, tuple[int, ...]], Sequence[tuple[int, int, int, int]]] = {}
    ok5, ok6 = given.allowed[4], given.allowed[5]
    full_values = shoe.value_counts()
    result: dict[CoupState, int] = defaultdict(int)
    for (player, banker, ppair, bpair, psuit, bsuit, used, zeros), weight in prefixes.items():
        left = list(full_values)
        for v in used:
            left[v] -= 1
        # The kinds of card left: values 1-9 (one rank each), then value 0 as one kind or,
        # when the event tells T, J, Q, K apart, each of them with what the first four left.
        kinds = [(v, left[v], v - 1 in ok5, v - 1 in ok6) for v in range(1, 10)]
        if split:
            kinds += [(0, full[z] - zeros.count(z), z in ok5, z in ok6) for z in ZERO_RANKS]
        else:
            z = ZERO_RANKS[0]
            kinds.append((0, left[0], z in ok5, z in ok6))
        table: Sequence[tuple[int, int, int, int]] = finals
        if player_five_best and player == 5:
            key = (banker, used)
            if key not in chosen:
                chosen[key] = best_for_player(draws, stands, banker, left, size)
            table = chosen[key]
        for (pt, bt, pn, bn), n in _given_endings(table, player, banker, kinds):
            result[CoupState(pt, bt, pn, bn, ppair, bpair, psuit, bsuit)] += weight * n
    return CoupDistribution(shoe, MappingProxyType(dict(result)))
