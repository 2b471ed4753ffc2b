"""Exact figures per bet: the counting of every outcome (:func:`analyze`, :func:`analyze_many`).

What it returns, and the figures read from the counts, are in :mod:`exactodds.analysis`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from collections.abc import Sequence as SequenceABC
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, get_args, overload

from ..analysis import Analysis, BetFigures, OutcomeFigures, require_suits
from ..betfile import ALL_BETS
from ..cards import Shoe
from ..errors import ExactOddsError, shown
from ..paytable import Bet as AnyBet
from ..paytable import named_bets
from .bets import bet_catalog
from .coup import CoupDistribution
from .engine import enumerate_coups
from .events import Bet
from .rules import PUNTO_BANCO, RuleSet, Tableau

if TYPE_CHECKING:  # an event given is parsed by its caller: the module loads with --given only
    from .given import Given

#: The two ways of counting: the compiled evaluator (default) and the reference walk.
Method = Literal["compiled", "reference"]
METHODS: tuple[Method, ...] = get_args(Method)


def price(distribution: CoupDistribution, bet: Bet, orderings: int | None = None) -> BetFigures:
    """Settle every coup state of ``distribution`` with ``bet``'s pay table (over ``orderings``, default all).

    >>> from exactodds.puntobanco.bets import find_bet
    >>> dist = enumerate_coups(Shoe.standard(1))
    >>> price(dist, find_bet("tie", PUNTO_BANCO)).outcomes[0].count
    1372227328
    """
    counts = dict.fromkeys((o.id for o in bet.outcomes), 0)
    for state, n in distribution.counts.items():
        counts[bet.settle(state).id] += n
    if orderings is None:
        orderings = distribution.orderings
    return BetFigures(bet, tuple(OutcomeFigures(o, counts[o.id], orderings) for o in bet.outcomes), orderings)


def resolve_bets(
    rules: RuleSet, bets: Iterable[str | AnyBet] | None, *, suits: bool = True, cards: bool = True
) -> tuple[Bet, ...]:
    """Turn bet ids (or bets) into bets under ``rules``; ``None`` means the core bets.

    ``"all"`` means every bet of the catalog that can be priced here: with ``suits`` false
    (a shoe known only by rank, or a command that deals by rank) the bets on suited pairs
    are left out of it; with ``cards`` false (a command that must price every step in
    milliseconds) so are the bets that read the dealt cards (priced by the card walk). A
    bet named by its id is always kept, and refused later with a clear message if the
    shoe has no suits.

    >>> every, by_rank = resolve_bets(PUNTO_BANCO, ["all"]), resolve_bets(PUNTO_BANCO, ["all"], suits=False)
    >>> any(b.needs_suits for b in every), any(b.needs_suits for b in by_rank), set(by_rank) < set(every)
    (True, False, True)
    """
    from .bets import find_bet

    bets = named_bets(bets)  # "all" or "tie" is one name, not its letters
    if bets is None:
        return tuple(bet_catalog(rules).values())
    chosen: tuple[Bet, ...] = ()
    for b in bets:
        if isinstance(b, Bet):
            chosen += (b,)
        elif isinstance(b, AnyBet):  # a bet of another game's notation: no coup of punto banco settles it
            raise ExactOddsError(f"bet {b.id} is not a bet of punto banco: its outcomes are another game's")
        elif b == ALL_BETS:
            chosen += tuple(
                bet
                for bet in bet_catalog(rules, full=True).values()
                if (suits or not bet.needs_suits) and (cards or not bet.reads_cards)
            )
        else:
            chosen += (find_bet(b, rules),)
    seen: dict[str, Bet] = {}
    for bet in chosen:
        if bet.id in seen and seen[bet.id] != bet:
            raise ExactOddsError(f"two different bets have the id {shown(bet.id)!r}: rename one")
        seen.setdefault(bet.id, bet)
    return tuple(seen.values())


def analyze(
    shoe: Shoe,
    rules: RuleSet = PUNTO_BANCO,
    bets: Sequence[str | AnyBet] | None = None,
    *,
    method: Method = "compiled",
    given: Given | None = None,
) -> Analysis:
    """Price bets (default: the core bets of the rule set; ``"all"``: every bet the shoe can price) exactly on ``shoe``.

    ``method`` is ``"compiled"`` (the fast evaluator, the default) or ``"reference"``
    (the plain exhaustive walk); both give identical exact counts. The compiled evaluator
    knows ranks, not suits, so bets on suited pairs need a suited shoe (:func:`require_suits`)
    and are priced in closed form when the suited-pair flags alone settle them
    (:mod:`exactodds.puntobanco.suitedpairs`), else by the reference walk.

    >>> a = analyze(Shoe.standard(8), bets=["player", "tie"])
    >>> [b.bet.id for b in a.bets], a.bet("tie").outcomes[0].count
    (['player', 'tie'], 475627426473216)

    With ``given`` (an event about the dealt cards) every bet is priced by the reference
    walk over only the ordered six-card draws in which the event happens: the figures are
    conditional on it, and an event that cannot happen is an error.

    >>> from exactodds.puntobanco.given import Given
    >>> c = analyze(Shoe.standard(1), bets=["player"], given=Given.parse("P1 in 6789"))
    >>> c.given_probability, c.bet("player").ev > 0
    (Fraction(4, 13), True)
    """
    # "all" leaves out what cannot be priced here: suited bets on a shoe known by rank, and the bets on
    # the dealt cards under the big table's choice on 5 or a --given event (named by id, they are refused).
    cards = rules.player_five != "best" and given is None
    chosen = resolve_bets(rules, bets, suits=shoe.suited, cards=cards)
    require_suits(shoe, chosen)
    mixed = rules.player_five_draws
    if mixed is not None:  # draw with probability n/d: n · (draw) + (d − n) · (stand), over d · orderings
        draw, stand = (
            analyze(shoe, rules.with_player_five(choice), chosen, method=method, given=given)
            for choice in ("draw", "stand")
        )
        return _mix(rules, draw, stand, mixed)
    if any(b.reads_cards for b in chosen):
        return _with_card_bets(shoe, rules, chosen, method, given)
    if given is not None:
        distribution = enumerate_coups(
            shoe, rules.tableau, player_five_best=rules.player_five == "best", given=given
        )
        total = distribution.total
        if total == 0:
            raise ExactOddsError(
                f"the event given ({given.event}) never happens with this shoe: no ordering of its cards deals it"
            )
        return Analysis(rules, shoe, tuple(price(distribution, bet, total) for bet in chosen), given, total)
    if rules.player_five == "best":
        # The holder's choice on 5 depends on the four cards and what they leave in the shoe: the
        # compiled table (one fixed tableau) cannot hold it, so the reference walk prices it.
        method = "reference"
    if method == "compiled":
        counts = _compiled_counts(shoe, rules.tableau, chosen)
        return assemble(rules, shoe, chosen, [counts[b.id] for b in chosen])
    if method == "reference":
        distribution = coups(shoe, rules)
        return Analysis(rules, shoe, tuple(price(distribution, bet) for bet in chosen))
    raise ExactOddsError(f"unknown method {shown(method)!r}: use one of {', '.join(METHODS)}")


def _with_card_bets(
    shoe: Shoe, rules: RuleSet, chosen: tuple[Bet, ...], method: Method, given: Given | None
) -> Analysis:
    """Price the bets on the dealt cards (in closed form when they read only the opening cards; as bets on coup
    states when the coup's end decides them; else by the card walk), the others as without them."""
    from .cardwalk.states import state_bet
    from .cardwalk.walk import card_counts
    from .opening import opening_counts

    if given is not None:
        ids = ", ".join(b.id for b in chosen if b.reads_cards)
        raise ExactOddsError(
            f"--given cannot be combined with a bet on the dealt cards yet ({ids}; a pay override on the cards makes"
            " its main bet one): price them without it"
        )
    if rules.player_five == "best":
        raise ExactOddsError("a bet on the dealt cards cannot be priced under the holder's choice on 5 (the big table)")
    rest = tuple(b for b in chosen if not b.reads_cards)
    counts: dict[str, Sequence[int]] = {}
    walked = []
    for bet in chosen:
        if bet.reads_cards:
            assert bet.cards is not None
            closed = opening_counts(shoe, bet.cards, bet.first_match)
            if closed is not None:
                counts[bet.id] = closed
                continue
            # A bet the coup's end decides is counted with the others, as that bet on coup states (same id).
            stand_in = state_bet(bet, rules.tableau) if method == "compiled" else None
            if stand_in is None:
                walked.append(bet)
            else:
                rest += (stand_in,)
    if rest and method == "compiled":  # their counts alone: the figures are made once, below
        counts.update(_compiled_counts(shoe, rules.tableau, rest))
    elif rest:
        others = analyze(shoe, rules, rest, method=method)
        counts.update((f.bet.id, tuple(o.count for o in f.outcomes)) for f in others.bets)
    for bet in walked:
        assert bet.cards is not None
        counts[bet.id] = card_counts(shoe, rules.tableau, bet.cards, bet.id, bet.first_match)
    return assemble(rules, shoe, chosen, [counts[b.id] for b in chosen])


def _compiled_counts(shoe: Shoe, tableau: Tableau, bets: tuple[Bet, ...]) -> dict[str, Sequence[int]]:
    """Outcome counts of bets on coup states by the compiled evaluator (bets on suited pairs by their own route)."""
    from .compiled.flat import shoe_counts

    # The compiled evaluator knows ranks, not suits: bets on suited pairs take their own route.
    # A process's first shoe is priced from the bets' flat table, with no numpy to load; then by numpy.
    plain = tuple(b for b in bets if not b.needs_suits)
    suited = tuple(b for b in bets if b.needs_suits)
    counts: dict[str, Sequence[int]] = {}
    if plain:
        counts.update(zip((b.id for b in plain), shoe_counts(tableau, plain, shoe)))
    if suited:
        counts.update(_suited_counts(shoe, tableau, suited))
    return counts


def _suited_counts(shoe: Shoe, tableau: Tableau, bets: Sequence[Bet]) -> dict[str, tuple[int, ...]]:
    """Outcome counts of bets on suited pairs: in closed form when the flags alone settle them, else by the walk."""
    from .suitedpairs import flag_counts, suited_pair_counts

    out: dict[str, tuple[int, ...]] = {}
    walked = []
    flags = flag_counts(shoe) if shoe.suits is not None else None  # once for every bet
    for bet in bets:
        closed = suited_pair_counts(shoe, bet, flags)
        if closed is None:
            walked.append(bet)
        else:
            out[bet.id] = tuple(closed)
    if walked:
        distribution = enumerate_coups(shoe, tableau)
        out.update((b.id, tuple(o.count for o in price(distribution, b).outcomes)) for b in walked)
    return out


def coups(shoe: Shoe, rules: RuleSet) -> CoupDistribution:
    """The reference walk's count of every coup state for ``shoe`` under ``rules`` (its tableau and its option on 5).

    >>> from exactodds.puntobanco.rules import BIG_TABLE
    >>> coups(Shoe.standard(1), BIG_TABLE).total == Shoe.standard(1).orderings()
    True
    >>> coups(Shoe.standard(1), BIG_TABLE) is coups(Shoe.standard(1), BIG_TABLE)  # walked once, then kept
    True
    """
    return _walk(shoe, rules.tableau, rules.player_five == "best")


@lru_cache(maxsize=16)
def _walk(shoe: Shoe, tableau: Tableau, player_five_best: bool) -> CoupDistribution:
    """The reference walk, kept for the last few shoes: the report's cross-check, the big table's three policies and
    a library caller's repeated reference prices walk a shoe once (the distribution is immutable)."""
    return enumerate_coups(shoe, tableau, player_five_best=player_five_best)


def analyze_many(
    shoes: Sequence[Shoe],
    rules: RuleSet = PUNTO_BANCO,
    bets: Sequence[str | AnyBet] | None = None,
) -> AnalysisBatch:
    """Price the same bets on many shoes at once (the batch path of the compiled evaluator).

    >>> shoes = [Shoe.standard(8).remove(card) for card in "A23456789T"]
    >>> [a.bet("tie").outcomes[0].count for a in analyze_many(shoes, bets=["tie"])][:2]
    [468838163231312, 468636463548240]
    """
    from .compiled import pricer

    chosen = resolve_bets(rules, bets)
    if rules.player_five == "best" or rules.player_five_draws is not None or any(b.reads_cards for b in chosen):
        # No one compiled table holds the holder's choice, a mixed policy or a bet on the dealt cards:
        # each shoe is priced on its own.
        import numpy as np

        rows = [[o.count for f in analyze(shoe, rules, chosen).bets for o in f.outcomes] for shoe in shoes]
        width = sum(len(b.outcomes) for b in chosen)
        return AnalysisBatch(rules, tuple(shoes), chosen, np.array(rows, dtype=object).reshape(len(shoes), width))
    suited = [b for b in chosen if b.needs_suits]
    if not suited:
        matrix = pricer(rules.tableau, chosen).counts_matrix(shoes)
        return AnalysisBatch(rules, tuple(shoes), chosen, matrix)
    for shoe in shoes:
        require_suits(shoe, suited)
    # Bets on suited pairs: the compiled batch for the others, their own route per shoe for these.
    plain = tuple(b for b in chosen if not b.needs_suits)
    plain_matrix = pricer(rules.tableau, plain).counts_matrix(shoes) if plain else None
    width = sum(len(b.outcomes) for b in chosen)
    import numpy as np

    exact64 = plain_matrix is not None and plain_matrix.dtype == np.int64
    matrix = np.empty((len(shoes), width), dtype=np.int64 if exact64 else object)
    columns: dict[str, tuple[int, int]] = {}
    start = 0
    for bet in plain:
        columns[bet.id] = (start, start + len(bet.outcomes))
        start += len(bet.outcomes)
    for row, shoe in enumerate(shoes):
        suited_counts = _suited_counts(shoe, rules.tableau, suited)
        column = 0
        for bet in chosen:
            n = len(bet.outcomes)
            if bet.needs_suits:
                matrix[row, column : column + n] = suited_counts[bet.id]
            else:
                a, b = columns[bet.id]
                matrix[row, column : column + n] = plain_matrix[row, a:b]  # type: ignore[index]
            column += n
    return AnalysisBatch(rules, tuple(shoes), chosen, matrix)


class AnalysisBatch(SequenceABC[Analysis]):
    """The analyses of many shoes: exact counts held in one matrix, each :class:`Analysis` made on access.

    ``counts`` has a row per shoe and, side by side, a column per outcome of each bet
    (int64 while the shoes are within the proved int64 bound, else Python integers).
    """

    def __init__(self, rules: RuleSet, shoes: tuple[Shoe, ...], bets: tuple[Bet, ...], counts: Any) -> None:
        self.rules = rules
        self.shoes = shoes
        self.bets = bets
        self.counts = counts
        self._starts = [0]
        for bet in bets:
            self._starts.append(self._starts[-1] + len(bet.outcomes))

    def __len__(self) -> int:
        return len(self.shoes)

    @overload
    def __getitem__(self, index: int) -> Analysis: ...

    @overload
    def __getitem__(self, index: slice) -> list[Analysis]: ...

    def __getitem__(self, index: int | slice) -> Analysis | list[Analysis]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        row = self.counts[index].tolist()
        per_bet = [row[a:b] for a, b in zip(self._starts, self._starts[1:])]
        return assemble(self.rules, self.shoes[index], self.bets, per_bet)

    def bet_counts(self, bet_id: str) -> Any:
        """The outcome counts of one bet for every shoe: rows are shoes, columns the bet's outcomes."""
        for i, bet in enumerate(self.bets):
            if bet.id == bet_id:
                return self.counts[:, self._starts[i] : self._starts[i + 1]]
        raise ExactOddsError(f"bet {shown(bet_id)!r} was not priced: have {', '.join(b.id for b in self.bets)}")


def _mix(rules: RuleSet, draw: Analysis, stand: Analysis, p: Fraction) -> Analysis:
    """The analysis of a mixed policy: the Player draws on 5 with probability p, else stands.

    With p = n/d every count becomes n·(count drawing) + (d − n)·(count standing), an integer,
    and the orderings d times the pure ones, so every probability is exactly the mixture.
    """
    n, d = p.numerator, p.denominator
    orderings = draw.orderings * d
    bets = tuple(
        BetFigures(
            a.bet,
            tuple(
                OutcomeFigures(x.outcome, n * x.count + (d - n) * y.count, orderings)
                for x, y in zip(a.outcomes, b.outcomes)
            ),
            orderings,
        )
        for a, b in zip(draw.bets, stand.bets)
    )
    return Analysis(rules, draw.shoe, bets, draw.given, draw.given_count, d)


def policy_scale(rules: RuleSet) -> int:
    """The factor by which a mixed policy on the Player's 5 scales every count and the orderings (see _mix).

    >>> policy_scale(PUNTO_BANCO), policy_scale(PUNTO_BANCO.with_player_five("9/11"))
    (1, 11)
    """
    mixed = rules.player_five_draws
    return 1 if mixed is None else mixed.denominator


def assemble(
    rules: RuleSet, shoe: Shoe, bets: tuple[Bet, ...], counts: Sequence[Sequence[int]]
) -> Analysis:
    """The analysis of each bet's outcome counts on ``shoe`` (under a mixed policy on 5, counts scaled by its d)."""
    scale = policy_scale(rules)
    orderings = shoe.orderings() * scale
    return Analysis(
        rules,
        shoe,
        tuple(
            BetFigures.of_counts(bet, bet_counts, orderings) for bet, bet_counts in zip(bets, counts)
        ),
        policy_scale=scale,
    )
