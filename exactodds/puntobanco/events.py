"""Punto banco's bets as pay tables over coup events: :class:`Event`, :class:`Bet`, and the common events.

A punto banco event is a named set of final coup states (a bit set over ``ALL_STATES``); a bet
is a pay table (:class:`exactodds.paytable.Bet`) whose outcomes are such events and must settle
every possible coup exactly once, which is checked when the bet is made. A bet on the dealt cards
keeps its conditions as written instead (the card walk prices it). The bets a rule set offers,
and the catalog, are in :mod:`exactodds.puntobanco.bets`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field
from functools import cached_property

from .. import paytable
from ..errors import ExactOddsError
from ..notation import Condition, describe
from ..paytable import Outcome
from ..records import record
from .coup import ALL_STATES, CoupState
from .facts import ALL_MASK, FACTS, STATE_INDEX, card_facts_of, condition, mask_of, reads_suits, states_where


# Not made a dataclass again: it adds no field, so the methods made for paytable.Event serve it as they are (making
# them again would cost every command's start-up about a millisecond).
class Event(paytable.Event):
    """A named set of coup states: how a coup ended for the event to hold.

    ``mask`` is the set as an integer, bit i standing for ``ALL_STATES[i]`` (see
    :func:`~exactodds.puntobanco.facts.states_where`); a test on a :class:`CoupState` may be given
    instead, and is asked once per state when the event is made (only the set is kept).

    >>> BANKER_WINS(CoupState(3, 7, 3, 3, False, False))
    True
    >>> Event("Banker wins", lambda s: s.winner == "banker") == BANKER_WINS
    True
    """

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
        """An event from a condition over coup facts (see :mod:`exactodds.puntobanco.facts`).

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


@record
class Bet(paytable.Bet):
    """A bet of punto banco: an id, a description and a pay table of coup events that settle every coup once.

    >>> from fractions import Fraction
    >>> bet = Bet("tie", "Tie 8:1", (Outcome("win", TIE, Fraction(8)), Outcome("lose", ~TIE, Fraction(-1))))
    >>> [o.id for o in bet.outcomes], bet.needs_suits
    (['win', 'lose'], False)
    """

    #: Whether the settlement depends on the suited-pair flags: some coup settles otherwise once
    #: its suited flags are cleared. Since the outcomes partition the coups, that is exactly when
    #: some outcome's event tells a suited state from its plain twin.
    needs_suits: bool = field(init=False, compare=False, repr=False, default=False)
    #: For a bet on the dealt cards (see :mod:`exactodds.puntobanco.cardwalk.walk`): each outcome's condition as
    #: written (``None``: otherwise). Its events then hold no states (a coup state does not say
    #: which cards were dealt); the card walk prices it and checks, per shoe, that it settles every deal once.
    cards: tuple[Condition | None, ...] | None = field(default=None, repr=False)
    #: With ``cards``: whether outcomes may overlap, the first (in order) that matches a deal settling it, as
    #: the pay overrides of a rule set do; otherwise an overlap is an error (a bets file's outcomes partition).
    first_match: bool = field(default=False, repr=False)

    def __post_init__(self) -> None:
        super().__post_init__()
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
        object.__setattr__(self, "needs_suits", any(reads_suits(o.event.mask) for o in self.outcomes))

    @property
    def reads_cards(self) -> bool:
        """Whether the bet reads the dealt cards (so the card walk prices it, not the coup states)."""
        return self.cards is not None

    @cached_property
    def on_banker(self) -> bool:
        """Whether this is a bet on the Banker: the Player's wins lose it, ties push it, the Banker's wins pay it.

        Read from the pay table alone (no id): the Banker bet of any rule set, with or without a
        commission, and any bet of a bets file written that way; no side bet is one.

        >>> from exactodds.puntobanco.bets import main_bets, find_bet
        >>> from exactodds.puntobanco.rules import PUNTO_BANCO, SUPER_6
        >>> [b.on_banker for b in main_bets(PUNTO_BANCO)], main_bets(SUPER_6)[1].on_banker
        ([False, True, False], True)
        >>> find_bet("dragon-7", PUNTO_BANCO).on_banker
        False
        """
        pays = False
        for outcome, reach in zip(self.outcomes, self._reach()):
            if outcome.multiplier is not None and reach:
                return False
            net = outcome.net
            if (reach & PLAYER_WINS.mask and net != -1) or (reach & TIE.mask and net != 0):
                return False
            if reach & BANKER_WINS.mask:
                if net < 0:
                    return False
                pays = pays or net > 0
        return pays

    def _reach(self) -> list[int]:
        """Per outcome, a set of coup states holding every coup it can settle (exactly its event, on coup states).

        An outcome of a bet on the dealt cards settles only coups its coup facts allow, and its
        ``otherwise`` only coups that no outcome written in coup facts alone takes.
        """
        if self.cards is None:
            return [o.event.mask for o in self.outcomes]
        taken = 0
        for when in self.cards:
            if when is not None and not card_facts_of(when):
                taken |= _coup_part(when)
        return [ALL_MASK & ~taken if when is None else _coup_part(when) for when in self.cards]

    def settle(self, state: CoupState) -> Outcome:
        """The outcome that settles ``state``.

        >>> from exactodds.puntobanco.bets import find_bet
        >>> from exactodds.puntobanco.rules import PUNTO_BANCO
        >>> find_bet("tie", PUNTO_BANCO).settle(CoupState(5, 5, 2, 2, False, False)).id
        'win'
        """
        if self.cards is not None:
            raise ExactOddsError(f"bet {self.id} reads the dealt cards: a coup state alone cannot settle it")
        index = STATE_INDEX.get(state)
        if index is None:
            raise ValueError(f"not a coup state: {state}")
        for outcome in self.outcomes:
            if outcome.event.mask >> index & 1:
                return outcome
        raise AssertionError("unreachable: outcomes cover every state")  # pragma: no cover


def _coup_part(when: Condition) -> int:
    """The coup states an outcome's condition may hold on: its coup facts' states (its card facts left out)."""
    return states_where(tuple(fact for fact in when if fact[0] in FACTS))


def none_of(name: str, named: Sequence[Event]) -> Event:
    """The event that holds when none of ``named`` does (a pay table's "any other coup").

    >>> none_of("no tie", [TIE])(CoupState(3, 7, 3, 3, False, False))
    True
    """
    union = 0
    for event in named:
        union |= event.mask
    return Event(name, ALL_MASK ^ union)
