"""A design as asked for, from plain values (the texts and numbers a command line or a request gives), checked
in one place: the band, the grid, the one bet, the cut card, ``solve`` against a band.

``exactodds design`` and the server's ``POST /design`` both build their :class:`Order` here, so that a bad
value gets the same words from either; the words name the command's options (``--step``, ``--solve``), as the
server's errors are the command line's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ..betfile import ALL_BETS
from ..errors import ExactOddsError, shown
from ..exact import parse_fraction, parse_percent
from ..game import Game, Settings
from ..inputs import PRECISION, Input
from ..lab.plan import MIN_CUT_CARD
from ..paytable import Bet
from ..request import Setup
from .countability import DEFAULT_CUT_CARD
from .model import MAX_PAY, Design, Progress, Request, Solution, design, solve, work
from .search import Grid

#: The most pay tables listed (``--top``), and how many by default.
MAX_TOP, DEFAULT_TOP = 1000, 20
#: The most work a design may ask for, in units of one pricing of the bet on one shoe (:meth:`Order.cost`): some
#: fifteen seconds of punto banco's on a 2-core machine of 2026 (a design on 8 decks is some 850 units, with
#: ``--top 1000`` some 24,000; on 100 decks some 10,000).
MAX_COST = 50_000
#: The most deck counts ``--decks LOW:HIGH`` may span: each is a pricing of its own (a second of some games') and a
#: column of every table.
MAX_DECK_COUNTS = 32
#: The grid by default, as typed: from 1 to 1000 by 1.
DEFAULT_STEP, DEFAULT_MIN_PAY, DEFAULT_MAX_PAY = "1", "1", "1000"

# The inputs of a design, declared once for the command's options and the request's keys.
EDGE = Input("edge", "text", "The house edge wanted: a band LOW:HIGH (5%:6%, 0.05:0.06), or X with --solve.",
             metavar="LOW:HIGH|X")
FREE = Input("free", "words", "An outcome whose pay is searched (repeatable, at most 4; default every winning"
             " outcome).", metavar="OUTCOME", multiple=True)
STEP = Input("step", "pay", "The pays' grid step.", metavar="PAY", default=DEFAULT_STEP)
MIN_PAY = Input("min-pay", "pay", "The lowest pay searched.", metavar="PAY", default=DEFAULT_MIN_PAY)
MAX_PAY_INPUT = Input("max-pay", "pay", f"The highest pay searched (at most {MAX_PAY:,}).", metavar="PAY",
                      default=DEFAULT_MAX_PAY)
MONOTONE = Input("monotone", "flag", "Keep the free outcomes' pays in the order of their pays in the file (ties free).")
TOP = Input("top", "whole", "Pay tables listed.", low=1, high=MAX_TOP, default=DEFAULT_TOP)
SOLVE = Input("solve", "text", "The exact pay of OUTCOME for the edge X, the others fixed, and the grid's pays either"
              " side.", metavar="OUTCOME")
CUT_CARD = Input("cut-card", "whole", "The cut card's place, in cards from the end, for the countability figure (a"
                 " game with the capability countability).", low=MIN_CUT_CARD, default=DEFAULT_CUT_CARD)
#: Every input of a design but the bet and the shoe.
INPUTS = (EDGE, FREE, STEP, MIN_PAY, MAX_PAY_INPUT, MONOTONE, TOP, SOLVE, CUT_CARD)
#: The decimal places of a design's decimals (SD, volatility index, top award, countability; the rest is exact).
DESIGN_PRECISION = replace(PRECISION, high=30, default=4)


def parse_edge(text: str) -> Fraction:
    """An edge as typed: ``5%``, ``0.05`` or ``1/20``, exactly.

    >>> parse_edge("7.6%"), parse_edge("1/20")
    (Fraction(19, 250), Fraction(1, 20))
    """
    try:
        return parse_percent(text)
    except (ValueError, ZeroDivisionError):
        raise ExactOddsError(f"malformed house edge {shown(text)!r}: write e.g. 5%, 0.05 or 1/20") from None


def parse_band(text: str) -> tuple[Fraction, Fraction]:
    """``LOW:HIGH`` (or one edge X, the band X:X) as two exact edges.

    >>> parse_band("5%:6%")
    (Fraction(1, 20), Fraction(3, 50))
    """
    low, colon, high = text.partition(":")
    first = parse_edge(low)
    return (first, parse_edge(high)) if colon else (first, first)


def parse_pay_option(text: str, name: str) -> Fraction:
    """A pay or a step as typed (``40``, ``1/2``, ``0.5``), above 0 and at most 10^6.

    >>> parse_pay_option("1/2", "--step")
    Fraction(1, 2)
    >>> parse_pay_option("0", "--step")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: --step must be above 0, not 0
    """
    try:
        value = parse_fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ExactOddsError(f"malformed {name} {shown(text)!r}: write e.g. 1, 0.5 or 1/2") from None
    if value <= 0:
        raise ExactOddsError(f"{name} must be above 0, not {shown(text)}")
    if value > MAX_PAY:
        raise ExactOddsError(f"{name} must be at most {MAX_PAY:,} to 1, not {shown(text)}")
    return value


def one_bet(named: Sequence[str], game: Game, settings: Settings, bets: Sequence[str | Bet] | None) -> Bet:
    """The one bet named, as a bet of the game under its settings (``bets``: the bets chosen from ``named``, a bets
    file's standing for its id); a bets file's other bets are not designed.

    >>> from exactodds.games import find_game
    >>> dragon_tiger = find_game("dragon-tiger")
    >>> one_bet(["tie"], dragon_tiger, dragon_tiger.settings_of({"tie-pays": "11"}), ["tie"]).outcomes[0].net
    Fraction(11, 1)
    >>> one_bet(["all"], dragon_tiger, dragon_tiger.settings_of({}), ["all"])
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: design takes one bet (--bet ID), not all
    """
    if len(named) != 1 or named[0] == ALL_BETS or bets is None:
        raise ExactOddsError(f"design takes one bet (--bet ID), not {shown(', '.join(named), 80)}")
    return game.resolve(bets[:1], settings)[0]


@dataclass(frozen=True)
class Order:
    """A design asked for, checked: the request, the band ``low`` to ``high``, the outcome solved (``None``: the
    band is searched; else the band is the one edge its pay is solved for)."""

    request: Request
    low: Fraction
    high: Fraction
    solve: str | None = None

    def cost(self) -> int:
        """The design's work, estimated before any is done (an upper bound), in units of one pricing of the bet on
        one shoe: the shoe, each deck count of a range, each shoe behind the countability figure (a game with it:
        the shoe at every depth, less one card of each row), each table's figures (its countability reads those
        shoes again and walks the shoe's coups) and the search's walk of the grid, each counted as the pricings it
        lasts. :func:`build_order` refuses an order of more than :data:`MAX_COST`.

        >>> from exactodds.request import read_setup
        >>> build_order(["dragon-7"], read_setup({"bet": ("dragon-7",)}), edge="7.6%", solve="win").cost()
        425
        """
        return work(self.request, self.solve).units

    def run(self, progress: Progress | None = None) -> Design | Solution:
        """The pay tables of the band, or the exact pay of the outcome solved; ``progress(done, total)`` told the
        units of :meth:`cost` done as they are."""
        if self.solve is not None:
            return solve(self.request, self.solve, self.low, progress)
        return design(self.request, self.low, self.high, progress)


def build_order(
    named: Sequence[str], setup: Setup, *, edge: str,
    free: Sequence[str] = (), step: str = DEFAULT_STEP, min_pay: str = DEFAULT_MIN_PAY,
    max_pay: str = DEFAULT_MAX_PAY, monotone: bool = False,
    top: int = DEFAULT_TOP, solve: str | None = None, cut_card: int = DEFAULT_CUT_CARD,
    decks: tuple[int, int] | None = None, pick: int = 1,
) -> Order:
    """The design the options ask for, each checked before any work (``named``: the bet ids as given; the setup's
    game, settings and bets: those chosen from them; ``pick``: the table ``--write`` writes, within ``top``). The cut
    card is checked only for a game with the countability figure, the one thing it places.

    >>> from exactodds.request import read_setup
    >>> order = build_order(["dragon-7"], read_setup({"bet": ("dragon-7",)}), edge="7.6%", solve="win")
    >>> order.request.bet.id, order.low, order.solve
    ('dragon-7', Fraction(19, 250), 'win')
    >>> setup = read_setup({"game": "dragon-tiger", "bet": ("tie",)})
    >>> build_order(["tie"], setup, edge="5%:6%").request.rules.header()
    'dragon-tiger · tie 8:1'
    """
    game, shoe, bets = setup.game, setup.shoe, setup.bets
    low, high = parse_band(edge)
    step_value = parse_pay_option(step, "--step")
    grid = Grid(parse_pay_option(min_pay, "--min-pay"), step_value, parse_pay_option(max_pay, "--max-pay"))
    if grid.low > grid.high:
        raise ExactOddsError(f"--min-pay {shown(min_pay)} is above --max-pay {shown(max_pay)}")
    bet = one_bet(named, game, setup.settings, bets)
    if pick > top:
        raise ExactOddsError(f"--pick {pick} is beyond the {top} tables listed (--top {top})")
    if game.has("countability") and cut_card + 6 >= shoe.size:
        raise ExactOddsError(f"the cut card {shown(cut_card)} cards from the end leaves no coup in a shoe of"
                             f" {shoe.size} cards")
    if solve is None and ":" not in edge:
        raise ExactOddsError(f"--edge {shown(edge.strip())} is one edge, a band of no width: give a band LOW:HIGH (e.g."
                             " 5%:6%), or --solve OUTCOME for the exact pay of that edge")
    if solve is not None:
        if low != high:
            raise ExactOddsError("--solve takes one edge X (--edge 7.6%), not a band")
        if free:
            raise ExactOddsError("--solve names the one outcome solved: give no --free with it")
    if decks is not None and decks[1] - decks[0] + 1 > MAX_DECK_COUNTS:
        raise ExactOddsError(f"--decks {decks[0]}:{decks[1]} spans {decks[1] - decks[0] + 1:,} deck counts, more than"
                             f" {MAX_DECK_COUNTS} (each a pricing and a column of every table): give a shorter range,"
                             f" e.g. {decks[0]}:{decks[0] + MAX_DECK_COUNTS - 1}")
    request = Request(game, setup.settings, bet, shoe, tuple(free) or None, grid, monotone, top, decks, cut_card)
    order = Order(request, low, high, solve)
    cost = order.cost()
    if cost > MAX_COST:
        raise ExactOddsError(f"this design would cost about {cost:,} pricings of the bet on a shoe, more than"
                             f" {MAX_COST:,}: ask for less (a smaller shoe, a shorter --decks range, a smaller --top"
                             " or a coarser grid: --step, --max-pay)")
    return order
