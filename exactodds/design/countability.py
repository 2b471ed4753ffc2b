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

The figure is the lab's, so only a game with the capability ``countability`` has it; it is read
through the game alone: its batch of counts (:meth:`~exactodds.game.Game.count_rows`), its rows
of removal and the cards its coup deals (:meth:`~exactodds.game.Game.cards_per_coup`). Any other
game's tables show it as not applicable.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd

from ..analysis import BetFigures, OutcomeFigures
from ..cards import Shoe
from ..eor import removals
from ..game import Game, Settings
from ..paytable import Bet

#: Where the cut card sits by default, in cards from the end of the shoe (the lab's default).
DEFAULT_CUT_CARD = 14
#: The shoes priced in one batch of the game's (a progress report after each).
BATCH = 512
#: The fewest cards a coup deals: the most coups a shoe's figure walks is its cards over this.
FEWEST_CARDS_PER_COUP = 4


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
        sizes = [size for size, _ in spread]
        total = 0.0
        n_cards = self.size
        for seen in self.coup_depths():
            remaining = n_cards - float(seen)
            scaled = _interpolate(spread, remaining, sizes) / (remaining - 1) ** 2
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


def _interpolate(points: Sequence[tuple[int, float]], x: float, sizes: Sequence[int] | None = None) -> float:
    """The piecewise-linear value at ``x`` through ``points`` (sorted by size, ``sizes`` their sizes), flat beyond
    the ends; the segment found by bisection, as a shoe of 100 decks has 400 points and 1,000 coups.

    >>> _interpolate([(13, 1.0), (26, 3.0)], 19.5), _interpolate([(13, 1.0), (26, 3.0)], 5)
    (2.0, 1.0)
    """
    if x <= points[0][0]:
        return points[0][1]
    if x > points[-1][0]:
        return points[-1][1]
    k = bisect_left([p[0] for p in points] if sizes is None else sizes, x)  # the first point at or beyond x
    (x0, y0), (x1, y1) = points[k - 1], points[k]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def figures_of(bet: Bet, counts: Sequence[int], orderings: int) -> BetFigures:
    """The exact figures of ``bet`` from its outcomes' counts: any pays, the same counts, no engine.

    >>> from exactodds.games import DEFAULT
    >>> figures_of(DEFAULT.resolve(["tie"], DEFAULT.settings_of({}))[0], (1, 9), 10).ev
    Fraction(-1, 10)
    """
    return BetFigures(bet, tuple(OutcomeFigures(o, n, orderings) for o, n in zip(bet.outcomes, counts)), orderings)


def countability_work(game: Game, bet: Bet, shoe: Shoe) -> tuple[int, int]:
    """The work of ``bet``'s countability on ``shoe``, known before any is done: the shoes :func:`countability`
    prices, and the most coups a pay table's figure walks (``(0, 0)``: none to do). An upper bound: settings the lab
    does not deal are found only when the shoe is priced.

    >>> from exactodds.games import DEFAULT
    >>> countability_work(DEFAULT, DEFAULT.resolve(["tie"], DEFAULT.settings_of({}))[0], Shoe.standard(8))
    (352, 106)
    """
    if not game.has("countability") or bet.needs_suits or bet.reads_cards:
        return 0, 0
    plain = shoe.without_suits()
    whole = gcd(*plain.counts)
    parts = max(0, whole - Shoe.MIN_CARDS // (plain.size // whole))  # the j·B of more than MIN_CARDS cards
    held = sum(row.rank is not None for row in removals(plain, game.removal))
    return parts * (1 + held), (plain.size // FEWEST_CARDS_PER_COUP + 2 if parts else 0)


def countability(
    game: Game, bet: Bet, shoe: Shoe, settings: Settings, cut_card: int = DEFAULT_CUT_CARD,
    progress: Callable[[int], None] | None = None,
) -> Countability | None:
    """The counts behind ``bet``'s countability on ``shoe``; ``None`` where the lab cannot check it: a game without
    the capability ``countability``, a bet on suits or on the dealt cards, or settings the lab does not deal (the
    game's :meth:`~exactodds.game.Game.cards_per_coup` is ``None``: punto banco's holder's choice on 5 or a mixed
    policy).

    Prices the shoes j·B (see the module) and each less one card of every row of the game's effects of removal
    (:func:`~exactodds.eor.removals`), all in one batch (:meth:`~exactodds.game.Game.count_rows`): for punto banco
    at 8 decks, 352 shoes of 12 to 416 cards (:func:`countability_work` counts them), told to ``progress`` a batch
    at a time.
    """
    if not game.has("countability") or bet.needs_suits or bet.reads_cards:
        return None  # as in the lab, which deals by value and settles coup states
    plain = shoe.without_suits()
    whole = gcd(*plain.counts)
    base = tuple(n // whole for n in plain.counts)
    parts = [Shoe(tuple(j * n for n in base)) for j in range(1, whole + 1)]
    parts = [part for part in parts if part.size > Shoe.MIN_CARDS]
    coup = game.cards_per_coup(plain, settings) if parts else None
    if coup is None:
        return None
    # Every shoe at once (the game's batch): each part, then it less one card of each row it holds.
    shoes: list[Shoe] = []
    rows = []
    for part in parts:
        held = [r for r in removals(part, game.removal) if r.rank is not None]
        rows.append(held)
        shoes += [part, *(part.remove([r.rank]) for r in held if r.rank is not None)]
    counted = iter(list(_count_rows(game, shoes, bet, settings, progress)))
    depths = []
    for part, held in zip(parts, rows):
        full = _Counts(*_row(next(counted)))
        removed = tuple((r.cards, _Counts(*_row(next(counted)))) for r in held)
        depths.append(_Depth(part.size, full, removed))
    return Countability(plain.size, cut_card, coup, tuple(depths))


def _count_rows(
    game: Game, shoes: Sequence[Shoe], bet: Bet, settings: Settings, progress: Callable[[int], None] | None
) -> Iterator[tuple[list[int], int]]:
    """The game's batch of counts of ``bet`` on each shoe, :data:`BATCH` shoes at a time, each batch told to
    ``progress``."""
    for start in range(0, len(shoes), BATCH):
        chunk = shoes[start : start + BATCH]
        yield from game.count_rows(chunk, [bet], settings)
        if progress is not None:
            progress(len(chunk))


def _row(row: tuple[list[int], int]) -> tuple[tuple[int, ...], int]:
    """A row of a batch as counts and what they are out of."""
    counts, orderings = row
    return tuple(counts), orderings
