"""Coup facts: the small vocabulary that conditions of bets and rule overrides are written in.

A condition is a set of facts about how a coup ended, each with the values it may take;
it holds when every fact has one of its values. Conditions are plain data (hashable
tuples), so rule sets can carry them, and bets files (see :mod:`exactodds.betfile`)
are read into them. Nothing here is ever evaluated as code. A condition also stands for
the set of coup states where it holds (:func:`states_where`), a bit set over ALL_STATES:
that is what events and bets are made of.

>>> when = condition({"winner": "banker", "banker_cards": 3, "banker_total": 7})
>>> from exactodds.notation import describe
>>> describe(when)
'winner = banker, banker_cards = 3, banker_total = 7'
>>> from exactodds.puntobanco.coup import CoupState
>>> holds(when, CoupState(4, 7, 3, 3, False, False))
True
>>> holds(condition({"three_card_nines": 2}), CoupState(9, 9, 3, 3, False, False))
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Any, NamedTuple

from ..cards import RANKS, SUITS
from ..errors import ExactOddsError, shown, unknown_name
from ..notation import RANK_TEXT, Condition, describe, rank_text, read_condition
from .coup import ALL_STATES, CoupState, twin_shifts


# Fact and CardFact are named tuples, not frozen dataclasses: both classes are made at every start-up, a named
# tuple's at a fraction of the cost (a frozen dataclass's methods are compiled from text). A fact of a field or a
# property of CoupState reads it by attrgetter, in C: start-up reads a few facts of every coup state.
class Fact(NamedTuple):
    """One fact about a finished coup: its name, what it means, the values it takes and how to read it."""

    name: str
    meaning: str
    values: tuple[object, ...]
    read: Callable[[CoupState], object]

    @property
    def kind(self) -> str:
        """``"bool"``, ``"int"`` or ``"text"``: what a value of this fact is written as."""
        first = self.values[0]
        return "bool" if isinstance(first, bool) else "int" if isinstance(first, int) else "text"


_TOTALS = tuple(range(10))
_BOOL = (False, True)

FACTS: dict[str, Fact] = {
    f.name: f
    for f in (
        Fact("winner", "who won: player, banker or tie", ("player", "banker", "tie"), attrgetter("winner")),
        Fact("player_total", "the Player's final total, 0-9", _TOTALS, attrgetter("player_total")),
        Fact("banker_total", "the Banker's final total, 0-9", _TOTALS, attrgetter("banker_total")),
        Fact(
            "winning_total",
            "the winning hand's final total (on a tie, the tied total), 0-9",
            _TOTALS,
            lambda s: s.banker_total if s.winner == "banker" else s.player_total,
        ),
        Fact("player_cards", "cards in the Player's hand, 2 or 3", (2, 3), attrgetter("player_cards")),
        Fact("banker_cards", "cards in the Banker's hand, 2 or 3", (2, 3), attrgetter("banker_cards")),
        Fact("cards", "cards dealt in the coup, 4, 5 or 6", (4, 5, 6), attrgetter("cards")),
        Fact("margin", "points the winner won by (0 on a tie), 0-9", _TOTALS, attrgetter("margin")),
        Fact(
            "natural", "the coup ended on a natural (either hand 8 or 9 with two cards)", _BOOL, attrgetter("natural")
        ),
        Fact("player_natural", "the Player's first two cards total 8 or 9", _BOOL, attrgetter("player_natural")),
        Fact("banker_natural", "the Banker's first two cards total 8 or 9", _BOOL, attrgetter("banker_natural")),
        Fact("player_pair", "the Player's first two cards share a rank", _BOOL, attrgetter("player_pair")),
        Fact("banker_pair", "the Banker's first two cards share a rank", _BOOL, attrgetter("banker_pair")),
        Fact(
            "player_suited_pair",
            "the Player's first two cards share rank and suit (needs a suited shoe)",
            _BOOL,
            attrgetter("player_pair_suited"),
        ),
        Fact(
            "banker_suited_pair",
            "the Banker's first two cards share rank and suit (needs a suited shoe)",
            _BOOL,
            attrgetter("banker_pair_suited"),
        ),
        Fact("pairs", "how many hands start with a pair, 0-2", (0, 1, 2), lambda s: s.player_pair + s.banker_pair),
        Fact(
            "suited_pairs",
            "how many hands start with a suited pair, 0-2 (needs a suited shoe)",
            (0, 1, 2),
            lambda s: s.player_pair_suited + s.banker_pair_suited,
        ),
        Fact(
            "three_card_nines",
            "how many hands end with a three-card 9, 0-2",
            (0, 1, 2),
            lambda s: (s.player_total == 9 and s.player_cards == 3) + (s.banker_total == 9 and s.banker_cards == 3),
        ),
    )
}

# --- card facts: about the dealt cards themselves, not only how the coup ended -----------------------
# These cannot be read off a CoupState: a bet that uses one is priced by the card walk
# (exactodds.puntobanco.cardwalk.walk), over the coarsest partition of the cards its facts need.

_SUIT_TEXT = ("S", "H", "D", "C")
#: The positions a card fact may name, in deal order (as ``given.POSITIONS``; P3 and B3 are third cards).
CARD_POSITIONS = ("p1", "b1", "p2", "b2", "p3", "b3")
_POSITION_WORDS = {
    "p1": "the Player's first card",
    "b1": "the Banker's first card",
    "p2": "the Player's second card",
    "b2": "the Banker's second card",
    "p3": "the Player's third card (\"none\" when the Player stands)",
    "b3": "the Banker's third card (\"none\" when the Banker stands)",
}


class CardFact(NamedTuple):
    """A fact about the dealt cards: its name, meaning, values, the card attributes it reads, whether it needs the deal.

    ``needs`` is a subset of ``value``, ``rank``, ``nine``, ``colour``, ``suit`` (what a card
    must be known by; ``nine`` is only whether it is a nine, coarser than its value) and
    ``identity`` (whether two cards are the very same card, rank and suit, which needs neither
    read whole); ``tests`` are tests of one attribute it reads, as a position's fact makes them
    (``("rank", {10, 11, 12})``: J, Q, K or not); ``game`` says whether the fact needs the
    third-card draw (P3, B3, final totals).
    """

    name: str
    meaning: str
    values: tuple[object, ...]
    needs: frozenset[str]
    game: bool = False
    tests: tuple[tuple[str, frozenset[int]], ...] = ()

    @property
    def kind(self) -> str:
        """``"bool"``, ``"int"`` or ``"text"``, as :attr:`Fact.kind`."""
        first = self.values[0]
        return "bool" if isinstance(first, bool) else "int" if isinstance(first, int) else "text"

    @property
    def suited(self) -> bool:
        """Whether the fact needs a shoe known by suit."""
        return bool(self.needs & {"colour", "suit", "identity"})


def _card_facts() -> tuple[CardFact, ...]:
    out = []
    for pos in CARD_POSITIONS:
        third = pos.endswith("3")
        none = ("none",) if third else ()
        words = _POSITION_WORDS[pos]
        out += [
            CardFact(f"{pos}_rank", f"the rank of {words}", RANK_TEXT + none, frozenset({"rank"}), third),
            CardFact(
                f"{pos}_value", f"the baccarat value of {words}, 0-9", _TOTALS + none, frozenset({"value"}), third
            ),
            CardFact(
                f"{pos}_suit", f"the suit of {words} (suited shoe)", _SUIT_TEXT + none, frozenset({"suit"}), third
            ),
            CardFact(
                f"{pos}_colour",
                f"the colour of {words} (suited shoe)",
                ("red", "black") + none,
                frozenset({"colour"}),
                third,
            ),
        ]
    return (
        *out,
        CardFact("player_initial_total", "the Player's two-card total, 0-9", _TOTALS, frozenset({"value"})),
        CardFact("banker_initial_total", "the Banker's two-card total, 0-9", _TOTALS, frozenset({"value"})),
        CardFact("nines", "how many nines among the first four cards, 0-4", (0, 1, 2, 3, 4), frozenset({"nine"})),
        CardFact(
            "nines_suited",
            "at least two nines among the first four cards, all of one suit (suited shoe)",
            _BOOL,
            frozenset({"nine", "suit"}),
        ),
        CardFact(
            "nine_of_diamonds",
            "a nine of diamonds among the first four cards (suited shoe)",
            _BOOL,
            frozenset({"nine", "suit"}),
        ),
        CardFact(
            "first_four_colour",
            "the colour of the first four cards: red, black or mixed (suited shoe)",
            ("red", "black", "mixed"),
            frozenset({"colour"}),
        ),
        CardFact(
            "first_four_poker",
            "the poker value of the first four cards, best first (suited shoe; mini-royal is A-K-Q-J suited,"
            " a straight may run A-2-3-4 or J-Q-K-A)",
            POKER_HANDS,
            frozenset({"rank", "suit"}),
        ),
        CardFact(
            "first_four_pair",
            "the rank of the pair when the first four cards make exactly one pair (and no flush or straight),"
            " else none",
            RANK_TEXT + ("none",),
            frozenset({"rank", "suit"}),
        ),
        CardFact(
            "face_cards",
            "how many of the first four cards are a J, Q or K (a 10 is not), 0-4",
            (0, 1, 2, 3, 4),
            frozenset(),
            tests=(("rank", frozenset({10, 11, 12})),),
        ),
        CardFact(
            "first_four_same_card",
            "the first four cards are all the very same card, rank and suit (suited shoe)",
            _BOOL,
            frozenset({"identity"}),
        ),
    )


#: The poker values of four cards, best first (the Jackpot Baccarat order).
POKER_HANDS = (
    "mini-royal",
    "four-of-a-kind",
    "straight-flush",
    "three-of-a-kind",
    "flush",
    "straight",
    "two-pair",
    "pair",
    "high-card",
)
#: Every card fact by name.
CARD_FACTS: dict[str, CardFact] = {f.name: f for f in _card_facts()}


def card_facts_of(when: Condition | None) -> tuple[CardFact, ...]:
    """The card facts a condition reads (none for a condition over coup states only).

    >>> [f.name for f in card_facts_of(condition({"winner": "tie", "p1_rank": "K"}))]
    ['p1_rank']
    """
    return tuple(CARD_FACTS[name] for name, _ in when or () if name in CARD_FACTS)


def condition(when: Mapping[str, object]) -> Condition:
    """Check a mapping of fact → value (or list of values, meaning any of them) and return it as a condition.

    >>> condition({"winner": ["player", "banker"], "margin": 9})
    (('winner', ('player', 'banker')), ('margin', (9,)))
    >>> condition({"colour": "red"})
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown fact 'colour': did you mean ...? Valid facts are winner, player_total, ...
    """
    return read_condition(when, _find_fact, _unknown_fact, _card_value, _valid)


def file_condition(when: Mapping[str, object]) -> Condition:
    """A condition as a bets or rules file writes it: read as :func:`condition` reads it, and refused when nothing
    can meet it (:func:`never_holds`): such a condition is a mistake in the file, not an outcome that never happens.

    >>> file_condition({"b1_rank": "K", "b1_value": 5})
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: the condition b1_rank = K, b1_value = 5 can never hold: no card is all of \
b1_rank = K, b1_value = 5
    """
    read = condition(when)
    why = never_holds(read)
    if why is not None:
        raise ExactOddsError(f"the condition {shown(describe(read), 80)} can never hold: {why}")
    return read


#: What each card says of the facts of its position (rank, value, suit, colour), then a third card not dealt.
_CARDS: tuple[dict[str, object], ...] = (
    *({"rank": rank.value, "value": rank.points, "suit": suit.value, "colour": "red" if suit.value in "HD" else "black"}
      for rank in RANKS for suit in SUITS),  # type: ignore[arg-type]  # (a dict[str, int | str] is one)
    dict.fromkeys(("rank", "value", "suit", "colour"), "none"),
)


def never_holds(when: Condition) -> str | None:
    """Why no deal can meet ``when``, or ``None``: the facts of how the coup ended that no coup state has together
    (``winner = tie, margin = 3``), or the facts of one card (its rank, value, suit, colour) that no card has
    together (``b1_rank = K, b1_value = 5``), each tried against every coup state, every card. A contradiction
    between facts of several cards, or between them and the coup's end, is left to the pricing (its count is 0).

    >>> never_holds(condition({"winner": "tie", "p1_suit": "H"})) is None
    True
    >>> never_holds((("winner", ("tie",)), ("margin", (3,))))
    'no coup ends with winner = tie, margin = 3'
    """
    coup = tuple((name, values) for name, values in when if name in FACTS)
    if coup and not states_where(coup):
        return f"no coup ends with {shown(describe(coup), 80)}"
    for position in CARD_POSITIONS:
        facts = [(name, values) for name, values in when if name.startswith(position + "_") and name in CARD_FACTS]
        wanted = [(name.removeprefix(position + "_"), values) for name, values in facts]
        if len(facts) > 1 and not any(all(card[what] in values for what, values in wanted) for card in _CARDS):
            return f"no card is all of {shown(describe(tuple(facts)), 80)}"
    return None


def _find_fact(name: str) -> Fact | CardFact | None:
    return FACTS.get(name) or CARD_FACTS.get(name)


def _unknown_fact(name: str) -> str:
    return str(unknown_name("fact", name, [*FACTS, *CARD_FACTS], more="exactodds facts lists them"))


def _card_value(fact: Fact | CardFact, value: object) -> object:
    """A card fact's value in normal form: ranks as ``A 2 … 9 T J Q K`` (``10`` or 2-10 as numbers too), suits upper."""
    if not isinstance(fact, CardFact):
        return value
    if fact.name.endswith("_rank") or fact.name == "first_four_pair":
        return rank_text(value)
    if fact.name.endswith("_suit") and isinstance(value, str) and value.strip().upper() in _SUIT_TEXT:
        return value.strip().upper()
    return value


def _valid(fact: Fact | CardFact, value: object) -> bool:
    if isinstance(fact, CardFact) and value == "none":
        return "none" in fact.values
    if fact.kind == "bool":
        return isinstance(value, bool)
    if fact.kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) and value in fact.values
    return isinstance(value, str) and value in fact.values


def holds(when: Condition, state: CoupState) -> bool:
    """Whether every fact of the condition has one of its values in ``state``."""
    _no_card_facts(when)
    return all(FACTS[name].read(state) in values for name, values in when)


def _no_card_facts(when: Condition) -> None:
    """Refuse a card fact where only coup states are known (an event on coup states, the compiled evaluator)."""
    used = card_facts_of(when)
    if used:
        raise ExactOddsError(
            f"the card fact {used[0].name!r} cannot be used here: only the card walk (the conditions of a bets"
            " file and of rule overrides) reads the dealt cards; a coup state says how the coup ended"
        )


# --- conditions as sets of coup states ------------------------------------------------------------
# A set of coup states is an int used as a bit set: bit i stands for ALL_STATES[i]. A condition
# is then a few ANDs and ORs of precomputed masks (one per fact value); events, bets and the
# partition check of a bets file all work on these sets, never on code.

#: Each coup state's index in ALL_STATES (its bit in a set of states).
STATE_INDEX: dict[CoupState, int] = {state: i for i, state in enumerate(ALL_STATES)}
_N = len(ALL_STATES)
#: The set of every coup state.
ALL_MASK = (1 << _N) - 1


def mask_of(members: Sequence[bool]) -> int:
    """The bit set of the states whose entry of ``members`` (indexed like ALL_STATES) is true.

    >>> mask_of([True, False, True])
    5
    """
    return int(bytes(map(bool, reversed(members))).translate(b"01" + bytes(254)) or b"0", 2)  # digits made in C


def state_indices(mask: int) -> list[int]:
    """The indices (into ALL_STATES) of the states in a bit set, in order.

    >>> state_indices(5)
    [0, 2]
    """
    bits = format(mask, "b")[::-1]
    out = []
    i = bits.find("1")
    while i >= 0:
        out.append(i)
        i = bits.find("1", i + 1)
    return out


class _FactMasks(dict[str, dict[object, int]]):
    """The masks of each fact by value, each fact's made on first use (start-up reads only the facts it needs)."""

    def __missing__(self, name: str) -> dict[object, int]:
        if name == "winner":  # who won is which total is higher: read off the totals' masks, not each state again
            masks = _winner_masks(self["player_total"], self["banker_total"])
        else:
            masks = _read_masks(FACTS[name])
        self[name] = masks
        return masks


def _read_masks(fact: Fact) -> dict[object, int]:
    """The mask of each value of ``fact``, read state by state.

    One byte per state, most significant state first: the value itself where the values are small whole numbers (or
    bools), else its number; each value's mask is then one translation of those bytes to the digits 0 and 1 (by a
    table of 256 bytes) and one ``int(…, 2)``, both in C.

    >>> _read_masks(FACTS["pairs"])[2] == mask_of([s.player_pair and s.banker_pair for s in ALL_STATES])
    True
    """
    read: list[Any] = list(map(fact.read, reversed(ALL_STATES)))
    values: tuple[Any, ...] = fact.values
    if all(type(value) in (int, bool) and 0 <= value < 256 for value in values):
        number = {value: int(value) for value in values}
        codes = bytes(read)
    else:
        number = {value: k for k, value in enumerate(values)}
        codes = bytes(map(number.__getitem__, read))
    return {value: int(codes.translate(b"0" * k + b"1" + b"0" * (255 - k)), 2) for value, k in number.items()}


def _winner_masks(player: Mapping[object, int], banker: Mapping[object, int]) -> dict[object, int]:
    """The masks of the ``winner`` fact, from those of the two totals: the Player wins where her total is the higher.

    >>> masks = fact_masks()
    >>> _winner_masks(masks["player_total"], masks["banker_total"]) == _read_masks(FACTS["winner"])
    True
    """
    masks: dict[object, int] = {"player": 0, "banker": 0, "tie": 0}
    for p, p_mask in player.items():
        for b, b_mask in banker.items():
            masks["player" if p > b else "banker" if b > p else "tie"] |= p_mask & b_mask  # type: ignore[operator]
    return masks


@lru_cache(maxsize=1)
def fact_masks() -> dict[str, dict[object, int]]:
    """For every fact and each of its values, the bit set of the states where the fact has that value.

    >>> fact_masks()["winner"]["tie"] == mask_of([s.winner == "tie" for s in ALL_STATES])
    True
    """
    return _FactMasks()


def states_where(when: Condition) -> int:
    """The bit set of the coup states (bit i: ``ALL_STATES[i]``) where the condition holds.

    >>> [ALL_STATES[i] for i in state_indices(states_where(condition({"winner": "banker", "banker_total": 1})))][:1]
    [CoupState(player_total=0, banker_total=1, player_cards=2, banker_cards=2, player_pair=False, \
banker_pair=False, player_pair_suited=False, banker_pair_suited=False)]
    """
    _no_card_facts(when)
    masks = fact_masks()
    out = ALL_MASK
    for name, values in when:
        either = 0
        for value in values:
            either |= masks[name][value]
        out &= either
    return out


@lru_cache(maxsize=1)
def _twin_shifts() -> tuple[tuple[int, int], ...]:
    """(d, T): T the set of plain states whose suited variant is d places further on in ALL_STATES.

    Every suited state has a plain twin (its suited flags cleared); grouping the pairs by how far
    apart they lie makes "does this set treat some suited state unlike its twin" a few shifts.
    """
    return twin_shifts()


def reads_suits(mask: int) -> bool:
    """Whether a set of states tells some suited state from its plain twin (so it needs a suited shoe).

    >>> reads_suits(states_where(condition({"suited_pairs": 0}))), reads_suits(states_where(condition({"pairs": 1})))
    (True, False)
    """
    return any(((mask >> d) ^ mask) & twins for d, twins in _twin_shifts())
