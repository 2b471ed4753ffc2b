"""Bets on the four opening cards (P1 B1 P2 B2) counted in closed form from the shoe's cards: no walk.

A bet whose conditions read only the opening cards (their ranks, colours, suits, how many
are nines or faces, their poker hand, the pairs and the very same card) is settled before any
third card is drawn, so its counts are sums over the few kinds of card its facts tell apart:
hypergeometric counts of ordered draws, exact integers. Each *form* below splits every ordered
draw of the four opening cards into a few cells, each with the values of the facts the form
knows and its exact number of draws; an outcome's count is the sum of the cells where its
condition holds, times the (N−4)(N−5) orderings of the two cards after them (the package's
counting convention). A bet whose facts no one form knows, or whose condition a cell cannot
decide, is left to the card walk (:func:`~exactodds.puntobanco.cardwalk.walk.card_counts`), the reference the
tests compare every form with; so is a shoe known only by rank where a fact needs suits, and
a bet whose outcomes overlap or leave draws unsettled (the walk's error says which).

>>> from exactodds.puntobanco.facts import condition
>>> red = condition({"p1_colour": "red", "p2_colour": "red"})
>>> shoe = Shoe.standard(1)
>>> win, lose = opening_counts(shoe, [red, None])
>>> win * falling_factorial(52, 2) == falling_factorial(26, 2) * shoe.orderings()
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from math import comb

from ..cards import RANK_VALUES, Shoe, falling_factorial, pair_sums
from ..memo import IdentityCache
from ..notation import RANK_TEXT, Condition
from .facts import POKER_HANDS

#: The opening positions, in deal order.
OPENING = ("p1", "b1", "p2", "b2")
_SUIT_TEXT = ("S", "H", "D", "C")
_RED = (1, 2)
_NINE, _FACES, _ACE = 8, 10, 0
#: The most cells the positions form makes (kinds to the power of the positions read); beyond, the walk.
MAX_CELLS = 4096
#: The facts a bet reads, each with the values its conditions allow (one pair per fact and set of values).
Reads = frozenset[tuple[str, tuple[object, ...]]]


def opening_counts(shoe: Shoe, whens: Sequence[Condition | None], first_match: bool = False) -> list[int] | None:
    """Each outcome's count of ordered six-card draws, in closed form, or ``None`` when no form decides the bet.

    ``whens`` are the outcomes' conditions (``None``: otherwise), as for the card walk; with
    ``first_match`` the first outcome whose condition holds settles a draw.

    >>> from exactodds.puntobanco.facts import condition
    >>> monkey = [condition({"face_cards": 4}), condition({"face_cards": 0}), None]
    >>> opening_counts(Shoe.standard(8), monkey)[0] == falling_factorial(96, 4) * falling_factorial(412, 2)
    True
    """
    plan = _plan_of(whens, first_match, shoe.suits is not None)
    if plan is None:
        return None
    form, reads, settles, overlaps = plan
    weights = form.weights(shoe, reads)
    if any(weights[i] for i in overlaps):
        return None  # two outcomes settle some draws of this shoe: the walk says so
    sums = [0] * (len(whens) + 1)
    for index, n in zip(settles, weights):
        sums[index] += n
    missing = sums.pop()
    rest = next((i for i, when in enumerate(whens) if when is None), None)
    if rest is None and missing:
        return None  # draws no outcome settles: the walk says so
    if rest is not None:
        sums[rest] = missing
    tail = falling_factorial(shoe.size - 4, 2)
    return [n * tail for n in sums]


def route(whens: Sequence[Condition | None], first_match: bool = False, suited: bool = True) -> str | None:
    """The name of the form that counts a bet with these outcomes (``None``: the card walk does).

    >>> from exactodds.puntobanco.facts import condition
    >>> route([condition({"first_four_poker": "flush"}), None]), route([condition({"p3_rank": "8"}), None])
    ('poker', None)
    """
    plan = _plan_of(whens, first_match, suited)
    return None if plan is None else plan[0].name


@dataclass(frozen=True)
class Form:
    """A split of the opening draws into cells: each cell's facts (the same for every shoe), and its draws on a shoe."""

    name: str
    #: The facts the form knows (by name).
    knows: frozenset[str]
    #: The facts of each cell, for the facts a bet reads, on a shoe known by suit or not (None: not on such a shoe).
    cells: Callable[[Reads, bool], list[dict[str, object]] | None]
    #: The ordered draws of the four opening cards in each cell, in the order of ``cells``.
    weights: Callable[[Shoe, Reads], list[int]]


#: A bet's form, the facts it reads, the outcome settling each cell (the last index: none), the cells two settle.
Plan = tuple[Form, Reads, tuple[int, ...], tuple[int, ...]]
#: Each bet's plan by the id of its conditions (a bet keeps its tuple).
_PLANS: IdentityCache[Plan | None] = IdentityCache(1024)


def _plan_of(whens: Sequence[Condition | None], first_match: bool, suited: bool) -> Plan | None:
    """:func:`_plan`, found by the conditions' id when they are the same object as before (no hashing of them)."""
    return _PLANS.get(whens, lambda: _plan(tuple(whens), first_match, suited), (first_match, suited))


@lru_cache(maxsize=256)
def _plan(whens: tuple[Condition | None, ...], first_match: bool, suited: bool) -> Plan | None:
    """The form of a bet, the facts it reads, the outcome settling each cell (the last index: none) and the cells
    two outcomes settle; ``None`` when no form decides every condition on every cell."""
    reads = frozenset(fact for when in whens for fact in when or ())
    form = next((f for f in FORMS if _names(reads) <= f.knows), None)
    cells = None if form is None else form.cells(reads, suited)
    if form is None or cells is None:
        return None
    settles, overlaps = [], []
    for i, facts in enumerate(cells):
        holding = []
        for index, when in enumerate(whens):
            if when is None:
                continue
            hit = _decide(facts, when)
            if hit is None:
                return None  # a cell does not know a fact the condition reads: the walk decides
            if hit:
                holding.append(index)
        if len(holding) > 1 and not first_match:
            overlaps.append(i)
        settles.append(holding[0] if holding else len(whens))
    return form, reads, tuple(settles), tuple(overlaps)


def _names(reads: Reads) -> frozenset[str]:
    """The names of the facts read."""
    return frozenset(name for name, _ in reads)


def _decide(facts: dict[str, object], when: Condition) -> bool | None:
    """Whether ``when`` holds on a cell with these facts (``None``: it reads a fact the cell does not know)."""
    unknown = False
    for name, values in when:
        if name not in facts:
            unknown = True
        elif facts[name] not in values:
            return False
    return None if unknown else True


def _card_facts(position: str, rank: int, suit: int | None) -> dict[str, object]:
    """The facts of one opening position holding this card (its suit and colour only when the shoe knows them)."""
    out: dict[str, object] = {f"{position}_rank": RANK_TEXT[rank], f"{position}_value": RANK_VALUES[rank]}
    if suit is not None:
        out[f"{position}_suit"] = _SUIT_TEXT[suit]
        out[f"{position}_colour"] = "red" if suit in _RED else "black"
    return out


def _all_cards(suited: bool) -> list[tuple[int, int | None]]:
    """Every card (rank, suit) of a suited shoe, in the order of :func:`_held`; every rank of one known by rank."""
    return [(r, s) for r in range(13) for s in range(4)] if suited else [(r, None) for r in range(13)]


def _held(shoe: Shoe) -> list[int]:
    """How many of each card of :func:`_all_cards` the shoe holds."""
    return [n for row in shoe.suits for n in row] if shoe.suits is not None else list(shoe.counts)


@lru_cache(maxsize=64)
def _kinds(reads: Reads, suited: bool) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The positions read, the cards of each kind, and a card of each.

    Cards are told apart only by the tests the conditions make of them (``p1_rank = "K"``: a
    king or not; ``b2_colour = "red"``: red or not), whatever the position: each test answers
    alike for every card of a kind, so one card stands for its kind on every position.
    """
    read = tuple(p for p in OPENING if any(name.startswith(p + "_") for name, _ in reads))
    tests = sorted({(name[3:], values) for name, values in reads}, key=repr)
    kinds: dict[tuple[bool, ...], list[int]] = {}
    for i, (r, s) in enumerate(_all_cards(suited)):
        facts = _card_facts("x", r, s)
        kinds.setdefault(tuple(facts[f"x_{attr}"] in values for attr, values in tests), []).append(i)
    groups = tuple(tuple(cards) for cards in kinds.values())
    return read, groups, tuple(cards[0] for cards in groups)


def _positions_cells(reads: Reads, suited: bool) -> list[dict[str, object]] | None:
    """A cell per kind of card on each position read (the other positions free)."""
    if not suited and any(name.endswith(("_suit", "_colour")) for name, _ in reads):
        return None  # the walk refuses a suited fact on a shoe known by rank
    read, groups, firsts = _kinds(reads, suited)
    if len(groups) ** len(read) > MAX_CELLS:
        return None
    every = _all_cards(suited)
    cells = []
    for row in product(firsts, repeat=len(read)):
        facts: dict[str, object] = {}
        for position, card in zip(read, row):
            facts.update(_card_facts(position, *every[card]))
        cells.append(facts)
    return cells


def _positions(shoe: Shoe, reads: Reads) -> list[int]:
    """Π (c_K)_{m_K} draws of the kinds on the positions read; by exchangeability the others take any of the
    N − m cards left, (N − m)_{4−m} ways."""
    read, groups, _ = _kinds(reads, shoe.suits is not None)
    held = _held(shoe)
    counts = [sum(map(held.__getitem__, cards)) for cards in groups]
    free = falling_factorial(shoe.size - len(read), 4 - len(read))
    out = []
    for row in product(range(len(groups)), repeat=len(read)):
        n = free
        for j, kind in enumerate(row):
            n *= counts[kind] - row[:j].count(kind)
        out.append(max(n, 0))
    return out


def _suited_pair_cells(reads: Reads, suited: bool) -> list[dict[str, object]] | None:
    """A cell per card x of a hand's suited pair (its two cards the same card x), and one cell of no suited pair."""
    names = _names(reads)
    if not suited:
        return None
    hand, first, second = ("player", "p1", "p2") if "player_suited_pair" in names else ("banker", "b1", "b2")
    cells: list[dict[str, object]] = [
        {f"{hand}_suited_pair": True, **_card_facts(first, r, s), **_card_facts(second, r, s)}
        for r, s in _all_cards(True)
    ]
    return [*cells, {f"{hand}_suited_pair": False}]


def _suited_pair(shoe: Shoe, reads: Reads) -> list[int]:
    """(c_x)_2 (N − 2)_2 draws of the suited pair of x; the rest have none."""
    rest = falling_factorial(shoe.size - 2, 2)
    pairs = [n * (n - 1) * rest for n in _held(shoe)]
    return [*pairs, falling_factorial(shoe.size, 4) - sum(pairs)]


def _how_many_cells(reads: Reads, suited: bool) -> list[dict[str, object]] | None:
    """A cell by how many opening cards are faces (J, Q, K), or red (their colour: red, black or mixed)."""
    names = _names(reads)
    if len(names) != 1 or not (suited or names == {"face_cards"}):
        return None
    if names == {"face_cards"}:
        return [{"face_cards": n} for n in range(5)]
    return [{"first_four_colour": "red" if n == 4 else "black" if n == 0 else "mixed"} for n in range(5)]


def _how_many(shoe: Shoe, reads: Reads) -> list[int]:
    """C(4, n) (F)_n (N − F)_{4−n} draws with n of the F cards in (faces, or red cards)."""
    names = _names(reads)
    if names == {"face_cards"}:
        inside = sum(shoe.counts[_FACES:])
    else:
        assert shoe.suits is not None
        inside = sum(row[s] for row in shoe.suits for s in _RED)
    size = shoe.size
    return [comb(4, n) * falling_factorial(inside, n) * falling_factorial(size - inside, 4 - n) for n in range(5)]


def _nines_cells(reads: Reads, suited: bool) -> list[dict[str, object]] | None:
    """Cells by the nines among the opening cards: how many; two or more of one suit; with one, the 9♦."""
    names = _names(reads)
    if not suited:
        return None if names - {"nines"} else [{"nines": n} for n in range(5)]
    cells: list[dict[str, object]] = []
    for n in range(5):
        if n >= 2:  # the 9♦ is not told apart here: a condition on it with two or more nines is the walk's
            cells += [{"nines": n, "nines_suited": True}, {"nines": n, "nines_suited": False}]
        else:
            cells += [{"nines": n, "nines_suited": False, "nine_of_diamonds": d} for d in (True, False)]
    return cells


def _nines(shoe: Shoe, reads: Reads) -> list[int]:
    """n nines of N9 fill their n positions of four C(4, n) ways: C(4, n) (N9)_n (N − N9)_{4−n} draws, of which
    Σ_s C(4, n) (c_9s)_n (N − N9)_{4−n} are of one suit, and, for one nine, 4 c_9♦ (N − N9)_3 the 9♦."""
    size, nines = shoe.size, shoe.counts[_NINE]
    out = []
    for n in range(5):
        ways = comb(4, n) * falling_factorial(size - nines, 4 - n)
        every = ways * falling_factorial(nines, n)
        if shoe.suits is None:
            out.append(every)
        elif n >= 2:
            one_suit = ways * sum(falling_factorial(c, n) for c in shoe.suits[_NINE])
            out += [one_suit, every - one_suit]
        else:
            diamond = ways * shoe.suits[_NINE][2] if n == 1 else 0
            out += [diamond, every - diamond]
    return out


def _pairs_cells(reads: Reads, suited: bool) -> list[dict[str, object]] | None:
    """Cells by the hands' pairs (P1 P2 and B1 B2 of one rank) and, on a suited shoe, the four cards one card."""
    names = _names(reads)
    if "first_four_same_card" in names and not suited:
        return None
    cells: list[dict[str, object]] = [
        {"player_pair": pp, "banker_pair": bp, "pairs": pp + bp, "first_four_same_card": four}
        for pp, bp, four in ((True, True, True), (True, True, False), (True, False, False), (False, True, False),
                             (False, False, False))
    ]  # fmt: skip
    if not suited:
        cells = [{k: v for k, v in c.items() if k != "first_four_same_card"} for c in cells]
    return cells


def _pairs(shoe: Shoe, reads: Reads) -> list[int]:
    """With P2 = Σ_r (c_r)_2 and P22 the draws with both hands pairs (:func:`~exactodds.cards.pair_sums` over
    ranks), S4 = Σ_x (c_x)_4 over the cards: both pairs P22 (S4 of them the same card four times), the
    Player's alone P2 (N−2)_2 − P22, the Banker's likewise, neither the rest."""
    size = shoe.size
    p2, p22 = pair_sums(list(shoe.counts))
    # (c)_4 = c(c−1)(c−2)(c−3), zero for c < 4 (a factor is 0): no clipping needed.
    same = sum(n * (n - 1) * (n - 2) * (n - 3) for n in _held(shoe)) if shoe.suits is not None else 0
    one = p2 * falling_factorial(size - 2, 2) - p22
    return [same, p22 - same, one, one, falling_factorial(size, 4) - 2 * one - p22]


def _poker_cells(reads: Reads, suited: bool) -> list[dict[str, object]] | None:
    """A cell per poker hand of the opening cards, the lone pair one per rank."""
    if not suited:
        return None
    cells: list[dict[str, object]] = [{"first_four_poker": hand, "first_four_pair": "none"}
                                      for hand in POKER_HANDS if hand != "pair"]  # fmt: skip
    return cells + [{"first_four_poker": "pair", "first_four_pair": rank} for rank in RANK_TEXT]


def _poker(shoe: Shoe, reads: Reads) -> list[int]:
    """Each poker hand's draws in closed form, with c_rs the cards of rank r and suit s, R_r = Σ_s c_rs, S_s = Σ_r c_rs.

    Four of a kind Σ_r (R_r)_4; three of a kind Σ_r 4 (R_r)_3 (N − R_r); a straight 24 Π R_r over
    its ranks, a straight flush 24 Π c_rs; two pairs 6 (R_r)_2 (R_t)_2 over r < t; a lone pair of
    rank r 12 (R_r)_2 e_2 (e_2 = Σ R_a R_b over two other ranks a < b); a flush the (S_s)_4 draws
    of one suit less its straights, threes and fours of a kind. A hand of one suit is the flush
    where the flush ranks above it (two pairs, a lone pair), so those lose their draws of one
    suit (the same sums over c_rs); the high card is what is left.
    """
    assert shoe.suits is not None
    size = shoe.size
    f = falling_factorial

    def straights(counts: Sequence[int]) -> tuple[int, int]:
        """24 Π of ``counts`` over the low straights (A-2-3-4 … T-J-Q-K), and over A-J-Q-K."""
        low = sum(24 * counts[a] * counts[a + 1] * counts[a + 2] * counts[a + 3] for a in range(10))
        return low, 24 * counts[_ACE] * counts[10] * counts[11] * counts[12]

    def kinds(counts: Sequence[int], total: int) -> tuple[int, int, int, list[int]]:
        """Four of a kind, three of a kind, two pairs and each rank's lone pair among ``total`` cards."""
        twos = [n * (n - 1) for n in counts]  # (n)_2; (n)_3, (n)_4 below: a factor is 0 when n is too small
        four = sum(t * (n - 2) * (n - 3) for t, n in zip(twos, counts))
        three = sum(4 * t * (n - 2) * (total - n) for t, n in zip(twos, counts))
        two_pair = 3 * (sum(twos) ** 2 - sum(t * t for t in twos))
        squares = sum(n * n for n in counts)
        lone = [6 * t * ((total - n) ** 2 - squares + n * n) for t, n in zip(twos, counts)]
        return four, three, two_pair, lone

    low, royal = straights(shoe.counts)
    four, three, two_pair, pairs = kinds(shoe.counts, size)
    straight_flush = mini_royal = flush = 0
    for column in zip(*shoe.suits):  # each suit's count of each rank
        total = sum(column)
        s_low, s_royal = straights(column)
        s_four, s_three, s_two_pair, s_lone = kinds(column, total)
        straight_flush += s_low
        mini_royal += s_royal
        flush += f(total, 4) - s_low - s_royal - s_four - s_three
        two_pair -= s_two_pair
        pairs = [p - q for p, q in zip(pairs, s_lone)]
    hands = {"mini-royal": mini_royal, "four-of-a-kind": four, "straight-flush": straight_flush,
             "three-of-a-kind": three, "flush": flush, "straight": low + royal - straight_flush - mini_royal,
             "two-pair": two_pair}  # fmt: skip
    high = f(size, 4) - sum(hands.values()) - sum(pairs)
    return [*(hands.get(hand, high) for hand in POKER_HANDS if hand != "pair"), *pairs]


def _position_facts(positions: Sequence[str]) -> frozenset[str]:
    """The card facts of the given opening positions (rank, value, suit, colour)."""
    return frozenset(f"{p}_{a}" for p in positions for a in ("rank", "value", "suit", "colour"))


#: The forms, tried in order: the first that knows every fact of a bet counts it.
FORMS = (
    Form("positions", _position_facts(OPENING), _positions_cells, _positions),
    Form("suited-pair", _position_facts(("p1", "p2")) | {"player_suited_pair"}, _suited_pair_cells, _suited_pair),
    Form("suited-pair", _position_facts(("b1", "b2")) | {"banker_suited_pair"}, _suited_pair_cells, _suited_pair),
    Form("how-many", frozenset({"face_cards"}), _how_many_cells, _how_many),
    Form("how-many", frozenset({"first_four_colour"}), _how_many_cells, _how_many),
    Form("nines", frozenset({"nines", "nines_suited", "nine_of_diamonds"}), _nines_cells, _nines),
    Form("pairs", frozenset({"player_pair", "banker_pair", "pairs", "first_four_same_card"}), _pairs_cells, _pairs),
    Form("poker", frozenset({"first_four_poker", "first_four_pair"}), _poker_cells, _poker),
)
