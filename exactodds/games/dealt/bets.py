"""The bets and the rules of a game made of its deal, made when one is priced (the game itself,
:class:`~exactodds.games.dealt.DealtGame`, is declared at start-up: its bets are not).

A bet is a pay table whose outcomes are conditions over the deal's facts (:class:`DealtBet`); the
rules are the game's paying settings' values (:class:`DealtRules`). Both read their game through
:class:`Deal`, what they need of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from ...errors import ExactOddsError
from ...exact import fraction_text
from ...notation import Condition
from ...paytable import Bet


class Deal(Protocol):
    """What a dealt game's bets and rules read of their game (a :class:`~exactodds.games.dealt.DealtGame`)."""

    @property
    def name(self) -> str:
        """The game's name."""

    def holds(self, when: Condition, state: Any) -> bool:
        """Whether every fact of ``when`` has one of its values in ``state``."""

    def paying(self, name: str) -> Paying:
        """The paying setting called ``name``."""


class Paying(Protocol):
    """What the rules read of a paying setting (a :class:`~exactodds.games.dealt.Pays`)."""

    def text(self, value: Fraction | str) -> str:
        """The setting in the header line: ``tie 8:1``, ``5% commission``, ``pay table 2``."""


@dataclass(frozen=True)
class DealtBet(Bet):
    """A bet of a dealt game: a pay table whose outcomes are settled by conditions over the deal's facts (``whens``,
    in order; ``None``: otherwise), written in its bets file or in a bets file of yours."""

    whens: tuple[Condition | None, ...] = field(default=(), repr=False, kw_only=True)

    def outcome_of(self, game: Deal, state: object) -> int:
        """The index of the outcome that settles ``state``: the one whose condition holds, else the otherwise one."""
        rest = None
        for k, when in enumerate(self.whens):
            if when is None:
                rest = k
            elif game.holds(when, state):
                return k
        if rest is None:  # the bets were checked to settle every state: only a state they never saw comes here
            raise ExactOddsError(f"bet {self.id!r} of {game.name} settles no outcome on {state}")
        return rest


@dataclass(frozen=True)
class DealtRules:
    """The rules a dealt game is priced under: its name and its paying settings' values (the header line's).

    >>> from exactodds.games import find_game
    >>> rules = DealtRules(find_game("dragon-tiger"), (("tie-pays", Fraction(11)),))
    >>> rules.header(), rules.as_dict()
    ('dragon-tiger · tie 11:1', {'name': 'dragon-tiger', 'tie_pays': '11'})
    """

    game: Deal
    values: tuple[tuple[str, Fraction | str], ...]

    @property
    def name(self) -> str:
        """The game's name."""
        return self.game.name

    def header(self) -> str:
        """The game and its settings, for the header line."""
        return " · ".join([self.game.name, *(self.game.paying(name).text(value) for name, value in self.values)])

    def as_dict(self) -> dict[str, object]:
        """The game's name and settings as JSON values (exact fractions as text)."""
        out: dict[str, object] = {"name": self.game.name}
        out.update((name.replace("-", "_"), value if isinstance(value, str) else fraction_text(value))
                   for name, value in self.values)
        return out

    def policy(self) -> dict[str, str]:
        """A dealt game's decisions are priced by its own settings (its chart), not fixed as a rule set's: none."""
        return {}
