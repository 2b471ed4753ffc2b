"""A game: the one object every tool takes, as python-chess's tools take any ``Board``.

A :class:`Game` says what it is (its name, aliases, description, usual shoe), declares its
settings once (:attr:`Game.settings`, each an :class:`~exactodds.inputs.Input`: the command
line's option, the API's key, their help and schema), and prices its bets on a shoe under
those settings into the one :class:`~exactodds.analysis.Analysis` every game returns
(:meth:`Game.price`). What only some games can do is a *capability* it declares
(:data:`CAPABILITIES`); a tool asks for the one it needs (:meth:`Game.require`) and a game
without it is refused in one line naming what it lacks, never found out by testing which
kind of game it is. The registry of every game is :mod:`exactodds.games`.

>>> sorted(CAPABILITIES)[:3]
['bets', 'bets-files', 'big-table']
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from .analysis import Analysis, BetFigures, Chart, Counting, Rules
from .betfile import BetSpec
from .cards import Shoe
from .errors import ExactOddsError
from .inputs import REBATE, REBATE_BASIS, Input
from .paytable import Bet
from .rebate import Rebate
from .records import record

if TYPE_CHECKING:
    from .coups import Coups
    from .crosscheck import Citation, Reference
    from .puntobanco.rules import RuleSet

Capability = Literal[
    "bets", "given", "bets-files", "rule-sets", "coups", "simulate", "tags", "edge-sort", "big-table", "solve",
    "infinite-shoe", "countability", "reference", "by-rank", "fixed-pays", "lit-law", "peek", "review",
]

#: What each capability lets a tool do: the words of a refusal (``… needs …``) and of ``exactodds games``.
CAPABILITIES: dict[Capability, str] = {
    "bets": "bets the house takes, priced on a shoe",
    "given": "odds given an event about the dealt cards (--given)",
    "bets-files": "bets of your own, written in its bet notation (--bets-file)",
    "rule-sets": "named rule sets (--rules)",
    "coups": "coups followed card by card (when each ends and who won it; a coup typed whole, checked against the"
    " rules)",
    "simulate": "shoes dealt at random and played by a count (the lab)",
    "tags": "count tags proposed from the effects of removal, for the lab",
    "edge-sort": "edge sorting: the value of knowing the class of the first cards",
    "big-table": "the Player's option on 5 (the big table)",
    "solve": "a solution between its two sides (a game, not bets against the house)",
    "infinite-shoe": "the infinite shoe, priced exactly",
    "countability": "the countability of a pay table (the lab's count, by the effects of removal)",
    "reference": "a second, independent count of every outcome (the report's cross-check)",
    "by-rank": "bets priced on a shoe known by rank alone, cards taken out by rank (the effects of removal, the"
    " tracker)",
    "fixed-pays": "pays that are fixed numbers, as a design searches them (not a law drawn each round)",
    "lit-law": "lit cards with multipliers whose laws are inputs, fitted to advertised RTPs (fit-rtp)",
    "peek": "some of the first four cards shown before the Player or Banker bettor raises (Peek Baccarat)",
    "review": "a table's log reviewed wager by wager: each coup checked, each wager priced and settled (review)",
}


class Tables(NamedTuple):
    """Which reference tables a game has in ``tables/``, and for which shoes (an empty field: none of that kind).

    A named tuple: every game declares its tables as every command starts, and a named tuple's class costs a
    fraction of a dataclass's to make.

    >>> from exactodds.games import find_game
    >>> find_game("punto-banco").tables.eor_decks
    (6, 8)
    """

    #: The deck counts of its par sheets (``par/<game>-…``; punto banco's: one per rule set, and the coup breakdowns).
    par_decks: tuple[int, ...] = ()
    #: Punto banco's rule sets with par sheets, house edge by decks and effect-of-removal tables (``par/``,
    #: ``house-edge/``, ``eor/``); the side-bet catalog is priced under the first.
    rule_sets: tuple[Rules, ...] = ()
    #: The deck counts of the house edge by decks (beside the infinite shoe) and of the cards per coup.
    house_edge_decks: tuple[int, ...] = ()
    #: The deck counts of the effects of removal.
    eor_decks: tuple[int, ...] = ()
    #: The deck counts of the Player's option on 5, priced under the first rule set (``games/big-table-…``).
    option_decks: tuple[int, ...] = ()
    #: The deck counts (finite-shoe models; an infinite-deck model is solved once) and the Banker commissions a
    #: game solved between its sides is solved for, in each information model (``games/<game>-<model>.…``).
    solved_decks: tuple[int, ...] = ()
    commissions: tuple[Fraction, ...] = ()


@record
class Settings:
    """A game's settings as priced: each setting's value (``None``: not given, the game's default), by name.

    Hashable, so that a pricing can be kept per shoe and settings.

    >>> s = Settings("dragon-tiger", (("tie-pays", None),))
    >>> s["tie-pays"] is None, s.given()
    (True, {})
    """

    game: str
    values: tuple[tuple[str, Any], ...] = ()

    def __getitem__(self, name: str) -> Any:
        for key, value in self.values:
            if key == name:
                return value
        raise KeyError(name)

    def given(self) -> dict[str, Any]:
        """The settings given (not ``None``), by name."""
        return {key: value for key, value in self.values if value is not None}


@record(eq=False)
class Game(ABC):
    """A game of the baccarat family, as every tool takes it: what it is, its settings, its capabilities, its bets.

    A game module of :mod:`exactodds.games` makes one (``GAME``); the registry finds it there. A game is one
    object (equal to itself only): a pricing kept per game and shoe finds it by identity.
    """

    name: str
    description: str
    aliases: tuple[str, ...] = ()
    #: Where the game stands in the registry's order (punto banco, the default, first).
    order: int = 100
    #: The decks of its usual shoe (``--decks`` when neither ``--decks`` nor ``--shoe`` is given).
    decks: int = 8
    #: Its settings, each declared once: an option on the command line and a key of a request.
    settings: tuple[Input, ...] = ()
    #: What each setting defaults to, in words, for the help and the docs (a setting not here: none).
    defaults: tuple[tuple[str, str], ...] = ()
    capabilities: frozenset[Capability] = frozenset()
    #: The rows of its effects of removal by default: a card of each baccarat value, or of each rank.
    removal: Literal["value", "rank"] = "rank"
    #: What its bets beyond the default ones are called in ``exactodds bets``.
    more_bets: str = "more bets"
    #: The reference tables made for it in ``tables/``.
    tables: Tables = Tables()
    #: The bets each plot draws when none is named, by kind (a kind not here: its default bets; the first of them
    #: for a plot of one bet).
    plot_bets: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def counting(self) -> Counting | None:
        """What its counts count when its deal is not a baccarat coup's six cards (``None``: ordered six-card draws)."""
        return None

    def has(self, capability: Capability) -> bool:
        """Whether the game has ``capability``."""
        return capability in self.capabilities

    def require(self, capability: Capability, tool: str) -> None:
        """Refuse ``tool`` in one line when the game lacks ``capability``, naming it.

        >>> from exactodds.games import find_game
        >>> find_game("dragon-tiger").require("simulate", "simulate")
        Traceback (most recent call last):
        ...
        exactodds.errors.ExactOddsError: simulate needs shoes dealt at random and played by a count (the lab); ...
        """
        if capability not in self.capabilities:
            raise ExactOddsError(
                f"{tool} needs {CAPABILITIES[capability]}; {self.name} has none (the capability {capability!r}):"
                " exactodds games says what each game offers"
            )

    def setting(self, name: str) -> Input:
        """The setting called ``name``; one the game lacks is an error listing those it has."""
        for setting in self.settings:
            if setting.name == name:
                return setting
        offered = ", ".join(s.shown for s in self.settings) or "none"
        raise ExactOddsError(f"{self.name} has no {Input(name, 'text', '').shown}: its settings are {offered}")

    def default_of(self, name: str) -> str | None:
        """What the setting ``name`` defaults to, in words (``None``: no default to say)."""
        return dict(self.defaults).get(name)

    def settings_of(self, given: Mapping[str, Any]) -> Settings:
        """Its settings with the values ``given`` (by setting name, as read from the inputs), the others ``None``;
        a setting the game lacks is an error naming those it has.

        >>> from exactodds.games import find_game
        >>> find_game("dragon-tiger").settings_of({"tie-pays": "11"})["tie-pays"]
        Fraction(11, 1)
        """
        for name in given:
            if given[name] is not None:
                setting = self.setting(name)
                if setting.kind == "choice" and isinstance(given[name], str):
                    setting.choose(given[name])
        checked = self.check_settings({s.name: given.get(s.name) for s in self.settings})
        return Settings(self.name, tuple((s.name, checked.get(s.name)) for s in self.settings))

    def check_settings(self, values: dict[str, Any]) -> dict[str, Any]:
        """The settings' values as given (texts, words, a file's text) read into what the game prices with; by
        default as they are."""
        return values

    def usual_shoe(self) -> Shoe:
        """Its usual shoe: :attr:`decks` standard decks."""
        return Shoe.standard(self.decks)

    @abstractmethod
    def rules(self, settings: Settings) -> Rules:
        """The rules its analyses are priced under, as the reports show them (the header line, the JSON)."""

    @abstractmethod
    def bets(self, settings: Settings) -> Mapping[str, Bet]:
        """Every bet of the game under ``settings``, by id, in its order (``--bet all``)."""

    def default_bets(self, settings: Settings) -> tuple[str, ...]:
        """The bets priced when none is named: by default every one."""
        return tuple(self.bets(settings))

    @abstractmethod
    def price(
        self, shoe: Shoe, bets: Sequence[str | Bet] | None, settings: Settings, *, given: str | None = None
    ) -> Analysis:
        """Every outcome of each bet (ids or bets; ``None``: :meth:`default_bets`) counted exactly on ``shoe``.

        ``given``, an event about the dealt cards (capability ``given``), conditions every figure on it.
        """

    @abstractmethod
    def resolve(
        self, bets: Sequence[str | Bet] | None, settings: Settings, *, suits: bool = True, cards: bool = True
    ) -> tuple[Bet, ...]:
        """The bets named (ids, ``all``, bets of a file; ``None``: the default bets), as bets of the game; ``all``
        leaves out the bets on suits when ``suits`` is false (shoes known by rank), and those that read each dealt
        card, slow to price on every step of a live shoe, when ``cards`` is false."""

    def count_rows(
        self, shoes: Sequence[Shoe], bets: Sequence[Bet], settings: Settings
    ) -> list[tuple[list[int], int]]:
        """Each shoe's counts of every outcome of ``bets``, side by side, and what they are out of: the rows of a
        batch (a game with a faster batch than :meth:`price` per shoe overrides it)."""
        rows = []
        for shoe in shoes:
            analysis = self.price(shoe, bets, settings)
            rows.append(([o.count for f in analysis.bets for o in f.outcomes], analysis.orderings))
        return rows

    def analysis_of(
        self, shoe: Shoe, bets: Sequence[Bet], settings: Settings, counts: Sequence[int], orderings: int
    ) -> Analysis:
        """The analysis of a row of :meth:`count_rows`: each bet's figures from its outcomes' counts."""
        figures, start = [], 0
        for bet in bets:
            figures.append(BetFigures.of_counts(bet, counts[start : start + len(bet.outcomes)], orderings))
            start += len(bet.outcomes)
        return Analysis(self.rules(settings), shoe, tuple(figures), rebate=settings.given().get("rebate"),
                        counting=self.counting)

    def chart_of(self, shoe: Shoe, settings: Settings) -> Chart | None:
        """The game's decisions on ``shoe`` (a chart, printed after the bets), or ``None`` for a game without."""
        return None

    def definitions(self, settings: Settings) -> tuple[tuple[str, str], ...]:
        """The terms a rules document defines before its rules (card values, a hand's total, the deal), each with its
        meaning, made from the game's data (a game that defines none: empty)."""
        return ()

    def worked_examples(self, bets: Sequence[Bet], settings: Settings) -> dict[tuple[str, str], WorkedExample]:
        """A real coup for each outcome of each bet, by (bet id, outcome id), as a rules document shows them (a game
        that finds none: empty)."""
        return {}

    def reference(self, shoe: Shoe, bets: Sequence[Bet], settings: Settings) -> Reference:
        """Every outcome of ``bets`` counted a second way, independent of :meth:`price` (capability ``reference``):
        the report compares the two counts."""
        self.require("reference", "a second, independent count")
        raise NotImplementedError  # pragma: no cover - a game with the capability counts its own

    def published(self, analysis: Analysis, settings: Settings) -> tuple[Citation, ...]:
        """The published figures about the bets of ``analysis`` on its very shoe and rules, each beside the exact
        value: by default none (a game with a collection of sources answers)."""
        return ()

    def price_infinite(self, bets: Sequence[Bet], settings: Settings) -> tuple[BetFigures, ...]:
        """The bets priced exactly on the infinite shoe, cards drawn with replacement (capability
        ``infinite-shoe``)."""
        self.require("infinite-shoe", "the infinite shoe")
        raise NotImplementedError  # pragma: no cover - a game with the capability prices its own

    def rules_table(self, settings: Settings) -> tuple[str, tuple[tuple[str, str], ...]]:
        """The rules as a report's table shows them: a description, then (rule, value) rows; by default the game's
        description and the rules' JSON values, with the decisions they fix.

        >>> from exactodds.games import find_game
        >>> game = find_game("dragon-tiger")
        >>> game.rules_table(game.settings_of({"tie-pays": "11"}))[1]
        (('name', 'dragon-tiger'), ('tie pays', '11'))
        """
        rules = self.rules(settings)
        values = {**rules.as_dict(), **rules.policy()}
        rows = tuple((key.replace("_", " "), value if isinstance(value, str) else json.dumps(value))
                     for key, value in values.items())
        return self.description, rows

    def plot_default(self, kind: str, settings: Settings) -> tuple[str, ...]:
        """The bets the plot ``kind`` draws when none is named (:attr:`plot_bets`, else the default bets)."""
        return dict(self.plot_bets).get(kind) or self.default_bets(settings)

    def read_bets(self, text: str, name: str) -> tuple[Bet, ...]:
        """The bets of a bets file's text in the game's notation (capability ``bets-files``); ``name`` for errors."""
        self.require("bets-files", "--bets-file")
        raise NotImplementedError  # pragma: no cover - a game with the capability reads its files

    def bet_specs(self) -> Mapping[str, BetSpec]:
        """Its built-in bets as written in the bet notation, by id (to write one back as a bets file)."""
        return {}

    def read_bet_specs(self, text: str, name: str) -> tuple[BetSpec, ...]:
        """The bets of a bets file's text as written in the game's notation (capability ``bets-files``), checked as
        :meth:`read_bets` checks them: to write one back as a bets file, as :meth:`bet_specs` gives the built-in
        ones."""
        self.require("bets-files", "--bets-file")
        raise NotImplementedError  # pragma: no cover - a game with the capability reads its files

    def cards_per_coup(self, shoe: Shoe, settings: Settings) -> Fraction | None:
        """The exact expected number of cards a coup deals on ``shoe``, as the counting lab deals the game
        (capability ``countability``); ``None`` where the lab cannot deal it under ``settings`` (by default: a game
        without the capability)."""
        return None

    def winner_odds(self, shoe: Shoe, settings: Settings) -> dict[str, Fraction] | None:
        """The exact probability of each winner of a coup dealt from ``shoe`` (by the winners of its :meth:`coups`),
        for the scoreboard's odds of the next coup; ``None`` where the game does not price them (by default)."""
        return None

    def coups(self, rules: Rules) -> Coups:
        """How its coups are dealt under ``rules`` (capability ``coups``), for a live shoe's tracker to follow."""
        self.require("coups", "following its coups")
        raise NotImplementedError  # pragma: no cover - a game with the capability follows its own

    def tableau_rules(self, settings: Settings, capability: Capability, tool: str) -> RuleSet:
        """The rule set of punto banco's tableau that it deals by, for ``tool``: one of the tools of that deal (tags,
        simulate, edge-sort, big-table), which needs ``capability``; a game without it is refused in one line.

        >>> from exactodds.games import find_game
        >>> find_game("punto-banco").tableau_rules(find_game("punto-banco").settings_of({}), "tags", "tags").name
        'punto-banco'
        """
        self.require(capability, tool)
        raise NotImplementedError  # pragma: no cover - a game with the capability deals by its own rule set

    def prepare(self, bets: Sequence[Bet], settings: Settings) -> None:  # noqa: B027 - most games build nothing
        """Get ready to price ``bets`` on many shoes in turn (a live shoe): a game whose pricer is built once builds
        it now; by default there is nothing to build."""

    def settings_for(self, rules: Rules, rebate: Rebate | None = None) -> Settings:
        """The settings that price under ``rules`` as they are (and a rebate): how a function of the library that
        takes a game's rules finds its settings; a game that is given its settings only says so."""
        raise ExactOddsError(f"{self.name} is priced under its settings (settings_of), not under rules given as such")

    def rule_sets(self) -> tuple[tuple[str, tuple[str, ...], str, str], ...]:
        """Its named rule sets (capability ``rule-sets``): name, aliases, description and header line of each."""
        self.require("rule-sets", "exactodds rules")
        return ()  # pragma: no cover - a game with the capability lists its own

    def facts(self) -> tuple[tuple[str, str, str], ...]:
        """The facts its bets' conditions are written in: name, values, meaning (``exactodds facts``)."""
        return ()

    def choose_bets(
        self, named: Sequence[str] | None, files: Sequence[Bet] = ()
    ) -> tuple[str | Bet, ...] | None:
        """The bets of ``--bet`` (each id a file defines standing for its bet), then every bet of ``files`` unless
        ``--bet`` named one of them; ``None`` when nothing is named (the game's default bets)."""
        by_id = {bet.id: bet for bet in files}
        chosen: list[str | Bet] = [by_id.get(bet_id, bet_id) for bet_id in named or ()]
        if not any(bet_id in by_id for bet_id in named or ()):
            chosen += files
        return tuple(chosen) or None


class WorkedExample(NamedTuple):
    """A coup that settles an outcome: its cards as written (``P 4H 3S 9D · B KC 5H``), the deal in words (who drew
    and why), and how it ended."""

    cards: str
    deal: str
    result: str


def rebate_setting(values: Mapping[str, Any]) -> dict[str, Any]:
    """The rebate of ``--rebate`` and ``--rebate-basis`` as a setting (``None`` without a rate; a basis alone is an
    error), for every game that takes one."""
    rate, basis = values.get("rebate"), values.get("rebate-basis")
    if rate is None:
        if basis is not None:
            raise ExactOddsError(f"{REBATE_BASIS.shown} says what a rebate is paid on: give the rate with"
                                 f" {REBATE.shown} RATE")
        return {"rebate": None, "rebate-basis": None}
    return {"rebate": Rebate.parse(rate, basis or REBATE_BASIS.choices[0]), "rebate-basis": None}
