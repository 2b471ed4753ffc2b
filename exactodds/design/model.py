"""A bet designed: the request, the pay tables found (each with its exact figures), and the exact solution of one pay.

The bet, of any game with bets, is priced once on the shoe by its game
(:meth:`~exactodds.game.Game.price`: its outcomes' counts); every candidate's figures are then
:class:`~exactodds.analysis.BetFigures` of the same counts with its pays, exact arithmetic
without the engine. Its countability (a game with the capability ``countability``) is read
from counts priced once too (:mod:`.countability`), and its edge at other deck counts from one
pricing per deck count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ..analysis import BetFigures, Rules
from ..cards import Shoe
from ..errors import ExactOddsError, unknown_name
from ..exact import percent_text
from ..game import Game, Settings
from ..paytable import Bet
from .countability import DEFAULT_CUT_CARD, Countability, countability, countability_work, figures_of
from .search import MAX_FREE, Grid, Problem, grid_rows, search

#: The highest pay a grid may reach.
MAX_PAY = 10**6
#: ``progress(done, total)``: told the units of work done (see :func:`work`) as a design goes.
Progress = Callable[[int, int], None]
#: What a unit of :func:`work` is worth in the other work a design does: shoes whose EVs a table's countability reads,
#: coups of the shoe it walks, pay tables of the grid the search walks (each as long as one pricing, measured).
SHOES_PER_UNIT, COUPS_PER_UNIT, ROWS_PER_UNIT = 16, 256, 10_000


@dataclass(frozen=True)
class Request:
    """What to design: the game and its settings, the bet (of the game), the shoe, the free outcomes (``None``: every
    winning one), the grid.

    ``decks`` is a range of standard deck counts whose edges each table also shows (or ``None``).
    """

    game: Game
    settings: Settings
    bet: Bet
    shoe: Shoe
    free: tuple[str, ...] | None
    grid: Grid
    monotone: bool = False
    top: int = 20
    decks: tuple[int, int] | None = None
    cut_card: int = DEFAULT_CUT_CARD

    @property
    def rules(self) -> Rules:
        """The rules the game is priced under (its settings'), as the header line shows them."""
        return self.game.rules(self.settings)


@dataclass(frozen=True)
class Table:
    """One pay table: the bet with those pays, its exact figures, its countability and its edges by decks."""

    figures: BetFigures
    #: Perfect play's gain per shoe (units), the normal approximation (see :mod:`.countability`), or ``None``.
    countability: float | None
    #: (decks, exact house edge) for each deck count asked for.
    by_decks: tuple[tuple[int, Fraction], ...] = ()

    @property
    def bet(self) -> Bet:
        """The bet with this table's pays."""
        return self.figures.bet


@dataclass(frozen=True)
class Design:
    """The pay tables of a band: how many lie in it (``searched``) and the best ones, best first."""

    request: Request
    low: Fraction
    high: Fraction
    free: tuple[str, ...]
    searched: int
    tables: tuple[Table, ...]
    #: Whether the game's decisions (its chart) were held as its settings price them while the pays were designed.
    decided: bool = False


@dataclass(frozen=True)
class Solution:
    """The exact pay of one outcome for a target edge, and the grid's nearest pays below and above it."""

    request: Request
    outcome: str
    target: Fraction
    pay: Fraction
    below: Table | None
    above: Table | None
    #: The table with the exact pay.
    exact: Table
    #: Whether the game's decisions (its chart) were held as its settings price them while the pay was solved.
    decided: bool = False


def free_outcomes(bet: Bet, names: Sequence[str] | None) -> tuple[int, ...]:
    """The indices of the free outcomes: those named (each a winning outcome of the bet), or every winning one.

    >>> from exactodds.games import find_game
    >>> dragon_tiger = find_game("dragon-tiger")
    >>> free_outcomes(dragon_tiger.resolve(["dragon"], dragon_tiger.settings_of({}))[0], None)
    (0,)
    """
    ids = [o.id for o in bet.outcomes]
    if names is None:
        chosen = tuple(k for k, o in enumerate(bet.outcomes) if o.net > 0)
    else:
        picked = []
        for name in names:
            if name not in ids:
                raise unknown_name(f"outcome of bet {bet.id}", name, ids, plural="outcomes")
            if ids.index(name) in picked:
                raise ExactOddsError(f"the outcome {name!r} is named twice: give each free outcome once")
            picked.append(ids.index(name))
        chosen = tuple(picked)
    for k in chosen:
        outcome = bet.outcomes[k]
        if outcome.net <= 0:
            what = "loses" if outcome.net < 0 else "pushes"
            raise ExactOddsError(f"the outcome {outcome.id!r} of bet {bet.id} {what}: only a winning outcome's pay is"
                                 " searched")
        if outcome.multiplier is not None:
            raise ExactOddsError(f"the outcome {outcome.id!r} of bet {bet.id} has a random multiplier: fix its pay")
    if not chosen:
        raise ExactOddsError(f"bet {bet.id} has no winning outcome to search")
    if len(chosen) > MAX_FREE:
        which = f"has {len(chosen)} winning outcomes" if names is None else f"has {len(chosen)} free outcomes named"
        raise ExactOddsError(f"bet {bet.id} {which}: search at most {MAX_FREE} at once (name them with --free)")
    return chosen


def with_pays(bet: Bet, pays: dict[int, Fraction]) -> Bet:
    """``bet`` with the outcomes at these indices paying these nets (a bet of the same game, its conditions kept).

    >>> from exactodds.games import DEFAULT
    >>> with_pays(DEFAULT.resolve(["dragon-7"], DEFAULT.settings_of({}))[0], {0: Fraction(41)}).outcomes[0].net
    Fraction(41, 1)
    """
    outcomes = tuple(replace(o, net=pays[k]) if k in pays else o for k, o in enumerate(bet.outcomes))
    return replace(bet, outcomes=outcomes)


@dataclass(frozen=True)
class Work:
    """A design's work, counted from its request before any is done (see :func:`work`)."""

    #: Shoes priced: the shoe, and each deck count of a range.
    shoes: int
    #: Shoes priced for the countability figure (a game with it), and the most coups a table's figure walks.
    counted: int
    coups: int
    #: Pay tables given their figures: ``top``, or the three of a solved pay.
    tables: int
    #: Rows of the grid the search walks (none for a solved pay).
    rows: int

    @property
    def per_table(self) -> int:
        """The units of one table's figures: its own, its countability's reads of the counted shoes and its coups."""
        return 1 + -(-self.counted // SHOES_PER_UNIT) + -(-self.coups // COUPS_PER_UNIT)

    @property
    def units(self) -> int:
        """The whole work in units of one pricing of the bet on one shoe (the unit of the server's estimates)."""
        return self.shoes + self.counted + self.tables * self.per_table + self.rows // ROWS_PER_UNIT


def work(request: Request, solve: str | None = None) -> Work:
    """The work of designing ``request`` (``solve``: the outcome whose pay is solved, else the band is searched),
    counted before any is done: an upper bound, the free outcomes and the grid checked on the way.

    >>> from exactodds.games import DEFAULT
    >>> settings = DEFAULT.settings_of({})
    >>> bet = DEFAULT.resolve(["dragon-7"], settings)[0]
    >>> grid = Grid(Fraction(1), Fraction(1), Fraction(100))
    >>> request = Request(DEFAULT, settings, bet, Shoe.standard(8), None, grid, decks=(1, 8))
    >>> work(request)
    Work(shoes=9, counted=352, coups=106, tables=20, rows=1)
    >>> work(request).units
    841
    """
    free = free_outcomes(request.bet, request.free if solve is None else [solve])
    counted, coups = countability_work(request.game, request.bet, request.shoe)
    span = 0 if request.decks is None else request.decks[1] - request.decks[0] + 1
    rows = 0 if solve is not None else grid_rows(request.grid, len(free))
    return Work(1 + span, counted, coups, 3 if solve is not None else request.top, rows)


class _Meter:
    """The units of work done so far, told to ``progress`` (if any) out of the whole."""

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.done, self.total, self.progress = 0, total, progress

    def add(self, units: int) -> None:
        self.done = min(self.done + units, self.total)
        if self.progress is not None:
            self.progress(self.done, self.total)


class _Pricing:
    """The bet's counts on the shoe (and at other deck counts), priced once, and each pay table's figures."""

    def __init__(self, request: Request, meter: _Meter, per_table: int) -> None:
        self.request, self.meter, self.per_table = request, meter, per_table
        game, settings, bet = request.game, request.settings, request.bet
        analysis = game.price(request.shoe, [bet], settings)
        meter.add(1)
        figures = analysis.bets[0]
        self.counts = tuple(o.count for o in figures.outcomes)
        self.orderings = figures.orderings
        #: Whether the game decides as it deals (a chart, held as the settings price it, whatever the pays designed).
        self.decided = analysis.chart is not None
        self.by_decks: list[tuple[int, tuple[int, ...], int]] = []
        if request.decks is not None:
            for d in range(request.decks[0], request.decks[1] + 1):
                f = game.price(Shoe.standard(d), [bet], settings).bets[0]
                self.by_decks.append((d, tuple(o.count for o in f.outcomes), f.orderings))
                meter.add(1)
        self._countability: Countability | None | bool = False

    def countability(self) -> Countability | None:
        """The counts behind the countability figure, priced on first use (``None``: not applicable)."""
        if self._countability is False:
            r = self.request
            self._countability = countability(r.game, r.bet, r.shoe, r.settings, r.cut_card, self.meter.add)
        assert self._countability is not True
        return self._countability

    def table(self, pays: dict[int, Fraction]) -> Table:
        """The pay table with these pays: its figures, countability and edges by decks."""
        bet = with_pays(self.request.bet, pays)
        figures = figures_of(bet, self.counts, self.orderings)
        counting = self.countability()
        gain = None if counting is None else counting.gain(bet, figures.ev)
        by_decks = tuple((d, figures_of(bet, c, n).house_edge) for d, c, n in self.by_decks)
        self.meter.add(self.per_table)
        return Table(figures, gain, by_decks)

    def problem(self, free: tuple[int, ...], low: Fraction, high: Fraction) -> Problem:
        """The search of ``free`` over the grid for an edge from ``low`` to ``high``."""
        bet = self.request.bet
        pays = sorted({bet.outcomes[k].net for k in free}, reverse=True)
        ranks = tuple(pays.index(bet.outcomes[k].net) for k in free)
        means = tuple(o.mean for o in bet.outcomes)
        return Problem(self.counts, self.orderings, means, free, ranks, self.request.grid, low, high,
                       self.request.monotone, tuple(o.square for o in bet.outcomes))


def check_edge(edge: Fraction) -> Fraction:
    """An edge below 100% (a bet cannot keep more than the stake), else an error.

    >>> check_edge(Fraction(1))
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: a house edge must be below 100%, not 100.0000%
    """
    if edge >= 1:
        raise ExactOddsError(f"a house edge must be below 100%, not {percent_text(edge)}")
    return edge


def design(request: Request, low: Fraction, high: Fraction, progress: Progress | None = None) -> Design:
    """Every pay table on the grid whose house edge lies from ``low`` to ``high``; the best ``top`` with figures
    (the work told to ``progress`` as it is done, in the units of :func:`work`)."""
    if low > high:
        raise ExactOddsError(f"the band's low edge {percent_text(low)} is above its high edge {percent_text(high)}")
    check_edge(high)
    free = free_outcomes(request.bet, request.free)
    planned = work(request)
    pricing = _Pricing(request, _Meter(planned.units, progress), planned.per_table)
    problem = pricing.problem(free, low, high)
    least, most = problem.reachable()
    if high < least or low > most:
        grid = request.grid
        raise ExactOddsError(
            f"bet {request.bet.id} cannot reach a house edge from {percent_text(low)} to {percent_text(high)}: with"
            f" pays from {grid.low} to {grid.high} its edge runs from {percent_text(least)} to {percent_text(most)}"
        )
    found = search(problem, request.top)
    pricing.meter.add(planned.rows // ROWS_PER_UNIT)
    grid = request.grid
    tables = tuple(pricing.table({k: grid.pay(i) for k, i in zip(free, indices)}) for indices in found.tables)
    ids = tuple(request.bet.outcomes[k].id for k in free)
    return Design(request, low, high, ids, found.searched, tables, pricing.decided)


def solve(request: Request, outcome: str, target: Fraction, progress: Progress | None = None) -> Solution:
    """The exact pay of ``outcome`` that makes the house edge ``target``, the others fixed; the nearest grid pays
    (the work told to ``progress``, as :func:`design` tells it)."""
    check_edge(target)
    (k,) = free_outcomes(request.bet, [outcome])
    planned = work(request, outcome)
    pricing = _Pricing(request, _Meter(planned.units, progress), planned.per_table)
    problem = pricing.problem((k,), target, target)
    least, most = problem.reachable()
    grid = request.grid
    if not least <= target <= most:
        raise ExactOddsError(
            f"bet {request.bet.id} cannot reach a house edge of {percent_text(target)} by the pay of {outcome}: with"
            f" pays from {grid.low} to {grid.high} its edge runs from {percent_text(least)} to {percent_text(most)}"
        )
    others = problem.fixed_sum
    pay = (-target * pricing.orderings - others) / pricing.counts[k]
    steps = (pay - grid.low) / grid.step
    under, over = steps.__floor__(), steps.__ceil__()
    below = pricing.table({k: grid.pay(under)}) if under >= 0 else None
    above = pricing.table({k: grid.pay(over)}) if over < grid.size else None
    return Solution(request, outcome, target, pay, below, above, pricing.table({k: pay}), pricing.decided)
