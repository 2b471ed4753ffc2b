"""Published figures per bet (package data ``data/published.toml``, with their sources) and their check.

One home for the figures that the report's cross-checks cite and that the tests compare
with the exact values. A printed figure matches when the exact value rounds to it: its
distance from the printed decimal is at most half a unit of the last printed digit; a
``count`` must match every digit.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources

from ..analysis import BetFigures, OutcomeFigures
from ..cards import Shoe
from ..errors import ExactOddsError
from ..exact import decimal_text, parse_commission, parse_pays, percent_text
from ..paytable import Bet
from .bets import find_bet
from .rules import RuleSet, find_rules

#: The kinds of figure a source prints.
FIGURES = ("count", "probability", "house_edge", "return", "sd", "hit_frequency")


def rules_from_spec(spec: str) -> RuleSet:
    """``punto-banco``, ``punto-banco,commission=4%`` or ``punto-banco,tie-pays=9``: the rule set a figure is for.

    >>> rules_from_spec("punto-banco,commission=4%").commission
    Fraction(1, 25)
    """
    name, *options = spec.split(",")
    rules = find_rules(name)
    for option in options:
        key, _, value = option.partition("=")
        if key == "commission":
            rules = rules.with_commission(parse_commission(value))
        elif key == "tie-pays":
            rules = rules.with_tie_pays(parse_pays(value))
        else:
            raise ExactOddsError(f"unknown rules option {option!r} in a published figure")
    return rules


@dataclass(frozen=True)
class PublishedFigure:
    """One printed figure: the rules and decks it is for, the bet, what it is, the text printed and its source.

    >>> f = PublishedFigure("punto-banco", 8, "banker", "house_edge", "1.0579%", "WoO")
    >>> f.value, f.half_unit
    (Fraction(10579, 1000000), Fraction(1, 2000000))
    """

    rules: str
    decks: int
    bet: str
    figure: str
    printed: str
    source: str

    @property
    def value(self) -> Fraction:
        """The printed decimal, exactly (a trailing % divides by 100)."""
        body = self.printed.removesuffix("%")
        return Fraction(body) / (100 if self.printed.endswith("%") else 1)

    @property
    def half_unit(self) -> Fraction:
        """Half a unit of the last printed digit: the widest distance at which the exact value still rounds to it."""
        body = self.printed.removesuffix("%")
        scale = 100 if self.printed.endswith("%") else 1
        return Fraction(1, 2 * 10 ** len(body.partition(".")[2]) * scale)

    def exact_text(self, figures: BetFigures) -> str:
        """The exact value of this figure, written to the printed precision plus two digits."""
        places = len(self.printed.removesuffix("%").partition(".")[2]) + 2
        if self.figure == "count":
            return str(_win(figures).count)
        if self.figure == "sd":
            return figures.sd_text(places)
        exact = exact_figure(figures, self.figure)
        return percent_text(exact, places) if self.printed.endswith("%") else decimal_text(exact, places)

    def matches(self, figures: BetFigures) -> bool:
        """Whether the exact figures of the bet round to the printed figure (a count: equal).

        >>> from exactodds.puntobanco.odds import analyze
        >>> banker = analyze(Shoe.standard(8), bets=["banker"]).bet("banker")
        >>> PublishedFigure("punto-banco", 8, "banker", "house_edge", "1.0579%", "WoO").matches(banker)
        True
        >>> PublishedFigure("punto-banco", 8, "banker", "house_edge", "1.0580%", "WoO").matches(banker)
        False
        """
        if self.figure == "count":
            return _win(figures).count == int(self.printed)
        if self.figure == "sd":
            # sqrt(variance) rounds to the printed SD exactly when (SD - h)^2 <= variance <= (SD + h)^2.
            low, high = self.value - self.half_unit, self.value + self.half_unit
            return low >= 0 and low**2 <= figures.variance <= high**2
        return abs(exact_figure(figures, self.figure) - self.value) <= self.half_unit

    def applies_to(self, shoe: Shoe, rules: RuleSet, bet: Bet) -> bool:
        """Whether this figure is about ``bet`` on ``shoe`` under ``rules``: the same fresh decks, the same
        tableau and option on 5, and the same pay table (a side bet's figure under EZ rules applies to it
        under punto banco when its pays are the same)."""
        if bet.id != self.bet or shoe != Shoe.standard(self.decks):
            return False
        theirs = rules_from_spec(self.rules)
        if (theirs.tableau, theirs.player_five) != (rules.tableau, rules.player_five):
            return False
        return _pay_table(find_bet(self.bet, theirs)) == _pay_table(bet)


def _pay_table(bet: Bet) -> tuple[tuple[str, str, Fraction], ...]:
    return tuple((o.id, o.event.name, o.net) for o in bet.outcomes)


def _win(figures: BetFigures) -> OutcomeFigures:
    return next(o for o in figures.outcomes if o.outcome.id == "win")


def exact_figure(figures: BetFigures, figure: str) -> Fraction:
    """The exact value of a printed figure other than ``count`` and ``sd`` (an irrational).

    >>> from exactodds.puntobanco.odds import analyze
    >>> exact_figure(analyze(Shoe.standard(8), bets=["player-pair"]).bet("player-pair"), "hit_frequency")
    Fraction(31, 415)
    """
    if figure == "probability":
        return _win(figures).probability
    values = {"house_edge": figures.house_edge, "return": figures.ev, "hit_frequency": figures.hit_frequency}
    if figure not in values:
        raise ExactOddsError(f"unknown published figure {figure!r}: use one of {', '.join(FIGURES)}")
    return values[figure]


@cache
def published_figures() -> tuple[PublishedFigure, ...]:
    """Every published figure of ``data/published.toml``, in file order.

    >>> figures = published_figures()
    >>> len(figures) >= 40, figures[0].source.startswith("Wizard of Odds")
    (True, True)
    """
    text = resources.files("exactodds").joinpath("data/published.toml").read_text(encoding="utf-8")
    figures = []
    for source in tomllib.loads(text)["source"]:
        for row in source["figures"]:
            figure = PublishedFigure(
                row["rules"], row["decks"], row["bet"], row["figure"], row["printed"], source["name"]
            )
            if figure.figure not in FIGURES:
                raise ExactOddsError(f"published.toml: unknown figure {figure.figure!r}")
            figures.append(figure)
    return tuple(figures)
