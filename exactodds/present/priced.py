"""The exact values of the JSON contract for one shoe, written from integer counts (:mod:`.odds_json` lays them out).

:class:`BetPlan` holds what no shoe changes of a bet; :class:`Priced` works out one bet's figures on one
shoe when a key of a cut layout (``batch --fields``) asks for them; :func:`full_texts` writes every value of
the whole contract for a shoe in one pass, sharing the texts that the bets repeat (the probability of a
count, the same in every bet that has it; a hit frequency that is one outcome's probability). Each value
is an exact rational from integers: reduced by one gcd (:func:`~exactodds.exact.ratio_text`), or
rounded once in integers (:func:`~exactodds.exact.decimal_writer`); no float touches one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from math import lcm
from operator import mul
from typing import Any, NamedTuple

from ..analysis import scaled_sum
from ..exact import fraction_text, negated_text, ratio_text
from ..paytable import Bet
from ..rebate import Rebate, stake_weights

#: The keys of the whole contract whose values change from shoe to shoe, in the order :func:`full_texts` writes them:
#: an outcome row's, then a bet's (``outcomes`` is the place of its rows). A layout whose keys are not these, in this
#: order, writes its values key by key (:class:`Priced`).
FULL_OUTCOME_VALUES = ("count", "probability", "probability_decimal", "return", "return_decimal")
FULL_BET_VALUES = ("outcomes", "ev", "house_edge", "variance", "hit_frequency", "ev_decimal", "house_edge_decimal",
                   "variance_decimal", "sd_decimal", "hit_frequency_decimal")
#: Writes ``numerator / denominator`` as a decimal at the layout's precision (:func:`~exactodds.exact.decimal_writer`).
Decimal = Callable[[int, int], str]


def _multiplier_json(outcome: Any) -> dict[str, Any] | None:
    """An outcome's multiplier (values, probabilities, applies, expected net), or ``None`` when it has none."""
    m = outcome.multiplier
    if m is None:
        return None
    return {
        "values": [fraction_text(v) for v in m.values],
        "probabilities": [fraction_text(p) for p in m.probabilities],
        "applies": m.applies,
        "expected_net": fraction_text(outcome.mean),
    }


# A named tuple, not a dataclass: every command that prints JSON makes the class at start-up, and a named tuple's
# costs a fraction of a frozen dataclass's to make (its methods are not compiled from text).
class BetPlan(NamedTuple):
    """What one bet's JSON needs that no shoe changes: its texts, its net pays as integers, which outcomes win.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> plan = BetPlan.of(find_bet("banker", PUNTO_BANCO))
    >>> plan.net_texts, plan.scale, plan.signs, plan.hit
    (('19/20', '0', '-1'), 20, (None, 0, -1), 0)
    """

    id: str
    description: str
    outcome_ids: tuple[str, ...]
    events: tuple[str, ...]
    net_texts: tuple[str, ...]
    nets: tuple[tuple[int, int], ...]  # (numerator, denominator) of each expected net pay (the net pay itself
    # unless a multiplier is attached)
    scale: int  # L, the common denominator of the expected net pays (paytable.IntegerPays)
    scaled: tuple[int, ...]  # each expected net pay times L
    squares: tuple[int, ...]  # each expected squared net pay times L²
    wins: tuple[tuple[int, int], ...]  # (outcome, P(net > 0 | outcome) times hit_scale) where it wins something
    hit_scale: int  # the common denominator of those probabilities (1 without a multiplier)
    signs: tuple[int | None, ...]  # 1, -1 or 0 for an outcome whose net pay is that, else None
    multipliers: tuple[dict[str, Any] | None, ...]  # each outcome's multiplier as JSON, or None
    stakes: tuple[int, ...]  # with a rebate, each outcome's effective stake (rebate.stake_weights) times W, else ()
    stake_scale: int  # W, the common denominator of those effective stakes
    hit: int | None  # the one outcome whose every count wins (the hit frequency is its probability), else None

    @classmethod
    def of(cls, bet: Bet, rebate: Rebate | None = None) -> BetPlan:
        """The plan of ``bet`` (with the effective stakes of ``rebate``'s basis when one is given)."""
        pays = bet.integer_pays
        outcomes = bet.outcomes
        weights = () if rebate is None else stake_weights(bet, rebate.basis)
        stake_scale = lcm(*(w.denominator for w in weights))
        wins = tuple((i, w) for i, w in enumerate(pays.wins) if w)
        return cls(
            bet.id,
            bet.description,
            tuple(o.id for o in outcomes),
            tuple(o.event.name for o in outcomes),
            tuple(fraction_text(o.net) for o in outcomes),
            tuple((o.mean.numerator, o.mean.denominator) for o in outcomes),
            pays.scale,
            pays.means,
            pays.squares,
            wins,
            pays.win_scale,
            tuple(int(o.net) if o.net in (1, -1, 0) and o.multiplier is None else None for o in outcomes),
            tuple(_multiplier_json(o) for o in outcomes),
            tuple(int(w * stake_scale) for w in weights),
            stake_scale,
            wins[0][0] if len(wins) == 1 and wins[0][1] == pays.win_scale else None,
        )


class Priced:
    """One bet on one shoe in integers: counts over n orderings, S1 and S2 (nets scaled by L), the winning count.

    Each figure is worked out when a key first asks for it (``--fields ev`` needs S1 alone).
    It keeps the texts that other keys repeat up to the sign: the house edge is −EV, and the
    return of an outcome paying 1, −1 or 0 is ±1 or 0 times its probability.

    >>> from exactodds.exact import decimal_writer
    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> tie = Priced(BetPlan.of(find_bet("tie", PUNTO_BANCO)), [1, 9], 10, 2, decimal_writer(2))
    >>> tie.ev(False), tie.ev(True), tie.contribution(1, True)
    ('-1/10', '-0.10', '-0.90')
    """

    __slots__ = ("bet", "counts", "n", "places", "decimal", "texts", "_first", "_variance", "_stake")

    def __init__(self, bet: BetPlan, counts: Sequence[int], n: int, places: int, decimal: Decimal) -> None:
        self.bet, self.counts, self.n, self.places, self.decimal = bet, counts, n, places, decimal
        self.texts: dict[object, str] = {}
        self._first: int | None = None
        self._variance: tuple[int, int] | None = None
        self._stake: int | None = None

    def first(self) -> int:
        """S1, the scaled nets times the counts: EV = S1 / (L·n)."""
        if self._first is None:
            self._first = scaled_sum(self.bet.scaled, self.counts)
        return self._first

    def variance(self) -> tuple[int, int]:
        """(S2·n − S1², (L·n)²), whose ratio is the variance."""
        if self._variance is None:
            first, ln = self.first(), self.bet.scale * self.n
            self._variance = scaled_sum(self.bet.squares, self.counts) * self.n - first * first, ln * ln
        return self._variance

    def hits(self) -> tuple[int, int]:
        """(H, hit_scale·n), whose ratio is the hit frequency: H is the count of the outcomes that win, weighted."""
        counts = self.counts
        return sum([counts[i] * w for i, w in self.bet.wins]), self.bet.hit_scale * self.n

    def stake(self) -> int:
        """E, the scaled effective stakes times the counts: effective stake = E / (W·n)."""
        if self._stake is None:
            self._stake = scaled_sum(self.bet.stakes, self.counts)
        return self._stake

    def effective_stake(self) -> str:
        """The effective stake per unit bet of the layout's rebate, exact."""
        return ratio_text(self.stake(), self.bet.stake_scale * self.n)

    def rebate_ev(self, rate: Fraction) -> str:
        """The EV with the rebate, exact: S1/(L·n) + (r/q)·E/(W·n) over one denominator, L·q·W·n."""
        r, q, scale, weights = rate.numerator, rate.denominator, self.bet.scale, self.bet.stake_scale
        return ratio_text(self.first() * q * weights + r * self.stake() * scale, scale * q * weights * self.n)

    def ev(self, decimal: bool) -> str:
        """The EV, as a reduced fraction or a decimal."""
        text = self.texts.get(decimal)
        if text is None:
            first, ln = self.first(), self.bet.scale * self.n
            text = self.decimal(first, ln) if decimal else ratio_text(first, ln)
            self.texts[decimal] = text
        return text

    def probability(self, i: int, decimal: bool) -> str:
        """Outcome ``i``'s probability, as a reduced fraction or a decimal."""
        key = (i, decimal)
        text = self.texts.get(key)
        if text is None:
            c, n = self.counts[i], self.n
            text = self.texts[key] = self.decimal(c, n) if decimal else ratio_text(c, n)
        return text

    def contribution(self, i: int, decimal: bool) -> str:
        """An outcome's share of the EV, net pay times probability."""
        sign = self.bet.signs[i]
        if sign is None:
            (a, b), c = self.bet.nets[i], self.counts[i]
            return self.decimal(a * c, b * self.n) if decimal else ratio_text(a * c, b * self.n)
        if sign == 0:
            return self.decimal(0, 1) if decimal else "0"
        text = self.probability(i, decimal)
        return text if sign == 1 else negated_text(text)


def full_texts(plans: Sequence[BetPlan], counts: Sequence[int], n: int, places: int, decimal: Decimal,
               root: Decimal, rate: Fraction | None = None) -> list[str]:
    """Every bet's values of the whole contract on one shoe, in the order written: each outcome's count,
    probability, probability_decimal, return and return_decimal, then the bet's ev, house_edge, variance,
    hit_frequency, their decimals and sd_decimal (``root`` writes it); with a rebate ``rate``, the effective stake
    and the EV with the rebate. ``counts`` holds every bet's outcome counts side by side, out of ``n``.

    >>> from exactodds.exact import decimal_writer, sqrt_decimal_writer
    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> tie = BetPlan.of(find_bet("tie", PUNTO_BANCO))
    >>> full_texts([tie], [1, 3], 4, 2, decimal_writer(2), sqrt_decimal_writer(2))[:5]
    ['1', '1/4', '0.25', '2', '2.00']
    """
    out: list[str] = []
    add = out.extend
    memo: dict[int, tuple[str, str, str]] = {}  # a count's text and probability (reduced, decimal): bets share them
    zero = decimal(0, 1)
    start = 0
    for plan in plans:
        end = start + len(plan.signs)
        row = counts[start:end]
        start = end
        hit = _outcome_texts(plan, row, n, decimal, memo, zero, out)
        first = sum(map(mul, plan.scaled, row))
        ln = plan.scale * n
        variance, square = sum(map(mul, plan.squares, row)) * n - first * first, ln * ln
        ev, ev_decimal = ratio_text(first, ln), decimal(first, ln)
        if hit is None:
            count, of = sum([row[i] * w for i, w in plan.wins]), plan.hit_scale * n
            hit = "", ratio_text(count, of), decimal(count, of)
        # The house edge is −EV: the digits stay, only the sign flips (exact.negated_text).
        add((ev, negated_text(ev), ratio_text(variance, square), hit[1], ev_decimal, negated_text(ev_decimal),
             decimal(variance, square), root(variance, square), hit[2]))
        if rate is not None:
            priced = Priced(plan, row, n, places, decimal)
            add((priced.effective_stake(), priced.rebate_ev(rate)))
    return out


def _outcome_texts(plan: BetPlan, row: Sequence[int], n: int, decimal: Decimal,
                   memo: dict[int, tuple[str, str, str]], zero: str, out: list[str]) -> tuple[str, str, str] | None:
    """The values of one bet's outcome rows appended to ``out``; returns the texts of the count of the bet's one
    winning outcome (its probability is the hit frequency), if it has one."""
    add = out.extend
    nets, hit = plan.nets, plan.hit
    found = None
    for i, (sign, c) in enumerate(zip(plan.signs, row)):
        texts = memo.get(c)
        if texts is None:
            texts = memo[c] = (str(c), ratio_text(c, n), decimal(c, n))
        if i == hit:
            found = texts
        add(texts)
        if sign == 1:
            add(texts[1:])
        elif sign == -1:  # minus a probability
            add((negated_text(texts[1]), negated_text(texts[2])))
        elif sign == 0:
            add(("0", zero))
        else:
            a, b = nets[i]
            add((ratio_text(a * c, b * n), decimal(a * c, b * n)))
    return found
