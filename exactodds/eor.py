"""Effect of removal: the exact change in each bet's EV when one card leaves the shoe, and count tags.

The effect of removal (EOR) of a card is EV(shoe less that card) − EV(shoe), per unit
staked, exactly. The literature prints it ×10^7. By default there is one row per
baccarat value 0–9; a value-0 row removes a ten (T), or the first of J, Q, K the shoe
holds when it has no ten. Every bet but the pairs depends on values only; the pair bets
depend on ranks, so their value-0 row is the effect of removing that one rank (in a
full shoe of whole decks every rank is alike and removing any one card leaves a pair
bet's EV exactly unchanged). ``by="rank"`` gives one row per rank instead.

Suggested tags for a linear count come from the EORs by :func:`count_tags`: at level L
the EORs are divided by a unit and rounded to the nearest integer (halves away from
zero) so that the largest tag is exactly ±L; of all such units, the one whose tags are
*balanced* (one 52-card deck sums to 0) and then correlate best with the EORs is kept.
The betting correlation is the Pearson correlation of tags and EORs over the cards of
the shoe. This reproduces Jacobson's published Dragon 7 (level 2) and Panda 8 (level 4) tags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Literal, get_args

from .analysis import BetFigures, Rules
from .cards import RANKS, VALUE_RANKS, Rank, Shoe
from .errors import ExactOddsError, shown
from .exact import round_half_away, sqrt_decimal_text
from .game import Game, Settings
from .paytable import Bet
from .puntobanco.rules import PUNTO_BANCO, RuleSet
from .rebate import Rebate

#: The literature's scale for EORs: the change in EV times 10^7.
EOR_SCALE = 10**7
#: The tag levels shown by default (largest tag ±1 … ±4).
DEFAULT_TAG_LEVELS = (1, 2, 3, 4)
#: The layouts of an EOR table: one row per baccarat value 0-9, or one per rank.
EorBy = Literal["value", "rank"]
EOR_BY: tuple[EorBy, ...] = get_args(EorBy)
_DECK_CARDS_PER_RANK = 4


@dataclass(frozen=True)
class Removal:
    """One row of an EOR table: which card is removed and how many cards it stands for.

    ``cards`` counts the cards in the shoe the row's tag applies to (every card of the
    value, or of the rank); ``deck_cards`` the same in one 52-card deck.
    """

    label: str
    rank: Rank | None
    cards: int
    deck_cards: int


@dataclass(frozen=True)
class CountTags:
    """Integer tags for a linear count at one level, and how well they track the EORs.

    >>> t = CountTags(2, (0, 1, -2), Fraction(5), 0, Fraction(81, 100))
    >>> t.balanced, t.correlation_text(2)
    (True, '0.90')
    """

    level: int
    tags: tuple[int, ...]
    #: The EOR per tag point: tag = round(EOR / unit).
    unit: Fraction
    #: The sum of the tags over one 52-card deck (0 for a balanced count).
    deck_sum: int
    #: The betting correlation squared, with the correlation's sign (kept exact).
    signed_correlation_squared: Fraction

    @property
    def balanced(self) -> bool:
        """Whether a full deck counts to zero."""
        return self.deck_sum == 0

    def correlation_text(self, places: int = 4) -> str:
        """The betting correlation as a decimal, rounded exactly."""
        c2 = self.signed_correlation_squared
        text = sqrt_decimal_text(abs(c2), places)
        return "-" + text if c2 < 0 else text


@dataclass(frozen=True)
class BetRemovalEffects:
    """One bet's EOR for each removal row (``None`` where the shoe holds no such card)."""

    bet: Bet
    figures: BetFigures
    depleted: tuple[BetFigures | None, ...]

    @property
    def ev(self) -> Fraction:
        """The bet's EV on the shoe before any removal."""
        return self.figures.ev

    @property
    def effects(self) -> tuple[Fraction | None, ...]:
        """EV(shoe less the card) − EV(shoe), exactly, per removal row."""
        return tuple(None if f is None else f.ev - self.ev for f in self.depleted)

    def scaled(self, factor: int = EOR_SCALE) -> tuple[Fraction | None, ...]:
        """The effects times ``factor`` (10^7 as in the literature)."""
        return tuple(None if e is None else e * factor for e in self.effects)


@dataclass(frozen=True)
class EffectOfRemoval:
    """Exact EORs of several bets on one shoe.

    >>> eor = effect_of_removal(Shoe.standard(8), bets=["player"])
    >>> [round(x) for x in eor.bet("player").scaled()][-3:]  # … less an 8, a 9, a ten
    [533, 249, -178]
    """

    rules: Rules
    shoe: Shoe
    by: EorBy
    removals: tuple[Removal, ...]
    bets: tuple[BetRemovalEffects, ...]
    #: A rebate (``--rebate``): each shoe's EV is also shown with it; the effects and tags stay those of the EV.
    rebate: Rebate | None = None

    def bet(self, bet_id: str) -> BetRemovalEffects:
        """The effects for one bet by id."""
        for effects in self.bets:
            if effects.bet.id == bet_id:
                return effects
        raise ExactOddsError(f"bet {shown(bet_id)!r} was not analysed: have {', '.join(b.bet.id for b in self.bets)}")

    def tags(self, bet_id: str, level: int) -> CountTags | None:
        """Suggested tags for one bet at ``level`` (see :func:`count_tags`)."""
        effects = self.bet(bet_id).effects
        return count_tags(effects, [r.cards for r in self.removals], [r.deck_cards for r in self.removals], level)


#: The values of the rows by value, in order: A, 2, …, 9, then the ten for every 0-valued card, the order of a
#: count's tags everywhere (``--tags``, Jacobson's tables).
VALUE_ROWS: tuple[int, ...] = (*range(1, 10), 0)


def removals(shoe: Shoe, by: EorBy = "value") -> tuple[Removal, ...]:
    """The rows of an EOR table: one per value 0–9 (a ten for 0) or one per rank.

    >>> [r.label for r in removals(Shoe.standard(1))][-3:], removals(Shoe.standard(1))[-1].cards
    (['8', '9', 'T'], 16)
    """
    if by == "rank":
        return tuple(Removal(r.value, r if shoe.count(r) else None, shoe.count(r), _DECK_CARDS_PER_RANK) for r in RANKS)
    if by != "value":
        raise ExactOddsError(f"unknown EOR layout {shown(by)!r}: use one of {', '.join(EOR_BY)}")
    rows = []
    for ranks in (VALUE_RANKS[value] for value in VALUE_ROWS):
        held = [r for r in ranks if shoe.count(r)]
        rank = held[0] if held else None
        label = (rank or ranks[0]).value
        cards = sum(shoe.count(r) for r in ranks)
        rows.append(Removal(label, rank, cards, _DECK_CARDS_PER_RANK * len(ranks)))
    return tuple(rows)


def effect_of_removal(
    shoe: Shoe,
    rules: RuleSet = PUNTO_BANCO,
    bets: Sequence[str | Bet] | None = None,
    *,
    by: EorBy = "value",
) -> EffectOfRemoval:
    """The exact change in each bet of punto banco's EV when one card of each value (or rank) is removed from
    ``shoe``, under ``rules`` (:func:`removal_effects` of any game).

    Costs one analysis of the shoe and one per removal row.

    >>> eor = effect_of_removal(Shoe.standard(8), bets=["tie"])
    >>> [r.label for r in eor.removals][-2:], round(eor.bet("tie").scaled()[-1])
    (['9', 'T'], 5129)
    """
    from .games.punto_banco import GAME

    return removal_effects(GAME, GAME.settings_for(rules), shoe, bets, by=by)


def removal_effects(
    game: Game, settings: Settings, shoe: Shoe, bets: Sequence[str | Bet] | None = None, *, by: EorBy | None = None
) -> EffectOfRemoval:
    """The exact change in each bet's EV when one card of each value (or rank; default the game's rows) is removed
    from ``shoe``: one pricing of the shoe by the game and one per removal row, with its settings' rebate.

    >>> from exactodds.games import find_game
    >>> dragon_tiger = find_game("dragon-tiger")
    >>> eor = removal_effects(dragon_tiger, dragon_tiger.settings_of({}), Shoe.standard(8), ["dragon-big"])
    >>> [r.label for r in eor.removals][:2], round(eor.bet("dragon-big").scaled()[0])
    (['A', '2'], 22243)
    """
    by = game.removal if by is None else by
    if shoe.size <= Shoe.MIN_CARDS:
        raise ExactOddsError(
            f"the effect of removal needs a shoe of at least {Shoe.MIN_CARDS + 1} cards; this one has {shoe.size}"
        )
    rows = removals(shoe, by)
    # Cards leave by value or rank, so "all" means every bet that does not read suits.
    chosen = game.resolve(bets, settings, suits=False)
    base = game.price(shoe, chosen, settings)
    for bet in chosen:
        if bet.needs_suits:
            raise ExactOddsError(
                f"the effect of removal takes cards out by value or rank, and bet {bet.id} depends on their suits:"
                " price it on each depleted shoe with `odds --remove` and a card with its suit (e.g. 7h)"
            )
    depleted = [None if r.rank is None else game.price(shoe.remove([r.rank]), chosen, settings) for r in rows]
    effects = tuple(
        BetRemovalEffects(bet, figures, tuple(None if d is None else d.bets[i] for d in depleted))
        for i, (bet, figures) in enumerate(zip(chosen, base.bets))
    )
    return EffectOfRemoval(base.rules, shoe, by, rows, effects, base.rebate)


def _signed_correlation_squared(effects: Sequence[int], tags: Sequence[int], weights: Sequence[int]) -> Fraction:
    """The squared correlation of tags and effects over the cards, signed like the covariance, in integers.

    With sums S over the cards (weight w each), the covariance, times the total weight W, is
    W·S(et) − S(e)·S(t), and likewise the variances; the squared correlation is the exact
    ratio of those integers. The effects may be scaled by any positive factor (it cancels).
    """
    total = sum(weights)
    s_e = sum(w * e for w, e in zip(weights, effects))
    s_t = sum(w * t for w, t in zip(weights, tags))
    cov = total * sum(w * e * t for w, e, t in zip(weights, effects, tags)) - s_e * s_t
    var_e = total * sum(w * e * e for w, e in zip(weights, effects)) - s_e * s_e
    var_t = total * sum(w * t * t for w, t in zip(weights, tags)) - s_t * s_t
    if cov == 0 or var_e == 0 or var_t == 0:
        return Fraction(0)
    c2 = Fraction(cov * cov, var_e * var_t)
    return c2 if cov > 0 else -c2


def count_tags(
    effects: Sequence[Fraction | None],
    weights: Sequence[int],
    deck_cards: Sequence[int],
    level: int,
) -> CountTags | None:
    """Round EORs to integer tags whose largest magnitude is exactly ``level``.

    Every unit that gives such tags is tried (the rounding only changes where some
    |EOR|/unit is a half-integer, so one unit per interval between those points is
    enough); the tags kept are balanced over a 52-card deck if any such are, and of
    those the ones with the highest betting correlation (exact, over the ``weights``
    cards of each row), then the smallest tags. Rows with no EOR (``None``) get tag 0.
    ``None`` when every EOR is 0.

    >>> from fractions import Fraction as F
    >>> count_tags([F(-1), F(3), F(-2)], [2, 1, 1], [2, 1, 1], 1).tags
    (0, 1, -1)
    """
    if level < 1:
        raise ExactOddsError(f"a tag level must be at least 1, not {level}")
    known = [Fraction(0) if e is None else Fraction(e) for e in effects]
    magnitudes = sorted({abs(e) for e in known if e})
    if not magnitudes:
        return None
    # The effects as integers over their common denominator: the correlation does not see the scale.
    common = lcm(*(e.denominator for e in known))
    scaled = [int(e * common) for e in known]
    points = sorted({m / (k + Fraction(1, 2)) for m in magnitudes for k in range(level + 1)})
    candidates = [(a + b) / 2 for a, b in zip(points, points[1:])]
    best: tuple[tuple[bool, Fraction, int], CountTags] | None = None
    for unit in candidates:
        # e / unit = (s / common) / (a / b) = s·b / (common·a), rounded in integers.
        over = common * unit.numerator
        tags = tuple(round_half_away(s * unit.denominator, over) for s in scaled)
        if max(abs(t) for t in tags) != level:
            continue
        deck_sum = sum(n * t for n, t in zip(deck_cards, tags))
        c2 = _signed_correlation_squared(scaled, tags, weights)
        key = (deck_sum == 0, c2, -sum(abs(t) for t in tags))
        if best is None or key > best[0]:
            best = (key, CountTags(level, tags, unit, deck_sum, c2))
    return None if best is None else best[1]
