"""The card walk: exact counts for bets whose conditions read the dealt cards (ranks, suits, colours, positions).

The compiled evaluator and the reference walk know how a coup ended (a CoupState); a bet on
the cards themselves (the Player's third card an 8, four suited cards, a nine of diamonds)
needs more. Its conditions name the card attributes they read, so the cards are dealt by
the COARSEST partition of the shoe those attributes need: by colour alone for All Red, by
rank and suit for a poker hand, by rank for "3 Giving 8". Every ordered tuple of kinds for
the first four positions is one numpy row, weighted by the falling product of the kinds'
counts (c_a (c_b − [b=a]) …, the ordered draws of those kinds); when a fact needs the deal
(third cards, final totals), cards 5 and 6 are dealt by the coarser partition they need
(value, plus what facts on P3/B3 read) from what the first four left. The counting
convention is the package's: ordered six-card draws, a coup that uses four cards weighted
by the (N−4)(N−5) orderings of the two cards after it.

Weights fit in int64 when N^k < 2^63 for the k cards dealt by kind (4, or 6 with the deal:
N ≤ 1448, so 8 decks is far inside); beyond that the same arrays hold Python ints (dtype
object), slower but exact. The sums are Python ints.

>>> from exactodds.facts import condition
>>> from exactodds.rules import STANDARD_TABLEAU
>>> shoe = Shoe.standard(1)
>>> win, lose = card_counts(shoe, STANDARD_TABLEAU, [condition({"first_four_colour": "red"}), None])
>>> win * falling_factorial(52, 4) == falling_factorial(26, 4) * shoe.orderings()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .carddeal import NINE, RED, CardRows
from .cards import RANK_VALUES, Shoe, falling_factorial
from .errors import ExactOddsError
from .facts import CARD_FACTS, CARD_POSITIONS, RANK_TEXT, Condition
from .rules import STANDARD_TABLEAU, Tableau

#: Weights and sums stay below N^k (k the cards dealt by kind); below this bound int64 holds them.
INT64_BOUND = 2**63
#: The most rows (ordered tuples of kinds) one walk may hold in memory.
MAX_ROWS = 8_000_000
_PAIR_FACTS = {"player_pair", "banker_pair", "pairs"}
_SUITED_FACTS = {"player_suited_pair", "banker_suited_pair", "suited_pairs"}
#: The card facts that read the first four cards as a set (not by position).
_SET_FACTS = {"nines", "nines_suited", "nine_of_diamonds", "first_four_colour", "first_four_poker", "first_four_pair"}


def _needs(whens: Sequence[Condition | None]) -> tuple[set[str], set[str], bool]:
    """(attributes of the first four cards, attributes of cards 5 and 6, whether the deal is needed)."""
    first: set[str] = set()
    late: set[str] = set()
    game = False
    for when in whens:
        for name, _ in when or ():
            card = CARD_FACTS.get(name)
            if card is None:  # a fact of how the coup ended: the deal, and pairs need ranks (suits)
                game = True
                if name in _PAIR_FACTS:
                    first.add("rank")
                if name in _SUITED_FACTS:
                    first |= {"rank", "suit"}
            elif name[:2] in ("p3", "b3"):
                game = True
                late |= card.needs
            else:
                first |= card.needs
                game = game or card.game
    if game:
        first.add("value")
        late.add("value")
    return first | late, late, game


def _coarsest(when: Condition) -> Condition:
    """The condition with each rank fact that cannot tell T, J, Q, K apart read as a value fact instead.

    ``p3_rank = "8"`` is ``p3_value = 8`` (only the eight is worth 8): the walk then deals by
    value (10 kinds) rather than by rank (13), a partition as coarse as the bet allows.

    >>> _coarsest((("p3_rank", ("8", "none")), ("b1_rank", ("K",))))
    (('p3_value', (8, 'none')), ('b1_rank', ('K',)))
    """
    out = []
    for name, values in when:
        ranks = {v for v in values if v != "none"}
        zeros = {"T", "J", "Q", "K"}
        if name.endswith("_rank") and name[:2] in CARD_POSITIONS and not 0 < len(ranks & zeros) < 4:
            points = sorted({RANK_VALUES[RANK_TEXT.index(str(r))] for r in ranks})
            out.append((name[:2] + "_value", (*points, *(("none",) if "none" in values else ()))))
        else:
            out.append((name, values))
    return tuple(out)


def _key(attrs: set[str], rank: int, suit: int | None) -> tuple[int, int]:
    """A card's kind under ``attrs``: (rank, value, nine or not, or -1; suit, colour or -1).

    Each attribute is read by the finest one asked for: the rank tells the value, and the
    value tells a nine (only the nine is worth 9), so the Lucky Nines facts deal eight kinds
    of card (nines and other cards, by suit) rather than 52.
    """
    if "rank" in attrs:
        left = rank
    elif "value" in attrs:
        left = RANK_VALUES[rank] + 100
    else:
        left = (rank == NINE) + 200 if "nine" in attrs else -1
    if suit is None:
        return left, -1
    right = suit if "suit" in attrs else (suit in RED) + 10 if "colour" in attrs else -1
    return left, right


def _kinds(shoe: Shoe, attrs: set[str]) -> tuple[list[tuple[int, int]], list[int], dict[tuple[int, int], list[int]]]:
    """The kinds of ``shoe`` under ``attrs``: their keys, counts, and a representative (rank, suit) of each."""
    cells = (
        [(r, s, shoe.suits[r][s]) for r in range(13) for s in range(4)]
        if shoe.suits is not None
        else [(r, None, shoe.counts[r]) for r in range(13)]
    )
    counts: dict[tuple[int, int], int] = {}
    example: dict[tuple[int, int], list[int]] = {}
    for r, s, n in cells:
        key = _key(attrs, r, s)
        counts[key] = counts.get(key, 0) + n
        example.setdefault(key, [r, -1 if s is None else s])
    keys = [k for k in counts if counts[k]]
    return keys, [counts[k] for k in keys], example


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
    """
    import numpy as np

    whens = [None if when is None else _coarsest(when) for when in whens]
    attrs, late_attrs, game = _needs(whens)
    if attrs & {"suit", "colour"} and shoe.suits is None:
        raise ExactOddsError(
            f"bet {bet_id} reads suits or colours of cards and needs a shoe with suits; this shoe is known only by rank"
        )
    keys, counts, example = _kinds(shoe, attrs)
    k = len(keys)
    size = shoe.size
    big = size ** (6 if game else 4) >= INT64_BOUND  # int64 holds every product and sum below N^k
    dtype: Any = object if big else np.int64
    rows = k**4  # the first four cards; the deal after them is checked once they are merged
    if rows > MAX_ROWS:
        raise ExactOddsError(
            f"bet {bet_id} reads too much of the cards to walk: {rows:,} rows of card kinds (at most {MAX_ROWS:,});"
            " read fewer attributes (rank, suit) of fewer positions"
        )
    cnt = np.array(counts, dtype=dtype)
    # A bet that reads the first four cards only as a set (nines, colours, a poker hand) is walked
    # over multisets of kinds, a ≤ b ≤ c ≤ d: the ordered draws of one multiset number
    # 4!/∏ m_k! · ∏ (c_k)_{m_k}, so C(k+3, 4) rows stand for the k^4 ordered ones.
    unordered = not game and all(name in _SET_FACTS for when in whens for name, _ in when or ())
    # The multisets are few and the same for every shoe of k kinds: made once. The ordered grid
    # can hold millions of rows: made per call, never kept.
    grid, takens, orders = _multiset_draws(k) if unordered else _draws_of_four(np.indices((k,) * 4).reshape(4, -1))
    weight = np.ones(grid.shape[1], dtype=dtype)
    for i in range(4):
        weight = weight * (cnt[grid[i]] - takens[i])
    if unordered:
        weight = weight * orders.astype(dtype)
    keep = weight != 0
    weight = weight[keep]
    reps = tuple((example[key][0], example[key][1]) for key in keys)
    tail = falling_factorial(size - 4, 2)
    masks: list[Any] | None = None
    if unordered:  # the facts of each multiset are the same for every shoe with these kinds: read once
        masks = [None if m is None else m[keep] for m in _set_masks(reps, tuple(whens))]
    else:
        grid = grid[:, keep]
        rank = np.array([r for r, _ in reps])
        suit = np.array([s for _, s in reps])
        cards = {f"c{i}": (rank[grid[i]], suit[grid[i]]) for i in range(4)}
        if game:
            deal, weight = _merged_deal(
                np, shoe, tableau, whens, late_attrs, keys, example, grid, weight, cards, dtype, bet_id
            )
            tail = 1
        else:
            deal = CardRows(cards, tableau, False)
    seen = np.zeros(weight.shape[0], dtype=bool)
    out: list[int] = []
    rest = None
    for index, when in enumerate(whens):
        if when is None:
            rest = index
            out.append(0)
            continue
        mask = masks[index] if masks is not None else deal.holds(when)
        if first_match:
            mask &= ~seen
        elif (mask & seen).any():
            raise ExactOddsError(f"bet {bet_id}: two outcomes settle the same deal of this shoe (they overlap)")
        seen |= mask
        out.append(int(weight[mask].sum()) * tail)
    missing = int(weight[~seen].sum()) * tail
    if rest is not None:
        out[rest] = missing
    elif missing:
        raise ExactOddsError(f"bet {bet_id}: no outcome settles some deals of this shoe; add an otherwise outcome")
    return out


def _merged_deal(
    np: Any,
    shoe: Shoe,
    tableau: Tableau,
    whens: Sequence[Condition | None],
    late_attrs: set[str],
    keys: list[tuple[int, int]],
    example: dict[tuple[int, int], list[int]],
    grid: Any,
    weight: Any,
    cards: dict[str, tuple[Any, Any]],
    dtype: Any,
    bet_id: str,
) -> tuple[CardRows, Any]:
    """Cards 5 and 6 dealt after the first four, whose rows are merged first, and the rows' weights.

    The rest of a coup depends on its first four cards only through the two-card totals, the
    pair flags, the codes of the first-four facts the bet reads and how many cards of each kind
    of cards 5 and 6 they took: rows that agree on those are merged (their weights added) before
    every row is dealt its fifth and sixth cards, each kind c_j − taken_j ways.
    """
    late_keys, late_counts, late_example = _kinds(shoe, late_attrs)
    m = len(late_keys)
    n1 = grid.shape[1]
    to_late = np.array([late_keys.index(_key(late_attrs, *_rs(example[key]))) for key in keys])
    four = CardRows(cards, tableau, False)
    first = sorted(
        {name for when in whens for name, _ in when or () if name in CARD_FACTS and name[:2] not in ("p3", "b3")}
    )
    taken = np.zeros((n1, m), dtype=np.int64)
    for i in range(4):
        np.add.at(taken, (np.arange(n1), to_late[grid[i]]), 1)
    columns = [four.p2, four.b2, *four.flags, *(four.fact(name) for name in first)]
    key = np.column_stack([*(np.asarray(c).astype(np.int64) for c in columns), taken])
    unique, inverse = np.unique(key, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(len(unique)))
    merged = np.add.reduceat(weight[order], starts)
    n = len(unique)
    if n * m * m > MAX_ROWS:
        raise ExactOddsError(
            f"bet {bet_id} reads too much of the cards to walk: {n * m * m:,} rows of card kinds (at most"
            f" {MAX_ROWS:,}); read fewer attributes (rank, suit) of fewer positions"
        )
    left = np.array(late_counts, dtype=np.int64 if dtype == np.int64 else object)[None, :] - unique[:, -m:]
    five = np.repeat(np.arange(m), m)
    six = np.tile(np.arange(m), m)
    w5 = left[:, five]
    w6 = left[:, six] - (five == six)
    full = (merged[:, None] * w5.astype(dtype) * w6.astype(dtype)).reshape(-1)
    keep = full != 0
    late_rank = np.array([late_example[key][0] for key in late_keys])
    late_suit = np.array([late_example[key][1] for key in late_keys])

    def rep(column: Any) -> Any:
        return np.repeat(column, m * m)[keep]

    late = {
        "c4": (np.tile(late_rank[five], n)[keep], np.tile(late_suit[five], n)[keep]),
        "c5": (np.tile(late_rank[six], n)[keep], np.tile(late_suit[six], n)[keep]),
    }
    codes = {name: rep(unique[:, 6 + j]) for j, name in enumerate(first)}
    flags = tuple(rep(unique[:, 2 + j]).astype(bool) for j in range(4))
    deal = CardRows(late, tableau, True, (rep(unique[:, 0]), rep(unique[:, 1]), flags, codes))
    return deal, full[keep]


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
    import numpy as np

    grid = _multisets_of_four(len(reps))
    rank = np.array([r for r, _ in reps])
    suit = np.array([s for _, s in reps])
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


def _rs(example: list[int]) -> tuple[int, int | None]:
    return example[0], None if example[1] < 0 else example[1]
