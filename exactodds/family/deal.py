"""A game with a deal of its own, as data: its facts, its settings and its exact count of every way a deal ends.

A :class:`Deal` is what a game of the family brings besides its registry entry
(:mod:`exactodds.variants`): the facts its bets are written in (:class:`DealFact`, as punto banco's
coup facts), the pays a table may change (:class:`Setting`), its bets (a file of the bet notation in
``exactodds/data``) and ``count``, its exact enumerator: for a shoe, the number of ordered draws of
the cards a deal takes that end in each state. Every count of the game is out of
N(N−1)…(N−k+1), k the cards a deal takes (:meth:`Deal.orderings`). Conditions over the facts are
plain data, checked here (:func:`game_condition`); nothing is evaluated as code.

>>> from exactodds.family.dragon_tiger import DRAGON_TIGER
>>> DRAGON_TIGER.orderings(Shoe.standard(8)), [f.name for f in DRAGON_TIGER.facts][:2]
(172640, ['winner', 'dragon_rank'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from ..analysis import Chart, Counting
from ..betfile import OutcomeSpec, Vocabulary
from ..cards import Shoe, falling_factorial
from ..errors import ExactOddsError, unknown_name
from ..exact import fraction_text, short_text
from ..notation import RANK_TEXT, Condition, rank_text, read_condition


@dataclass(frozen=True)
class DealFact:
    """One fact about how a deal of a game ended: its name, meaning, values and how to read it off a state.

    ``suited`` facts need a shoe known by suit (on a shoe known by rank their value is ``None``).
    """

    name: str
    meaning: str
    values: tuple[object, ...]
    read: Callable[[Any], object]
    suited: bool = False


#: A setting's value: a pay or a commission (exact), or the word of a choice (``--pay-table 2``, ``--strategy total``).
SettingValue = Fraction | str


@dataclass(frozen=True)
class Setting:
    """What a table may change, by a command-line option (``--tie-pays``, ``--commission``, ``--pay-table``): its
    outcomes' pays, or the deal itself.

    ``kind`` is ``pays`` (the value is the pay, X to 1), ``commission`` (the value is the house's share of a
    win that pays 1, so the win pays 1 − value) or ``choice`` (the value is a word of ``choices``, the default
    first: the deal's ``count`` reads it, and ``choice_pays`` gives its outcomes' pay by word, if any). The
    default of a pay or a commission is what the game's bets file pays.

    >>> Setting("commission", "commission on Player and Banker wins", "commission", (("player", "win"),)).pays(
    ...     Fraction(3, 100))
    Fraction(97, 100)
    >>> pays = (Fraction(3), Fraction(2))
    >>> table = Setting("pay-table", "the pay table", "choice", (("bet", "win"),), ("1", "2"), pays)
    >>> table.pays(table.choose("2")), table.text("2")
    (Fraction(2, 1), 'pay table 2')
    """

    name: str
    meaning: str
    kind: str
    #: The (bet id, outcome id) pairs it pays.
    outcomes: tuple[tuple[str, str], ...]
    #: A choice's words, the default first.
    choices: tuple[str, ...] = ()
    #: A choice's pay of its outcomes, word by word (as ``choices``).
    choice_pays: tuple[Fraction, ...] = ()

    def __post_init__(self) -> None:
        if (self.kind == "choice") != bool(self.choices) or len(self.choice_pays) not in (0, len(self.choices)):
            raise ExactOddsError(f"setting --{self.name}: a choice has its words (and a pay per word), no other kind")
        if self.kind == "choice" and bool(self.outcomes) != bool(self.choice_pays):
            raise ExactOddsError(f"setting --{self.name}: a choice that pays outcomes gives a pay per word")

    def choose(self, word: str) -> str:
        """The word of a choice as given (``--strategy total``), checked: a near miss is told the closest."""
        if word not in self.choices:
            kind = self.name.replace("-", " ")
            plural = kind.removesuffix("y") + "ies" if kind.endswith("y") else ""
            raise unknown_name(kind, word, self.choices, plural=plural)
        return word

    @property
    def option(self) -> str:
        """The setting as ``exactodds games`` lists it: ``--tie-pays``, or a choice's ``--pay-table 1|2``."""
        return f"--{self.name}" + (f" {'|'.join(self.choices)}" if self.choices else "")

    def pays(self, value: SettingValue) -> Fraction:
        """The net pay of its outcomes when the setting has ``value``."""
        if isinstance(value, str):
            return self.choice_pays[self.choices.index(value)]
        return 1 - value if self.kind == "commission" else value

    def value(self, pays: Fraction) -> SettingValue:
        """The setting's value when its outcomes pay ``pays`` (the inverse of :meth:`pays`; a choice: its default)."""
        if self.kind == "choice":
            return self.choices[0]
        return 1 - pays if self.kind == "commission" else pays

    def text(self, value: SettingValue) -> str:
        """The setting in the header line: ``tie 8:1``, ``5% commission``, ``pay table 2``."""
        if isinstance(value, str):
            return f"{self.name.replace('-', ' ')} {value}"
        if self.kind == "commission":
            return f"{short_text(value * 100)}% commission" if value else "no commission"
        return f"{self.name.removesuffix('-pays').replace('-', ' ')} {short_text(value)}:1"


@dataclass(frozen=True)
class Deal:
    """A game's deal: its facts, its exact enumerator, its bets file and settings, and its usual shoe."""

    #: The game's name (its registry entry's).
    game: str
    #: The cards a deal takes, k: every count is of ordered draws of k cards.
    cards: int
    #: What a count counts, in words (the JSON's ``counting``).
    convention: str
    facts: tuple[DealFact, ...]
    #: Every state a deal can end in (each fact is read off a state).
    states: tuple[Any, ...]
    #: The exact enumerator: for a shoe and the settings, the ordered draws ending in each state (absent: none).
    count: Callable[[Shoe, Mapping[str, SettingValue]], Mapping[Any, int]]
    #: The bets file in ``exactodds/data`` (the bet notation, its conditions over ``facts``).
    bets_file: str
    settings: tuple[Setting, ...] = ()
    #: The decks of its usual shoe (``--decks`` when neither ``--decks`` nor ``--shoe`` is given).
    decks: int = 8
    #: Its decisions for a shoe and the settings, printed after its bets (``None``: a game without decisions).
    chart: Callable[[Shoe, Mapping[str, SettingValue]], Chart] | None = None
    #: The most a bet can lose, in stakes: 1, or 2 where the player may raise his bet (Lucky Draw's Draw bet).
    stakes: int = 1

    def orderings(self, shoe: Shoe) -> int:
        """N(N−1)…(N−k+1): the ordered draws of the k cards a deal takes, which every count is out of."""
        return falling_factorial(shoe.size, self.cards)

    @property
    def counting(self) -> Counting:
        """What its counts count: ordered draws of the cards a deal takes (the analyses' and the JSON's)."""
        return Counting(self.cards, self.convention)

    @cached_property
    def fact(self) -> dict[str, DealFact]:
        """The facts by name."""
        return {f.name: f for f in self.facts}

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """The bet notation's conditions over this deal's facts, checked to settle every state once."""
        return Vocabulary(
            lambda when: game_condition(self, when), lambda bet, outcomes: partition_problem(self, bet, outcomes),
            -self.stakes,
        )

    def holds(self, when: Condition, state: Any) -> bool:
        """Whether every fact of ``when`` has one of its values in ``state``."""
        return all(self.fact[name].read(state) in values for name, values in when)

    def setting(self, name: str) -> Setting:
        """The setting called ``name``."""
        for setting in self.settings:
            if setting.name == name:
                return setting
        offered = ", ".join(f"--{s.name}" for s in self.settings) or "none"
        raise ExactOddsError(f"{self.game} has no --{name}: its settings are {offered}")


def game_condition(deal: Deal, when: Mapping[str, object]) -> Condition:
    """Check a mapping of fact → value (or a list of values: any of them) over ``deal``'s facts.

    >>> from exactodds.family.dragon_tiger import DRAGON_TIGER
    >>> game_condition(DRAGON_TIGER, {"dragon_rank": [8, "t", "K"]})
    (('dragon_rank', ('8', 'T', 'K')),)
    >>> game_condition(DRAGON_TIGER, {"winner": "player"})
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: bad value "player" for fact 'winner' (who won: dragon, tiger or tie): use ...
    """
    return read_condition(
        when, deal.fact.get, lambda name: f"unknown fact {name!r}: the facts of {deal.game} are {', '.join(deal.fact)}",
        _normal, lambda fact, value: any(value == v and type(value) is type(v) for v in fact.values),
    )


def _normal(fact: DealFact, value: object) -> object:
    """A rank as ``A 2 … 9 T J Q K`` (``10`` and the numbers 2-10 too), whatever the case."""
    return rank_text(value) if fact.values == RANK_TEXT else value


def partition_problem(
    deal: Deal, bet_id: str, outcomes: Sequence[OutcomeSpec]
) -> tuple[int | None, str, str] | None:
    """The first outcome (by index) whose condition overlaps an earlier one's, or ``None`` for a state no outcome
    settles (with the bet and why); ``None`` when the conditions (``None``: otherwise) settle every state once.

    The states are those of a shoe known by suit: a bet that reads a suited fact is refused on a shoe known by rank.
    """
    whens = [o.when for o in outcomes]
    what = f"bet {bet_id!r}"
    for state in deal.states:
        matched = [k for k, when in enumerate(whens) if when is not None and deal.holds(when, state)]
        if len(matched) > 1:
            return matched[1], what, f"outcomes {matched[0] + 1} and {matched[1] + 1} overlap: both settle {state}"
        if not matched and all(when is not None for when in whens):
            return None, what, f"no outcome settles {state}; add a case or an outcome with otherwise = true"
    return None


def settings_of(
    deal: Deal, given: Mapping[str, SettingValue], pays: Mapping[tuple[str, str], Fraction]
) -> dict[str, SettingValue]:
    """Every setting's value: the one ``given``, else what the bets file pays (``pays`` by bet and outcome; a
    choice: its first word)."""
    out: dict[str, SettingValue] = {}
    for setting in deal.settings:
        if setting.name in given:
            out[setting.name] = given[setting.name]
        elif setting.kind == "choice":
            out[setting.name] = setting.choices[0]
        else:
            out[setting.name] = setting.value(pays[setting.outcomes[0]])
    unknown = set(given) - set(out)
    if unknown:
        deal.setting(sorted(unknown)[0])  # the error, with the settings the game has
    return out


@dataclass(frozen=True)
class GameRules:
    """The rules a family game is priced under: its name and its settings' values (the rules of its header line).

    >>> from exactodds.family.dragon_tiger import DRAGON_TIGER
    >>> rules = GameRules(DRAGON_TIGER, (("tie-pays", Fraction(11)),))
    >>> rules.header(), rules.as_dict()
    ('dragon-tiger · tie 11:1', {'name': 'dragon-tiger', 'tie_pays': '11'})
    """

    deal: Deal
    settings: tuple[tuple[str, SettingValue], ...]

    @property
    def name(self) -> str:
        """The game's name."""
        return self.deal.game

    def header(self) -> str:
        """The game and its settings, for the header line."""
        parts = [self.deal.game, *(self.deal.setting(name).text(value) for name, value in self.settings)]
        return " · ".join(parts)

    def as_dict(self) -> dict[str, object]:
        """The game's name and settings as JSON values (exact fractions as text)."""
        out: dict[str, object] = {"name": self.deal.game}
        out.update(
            (name.replace("-", "_"), value if isinstance(value, str) else fraction_text(value))
            for name, value in self.settings
        )
        return out

    def policy(self) -> dict[str, str]:
        """A game's decisions are priced by its own settings (its chart), not fixed as a rule set's: none."""
        return {}
