"""Chemin de fer reduced to its decision cells, counted exactly.

Every coup of chemin de fer that is not a natural passes through exactly one *Banker cell*:
what the Banker knows when he chooses (his hand, and the Player's third card or the fact that
the Player stood). Whatever the Player does, the Banker's payoff is therefore a sum over his
cells, and once both sides' drawing probabilities are fixed, every count is a polynomial in
them of a very simple shape: the Player's probabilities ``p`` enter linearly (each coup meets
at most one Player decision) and each Banker cell's probability ``q_c`` multiplies only that
cell's coups. This module counts, for every cell and each of the Banker's two actions, the
Banker wins, Player wins and ties as *affine functions of p* with integer coefficients:

    outcome(p, q) = natural + Σ_c [(1 − q_c)·stand_c(p) + q_c·draw_c(p)].

The cards are dealt by punto banco's tableau, read from :data:`exactodds.puntobanco.rules.STANDARD_TABLEAU` (its
naturals, the Player drawing on 0-4 and standing on 6-7), except where a side chooses: the Player on 5,
the Banker in every cell. Its Banker chart is what :func:`punto_banco_draws` measures departures against.

Counting convention (as everywhere in exactodds): ordered six-card draws from the shoe; a
coup that uses four or five cards is counted over all completions to six cards, so every
count is out of (N)_6 = N(N−1)…(N−5). The infinite deck (model A1) draws each value with
probability 1/13 (a ten or face card, value 0, with 4/13): weights 4,1,…,1 out of 13 per card,
so its counts are out of 13^6.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import repeat
from math import lcm
from operator import add, mul

from ..cards import Shoe, falling_factorial
from ..errors import ExactOddsError, unknown_name
from ..puntobanco.rules import COMPOSITIONS, PAIRS, PLAYER_FIVES, STANDARD_TABLEAU
from . import MODELS

#: The Banker's column: the Player's third card 0..9, or ``STOOD`` (10) when the Player stood.
STOOD = 10
COLUMNS: tuple[str, ...] = (*(str(x) for x in range(10)), "stood")
BANKER_WIN, PLAYER_WIN, TIE = 0, 1, 2
#: A value's weight on the infinite deck (out of 13): four ranks are worth 0.
INFINITE_WEIGHTS: tuple[int, ...] = (4, 1, 1, 1, 1, 1, 1, 1, 1, 1)

#: An affine outcome: ``vec[o][0] + Σ_i vec[o][1 + i]·p_i`` for o = Banker win, Player win, tie.
Affine = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def hand_label(hand: tuple[int, int] | int) -> str:
    """A Banker hand as text: a total ``"6"`` (model A1) or the two values ascending ``"1,4"``.

    >>> hand_label(6), hand_label((1, 4))
    ('6', '1,4')
    """
    return str(hand) if isinstance(hand, int) else f"{hand[0]},{hand[1]}"


def punto_banco_draws(total: int, column: int) -> bool:
    """Whether the punto banco tableau (:data:`exactodds.puntobanco.rules.STANDARD_TABLEAU`) makes a Banker with
    ``total`` draw in ``column`` (a Player third card 0-9, or ``STOOD``): the chart chemin de fer's departures are
    measured against.

    >>> punto_banco_draws(3, 8), punto_banco_draws(6, 6), punto_banco_draws(5, STOOD)
    (False, True, True)
    """
    return STANDARD_TABLEAU.banker_draws(total, None if column == STOOD else column)


@dataclass(frozen=True)
class Cells:
    """The cell-by-cell counts of one model and shoe (``shoe`` is None for the infinite deck A1).

    ``cells`` lists the reachable Banker cells as (hand label, column); ``stand[c]`` and
    ``draw[c]`` are that cell's outcome counts as affine functions of the Player's drawing
    probabilities at 5 (``players`` names them: "5", or in model B3 each two-card five the
    shoe can deal), and ``natural`` the naturals' counts.

    >>> game = build_game("A1")
    >>> game.denominator == 13**6, len(game.cells), game.players
    (True, 88, ('5',))
    """

    model: str
    shoe: Shoe | None
    denominator: int
    players: tuple[str, ...]
    cells: tuple[tuple[str, str], ...]
    totals: tuple[int, ...]
    natural: tuple[int, int, int]
    stand: tuple[Affine, ...]
    draw: tuple[Affine, ...]

    @property
    def dimension(self) -> int:
        """How many Player decisions there are (1, or 5 in model B3)."""
        return len(self.players)

    @cached_property
    def _standing(self) -> tuple[tuple[int, ...], ...]:
        """natural + Σ_c stand_c: the counts when the Banker stands everywhere, per outcome (an affine vector)."""
        k = len(self.players)
        return tuple(
            tuple((self.natural[o] if j == 0 else 0) + sum(s[o][j] for s in self.stand) for j in range(k + 1))
            for o in range(3)
        )

    @cached_property
    def _drawing(self) -> tuple[tuple[int, ...], ...]:
        """draw_c − stand_c per cell, the three outcomes' vectors end to end: what drawing in cell c adds."""
        return tuple(
            tuple(x - y for o in range(3) for x, y in zip(d[o], s[o])) for d, s in zip(self.draw, self.stand)
        )

    def outcome(self, p: tuple[Fraction, ...], q: tuple[Fraction, ...]) -> tuple[Fraction, Fraction, Fraction]:
        """The probabilities (Banker wins, Player wins, tie): Player draws at 5 with ``p``, Banker with ``q``.

        ``q`` lists the Banker's drawing probability cell by cell, in the order of ``cells``.

        >>> game = build_game("A1")
        >>> pb = tuple(Fraction(punto_banco_draws(int(h), 10 if c == "stood" else int(c))) for h, c in game.cells)
        >>> sum(game.outcome((Fraction(1),), pb))
        Fraction(1, 1)
        """
        # In integers: every count is natural + Σ_c stand_c(p) + Σ_c q_c·(draw_c(p) − stand_c(p)). The
        # coefficient vectors are summed first (whole, for q_c = 1; times b_c for q_c = b_c/Q), then
        # evaluated once at p = a/P: the count is that value over P·Q.
        q_den = _lcm_of(x.denominator for x in q)
        p_den = _lcm_of(x.denominator for x in p)
        p_num = [x.numerator * (p_den // x.denominator) for x in p]
        base, diff = self._standing, self._drawing
        width = len(base[0])
        # One flat row (outcome-major): the q_c = 1 cells add their row whole, the others b_c times it.
        flat = [v * q_den for row in base for v in row] if q_den != 1 else [v for row in base for v in row]
        for c, x in enumerate(q):
            if x:
                b = x.numerator * (q_den // x.denominator)
                flat = list(map(add, flat, diff[c] if b == 1 else map(mul, repeat(b), diff[c])))
        vec = [flat[o * width : (o + 1) * width] for o in range(3)]
        totals = [
            Fraction(vec[o][0] * p_den + sum(v * a for v, a in zip(vec[o][1:], p_num)), p_den * q_den) for o in range(3)
        ]
        n = self.denominator
        return (totals[0] / n, totals[1] / n, totals[2] / n)


def _lcm_of(denominators: Iterable[int]) -> int:
    """The least common multiple of positive integers (1 for none)."""
    result = 1
    for d in set(denominators):
        result = lcm(result, d)
    return result


def check_model(model: str) -> str:
    """Return the model name, matched exactly, or raise ExactOddsError naming the closest of the three models.

    >>> check_model("B3")
    'B3'
    >>> check_model("b3")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown information model 'b3': did you mean B3? Valid information models are ...
    """
    if model not in MODELS:
        raise unknown_name("information model", str(model), MODELS)  # A1 the infinite deck, B2 and B3 a shoe
    return model


def build_game(model: str, shoe: Shoe | None = None) -> Cells:
    """Count every cell of chemin de fer for ``model`` (A1 needs no shoe; B2 and B3 default to 8 decks).

    >>> game = build_game("B2", Shoe.standard(8))
    >>> len(game.cells), sum(game.natural) * 10**4 // game.denominator
    (484, 3430)
    """
    model = check_model(model)
    if model == "A1":
        if shoe is not None:
            raise ExactOddsError("model A1 is the infinite deck (cards with replacement); it takes no shoe")
        return _build(model, None)
    if shoe is None:
        shoe = Shoe.standard(8)
    if not isinstance(shoe, Shoe):
        raise ExactOddsError(f"the shoe must be a Shoe, not {type(shoe).__name__}")
    return _build(model, shoe.without_suits())


def _result(banker: int, player: int) -> int:
    return BANKER_WIN if banker > player else PLAYER_WIN if player > banker else TIE


@lru_cache(maxsize=16)
def _build(model: str, shoe: Shoe | None) -> Cells:
    if model == "B2" and shoe is not None:
        return _merged(_build("B3", shoe))
    return _count(model, shoe)


def _merged(b3: Cells) -> Cells:
    """Model B2 from model B3 on the same shoe: the Player's five decisions merged into one.

    Both count the same coups in the same Banker cells (the Banker sees his two cards in
    both); B3 only files the Player's drawing at 5 under the two-card five he holds. Each
    count is linear in those probabilities, so setting them all to one p adds their
    coefficients: B2's coefficient of p is the sum of B3's (a five the shoe cannot deal
    has no coefficient in B3 and adds nothing).
    """

    def merge(vecs: Affine) -> Affine:
        return (
            (vecs[0][0], sum(vecs[0][1:])),
            (vecs[1][0], sum(vecs[1][1:])),
            (vecs[2][0], sum(vecs[2][1:])),
        )

    return Cells(
        model="B2",
        shoe=b3.shoe,
        denominator=b3.denominator,
        players=("5",),
        cells=b3.cells,
        totals=b3.totals,
        natural=b3.natural,
        stand=tuple(merge(v) for v in b3.stand),
        draw=tuple(merge(v) for v in b3.draw),
    )


@dataclass
class _Tally:
    """The counts of one model and shoe as they are gathered, coup by coup (an accumulator, private to :func:`_count`).

    ``acc[action][cell][outcome][slot]``: action 0 stand, 1 draw; slot 0 the constant, slot 1 + i the
    coefficient of the Player's p_i. ``pad[k]``: the completions of a k-card coup to an ordered six-card draw.
    """

    model: str
    infinite: bool
    pad: list[int]
    hands: list[tuple[int, int] | int]
    acc: list[list[list[list[int]]]]
    natural: list[int] = field(default_factory=lambda: [0, 0, 0])
    fives_seen: list[bool] = field(default_factory=lambda: [False] * len(PLAYER_FIVES))

    @classmethod
    def start(cls, model: str, shoe: Shoe | None) -> _Tally:
        """Nothing counted yet: the model's hands (totals in A1, compositions else) and slots, the shoe's padding."""
        infinite = shoe is None
        size = 13 if shoe is None else shoe.size
        pad = [size ** (6 - k) if infinite else falling_factorial(size - k, 6 - k) for k in range(7)]
        k = 5 if model == "B3" else 1
        hands: list[tuple[int, int] | int] = list(range(8)) if model == "A1" else list(COMPOSITIONS)
        acc = [[[[0] * (k + 1) for _ in range(3)] for _ in range(len(hands) * 11)] for _ in range(2)]
        return cls(model, infinite, pad, hands, acc)


def _count(model: str, shoe: Shoe | None) -> Cells:
    """Count every coup of ``model`` on ``shoe`` into the Banker cells, then keep the cells and decisions that occur."""
    tally = _Tally.start(model, shoe)
    hand_index = {h: i for i, h in enumerate(tally.hands)}
    for pair, bpair, weight, left in _four_cards(INFINITE_WEIGHTS if shoe is None else shoe.value_counts(),
                                                 tally.infinite):
        tp, tb = sum(pair) % 10, sum(bpair) % 10
        if STANDARD_TABLEAU.is_natural(tp) or STANDARD_TABLEAU.is_natural(tb):
            tally.natural[_result(tb, tp)] += weight * tally.pad[4]
            continue
        hand = hand_index[tb if model == "A1" else bpair]
        # Which slots carry the Player's drawing (and standing) weight: the tableau's rule, except p_i on 5.
        slot = 1 + (PLAYER_FIVES.index(pair) if model == "B3" and tp == 5 else 0)
        if tp == 5:
            tally.fives_seen[slot - 1] = True
            draws, stands = [(slot, 1)], [(0, 1), (slot, -1)]
        else:
            forced = STANDARD_TABLEAU.player_draws(tp)
            draws, stands = ([(0, 1)], []) if forced else ([], [(0, 1)])
        # by_banker[t]: the weight of the Banker's third card bringing him to t (card value t − tb).
        by_banker = [left[(t - tb) % 10] for t in range(10)]
        if stands:
            _add(tally.acc, hand * 11 + STOOD, _stood(tally, weight, tp, tb, by_banker), stands)
        if draws:
            for y in range(10):
                if left[y]:
                    _add(tally.acc, hand * 11 + y, _drew(tally, weight * left[y], tp, tb, y, by_banker), draws)
    return _finish(tally, shoe)


def _four_cards(
    counts: Sequence[int], infinite: bool
) -> Iterator[tuple[tuple[int, int], tuple[int, int], int, list[int]]]:
    """Each pair of two-card hands (Player, Banker) the shoe can deal, the weight of its ordered deals, what is left."""

    def take(left: list[int], value: int) -> tuple[int, list[int]]:
        """The weight of drawing ``value`` next, and what is left (nothing changes on the infinite deck)."""
        weight = left[value]
        if infinite or weight == 0:
            return weight, left
        rest = list(left)
        rest[value] -= 1
        return weight, rest

    for pair in PAIRS:
        for bpair in PAIRS:
            weight, left = 1, list(counts)
            for value in (*pair, *bpair):
                w, left = take(left, value)
                weight *= w
            if weight:
                # The ordered deals P1, B1, P2, B2 that give these two unordered pairs all share this weight.
                weight *= (1 if pair[0] == pair[1] else 2) * (1 if bpair[0] == bpair[1] else 2)
                yield pair, bpair, weight, left


def _stood(tally: _Tally, weight: int, tp: int, tb: int, by_banker: list[int]) -> list[list[int]]:
    """The Player stood on ``tp``: the outcome counts when the Banker (``tb``) stands, then when he draws."""
    amounts = [[0, 0, 0], [0, 0, 0]]
    amounts[0][_result(tb, tp)] += weight * tally.pad[4]
    unit = weight * tally.pad[5]
    # Against the Player's total tp: the Banker wins above it, ties on it, loses below.
    above, level, below = _split(by_banker, tp)
    amounts[1][BANKER_WIN] += unit * above
    amounts[1][TIE] += unit * level
    amounts[1][PLAYER_WIN] += unit * below
    return amounts


def _drew(tally: _Tally, weight: int, tp: int, tb: int, y: int, by_banker: list[int]) -> list[list[int]]:
    """The Player drew a ``y`` on ``tp`` (``weight`` includes the draw): the counts when the Banker stands, draws."""
    t3 = (tp + y) % 10
    amounts = [[0, 0, 0], [0, 0, 0]]
    amounts[0][_result(tb, t3)] += weight * tally.pad[5]
    unit = weight * tally.pad[6]
    above, level, below = _split(by_banker, t3)
    if not tally.infinite:  # the Player's third card (value y) has left the shoe
        banker_total = (tb + y) % 10
        if banker_total > t3:
            above -= 1
        elif banker_total == t3:
            level -= 1
        else:
            below -= 1
    amounts[1][BANKER_WIN] += unit * above
    amounts[1][TIE] += unit * level
    amounts[1][PLAYER_WIN] += unit * below
    return amounts


def _finish(tally: _Tally, shoe: Shoe | None) -> Cells:
    """The counted game: only the cells that occur, and in model B3 only the two-card fives the shoe can deal."""
    model, acc, hands = tally.model, tally.acc, tally.hands
    reachable = [c for c in range(len(hands) * 11) if any(any(row) for row in acc[0][c])]
    # In model B3 a two-card five the shoe cannot deal is no decision at all: drop its slot.
    k = len(acc[0][0][0]) - 1
    kept = [0, *(1 + i for i in range(k) if tally.fives_seen[i] or model != "B3")]
    for action in acc:
        for rows in action:
            for o in range(3):
                rows[o] = [rows[o][j] for j in kept]
    natural = tally.natural
    return Cells(
        model=model,
        shoe=shoe,
        denominator=tally.pad[0],
        players=tuple(hand_label(PLAYER_FIVES[j - 1]) for j in kept[1:]) if model == "B3" else ("5",),
        cells=tuple((hand_label(hands[c // 11]), COLUMNS[c % 11]) for c in reachable),
        totals=tuple(sum(_pair(hands[c // 11])) % 10 for c in reachable),
        natural=(natural[0], natural[1], natural[2]),
        stand=tuple(_freeze(acc[0][c]) for c in reachable),
        draw=tuple(_freeze(acc[1][c]) for c in reachable),
    )


def _split(by_banker: list[int], total: int) -> tuple[int, int, int]:
    """The weights of the Banker's final totals above, equal to and below ``total``."""
    return sum(by_banker[total + 1 :]), by_banker[total], sum(by_banker[:total])


def _pair(hand: tuple[int, int] | int) -> tuple[int, int]:
    return (hand, 0) if isinstance(hand, int) else hand


def _add(acc: list[list[list[list[int]]]], cell: int, amounts: list[list[int]], slots: list[tuple[int, int]]) -> None:
    for action in (0, 1):
        for o in range(3):
            if amounts[action][o]:
                for slot, sign in slots:
                    acc[action][cell][o][slot] += sign * amounts[action][o]


def _freeze(rows: list[list[int]]) -> Affine:
    return (tuple(rows[0]), tuple(rows[1]), tuple(rows[2]))
