"""Bets as pay tables over coup events, and the catalog of the bets a rule set offers.

A bet is a tuple of outcomes; each outcome is an event (a named set of final coup
states) and its net pay per unit staked. The outcomes of a bet must settle every
possible coup exactly once, which is checked when the bet is made. Events, outcomes and
bets are plain data: hashable, equal by value and picklable (to worker processes, say).

The side bets are written in the bet notation of bets files (:mod:`exactodds.betfile`),
in ``exactodds/data/*.toml``, and read on first use; adding one is a few lines there and
no engine change. The Player, Banker and Tie bets follow the rule set and are built here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from .betfile import ALL_BETS, BetSpec, Multiplier, read_bet_specs
from .coup import ALL_STATES, CoupState
from .errors import ExactOddsError, unknown_name
from .exact import fraction_text, short_text
from .facts import (
    ALL_MASK,
    FACTS,
    STATE_INDEX,
    Condition,
    card_facts_of,
    condition,
    describe,
    mask_of,
    reads_suits,
    states_where,
)
from .rules import OVERRIDE_SIDES, PayOverride, RuleSet

__all__ = [
    "ALL_BETS",
    "ALL_MASK",
    "ANY",
    "BANKER_PAIR",
    "BANKER_THREE_CARD_SEVEN",
    "BANKER_WINS",
    "BANKER_WINS_NOT_THREE_CARD_SEVEN",
    "PLAYER_PAIR",
    "PLAYER_THREE_CARD_EIGHT",
    "PLAYER_WINS",
    "TIE",
    "Bet",
    "Event",
    "Outcome",
    "banker_win_outcomes",
    "bet_catalog",
    "bets_from_text",
    "core_side_bets",
    "find_bet",
    "main_bets",
    "none_of",
    "side_catalog",
    "states_where",
]


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

    def __post_init__(self) -> None:
        ids = [o.id for o in self.outcomes]
        if len(set(ids)) != len(ids):
            raise ExactOddsError(f"bet {self.id!r} has two outcomes with the same id")
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

    @property
    def reads_cards(self) -> bool:
        """Whether the bet reads the dealt cards (so the card walk prices it, not the coup states)."""
        return self.cards is not None

    def settle(self, state: CoupState) -> Outcome:
        """The outcome that settles ``state``.

        >>> from exactodds.rules import PUNTO_BANCO
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


def banker_win_outcomes(
    overrides: Sequence[PayOverride], pays: Fraction, wins: Event | None = None
) -> list[Outcome]:
    """The win lines of a bet (default the Banker's): the plain win at ``pays``, then the overrides, first match wins.

    Override k settles the wins (``wins``: Banker wins, Player wins or ties) its condition
    matches that no earlier override matched (its event then says which earlier ones it
    gives way to); the plain win is every win no override matches.

    >>> from exactodds.rules import EZ_PUSH
    >>> seven = PayOverride("seven", "a total of 7", condition({"banker_total": 7}), Fraction(1, 2))
    >>> [(o.id, o.event.name) for o in banker_win_outcomes([EZ_PUSH, seven], Fraction(1))][2]
    ('seven', 'Banker wins with a total of 7, not with a three-card 7')
    """
    wins = BANKER_WINS if wins is None else wins
    if not overrides:
        return [Outcome("win", wins, pays)]
    taken = 0
    owned: list[int] = []  # each override's own wins, before the earlier ones take theirs
    special = []
    for override in overrides:
        own = wins.mask & states_where(override.when)
        before = [o.name for o, mask in zip(overrides, owned) if mask & own]
        name = override.event + (f", not with {' or '.join(before)}" if before else "")
        special.append(Outcome(override.id, Event(name, own & ~taken), override.net))
        owned.append(own)
        taken |= own
    plain = Event(f"{wins.name}, not with {' or '.join(o.name for o in overrides)}", wins.mask & ~taken)
    return [Outcome("win", plain, pays), *special]


def override_card_bet(
    bet_id: str,
    description: str,
    overrides: Sequence[PayOverride],
    pays: Fraction,
    rest: Sequence[tuple[str, Event, Fraction]],
) -> Bet:
    """A main bet whose pay overrides read the dealt cards: a bet on the cards, priced by the card walk.

    Its outcomes are those of :func:`banker_win_outcomes` (the plain win, the overrides), then
    ``rest`` (push, lose), each with its condition: an override's is its own plus the winner
    it pays (``winner = banker``), and the outcomes settle first match wins
    (:attr:`Bet.first_match`), so an override takes only the wins no earlier override took;
    the plain win is every other win.

    >>> seven = PayOverride("seven", "a 7 third card", condition({"b3_rank": "7"}), Fraction(0))
    >>> bet = override_card_bet("banker", "Banker", [seven], Fraction(1), [("lose", PLAYER_WINS, Fraction(-1))])
    >>> [(o.id, o.event.name) for o in bet.outcomes][:2], bet.reads_cards, bet.first_match
    ([('win', 'Banker wins, not with a 7 third card'), ('seven', 'Banker wins with a 7 third card')], True, True)
    """
    side = overrides[0].side
    winner = condition({"winner": side})
    wins = Event.where(winner, OVERRIDE_SIDES[side])
    # The coup states each override may match (its card facts left out): an earlier override
    # whose states meet these may take some of its deals, and its event names it.
    states = [wins.mask & states_where(tuple(f for f in o.when if f[0] in FACTS)) for o in overrides]
    special = []
    for k, override in enumerate(overrides):
        before = [o.name for o, mask in zip(overrides[:k], states) if mask & states[k]]
        name = override.event + (f", not with {' or '.join(before)}" if before else "")
        special.append(Outcome(override.id, Event(name, 0), override.net))
    plain = Outcome("win", Event(f"{wins.name}, not with {' or '.join(o.name for o in overrides)}", 0), pays)
    others = tuple(Outcome(i, Event(event.name, 0), net) for i, event, net in rest)
    # The outcomes after the wins: each is a set of whole coup states, its condition their winners.
    rest_whens = tuple(
        condition({"winner": [w for w in ("player", "banker", "tie") if event.mask & BY_WINNER[w].mask]})
        for _, event, _ in rest
    )
    whens = (None, *(winner + o.when for o in overrides), *rest_whens)
    return Bet(bet_id, description, (plain, *special, *others), whens, first_match=True)


def _with_overrides(
    bet_id: str, description: str, overrides: Sequence[PayOverride], pays: Fraction, wins: Event,
    rest: Sequence[tuple[str, Event, Fraction]],
) -> Bet:
    """A main bet: wins at ``pays`` less what the overrides pay; on coup states, or on the cards if they read them."""
    if any(card_facts_of(o.when) for o in overrides):
        return override_card_bet(bet_id, description, overrides, pays, rest)
    others = tuple(Outcome(i, event, net) for i, event, net in rest)
    return Bet(bet_id, description, (*banker_win_outcomes(overrides, pays, wins), *others))


def _extra(overrides: Sequence[PayOverride]) -> str:
    """The overrides in a bet's description: ``; a win with … pays 2:1``."""
    return "".join(f"; a {o.header() if o.side == 'tie' else o.header().removeprefix(o.side + ' ')}" for o in overrides)


@lru_cache(maxsize=64)
def main_bets(rules: RuleSet) -> tuple[Bet, Bet, Bet]:
    """The Player, Banker and Tie bets under ``rules``.

    >>> from exactodds.rules import EZ
    >>> player, banker, tie = main_bets(EZ)
    >>> [(o.id, str(o.net)) for o in banker.outcomes]
    [('win', '1'), ('push-three-card-7', '0'), ('push', '0'), ('lose', '-1')]
    """
    player_extra = _extra(rules.player_win_overrides)
    player = _with_overrides(
        "player",
        f"Player 1:1{' (' + player_extra.removeprefix('; ') + ')' if player_extra else ''}; pushes on a tie",
        rules.player_win_overrides,
        Fraction(1),
        PLAYER_WINS,
        (("push", TIE, Fraction(0)), ("lose", BANKER_WINS, Fraction(-1))),
    )
    overrides = rules.banker_overrides
    commission = f"{short_text(rules.commission * 100)}% commission" if rules.commission else "no commission"
    extra = _extra(overrides).replace("; a win with a three-card 7 pushes", "; a three-card 7 win pushes")
    banker = _with_overrides(
        "banker",
        f"Banker {short_text(rules.banker_pays)}:1 ({commission}{extra}); pushes on a tie",
        overrides,
        rules.banker_pays,
        BANKER_WINS,
        (("push", TIE, Fraction(0)), ("lose", PLAYER_WINS, Fraction(-1))),
    )
    tie = _with_overrides(
        "tie",
        f"Tie {short_text(rules.tie_pays)}:1{_extra(rules.tie_overrides)}",
        rules.tie_overrides,
        rules.tie_pays,
        TIE,
        (("lose", ~TIE, Fraction(-1)),),
    )
    return player, banker, tie


def none_of(name: str, named: Sequence[Event]) -> Event:
    """The event that holds when none of ``named`` does (a pay table's "any other coup").

    >>> none_of("no tie", [TIE])(CoupState(3, 7, 3, 3, False, False))
    True
    """
    union = 0
    for event in named:
        union |= event.mask
    return Event(name, ALL_MASK ^ union)


def bet_of_spec(spec: BetSpec) -> Bet:
    """The bet a pay table of the bet notation describes (see :mod:`exactodds.betfile`).

    An outcome's event is named by its ``event`` key, else by its condition in words;
    the ``otherwise`` outcome holds on every coup no other outcome settles. A bet whose
    conditions read the dealt cards keeps them as written (:attr:`Bet.cards`).
    """
    if any(card_facts_of(o.when) for o in spec.outcomes):
        nothing = tuple(
            Outcome(o.id, Event(o.event or (describe(o.when) if o.when else "otherwise"), 0), o.pays, o.multiplier)
            for o in spec.outcomes
        )
        return Bet(spec.id, spec.description, nothing, tuple(o.when for o in spec.outcomes))
    named = [Event.where(o.when, o.event or describe(o.when)) for o in spec.outcomes if o.when is not None]
    events = iter(named)
    outcomes = tuple(
        Outcome(o.id, none_of(o.event or "otherwise", named) if o.when is None else next(events), o.pays, o.multiplier)
        for o in spec.outcomes
    )
    return Bet(spec.id, spec.description, outcomes)


def bets_from_text(text: str, name: str = "<bets file>") -> tuple[Bet, ...]:
    """The bets of a bets file's text (the notation of :mod:`exactodds.betfile`); ``name`` is used in errors.

    >>> (bet,) = bets_from_text('[bets.t]\\noutcome = [{id = "win", when = {winner = "tie"}, pays = 9},'
    ...                         ' {id = "lose", otherwise = true, pays = -1}]')
    >>> bet.outcomes[0].event == Event.where({"winner": "tie"})
    True
    """
    return tuple(bet_of_spec(spec) for spec in read_bet_specs(text, name))


def _packaged(file: str) -> tuple[Bet, ...]:
    """The bets of a bets file shipped in the package (``exactodds/data``)."""
    try:  # the package's own folder: read at once (importlib.resources alone costs the start-up some ms)
        text = Path(__file__).with_name("data").joinpath(file).read_text(encoding="utf-8")
    except OSError:  # installed where its files are not files (a zip): ask the import system
        from importlib import resources

        text = (resources.files(__package__ or "exactodds") / "data" / file).read_text(encoding="utf-8")
    return bets_from_text(text, f"exactodds/data/{file}")


@lru_cache(maxsize=1)
def core_side_bets() -> tuple[Bet, ...]:
    """The side bets of the default report: the pairs, Dragon 7 and Panda 8 (``data/core-bets.toml``).

    >>> [b.id for b in core_side_bets()]
    ['player-pair', 'banker-pair', 'dragon-7', 'panda-8']
    """
    return _packaged("core-bets.toml")


@lru_cache(maxsize=1)
def side_catalog() -> tuple[Bet, ...]:
    """The side-bet catalog beyond the core bets (``data/side-bets.toml``), read on first use.

    >>> [b.id for b in side_catalog()][:4]
    ['either-pair', 'perfect-pair', 'perfect-pair-26', 'perfect-pair-v2']
    """
    return _packaged("side-bets.toml")


def bet_catalog(rules: RuleSet, *, full: bool = False) -> dict[str, Bet]:
    """The core bets under ``rules`` (the default report), or with ``full=True`` the whole catalog, by id.

    >>> from exactodds.rules import PUNTO_BANCO
    >>> list(bet_catalog(PUNTO_BANCO))
    ['player', 'banker', 'tie', 'player-pair', 'banker-pair', 'dragon-7', 'panda-8']
    >>> len(bet_catalog(PUNTO_BANCO, full=True))
    57
    """
    core = {bet.id: bet for bet in (*main_bets(rules), *core_side_bets())}
    if full:
        core.update((bet.id, bet) for bet in side_catalog())
    return core


def find_bet(bet_id: str, rules: RuleSet) -> Bet:
    """Look up a bet of the whole catalog by its id, exactly; a near miss is told the closest ids.

    >>> from exactodds.rules import EZ
    >>> find_bet("dragon-7", EZ).description
    'Dragon 7 40:1: the Banker wins with a three-card 7'
    >>> find_bet("Dragon_7", EZ)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown bet 'Dragon_7': did you mean dragon-7? Valid bets are player, ...
    """
    core = bet_catalog(rules)
    if bet_id in core:
        return core[bet_id]
    catalog = bet_catalog(rules, full=True)
    if bet_id not in catalog:
        more = f"exactodds bets lists all {len(catalog)}"
        raise unknown_name("bet", bet_id, list(catalog), aliases=[ALL_BETS], more=more)
    return catalog[bet_id]
