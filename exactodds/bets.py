"""Bets as pay tables over coup events, and the catalog of the bets a rule set offers.

A bet is a tuple of outcomes; each outcome is an event (a named predicate on the final
coup state) and its net pay per unit staked. The outcomes of a bet must settle every
possible coup exactly once, which is checked when the bet is made. Adding a bet is one
definition here; the engine never changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .engine import ALL_STATES, CoupState
from .errors import ExactOddsError
from .exact import fraction_text, short_text
from .rules import RuleSet


@dataclass(frozen=True)
class Event:
    """A named condition on how a coup ended.

    >>> BANKER_WINS(CoupState(3, 7, 3, 3, False, False))
    True
    """

    name: str
    test: Callable[[CoupState], bool]

    def __call__(self, state: CoupState) -> bool:
        return self.test(state)

    def __and__(self, other: Event) -> Event:
        return Event(f"{self.name} and {other.name}", lambda s: self.test(s) and other.test(s))

    def __invert__(self) -> Event:
        return Event(f"not {self.name}", lambda s: not self.test(s))


PLAYER_WINS = Event("Player wins", lambda s: s.winner == "player")
BANKER_WINS = Event("Banker wins", lambda s: s.winner == "banker")
TIE = Event("tie", lambda s: s.winner == "tie")
PLAYER_PAIR = Event("Player pair", lambda s: s.player_pair)
BANKER_PAIR = Event("Banker pair", lambda s: s.banker_pair)
BANKER_THREE_CARD_SEVEN = Event(
    "Banker wins with a three-card 7", lambda s: s.winner == "banker" and s.banker_cards == 3 and s.banker_total == 7
)
PLAYER_THREE_CARD_EIGHT = Event(
    "Player wins with a three-card 8", lambda s: s.winner == "player" and s.player_cards == 3 and s.player_total == 8
)
ANY = Event("any coup", lambda s: True)
BANKER_WINS_NOT_THREE_CARD_SEVEN = Event(
    "Banker wins, not with a three-card 7", lambda s: BANKER_WINS(s) and not BANKER_THREE_CARD_SEVEN(s)
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

    @property
    def kind(self) -> str:
        """``win``, ``push`` or ``lose`` by the sign of the net pay."""
        return "win" if self.net > 0 else "lose" if self.net < 0 else "push"

    @property
    def pays(self) -> str:
        """The pay as the tables print it: ``X to 1``, ``push`` or ``lose``."""
        if self.net > 0:
            return f"{short_text(self.net)} to 1"
        return "push" if self.net == 0 else ("lose" if self.net == -1 else f"{fraction_text(self.net)}")


@dataclass(frozen=True)
class Bet:
    """A bet: an id, a description and a pay table of outcomes that settle every coup once.

    >>> bet = Bet("tie", "Tie 8:1", (Outcome("win", TIE, Fraction(8)), Outcome("lose", ~TIE, Fraction(-1))))
    >>> [o.id for o in bet.outcomes]
    ['win', 'lose']
    """

    id: str
    description: str
    outcomes: tuple[Outcome, ...]

    def __post_init__(self) -> None:
        ids = [o.id for o in self.outcomes]
        if len(set(ids)) != len(ids):
            raise ExactOddsError(f"bet {self.id!r} has two outcomes with the same id")
        for state in ALL_STATES:
            hits = [o.id for o in self.outcomes if o.event(state)]
            if len(hits) != 1:
                problem = "settles it twice" if hits else "leaves it unsettled"
                raise ExactOddsError(f"bet {self.id!r} {problem}: coup {state} matches {hits or 'no outcome'}")

    def settle(self, state: CoupState) -> Outcome:
        """The outcome that settles ``state``."""
        for outcome in self.outcomes:
            if outcome.event(state):
                return outcome
        raise AssertionError("unreachable: outcomes cover every state")  # pragma: no cover


def _win_lose(bet_id: str, description: str, event: Event, pays: Fraction) -> Bet:
    return Bet(bet_id, description, (Outcome("win", event, pays), Outcome("lose", ~event, Fraction(-1))))


@lru_cache(maxsize=64)
def main_bets(rules: RuleSet) -> tuple[Bet, Bet, Bet]:
    """The Player, Banker and Tie bets under ``rules``.

    >>> from exactodds.rules import EZ
    >>> player, banker, tie = main_bets(EZ)
    >>> [(o.id, str(o.net)) for o in banker.outcomes]
    [('win', '1'), ('push-three-card-7', '0'), ('push', '0'), ('lose', '-1')]
    """
    player = Bet(
        "player",
        "Player 1:1; pushes on a tie",
        (
            Outcome("win", PLAYER_WINS, Fraction(1)),
            Outcome("push", TIE, Fraction(0)),
            Outcome("lose", BANKER_WINS, Fraction(-1)),
        ),
    )
    banker_outcomes: list[Outcome]
    if rules.banker_three_card_seven_pushes:
        banker_outcomes = [
            Outcome("win", BANKER_WINS_NOT_THREE_CARD_SEVEN, rules.banker_pays),
            Outcome("push-three-card-7", BANKER_THREE_CARD_SEVEN, Fraction(0)),
        ]
    else:
        banker_outcomes = [Outcome("win", BANKER_WINS, rules.banker_pays)]
    commission = f"{short_text(rules.commission * 100)}% commission" if rules.commission else "no commission"
    extra = "; a three-card 7 win pushes" if rules.banker_three_card_seven_pushes else ""
    banker = Bet(
        "banker",
        f"Banker {short_text(rules.banker_pays)}:1 ({commission}{extra}); pushes on a tie",
        (*banker_outcomes, Outcome("push", TIE, Fraction(0)), Outcome("lose", PLAYER_WINS, Fraction(-1))),
    )
    tie = _win_lose("tie", f"Tie {short_text(rules.tie_pays)}:1", TIE, rules.tie_pays)
    return player, banker, tie


SIDE_BETS: tuple[Bet, ...] = (
    _win_lose("player-pair", "Player Pair 11:1: the Player's first two cards share a rank", PLAYER_PAIR, Fraction(11)),
    _win_lose("banker-pair", "Banker Pair 11:1: the Banker's first two cards share a rank", BANKER_PAIR, Fraction(11)),
    _win_lose("dragon-7", "Dragon 7 40:1: the Banker wins with a three-card 7", BANKER_THREE_CARD_SEVEN, Fraction(40)),
    _win_lose("panda-8", "Panda 8 25:1: the Player wins with a three-card 8", PLAYER_THREE_CARD_EIGHT, Fraction(25)),
)


def bet_catalog(rules: RuleSet) -> dict[str, Bet]:
    """Every bet offered under ``rules``, by id, in report order.

    >>> from exactodds.rules import PUNTO_BANCO
    >>> list(bet_catalog(PUNTO_BANCO))
    ['player', 'banker', 'tie', 'player-pair', 'banker-pair', 'dragon-7', 'panda-8']
    """
    return {bet.id: bet for bet in (*main_bets(rules), *SIDE_BETS)}


def find_bet(bet_id: str, rules: RuleSet) -> Bet:
    """Look up a bet by id (case-insensitive), listing the valid ids on error.

    >>> from exactodds.rules import EZ
    >>> find_bet("Dragon-7", EZ).description
    'Dragon 7 40:1: the Banker wins with a three-card 7'
    """
    catalog = bet_catalog(rules)
    key = bet_id.strip().lower().replace("_", "-")
    if key not in catalog:
        raise ExactOddsError(f"unknown bet {bet_id!r}: valid bets are {', '.join(catalog)}")
    return catalog[key]
