"""Bets as pay tables over coup events, and the catalog of the bets a rule set offers.

A bet is a tuple of outcomes; each outcome is an event (a named predicate on the final
coup state) and its net pay per unit staked. The outcomes of a bet must settle every
possible coup exactly once, which is checked when the bet is made. Adding a bet is one
definition here; the engine never changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from .coup import ALL_STATES, CoupState
from .errors import ExactOddsError
from .exact import fraction_text, short_text
from .facts import FACTS, Condition, condition, describe, predicate
from .facts import needs_suits as reads_suits
from .rules import PayOverride, RuleSet


def _either(a: bool | None, b: bool | None) -> bool | None:
    """Whether a combination of two events reads suits: unknown if either is unknown."""
    return None if a is None or b is None else a or b


def _all_known_plain(events: list[Event]) -> bool:
    return all(e.suits is False for e in events)


_STATE_INDEX = {state: i for i, state in enumerate(ALL_STATES)}
_PLAIN_STATES = tuple(s for s in ALL_STATES if not (s.player_pair_suited or s.banker_pair_suited))
_SUITED_STATES = [i for i, s in enumerate(ALL_STATES) if s.player_pair_suited or s.banker_pair_suited]

# A set of coup states is an int used as a bit set: bit i stands for ALL_STATES[i]. A condition
# is then a few ANDs and ORs of precomputed masks (one per fact value), and checking that a bet's
# outcomes settle every coup exactly once is one pass over the outcomes, not one per state.
_N = len(ALL_STATES)
ALL_MASK = (1 << _N) - 1
_PLAIN_MASK = sum(1 << _STATE_INDEX[s] for s in _PLAIN_STATES)
# (suited state, its plain twin): a bet reads suits when some pair of them settles differently.
_TWINS = tuple(
    (i, _STATE_INDEX[ALL_STATES[i]._replace(player_pair_suited=False, banker_pair_suited=False)])
    for i in _SUITED_STATES
)


def _mask(members: Sequence[bool]) -> int:
    """The bit set of the states whose entry of ``members`` (indexed like ALL_STATES) is true."""
    return int("".join("1" if m else "0" for m in reversed(members)) or "0", 2)


def _indices(mask: int) -> list[int]:
    """The indices (into ALL_STATES) of the states in a bit set, in order."""
    bits = format(mask, "b")[::-1]
    out = []
    i = bits.find("1")
    while i >= 0:
        out.append(i)
        i = bits.find("1", i + 1)
    return out


@lru_cache(maxsize=1)
def _fact_masks() -> dict[str, dict[object, int]]:
    """For every fact and each of its values, the bit set of the states where the fact has that value."""
    out: dict[str, dict[object, int]] = {}
    for fact in FACTS.values():
        rows: dict[object, list[bool]] = {value: [False] * _N for value in fact.values}
        for i, state in enumerate(ALL_STATES):
            rows[fact.read(state)][i] = True
        out[fact.name] = {value: _mask(row) for value, row in rows.items()}
    return out


def states_where(when: Condition) -> int:
    """The bit set of the coup states (bit i: ``ALL_STATES[i]``) where the condition holds.

    >>> from exactodds.facts import condition
    >>> [ALL_STATES[i] for i in _indices(states_where(condition({"winner": "banker", "banker_total": 1})))][:1]
    [CoupState(player_total=0, banker_total=1, player_cards=2, banker_cards=2, player_pair=False, \
banker_pair=False, player_pair_suited=False, banker_pair_suited=False)]
    """
    masks = _fact_masks()
    out = ALL_MASK
    for name, values in when:
        either = 0
        for value in values:
            either |= masks[name][value]
        out &= either
    return out


def _member_test(mask: int, fallback: Callable[[CoupState], bool] | None = None) -> Callable[[CoupState], bool]:
    """A test that looks a state up in a bit set (one index and one character: fast for long pay tables).

    A state outside ALL_STATES is no coup; it goes to ``fallback`` if there is one, else is refused.
    """
    bits = format(mask, f"0{_N}b")[::-1]
    index = _STATE_INDEX

    def test(state: CoupState) -> bool:
        i = index.get(state)
        if i is None:
            if fallback is None:
                raise ValueError(f"not a coup state: {state}")
            return fallback(state)
        return bits[i] == "1"

    return test


@dataclass(frozen=True)
class Event:
    """A named condition on how a coup ended.

    >>> BANKER_WINS(CoupState(3, 7, 3, 3, False, False))
    True
    """

    name: str
    test: Callable[[CoupState], bool]
    #: Whether the test reads the suited-pair flags: ``False`` declares that it does not
    #: (the partition check then skips the suited states), ``None`` (the default) means unknown.
    suits: bool | None = field(default=None, compare=False)
    #: The states where the event holds, as a bit set over ALL_STATES (see :func:`states_where`),
    #: when known up front (events read from conditions); ``None``: found by calling ``test``.
    mask: int | None = field(default=None, compare=False, repr=False)

    def __call__(self, state: CoupState) -> bool:
        return self.test(state)

    def __and__(self, other: Event) -> Event:
        mask = None if self.mask is None or other.mask is None else self.mask & other.mask
        return Event(
            f"{self.name} and {other.name}",
            lambda s: self.test(s) and other.test(s),
            _either(self.suits, other.suits),
            mask,
        )

    def __invert__(self) -> Event:
        mask = None if self.mask is None else ALL_MASK ^ self.mask
        return Event(f"not {self.name}", lambda s: not self.test(s), self.suits, mask)

    @classmethod
    def of_states(cls, name: str, mask: int, suits: bool | None = None) -> Event:
        """An event that holds on a given bit set of coup states (see :func:`states_where`).

        >>> Event.of_states("nothing", 0)(CoupState(3, 7, 3, 3, False, False))
        False
        """
        return cls(name, _member_test(mask), suits, mask & ALL_MASK)

    def states(self, check: int = ALL_MASK) -> int:
        """The bit set of the states of ``check`` where the event holds (each state tested at most once)."""
        if self.mask is not None:
            return self.mask & check
        test = self.test
        wanted = format(check, f"0{_N}b")[::-1]
        return _mask([w == "1" and bool(test(state)) for state, w in zip(ALL_STATES, wanted)])

    @classmethod
    def where(cls, when: Condition | dict[str, object], name: str | None = None) -> Event:
        """An event from a condition over coup facts (see :mod:`exactodds.facts`).

        >>> Event.where({"winner": "banker", "banker_total": 6}).name
        'winner = banker, banker_total = 6'
        """
        checked = condition(when) if isinstance(when, dict) else when
        mask = states_where(checked)
        return cls(name or describe(checked), _member_test(mask, predicate(checked)), reads_suits(checked), mask)


PLAYER_WINS = Event("Player wins", lambda s: s.winner == "player", False)
BANKER_WINS = Event("Banker wins", lambda s: s.winner == "banker", False)
TIE = Event("tie", lambda s: s.winner == "tie", False)
PLAYER_PAIR = Event("Player pair", lambda s: s.player_pair, False)
BANKER_PAIR = Event("Banker pair", lambda s: s.banker_pair, False)
BANKER_THREE_CARD_SEVEN = Event(
    "Banker wins with a three-card 7",
    lambda s: s.winner == "banker" and s.banker_cards == 3 and s.banker_total == 7,
    False,
)
PLAYER_THREE_CARD_EIGHT = Event(
    "Player wins with a three-card 8",
    lambda s: s.winner == "player" and s.player_cards == 3 and s.player_total == 8,
    False,
)
ANY = Event("any coup", lambda s: True, False)
BANKER_WINS_NOT_THREE_CARD_SEVEN = Event(
    "Banker wins, not with a three-card 7", lambda s: BANKER_WINS(s) and not BANKER_THREE_CARD_SEVEN(s), False
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
    #: Whether the settlement depends on the suited-pair flags (found by the check below).
    needs_suits: bool = field(init=False, compare=False, repr=False, default=False)

    def __post_init__(self) -> None:
        ids = [o.id for o in self.outcomes]
        if len(set(ids)) != len(ids):
            raise ExactOddsError(f"bet {self.id!r} has two outcomes with the same id")
        # Events declared not to read the suited flags settle a suited state as its plain twin,
        # so only the plain states need checking; otherwise every state is checked.
        plain = _all_known_plain([o.event for o in self.outcomes])
        check = _PLAIN_MASK if plain else ALL_MASK
        # Each outcome's states once (a bit set), then one pass: states seen twice, states never seen.
        members = [o.event.states(check) for o in self.outcomes]
        seen = twice = 0
        for mask in members:
            twice |= seen & mask
            seen |= mask
        bad = twice | (check & ~seen)
        if bad:
            i = (bad & -bad).bit_length() - 1  # the first bad state, as the tables order them
            hits = [o.id for o, mask in zip(self.outcomes, members) if mask >> i & 1]
            problem = "settles it twice" if hits else "leaves it unsettled"
            raise ExactOddsError(f"bet {self.id!r} {problem}: coup {ALL_STATES[i]} matches {hits or 'no outcome'}")
        # A bet needs suits when some coup settles otherwise once its suited flags are cleared.
        suited = False
        if not plain:
            owner = [0] * _N
            for k, mask in enumerate(members):
                for i in _indices(mask):
                    owner[i] = k
            suited = any(owner[i] != owner[twin] for i, twin in _TWINS)
        object.__setattr__(self, "needs_suits", suited)

    def settle(self, state: CoupState) -> Outcome:
        """The outcome that settles ``state``."""
        for outcome in self.outcomes:
            if outcome.event(state):
                return outcome
        raise AssertionError("unreachable: outcomes cover every state")  # pragma: no cover


def banker_win_outcomes(overrides: Sequence[PayOverride], pays: Fraction) -> list[Outcome]:
    """The Banker-win lines of the Banker bet: the plain win at ``pays``, then the overrides, first match wins.

    Override k settles the Banker wins its condition matches that no earlier override
    matched (its event then says which earlier ones it gives way to); the plain win is
    every Banker win no override matches.

    >>> from exactodds.rules import EZ_PUSH
    >>> seven = PayOverride("seven", "a total of 7", condition({"banker_total": 7}), Fraction(1, 2))
    >>> [(o.id, o.event.name) for o in banker_win_outcomes([EZ_PUSH, seven], Fraction(1))][2]
    ('seven', 'Banker wins with a total of 7, not with a three-card 7')
    """
    if not overrides:
        return [Outcome("win", BANKER_WINS, pays)]
    banker = states_where(condition({"winner": "banker"}))
    taken = 0
    owned: list[int] = []  # each override's own Banker wins, before the earlier ones take theirs
    special = []
    for k, override in enumerate(overrides):
        own = banker & states_where(override.when)
        before = [o.name for o, mask in zip(overrides, owned) if mask & own]
        name = override.event + (f", not with {' or '.join(before)}" if before else "")
        suits = any(reads_suits(o.when) for o in overrides[: k + 1])
        special.append(Outcome(override.id, Event.of_states(name, own & ~taken, suits), override.net))
        owned.append(own)
        taken |= own
    plain = Event.of_states(
        f"Banker wins, not with {' or '.join(o.name for o in overrides)}",
        banker & ~taken,
        any(reads_suits(o.when) for o in overrides),
    )
    return [Outcome("win", plain, pays), *special]


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
    overrides = rules.banker_overrides
    banker_outcomes = banker_win_outcomes(overrides, rules.banker_pays)
    commission = f"{short_text(rules.commission * 100)}% commission" if rules.commission else "no commission"
    extra = "".join(f"; a {o.header().removeprefix('banker ')}" for o in overrides)
    extra = extra.replace("; a win with a three-card 7 pushes", "; a three-card 7 win pushes")
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


_Row = tuple[str, str, "Mapping[str, object] | None", Fraction]


def _where(bet_id: str, description: str, outcomes: Sequence[_Row]) -> Bet:
    """A bet from (outcome id, event name, condition or None for "otherwise", net pay) rows."""
    events = [Event.where(condition(when), name) if when is not None else None for _, name, when, _ in outcomes]
    named = [e for e in events if e is not None]
    made = []
    for (oid, name, _, net), event in zip(outcomes, events):
        made.append(Outcome(oid, none_of(name, named) if event is None else event, net))
    return Bet(bet_id, description, tuple(made))


def none_of(name: str, named: Sequence[Event]) -> Event:
    """The event that holds when none of ``named`` does (a pay table's "any other coup").

    >>> none_of("no tie", [TIE])(CoupState(3, 7, 3, 3, False, False))
    True
    """
    suits = _either_all([e.suits for e in named])
    masks = [e.mask for e in named]
    if all(mask is not None for mask in masks):
        union = 0
        for mask in masks:
            union |= mask or 0
        return Event.of_states(name, ALL_MASK ^ union, suits)
    return Event(name, lambda s: not any(e(s) for e in named), suits)


def _either_all(suits: Sequence[bool | None]) -> bool | None:
    out: bool | None = False
    for one in suits:
        out = _either(out, one)
    return out


def _lose(name: str = "any other coup") -> _Row:
    return ("lose", name, None, Fraction(-1))


# Pays as published. Sources (see README, "The side-bet catalog"):
# Wizard of Odds (WoO) "Baccarat Side Bets" (appendix 5: Dragon Bonus, 4-5-6/Big-Small, Perfect Pairs),
# WoO "Egalite Bets in Baccarat" (games/baccarat/side-bets/egalite/),
# WoO "Lucky 6" (games/baccarat/side-bets/lucky-6/: 12:1 two cards; 23:1 Las Vegas or 20:1 Macau three cards),
# WoO "Side Total Side Bets in Baccarat" (games/baccarat/side-bets/side-totals/, Entwine Tech live dealer pay table).
#: Egalite: a tie on exactly this total; pays to 1 by total (WoO).
EGALITE_PAYS = {0: 150, 1: 215, 2: 225, 3: 200, 4: 120, 5: 110, 6: 45, 7: 45, 8: 80, 9: 80}
#: Side totals: the hand's final total is exactly N; pays to 1 by total (WoO, Entwine Tech pay table).
PLAYER_TOTAL_PAYS = {
    9: "5.5", 8: "5.5", 7: "5.5", 6: "5.5", 5: "9.5", 4: "9.5", 3: "10.5", 2: "10.5", 1: "10.5", 0: "8"
}  # fmt: skip
BANKER_TOTAL_PAYS = {
    9: "5.5", 8: "5.5", 7: "5.5", 6: "5.5", 5: "7.5", 4: "7.5", 3: "10.5", 2: "10.5", 1: "10.5", 0: "8"
}  # fmt: skip
#: Dragon Bonus: a non-natural win by this margin pays this to 1 (a natural win pays 1, a natural tie pushes).
DRAGON_BONUS_PAYS = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}


def _dragon_bonus(side: str) -> Bet:
    rows: list[_Row] = [
        (f"win-by-{m}", f"{side.title()} wins by {m}, not a natural", {"winner": side, "natural": False, "margin": m},
         Fraction(pays))
        for m, pays in DRAGON_BONUS_PAYS.items()
    ]  # fmt: skip
    rows += [
        ("natural-win", f"{side.title()} wins on a natural", {"winner": side, "natural": True}, Fraction(1)),
        ("natural-tie", "tie on naturals", {"winner": "tie", "natural": True}, Fraction(0)),
        _lose(f"{side.title()} loses, wins by 3 or less, or a tie that is not natural"),
    ]
    return _where(
        f"dragon-bonus-{side}",
        f"Dragon Bonus ({side.title()}): a non-natural win by 9/8/7/6/5/4 pays 30/10/6/4/2/1, a natural win 1,"
        " a natural tie pushes",
        rows,
    )


def _side_catalog() -> tuple[Bet, ...]:
    pair_any: dict[str, object] = {"pairs": [1, 2]}
    bets = [
        _where("either-pair", "Either Pair 5:1: either hand's first two cards share a rank",
               [("win", "either hand a pair", pair_any, Fraction(5)), _lose("neither hand a pair")]),
        _where("perfect-pair", "Perfect Pair 25:1: either hand's first two cards share rank and suit",
               [("win", "either hand a suited pair", {"suited_pairs": [1, 2]}, Fraction(25)),
                _lose("no suited pair")]),
        _where("perfect-pair-26", "Perfect Pair 26:1: either hand's first two cards share rank and suit",
               [("win", "either hand a suited pair", {"suited_pairs": [1, 2]}, Fraction(26)),
                _lose("no suited pair")]),
        _where("perfect-pair-v2", "Perfect Pairs (version 2): one suited pair 25:1, both hands 250:1",
               [("both", "both hands a suited pair", {"suited_pairs": 2}, Fraction(250)),
                ("one", "one hand a suited pair", {"suited_pairs": 1}, Fraction(25)),
                _lose("no suited pair")]),
        _dragon_bonus("player"),
        _dragon_bonus("banker"),
        _where("big", "Big 0.54:1: the coup uses 5 or 6 cards",
               [("win", "5 or 6 cards", {"cards": [5, 6]}, Fraction(27, 50)), _lose("4 cards")]),
        _where("small", "Small 1.5:1: the coup uses 4 cards",
               [("win", "4 cards", {"cards": 4}, Fraction(3, 2)), _lose("5 or 6 cards")]),
    ]  # fmt: skip
    for total in range(10):
        egalite = EGALITE_PAYS[total]
        bets.append(
            _where(f"egalite-{total}", f"Egalite {total} {egalite}:1: a tie on {total}",
                   [("win", f"tie on {total}", {"winner": "tie", "winning_total": total}, Fraction(egalite)),
                    _lose(f"not a tie on {total}")])
        )  # fmt: skip
    for side in ("player", "banker"):
        for total in (8, 9):
            bets.append(
                _where(f"{side}-natural-{total}", f"{side.title()} Natural {total} 9:1: the {side.title()}'s first two"
                       f" cards total {total}",
                       [("win", f"{side.title()} natural {total}",
                         {f"{side}_natural": True, f"{side}_total": total}, Fraction(9)),
                        _lose(f"no {side.title()} natural {total}")])
            )  # fmt: skip
    for bet_id, three in (("lucky-6", 20), ("lucky-6-23", 23)):
        bets.append(
            _where(bet_id, f"Lucky 6: the Banker wins with 6, 12:1 with two cards, {three}:1 with three",
                   [("two-cards", "Banker wins with a two-card 6",
                     {"winner": "banker", "banker_total": 6, "banker_cards": 2}, Fraction(12)),
                    ("three-cards", "Banker wins with a three-card 6",
                     {"winner": "banker", "banker_total": 6, "banker_cards": 3}, Fraction(three)),
                    _lose("no Banker win with 6")])
        )  # fmt: skip
    for side, table in (("player", PLAYER_TOTAL_PAYS), ("banker", BANKER_TOTAL_PAYS)):
        for total in range(9, -1, -1):
            pays = Fraction(table[total])
            bets.append(
                _where(f"{side}-total-{total}", f"{side.title()} Total {total} {short_text(pays)}:1: the"
                       f" {side.title()}'s final total is {total}",
                       [("win", f"{side.title()} total {total}", {f"{side}_total": total}, pays),
                        _lose(f"{side.title()} total not {total}")])
            )  # fmt: skip
    return tuple(bets)


@lru_cache(maxsize=1)
def side_catalog() -> tuple[Bet, ...]:
    """The side-bet catalog beyond the core bets, built on first use (each bet checks ~3,600 coup states).

    >>> [b.id for b in side_catalog()][:4]
    ['either-pair', 'perfect-pair', 'perfect-pair-26', 'perfect-pair-v2']
    """
    return _side_catalog()


def bet_catalog(rules: RuleSet, *, full: bool = False) -> dict[str, Bet]:
    """The core bets under ``rules`` (the default report), or with ``full=True`` the whole catalog, by id.

    >>> from exactodds.rules import PUNTO_BANCO
    >>> list(bet_catalog(PUNTO_BANCO))
    ['player', 'banker', 'tie', 'player-pair', 'banker-pair', 'dragon-7', 'panda-8']
    >>> len(bet_catalog(PUNTO_BANCO, full=True))
    51
    """
    core = {bet.id: bet for bet in (*main_bets(rules), *SIDE_BETS)}
    if full:
        core.update((bet.id, bet) for bet in side_catalog())
    return core


def find_bet(bet_id: str, rules: RuleSet) -> Bet:
    """Look up a bet of the whole catalog by id (case-insensitive), listing the valid ids on error.

    >>> from exactodds.rules import EZ
    >>> find_bet("Dragon-7", EZ).description
    'Dragon 7 40:1: the Banker wins with a three-card 7'
    """
    key = bet_id.strip().lower().replace("_", "-")
    core = bet_catalog(rules)
    if key in core:
        return core[key]
    catalog = bet_catalog(rules, full=True)
    if key not in catalog:
        raise ExactOddsError(f"unknown bet {bet_id!r}: valid bets are {', '.join(catalog)}")
    return catalog[key]
