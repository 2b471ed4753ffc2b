"""The card-counting lab: shoes dealt at random, every coup priced exactly before it is dealt.

``simulate`` shuffles shoes, deals them coup by coup to the cut card, and before every
coup knows the exact EV of each chosen bet for the cards not yet seen. Strategies decide
from what the player knows whether to bet one unit on a bet:

- ``perfect``: whenever the bet's exact EV is positive (the bound for any count);
- ``count``: whenever the true count of a linear count reaches a threshold;
- ``always``: every coup (its mean must converge to the bet's exact house edge).

Definitions (the counting literature's): the *running count* is the sum of the tags of
every card seen since the shuffle (it starts at 0); the *cards remaining* are the cards
not yet seen (the cards still in the shoe, plus any burned face down); *decks remaining*
is cards remaining / 52, and the *true count* is running count / decks remaining. The
count bets when true count >= threshold, decided exactly (52·RC >= threshold·remaining).

The EV before a coup is exact: the cards the coup will use are a uniformly random
ordering of the unseen cards, so the EV given what the player has seen is the EV of the
unseen composition, which the compiled evaluator prices exactly (no float in the sign).

Runs are split into chunks of :data:`CHUNK_SHOES` shoes. Chunk i is shuffled by its own
generator, seeded by ``SeedSequence([seed, i])``, and every total is an exact integer, so
the result is the same for any number of workers, any order of completion, a Dask cluster,
or a run stopped and resumed. Bet EVs are summed in fixed point (units of 2^-32), each
coup's EV rounded from float64, which is deterministic; the decisions use exact integers.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .analysis import resolve_bets
from .bets import Bet
from .cards import RANK_POINTS, RANKS, Shoe
from .coup import CoupState
from .errors import ExactOddsError
from .exact import decimal_text, fraction_text, parse_fraction, sqrt_decimal_text
from .files import write_atomic
from .layout import text_table
from .report import SIMULATION_FORMATS as _FORMATS
from .report import shoe_rules_header
from .rules import PUNTO_BANCO, RuleSet, Tableau

#: The strategies ``simulate`` knows, in report order.
STRATEGIES = ("perfect", "count", "always")
#: Shoes per chunk: the unit of work, of seeding and of resuming.
CHUNK_SHOES = 500
#: The coup in which the cut card comes out and the one dealt after it use up to 12 cards.
MIN_CUT_CARD = 12
#: Bet EVs are summed in units of 2^-EV_BITS.
EV_BITS = 32
#: Largest shoe the simulation prices (the compiled evaluator's int64 bound).
MAX_SIMULATED_CARDS = 1004
SIMULATION_FORMATS = _FORMATS
_DECK = 52
#: The most shoes one run deals (a list of its chunks is kept; 10^9 shoes take days on a few cores).
MAX_SHOES = 10**9
#: The most local worker processes one run starts.
MAX_WORKERS = 1024
#: The largest tag, in absolute value (keeps every running count far inside int64).
MAX_TAG = 1_000_000
_DRAW = 6


# --- counts --------------------------------------------------------------------------------------


def parse_tags(text: str) -> tuple[int, ...]:
    """Read tags per rank: 13 integers (A,2,…,9,T,J,Q,K) or 10 (A,2,…,9, then one for T/J/Q/K).

    >>> parse_tags("0,0,0,-1,-1,-1,-1,2,2,0")
    (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0)
    """
    parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
    try:
        tags = [int(p) for p in parts]
    except ValueError:
        raise ExactOddsError(f"malformed tags {text!r}: write whole numbers separated by commas") from None
    if len(tags) == 10:
        tags += [tags[-1]] * 3
    if len(tags) != len(RANKS):
        raise ExactOddsError(
            f"tags need 13 values (A,2,…,9,T,J,Q,K) or 10 (A,2,…,9,T/J/Q/K), not {len(parts)}: {text!r}"
        )
    return tuple(tags)


def tags_text(tags: Sequence[int]) -> str:
    """Tags in the ``--tags`` format: 10 values when T, J, Q and K share a tag, else 13.

    >>> tags_text((1, 1, -2, -2, -2, -1, -1, -2, 4, 1, 1, 1, 1))
    '1,1,-2,-2,-2,-1,-1,-2,4,1'
    """
    tags = list(tags)
    if len(set(tags[9:])) == 1:
        tags = tags[:10]
    return ",".join(str(t) for t in tags)


def parse_threshold(text: str) -> Fraction:
    """Read a true-count threshold exactly: ``4``, ``-1.5``, ``7/2``.

    >>> parse_threshold("3.5")
    Fraction(7, 2)
    """
    try:
        return parse_fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ExactOddsError(f"malformed threshold {text!r}: write a number such as 4 or 3.5") from None


@dataclass(frozen=True)
class CountSystem:
    """A linear count: a tag per rank (A,2,…,9,T,J,Q,K) and a true-count threshold to bet at.

    >>> c = CountSystem(parse_tags("0,0,0,-1,-1,-1,-1,2,2,0"), Fraction(4))
    >>> c.text(), c.balanced
    ('0,0,0,-1,-1,-1,-1,2,2,0 >= 4', True)
    """

    tags: tuple[int, ...]
    threshold: Fraction

    def __post_init__(self) -> None:
        if len(self.tags) != len(RANKS):
            raise ExactOddsError(f"a count needs a tag for each of the {len(RANKS)} ranks, not {len(self.tags)}")
        for tag in self.tags:
            if isinstance(tag, bool) or not isinstance(tag, (int, np.integer)) or abs(tag) > MAX_TAG:
                raise ExactOddsError(f"a tag must be a whole number from -{MAX_TAG:,} to {MAX_TAG:,}, not {tag!r}")

    @property
    def balanced(self) -> bool:
        """Whether a 52-card deck counts to zero."""
        return sum(self.tags) == 0

    def text(self) -> str:
        """Tags and threshold as one line."""
        return f"{tags_text(self.tags)} >= {fraction_text(self.threshold)}"


def _per_bet(items: Iterable[str], bet_ids: Sequence[str], what: str, parse: Callable[[str], Any]) -> dict[str, Any]:
    """``[BET=]VALUE`` items: a bare value applies to every bet, ``BET=VALUE`` to one (whatever the order).

    A value given twice (two bare ones, or two for one bet) is refused rather than silently replaced.
    """
    bare: list[Any] = []
    out: dict[str, Any] = {}
    for item in items:
        head, sep, tail = item.partition("=")
        if sep:
            key = head.strip().lower()
            if key not in bet_ids:
                raise ExactOddsError(
                    f"{what} for bet {head.strip()!r}, which is not simulated: bets are {', '.join(bet_ids)}"
                )
            if key in out:
                raise ExactOddsError(f"{what} given twice for bet {key}: give one per bet")
            out[key] = parse(tail)
        else:
            if bare:
                raise ExactOddsError(f"{what} given twice for every bet: give one (or BET=… for one bet)")
            bare.append(parse(item))
    if bare:
        out = {bet_id: out.get(bet_id, bare[0]) for bet_id in bet_ids}
    return out


def count_systems(bet_ids: Sequence[str], tags: Iterable[str], thresholds: Iterable[str]) -> dict[str, CountSystem]:
    """Count systems per bet from ``[BET=]TAGS`` and ``[BET=]THRESHOLD`` texts (a bare one applies to all bets).

    >>> count_systems(["dragon-7"], ["0,0,0,-1,-1,-1,-1,2,2,0"], ["4"])["dragon-7"].threshold
    Fraction(4, 1)
    """
    tags_by_bet = _per_bet(tags, bet_ids, "tags", parse_tags)
    thresholds_by_bet = _per_bet(thresholds, bet_ids, "a threshold", parse_threshold)
    if thresholds_by_bet and not tags_by_bet:
        raise ExactOddsError("a threshold needs a count: give --tags too")
    if not tags_by_bet:
        return {}
    for bet_id in bet_ids:
        if bet_id not in tags_by_bet:
            raise ExactOddsError(f"the count needs tags for every bet: none for {bet_id}")
        if bet_id not in thresholds_by_bet:
            raise ExactOddsError(f"the count needs a true-count threshold for every bet: none for {bet_id}")
    return {b: CountSystem(tags_by_bet[b], thresholds_by_bet[b]) for b in bet_ids}


# --- the plan ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulationPlan:
    """What to simulate: the shoe, the rules, the bets, the strategies, and the dealing rules.

    >>> plan = SimulationPlan(Shoe.standard(8), bets=("dragon-7",), shoes=1200, seed=1)
    >>> plan.chunk_sizes()
    [500, 500, 200]
    """

    shoe: Shoe
    rules: RuleSet = PUNTO_BANCO
    bets: tuple[str | Bet, ...] = ("dragon-7", "panda-8")
    shoes: int = 1000
    seed: int = 0
    strategies: tuple[str, ...] = ("perfect",)
    #: Cards behind the cut card.
    cut_card: int = 14
    #: The burn after the shuffle: N cards face down (never seen by the player), or ``"card"``:
    #: the first card is turned face up (seen) and as many cards as its value (T, J, Q, K: 10)
    #: are burned face down, the usual baccarat rule.
    burn: int | str = 0
    #: A count system per bet id, for the ``count`` strategy.
    counts: dict[str, CountSystem] = field(default_factory=dict)
    chunk_shoes: int = CHUNK_SHOES

    def __post_init__(self) -> None:
        bets = simulated_bets(self.rules, self.bets)
        if not bets:
            raise ExactOddsError("choose at least one bet to simulate")
        object.__setattr__(self, "bets", bets)
        burn = self.burn
        if isinstance(burn, str):
            burn = parse_burn(burn)
            object.__setattr__(self, "burn", burn)
        for name, value in (("shoes", self.shoes), ("seed", self.seed), ("cut card", self.cut_card),
                            ("burn", 0 if burn == "card" else burn), ("chunk size", self.chunk_shoes)):  # fmt: skip
            if isinstance(value, bool) or not isinstance(value, int):
                raise ExactOddsError(f"the {name} must be a whole number, not {value!r}")
        if self.shoes < 1:
            raise ExactOddsError(f"simulate at least one shoe, not {self.shoes}")
        if self.shoes > MAX_SHOES:
            raise ExactOddsError(f"simulate at most {MAX_SHOES:,} shoes in one run, not {self.shoes:,}")
        if self.seed < 0:
            raise ExactOddsError(f"the seed must be 0 or more, not {self.seed}")
        if self.chunk_shoes < 1:
            raise ExactOddsError(f"a chunk needs at least one shoe, not {self.chunk_shoes}")
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
        if before < _DRAW:
            # Fewer than 6 cards before the cut card: the very first coup could bring it out,
            # so a shoe would be nothing but that coup and the one after it, not a shoe dealt
            # to the cut card; refuse rather than report figures of such "shoes".
            burned = f" after a burn of up to {self.most_burned}" if self.burn else ""
            raise ExactOddsError(
                f"the shoe cannot deal a single whole coup before the cut card: {size} cards with the cut card"
                f" {self.cut_card} from the end leave {max(before, 0)} before it{burned}, and a coup needs {_DRAW}"
            )
        strategies = tuple(dict.fromkeys(s.strip().lower() for s in self.strategies))
        for s in strategies:
            if s not in STRATEGIES:
                raise ExactOddsError(f"unknown strategy {s!r}: valid strategies are {', '.join(STRATEGIES)}")
        if not strategies:
            raise ExactOddsError("choose at least one strategy")
        for bet in bets:
            if _depends_on_suits(bet):
                raise ExactOddsError(
                    f"simulate deals shoes by rank, so it cannot settle bet {bet.id!r}, which needs suits"
                )
        ids = [b.id for b in bets]
        counts = dict(self.counts)
        if "count" in strategies:
            if not counts:
                raise ExactOddsError("the count strategy needs --tags and --threshold")
            missing = [b for b in ids if b not in counts]
            if missing:
                raise ExactOddsError(
                    f"the count strategy needs tags and a threshold for every bet: none for {missing[0]}"
                )
            # Efficiency is measured against perfect play on the same shoes.
            if "perfect" not in strategies:
                strategies = ("perfect", *strategies)
        elif counts:
            raise ExactOddsError("tags and a threshold are for the count strategy: add --strategy count")
        extra = [b for b in counts if b not in ids]
        if extra:
            raise ExactOddsError(f"a count for bet {extra[0]!r}, which is not simulated")
        object.__setattr__(self, "strategies", tuple(s for s in STRATEGIES if s in strategies))
        object.__setattr__(self, "counts", {b: counts[b] for b in ids if b in counts})

    def __getstate__(self) -> dict[str, Any]:
        # Bets hold predicates (lambdas), which do not pickle: ship catalog bets by id.
        from .bets import bet_catalog

        catalog = bet_catalog(self.rules)
        for bet in self.bets:
            if catalog.get(bet.id) is not bet:  # type: ignore[union-attr]
                raise ExactOddsError(f"bet {bet.id!r} is not in the catalog: run it with one worker")  # type: ignore[union-attr]
        return {**self.__dict__, "bets": self.bet_ids}

    def __setstate__(self, state: dict[str, Any]) -> None:
        from .bets import find_bet

        state = dict(state)
        state["bets"] = tuple(find_bet(b, state["rules"]) for b in state["bets"])
        self.__dict__.update(state)

    @property
    def most_burned(self) -> int:
        """The most cards the burn can take (11 under the ``card`` rule: a T, J, Q or K and ten more)."""
        return 11 if self.burn == "card" else int(self.burn)

    @property
    def bet_ids(self) -> tuple[str, ...]:
        """The ids of the simulated bets, in order."""
        return tuple(b.id for b in self.bets)  # type: ignore[union-attr]

    @property
    def chunk_count(self) -> int:
        """How many chunks the run is split into."""
        return -(-self.shoes // self.chunk_shoes)

    def chunk_size(self, index: int) -> int:
        """The number of shoes in chunk ``index``."""
        return min(self.chunk_shoes, self.shoes - index * self.chunk_shoes)

    def chunk_sizes(self) -> list[int]:
        """The size of every chunk, in order."""
        return [self.chunk_size(i) for i in range(self.chunk_count)]

    def identity(self) -> dict[str, Any]:
        """Everything that decides the result except the number of shoes (JSON-ready)."""
        return {
            "rules": self.rules.as_dict(),
            "shoe": {"cards": self.shoe.size, "counts": self.shoe.as_dict()},
            "bets": list(self.bet_ids),
            "strategies": list(self.strategies),
            "counts": {
                b: {"tags": tags_text(c.tags), "threshold": fraction_text(c.threshold)} for b, c in self.counts.items()
            },
            "cut_card": self.cut_card,
            "burn": self.burn,
            "seed": self.seed,
            "chunk_shoes": self.chunk_shoes,
        }

    def header(self) -> str:
        """A one-line summary of the shoe, the rules and the dealing."""
        burn = f" · burn {self.burn}" if self.burn else ""
        return (
            f"{shoe_rules_header(self.shoe, self.rules)} · cut card {self.cut_card}"
            f"{burn} · seed {self.seed}"
        )


#: The longest ``--burn`` read (the burn must leave a coup before the cut card of a simulated shoe anyway).
_BURN_DIGITS = len(str(MAX_SIMULATED_CARDS))


def parse_burn(text: str) -> int | str:
    """Read a burn: a number of cards in ASCII digits, or ``card`` (the first card's value).

    >>> parse_burn(" 3 "), parse_burn("Card")
    (3, 'card')
    """
    key = text.strip().lower()
    if key == "card":
        return "card"
    # str.isdigit() accepts superscripts and other scripts' digits, which int() then refuses or reads.
    if not key or not key.isascii() or not key.isdigit():
        raise ExactOddsError(f"the burn must be a number of cards or 'card' (the first card's value), not {text!r}")
    digits = key.lstrip("0") or "0"
    if len(digits) > _BURN_DIGITS:
        shown = digits if len(digits) <= 12 else digits[:6] + "…"
        raise ExactOddsError(f"the burn of {shown} cards is more than a simulated shoe holds ({MAX_SIMULATED_CARDS})")
    return int(digits)


def simulated_bets(rules: RuleSet, bets: Iterable[str | Bet]) -> tuple[Bet, ...]:
    """The bets to simulate: ``all`` is every catalog bet the lab can price (it deals ranks, so none on suits).

    >>> ids = [b.id for b in simulated_bets(PUNTO_BANCO, ["all"])]
    >>> len(ids) > 40, "dragon-7" in ids, "perfect-pair" in ids
    (True, True, False)
    """
    from .bets import bet_catalog

    chosen: list[str | Bet] = []
    for bet in bets:
        if isinstance(bet, str) and bet.strip().lower() == "all":
            chosen += [b for b in bet_catalog(rules, full=True).values() if not _depends_on_suits(b)]
        else:
            chosen.append(bet)
    return resolve_bets(rules, chosen)


def _depends_on_suits(bet: Bet) -> bool:
    """Whether a bet settles some coup differently by the suits of its pairs (the simulation deals ranks)."""
    from .coup import ALL_STATES

    return any(bet.settle(s).net != bet.settle(CoupState(*s[:6])).net for s in ALL_STATES if len(s) > 6)


# --- exact pricing of many compositions ----------------------------------------------------------


def _multisets(values: int, total: int) -> list[tuple[int, ...]]:
    """Every tuple of ``values`` counts summing to ``total``, in a fixed order."""
    if values == 1:
        return [(total,)]
    return [(k, *rest) for k in range(total + 1) for rest in _multisets(values - 1, total - k)]


class ValueKernel:
    """Exact counts of groups of coup states that depend on card values only (not on pairs).

    For such groups a count is sum_m T[m]·W(m) over the 5,005 six-card value multisets m,
    with W(m) = prod_v (c_v)_(m_v) and 0 <= T[m] <= (orderings of m). Split each multiset
    into its values 0–4 (a) and 5–9 (b): the sum is, for each k = |a|, a bilinear form
    X_k^T T_k Y_(6-k) in X[a] = prod (c_v)_(a_v) and Y[b], evaluated for many shoes as
    one matrix product per k. Every product and partial sum is a non-negative integer at
    most (N)_6, so float64 is exact for shoes of at most 458 cards.
    """

    SLICE = 512  # compositions per pass: small enough to stay in cache (0.3 vs 0.9 ms a shoe on 2 cores)

    def __init__(self, tableau: Tableau, membership: np.ndarray) -> None:
        from .compiled import compiled

        table = compiled(tableau)
        dense = table.project(membership)
        rows = len(table.multisets)
        if np.any(dense[rows:]):
            raise ValueError("these groups depend on pairs (ranks), not only on values")
        coefficients = dense[:rows]
        if np.any(coefficients < 0):
            raise ValueError("negative coefficients")
        self.groups = coefficients.shape[1]
        index = {tuple(int(x) for x in m): i for i, m in enumerate(table.multisets)}
        self._blocks = []
        for k in range(_DRAW + 1):
            left, right = _multisets(5, k), _multisets(5, _DRAW - k)
            t = np.zeros((self.groups, len(right), len(left)))
            for i, b in enumerate(right):
                for j, a in enumerate(left):
                    t[:, i, j] = coefficients[index[a + b]]
            left_index = np.array([(a[0] * 7 + a[1], a[2] * 7 + a[3], a[4]) for a in left]).T
            right_index = np.array([(b[0] * 7 + b[1], b[2] * 7 + b[3], b[4]) for b in right]).T
            self._blocks.append((t.reshape(self.groups * len(right), len(left)), left_index, right_index, len(right)))

    def counts(self, value_counts: np.ndarray) -> np.ndarray:
        """Exact int64 counts (n × groups) for an (n × 10) array of cards per value, each shoe <= 458 cards."""
        value_counts = np.asarray(value_counts, dtype=np.int64)
        if len(value_counts) and value_counts.sum(axis=1).max() > 458:
            raise ValueError("the value kernel is exact for shoes of at most 458 cards")
        out = np.empty((len(value_counts), self.groups), dtype=np.int64)
        for lo in range(0, len(value_counts), self.SLICE):
            hi = min(lo + self.SLICE, len(value_counts))
            out[lo:hi] = self._slice(value_counts[lo:hi]).T
        return out

    def _slice(self, value_counts: np.ndarray) -> np.ndarray:
        n = len(value_counts)
        c = value_counts.T.astype(np.float64)  # (10, n)
        f = np.empty((10, _DRAW + 1, n))
        f[:, 0] = 1.0
        steps = np.maximum(c[:, None, :] - np.arange(_DRAW, dtype=np.float64)[None, :, None], 0.0)
        np.cumprod(steps, axis=1, out=f[:, 1:])

        def pairs(v: int) -> np.ndarray:
            product: np.ndarray = (f[v][:, None, :] * f[v + 1][None, :, :]).reshape(49, n)
            return product

        low = (pairs(0), pairs(2), f[4])
        high = (pairs(5), pairs(7), f[9])
        total = np.zeros((self.groups, n))
        for t, left_index, right_index, width in self._blocks:
            x = low[0][left_index[0]] * low[1][left_index[1]] * low[2][left_index[2]]
            y = high[0][right_index[0]] * high[1][right_index[1]] * high[2][right_index[2]]
            z = (t @ x).reshape(self.groups, width, n)
            total += np.einsum("gtn,tn->gn", z, y)
        return np.rint(total).astype(np.int64)


_RANK_VALUE = np.array([RANK_POINTS[r] for r in RANKS], dtype=np.int64)


def _value_counts(rank_counts: np.ndarray) -> np.ndarray:
    out = np.zeros((len(rank_counts), 10), dtype=np.int64)
    for r, v in enumerate(_RANK_VALUE.tolist()):
        out[:, v] += rank_counts[:, r]
    return out


class _BetLayout:
    """How to turn group counts into each bet's exact EV numerator, and each coup state into its net pay."""

    def __init__(self, rules: RuleSet, bets: tuple[Bet, ...]) -> None:
        from .compiled import compiled
        from .coup import decode_state

        table = compiled(rules.tableau)
        self.scale = math.lcm(*(o.net.denominator for b in bets for o in b.outcomes))
        groups: dict[tuple[int, ...], int] = {}
        self.terms: list[tuple[list[tuple[int, int]], int]] = []  # per bet: [(group, coefficient)], last coef
        for bet in bets:
            nets = [int(o.net * self.scale) for o in bet.outcomes]
            last = nets[-1]
            terms = []
            for outcome, net in zip(bet.outcomes[:-1], nets[:-1]):
                member = tuple(int(outcome.event(s)) for s in table.states)
                terms.append((groups.setdefault(member, len(groups)), net - last))
            self.terms.append((terms, last))
        self.membership = np.array(list(groups), dtype=np.int64).T.reshape(len(table.states), len(groups))
        self.max_net = max(abs(int(o.net * self.scale)) for b in bets for o in b.outcomes)
        # Net pay ×scale of every bet for every state code (see _state_codes).
        self.pay = np.zeros((len(bets), 1600), dtype=np.int64)
        for code in range(1600):
            state = decode_state(code)
            for i, bet in enumerate(bets):
                self.pay[i, code] = int(bet.settle(state).net * self.scale)


@lru_cache(maxsize=8)
def _pricing(rules: RuleSet, bets: tuple[Bet, ...]) -> tuple[_BetLayout, ValueKernel | None]:
    """The bet layout for (rules, bets), and the value kernel when every bet depends on values only."""
    layout = _BetLayout(rules, bets)
    try:
        return layout, ValueKernel(rules.tableau, layout.membership)
    except ValueError:
        return layout, None


@lru_cache(maxsize=8)
def _evaluator(rules: RuleSet, bets: tuple[Bet, ...]) -> Any:
    """The compiled evaluator of the bets' groups: for pair bets and for shoes beyond the value kernel."""
    from .compiled import Evaluator, compiled

    return Evaluator(compiled(rules.tableau), _pricing(rules, bets)[0].membership)


def ev_numerators(rules: RuleSet, bets: tuple[Bet, ...], rank_counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Exact EVs of ``bets`` for many shoes: numerators (n × bets), orderings (n) and a scale.

    EV = numerator / (orderings · scale), exactly; the sign of the numerator decides "EV > 0".

    >>> from exactodds.analysis import analyze
    >>> bets = resolve_bets(PUNTO_BANCO, ["dragon-7"])
    >>> num, orderings, scale = ev_numerators(PUNTO_BANCO, bets, np.array([Shoe.standard(8).counts]))
    >>> Fraction(int(num[0, 0]), int(orderings[0]) * scale) == analyze(Shoe.standard(8), bets=bets).bets[0].ev
    True
    """
    layout, kernel = _pricing(rules, bets)
    rank_counts = np.asarray(rank_counts, dtype=np.int64)
    sizes = rank_counts.sum(axis=1)
    biggest = int(sizes.max()) if len(sizes) else 0
    if kernel is not None and biggest <= 458:
        groups = kernel.counts(_value_counts(rank_counts))
    else:
        groups = _evaluator(rules, bets).counts_array(rank_counts, workers=1)
    orderings = np.ones(len(rank_counts), dtype=np.int64)
    for k in range(_DRAW):
        orderings *= np.maximum(sizes - k, 0)
    from .cards import falling_factorial

    exact_int64 = 3 * layout.max_net * falling_factorial(max(biggest, _DRAW), _DRAW) < 2**63
    dtype: Any = np.int64 if exact_int64 else object
    num = np.zeros((len(rank_counts), len(bets)), dtype=dtype)
    for i, (terms, last) in enumerate(layout.terms):
        column = orderings.astype(dtype) * last
        for group, coefficient in terms:
            column = column + groups[:, group].astype(dtype) * coefficient
        num[:, i] = column
    return num, orderings, layout.scale


# --- dealing -------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _tableau_arrays(tableau: Tableau) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    natural = np.array([tableau.is_natural(t) for t in range(10)])
    player_draws = np.array([tableau.player_draws(t) and not tableau.is_natural(t) for t in range(10)])
    banker_stood = np.array([tableau.banker_draws(t, None) for t in range(10)])
    banker_against = np.array([[tableau.banker_draws(b, v) for v in range(10)] for b in range(10)])
    return natural, player_draws, banker_stood, banker_against


@dataclass(frozen=True)
class DealtChunk:
    """The coups of a chunk of shoes, grouped by shoe in deal order.

    ``shoe[i]`` is the shoe of coup i (0-based within the chunk), ``before[i]`` the unseen
    cards per rank before it, ``state[i]`` its final coup state code (pairs included).
    """

    shoes: int
    shoe: np.ndarray
    before: np.ndarray
    state: np.ndarray


def shuffled_shoes(plan: SimulationPlan, index: int) -> np.ndarray:
    """The shuffled shoes of chunk ``index``: ranks (0 = A … 12 = K) in deal order, one row per shoe.

    >>> plan = SimulationPlan(Shoe.standard(1), bets=("tie",), shoes=3, seed=7)
    >>> cards = shuffled_shoes(plan, 0)
    >>> cards.shape, bool((np.sort(cards[0]) == np.repeat(np.arange(13), 4)).all())
    ((3, 52), True)
    """
    rng = np.random.default_rng(np.random.SeedSequence([plan.seed, index]))
    deck = np.repeat(np.arange(len(RANKS), dtype=np.int8), plan.shoe.counts)
    return rng.permuted(np.tile(deck, (plan.chunk_size(index), 1)), axis=1)


def deal_chunk(plan: SimulationPlan, cards: np.ndarray) -> DealtChunk:
    """Deal every shoe of ``cards`` to the cut card, all shoes side by side, one coup per step.

    The coup in which the cut card comes out (the first that uses a card at or past
    position N − cut card) is finished and one more coup is dealt; then the shoe ends.
    """
    n, size = cards.shape
    natural, player_draws, banker_stood, banker_against = _tableau_arrays(plan.rules.tableau)
    values = _RANK_VALUE[cards]
    cut = size - plan.cut_card
    unseen = np.tile(np.array(plan.shoe.counts, dtype=np.int64), (n, 1))
    if plan.burn == "card":
        # The first card is shown (so seen and counted), then its value in cards (10 for T-K) go face down.
        first = cards[:, 0]
        unseen[np.arange(n), first] -= 1
        pos = 1 + np.where(values[:, 0] == 0, 10, values[:, 0]).astype(np.int64)
    else:
        pos = np.full(n, int(plan.burn), dtype=np.int64)
    last = np.zeros(n, dtype=bool)
    active = np.arange(n)
    offsets = np.arange(_DRAW)
    shoe_parts, before_parts, state_parts = [], [], []
    while active.size:
        p = pos[active]
        index = np.minimum(p[:, None] + offsets, size - 1)
        v = values[active[:, None], index]
        r = cards[active[:, None], index]
        p2 = (v[:, 0] + v[:, 2]) % 10
        b2 = (v[:, 1] + v[:, 3]) % 10
        ends = natural[p2] | natural[b2]
        p_draw = ~ends & player_draws[p2]
        b_draw = ~ends & np.where(p_draw, banker_against[b2, v[:, 4]], banker_stood[b2])
        pt = np.where(p_draw, (p2 + v[:, 4]) % 10, p2)
        bt = np.where(b_draw, (b2 + np.where(p_draw, v[:, 5], v[:, 4])) % 10, b2)
        used = 4 + p_draw + b_draw
        code = ((((pt * 10 + bt) * 2 + p_draw) * 2 + b_draw) * 2 + (r[:, 0] == r[:, 2])) * 2 + (r[:, 1] == r[:, 3])
        shoe_parts.append(active)
        before_parts.append(unseen[active])
        state_parts.append(code)
        for k in range(_DRAW):
            dealt = used > k
            unseen[active[dealt], r[dealt, k]] -= 1
        pos[active] = p + used
        finished = last[active]
        last[active] |= p + used > cut
        active = active[~finished]
    shoe = np.concatenate(shoe_parts)
    order = np.argsort(shoe, kind="stable")
    return DealtChunk(n, shoe[order], np.concatenate(before_parts)[order], np.concatenate(state_parts)[order])


# --- one chunk -----------------------------------------------------------------------------------

#: The exact totals kept per strategy and bet (and per strategy, for all bets combined).
TOTAL_FIELDS = ("bets", "won", "won_squares", "ev", "ev_squares")


@dataclass
class Totals:
    """Exact integer totals of a run or a part of it; adding them is exact and order-free.

    ``won`` is in units of 1/``scale`` of a unit staked, ``ev`` in units of 2^-32; the
    ``_squares`` fields sum the squares of the per-shoe totals (for the standard errors).
    """

    shoes: int = 0
    coups: int = 0
    #: (strategy, bet id or "combined") -> [bets, won, won_squares, ev, ev_squares]
    cells: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    def add(self, other: Totals) -> None:
        """Add another part's totals to these."""
        self.shoes += other.shoes
        self.coups += other.coups
        for key, values in other.cells.items():
            mine = self.cells.setdefault(key, [0] * len(TOTAL_FIELDS))
            for i, x in enumerate(values):
                mine[i] += x

    def as_json(self) -> dict[str, Any]:
        """JSON-ready: integers as decimal strings."""
        return {
            "shoes": self.shoes,
            "coups": self.coups,
            "cells": {
                f"{s}/{b}": dict(zip(TOTAL_FIELDS, (str(x) for x in values))) for (s, b), values in self.cells.items()
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Totals:
        """Read totals written by :meth:`as_json`."""
        cells = {}
        for key, values in data["cells"].items():
            s, _, b = key.partition("/")
            cells[(s, b)] = [int(values[f]) for f in TOTAL_FIELDS]
        return cls(int(data["shoes"]), int(data["coups"]), cells)


def _limit_blas() -> Any:
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def simulate_chunk(plan: SimulationPlan, index: int) -> Totals:
    """Shuffle, deal and price chunk ``index`` of ``plan``; return its exact totals.

    A pure function of (plan, index): any worker, anywhere, gives the same totals.
    """
    with _limit_blas():
        dealt = deal_chunk(plan, shuffled_shoes(plan, index))
        bets: tuple[Bet, ...] = plan.bets  # type: ignore[assignment]
        num, orderings, scale = ev_numerators(plan.rules, bets, dealt.before)
    layout = _pricing(plan.rules, bets)[0]
    # Each coup's EV in fixed point: deterministic float64 rounding of the exact ratio.
    ev = np.rint(num.astype(np.float64) / (orderings.astype(np.float64)[:, None] * scale) * 2.0**EV_BITS).astype(
        np.int64
    )
    starts = np.flatnonzero(np.r_[True, dealt.shoe[1:] != dealt.shoe[:-1]])
    remaining = dealt.before.sum(axis=1)
    full = np.array(plan.shoe.counts, dtype=np.int64)
    totals = Totals(dealt.shoes, len(dealt.shoe))
    for strategy in plan.strategies:
        combined_won = np.zeros(dealt.shoes, dtype=np.int64)
        combined_ev = np.zeros(dealt.shoes, dtype=np.int64)
        combined_bets = 0
        for i, bet_id in enumerate(plan.bet_ids):
            if strategy == "always":
                bet = np.ones(len(dealt.shoe), dtype=bool)
            elif strategy == "perfect":
                bet = num[:, i] > 0
            else:
                system = plan.counts[bet_id]
                tags = np.array(system.tags, dtype=np.int64)
                running = int(full @ tags) - dealt.before @ tags
                bet = _at_threshold(system.threshold, running, remaining)
            won = np.add.reduceat(np.where(bet, layout.pay[i][dealt.state], 0), starts)
            evs = np.add.reduceat(np.where(bet, ev[:, i], 0), starts)
            placed = int(np.count_nonzero(bet))
            totals.cells[(strategy, bet_id)] = _cell(placed, won, evs)
            combined_won += won
            combined_ev += evs
            combined_bets += placed
        if len(plan.bet_ids) > 1:
            totals.cells[(strategy, "combined")] = _cell(combined_bets, combined_won, combined_ev)
    return totals


def _at_threshold(threshold: Fraction, running: np.ndarray, remaining: np.ndarray) -> np.ndarray:
    """Where the true count reaches ``threshold``: 52 · running · d >= n · remaining, for threshold n/d, exactly.

    In int64 when no product can overflow, else on Python integers (a threshold such as 1e-17).

    >>> _at_threshold(Fraction(1, 10**17), np.array([0, 1]), np.array([400, 400])).tolist()
    [False, True]
    """
    left, right = _DECK * threshold.denominator, threshold.numerator
    if left * int(np.abs(running).max(initial=0)) < 2**62 and abs(right) * int(remaining.max(initial=0)) < 2**62:
        return left * running >= right * remaining
    return np.array([left * r >= right * u for r, u in zip(running.tolist(), remaining.tolist())], dtype=bool)


def _cell(placed: int, won: np.ndarray, evs: np.ndarray) -> list[int]:
    won_list, ev_list = won.tolist(), evs.tolist()
    return [placed, sum(won_list), sum(x * x for x in won_list), sum(ev_list), sum(x * x for x in ev_list)]


# --- whole runs ----------------------------------------------------------------------------------


def _ranges(indices: Iterable[int]) -> list[list[int]]:
    """Sorted indices as [first, last] runs: [0, 1, 2, 5] -> [[0, 2], [5, 5]]."""
    out: list[list[int]] = []
    for i in sorted(indices):
        if out and out[-1][1] == i - 1:
            out[-1][1] = i
        else:
            out.append([i, i])
    return out


@dataclass(frozen=True)
class Figures:
    """The results of one strategy on one bet (or on all bets combined), from exact totals.

    ``units`` is the mean net win per shoe (units staked: 1 per bet); ``ev`` the mean per
    shoe of the exact EVs of the bets placed, which estimates the same expectation with
    far less noise (each coup's luck is replaced by its exact expectation).
    """

    shoes: int
    coups: int
    bets: int
    units: Fraction
    units_variance: Fraction
    ev: Fraction
    ev_variance: Fraction
    #: EV per shoe of this strategy over that of perfect play on the same shoes (counts only).
    efficiency: Fraction | None = None
    #: The same from the units won (noisier).
    efficiency_won: Fraction | None = None

    @property
    def bets_per_shoe(self) -> Fraction:
        """Bets placed per shoe."""
        return Fraction(self.bets, self.shoes)

    @property
    def coups_per_shoe(self) -> Fraction:
        """Coups dealt per shoe."""
        return Fraction(self.coups, self.shoes)

    @property
    def average_edge(self) -> Fraction | None:
        """The mean exact EV of the bets placed (the player's edge when betting); None without bets."""
        return None if not self.bets else self.ev * self.shoes / self.bets

    def units_se_text(self, places: int) -> str:
        """The standard error of ``units`` (the variance of the per-shoe totals over the number of shoes)."""
        return sqrt_decimal_text(self.units_variance / self.shoes, places)

    def ev_se_text(self, places: int) -> str:
        """The standard error of ``ev``."""
        return sqrt_decimal_text(self.ev_variance / self.shoes, places)


def _figures(totals: Totals, key: tuple[str, str], scale: int) -> Figures:
    bets, won, won_sq, ev, ev_sq = totals.cells[key]
    n = totals.shoes

    def variance(total: int, squares: int, unit: int) -> Fraction:
        if n < 2:
            return Fraction(0)
        return Fraction(squares * n - total * total, n * (n - 1) * unit * unit)

    one = 2**EV_BITS
    return Figures(
        shoes=n,
        coups=totals.coups,
        bets=bets,
        units=Fraction(won, n * scale),
        units_variance=variance(won, won_sq, scale),
        ev=Fraction(ev, n * one),
        ev_variance=variance(ev, ev_sq, one),
    )


@dataclass
class SimulationResult:
    """A run, complete or not: the plan, the exact totals of the chunks done, and which chunks those are."""

    plan: SimulationPlan
    totals: Totals = field(default_factory=Totals)
    done: set[int] = field(default_factory=set)
    interrupted: bool = False

    @property
    def complete(self) -> bool:
        """Whether every chunk of the plan is done."""
        return len(self.done) == self.plan.chunk_count

    @property
    def shoes_done(self) -> int:
        """Shoes simulated so far."""
        return self.totals.shoes

    def keys(self) -> list[tuple[str, str]]:
        """(strategy, bet id or "combined") in report order."""
        bets = list(self.plan.bet_ids) + (["combined"] if len(self.plan.bet_ids) > 1 else [])
        return [(s, b) for s in self.plan.strategies for b in bets]

    def figures(self) -> dict[tuple[str, str], Figures]:
        """The figures of every strategy and bet (empty before the first chunk)."""
        if not self.totals.shoes:
            return {}
        scale = _pricing(self.plan.rules, self.plan.bets)[0].scale
        out = {key: _figures(self.totals, key, scale) for key in self.keys()}
        for (strategy, bet), f in list(out.items()):
            if strategy == "count":
                perfect = out[("perfect", bet)]
                out[(strategy, bet)] = Figures(
                    **{**f.__dict__,
                       "efficiency": f.ev / perfect.ev if perfect.ev else None,
                       "efficiency_won": f.units / perfect.units if perfect.units else None},
                )  # fmt: skip
        return out

    def as_json(self, places: int = 6) -> dict[str, Any]:
        """The run as JSON-ready values: the plan, the figures (decimal strings) and the exact totals."""
        results: dict[str, Any] = {}
        for (strategy, bet), f in self.figures().items():
            edge = f.average_edge
            entry = {
                "units_per_shoe": decimal_text(f.units, places),
                "units_per_shoe_se": f.units_se_text(places),
                "ev_per_shoe": decimal_text(f.ev, places),
                "ev_per_shoe_se": f.ev_se_text(places),
                "bets_per_shoe": decimal_text(f.bets_per_shoe, places),
                "coups_per_shoe": decimal_text(f.coups_per_shoe, places),
                "average_edge": None if edge is None else decimal_text(edge, places),
            }
            if strategy == "count":
                entry["efficiency"] = None if f.efficiency is None else decimal_text(f.efficiency, places)
                entry["efficiency_won"] = None if f.efficiency_won is None else decimal_text(f.efficiency_won, places)
            results.setdefault(strategy, {})[bet] = entry
        return {
            "simulation": {"shoes": self.plan.shoes, **self.plan.identity()},
            "shoes_done": self.shoes_done,
            "complete": self.complete,
            "results": results,
            "state": {"chunks_done": _ranges(self.done), "totals": self.totals.as_json()},
        }

    def render(self, fmt: str = "table", places: int = 4) -> str:
        """The results as a ``table`` for people or ``json``."""
        if fmt == "json":
            return json.dumps(self.as_json(max(places, 6)), indent=2) + "\n"
        if fmt != "table":
            raise ExactOddsError(f"unknown format {fmt!r}: use one of {', '.join(SIMULATION_FORMATS)}")
        figures = self.figures()
        done = (
            f"{self.shoes_done:,} of {self.plan.shoes:,} shoes" if not self.complete else f"{self.plan.shoes:,} shoes"
        )
        lines = [self.plan.header(), done]
        if not figures:
            return "\n".join(lines) + "\n"
        first = next(iter(figures.values()))
        lines[-1] += f" · {decimal_text(first.coups_per_shoe, 2)} coups per shoe"
        for bet, system in self.plan.counts.items():
            lines.append(f"count for {bet}: tags {tags_text(system.tags)} · bet when true count >= "
                         f"{fraction_text(system.threshold)}")  # fmt: skip
        rows = []
        for (strategy, bet), f in figures.items():
            edge = f.average_edge
            rows.append([
                strategy, bet,
                decimal_text(f.units, places), f.units_se_text(places),
                decimal_text(f.ev, places), f.ev_se_text(places),
                decimal_text(f.bets_per_shoe, 2),
                "—" if edge is None else decimal_text(edge * 100, 2) + "%",
                "" if f.efficiency is None else decimal_text(f.efficiency * 100, 1) + "%",
            ])  # fmt: skip
        headers = ["strategy", "bet", "units/shoe", "± SE", "EV/shoe", "± SE", "bets/shoe", "edge when betting",
                   "efficiency"]  # fmt: skip
        lines += ["", text_table(headers, rows, "llrrrrrrr")]
        lines += ["", "units/shoe: mean net win per shoe, 1 unit per bet; EV/shoe: mean of the exact EVs of the bets"
                  " placed; efficiency: a count's EV/shoe over perfect play's."]  # fmt: skip
        return "\n".join(lines) + "\n"


#: The largest ``--output`` file ``--resume`` reads (a run's file is a few kB, more when its chunks are scattered).
MAX_RESULT_BYTES = 64 * 2**20
#: The most digits of a saved total (a run's largest, a sum of squares, has about 40).
_TOTAL_DIGITS = 200
_INTEGER = re.compile(rf"-?[0-9]{{1,{_TOTAL_DIGITS}}}")


def _read_run_file(path: str | os.PathLike[str], max_chunks: int) -> Any:
    """The JSON of a run file, read with bounds: a regular file, at most MAX_RESULT_BYTES, no deeper than JSON allows.

    ``max_chunks`` bounds the lists and objects the file may hold (a run of that many chunks
    writes at most one ``[first, last]`` pair per chunk), so no file can make the reader
    build more than the run itself would keep.
    """
    import stat

    def bad(why: str) -> ExactOddsError:
        return ExactOddsError(f"cannot resume from {path}: {why}")

    try:
        # O_NONBLOCK: opening a FIFO with no writer must not hang; it is then refused below.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise bad(err.strerror or str(err)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise bad("it is not a regular file")
        if info.st_size > MAX_RESULT_BYTES:
            raise bad(f"{info.st_size:,} bytes is more than a simulate output file holds ({MAX_RESULT_BYTES:,})")
        with os.fdopen(os.dup(fd), "rb") as handle:
            raw = handle.read(MAX_RESULT_BYTES + 1)
    except OSError as err:
        raise bad(err.strerror or str(err)) from None
    finally:
        os.close(fd)
    if len(raw) > MAX_RESULT_BYTES:
        raise bad(f"it is more than a simulate output file holds ({MAX_RESULT_BYTES:,} bytes)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise bad("it is not UTF-8 text") from None
    if text.count("[") + text.count("{") > 2 * max_chunks + 10_000:
        raise bad(f"it holds more entries than a run of {max_chunks:,} chunks writes")

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a number")

    try:
        return json.loads(text, parse_constant=constant)
    except RecursionError:
        raise bad("its JSON is nested too deeply") from None
    except ValueError as err:
        raise bad(f"not a simulate output file ({err})") from None


def _json_int(value: Any) -> bool:
    """Whether a JSON value is a whole number as JSON writes one (not a bool, a float such as 1e400, or a string)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _canonical(value: Any) -> str:
    # 14 == 14.0 == True-ish comparisons of Python values would let a tampered type through.
    return json.dumps(value, sort_keys=True)


def _shoes_in(lo: int, hi: int, shoes: int, chunk: int) -> int:
    """Shoes in chunks lo..hi of a ``shoes``-shoe run of ``chunk``-shoe chunks (lo within the run)."""
    return min(shoes, (hi + 1) * chunk) - lo * chunk


def load_result(path: str | os.PathLike[str], plan: SimulationPlan) -> SimulationResult:
    """Read a stopped (or finished) run of ``plan`` from its ``--output`` file, to resume it.

    The file must hold the same run: the same shoe, rules, bets, strategies, counts,
    dealing rules and seed; the number of shoes may grow when the chunks done keep their size.
    Nothing in the file is trusted: its types, ranges and totals are checked against the
    plan and against what chunks of it can add up to, and anything else is refused.
    """

    def bad(why: str) -> ExactOddsError:
        return ExactOddsError(f"cannot resume from {path}: {why}")

    data = _read_run_file(path, plan.chunk_count)
    try:
        saved = data["simulation"]
        state = data["state"]
        ranges = state["chunks_done"]
        raw_totals = state["totals"]
        old_shoes = saved["shoes"]
    except (KeyError, TypeError, IndexError):
        raise bad("not a simulate output file (it lacks the run, its chunks done or its totals)") from None
    if not isinstance(saved, dict) or not isinstance(ranges, list) or not isinstance(raw_totals, dict):
        raise bad("not a simulate output file (malformed run, chunks done or totals)")
    mine = json.loads(json.dumps(plan.identity()))
    for key in mine:
        if key not in saved or _canonical(saved[key]) != _canonical(mine[key]):
            raise bad(f"it holds another run ({key.replace('_', ' ')} differs)")
    if not _json_int(old_shoes) or not 1 <= old_shoes <= MAX_SHOES:
        raise bad(f"its number of shoes must be a whole number from 1 to {MAX_SHOES:,}, not {old_shoes!r}")
    chunk = plan.chunk_shoes
    old_count = -(-old_shoes // chunk)
    done: set[int] = set()
    shoes_done = 0
    previous = -1
    for item in ranges:
        # Each [first, last] is checked before it is expanded: no range reaches past the run's chunks.
        if not (isinstance(item, list) and len(item) == 2 and all(_json_int(x) for x in item)):
            raise bad(f"a chunk range must be [first, last] in whole numbers, not {str(item)[:40]}")
        lo, hi = item
        if not previous < lo <= hi:
            raise bad(f"the chunk ranges must be increasing and disjoint, not {item} after chunk {previous}")
        if hi >= old_count or hi >= plan.chunk_count:
            raise bad(
                f"chunk {hi} is not a chunk of its {old_shoes:,}-shoe run and of this {plan.shoes:,}-shoe run"
            )
        shoes = _shoes_in(lo, hi, old_shoes, chunk)
        if shoes != _shoes_in(lo, hi, plan.shoes, chunk):
            raise bad(
                f"its {old_shoes:,} shoes do not split into the chunks of a {plan.shoes:,}-shoe run"
            )
        shoes_done += shoes
        done.update(range(lo, hi + 1))
        previous = hi
    totals = _checked_totals(raw_totals, plan, shoes_done, bad)
    return SimulationResult(plan, totals, done)


def _checked_totals(
    data: dict[str, Any], plan: SimulationPlan, shoes_done: int, bad: Callable[[str], ExactOddsError]
) -> Totals:
    """Totals read from a run file, refused unless chunks of ``plan`` holding ``shoes_done`` shoes could add up to them.

    What every chunk's totals satisfy, and so their sums: the shoes are those of the chunks
    done; each shoe deals at least 2 coups (the one that brings out the cut card and one
    more) and at most one per 4 cards; a bet is placed at most once a coup (every coup under
    ``always``); a placed bet wins or loses at most its largest net pay, and its EV is at most
    that too; ``perfect`` bets only at a positive EV; a sum of squares of n per-shoe totals
    is at least the square of their sum over n (Cauchy–Schwarz) and at most the square of
    the sum of their bounds; ``combined`` adds the bets' counts, wins and EVs.
    """
    shoes, coups, cells = data.get("shoes"), data.get("coups"), data.get("cells")
    if not (_json_int(shoes) and _json_int(coups) and isinstance(cells, dict)):
        raise bad("its totals must hold whole numbers of shoes and coups and a table of cells")
    assert isinstance(shoes, int) and isinstance(coups, int)
    if shoes != shoes_done:
        raise bad(f"its totals count {shoes:,} shoes, but its chunks done hold {shoes_done:,}")
    size = plan.shoe.size
    if not 2 * shoes <= coups <= shoes * (size // 4):
        raise bad(f"{coups:,} coups cannot come from {shoes:,} shoes of {size} cards")
    result = SimulationResult(plan)
    keys = result.keys() if shoes else []
    names = {f"{s}/{b}": (s, b) for s, b in keys}
    if set(cells) != set(names):
        raise bad("its totals do not hold one cell per strategy and bet of the run")
    bets: tuple[Bet, ...] = plan.bets  # type: ignore[assignment]
    scale = math.lcm(*(o.net.denominator for b in bets for o in b.outcomes))
    largest = {b.id: int(max(abs(o.net) for o in b.outcomes) * scale) for b in bets}
    parsed: dict[tuple[str, str], list[int]] = {}
    for name, (strategy, bet) in names.items():
        values = cells[name]
        if not isinstance(values, dict) or set(values) != set(TOTAL_FIELDS):
            raise bad(f"its cell {name} must hold {', '.join(TOTAL_FIELDS)}")
        row = []
        for f in TOTAL_FIELDS:
            text = values[f]
            if not isinstance(text, str) or not _INTEGER.fullmatch(text):
                raise bad(f"its {f} for {name} must be a whole number in decimal digits, not {str(text)[:40]!r}")
            row.append(int(text))
        parsed[(strategy, bet)] = row
    one = 2**EV_BITS
    for (strategy, bet), (placed, won, won_sq, ev, ev_sq) in parsed.items():
        if bet == "combined":
            parts = [parsed[(strategy, b)] for b in plan.bet_ids]
            sums = [sum(p[i] for p in parts) for i in (0, 1, 3)]
            if [placed, won, ev] != sums:
                raise bad(f"its combined totals for {strategy} are not the sums of its bets'")
            win_bound = sum(p[0] * largest[b] for p, b in zip(parts, plan.bet_ids))
            ev_bound = sum(p[0] * -(-largest[b] * one // scale) for p, b in zip(parts, plan.bet_ids))
        else:
            if not 0 <= placed <= coups or (strategy == "always" and placed != coups):
                raise bad(f"{placed:,} {bet} bets under {strategy} cannot come from {coups:,} coups")
            win_bound = placed * largest[bet]
            ev_bound = placed * -(-largest[bet] * one // scale)  # each coup's EV, rounded, is at most its largest pay
            if strategy == "perfect" and ev < 0:
                raise bad(f"perfect play bets {bet} only at a positive EV, yet its EV total is negative")
        for total, squares, bound in ((won, won_sq, win_bound), (ev, ev_sq, ev_bound)):
            if abs(total) > bound or not total * total <= squares * shoes or squares > bound * bound:
                raise bad(f"its totals for {strategy} on {bet} are not what any shoes can add up to")
    return Totals(shoes, coups, parsed)


def save_result(result: SimulationResult, path: str | os.PathLike[str]) -> None:
    """Write the run as JSON atomically: to a temporary file beside ``path``, then renamed over it."""
    target = Path(path)
    try:
        write_atomic(target, result.render("json").encode("utf-8"), make_parents=False)
    except OSError as err:
        raise ExactOddsError(f"cannot write {target}: {err.strerror or err}") from None


def check_output(path: str | os.PathLike[str]) -> None:
    """Refuse an ``--output`` file that cannot be written, before a run computes anything for it.

    The check makes (and removes) a temporary file in the folder, as the saves will; an
    existing target must be a regular file, since a save renames a new file over it.
    """
    import tempfile

    from .files import TEMP_SUFFIX

    target = Path(path)
    folder = target.absolute().parent
    if not folder.is_dir():
        raise ExactOddsError(f"cannot write {target}: its folder {folder} does not exist")
    if (target.exists() or target.is_symlink()) and not target.is_file():
        raise ExactOddsError(f"cannot write {target}: it exists and is not a regular file")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=TEMP_SUFFIX)
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise ExactOddsError(f"cannot write {target}: {err.strerror or err}") from None


def simulate(
    plan: SimulationPlan,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    resume: SimulationResult | None = None,
    progress: Callable[[SimulationResult], None] | None = None,
) -> SimulationResult:
    """Run ``plan``: every chunk not yet done, on ``workers`` local processes or a Dask cluster.

    ``workers`` defaults to every local core (1 runs in this process); ``scheduler`` is
    the address of a Dask distributed scheduler (then ``workers`` is ignored). ``resume``
    continues a stopped run; ``progress`` is called after each chunk. Ctrl-C (or a
    KeyboardInterrupt from ``progress``) stops cleanly: the chunks under way are dropped
    (local workers are stopped at once), and the result so far is returned with
    ``interrupted`` set; a second Ctrl-C also cuts short a chunk computed in this process.

    >>> plan = SimulationPlan(Shoe.standard(8), bets=("dragon-7",), shoes=20, seed=5, strategies=("always",))
    >>> simulate(plan, workers=1).totals.shoes
    20
    """
    result = resume if resume is not None else SimulationResult(plan)
    todo = [i for i in range(plan.chunk_count) if i not in result.done]
    if workers is not None and workers < 1:
        raise ExactOddsError(f"use at least one worker, not {workers}")
    if workers is not None and workers > MAX_WORKERS:
        raise ExactOddsError(f"use at most {MAX_WORKERS:,} local workers, not {workers:,}")
    stop = _Stop()

    def finish(index: int, totals: Totals) -> None:
        # Ctrl-C only sets a flag here (see _Stop), so totals and the chunks done always agree.
        result.totals.add(totals)
        result.done.add(index)
        if progress is not None:
            try:
                progress(result)
            except KeyboardInterrupt:
                stop.requested = True

    with stop:
        if scheduler is not None:
            _run_dask(plan, todo, scheduler, finish, stop)
        else:
            count = min(workers or os.cpu_count() or 1, len(todo))  # no more processes than chunks
            if count == 1 or len(todo) <= 1:
                for index in todo:
                    if stop.requested:
                        break
                    try:
                        with stop.breakable():
                            totals = simulate_chunk(plan, index)
                    except KeyboardInterrupt:
                        if not stop.forced:
                            raise
                        break  # the second Ctrl-C: this chunk is dropped
                    finish(index, totals)
            else:
                _run_processes(plan, todo, count, finish, stop)
    result.interrupted = stop.requested and not result.complete
    return result


class _Stop:
    """While active (in the main thread), Ctrl-C asks the run to stop instead of raising.

    The first Ctrl-C sets ``requested``: the run stops before its next chunk (local workers
    are stopped at once). A second one sets ``forced``, and raises KeyboardInterrupt only
    inside :meth:`breakable` code (a chunk computed in this process, a wait on a Dask
    cluster), which the caller catches; never where totals are being added.
    """

    def __init__(self) -> None:
        self.requested = False
        self.forced = False
        self._breakable = False
        self._previous: Any = None

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested:
            self.forced = True
            if self._breakable:
                self._breakable = False
                raise KeyboardInterrupt
        self.requested = True

    @contextlib.contextmanager
    def breakable(self) -> Iterator[None]:
        """Code that a second Ctrl-C may cut short with KeyboardInterrupt."""
        self._breakable = True
        try:
            if self.forced:
                raise KeyboardInterrupt
            yield
        finally:
            self._breakable = False

    def __enter__(self) -> _Stop:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


#: Chunks handed to a worker ahead of the one it computes, so it never waits for the next.
_AHEAD = 2
#: How often the run looks at Ctrl-C while waiting for workers, in seconds.
_POLL = 0.2


def _run_processes(
    plan: SimulationPlan, todo: list[int], workers: int, finish: Callable[[int, Totals], None], stop: _Stop
) -> None:
    """Run chunks on ``workers`` local processes, each fed chunk indices over its own pipe.

    No lock or queue is shared between processes (a process killed while holding one
    would hang the rest), so a stopped run can always kill its workers and go; and a
    worker whose parent is gone finds its pipe closed (or, on Linux, is killed at once).
    """
    import multiprocessing
    import signal
    import threading
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("spawn")
    in_main = threading.current_thread() is threading.main_thread()
    processes: list[Any] = []
    given: dict[Any, list[int]] = {}
    queue = list(reversed(todo))
    clean = False

    def feed(conn: Any) -> None:
        while queue and len(given[conn]) < _AHEAD:
            index = queue.pop()
            conn.send(index)
            given[conn].append(index)

    try:
        for _ in range(workers):
            mine, theirs = context.Pipe()
            process = context.Process(target=_worker, args=(theirs, plan, os.getpid()), daemon=True)
            # A worker starts with SIGINT ignored (an ignored signal stays ignored through exec and
            # Python then installs no handler): Ctrl-C at a terminal reaches the whole process group,
            # and only this process must see it, to stop the workers itself.
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if in_main else None
            try:
                process.start()
            finally:
                if in_main:
                    signal.signal(signal.SIGINT, previous)
                theirs.close()
            processes.append(process)
            given[mine] = []
        for conn in given:
            feed(conn)
        while any(given.values()) and not stop.requested:
            ready: list[Any] = wait([c for c, chunks in given.items() if chunks], timeout=_POLL)
            for conn in ready:
                try:
                    message: tuple[str, int, Any] = conn.recv()
                    kind, index, payload = message
                except (EOFError, OSError):
                    raise ExactOddsError("a simulation worker process died; the chunks it had are lost") from None
                if kind == "error":
                    raise payload
                given[conn].remove(index)
                feed(conn)
                finish(index, payload)
                if stop.requested:
                    break
        clean = not stop.requested
    finally:
        _end_workers(processes, list(given), clean)


def _end_workers(processes: list[Any], conns: list[Any], clean: bool) -> None:
    """Tell idle workers to exit after a complete run; otherwise (or if they linger) kill them. Never waits long."""
    import time

    if clean:
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.send(None)
        deadline = time.monotonic() + 5
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join(5)
    for conn in conns:
        conn.close()


def _die_with_parent(parent: int) -> None:  # pragma: no cover - runs in worker processes
    """Have the kernel kill this worker when its parent dies (Linux), and exit now if it already has."""
    import signal
    import sys

    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(0)


def _worker(conn: Any, plan: SimulationPlan, parent: int) -> None:  # pragma: no cover - runs in worker processes
    """A worker's loop: receive a chunk index, send back its totals; stop on None, on EOF, or when orphaned."""
    import pickle

    _die_with_parent(parent)
    while os.getppid() == parent:
        try:
            index = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if index is None:
            return
        try:
            message: tuple[str, int, Any] = ("done", index, simulate_chunk(plan, index))
        except Exception as err:  # sent to the parent, which raises it
            try:
                pickle.dumps(err)
                message = ("error", index, err)
            except Exception:
                message = ("error", index, RuntimeError(f"{type(err).__name__}: {err}"))
        try:
            conn.send(message)
        except OSError:
            return


def _run_dask(
    plan: SimulationPlan, todo: list[int], address: str, finish: Callable[[int, Totals], None], stop: _Stop
) -> None:
    import hashlib
    import importlib

    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:  # pragma: no cover - depends on the environment
        raise ExactOddsError("--scheduler needs Dask distributed: pip install 'exactodds[dask]'") from None
    try:
        client = distributed.Client(address, timeout="20s")
    except (OSError, TimeoutError, ValueError) as err:
        raise ExactOddsError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    # Task keys name the run exactly, so a cluster never mixes up the chunks of two runs.
    run = json.dumps({"shoes": plan.shoes, **plan.identity()}, sort_keys=True)
    digest = hashlib.sha256(run.encode()).hexdigest()[:16]
    try:
        futures = [client.submit(simulate_chunk, plan, i, key=f"exactodds-{digest}-chunk-{i}", pure=False)
                   for i in todo]  # fmt: skip
        index = {f.key: i for f, i in zip(futures, todo)}
        try:
            completed = distributed.as_completed(futures)
            while not stop.requested:
                try:
                    with stop.breakable():
                        future = next(completed, None)
                        if future is None:
                            break
                        totals = future.result()
                except KeyboardInterrupt:
                    if not stop.forced:
                        raise
                    break
                finish(index[future.key], totals)
        finally:
            client.cancel(futures)
    finally:
        client.close()


def random_seed() -> int:
    """A fresh random seed for a run (reported with the results so the run can be repeated)."""
    return secrets.randbits(32)


def saved_seed(path: str | os.PathLike[str], max_chunks: int = -(-MAX_SHOES // CHUNK_SHOES)) -> int | None:
    """The seed of the run saved in ``path`` (None when the file holds none); a file that cannot be a run is refused.

    ``max_chunks`` bounds what the reader builds (see :func:`load_result`).
    """
    data = _read_run_file(path, max_chunks)
    run = data.get("simulation") if isinstance(data, dict) else None
    seed = run.get("seed") if isinstance(run, dict) else None
    if seed is None:
        return None
    if not _json_int(seed) or seed < 0:
        raise ExactOddsError(f"cannot resume from {path}: its seed must be a whole number 0 or more, not {seed!r}")
    return int(seed)


# --- proposing a count ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CountProposal:
    """A linear count for one bet, from its exact effects of removal (see :func:`exactodds.count_tags`).

    ``break_even`` estimates the true count at which the bet turns positive, from the
    linear model EV ≈ EV(full shoe) + unit·(N − 1)·TC/52 (N cards in the full shoe,
    unit = EOR per tag point): a starting threshold to test with ``simulate``.
    """

    bet: str
    level: int
    tags: tuple[int, ...]
    balanced: bool
    correlation: str
    break_even: Fraction | None

    def tags_text(self) -> str:
        """The tags in the ``--tags`` format."""
        return tags_text(self.tags)


def propose_counts(
    shoe: Shoe, rules: RuleSet = PUNTO_BANCO, bets: Sequence[str] = ("dragon-7",), levels: Sequence[int] = (1, 2, 3, 4)
) -> list[CountProposal]:
    """Suggested count tags per bet and level, in rank order A,2,…,9,T,J,Q,K, with betting correlation.

    >>> [p.tags_text() for p in propose_counts(Shoe.standard(8), bets=["dragon-7"], levels=[2])]
    ['0,0,0,-1,-1,-1,-1,2,2,0']
    """
    from .eor import effect_of_removal

    # ``all`` means what the lab can count and simulate: not the bets on suits (see simulated_bets).
    eor = effect_of_removal(shoe, rules, list(simulated_bets(rules, bets)), by="value")
    out = []
    for effects in eor.bets:
        for level in levels:
            found = eor.tags(effects.bet.id, level)
            if found is None:
                continue
            by_value = dict(zip(range(10), found.tags))  # EOR rows by value: T (0), A, 2, …, 9
            tags = tuple(by_value[RANK_POINTS[r]] for r in RANKS)
            break_even = None
            if found.unit and shoe.size > 1:
                break_even = -effects.ev * _DECK / (found.unit * (shoe.size - 1))
            out.append(
                CountProposal(effects.bet.id, level, tags, found.balanced, found.correlation_text(4), break_even)
            )
    return out


def render_proposals(
    shoe: Shoe, rules: RuleSet, proposals: Sequence[CountProposal], fmt: str = "table", bets: Sequence[str] = ()
) -> str:
    """Proposed counts as a table (the tags column in the ``--tags`` format) or JSON.

    ``bets`` are the bets asked for: those with no proposal are named, not silently left out
    (a pair bet's effects of removal are all 0 on a shoe of equal ranks: no linear count tracks it).
    """
    without = [b for b in dict.fromkeys(bets) if b not in {p.bet for p in proposals}]
    if fmt == "json":
        data = {
            "rules": rules.as_dict(),
            "shoe": {"cards": shoe.size, "counts": shoe.as_dict()},
            "counts": [
                {
                    "bet": p.bet,
                    "level": p.level,
                    "tags": p.tags_text(),
                    "balanced": p.balanced,
                    "betting_correlation": p.correlation,
                    "break_even_true_count": None if p.break_even is None else decimal_text(p.break_even, 2),
                }
                for p in proposals
            ],
            "without_count": without,
        }
        return json.dumps(data, indent=2) + "\n"
    if fmt != "table":
        raise ExactOddsError(f"unknown format {fmt!r}: use one of {', '.join(SIMULATION_FORMATS)}")
    rows = [
        [p.bet, str(p.level), p.tags_text(), "yes" if p.balanced else "no", p.correlation,
         "—" if p.break_even is None else decimal_text(p.break_even, 1)]
        for p in proposals
    ]  # fmt: skip
    headers = ["bet", "level", "tags (A,2,…,9,T/J/Q/K)", "balanced", "betting corr.", "break-even TC"]
    lines = [shoe_rules_header(shoe, rules), "",
             text_table(headers, rows, "llllrr"), "",
             "Tags: exact effects of removal rounded to ±level (tag > 0: removing the card helps the bet)."
             " Break-even TC: the true count where a linear model puts the bet at EV 0, a first threshold to try.",
             ]  # fmt: skip
    if without:
        lines.append(f"No count for {', '.join(without)}: no tags at these levels (a removal by value changes"
                     " its EV by 0 or too little to round to them).")  # fmt: skip
    best: dict[str, CountProposal] = {}
    for p in proposals:  # per bet, the best correlated tags
        if p.bet not in best or Fraction(p.correlation) > Fraction(best[p.bet].correlation):
            best[p.bet] = p
    if best:
        prefix = len(best) > 1
        parts = []
        for p in best.values():
            threshold = "0" if p.break_even is None else str(max(math.ceil(p.break_even), 0))
            name = f"{p.bet}=" if prefix else ""
            parts.append(f"--bet {p.bet}")
            parts.append(f"--tags {name}{p.tags_text()} --threshold {name}{threshold}")
        lines.append("Try: exactodds simulate " + " ".join(sorted(parts, key=lambda x: not x.startswith("--bet"))))
    return "\n".join(lines) + "\n"
