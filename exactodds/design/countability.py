"""How countable a pay table is: perfect play's gain per shoe, by Griffin's normal approximation from exact EORs.

After n cards of an N-card shoe are seen, the EV of the next coup is, to first order, the
full shoe's EV μ plus the effects of removal of the cards seen. Over random shoes it has mean
μ (exactly) and, with the remaining R = N − n cards a random sample, the variance

    s² = R·(N − R)/(N − 1) · σ²(R),   σ²(R) = Σ_v p_v·(e_v − ē)²

where e_v is the effect of removing one card of value v (p_v its share of the shoe) from a
shoe of R cards (Griffin, *The Theory of Blackjack*, ch. 4, with the EORs of the shoe at that
depth). Perfect play bets when the EV is positive, so in the normal approximation it gains
E[max(0, X)] = s·φ(μ/s) + μ·Φ(μ/s) on each coup. The figure is that gain summed over the
coups of a shoe dealt as the lab deals it: coup k starts after k·c̄ cards (c̄ the exact
expected number of cards a coup uses), until the cut card (C cards from the end) comes out,
then one more coup.

The EORs at depth R are exact ones: those of the shoes j·B (B the shoe's smallest whole
fraction, one card of each rank for standard decks; j = 1 … the number of such fractions),
priced once per bet; a candidate's pays turn each into its EORs by exact arithmetic
(:func:`~exactodds.analysis` of the stored counts), and σ²(R)·(R − 1)², which the linear model
holds constant, is interpolated between them. Only the sums of the normal approximation are
taken in floating point: the figure is an estimate (in units per shoe, 1 unit a bet),
checked against the lab's simulated perfect play.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd

from ..analysis import BetFigures, OutcomeFigures
from ..cards import Shoe, falling_factorial
from ..eor import removals
from ..paytable import Outcome
from ..puntobanco.events import Bet, Event
from ..puntobanco.odds import analyze, analyze_many
from ..puntobanco.rules import RuleSet

#: Where the cut card sits by default, in cards from the end of the shoe (the lab's default).
DEFAULT_CUT_CARD = 14


@dataclass(frozen=True)
class _Counts:
    """A bet's outcome counts on one shoe, out of ``orderings``."""

    counts: tuple[int, ...]
    orderings: int

    def ev(self, bet: Bet) -> Fraction:
        """The EV of ``bet`` (these counts are of its outcomes) on that shoe."""
        return figures_of(bet, self.counts, self.orderings).ev


@dataclass(frozen=True)
class _Depth:
    """One shoe j·B: its size, its counts, and those of each one-card removal with the cards it stands for."""

    size: int
    full: _Counts
    removed: tuple[tuple[int, _Counts], ...]


@dataclass(frozen=True)
class Countability:
    """What a bet's countability is read from on one shoe, for any pays: the counts at every depth and the deal."""

    size: int
    cut_card: int
    cards_per_coup: Fraction
    depths: tuple[_Depth, ...]

    def coup_depths(self) -> list[Fraction]:
        """The cards seen before each coup of a shoe: k·c̄ while the cut card is in, then one more coup."""
        coups = math.floor((self.size - self.cut_card) / self.cards_per_coup) + 2
        return [k * self.cards_per_coup for k in range(coups)]

    def gain(self, bet: Bet, ev: Fraction) -> float:
        """Perfect play's expected gain per shoe on ``bet`` (these pays; ``ev`` its EV on the full shoe)."""
        mu = float(ev)
        spread = [(d.size, _spread(bet, d) * (d.size - 1) ** 2) for d in self.depths]
        total = 0.0
        n_cards = self.size
        for seen in self.coup_depths():
            remaining = n_cards - float(seen)
            scaled = _interpolate(spread, remaining) / (remaining - 1) ** 2
            s = math.sqrt(max(remaining * (n_cards - remaining) / (n_cards - 1) * scaled, 0.0))
            total += normal_gain(mu, s)
        return total


def normal_gain(mu: float, s: float) -> float:
    """E[max(0, X)] for X normal with mean ``mu`` and SD ``s``: s·φ(μ/s) + μ·Φ(μ/s).

    >>> round(normal_gain(0.0, 1.0), 6), normal_gain(-1.0, 0.0)
    (0.398942, 0.0)
    """
    if s <= 0:
        return max(mu, 0.0)
    z = mu / s
    return s * math.exp(-z * z / 2) / math.sqrt(2 * math.pi) + mu * 0.5 * math.erfc(-z / math.sqrt(2))


def _spread(bet: Bet, depth: _Depth) -> float:
    """σ²(R) at one depth: the variance of the EORs over the cards of that shoe, for ``bet``'s pays."""
    base = depth.full.ev(bet)
    effects = [(cards, float(c.ev(bet) - base)) for cards, c in depth.removed]
    mean = sum(w * e for w, e in effects) / depth.size
    return sum(w * (e - mean) ** 2 for w, e in effects) / depth.size


def _interpolate(points: Sequence[tuple[int, float]], x: float) -> float:
    """The piecewise-linear value at ``x`` through ``points`` (sorted by size), flat beyond the ends.

    >>> _interpolate([(13, 1.0), (26, 3.0)], 19.5), _interpolate([(13, 1.0), (26, 3.0)], 5)
    (2.0, 1.0)
    """
    if x <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return points[-1][1]


def figures_of(bet: Bet, counts: Sequence[int], orderings: int) -> BetFigures:
    """The exact figures of ``bet`` from its outcomes' counts: any pays, the same counts, no engine.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> figures_of(find_bet("tie", PUNTO_BANCO), (1, 9), 10).ev
    Fraction(-1, 10)
    """
    return BetFigures(bet, tuple(OutcomeFigures(o, n, orderings) for o, n in zip(bet.outcomes, counts)), orderings)


def cards_per_coup(shoe: Shoe, rules: RuleSet) -> Fraction:
    """The exact expected number of cards a coup deals: 4, plus the chance of each third card.

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> float(cards_per_coup(Shoe.standard(8), PUNTO_BANCO))  # doctest: +ELLIPSIS
    4.9388...
    """
    bets = []
    for side in ("player", "banker"):
        third = Event.where({f"{side}_cards": 3})
        bets.append(Bet(f"{side}-third", "", (Outcome("yes", third, Fraction(1)), Outcome("no", ~third, Fraction(0)))))
    return 4 + sum((f.outcomes[0].probability for f in analyze(shoe.without_suits(), rules, bets).bets), Fraction(0))


def countability(bet: Bet, shoe: Shoe, rules: RuleSet, cut_card: int = DEFAULT_CUT_CARD) -> Countability | None:
    """The counts behind ``bet``'s countability on ``shoe``; ``None`` where the lab cannot check it: a bet on suits
    or on the dealt cards, the holder's choice on 5 or a mixed policy.

    Prices the shoes j·B (see the module) and each less one card of every value (the rows of
    :func:`~exactodds.eor.removals`), all in one batch: for 8 decks, 352 shoes of 12 to 416 cards.
    """
    if bet.needs_suits or bet.reads_cards or rules.player_five == "best" or rules.player_five_draws is not None:
        return None  # as in the lab, which deals by value with one fixed tableau and settles coup states
    plain = shoe.without_suits()
    whole = gcd(*plain.counts)
    base = tuple(n // whole for n in plain.counts)
    parts = [Shoe(tuple(j * n for n in base)) for j in range(1, whole + 1)]
    parts = [part for part in parts if part.size > Shoe.MIN_CARDS]
    if not parts:
        return None
    # Every shoe at once (the compiled batch): each part, then it less one card of each value it holds.
    shoes: list[Shoe] = []
    rows = []
    for part in parts:
        held = [r for r in removals(part) if r.rank is not None]
        rows.append(held)
        shoes += [part, *(part.remove([r.rank]) for r in held if r.rank is not None)]
    counts = iter(analyze_many(shoes, rules, [bet]).bet_counts(bet.id).tolist())
    depths = []
    for part, held in zip(parts, rows):
        full = _Counts(tuple(next(counts)), part.orderings())
        removed = tuple((r.cards, _Counts(tuple(next(counts)), falling_factorial(part.size - 1, 6))) for r in held)
        depths.append(_Depth(part.size, full, removed))
    return Countability(plain.size, cut_card, cards_per_coup(plain, rules), tuple(depths))
