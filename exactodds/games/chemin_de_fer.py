"""Chemin de fer: the two-person game punto banco came from, solved exactly between its two sides.

It takes no bets from the house, so it has one capability, ``solve``: its settings are the
information model (what each side sees) and the house's commission on the Banker's wins; its
solver is :mod:`exactodds.chemindefer`.

>>> GAME.rules(GAME.settings_of({"model": "B3", "commission": "5%"})).header()
'chemin-de-fer · model B3 · 5% commission'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..analysis import Analysis
from ..cards import Shoe
from ..chemindefer import GAME as NAME
from ..chemindefer import MODELS
from ..exact import parse_commission
from ..game import Game, Settings, Tables
from ..inputs import COMMISSION, Input
from ..paytable import Bet

if TYPE_CHECKING:
    from ..chemindefer.rules import SolvedRules

MODEL = Input("model", "choice", "What each side sees: A1 infinite deck, totals; B2 the Banker his two cards, the"
              " Player his total; B3 each side his own two cards.", choices=MODELS, default="B2")


# Not made a dataclass again: it adds no field, so the methods made for Game serve it as they are (making
# them again would cost every command's start-up about a millisecond).
class CheminDeFer(Game):
    """Chemin de fer, solved in the information models A1, B2 and B3."""

    def check_settings(self, values: dict[str, Any]) -> dict[str, Any]:
        """The model (B2 by default) and the commission, read exactly (none by default)."""
        rate = values.get("commission")
        return {"model": values.get("model") or MODEL.default, "commission": parse_commission(rate) if rate else None}

    def rules(self, settings: Settings) -> SolvedRules:
        """The model and commission it is solved under."""
        from ..chemindefer.rules import SolvedRules

        return SolvedRules(settings["model"], settings["commission"] or Fraction(0))

    def bets(self, settings: Settings) -> Mapping[str, Bet]:
        """None: the house takes no bet on chemin de fer."""
        return {}

    def resolve(
        self, bets: Sequence[str | Bet] | None, settings: Settings, *, suits: bool = True, cards: bool = True
    ) -> tuple[Bet, ...]:
        """Refused: the house takes no bet on it."""
        self.require("bets", "bets")
        raise AssertionError("unreachable")  # pragma: no cover

    def price(
        self, shoe: Shoe, bets: Sequence[str | Bet] | None, settings: Settings, *, given: str | None = None
    ) -> Analysis:
        """Refused: its expectations are solved between its sides (``exactodds solve``), not priced as bets."""
        self.require("bets", "pricing bets")
        raise AssertionError("unreachable")  # pragma: no cover


GAME = CheminDeFer(
    name=NAME,
    description="Chemin de fer: the two-person game punto banco came from; the Player may draw or stand on 5,"
    " the Banker may choose in every cell; solved exactly.",
    aliases=("chemmy",),
    order=1,
    decks=8,
    settings=(MODEL, COMMISSION),
    defaults=(("commission", "none"),),
    capabilities=frozenset({"solve"}),
    tables=Tables(solved_decks=tuple(range(1, 9)), commissions=(Fraction(0), Fraction(1, 20))),
)
"""Chemin de fer, solved in the information models A1, B2 and B3; its tables for 1-8 decks, without commission and
with 5%."""
