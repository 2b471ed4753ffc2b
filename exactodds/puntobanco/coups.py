"""Punto banco's coups as its tableau deals them, for a live shoe's tracker (:class:`~exactodds.coups.Coups`): how many
cards a coup takes, whose hand each card joins, and a coup typed whole checked against the tableau.

>>> from exactodds.puntobanco.rules import PUNTO_BANCO
>>> tableau_coups(PUNTO_BANCO).settle((tuple(map(Rank, "239")), tuple(map(Rank, "34")))).text()
'P 2 3 9 B 3 4'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Rank
from ..coups import BACCARAT_HANDS, Coup, Coups, Hand
from ..errors import ExactOddsError
from ..memo import IdentityCache
from .rules import RuleSet, Tableau, deal_coup


@dataclass(frozen=True)
class PuntoBancoCoup(Coup):
    """A coup of punto banco dealt to its end: the Player's cards, the Banker's, and who won."""

    @property
    def player(self) -> tuple[Rank, ...]:
        """The Player's cards."""
        return self.hands[0]

    @property
    def banker(self) -> tuple[Rank, ...]:
        """The Banker's cards."""
        return self.hands[1]


def settle(player: tuple[Rank, ...], banker: tuple[Rank, ...], tableaux: tuple[Tableau, ...]) -> PuntoBancoCoup:
    """The coup these hands make, if some tableau of ``tableaux`` deals them; else a one-line error.

    >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU as T
    >>> settle(tuple(map(Rank, "239")), tuple(map(Rank, "34")), (T,)).winner
    'banker'
    >>> settle(tuple(map(Rank, "23")), tuple(map(Rank, "34")), (T,))
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: not a legal coup: with Player 2 3 (5) and Banker 3 4 (7) the tableau deals ...
    """
    # The values in deal order: P1 B1 P2 B2, then the Player's third card, then the Banker's;
    # deal_coup reads a third card only when its side draws, so a missing one is padded with 0.
    values = [r.points for r in (player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:])]
    values += [0] * (6 - len(values))
    dealt = None
    for tableau in tableaux:
        p_total, b_total, p_cards, b_cards = deal_coup(values, tableau)
        if (p_cards, b_cards) == (len(player), len(banker)):
            winner = "player" if p_total > b_total else "banker" if b_total > p_total else "tie"
            return PuntoBancoCoup(_LABELS, (player, banker), winner)
        dealt = (p_cards, b_cards)
    assert dealt is not None
    p2, b2 = (sum(r.points for r in hand[:2]) % 10 for hand in (player, banker))
    raise ExactOddsError(
        f"not a legal coup: with Player {' '.join(player[:2])} ({p2}) and Banker {' '.join(banker[:2])} ({b2})"
        f" the tableau deals the Player {dealt[0]} cards and the Banker {dealt[1]}"
    )


def pending_cards(values: tuple[int, ...], tableau: Tableau) -> int:
    """How many cards the coup whose first cards are worth ``values`` (in deal order) takes in all.

    >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU as T
    >>> pending_cards((9, 0), T), pending_cards((9, 0, 9, 9), T), pending_cards((2, 3, 3, 4, 9), T)
    (6, 4, 5)
    """
    if len(values) < 4:
        return 6  # not known before the four first cards: at most six
    # At k cards, every draw decision that needs only the first k is known; the padding is never read for it.
    _, _, p_cards, b_cards = deal_coup([*values, 0, 0][:6], tableau)
    return p_cards + b_cards


def tableaux(rules: RuleSet) -> tuple[Tableau, ...]:
    """The tableaux a live coup may follow: the rules' own, and with the Player's option on 5 either way when he
    chooses (``best``) or follows a mixed policy.

    >>> from exactodds.puntobanco.rules import BIG_TABLE, PUNTO_BANCO
    >>> len(tableaux(PUNTO_BANCO)), len(tableaux(BIG_TABLE))
    (1, 2)
    """
    if rules.player_five == "best" or rules.player_five_draws is not None:
        return (rules.tableau.with_player_five(True), rules.tableau.with_player_five(False))
    return (rules.tableau,)


_LABELS = tuple(hand.label for hand in BACCARAT_HANDS)


@dataclass(frozen=True, eq=False)
class TableauCoups(Coups):
    """Punto banco's coups as its tableau deals them: Player, Banker, Player, Banker, then the third cards it says.

    Cards dealt one by one follow the rules' tableau; a coup typed whole may follow either choice on 5 where the
    Player has one (:func:`tableaux`).

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> coups = tableau_coups(PUNTO_BANCO)
    >>> cards = tuple(map(Rank, "23349"))
    >>> coups.needs(cards[:4]), coups.progress(cards[:3]), coups.coup(cards).text()
    (5, 'P 2 3 · B 3', 'P 2 3 9 B 3 4')
    """

    rules: RuleSet
    hands: tuple[Hand, ...] = BACCARAT_HANDS
    winners: tuple[str, ...] = ("player", "banker", "tie")

    def needs(self, dealt: tuple[Rank, ...]) -> int:
        """Six cards until the first four are known; then what the tableau deals."""
        return pending_cards(tuple(r.points for r in dealt), self.rules.tableau)

    def split(self, dealt: tuple[Rank, ...]) -> tuple[tuple[Rank, ...], ...]:
        """Cards 1 and 3 to the Player, 2 and 4 to the Banker, then the Player's third if he draws, the Banker's."""
        values = [r.points for r in dealt]
        # A fifth card in progress is always the Player's third: with his two cards only, the coup would have ended.
        drew = len(dealt) > 4 and deal_coup([*values, 0, 0][:6], self.rules.tableau)[2] == 3
        return dealt[0:4:2] + (dealt[4:5] if drew else ()), dealt[1:4:2] + dealt[5 if drew else 4 :]

    def settle(self, hands: tuple[tuple[Rank, ...], ...]) -> PuntoBancoCoup:
        """Two or three cards each, as some tableau of the rules deals them."""
        for hand, cards in zip(self.hands, hands):
            if len(cards) not in (2, 3):
                raise ExactOddsError(f"the {hand.title} holds 2 or 3 cards in a coup, not {len(cards)}")
        return settle(hands[0], hands[1], tableaux(self.rules))

    def coup(self, dealt: tuple[Rank, ...]) -> PuntoBancoCoup:
        """The coup as the rules' own tableau dealt it."""
        player, banker = self.split(dealt)
        return settle(player, banker, (self.rules.tableau,))

    def example(self) -> str:
        """``P 2 3 9 B 3 4``."""
        return "P 2 3 9 B 3 4"

    def written(self) -> str:
        """The hands, checked against the tableau."""
        return f"{super().written()} (checked against the tableau)"


#: Each rule set's coups, made once.
_COUPS: IdentityCache[TableauCoups] = IdentityCache(32)


def tableau_coups(rules: RuleSet) -> TableauCoups:
    """The coups of ``rules``, made once per rule set (a tracker asks for them at every card)."""
    return _COUPS.get(rules, lambda: TableauCoups(rules))
