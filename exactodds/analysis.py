"""The exact figures of bets on one shoe, for every game: each outcome's count, and from them EV, house edge,
variance, hit frequency.

A game prices its bets (:meth:`~exactodds.game.Game.price`: punto banco by
:func:`~exactodds.puntobanco.odds.analyze`, a game with a deal of its own by its exact count);
this module holds what every pricing returns, the one :class:`Analysis` (with
:class:`BetFigures` and :class:`OutcomeFigures`), and the exact integer sums of the moments
(:func:`scaled_nets`, :func:`moment_sums`), which the JSON output reads too. The parts only some
analyses have are its optional fields: the event given, the mixed policy's scale, the rebate,
the counting convention of a game whose deal is not a baccarat coup's six cards, the chart of a
game's decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from math import gcd
from operator import mul
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar, overload

from .cards import Shoe, falling_factorial
from .errors import ExactOddsError, shown
from .exact import percent_text, sqrt_decimal_text
from .paytable import Bet, Outcome
from .rebate import Rebate, RebateFigures, rebate_figures
from .records import record

_T = TypeVar("_T")

#: GLI-11 §4.8.2: an advertised award must be hit at least once in this many games, or its odds displayed.
GLI_GAMES = 100_000_000


class cached_figure(Generic[_T]):
    """A property worked out on first read and kept, as functools.cached_property but without its lock.

    Python 3.11's takes a lock on every first read, which cost the exact figures of ``--bet all``
    a quarter of their time; the figures are pure (two threads at worst work one out twice, alike).

    >>> class Box:
    ...     @cached_figure
    ...     def value(self) -> int:
    ...         return 41 + 1
    >>> box = Box()
    >>> box.value, box.__dict__
    (42, {'value': 42})
    """

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> cached_figure[_T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> _T | cached_figure[_T]:
        if instance is None:
            return self
        value = self.func(instance)
        instance.__dict__[self.name] = value  # read from there from now on (this descriptor defines no __set__)
        return value


def exact_fraction(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` of two integers, reduced by one gcd and made without the checks of
    ``Fraction``'s constructor (written in Python, they cost it about as much again): every exact figure is one.

    >>> exact_fraction(-38, 40), exact_fraction(0, 7), exact_fraction(6, 3) == 2
    (Fraction(-19, 20), Fraction(0, 1), True)
    """
    if denominator > 0 and _PLAIN:
        g = gcd(numerator, denominator)
        made = _new(Fraction)
        made._numerator, made._denominator = numerator // g, denominator // g  # type: ignore[attr-defined]
        return made
    return Fraction(numerator, denominator)  # a denominator of 0 refused, a negative one's sign moved, as ever


_new = object.__new__
#: Whether a Fraction is the two slots it has been from Python 3.8 to 3.13 at least (else it is made as usual).
_PLAIN = getattr(Fraction, "__slots__", None) == ("_numerator", "_denominator")


@record
class OutcomeFigures:
    """One outcome of a bet on one shoe: its exact count of ordered six-card draws.

    >>> from exactodds.paytable import Outcome
    >>> from exactodds.puntobanco.events import TIE
    >>> o = OutcomeFigures(Outcome("win", TIE, Fraction(8)), 1, 10)
    >>> o.probability, o.contribution
    (Fraction(1, 10), Fraction(4, 5))
    """

    outcome: Outcome
    count: int
    orderings: int

    @property
    def probability(self) -> Fraction:
        """The exact probability of this outcome."""
        return exact_fraction(self.count, self.orderings)

    @property
    def contribution(self) -> Fraction:
        """This outcome's share of the EV: net pay times probability."""
        return self.outcome.mean * self.probability


@record
class BetFigures:
    """Everything exact about one bet on one shoe.

    >>> from exactodds.puntobanco.odds import analyze
    >>> figures = analyze(Shoe.standard(8), bets=["banker"]).bet("banker")
    >>> figures.house_edge_percent(4), figures.sd_text(2)
    ('1.0579%', '0.93')
    """

    bet: Bet
    outcomes: tuple[OutcomeFigures, ...]
    orderings: int

    @classmethod
    def of_counts(cls, bet: Bet, counts: Sequence[int], orderings: int) -> BetFigures:
        """The figures of ``bet`` from each outcome's count (in the order of its outcomes), out of ``orderings``.

        >>> from exactodds.puntobanco.bets import find_bet
        >>> from exactodds.puntobanco.rules import PUNTO_BANCO
        >>> tie = BetFigures.of_counts(find_bet("tie", PUNTO_BANCO), [1, 9], 10)
        >>> tie.outcomes[0] == OutcomeFigures(tie.bet.outcomes[0], 1, 10), tie.ev
        (True, Fraction(-1, 10))
        """
        # Made without the frozen dataclass's __init__ (its per-field setters) and with the outcomes' figures left
        # to their first read (__getattr__ below): analyze makes one a bet, and most callers read only the figures.
        made = object.__new__(cls)
        fields = made.__dict__
        fields["bet"], fields["orderings"], fields["_counts"] = bet, orderings, tuple(counts)
        return made

    if not TYPE_CHECKING:  # (hidden from the type checker, which would take any attribute of the class as valid)

        def __getattr__(self, name: str) -> Any:
            """The outcomes' figures of figures made from counts (:meth:`of_counts`), made on their first read."""
            fields = self.__dict__
            if name != "outcomes" or "_counts" not in fields:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            make, orderings = object.__new__, fields["orderings"]
            outcomes = []
            for outcome, count in zip(fields["bet"].outcomes, fields["_counts"]):
                # The same object as OutcomeFigures(outcome, count, orderings), without the frozen setters.
                figures = make(OutcomeFigures)
                figures.__dict__.update(outcome=outcome, count=count, orderings=orderings)
                outcomes.append(figures)
            fields["outcomes"] = made = tuple(outcomes)
            return made

    @property
    def counts(self) -> tuple[int, ...]:
        """Each outcome's count, in the order of the bet's outcomes (without making the outcomes' figures).

        >>> from exactodds.puntobanco.odds import analyze
        >>> analyze(Shoe.standard(1), bets=["tie"]).bet("tie").counts
        (1372227328, 13285907072)
        """
        return self._counts

    @cached_figure
    def _counts(self) -> tuple[int, ...]:
        """Each outcome's count, in the order of the bet's outcomes (every figure is an integer sum over them)."""
        return tuple(o.count for o in self.outcomes)

    @cached_figure
    def _moments(self) -> tuple[int, int, int]:
        """Integers (L, S1, S2) with E[X] = S1 / (L·n) and E[X²] = S2 / (L²·n), n = orderings.

        L is the common denominator of the net pays, so each sum is one exact integer sum.
        """
        pays, counts = self.bet.integer_pays, self._counts
        return pays.scale, sum(map(mul, pays.means, counts)), sum(map(mul, pays.squares, counts))  # moment_sums

    @cached_figure
    def ev(self) -> Fraction:
        """Expected net win per unit staked."""
        scale, first, _ = self._moments
        return exact_fraction(first, scale * self.orderings)

    @property
    def house_edge(self) -> Fraction:
        """The house edge per hand: −EV per unit staked, coups where the bet pushes counted as bets."""
        return -self.ev

    @cached_figure
    def push_probability(self) -> Fraction:
        """The probability that the bet pushes (its stake is returned: net pay 0, as a ×0 on the pay makes it)."""
        pays = self.bet.integer_pays
        return exact_fraction(scaled_sum(pays.pushes, self._counts), pays.push_scale * self.orderings)

    @property
    def house_edge_per_resolved_bet(self) -> Fraction | None:
        """The house edge per resolved bet: −EV / P(no push), pushes excluded; ``None`` if the bet always pushes.

        This is the usual meaning of "per resolved bet" (Banker 1.1692% at 8 decks, against
        1.0579% per hand); for a bet that never pushes the two are equal.

        >>> from exactodds.puntobanco.odds import analyze
        >>> figures = analyze(Shoe.standard(8), bets=["banker"]).bet("banker")
        >>> percent_text(figures.house_edge_per_resolved_bet, 4)
        '1.1692%'
        """
        resolved = 1 - self.push_probability
        return None if resolved == 0 else self.house_edge / resolved

    @cached_figure
    def variance(self) -> Fraction:
        """Variance of the net win per unit staked: E[X²] − E[X]²."""
        scale, first, second = self._moments
        n = self.orderings
        return exact_fraction(second * n - first * first, scale * scale * n * n)

    @cached_figure
    def hit_frequency(self) -> Fraction:
        """The probability that the bet wins something: P(net > 0), a multiplier's ×0 (or a small ×) not a win."""
        pays = self.bet.integer_pays
        return exact_fraction(sum(map(mul, pays.wins, self._counts)), pays.win_scale * self.orderings)

    @cached_figure
    def pay_law(self) -> tuple[tuple[Fraction, Fraction], ...]:
        """The exact law of the net pay per unit staked, every outcome (and its multiplier's draws) merged: each
        distinct net pay, least first, with its probability.

        >>> from exactodds.betfile import Multiplier
        >>> from exactodds.paytable import Event
        >>> m = Multiplier((Fraction(1), Fraction(2)), (Fraction(1, 2), Fraction(1, 2)))
        >>> won, lost = Outcome("win", Event("tie"), Fraction(8), m), Outcome("lose", Event("else"), Fraction(-1))
        >>> bet = Bet("t", "", (won, lost))
        >>> [(str(v), str(p)) for v, p in BetFigures.of_counts(bet, [1, 3], 4).pay_law]
        [('-1', '3/4'), ('8', '1/8'), ('16', '1/8')]
        """
        law: dict[Fraction, Fraction] = {}
        for o in self.outcomes:
            outcome, probability = o.outcome, o.probability
            m = outcome.multiplier
            draws = [(outcome.net, Fraction(1))] if m is None else [
                (m.paid(outcome.net, v), p) for v, p in zip(m.values, m.probabilities)]
            for net, p in draws:
                if probability * p:
                    law[net] = law.get(net, Fraction(0)) + probability * p
        return tuple(sorted(law.items()))

    def sd_text(self, places: int = 10) -> str:
        """The standard deviation (an irrational in general) as an exactly rounded decimal."""
        return sqrt_decimal_text(self.variance, places)

    def house_edge_percent(self, places: int = 4) -> str:
        """The house edge as a percentage."""
        return percent_text(self.house_edge, places)

    def with_rebate(self, rebate: Rebate) -> RebateFigures:
        """The effective stake and the EV with ``rebate`` (see :mod:`exactodds.rebate`).

        >>> from exactodds.puntobanco.odds import analyze
        >>> figures = analyze(Shoe.standard(8), bets=["banker"]).bet("banker")
        >>> percent_text(figures.with_rebate(Rebate(Fraction(1, 100))).ev_with_rebate, 4)
        '-0.1760%'
        """
        return rebate_figures(self.bet, [o.probability for o in self.outcomes], self.ev, rebate)


def scaled_nets(bet: Bet) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """L, then each outcome's expected net pay times L, and its expected squared net pay times L² (integers).

    Without a multiplier an outcome's expected net is its net and the square is the net's
    square, so L is the common denominator of the net pays; an outcome with a random
    multiplier (:class:`~exactodds.betfile.Multiplier`) brings the denominators of its
    exact moments E[X | outcome] and E[X² | outcome] into L, which keeps both integers.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> scaled_nets(find_bet("banker", PUNTO_BANCO))
    (20, (19, 0, -20), (361, 0, 400))
    """
    pays = bet.integer_pays  # worked out once per bet
    return pays.scale, pays.means, pays.squares


def moment_sums(means: Sequence[int], squares: Sequence[int], counts: Sequence[int]) -> tuple[int, int]:
    """S1 = Σ mean·count and S2 = Σ square·count over a bet's outcomes, scaled as by :func:`scaled_nets`.

    With n orderings, E[X] = S1 / (L·n) and E[X²] = S2 / (L²·n) exactly.

    >>> moment_sums((19, 0, -20), (361, 0, 400), (3, 1, 2))
    (17, 1883)
    """
    return scaled_sum(means, counts), scaled_sum(squares, counts)


def scaled_sum(values: Sequence[int], counts: Sequence[int]) -> int:
    """Σ value·count over a bet's outcomes: one of :func:`moment_sums`, alone (``--fields ev`` needs S1 only).

    >>> scaled_sum((19, 0, -20), (3, 1, 2))
    17
    """
    return sum(map(mul, values, counts))


def require_suits(shoe: Shoe, bets: Iterable[Bet]) -> None:
    """Raise a clear error when a bet on suited pairs meets a shoe known only by rank.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> require_suits(Shoe.parse("A=32,K=32"), [find_bet("perfect-pair", PUNTO_BANCO)])
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: bet perfect-pair needs a shoe with suits; this shoe is known only by rank ...
    """
    if shoe.suited:
        return
    for bet in bets:
        if bet.needs_suits:
            raise ExactOddsError(
                f"bet {bet.id} needs a shoe with suits; this shoe is known only by rank (give it by card,"
                " e.g. --shoe \"AS=8,AH=8,…\", or use --decks N; removing a card by rank alone, e.g. 7"
                " rather than 7h, forgets the suits)"
            )


class Rules(Protocol):
    """The rules an analysis was priced under, as every report shows them: punto banco's
    :class:`~exactodds.puntobanco.rules.RuleSet`, or another game's settings (:meth:`~exactodds.game.Game.rules`)."""

    @property
    def name(self) -> str:
        """The rule set's name (a game with a deal of its own: the game's)."""
        ...

    def header(self) -> str:
        """The rules for the header line: the name, then what the pays and the drawing rules are."""
        ...

    def as_dict(self) -> dict[str, object]:
        """The rules as JSON values (exact fractions as text)."""
        ...

    def policy(self) -> dict[str, str]:
        """The decisions the rules fix for the player, as JSON (punto banco's option on 5: ``player_5``); empty for
        none."""
        ...


class Given(Protocol):
    """An event the figures are conditioned on (punto banco's :class:`~exactodds.puntobanco.given.Given`), in words."""

    @property
    def event(self) -> str:
        """The event as the user wrote it, normalised."""
        ...


class Counting(NamedTuple):
    """What the counts of an analysis count, when not a baccarat coup's ordered six-card draws: ordered draws of the
    ``cards`` a deal takes, and that convention in words. A named tuple, as :class:`Chart`: only the games with a deal
    of their own make one, and a named tuple's class costs every command's start-up a fraction of a dataclass's.

    >>> Counting(2, "ordered draws of the 2 cards dealt").orderings(Shoe.standard(8))
    172640
    """

    cards: int
    convention: str

    def orderings(self, shoe: Shoe) -> int:
        """N(N−1)…(N−k+1): the ordered draws of the k cards a deal takes."""
        return falling_factorial(shoe.size, self.cards)


class Chart(NamedTuple):
    """A game's decisions, printed after its bets: a letter per cell of a table (rows by what the player holds,
    columns by what he sees of the dealer's), and what the letters mean.

    >>> chart = Chart("chart", "total", ("0", "1"), (("5", "DS"),), (("D", "draw"), ("S", "stand")))
    >>> chart.as_json()["cells"]
    {'5': 'DS'}
    """

    title: str
    #: The heading of the rows' labels, and the columns' labels.
    rows: str
    columns: tuple[str, ...]
    #: Each row: its label and its letters, one per column.
    cells: tuple[tuple[str, str], ...]
    legend: tuple[tuple[str, str], ...]

    def as_json(self) -> dict[str, object]:
        """The chart as JSON values: its title, headings, cells by row label and legend."""
        return {
            "title": self.title,
            "rows": self.rows,
            "columns": list(self.columns),
            "cells": dict(self.cells),
            "legend": dict(self.legend),
        }


class BetNote(NamedTuple):
    """A figure a game adds to one bet's (the lit-card games' share of wins holding a lit card): shown after the
    bet's summary, as a row of the report's figures, and under its JSON key in the bet's object.

    >>> BetNote("tie", "lit_share", "wins holding a lit card", "50.00%", "1/2", "1/2").line
    'wins holding a lit card 50.00%'
    """

    bet: str
    key: str
    label: str
    #: The figure for people, and exact (the report's two columns).
    value: str
    exact: str
    #: The JSON value under ``key``.
    data: object

    @property
    def line(self) -> str:
        """The figure in words: its label and value."""
        return f"{self.label} {self.value}"


@record
class Analysis:
    """The figures of several bets of one game on one shoe, under its rules: what every game's pricing returns."""

    rules: Rules
    shoe: Shoe
    bets: tuple[BetFigures, ...]
    #: The event the figures are conditioned on (``--given``), or ``None``.
    given: Given | None = None
    #: With ``given``: the number of ordered six-card draws in which it happens.
    given_count: int | None = None
    #: Under a mixed policy on the Player's 5 (draw with probability n/d): d, the factor by which every
    #: count and the orderings are scaled so that the counts stay integers.
    policy_scale: int = 1
    #: The rebate the reports show each bet's EV with (``--rebate``), or ``None``.
    rebate: Rebate | None = None
    #: What the counts count, for a game whose deal is not a baccarat coup (``None``: ordered six-card draws).
    counting: Counting | None = None
    #: The game's decisions on this shoe under its rules (Lucky Draw's chart), printed after the bets; or ``None``.
    chart: Chart | None = None
    #: Figures the game adds to its bets' (:class:`BetNote`), in order; none for most games.
    notes: tuple[BetNote, ...] = ()

    def rebated(self, figures: BetFigures) -> RebateFigures | None:
        """One bet's figures with the analysis's rebate, or ``None`` without a rebate."""
        return None if self.rebate is None else figures.with_rebate(self.rebate)

    @property
    def orderings(self) -> int:
        """The denominator shared by every count: N(N-1)…(N-5) (or the draws of the cards a game's deal takes), or
        the draws in which the given event happens (times the mixed policy's denominator, if any)."""
        return (self.all_orderings if self.given_count is None else self.given_count) * self.policy_scale

    @property
    def all_orderings(self) -> int:
        """Every ordered draw of the cards a deal takes from the shoe, nothing given."""
        return self.shoe.orderings() if self.counting is None else self.counting.orderings(self.shoe)

    @property
    def given_probability(self) -> Fraction | None:
        """The exact probability of the given event, or ``None`` when nothing is given."""
        return None if self.given_count is None else Fraction(self.given_count, self.all_orderings)

    def notes_of(self, bet_id: str) -> tuple[BetNote, ...]:
        """The figures the game adds to one bet's, in order."""
        return tuple(note for note in self.notes if note.bet == bet_id)

    def bet(self, bet_id: str) -> BetFigures:
        """The figures of one bet by id."""
        for figures in self.bets:
            if figures.bet.id == bet_id:
                return figures
        raise ExactOddsError(f"bet {shown(bet_id)!r} was not analysed: have {', '.join(b.bet.id for b in self.bets)}")
