"""What a lab run deals and plays: the plan (typed, validated) and the plain data a worker needs of it.

:class:`SimulationPlan` holds final-typed values and only checks them;
:meth:`SimulationPlan.from_options` reads raw option values (bet ids, strategy names, tag
and threshold texts, a burn such as ``"card"``) into one. :class:`ChunkWork` is the plan as
plain data (the bets reduced to their pay per coup state), so any executor can ship it.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any, Literal

from ..betfile import ALL_BETS
from ..cards import Shoe
from ..errors import ExactOddsError, shown, unknown_name
from ..exact import fraction_text
from ..paytable import Bet as AnyBet
from ..present import shoe_json, shoe_rules_header
from ..puntobanco.bets import bet_catalog
from ..puntobanco.coup import ALL_STATES, STATE_CODES, CoupState, decode_state
from ..puntobanco.events import Bet
from ..puntobanco.odds import resolve_bets
from ..puntobanco.rules import PUNTO_BANCO, RuleSet, Tableau
from ..rebate import Rebate, rebated_bet
from .counts import CountSystem, count_systems, tags_text

#: A strategy: bet when the exact EV is positive, when a count says so, or every coup.
Strategy = Literal["perfect", "count", "always"]
#: The strategies the lab knows, in report order.
STRATEGIES: tuple[Strategy, ...] = ("perfect", "count", "always")
#: A burn: that many cards face down, or ``"card"`` (the first card shown, its value in cards burned).
Burn = int | Literal["card"]
#: The bets simulated when none are named.
DEFAULT_BETS = ("dragon-7", "panda-8")
#: Shoes per chunk: the unit of work, of seeding and of resuming.
CHUNK_SHOES = 500
#: The coup in which the cut card comes out and the one dealt after it use up to 12 cards.
MIN_CUT_CARD = 12
#: Largest shoe the simulation prices (the compiled evaluator's int64 bound).
MAX_SIMULATED_CARDS = 1004
#: The most shoes one run deals (a list of its chunks is kept; 10^9 shoes take days on a few cores).
MAX_SHOES = 10**9
#: The most cards a coup uses.
COUP_CARDS = 6
#: The longest ``--burn`` read (the burn must leave a coup before the cut card of a simulated shoe anyway).
_BURN_DIGITS = len(str(MAX_SIMULATED_CARDS))


def random_seed() -> int:
    """A fresh random seed for a run (reported with the results so the run can be repeated)."""
    return secrets.randbits(32)


def parse_burn(text: str) -> Burn:
    """Read a burn: a number of cards in ASCII digits, or ``card`` (the first card's value).

    >>> parse_burn(" 3 "), parse_burn("Card")
    (3, 'card')
    """
    key = text.strip().lower()
    if key == "card":
        return "card"
    # str.isdigit() accepts superscripts and other scripts' digits, which int() then refuses or reads.
    if not key or not key.isascii() or not key.isdigit():
        raise ExactOddsError(f"the burn must be a number of cards or 'card' (the first card's value), not"
                             f" {shown(text)!r}")
    digits = key.lstrip("0") or "0"
    if len(digits) > _BURN_DIGITS:
        raise ExactOddsError(f"the burn of {shown(digits, 12)} cards is more than a simulated shoe holds"
                             f" ({MAX_SIMULATED_CARDS})")
    return int(digits)


def depends_on_suits(bet: Bet) -> bool:
    """Whether a bet settles some coup differently by the suits of its pairs (the lab deals ranks)."""
    if not bet.needs_suits and not bet.reads_cards:  # each coup settles as its plain twin (known from the events)
        return False
    return any(bet.settle(s).net != bet.settle(CoupState(*s[:6])).net for s in ALL_STATES if len(s) > 6)


def simulated_bets(rules: RuleSet, bets: Iterable[str | AnyBet]) -> tuple[Bet, ...]:
    """The bets to simulate: ``all`` is every catalog bet the lab can price (it deals ranks, so none on suits).

    >>> ids = [b.id for b in simulated_bets(PUNTO_BANCO, ["all"])]
    >>> len(ids) > 40, "dragon-7" in ids, "perfect-pair" in ids
    (True, True, False)
    """
    chosen: list[str | AnyBet] = []
    for bet in bets:
        if bet == ALL_BETS:
            chosen += [
                b for b in bet_catalog(rules, full=True).values() if not b.reads_cards and not depends_on_suits(b)
            ]
        else:
            chosen.append(bet)
    out = resolve_bets(rules, chosen)
    for bet in out:
        if bet.reads_cards or any(o.multiplier is not None for o in bet.outcomes):
            raise ExactOddsError(
                f"bet {bet.id} reads the dealt cards or has a multiplier: the lab simulates coup states"
            )
    return out


@dataclass(frozen=True)
class BetPays:
    """The simulated bets as plain data: per bet, its net pays and which outcome settles each coup-state code.

    Pure data (ints and Fractions), hashable and picklable whatever the bets' events are
    made of: workers price and settle from this alone.

    >>> pays = bet_pays(resolve_bets(PUNTO_BANCO, ["tie"]))
    >>> pays.ids, pays.scale, pays.net(0, 0)
    (('tie',), 1, Fraction(8, 1))
    """

    ids: tuple[str, ...]
    #: Per bet, the net pay of each outcome (in the bet's order).
    nets: tuple[tuple[Fraction, ...], ...]
    #: Per bet, the index of the outcome that settles each state code 0 … STATE_CODES − 1.
    settles: tuple[tuple[int, ...], ...]

    @property
    def scale(self) -> int:
        """The common denominator of every net pay: pays × scale are integers."""
        return math.lcm(*(net.denominator for nets in self.nets for net in nets))

    def net(self, bet: int, code: int) -> Fraction:
        """The net pay of bet number ``bet`` on the coup of state code ``code``."""
        return self.nets[bet][self.settles[bet][code]]


@lru_cache(maxsize=16)
def bet_pays(bets: tuple[Bet, ...]) -> BetPays:
    """The pays of ``bets`` as plain data (see :class:`BetPays`)."""
    states = [decode_state(code) for code in range(STATE_CODES)]
    settles = []
    for bet in bets:
        # The outcomes partition the coups (checked when a bet is made): settle() finds the one.
        index = {id(outcome): k for k, outcome in enumerate(bet.outcomes)}
        settles.append(tuple(index[id(bet.settle(state))] for state in states))
    return BetPays(
        tuple(b.id for b in bets), tuple(tuple(o.net for o in b.outcomes) for b in bets), tuple(settles)
    )


def chunk_size(shoes: int, chunk_shoes: int, index: int) -> int:
    """The number of shoes in chunk ``index`` of a run of ``shoes`` shoes cut into chunks of ``chunk_shoes``."""
    return min(chunk_shoes, shoes - index * chunk_shoes)


@dataclass(frozen=True)
class ChunkWork:
    """Everything a worker needs to deal and price any chunk of a plan, as plain picklable data."""

    counts: tuple[int, ...]
    tableau: Tableau
    pays: BetPays
    strategies: tuple[Strategy, ...]
    #: Per bet (in order), its count system, or None without the count strategy.
    systems: tuple[CountSystem | None, ...]
    cut_card: int
    burn: Burn
    seed: int
    shoes: int
    chunk_shoes: int

    def chunk_size(self, index: int) -> int:
        """The number of shoes in chunk ``index``."""
        return chunk_size(self.shoes, self.chunk_shoes, index)


def _whole(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ExactOddsError(f"the {name} must be a whole number, not {shown(repr(value))}")
    return value


@dataclass(frozen=True)
class SimulationPlan:
    """What to simulate: the shoe, the rules, the bets, the strategies, and the dealing rules.

    Every field holds its final type; the constructor only checks them. Build a plan from
    option values (bet ids, strategy names, tag texts) with :meth:`from_options`.

    >>> plan = SimulationPlan.from_options(Shoe.standard(8), bets=["dragon-7"], shoes=1200, seed=1)
    >>> plan.chunk_sizes(), plan.strategies
    ([500, 500, 200], ('perfect',))
    """

    shoe: Shoe
    rules: RuleSet
    bets: tuple[Bet, ...]
    shoes: int = 1000
    seed: int = 0
    #: A subset of STRATEGIES in their order; ``count`` comes with ``perfect`` (its efficiency is measured on it).
    strategies: tuple[Strategy, ...] = ("perfect",)
    #: Cards behind the cut card.
    cut_card: int = 14
    #: The burn after the shuffle: N cards face down (never seen by the player), or ``"card"``:
    #: the first card is turned face up (seen) and as many cards as its value (T, J, Q, K: 10)
    #: are burned face down, the usual baccarat rule.
    burn: Burn = 0
    #: A count system per bet id (every bet, in order) for the ``count`` strategy; empty without it.
    counts: Mapping[str, CountSystem] = field(default_factory=dict)
    chunk_shoes: int = CHUNK_SHOES
    #: A rebate, or None: every bet is then paid its net pay plus the rebate its outcome earns (see
    #: :attr:`paid_bets`), so perfect play bets when the EV with the rebate is positive, and every figure
    #: (units won, EV, house edge) includes the rebate paid.
    rebate: Rebate | None = None

    def __post_init__(self) -> None:
        self._check_numbers()
        self._check_deal()
        self._check_bets()
        self._check_strategies()

    def _check_numbers(self) -> None:
        for name, value in (("shoes", self.shoes), ("seed", self.seed), ("cut card", self.cut_card),
                            ("chunk size", self.chunk_shoes)):  # fmt: skip
            _whole(name, value)
        if self.burn != "card":
            _whole("burn", self.burn)
        if self.shoes < 1:
            raise ExactOddsError(f"simulate at least one shoe, not {self.shoes}")
        if self.shoes > MAX_SHOES:
            raise ExactOddsError(f"simulate at most {MAX_SHOES:,} shoes in one run, not {self.shoes:,}")
        if self.seed < 0:
            raise ExactOddsError(f"the seed must be 0 or more, not {self.seed}")
        if self.chunk_shoes < 1:
            raise ExactOddsError(f"a chunk needs at least one shoe, not {self.chunk_shoes}")

    def _check_deal(self) -> None:
        if self.rules.player_five == "best" or self.rules.player_five_draws is not None:
            raise ExactOddsError(
                "the lab deals by a fixed tableau; the holder's best choice on 5 (--player-5 best, big-table) and a"
                " mixed policy are priced by odds, not simulated: use --player-5 draw or stand"
            )
        size = self.shoe.size
        if size > MAX_SIMULATED_CARDS:
            raise ExactOddsError(f"simulate deals shoes of at most {MAX_SIMULATED_CARDS} cards; this one has {size}")
        if self.cut_card < MIN_CUT_CARD:
            raise ExactOddsError(
                f"the cut card must be at least {MIN_CUT_CARD} cards from the end (the coup that brings it out and"
                f" the one after it use up to 12 cards), not {self.cut_card}"
            )
        if self.most_burned < 0:
            raise ExactOddsError(f"the burn cannot be negative ({self.burn})")
        if self.most_burned + self.cut_card >= size:
            what = "with the burn, " if self.burn else ""
            raise ExactOddsError(
                f"the cut card {self.cut_card} cards from the end is deeper than the shoe: {what}a shoe of"
                f" {size} cards leaves no coup before it"
            )
        before = size - self.cut_card - self.most_burned
        if before < COUP_CARDS:
            # Fewer than 6 cards before the cut card: the very first coup could bring it out,
            # so a shoe would be nothing but that coup and the one after it, not a shoe dealt
            # to the cut card; refuse rather than report figures of such "shoes".
            burned = f" after a burn of up to {self.most_burned}" if self.burn else ""
            raise ExactOddsError(
                f"the shoe cannot deal a single whole coup before the cut card: {size} cards with the cut card"
                f" {self.cut_card} from the end leave {max(before, 0)} before it{burned}, and a coup needs"
                f" {COUP_CARDS}"
            )

    def _check_bets(self) -> None:
        if not isinstance(self.bets, tuple) or not all(isinstance(b, Bet) for b in self.bets):
            raise ExactOddsError("a plan's bets are Bet objects: build it with SimulationPlan.from_options for ids")
        if not self.bets:
            raise ExactOddsError("choose at least one bet to simulate")
        if len(set(self.bet_ids)) != len(self.bets):
            raise ExactOddsError("two simulated bets have the same id: give each bet once")
        for bet in self.bets:
            if depends_on_suits(bet):
                raise ExactOddsError(
                    f"simulate deals shoes by rank, so it cannot settle bet {bet.id!r}, which needs suits"
                )

    def _check_strategies(self) -> None:
        strategies = self.strategies
        if not strategies:
            raise ExactOddsError("choose at least one strategy")
        for s in strategies:
            if s not in STRATEGIES:
                raise unknown_name("strategy", s, STRATEGIES, plural="strategies")
        if strategies != tuple(s for s in STRATEGIES if s in strategies):
            raise ExactOddsError(f"give the strategies once each, in the order {', '.join(STRATEGIES)}")
        ids = self.bet_ids
        if "count" in strategies:
            if "perfect" not in strategies:
                raise ExactOddsError("the count strategy is measured against perfect play: include perfect")
            if not self.counts:
                raise ExactOddsError("the count strategy needs --tags and --threshold")
            missing = [b for b in ids if b not in self.counts]
            if missing:
                raise ExactOddsError(
                    f"the count strategy needs tags and a threshold for every bet: none for {missing[0]}"
                )
        elif self.counts:
            raise ExactOddsError("tags and a threshold are for the count strategy: add --strategy count")
        extra = [b for b in self.counts if b not in ids]
        if extra:
            raise ExactOddsError(f"a count for bet {extra[0]!r}, which is not simulated")
        if list(self.counts) != [b for b in ids if b in self.counts]:
            raise ExactOddsError("give the count systems in the order of the bets")
        if not all(isinstance(c, CountSystem) for c in self.counts.values()):
            raise ExactOddsError("a count is a CountSystem: read tags and thresholds with count_systems")
        if self.rebate is not None and not isinstance(self.rebate, Rebate):
            raise ExactOddsError("a plan's rebate is a Rebate: read it with Rebate.parse")

    @classmethod
    def from_options(
        cls,
        shoe: Shoe,
        rules: RuleSet = PUNTO_BANCO,
        *,
        bets: Iterable[str | AnyBet] = DEFAULT_BETS,
        strategies: Iterable[str] = (),
        tags: Iterable[str] = (),
        thresholds: Iterable[str] = (),
        counts: Mapping[str, CountSystem] | None = None,
        shoes: int = 1000,
        seed: int | None = None,
        cut_card: int = 14,
        burn: int | str = 0,
        chunk_shoes: int = CHUNK_SHOES,
        rebate: Rebate | None = None,
    ) -> SimulationPlan:
        """A plan from option values: bet ids (``all``: every bet the lab can price), strategy names, tag texts.

        ``tags``/``thresholds`` are ``[BET=]VALUE`` texts (see :func:`count_systems`), or give
        ``counts`` directly. No strategy means perfect play, and the count too when there is
        one; the count brings perfect play with it. No seed means a random one.

        >>> plan = SimulationPlan.from_options(Shoe.standard(8), bets=["dragon-7"], strategies=["Count", "always"],
        ...                                    tags=["0,0,0,-1,-1,-1,-1,2,2,0"], thresholds=["4"], burn="card")
        >>> plan.strategies, plan.burn, plan.counts["dragon-7"].threshold
        (('perfect', 'count', 'always'), 'card', Fraction(4, 1))
        """
        chosen = simulated_bets(rules, bets)
        if not chosen:
            raise ExactOddsError("choose at least one bet to simulate")
        ids = [b.id for b in chosen]
        tags, thresholds = list(tags), list(thresholds)
        if counts is not None and (tags or thresholds):
            raise ExactOddsError("give either count systems or tags and thresholds, not both")
        systems = dict(counts) if counts is not None else count_systems(ids, tags, thresholds)
        names = [s.strip().lower() for s in strategies] or (["perfect", "count"] if systems else ["perfect"])
        if "count" in names:
            names.append("perfect")  # a count's efficiency is measured against perfect play on the same shoes
        parsed_burn = parse_burn(burn) if isinstance(burn, str) else burn
        return cls(
            shoe,
            rules,
            chosen,
            shoes=shoes,
            seed=random_seed() if seed is None else seed,
            strategies=strategies_of(names),
            cut_card=cut_card,
            burn=parsed_burn,
            counts={b: systems[b] for b in ids if b in systems} | {b: systems[b] for b in systems if b not in ids},
            chunk_shoes=chunk_shoes,
            rebate=rebate,
        )

    @property
    def most_burned(self) -> int:
        """The most cards the burn can take (11 under the ``card`` rule: a T, J, Q or K and ten more)."""
        return 11 if self.burn == "card" else self.burn

    @property
    def bet_ids(self) -> tuple[str, ...]:
        """The ids of the simulated bets, in order."""
        return tuple(b.id for b in self.bets)

    @cached_property
    def paid_bets(self) -> tuple[Bet, ...]:
        """The bets as the player is paid them: the bets themselves, or with the rebate in each outcome's net pay.

        >>> from exactodds.rebate import Rebate
        >>> plan = SimulationPlan.from_options(Shoe.standard(8), bets=["tie"], rebate=Rebate(Fraction(1, 100)))
        >>> [str(o.net) for o in plan.paid_bets[0].outcomes]
        ['801/100', '-99/100']
        """
        if self.rebate is None:
            return self.bets
        rebate = self.rebate
        return tuple(rebated_bet(b, rebate) for b in self.bets)

    @property
    def pays(self) -> BetPays:
        """The pays of :attr:`paid_bets` as plain data."""
        return bet_pays(self.paid_bets)

    @property
    def chunk_count(self) -> int:
        """How many chunks the run is split into."""
        return -(-self.shoes // self.chunk_shoes)

    def chunk_size(self, index: int) -> int:
        """The number of shoes in chunk ``index``."""
        return chunk_size(self.shoes, self.chunk_shoes, index)

    def chunk_sizes(self) -> list[int]:
        """The size of every chunk, in order."""
        return [self.chunk_size(i) for i in range(self.chunk_count)]

    def work(self) -> ChunkWork:
        """The plan as plain data for the workers (see :class:`ChunkWork`)."""
        return ChunkWork(
            counts=self.shoe.counts,
            tableau=self.rules.tableau,
            pays=self.pays,
            strategies=self.strategies,
            systems=tuple(self.counts.get(b) for b in self.bet_ids),
            cut_card=self.cut_card,
            burn=self.burn,
            seed=self.seed,
            shoes=self.shoes,
            chunk_shoes=self.chunk_shoes,
        )

    def identity(self) -> dict[str, Any]:
        """Everything that decides the result except the number of shoes (JSON-ready)."""
        return {
            "rules": self.rules.as_dict(),
            "shoe": shoe_json(self.shoe, suited=False),
            "bets": list(self.bet_ids),
            "strategies": list(self.strategies),
            "counts": {
                b: {"tags": tags_text(c.tags), "threshold": fraction_text(c.threshold)} for b, c in self.counts.items()
            },
            "cut_card": self.cut_card,
            "burn": self.burn,
            "seed": self.seed,
            "chunk_shoes": self.chunk_shoes,
            **({} if self.rebate is None else {"rebate": self.rebate.as_json()}),
        }

    def header(self) -> str:
        """A one-line summary of the shoe, the rules and the dealing."""
        burn = f" · burn {self.burn}" if self.burn else ""
        rebate = f" · {self.rebate.text()}" if self.rebate is not None else ""
        return f"{shoe_rules_header(self.shoe, self.rules)} · cut card {self.cut_card}{burn}{rebate} · seed {self.seed}"


def strategies_of(names: Sequence[str]) -> tuple[Strategy, ...]:
    """Strategy names checked and put in report order.

    >>> strategies_of(["always", "perfect"])
    ('perfect', 'always')
    """
    for name in names:
        if name not in STRATEGIES:
            raise unknown_name("strategy", name, STRATEGIES, plural="strategies")
    return tuple(s for s in STRATEGIES if s in names)
