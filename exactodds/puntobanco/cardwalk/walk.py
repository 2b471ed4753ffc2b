"""The card walk: exact counts for bets whose conditions read the dealt cards (ranks, suits, colours, positions).

The compiled evaluator and the reference walk know how a coup ended (a CoupState); a bet on
the cards themselves (the Player's third card an 8, four suited cards, a nine of diamonds)
needs more. The cards are dealt by the COARSEST partition of the shoe its conditions need
(:mod:`exactodds.puntobanco.cardwalk.kinds`: All Red deals two kinds of card, "3 Giving 8" ten, a poker hand
52, the Player's third card the K♠ 22). Every ordered tuple of kinds for the first four
positions is one numpy row, weighted by the falling product of the kinds' counts
(c_a (c_b − [b=a]) …, the ordered draws of those kinds); when a fact needs the deal (third
cards, final totals), the first four cards' rows are gathered into groups by what the rest
of the coup needs, and cards 5 and 6 are dealt to each group by the coarser partition they
need (values, and what the facts on P3 and B3 name) from what the first four left. The
counting convention is the package's: ordered six-card draws, a coup that uses four cards
weighted by the (N−4)(N−5) orderings of the two cards after it.

Weights fit in int64 when N^k < 2^63 for the k cards dealt by kind (4, or 6 with the deal:
N ≤ 1448, so 8 decks is far inside); beyond that the same arrays hold Python ints (dtype
object), slower but exact. The sums are Python ints.

Memory is bounded, whatever the bet: rows are made and summed in blocks of at most
:data:`BLOCK` (see :func:`card_counts`), and a bet whose cards 5 and 6 would take more than
:data:`MAX_ROWS` rows is refused as soon as the groups found so far show it, before any is dealt.

>>> from exactodds.puntobanco.facts import condition
>>> from exactodds.puntobanco.rules import STANDARD_TABLEAU
>>> shoe = Shoe.standard(1)
>>> win, lose = card_counts(shoe, STANDARD_TABLEAU, [condition({"first_four_colour": "red"}), None])
>>> win * falling_factorial(52, 4) == falling_factorial(26, 4) * shoe.orderings()
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache, partial
from typing import Any

from ...cards import Shoe, falling_factorial
from ...errors import ExactOddsError
from ...notation import Condition
from ..facts import CARD_FACTS
from ..rules import STANDARD_TABLEAU, Tableau
from .kinds import LATE, Partition, kind_cards, kinds, partitions
from .rows import CardRows
from .same import same_card_table, split_rows

#: Weights and sums stay below N^k (k the cards dealt by kind); below this bound int64 holds them.
INT64_BOUND = 2**63
#: The most rows one walk deals its fifth and sixth cards to (groups of first four cards × kinds²): bounds the work.
MAX_ROWS = 8_000_000
#: The rows of one block: the walk makes, reads and sums its rows this many at a time (a bound on the memory).
BLOCK = 1 << 18
#: The card facts that read the first four cards as a set (not by position).
_SET_FACTS = {
    "nines", "nines_suited", "nine_of_diamonds", "first_four_colour", "first_four_poker", "first_four_pair",
    "face_cards", "first_four_same_card",
}  # fmt: skip
#: Outcome bits packed into one int64 key column (the sign bit left alone).
_BITS = 62


def card_counts(
    shoe: Shoe,
    tableau: Tableau,
    whens: Sequence[Condition | None],
    bet_id: str = "bet",
    first_match: bool = False,
) -> list[int]:
    """The number of ordered six-card draws of ``shoe`` each outcome settles (``None``: otherwise), exactly.

    Outcomes that overlap, or leave a draw of this shoe unsettled, are a clear error; with
    ``first_match`` (a rule set's pay overrides) overlaps are allowed and the first outcome, in
    order, whose condition holds settles the draw.

    The memory is bounded, whatever the bet (k ≤ 52 kinds for the first four cards, m ≤ 52
    for cards 5 and 6). The first four cards are made in blocks of first kinds, at most
    max(BLOCK, k³) = 262,144 rows (k³ ≤ 140,608). With the deal, each group of those rows keeps
    1 + m + m² sums (see :func:`_walk_the_deal`): groups × m² ≤ MAX_ROWS, checked after every
    block before the sums grow, so a bet past it is refused as soon as the groups found so far
    show it (more rows never make fewer groups); its groups number at most MAX_ROWS/m² plus one
    block's. Cards 5 and 6 are dealt to ⌈BLOCK/m²⌉ groups at a time: at most BLOCK rows (m² ≤ 2,704).
    """
    import numpy as np

    whens = list(whens)
    first, late, game = partitions(whens)
    if first.suited and shoe.suits is None:
        raise ExactOddsError(
            f"bet {bet_id} reads suits or colours of cards and needs a shoe with suits; this shoe is known only by rank"
        )
    keys, counts, reps = kinds(shoe, first)
    k = len(keys)
    size = shoe.size
    big = size ** (6 if game else 4) >= INT64_BOUND  # int64 holds every product and sum below N^k
    dtype: Any = object if big else np.int64
    cnt = np.array(counts, dtype=dtype)
    tally = _Tally(whens, first_match, bet_id)
    tail = falling_factorial(size - 4, 2)
    # Facts on the very same card split each row of kinds by which cards are one card (cardwalk.same).
    same = same_card_table(np, kind_cards(shoe, first, keys), dtype) if first.identity else None
    # A bet that reads the first four cards only as a set (nines, colours, a poker hand) is walked
    # over multisets of kinds, a ≤ b ≤ c ≤ d: the ordered draws of one multiset number
    # 4!/∏ m_k! · ∏ (c_k)_{m_k}, so C(k+3, 4) ≤ 341,055 rows stand for the k^4 ordered ones.
    if not game and same is None and all(name in _SET_FACTS for when in whens for name, _ in when or ()):
        grid, takens, orders = _multiset_draws(k)  # few, and the same for every shoe of k kinds: made once
        weight = _weights(cnt, grid, takens) * orders.astype(dtype)
        keep = weight != 0
        masks = [None if m is None else m[keep] for m in _set_masks(tuple(reps), tuple(whens))]
        tally.add(weight[keep], masks.__getitem__, tail)
        return tally.counts()
    if not game:
        rank, suit = _codes(reps)
        for grid, weight, pattern in _first_four(cnt, k, dtype, same):
            rows = CardRows(_cards(rank, suit, grid), tableau, False, same=pattern)
            tally.add(weight, partial(_holds, rows, whens), tail)
        return tally.counts()
    _walk_the_deal(np, shoe, tableau, whens, late, reps, cnt, dtype, tally, bet_id, same)
    return tally.counts()


class _Tally:
    """The counts each outcome settles, summed block by block, checking that the outcomes neither overlap nor miss."""

    def __init__(self, whens: Sequence[Condition | None], first_match: bool, bet_id: str) -> None:
        self.whens = whens
        self.first_match = first_match
        self.bet_id = bet_id
        self.sums = [0] * len(whens)
        self.missing = 0

    def add(self, weight: Any, holds: Callable[[int], Any], tail: int) -> None:
        """Add a block of rows: their weights, where outcome i holds (``holds(i)``) and the orderings after them."""
        import numpy as np

        seen = np.zeros(weight.shape[0], dtype=bool)
        for index, when in enumerate(self.whens):
            if when is None:
                continue
            mask = holds(index)
            if self.first_match:
                mask = mask & ~seen
            elif (mask & seen).any():
                raise ExactOddsError(
                    f"bet {self.bet_id}: two outcomes settle the same deal of this shoe (they overlap)"
                )
            seen |= mask
            self.sums[index] += int(weight[mask].sum()) * tail
        self.missing += int(weight[~seen].sum()) * tail

    def counts(self) -> list[int]:
        """The counts, the otherwise outcome's being every draw no other outcome settled."""
        out = list(self.sums)
        rest = next((i for i, when in enumerate(self.whens) if when is None), None)
        if rest is not None:
            out[rest] = self.missing
        elif self.missing:
            raise ExactOddsError(
                f"bet {self.bet_id}: no outcome settles some deals of this shoe; add an otherwise outcome"
            )
        return out


def _first_four(cnt: Any, k: int, dtype: Any, same: Any = None) -> Iterator[tuple[Any, Any, Any]]:
    """The ordered rows of the first four cards of ``k`` kinds with a non-zero weight, in blocks of first kinds.

    A block holds every row whose first card is one of ⌈BLOCK/k³⌉ kinds: at most max(BLOCK, k³) rows.
    With ``same`` (a :func:`~exactodds.puntobanco.cardwalk.same.same_card_table`) each row is split by which of its
    cards are the very same card, and each new row carries its pattern (else the pattern is None):
    at most 15 times as many rows, most rows (four different kinds) having one pattern.
    """
    import numpy as np

    step = max(1, BLOCK // k**3)
    for start in range(0, k, step):
        grid = np.indices((min(step, k - start), k, k, k)).reshape(4, -1)
        grid[0] += start
        _, takens, _ = _draws_of_four(grid)
        weight = _weights(cnt, grid, takens)
        keep = weight != 0
        if same is None:
            yield grid[:, keep], weight[keep], None
        else:
            grid = grid[:, keep]
            index, weight, pattern = split_rows(np, grid, same, weight[keep])
            yield grid[:, index], weight, pattern


def _weights(cnt: Any, grid: Any, takens: tuple[Any, ...]) -> Any:
    """The ordered draws of each row's four kinds: ∏ (c − taken) over its cards."""
    weight = cnt[grid[0]] - takens[0]
    for i in range(1, 4):
        weight = weight * (cnt[grid[i]] - takens[i])
    return weight


def _holds(rows: CardRows, whens: Sequence[Condition | None], index: int) -> Any:
    """Where outcome ``index``'s condition holds on ``rows`` (never asked of the otherwise outcome)."""
    return rows.holds(whens[index] or ())


def _codes(reps: Sequence[tuple[int, int]]) -> tuple[Any, Any]:
    """The rank and suit codes (arrays, one entry per kind) of the kinds' representatives."""
    import numpy as np

    return np.array([r for r, _ in reps]), np.array([s for _, s in reps])


def _cards(rank: Any, suit: Any, grid: Any) -> dict[str, tuple[Any, Any]]:
    """The rank and suit codes of the rows' first four cards, from the grid's rows of kinds."""
    return {f"c{i}": (rank[row], suit[row]) for i, row in enumerate(grid)}


def _walk_the_deal(
    np: Any,
    shoe: Shoe,
    tableau: Tableau,
    whens: Sequence[Condition | None],
    late: Partition,
    reps: list[tuple[int, int]],
    cnt: Any,
    dtype: Any,
    tally: _Tally,
    bet_id: str,
    same: Any = None,
) -> None:
    """Deal cards 5 and 6 after the first four, from sums over the first four's rows; add the outcomes to ``tally``.

    The rest of a coup depends on its first four cards only through their group (the two-card
    totals, the pair flags, and whether each outcome's facts on the first four cards hold) and
    through t_j, how many cards of each kind j of cards 5 and 6 they took: kinds j then l are
    drawn (c_j − t_j)(c_l − t_l − [j=l]) ways. Summed over a group's rows of weight w, that is
    c_j (c_l − [j=l]) Σw − c_j Σw·t_l − (c_l − [j=l]) Σw·t_j + Σw·t_j·t_l, so each group keeps
    only those sums (1 + m + m² numbers, m the kinds of cards 5 and 6) and deals m² rows:
    groups × m² rows in all, refused beyond MAX_ROWS as soon as the groups found so far pass it.
    In int64 every sum, term and weight stays below N^6 < 2^63: Σw < N^4, Σw·t_j ≤ 4 Σw,
    Σw·t_j·t_l ≤ 16 Σw and c_j (c_l − [j=l]) < N².
    """
    late_keys, late_counts, late_reps = kinds(shoe, late)
    m = len(late_keys)
    to_late = np.array([late_keys.index(late.kind(r, None if s < 0 else s)) for r, s in reps])
    # Each outcome's facts on the first four cards alone become one bit of the group.
    parts = [_split(when) for when in whens]
    fours = {four: j for j, four in enumerate(dict.fromkeys(four for four, _ in parts if four))}
    heads, sums = _group_sums(np, tableau, fours, reps, to_late, m, cnt, dtype, bet_id, same)
    _deal_five_and_six(np, tableau, parts, fours, heads, sums, late_counts, late_reps, dtype, tally)


def _group_sums(
    np: Any,
    tableau: Tableau,
    fours: dict[Condition, int],
    reps: list[tuple[int, int]],
    to_late: Any,
    m: int,
    cnt: Any,
    dtype: Any,
    bet_id: str,
    same: Any = None,
) -> tuple[Any, list[Any]]:
    """The groups of the first four cards' rows (a head each) and each group's sums Σw, Σw·t_j and Σw·t_j·t_l.

    ``fours`` numbers the outcomes' conditions on the first four cards (a bit of the group
    each), ``to_late`` maps each kind of the first four to its kind of cards 5 and 6 (of
    which there are ``m``). Refused beyond MAX_ROWS as soon as the groups found pass it.
    """
    rank, suit = _codes(reps)
    width = 1 + -(-len(fours) // _BITS)  # the group's columns: head, then the bits, _BITS to a column
    groups: dict[tuple[int, ...], int] = {}
    sums = [np.zeros((0,), dtype=dtype), np.zeros((0, m), dtype=dtype), np.zeros((0, m, m), dtype=dtype)]
    for grid, weight, pattern in _first_four(cnt, len(reps), dtype, same):
        if not len(weight):  # every row of the block draws more cards of a kind than the shoe holds
            continue
        rows = CardRows(_cards(rank, suit, grid), tableau, False, same=pattern)
        pp, bp, ps, bs = rows.flags
        key = np.zeros((grid.shape[1], width + 1), dtype=np.int64)
        key[:, 0] = (rows.p2 * 10 + rows.b2) * 16 + pp * 8 + bp * 4 + ps * 2 + bs  # < 1600
        for four, j in fours.items():
            key[:, 1 + j // _BITS] |= rows.holds(four).astype(np.int64) << (j % _BITS)
        taken = np.sort(to_late[grid], axis=0)  # the multiset of later kinds the four took, < m^4 ≤ 52^4
        key[:, width] = ((taken[0] * m + taken[1]) * m + taken[2]) * m + taken[3]
        key, weight = _merge(np, key, weight)  # rows of one group that took the same cards: one row, sorted by group
        new = np.concatenate([[True], (key[1:, :width] != key[:-1, :width]).any(axis=1)])
        index = np.array([groups.setdefault(tuple(row), len(groups)) for row in key[new, :width].tolist()])
        if len(groups) * m * m > MAX_ROWS:  # more rows never make fewer groups: refused now, before the sums grow
            raise ExactOddsError(
                f"bet {bet_id} reads too much of the cards to walk: at least {len(groups) * m * m:,} rows of card"
                f" kinds (at most {MAX_ROWS:,}); name fewer ranks and suits, on fewer positions"
            )
        if len(groups) > len(sums[0]):
            more = min(max(len(groups), 2 * len(sums[0])), MAX_ROWS // (m * m)) - len(sums[0])
            sums = [np.concatenate([s, np.zeros((more, *s.shape[1:]), dtype=dtype)]) for s in sums]
        group = index[np.cumsum(new) - 1]
        digits = [key[:, width] // power % m for power in (m**3, m**2, m, 1)]
        np.add.at(sums[0], group, weight)
        for a in digits:
            np.add.at(sums[1], (group, a), weight)
            for b in digits:
                np.add.at(sums[2], (group, a, b), weight)
    heads = np.array(list(groups), dtype=np.int64).reshape(-1, width)
    sums = [s[: len(heads)] for s in sums]  # the room grown beyond the groups found
    return heads, sums


def _deal_five_and_six(
    np: Any,
    tableau: Tableau,
    parts: list[tuple[Condition, Condition]],
    fours: dict[Condition, int],
    heads: Any,
    sums: list[Any],
    late_counts: Sequence[int],
    late_reps: Sequence[tuple[int, int]],
    dtype: Any,
    tally: _Tally,
) -> None:
    """Deal cards 5 and 6 (every pair of their kinds) after each group of :func:`_group_sums`; add to ``tally``.

    ``parts`` holds each outcome's condition split by :func:`_split`; the ways of a pair of
    kinds after a group are worked out from the group's sums (see :func:`_walk_the_deal`).
    """
    m = len(late_counts)
    counts = np.array(late_counts, dtype=dtype)
    five = np.repeat(np.arange(m), m)
    six = np.tile(np.arange(m), m)
    pairs = counts[five] * (counts[six] - (five == six))  # c_j (c_l − [j=l]) for every kind j of card 5, l of card 6
    late_rank, late_suit = _codes(late_reps)
    step = max(1, BLOCK // (m * m))
    for start in range(0, len(heads), step):
        s0, s1, s2 = (s[start : start + step] for s in sums)
        head = heads[start : start + step]
        full = s0[:, None] * pairs - counts[five] * s1[:, six] - (counts[six] - (five == six)) * s1[:, five]
        full = (full + s2.reshape(len(head), m * m)).reshape(-1)
        keep = full != 0

        def spread(column: Any, keep: Any = keep) -> Any:
            return np.repeat(column, m * m)[keep]

        n = len(head)
        cards = {
            "c4": (np.tile(late_rank[five], n)[keep], np.tile(late_suit[five], n)[keep]),
            "c5": (np.tile(late_rank[six], n)[keep], np.tile(late_suit[six], n)[keep]),
        }
        flags = tuple(spread(head[:, 0] >> bit & 1).astype(bool) for bit in (3, 2, 1, 0))
        rows = CardRows(cards, tableau, True, (spread(head[:, 0] // 160), spread(head[:, 0] // 16 % 10), flags))

        def holds(i: int, rows: CardRows = rows, head: Any = head, spread: Any = spread) -> Any:
            four, rest = parts[i]
            mask = rows.holds(rest)
            if four:  # the outcome's bit of the group
                j = fours[four]
                mask &= spread(head[:, 1 + j // _BITS] >> (j % _BITS) & 1).astype(bool)
            return mask

        tally.add(full[keep], holds, 1)


def _split(when: Condition | None) -> tuple[Condition, Condition]:
    """A condition as (its facts on the first four cards alone, the rest), each possibly empty.

    >>> _split((("winner", ("banker",)), ("b1_rank", ("K",)), ("p3_value", (8,))))
    ((('b1_rank', ('K',)),), (('winner', ('banker',)), ('p3_value', (8,))))
    """
    four = tuple((name, values) for name, values in when or () if name in CARD_FACTS and name[:2] not in LATE)
    return four, tuple((name, values) for name, values in when or () if (name, values) not in four)


def _merge(np: Any, keys: Any, weights: Any) -> tuple[Any, Any]:
    """The distinct rows of ``keys`` (int64, rows × columns), sorted, and the sum of the weights of each, exactly.

    The rows are sorted column by column (a lexicographic sort of int64 columns, far faster
    than numpy's unique by rows), and the weights of equal rows added (int64 or Python ints).

    >>> import numpy as np
    >>> rows, sums = _merge(np, np.array([[1, 2], [0, 5], [1, 2]]), np.array([3, 4, 5]))
    >>> rows.tolist(), sums.tolist()
    ([[0, 5], [1, 2]], [4, 8])
    """
    if not len(keys):
        return keys, weights
    order = np.lexsort(keys.T[::-1])
    ranked = keys[order]
    starts = np.flatnonzero(np.concatenate([[True], (ranked[1:] != ranked[:-1]).any(axis=1)]))
    return ranked[starts], np.add.reduceat(weights[order], starts)


@lru_cache(maxsize=8)
def _multiset_draws(k: int) -> tuple[Any, tuple[Any, ...], Any]:
    """:func:`_draws_of_four` of every multiset of four of ``k`` kinds, made once per k.

    >>> grid, takens, orders = _multiset_draws(2)
    >>> takens[3].tolist(), orders.tolist()
    ([3, 0, 1, 2, 3], [1, 4, 6, 4, 1])
    """
    return _draws_of_four(_multisets_of_four(k))


def _draws_of_four(grid: Any) -> tuple[Any, tuple[Any, ...], Any]:
    """The rows of the first four cards (a 4 × rows grid of kinds) with what drawing them needs.

    With each row: for each card, how many earlier cards of the row are of its kind (so the
    card is drawn c − taken ways), and the orderings 4!/∏ m_k! of the row's multiset.
    """
    import numpy as np

    takens = []
    repeats = np.ones(grid.shape[1], dtype=np.int64)
    for i in range(4):
        taken = sum((grid[j] == grid[i]).astype(np.int64) for j in range(i))
        takens.append(taken)
        repeats = repeats * (1 + taken)  # ∏ m_k! over the multiset, one factor per repeated card
    return grid, tuple(takens), 24 // repeats


@lru_cache(maxsize=16)
def _set_masks(reps: tuple[tuple[int, int], ...], whens: tuple[Condition | None, ...]) -> list[Any]:
    """Where each outcome's condition holds on every multiset of four of the kinds ``reps`` (``None``: otherwise).

    The facts of a multiset read only its cards, not the shoe's counts: computed once for all
    shoes with the same kinds (the 12 deck counts of a table). The masks are read-only.
    """

    grid = _multisets_of_four(len(reps))
    rank, suit = _codes(reps)
    deal = CardRows({f"c{i}": (rank[grid[i]], suit[grid[i]]) for i in range(4)}, STANDARD_TABLEAU, False)
    masks = []
    for when in whens:
        mask = None if when is None else deal.holds(when)
        if mask is not None:
            mask.flags.writeable = False
        masks.append(mask)
    return masks


@lru_cache(maxsize=8)
def _multisets_of_four(k: int) -> Any:
    """Every multiset a ≤ b ≤ c ≤ d of four kinds out of ``k``, as a read-only 4 × C(k+3, 4) array (cached per k).

    >>> _multisets_of_four(2).T.tolist()
    [[0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 1], [0, 1, 1, 1], [1, 1, 1, 1]]
    """
    from itertools import combinations_with_replacement

    import numpy as np

    flat = np.fromiter((i for combo in combinations_with_replacement(range(k), 4) for i in combo), dtype=np.int64)
    grid = flat.reshape(-1, 4).T
    grid.flags.writeable = False
    return grid
