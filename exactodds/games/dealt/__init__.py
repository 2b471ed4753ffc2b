"""A game with a deal of its own, as data: its facts, the settings that pay its bets, and its exact count of every
way a deal ends (Dragon Tiger, Three Card Baccarat, Lucky Draw, a game of your own).

A :class:`DealtGame` is a :class:`~exactodds.game.Game` made of its deal: the facts its bets are
written in (:class:`DealFact`, as punto banco's coup facts), every state a deal can end in, and
``count``, its exact enumerator: for a shoe, the number of ordered draws of the cards a deal takes
that end in each state (every count is out of N(N−1)…(N−k+1)). Its bets are a file of the bet
notation in ``exactodds/data`` (conditions over those facts, checked to settle every state once),
read by the same code as a bets file of yours (``--bets-file``); a setting (:class:`Pays`:
``--tie-pays``, ``--commission``, ``--pay-table``) changes the pays of its outcomes, or the deal.

Every game is declared as every command starts (its settings are the commands' options), so a
declaration holds what the registry and the options read, and what only pricing or a tracker
needs is made when first asked: the states and the dealing are functions the game calls once,
its bets and rules are :mod:`.bets`, its bets file is read on first use.

>>> from exactodds.games import find_game
>>> dragon_tiger = find_game("dragon-tiger")
>>> analysis = dragon_tiger.price(Shoe.standard(8), ["dragon", "tie"], dragon_tiger.settings_of({}))
>>> [(f.bet.id, f.house_edge_percent(2)) for f in analysis.bets]
[('dragon', '3.73%'), ('tie', '32.77%')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from ...analysis import Analysis, BetFigures, Chart, Counting, OutcomeFigures, Rules, require_suits
from ...betfile import ALL_BETS, BetSpec, OutcomeSpec, Vocabulary, packaged_text, read_bet_specs
from ...cards import RANKS, Rank, Shoe, falling_factorial
from ...errors import ExactOddsError, by_case, shown, unknown_name
from ...exact import parse_commission, parse_pays, short_text
from ...game import Game, Settings
from ...inputs import Input
from ...notation import RANK_TEXT, Condition, describe, rank_text, read_condition, values_text
from ...paytable import Bet, Event, Outcome, named_bets
from ...records import record

if TYPE_CHECKING:
    from ...coups import Dealing, DealtCoups
    from .bets import DealtBet, DealtRules


class DealFact(NamedTuple):
    """One fact about how a deal ended: its name, meaning, values and how to read it off a state.

    ``suited`` facts need a shoe known by suit (on a shoe known by rank their value is ``None``). A named tuple, as
    :class:`Pays`: the games declare theirs as every command starts, and a named tuple's class costs a fraction of a
    dataclass's to make.
    """

    name: str
    meaning: str
    values: tuple[object, ...]
    read: Callable[[Any], object]
    suited: bool = False


#: A setting's value as a deal reads it: a pay or a commission (exact), or the word of a choice.
SettingValue = Fraction | str


class Pays(NamedTuple):
    """A setting of a dealt game (its :class:`~exactodds.inputs.Input`) and what it pays: ``pays`` (the value is the
    pay, X to 1), ``commission`` (the house's share of a win that pays 1, so the win pays 1 − value) or ``choice``
    (a word of the input's choices, the default first: the deal's ``count`` reads it, and ``choice_pays`` gives its
    outcomes' pay by word, if any). The default of a pay or a commission is what the game's bets file pays; the game
    checks each of its settings as it is made (:meth:`check`).

    >>> from exactodds.inputs import COMMISSION
    >>> Pays(COMMISSION, "commission", (("player", "win"),)).pays(Fraction(3, 100))
    Fraction(97, 100)
    >>> table = Pays(Input("pay-table", "choice", "", choices=("1", "2")), "choice", (("bet", "win"),),
    ...              (Fraction(3), Fraction(2)))
    >>> table.pays("2"), table.text("2")
    (Fraction(2, 1), 'pay table 2')
    """

    input: Input
    kind: Literal["pays", "commission", "choice"]
    #: The (bet id, outcome id) pairs it pays.
    outcomes: tuple[tuple[str, str], ...] = ()
    #: A choice's pay of its outcomes, word by word (as the input's choices).
    choice_pays: tuple[Fraction, ...] = ()

    def check(self) -> None:
        """Refuse a setting whose kind is not its input's, or a choice without a pay for each word."""
        if (self.kind == "choice") != (self.input.kind == "choice"):
            raise ExactOddsError(f"setting {self.input.option}: a choice's input is a choice of words, no other's")
        if len(self.choice_pays) not in (0, len(self.input.choices)) or (
                self.kind == "choice" and bool(self.outcomes) != bool(self.choice_pays)):
            raise ExactOddsError(f"setting {self.input.option}: a choice that pays outcomes gives a pay per word")

    @property
    def name(self) -> str:
        """The setting's name (its input's)."""
        return self.input.name

    def read(self, text: str | Fraction) -> SettingValue:
        """The value as typed (or already exact, from Python): a pay, a commission, or a word of the choice."""
        if isinstance(text, Fraction):
            return text
        if self.kind == "pays":
            return parse_pays(text, self.name.removesuffix("-pays").replace("-", " ") + " pay")
        if self.kind == "commission":
            return parse_commission(text)
        return text  # a choice's word, checked as it was read

    def pays(self, value: SettingValue) -> Fraction:
        """The net pay of its outcomes when the setting has ``value``."""
        if isinstance(value, str):
            return self.choice_pays[self.input.choices.index(value)]
        return 1 - value if self.kind == "commission" else value

    def value(self, pays: Fraction) -> SettingValue:
        """The setting's value when its outcomes pay ``pays`` (the inverse of :meth:`pays`; a choice: its default)."""
        if self.kind == "choice":
            return self.input.choices[0]
        return 1 - pays if self.kind == "commission" else pays

    def text(self, value: SettingValue) -> str:
        """The setting in the header line: ``tie 8:1``, ``5% commission``, ``pay table 2``."""
        if isinstance(value, str):
            return f"{self.name.replace('-', ' ')} {value}"
        if self.kind == "commission":
            return f"{short_text(value * 100)}% commission" if value else "no commission"
        return f"{self.name.removesuffix('-pays').replace('-', ' ')} {short_text(value)}:1"

    def default_text(self, value: SettingValue) -> str:
        """The default as the help says it: ``8`` (to 1), ``5%``, a word."""
        if isinstance(value, str):
            return value
        return f"{short_text(value * 100)}%" if self.kind == "commission" else short_text(value)


@record(eq=False, kw_only=True)
class DealtGame(Game):
    """A game made of its deal: its facts, states, exact enumerator, bets file and paying settings."""

    #: The cards a deal takes, k: every count is of ordered draws of k cards.
    cards: int
    #: What a count counts, in words (the JSON's ``counting``).
    convention: str
    facts_of_deal: tuple[DealFact, ...]
    #: Every state a deal can end in (each fact is read off a state), made when first needed (a bets file is checked
    #: against them): :attr:`every_state`.
    states: Callable[[], Iterable[Any]]
    #: The exact enumerator: for a shoe and the settings, the ordered draws ending in each state (absent: none).
    count: Callable[[Shoe, Mapping[str, SettingValue]], Mapping[Any, int]]
    #: The bets file in ``exactodds/data`` (the bet notation, its conditions over its facts).
    bets_file: str
    pays: tuple[Pays, ...] = ()
    #: Its decisions for a shoe and the settings, printed after its bets (``None``: a game without decisions).
    chart: Callable[[Shoe, Mapping[str, SettingValue]], Chart] | None = None
    #: The most a bet can lose, in stakes: 1, or 2 where the player may raise his bet (Lucky Draw's Draw bet).
    stakes: int = 1
    #: How a coup's cards go to its hands, for the tracker, made when a shoe is followed (``None``: a deal it cannot
    #: follow card by card, as where a player's decision says whether a card is drawn).
    dealing: Callable[[], Dealing] | None = None

    def __post_init__(self) -> None:
        for setting in self.pays:
            setting.check()
        object.__setattr__(self, "settings", tuple(p.input for p in self.pays))
        coups = {"coups"} if self.dealing is not None else set()
        given = {"bets", "bets-files", "by-rank", "fixed-pays"}
        object.__setattr__(self, "capabilities", self.capabilities | given | coups)
        if self.dealing is not None and "winner" not in self.fact:
            raise ExactOddsError(f"{self.name}: a game whose coups are followed says who won them (a fact 'winner')")

    @cached_property
    def every_state(self) -> tuple[Any, ...]:
        """Every state a deal can end in (:attr:`states`, made once)."""
        return tuple(self.states())

    def coups(self, rules: Rules) -> DealtCoups:
        """Its coups as its dealing deals them, each won as its fact ``winner`` reads the state their cards end in."""
        self.require("coups", "following its coups")
        return self._coups

    @cached_property
    def _coups(self) -> DealtCoups:
        from ...coups import DealtCoups

        assert self.dealing is not None
        dealing, winner = self.dealing(), self.fact["winner"]
        if len(dealing.order) != self.cards:
            raise ExactOddsError(f"{self.name}: a dealing gives each of the {self.cards} cards a hand")

        def won(cards: tuple[Rank, ...]) -> str:
            return str(winner.read(dealing.state(tuple(RANKS.index(card) for card in cards))))

        return DealtCoups(dealing.hands, dealing.order, tuple(map(str, winner.values)), won)

    @property
    def counting(self) -> Counting:
        """What its counts count: ordered draws of the cards a deal takes."""
        return Counting(self.cards, self.convention)

    def orderings(self, shoe: Shoe) -> int:
        """N(N−1)…(N−k+1): the ordered draws of the k cards a deal takes, which every count is out of."""
        return falling_factorial(shoe.size, self.cards)

    @cached_property
    def fact(self) -> dict[str, DealFact]:
        """The facts by name."""
        return {f.name: f for f in self.facts_of_deal}

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """The bet notation's conditions over this deal's facts, checked to settle every state once."""
        return Vocabulary(lambda when: self.file_condition(when), lambda bet, outcomes: self.partition(bet, outcomes),
                          -self.stakes)

    def holds(self, when: Condition, state: Any) -> bool:
        """Whether every fact of ``when`` has one of its values in ``state``."""
        return all(self.fact[name].read(state) in values for name, values in when)

    def paying(self, name: str) -> Pays:
        """The paying setting called ``name``."""
        for pays in self.pays:
            if pays.name == name:
                return pays
        raise KeyError(name)

    def facts(self) -> tuple[tuple[str, str, str], ...]:
        """The facts of its deal: name, values, meaning."""
        return tuple((f.name, values_text(f.values), f.meaning) for f in self.facts_of_deal)

    def condition(self, when: Mapping[str, object]) -> Condition:
        """Check a mapping of fact → value (or a list of values: any of them) over the deal's facts.

        >>> from exactodds.games import find_game
        >>> find_game("dragon-tiger").condition({"dragon_rank": [8, "t", "K"]})
        (('dragon_rank', ('8', 'T', 'K')),)
        >>> find_game("dragon-tiger").condition({"winner": "player"})
        Traceback (most recent call last):
        ...
        exactodds.errors.ExactOddsError: bad value "player" for fact 'winner' (who won: dragon, tiger or tie): ...
        """
        return read_condition(
            when, self.fact.get,
            lambda name: str(unknown_name("fact", name, list(self.fact), more=f"exactodds facts --game {self.name}")),
            _normal, lambda fact, value: any(value == v and type(value) is type(v) for v in fact.values),
        )

    def file_condition(self, when: Mapping[str, object]) -> Condition:
        """A condition as a bets file writes it: read as :meth:`condition` reads it, and refused when no deal meets it
        (tried against every state of the deal): such a condition is a mistake in the file.

        >>> from exactodds.games import find_game
        >>> find_game("dragon-tiger").file_condition({"winner": "tie", "same_suit": True, "dragon_rank": "K"})
        (('winner', ('tie',)), ('same_suit', (True,)), ('dragon_rank', ('K',)))
        >>> find_game("dragon-tiger").file_condition({"winner": "dragon", "dragon_rank": "A"})
        Traceback (most recent call last):
        ...
        exactodds.errors.ExactOddsError: the condition winner = dragon, dragon_rank = A can never hold: no deal of ...
        """
        read = self.condition(when)
        if not any(self.holds(read, state) for state in self.every_state):
            raise ExactOddsError(f"the condition {shown(describe(read), 80)} can never hold: no deal of {self.name}"
                                 " meets it")
        return read

    def partition(self, bet_id: str, outcomes: Sequence[OutcomeSpec]) -> tuple[int | None, str, str] | None:
        """The first outcome (by index) whose condition overlaps an earlier one's, or ``None`` for a state no outcome
        settles (with the bet and why); ``None`` when the conditions settle every state of the deal once.

        The states are those of a shoe known by suit: a bet that reads a suited fact is refused on a shoe known by
        rank.
        """
        whens = [o.when for o in outcomes]
        what = f"bet {shown(bet_id)!r}"
        for state in self.every_state:
            matched = [k for k, when in enumerate(whens) if when is not None and self.holds(when, state)]
            if len(matched) > 1:
                return matched[1], what, f"outcomes {matched[0] + 1} and {matched[1] + 1} overlap: both settle {state}"
            if not matched and all(when is not None for when in whens):
                return None, what, f"no outcome settles {state}; add a case or an outcome with otherwise = true"
        return None

    def check_settings(self, values: dict[str, Any]) -> dict[str, Any]:
        """Each paying setting read (a pay, a commission, a word)."""
        return {p.name: None if values.get(p.name) is None else p.read(values[p.name]) for p in self.pays}

    def default_of(self, name: str) -> str | None:
        """What a setting defaults to: what the bets file pays (a choice: its first word; the rebate: none)."""
        for setting in self.pays:
            if setting.name == name:
                if not setting.outcomes:
                    return setting.input.choices[0]
                return setting.default_text(setting.value(file_pays(self)[setting.outcomes[0]]))
        return None

    def bet_specs(self) -> Mapping[str, BetSpec]:
        """Its bets as its bets file writes them, by id."""
        return {spec.id: spec for spec in _specs(self)}

    def read_bets(self, text: str, name: str) -> tuple[Bet, ...]:
        """The bets of a bets file over the deal's facts, at the pays it writes."""
        return tuple(_bet(self, spec, {}) for spec in self.read_bet_specs(text, name))

    def read_bet_specs(self, text: str, name: str) -> tuple[BetSpec, ...]:
        """The bets of a bets file as written, over the deal's facts (as its own bets file is read); none may take the
        id of one of the game's own bets."""
        return read_bet_specs(text, name, self.vocabulary, frozenset(self.bet_specs()))

    def values(self, settings: Settings) -> dict[str, SettingValue]:
        """Every paying setting's value: the one given, else what the bets file pays (a choice: its first word)."""
        pays = file_pays(self)
        out: dict[str, SettingValue] = {}
        for setting in self.pays:
            given = settings[setting.name]
            out[setting.name] = given if given is not None else setting.value(pays[setting.outcomes[0]]) \
                if setting.outcomes else setting.input.choices[0]
        return out

    def rules(self, settings: Settings) -> DealtRules:
        """The game and its paying settings' values, for the header line and the JSON."""
        from .bets import DealtRules

        return DealtRules(self, tuple(self.values(settings).items()))

    def bets(self, settings: Settings) -> Mapping[str, Bet]:
        """Its bets by id, in the bets file's order, paying as the settings say."""
        return _catalog(self, tuple(self.values(settings).items()))

    def price(
        self, shoe: Shoe, bets: Sequence[str | Bet] | None, settings: Settings, *, given: str | None = None
    ) -> Analysis:
        """Price bets of the game (default every one) on ``shoe``: each outcome's exact count of ordered draws."""
        if given is not None:
            self.require("given", "--given")
        values = self.values(settings)
        chosen = self._chosen(bets, values)
        require_suits(shoe, chosen)
        if shoe.size < self.cards:
            raise ExactOddsError(f"{self.name} deals {self.cards} cards; this shoe holds {shoe.size}")
        states = _states(self, shoe, tuple(values.items()))
        orderings = self.orderings(shoe)
        priced = []
        for bet in chosen:
            counts = [0] * len(bet.outcomes)
            for state, n in states.items():
                counts[bet.outcome_of(self, state)] += n
            outcomes = tuple(OutcomeFigures(o, c, orderings) for o, c in zip(bet.outcomes, counts))
            priced.append(BetFigures(bet, outcomes, orderings))
        chart = None if self.chart is None else self.chart(shoe, values)
        rules = self.rules(settings)
        rebate = settings.given().get("rebate")
        return Analysis(rules, shoe, tuple(priced), rebate=rebate, counting=self.counting, chart=chart)

    def resolve(
        self, bets: Sequence[str | Bet] | None, settings: Settings, *, suits: bool = True, cards: bool = True
    ) -> tuple[Bet, ...]:
        """The bets named as bets of the game (``all`` without the bets on suits when ``suits`` is false)."""
        bets = named_bets(bets)
        chosen = self._chosen(bets, self.values(settings))
        if suits or ALL_BETS not in (bets or ()):  # "all" on shoes known by rank: the bets that need no suits
            return chosen
        named = {b if isinstance(b, str) else b.id for b in bets or ()}
        return tuple(b for b in chosen if not b.needs_suits or b.id in named)

    def chart_of(self, shoe: Shoe, settings: Settings) -> Chart | None:
        """The game's decisions on ``shoe`` under the settings (its deal's ``chart``), if it has any."""
        return None if self.chart is None else self.chart(shoe, self.values(settings))

    def _chosen(self, bets: Sequence[str | Bet] | None, values: Mapping[str, SettingValue]) -> tuple[DealtBet, ...]:
        """The bets named (``None`` or ``all``: every bet of the game; a bet of a bets file as it is), a near miss told
        the game's closest ids."""
        from .bets import DealtBet

        catalog = _catalog(self, tuple(values.items()))
        if bets is None:
            return tuple(catalog.values())
        chosen: dict[str, DealtBet] = {}
        for bet in bets:
            if isinstance(bet, DealtBet):
                chosen[bet.id] = bet
            elif bet == ALL_BETS:
                chosen.update(catalog)
            elif isinstance(bet, str) and by_case(bet, catalog) in catalog:  # in any case
                chosen[by_case(bet, catalog)] = catalog[by_case(bet, catalog)]
            else:
                named = bet if isinstance(bet, str) else bet.id
                raise unknown_name("bet", named, list(catalog), aliases=[ALL_BETS],
                                   more=f"these are the bets of {self.name}")
        return tuple(chosen.values())


def _normal(fact: DealFact, value: object) -> object:
    """A rank as ``A 2 … 9 T J Q K`` (``10`` and the numbers 2-10 too), whatever the case."""
    return rank_text(value) if fact.values == RANK_TEXT else value


@lru_cache(maxsize=16)
def _specs(game: DealtGame) -> tuple[BetSpec, ...]:
    """The game's bets as its bets file writes them (read and checked once)."""
    return read_bet_specs(packaged_text(game.bets_file), f"exactodds/data/{game.bets_file}", game.vocabulary)


def file_pays(game: DealtGame) -> dict[tuple[str, str], Fraction]:
    """What the bets file pays, by (bet id, outcome id): the default of every paying setting."""
    return {(spec.id, o.id): o.pays for spec in _specs(game) for o in spec.outcomes}


def _bet(game: DealtGame, spec: BetSpec, pays: Mapping[tuple[str, str], Fraction]) -> DealtBet:
    """A bet of the notation over the deal's facts, each outcome paying as ``pays`` says (else as written)."""
    outcomes = tuple(
        Outcome(o.id, Event(o.event or (describe(o.when) if o.when else "otherwise")),
                pays.get((spec.id, o.id), o.pays), o.multiplier)
        for o in spec.outcomes
    )
    from .bets import DealtBet

    whens = tuple(o.when for o in spec.outcomes)
    suited = any(game.fact[name].suited for when in whens for name, _ in when or ())
    return DealtBet(spec.id, spec.description, outcomes, needs_suits=suited, whens=whens)


@lru_cache(maxsize=64)
def _catalog(game: DealtGame, values: tuple[tuple[str, SettingValue], ...]) -> Mapping[str, DealtBet]:
    """The game's bets by id under the settings' values, each win's pay in its description as set."""
    pays = {pair: game.paying(name).pays(value) for name, value in values for pair in game.paying(name).outcomes}
    written = file_pays(game)
    out: dict[str, DealtBet] = {}
    for spec in _specs(game):
        description = spec.description
        for (bet_id, outcome_id), pay in pays.items():
            if bet_id == spec.id and outcome_id == "win":
                description = _with_pay(description, written[(bet_id, outcome_id)], pay)
        out[spec.id] = _bet(game, spec._replace(description=description), pays)
    return MappingProxyType(out)


def _with_pay(description: str, old: Fraction, new: Fraction) -> str:
    """A description whose ``X:1`` (and ``N% commission``) tells the pay of its win as set."""
    if old == new:
        return description
    text = description.replace(f"{short_text(old)}:1", f"{short_text(new)}:1", 1)
    if (1 - old) and "% commission" in text:
        text = text.replace(f"{short_text((1 - old) * 100)}% commission", f"{short_text((1 - new) * 100)}% commission")
    return text


@lru_cache(maxsize=16)
def _states(game: DealtGame, shoe: Shoe, values: tuple[tuple[str, SettingValue], ...]) -> Mapping[Any, int]:
    """A deal's exact count of each end state, kept for the last few shoes and settings (a command and its par
    sheet, or a report and its tables, count a shoe once; nothing changes the counts it returns)."""
    return MappingProxyType(dict(game.count(shoe, dict(values))))
