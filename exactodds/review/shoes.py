"""The shoes of a table's log as they were dealt: each coup checked against the cards left and the tableau, each wager
priced exactly on the cards seen before its coup and settled by the cards dealt.

A shoe is kept open while its records come (shoes interleave: many tables in one log) and closed at its end, when
its id starts again, or at the end of the log; only then are its coups priced, every coup at once through the batch
engine (:meth:`~exactodds.game.Game.count_rows`, the compiled evaluator), so each shoe state is priced once for
every bet wagered in the shoe. What a closed shoe hands back (:class:`ClosedShoe`) is all the review keeps of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm
from typing import NamedTuple, cast

from ..analysis import moment_sums, scaled_sum
from ..cards import RANK_POINTS, RANKS, SUITS, Rank, Shoe, parse_card
from ..errors import ExactOddsError, shown
from ..game import Game, Settings
from ..paytable import Bet, IntegerPays
from ..puntobanco.coup import CoupState
from ..puntobanco.coups import settle, tableaux
from ..puntobanco.events import Bet as CoupBet
from ..puntobanco.rules import RuleSet
from ..rebate import Rebate, paid_weight, stake_weights
from .log import Burn, Dealt, Start, Wager


class Finding(NamedTuple):
    """Something the log shows that is wrong: a coup dealt against the tableau (``dealing``), a card the shoe could not
    hold (``impossible``), a wager paid otherwise than its coup's cards say (``mispaid``), a line that is no record
    (``bad-line``)."""

    kind: str
    line: int
    shoe: str
    coup: int | None
    reason: str


class Coup(NamedTuple):
    """A coup as dealt: its number and line, the cards left before it, its hands (as written), how it ended, and why
    the tableau would not deal it (``None``: a regular coup)."""

    number: int
    line: int
    before: tuple[tuple[int, ...], tuple[int, ...] | None]  # counts by rank, and by rank and suit (flat) if known
    player: tuple[str, ...]
    banker: tuple[str, ...]
    state: CoupState
    irregular: str | None


class Moments(NamedTuple):
    """A bet's EV and variance per unit on one shoe state as integers: EV = first / scale, variance = spread / scale².
    Integers, not fractions: a review adds millions of them, by scale (:class:`~.tally.ExactSum`), and reduces once.

    >>> Moments(3, 8, 4).ev, Moments(3, 8, 4).variance
    (Fraction(3, 4), Fraction(1, 2))
    """

    first: int
    spread: int
    scale: int

    @property
    def ev(self) -> Fraction:
        """The EV per unit staked."""
        return Fraction(self.first, self.scale)

    @property
    def variance(self) -> Fraction:
        """The variance of the net per unit staked."""
        return Fraction(self.spread, self.scale * self.scale)


def moments(bet: Bet, counts: Sequence[int], orderings: int) -> Moments:
    """A bet's :class:`Moments` from its outcomes' counts out of ``orderings``: with L the common denominator of its
    net pays (their means and squares as integers times L and L²), S1 = Σ L·net·count and S2 = Σ L²·net²·count, so
    EV = S1 / (L·n) and the variance (S2·n − S1²) / (L·n)².

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> moments(find_bet("tie", PUNTO_BANCO), [1, 9], 10).ev
    Fraction(-1, 10)
    """
    return moments_of(bet.integer_pays, counts, orderings)


def moments_of(pays: IntegerPays, counts: Sequence[int], orderings: int) -> Moments:
    """:func:`moments` from a bet's pays in integers, worked out once for every state a shoe prices.

    >>> from exactodds.puntobanco.bets import find_bet
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> moments_of(find_bet("tie", PUNTO_BANCO).integer_pays, [1, 9], 10).variance
    Fraction(729, 100)
    """
    first, second = moment_sums(pays.means, pays.squares, counts)
    return Moments(first, second * orderings - first * first, pays.scale * orderings)


class PricedWager(NamedTuple):
    """A wager with its exact figures: its bet's EV and variance per unit on the cards left before its coup, and the
    net its coup's cards imply (``settled``), all exact."""

    wager: Wager
    table: str
    moments: Moments
    settled: Fraction
    irregular: bool
    #: With a rebate: what the casino owes on the wager as its coup settled it, and what it expects to owe on the cards
    #: left (stake × rate × the effective stake, :mod:`exactodds.rebate`); 0 without one.
    rebate_due: Fraction = Fraction(0)
    rebate_expected: Fraction = Fraction(0)

    @property
    def ev(self) -> Fraction:
        """The EV per unit of the wager's bet on the cards left before its coup."""
        return self.moments.ev

    @property
    def expected(self) -> Fraction:
        """The expected net of the wager: stake × EV."""
        return self.wager.stake * self.moments.ev

    @property
    def difference(self) -> Fraction:
        """What the casino paid beyond (+) or short of (−) what the cards imply."""
        return self.wager.net - self.settled


class ClosedShoe(NamedTuple):
    """A shoe reviewed: its id and table, how many coups it dealt, its wagers priced, what is wrong in it, and for each
    bet wagered in it the EV per unit at every coup priced, as (numerator, denominator) in integers (for the bettor
    who plays it perfectly)."""

    shoe: str
    table: str
    coups: int
    wagers: tuple[PricedWager, ...]
    findings: tuple[Finding, ...]
    evs: dict[str, tuple[tuple[int, int], ...]]
    bad: tuple[tuple[int, str], ...]


class _Card(NamedTuple):
    """A card of the log, read once: its rank, the rank's and the suit's place (``None``: no suit written), and its
    points."""

    rank: Rank
    place: int
    suit: int | None
    points: int


_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
_SUIT_INDEX = {suit: j for j, suit in enumerate(SUITS)}
#: The cards read so far, by their text (a log writes a few dozen texts, each read once here).
_CARDS: dict[str, _Card] = {}


def _card(text: str) -> _Card:
    found = _CARDS.get(text)
    if found is None:
        rank, suit = parse_card(text)
        found = _Card(rank, _RANK_INDEX[rank], None if suit is None else _SUIT_INDEX[suit], RANK_POINTS[rank])
        if len(_CARDS) < 1024:
            _CARDS[text] = found
    return found


def coup_state(player: Sequence[str], banker: Sequence[str]) -> CoupState:
    """How a coup of these hands ended (the pair flags from the first two cards; suited ones when both are written
    with their suits).

    >>> coup_state(("4H", "4H"), ("9", "K")).player_pair_suited, coup_state(("4H", "4H"), ("9", "K")).winner
    (True, 'banker')
    """
    return _state([_card(c) for c in player], [_card(c) for c in banker])


def _state(player: Sequence[_Card], banker: Sequence[_Card]) -> CoupState:
    (p1, p2), (b1, b2) = player[:2], banker[:2]
    pp, bp = p1.place == p2.place, b1.place == b2.place
    return CoupState(sum(c.points for c in player) % 10, sum(c.points for c in banker) % 10, len(player), len(banker),
                     pp, bp, pp and p1.suit is not None and p1.suit == p2.suit,
                     bp and b1.suit is not None and b1.suit == b2.suit)


class _Left:
    """The cards left in a shoe being read, as plain counts by rank (and by rank and suit, flat, while every card read
    had its suit): a :class:`~exactodds.cards.Shoe` is made only for a state that is priced."""

    __slots__ = ("counts", "suits")

    def __init__(self, shoe: Shoe) -> None:
        self.counts = list(shoe.counts)
        self.suits = None if shoe.suits is None else [n for row in shoe.suits for n in row]

    def take(self, cards: Sequence[_Card]) -> None:
        """Take the cards out, all or none: a card the shoe no longer holds is an error naming it."""
        counts, suits = self.counts, self.suits
        taken: list[_Card] = []
        try:
            for card in cards:
                i = card.place
                if counts[i] == 0:
                    asked = sum(1 for c in cards if c.place == i)
                    raise ExactOddsError(f"{asked} × {card.rank.value}: the shoe holds only"
                                         f" {counts[i] + sum(1 for c in taken if c.place == i)} of rank"
                                         f" {card.rank.value}")
                if suits is not None and card.suit is not None and suits[4 * i + card.suit] == 0:
                    raise ExactOddsError(f"{card.rank.value}{SUITS[card.suit].value}: the shoe holds no more of that"
                                         " card")
                counts[i] -= 1
                if suits is not None and card.suit is not None:
                    suits[4 * i + card.suit] -= 1
                taken.append(card)
        except ExactOddsError:
            for card in taken:  # all or none
                counts[card.place] += 1
                if suits is not None and card.suit is not None:
                    suits[4 * card.place + card.suit] += 1
            raise
        if suits is not None and any(card.suit is None for card in cards):
            self.suits = None

    def state(self) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        """The cards left now, as an immutable value (the suits flat: rank by rank, four suits each)."""
        return tuple(self.counts), None if self.suits is None else tuple(self.suits)


def _shoe(before: tuple[tuple[int, ...], tuple[int, ...] | None]) -> Shoe:
    """The shoe of a state kept by :meth:`_Left.state`."""
    counts, flat = before
    return Shoe(counts, None if flat is None else tuple(flat[i:i + 4] for i in range(0, len(flat), 4)))


class OpenShoe:
    """A shoe being read: its cards left, its coups so far, the wagers on them, and whether its log became impossible
    (a card it could not hold: nothing after that is priced)."""

    def __init__(self, start: Start, rules: RuleSet, settings: Settings) -> None:
        self.start, self.rules, self.settings = start, rules, settings
        self._tableaux = tableaux(rules)
        self.cards = _Left(start.cards)
        self.coups: list[Coup] = []
        self.wagers: list[tuple[Wager, Bet]] = []
        self.findings: list[Finding] = []
        self.broken: int | None = None  # the coup from which the log is impossible
        self.dealt = 0  # the coups dealt, priced or not

    def burn(self, record: Burn) -> None:
        """Cards out of play: they leave the shoe (a card it cannot hold: an error of the line, and the shoe impossible
        from its next coup)."""
        self._take([_card(c) for c in record.cards], record.line, None)

    def deal(self, record: Dealt) -> None:
        """A coup: numbered next, two or three cards a hand, cards the shoe holds; checked against the tableau."""
        expected = self.dealt + 1
        if record.coup != expected:
            raise ExactOddsError(f"coup {record.coup} of shoe {shown(record.shoe, 40)!r}: the next coup is {expected}"
                                 " (a shoe's coups are numbered 1, 2, … in the order dealt)")
        for name, hand in (("player", record.player), ("banker", record.banker)):
            if not 2 <= len(hand) <= 3:
                raise ExactOddsError(f"the {name} holds 2 or 3 cards in a coup, not {len(hand)}")
        self.dealt += 1
        if self.broken is not None:
            return
        before = self.cards.state()
        player, banker = [_card(c) for c in record.player], [_card(c) for c in record.banker]
        self._take(player + banker, record.line, record.coup)
        irregular = None
        try:
            settle(tuple(c.rank for c in player), tuple(c.rank for c in banker), self._tableaux)
        except ExactOddsError as err:
            irregular = str(err).removeprefix("not a legal coup: ")
            self.findings.append(Finding("dealing", record.line, record.shoe, record.coup,
                                         f"dealt against the tableau: {irregular}"))
        state = _state(player, banker)
        self.coups.append(Coup(record.coup, record.line, before, record.player, record.banker, state, irregular))

    def _take(self, cards: Sequence[_Card], line: int, coup: int | None) -> None:
        """The cards leave the shoe; a card it cannot hold is an error of the line, and the shoe's log impossible from
        the coup it was to deal (nothing after is priced)."""
        if self.broken is not None:
            return
        try:
            self.cards.take(cards)
        except ExactOddsError as err:
            self.broken = len(self.coups) + 1 if coup is None else coup
            reason = str(err)
            raise ExactOddsError(f"shoe {shown(self.start.shoe, 40)!r} cannot hold these cards ({reason}): its log is"
                                 f" impossible from coup {self.broken}") from None

    def close(self, game: Game) -> ClosedShoe:
        """The shoe reviewed: every coup priced for every bet wagered in the shoe, at once; each wager settled."""
        # In one order whatever the wagers' (by id): the pricers of a bet tuple are kept for the shoes to come.
        bets = sorted({bet.id: bet for _, bet in self.wagers}.values(), key=lambda bet: bet.id)
        # A coup dealt from fewer than six cards left cannot be counted over six-card draws: its wagers are bad lines.
        priced = [c for c in self.coups if (self.broken is None or c.number < self.broken)
                  and sum(c.before[0]) >= Shoe.MIN_CARDS]
        rebate = self.settings.given().get("rebate")
        bad: list[tuple[int, str]] = []
        suited = [bet for bet in bets if bet.needs_suits]
        if suited and any(c.before[1] is None or not _suited(c) for c in priced):
            bad += [(w.line, f"bet {b.id} needs a shoe known by suit, and the cards of shoe {shown(w.shoe, 40)!r} are"
                     " not all written with their suits") for w, b in self.wagers if b.needs_suits]
            bets = [bet for bet in bets if not bet.needs_suits]
        states = _Priced.of(game, self.settings, bets, priced if bets else [], rebate)
        evs, stakes = states.evs, states.stakes
        wagers = []
        by_number = {c.number: i for i, c in enumerate(priced)}
        kept = {bet.id for bet in bets}
        unpriced = 0
        # Stake × pay, by their integers (a fraction's hash costs a modular inverse): a log's stakes and pays are few.
        products: dict[tuple[int, int, int, int], Fraction] = {}
        for wager, bet in self.wagers:
            if bet.id not in kept:
                continue  # a bet on suits in a shoe not known by suit: each such wager is a bad line above
            i = by_number.get(wager.coup)
            if i is None:
                if self.broken is not None and wager.coup >= self.broken:
                    unpriced += 1  # the shoe's log is impossible from there: counted in one finding
                    continue
                dealt = wager.coup <= self.dealt
                why = "dealt from fewer than six cards left, which no count of six-card draws prices" if dealt else \
                    f"which was never dealt (it dealt {self.dealt})"
                bad.append((wager.line, f"a wager on coup {wager.coup} of shoe {shown(wager.shoe, 40)!r}, {why}"))
                continue
            coup = priced[i]
            net = _settle(cast(CoupBet, bet), coup)
            product = (wager.stake.numerator, wager.stake.denominator, net.numerator, net.denominator)
            settled = products.get(product)
            if settled is None:
                settled = products[product] = wager.stake * net
            priced_wager = PricedWager(wager, self.start.table, states.moments(bet, i), settled,
                                       coup.irregular is not None)
            if rebate is not None:
                banker = rebate.basis == "standard" and bet.on_banker
                priced_wager = priced_wager._replace(
                    rebate_due=wager.stake * rebate.rate * paid_weight(net, rebate.basis, banker),
                    rebate_expected=wager.stake * rebate.rate * stakes[bet.id][i])
            wagers.append(priced_wager)
            if wager.net != settled:
                self.findings.append(Finding(
                    "mispaid", wager.line, wager.shoe, wager.coup,
                    f"{wager.who} on {bet.id}: paid {_money(wager.net)}, the cards say {_money(settled)}"))
        if unpriced:
            self.findings.append(Finding("impossible", self.start.line, self.start.shoe, self.broken,
                                         f"{unpriced} wager{'s' * (unpriced > 1)} on coup {self.broken} or later not"
                                         " priced: the log of the shoe is impossible from there"))
        self.findings.sort(key=lambda f: f.line)
        return ClosedShoe(self.start.shoe, self.start.table, self.dealt, tuple(wagers), tuple(self.findings),
                          {k: tuple(v) for k, v in evs.items()}, tuple(bad))


class _Priced:
    """A shoe's coups priced for the bets wagered in it: each state's row of counts, each bet's EV at every state as
    (numerator, denominator), and with a rebate each bet's expected effective stake; a wager's moments on demand."""

    def __init__(self, rows: list[tuple[list[int], int]], columns: dict[str, tuple[int, int]],
                 evs: dict[str, list[tuple[int, int]]], stakes: dict[str, list[Fraction]]) -> None:
        self.rows, self.columns, self.evs, self.stakes = rows, columns, evs, stakes
        self._moments: dict[tuple[str, int], Moments] = {}  # a state's moments for a bet, made once for its wagers

    @classmethod
    def of(cls, game: Game, settings: Settings, bets: Sequence[Bet], coups: Sequence[Coup],
           rebate: Rebate | None) -> _Priced:
        """Every coup priced at once through the batch engine (by rank alone unless a bet reads the suits: the batch
        engine prices a shoe known by rank faster)."""
        evs: dict[str, list[tuple[int, int]]] = {bet.id: [] for bet in bets}
        stakes: dict[str, list[Fraction]] = {bet.id: [] for bet in bets}
        if not coups:
            return cls([], {}, evs, stakes)
        by_suit = any(bet.needs_suits for bet in bets)
        states = [_shoe(c.before) if by_suit else Shoe.of_checked_counts(c.before[0]) for c in coups]
        # Each bet's columns of the rows, and its pays in integers, read once for every state (600 a shoe). Every
        # state needs each bet's EV (the ideal, the stake-EV test); its variance only where a wager was placed.
        layout, columns, start = [], {}, 0
        for bet in _row_order(bets):
            columns[bet.id] = (start, start + len(bet.outcomes))
            layout.append((evs[bet.id].append, start, start + len(bet.outcomes), bet.integer_pays.means,
                           bet.integer_pays.scale))
            start += len(bet.outcomes)
        rows = _count_rows(game, states, bets, settings)
        for counts, orderings in rows:
            for append, lo, hi, means, scale in layout:
                append((scaled_sum(means, counts[lo:hi]), scale * orderings))
        if rebate is not None:
            for bet in bets:  # E[effective stake] on each state
                (lo, hi), (integers, scale) = columns[bet.id], _stake_weights(bet, rebate)
                stakes[bet.id] = [Fraction(sum(w * c for w, c in zip(integers, counts[lo:hi])), scale * orderings)
                                  for counts, orderings in rows]
        return cls(rows, columns, evs, stakes)

    def moments(self, bet: Bet, i: int) -> Moments:
        """The bet's moments on the i-th state priced."""
        found = self._moments.get((bet.id, i))
        if found is None:
            counts, orderings = self.rows[i]
            lo, hi = self.columns[bet.id]
            found = self._moments[bet.id, i] = moments_of(bet.integer_pays, counts[lo:hi], orderings)
        return found


def _row_order(bets: Sequence[Bet]) -> list[Bet]:
    """The bets in the order of a state's row: those on coup states first, then those on the dealt cards."""
    return [bet for bet in bets if not bet.reads_cards] + [bet for bet in bets if bet.reads_cards]


def _count_rows(game: Game, states: Sequence[Shoe], bets: Sequence[Bet], settings: Settings) -> list[tuple[list[int],
                                                                                                             int]]:
    """Each state's row of counts, in :func:`_row_order`: the bets on coup states through the batch engine (the
    compiled kernel where it serves), those on the dealt cards apart (each state by their own routes), so that one bet
    on the cards does not take the others off the kernel."""
    plain = [bet for bet in bets if not bet.reads_cards]
    cards = [bet for bet in bets if bet.reads_cards]
    if not cards or not plain:
        return game.count_rows(states, _row_order(bets), settings)
    rows = []
    for (counts, orderings), (more, also) in zip(game.count_rows(states, plain, settings),
                                                game.count_rows(states, cards, settings)):
        if orderings != also:  # both count the same orderings of the same shoe: a bug if not
            raise AssertionError(f"the rows count {orderings} and {also} orderings")
        rows.append((counts + more, orderings))
    return rows


def _suited(coup: Coup) -> bool:
    """Whether every card of the coup is written with its suit (a bet on suits is settled only then)."""
    return all(_card(c).suit is not None for hand in (coup.player, coup.banker) for c in hand)


def _settle(bet: CoupBet, coup: Coup) -> Fraction:
    """The net per unit the coup's cards pay a bet: by how the coup ended, or for a bet on the dealt cards by the
    cards themselves, read as the card walk reads them."""
    if not bet.reads_cards:
        return bet.settle(coup.state).net
    from ..puntobanco.cardwalk.rows import dealt_outcome, dealt_rows

    player, banker = ([(c.place, c.suit) for c in map(_card, hand)] for hand in (coup.player, coup.banker))
    assert bet.cards is not None
    return bet.outcomes[dealt_outcome(bet.cards, bet.first_match, dealt_rows(player, banker), bet.id)].net


def _stake_weights(bet: Bet, rebate: Rebate) -> tuple[tuple[int, ...], int]:
    """A bet's effective stake per outcome (:func:`~exactodds.rebate.stake_weights`) as integers over one scale."""
    weights = stake_weights(bet, rebate.basis)
    scale = lcm(*(w.denominator for w in weights))
    return tuple(int(w * scale) for w in weights), scale


def _money(amount: Fraction) -> str:
    """An amount as the log writes it: an exact decimal where it has one, else ``n/d``."""
    from ..exact import short_text

    return short_text(amount)

