"""The lab's plots: a bet's exact EV through simulated shoes (``shoe-ev``), a count's win rate by threshold.

Both come from shoes dealt by the lab for a seed (the same seed gives the same shoes, so
the same file): the EV of each coup is exact (the cards unseen priced exhaustively); the
win rates are estimates with their standard errors, and are drawn as such.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..cards import Shoe  # noqa: F401 (the doctests' shoes)
from ..errors import ExactOddsError, shown
from ..exact import fraction_text, percent_text
from ..lab.advantage import house_edges
from ..lab.chunk import price_chunk
from ..lab.plan import SimulationPlan
from ..lab.scan import ScanResult, parse_scan, scan_thresholds
from ..present import shoe_rules_header
from ..version import __version__
from .base import PlotRequest, literal, new_figure, require

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Cards per bin of the shoe-ev plot (a quarter deck).
BIN_CARDS = 13
#: The band drawn around the median EV: from this percentile to its complement.
BAND = 10
#: A z of 1.96: the error bars of the threshold plot are 95% intervals (normal approximation).
Z95 = 1.96
#: Shoes dealt when the request names no number, by plot.
DEFAULT_SHOES = {"shoe-ev": 200, "threshold": 1000}
#: The seed when the request names none (a plot is the same file every time).
DEFAULT_SEED = 1
#: The count of the threshold plot when none is given: Jacobson's Dragon 7 count.
DEFAULT_TAGS = "0,0,0,-1,-1,-1,-1,2,2,0"
#: The thresholds scanned when none are given.
DEFAULT_SCAN = "0:10:1"
#: Characters per line of a caption.
CAPTION_WIDTH = 150


def _panels(figure: Figure) -> Any:
    """Two panels on a shared x axis: the figure above, a smaller one below."""
    return figure.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 1]})


def _caption(figure: Figure, text: str) -> None:
    """The source of a plot, in small type under it (the panels make room for it)."""
    lines = textwrap.wrap(literal(f"{text} · exactodds {__version__}"), CAPTION_WIDTH)
    room = 0.012 + 0.02 * len(lines)
    cast(Any, figure.get_layout_engine()).set(rect=(0, room, 1, 1 - room))
    figure.text(0.01, 0.008, "\n".join(lines), fontsize=7, color="0.35", ha="left", va="bottom")


def _plan(request: PlotRequest, kind: str, allowed: tuple[str, ...], **options: Any) -> SimulationPlan:
    """The lab's plan for a plot: one bet (default the game's: dragon-7), the request's shoes and seed, and its dealing
    params; a game that does not simulate (capability ``simulate``) is refused in one line.

    Every option is checked here, before matplotlib is imported and any shoe is dealt.
    """
    rules = request.game.tableau_rules(request.settings, "simulate", f"plot {kind}")
    unknown = sorted(set(request.params) - set(allowed))
    if unknown:
        raise ExactOddsError(f"unknown plot option {unknown[0]!r}: this plot takes {', '.join(allowed)}")
    if len(request.bets) > 1:
        raise ExactOddsError("the lab's plots draw one bet: give one --bet")
    params = request.params
    plan = SimulationPlan.from_options(
        request.shoe, rules, bets=request.chosen(kind)[:1],
        shoes=DEFAULT_SHOES[kind] if request.shoes is None else request.shoes,
        seed=DEFAULT_SEED if request.seed is None else request.seed,
        cut_card=_whole(params.get("cut-card", "14")), burn=params.get("burn", "0"), **options,
    )  # fmt: skip
    require("matplotlib")  # every option checked: the library now, before the shoes are dealt
    return plan


def _whole(text: str) -> int:
    if not text.isascii() or not text.strip().isdigit():
        raise ExactOddsError(f"the cut card is a number of cards, not {shown(text)!r}")
    return int(text)


@dataclass(frozen=True)
class ShoeEvSample:
    """The exact EV of one bet before every coup of some simulated shoes, and where in the shoe each coup came.

    ``seen[i]`` is the number of cards seen before coup i (those dealt, and a burn card shown;
    cards burned face down stay unseen),
    ``ev[i]`` the bet's exact EV then (as a float, for drawing), ``positive[i]`` whether that
    EV is above 0 (decided exactly).
    """

    plan: SimulationPlan
    seen: np.ndarray
    ev: np.ndarray
    positive: np.ndarray
    #: The bet's exact EV on the full shoe.
    full_ev: Fraction

    @property
    def share_positive(self) -> Fraction:
        """The share of the coups dealt where the bet's exact EV is positive (a statistic of these shoes)."""
        return Fraction(int(np.count_nonzero(self.positive)), len(self.positive))


def shoe_ev_sample(plan: SimulationPlan) -> ShoeEvSample:
    """Deal and price ``plan``'s shoes (its first bet), keeping the exact EV before each coup.

    >>> plan = SimulationPlan.from_options(Shoe.standard(8), bets=["dragon-7"], shoes=3, seed=1)
    >>> sample = shoe_ev_sample(plan)
    >>> int(sample.seen.min()), len(sample.ev) == len(sample.positive) > 200, 0 < sample.share_positive < 1
    (0, True, True)
    """
    work = plan.work()
    seen, ev, positive = [], [], []
    for index in range(plan.chunk_count):
        priced = price_chunk(work, index)
        seen.append(plan.shoe.size - priced.remaining)
        ev.append(priced.num[:, 0].astype(np.float64) / (priced.orderings.astype(np.float64) * priced.scale))
        positive.append(priced.num[:, 0] > 0)
    bet = plan.bets[0]
    full = -house_edges(plan.shoe, plan.rules, [bet])[bet.id]
    return ShoeEvSample(plan, np.concatenate(seen), np.concatenate(ev), np.concatenate(positive), full)


def _source(plan: SimulationPlan) -> str:
    burn = f", burn {plan.burn}" if plan.burn else ""
    return f"Source: exactodds simulate, {plan.shoes:,} shoes, seed {plan.seed}, cut card {plan.cut_card}{burn}"


def shoe_ev_figure(sample: ShoeEvSample) -> Figure:
    """The shoe-ev plot of ``sample``: EV against cards seen (points, median and band), and the share above 0."""
    figure = new_figure(8.0, 6.0)
    top, bottom = _panels(figure)
    plan, bet = sample.plan, sample.plan.bets[0].id
    top.scatter(sample.seen, sample.ev * 100, s=2, alpha=0.12, color="tab:blue", linewidths=0, rasterized=True,
                label="a coup (exact EV of the cards unseen)")  # fmt: skip
    edges = np.arange(0, int(sample.seen.max()) + BIN_CARDS + 1, BIN_CARDS)
    which = np.digitize(sample.seen, edges) - 1
    centres, median, low, high, share = [], [], [], [], []
    for k in range(len(edges) - 1):
        inside = which == k
        if np.count_nonzero(inside) < 10:
            continue
        values = sample.ev[inside] * 100
        centres.append((edges[k] + edges[k + 1]) / 2)
        median.append(np.median(values))
        low.append(np.percentile(values, BAND))
        high.append(np.percentile(values, 100 - BAND))
        share.append(np.count_nonzero(sample.positive[inside]) / np.count_nonzero(inside) * 100)
    top.fill_between(centres, low, high, color="tab:orange", alpha=0.25,
                     label=f"{BAND}th to {100 - BAND}th percentile")  # fmt: skip
    top.plot(centres, median, color="tab:orange", linewidth=2, label="median")
    full = float(sample.full_ev) * 100
    top.axhline(full, color="tab:red", linestyle="--", linewidth=1,
                label=f"full shoe (exact): {percent_text(sample.full_ev, 4)}")  # fmt: skip
    top.axhline(0, color="black", linewidth=0.8)
    # The last coups of a shoe reach extreme EVs: the axis shows the middle 99.5% of the coups (the rest are few).
    low_limit, high_limit = np.percentile(sample.ev * 100, [0.25, 99.75])
    margin = (high_limit - low_limit) * 0.05
    top.set_ylim(min(low_limit, full) - margin, max(high_limit, 0) + margin)
    top.set_ylabel(literal(f"EV of {bet} (% of the bet)"))
    top.set_title(literal(f"{bet}: exact EV before each coup, through the shoe"), fontsize=11)
    top.legend(loc="upper left", fontsize=8)
    bottom.bar(centres, share, width=BIN_CARDS * 0.9, color="tab:green")
    bottom.set_ylabel("EV > 0 (% of coups)")
    bottom.set_xlabel("cards seen before the coup (dealt, or the burn card shown)")
    positive = percent_text(sample.share_positive, 2)
    _caption(figure, f"{_source(plan)}; {shoe_rules_header(plan.shoe, plan.rules)}. EV > 0 on {positive} of"
                    f" {len(sample.ev):,} coups (the axis shows the middle 99.5% of them).")  # fmt: skip
    return figure


def shoe_ev_plot(request: PlotRequest) -> Figure:
    """The ``shoe-ev`` plot: one bet's exact EV before each coup of simulated shoes (default 200, seed 1).

    Params: ``cut-card``, ``burn`` (as ``simulate``'s options).

    >>> from exactodds.games import find_game
    >>> game = find_game("punto-banco")
    >>> figure = shoe_ev_plot(PlotRequest(game, game.settings_of({}), Shoe.standard(8), ("panda-8",), shoes=2))
    >>> figure.axes[1].get_xlabel()
    'cards seen before the coup (dealt, or the burn card shown)'
    """
    plan = _plan(request, "shoe-ev", ("cut-card", "burn"), strategies=["perfect"])
    return shoe_ev_figure(shoe_ev_sample(plan))


def threshold_figure(scan: ScanResult, bet: str) -> Figure:
    """The threshold plot of ``scan`` for ``bet``: win rate per 100 coups by threshold (95% bars) and bets per 100."""
    perfect, rows = scan.figures(bet)
    best = scan.best(bet)
    x = [float(t) for t in scan.thresholds]
    rate = [float(f.ev_per_100) for f in rows]
    bars = [Z95 * f.ev_per_100_se for f in rows]
    figure = new_figure(8.0, 6.0)
    top, bottom = _panels(figure)
    top.errorbar(x, rate, yerr=bars, marker="o", markersize=4, capsize=3, color="tab:blue",
                 label="count: win rate ± 95% (estimate)")  # fmt: skip
    top.axhline(float(perfect.ev_per_100), color="tab:green", linestyle="--", linewidth=1,
                label=f"perfect play (the bound): {float(perfect.ev_per_100):.3f}")  # fmt: skip
    top.axhline(0, color="black", linewidth=0.8)
    k = scan.thresholds.index(best)
    top.plot([x[k]], [rate[k]], marker="*", markersize=16, color="tab:red", linestyle="none",
             label=f"best: true count >= {fraction_text(best)}")  # fmt: skip
    top.set_ylabel("win rate (units per 100 coups dealt)")
    edge = perfect.house_edge
    edge_text = "" if edge is None else f"; house edge without a count {percent_text(edge, 4)} (exact)"
    top.set_title(literal(f"{bet}: a count's win rate by true-count threshold{edge_text}"), fontsize=10)
    top.legend(loc="best", fontsize=8)
    bottom.plot(x, [float(f.bets_per_100) for f in rows], marker="o", markersize=3, color="tab:purple")
    bottom.set_ylabel("bets per 100 coups")
    bottom.set_xlabel("true-count threshold (bet when running count / decks unseen >= it)")
    tags = ",".join(str(t) for t in scan.plan.counts[bet].tags[:10])
    _caption(figure, f"{_source(scan.plan)}, every threshold on the same shoes; tags {tags};"
                    f" {shoe_rules_header(scan.plan.shoe, scan.plan.rules)}")  # fmt: skip
    return figure


def threshold_plot(request: PlotRequest) -> Figure:
    """The ``threshold`` plot: a count's estimated win rate by true-count threshold on the same simulated shoes.

    Params: ``tags`` (default Jacobson's Dragon 7 count), ``thresholds`` (``FROM:TO:STEP`` or a
    list, default 0:10:1), ``cut-card``, ``burn``; 1000 shoes and seed 1 unless the request says.

    >>> from exactodds.games import find_game
    >>> game = find_game("punto-banco")
    >>> request = PlotRequest(game, game.settings_of({}), Shoe.standard(8), shoes=2, params={"thresholds": "0,3"})
    >>> threshold_plot(request).axes[0].get_ylabel()
    'win rate (units per 100 coups dealt)'
    """
    scanned = parse_scan(request.params.get("thresholds", DEFAULT_SCAN))
    tags = request.params.get("tags", DEFAULT_TAGS)
    plan = _plan(request, "threshold", ("tags", "thresholds", "cut-card", "burn"), tags=[tags],
                 thresholds=[fraction_text(scanned[0])])  # fmt: skip
    return threshold_figure(scan_thresholds(plan, scanned), plan.bet_ids[0])
