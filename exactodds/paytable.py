"""Bets as pay tables, for every game: :class:`Event`, :class:`Outcome`, :class:`Bet`, and a pay table in integers.

A bet is a tuple of outcomes; each outcome is an event (how a deal of the game ended for it to
hold, named) and its net pay per unit staked, perhaps with a random multiplier. Events, outcomes
and bets are plain data: hashable, equal by value and picklable (to worker processes, say). A
bet's pay table in integers (:class:`IntegerPays`), which every exact figure reads, is worked out
once per bet object. A game refines these: punto banco's events are sets of coup states and its
bets are checked to settle every coup once (:mod:`exactodds.puntobanco.events`); a game with a deal of its own
settles its bets by conditions over its facts (:mod:`exactodds.games.dealt`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from fractions import Fraction
from functools import cached_property
from math import lcm
from typing import Any, NamedTuple

from .betfile import Multiplier
from .errors import ExactOddsError
from .exact import fraction_text, short_text
from .records import record


@record
class Event:
    """What an outcome of a bet is: how a deal ended for it to hold, in words (``name``), and as a set of the game's
    end states where the game keeps them as bits (``mask``; 0 where a game settles its bets by conditions).

    >>> Event("tie").name, Event("tie").mask
    ('tie', 0)
    """

    name: str
    mask: int = field(default=0, repr=False)

@record
class Outcome:
    """One line of a pay table: an outcome id, its event and its net pay per unit staked.

    >>> Outcome("win", Event("Player wins"), Fraction(1)).kind
    'win'
    """

    id: str
    event: Event
    net: Fraction
    #: A random multiplier on the pay (see :class:`~exactodds.betfile.Multiplier`), or ``None``.
    multiplier: Multiplier | None = None

    @property
    def mean(self) -> Fraction:
        """The expected net pay when this outcome happens (the net itself without a multiplier)."""
        return self.net if self.multiplier is None else self.multiplier.mean(self.net)

    @property
    def square(self) -> Fraction:
        """The expected squared net pay when this outcome happens."""
        return self.net**2 if self.multiplier is None else self.multiplier.square(self.net)

    def chance(self, sign: int) -> Fraction:
        """The probability that the net pay has ``sign`` (1 a win, 0 a push, −1 a loss) when this outcome happens."""
        if self.multiplier is not None:
            return self.multiplier.chance(self.net, sign)
        return Fraction((self.net > 0) - (self.net < 0) == sign)

    @property
    def kind(self) -> str:
        """``win``, ``push`` or ``lose`` by the sign of the net pay."""
        return "win" if self.net > 0 else "lose" if self.net < 0 else "push"

    @property
    def pays(self) -> str:
        """The pay as the tables print it: ``X to 1``, ``push`` or ``lose``, then the multiplier if there is one."""
        if self.net > 0:
            text = f"{short_text(self.net)} to 1"
        else:
            text = "push" if self.net == 0 else ("lose" if self.net == -1 else f"{fraction_text(self.net)}")
        return text if self.multiplier is None else f"{text}, {self.multiplier.text()}"


# A named tuple, not a dataclass: the class is made at every start-up, a named tuple's at a fraction of the cost
# of a frozen dataclass's (whose methods are compiled from text).
class IntegerPays(NamedTuple):
    """A pay table in integers: each outcome's expected net pay, squared net pay, win and push chance, scaled.

    With a bet's outcome counts c over n orderings, every exact figure is one integer sum
    over a fixed denominator: E[X] = Σ means·c / (scale·n), E[X²] = Σ squares·c / (scale²·n),
    P(win) = Σ wins·c / (win_scale·n), P(push) = Σ pushes·c / (push_scale·n). ``scale`` is the
    common denominator of the expected net pays (and, with a random multiplier, of the expected
    squares); the other scales are the common denominators of the chances (1 without a multiplier).

    >>> banker = [Outcome("win", Event("Banker wins"), Fraction(19, 20)), Outcome("push", Event("tie"), Fraction(0)),
    ...           Outcome("lose", Event("Player wins"), Fraction(-1))]
    >>> pays = IntegerPays.of(banker)
    >>> pays.scale, pays.means, pays.squares, pays.wins, pays.pushes
    (20, (19, 0, -20), (361, 0, 400), (1, 0, 0), (0, 1, 0))
    """

    scale: int
    means: tuple[int, ...]
    squares: tuple[int, ...]
    win_scale: int
    wins: tuple[int, ...]
    push_scale: int
    pushes: tuple[int, ...]

    @classmethod
    def of(cls, outcomes: Sequence[Outcome]) -> IntegerPays:
        """The integer pays of a pay table's outcomes."""
        scale = lcm(
            *(o.mean.denominator for o in outcomes),
            *(o.square.denominator for o in outcomes if o.multiplier is not None),
        )
        wins = [o.chance(1) for o in outcomes]
        pushes = [o.chance(0) for o in outcomes]
        win_scale = lcm(*(p.denominator for p in wins))
        push_scale = lcm(*(p.denominator for p in pushes))
        return cls(
            scale,
            tuple(int(o.mean * scale) for o in outcomes),
            tuple(int(o.square * scale * scale) for o in outcomes),
            win_scale,
            tuple(int(p * win_scale) for p in wins),
            push_scale,
            tuple(int(p * push_scale) for p in pushes),
        )


@record
class Bet:
    """A bet: an id, a description and a pay table of outcomes that settle every deal of its game once.

    >>> bet = Bet("tie", "Tie 8:1", (Outcome("win", Event("tie"), Fraction(8)), Outcome("lose", Event("no tie"),
    ...           Fraction(-1))))
    >>> [o.id for o in bet.outcomes], bet.needs_suits, bet.integer_pays.means
    (['win', 'lose'], False, (8, -1))
    """

    id: str
    description: str
    outcomes: tuple[Outcome, ...]
    #: Whether the settlement depends on the cards' suits, so that the bet needs a shoe known by suit.
    needs_suits: bool = field(default=False, compare=False, repr=False, kw_only=True)

    def __post_init__(self) -> None:
        ids = [o.id for o in self.outcomes]
        if len(set(ids)) != len(ids):
            raise ExactOddsError(f"bet {self.id!r} has two outcomes with the same id")

    @cached_property
    def integer_pays(self) -> IntegerPays:
        """The pay table in integers (:class:`IntegerPays`), worked out once per bet: every exact figure reads it."""
        return IntegerPays.of(self.outcomes)

    @property
    def reads_cards(self) -> bool:
        """Whether the bet reads the dealt cards themselves, beyond how the deal ended (punto banco's card walk)."""
        return False

    @property
    def on_banker(self) -> bool:
        """Whether the bet is on punto banco's Banker, whose standard rebate counts a win's net pay
        (:mod:`exactodds.rebate`); no bet of another game is."""
        return False


def named_bets(bets: Any) -> Any:
    """The bets a caller named: a string is one bet's id (or ``all``), never its letters; anything else as given.

    >>> named_bets("all"), named_bets(["tie", "banker"]), named_bets(None)
    (('all',), ['tie', 'banker'], None)
    """
    return (bets,) if isinstance(bets, str) else bets
