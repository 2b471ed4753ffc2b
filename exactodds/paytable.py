"""Bets as pay tables over coup events: :class:`Event`, :class:`Outcome`, :class:`Bet`, and the common events.

A bet is a tuple of outcomes; each outcome is an event (a named set of final coup
states) and its net pay per unit staked. The outcomes of a bet must settle every
possible coup exactly once, which is checked when the bet is made. Events, outcomes and
bets are plain data: hashable, equal by value and picklable (to worker processes, say).
A bet's pay table in integers (:class:`IntegerPays`), which every exact figure reads, is
worked out once per bet object. The bets a rule set offers, and the catalog, are in :mod:`exactodds.bets`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import lcm

from .betfile import Multiplier
from .coup import ALL_STATES, CoupState
from .errors import ExactOddsError
from .exact import fraction_text, short_text
from .facts import (
    ALL_MASK,
    STATE_INDEX,
    Condition,
    card_facts_of,
    condition,
    describe,
    mask_of,
    reads_suits,
    states_where,
)


@dataclass(frozen=True, init=False)
class Event:
    """A named set of coup states: how a coup ended for the event to hold.

    ``mask`` is the set as an integer, bit i standing for ``ALL_STATES[i]`` (see
    :func:`~exactodds.facts.states_where`); a test on a :class:`CoupState` may be given
    instead, and is asked once per state when the event is made (only the set is kept).

    >>> BANKER_WINS(CoupState(3, 7, 3, 3, False, False))
    True
    >>> Event("Banker wins", lambda s: s.winner == "banker") == BANKER_WINS
    True
    """

    name: str
    #: The states where the event holds, as a bit set over ALL_STATES.
    mask: int = field(repr=False)

    def __init__(self, name: str, mask: int | Callable[[CoupState], object]) -> None:
        if callable(mask):
            test = mask
            mask = mask_of([bool(test(state)) for state in ALL_STATES])
        if isinstance(mask, bool) or not isinstance(mask, int) or not 0 <= mask <= ALL_MASK:
            top = f"2**{len(ALL_STATES)} - 1"
            raise ExactOddsError(f"event {name!r}: a set of coup states is an integer from 0 to {top}, not {mask!r}")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "mask", mask)

    def __call__(self, state: CoupState) -> bool:
        index = STATE_INDEX.get(state)
        if index is None:
            raise ValueError(f"not a coup state: {state}")
        return bool(self.mask >> index & 1)

    def __and__(self, other: Event) -> Event:
        return Event(f"{self.name} and {other.name}", self.mask & other.mask)

    def __or__(self, other: Event) -> Event:
        return Event(f"{self.name} or {other.name}", self.mask | other.mask)

    def __invert__(self) -> Event:
        return Event(f"not {self.name}", ALL_MASK ^ self.mask)

    @property
    def reads_suits(self) -> bool:
        """Whether the event tells some suited pair from the same pair unsuited (so needs a suited shoe).

        >>> Event.where({"suited_pairs": [1, 2]}).reads_suits, PLAYER_PAIR.reads_suits
        (True, False)
        """
        return reads_suits(self.mask)

    @classmethod
    def of_states(cls, name: str, mask: int) -> Event:
        """An event that holds on a given bit set of coup states (see :func:`states_where`).

        >>> Event.of_states("nothing", 0)(CoupState(3, 7, 3, 3, False, False))
        False
        """
        return cls(name, mask)

    def states(self, check: int = ALL_MASK) -> int:
        """The bit set of the states of ``check`` where the event holds."""
        return self.mask & check

    @classmethod
    def where(cls, when: Condition | dict[str, object], name: str | None = None) -> Event:
        """An event from a condition over coup facts (see :mod:`exactodds.facts`).

        >>> Event.where({"winner": "banker", "banker_total": 6}).name
        'winner = banker, banker_total = 6'
        """
        checked = condition(when) if isinstance(when, dict) else when
        return cls(name or describe(checked), states_where(checked))


PLAYER_WINS = Event.where({"winner": "player"}, "Player wins")
BANKER_WINS = Event.where({"winner": "banker"}, "Banker wins")
TIE = Event.where({"winner": "tie"}, "tie")
#: The coups each side wins (a tie: "tie"), by the value of the ``winner`` fact.
BY_WINNER = {"player": PLAYER_WINS, "banker": BANKER_WINS, "tie": TIE}
PLAYER_PAIR = Event.where({"player_pair": True}, "Player pair")
BANKER_PAIR = Event.where({"banker_pair": True}, "Banker pair")
BANKER_THREE_CARD_SEVEN = Event.where(
    {"winner": "banker", "banker_cards": 3, "banker_total": 7}, "Banker wins with a three-card 7"
)
PLAYER_THREE_CARD_EIGHT = Event.where(
    {"winner": "player", "player_cards": 3, "player_total": 8}, "Player wins with a three-card 8"
)
ANY = Event("any coup", ALL_MASK)
BANKER_WINS_NOT_THREE_CARD_SEVEN = Event(
    "Banker wins, not with a three-card 7", BANKER_WINS.mask & ~BANKER_THREE_CARD_SEVEN.mask
)


@dataclass(frozen=True)
class Outcome:
    """One line of a pay table: an outcome id, its event and its net pay per unit staked.

    >>> Outcome("win", PLAYER_WINS, Fraction(1)).kind
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


@dataclass(frozen=True)
class IntegerPays:
    """A pay table in integers: each outcome's expected net pay, squared net pay, win and push chance, scaled.

    With a bet's outcome counts c over n orderings, every exact figure is one integer sum
    over a fixed denominator: E[X] = Σ means·c / (scale·n), E[X²] = Σ squares·c / (scale²·n),
    P(win) = Σ wins·c / (win_scale·n), P(push) = Σ pushes·c / (push_scale·n). ``scale`` is the
    common denominator of the expected net pays (and, with a random multiplier, of the expected
    squares); the other scales are the common denominators of the chances (1 without a multiplier).

    >>> banker = [Outcome("win", BANKER_WINS, Fraction(19, 20)), Outcome("push", TIE, Fraction(0)),
    ...           Outcome("lose", PLAYER_WINS, Fraction(-1))]
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


@dataclass(frozen=True)
class Bet:
    """A bet: an id, a description and a pay table of outcomes that settle every coup once.

    >>> bet = Bet("tie", "Tie 8:1", (Outcome("win", TIE, Fraction(8)), Outcome("lose", ~TIE, Fraction(-1))))
    >>> [o.id for o in bet.outcomes], bet.needs_suits
    (['win', 'lose'], False)
    """

    id: str
    description: str
    outcomes: tuple[Outcome, ...]
    #: Whether the settlement depends on the suited-pair flags: some coup settles otherwise once
    #: its suited flags are cleared. Since the outcomes partition the coups, that is exactly when
    #: some outcome's event tells a suited state from its plain twin.
    needs_suits: bool = field(init=False, compare=False, repr=False, default=False)
    #: For a bet on the dealt cards (see :mod:`exactodds.cardwalk`): each outcome's condition as
    #: written (``None``: otherwise). Its events then hold no states (a coup state does not say
    #: which cards were dealt); the card walk prices it and checks, per shoe, that it settles every deal once.
    cards: tuple[Condition | None, ...] | None = field(default=None, repr=False)
    #: With ``cards``: whether outcomes may overlap, the first (in order) that matches a deal settling it, as
    #: the pay overrides of a rule set do; otherwise an overlap is an error (a bets file's outcomes partition).
    first_match: bool = field(default=False, repr=False)
    #: For a bet of a game with a deal of its own (:mod:`exactodds.family`): that game's name. Its events then hold
    #: no coup states (its outcomes are conditions over that deal's facts, which settle every deal once).
    game: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        ids = [o.id for o in self.outcomes]
        if len(set(ids)) != len(ids):
            raise ExactOddsError(f"bet {self.id!r} has two outcomes with the same id")
        if self.game is not None:  # its game's pay table checked that its outcomes settle every deal once
            return
        if self.cards is not None:
            suited = any(f.suited for when in self.cards for f in card_facts_of(when)) or any(
                name in ("player_suited_pair", "banker_suited_pair", "suited_pairs")
                for when in self.cards
                for name, _ in when or ()
            )
            object.__setattr__(self, "needs_suits", suited)
            return
        # Each outcome's states are a bit set: one pass finds the states seen twice and those never seen.
        seen = twice = 0
        for outcome in self.outcomes:
            twice |= seen & outcome.event.mask
            seen |= outcome.event.mask
        bad = twice | (ALL_MASK & ~seen)
        if bad:
            i = (bad & -bad).bit_length() - 1  # the first bad state, as the tables order them
            hits = [o.id for o in self.outcomes if o.event.mask >> i & 1]
            problem = "settles it twice" if hits else "leaves it unsettled"
            raise ExactOddsError(f"bet {self.id!r} {problem}: coup {ALL_STATES[i]} matches {hits or 'no outcome'}")
        object.__setattr__(self, "needs_suits", any(o.event.reads_suits for o in self.outcomes))

    @cached_property
    def integer_pays(self) -> IntegerPays:
        """The pay table in integers (:class:`IntegerPays`), worked out once per bet: every exact figure reads it.

        >>> tie = Bet("tie", "Tie 8:1", (Outcome("win", TIE, Fraction(8)), Outcome("lose", ~TIE, Fraction(-1))))
        >>> tie.integer_pays.means, tie.integer_pays is tie.integer_pays
        ((8, -1), True)
        """
        return IntegerPays.of(self.outcomes)

    @property
    def reads_cards(self) -> bool:
        """Whether the bet reads the dealt cards (so the card walk prices it, not the coup states)."""
        return self.cards is not None

    def settle(self, state: CoupState) -> Outcome:
        """The outcome that settles ``state``.

        >>> from exactodds.bets import find_bet
        >>> from exactodds.rules import PUNTO_BANCO
        >>> find_bet("tie", PUNTO_BANCO).settle(CoupState(5, 5, 2, 2, False, False)).id
        'win'
        """
        if self.cards is not None or self.game is not None:
            raise ExactOddsError(f"bet {self.id} reads the dealt cards: a coup state alone cannot settle it")
        index = STATE_INDEX.get(state)
        if index is None:
            raise ValueError(f"not a coup state: {state}")
        for outcome in self.outcomes:
            if outcome.event.mask >> index & 1:
                return outcome
        raise AssertionError("unreachable: outcomes cover every state")  # pragma: no cover


def none_of(name: str, named: Sequence[Event]) -> Event:
    """The event that holds when none of ``named`` does (a pay table's "any other coup").

    >>> none_of("no tie", [TIE])(CoupState(3, 7, 3, 3, False, False))
    True
    """
    union = 0
    for event in named:
        union |= event.mask
    return Event(name, ALL_MASK ^ union)
