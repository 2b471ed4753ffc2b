"""A game's coups as a live shoe's tracker follows them: whose hand each card joins, when a coup ends, who won.

A game with the capability ``coups`` gives its :class:`Coups` (:meth:`exactodds.game.Game.coups`): punto
banco's follow its tableau, a game that deals the same cards to the same hands in every coup (Dragon Tiger)
uses :class:`DealtCoups`, made from its :class:`Dealing`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .cards import RANK_POINTS, Rank
from .errors import ExactOddsError
from .roads import Result


@dataclass(frozen=True)
class Hand:
    """A hand of a coup: its name (``player``) and its label, the word that names it in a coup typed whole (``P``;
    its name does too, in any case). Neither is a card: ``T`` is a ten, so the Tiger is ``tiger``."""

    name: str
    label: str

    @property
    def title(self) -> str:
        """Its name as a title: ``Player``."""
        return self.name.replace("-", " ").title()

    @property
    def shown(self) -> str:
        """The hand in a message: ``the Player (P)``, ``the Dragon``."""
        return f"the {self.title}" + ("" if self.label.lower() == self.name.lower() else f" ({self.label})")


#: The Player and the Banker: the hands of a baccarat coup (punto banco's, Three Card Baccarat's).
BACCARAT_HANDS = (Hand("player", "P"), Hand("banker", "B"))
#: The winners of a baccarat coup, and each one's letter on the scoreboard.
BACCARAT_WINNERS = {"banker": "B", "player": "P", "tie": "T"}



@dataclass(frozen=True)
class Coup:
    """A coup dealt to its end: the labels of its hands, each hand's cards (each in deal order) and who won.

    >>> coup = Coup(("P", "B"), (tuple(map(Rank, "239")), tuple(map(Rank, "34"))), "banker")
    >>> coup.text(), len(coup.cards)
    ('P 2 3 9 B 3 4', 5)
    """

    labels: tuple[str, ...]
    hands: tuple[tuple[Rank, ...], ...]
    winner: str

    @property
    def cards(self) -> tuple[Rank, ...]:
        """Every card of the coup, hand by hand."""
        return tuple(card for hand in self.hands for card in hand)

    def text(self) -> str:
        """The coup as typed whole: each hand's label, then its cards."""
        return " ".join(word for label, hand in zip(self.labels, self.hands) for word in (label, *hand))


class Coups(ABC):
    """How a game's coups are dealt card by card, as a live shoe's tracker follows them (the capability ``coups``;
    :meth:`Game.coups`): how many cards the coup in progress takes, whose hand each card joins, who won a coup, and
    whether a coup typed whole is one the game deals."""

    #: The hands, in the order a coup is written; a coup typed whole names each once, by its name or its label.
    hands: tuple[Hand, ...]
    #: Who may win a coup, in the order of a tally: ``player``, ``banker``, ``tie``.
    winners: tuple[str, ...]

    @abstractmethod
    def needs(self, dealt: tuple[Rank, ...]) -> int:
        """How many cards the coup whose first cards are ``dealt`` (in deal order) takes in all; while that is not
        known yet, the most it may take."""

    @abstractmethod
    def split(self, dealt: tuple[Rank, ...]) -> tuple[tuple[Rank, ...], ...]:
        """The cards ``dealt`` (a coup's first cards, or all of them, in deal order), hand by hand."""

    @abstractmethod
    def settle(self, hands: tuple[tuple[Rank, ...], ...]) -> Coup:
        """The coup of a coup typed whole (each hand's cards, in the order of :attr:`hands`), checked against the
        rules: a coup they do not deal is a one-line error."""

    @abstractmethod
    def example(self) -> str:
        """A coup as typed whole, for the help: ``P 2 3 9 B 3 4``."""

    def coup(self, dealt: tuple[Rank, ...]) -> Coup:
        """The coup that the cards ``dealt`` make, all of them dealt, in deal order."""
        return self.settle(self.split(dealt))

    def written(self) -> str:
        """What a coup typed whole holds, in words, for the help: ``the Player's cards, then the Banker's``."""
        first, *others = (hand.title for hand in self.hands)
        return f"the {first}'s cards, then " + ", then ".join(f"the {name}'s" for name in others)

    def progress(self, dealt: tuple[Rank, ...]) -> str:
        """The coup in progress, hand by hand (``P 2 3 · B 9``), or an empty string."""
        split = self.split(dealt)
        return " · ".join(" ".join([hand.label, *cards]) for hand, cards in zip(self.hands, split) if cards)


@dataclass(frozen=True, eq=False)
class DealtCoups(Coups):
    """The coups of a game that deals the same cards to the same hands in every coup (Dragon Tiger: one to the
    Dragon, then one to the Tiger), each won as the game reads its cards.

    >>> coups = DealtCoups((Hand("dragon", "dragon"), Hand("tiger", "tiger")), (0, 1), ("dragon", "tiger", "tie"),
    ...                    lambda cards: "dragon" if cards[0] == "K" else "tiger")
    >>> coups.needs(()), coups.progress((Rank("7"),)), coups.coup((Rank("K"), Rank("7"))).text(), coups.example()
    (2, 'dragon 7', 'dragon K tiger 7', 'dragon 7 tiger K')
    """

    hands: tuple[Hand, ...]
    #: The hand of each card of a coup (an index of :attr:`hands`), in deal order.
    order: tuple[int, ...]
    winners: tuple[str, ...]
    #: Who won a coup, from its cards in deal order.
    winner: Callable[[tuple[Rank, ...]], str]

    def needs(self, dealt: tuple[Rank, ...]) -> int:
        """Every coup takes the same cards."""
        return len(self.order)

    def split(self, dealt: tuple[Rank, ...]) -> tuple[tuple[Rank, ...], ...]:
        """Each card to the hand its place in the deal gives it."""
        return tuple(tuple(c for c, h in zip(dealt, self.order) if h == i) for i in range(len(self.hands)))

    def settle(self, hands: tuple[tuple[Rank, ...], ...]) -> Coup:
        """A coup of as many cards in each hand as the deal gives it, won as the game reads them."""
        for index, (hand, cards) in enumerate(zip(self.hands, hands)):
            held = self.order.count(index)
            if len(cards) != held:
                raise ExactOddsError(f"{hand.shown} holds {held} card{'s' * (held != 1)} in a coup, not {len(cards)}")
        left = [iter(cards) for cards in hands]
        dealt = tuple(next(left[h]) for h in self.order)
        return Coup(tuple(hand.label for hand in self.hands), hands, self.winner(dealt))

    def written(self) -> str:
        """The hands' cards in turn (``the Dragon's card, then the Tiger's``)."""
        text = super().written()
        return text if self.order.count(0) > 1 else text.replace("'s cards,", "'s card,", 1)

    def example(self) -> str:
        """A coup of the cards 7, K, 2, 9, … dealt in turn."""
        sample = tuple(Rank(r) for r in "7K294Q3J8A56"[: len(self.order)])
        return Coup(tuple(hand.label for hand in self.hands), self.split(sample), "").text()


@dataclass(frozen=True)
class Dealing:
    """How the cards of a game made of its deal (:class:`~exactodds.games.dealt.DealtGame`) go to its hands one by
    one, for a live shoe's tracker to follow its coups (the capability ``coups``, as :class:`DealtCoups`): its hands
    as a coup is written, the hand of each card in deal order, and the state the cards end in (whose fact ``winner``
    says who won)."""

    hands: tuple[Hand, ...]
    #: The hand of each card (an index of ``hands``), in deal order.
    order: tuple[int, ...]
    #: The state a coup's cards end in, from their ranks (0 = A … 12 = K) in deal order, on a shoe known by rank.
    state: Callable[[tuple[int, ...]], Any]


def road_result(coup: Coup) -> Result | None:
    """A baccarat coup as the scoreboard reads it (:mod:`exactodds.roads`): the winner's letter, a pair in either hand's
    first two cards (of one rank), and a natural (a hand of two cards worth 8 or 9); ``None`` for another game's coup.

    >>> road_result(Coup(("P", "B"), (tuple(map(Rank, "44")), tuple(map(Rank, "9K"))), "banker"))
    Result(winner='B', banker_pair=False, player_pair=True, natural=True)
    """
    if coup.labels != tuple(h.label for h in BACCARAT_HANDS) or coup.winner not in BACCARAT_WINNERS:
        return None
    player, banker = coup.hands

    def pair(hand: tuple[Rank, ...]) -> bool:
        return len(hand) >= 2 and hand[0] == hand[1]

    natural = any(len(hand) == 2 and (RANK_POINTS[hand[0]] + RANK_POINTS[hand[1]]) % 10 >= 8 for hand in coup.hands)
    return Result(BACCARAT_WINNERS[coup.winner], banker_pair=pair(banker), player_pair=pair(player),  # type: ignore[arg-type]
                  natural=natural)
